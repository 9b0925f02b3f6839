// The hand-over in place: the checkout's own files go to the agent user by rename and chown,
// its objects are borrowed read-only from a store of root's, and they all come back. Each
// attack below is one this mechanism invites.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync
} from 'node:fs'
import path from 'node:path'
import { commitAllowed } from '../../src/git/commit.js'
import type { AgentUser } from '../../src/isolation/agent-user.js'
import { handOver, takeBack, type HandedOver } from '../../src/isolation/agent-tree.js'
import { leftRecordOf, settleInPlace, storeOf } from '../../src/isolation/in-place.js'
import type { Privilege } from '../../src/isolation/privilege.js'
import { endAgentUser, putBackLeftBehind } from '../../src/isolation/sandbox.js'
import { finaliseStage } from '../../src/pipeline/stage/stage.js'
import { SecretScanner } from '../../src/secrets/scanner.js'
import { gitSync as git } from '../helpers/git-repo.js'
import {
  asRoot,
  createUser,
  deleteUser,
  requirePrivilege,
  runAs,
  spawnAs
} from './throwaway-user.js'

const HEADER = 'AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA=='
let privilege: Privilege
let user: AgentUser
let root: string

beforeAll(() => {
  privilege = requirePrivilege()
  user = createUser('itervox-p')
  // On the agents' homes' file system, whatever TMPDIR is: everything moves by rename.
  root = mkdtempSync('/var/lib/itervox-in-place-')
})

afterAll(() => {
  // A test that failed half way may have left the checkout's objects there.
  rmSync(storeOf(user), { recursive: true, force: true })
  deleteUser(user.name)
  rmSync(root, { recursive: true, force: true })
})

/** A checkout of `itervox/1` as a runner has it: packed objects, a credential in its config. */
function checkout(): string {
  const repo = mkdtempSync(path.join(root, 'repo-'))
  git(repo, 'init', '--quiet', '--initial-branch=itervox/1')
  mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true })
  writeFileSync(path.join(repo, 'src', 'a.ts'), 'export const a = 1\n')
  writeFileSync(path.join(repo, 'src', 'deep', 'b.ts'), 'export const b = 2\n')
  writeFileSync(path.join(repo, '.gitignore'), 'node_modules/\n')
  git(repo, 'add', '-A')
  git(repo, 'commit', '--quiet', '-m', 'seed')
  git(repo, 'gc', '--quiet')
  git(repo, 'config', 'http.https://github.com/.extraheader', HEADER)
  // An earlier step's files, which the agent must not get: at the top and deeper.
  writeFileSync(path.join(repo, 'gha-creds-1.json'), '{"private_key":"runner"}\n')
  mkdirSync(path.join(repo, 'src', 'node_modules'))
  writeFileSync(path.join(repo, 'src', 'node_modules', 'dep.js'), 'runner\n')
  return repo
}

function give(repo: string): Promise<HandedOver> {
  const workDir = mkdtempSync(path.join(root, 'work-'))
  const baseSha = git(repo, 'rev-parse', 'HEAD')
  return handOver({ privilege, user, repo, branch: 'itervox/1', baseSha, workDir, homeFiles: [] })
}

/** Runs a shell script as the agent user in `cwd`; its exit status and output. */
function asAgent(cwd: string, script: string, ...args: string[]) {
  const r = runAs(user, ['sh', '-c', `cd "$1" && shift && ${script}`, 'sh', cwd, ...args])
  return { ok: r.status === 0, out: r.stdout, err: r.stderr }
}

const ino = (f: string) => lstatSync(f).ino
const exists = (f: string) => {
  try {
    lstatSync(f)
    return true
  } catch {
    return false
  }
}
const objectsOf = (repo: string) =>
  asRoot(['find', path.join(repo, '.git', 'objects'), '-printf', '%P %n %U %s\\n'])

/** What the stage does after the take-back: commit what it may, then settle the checkout. */
async function finish(repo: string, h: HandedOver, deliverable: string[] = []) {
  const base = git(repo, 'rev-parse', 'HEAD')
  const c = await commitAllowed({
    repo,
    branch: 'itervox/1',
    baseSha: base,
    deliverablePaths: deliverable,
    allowGlobs: ['src/**'],
    forbiddenGlobs: [],
    message: 'stage',
    trailers: []
  })
  return { commit: c, kept: await settleInPlace(h.inPlace!) }
}

