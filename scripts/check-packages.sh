#!/usr/bin/env bash
# Checks that the crates publish and work as users will get them:
#   1. `cargo package` every publishable crate, and `cargo check` each one
#      from its own tarball, as Cargo's verification builds it (the other
#      crates of the workspace taken from their tarballs); no source in a
#      tarball names a dev-dependency that packaging drops (a path-only one,
#      such as the workspace's `skills-tests`), so that `cargo test` can
#      compile the published crate;
#   2. a crate outside the workspace that depends on `skills-bundle` from
#      crates.io only, patched (`[patch.crates-io]`) to the unpacked
#      tarballs, builds the README's example over `skills/` and runs it:
#      level 1 (names and descriptions, the catalog, the digest), level 2
#      (activation) and level 3 (a file read), each checked.
# Usage: bash scripts/check-packages.sh   (run by .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
crates=(skills-core skills-compiler skills-macros skills-bundle skills-bundle-mcp skills-rig skills-supply skills-scan skills-install skills-lsp skb)

echo "== cargo package, then each crate checked from its own tarball"
# Tarballs of an earlier run would stand in for the ones being checked.
rm -rf target/package
# The checks below, and the README's crate, are workspaces of their own,
# without the workspace's [profile] sections: under Cargo's default dev
# profile (full debug info, every dependency unoptimised) none of their
# units would be the workspace's. Given the workspace's dev profile (read
# from Cargo.toml, its one home, as `--config` lines), every dependency
# whose features come out as in a workspace build is that build's. What is
# verified does not change: each crate compiles from its tarball alone,
# under its own features. The settings for the workspace's own crates are
# left out: checked from their tarballs they are units of their own, shared
# with nothing, and `opt-level = 3` for skills-scan cost three optimised
# builds of it (206 s of rustc's time, a fifth of the step's).
profile_lines=$(python3 - <<'PY'
import json, re, subprocess, tomllib
meta = json.loads(subprocess.run(
    ["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
    check=True, capture_output=True).stdout)
members = {p["name"] for p in meta["packages"]}
def lines(prefix, table):
    for key, value in table.items():
        if prefix == "profile.dev.package" and key in members:
            continue
        key = key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)
        if isinstance(value, dict):
            yield from lines(f"{prefix}.{key}", value)
        else:
            yield f"{prefix}.{key}={json.dumps(value)}"
with open("Cargo.toml", "rb") as f:
    dev = tomllib.load(f).get("profile", {}).get("dev", {})
for line in lines("profile.dev", dev):
    print("--config")
    print(line)
PY
)
profile=()
[ -z "$profile_lines" ] || mapfile -t profile <<<"$profile_lines"
# `cargo package`'s own verification is a `cargo build` of each tarball (a
# debug build of every dependency under each crate's features: some 170
# compilations, 300 s of CPU on a clean checkout). What a tarball can lack
# (a source file, an `include_str!`'d file, a build script's input, a
# dependency's version or feature in the normalized Cargo.toml) fails
# `cargo check` as it fails `cargo build`: check runs the build scripts and
# the proc-macros, resolves and type-checks every item; what only a build
# adds is code generation and linking, which no file of a tarball changes
# (the same sources are built and linked by the tests' build). So each
# tarball is unpacked and checked instead, as Cargo verifies it: a
# workspace of its own (an empty `[workspace]` appended to its normalized
# Cargo.toml, as Cargo's verification makes it the root of an ephemeral
# one), its default features and targets, the workspace's other crates
# from their tarballs (`[patch.crates-io]`, as Cargo's verification takes
# them from a local registry of the packaged crates), the workspace's
# Cargo.lock (the versions Cargo's verification would lock), and no file of
# the tarball changed by the check (Cargo's verification fails on a build
# script that writes into its source). The README's crate below still
# builds and runs the chain it needs (skills-core, skills-compiler,
# skills-macros, skills-bundle) from the tarballs.
cargo package --workspace --exclude skills-tests --allow-dirty --no-verify --quiet
version=$(cargo pkgid -p skills-bundle | sed 's/.*[#@]//')
for c in "${crates[@]}"; do
  test -f "target/package/$c-$version.crate" || { echo "missing target/package/$c-$version.crate" >&2; exit 1; }
  rm -rf "target/package/$c-$version"
  # `-m`: the files get the time of extraction. `cargo package` gives every
  # file of a tarball the same fixed time (in 2006), and Cargo's fingerprint
  # of a path package compares its files' times with the last check's
  # output: with the tarball's times, a changed tarball would pass as
  # already checked.
  tar -xzmf "target/package/$c-$version.crate" -C target/package
  printf '\n# Added by check-packages.sh: a workspace of its own.\n[workspace]\n' \
    >>"target/package/$c-$version/Cargo.toml"
  [ -f "target/package/$c-$version/Cargo.lock" ] || cp -p Cargo.lock "target/package/$c-$version/Cargo.lock"
