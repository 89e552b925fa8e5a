#!/usr/bin/env bash
# Benchmarks `skb validate` against the reference validator, skills-ref 0.1.1.
#
# Usage (from the repository root): bash scripts/bench-validate.sh
#
# Builds `skills` in release mode, generates a 10,000-skill tree under /tmp if
# it is absent (scripts/gen-skill-tree.py, fixed seed), then in one run and on
# the same trees measures:
#   - `skb validate TREE --format json` and the default human format, both
#     to /dev/null, with hyperfine (warmup, >= 10 runs, JSON export) or, when
#     hyperfine is missing, a Python loop taking the median;
#   - the same with `--threads 1`, to show the cost per core;
#   - skills-ref in-process (scripts/skills_ref_inprocess.py, 1 warmup, 3 runs,
#     median of the validate loop);
#   - peak RSS of each (`/usr/bin/time -f %M`);
#   - CPU time (user + system) of both, which a busy machine disturbs less
#     than wall time;
#   - the file system's floor: ripgrep walking the same tree and reading
#     every `SKILL.md` whole (`rg -c --no-ignore -g SKILL.md . TREE`), when
#     `rg` is installed.
# and prints two tables. Raw results go to target/bench-validate/.
# On a shared machine, `nice -n -15 bash scripts/bench-validate.sh` (as root)
# keeps other work from preempting the measured processes.
#
# Environment: RUNS (default 10), WARMUP (3), REF_RUNS (3), CLI_SAMPLE (20),
# BENCH_N (10000), BENCH_TREE (/tmp/skills-bench-$BENCH_N),
# CORPUS (../shared/corpus/collections), BENCH_OUT (target/bench-validate),
# NO_HYPERFINE=1 (use the Python timing loop even when hyperfine is installed).
set -euo pipefail

die() { echo "bench-validate: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
REF_RUNS=${REF_RUNS:-3}
CLI_SAMPLE=${CLI_SAMPLE:-20}
BENCH_N=${BENCH_N:-10000}
BENCH_TREE=${BENCH_TREE:-/tmp/skills-bench-$BENCH_N}
CORPUS=${CORPUS:-../shared/corpus/collections}
BENCH_OUT=${BENCH_OUT:-target/bench-validate}
# Discovery reads at most 2,000 directories per root by default; the big tree
# has more, so lift the limit (it changes nothing on the corpus).
MAX_DIRS=1000000

(( RUNS >= 10 )) || die "RUNS must be at least 10 (got $RUNS)"
(( REF_RUNS >= 3 )) || die "REF_RUNS must be at least 3 (got $REF_RUNS)"
command -v cargo >/dev/null || die "cargo is not on PATH"
command -v python3 >/dev/null || die "python3 is not on PATH"
python3 -c 'import skills_ref' 2>/dev/null ||
    die "python3 cannot import skills_ref; run \`pip install skills-ref==0.1.1\`"
[[ -d $CORPUS ]] || die "corpus \`$CORPUS\` not found; check out ../shared beside the repository"

have_hyperfine=0
if [[ -z ${NO_HYPERFINE:-} ]] && command -v hyperfine >/dev/null; then
    have_hyperfine=1
else
    echo "bench-validate: hyperfine not found (apt-get install -y hyperfine); using a Python timing loop" >&2
fi
have_time=0
[[ -x /usr/bin/time ]] && have_time=1

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "== $(rustc --version)"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg) (nice $(nice))"

echo "== building skills (release)"
cargo build --release -p skb --quiet
bin=$root/target/release/skb
[[ -x $bin ]] || die "build did not produce $bin"

if [[ ! -d $BENCH_TREE ]]; then
    echo "== generating $BENCH_N skills in $BENCH_TREE"
    python3 scripts/gen-skill-tree.py "$BENCH_TREE" "$BENCH_N" >"$BENCH_TREE.json.tmp"
    mv "$BENCH_TREE.json.tmp" "$BENCH_TREE.json"
fi

mkdir -p "$BENCH_OUT"
out=$(cd "$BENCH_OUT" && pwd)

