import { execFile } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'
import { GitError, gitFailure } from './git-errors.js'

export { DiskFullError, GitError } from './git-errors.js'

/**
 * The one place that runs git. Every call is hardened against what an agent may plant: hooks,
 * fsmonitor, the ssh command, the credential helper and the `ext::` transport are overridden on
 * the command line (which outranks every config file), system and global config and the
 * environment's GIT_* variables are not read, and replace refs are ignored. What only the
 * repository's own config could still do (`url.*.insteadOf`, filters, URL-specific helpers) is
 * undone by restoring `.git/config` (guard.ts) before anything is committed or pushed.
 */
const HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.sshCommand=ssh',
  '-c',
  'credential.helper=',
  '-c',
  'protocol.ext.allow=never',
  // Bare origins in tests and local use are plain paths.
  '-c',
  'protocol.file.allow=always',
  // The default attributes file lives in the agent's home and could pick merge drivers.
  '-c',
  'core.attributesFile=/dev/null',
  // An isolated agent's tree is handed over and back by chown, which moves every file's ctime:
  // git trusts size, mtime and inode, and the take-back moves the mtime of each file the agent
  // changed (isolation/agent-tree.ts), so no file is read again for its ctime alone.
  '-c',
  'core.trustctime=false'
]

// The housekeeping git starts after a fetch or a commit (`maintenance run --auto`; `gc --auto`
// directly, before git 2.29) is one more process that a stage's one-job checkout never gains
// from. In a user's own clone (the CLI) their own git commands still keep it.
const NO_UPKEEP = ['-c', 'maintenance.auto=false', '-c', 'gc.auto=0']

/** Token auth for fetch and push: sent as an extra header to `serverUrl` only, never stored. */
export interface GitAuth {
  /** e.g. `https://github.com` (GITHUB_SERVER_URL). */
  serverUrl: string
  token: string
}

export interface GitOptions {
  /** Extra environment, e.g. `GIT_INDEX_FILE` or `GIT_AUTHOR_NAME`. */
  env?: Record<string, string>
  auth?: GitAuth
  /** Bytes for stdin; stdin is closed at once without it. */
  input?: string | Buffer
  /** Exit codes that answer a question rather than fail (1 for `merge-base --is-ancestor`). */
  okCodes?: number[]
}

export interface GitResult {
  stdout: string
  stderr: string
  code: number
}

export interface GitBytesResult {
  stdout: Buffer
  stderr: string
  code: number
}

/** The base64 credential checkout uses; callers mask it (and the token) in logs. */
export function basicCredential(token: string): string {
  return Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64')
}

/** Runs git in `cwd`; stdout as UTF-8 text. */
export async function git(cwd: string, args: string[], opts: GitOptions = {}): Promise<GitResult> {
  const r = await gitBytes(cwd, args, opts)
  return { stdout: r.stdout.toString('utf8'), stderr: r.stderr, code: r.code }
}

/** Runs git in `cwd`; stdout as bytes (raw tree objects, file contents). */
export function gitBytes(
  cwd: string,
  args: string[],
  opts: GitOptions = {}
): Promise<GitBytesResult> {
  const { file, args: prefix, env } = gitInvocation(cwd, opts)
  const ok = opts.okCodes ?? []
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      [...prefix, ...args],
      {
        cwd,
        env,
        encoding: 'buffer',
        maxBuffer: 512 * 1024 * 1024,
        windowsHide: true
      },
      (err, stdout, stderrBytes) => {
        const stderr = stderrBytes.toString('utf8')
        if (!err) return resolve({ stdout, stderr, code: 0 })
        const code = typeof err.code === 'number' ? err.code : null
        if (code !== null && ok.includes(code)) return resolve({ stdout, stderr, code })
        reject(
          gitFailure(cwd, args, code, stderr || `could not run ${file} in ${cwd}: ${err.message}`)
        )
      }
    )
    child.stdin?.on('error', () => {
      // git may exit before reading all of stdin; its exit status tells what happened.
    })
    child.stdin?.end(opts.input)
  })
}

/** How to start git in `cwd`: the executable, what goes before the subcommand, the environment. */
export interface GitInvocation {
  /** The git that `chooseGit` picked for this process. */
  file: string
  /** The `-c` options (hardening, no upkeep) and `safe.directory`; the subcommand follows. */
  args: string[]
  env: NodeJS.ProcessEnv
}

/**
 * The executable, options and environment every git we start gets, whether run once (`git`,
 * `gitBytes`) or kept running (objects.ts). Callers add their own options after `args`.
 */
