// The agent CLIs' npm packages at the versions the contract suite (npm run test:contract) runs
// each preset against. Workflows that `init` writes install these versions, so a user's
// pipeline runs what was tested. To move one on: change it here, run `npm run test:contract`
// (it installs the new version), re-record its fixtures if the output changed
// (scripts/record-agent-clis.ts), and regenerate the example workflows.

export type AgentCliName = 'claude' | 'codex' | 'gemini'

export const AGENT_CLI_VERSIONS: Record<AgentCliName, { pkg: string; version: string }> = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332' },
  codex: { pkg: '@openai/codex', version: '0.171.0' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0' }
}
