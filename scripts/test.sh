#!/usr/bin/env bash
# The project's whole check: types, lint, format, unused code, dist/ matching a fresh build, and
# every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# What npm puts on PATH for scripts, so that tools start without npx's second or so each.
PATH=$PWD/node_modules/.bin:$PATH

tmp=$(mktemp -d)
# Everything the tests make in the temporary folder goes into one, removed at the end, so runs
# leave nothing behind. It is sticky and open to all, as /tmp is: an isolated agent runs as
# another user and reaches the folders a test shares with it.
#
# The tests make thousands of small git repositories and files: in memory (/dev/shm, where it
# is a tmpfs that runs programs) the kernel spends about a quarter less time on them than on a disk.
base=${TMPDIR:-/tmp}
if [ -z "${TMPDIR:-}" ] && probe=$(mktemp -d /dev/shm/itervox-probe.XXXXXX 2>/dev/null); then
  printf '#!/bin/sh\n' >"$probe/run" && chmod +x "$probe/run" && "$probe/run" && base=/dev/shm
  rm -rf "$probe"
fi
TMPDIR=$(mktemp -d "$base/itervox-test.XXXXXX")
chmod 1777 "$TMPDIR"
export TMPDIR
trap 'rm -rf "$tmp" "$TMPDIR"' EXIT
TIMEFORMAT=%1R
bash scripts/checkout-reachable.sh . || true

# timed NAME COMMAND...: runs COMMAND and leaves its exit status in $tmp/NAME.status and its
# wall-clock seconds in $tmp/NAME.time.
timed() {
  local name=$1 status
  shift
  { time { "$@" 2>&3 3>&- && status=0 || status=$?; }; } 3>&2 2>"$tmp/$name.time"
  echo "$status" >"$tmp/$name.status"
}

echo '== jest'
timed jest env NODE_OPTIONS=--experimental-vm-modules NODE_NO_WARNINGS=1 \
  jest --ci --json --outputFile="$tmp/jest.json" "$@"

# Then the checks, side by side; each writes to its own log, printed whole under its name.
# Beside jest (both CPU-bound) each slowed the other so much that the two together took half
# as much CPU again as one after the other: 379 CPU-s and 201 s in all, against 247 and 137.
checks=()
timed dist bash scripts/dist-check.sh >"$tmp/dist.log" 2>&1 &
checks+=($!)
timed types node scripts/types-and-lint.mjs >"$tmp/types.log" 2>&1 &
checks+=($!)
timed unused knip --no-progress >"$tmp/unused.log" 2>&1 &
checks+=($!)
# What git tracks, as CI sees it: an untracked scratch file of one's own is not checked.
timed format bash -c 'git ls-files -z | xargs -0 prettier --check --ignore-unknown --log-level warn' \
  >"$tmp/format.log" 2>&1 &
checks+=($!)
timed checks wait "${checks[@]}"

checks=(types unused format dist)
titles=('typecheck and lint' 'no unused code' format 'dist/ matches a fresh build')
failed=()
for i in "${!checks[@]}"; do
  name=${checks[$i]}
  echo "== ${titles[$i]}"
  cat "$tmp/$name.log"
  [ "$(cat "$tmp/$name.status")" = 0 ] || failed+=("${titles[$i]}")
done
[ ! -f "$tmp/jest.json" ] || node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))
console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed`)
' "$tmp/jest.json"
[ "$(cat "$tmp/jest.status")" = 0 ] || failed+=(jest)

# The agent CLI contract suite last, on a machine the suite no longer fills: its stall
# scenarios time a real CLI's silence, and beside jest a busy machine made codex's last 60 s.
echo '== agent CLI contract suite'
timed contract npm run --silent test:contract >"$tmp/contract.log" 2>&1
cat "$tmp/contract.log"
[ "$(cat "$tmp/contract.status")" = 0 ] || failed+=('agent CLI contract suite')

phases=(jest types unused format dist checks contract)
labels=(jest 'typecheck and lint' 'unused code' format 'dist check' 'these 4 side by side'
  'contract (after all)')
echo
printf '%-22s %s\n' phase seconds
for i in "${!phases[@]}"; do
  file=$tmp/${phases[$i]}.time
  [ ! -f "$file" ] || printf '%-22s %7s\n' "${labels[$i]}" "$(cat "$file")"
done
printf '%-22s %5s\n' total "$SECONDS"
if [ ${#failed[@]} != 0 ]; then
  printf 'failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