# peak_rss NAME CMD...: peak resident set size of one run, in KiB, into $out/NAME.rss
peak_rss() {
    local name=$1; shift
    if (( have_time )); then
        /usr/bin/time -f %M -o "$out/$name.rss" "$@" >/dev/null 2>&1 || true
    else
        python3 - "$out/$name.rss" "$@" <<'EOF'
import resource, subprocess, sys
subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
EOF
    fi
}

# time_skills NAME CMD...: wall time of CMD into $out/NAME.json (hyperfine's format)
time_skills() {
    local name=$1; shift
    if (( have_hyperfine )); then
        # -N: no intermediate shell; output goes to /dev/null (hyperfine's
        # default); -i: exit status 1 (invalid skills) is expected.
        hyperfine -N -i --style basic --warmup "$WARMUP" --runs "$RUNS" \
            --export-json "$out/$name.json" "$(printf '%q ' "$@")" >"$out/$name.log" 2>&1 ||
            die "hyperfine failed for $name; see $out/$name.log"
    else
        python3 - "$out/$name.json" "$WARMUP" "$RUNS" "$@" <<'EOF'
import json, os, statistics, subprocess, sys, time
path, warmup, runs, cmd = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
def once():
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t
for _ in range(warmup):
    once()
c0 = os.times()
times = [once() for _ in range(runs)]
c1 = os.times()
json.dump({"results": [{"command": " ".join(cmd), "median": statistics.median(times),
                        "mean": statistics.fmean(times), "min": min(times),
                        "max": max(times), "times": times,
                        "user": (c1.children_user - c0.children_user) / runs,
                        "system": (c1.children_system - c0.children_system) / runs}]},
          open(path, "w"))
EOF
    fi
}

bench_tree() {
    local name=$1 tree=$2 cli_sample=$3
    echo "== $name: $tree"
    "$bin" validate "$tree" --max-dirs "$MAX_DIRS" --format json >"$out/$name.report.json" || [[ $? == 1 ]] ||
        die "skb validate $tree failed; see $out/$name.report.json"
    time_skills "$name.skills-json" "$bin" validate "$tree" --max-dirs "$MAX_DIRS" --format json
    time_skills "$name.skills-human" "$bin" validate "$tree" --max-dirs "$MAX_DIRS" --color never
    time_skills "$name.skills-json-t1" "$bin" validate "$tree" --max-dirs "$MAX_DIRS" --format json --threads 1
    peak_rss "$name.skills" "$bin" validate "$tree" --max-dirs "$MAX_DIRS" --format json
    if command -v rg >/dev/null; then
        time_skills "$name.rg" rg -c --no-ignore -g SKILL.md . "$tree"
    fi
    echo "   skills-ref in-process ($REF_RUNS runs after 1 warmup)"
    local extra=()
    (( cli_sample > 0 )) && extra=(--cli-sample "$cli_sample")
    python3 scripts/skills_ref_inprocess.py "$tree" --warmup 1 --runs "$REF_RUNS" "${extra[@]}" \
        >"$out/$name.skills-ref.json" || die "skills_ref_inprocess.py failed on $tree"
    peak_rss "$name.skills-ref" python3 scripts/skills_ref_inprocess.py "$tree"
}

bench_tree corpus "$CORPUS" "$CLI_SAMPLE"
bench_tree tree-$BENCH_N "$BENCH_TREE" 0

echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$out" corpus "$CORPUS" "tree-$BENCH_N" "$BENCH_TREE" <<'EOF'
import json, sys
out = sys.argv[1]
trees = list(zip(sys.argv[2::2], sys.argv[3::2]))

def timing(path):
    """Wall-time statistics and mean CPU time (user + system), in ms."""
    r = json.load(open(path))["results"][0]
    ms = {k: r[k] * 1e3 for k in ("median", "mean", "min", "max")}
    ms["cpu"] = (r.get("user", 0) + r.get("system", 0)) * 1e3
    return ms

