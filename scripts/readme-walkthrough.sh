#!/usr/bin/env bash
# Runs the README's install walkthrough (the `sh` block under "Install signed
# skills into every client") exactly as written, in a temporary folder, with
# the two servers it names started first: a static site on 127.0.0.1:8737
# (python3 -m http.server) and a registry on 127.0.0.1:5737 (Debian's
# `docker-registry`, CNCF distribution). Fails on the first command that
# fails (each `!` line must fail).
# Usage: bash scripts/readme-walkthrough.sh   (run by .ci/run; needs python3,
# git, docker-registry; builds skb)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cargo build -q -p skb
export PATH="$root/target/debug:$PATH"
registry=${SKILLS_DOCKER_REGISTRY:-$(command -v docker-registry || echo /usr/bin/docker-registry)}
[ -x "$registry" ] || { echo "readme-walkthrough: docker-registry is missing (apt-get install docker-registry)" >&2; exit 1; }

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

python3 - "$root/README.md" >"$work/walkthrough.sh" <<'PY'
import re, sys
readme = open(sys.argv[1], encoding="utf-8").read()
section = readme.split("## Install signed skills into every client", 1)[1]
print(re.search(r"```sh\n(.*?)```", section, re.S).group(1))
PY

cp -R skills "$work/skills"
mkdir -p "$work/site" "$work/registry"
cat >"$work/registry/config.yml" <<YAML
version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: $work/registry/data
http:
  addr: 127.0.0.1:5737
YAML
"$registry" serve "$work/registry/config.yml" >"$work/registry/log" 2>&1 &
pids+=($!)
python3 -m http.server 8737 --bind 127.0.0.1 --directory "$work/site" >/dev/null 2>&1 &
pids+=($!)
for port in 5737 8737; do
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
  done
done

cd "$work"
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME"
git config --global user.name readme >/dev/null 2>&1 || true
git config --global user.email readme@example.invalid
git config --global init.defaultBranch main
echo "== the README's walkthrough"
bash -euo pipefail -x walkthrough.sh
echo "readme-walkthrough: ok"
