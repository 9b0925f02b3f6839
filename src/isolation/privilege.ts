import { execFile, spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'

/**
 * How the action reaches root for the few steps only root can take (creating the agent user,
 * handing its tree over and back): directly when it runs as root (container jobs, many
 * self-hosted runners), or through the runner's passwordless `sudo -n` (GitHub-hosted).
 */
export type Privilege = { kind: 'root' } | { kind: 'sudo'; sudo: string }

// System programs are taken from these directories only, never from PATH: `~/.local/bin`
// comes first on hosted runners' PATH.
const SYSTEM_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin']

/** The absolute path of a system program, or undefined when none is installed. */
export function systemProgram(name: string): string | undefined {
  for (const dir of SYSTEM_DIRS) {
    const candidate = path.join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

/** Root, passwordless sudo, or null when neither is available. */
export function findPrivilege(): Privilege | null {
  if (process.getuid?.() === 0) return { kind: 'root' }
  const sudo = systemProgram('sudo')
  if (!sudo) return null
  const probe = spawnSync(sudo, ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 })
  return probe.status === 0 ? { kind: 'sudo', sudo } : null
}

/** The command line that runs `argv` as root. */
export function asRoot(p: Privilege, argv: string[]): string[] {
  return p.kind === 'root' ? argv : [p.sudo, '-n', '--', ...argv]
}

interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * The whole environment of what the action runs as root or as the agent user: nothing of the
 * action's own (its tokens, the model key) is ever in it.
 */
export function systemEnv(): NodeJS.ProcessEnv {
  return { PATH: SYSTEM_DIRS.join(':'), LC_ALL: 'C' }
}

/** Runs a system command (no shell) and collects its output; never rejects. */
function run(argv: string[], o: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<RunResult>((resolve) => {
    const [file = '', ...args] = argv
    const child = execFile(
      file,
      args,
      { encoding: 'utf8', env: o.env ?? systemEnv() },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0
        resolve({ code, stdout, stderr: stderr || (err && !stderr ? err.message : '') })
      }
    )
    child.stdin?.on('error', () => {})
    child.stdin?.end(o.input)
  })
}

/** Runs `argv` as root; a failure becomes an Error whose message is git-free and one line. */
export async function runAsRoot(p: Privilege, argv: string[], what: string): Promise<string> {
  const r = await run(asRoot(p, argv))
  if (r.code !== 0) {
    const detail = r.stderr.trim().split('\n').pop() ?? `exit code ${r.code}`
    throw new Error(`could not ${what}: ${detail}`)
  }
  return r.stdout
}
