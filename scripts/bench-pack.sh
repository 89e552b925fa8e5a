#!/usr/bin/env bash
# Benchmarks `skb pack` and `skb verify` against `zip -X -r`, Anthropic's
# `package_skill.py`, `unzip -t` and `minisign -V`, on the same trees in one run.
#
# Usage (from the repository root):
#   PACKAGE_SKILL=/path/to/skills/skill-creator/scripts/package_skill.py bash scripts/bench-pack.sh
#
# Builds `skills` in release mode, then for each tree (the shared corpus, whose
# collection directories are the roots, and this repository's `skills/`):
#   - time to pack, with hyperfine (warmup, then RUNS runs; mean +- sigma and
#     CPU time):
#       skb pack --profile claude-code ROOTS -o OUT.skillpack
#       skb pack --profile claude-code ROOTS --format skill -o DIR
#       zip -X -r -q OUT.zip SKILL_DIRS        (level 6, zip's default)
#       zip -X -r -9 -q OUT.zip SKILL_DIRS
#     and, when PACKAGE_SKILL is set, package_skill.py: it packs one skill per
#     call, so the peer is a loop calling it once per skill directory (one
#     Python process each, as the script is meant to be run), plus the same
#     calls in one Python process (import once). Like `skb pack`, it
#     validates each skill first (its own quick_validate.py) and refuses the
#     ones that fail: those cost their validation only and produce nothing;
#   - sizes: the pack; zip -6 and -9 of the skill directories; zip -6 and -9
#     (with and without directory entries, `-D`) of the pack's own entries
#     extracted by `unzip` (manifest left out): the same files under the same
#     names, so that only the formats differ;
#     the `.skill` files of `--format skill`; and the `.skill` files of
#     package_skill.py, summed per call (skills with the same directory name
#     overwrite each other's file), once as it runs and once with its
#     validation bypassed so that it packs every skill.
# Then, on the corpus pack, signed with a throw-away key (`skb keygen -W`):
#       skb verify PACK -p KEY.pub          (signature, manifest, every file
#                                               inflated and SHA-256-checked)
#       skb verify PACK --unsigned          (the same without the signature)
#       minisign -Vm PACK -p KEY.pub           (signature only)
#       unzip -t -qq PACK                      (every file inflated, CRC-32)
#   reported as MB/s of file contents and of pack bytes.
# Prints Markdown tables with ratios (peer / skills); raw results go to
# $BENCH_OUT. `nice -n -15 bash scripts/bench-pack.sh` (as root) keeps other
# work on a shared machine from preempting the measured processes.
#
# Environment: PYTHON (the interpreter package_skill.py runs under; default:
# what `python3` resolves to, so that a pyenv shim's own start-up is not
# counted 454 times), PACKAGE_SKILL (path to package_skill.py, from
# github.com/anthropics/skills, skills/skill-creator/scripts/; needs PyYAML;
# unset: that peer is skipped), CORPUS (../shared/corpus/collections), RUNS
# (10), WARMUP (3), PY_RUNS (3), PY_WARMUP (0: the loop over the corpus takes
# minutes, and the runs before it warm the page cache), BENCH_OUT (target/bench-pack).
set -euo pipefail

