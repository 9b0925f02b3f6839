import { mkdirSync, rmSync } from 'node:fs'
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import * as z from '../zod.js'
import { git } from '../git/git.js'
import { lstatOrNull } from '../git/lstat.js'
import type { AgentUser } from './agent-user.js'
import {
  inPlaceObstacle,
  inPlaceSchema,
  leftBehind,
  readyInPlace,
  returnLeftAside,
  storeOf,
  type InPlace
} from './in-place.js'
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
  /** Where a clone comes back to, in the runner's private work folder. */
  returnTo: z.string(),
  /** Handed over in place: the checkout's own files, and what to bring back where. */
  inPlace: z.optional(inPlaceSchema),
  /** Why the agent got a clone instead of the checkout's own files. */
  cloned: z.optional(z.string())
})
export type HandedOver = z.infer<typeof handedOverSchema>

export interface HandOverOptions {
  privilege: Privilege
  user: AgentUser
  /** The action's own repository, its issue branch checked out at the stage's base commit. */
  repo: string
  branch: string
  /** The commit the branch is checked out at. */
  baseSha: string
  /** The runner's private folder (0700) for this stage. */
  workDir: string
  /** Files for the agent's HOME (prompt, CLI settings), relative to it. */
  homeFiles: { path: string; content: string }[]
  /** Readies the tree before the agent user gets it (its agent configuration, say). */
  prepareTree?: (tree: string) => Promise<void>
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
// own, into the runner's private folder (a clone) or the store (the checkout's files); a tree it
// swapped, or a folder on the way to it, for a symlink is not followed anywhere: root would move
// whatever it points at. Then, while the agent still owns them, what it left goes: the area; its
// files in the shared folders, at the top or deeper (in sticky folders others made; a folder
// neither its own nor writable by all cannot hold anything it made, so the walk skips it and
// costs only what the shared part holds), though not the tree (the runner's folder may be in
// /tmp); its System V IPC objects (by owner or creator: an owner can give one away); and in its
// own home (the one of its passwd entry, which tools like ssh read whatever HOME says) every
// file of its own made or changed since the hand-over. Only then is the tree handed back. A file
// in it with more than one link is left out, its path printed: its other name may be anywhere,
// and would change owner with it. Only the agent's own files change owner, never through a
// symlink. The checkout's files (repo and store set) lose the agent's \`.git\` unread; each one
// changed since the hand-over (its ctime is newer than the marker: no one but root sets a
// ctime) gets a new mtime, so that the runner's git, which does not trust ctime, reads it again;
// each top-level entry goes back by rename, except over a name the checkout kept (its untracked
// files: the agent's goes); the objects come back from the store whatever became of the tree (kept in the
// checkout's .git beside the objects it has again, when a next job's checkout made it anew;
// removed when the checkout itself is gone), and the store's record goes with them. Printed:
// where the objects were kept (empty when they came back, "gone"), whether the tree came back,
// then the files left out.
const TAKE_BACK = `area=$1; tree=$2; back=$3; uid=$4; ours=$5; home=$6; since=$7; repo=$8; store=$9; gitmode=\${10}
work=\${tree%/*}
if [ -n "$repo" ] && [ ! -f "$since" ]; then since=$store/left; fi
if [ -d "$area" ] && [ ! -L "$area" ] && [ -d "$work" ] && [ ! -L "$work" ] &&
  [ -d "$tree" ] && [ ! -L "$tree" ]; then
  mv -T -- "$tree" "$back"
fi
rm -rf -- "$area"
find /tmp /var/tmp /dev/shm /dev/mqueue /run/lock -xdev -mindepth 1 -path "$back" -prune -o \\
  -path "\${repo:-$back}" -prune -o -type d ! -user "$uid" ! -perm -0002 -prune -o \\
  -user "$uid" -prune -exec rm -rf -- {} + 2>/dev/null
for kind in shm:-m sem:-s msg:-q; do
  awk -v uid="$uid" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["uid"] == uid || $col["cuid"] == uid { print $2 }' "/proc/sysvipc/\${kind%:*}" |
    while read -r id; do ipcrm "\${kind#*:}" "$id"; done
done 2>/dev/null
if [ -f "$since" ] && [ -d "$home" ] && [ ! -L "$home" ] && [ "$(stat -c %u -- "$home")" = "$uid" ]; then
  find "$home" -xdev -mindepth 1 -user "$uid" -cnewer "$since" -delete 2>/dev/null
fi
aside=
if [ -n "$repo" ] && [ -d "$store/objects" ] && [ ! -L "$store/objects" ]; then
  if [ ! -e "$repo/.git" ] && [ ! -L "$repo/.git" ]; then
    rm -rf -- "$store/objects"
    aside=gone
  elif [ ! -d "$repo/.git" ] || [ -L "$repo/.git" ]; then
    :
  elif [ ! -e "$repo/.git/objects" ] && [ ! -L "$repo/.git/objects" ]; then
    mv -T -- "$store/objects" "$repo/.git/objects"
  else
    aside=$repo/.git/objects-left-$(date +%s%N)
    mv -T -- "$store/objects" "$aside"
  fi
fi
printf '%s\\0' "$aside"
if [ -d "$back" ] && [ ! -L "$back" ]; then
  printf 'back\\0'
  [ -z "$repo" ] || rm -rf -- "$back/.git"
  if [ -z "$repo" ]; then
    find "$back" ! -type d -links +1 -printf '%P\\0' -delete
  else
    [ -f "$since" ] || since=/
    find "$back" -mindepth 1 \\( ! -type d -links +1 -printf '%P\\0' -delete \\) -o \\
      \\( -cnewer "$since" -exec touch -h -c -- {} + \\)
  fi
  chown -R -h --from="$uid" -- "$ours" "$back"
  if [ -n "$repo" ]; then
    find "$back" -mindepth 1 -maxdepth 1 -exec mv -n -t "$repo" -- {} +
    rm -rf -- "$back"
  fi
else
  printf 'lost\\0'
fi
if [ -n "$repo" ]; then
  chmod "$gitmode" -- "$repo/.git"
  [ -e "$store/objects" ] || { rm -f -- "$store/left"; rmdir -- "$store"; }
fi
exit 0`

// The checkout's own files, handed over by rename and chown only: its objects go to the store
// (root's, 0711: the agent reads them by the name its alternates give, lists and writes
// nothing), its top-level entries into the agent's tree beside the agent's own `.git`; the
// rest of the checkout's `.git` (config and its credential, hooks, index) stays where it was,
// in a folder the agent cannot reach, and is closed to others besides until the take-back. The marker's time, after the chown, is older than any
// change the agent makes. A failure before the chown puts everything back. The store's record
// says where all of it came from, for a next stage should this job be killed before the take-back.
const HAND_OVER_IN_PLACE = `set -e
area=$1; staged=$2; uid=$3; gid=$4; repo=$5; store=$6; tree=$7; marker=$8; ours=$9; gitmode=\${10}
shift 10
undo() {
  for name; do
    if [ -e "$tree/$name" ] || [ -L "$tree/$name" ]; then mv -T -- "$tree/$name" "$repo/$name"; fi
  done
  [ -e "$repo/.git/objects" ] || mv -T -- "$store/objects" "$repo/.git/objects"
  chmod "$gitmode" -- "$repo/.git"
  rm -f -- "$store/left"
  rm -rf -- "$area"
}
trap 'st=$?; [ $st = 0 ] || undo "$@"; exit $st' EXIT
rm -rf -- "$area"
mv -T -- "$staged" "$area"
[ -d "$store" ] && [ ! -L "$store" ] || mkdir -- "$store"
chown 0:0 -- "$store"
chmod 0711 -- "$store"
rm -rf -- "$store/tree"
printf '%s\\0' "$repo" "$gitmode" "$marker" >"$store/left"
chmod 0644 -- "$store/left"
chmod go-rwx -- "$repo/.git"
mv -T -- "$repo/.git/objects" "$store/objects"
[ $# = 0 ] || (cd -- "$repo" && mv -t "$tree" -- "$@")
trap - EXIT
chown -R -h -- "$uid:$gid" "$area"
chmod 0700 -- "$area"
touch -- "$marker"
# File times come from a clock that ticks every few milliseconds: a change the agent made
# within the marker's tick would look no newer than it. The hand-over ends once the clock
# has moved on.
until [ -n "$(find "$marker.tick" -newer "$marker" 2>/dev/null)" ]; do touch -- "$marker.tick"; done
rm -f -- "$marker.tick"`

/**
 * The agent's own clone of the issue branch (no hard links, no shared `.git`), made by the
 * runner's user in its private work folder, where handOver takes it from. git starts before
 * this returns, so the clone goes on while the caller works.
 */
async function cloneForAgent(o: Pick<HandOverOptions, 'repo' | 'branch' | 'workDir'>) {
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
 * Gives the agent a tree and a fresh HOME, both owned by the agent user under its home, where
 * the runner's user cannot look and the agent cannot reach back: the action never runs git in
 * the agent's `.git`. The tree is the checkout's own files, moved and chowned (no data copied),
 * with a small repository of the agent's own that borrows the checkout's objects read-only;
 * where the machine cannot do that (another file system, objects closed to others), it is a
 * clone, as `cloned` says.
 */
export async function handOver(o: HandOverOptions): Promise<HandedOver> {
  const staged = stagedIn(o.workDir)
  const name = treeName(o.repo)
  const area = path.join(o.user.home, 'stage')
  const obstacle = await inPlaceObstacle(o.repo, o.user)
  let inPlace: { names: string[]; state: InPlace } | undefined
  if (obstacle) {
    await cloneForAgent(o)
    await o.prepareTree?.(path.join(staged, 'work', name))
  } else {
    await rm(staged, { recursive: true, force: true })
    await mkdir(staged, { recursive: true, mode: 0o700 })
    const ready = await readyInPlace({
      repo: o.repo,
      branch: o.branch,
      baseSha: o.baseSha,
      user: o.user,
      workDir: o.workDir,
      gitDir: path.join(staged, 'work', name, '.git')
    })
    await o.prepareTree?.(o.repo)
    // After the agent configuration is put in place: a folder it made goes to the agent too.
    const kept = new Set(ready.state.untracked)
    const names = (await readdir(o.repo)).filter((n) => n !== '.git' && !kept.has(n))
    inPlace = { names, state: ready.state }
  }
  const home = path.join(staged, 'home')
  for (const f of o.homeFiles) {
    const file = path.join(home, f.path)
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, f.content, { mode: 0o600 })
  }
  await mkdir(path.join(home, 'tmp'), { recursive: true })
  // Older than anything the agent makes: what is newer in its home at the end is the agent's.
  const marker = markerOf(o.workDir)
  await writeFile(marker, '', { mode: 0o600 })
  const ids = [String(o.user.uid), String(o.user.gid)]
  const tree = path.join(area, 'work', name)
  if (inPlace) {
    await runAsRoot(
      o.privilege,
      [
        ...[sh(), '-c', HAND_OVER_IN_PLACE, 'sh', area, staged, ...ids, o.repo],
        ...[storeOf(o.user), tree, marker, ours(), inPlace.state.gitMode.toString(8)],
        ...inPlace.names
      ],
      "hand the agent the checkout's tree"
    )
  } else {
    await runAsRoot(
      o.privilege,
      [sh(), '-c', HAND_OVER, 'sh', area, staged, ...ids],
      'hand the agent its tree'
    )
  }
  return {
    user: o.user,
    area,
    tree,
    home: path.join(area, 'home'),
    returnTo: path.join(o.workDir, 'agent-tree'),
    ...(inPlace ? { inPlace: inPlace.state } : { cloned: obstacle ?? undefined })
  }
}

const ours = () => `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`

/** What takeBack brings back. */
export interface TakenBack {
  /** The agent's tree, the runner's own now; null when the agent left none. */
  tree: string | null
  /** One line naming the files left out of it, when there were any. */
  warning?: string
  /**
   * Where the checkout's objects went when the checkout had objects again by then (an earlier
   * stage's, put back after actions/checkout made the checkout anew): kept, never removed.
   */
  objectsAside?: string
  /** The checkout was gone by then (removed between jobs): its objects went with it. */
  checkoutGone?: true
}

/**
 * Once every process of the agent user is gone: what it left outside its tree is removed, and
 * the tree comes back to the runner's user (in the runner's private folder), so nothing of it
 * outlives the stage.
 */
export async function takeBack(p: Privilege, h: HandedOver): Promise<TakenBack> {
  const { inPlace } = h
  // A clone already back is not taken twice (the post step after the main step's take-back).
  const again = !inPlace && (await lstatOrNull(h.returnTo)) !== null
  const printed = again
    ? ''
    : await runAsRoot(
        p,
        [
          ...[sh(), '-c', TAKE_BACK, 'sh', h.area, h.tree],
          inPlace ? path.join(inPlace.store, 'tree') : h.returnTo,
          ...[String(h.user.uid), ours(), h.user.home, markerOf(path.dirname(h.returnTo))],
          ...(inPlace ? [inPlace.repo, inPlace.store, inPlace.gitMode.toString(8)] : ['', '', ''])
        ],
        'take the agent tree back'
      )
  const [objects = '', state, ...listed] = printed.split('\0')
  const refused = listed.filter(Boolean)
  const st = inPlace ? null : await lstatOrNull(h.returnTo)
  const tree = inPlace
    ? state === 'back'
      ? inPlace.repo
      : null
    : st?.isDirectory() && st.uid === process.getuid?.()
      ? h.returnTo
      : null
  return {
    tree,
    ...(refused.length > 0 ? { warning: refusedLine(refused) } : {}),
    ...(objects === 'gone' ? { checkoutGone: true } : objects ? { objectsAside: objects } : {})
  }
}

/**
 * What a stage whose job was killed with no post step left in the agent's reach: the checkout's
 * objects in the store, its files in the agent's area. Once every process of the agent user is
 * gone, the take-back of that stage runs again from the store's record, so the checkout is
 * whole before anything reads it. One line saying what came back, or null when nothing was left.
 */
export async function putBackLeft(p: Privilege, user: AgentUser): Promise<string | null> {
  const left = await leftBehind(user)
  if (!left) return null
  const area = path.join(user.home, 'stage')
  const workDir = path.dirname(left.marker)
  const back = await takeBack(p, {
    user,
    area,
    tree: path.join(area, 'work', treeName(left.repo)),
    home: path.join(area, 'home'),
    returnTo: path.join(workDir, 'agent-tree'),
    inPlace: {
      repo: left.repo,
      store: storeOf(user),
      gitMode: left.gitMode,
      untracked: [],
      aside: []
    }
  })
  if (back.checkoutGone) {
    return `an earlier stage's job ended before it took the agent's tree back, and its checkout ${left.repo} is gone since: what it left with the agent user was removed`
  }
  const kept = await returnLeftAside(left.repo, workDir)
  return [
    `an earlier stage's job ended before it took the agent's tree back: ${back.tree ? `the checkout's files and objects are back in ${left.repo}` : `the checkout's objects are back in ${left.repo}, its files were not left in the agent's area`}`,
    ...(back.objectsAside
      ? [
          `its objects are kept in ${back.objectsAside}, as the checkout has objects of its own again`
        ]
      : []),
    ...kept.map((k) => `an untracked file of the checkout stays in ${k}: a symlink is in its way`),
    ...(back.warning ? [back.warning] : [])
  ].join('; ')
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
