import { didYouMean } from './did-you-mean.js'
import { knownStates, sameState } from './lookup.js'
import { quoted } from './source-map.js'
import type { ConfigWarning, WorkflowConfig } from './types.js'

// `move_state: Implementing`, as instructions tell an agent what to ask for; a Liquid
// expression in place of the state is left alone.
const MENTION = /\bmove_state:\s*["']?([^\s"'`{][^"'`\n,;)]*)/g

/**
 * States that the profiles' files and the automations' instructions tell an agent to ask for
 * (`move_state: X`) but WORKFLOW.md does not have: the agent's request would be refused.
 */
export function unknownStateMentions(config: WorkflowConfig): ConfigWarning[] {
  const known = knownStates(config)
  const texts: { text: string; file: string; line: number }[] = []
  for (const p of Object.values(config.agent.profiles)) {
    texts.push({ text: p.soulText, file: p.soulFile, line: 1 })
    texts.push({ text: p.instructionsText, file: p.instructionsFile, line: 1 })
  }
  for (const a of config.automations) {
    if (a.instructions) {
      texts.push({ text: a.instructions, file: config.file, line: a.instructionsLine ?? 1 })
    }
  }
  const out: ConfigWarning[] = []
  for (const t of texts) {
    t.text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(MENTION)) {
        // The end of a sentence is not part of the state.
        const state = m[1]!.trim().replace(/[.:!?]+$/, '')
        if (known.some((k) => sameState(k, state))) continue
        out.push({
          message: `move_state: ${quoted(state)} names no state of ${config.file}, so an agent that asks for it is refused${didYouMean(state, known) || `; its states are ${known.join(', ')}`}`,
          location: { file: t.file, line: t.line + i, col: (m.index ?? 0) + 1 }
        })
      }
    })
  }
  return out
}