describe('the hand-over in place', () => {
  it("gives the agent the checkout's own files and a repository of its own, and takes them back whole", async () => {
    const repo = checkout()
    const inode = ino(path.join(repo, 'src', 'a.ts'))
    const objects = objectsOf(repo)
    const h = await give(repo)
    expect(h.cloned).toBeUndefined()
    expect(h.inPlace?.untracked.sort()).toEqual(['gha-creds-1.json', 'src/node_modules'])

    // The same file, the agent's now; the untracked ones are not in its tree.
    expect(asRoot(['stat', '-c', '%i %u', path.join(h.tree, 'src', 'a.ts')]).trim()).toBe(
      `${inode} ${user.uid}`
    )
    const seen = asAgent(h.tree, 'ls -A . src; git status --porcelain; git log --format=%s')
    expect(seen.out).toBe('.:\n.git\n.gitignore\nsrc\n\nsrc:\na.ts\ndeep\nseed\n')
    expect(seen.ok).toBe(true)
    expect(exists(path.join(repo, 'src'))).toBe(false)
    expect(exists(path.join(repo, 'gha-creds-1.json'))).toBe(true)

    // Its own commit: objects of its own, none in the store.
    expect(
      asAgent(
        h.tree,
        'echo more >> src/a.ts && git -c user.name=a -c user.email=a@a commit -qam mine'
      ).ok
    ).toBe(true)

    // A name the checkout kept: the runner's file stays, the agent's goes.
    expect(asAgent(h.tree, 'echo agent > gha-creds-1.json').ok).toBe(true)
    expect(await takeBack(privilege, h)).toEqual({ tree: repo })
    expect(readFileSync(path.join(repo, 'gha-creds-1.json'), 'utf8')).toBe(
      '{"private_key":"runner"}\n'
    )
    expect(objectsOf(repo)).toBe(objects)
    expect(ino(path.join(repo, 'src', 'a.ts'))).toBe(inode)
    expect(statSync(path.join(repo, 'src', 'a.ts')).uid).toBe(process.getuid?.())
    expect(exists(storeOf(user))).toBe(false)
    expect(exists(path.join(repo, '.git', 'objects'))).toBe(true)
    expect(git(repo, 'diff', '--name-only')).toBe('src/a.ts')

    const { commit } = await finish(repo, h)
    expect(commit.committed).toEqual(['src/a.ts'])
    expect(git(repo, 'status', '--porcelain', '--ignored')).toBe(
      '?? gha-creds-1.json\n!! src/node_modules/'
    )
    expect(readFileSync(path.join(repo, 'src', 'node_modules', 'dep.js'), 'utf8')).toBe('runner\n')
  })

  it('falls back to a clone, and says why, where the checkout is on another file system', async () => {
    const shm = mkdtempSync('/dev/shm/itervox-in-place-')
    try {
      const repo = mkdtempSync(path.join(shm, 'repo-'))
      git(repo, 'init', '--quiet', '--initial-branch=itervox/1')
      git(repo, 'commit', '--quiet', '--allow-empty', '-m', 'seed')
      const h = await give(repo)
      expect(h.cloned).toBe("it is on another file system than the agent user's home")
      expect(h.inPlace).toBeUndefined()
      expect((await takeBack(privilege, h)).tree).toBe(h.returnTo)
    } finally {
      rmSync(shm, { recursive: true, force: true })
    }
  })
})

describe('a checkout with submodules', () => {
  it('is handed over as a clone, saying why: their .git files point into the .git the agent may not reach', async () => {
    const repo = checkout()
    const lib = mkdtempSync(path.join(root, 'lib-'))
    git(lib, 'init', '--quiet', '--initial-branch=main')
    git(lib, 'commit', '--quiet', '--allow-empty', '-m', 'lib')
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', lib, 'lib')
    git(repo, 'commit', '--quiet', '-m', 'with a submodule')
    expect(readFileSync(path.join(repo, 'lib', '.git'), 'utf8')).toBe(
      'gitdir: ../.git/modules/lib\n'
    )
    const h = await give(repo)
    expect(h.cloned).toBe(
      'it has submodules (.git/modules), which live in the .git the agent may not reach'
    )
    expect(exists(path.join(repo, 'lib', '.git'))).toBe(true)
    expect((await takeBack(privilege, h)).tree).toBe(h.returnTo)
  })
})

