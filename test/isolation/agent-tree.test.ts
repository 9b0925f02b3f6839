import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AgentUser } from '../../src/isolation/agent-user.js'
import { handOver, takeBack } from '../../src/isolation/agent-tree.js'
import type { Privilege } from '../../src/isolation/privilege.js'
import { gitSync as git } from '../helpers/git-repo.js'
import { asRoot, createUser, deleteUser, requirePrivilege } from './throwaway-user.js'

let privilege: Privilege
let user: AgentUser
let root: string
let repo: string

beforeAll(() => {
  privilege = requirePrivilege()
  user = createUser('itervox-t')
  root = mkdtempSync(path.join(tmpdir(), 'agent-tree-'))
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
  it("give the agent a clone of its own, linked to nothing, and take it back whole, leaving nothing in the agent's area", async () => {
    const workDir = mkdtempSync(path.join(root, 'work-'))
    const h = await handOver({
      privilege,
      user,
      repo,
      branch: 'itervox/1',
      workDir,
      homeFiles: [{ path: '.itervox/prompt.md', content: 'go' }]
    })

    expect(asRoot(['stat', '-c', '%a %u', h.area]).trim()).toBe(`700 ${user.uid}`)
    const all = entries(h.area)
    expect(all.filter((e) => e.uid !== user.uid)).toEqual([])
    expect(all.filter((e) => e.type !== 'd' && e.links !== 1)).toEqual([])
    const inGit = all.map((e) => path.relative(path.join(h.tree, '.git'), e.path))
    expect(inGit).not.toContain(path.join('objects', 'info', 'alternates'))
    expect(asRoot(['cat', path.join(h.tree, 'src', 'f2.ts')])).toBe('export const v = 2\n')
    expect(asRoot(['cat', path.join(h.home, '.itervox', 'prompt.md')])).toBe('go')

    const back = await takeBack(privilege, h)
    expect(back).toBe(h.returnTo)
    expect(statSync(h.returnTo).uid).toBe(process.getuid?.())
    expect(readFileSync(path.join(h.returnTo, 'src', 'f1.ts'), 'utf8')).toBe('export const v = 1\n')
    expect(asRoot(['sh', '-c', 'test -e "$1" && echo left || echo gone', 'sh', h.area])).toBe(
      'gone\n'
    )
  })
})
