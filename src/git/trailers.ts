import { validateBranchName } from './branch.js'
import { git } from './git.js'

/** The trailers a stage commit carries; re-runs find their earlier commit by them. */
export const TRAILER_KEYS = {
  profile: 'Itervox-Profile',
  run: 'Itervox-Run',
  outcome: 'Itervox-Outcome'
} as const

export type Trailer = readonly [key: string, value: string]

export function stageTrailers(t: { profile: string; run: string; outcome: string }): Trailer[] {
  return [
    [TRAILER_KEYS.profile, t.profile],
    [TRAILER_KEYS.run, t.run],
    [TRAILER_KEYS.outcome, t.outcome]
  ]
}

/** The message, a blank line, then one `Key: value` line per trailer. */
export function formatMessage(message: string, trailers: readonly Trailer[]): string {
  const body = message.replace(/\0/g, '').trimEnd() || 'handoff-action stage'
  if (trailers.length === 0) return `${body}\n`
  const lines = trailers.map(([key, value]) => {
    if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(key)) throw new Error(`bad trailer key: ${key}`)
    if (/[\r\n\0]/.test(value) || !value.trim()) throw new Error(`bad trailer value for ${key}`)
    return `${key}: ${value.trim()}`
  })
  return `${body}\n\n${lines.join('\n')}\n`
}

export interface StageCommit {
  sha: string
  /** The `Itervox-Outcome` it recorded, if any. */
  outcome: string | null
}

/**
 * The newest commit on the local branch whose trailers name this profile and run, so a re-run
 * finds the deliverable its first attempt already pushed. Looks at `maxCount` commits at most.
 */
export async function findStageCommit(
  repo: string,
  branch: string,
  stage: { profile: string; run: string },
  maxCount = 500
): Promise<StageCommit | null> {
  await validateBranchName(branch)
  const r = await git(repo, [
    'log',
    `--max-count=${maxCount}`,
    '--format=%H%x1f%(trailers:only,unfold)%x1e',
    `refs/heads/${branch}`,
    '--'
  ])
  for (const record of r.stdout.split('\x1e')) {
    const [sha, block = ''] = record.trim().split('\x1f')
    if (!sha) continue
    const trailers = new Map<string, string>()
    for (const line of block.split('\n')) {
      const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line)
      if (m) trailers.set(m[1].toLowerCase(), m[2].trim())
    }
    if (
      trailers.get(TRAILER_KEYS.profile.toLowerCase()) === stage.profile &&
      trailers.get(TRAILER_KEYS.run.toLowerCase()) === stage.run
    ) {
      return { sha, outcome: trailers.get(TRAILER_KEYS.outcome.toLowerCase()) ?? null }
    }
  }
  return null
}
