// The five ways a stage's agent run ends that the contract suite pins for each real CLI (and
// one more for Claude Code, the only CLI given the cost budget), and the model API's side of
// each. The recorder plays these replies to the real CLI and stores them beside what the CLI
// did; the suite replays the stored ones.
import type { AgentOutcome } from '../../src/agent/types.js'
import type { CliName } from './agent-clis.js'
import { anthropic, gemini, openai, stalled, type Reply } from './model-replies.js'

const SCENARIOS = ['success', 'no-file', 'api-error-after-file', 'rate-limited', 'stall'] as const
type SharedScenario = (typeof SCENARIOS)[number]
export type ScenarioName = SharedScenario | 'over-budget'

/** The scenarios each CLI is run in. */
export function scenariosFor(cli: CliName): ScenarioName[] {
  return cli === 'claude' ? [...SCENARIOS, 'over-budget'] : [...SCENARIOS]
}

/**
 * The budget left that a scenario's stage passes (claude's preset makes it --max-budget-usd):
 * below what the CLI prices the first recorded turn at, so it is spent after one turn.
 */
export const BUDGET_USD: Partial<Record<ScenarioName, number>> = { 'over-budget': 0.001 }

/** Where the deliverable goes, written into replies before the paths are known. */
export const HANDOFF_ABSOLUTE = '@@HANDOFF_ABSOLUTE@@'
export const HANDOFF_RELATIVE = '@@HANDOFF_RELATIVE@@'

export const DELIVERABLE = '# Plan\n\nOne file, written by the contract suite.\n'

/** What the stage's runner must make of each end, whichever CLI it was. */
export const EXPECTED: Record<ScenarioName, { outcome: AgentOutcome; file: boolean }> = {
  success: { outcome: 'succeeded', file: true },
  // The run itself succeeds; the stage then refuses the missing deliverable.
  'no-file': { outcome: 'succeeded', file: false },
  // Failed, and the file it wrote stays for the stage to keep as its partial.
  'api-error-after-file': { outcome: 'failed', file: true },
  'rate-limited': { outcome: 'rate_limited', file: false },
  stall: { outcome: 'stalled', file: false },
  // Stopped by the CLI before it ran the turn's Write; failed, and no retry can do better.
  'over-budget': { outcome: 'failed', file: false }
}

const ANTHROPIC = 'POST /v1/messages'
const OPENAI = 'POST /v1/responses'
const GEMINI = 'POST /v1beta/models/*:streamGenerateContent'
const GEMINI_ROUTER = 'POST /v1beta/models/*:generateContent'

/** The model API's replies per route for one CLI and scenario. */
export function repliesFor(cli: CliName, scenario: ScenarioName): Record<string, Reply[]> {
  switch (cli) {
    case 'claude': {
      const write = anthropic.write(HANDOFF_ABSOLUTE, DELIVERABLE)
      const done = anthropic.text('The plan is written.')
      return {
        [ANTHROPIC]: pick(scenario, {
          success: [write, done],
          'no-file': [anthropic.text('There is nothing to write.')],
          'api-error-after-file': [
            write,
            anthropic.error(
              400,
              'invalid_request_error',
              'messages: text content blocks must be non-empty'
            )
          ],
          'rate-limited': [
            anthropic.error(
              429,
              'rate_limit_error',
              'Number of request tokens has exceeded your per-minute rate limit'
            )
          ],
          stall: [stalled(anthropic.text('Reading the handoffs.'))],
          'over-budget': [write, done]
        })
      }
    }
    case 'codex': {
      const write = openai.write(HANDOFF_RELATIVE, DELIVERABLE.trimEnd())
      const done = openai.text('The plan is written.')
      return {
        [OPENAI]: pick(scenario, {
          success: [write, done],
          'no-file': [openai.text('There is nothing to write.')],
          'api-error-after-file': [
            write,
            openai.error(400, 'invalid_request_error', 'invalid_value', 'Invalid value for input.')
          ],
          'rate-limited': [
            openai.error(429, 'requests', 'rate_limit_exceeded', 'Rate limit reached for requests')
          ],
          stall: [stalled(done)]
        })
      }
    }
    case 'gemini': {
      const write = gemini.write(HANDOFF_ABSOLUTE, DELIVERABLE)
      const done = gemini.text('The plan is written.')
      return {
        [GEMINI_ROUTER]: [gemini.route()],
        [GEMINI]: pick(scenario, {
          success: [write, done],
          'no-file': [gemini.text('There is nothing to write.')],
          'api-error-after-file': [
            write,
            gemini.error(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.')
          ],
          'rate-limited': [
            gemini.error(
              429,
              'RESOURCE_EXHAUSTED',
              'Resource has been exhausted (e.g. check quota).'
            )
          ],
          stall: [stalled(done)]
        })
      }
    }
  }
}

function pick<T>(
  scenario: ScenarioName,
  by: Record<SharedScenario, T> & Partial<Record<ScenarioName, T>>
): T {
  const replies = by[scenario]
  if (replies === undefined) throw new Error(`no replies for the ${scenario} scenario`)
  return replies
}
