// The real agent CLIs the contract suite runs, at pinned versions, installed on demand from the
// npm registry into a cache outside the repository (one folder per package@version, reused).
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { AGENT_CLI_VERSIONS, type AgentCliName } from '../../src/agent/cli-versions.js'

const run = promisify(execFile)

export type CliName = AgentCliName

// Kept in src, so that the workflows `init` writes install the very versions tested here.
export const PINNED = AGENT_CLI_VERSIONS

function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(base, 'itervox-handoff', 'agent-clis')
}

/** The folder holding the CLI's `node_modules/.bin/<name>`, installed first if need be. */
export async function installedCli(name: CliName): Promise<string> {
  const { pkg, version } = PINNED[name]
  const dir = join(cacheRoot(), `${pkg.replace('/', '+')}@${version}`)
  if (existsSync(join(dir, 'node_modules', '.bin', name))) return join(dir, 'node_modules', '.bin')
  // Installed beside and moved in whole, so an interrupted install is never taken for done.
  const tmp = `${dir}.partial-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  writeFileSync(join(tmp, 'package.json'), '{"private":true}\n')
  try {
    await run(
      'npm',
      [
        'install',
        ...['--no-save', '--no-audit', '--no-fund', '--ignore-scripts'],
        // An unreachable registry should fail the suite in seconds, not after npm's minute.
        ...['--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=5000'],
        `${pkg}@${version}`
      ],
      { cwd: tmp, maxBuffer: 16 * 1024 * 1024 }
    )
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true })
    const out = `${(e as { stderr?: string }).stderr ?? ''}`
    const why = out.split('\n').find((l) => /npm error (code|network|\d{3})/.test(l)) ?? ''
    throw new Error(
      `cannot install ${pkg}@${version} from the npm registry${why ? ` (${why.replace(/^npm error /, '')})` : ''}`,
      { cause: e }
    )
  }
  // Claude Code's package ships a shell stub in place of its binary; its postinstall (which
  // npm 11 does not run without an allow-list) copies the platform package's native binary
  // over it. The other two need none of their install scripts to run headless.
  if (name === 'claude') {
    const pkgDir = join(tmp, 'node_modules', pkg)
    await run(process.execPath, ['install.cjs'], { cwd: pkgDir })
  }
  const { stdout } = await run(join(tmp, 'node_modules', '.bin', name), ['--version'])
  if (!stdout.includes(version)) {
    throw new Error(`${pkg}@${version} installed, but \`${name} --version\` says ${stdout.trim()}`)
  }
  rmSync(dir, { recursive: true, force: true })
  renameSync(tmp, dir)
  return join(dir, 'node_modules', '.bin')
}