describe('a checkout with a file of two names', () => {
  it('is handed over as a clone, so the chown never gives the agent the other name', async () => {
    const repo = checkout()
    // A runner file outside the checkout, restored into it as a hard link (as some caches do).
    const outside = path.join(root, `runner-file-${path.basename(repo)}`)
    writeFileSync(outside, "the runner's\n")
    rmSync(path.join(repo, 'src', 'a.ts'))
    linkSync(outside, path.join(repo, 'src', 'a.ts'))
    const h = await give(repo)
    expect(h.cloned).toBe('src/a.ts has another name (a hard link)')
    expect(statSync(outside).uid).toBe(process.getuid!())
    expect((await takeBack(privilege, h)).tree).toBe(h.returnTo)
    expect(readFileSync(path.join(repo, 'src', 'a.ts'), 'utf8')).toBe("the runner's\n")
  })
})

describe('the stage after the take-back', () => {
  it("settles the checkout when its commit throws: none of the agent's untracked files stays", async () => {
    const repo = checkout()
    const h = await give(repo)
    expect(asAgent(h.tree, 'echo mine > src/agent.ts').ok).toBe(true)
    const tree = (await takeBack(privilege, h)).tree
    const ctx = {
      stage: {
        issue: { id: '1' },
        profile: { name: 'researcher', requiredSections: [], commitPaths: ['src/**'], env: [] },
        // No such commit: the commit throws.
        branch: { repo, branch: 'itervox/1', baseSha: 'f'.repeat(40), created: false },
        run: '9/1',
        startedAt: new Date(),
        timestamp: '2026-02-02T10-00-00.000Z',
        handoffReason: 'specialization' as const
      },
      job: {
        config: { handoff: { maxFileBytes: 1024 * 1024 }, agent: {} },
        workflowPath: 'WORKFLOW.md'
      },
      sandbox: h,
      tree
    }
    const end = { outcome: 'succeeded' as const, reason: 'exit code 0' }
    await expect(finaliseStage(ctx, end, new SecretScanner([]))).rejects.toThrow()
    expect(exists(path.join(repo, 'src', 'agent.ts'))).toBe(false)
    expect(readFileSync(path.join(repo, 'src', 'node_modules', 'dep.js'), 'utf8')).toBe('runner\n')
  })
})

