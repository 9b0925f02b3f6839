import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../src/isolation/agent-user.js'
import { handOver, takeBack } from '../../src/isolation/agent-tree.js'
import type { Privilege } from '../../src/isolation/privilege.js'
import { gitSync as git } from '../helpers/git-repo.js'
import { asRoot, createUser, deleteUser, requirePrivilege, runAs } from './throwaway-user.js'

let privilege: Privilege
let user: AgentUser
let root: string
let repo: string

beforeAll(() => {
  privilege = requirePrivilege()
  user = createUser('itervox-t')
  // On the agents' homes' file system, whatever TMPDIR is: the checkout could be handed over there.
  root = mkdtempSync('/var/lib/itervox-agent-tree-')
  repo = path.join(root, 'repo')
  mkdirSync(path.join(repo, 'src'), { recursive: true })
  git(repo, 'init', '--quiet', '--initial-branch=itervox/1')
  // Loose objects, as the action's own commits leave them: what a copy would link or share.
  for (const n of [1, 2]) {
    writeFileSync(path.join(repo, 'src', `f${n}.ts`), `export const v = ${n}\n`)
    git(repo, 'add', '-A')
    git(repo, 'commit', '--quiet', '-m', `c${n}`)
  }
})

afterAll(() => {
  deleteUser(user.name)
  rmSync(root, { recursive: true, force: true })
})

/** Every entry under `dir`, seen by root: links, owner and path. */
function entries(dir: string): { links: number; uid: number; type: string; path: string }[] {
  return asRoot(['find', dir, '-printf', '%n %U %y %p\\n'])
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [links = '', uid = '', type = '', ...rest] = line.split(' ')
      return { links: +links, uid: +uid, type, path: rest.join(' ') }
    })
}

describe('handOver and takeBack', () => {
  it("give the agent a clone of its own where the checkout's objects are closed to others, and take it back whole", async () => {
    chmodSync(path.join(repo, '.git', 'objects', 'pack'), 0o700)
    const workDir = mkdtempSync(path.join(root, 'work-'))
    try {
      const h = await handOver({
        privilege,
        user,
        repo,
        branch: 'itervox/1',
        baseSha: git(repo, 'rev-parse', 'HEAD'),
        workDir,
        homeFiles: [{ path: '.itervox/prompt.md', content: 'go' }]
      })
      expect(h.cloned).toBe('its objects are closed to other users')

      expect(asRoot(['stat', '-c', '%a %u', h.area]).trim()).toBe(`700 ${user.uid}`)
      const all = entries(h.area)
      expect(all.filter((e) => e.uid !== user.uid)).toEqual([])
      expect(all.filter((e) => e.type !== 'd' && e.links !== 1)).toEqual([])
      const inGit = all.map((e) => path.relative(path.join(h.tree, '.git'), e.path))
      expect(inGit).not.toContain(path.join('objects', 'info', 'alternates'))
      expect(asRoot(['cat', path.join(h.tree, 'src', 'f2.ts')])).toBe('export const v = 2\n')
      expect(asRoot(['cat', path.join(h.home, '.itervox', 'prompt.md')])).toBe('go')

      expect(await takeBack(privilege, h)).toEqual({ tree: h.returnTo })
      expect(statSync(h.returnTo).uid).toBe(process.getuid?.())
      expect(readFileSync(path.join(h.returnTo, 'src', 'f1.ts'), 'utf8')).toBe(
        'export const v = 1\n'
      )
      expect(asRoot(['sh', '-c', 'test -e "$1" && echo left || echo gone', 'sh', h.area])).toBe(
        'gone\n'
      )
    } finally {
      chmodSync(path.join(repo, '.git', 'objects', 'pack'), 0o755)
    }
  })
})

/** The stage's tree handed to the agent, in a work folder of its own (in `root` by default). */
function handOverNew(workDir = mkdtempSync(path.join(root, 'work-'))) {
  const baseSha = git(repo, 'rev-parse', 'HEAD')
  return handOver({ privilege, user, repo, branch: 'itervox/1', baseSha, workDir, homeFiles: [] })
}

/** A clone's hand-over: the checkout's objects closed to others while it is made. */
async function cloneHandOver(workDir?: string) {
  const pack = path.join(repo, '.git', 'objects', 'pack')
  chmodSync(pack, 0o700)
  try {
    return await handOverNew(workDir)
  } finally {
    chmodSync(pack, 0o755)
  }
}

/** Runs a shell script as the agent user, `$1`... its arguments; it must succeed. */
function asAgent(script: string, ...args: string[]): string {
  const r = runAs(user, ['sh', '-ec', script, 'sh', ...args])
  expect([r.status, r.stderr]).toEqual([0, ''])
  return r.stdout
}

