import { actionInput } from './action-input.js'
import { readEvent, triggerFromEvent } from './event.js'

// Runner-set names (an action's owner/name@ref, an event's name) and numbers; anything else is
// left out of the line, which is printed before any secret is masked.
const NAME = /^[\w.@/-]{1,200}$/
const NUMBER = /^\d{1,20}$/

/**
 * The main step's first log line, said before the rest of the program loads: which action at
 * which ref starts, for which event, issue and run, from what the runner provides.
 */
export function startLine(env: NodeJS.ProcessEnv): string {
  const ref = [env.GITHUB_ACTION_REPOSITORY, env.GITHUB_ACTION_REF].filter(Boolean).join('@')
  const event = env.GITHUB_EVENT_NAME ?? ''
  const issue = issueOf(env, event)
  const run = env.GITHUB_RUN_ID ?? ''
  const attempt = env.GITHUB_RUN_ATTEMPT ?? ''
  const parts = [
    NAME.test(event) ? `${event} event` : 'an event',
    ...(issue ? [`issue #${issue}`] : []),
    ...(NUMBER.test(run) ? [`run ${run}${NUMBER.test(attempt) ? ` attempt ${attempt}` : ''}`] : [])
  ]
  return `itervox handoff${NAME.test(ref) ? ` ${ref}` : ''} starting: ${parts.join(', ')}`
}

/**
 * The issue the event names, if it names one; the stage reports any problem with it. The stage's
 * code is another bundle (dist/steps), so it reads the payload again: a file of a few KB.
 */
function issueOf(env: NodeJS.ProcessEnv, event: string): string | undefined {
  const path = env.GITHUB_EVENT_PATH
  if (!path) return undefined
  const input = (name: string) => actionInput(env, name) || undefined
  try {
    const trigger = triggerFromEvent(event, readEvent(path), {
      issue: input('issue'),
      state: input('state')
    })
    const issue = trigger.kind === 'run' ? trigger.issue.replace(/^#/, '') : ''
    return /^[1-9]\d{0,9}$/.test(issue) ? issue : undefined
  } catch {
    // An unreadable payload is the stage's to report, after it has checked the inputs.
    return undefined
  }
}
