// One stage of the bundled action (dist/index.js) with an instant agent, timed by the real clock:
// shared by the stage and isolation benches. Needs a fresh `npm run build`.
import { checkoutShallow, runAction, type ActionRun } from '../harness/action-run.js'
import { wakeUp } from '../e2e/drive.js'
import { startPipeline, type Pipeline } from '../e2e/pipeline-fixture.js'

export const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

export const todo = (issue: number) => ({
  event: 'issues.labeled' as const,
  eventOptions: { issue, label: 'Todo', labels: ['Todo'], sender: 'ada', title: 'Add CSV export' }
})

export interface TimedStage {
  p: Pipeline
  run: ActionRun
  ms: number
}

/**
 * The benches' agent: it reads the prompt and writes a deliverable, and starts nothing else,
 * so that what is timed is the stage's own cost (test/fixtures/agents/instant-agent.sh).
 */
export const INSTANT_AGENT = 'instant-agent'

/**
 * An issue's first stage, after a shallow checkout as actions/checkout makes one; `action` is
 * the folder of the action to run (this checkout's unless given, see runAction).
 */
export async function firstStage(
  inputs: Record<string, string> = {},
  env: (p: Pipeline) => Record<string, string> = () => ({}),
  command = INSTANT_AGENT,
  action?: string
): Promise<TimedStage> {
  const p = await startPipeline({ command })
  checkoutShallow(p.sb)
  const t0 = performance.now()
  const run = await runAction('main', p.sb, p.gh, { ...todo(p.issue), inputs, env: env(p), action })
  const ms = performance.now() - t0
  if (run.outputs.outcome !== 'succeeded') {
    throw new Error(`stage ${run.outputs.outcome}: ${run.stdout}`)
  }
  return { p, run, ms }
}

/** The stage the first one woke, by the dispatch the fake GitHub recorded. */
export async function laterStage(
  p: Pipeline,
  env: Record<string, string> = {}
): Promise<{ run: ActionRun; ms: number }> {
  const dispatch = p.gh.dispatches.at(-1)
  if (!dispatch) throw new Error('the first stage woke no next one')
  const t0 = performance.now()
  const run = await runAction('main', p.sb, p.gh, {
    ...wakeUp(dispatch),
    env: { GITHUB_RUN_ID: '1002', ...env }
  })
  const ms = performance.now() - t0
  if (run.outputs.outcome !== 'succeeded') {
    throw new Error(`stage ${run.outputs.outcome}: ${run.stdout}`)
  }
  return { run, ms }
}
