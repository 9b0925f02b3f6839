import type { WorkflowConfig } from '../../config/types.js'

// Above the agent's own deadline, so the action can still commit a partial and report.
const JOB_OVERHEAD_MINUTES = 15

/** The minutes a stage's job may take: the agent's turn timeout and time to commit its work. */
export function stageJobMinutes(config: WorkflowConfig): { agent: number; job: number } {
  const agent = Math.ceil(config.agent.turnTimeoutMs / 60_000)
  return { agent, job: agent + JOB_OVERHEAD_MINUTES }
}