export function gitInvocation(
  cwd: string,
  opts: Pick<GitOptions, 'env' | 'auth'> = {}
): GitInvocation {
  const { file, pathEnv } = gitExecutable()
  return {
    file,
    // The workspace we were given is ours even when another user owns it (container jobs,
    // where checkout's own exception lives in a global config we do not read).
    args: [...HARDENING, ...NO_UPKEEP, '-c', `safe.directory=${cwd}`],
    env: gitEnv(pathEnv, opts)
  }
}

function gitEnv(pathEnv: string, opts: Pick<GitOptions, 'env' | 'auth'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  // GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS, GIT_SSH_COMMAND... would redirect us.
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v
  Object.assign(env, {
    PATH: pathEnv,
    GIT_CONFIG_NOSYSTEM: '1',
    // Always empty and not writable by an agent running as our user.
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    // Messages are parsed (push rejections), so they must not be translated.
    LC_ALL: 'C'
  })
  if (opts.auth) Object.assign(env, authEnv(opts.auth))
  Object.assign(env, opts.env)
  return env
}

/**
 * The header travels in command-scope config from the environment, so it is in no file and
 * in no argv (nor in a GitError). The empty value first drops any header checkout persisted
 * for the same server, which would otherwise be sent too.
 */
function authEnv(auth: GitAuth): Record<string, string> {
  const key = `http.${new URL(auth.serverUrl).origin}/.extraheader`
  return {
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: key,
    GIT_CONFIG_VALUE_0: '',
    GIT_CONFIG_KEY_1: key,
    GIT_CONFIG_VALUE_1: `AUTHORIZATION: basic ${basicCredential(auth.token)}`
  }
}

let resolved: { file: string; pathEnv: string } | undefined

/**
 * Which git to run (see chooseGit), fixed for the life of the process at its first git, before
 * any agent ran.
 */
function gitExecutable(): { file: string; pathEnv: string } {
  resolved ??= chooseGit(process.env.PATH ?? '', writable)
  return resolved
}

/**
 * PATH directories we can write to are passed over when another has git, and left out of the
 * PATH git's own children see, because an agent running as our user could plant a `git` (or an
 * `ssh`) there: `~/.local/bin` precedes `/usr/bin` on hosted runners. As root nothing is out of
 * the agent's reach, so PATH is used as it is.
 */
export function chooseGit(
  pathEnv: string,
  canWrite: (dir: string) => boolean
): { file: string; pathEnv: string } {
  const dirs = pathEnv.split(path.delimiter).filter((d) => path.isAbsolute(d))
  const locked = dirs.filter((d) => !canWrite(d))
  const safe = findGit(locked)
  return safe
    ? { file: safe, pathEnv: locked.join(path.delimiter) }
    : { file: findGit(dirs) ?? 'git', pathEnv }
}

function writable(p: string): boolean {
  try {
    accessSync(p, constants.W_OK)
    return true
  } catch {
    return false
  }
}

function findGit(dirs: string[]): string | undefined {
  for (const d of dirs) {
    const candidate = path.join(d, 'git')
    try {
      if (!statSync(candidate).isFile()) continue
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not in this directory
    }
  }
  return undefined
}

export interface GitVersion {
  major: number
  minor: number
  patch: number
  text: string
}

/** Below this, git lacks the fixes for CVE-2025-48384 and its siblings (as shipped by distros). */
const SAFE_GIT_VERSION = '2.39.5'

/** `git merge-tree --write-tree`, which the push retry rebuilds commits with, arrived in 2.38. */
export const PUSH_GIT_VERSION = '2.38.0'

export function parseGitVersion(text: string): GitVersion {
  const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text)
  if (!m) throw new GitError(['--version'], 0, `unrecognised version: ${text.trim()}`)
  const [, major = '', minor = '', patch = '0'] = m
  return { major: +major, minor: +minor, patch: +patch, text: `${major}.${minor}.${patch}` }
}

export function versionAtLeast(v: GitVersion, min: string): boolean {
  const [a = 0, b = 0, c = 0] = min.split('.').map(Number)
  return v.major !== a ? v.major > a : v.minor !== b ? v.minor > b : v.patch >= c
}

let version: Promise<GitVersion> | undefined

export function gitVersion(): Promise<GitVersion> {
  version ??= git('/', ['--version']).then((r) => parseGitVersion(r.stdout))
  return version
}

/** The installed git's version, and a warning to show when it is older than the safe minimum. */
export async function minimumVersion(): Promise<{ version: GitVersion; warning?: string }> {
  const v = await gitVersion()
  const warning = versionWarning(v)
  return warning ? { version: v, warning } : { version: v }
}

export function versionWarning(v: GitVersion): string | undefined {
  if (versionAtLeast(v, SAFE_GIT_VERSION)) return undefined
  return `git ${v.text} is older than ${SAFE_GIT_VERSION} and may lack the fixes for CVE-2025-48384 and related flaws; update git on this runner`
}
