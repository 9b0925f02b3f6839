#!/usr/bin/env bash
# move-major-tag.sh TAG PRERELEASE: after a release is published, points its major tag (v1 for
# v1.4.2) at the release's commit and pushes it to origin, as `uses: ...@v1` reads it. Refuses
# a tag that is not vX.Y.Z (a prerelease may add -rc.1 and the like) or that differs from
# package.json's version; a prerelease, or a release older than the newest of its major
# version (a backport), leaves the major tag where it is. Run in a checkout of the tag.
set -euo pipefail
tag=$1
prerelease=$2

fail() {
  echo "::error::$1" >&2
  exit 1
}

if [[ $tag =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]]; then
  stable=true
elif [[ $prerelease == true && $tag =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)-[0-9A-Za-z.-]+$ ]]; then
  stable=false
else
  fail "the release tag \"$tag\" is not a version vX.Y.Z (only a prerelease may add a suffix such as -rc.1): delete the release and its tag, and publish it again as vX.Y.Z"
fi
major=v${BASH_REMATCH[1]}

version=$(node -p 'require("./package.json").version')
if [[ $tag != "v$version" ]]; then
  fail "the release tag $tag does not match package.json's version $version: set \"version\": \"${tag#v}\" in package.json, or tag v$version"
fi

if [[ $stable != true || $prerelease == true ]]; then
  echo "$tag is a prerelease: $major stays where it is"
  exit 0
fi

newest=$(git ls-remote --tags --refs origin "refs/tags/$major.*" |
  sed 's|.*refs/tags/||' | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1)
if [[ -n $newest && $newest != "$tag" && $(printf '%s\n' "$newest" "$tag" | sort -V | tail -n 1) == "$newest" ]]; then
  echo "$tag is older than $newest, the newest $major release: $major stays where it is"
  exit 0
fi

commit=$(git rev-parse --verify "refs/tags/$tag^{commit}")
git tag --force "$major" "$commit" >/dev/null
git push --force origin "refs/tags/$major"
echo "$major now points at $commit ($tag)"
