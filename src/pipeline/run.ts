import { AGENT_OUTCOMES } from '../agent/types.js'
import type { LandedStage } from '../git/trailers.js'
import { redactNoting, type SecretScanner } from '../secrets/scanner.js'
import type { Job, Stop } from './job-values.js'
import type { Prepared } from './prepare.js'
import { runStage, type FinalisedStage } from './stage/stage.js'
import { stageEnding } from './stage-run.js'
import type { PromptFigures } from './stage/stage-prompt.js'

/** The stage's end, judged and committed (or found landed by an earlier run). */
export interface Ran extends Prepared {
  result: FinalisedStage
  /** The saved stage context, for the post step; unset for a landed stage. */
  contextPath?: string
  figures?: PromptFigures
}

/**
 * The third phase: the prompt, the agent, and its end committed on the branch. A stage an
 * earlier run already landed is judged as that run judged it, and a dry run ends with the prompt.
 */
export async function run(job: Job, p: Prepared): Promise<Ran | Stop> {
  const { stage, landed } = p
  if (landed) {
    job.log?.(
      `${stage.branch.branch} already holds this stage's commit ${landed.sha.slice(0, 12)}; not running the agent again`
    )
    return { ...p, result: recoveredStage(landed) }
  }
  const staged = await job.workspace.around(stage.branch, () => (job.stage ?? runStage)(job, stage))
  if (staged.dryRun) {
    return {
      stop: {
        ...stageEnding(stage),
        outcome: 'skipped',
        reason: 'dry run: the prompt is below; no agent ran',
        prompt: staged.prompt,
        figures: staged.figures,
        warnings: staged.warnings
      }
    }
  }
  const result = withoutSecrets(staged, job.secrets)
  job.withheld.push(...result.withheld)
  return { ...p, result, contextPath: staged.contextPath, figures: staged.figures }
}

/** A stage whose commit an earlier run already landed: judged as that run judged it. */
function recoveredStage(landed: LandedStage): FinalisedStage {
  // A landed commit is an agent run's; its trailer is text anyone could have written.
  const found = AGENT_OUTCOMES.find((o) => o === landed.outcome) ?? 'failed'
  return {
    // A cancelled stage found here is one whose job was killed before it decided anything (its
    // post step saved the partial): the attempt failed, and the retry policy says what follows.
    outcome: found === 'cancelled' ? 'failed' : found,
    reason: landed.reason || `recovered from commit ${landed.sha.slice(0, 12)}`,
    handoffPath: landed.handoffPath,
    commit: {
      sha: landed.sha,
      committed: landed.handoffPath ? [landed.handoffPath] : [],
      dropped: []
    },
    gitDir: null,
    withheld: [],
    warnings: [`recovered from ${landed.sha.slice(0, 12)}, which run ${landed.run} pushed`]
  }
}

/**
 * The agent's own words that travel on (its question goes into a comment and the record, its
 * final text into the log) with every secret redacted, each finding added to `withheld`.
 */
function withoutSecrets(stage: FinalisedStage, secrets: SecretScanner): FinalisedStage {
  const agent = stage.agent
  if (!agent) return stage
  const lines: string[] = []
  const clean = (where: string, text: string | undefined): string | undefined =>
    text === undefined ? undefined : redactNoting(secrets, where, text, (l) => lines.push(l))
  return {
    ...stage,
    agent: {
      ...agent,
      reason: secrets.redact(agent.reason).text,
      question: clean("the agent's question", agent.question),
      resultText: clean("the agent's final text", agent.resultText)
    },
    withheld: [...stage.withheld, ...lines]
  }
}
