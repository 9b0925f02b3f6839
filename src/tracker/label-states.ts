// On GitHub every state is a label, matched case-insensitively (itervox's convention). These
// pure rules read the state from an issue's labels and compute the labels after a move.
import { sameState } from '../config/lookup.js'
import { UserError } from '../errors.js'

/** The known state a label stands for, spelled as WORKFLOW.md spells it; undefined if none. */
export function stateOfLabel(label: string, states: string[]): string | undefined {
  return states.find((s) => sameState(s, label))
}

/**
 * The one state an issue's labels put it in, or null when no label is a state.
 * @param issue how to name the issue in the error, e.g. `#42`
 */
export function stateFromLabels(labels: string[], states: string[], issue: string): string | null {
  const found = labels.filter((l) => stateOfLabel(l, states) !== undefined)
  if (found.length > 1) {
    const names = found.map((l) => JSON.stringify(l)).join(' and ')
    throw new UserError(
      `issue ${issue} has ${found.length} state labels, ${names}; remove all but one so its state is clear`
    )
  }
  const [label] = found
  return label === undefined ? null : (stateOfLabel(label, states) ?? null)
}

/** The labels after moving to `to`: every label that is not a state, then `to`. */
export function labelsAfterMove(labels: string[], states: string[], to: string): string[] {
  return [...labels.filter((l) => stateOfLabel(l, states) === undefined), to]
}
