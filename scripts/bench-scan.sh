#!/usr/bin/env bash
# Measures the skill scanner against its two PyPI peers, side by side, on the
# labelled set and on the corpus of real public skills.
#
# Usage (from the repository root): bash scripts/bench-scan.sh
#
# Peers, installed into venvs under target/peers/ (once; a venv holding the
# right version is reused):
#   - cisco-ai-skill-scanner 2.3.2: `skill-scanner scan-all DIR --recursive
#     --format json`, its default analyzers only (static: YAML + YARA rules,
#     `.pyc` integrity, command pipelines); no `--use-llm`, `--use-behavioral`,
#     `--use-virustotal`, `--use-aidefense`, `--use-osv`;
#   - agent-skill-scanner 0.1.0: `agent-skill-scan scan --path DIR --output
#     json` (regex rules over `SKILL.md` and other Markdown with frontmatter;
#     it has no network code).
# Ours: `$SCAN_CMD DIR --format sarif`. SCAN_CMD defaults to `skb scan` from
# `cargo build --release -p skb`, or, while the CLI has no `scan` subcommand,
# to the library's example (`cargo build --release -p skills-scan --example
# scan`), which prints SARIF for folders through the public API.
#
# Every scanner runs without a network (`unshare -n` when the script may use
# it, as root; otherwise the peers' offline switches only, and a warning),
# once on $SHARED/scan/skills (120 labelled skills; each is a folder below it)
# and once on $SHARED/corpus/collections (454 real skills, all benign) under
# `/usr/bin/time -v` for wall time, CPU time (user + system, which a busy
# machine disturbs less) and peak RSS, after the corpus files were
# read once so that every scanner starts with a warm page cache. Then
# $SHARED/scan/score.py, as its README says, gives labelled precision,
# recall, F1 and recall per category, and the corpus false-positive rate, at
# `>= medium` and `>= high`; "both peers" is the union of the two peers'
# findings. Raw outputs, scores and `table.md` go to $BENCH_OUT.
#
# Environment: SHARED (../shared, relative to the repository root),
# BENCH_OUT (target/bench-scan), PEERS (target/peers), SCAN_CMD (see above),
# SKIP_PEERS=1 (run ours only; the table keeps the peers' last scores and
# timings found in BENCH_OUT).
set -euo pipefail

die() { echo "bench-scan: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

SHARED=${SHARED:-../shared}
BENCH_OUT=${BENCH_OUT:-target/bench-scan}
PEERS=${PEERS:-target/peers}
CISCO_VERSION=2.3.2
ASS_VERSION=0.1.0

command -v python3 >/dev/null || die "python3 is not on PATH"
[[ -x /usr/bin/time ]] || die "/usr/bin/time is missing (apt-get install -y time)"
shared=$(cd "$SHARED" 2>/dev/null && pwd) || die "\`$SHARED\` not found; check out ../shared beside the repository or set SHARED"
labelled=$shared/scan/skills
labels=$shared/scan/labels.jsonl
score=$shared/scan/score.py
corpus=$shared/corpus/collections
corpus_index=$shared/corpus/expected-skills-ref.jsonl
for f in "$labelled" "$labels" "$score" "$corpus" "$corpus_index"; do
    [[ -e $f ]] || die "\`$f\` not found"
done
mkdir -p "$BENCH_OUT" "$PEERS"
out=$(cd "$BENCH_OUT" && pwd)
peers=$(cd "$PEERS" && pwd)

# No network for any scanner: a new, empty network namespace when allowed.
offline=()
if unshare -n true 2>/dev/null; then
    offline=(unshare -n)
else
    echo "bench-scan: cannot unshare the network (not root?); relying on the peers' offline flags" >&2
fi
# LiteLLM (imported by cisco's scanner) fetches a price list at import unless
# told to use its bundled copy; Hugging Face libraries stay off the network.
export LITELLM_LOCAL_MODEL_COST_MAP=True HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

# venv NAME PACKAGE VERSION: a venv under $peers holding exactly that version.
venv() {
    local dir=$peers/$1
    if [[ -x $dir/bin/python ]] &&
        [[ $("$dir/bin/python" -m pip show "$2" 2>/dev/null | sed -n 's/^Version: //p') == "$3" ]]; then
        return
    fi
    echo "== installing $2==$3 into $dir"
    rm -rf "$dir"
    python3 -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$2==$3"
}

# timed NAME CMD...: runs CMD with stdout to $out/NAME.out, `time -v` to
# $out/NAME.time; exit status 0 or 1 (findings) is a run, others are not.
timed() {
    local name=$1
    shift
    local rc=0
    /usr/bin/time -v -o "$out/$name.time" "${offline[@]}" "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
    ((rc <= 1)) || die "$name exited with $rc; see $out/$name.err"
    echo "   $name: $(sed -n 's/^\tElapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/$name.time") wall, $(sed -n 's/^\tMaximum resident set size (kbytes): //p' "$out/$name.time") KB peak RSS"
}

