// GitObjects against real repositories: listings, exact blob bytes, and nothing in the
// environment or the repository redirecting what is read.
import { afterAll, describe, expect, it } from '@jest/globals'
import { GitObjects } from '../../src/git/objects.js'
import { defined } from '../helpers/defined.js'
import { TempRepo, git, type FileSpec } from '../helpers/git-repo.js'

const repos: TempRepo[] = []
const opened: GitObjects[] = []
async function repoWith(files: FileSpec[]) {
  const repo = await TempRepo.create()
  repos.push(repo)
  const head = await repo.commit(files)
  const objects = new GitObjects(repo.dir)
  opened.push(objects)
  return { repo, head, objects }
}
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()))
  await Promise.all(repos.map((r) => r.remove()))
})

describe('GitObjects.listTree', () => {
  it('lists a directory with modes, types and ids, whatever the entry', async () => {
    const { head, objects } = await repoWith([
      { path: 'd/a.md', data: 'abc' },
      { path: 'd/run.sh', data: '#!/bin/sh\n', mode: '100755' },
      { path: 'd/link', data: '/etc/passwd', mode: '120000' },
      { path: 'd/sub/x', data: 'x' },
      { path: 'd/mod', mode: '160000', commit: 'c'.repeat(40) },
      { path: 'other.md', data: 'no' }
    ])
    const listing = await objects.listTree(head, 'd')
    expect(listing.kind).toBe('tree')
    const shape = listing.entries.map(({ mode, type, size, name }) => ({ mode, type, size, name }))
    expect(shape).toEqual([
      { mode: '100644', type: 'blob', size: null, name: 'a.md' },
      { mode: '120000', type: 'blob', size: null, name: 'link' },
      { mode: '160000', type: 'commit', size: null, name: 'mod' },
      { mode: '100755', type: 'blob', size: null, name: 'run.sh' },
      { mode: '040000', type: 'tree', size: null, name: 'sub' }
    ])
    const lsTree = (await git(objects.repoDir, ['ls-tree', '-z', `${head}:d`])).toString()
    const oids = lsTree
      .split('\0')
      .filter(Boolean)
      .map((l) => l.split(/\s/)[2])
    expect(listing.entries.map((e) => e.oid)).toEqual(oids)
  })

  it('gives blob sizes without reading the blobs', async () => {
    const { head, objects } = await repoWith([
      { path: 'd/small', data: 'abc' },
      { path: 'd/big', data: Buffer.alloc(3 * 1024 * 1024) }
    ])
    const entries = (await objects.listTree(head, 'd')).entries
    const sizes = await objects.blobSizes(entries.map((e) => e.oid))
    expect(entries.map((e) => [e.name, sizes.get(e.oid)])).toEqual([
      ['big', 3 * 1024 * 1024],
      ['small', 3]
    ])
  })

  it('tells a missing directory from one that is not a directory', async () => {
    const { head, objects } = await repoWith([
      { path: 'a/b', data: 'file' },
      { path: 'l', data: 'a', mode: '120000' }
    ])
    expect(await objects.listTree(head, 'nope/deeper')).toEqual({ kind: 'missing', entries: [] })
    expect(await objects.listTree(head, 'a/b')).toEqual({
      kind: 'other',
      mode: '100644',
      path: 'a/b',
      entries: []
    })
    expect(await objects.listTree(head, 'l/x')).toEqual({
      kind: 'other',
      mode: '120000',
      path: 'l',
      entries: []
    })
  })

  it('keeps names byte-exact, with spaces, newlines and glob characters', async () => {
    const { head, objects } = await repoWith([
      { path: 'd/a b.md', data: '1' },
      { path: 'd/x\ny.md', data: '2' },
      { path: 'd/*.md', data: '3' }
    ])
    const names = (await objects.listTree(head, 'd')).entries.map((e) => e.name)
    expect(names.sort()).toEqual(['*.md', 'a b.md', 'x\ny.md'])
    // A path is a name, never a pattern: `*` matches only itself.
    expect((await objects.listTree(head, '*')).kind).toBe('missing')
  })

  it('takes a commit argument that looks like an option as a name, and says it has none', async () => {
    const { objects } = await repoWith([{ path: 'd/a.md', data: '1' }])
    await expect(objects.listTree('--name-only', 'd')).rejects.toThrow(
      'git has no commit or tree "--name-only"'
    )
    await expect(objects.listTree('HEAD\ncontents HEAD', 'd')).rejects.toThrow(/not a commit/)
  })

  it('refuses a directory whose tree is over the size limit, unread', async () => {
    const files = Array.from({ length: 50 }, (_, i) => ({ path: `d/file-${i}.md`, data: `${i}` }))
    const { repo, head } = await repoWith(files)
    const small = new GitObjects(repo.dir, { maxTreeBytes: 1000 })
    opened.push(small)
    await expect(small.listTree(head, 'd')).rejects.toThrow(
      /^d at [0-9a-f]{40} is a \d+-byte directory, over the 1000-byte limit; remove old files from it$/
    )
  })

  it('refuses paths that could leave the tree', async () => {
    const { head, objects } = await repoWith([{ path: 'd/a.md', data: '1' }])
    for (const bad of ['/d', 'd/', '../d', 'd/../d', './d']) {
      await expect(objects.listTree(head, bad)).rejects.toThrow(/not a repository-relative/)
    }
  })

  it('lists the root for an empty path', async () => {
    const { head, objects } = await repoWith([
      { path: 'top.md', data: '1' },
      { path: 'd/a.md', data: '2' }
    ])
    const root = await objects.listTree(head, '')
    expect(root.kind).toBe('tree')
    expect(root.entries.map((e) => [e.name, e.type])).toEqual([
      ['d', 'tree'],
      ['top.md', 'blob']
    ])
  })

  it('ignores GIT_DIR and friends in the environment', async () => {
    const { head, objects } = await repoWith([{ path: 'd/mine.md', data: 'mine' }])
    const other = await repoWith([{ path: 'd/theirs.md', data: 'theirs' }])
    const saved = process.env.GIT_DIR
    process.env.GIT_DIR = `${other.repo.dir}/.git`
    try {
      const names = (await objects.listTree(head, 'd')).entries.map((e) => e.name)
      expect(names).toEqual(['mine.md'])
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR
      else process.env.GIT_DIR = saved
    }
  })
})

