#!/usr/bin/env bash
# skills-bundle's public API, one line per public path (scripts/public-api.py),
# checked in as skills-bundle/public-api.txt.
#
#   scripts/public-api.sh          regenerate skills-bundle/public-api.txt
#   scripts/public-api.sh --check  exit 1 with a diff when the API differs from it
#
# rustdoc's JSON output is unstable: RUSTC_BOOTSTRAP lets the stable toolchain
# emit it. skills-bundle is documented with all its features; skills-core
# (where the re-exported items are defined) with the features skills-bundle
# turns on, so that nothing another crate enables shows up.
set -euo pipefail
cd "$(dirname "$0")/.."

list=skills-bundle/public-api.txt
mode=write
case "${1-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: scripts/public-api.sh [--check]" >&2; exit 2 ;;
esac

target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
features=$(cargo metadata --format-version 1 --no-deps | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "skills-bundle":
        print(",".join("skills-bundle/" + f for f in sorted(p["features"]) if f != "default"))
')
json_doc() {
  RUSTC_BOOTSTRAP=1 RUSTDOCFLAGS="-Zunstable-options --output-format json" \
    cargo doc --quiet --no-deps -p skills-bundle -p skills-core --features "$features"
}
json_doc
new=$(mktemp)
trap 'rm -f "$new"' EXIT
python3 scripts/public-api.py "$target/doc/skills_bundle.json" "$target/doc/skills_core.json" >"$new"

if [ "$mode" = write ]; then
  cp "$new" "$list"
  echo "$list: $(grep -cv '^impl ' "$list") paths, $(grep -c '^impl ' "$list") trait impls"
  exit 0
fi
if ! diff -u "$list" "$new"; then
  echo "public-api: skills-bundle's public API changed; if that is intended, run scripts/public-api.sh and commit $list" >&2
  exit 1
fi
echo "public-api: skills-bundle's public API matches $list"
