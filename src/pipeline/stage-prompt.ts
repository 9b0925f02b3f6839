import type { AutomationConfig, ProfileConfig, WorkflowConfig } from '../config/types.js'
import { sharedObjects } from '../git/objects.js'
import { buildHandoffBlock, handoffPath } from '../handoff/index.js'
import { buildStagePrompt } from '../prompt/stage-prompt.js'
import type { Issue } from '../tracker/types.js'

export interface PromptFigures {
  /** UTF-8 bytes of the whole prompt. */
  bytes: number
  /** Prior handoffs shown, oldest first. */
  included: string[]
  /** Older handoffs left out for the budget. */
  dropped: number
  /** Bytes of the Prior Agent Handoffs block. */
  blockBytes: number
  truncatedFile?: string
}

export interface PreparedPrompt {
  prompt: string
  handoffPath: string
  figures: PromptFigures
  warnings: string[]
}

/**
 * The stage's prompt from the handoffs committed at `commit` (never from the worktree) that
 * were not committed at `since`, where the branch left its base branch.
 */
export async function promptForStage(o: {
  repo: string
  commit: string | null
  since: string | null
  config: WorkflowConfig
  profile: ProfileConfig
  automation?: AutomationConfig
  issue: Issue
  attempt: number | null
  timestamp: string
  sections?: string[]
}): Promise<PreparedPrompt> {
  const ownPath = handoffPath(o.timestamp, o.profile.name)
  let block = { text: '', included: [] as string[], dropped: 0, bytes: 0, warnings: [] as string[] }
  let truncatedFile: string | undefined
  if (o.commit) {
    const built = await buildHandoffBlock(
      sharedObjects(o.repo),
      { head: o.commit, since: o.since },
      { ...o.config.handoff, ownPath }
    )
    block = built
    truncatedFile = built.truncatedFile
  }
  const stage = await buildStagePrompt({
    config: o.config,
    profile: o.profile,
    automation: o.automation,
    issue: o.issue,
    attempt: o.attempt,
    timestamp: o.timestamp,
    handoffBlock: block.text,
    sections: o.sections
  })
  return {
    prompt: stage.prompt,
    handoffPath: stage.handoffPath,
    figures: {
      bytes: Buffer.byteLength(stage.prompt),
      included: block.included,
      dropped: block.dropped,
      blockBytes: block.bytes,
      truncatedFile
    },
    warnings: [...block.warnings, ...stage.warnings]
  }
}
