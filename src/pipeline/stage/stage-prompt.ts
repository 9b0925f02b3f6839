import type { AutomationConfig, ProfileConfig, WorkflowConfig } from '../../config/types.js'
import { sharedObjects } from '../../git/objects.js'
import { buildHandoffBlock, handoffPath } from '../../handoff/index.js'
import { assemblePrompt } from '../../prompt/assemble.js'
import type { Issue } from '../ports.js'
import { readCommittedFile } from '../../git/committed-file.js'
import { readProvenance } from '../record/provenance-log.js'
import { readContractFields } from '../../handoff/contract-fields.js'
import { renderProvenanceSection, type ProvenanceEntry } from './provenance-section.js'

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
  const provenance = o.commit ? await provenanceSection(o, o.commit) : ''
  const stage = await assemblePrompt({
    config: o.config,
    profile: o.profile,
    automation: o.automation,
    issue: o.issue,
    attempt: o.attempt,
    timestamp: o.timestamp,
    handoffBlock: block.text,
    provenanceSection: provenance,
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

/** The section from the provenance on the branch and the fields of each stage's deliverable. */
async function provenanceSection(
  o: { repo: string; since: string | null; issue: Issue; config: WorkflowConfig },
  commit: string
): Promise<string> {
  const rows = await readProvenance(o.repo, commit, o.since, o.issue.id)
  const entries: ProvenanceEntry[] = []
  for (const row of rows) {
    const text = row.handoffPath
      ? await readCommittedFile(
          o.repo,
          row.sha,
          row.handoffPath,
          o.config.handoff.maxFileBytes
        ).catch(() => null)
      : null
    const { fields } = readContractFields(text ?? '')
    entries.push(Object.keys(fields).length > 0 ? { row, fields } : { row })
  }
  return renderProvenanceSection(entries, o.issue.state)
}
