// A file system of the bench's own, so that what a stage adds to the disk is read from its free
// blocks with nothing else writing there: an ext4 image (sparse: it costs what is written),
// loop-mounted in the bench's temporary folder, with an agent user whose home is on it (the
// checkout is handed over in place only on the file system of that home). Needs root.
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface QuietDisk {
  /** Where the sandboxes go. */
  dir: string
  /** The agent user, its home on this file system. */
  agentUser: string
  /** Bytes in use on it now. */
  used(): number
  /** Unmounts it, and removes the image and the user. */
  remove(): void
}

const run = (file: string, args: string[]) =>
  execFileSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })

/** `gib` GiB of ext4 with room for `inodes` files. */
export function quietDisk(gib: number, inodes: number): QuietDisk {
  const image = join(tmpdir(), 'quiet.img')
  const mount = join(tmpdir(), 'quiet')
  run('truncate', ['-s', `${gib}G`, image])
  run('mkfs.ext4', ['-q', '-F', '-N', String(inodes), image])
  mkdirSync(mount)
  run('mount', ['-o', 'loop', image, mount])
  const homes = join(mount, 'home')
  mkdirSync(homes, { mode: 0o755 })
  const dir = join(mount, 'sandboxes')
  mkdirSync(dir, { mode: 0o755 })
  const agentUser = `itervox-bench-${process.pid}`
  run('useradd', [
    ...['--system', '--user-group', '--create-home', '--home-dir', join(homes, agentUser)],
    ...['--shell', '/usr/sbin/nologin', agentUser]
  ])
  return {
    dir,
    agentUser,
    used: () => {
      const s = statfsSync(mount)
      return (s.blocks - s.bfree) * s.bsize
    },
    remove: () => {
      run('userdel', ['-r', agentUser])
      run('umount', [mount])
      rmSync(image, { force: true })
      rmSync(mount, { recursive: true, force: true })
    }
  }
}
