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

# timed NAME COMMAND...: runs COMMAND and leaves its exit status in $tmp/NAME.status and its
# wall-clock seconds in $tmp/NAME.time.
timed() {
  local name=$1 status
  shift
  { time { "$@" 2>&3 3>&- && status=0 || status=$?; }; } 3>&2 2>"$tmp/$name.time"
  echo "$status" >"$tmp/$name.status"
}

# The agent CLI contract suite spends most of its time waiting on the real CLIs, so it runs
# beside everything else, from the start; its log is printed at the end.
timed contract npm run --silent test:contract >"$tmp/contract.log" 2>&1 &
contract=$!

# Everything is independent, so it all shares both cores at once: jest is mostly CPU-bound
# and so are the checks, and either alone leaves a core idle now and then (jest while a suite
# waits on a process, the checks once only the dist build is left). jest's tests have
# timeouts and the checks have none, so the checks run niced: they take what jest leaves,
# and a multi-stage e2e test is not starved past its timeout. The checks each write to their
# own log, printed whole under its name after jest's output.
{
  renice -n 10 -p "$BASHPID" >/dev/null
  timed dist bash scripts/dist-check.sh >"$tmp/dist.log" 2>&1 &
  timed types node scripts/types-and-lint.mjs >"$tmp/types.log" 2>&1 &
  timed unused knip --no-progress >"$tmp/unused.log" 2>&1 &
  timed format prettier --check . --log-level warn >"$tmp/format.log" 2>&1 &
  timed checks wait
} &
checks_pid=$!

echo '== jest'
timed jest env NODE_OPTIONS=--experimental-vm-modules NODE_NO_WARNINGS=1 \
  jest --ci --json --outputFile="$tmp/jest.json" "$@"
wait "$checks_pid"

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

wait "$contract"
echo '== agent CLI contract suite'
cat "$tmp/contract.log"
[ "$(cat "$tmp/contract.status")" = 0 ] || failed+=('agent CLI contract suite')

phases=(types unused format dist checks jest contract)
labels=('typecheck and lint' 'unused code' format 'dist check' 'these 4 side by side' 'jest, beside them'
  'contract (beside all)')
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
