#!/usr/bin/env bash
# Compares `skills_bundle!` with `include_dir!` on the shared corpus (or any
# tree of skills): build time, compiler memory and binary size.
#
# Usage (from the repository root): bash scripts/bench-embed.sh
#   the README's own example as a new user builds it (its `skills/`, no
#   profile sections, debug only):
#     CORPUS=skills MACRO_ARGS='warnings = "allow"' PROFILE_SECTIONS=none \
#         PROFILES=debug BENCH_DIR=/tmp/skills-bench-embed-user bash scripts/bench-embed.sh
#
# Creates scratch crates under $BENCH_DIR (default /tmp/skills-bench-embed),
# never inside the repository (package `embed_<name>` in directory <name>):
#   skills_bundle     `skills_bundle!` over the corpus (path dependency on this
#                     checkout's skills-bundle; arguments MACRO_ARGS, by
#                     default profile claude-code, warnings allow; the path is
#                     written relative to the crate, as the macro wants);
#   include_dir       `include_dir!` (crates.io include_dir 0.7) over the same
#                     tree, by absolute path: every file of it, skills or not;
#   include_dir_skills `include_dir!` over a copy of exactly the files that
#                     `skills_bundle!` embeds (listed by the first crate's
#                     binary), so the two embed the same bytes;
#   baseline          embeds nothing: growth = size(crate) - size(baseline).
# Each has the workspace's `[profile.*]` sections (none with
# PROFILE_SECTIONS=none: Cargo's defaults, as a new crate has), its own target directory,
# and a `main` that walks every embedded file and reads one, so nothing is
# optimised away. For each crate and profile it measures, in one run:
#   - full clean build: `cargo build` in an empty target directory
#     (dependencies included);
#   - crate-only rebuild: `touch src/main.rs; cargo build`, RUNS times, median
#     (the macros run again each time); also the wall time and peak RSS of the
#     crate's own rustc process, taken by a RUSTC_WRAPPER that runs rustc under
#     `/usr/bin/time -f %M` (the macros run inside that process);
#   - crate-only `cargo check`, RUNS times, median: check(crate) - check(baseline)
#     is the macro plus the front end, build - check is code generation and link;
#   - binary size, as built and after `strip`.
# Then, once: the macro alone, timed outside rustc by a scratch binary that
# depends on skills-compiler and skills-core and compiles in skills-macros'
# glue modules (a proc-macro crate exports nothing else); and (debug) two more crates that split
# the crate-only time: `tracking`, only the macro's `include_bytes!` lines, and
# `expanded`, its whole expansion pasted in with `include!`.
# Profiles (PROFILES, default "debug release debug-narrow release-narrow"):
# `debug` (dev) and `release` as the workspace sets them, and two variants
# passed with `--config`: build-override back to Cargo's opt-level 0, and
# opt-level 3 for only skills-macros, miniz_oxide and sha2 (the crates the
# macro's hot loops run in), so syn and the other build-time crates compile
# fast. Cargo builds proc-macros at opt-level 0 in release unless told.
# Prints a Markdown table with ratios (skills_bundle / include_dir); raw
# results go to $BENCH_DIR/results/.
#
# Environment: CORPUS (../shared/corpus/collections), BENCH_DIR
# (/tmp/skills-bench-embed), RUNS (3), PROFILES (see above), MACRO_ARGS
# (`profile = "claude-code", warnings = "allow"`), PROFILE_SECTIONS
# (workspace | none). Takes about 15 minutes on 2 cores with RUNS=5.
set -euo pipefail

