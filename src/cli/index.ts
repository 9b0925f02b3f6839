// The CLI's process: runs its arguments and turns the outcome into an exit status.
import { main, USAGE } from './main.js'
import { userFailure } from './user-failure.js'

// A bug's exit status, as the README's table lists it (user-failure.ts has the others).
const EXIT_INTERNAL = 70

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    const failure = userFailure(err, USAGE)
    if (failure) {
      process.stderr.write(failure.text)
      process.exitCode = failure.code
    } else {
      // Not the user's doing: show everything so it can be reported.
      process.stderr.write(
        `itervox-handoff: internal error: ${(err as Error)?.stack ?? String(err)}\n`
      )
      process.exitCode = EXIT_INTERNAL
    }
  }
)