die() { echo "bench-pack: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

CORPUS=${CORPUS:-../shared/corpus/collections}
RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
PY_RUNS=${PY_RUNS:-3}
PY_WARMUP=${PY_WARMUP:-0}
BENCH_OUT=${BENCH_OUT:-target/bench-pack}
PACKAGE_SKILL=${PACKAGE_SKILL:-}
PYTHON=${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}

(( RUNS >= 2 )) || die "RUNS must be at least 2 (got $RUNS)"
for tool in cargo python3 hyperfine zip unzip minisign; do
    command -v "$tool" >/dev/null ||
        die "\`$tool\` is not on PATH (apt-get install -y hyperfine zip unzip minisign)"
done
[[ -d $CORPUS ]] || die "corpus \`$CORPUS\` not found; check out ../shared beside the repository"
corpus=$(cd "$CORPUS" && pwd)
have_py=0
if [[ -n $PACKAGE_SKILL ]]; then
    [[ -f $PACKAGE_SKILL ]] || die "PACKAGE_SKILL=\`$PACKAGE_SKILL\` is not a file"
    PACKAGE_SKILL=$(cd "$(dirname "$PACKAGE_SKILL")" && pwd)/$(basename "$PACKAGE_SKILL")
    "$PYTHON" -c 'import yaml' 2>/dev/null || die "package_skill.py needs PyYAML: pip install pyyaml"
    have_py=1
else
    echo "bench-pack: PACKAGE_SKILL is not set: skipping the package_skill.py peer" >&2
    echo "            (set it to skills/skill-creator/scripts/package_skill.py of github.com/anthropics/skills)" >&2
fi
# package_skill.py imports `scripts.quick_validate`: its grandparent directory
# goes on PYTHONPATH.
py_path=$(dirname "$(dirname "$PACKAGE_SKILL")")

mkdir -p "$BENCH_OUT"
out=$(cd "$BENCH_OUT" && pwd)
case $out in
    / | "$root" | "$HOME" | "$corpus"*) die "BENCH_OUT must be a scratch directory (got $out)" ;;
esac
rm -rf "${out:?}"/*

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "== $(rustc --version); $(zip -v | sed -n 2p); $(hyperfine --version); $(minisign -v 2>&1 | head -1)"
(( have_py )) && echo "== $("$PYTHON" --version) ($PYTHON), PyYAML $("$PYTHON" -c 'import yaml; print(yaml.__version__)')"
echo "== commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- skills-core/src skills-compiler/src skills-bundle/src skills-cli/src 2>/dev/null || echo ', with uncommitted changes under skills-*/src')"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg) (nice $(nice))"
cut -d' ' -f1-3 /proc/loadavg >"$out/load-before"

echo "== building skills (release)"
cargo build --release -p skb --quiet
bin=$root/target/release/skb
[[ -x $bin ]] || die "build did not produce $bin"

# hf NAME RUNS WARMUP CMD...: hyperfine, no intermediate shell, into $out/NAME.json.
# zip updates an existing archive, so every output is removed before each run.
hf() {
    local name=$1 runs=$2 warmup=$3; shift 3
    hyperfine -N --style basic --warmup "$warmup" --runs "$runs" \
        --prepare "rm -rf $out/$name.out $out/$name.out.zip $out/$name.out.skillpack" \
        --export-json "$out/$name.json" "$(printf '%q ' "$@")" >"$out/$name.log" 2>&1 ||
        die "hyperfine failed for $name; see $out/$name.log"
}

# The in-process package_skill.py driver: one process, one import, the same
# calls; prints {"packaged", "refused", "bytes"} as JSON. `--no-validate`
# replaces its validation by a pass, so that it packs every skill.
cat >"$out/package_skill_inprocess.py" <<'EOF'
import contextlib, io, json, os, sys
script, dirs_file, dest = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(os.path.dirname(script)))
from scripts import package_skill as ps
if "--no-validate" in sys.argv:
    ps.validate_skill = lambda path: (True, "validation bypassed")
packaged = refused = total = 0
for d in open(dirs_file).read().splitlines():
    with contextlib.redirect_stdout(io.StringIO()):
        result = ps.package_skill(d, dest)
    if result:
        packaged += 1
        total += os.path.getsize(result)
    else:
        refused += 1
print(json.dumps({"packaged": packaged, "refused": refused, "bytes": total}))
EOF

