// The code of both steps, bundled once as dist/steps: the main step always loads it, the post
// step only for a stage the main step left unfinished (load-steps.ts).
export { mainStep } from './main-step.js'
export { finishStage } from './post-finish.js'
