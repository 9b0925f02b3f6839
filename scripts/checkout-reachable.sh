#!/usr/bin/env bash
# Prints one line and exits 1 when another user cannot reach the folder $1: an isolated agent
# runs as its own user, so the isolation tests need every folder above the checkout to let
# others in (the x bit for others). A home folder of mode 0700 or 0750 does not.
set -euo pipefail
dir=$(cd "${1:-.}" && pwd -P)
while [ "$dir" != / ]; do
  mode=$(stat -c %a "$dir")
  if [ $((8#$mode & 1)) = 0 ]; then
    echo "note: $dir (mode $mode) is closed to other users, so the isolated agent user cannot reach this checkout and the isolation tests will fail; clone it under a folder others may enter, or run: chmod o+x $dir"
    exit 1
  fi
  dir=$(dirname "$dir")
done
