// One stage end to end against an agent that plants everything it can in .git and in its home:
// prepare, snapshot, the "agent", restore, commit, push. Nothing planted runs or redirects.
import { afterAll, afterEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { prepareIssueBranch } from '../../src/git/branch.js'
import { commitAllowed } from '../../src/git/commit.js'
import { restoreGitDir, snapshotGitDir } from '../../src/git/guard.js'
import { pushWithRetry } from '../../src/git/push.js'
import { stageTrailers } from '../../src/git/trailers.js'
import {
  cleanup,
  makeOrigin,
  markerScript,
  sh,
  shallowCheckout,
  tmp,
  write,
  type Origin
} from './repos.js'

const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME }
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
})
afterAll(cleanup)

const BRANCH = 'itervox/5'
const DELIVERABLE = '.itervox/handoff/2026-02-02T10-00-00.000Z_researcher.md'

/** A naive `git` in `work` with the agent's home: proves the plants would work. */
function naive(work: string, home: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home }
  return execFileSync('git', args, { cwd: work, env, encoding: 'utf8', stdio: 'pipe' })
}

function plant(work: string, origin: Origin, decoy: Origin, marker: string): string {
  const home = tmp('home-')
  const hooks = tmp('hooks-')
  for (const name of ['pre-commit', 'pre-push', 'post-checkout', 'reference-transaction']) {
    write(work, `.git/hooks/${name}`, markerScript(marker), 0o755)
    write(hooks, name, markerScript(marker), 0o755)
  }
  write(hooks, 'monitor', markerScript(marker), 0o755)
  const evil = path.join(hooks, 'evil.config')
  write(evil, '', `[core]\n\tfsmonitor = ${path.join(hooks, 'monitor')}\n`)
  sh(work, 'config', 'core.hooksPath', hooks)
  sh(work, 'config', 'core.fsmonitor', path.join(hooks, 'monitor'))
  sh(work, 'config', `url.${decoy.url}.insteadOf`, origin.url)
  sh(work, 'config', 'remote.origin.pushurl', decoy.url)
  sh(work, 'config', 'credential.helper', `!${path.join(hooks, 'monitor')}`)
  sh(work, 'config', 'filter.evil.clean', path.join(hooks, 'monitor'))
  sh(work, 'config', 'filter.evil.smudge', path.join(hooks, 'monitor'))
  sh(work, 'config', 'include.path', evil)
  write(work, '.gitattributes', '* filter=evil\n')
  write(home, '.gitconfig', `[url "${decoy.url}"]\n\tinsteadOf = ${origin.url}\n`)
  write(home, '.config/git/config', `[core]\n\thooksPath = ${hooks}\n`)
  write(home, '.config/git/attributes', '* filter=evil merge=union\n')
  process.env.HOME = home
  process.env.XDG_CONFIG_HOME = path.join(home, '.config')
  return home
}

describe('a stage after a hostile agent', () => {
  it('runs nothing the agent planted and pushes to the real origin only', async () => {
    const origin = makeOrigin()
    const decoy = makeOrigin()
    sh(decoy.dir, 'branch', 'decoy-only', 'main')
    const work = shallowCheckout(origin)
    const config = readFileSync(path.join(work, '.git/config'))
    const marker = path.join(tmp(), 'marker')

    const prepared = await prepareIssueBranch({ repo: work, branch: BRANCH, base: 'main' })
    const snap = await snapshotGitDir(work)

    // The agent.
    const home = plant(work, origin, decoy, marker)
    write(work, DELIVERABLE, '# Findings\n')
    write(work, 'docs/notes.md', 'edited\n')
    write(work, '.github/workflows/x.yml', 'on: push\n')
    expect(naive(work, home, 'ls-remote', 'origin')).toContain('refs/heads/decoy-only')
    naive(work, home, 'status')
    expect(existsSync(marker)).toBe(true)
    rmSync(marker)

    const report = await restoreGitDir(snap)
    expect(readFileSync(path.join(work, '.git/config')).equals(config)).toBe(true)
    expect(report.configKeys).toEqual([
      'core.fsmonitor',
      'core.hookspath',
      'credential.helper',
      'filter.evil.clean',
      'filter.evil.smudge',
      'include.path',
      'remote.origin.pushurl',
      `url.${decoy.url}.insteadof`
    ])

    const commit = await commitAllowed({
      repo: work,
      branch: BRANCH,
      baseSha: prepared.baseSha,
      deliverablePaths: [DELIVERABLE],
      allowGlobs: ['docs/**'],
      forbiddenGlobs: [],
      message: 'researcher: findings',
      trailers: stageTrailers({ profile: 'researcher', run: '1', outcome: 'succeeded' })
    })
    expect(commit.committed).toEqual([DELIVERABLE, 'docs/notes.md'])
    const pushed = await pushWithRetry({ ...prepared, repo: work, sha: commit.sha! })

    expect(existsSync(marker)).toBe(false)
    expect(sh(origin.dir, 'rev-parse', `refs/heads/${BRANCH}`)).toBe(pushed.sha)
    expect(sh(decoy.dir, 'for-each-ref', '--format=%(refname)')).toBe(
      'refs/heads/decoy-only\nrefs/heads/main'
    )
  })
})
