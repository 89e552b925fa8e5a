#!/usr/bin/env bash
# `skb validate` of the shared corpus under each profile, against earlier
# builds of `skb`, the file system's floor (ripgrep reading every
# `SKILL.md` of the same folders) and, when it is installed, the reference
# validator (skills-ref 0.1.1) in-process, all in the same run.
#
# Usage (from the repository root): bash scripts/bench-profiles.sh
#   BASELINES="before=/path/to/old/skb stop=/path/to/other/skb" bash scripts/bench-profiles.sh
#
# Profiles: every value `skb validate --help` lists for `--profile`, and
# none (no `--profile`, the default). For each, `skb validate CORPUS
# [--profile P] --format json` to /dev/null, for this build and each
# baseline, and `rg -c --no-ignore -g SKILL.md . CORPUS` (walks the same
# folders, skipping hidden ones as `skb` does, and reads each `SKILL.md`
# whole) are timed with hyperfine `-N` (WARMUP warm-up runs, RUNS runs per
# round). The commands of one profile are timed ROUNDS times, the order of
# the commands rotated each round, so that other work on the machine falls
# on all of them alike; the table gives the median over all rounds, and
# the ratios of this build's median to each baseline's and to ripgrep's.
# Raw results go to target/bench-profiles/.
#
# Each row also gives the mean CPU time (user + system) of a run, which
# other work on the machine disturbs less than wall time. A baseline that
# does not know a profile (exit status 2) is left out of that row (`–`).
# On a shared machine, `nice -n -15 bash scripts/bench-profiles.sh` (as
# root) keeps other work from preempting the measured processes.
#
# Environment: RUNS (default 10), WARMUP (3), ROUNDS (3), REF_RUNS (3),
# BASELINES (none), CORPUS (../shared/corpus/collections),
# BENCH_OUT (target/bench-profiles), SKB (a built `skb`: skips the build).
set -euo pipefail

