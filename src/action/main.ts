// The action's one entry, for both of action.yml's steps (as actions/checkout has it): the main
// step saves `isPost` in the runner's state, which the runner hands to the post step only.
import * as core from '@actions/core'
import { mainStep } from './main-step.js'
import { afterFinishedStage, finishStage } from './post-finish.js'
import { CONTEXT_STATE, unfinishedContext } from './saved-context.js'

const IS_POST = 'isPost'

if (core.getState(IS_POST)) {
  // Almost every job's post step finds the stage finished, which the saved state alone tells.
  const path = core.getState(CONTEXT_STATE)
  if (unfinishedContext(path)) await finishStage(path)
  else await afterFinishedStage()
} else {
  core.saveState(IS_POST, 'true')
  await mainStep()
}
