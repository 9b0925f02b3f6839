#!/usr/bin/env bash
# The project's whole check: types, lint, format and dist/ matching a fresh build, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# What npm puts on PATH for scripts, so that tools start without npx's second or so each.
PATH=$PWD/node_modules/.bin:$PATH

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT=%1R

# timed NAME COMMAND...: runs COMMAND and leaves its exit status in $tmp/NAME.status and its
# wall-clock seconds in $tmp/NAME.time.
timed() {
  local name=$1 status
  shift
  { time { "$@" 2>&3 3>&- && status=0 || status=$?; }; } 3>&2 2>"$tmp/$name.time"
  echo "$status" >"$tmp/$name.status"
}

dist_check() {
  node scripts/build.mjs "$tmp/dist" --no-check || return 1
  if ! diff -r "$tmp/dist" dist >/dev/null 2>&1; then
    echo 'dist/ differs from a fresh build: run `npm run build` and commit dist/.'
    diff -rq "$tmp/dist" dist || true
    return 1
  fi
}

# The agent CLI contract suite spends most of its time waiting on the real CLIs, so it runs
# beside everything else, from the start; its log is printed at the end.
timed contract npm run --silent test:contract >"$tmp/contract.log" 2>&1 &
contract=$!

# The checks are independent, so they share both cores, the longest (dist) first. Each writes
# to its own log, printed whole under its name once all have ended.
pids=()
timed dist dist_check >"$tmp/dist.log" 2>&1 &
pids+=($!)
timed typecheck tsc --noEmit -p tsconfig.test.json >"$tmp/typecheck.log" 2>&1 &
pids+=($!)
timed lint eslint . >"$tmp/lint.log" 2>&1 &
pids+=($!)
timed unused knip --no-progress >"$tmp/unused.log" 2>&1 &
pids+=($!)
timed format prettier --check . --log-level warn >"$tmp/format.log" 2>&1 &
pids+=($!)
timed checks wait "${pids[@]}"

checks=(typecheck lint unused format dist)
titles=(typecheck lint 'no unused code' format 'dist/ matches a fresh build')
failed=()
for i in "${!checks[@]}"; do
  name=${checks[$i]}
  echo "== ${titles[$i]}"
  cat "$tmp/$name.log"
  [ "$(cat "$tmp/$name.status")" = 0 ] || failed+=("${titles[$i]}")
done

if [ ${#failed[@]} = 0 ]; then
  echo '== jest'
  timed jest env NODE_OPTIONS=--experimental-vm-modules NODE_NO_WARNINGS=1 \
    jest --ci --json --outputFile="$tmp/jest.json" "$@"
  node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))
console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed`)
' "$tmp/jest.json"
  [ "$(cat "$tmp/jest.status")" = 0 ] || failed+=(jest)
fi

wait "$contract"
echo '== agent CLI contract suite'
cat "$tmp/contract.log"
[ "$(cat "$tmp/contract.status")" = 0 ] || failed+=('agent CLI contract suite')

phases=(typecheck lint unused format dist checks jest contract)
labels=(typecheck lint 'unused code' format 'dist check' 'these 5 side by side' jest
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
