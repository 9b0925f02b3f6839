// The release workflow's tag step, scripts/move-major-tag.sh, run as the workflow runs it: in a
// clone of a bare origin, checked out at the release's tag.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { git, ROOT } from '../cli/helpers.js'

const SCRIPT = join(ROOT, 'scripts', 'move-major-tag.sh')

let dir: string
let origin: string
let work: string
const commits: Record<string, string> = {}

/** A commit whose package.json says `version`, tagged v<version> (annotated) and pushed. */
function release(version: string): void {
  if (Object.keys(commits).length > 0) git(work, 'checkout', '--quiet', 'main')
  writeFileSync(join(work, 'package.json'), JSON.stringify({ version }) + '\n')
  git(work, 'add', 'package.json')
  git(work, 'commit', '--quiet', '-m', version)
  git(work, 'tag', '-a', '-m', version, `v${version}`)
  git(work, 'push', '--quiet', 'origin', 'HEAD:main', `v${version}`)
  commits[version] = git(work, 'rev-parse', 'HEAD')
}

function moveMajorTag(tag: string, prerelease = false): { code: number; out: string } {
  git(work, 'checkout', '--quiet', tag)
  const r = spawnSync('bash', [SCRIPT, tag, String(prerelease)], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' }
  })
  return { code: r.status ?? 1, out: r.stdout + r.stderr }
}

const originTag = (name: string): string => git(origin, 'rev-parse', `refs/tags/${name}^{commit}`)

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'release-'))
  origin = join(dir, 'origin.git')
  work = join(dir, 'work')
  git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', origin)
  git(dir, 'clone', '--quiet', origin, work)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('moving the major tag on a release', () => {
  it("points vX at the release's commit, and moves it on with the next release", () => {
    release('1.0.0')
    expect(moveMajorTag('v1.0.0')).toMatchObject({ code: 0 })
    expect(originTag('v1')).toBe(commits['1.0.0'])
    release('1.1.0')
    const next = moveMajorTag('v1.1.0')
    expect(next).toEqual({
      code: 0,
      out: expect.stringContaining(`v1 now points at ${commits['1.1.0']} (v1.1.0)`)
    })
    expect(originTag('v1')).toBe(commits['1.1.0'])
    release('2.0.0')
    expect(moveMajorTag('v2.0.0').code).toBe(0)
    expect(originTag('v2')).toBe(commits['2.0.0'])
    expect(originTag('v1')).toBe(commits['1.1.0'])
  })

  it('leaves the major tag alone for a prerelease', () => {
    release('1.2.0-rc.1')
    expect(moveMajorTag('v1.2.0-rc.1', true)).toEqual({
      code: 0,
      out: 'v1.2.0-rc.1 is a prerelease: v1 stays where it is\n'
    })
    expect(originTag('v1')).toBe(commits['1.1.0'])
  })

  it('refuses a tag that is not vX.Y.Z, or not the version of package.json', () => {
    release('1.1.2-typo')
    const cases: [string, boolean, string][] = [
      ['v1.1.2-typo', false, 'the release tag "v1.1.2-typo" is not a version vX.Y.Z'],
      ['v1.2.0-rc.1', false, 'the release tag "v1.2.0-rc.1" is not a version vX.Y.Z']
    ]
    for (const [tag, prerelease, message] of cases) {
      const r = moveMajorTag(tag, prerelease)
      expect(r.code).toBe(1)
      expect(r.out).toContain(`::error::${message}`)
    }
    // A tag named like a version on a commit whose package.json says another.
    git(work, 'tag', 'v1.3.0', commits['1.1.0']!)
    git(work, 'push', '--quiet', 'origin', 'v1.3.0')
    expect(moveMajorTag('v1.3.0').out).toContain(
      `::error::the release tag v1.3.0 does not match package.json's version 1.1.0`
    )
    expect(originTag('v1')).toBe(commits['1.1.0'])
    git(work, 'push', '--quiet', '--delete', 'origin', 'v1.3.0')
    git(work, 'tag', '--delete', 'v1.3.0')
  })

  it('leaves the major tag on the newest release when an older one gets a fix', () => {
    release('1.2.0')
    release('1.1.1')
    expect(moveMajorTag('v1.2.0').code).toBe(0)
    expect(moveMajorTag('v1.1.1')).toEqual({
      code: 0,
      out: 'v1.1.1 is older than v1.2.0, the newest v1 release: v1 stays where it is\n'
    })
    expect(originTag('v1')).toBe(commits['1.2.0'])
  })
})

it('the release workflow runs the dist check, then the tag step with only that job writing', () => {
  const workflow = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
    on: unknown
    permissions: unknown
    jobs: Record<
      string,
      {
        needs?: string
        permissions: unknown
        steps: { run?: string; env?: Record<string, string> }[]
      }
    >
  }
  expect(workflow.on).toEqual({ release: { types: ['published'] } })
  expect(workflow.permissions).toEqual({})
  const { dist, 'major-tag': tag } = workflow.jobs
  expect(dist?.permissions).toEqual({ contents: 'read' })
  expect(dist?.steps.map((s) => s.run)).toContain('bash scripts/dist-check.sh')
  expect(tag?.needs).toBe('dist')
  expect(tag?.permissions).toEqual({ contents: 'write' })
  const step = tag?.steps.find((s) => s.run?.includes('move-major-tag.sh'))
  // The tag name reaches the script as an argument from the environment, never pasted into it.
  expect(step).toMatchObject({
    run: 'bash scripts/move-major-tag.sh "$TAG" "$PRERELEASE"',
    env: {
      TAG: '${{ github.event.release.tag_name }}',
      PRERELEASE: '${{ github.event.release.prerelease }}'
    }
  })
  expect(readFileSync(join(ROOT, 'scripts/test.sh'), 'utf8')).toContain(
    'bash scripts/dist-check.sh'
  )
})