describe('GitObjects.readBlobs', () => {
  it('returns exact bytes, several per call and again later', async () => {
    const binary = Buffer.from([0, 10, 13, 255, 254, 0x0a, 0x20])
    const big = Buffer.alloc(1024 * 1024 + 7, 0x7a)
    const { head, objects } = await repoWith([
      { path: 'd/bin', data: binary },
      { path: 'd/big', data: big },
      { path: 'd/empty', data: '' },
      { path: 'd/twin', data: binary }
    ])
    const entries = (await objects.listTree(head, 'd')).entries
    const oid = (name: string) => entries.find((e) => e.name === name)?.oid as string
    const blobs = await objects.readBlobs([oid('bin'), oid('big'), oid('empty'), oid('twin')])
    expect(blobs.size).toBe(3)
    expect(blobs.get(oid('bin'))).toEqual(binary)
    expect(blobs.get(oid('big'))?.equals(big)).toBe(true)
    expect(blobs.get(oid('empty'))?.length).toBe(0)
    const again = await objects.readBlobs([oid('bin')])
    expect(again.get(oid('bin'))).toEqual(binary)
  })

  it('rejects a missing object and a tree, and keeps working afterwards', async () => {
    const { head, objects } = await repoWith([{ path: 'd/a', data: 'A' }])
    const listing = await objects.listTree(head, 'd')
    await expect(objects.readBlobs(['0'.repeat(40)])).rejects.toThrow(
      `git object ${'0'.repeat(40)} is missing`
    )
    const tree = (await git(objects.repoDir, ['rev-parse', `${head}:d`])).toString().trim()
    await expect(objects.readBlobs([tree])).rejects.toThrow(
      `git object ${tree} is a tree, not a blob`
    )
    const first = defined(listing.entries[0], 'the first entry')
    const blobs = await objects.readBlobs([first.oid])
    expect(blobs.get(first.oid)?.toString()).toBe('A')
  })

  it('works in a SHA-256 repository', async () => {
    const repo = await TempRepo.create('handoff-sha256-', 'sha256')
    repos.push(repo)
    const head = await repo.commit([{ path: 'd/a.md', data: 'hi' }])
    const objects = new GitObjects(repo.dir)
    opened.push(objects)
    const entry = defined((await objects.listTree(head, 'd')).entries[0], 'd/a.md')
    expect(entry.oid).toMatch(/^[0-9a-f]{64}$/)
    expect((await objects.readBlobs([entry.oid])).get(entry.oid)?.toString()).toBe('hi')
  })

  it('refuses anything that is not an object id', async () => {
    const { objects } = await repoWith([{ path: 'd/a', data: 'A' }])
    await expect(objects.readBlobs(['HEAD:d/a'])).rejects.toThrow('not an object id: HEAD:d/a')
  })

  it('reads the real object even when a replace ref points elsewhere', async () => {
    const { repo, head, objects } = await repoWith([
      { path: 'd/a', data: 'original' },
      { path: 'e/b', data: 'replacement' }
    ])
    const a = defined((await objects.listTree(head, 'd')).entries[0], 'd/a').oid
    const b = defined((await objects.listTree(head, 'e')).entries[0], 'e/b').oid
    await git(repo.dir, ['replace', a, b])
    expect((await git(repo.dir, ['cat-file', 'blob', a])).toString()).toBe('replacement')
    // A fresh process: replace refs are read when git starts.
    const fresh = new GitObjects(repo.dir)
    opened.push(fresh)
    expect((await fresh.listTree(head, 'd')).entries[0]?.oid).toBe(a)
    const blobs = await fresh.readBlobs([a])
    expect(blobs.get(a)?.toString()).toBe('original')
  })
})
