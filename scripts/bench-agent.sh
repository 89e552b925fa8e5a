#!/usr/bin/env bash
# Benchmarks the agent side: what `run_skill_script` costs beyond the script
# itself, and rendering the `<available_skills>` catalog of 1,000 skills,
# against skills-ref 0.1.1's `to_prompt` on the same skills, in one run.
#
# Usage (from the repository root):
#   pip install skills-ref==0.1.1
#   bash scripts/bench-agent.sh
#
# Steps:
#   1. `python3 scripts/gen-skill-tree.py $TREE 1000 --invalid-rate 0`: 1,000
#      valid skills, deterministic (fixed seed), at $TREE
#      (default /tmp/skills-bench-agent-1000);
#   2. `cargo bench -p skills-benches --bench agent`
#      (release; see benches/benches/agent.rs), which packs that tree in
#      memory, opens it with `Bundle::from_pack`, writes its catalog to
#      $BENCH_OUT/catalog.txt, and times the catalog and the script runs;
#   3. `python3 scripts/catalog_peer.py $TREE --expect $BENCH_OUT/catalog.txt`:
#      skills-ref's `to_prompt` on the same skills, render only (and as
#      shipped, parsing every SKILL.md), checking that it renders the same text.
# The load average is printed before and after (the machine may be shared).
# Raw outputs go to $BENCH_OUT (default target/bench-agent).
set -euo pipefail

cd "$(dirname "$0")/.."
TREE=${TREE:-/tmp/skills-bench-agent-1000}
BENCH_OUT=$(realpath -m "${BENCH_OUT:-target/bench-agent}")
RUNS=${RUNS:-200}
mkdir -p "$BENCH_OUT"

echo "== load before: $(cat /proc/loadavg)"
python3 scripts/gen-skill-tree.py "$TREE" 1000 --invalid-rate 0 --force >"$BENCH_OUT/tree.json"
echo "== tree: $TREE ($(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["skills"], "skills, seed", d["seed"])' "$BENCH_OUT/tree.json"))"

echo "== ours: cargo bench -p skills-benches --bench agent"
SKILLS_AGENT_TREE="$TREE" SKILLS_AGENT_CATALOG_OUT="$BENCH_OUT/catalog.txt" \
    cargo bench -p skills-benches --bench agent 2>&1 | tee "$BENCH_OUT/divan.txt"
echo "== load between: $(cat /proc/loadavg)"

echo "== peer: skills-ref $(python3 -c 'import skills_ref; print(skills_ref.__version__)') to_prompt"
python3 scripts/catalog_peer.py "$TREE" --runs "$RUNS" --expect "$BENCH_OUT/catalog.txt" \
    | tee "$BENCH_OUT/peer.json"
echo "== load after: $(cat /proc/loadavg)"
