// A named pipe for tests of "never wait on a FIFO". A blocking read of a FIFO with no writer
// would freeze the jest worker for good (no timeout fires in a synchronous call), so a watchdog
// process, after a while, keeps opening the write end whenever someone is reading and closes
// it again: a regression becomes a failed assertion instead of a hang.
import { execFileSync, spawn } from 'node:child_process'

// Opening with O_NONBLOCK succeeds only while a reader has the FIFO open, so the watchdog
// itself never blocks. It ends when the test stops it, when its parent is gone, or after 10 min.
const WATCHDOG = `
const fs = require('node:fs')
const [path, delay] = [process.argv[1], Number(process.argv[2])]
const parent = process.ppid
setTimeout(() => setInterval(() => {
  if (process.ppid !== parent) process.exit(0)
  try { fs.closeSync(fs.openSync(path, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)) } catch {}
}, 100), delay)
setTimeout(() => process.exit(0), 600000)
`

/** Makes a FIFO at `path`; call the result when done to stop its watchdog. */
export function makeFifo(path: string, unblockAfterMs = 5000): () => void {
  execFileSync('mkfifo', [path])
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG, path, String(unblockAfterMs)], {
    stdio: 'ignore'
  })
  return () => {
    watchdog.kill()
  }
}
