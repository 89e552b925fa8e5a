#!/usr/bin/env bash
# MCP server figures, each next to a peer measured in the same run:
#
#   1. round-trip latency of `tools/call read_skill_resource` (and of
#      `resources/read`) for an 8 KB file over loopback stdio:
#      `skb serve skills` vs rmcp 3.11's directory-backed `SkillCatalog`
#      (feature `skills-fs`) serving the same directory, with an equivalent
#      `read_skill_resource` tool (skills-mcp/benches/mcp.rs `peer`);
#   2. start-up, spawn to the `initialize` response, serving the shared
#      corpus (454 skills): `skb serve corpus.skillpack --pubkey` (signature
#      checked, pack opened) vs the same peer loading the corpus directory.
#
#   scripts/bench-mcp.sh [N_ROUNDTRIPS] [N_STARTUPS]    (defaults 2000, 30)
#
# The driver (skills-mcp/benches/mcp.rs) writes newline-delimited JSON-RPC
# to the child's stdin and times each request line to its response line.
# The file is git-workflow/scripts/check-commit-msg.py (8,050 bytes).
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-2000}
STARTS=${2:-30}
CORPUS=../shared/corpus/collections
FILE_SKILL=git-workflow
FILE_PATH=scripts/check-commit-msg.py

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cargo build --release --quiet -p skb
cargo bench --quiet -p skills-bundle-mcp --bench mcp --no-run 2>/dev/null
DRIVER=$(cargo bench -p skills-bundle-mcp --bench mcp --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "mcp" and m.get("executable"):
        print(m["executable"])')
SKILLS=target/release/skb
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The corpus as a signed pack (profile claude-code: all 454 skills valid).
"$SKILLS" keygen -W -p "$WORK/k.pub" -s "$WORK/k.key" >/dev/null
"$SKILLS" pack "$CORPUS"/* --profile claude-code -o "$WORK/corpus.skillpack" --sign "$WORK/k.key" 2>/dev/null >/dev/null
# The peer walks one directory tree, as rmcp documents; the corpus's
# collections are one tree. Its catalog lists every SKILL.md below it.
echo "file: $FILE_SKILL/$FILE_PATH, $(stat -c %s skills/$FILE_SKILL/$FILE_PATH) bytes;" \
    "corpus pack: $(stat -c %s "$WORK/corpus.skillpack") bytes"

ours=("$SKILLS" serve skills --cache "$WORK/cache")
peer=("$DRIVER" peer skills)

run() { echo "$1 $("$DRIVER" "${@:2}")"; }

echo "== round trips (N=$N after 200 warm-up, one request in flight)"
for round in 1 2; do
    run "ours.tool.$round" roundtrip "$N" 200 tool "$FILE_SKILL" "$FILE_PATH" -- "${ours[@]}"
    run "peer.tool.$round" roundtrip "$N" 200 tool "$FILE_SKILL" "$FILE_PATH" -- "${peer[@]}"
    run "ours.resource.$round" roundtrip "$N" 200 resource "$FILE_SKILL" "$FILE_PATH" -- "${ours[@]}"
    run "peer.resource.$round" roundtrip "$N" 200 resource "$FILE_SKILL" "$FILE_PATH" -- "${peer[@]}"
done

echo "== start-up to the initialize response (N=$STARTS, 454 skills)"
for round in 1 2; do
    run "ours.startup.pack.$round" startup "$STARTS" -- "$SKILLS" serve "$WORK/corpus.skillpack" --pubkey "$WORK/k.pub" --cache "$WORK/cache"
    run "peer.startup.dir.$round" startup "$STARTS" -- "$DRIVER" peer "$CORPUS"
    run "ours.startup.dir.$round" startup "$STARTS" -- "$SKILLS" serve "$CORPUS"/* --profile claude-code --cache "$WORK/cache"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
