// The README's tables of the action's inputs and outputs say what action.yml says, and its
// opening usage snippet is what `init` writes, so neither can drift.
import { describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parse } from 'yaml'
import { actionsWorkflow } from '../../src/cli/actions-workflow.js'
import { scaffoldFiles } from '../../src/cli/scaffold.js'
import { loadWorkflowFile } from '../../src/config/load.js'

const README = readFileSync('README.md', 'utf8')
const ACTION = parse(readFileSync('action.yml', 'utf8')) as {
  inputs: Record<string, { required?: boolean; default?: string }>
  outputs: Record<string, unknown>
}

/** The rows of the first table under `heading`, each split into its cells. */
function table(heading: string): string[][] {
  const at = README.indexOf(`\n${heading}\n`)
  if (at < 0) throw new Error(`README.md has no "${heading}"`)
  const lines = README.slice(at).split('\n')
  const start = lines.findIndex((l) => l.startsWith('|'))
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'))
  return lines.slice(start + 2, end).map((l) =>
    l
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim())
  )
}

const code = (cell: string | undefined): string => /^`(.*)`$/.exec(cell ?? '')?.[1] ?? cell ?? ''

describe("the README's reference of the action", () => {
  it('lists every input of action.yml, in order, with whether it is required and its default', () => {
    const rows = table('### Inputs')
    expect(
      rows.map(([name, required, fallback]) => [code(name), required, code(fallback)])
    ).toEqual(
      Object.entries(ACTION.inputs).map(([name, spec]) => [
        name,
        spec.required === true ? 'yes' : 'no',
        spec.default ?? ''
      ])
    )
  })

  it('lists every output of action.yml, in order', () => {
    expect(table('### Outputs').map(([name]) => code(name))).toEqual(Object.keys(ACTION.outputs))
  })

  it('opens with the steps init writes, agent CLI version and all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'readme-init-'))
    for (const f of scaffoldFiles({
      tracker: 'github',
      command: 'claude',
      implementerPaths: ['**']
    })) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true })
      writeFileSync(join(dir, f.path), f.text)
    }
    const written = actionsWorkflow(loadWorkflowFile(join(dir, 'WORKFLOW.md'), {}).config)
    rmSync(dir, { recursive: true, force: true })
    const snippet = /```yaml\n([\s\S]*?)```/.exec(README)?.[1] ?? ''
    const lines = snippet
      .split('\n')
      .map((l) => l.trim().replace(/^- /, ''))
      .filter((l) => l && !l.startsWith('#') && l !== 'steps:')
    expect(lines.length).toBeGreaterThan(8)
    const ours = new Set(written.split('\n').map((l) => l.trim().replace(/^- /, '')))
    expect(lines.filter((l) => !ours.has(l))).toEqual([])
    // Before the first sh block, which test/cli/demo.test.ts runs.
    expect(README.indexOf('```yaml\n')).toBeLessThan(README.indexOf('```sh\n'))
  })
})
