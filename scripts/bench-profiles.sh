#!/usr/bin/env bash
# `skb validate` of the shared corpus under each profile, against the
# reference validator (skills-ref 0.1.1) in-process, in the same run.
#
# Usage (from the repository root): bash scripts/bench-profiles.sh
#
# For each profile (spec, claude-code, codex, gemini-cli, opencode):
# `skb validate CORPUS --profile P --format json` to /dev/null, timed with
# hyperfine (warmup 3, RUNS runs) or, without it, a Python loop taking the
# median; the skills found and the invalid ones under that profile. Then
# skills-ref in-process once (scripts/skills_ref_inprocess.py, 1 warmup,
# REF_RUNS runs, median of the validate loop). Prints one table, with the
# ratio of skills-ref's median to each profile's. Raw results go to
# target/bench-profiles/.
#
# Environment: RUNS (default 10), WARMUP (3), REF_RUNS (3),
# CORPUS (../shared/corpus/collections), BENCH_OUT (target/bench-profiles).
set -euo pipefail

die() { echo "bench-profiles: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
REF_RUNS=${REF_RUNS:-3}
CORPUS=${CORPUS:-../shared/corpus/collections}
BENCH_OUT=${BENCH_OUT:-target/bench-profiles}
PROFILES=(spec claude-code codex gemini-cli opencode)

python3 -c 'import skills_ref' 2>/dev/null ||
    die "python3 cannot import skills_ref; run \`pip install skills-ref==0.1.1\`"
[[ -d $CORPUS ]] || die "corpus \`$CORPUS\` not found; check out ../shared beside the repository"

echo "== machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cargo build --release -p skb --quiet
bin=$root/target/release/skb
mkdir -p "$BENCH_OUT"
out=$(cd "$BENCH_OUT" && pwd)

for p in "${PROFILES[@]}"; do
    "$bin" validate "$CORPUS" --profile "$p" --format json >"$out/$p.report.json" || [[ $? == 1 ]] ||
        die "skb validate --profile $p failed; see $out/$p.report.json"
    if command -v hyperfine >/dev/null; then
        hyperfine -N -i --style basic --warmup "$WARMUP" --runs "$RUNS" \
            --export-json "$out/$p.json" \
            "$bin validate $CORPUS --profile $p --format json" >"$out/$p.log" 2>&1 ||
            die "hyperfine failed for $p; see $out/$p.log"
    else
        python3 - "$out/$p.json" "$WARMUP" "$RUNS" "$bin" validate "$CORPUS" --profile "$p" --format json <<'PY'
import json, statistics, subprocess, sys, time
path, warmup, runs, cmd = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
def once():
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t
for _ in range(warmup):
    once()
times = [once() for _ in range(runs)]
json.dump({"results": [{"median": statistics.median(times), "min": min(times)}]}, open(path, "w"))
PY
    fi
done
python3 scripts/skills_ref_inprocess.py "$CORPUS" --warmup 1 --runs "$REF_RUNS" >"$out/skills-ref.json"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$out" "${PROFILES[@]}" <<'PY'
import json, sys
out, profiles = sys.argv[1], sys.argv[2:]
ref = json.load(open(f"{out}/skills-ref.json"))
ref_ms = ref["seconds"] * 1e3
print(f"| profile | skills | invalid | skb median ms | skills-ref in-process ms | ratio |")
print("|---|---:|---:|---:|---:|---:|")
for p in profiles:
    s = json.load(open(f"{out}/{p}.report.json"))["summary"]
    r = json.load(open(f"{out}/{p}.json"))["results"][0]
    ms = r["median"] * 1e3
    print(f"| `{p}` | {s['skills']} | {s['invalid']} | {ms:.1f} | {ref_ms:.0f} | {ref_ms / ms:.1f}x |")
print(f"\nskills-ref: {ref['skills']} skills, {ref['invalid']} invalid")
PY