# scores NAME LABELLED... -- CORPUS...: score.py on the labelled set's
# results, then on the corpus's.
scores() {
    local name=$1
    shift
    local lab=() cor=()
    while (($#)) && [[ $1 != -- ]]; do lab+=("$1"); shift; done
    shift
    cor=("$@")
    (cd "$shared/scan" && python3 score.py --labels labels.jsonl --results "${lab[@]}" --sarif-base . \
        --quiet --json-out "$out/$name.labelled.json") >"$out/$name.labelled.txt"
    (cd "$shared/scan" && python3 score.py --benign-corpus ../corpus/expected-skills-ref.jsonl ../corpus \
        --results "${cor[@]}" --sarif-base ../corpus --json-out "$out/$name.corpus.json") >"$out/$name.corpus.txt"
}

echo "== machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== warming the page cache"
find "$labelled" "$corpus" -type f -exec cat {} + >/dev/null

if [[ -z ${SKIP_PEERS:-} ]]; then
    venv cisco cisco-ai-skill-scanner "$CISCO_VERSION"
    venv ass agent-skill-scanner "$ASS_VERSION"
    cisco=$peers/cisco/bin/skill-scanner
    ass=$peers/ass/bin/agent-skill-scan

    echo "== cisco-ai-skill-scanner $CISCO_VERSION"
    timed cisco-labelled "$cisco" scan-all "$labelled" --recursive --format json --output-json "$out/cisco-labelled.json"
    timed cisco-corpus "$cisco" scan-all "$corpus" --recursive --format json --output-json "$out/cisco-corpus.json"
    scores cisco "$out/cisco-labelled.json" -- "$out/cisco-corpus.json"

    echo "== agent-skill-scanner $ASS_VERSION"
    timed ass-labelled "$ass" scan --path "$labelled" --output json
    timed ass-corpus "$ass" scan --path "$corpus" --output json
    cp "$out/ass-labelled.out" "$out/ass-labelled.json"
    cp "$out/ass-corpus.out" "$out/ass-corpus.json"
    scores ass "$out/ass-labelled.json" -- "$out/ass-corpus.json"

    scores peers "$out/cisco-labelled.json" "$out/ass-labelled.json" -- "$out/cisco-corpus.json" "$out/ass-corpus.json"
fi

if [[ -z ${SCAN_CMD:-} ]]; then
    echo "== building skb (release)"
    cargo build --release -p skb --quiet
    if target/release/skb scan --help >/dev/null 2>&1; then
        SCAN_CMD="$root/target/release/skb scan"
    else
        echo "== skb has no \`scan\` subcommand yet: building the library's example"
        cargo build --release -p skills-scan --example scan --quiet
        SCAN_CMD=$root/target/release/examples/scan
    fi
fi
read -r -a scan_cmd <<<"$SCAN_CMD"
echo "== ours: $SCAN_CMD ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- skills-scan || echo '+changes'))"
timed ours-labelled "${scan_cmd[@]}" "$labelled" --format sarif
timed ours-corpus "${scan_cmd[@]}" "$corpus" --format sarif
cp "$out/ours-labelled.out" "$out/ours-labelled.sarif"
cp "$out/ours-corpus.out" "$out/ours-corpus.sarif"
scores ours "$out/ours-labelled.sarif" -- "$out/ours-corpus.sarif"

python3 - "$out" <<'EOF'
import json, os, re, sys

out = sys.argv[1]
names = [("cisco", "cisco-ai-skill-scanner 2.3.2"), ("ass", "agent-skill-scanner 0.1.0"),
         ("peers", "both peers (union)"), ("ours", "ours")]


def load(path):
    return json.load(open(path)) if os.path.exists(path) else None


def timing(name):
    p = os.path.join(out, name + "-corpus.time")
    if not os.path.exists(p):
        return "", "", ""
    t = open(p).read()
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t).group(1)
    secs = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall.split(":"))))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
    cpu = sum(float(re.search(rf"{k} time \(seconds\): (\S+)", t).group(1)) for k in ("User", "System"))
    return f"{secs:.2f} s", f"{cpu:.2f} s", f"{rss / 1024:.0f} MB"


lines = []
for threshold in ("medium", "high"):
    lines += [f"\nFlagged at >= {threshold}:\n",
              "| scanner | recall | precision | F1 | labelled benign flagged | corpus FP | corpus wall | corpus CPU | corpus peak RSS |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    cats = {}
    for key, title in names:
        lab, cor = load(f"{out}/{key}.labelled.json"), load(f"{out}/{key}.corpus.json")
        if not lab or not cor:
            continue
        ls = next(s for s in lab["scores"] if s["threshold"] == threshold)["sets"]["shared"]
        cs = next(s for s in cor["scores"] if s["threshold"] == threshold)["sets"]["corpus"]
        wall, cpu, rss = timing(key) if key != "peers" else ("", "", "")
        lines.append(f"| {title} | {ls['recall']:.3f} ({ls['tp']}/{ls['malicious']}) | {ls['precision']:.3f} | "
                     f"{ls['f1']:.3f} | {ls['fp']}/{ls['benign']} | {100 * cs['fpr']:.1f} % ({cs['fp']}/{cs['benign']}) | "
                     f"{wall} | {cpu} | {rss} |")
        cats[title] = ls["recall_by_category"]
    if cats:
        lines += [f"\nRecall per category at >= {threshold}:\n",
                  "| category | " + " | ".join(cats) + " |", "|---|" + "---:|" * len(cats)]
        for c in sorted({c for v in cats.values() for c in v}):
            lines.append(f"| {c} | " + " | ".join(v.get(c, "") for v in cats.values()) + " |")
text = "\n".join(lines) + "\n"
open(os.path.join(out, "table.md"), "w").write(text)
print(text)
EOF
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== raw outputs, scores and table.md in $out"
