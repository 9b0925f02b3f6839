// Authorise the human, not the event: a label proves nothing (triage users and issue forms apply
// labels too), so whoever caused a stage must hold write, maintain or admin on the repository.
// Bots are refused unless WORKFLOW.md lists them by name; a listed bot is allowed.
import { isBot } from '../pipeline/decision/actor.js'
import type { Authorization } from '../pipeline/ports.js'
import { oneLine } from '../pipeline/untrusted-text.js'
import type { Permission } from './github-api.js'

/** The roles that may start a stage. */
const ALLOWED: readonly Permission[] = ['admin', 'maintain', 'write']

export async function authorizeActor(o: {
  tracker: { permissionOf(login: string): Promise<Permission> }
  actor: string
  /** The sender's `type` from the event (`User`, `Bot`, `Organization`). */
  actorType?: string
  /** Bot logins allowed to start stages, compared exactly but ignoring case. */
  allowedBots?: string[]
}): Promise<Authorization> {
  if (!o.actor) return { allowed: false, reason: 'the event names no actor to authorise' }
  // The login as GitHub shows it; whoever shows the reason escapes it.
  const who = `@${oneLine(o.actor)}`
  if (isBot(o.actor, o.actorType)) {
    const listed = (o.allowedBots ?? []).some((b) => b.toLowerCase() === o.actor.toLowerCase())
    // An app's bot is not a collaborator, so the list is the whole decision for bots.
    if (listed) return { allowed: true }
    return {
      allowed: false,
      reason: `${who} is a bot and not in the allowed bots; add it there to let it start stages`
    }
  }
  const permission = await o.tracker.permissionOf(o.actor)
  if (ALLOWED.includes(permission)) return { allowed: true }
  return {
    allowed: false,
    reason:
      permission === 'none'
        ? `${who} is not a collaborator on this repository; stages need write, maintain or admin`
        : `${who} has ${permission} permission on this repository; stages need write, maintain or admin`
  }
}