# bench_tree NAME BASE ROOTS...: ROOTS are relative to BASE, where every
# command runs, so that zip stores the same relative names on every run.
bench_tree() {
    local name=$1 base=$2; shift 2
    local roots=("$@")
    echo "== $name: ${roots[*]} in $base"
    (
        cd "$base"
        "$bin" validate --profile claude-code --format json "${roots[@]}" >"$out/$name.validate.json" ||
            die "skb validate --profile claude-code failed on $name"
        python3 - "$out/$name.validate.json" >"$out/$name.dirs" <<'EOF'
import json, sys
# Rows without a name carry a root's own diagnostics; they are not skills.
for s in json.load(open(sys.argv[1]))["skills"]:
    if s.get("name") is not None:
        print(s["dir"])
EOF
        mapfile -t dirs <"$out/$name.dirs"
        echo "   ${#dirs[@]} skill directories"

        # Sizes, from one run of each.
        "$bin" pack --profile claude-code "${roots[@]}" -o "$out/$name.skillpack" \
            >"$out/$name.pack.txt" 2>"$out/$name.pack.err" ||
            die "skb pack failed on $name; see $out/$name.pack.err"
        "$bin" pack --profile claude-code "${roots[@]}" --format skill -o "$out/$name.skill-files" \
            >"$out/$name.skill-files.txt" 2>"$out/$name.skill-files.err" ||
            die "skb pack --format skill failed on $name; see $out/$name.skill-files.err"
        unzip -q "$out/$name.skillpack" -d "$out/$name.unpacked" -x skillpack.json
        zip -X -r -q "$out/$name.zip6" "${dirs[@]}"
        zip -X -r -9 -q "$out/$name.zip9" "${dirs[@]}"
        (
            cd "$out/$name.unpacked"
            zip -X -r -q "$out/$name.unpacked.zip6" .
            zip -X -r -9 -q "$out/$name.unpacked.zip9" .
            zip -X -r -D -9 -q "$out/$name.unpacked.zip9D" .
        )

        echo "   skb pack, zip -6, zip -9 ($WARMUP warm-up runs, then $RUNS)"
        hf "$name.pack" "$RUNS" "$WARMUP" "$bin" pack --profile claude-code "${roots[@]}" -o "$out/$name.pack.out.skillpack"
        hf "$name.pack-skill" "$RUNS" "$WARMUP" "$bin" pack --profile claude-code "${roots[@]}" --format skill -o "$out/$name.pack-skill.out"
        hf "$name.zip6" "$RUNS" "$WARMUP" zip -X -r -q "$out/$name.zip6.out.zip" "${dirs[@]}"
        hf "$name.zip9" "$RUNS" "$WARMUP" zip -X -r -9 -q "$out/$name.zip9.out.zip" "${dirs[@]}"

        if (( have_py )); then
            local abs="$out/$name.dirs.abs"
            sed "s|^|$PWD/|" "$out/$name.dirs" >"$abs"
            "$PYTHON" "$out/package_skill_inprocess.py" "$PACKAGE_SKILL" "$abs" "$out/$name.py-skill-files" \
                >"$out/$name.py-size.json"
            "$PYTHON" "$out/package_skill_inprocess.py" "$PACKAGE_SKILL" "$abs" "$out/$name.py-all-skill-files" \
                --no-validate >"$out/$name.py-size-all.json"
            cat >"$out/$name.package_skill.sh" <<EOF
#!/usr/bin/env bash
# package_skill.py once per skill directory, as it is meant to be run.
export PYTHONPATH=$(printf '%q' "$py_path")
while IFS= read -r dir; do
    $(printf '%q' "$PYTHON") $(printf '%q' "$PACKAGE_SKILL") "\$dir" $(printf '%q' "$out/$name.py-loop.out") >/dev/null || true
done <$(printf '%q' "$abs")
EOF
            echo "   package_skill.py, once per skill and in one process ($PY_WARMUP warm-up runs, then $PY_RUNS)"
            hf "$name.py-loop" "$PY_RUNS" "$PY_WARMUP" bash "$out/$name.package_skill.sh"
            hf "$name.py-inprocess" "$PY_RUNS" "$PY_WARMUP" "$PYTHON" "$out/package_skill_inprocess.py" \
                "$PACKAGE_SKILL" "$abs" "$out/$name.py-inprocess.out"
        fi
    )
}

mapfile -t collections < <(cd "$corpus" && find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sed 's|^\./||' | sort)
bench_tree corpus "$corpus" "${collections[@]}"
bench_tree repo "$root" skills
if (( have_py )); then
    echo "== Python start-up alone (the fixed cost of each package_skill.py call)"
    hf python-startup "$RUNS" "$WARMUP" "$PYTHON" -c pass
fi

