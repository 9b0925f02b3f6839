import { parseWorkflow } from '../../src/config/load.js'
import type { WorkflowConfig } from '../../src/config/types.js'
import { profileFiles, workflowMd, type PipelineOptions } from '../e2e/pipeline-fixture.js'

/** The seed pipeline (GitHub tracker) as the e2e tests use it, parsed in memory. */
export function seedConfig(o: PipelineOptions = {}): WorkflowConfig {
  const files = profileFiles()
  return parseWorkflow(workflowMd(o), {
    file: 'WORKFLOW.md',
    env: {},
    readFile: (p) => files[p] ?? null
  }).config
}
