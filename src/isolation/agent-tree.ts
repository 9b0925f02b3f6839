import { mkdirSync, rmSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import * as z from '../zod.js'
import { git } from '../git/git.js'
import { lstatOrNull } from '../git/lstat.js'
import type { AgentUser } from './agent-user.js'
import { runAsRoot, systemProgram, type Privilege } from './privilege.js'

/** Where an isolated stage's agent works, kept in the stage context for the post step. */
export const handedOverSchema = z.object({
  user: z.object({ name: z.string(), uid: z.int(), gid: z.int(), home: z.string() }),
  /** `<home>/stage`: the stage's HOME and tree, removed and made again every stage. */
  area: z.string(),
  /** The agent's clone, inside `area`. */
  tree: z.string(),
  /** The agent's HOME, inside `area`. */
  home: z.string(),
  /** Where the tree comes back to, in the runner's private work folder. */
  returnTo: z.string()
})
export type HandedOver = z.infer<typeof handedOverSchema>

export interface HandOverOptions {
  privilege: Privilege
  user: AgentUser
  /** The action's own repository, its issue branch checked out at the stage's base commit. */
  repo: string
  branch: string
  /** The runner's private folder (0700) for this stage. */
  workDir: string
  /** Files for the agent's HOME (prompt, CLI settings), relative to it. */
  homeFiles: { path: string; content: string }[]
  /** Readies the clone before the agent user gets it (its agent configuration, say). */
  prepareTree?: (tree: string) => Promise<void>
  /** The clone, when cloneForAgent was started before (while the prompt was built, say). */
  cloned?: Promise<void>
}

const sh = () => systemProgram('sh') ?? '/bin/sh'

// Run as root, with every value a positional parameter: nothing is ever spliced into it.
// The stage area goes whatever it held (no process of the agent user is alive by now), and
// the new one is the agent's alone.
const HAND_OVER = `set -e
area=$1; staged=$2; uid=$3; gid=$4
rm -rf -- "$area"
mv -T -- "$staged" "$area"
chown -R -h -- "$uid:$gid" "$area"
chmod 0700 -- "$area"`

// The agent is gone, and nothing of it is queued. Its tree comes out of its area first, still its
// own, into the runner's private folder; a tree it swapped, or a folder on the way to it, for a
// symlink is not followed anywhere: root would move whatever it points at. Then, while the agent
// still owns them, what it left goes: the area; its files in the shared folders, at the top or
// deeper (in sticky folders others made; a folder neither its own nor writable by all cannot
// hold anything it made, so the walk skips it and costs only what the shared part holds), though
// not the tree (the runner's folder may be in /tmp); its System V IPC objects (by owner or
// creator: an owner can give one away); and in its own home (the one of its passwd entry, which
// tools like ssh read whatever HOME says) every file of its own made or changed since the
// hand-over. Only then is the tree handed back. A file in it with more than one link is left out,
// its path printed: its other name may be anywhere, and would change owner with it. Only the agent's own files change owner, never through a symlink.
const TAKE_BACK = `area=$1; tree=$2; back=$3; uid=$4; ours=$5; home=$6; since=$7
work=\${tree%/*}
if [ -d "$area" ] && [ ! -L "$area" ] && [ -d "$work" ] && [ ! -L "$work" ] &&
  [ -d "$tree" ] && [ ! -L "$tree" ]; then
  mv -T -- "$tree" "$back"
fi
rm -rf -- "$area"
find /tmp /var/tmp /dev/shm /dev/mqueue /run/lock -xdev -mindepth 1 -path "$back" -prune -o \\
  -type d ! -user "$uid" ! -perm -0002 -prune -o \\
  -user "$uid" -prune -exec rm -rf -- {} + 2>/dev/null
for kind in shm:-m sem:-s msg:-q; do
  awk -v uid="$uid" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["uid"] == uid || $col["cuid"] == uid { print $2 }' "/proc/sysvipc/\${kind%:*}" |
    while read -r id; do ipcrm "\${kind#*:}" "$id"; done
done 2>/dev/null
if [ -f "$since" ] && [ -d "$home" ] && [ ! -L "$home" ] && [ "$(stat -c %u -- "$home")" = "$uid" ]; then
  find "$home" -xdev -mindepth 1 -user "$uid" -cnewer "$since" -delete 2>/dev/null
fi
if [ -d "$back" ] && [ ! -L "$back" ]; then
  find "$back" ! -type d -links +1 -printf '%P\\0' -delete
  chown -R -h --from="$uid" -- "$ours" "$back"
fi
exit 0`

/**
 * The agent's own clone of the issue branch (no hard links, no shared `.git`), made by the
 * runner's user in its private work folder, where handOver takes it from. git starts before
 * this returns, so the clone goes on while the caller works.
 */
export async function cloneForAgent(o: Pick<HandOverOptions, 'repo' | 'branch' | 'workDir'>) {
  const staged = stagedIn(o.workDir)
  rmSync(staged, { recursive: true, force: true })
  mkdirSync(staged, { recursive: true, mode: 0o700 })
  await git(o.workDir, [
    '-c',
    `safe.directory=${o.repo}`,
    'clone',
    '--quiet',
    // Without the template's sample hooks, description and exclude: fewer files to create,
    // hand over and take back, none of which the agent's git needs.
    '--template=',
    '--local',
    '--no-hardlinks',
    '--branch',
    o.branch,
    '--',
    o.repo,
    path.join(staged, 'work', treeName(o.repo))
  ])
}

/** Where the agent's clone and HOME are readied, in the runner's private work folder. */
const stagedIn = (workDir: string) => path.join(workDir, 'hand-over')
const treeName = (repo: string) => path.basename(repo) || 'repo'

/**
 * Gives the agent its clone (cloneForAgent) and a fresh HOME, both owned by the agent user
 * under its home, where the runner's user cannot look and the agent cannot reach back: the
 * action never runs git in the agent's `.git`.
 */
export async function handOver(o: HandOverOptions): Promise<HandedOver> {
  await (o.cloned ?? cloneForAgent(o))
  const staged = stagedIn(o.workDir)
  const name = treeName(o.repo)
  const area = path.join(o.user.home, 'stage')
  await o.prepareTree?.(path.join(staged, 'work', name))
  const home = path.join(staged, 'home')
  for (const f of o.homeFiles) {
    const file = path.join(home, f.path)
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, f.content, { mode: 0o600 })
  }
  await mkdir(path.join(home, 'tmp'), { recursive: true })
  // Older than anything the agent makes: what is newer in its home at the end is the agent's.
  await writeFile(markerOf(o.workDir), '', { mode: 0o600 })
  await runAsRoot(
    o.privilege,
    [sh(), '-c', HAND_OVER, 'sh', area, staged, String(o.user.uid), String(o.user.gid)],
    'hand the agent its tree'
  )
  return {
    user: o.user,
    area,
    tree: path.join(area, 'work', name),
    home: path.join(area, 'home'),
    returnTo: path.join(o.workDir, 'agent-tree')
  }
}