describe('attacks on the hand-over in place', () => {
  it("cannot read the checkout's .git, list the store, or write the runner's objects", async () => {
    const repo = checkout()
    chmodSync(root, 0o711)
    chmodSync(repo, 0o711)
    const objects = objectsOf(repo)
    const h = await give(repo)
    const store = path.join(storeOf(user), 'objects')
    const pack = readdirSync(path.join(store, 'pack')).find((n) => n.endsWith('.pack'))!
    try {
      const tries = {
        config: asAgent(h.tree, 'cat "$1"', path.join(repo, '.git', 'config')).ok,
        listStore: asAgent(h.tree, 'ls "$1"', storeOf(user)).ok,
        newObject: asAgent(h.tree, 'echo x > "$1/ab"', store).ok,
        newPack: asAgent(h.tree, 'echo x > "$1/pack/p.pack"', store).ok,
        forgeRecord: asAgent(h.tree, 'echo /etc > "$1"', leftRecordOf(user)).ok,
        rewritePack: asAgent(h.tree, 'echo x >> "$1/pack/$2"', store, pack).ok,
        alternates: asAgent(
          h.tree,
          'echo hi | git hash-object -w --stdin >/dev/null && ls .git/objects'
        ).ok
      }
      expect(tries).toEqual({
        config: false,
        listStore: false,
        newObject: false,
        newPack: false,
        forgeRecord: false,
        rewritePack: false,
        alternates: true
      })
    } finally {
      await takeBack(privilege, h)
      chmodSync(root, 0o700)
    }
    expect(objectsOf(repo)).toBe(objects)
  })

  it('takes back no hard link, to a runner file or to a file of its own outside the tree', async () => {
    const repo = checkout()
    const h = await give(repo)
    const pack = path.join(storeOf(user), 'objects', 'pack')
    const packFile = readdirSync(pack).find((n) => n.endsWith('.pack'))!
    const outside = mkdtempSync('/var/lib/itervox-open-')
    chmodSync(outside, 0o1777)
    // A hard link to a file one does not own needs fs.protected_hardlinks off, as some hosts have it.
    const protectedLinks = readFileSync('/proc/sys/fs/protected_hardlinks', 'utf8').trim()
    writeFileSync('/proc/sys/fs/protected_hardlinks', '0')
    try {
      const made = asAgent(
        h.tree,
        'ln "$1/$2" src/pack-link && echo mine > "$3/kept" && ln "$3/kept" src/kept-link',
        pack,
        packFile,
        outside
      )
      expect(made).toEqual({ ok: true, out: '', err: '' })
    } finally {
      writeFileSync('/proc/sys/fs/protected_hardlinks', protectedLinks)
    }
    const back = await takeBack(privilege, h)
    expect(back.warning).toMatch(
      /^left out of the agent's tree, as hard links to files outside it: /
    )
    expect(exists(path.join(repo, 'src', 'pack-link'))).toBe(false)
    expect(exists(path.join(repo, 'src', 'kept-link'))).toBe(false)
    const packBack = path.join(repo, '.git', 'objects', 'pack', packFile)
    expect([lstatSync(packBack).nlink, lstatSync(packBack).uid]).toEqual([1, process.getuid?.()])
    expect(lstatSync(path.join(outside, 'kept')).uid).toBe(user.uid)
    rmSync(outside, { recursive: true, force: true })
  })

  it('never runs the hooks or config it plants in its own .git, nor follows its .git or tree swapped for a symlink', async () => {
    const repo = checkout()
    const config = readFileSync(path.join(repo, '.git', 'config'), 'utf8')
    const victim = mkdtempSync(path.join(root, 'victim-'))
    chmodSync(victim, 0o755)
    writeFileSync(path.join(victim, 'keep'), 'runner\n')
    const ran = path.join(root, `hook-ran-${path.basename(repo)}`)
    const h = await give(repo)
    const planted = asAgent(
      h.tree,
      `for hook in post-checkout post-index-change reference-transaction pre-commit; do
        printf '#!/bin/sh\\ntouch "%s"\\n' "$1" > .git/hooks/$hook 2>/dev/null ||
        { mkdir -p .git/hooks && printf '#!/bin/sh\\ntouch "%s"\\n' "$1" > .git/hooks/$hook; }
        chmod +x .git/hooks/$hook
      done
      git config core.hooksPath .git/hooks && git config core.fsmonitor "touch $1"
      echo changed >> src/a.ts`,
      ran
    )
    expect(planted.ok).toBe(true)
    expect((await takeBack(privilege, h)).tree).toBe(repo)
    await finish(repo, h)
    expect(exists(ran)).toBe(false)
    expect(readFileSync(path.join(repo, '.git', 'config'), 'utf8')).toBe(config)

    // Its .git a symlink to a runner folder, then its whole tree one.
    const h2 = await give(repo)
    expect(asAgent(h2.tree, 'rm -rf .git && ln -s "$1" .git', victim).ok).toBe(true)
    expect((await takeBack(privilege, h2)).tree).toBe(repo)
    await finish(repo, h2)
    expect(readdirSync(victim)).toEqual(['keep'])
    const h3 = await give(repo)
    const work = path.dirname(h3.tree)
    expect(asAgent(work, 'mv "$1" "$1.moved" && ln -s "$2" "$1"', h3.tree, victim).ok).toBe(true)
    expect((await takeBack(privilege, h3)).tree).toBeNull()
    expect(readdirSync(victim)).toEqual(['keep'])
    expect(statSync(victim).uid).toBe(process.getuid?.())
    // The objects came back all the same.
    expect(git(repo, 'cat-file', '-t', 'HEAD')).toBe('commit')
  })

  it('sees a file the agent changed and set back to its old size and mtime', async () => {
    const repo = checkout()
    // Older than the index, so that git trusts its stat data rather than read it (racy git).
    utimesSync(path.join(repo, 'src', 'a.ts'), 1e9, 1e9)
    git(repo, 'update-index', '--refresh')
    const h = await give(repo)
    expect(
      asAgent(
        h.tree,
        'touch -r src/a.ts /tmp/.t$$ && echo "export const a = 9" > src/a.ts && touch -r /tmp/.t$$ src/a.ts && rm /tmp/.t$$'
      ).ok
    ).toBe(true)
    await takeBack(privilege, h)
    const { commit } = await finish(repo, h)
    expect(commit.committed).toEqual(['src/a.ts'])
  })

  it('ends a process left behind before the take-back, so no write lands in the tree after it', async () => {
    const repo = checkout()
    const h = await give(repo)
    // It keeps the file open: the chown back would not stop its writes.
    const straggler = spawnAs(user, [
      'setsid',
      'sh',
      '-c',
      'exec 3>> "$1"; echo open > "$2"; while :; do sleep 0.05; printf late >&3; done',
      'sh',
      path.join(h.tree, 'src', 'a.ts'),
      path.join(h.home, 'tmp', 'ready')
    ])
    straggler.unref()
    while (
      !asRoot([
        'sh',
        '-c',
        'test -e "$1" && echo y || true',
        'sh',
        path.join(h.home, 'tmp', 'ready')
      ])
    ) {
      await new Promise((r) => setTimeout(r, 20))
    }
    await endAgentUser(user, privilege, 500)
    await takeBack(privilege, h)
    const now = readFileSync(path.join(repo, 'src', 'a.ts'), 'utf8')
    await new Promise((r) => setTimeout(r, 300))
    expect(readFileSync(path.join(repo, 'src', 'a.ts'), 'utf8')).toBe(now)
  })
})

