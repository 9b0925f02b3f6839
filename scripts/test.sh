#!/usr/bin/env bash
# The project's whole check: types, lint, format, dist/ matching a fresh build, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."

echo '== typecheck' && npx tsc --noEmit -p tsconfig.test.json
echo '== lint' && npx eslint .
echo '== format' && npx prettier --check . >/dev/null

echo '== dist/ matches a fresh build'
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
node scripts/build.mjs "$fresh/dist"
if ! diff -r "$fresh/dist" dist >/dev/null 2>&1; then
  echo 'dist/ differs from a fresh build: run `npm run build` and commit dist/.' >&2
  diff -rq "$fresh/dist" dist >&2 || true
  exit 1
fi

echo '== jest'
status=0
NODE_OPTIONS=--experimental-vm-modules NODE_NO_WARNINGS=1 npx jest --ci --json --outputFile="$fresh/jest.json" "$@" || status=$?
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))
console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed`)
' "$fresh/jest.json"
exit $status
