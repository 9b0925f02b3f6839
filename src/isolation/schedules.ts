import { existsSync } from 'node:fs'
import type { AgentUser } from './agent-user.js'
import { runAsRoot, systemProgram, type Privilege } from './privilege.js'

// cron and at run a user's jobs long after the stage that queued them, as that user: in a later
// stage's tree, or reading later steps' command lines. Each takes jobs from every user its deny
// list does not name (when there is no allow list), so the agent user goes on both lists
// wherever the tool or its list is present.
const DENY_LISTS = [
  { tool: 'crontab', list: '/etc/cron.deny' },
  { tool: 'at', list: '/etc/at.deny' }
]

// Run as root, every value a positional parameter. The agent user's crontab (Debian's spool, then
// cronie's) and every job file it owns in cron's and at's spools (Debian's, then Red Hat's) go.
const BAR = `name=$1; uid=$2; shift 2
for list in "$@"; do
  grep -qxF -- "$name" "$list" 2>/dev/null || printf '%s\\n' "$name" >> "$list"
done
rm -f -- "/var/spool/cron/crontabs/$name" "/var/spool/cron/$name" 2>/dev/null
find /var/spool/cron /var/spool/at -xdev -type f -user "$uid" -delete 2>/dev/null
exit 0`

/**
 * The agent user may not use cron or at, and nothing it queued before is left to run. Called
 * when a stage starts and again when it ends, before its processes are ended, so that no job
 * of its starts once they are gone.
 */
export async function barSchedules(user: AgentUser, p: Privilege): Promise<void> {
  const lists = DENY_LISTS.filter((d) => existsSync(d.list) || systemProgram(d.tool)).map(
    (d) => d.list
  )
  const sh = systemProgram('sh') ?? '/bin/sh'
  await runAsRoot(
    p,
    [sh, '-c', BAR, 'sh', user.name, String(user.uid), ...lists],
    'bar the agent user from cron and at'
  )
}