die() { echo "bench-profiles: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
ROUNDS=${ROUNDS:-3}
REF_RUNS=${REF_RUNS:-3}
CORPUS=${CORPUS:-../shared/corpus/collections}
BENCH_OUT=${BENCH_OUT:-target/bench-profiles}
BASELINES=${BASELINES:-}

[[ -d $CORPUS ]] || die "corpus \`$CORPUS\` not found; check out ../shared beside the repository"
command -v hyperfine >/dev/null || die "hyperfine not found (apt-get install -y hyperfine)"
command -v rg >/dev/null || die "ripgrep not found (apt-get install -y ripgrep)"

echo "== machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -n ${SKB:-} ]]; then
    bin=$SKB
else
    cargo build --release -p skb --quiet
    bin=${CARGO_TARGET_DIR:-$root/target}/release/skb
fi
[[ -x $bin ]] || die "no \`skb\` at $bin"
mkdir -p "$BENCH_OUT"
out=$(cd "$BENCH_OUT" && pwd)

# name=binary, this build first.
builds=("this=$bin")
for b in $BASELINES; do
    [[ $b == *=* && -x ${b#*=} ]] || die "BASELINES: \`$b\` is not NAME=EXECUTABLE"
    builds+=("$b")
done

# Every profile `validate --help` lists, then none.
mapfile -t profiles < <("$bin" validate --help | awk '
    /--profile/ { f = 1 }
    f && /Possible values/ { p = 1; next }
    p && /^ *- [a-z0-9-]+:/ { sub(/^ *- /, ""); sub(/:.*/, ""); print }
    p && /^ *$/ { exit }')
(( ${#profiles[@]} > 0 )) || die "no profiles in \`skb validate --help\`"
profiles+=(none)

corpus=$(cd "$CORPUS" && pwd)
for p in "${profiles[@]}"; do
    flag=()
    [[ $p != none ]] && flag=(--profile "$p")
    "$bin" validate "$corpus" "${flag[@]}" --format json >"$out/$p.report.json" || [[ $? == 1 ]] ||
        die "skb validate ${flag[*]} failed; see $out/$p.report.json"
    cmds=()
    for b in "${builds[@]}"; do
        # A build that does not know the profile (exit status 2) sits out.
        "${b#*=}" validate "$corpus" "${flag[@]}" --format json >/dev/null 2>&1 || [[ $? == 1 ]] || continue
        cmds+=("${b#*=} validate $corpus ${flag[*]} --format json")
    done
    cmds+=("rg -c --no-ignore -g SKILL.md . $corpus")
    n=${#cmds[@]}
    for ((r = 0; r < ROUNDS; r++)); do
        rotated=()
        for ((i = 0; i < n; i++)); do
            rotated+=("${cmds[$(((i + r) % n))]}")
        done
        hyperfine -N -i --style basic --warmup "$WARMUP" --runs "$RUNS" \
            --export-json "$out/$p.round$r.json" "${rotated[@]}" >"$out/$p.round$r.log" 2>&1 ||
            die "hyperfine failed for $p; see $out/$p.round$r.log"
    done
done
ref=""
if python3 -c 'import skills_ref' 2>/dev/null; then
    python3 scripts/skills_ref_inprocess.py "$corpus" --warmup 1 --runs "$REF_RUNS" >"$out/skills-ref.json"
    ref="$out/skills-ref.json"
else
    echo "bench-profiles: skills_ref not importable (pip install skills-ref==0.1.1): its column is left out" >&2
fi
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$out" "$ROUNDS" "$ref" "${builds[@]}" -- "${profiles[@]}" <<'PY'
import json, statistics, sys
out, rounds, ref = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sep = sys.argv.index("--")
builds = [b.split("=", 1) for b in sys.argv[4:sep]]
profiles = sys.argv[sep + 1:]
ref_ms = json.load(open(ref))["seconds"] * 1e3 if ref else None

def medians(p):
    """By command line: the median wall ms over all rounds, and the mean
    CPU ms (user + system) of a run, which other work disturbs less."""
    times, cpu = {}, {}
    for r in range(rounds):
        for res in json.load(open(f"{out}/{p}.round{r}.json"))["results"]:
            times.setdefault(res["command"], []).extend(res["times"])
            cpu.setdefault(res["command"], []).append((res["user"] + res["system"]) * 1e3)
    return {c: (statistics.median(t) * 1e3, statistics.fmean(cpu[c])) for c, t in times.items()}

names = [n for n, _ in builds]
head = ["profile", "skills", "invalid"] + [f"{n} ms" for n in names] + ["rg ms"]
head += [f"this / {n}" for n in names[1:]] + ["this / rg"]
head += [f"{n} CPU ms" for n in names] + [f"CPU this / {n}" for n in names[1:]]
if ref_ms:
    head += ["skills-ref ms", "skills-ref / this"]
print("| " + " | ".join(head) + " |")
print("|---|" + "---:|" * (len(head) - 1))
summary = {}
for p in profiles:
    s = json.load(open(f"{out}/{p}.report.json"))["summary"]
    m = medians(p)
    ms, cpu = {}, {}
    for name, path in builds:
        found = [v for c, v in m.items() if c.startswith(path + " ")]
        if found:
            ms[name], cpu[name] = found[0]
    ms["rg"], cpu["rg"] = next(v for c, v in m.items() if c.startswith("rg "))
    summary[p] = {"wall_median_ms": ms, "cpu_mean_ms": cpu}
    fmt = lambda d, n: f"{d[n]:.1f}" if n in d else "–"
    ratio = lambda d, n: f"{d['this'] / d[n]:.2f}x" if n in d else "–"
    row = [f"`{p}`", str(s["skills"]), str(s["invalid"])]
    row += [fmt(ms, n) for n in names] + [fmt(ms, "rg")]
    row += [ratio(ms, n) for n in names[1:]] + [ratio(ms, "rg")]
    row += [fmt(cpu, n) for n in names] + [ratio(cpu, n) for n in names[1:]]
    if ref_ms:
        row += [f"{ref_ms:.0f}", f"{ref_ms / ms['this']:.1f}x"]
    print("| " + " | ".join(row) + " |")
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
print(f"\nmedians over {rounds} rounds; raw results: {out}/")
PY
