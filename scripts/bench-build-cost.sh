#!/usr/bin/env bash
# What a new crate pays to build: the README's `skills_bundle!` example next
# to askama's hello-world template and `include_dir!`, in the same run.
#
# Usage (from the repository root): bash scripts/bench-build-cost.sh
#
# Creates three scratch crates under $BENCH_DIR (default
# /tmp/skills-bench-build), never inside the repository, each as a new user
# writes it (no `[profile]` sections, debug, its own target directory):
#   skills       the README's example over a copy of `skills/`, depending on
#                this checkout's skills-bundle by path;
#   askama       askama's hello world (`#[derive(Template)]` over an inline
#                `Hello, {{ name }}!`), crates.io askama $ASKAMA;
#   include_dir  `include_dir!("$CARGO_MANIFEST_DIR/skills")` over the same
#                copy, crates.io include_dir 0.7, printing every file's path.
# Sources are fetched first, so no timing includes a download. Then, ROUNDS
# times, round robin: `cargo build` into an empty target directory (every
# dependency included), wall time; the median of each crate and the ratios.
# Then, for `skills`: `cargo build --timings` once, from which the script
# prints each unit's rustc time and the critical path (the chain of units,
# each started by the last of its dependencies to finish, that ends at the
# crate); and the incremental rebuild after editing `SKILL.md` (a line
# appended to the calculator's body, then removed), EDITS times, median,
# beside `touch src/main.rs` rebuilds of include_dir (which does not
# rebuild on an edit of an embedded file on stable Rust).
#
# Environment: BENCH_DIR, ROUNDS (3), EDITS (5), ASKAMA (0.16.1),
# CARGO_BUILD_JOBS (unset: every core).
set -euo pipefail