done
for c in "${crates[@]}"; do
  dir=target/package/$c-$version
  # Every other library, from its tarball (a patch naming the crate itself,
  # or the binary `skb` that nothing depends on, would be unused).
  patches=()
  for d in "${crates[@]}"; do
    [ "$d" = "$c" ] || [ "$d" = skb ] || patches+=(--config "patch.crates-io.$d.path=\"$root/target/package/$d-$version\"")
  done
  before=$(cd "$dir" && find . -type f ! -name Cargo.lock -print0 | sort -z | xargs -0 sha256sum)
  echo "-- cargo check $c (from $dir)"
  CARGO_TARGET_DIR="$root/target" cargo check "${profile[@]}" "${patches[@]}" --quiet \
    --manifest-path "$dir/Cargo.toml"
  after=$(cd "$dir" && find . -type f ! -name Cargo.lock -print0 | sort -z | xargs -0 sha256sum)
  if [ "$before" != "$after" ]; then
    echo "check-packages: checking $c changed files of its tarball (a build script writing into its source?):" >&2
    diff <(echo "$before") <(echo "$after") >&2 || true
    exit 1
  fi
done

echo "== no packaged source names a dev-dependency that packaging dropped"
# A dev-dependency without a version (`skills-tests`, a path in this
# workspace) is left out of the published Cargo.toml; a test or bench in
# the tarball that still names it does not compile there. Compares each
# crate's dev-dependencies (cargo metadata) with its normalized Cargo.toml
# in target/package/, and reads every `.rs` file the tarball holds. A
# static check, in place of building every tarball's tests (`cargo test
# --no-run` there): seconds instead of minutes on CI's two cores, and it
# sees every crate, not only the one built.
python3 - "$version" "${crates[@]}" <<'PY'
import json, pathlib, re, subprocess, sys, tomllib
version, crates = sys.argv[1], sys.argv[2:]
meta = json.loads(subprocess.run(
    ["cargo", "metadata", "--no-deps", "--format-version", "1", "--offline"],
    check=True, capture_output=True).stdout)
bad = []
for pkg in meta["packages"]:
    if pkg["name"] not in crates:
        continue
    dev = {d.get("rename") or d["name"] for d in pkg["dependencies"] if d["kind"] == "dev"}
    root = pathlib.Path(f"target/package/{pkg['name']}-{version}")
    manifest = tomllib.loads((root / "Cargo.toml").read_text(encoding="utf-8"))
    kept = set(manifest.get("dev-dependencies", {}))
    for table in manifest.get("target", {}).values():
        kept |= set(table.get("dev-dependencies", {}))
    dropped = sorted(dev - kept)
    if not dropped:
        continue
    names = re.compile(r"\b(" + "|".join(re.escape(n.replace("-", "_")) for n in dropped) + r")\b")
    for path in sorted(root.rglob("*.rs")):
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in names.finditer(line):
                bad.append(f"{path}:{n}: `{m.group(1)}`, a dev-dependency `cargo package` drops")
print("\n".join(bad) if bad else f"{len(crates)} crates: none")
sys.exit(1 if bad else 0)
PY

echo "== a new crate depending on the packaged skills-bundle runs the README's example"
user=target/package-user
rm -rf "$user"
mkdir -p "$user/src"
cp -R skills "$user/skills"
cp Cargo.lock "$user/Cargo.lock"
{
  cat <<TOML
[package]
name = "readme-example"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
skills-bundle = "$version"

# For build.rs's `watch`, as the README says.
[build-dependencies]
skills-bundle = "$version"

# Not a member of the skills workspace.
[workspace]

[patch.crates-io]
TOML
  for c in skills-core skills-compiler skills-macros skills-bundle; do
    echo "$c = { path = \"$root/target/package/$c-$version\" }"
  done
} >"$user/Cargo.toml"
# The README's example, as the README has it, with each level's result
# checked before its `Ok(())`.
python3 - "$user/src/main.rs" <<'PY'
import sys
sys.path.insert(0, "scripts")
from readme_example import example
code = example()
checks = """    assert!(act.content.starts_with("Base directory for this skill: skill://calculator"));
    assert!(act.content.contains("15*23"), "{}", act.content);
    assert!(script.starts_with(b"#!/usr/bin/env python3"));
    assert_eq!(SKILLS.len(), 5);
"""
if "    Ok(())\n" not in code:
    sys.exit("the README's example has no `Ok(())` line")
open(sys.argv[1], "w", encoding="utf-8").write(code.replace("    Ok(())\n", checks + "    Ok(())\n"))
PY
python3 scripts/readme_example.py --build-script >"$user/build.rs"
# The workspace's target directory and, as above, its dev profile: its
# dependencies are the workspace build's wherever their features agree
# (the same lock; like the checks above, this crate is a workspace of its
# own); the patched crates are the checks' path packages, built here.
out=$(CARGO_TARGET_DIR="$root/target" cargo run "${profile[@]}" --quiet --manifest-path "$user/Cargo.toml")
echo "$out" | head -3
digest=$(echo "$out" | tail -n 1)
expected=$(cargo run --quiet -p skb -- inspect skills --format json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["digest"])')
if [ "$digest" != "$expected" ]; then
  echo "the packaged crates give digest $digest, \`skb inspect skills\` gives $expected" >&2
  exit 1
fi
echo "digest $digest, as \`skb inspect skills\` reports"

echo "== the README's build.rs rebuilds the crate when a skill file is added"
# Without `watch`, Cargo would not notice a new file and the binary would
# keep the old content and digest.
printf '# Notes\n' >"$user/skills/calculator/NOTES.md"
again=$(CARGO_TARGET_DIR="$root/target" cargo run "${profile[@]}" --quiet --manifest-path "$user/Cargo.toml" | tail -n 1)
if [ "$again" = "$digest" ]; then
  echo "adding skills/calculator/NOTES.md did not rebuild the README's example (digest still $digest)" >&2
  exit 1
fi
echo "digest $again after adding a file"