/** What takeBack brings back. */
export interface TakenBack {
  /** The agent's tree, the runner's own now; null when the agent left none. */
  tree: string | null
  /** One line naming the files left out of it, when there were any. */
  warning?: string
}

/**
 * Once every process of the agent user is gone: what it left outside its tree is removed, and
 * the tree comes back to the runner's user (in the runner's private folder), so nothing of it
 * outlives the stage.
 */
export async function takeBack(p: Privilege, h: HandedOver): Promise<TakenBack> {
  let refused: string[] = []
  if (!(await lstatOrNull(h.returnTo))) {
    const ours = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`
    const printed = await runAsRoot(
      p,
      [
        ...[sh(), '-c', TAKE_BACK, 'sh', h.area, h.tree, h.returnTo, String(h.user.uid), ours],
        ...[h.user.home, markerOf(path.dirname(h.returnTo))]
      ],
      'take the agent tree back'
    )
    refused = printed.split('\0').filter(Boolean)
  }
  const st = await lstatOrNull(h.returnTo)
  const tree = st?.isDirectory() && st.uid === process.getuid?.() ? h.returnTo : null
  return refused.length > 0 ? { tree, warning: refusedLine(refused) } : { tree }
}

function refusedLine(refused: string[]): string {
  const named = refused.slice(0, 5).map((f) => JSON.stringify(f))
  const more = refused.length > 5 ? ` and ${refused.length - 5} more` : ''
  return `left out of the agent's tree, as hard links to files outside it: ${named.join(', ')}${more}`
}

/** The file whose time is the hand-over's, in the runner's private work folder. */
function markerOf(workDir: string): string {
  return path.join(workDir, 'handed-over')
}