die() { echo "bench-build-cost: $*" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$root"
BENCH_DIR=${BENCH_DIR:-/tmp/skills-bench-build}
ROUNDS=${ROUNDS:-3}
EDITS=${EDITS:-5}
ASKAMA=${ASKAMA:-0.16.1}
(( ROUNDS >= 1 && EDITS >= 1 )) || die "ROUNDS and EDITS must be at least 1"
command -v cargo >/dev/null || die "cargo is not on PATH"
command -v python3 >/dev/null || die "python3 is not on PATH"

mkdir -p "$BENCH_DIR"
BENCH_DIR=$(cd "$BENCH_DIR" && pwd -P)
case $BENCH_DIR/ in
    "$root"/*) die "BENCH_DIR must be outside the repository (got $BENCH_DIR)" ;;
esac
rm -rf "${BENCH_DIR:?}"/{skills,askama,include_dir}

manifest() { # name, dependencies...
    local name=$1; shift
    mkdir -p "$BENCH_DIR/$name/src"
    {
        printf '[package]\nname = "build_%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[workspace]\n\n[dependencies]\n' "$name"
        printf '%s\n' "$@"
    } >"$BENCH_DIR/$name/Cargo.toml"
}

manifest skills "skills-bundle = { path = \"$root/skills-bundle\" }"
cp -R "$root/skills/." "$BENCH_DIR/skills/skills"
python3 scripts/readme_example.py >"$BENCH_DIR/skills/src/main.rs"

manifest askama "askama = \"=$ASKAMA\""
cat >"$BENCH_DIR/askama/src/main.rs" <<'RS'
use askama::Template;

#[derive(Template)]
#[template(source = "Hello, {{ name }}!", ext = "txt")]
struct Hello<'a> {
    name: &'a str,
}

fn main() {
    println!("{}", Hello { name: "world" }.render().unwrap());
}
RS

manifest include_dir 'include_dir = "0.7"'
cp -R "$root/skills/." "$BENCH_DIR/include_dir/skills"
cat >"$BENCH_DIR/include_dir/src/main.rs" <<'RS'
use include_dir::{include_dir, Dir};

static SKILLS: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/skills");

fn walk(dir: &Dir<'_>) {
    for file in dir.files() {
        println!("{} {}", file.path().display(), file.contents().len());
    }
    for sub in dir.dirs() {
        walk(sub);
    }
}

fn main() {
    walk(&SKILLS);
}
RS

crates=(skills askama include_dir)
for c in "${crates[@]}"; do
    (cd "$BENCH_DIR/$c" && cargo fetch --quiet) || die "cannot fetch the sources of $c"
done

now() { python3 -c 'import time; print(time.monotonic())'; }
results=$BENCH_DIR/results.txt
: >"$results"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= ROUNDS; r++)); do
    for c in "${crates[@]}"; do
        rm -rf "$BENCH_DIR/$c/target"
        t0=$(now)
        (cd "$BENCH_DIR/$c" && cargo build --quiet --offline) || die "$c does not build"
        t1=$(now)
        echo "$c $(python3 -c "print(f'{$t1 - $t0:.2f}')")" | tee -a "$results"
    done
done
echo "== load after the clean builds: $(cut -d' ' -f1-3 /proc/loadavg)"

(cd "$BENCH_DIR/skills" && ./target/debug/build_skills >/dev/null) || die "the example does not run"

# One more clean build of `skills` with --timings, for the critical path.
rm -rf "$BENCH_DIR/skills/target"
(cd "$BENCH_DIR/skills" && cargo build --quiet --offline --timings) || die "skills does not build"
timing=$(ls "$BENCH_DIR"/skills/target/cargo-timings/cargo-timing.html)

# Incremental rebuilds after an edit of an embedded file.
skill_md=$BENCH_DIR/skills/skills/calculator/SKILL.md
cp "$skill_md" "$BENCH_DIR/SKILL.md.orig"
for ((e = 1; e <= EDITS; e++)); do
    if ((e % 2)); then printf '\nEdited %d.\n' "$e" >>"$skill_md"; else cp "$BENCH_DIR/SKILL.md.orig" "$skill_md"; fi
    t0=$(now)
    (cd "$BENCH_DIR/skills" && cargo build --quiet --offline) || die "skills does not rebuild"
    t1=$(now)
    echo "edit-skills $(python3 -c "print(f'{$t1 - $t0:.3f}')")" | tee -a "$results"
    touch "$BENCH_DIR/include_dir/src/main.rs"
    t0=$(now)
    (cd "$BENCH_DIR/include_dir" && cargo build --quiet --offline) || die "include_dir does not rebuild"
    t1=$(now)
    echo "touch-include_dir $(python3 -c "print(f'{$t1 - $t0:.3f}')")" | tee -a "$results"
done
cp "$BENCH_DIR/SKILL.md.orig" "$skill_md"
echo "== load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" "$timing" <<'PY'
import json, re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, value = line.split()
    rows.setdefault(name, []).append(float(value))
med = {k: statistics.median(v) for k, v in rows.items()}
print()
print("| crate | clean debug build, median (s) | runs | ratio to askama | ratio to include_dir |")
print("|---|---:|---|---:|---:|")
for c in ("skills", "askama", "include_dir"):
    runs = ", ".join(f"{x:.2f}" for x in rows[c])
    print(f"| {c} | {med[c]:.2f} | {runs} | {med[c] / med['askama']:.2f} | {med[c] / med['include_dir']:.2f} |")
print()
print(f"incremental rebuild after editing SKILL.md: median {med['edit-skills']:.3f} s "
      f"({', '.join(f'{x:.3f}' for x in rows['edit-skills'])}); "
      f"include_dir after touching main.rs: {med['touch-include_dir']:.3f} s")

html = open(sys.argv[2], encoding="utf-8").read()
m = re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S)
units = json.loads(m.group(1))
by_index = {u["i"]: u for u in units}
unblocked_by = {}
def ready(u, rmeta):
    # An rmeta unblock happens when the front end is done.
    if rmeta and u.get("sections"):
        for name, span in u["sections"]:
            if name == "frontend":
                return u["start"] + span["end"]
    return u["start"] + u["duration"]
for u in units:
    for j in u.get("unblocked_units", []):
        unblocked_by.setdefault(j, []).append((u, ready(u, False)))
    for j in u.get("unblocked_rmeta_units", []):
        unblocked_by.setdefault(j, []).append((u, ready(u, True)))
def label(u):
    kind = u["target"].strip()
    return f"{u['name']} {u['version']}{' ' + kind if kind else ''}"
# What gated the crate: from the last unit back, the dependency whose
# finishing unblocked each one (cargo records only that one), and how long
# each then waited for a free core. On 2 cores the build is bound by the
# sum of rustc time more than by any chain.
last = max(units, key=lambda u: u["start"] + u["duration"])
gates = [(last, None)]
while gates[-1][0]["i"] in unblocked_by:
    gates.append(max(unblocked_by[gates[-1][0]["i"]], key=lambda p: p[1]))
print()
print(f"`skills` clean build with --timings: {last['start'] + last['duration']:.2f} s wall, "
      f"{sum(u['duration'] for u in units):.2f} s of rustc time in {len(units)} units "
      f"(ours: {sum(u['duration'] for u in units if u['name'].startswith('skills-')):.2f} s).")
print()
print("| unit, each unblocked by the one above | starts at (s) | rustc time (s) | waited for a core (s) |")
print("|---|---:|---:|---:|")
rows = list(reversed(gates))
for k, (u, _) in enumerate(rows):
    ready = rows[k - 1][1] if k else None
    waited = "" if ready is None else f"{max(0.0, u['start'] - ready):.2f}"
    print(f"| {label(u)} | {u['start']:.2f} | {u['duration']:.2f} | {waited} |")
print()
print("every unit, longest first:")
print()
print("| unit | rustc time (s) |")
print("|---|---:|")
for u in sorted(units, key=lambda u: -u["duration"]):
    print(f"| {label(u)} | {u['duration']:.2f} |")
PY
