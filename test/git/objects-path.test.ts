// GitObjects starts the git that git.ts chooses (chooseGit), not whichever `git` comes first on
// PATH: an agent running as our user can plant one in `~/.local/bin`, which precedes /usr/bin
// on hosted runners. The choice is made once per process, so each case runs in a fresh node
// process with the planted directory first on its PATH. As root every directory is writable and
// PATH is used as it is (see chooseGit), so there the process runs as `nobody`, the way the
// runner's own user stands to an agent.
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cleanup, sh, tmp, write } from './repos.js'

afterAll(cleanup)

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const TSX = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
const OBJECTS = pathToFileURL(path.join(ROOT, 'src', 'git', 'objects.ts')).href
const NOBODY = 65534
const asRoot = process.getuid?.() === 0

/** A directory the child process can write to, holding a `git` that leaves a marker and fails. */
function plantGit(): { dir: string; marker: string } {
  const dir = tmp('planted-bin-')
  const marker = path.join(dir, 'planted-git-ran')
  write(dir, 'git', `#!/bin/sh\necho "$@" >> '${marker}'\nexit 97\n`, 0o755)
  chmodSync(dir, 0o777)
  return { dir, marker }
}

function repoWithFile(): { dir: string; head: string } {
  const dir = tmp('objects-path-')
  sh(dir, 'init', '--quiet')
  write(dir, 'd/a.md', 'hello\n')
  sh(dir, 'add', '.')
  sh(dir, 'commit', '--quiet', '-m', 'one')
  // Readable by `nobody`; owned by someone else, which safe.directory has to allow.
  chmodSync(dir, 0o755)
  return { dir, head: sh(dir, 'rev-parse', 'HEAD') }
}

/** Runs `script` (an ES module) in a fresh node with `bin` first on PATH. */
function node(
  script: string,
  bin: string
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', TSX, '--input-type=module', '-e', script],
      {
        cwd: ROOT,
        env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
        ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {})
      },
      (err, stdout, stderr) => {
        const code = err ? (err as { code?: unknown }).code : 0
        done({ code: typeof code === 'number' ? code : 1, stdout, stderr })
      }
    )
  })
}

describe('the git GitObjects runs', () => {
  it('is not a git planted in a writable directory first on PATH', async () => {
    const { dir, head } = repoWithFile()
    const planted = plantGit()
    const r = await node(
      `import { GitObjects } from ${JSON.stringify(OBJECTS)}
       const objects = new GitObjects(${JSON.stringify(dir)})
       const listing = await objects.listTree(${JSON.stringify(head)}, 'd')
       const blobs = await objects.readBlobs(listing.entries.map((e) => e.oid))
       await objects.close()
       console.log(JSON.stringify({
         names: listing.entries.map((e) => e.name),
         texts: [...blobs.values()].map((b) => b.toString('utf8'))
       }))`,
      planted.dir
    )
    const ran = existsSync(planted.marker) ? readFileSync(planted.marker, 'utf8') : ''
    expect(ran).toBe('')
    expect(r).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(r.stdout)).toEqual({ names: ['a.md'], texts: ['hello\n'] })
  })

  it('would be the planted one for a plain spawn of `git`, the way the test is set up', async () => {
    const planted = plantGit()
    const r = await node(
      `import { spawnSync } from 'node:child_process'
       process.exitCode = spawnSync('git', ['--version']).status`,
      planted.dir
    )
    expect(r.code).toBe(97)
    expect(readFileSync(planted.marker, 'utf8')).toBe('--version\n')
  })
})
