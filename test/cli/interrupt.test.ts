import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scaffoldFiles } from '../../src/cli/scaffold.js'
import { CLI, cliEnv, git, repoWith, writeTestAgent } from './helpers.js'
import { cliInProcess } from './in-process.js'

const ISSUE = '---\ntitle: Add CSV export\nstate: Todo\n---\n\nUsers want CSV.\n'

function setup(): { repo: string; pidFile: string } {
  const outside = mkdtempSync(join(tmpdir(), 'cli-interrupt-'))
  const agent = writeTestAgent(outside)
  const files: Record<string, string> = {
    'README.md': '# app\n',
    '.itervox/issues/ENG-1.md': ISSUE
  }
  for (const f of scaffoldFiles({ tracker: 'local', command: agent, implementerPaths: ['**'] })) {
    files[f.path] = f.text
  }
  return { repo: repoWith(files), pidFile: join(outside, 'agent.pid') }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** `run --issue ENG-1` with a hanging agent, stopped by `stop` once the agent runs. */
async function interrupted(
  repo: string,
  pidFile: string,
  mode: string,
  stop: (cli: ReturnType<typeof spawn>) => void
): Promise<{
  code: number | null
  signal: string | null
  agent: number
  stderr: string
  ms: number
}> {
  const child = spawn(process.execPath, [CLI, 'run', '--issue', 'ENG-1'], {
    cwd: repo,
    env: cliEnv(repo, {
      ITERVOX_TEST_AGENT: JSON.stringify({ researcher: mode }),
      ITERVOX_TEST_AGENT_PID: pidFile
    }),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdout.resume()
  await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '')
  const agent = Number(readFileSync(pidFile, 'utf8'))
  const t0 = Date.now()
  stop(child)
  const [code, signal] = await new Promise<[number | null, string | null]>((r) =>
    child.on('close', (c, s) => r([c, s]))
  )
  return { code, signal, agent, stderr, ms: Date.now() - t0 }
}

describe('an interrupted local run', () => {
  it('ends the agent on SIGHUP, like Ctrl-C, and commits its partial', async () => {
    const { repo, pidFile } = setup()
    const r = await interrupted(repo, pidFile, 'hang', (c) => c.kill('SIGHUP'))
    expect(r.code).toBe(130)
    expect(r.stderr).toContain('SIGHUP: ending the agent')
    expect(alive(r.agent)).toBe(false)
    expect(git(repo, 'ls-tree', '--name-only', 'itervox/ENG-1:.itervox/handoff')).toMatch(
      /_researcher\.partial\.md$/
    )
    expect(git(repo, 'status', '--porcelain')).toBe('')
  })

  it('ends every agent process at once on a second Ctrl-C', async () => {
    const { repo, pidFile } = setup()
    const r = await interrupted(repo, pidFile, 'hang-hard', (c) => {
      c.kill('SIGINT')
      setTimeout(() => c.kill('SIGINT'), 300)
    })
    expect(r.code).toBe(130)
    // The agent ignores SIGTERM; without the second Ctrl-C it would get its 5 s of grace.
    expect(r.ms).toBeLessThan(4000)
    await until(() => !alive(r.agent), 2000)
  })

  it('after SIGKILL, the next run ends the orphaned agent and resumes with no cleanup by hand', async () => {
    const { repo, pidFile } = setup()
    const r = await interrupted(repo, pidFile, 'hang', (c) => c.kill('SIGKILL'))
    expect(r.signal).toBe('SIGKILL')
    expect(alive(r.agent)).toBe(true)

    // In-process: what the next run does is the command's; the runs above are the bundle's.
    const next = await cliInProcess(repo, ['run', '--issue', 'ENG-1'], { ITERVOX_TEST_AGENT: '{}' })
    expect(next.stderr).toMatch(
      /warning: saved the interrupted run's work as .*_researcher\.partial\.md/
    )
    expect(next.code).toBe(0)
    expect(next.stdout).toContain('moved to "')
    await until(() => !alive(r.agent), 3000)
    const trail = git(repo, 'ls-tree', '--name-only', 'itervox/ENG-1:.itervox/handoff').split('\n')
    expect(trail.filter((f) => f.endsWith('_researcher.partial.md'))).toHaveLength(1)
    expect(trail.filter((f) => /_researcher\.md$/.test(f))).toHaveLength(1)
    // Only the tracker's own file differs: the issue moved on.
    expect(git(repo, 'status', '--porcelain')).toBe('M .itervox/issues/ENG-1.md')
    expect(readFileSync(join(repo, '.itervox/issues/ENG-1.md'), 'utf8')).toContain(
      'state: "Implementing"'
    )
  })
})
