// Whether a failed push or fetch was refused by the remote (its policy: permissions, protected
// branches, rulesets, hooks), which no retry changes, or failed on the way (GitHub's 5xx, a
// dropped or stalled connection), which a retry may get past. Judged by git's and GitHub's exact
// words (git 2.39 with curl over smart HTTP, as on hosted runners); LC_ALL=C keeps them English.
import { mask } from './git-errors.js'

export type RemoteFailure = { kind: 'refused' | 'transient'; why: string }

/** The HTTP status in curl's words: `The requested URL returned error: 502`, `RPC failed; HTTP 502`. */
const HTTP_STATUS = /(?:The requested URL returned error:|RPC failed; HTTP) (\d{3})\b/

/** Words of a refusal, whatever the transport said around them. */
const REFUSED = [
  /Permission to \S+ denied|Permission denied|access denied/i,
  /not allowed/,
  /Write access to repository not granted/,
  /Authentication failed for/,
  /\bGH0\d\d\b/,
  /protected branch/i,
  /pre-receive hook declined/
]

/** A connection that broke, stalled or never came up, and GitHub's own transient failures. */
const TRANSIENT = [
  /RPC failed; curl \d+/,
  /the remote end hung up unexpectedly/,
  /unexpected disconnect while reading sideband packet/,
  /Empty reply from server/,
  /Operation too slow/,
  /Operation timed out|Connection timed out/,
  /Connection reset by peer|Recv failure|Send failure/,
  /Failed to connect to|Could not resolve host/,
  /transfer closed with outstanding read data remaining|early EOF/,
  /HTTP\/2 stream \d+ was not closed cleanly/,
  /^remote: Internal Server Error/m,
  /^remote: fatal error in commit_refs/m
]

/**
 * A push or fetch that failed before any ref was reported on: refused, transient, or undefined
 * when git's words are neither (a local problem, reported as it is).
 */
export function remoteFailure(stderr: string): RemoteFailure | undefined {
  const why = remoteWords(stderr)
  const status = Number(HTTP_STATUS.exec(stderr)?.[1])
  // 408 and 429 are the server asking for another try, like a 5xx.
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return { kind: 'refused', why }
  }
  if (REFUSED.some((r) => r.test(stderr))) return { kind: 'refused', why }
  if (status >= 500 || status === 408 || status === 429) return { kind: 'transient', why }
  if (TRANSIENT.some((r) => r.test(stderr))) return { kind: 'transient', why }
  return undefined
}

/**
 * A ref the remote did not update, by the reason git reports for it (porcelain
 * `[remote rejected] (<reason>)`): GitHub's own failures are transient, any other reason is the
 * remote's refusal (a hook, a rule, a protected branch), even when a hook's words sound transient.
 */
export function refRejection(summary: string, remoteSays: string): RemoteFailure {
  const why = remoteSays ? `${summary}: ${remoteSays}` : summary
  const transient =
    summary === '[remote rejected] (Internal Server Error)' ||
    summary === '[remote failure] (remote failed to report status)' ||
    (summary === '[remote rejected] (failure)' && /fatal error in commit_refs/.test(remoteSays))
  return { kind: transient ? 'transient' : 'refused', why }
}

/**
 * git's first error (the cause: `error: RPC failed; HTTP 403 …` comes before `fatal: the remote
 * end hung up unexpectedly`), then what the remote said (`remote:` lines); one line.
 */
function remoteWords(stderr: string): string {
  const lines = stderr.split(/\r?\n|\r/).map((l) => l.trim())
  const remote = lines.filter((l) => l.startsWith('remote: ')).map((l) => l.slice(8).trim())
  const own = lines.filter((l) => l && !l.startsWith('remote: '))
  const cause = own.find((l) => /^(error|fatal): /.test(l)) ?? own.at(-1) ?? ''
  return mask([cause, ...remote].filter(Boolean).join(': '))
}
