#!/usr/bin/env bash
# Whether dist/ is exactly what a fresh build of src/ makes. `npm test` (scripts/test.sh) runs
# it, and so does the release workflow before it moves a major tag.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
node scripts/build.mjs "$out/dist" --no-check
if ! diff -r "$out/dist" dist >/dev/null 2>&1; then
  echo 'dist/ differs from a fresh build: run `npm run build` and commit dist/.'
  diff -rq "$out/dist" dist || true
  exit 1
fi