echo "== verify: the corpus pack, signed with a throw-away key"
"$bin" keygen -W -f -p "$out/key.pub" -s "$out/key.key" >/dev/null
"$bin" pack --profile claude-code "${collections[@]/#/$corpus/}" -o "$out/signed.skillpack" \
    --sign "$out/key.key" >/dev/null 2>"$out/signed.err" ||
    die "skb pack --sign failed; see $out/signed.err"
cmp -s "$out/signed.skillpack" "$out/corpus.skillpack" ||
    die "the signed pack differs from the unsigned one; packs should be reproducible"
"$bin" verify "$out/signed.skillpack" -p "$out/key.pub" >"$out/verify.txt" ||
    die "skb verify failed; see $out/verify.txt"
minisign -Vm "$out/signed.skillpack" -p "$out/key.pub" -q || die "minisign -V failed"
unzip -t -qq "$out/signed.skillpack" || die "unzip -t failed"
hf verify-signed "$RUNS" "$WARMUP" "$bin" verify "$out/signed.skillpack" -p "$out/key.pub"
hf verify-unsigned "$RUNS" "$WARMUP" "$bin" verify "$out/signed.skillpack" --unsigned
hf minisign "$RUNS" "$WARMUP" minisign -Vm "$out/signed.skillpack" -p "$out/key.pub" -q
hf unzip-t "$RUNS" "$WARMUP" unzip -t -qq "$out/signed.skillpack"

echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
cut -d' ' -f1-3 /proc/loadavg >"$out/load-after"

python3 - "$out" "$have_py" <<'EOF'
import json, os, re, sys, zipfile
out, have_py = sys.argv[1], sys.argv[2] == "1"

def hf(name):
    """Mean, sigma, min and CPU (user + system) in ms, from hyperfine's JSON."""
    r = json.load(open(f"{out}/{name}.json"))["results"][0]
    return {"mean": r["mean"] * 1e3, "sd": (r["stddev"] or 0) * 1e3, "min": r["min"] * 1e3,
            "cpu": (r["user"] + r["system"]) * 1e3, "runs": len(r["times"])}

def zstats(path):
    z = zipfile.ZipFile(path)
    infos = z.infolist()
    return {"bytes": os.path.getsize(path), "files": sum(not i.is_dir() for i in infos),
            "dirs": sum(i.is_dir() for i in infos),
            "content": sum(i.file_size for i in infos if not i.is_dir()),
            "manifest": sum(i.file_size for i in infos if i.filename == "skillpack.json")}

def skill_files(txt):
    return sum(int(n.replace(",", "")) for n in re.findall(r"\(([\d,]+) bytes\)$", open(txt).read(), re.M))

def ms(t): return f"{t['mean']:.1f} ± {t['sd']:.1f}"
def ratio(a, b): return f"{a / b:.2f}×"

