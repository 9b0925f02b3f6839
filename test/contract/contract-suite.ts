// The contract suite for one preset: the pinned real CLI, run by the stage's runner against a
// loopback model API that replays the recorded replies, must end each scenario as the stage
// expects, ask the model what it asked when recorded, and print the same kinds of events.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BUDGET_SPENT } from '../../src/agent/classify.js'
import { parseJsonLine } from '../../src/agent/stream-json.js'
import { installedCli, type CliName } from './agent-clis.js'
import type { Reply } from './model-replies.js'
import { runScenario } from './run-scenario.js'
import { BUDGET_USD, DELIVERABLE, EXPECTED, scenariosFor } from './scenarios.js'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'agent-clis')

/** The event types of a stream, one per JSON line (a claude `system` event with its subtype). */
function eventTypes(stream: string): string[] {
  return stream.split('\n').flatMap((line) => {
    const e = parseJsonLine(line)
    if (typeof e?.type !== 'string') return []
    return [typeof e.subtype === 'string' ? `${e.type}/${e.subtype}` : e.type]
  })
}

export function contractSuite(cli: CliName): void {
  describe(`the ${cli} preset with the real CLI`, () => {
    it.each(scenariosFor(cli))('%s', async (scenario) => {
      const dir = join(FIXTURES, cli, scenario)
      const replies = JSON.parse(readFileSync(join(dir, 'replies.json'), 'utf8')) as Record<
        string,
        Reply[]
      >
      const recorded = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as {
        requests: string[]
      }
      // Installed by test/contract/install.ts before jest starts; here it is only found.
      const budget = BUDGET_USD[scenario]
      const run = await runScenario({
        cli,
        binDir: await installedCli(cli),
        replies,
        ...(budget !== undefined ? { maxBudgetUsd: budget } : {})
      })
      const expected = EXPECTED[scenario]
      expect({ outcome: run.result.outcome, reason: run.result.reason }).toEqual({
        outcome: expected.outcome,
        reason: expect.any(String)
      })
      expect(run.deliverable).toBe(expected.file ? DELIVERABLE : null)
      expect(run.seen).toEqual(recorded.requests)
      expect(eventTypes(run.log)).toEqual(
        eventTypes(readFileSync(join(dir, 'stdout.jsonl'), 'utf8'))
      )
      if (scenario === 'success') {
        expect(run.result.stats.inputTokens).toBeGreaterThan(0)
        expect(run.result.stats.outputTokens).toBeGreaterThan(0)
      }
      if (budget !== undefined) {
        // The CLI took the flag, priced the turn past it and stopped; the stage can tell why.
        expect(run.result.reason.startsWith(BUDGET_SPENT)).toBe(true)
        expect(run.result.stats.costUsd).toBeGreaterThan(budget)
        expect(run.result.stats.inputTokens).toBeGreaterThan(0)
      }
    })
  })
}
