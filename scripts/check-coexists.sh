#!/usr/bin/env bash
# `skb` installs beside the crates.io `skills-cli` (a port of Vercel's
# skills CLI, whose binary is `skills`) into one root without `--force`. Guards the package and binary names: what Cargo refuses
# to overwrite is decided from the names it records in the root
# (`.crates.toml`, `.crates2.json`) and the binaries in `bin/`.
#
# `skb` is installed for real (`cargo install --debug --path`, in the
# workspace's target directory, so the debug `skb` CI has already built is
# reused), and then runs. crates.io's `skills-cli` is not built: Cargo's
# `--dry-run` (unstable, so nightly with `-Z unstable-options`) resolves the
# package, reads its binaries and makes every check of a real install,
# conflicts with the root's records included, then stops before compiling.
# A real install of it compiled 231 crates (180 s of CPU on CI's two cores)
# to learn one name. That the dry run refuses a clash is checked here too: a
# root that already holds a binary `skills` of another package must make it
# fail, or this check proves nothing. One order is enough: a clash is two
# packages claiming one binary name in one root, whichever came first.
#
#   bash scripts/check-coexists.sh               (run by .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo +nightly --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
peer=(skills-cli@0.7.0)
dry_run() { # root: would crates.io's skills-cli install there without --force?
  cargo +nightly install -Z unstable-options --dry-run --quiet --locked --debug --root "$1" "${peer[@]}"
}

# The dry run must refuse a root where `skills` belongs to another package.
mkdir -p "$work/clash/src"
printf '[package]\nname = "clash"\nversion = "0.0.0"\nedition = "2021"\n[[bin]]\nname = "skills"\npath = "src/main.rs"\n[workspace]\n' >"$work/clash/Cargo.toml"
echo 'fn main() {}' >"$work/clash/src/main.rs"
cargo install --quiet --debug --root "$work/clash-root" --path "$work/clash" --target-dir "$work/clash-target"
if dry_run "$work/clash-root" 2>"$work/clash.err"; then
  echo "check-coexists: cargo install --dry-run of ${peer[*]} accepted a root whose \`skills\` is another package's: it cannot tell a clash" >&2
  exit 1
fi
grep -q 'already exists' "$work/clash.err" || {
  cat "$work/clash.err" >&2
  echo "check-coexists: the dry run failed for another reason than the clash" >&2
  exit 1
}

# skb first, for real; then crates.io's skills-cli into the same root.
root=$work/root
cargo install --quiet --locked --debug --root "$root" --path skills-cli
ls "$root/bin"
"$root/bin/skb" --version
out=$("$root/bin/skb" validate skills)
echo "$out"
case "$out" in
  *"all valid"*) ;;
  *) echo "check-coexists: \`skb validate skills\` did not say all valid" >&2; exit 1 ;;
esac
dry_run "$root"
echo "check-coexists: ${peer[*]} would install beside skb without --force"