def rss(path):
    try:
        return int(open(path).read().split()[-1]) / 1024
    except (OSError, ValueError, IndexError):
        return float("nan")

summary = {}
for name, path in trees:
    report = json.load(open(f"{out}/{name}.report.json"))["summary"]
    ref = json.load(open(f"{out}/{name}.skills-ref.json"))
    j = timing(f"{out}/{name}.skills-json.json")
    s = {
        "path": path, "skills": report["skills"], "invalid": report["invalid"],
        "skills_ref_skills": ref["skills"], "skills_ref_invalid": ref["invalid"],
        "skills_json_ms": j,
        "skills_human_ms": timing(f"{out}/{name}.skills-human.json"),
        "skills_json_threads1_ms": timing(f"{out}/{name}.skills-json-t1.json"),
        "skills_ref_ms": ref["seconds"] * 1e3,
        "skills_ref_cpu_ms": ref["cpu_seconds"] * 1e3,
        "skills_ref_walk_ms": ref["walk_and_validate_seconds"] * 1e3,
        "skills_rss_mib": rss(f"{out}/{name}.skills.rss"),
        "skills_ref_rss_mib": rss(f"{out}/{name}.skills-ref.rss"),
    }
    s["ratio"] = s["skills_ref_ms"] / j["median"]
    try:
        s["rg_ms"] = timing(f"{out}/{name}.rg.json")
        s["over_rg"] = j["median"] / s["rg_ms"]["median"]
    except OSError:
        pass
    s["cpu_ratio"] = s["skills_ref_cpu_ms"] / j["cpu"] if j["cpu"] else float("nan")
    if "cli" in ref:
        s["skills_ref_cli"] = ref["cli"]
    summary[name] = s
    if (s["skills"], s["invalid"]) != (s["skills_ref_skills"], s["skills_ref_invalid"]):
        print(f"bench-validate: warning: {name}: skills found {s['skills']} skills "
              f"({s['invalid']} invalid), skills-ref {s['skills_ref_skills']} "
              f"({s['skills_ref_invalid']} invalid)", file=sys.stderr)
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)

wall = [
    "| tree | skills | skills median ms | skills-ref median ms | ratio "
    "| skills, human format | skills --threads 1 |",
    "|---|---:|---:|---:|---:|---:|---:|",
]
cpu = [
    "| tree | skills CPU ms (user+sys) | skills-ref CPU ms | CPU ratio "
    "| skills-ref walk+validate ms | peak RSS skills MiB | peak RSS skills-ref MiB |",
    "|---|---:|---:|---:|---:|---:|---:|",
]
for name, s in summary.items():
    j, h, t1 = s["skills_json_ms"], s["skills_human_ms"], s["skills_json_threads1_ms"]
    wall.append(
        f"| {name} | {s['skills']} | {j['median']:.1f} (min {j['min']:.1f}) "
        f"| {s['skills_ref_ms']:.0f} | {s['ratio']:.1f}x | {h['median']:.1f} | {t1['median']:.1f} |")
    cpu.append(
        f"| {name} | {j['cpu']:.1f} | {s['skills_ref_cpu_ms']:.0f} | {s['cpu_ratio']:.1f}x "
        f"| {s['skills_ref_walk_ms']:.0f} | {s['skills_rss_mib']:.1f} | {s['skills_ref_rss_mib']:.1f} |")
table = "\n".join(wall) + "\n\n" + "\n".join(cpu)
open(f"{out}/table.md", "w").write(table + "\n")
print()
print(table)
for name, s in summary.items():
    if "rg_ms" in s:
        print(f"\nripgrep reading every SKILL.md of {name}: {s['rg_ms']['median']:.1f} ms; "
              f"skills takes {s['over_rg']:.2f}x that")
for name, s in summary.items():
    c = s.get("skills_ref_cli", {})
    if "median_ms_per_invocation" in c:
        print(f"\nskills-ref CLI on {name}: {c['median_ms_per_invocation']:.0f} ms per "
              f"invocation (median of {c['sample']} directories)")
print(f"\nraw results: {out}/")
EOF