const exists = (file: string) => {
  try {
    lstatSync(file)
    return true
  } catch {
    return false
  }
}

/** The System V IPC objects whose owner or creator is `uid`, as `kind:id`. */
function ipcOf(uid: number): string[] {
  return ['shm', 'sem', 'msg'].flatMap((kind) => {
    const [head = '', ...rows] = readFileSync(`/proc/sysvipc/${kind}`, 'utf8').trim().split('\n')
    const cols = head.trim().split(/\s+/)
    return rows
      .map((row) => row.trim().split(/\s+/))
      .filter((f) => [f[cols.indexOf('uid')], f[cols.indexOf('cuid')]].includes(String(uid)))
      .map((f) => `${kind}:${f[1]}`)
  })
}

describe('takeBack, once the agent is gone', () => {
  it('cleans up before it hands the tree back, and never hands back a file linked outside it', async () => {
    const tag = path.basename(mkdtempSync(path.join(root, 'tag-')))
    // A folder every user may write that the action does not clean (an image may have one).
    const open = mkdtempSync('/var/lib/itervox-open-')
    chmodSync(open, 0o1777)
    const runnerFile = path.join(root, 'runner-bashrc')
    writeFileSync(runnerFile, '# the runner user\n')
    // The tree comes back by a rename, which keeps hard links only within one file system:
    // the work folder goes beside the agent's home and /tmp, as RUNNER_TEMP does on a runner
    // (npm test's own temporary folder is in memory).
    const work = mkdtempSync('/var/lib/itervox-work-')
    try {
      const h = await cloneHandOver(work)
      // Its own files at fixed /tmp paths, one a symlink to a runner's file, linked into its tree
      // so that handing the tree back would give them to the runner; one more linked from the
      // open folder.
      asAgent(
        `echo agent > "/tmp/fixed-$3"; ln "/tmp/fixed-$3" "$1/from-tmp"
        ln -s "$4" "/tmp/link-$3"; ln -P "/tmp/link-$3" "$1/symlink-from-tmp"
        echo agent > "$2/kept"; ln "$2/kept" "$1/from-open"`,
        h.tree,
        open,
        tag,
        runnerFile
      )

      expect(await takeBack(privilege, h)).toEqual({
        tree: h.returnTo,
        warning: `left out of the agent's tree, as hard links to files outside it: "from-open"`
      })
      expect([exists(`/tmp/fixed-${tag}`), exists(`/tmp/link-${tag}`)]).toEqual([false, false])
      expect(lstatSync(path.join(open, 'kept')).uid).toBe(user.uid)
      expect(exists(path.join(h.returnTo, 'from-open'))).toBe(false)
      const back = entries(h.returnTo)
      expect(back.filter((e) => e.uid !== process.getuid?.())).toEqual([])
      expect(back.filter((e) => e.type !== 'd' && e.links !== 1)).toEqual([])
      expect(back.map((e) => path.basename(e.path))).toEqual(
        expect.arrayContaining(['from-tmp', 'symlink-from-tmp'])
      )
      expect(readFileSync(runnerFile, 'utf8')).toBe('# the runner user\n')
    } finally {
      rmSync(open, { recursive: true, force: true })
      rmSync(work, { recursive: true, force: true })
    }
  })

  it('removes its files in nested shared folders and its System V IPC objects', async () => {
    const tag = path.basename(mkdtempSync(path.join(root, 'tag-')))
    // A sticky folder someone else made in /tmp, as X11 and ICE make theirs.
    const sticky = path.join('/tmp', `.itervox-sticky-${tag}`)
    mkdirSync(sticky)
    chmodSync(sticky, 0o1777)
    writeFileSync(path.join(sticky, 'theirs'), 'kept\n')
    try {
      const h = await cloneHandOver()
      const before = ipcOf(user.uid).length
      asAgent(
        `echo agent > "/run/lock/itervox-$2"
        mkdir -p "$1/dir/deeper"; echo agent > "$1/file"; echo agent > "$1/dir/deeper/file"
        ipcmk -M 4096 >/dev/null; ipcmk -S 1 >/dev/null; ipcmk -Q >/dev/null`,
        sticky,
        tag
      )
      expect(ipcOf(user.uid)).toHaveLength(before + 3)

      await takeBack(privilege, h)
      expect(exists(`/run/lock/itervox-${tag}`)).toBe(false)
      expect(asRoot(['ls', '-A', sticky]).split('\n').filter(Boolean)).toEqual(['theirs'])
      expect(ipcOf(user.uid)).toEqual([])
    } finally {
      rmSync(sticky, { recursive: true, force: true })
    }
  })
})