die() { echo "bench-embed: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$root"

CORPUS=${CORPUS:-../shared/corpus/collections}
BENCH_DIR=${BENCH_DIR:-/tmp/skills-bench-embed}
RUNS=${RUNS:-3}
PROFILES=${PROFILES:-debug release debug-narrow release-narrow}
MACRO_ARGS=${MACRO_ARGS-profile = \"claude-code\", warnings = \"allow\"}
PROFILE_SECTIONS=${PROFILE_SECTIONS:-workspace}

(( RUNS >= 1 )) || die "RUNS must be at least 1 (got $RUNS)"
command -v cargo >/dev/null || die "cargo is not on PATH"
command -v python3 >/dev/null || die "python3 is not on PATH"
command -v strip >/dev/null || die "strip is not on PATH (apt-get install -y binutils)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time is missing (apt-get install -y time)"
[[ -d $CORPUS ]] || die "corpus \`$CORPUS\` not found; check out ../shared beside the repository"
corpus=$(cd "$CORPUS" && pwd -P)

mkdir -p "$BENCH_DIR"
BENCH_DIR=$(cd "$BENCH_DIR" && pwd -P)
case $BENCH_DIR/ in
    "$root"/*) die "BENCH_DIR must be outside the repository (got $BENCH_DIR)" ;;
esac
out=$BENCH_DIR/results
rm -rf "$out" "$BENCH_DIR/target" "$BENCH_DIR/include_dir_skills"
mkdir -p "$out"

# The workspace's profile sections, verbatim, or none.
case $PROFILE_SECTIONS in
    workspace)
        profiles=$(awk '/^\[/ { keep = /^\[profile\./ } keep' Cargo.toml)
        [[ -n $profiles ]] || die "no [profile.*] section in Cargo.toml"
        ;;
    none) profiles= ;;
    *) die "PROFILE_SECTIONS must be workspace or none (got $PROFILE_SECTIONS)" ;;
esac
macro_args=${MACRO_ARGS:+, $MACRO_ARGS}

# RUSTC_WRAPPER: Cargo runs it as `wrapper rustc ARGS...`; it appends
# "<crate name> <peak RSS KiB> <wall s>" for every rustc process to $BENCH_RUSTC_LOG.
wrapper=$BENCH_DIR/rustc-wrapper.sh
cat >"$wrapper" <<'EOF'
#!/usr/bin/env bash
name=- prev=
for a in "$@"; do
    [[ $prev == --crate-name ]] && name=$a
    prev=$a
done
exec /usr/bin/time -f "$name %M %e" -a -o "${BENCH_RUSTC_LOG:-/dev/null}" "$@"
EOF
chmod +x "$wrapper"

# new_crate NAME DEPENDENCIES MAIN
new_crate() {
    local dir=$BENCH_DIR/$1
    rm -rf "$dir"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "embed_$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$2

[workspace]

$profiles
EOF
    printf '%s\n' "$3" >"$dir/src/main.rs"
}

rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' \
    "$corpus" "$BENCH_DIR/skills_bundle")

new_crate skills_bundle "skills-bundle = { path = \"$root/skills-bundle\" }" "$(cat <<EOF
//! \`skills_bundle!\` over $corpus.
use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("$rel"$macro_args);

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--list") {
        for skill in SKILLS.skills() {
            for file in skill.files() {
                println!("{}/{}", skill.source_dir(), file.path());
            }
        }
        return;
    }
    let (mut files, mut size, mut stored, mut sum) = (0u64, 0u64, 0u64, 0u64);
    for skill in SKILLS.skills() {
        for file in skill.files() {
            let (bytes, _) = file.stored();
            files += 1;
            size += file.size();
            stored += bytes.len() as u64;
            sum += u64::from(bytes.first().copied().unwrap_or(0));
        }
    }
    let first = SKILLS.skills().next().expect("a skill");
    let md = first.read("SKILL.md").expect("readable");
    println!(
        "skills={} files={files} bytes={size} stored={stored} sum={sum} first={}:{}",
        SKILLS.len(),
        first.name(),
        md.len()
    );
}
EOF
)"

include_dir_main() {
    cat <<EOF
//! \`include_dir!\` over $1.
use include_dir::{Dir, include_dir};

static DIR: Dir<'static> = include_dir!("$1");

fn walk(dir: &Dir<'static>, files: &mut u64, size: &mut u64, sum: &mut u64) {
    for file in dir.files() {
        *files += 1;
        *size += file.contents().len() as u64;
        *sum += u64::from(file.contents().first().copied().unwrap_or(0));
    }
    for sub in dir.dirs() {
        walk(sub, files, size, sum);
    }
}

fn main() {
    let (mut files, mut size, mut sum) = (0u64, 0u64, 0u64);
    walk(&DIR, &mut files, &mut size, &mut sum);
    let first = first_skill_md(&DIR).expect("a SKILL.md");
    println!(
        "files={files} bytes={size} stored={size} sum={sum} first={}:{}",
        first.path().display(),
        first.contents().len()
    );
}

fn first_skill_md(dir: &Dir<'static>) -> Option<&'static include_dir::File<'static>> {
    dir.get_file(dir.path().join("SKILL.md"))
        .or_else(|| dir.dirs().find_map(first_skill_md))
}
EOF
}

new_crate include_dir 'include_dir = "0.7"' "$(include_dir_main "$corpus")"

new_crate baseline "" "$(cat <<'EOF'
//! Embeds nothing: the size and build time every other crate starts from.
fn main() {
    let args = std::env::args().count() as u64;
    println!("files=0 bytes=0 stored=0 sum={args}");
}
EOF
)"

# The skills crate's dependencies at the versions this workspace locks.
cp Cargo.lock "$BENCH_DIR/skills_bundle/Cargo.lock"

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(free -g | awk '/^Mem:/ {print $2}') GiB"
echo "== $(rustc --version); $(cargo --version)"
echo "== corpus: $corpus ($(find "$corpus" -type f | wc -l) files, $(du -sb "$corpus" | cut -f1) bytes)"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cut -d' ' -f1-3 /proc/loadavg >"$out/load-before"

# timed FILE CMD...: "<wall s> <peak RSS KiB of the process tree>" into FILE;
# the command's output goes to FILE.log.
timed() {
    local file=$1; shift
    /usr/bin/time -f '%e %M' -o "$file" "$@" >"$file.log" 2>&1 ||
        die "\`$*\` failed; see $file.log"
}

# measure CRATE PROFILE
measure() {
    local name=$1 prof=$2
    local manifest=$BENCH_DIR/$name/Cargo.toml main=$BENCH_DIR/$name/src/main.rs
    local key=$name.$prof
    local flags=(--manifest-path "$manifest")
    local bindir=debug
    case $prof in
        debug | debug-narrow) ;;
        release | release-narrow) flags+=(--release); bindir=release ;;
        *) die "unknown profile \`$prof\`" ;;
    esac
    if [[ $prof == *-narrow ]]; then
        local p=${bindir/debug/dev} pkg
        flags+=(--config "profile.$p.build-override.opt-level=0")
        for pkg in skills-macros miniz_oxide sha2; do
            flags+=(--config "profile.$p.package.$pkg.opt-level=3")
        done
    fi
    export CARGO_TARGET_DIR=$BENCH_DIR/target/$key RUSTC_WRAPPER=$wrapper
    echo "   $key: full clean build"
    cargo fetch --manifest-path "$manifest" --quiet
    BENCH_RUSTC_LOG=$out/$key.full.rustc timed "$out/$key.full" cargo build "${flags[@]}"
    local i
    for ((i = 1; i <= RUNS; i++)); do
        echo "   $key: crate-only rebuild $i/$RUNS"
        touch "$main"
        BENCH_RUSTC_LOG=$out/$key.build.$i.rustc timed "$out/$key.build.$i" cargo build "${flags[@]}"
    done
    # The dependencies' metadata, untimed.
    cargo check "${flags[@]}" >"$out/$key.check.log" 2>&1 || die "cargo check failed; see $out/$key.check.log"
    for ((i = 1; i <= RUNS; i++)); do
        echo "   $key: crate-only check $i/$RUNS"
        touch "$main"
        BENCH_RUSTC_LOG=$out/$key.check.$i.rustc timed "$out/$key.check.$i" cargo check "${flags[@]}"
    done
    local bin=$CARGO_TARGET_DIR/$bindir/embed_$name
    [[ -x $bin ]] || die "no binary at $bin"
    strip -o "$bin.stripped" "$bin"
    stat -c %s "$bin" >"$out/$key.size"
    stat -c %s "$bin.stripped" >"$out/$key.stripped"
    "$bin" >"$out/$key.run" || die "$bin failed"
    unset CARGO_TARGET_DIR RUSTC_WRAPPER
}

read -ra profile_list <<<"$PROFILES"
for prof in "${profile_list[@]}"; do
    echo "== $prof"
    for name in baseline skills_bundle include_dir include_dir_skills; do
        if [[ $name == include_dir_skills && ! -d $BENCH_DIR/include_dir_skills ]]; then
            # Exactly the files `skills_bundle!` embeds, laid out as in the corpus.
            subset=$BENCH_DIR/skill-files
            rm -rf "$subset"
            "$BENCH_DIR/target/skills_bundle.$prof/${prof%%-*}/embed_skills_bundle" --list >"$out/skill-files.txt"
            python3 - "$corpus" "$subset" "$out/skill-files.txt" <<'EOF'
import os, shutil, sys
src, dst, listing = sys.argv[1:]
for rel in open(listing, encoding="utf-8").read().splitlines():
    os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
    shutil.copy2(os.path.join(src, rel), os.path.join(dst, rel))
EOF
            new_crate include_dir_skills 'include_dir = "0.7"' \
                "$(include_dir_main "$subset")"
        fi
        measure "$name" "$prof"
    done
done

# The macro's own time, outside rustc: a scratch binary depends on
# skills-compiler and skills-core (path dependencies on this checkout) and
# compiles in skills-macros' three glue modules by #[path] (a proc-macro crate
# exports nothing but its macros), then times each phase of one expansion at
# opt-level 3. Internal API: skipped with a message if it no longer compiles.
macro_timing() {
    local dir=$BENCH_DIR/macro_timing
    rm -rf "$dir"
    mkdir -p "$dir/src"
    local deps
    deps=$(python3 - "$root" <<'PY'
import sys, tomllib
root = sys.argv[1]
ws = tomllib.load(open(f"{root}/Cargo.toml", "rb"))["workspace"]["dependencies"]
mac = tomllib.load(open(f"{root}/skills-macros/Cargo.toml", "rb"))["dependencies"]
def toml(v):
    if isinstance(v, str): return f'"{v}"'
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, list): return "[" + ", ".join(toml(x) for x in v) + "]"
    return "{ " + ", ".join(f"{k} = {toml(x)}" for k, x in v.items()) + " }"
for name, spec in mac.items():
    if isinstance(spec, dict) and spec.get("workspace"):
        base = ws[name]
        merged = dict(base) if isinstance(base, dict) else {"version": base}
        features = set(merged.get("features", [])) | set(spec.get("features", []))
        if features:
            merged["features"] = sorted(features)
        if "path" in merged:
            merged["path"] = f"{root}/{merged['path']}"
        spec = merged
    print(f"{name} = {toml(spec)}")
PY
)
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "macro_timing"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$deps

[workspace]

[profile.release]
opt-level = 3
EOF
    cp Cargo.lock "$dir/Cargo.lock"
    local m=$root/skills-macros/src
    cat >"$dir/src/main.rs" <<EOF
#![allow(dead_code, unused_imports, unused_macros)]
#[path = "$m/expand.rs"] mod expand;
#[path = "$m/fallback.rs"] mod fallback;
#[path = "$m/input.rs"] mod input;

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

use skills_compiler::{self as compiler, embed};

fn main() {
    let manifest = PathBuf::from("$BENCH_DIR/skills_bundle");
    let input = proc_macro2::TokenStream::from_str(
        r#"::skills_bundle; "$rel"$macro_args"#,
    ).expect("tokens");
    let args = input::parse(input).map_err(|e| e.message).expect("arguments");
    let roots: Vec<PathBuf> = args.paths.iter().map(|(p, _)| manifest.join(p)).collect();
    let options = compiler::Options { profile: args.profile, lints: args.lints, ..Default::default() };
    let t = Instant::now();
    let checked = compiler::check(&roots, &options);
    let check_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let plan = embed::plan(&checked, &roots, &args.exclude).expect("plan");
    let plan_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let tokens = expand::tables(&args.krate, &plan);
    let tables_s = t.elapsed().as_secs_f64();
    let tables_bytes = tokens.to_string().len();
    let t = Instant::now();
    let all = expand::expand_in(&manifest, &args);
    let total_s = t.elapsed().as_secs_f64();
    let expansion = all.to_string();
    let expansion_bytes = expansion.len();
    if let Some(path) = std::env::args().nth(1) {
        std::fs::write(path, &expansion).expect("write the expansion");
    }
    println!("check_s={check_s} plan_s={plan_s} tables_s={tables_s} total_s={total_s} tables_bytes={tables_bytes} expansion_bytes={expansion_bytes}");
}
EOF
    if ! cargo build --release --manifest-path "$dir/Cargo.toml" >"$out/macro-timing.build.log" 2>&1; then
        echo "   skipped: the harness does not compile (see $out/macro-timing.build.log)"
        return
    fi
    local i
    for ((i = 1; i <= RUNS; i++)); do
        if ! "$dir/target/release/macro_timing" >"$out/macro-timing.$i" 2>"$out/macro-timing.$i.err"; then
            echo "   skipped: the harness failed (see $out/macro-timing.$i.err)"
            rm -f "$out"/macro-timing.[0-9]*
            return
        fi
    done
}
echo "== the macro alone, outside rustc"
macro_timing

# Where the crate-only time goes, in the workspace's dev profile: `tracking`
# holds only the macro's `const _: &[u8] = include_bytes!(..)` lines;
# `expanded` is the macro's whole expansion, written out by the harness above
# and pulled in with `include!` (rustc's work on it, without running the
# macro). Compared with `baseline` and `skills_bundle` (debug).
decompose() {
    local bin=$BENCH_DIR/macro_timing/target/release/macro_timing
    [[ -x $bin && -f $out/macro-timing.1 ]] || { echo "   skipped: no macro harness"; return; }
    "$bin" "$BENCH_DIR/expansion.rs" >/dev/null
    new_crate expanded "skills-bundle = { path = \"$root/skills-bundle\" }" "$(cat <<'EOF'
//! `skills_bundle!`'s expansion, pasted in: rustc's work without the macro.
static SKILLS: skills_bundle::Bundle = include!("../../expansion.rs");

fn main() {
    let files: usize = SKILLS.skills().map(|s| s.files().len()).sum();
    println!("skills={} files={files}", SKILLS.len());
}
EOF
)"
    cp Cargo.lock "$BENCH_DIR/expanded/Cargo.lock"
    new_crate tracking "" "fn main() {}"
    python3 - "$BENCH_DIR/expansion.rs" "$BENCH_DIR/tracking/src/main.rs" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
paths = re.findall(r'include_bytes\s*!\s*\(\s*("(?:[^"\\]|\\.)*")\s*\)', text)
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write("//! Only the `include_bytes!` tracking lines of the expansion.\n")
    for p in paths:
        f.write(f"const _: &[u8] = include_bytes!({p});\n")
    f.write('fn main() {\n    println!("tracked=%d");\n}\n' % len(paths))
PY
    local name i
    for name in tracking expanded; do
        local manifest=$BENCH_DIR/$name/Cargo.toml
        export CARGO_TARGET_DIR=$BENCH_DIR/target/$name.debug RUSTC_WRAPPER=$wrapper
        echo "   $name: build, then crate-only rebuild and check x$RUNS"
        cargo build --manifest-path "$manifest" >"$out/$name.debug.full.log" 2>&1 ||
            die "building $name failed; see $out/$name.debug.full.log"
        cargo check --manifest-path "$manifest" >"$out/$name.debug.check.log" 2>&1 ||
            die "checking $name failed; see $out/$name.debug.check.log"
        for ((i = 1; i <= RUNS; i++)); do
            touch "$BENCH_DIR/$name/src/main.rs"
            BENCH_RUSTC_LOG=$out/$name.debug.build.$i.rustc timed "$out/$name.debug.build.$i" \
                cargo build --manifest-path "$manifest"
            touch "$BENCH_DIR/$name/src/main.rs"
            BENCH_RUSTC_LOG=$out/$name.debug.check.$i.rustc timed "$out/$name.debug.check.$i" \
                cargo check --manifest-path "$manifest"
        done
        "$CARGO_TARGET_DIR/debug/embed_$name" >"$out/$name.debug.run" || die "$name failed"
        unset CARGO_TARGET_DIR RUSTC_WRAPPER
    done
}
if [[ " ${profile_list[*]} " == *" debug "* ]]; then
    echo "== where the crate-only time goes (debug)"
    decompose
fi

echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
cut -d' ' -f1-3 /proc/loadavg >"$out/load-after"

python3 - "$out" "$RUNS" "${profile_list[@]}" <<'EOF'
import json, statistics, sys
out, runs, profiles = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
crates = ["skills_bundle", "include_dir", "include_dir_skills", "baseline"]

def pair(path):
    wall, rss = open(path).read().split()[-2:]
    return float(wall), int(rss)

def rustc(path, crate):
    """(wall s, peak RSS KiB) of the crate's own rustc process."""
    rows = [l.split() for l in open(path) if l.split()[:1] == [crate]]
    return (float(rows[-1][2]), int(rows[-1][1])) if rows else (float("nan"), 0)

def run_line(path):
    return dict(kv.split("=", 1) for kv in open(path).read().split())

summary = {}
for prof in profiles:
    for c in crates:
        k = f"{out}/{c}.{prof}"
        builds = [pair(f"{k}.build.{i}") for i in range(1, runs + 1)]
        checks = [pair(f"{k}.check.{i}") for i in range(1, runs + 1)]
        rb = [rustc(f"{k}.build.{i}.rustc", f"embed_{c}") for i in range(1, runs + 1)]
        rc = [rustc(f"{k}.check.{i}.rustc", f"embed_{c}") for i in range(1, runs + 1)]
        summary[f"{c}.{prof}"] = {
            "full_s": pair(f"{k}.full")[0],
            "build_s": statistics.median(b[0] for b in builds),
            "build_s_all": [b[0] for b in builds],
            "build_rustc_s": statistics.median(r[0] for r in rb),
            "build_peak_kib_cargo_tree": max(b[1] for b in builds),
            "build_peak_kib_rustc": max(r[1] for r in rb),
            "check_s": statistics.median(b[0] for b in checks),
            "check_rustc_s": statistics.median(r[0] for r in rc),
            "check_peak_kib_rustc": max(r[1] for r in rc),
            "size": int(open(f"{k}.size").read()),
            "stripped": int(open(f"{k}.stripped").read()),
            "run": run_line(f"{k}.run"),
        }
summary["load"] = {"before": open(f"{out}/load-before").read().strip(),
                   "after": open(f"{out}/load-after").read().strip()}
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)

def mb(b): return f"{b / 1e6:.2f}"
def ratio(a, b): return f"{a / b:.2f}" if b else "n/a"

lines = []
for prof in profiles:
    s = {c: summary[f"{c}.{prof}"] for c in crates}
    a, b, bs, base = s["skills_bundle"], s["include_dir"], s["include_dir_skills"], s["baseline"]
    lines += [
        f"### {prof}",
        "",
        "| metric | skills_bundle! | include_dir (tree) | ratio | include_dir (skill files) | ratio | baseline |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    def row(label, key, fmt=lambda v: f"{v:.2f}", sub=False):
        va, vb, vbs, vbase = a[key], b[key], bs[key], base[key]
        if sub:
            va, vb, vbs = va - vbase, vb - vbase, vbs - vbase
        lines.append(f"| {label} | {fmt(va)} | {fmt(vb)} | {ratio(va, vb)} | {fmt(vbs)} "
                     f"| {ratio(va, vbs)} | {fmt(vbase) if not sub else '0'} |")
    row("full clean build, s", "full_s")
    row(f"crate-only rebuild (cargo build), s, median of {runs}", "build_s")
    row("  of which the crate's rustc, s", "build_rustc_s")
    row(f"crate-only cargo check, s, median of {runs}", "check_s")
    row("peak RSS of the crate's rustc (build), MiB", "build_peak_kib_rustc", lambda v: f"{v / 1024:.0f}")
    row("peak RSS of the cargo process tree (build), MiB", "build_peak_kib_cargo_tree", lambda v: f"{v / 1024:.0f}")
    row("binary, MB", "size", mb)
    row("binary stripped, MB", "stripped", mb)
    row("growth over baseline, MB", "size", mb, sub=True)
    row("growth over baseline stripped, MB", "stripped", mb, sub=True)
    ra, rb_ = a["run"], b["run"]
    lines += [
        "",
        f"embedded: skills_bundle! {ra.get('skills')} skills, {ra['files']} files, "
        f"{mb(int(ra['bytes']))} MB stored as {mb(int(ra['stored']))} MB; "
        f"include_dir (tree) {rb_['files']} files, {mb(int(rb_['bytes']))} MB; "
        f"include_dir (skill files) {bs['run']['files']} files, {mb(int(bs['run']['bytes']))} MB.",
        f"targets: crate-only rebuild <= include_dir + 1 s: "
        f"{'met' if a['build_s'] <= b['build_s'] + 1 else 'NOT met'} against the tree "
        f"({a['build_s'] - b['build_s']:+.2f} s), "
        f"{'met' if a['build_s'] <= bs['build_s'] + 1 else 'NOT met'} against the skill files "
        f"({a['build_s'] - bs['build_s']:+.2f} s); full clean build <= include_dir + 1 s: "
        f"{'met' if a['full_s'] <= b['full_s'] + 1 else 'NOT met'} "
        f"({a['full_s'] - b['full_s']:+.2f} s); stripped growth <= 40 % of include_dir's: "
        f"{'met' if (a['stripped'] - base['stripped']) <= 0.4 * (b['stripped'] - base['stripped']) else 'NOT met'} "
        f"against the tree ({100 * (a['stripped'] - base['stripped']) / (b['stripped'] - base['stripped']):.0f} %), "
        f"{'met' if (a['stripped'] - base['stripped']) <= 0.4 * (bs['stripped'] - base['stripped']) else 'NOT met'} "
        f"against the skill files ({100 * (a['stripped'] - base['stripped']) / (bs['stripped'] - base['stripped']):.0f} %).",
        "",
    ]
import glob
timings = [run_line(p) for p in sorted(glob.glob(f"{out}/macro-timing.[0-9]*")) if not p.endswith(".err")]
if timings:
    m = {k: statistics.median(float(t[k]) for t in timings) for k in timings[0]}
    summary["macro"] = m
    json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
    lines += [
        f"the macro alone, outside rustc, opt-level 3 (median of {len(timings)}): "
        f"{m['total_s']:.2f} s = discovery and validation {m['check_s']:.2f} s "
        f"+ read, deflate and hash {m['plan_s']:.2f} s + tokens {m['tables_s']:.2f} s "
        f"(+ diagnostics and tracking); the expansion is {m['expansion_bytes'] / 1e6:.1f} MB of source text.",
        "",
    ]
import os
if "debug" in profiles and os.path.exists(f"{out}/expanded.debug.check.1"):
    def med(name, kind):
        return statistics.median(pair(f"{out}/{name}.debug.{kind}.{i}")[0] for i in range(1, runs + 1))
    d = {n: {k: med(n, k) for k in ("check", "build")}
         for n in ("baseline", "tracking", "expanded", "skills_bundle")}
    summary["decomposition_debug"] = d
    json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
    lines += [
        f"### where the crate-only time goes (debug, median of {runs})",
        "",
        "| crate | cargo check, s | cargo build, s |",
        "|---|---:|---:|",
        f"| baseline (nothing) | {d['baseline']['check']:.2f} | {d['baseline']['build']:.2f} |",
        f"| tracking: only the `include_bytes!` lines | {d['tracking']['check']:.2f} | {d['tracking']['build']:.2f} |",
        f"| expanded: the expansion via `include!`, no macro | {d['expanded']['check']:.2f} | {d['expanded']['build']:.2f} |",
        f"| skills_bundle: the macro call | {d['skills_bundle']['check']:.2f} | {d['skills_bundle']['build']:.2f} |",
        "",
    ]
lines.append(f"load average before / after: {summary['load']['before']} / {summary['load']['after']}")
table = "\n".join(lines)
open(f"{out}/table.md", "w").write(table + "\n")
print()
print(table)
print(f"\nraw results: {out}/")
EOF
