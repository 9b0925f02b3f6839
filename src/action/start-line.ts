import type { Trigger } from './event.js'

// Runner-set names (an action's owner/name@ref, an event's name) and numbers; anything else is
// left out of the line, which is printed before any secret is masked.
const NAME = /^[\w.@/-]{1,200}$/
const NUMBER = /^\d{1,20}$/

/**
 * The main step's first log line: which action at which ref starts, for which event, issue
 * and run, from what the runner provides.
 */
export function startLine(env: NodeJS.ProcessEnv, trigger: Trigger | undefined): string {
  const ref = [env.GITHUB_ACTION_REPOSITORY, env.GITHUB_ACTION_REF].filter(Boolean).join('@')
  const event = env.GITHUB_EVENT_NAME ?? ''
  const named = trigger?.kind === 'run' ? trigger.issue.replace(/^#/, '') : ''
  const issue = /^[1-9]\d{0,9}$/.test(named) ? named : undefined
  const run = env.GITHUB_RUN_ID ?? ''
  const attempt = env.GITHUB_RUN_ATTEMPT ?? ''
  const parts = [
    NAME.test(event) ? `${event} event` : 'an event',
    ...(issue ? [`issue #${issue}`] : []),
    ...(NUMBER.test(run) ? [`run ${run}${NUMBER.test(attempt) ? ` attempt ${attempt}` : ''}`] : [])
  ]
  return `itervox handoff${NAME.test(ref) ? ` ${ref}` : ''} starting: ${parts.join(', ')}`
}
