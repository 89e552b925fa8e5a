#!/usr/bin/env bash
# `skb` installs beside the crates.io `skills-cli` (a port of Vercel's
# skills CLI, whose binary is `skills`): into one root, without `--force`,
# and both binaries then run. Guards the package and binary names.
#
# Both are debug builds (`cargo install --debug`): what is checked is which
# names Cargo records in the root and refuses to overwrite, which does not
# depend on the profile, and a release build of each (two dependency trees
# compiled with optimisation) was the slowest step of CI. `skb` builds in the
# workspace's target directory, so the debug `skb` CI has already built is
# reused; `skills-cli`, from outside the workspace, builds in a target
# directory of its own in CI's cache of what comes from outside the
# workspace ($SKILLS_CI_CACHE, .ci/run; target/peers when run alone), which
# later runs reuse.
#
#   bash scripts/check-coexists.sh               (run by .ci/run)
#   bash scripts/check-coexists.sh --build-peer  (crates.io's skills-cli
#       alone, built into that cache: .ci/run starts it beside its first
#       steps, at low priority, so that the check itself finds it built)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# No debug info in that build (Cargo's default dev profile has full debug
# info): nobody debugs crates.io's binary here, and debug info is a large
# part of compiling and linking its 230 crates.
cargo install --quiet --locked --debug --config profile.dev.debug=0 \
  --target-dir "${SKILLS_CI_CACHE:-target/peers}/skills-cli" --root "$root" skills-cli@0.7.0
if [ "${1-}" = --build-peer ]; then
  exit 0
fi
cargo install --quiet --locked --debug --root "$root" --path skills-cli
ls "$root/bin"
"$root/bin/skills" --version
"$root/bin/skb" --version
out=$("$root/bin/skb" validate skills)
echo "$out"
case "$out" in
  *"all valid"*) ;;
  *) echo "check-coexists: \`skb validate skills\` did not say all valid" >&2; exit 1 ;;
esac
