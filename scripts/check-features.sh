#!/usr/bin/env bash
# `cargo hack --each-feature check`, without installing cargo-hack: every
# publishable crate with no features, with each feature alone, with its
# default features and with all of them, all targets but benches. A feature
# that does not build on its own, or an item used under a `cfg` it is not
# compiled under, fails here.
#
# A crate with no features at all has one feature set, its default, which
# check-packages.sh already checks from the crate's tarball and clippy
# checks with every target in the workspace: it is left out here (skb,
# skills-lsp, skills-macros, skills-rig and skills-supply today; checking
# `skb --tests` under skb's own features alone was a second check of the
# whole test stack, for nothing those two do not see but a test file that
# leans on a feature only another crate's dev-dependencies turn on).
# Usage: bash scripts/check-features.sh   (run by .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
# The workspace's target directory, not one of its own: each feature set of
# a crate is a unit of its own there (features are part of its hash), so
# nothing built by the other steps is overwritten, and every dependency
# whose features come out the same as in clippy's check is reused instead
# of checked again.
python3 - >target/feature-matrix.txt <<'PY'
import json, subprocess
meta = json.loads(subprocess.check_output(
    ["cargo", "metadata", "--format-version", "1", "--no-deps", "--locked"], text=True))
for p in meta["packages"]:
    if p.get("publish") == []:
        continue
    features = sorted(f for f in p["features"] if f != "default")
    if not features:
        continue
    kinds = {k for t in p["targets"] for k in t["kind"]}
    targets = [flag for kind, flag in [("lib", "--lib"), ("proc-macro", "--lib"), ("bin", "--bins"),
                                       ("test", "--tests"), ("example", "--examples")] if kind in kinds]
    targets = sorted(set(targets))
    combos = [["--no-default-features"], []]
    combos += [["--no-default-features", "--features", f] for f in features]
    combos.append(["--all-features"])
    for c in combos:
        print(p["name"], " ".join(targets + c))
PY
while read -r crate flags; do
  echo "== cargo check -p $crate $flags"
  # shellcheck disable=SC2086
  cargo check --quiet -p "$crate" $flags
done <target/feature-matrix.txt
echo "$(wc -l <target/feature-matrix.txt) feature sets checked"
