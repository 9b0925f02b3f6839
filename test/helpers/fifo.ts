// A named pipe for tests of "never wait on a FIFO". A blocking read of a FIFO with no writer
// would freeze the jest worker for good (no timeout fires in a synchronous call), so a watchdog
// process opens the write end after a while and closes it, turning a regression into a
// failed assertion instead of a hang.
import { execFileSync, spawn } from 'node:child_process'

const WATCHDOG = `setTimeout(() => {
  const fs = require('node:fs')
  fs.closeSync(fs.openSync(process.argv[1], 'w'))
}, Number(process.argv[2]))`

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