summary, lines = {}, []
for tree in ("corpus", "repo"):
    dirs = len(open(f"{out}/{tree}.dirs").read().split())
    pack = zstats(f"{out}/{tree}.skillpack")
    s = {"skill_dirs": dirs, "pack": pack,
         "zip6": zstats(f"{out}/{tree}.zip6"), "zip9": zstats(f"{out}/{tree}.zip9"),
         "unpacked_zip6": zstats(f"{out}/{tree}.unpacked.zip6"),
         "unpacked_zip9": zstats(f"{out}/{tree}.unpacked.zip9"),
         "unpacked_zip9D": zstats(f"{out}/{tree}.unpacked.zip9D"),
         "skill_files_bytes": skill_files(f"{out}/{tree}.skill-files.txt"),
         "time": {k: hf(f"{tree}.{k}") for k in ("pack", "pack-skill", "zip6", "zip9")}}
    if have_py:
        s["py_size"] = json.load(open(f"{out}/{tree}.py-size.json"))
        s["py_size_all"] = json.load(open(f"{out}/{tree}.py-size-all.json"))
        s["time"]["py-loop"] = hf(f"{tree}.py-loop")
        s["time"]["py-inprocess"] = hf(f"{tree}.py-inprocess")
    summary[tree] = s
    t, ours = s["time"], s["time"]["pack"]
    lines += [f"### {tree}: {dirs} skill directories, {pack['files'] - 1} files, "
              f"{pack['content'] - pack['manifest']:,} bytes packed", "",
              "| packer | mean ± σ ms | CPU ms | time ratio (peer / skills) |", "|---|---:|---:|---:|",
              f"| `skb pack` | {ms(ours)} | {ours['cpu']:.0f} | 1 |"]
    rows = [("`skb pack --format skill`", "pack-skill"), ("`zip -X -r` (-6)", "zip6"),
            ("`zip -X -r -9`", "zip9"), ("`package_skill.py`, once per skill", "py-loop"),
            ("`package_skill.py`, one process", "py-inprocess")]
    for label, k in rows:
        if k in t:
            lines.append(f"| {label} | {ms(t[k])} | {t[k]['cpu']:.0f} | {ratio(t[k]['mean'], ours['mean'])} |")
    lines += ["", "| archive | bytes | entries (files + dirs) | size ratio (peer / skills) |",
              "|---|---:|---:|---:|", f"| skb pack | {pack['bytes']:,} | {pack['files']} + 0 | 1 |"]
    for label, k in [("zip -X -r (-6), skill directories", "zip6"), ("zip -X -r -9, skill directories", "zip9"),
                     ("zip -X -r (-6), the pack's entries", "unpacked_zip6"),
                     ("zip -X -r -9, the pack's entries", "unpacked_zip9"),
                     ("zip -X -r -D -9, the pack's entries", "unpacked_zip9D")]:
        z = s[k]
        lines.append(f"| {label} | {z['bytes']:,} | {z['files']} + {z['dirs']} | {ratio(z['bytes'], pack['bytes'])} |")
    lines.append(f"| skb pack --format skill, sum of `.skill` files | {s['skill_files_bytes']:,} | | "
                 f"{ratio(s['skill_files_bytes'], pack['bytes'])} |")
    if have_py:
        for label, k in [("package_skill.py, sum of `.skill` files", "py_size"),
                         ("package_skill.py, validation bypassed", "py_size_all")]:
            p = s[k]
            lines.append(f"| {label} ({p['packaged']} packed, {p['refused']} refused) | {p['bytes']:,} | | "
                         f"{ratio(p['bytes'], pack['bytes'])} |")
    lines.append("")

pack = summary["corpus"]["pack"]
# Contents: the skills' files, not the manifest (which is an entry too).
content, size = pack["content"] - pack["manifest"], pack["bytes"]
v = {k: hf(k) for k in ("verify-signed", "verify-unsigned", "minisign", "unzip-t")}
summary["verify"] = v
ours = v["verify-signed"]
lines += ["### verification of the corpus pack", "",
          f"{size:,} bytes of pack; {content:,} bytes of file contents, plus a manifest of "
          f"{pack['manifest']:,} bytes.", "",
          "| verifier | mean ± σ ms | CPU ms | contents MB/s | pack MB/s | time ratio (peer / skills) |",
          "|---|---:|---:|---:|---:|---:|"]
for label, k in [("`skb verify -p KEY`", "verify-signed"), ("`skb verify --unsigned`", "verify-unsigned"),
                 ("`minisign -Vm` (signature only)", "minisign"), ("`unzip -t -qq` (CRC-32 of every entry)", "unzip-t")]:
    t = v[k]
    lines.append(f"| {label} | {ms(t)} | {t['cpu']:.0f} | {content / t['mean'] / 1e3:.0f} | "
                 f"{size / t['mean'] / 1e3:.0f} | {ratio(t['mean'], ours['mean'])} |")
if have_py:
    t = hf("python-startup")
    summary["python_startup"] = t
    lines += ["", f"Python start-up alone (`$PYTHON -c pass`): {ms(t)} ms; "
              f"× {summary['corpus']['skill_dirs']} skills = {t['mean'] * summary['corpus']['skill_dirs'] / 1e3:.1f} s "
              f"of the once-per-skill loop on the corpus."]
summary["load"] = {"before": open(f"{out}/load-before").read().strip(),
                   "after": open(f"{out}/load-after").read().strip()}
lines += ["", f"load average before / after: {summary['load']['before']} / {summary['load']['after']}"]
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
table = "\n".join(lines)
open(f"{out}/table.md", "w").write(table + "\n")
print()
print(table)
print(f"\nraw results: {out}/")
EOF
