#!/usr/bin/env bash
# `skb` installs beside the crates.io `skills-cli` (a port of Vercel's
# skills CLI, whose binary is `skills`): into one root, without `--force`,
# and both binaries then run. Guards the package and binary names.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
cargo install --quiet --locked --root "$root" skills-cli@0.7.0
cargo install --quiet --locked --root "$root" --path skills-cli
ls "$root/bin"
"$root/bin/skills" --version
"$root/bin/skb" --version
out=$("$root/bin/skb" validate skills)
echo "$out"
case "$out" in
  *"all valid"*) ;;
  *) echo "check-coexists: \`skb validate skills\` did not say all valid" >&2; exit 1 ;;
esac
