import { EOL } from 'node:os'
import { loadSteps } from './load-steps.js'
import { CONTEXT_STATE, unfinishedContext } from './saved-context.js'

// The post step runs after every job and almost always finds the stage finished. That much is
// known from the saved state alone, so the rest of the program (its GitHub client, git, the
// schemas: ~2 MB of JavaScript) loads only for a stage the main step left unfinished. Nothing
// here may need @actions/core, which brings an HTTP client with it: its getState is this
// variable, and its info a line on stdout.
const path = process.env[`STATE_${CONTEXT_STATE}`] ?? ''
if (unfinishedContext(path)) {
  const { finishStage } = await loadSteps()
  await finishStage(path)
} else {
  process.stdout.write(`the stage finished in the main step; nothing to do${EOL}`)
}
