import { sameState, stateKey } from '../../config/lookup.js'
import type { ProfileConfig, WorkflowConfig } from '../../config/types.js'

/**
 * The states an agent's `move_state` may name from `from`: those the pipeline's own
 * automations lead to from there (however many stages on), those that lead to it (a send-back,
 * which counts as a review round), the completion and failed states, and the profile's
 * `allowed_states`. Everything else is out of scope, so an injected agent cannot skip the
 * pipeline into an unrelated state or close the issue. In WORKFLOW.md's spelling.
 */
export function moveScope(
  config: WorkflowConfig,
  from: string,
  profile: Pick<ProfileConfig, 'allowedStates'>
): string[] {
  const { forward, backward } = graphOf(config)
  const { completionState, failedState } = config.tracker
  const out = [
    ...reachable(forward, from).values(),
    ...reachable(backward, from).values(),
    ...(completionState ? [completionState] : []),
    ...(failedState ? [failedState] : []),
    ...profile.allowedStates
  ]
  return out.filter((s, i) => out.findIndex((o) => sameState(o, s)) === i)
}

/**
 * Whether a move from `from` to `to` sends the work back: `to` is a state the issue was
 * already in, and not one the automations lead on to from `from` (the next stage of a round is
 * no new round). In a cycle of automations every way is back.
 */
export function sendsBack(
  config: WorkflowConfig,
  from: string,
  to: string,
  visited: string[]
): boolean {
  if (!visited.some((s) => sameState(s, to))) return false
  const { forward, backward } = graphOf(config)
  const key = stateKey(to)
  return !reachable(forward, from).has(key) || reachable(backward, from).has(key)
}

type Edges = Map<string, string[]>

/** The automations' moves, both ways, keyed by state key. */
function graphOf(config: WorkflowConfig): { forward: Edges; backward: Edges } {
  const forward: Edges = new Map()
  const backward: Edges = new Map()
  const link = (edges: Edges, a: string, b: string) => {
    const list = edges.get(stateKey(a)) ?? []
    list.push(b)
    edges.set(stateKey(a), list)
  }
  for (const a of config.automations) {
    if (!a.enabled || !a.moveToState) continue
    for (const s of a.states) {
      link(forward, s, a.moveToState)
      link(backward, a.moveToState, s)
    }
  }
  return { forward, backward }
}

/** Every state reachable from `from` along `edges`, by key; `from` itself only through a cycle. */
function reachable(edges: Edges, from: string): Map<string, string> {
  const seen = new Map<string, string>()
  const todo = [...(edges.get(stateKey(from)) ?? [])]
  while (todo.length > 0) {
    const s = todo.pop()!
    if (seen.has(stateKey(s))) continue
    seen.set(stateKey(s), s)
    todo.push(...(edges.get(stateKey(s)) ?? []))
  }
  return seen
}