describe('a stage whose job was killed with no post step', () => {
  /** The agent at work when the job is killed: a file changed, one made, a process still alive. */
  async function killedMidStage(repo: string): Promise<HandedOver> {
    const h = await give(repo)
    const r = asAgent(h.tree, 'echo "export const a = 7" > src/a.ts && echo new > src/new.ts')
    expect(r.ok).toBe(true)
    spawnAs(user, ['setsid', 'sleep', '600']).unref()
    return h
  }

  it('has what it left put back by the next stage, which then works in place', async () => {
    const repo = checkout()
    const objects = objectsOf(repo)
    const mode = statSync(path.join(repo, '.git')).mode
    await killedMidStage(repo)
    expect(exists(path.join(repo, '.git', 'objects'))).toBe(false)

    const line = await putBackLeftBehind(user.name)
    expect(line).toBe(
      `an earlier stage's job ended before it took the agent's tree back: the checkout's files and objects are back in ${repo}`
    )
    expect(objectsOf(repo)).toBe(objects)
    expect(statSync(path.join(repo, '.git')).mode).toBe(mode)
    expect(exists(storeOf(user))).toBe(false)
    // Its processes ended first: none alive (zombies wait for this process to reap them).
    const alive = ['sh', '-c', 'ps -o stat= -u "$1" | grep -vc "^Z" || true', 'sh', `${user.uid}`]
    expect(asRoot(alive).trim()).toBe('0')
    // Nothing lost: the agent's change and its new file, the runner's own again.
    expect(git(repo, 'status', '--porcelain')).toBe(
      'M src/a.ts\n?? gha-creds-1.json\n?? src/new.ts'
    )
    // And the runner's untracked files that stage had put aside.
    expect(readFileSync(path.join(repo, 'src', 'node_modules', 'dep.js'), 'utf8')).toBe('runner\n')
    expect(statSync(path.join(repo, 'src', 'new.ts')).uid).toBe(process.getuid?.())
    expect(await putBackLeftBehind(user.name)).toBeNull()

    const next = await give(repo)
    expect(next.cloned).toBeUndefined()
    expect((await takeBack(privilege, next)).tree).toBe(repo)
  })

  it('follows no symlink it planted for its tree, and keeps the objects when the checkout was made anew', async () => {
    const repo = checkout()
    const objects = objectsOf(repo)
    const victim = mkdtempSync(path.join(root, 'victim-'))
    chmodSync(victim, 0o755)
    writeFileSync(path.join(victim, 'keep'), 'runner\n')
    const h = await killedMidStage(repo)
    const work = path.dirname(h.tree)
    expect(asAgent(work, 'mv "$1" "$1.moved" && ln -s "$2" "$1"', h.tree, victim).ok).toBe(true)
    // actions/checkout of the next job finds no objects and makes the checkout anew.
    git(repo, 'init', '--quiet')

    const line = await putBackLeftBehind(user.name)
    const aside = /its objects are kept in (\S+),/.exec(line ?? '')?.[1]
    expect(line).toContain("its files were not left in the agent's area")
    expect(aside).toMatch(new RegExp(`^${repo}/\\.git/objects-left-\\d+$`))
    expect(objectsOf(repo)).not.toBe(objects)
    expect(asRoot(['find', aside!, '-printf', '%P %n %U %s\\n'])).toBe(objects)
    expect(readdirSync(victim)).toEqual(['keep'])
    expect(statSync(victim).uid).toBe(process.getuid?.())
    expect(exists(storeOf(user))).toBe(false)
  })

  it('has what it left removed when its checkout is gone since, so that the next stage works in place', async () => {
    const repo = checkout()
    await killedMidStage(repo)
    rmSync(repo, { recursive: true, force: true })
    expect(await putBackLeftBehind(user.name)).toBe(
      `an earlier stage's job ended before it took the agent's tree back, and its checkout ${repo} is gone since: what it left with the agent user was removed`
    )
    expect(exists(storeOf(user))).toBe(false)
    expect(exists(path.join(user.home, 'stage'))).toBe(false)
    const next = await give(checkout())
    expect(next.cloned).toBeUndefined()
    await takeBack(privilege, next)
  })
})
