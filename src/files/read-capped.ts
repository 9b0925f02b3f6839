import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { UserError } from '../errors.js'

/** Why a file was not read. */
export type Refusal = 'missing' | 'unreadable' | 'not-a-file' | 'too-large'

/** A user's file that cannot be used as it is; the message says what to change. */
export class FileRefused extends UserError {
  constructor(
    message: string,
    readonly reason: Refusal,
    file: string,
    /** The system error code, when the system refused. */
    readonly code?: string
  ) {
    super(message, { file })
    this.name = 'FileRefused'
  }
}

// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer (it changes
// nothing for regular files). O_NOCTTY: opening a terminal never makes it ours. Windows has
// neither flag.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)
const CHUNK = 64 * 1024

/**
 * The bytes of the regular file at `path` (symlinks followed), refusing, without waiting or
 * reading, a FIFO, device, socket or directory, and refusing a file longer than `maxBytes`,
 * even one that grows while it is read. `display` names the file in messages.
 */
export function readCappedFile(path: string, maxBytes: number, display = path): Buffer {
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch (e) {
    throw systemRefusal(e, display)
  }
  try {
    // fstat the descriptor, not the path: what was opened is what is judged.
    const st = fstatSync(fd)
    if (!st.isFile()) {
      throw new FileRefused(
        `${kindOf(st)}, not a regular file; replace it with a regular file`,
        'not-a-file',
        display
      )
    }
    if (st.size > maxBytes) throw tooLarge(maxBytes, display)
    // Read to the end rather than trusting st.size: a file can grow after fstat.
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total))
      const n = readSync(fd, buf, 0, buf.length, null)
      if (n === 0) break
      chunks.push(buf.subarray(0, n))
      total += n
      if (total > maxBytes) throw tooLarge(maxBytes, display)
    }
    return Buffer.concat(chunks, total)
  } catch (e) {
    throw e instanceof FileRefused ? e : systemRefusal(e, display)
  } finally {
    closeSync(fd)
  }
}

/** readCappedFile as UTF-8 text (invalid sequences become U+FFFD, as readFileSync does). */
export function readCappedText(path: string, maxBytes: number, display = path): string {
  return readCappedFile(path, maxBytes, display).toString('utf8')
}

function systemRefusal(e: unknown, display: string): FileRefused {
  const code = (e as NodeJS.ErrnoException).code ?? 'EIO'
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new FileRefused('no such file; check the path', 'missing', display, code)
  }
  // Opening a socket (as /dev/stdin can be) fails with ENXIO.
  if (code === 'ENXIO') {
    return new FileRefused(
      'a socket or a missing device, not a regular file; replace it with a regular file',
      'not-a-file',
      display,
      code
    )
  }
  if (code === 'EISDIR') {
    return new FileRefused(
      'a directory, not a regular file; name a file',
      'not-a-file',
      display,
      code
    )
  }
  const fix =
    code === 'EACCES' || code === 'EPERM'
      ? 'check its permissions'
      : code === 'ELOOP'
        ? 'its symlinks form a loop; fix the link'
        : 'replace it with a regular file'
  return new FileRefused(`cannot be read (${code}); ${fix}`, 'unreadable', display, code)
}

function tooLarge(maxBytes: number, display: string): FileRefused {
  return new FileRefused(
    `larger than the ${sizeText(maxBytes)} this file may hold; make it smaller`,
    'too-large',
    display
  )
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory'
  if (st.isFIFO()) return 'a named pipe (FIFO)'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device'
  if (st.isSocket()) return 'a socket'
  return 'a special file'
}

function sizeText(bytes: number): string {
  const MiB = 1024 * 1024
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`
  return `${bytes} bytes`
}
