#!/usr/bin/env bash
# Checks that `skb validate --format sarif` is what GitHub code scanning
# accepts: Microsoft's SARIF Multitool (npm @microsoft/sarif-multitool, a
# self-contained .NET build, no runtime needed) validates our output for the
# golden cases and the corpus with the SARIF and GitHub rules
# (`--rule-kind "Sarif;Gh"`), and any result of level `error` fails the check.
# The Multitool itself exits 0 whatever it finds, so its own SARIF output is
# read for errors.
#
#   bash scripts/check-sarif.sh target/debug/skb
#   bash scripts/check-sarif.sh --install   (into SARIF_MULTITOOL_DIR, alone)
#
# Needs npm and python3; ../shared beside the checkout. Installs the tool
# into a temporary directory (or SARIF_MULTITOOL_DIR/<version>, kept between
# runs).
set -euo pipefail
version=5.7.0

tool_dir=${SARIF_MULTITOOL_DIR:+$SARIF_MULTITOOL_DIR/$version}
if [ "${1-}" = --install ] && [ -z "$tool_dir" ]; then
  echo "check-sarif: --install needs SARIF_MULTITOOL_DIR, the folder to keep the tool in" >&2
  exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [ -z "$tool_dir" ]; then
  tool_dir=$scratch/tool
fi
multitool=$tool_dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
case "$(uname -s)" in
  Darwin) multitool=$tool_dir/node_modules/@microsoft/sarif-multitool-darwin/Sarif.Multitool ;;
esac
if [ ! -x "$multitool" ]; then
  mkdir -p "$tool_dir"
  npm install --silent --no-save --prefix "$tool_dir" "@microsoft/sarif-multitool@$version" >/dev/null
fi
if [ "$1" = --install ]; then
  exit 0
fi
bin=$(realpath "$1")
shared=$(realpath "$(dirname "$0")/../../shared")

failed=0
check() { # name, directory to run in, a glob of paths expanded there, the command (validate)
  local name=$1 dir=$2 glob=$3 command=${4:-validate}
  local log=$scratch/$name.sarif
  # Exit status 1 (invalid skills, findings) is expected: the golden cases
  # are mostly invalid, the labelled skills mostly malicious.
  # shellcheck disable=SC2086 # the glob is meant to expand, in $dir
  (cd "$dir" && "$bin" "$command" --format sarif $glob >"$log") || [ $? -eq 1 ]
  # The file first: an option list (`--log`) would swallow it.
  "$multitool" validate "$log" --rule-kind "Sarif;Gh" --level "Error;Warning;Note" \
    --output "$scratch/$name.out.sarif" --log ForceOverwrite >/dev/null
  python3 - "$name" "$scratch/$name.out.sarif" <<'PY' || failed=1
import json, sys
name, path = sys.argv[1], sys.argv[2]
results = [r for run in json.load(open(path))["runs"] for r in run.get("results", [])]
errors = [r for r in results if r.get("level", "warning") == "error"]
notes = {}
for r in results:
    notes[r["ruleId"]] = notes.get(r["ruleId"], 0) + 1
print(f"{name}: {len(errors)} errors; every result by rule: {dict(sorted(notes.items()))}")
for r in errors[:20]:
    print("  ", r["ruleId"], r["message"].get("text") or r["message"].get("arguments"))
sys.exit(1 if errors else 0)
PY
}

check golden "$shared/golden" 'cases/*'
check corpus "$shared/corpus" 'collections/*'
# Absolute paths (made relative to a base URI) as well as relative ones.
check corpus-absolute / "$shared/corpus/collections/*"
# `skb scan`'s own SARIF: rules with security-severity, results, suppressions.
check scan "$shared/scan" 'skills' scan
exit "$failed"
