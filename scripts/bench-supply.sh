#!/usr/bin/env bash
# Benchmarks of installing and verifying skills (BENCHMARKS.md, "Installing
# and verifying"): `skb add` / `skb install --frozen` from a git repository
# and from a published index against Vercel's `skills` CLI on the same
# source, `skb verify --installed` against `sha256sum` over the same files,
# and `skb push` / `skb pull` against the ORAS Python SDK on the same
# registry. A benchmark, not a test: CI's test step does not run it.
#
# Needs (what CI installs, plus the peers):
#   cargo (builds target/release/skb), git (with `git daemon`), python3,
#   coreutils (sha256sum), /usr/bin/docker-registry
#     (`apt-get install -y docker-registry`),
#   Vercel's CLI: `npm install -g skills@1.5.18` (node >= 18),
#   the ORAS SDK: `pip install oras==0.2.43`.
# Everything runs on 127.0.0.1 in a temporary folder, removed at the end.
#
# Usage: bash scripts/bench-supply.sh
#   RUNS (default 10) timed runs of each quick command, PEER_RUNS (default 3)
#   of each Vercel run from git (about 15 s each), INDEX_PEER_RUNS (default 1)
#   of Vercel from the index (about 2 min), FROZEN_GIT_N (default "all", or
#   numbers of skills): the lock sizes for `install --frozen` from git,
#   PARTS (default "git index verify oci"; oci needs index): the sections
#   run. skb's git cache is $W/cache (XDG_CACHE_HOME): a "cold" row empties
#   it before each run, a "warm" row keeps what the warm-up run fetched.
#   SKB (default: this checkout's release build, built first): the `skb`
#   binary measured, to compare two builds in one session.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-10}
PEER_RUNS=${PEER_RUNS:-3}
INDEX_PEER_RUNS=${INDEX_PEER_RUNS:-1}
FROZEN_GIT_N=${FROZEN_GIT_N:-"all"}
PARTS=${PARTS:-"git index verify oci"}
part() { case " $PARTS " in *" $1 "*) return 0;; esac; return 1; }
CORPUS=${CORPUS:-$ROOT/../shared/corpus/collections}
TIME="python3 $ROOT/scripts/bench_supply_time.py"
ORAS="python3 $ROOT/scripts/bench_supply_oras.py"
export DISABLE_TELEMETRY=1 DO_NOT_TRACK=1 GIT_TERMINAL_PROMPT=0

for need in git sha256sum python3 skills $(part oci && echo /usr/bin/docker-registry); do
  command -v "$need" >/dev/null || { echo "missing: $need (see the top of $0)" >&2; exit 2; }
done
if part oci; then
  python3 -c 'import oras.client' 2>/dev/null || { echo "missing: the ORAS SDK (pip install oras==0.2.43)" >&2; exit 2; }
fi
[ -d "$CORPUS" ] || { echo "missing: the corpus at $CORPUS (../shared)" >&2; exit 2; }

if [ -z "${SKB:-}" ]; then
  (cd "$ROOT" && cargo build --release -p skb --quiet)
  SKB=${CARGO_TARGET_DIR:-$ROOT/target}/release/skb
fi

W=$(mktemp -d)
export XDG_CACHE_HOME=$W/cache
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$W"
}
trap cleanup EXIT
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
commit() { git -c user.name=bench -c user.email=bench@localhost commit -qm "$1"; }
# Runs a setup command with its output in $W/setup.log, shown if it fails.
quiet() { "$@" > "$W/setup.log" 2>&1 || { cat "$W/setup.log" >&2; return 1; }; }

echo "== machine"
echo "cores: $(nproc); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "kernel: $(uname -r); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "skb: $($SKB --version) at $(cd "$ROOT" && git rev-parse --short HEAD)"
echo "skills (Vercel): $(skills --version 2>/dev/null | tail -1); node $(node --version)"
if part oci; then
  echo "oras (Python SDK): $(python3 -c 'import importlib.metadata as m; print(m.version("oras"))'); $(python3 --version)"
  echo "$(/usr/bin/docker-registry --version 2>&1 | head -1)"
fi
echo "$(git --version)"

# The corpus as one git repository. Six skills share a folder name with
# another collection's (access, configure x2, frontend-design,
# skill-creator); both installers keep one of each, so they are renamed
# NAME-2, NAME-3 (folder and `name:`) to install all 454.
echo "== corpus repository"
cp -r "$CORPUS" "$W/repo"
(
  cd "$W/repo"
  : > "$W/seen"
  find . -name SKILL.md | sort | while read -r f; do
    d=$(dirname "$f"); n=$(basename "$d")
    c=$(grep -cx "$n" "$W/seen" || true)
    echo "$n" >> "$W/seen"
    if [ "$c" -gt 0 ]; then
      new="$n-$((c + 1))"
      sed -i "0,/^name: *$n *\$/s//name: $new/" "$f"
      mv "$d" "$(dirname "$d")/$new"
    fi
  done
  git init -q && git add -A && commit corpus
  touch .git/git-daemon-export-ok
  echo "$(find . -name SKILL.md -not -path './.git/*' | wc -l) skills, $(git ls-files | wc -l) files, $(du -sh --exclude=.git . | cut -f1)"
)
GIT_PORT=$(free_port)
git daemon --reuseaddr --base-path="$W" --export-all --listen=127.0.0.1 --port="$GIT_PORT" "$W" \
  > "$W/git-daemon.log" 2>&1 &
PIDS+=($!)
GIT_SRC=git://127.0.0.1:$GIT_PORT/repo
for _ in $(seq 50); do git ls-remote "$GIT_SRC" >/dev/null 2>&1 && break; sleep 0.1; done

# One agent folder each: claude-code for skb, `--agent claude-code --copy`
# for Vercel (copies, as skb writes, not symlinks into .agents/skills).
VERCEL_ADD="skills add SRC -y --skill '*' --agent claude-code --copy"
fresh() { echo "rm -rf $1 && mkdir -p $1 && cd $1 && git init -q"; }

if part git; then
echo "== git source: $GIT_SRC (454 skills)"
$TIME "skb add, git, 454, cold cache" "$RUNS" 1 "$(fresh "$W/sa") && rm -rf $W/cache" \
  "cd $W/sa && $SKB add $GIT_SRC --allow-unsigned --client claude-code --profile claude-code"
$TIME "skb add, git, 454, warm cache" "$RUNS" 1 "$(fresh "$W/sa")" \
  "cd $W/sa && $SKB add $GIT_SRC --allow-unsigned --client claude-code --profile claude-code"
$TIME "vercel add, git, 454" "$PEER_RUNS" 0 "$(fresh "$W/va")" \
  "cd $W/va && ${VERCEL_ADD/SRC/$GIT_SRC} && test \$(ls .claude/skills | wc -l) -eq 454"
echo "vercel experimental_install (restore from skills-lock.json), git, fresh folder:"
rm -rf "$W/vi" && mkdir "$W/vi" && cp "$W/va/skills-lock.json" "$W/vi/"
(cd "$W/vi" && skills experimental_install -y < /dev/null 2>&1 | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' \
  | grep -m1 -i 'failed to clone' || true; echo "  installed: $(find . -name SKILL.md | wc -l)")

# `skb install --frozen` from git, in a fresh clone of a project whose lock
# pins N skills of one commit (one checkout, one validation): with the git
# cache empty (the first install on a machine), and with the commit in it
# (every later one: another clone, another project, CI with the cache kept).
for n in $FROZEN_GIT_N; do
  if [ "$n" = all ]; then
    # Every skill: the lock of a project that added the whole repository.
    names="'*'"; picks=""
  else
    names=$(find "$W/repo" -name SKILL.md -not -path '*/.git/*' | xargs -n1 dirname | xargs -n1 basename | sort | head -n "$n")
    picks=$(for s in $names; do printf -- ' --skill %s' "$s"; done)
  fi
  (eval "$(fresh "$W/gp$n")" && quiet $SKB add "$GIT_SRC" $picks --allow-unsigned --client claude-code \
    --profile claude-code && git add skb.lock && commit lock)
  $TIME "skb install --frozen, git, $n, cold cache" "$RUNS" 1 \
    "rm -rf $W/gc$n $W/cache && git clone -q $W/gp$n $W/gc$n" \
    "cd $W/gc$n && $SKB install --frozen --profile claude-code"
  $TIME "skb install --frozen, git, $n, warm cache" "$RUNS" 1 "rm -rf $W/gc$n && git clone -q $W/gp$n $W/gc$n" \
    "cd $W/gc$n && $SKB install --frozen --profile claude-code"
  $TIME "vercel add, git, $n" "$PEER_RUNS" 0 "$(fresh "$W/vn")" \
    "cd $W/vn && skills add $GIT_SRC -y --skill $(echo $names) --agent claude-code --copy"
done
fi

if part index; then
echo "== index source (skb publish, signed, served by python3 -m http.server)"
"$SKB" keygen -W -p "$W/a.pub" -s "$W/a.key" > /dev/null
find "$W/repo" -name SKILL.md -not -path '*/.git/*' | xargs -n1 dirname | sort > "$W/dirs"
# publish refuses a skill whose description passes 1,024 characters (two
# in the corpus): drop the skill it names and publish again.
for _ in $(seq 20); do
  rm -rf "$W/site"
  if out=$("$SKB" publish $(cat "$W/dirs") --out "$W/site" --release 1.0.0 --sign "$W/a.key" \
    --profile claude-code 2>&1); then break; fi
  name=$(echo "$out" | sed -n 's/.*cannot publish `\([^`]*\)`.*/\1/p' | head -1)
  [ -n "$name" ] || { echo "$out" >&2; exit 1; }
  echo "publish refuses $name: dropped"
  grep -v "/$name\$" "$W/dirs" > "$W/dirs.new" && mv "$W/dirs.new" "$W/dirs"
done
N_INDEX=$(wc -l < "$W/dirs")
HTTP_PORT=$(free_port)
python3 -m http.server --bind 127.0.0.1 "$HTTP_PORT" --directory "$W/site" > "$W/http.log" 2>&1 &
PIDS+=($!)
IDX_SRC=http://127.0.0.1:$HTTP_PORT
for _ in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('$IDX_SRC/')" 2>/dev/null && break; sleep 0.1; done
echo "$N_INDEX skills at $IDX_SRC"
(eval "$(fresh "$W/ip")" && quiet $SKB add "$IDX_SRC" --pubkey "$W/a.pub" --client claude-code \
  --profile claude-code && git add skb.lock && commit lock)
$TIME "skb add, index, $N_INDEX" "$RUNS" 1 "$(fresh "$W/sb")" \
  "cd $W/sb && $SKB add $IDX_SRC --pubkey $W/a.pub --client claude-code --profile claude-code"
$TIME "skb install --frozen, index, $N_INDEX" "$RUNS" 1 "rm -rf $W/ic && git clone -q $W/ip $W/ic" \
  "cd $W/ic && $SKB install --frozen --pubkey $W/a.pub --profile claude-code && test \$(ls .claude/skills | wc -l) -eq $N_INDEX"
$TIME "vercel add, index, $N_INDEX" "$INDEX_PEER_RUNS" 0 "$(fresh "$W/vb")" \
  "cd $W/vb && ${VERCEL_ADD/SRC/$IDX_SRC}"
echo "  vercel installed $(ls "$W/vb/.claude/skills" | wc -l) of $N_INDEX"
echo "vercel experimental_install, index, fresh folder:"
rm -rf "$W/vj" && mkdir "$W/vj" && cp "$W/vb/skills-lock.json" "$W/vj/"
(cd "$W/vj" && skills experimental_install -y < /dev/null 2>&1 | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g' \
  | grep -m1 -i 'failed to clone' || true; echo "  installed: $(find . -name SKILL.md | wc -l)")

fi

if part verify; then
echo "== verify --installed (454 skills x claude-code, codex, gemini-cli)"
(eval "$(fresh "$W/v")" && quiet $SKB add "$W/repo" --client claude-code --client codex --client gemini-cli \
  --profile claude-code)
(cd "$W/v" && $SKB verify --installed \
  && echo "folders: $(find .claude/skills .agents/skills .gemini/skills -mindepth 1 -maxdepth 1 -type d | wc -l)")
$TIME "skb verify --installed" $((RUNS * 2)) 3 "" "cd $W/v && $SKB verify --installed"
$TIME "sha256sum, same files" $((RUNS * 2)) 3 "" \
  "cd $W/v && find .claude/skills .agents/skills .gemini/skills -type f -print0 | xargs -0 sha256sum > /dev/null"

fi

if part oci; then
echo "== push / pull of the corpus pack (docker-registry on 127.0.0.1)"
REG_PORT=$(free_port)
mkdir -p "$W/registry"
cat > "$W/registry/config.yml" <<EOF
version: 0.1
log:
  level: error
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $W/registry/storage
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$REG_PORT
  secret: bench-supply
EOF
/usr/bin/docker-registry serve "$W/registry/config.yml" > "$W/registry/log" 2>&1 &
PIDS+=($!)
REG=127.0.0.1:$REG_PORT
for _ in $(seq 100); do python3 -c "import urllib.request; urllib.request.urlopen('http://$REG/v2/')" 2>/dev/null && break; sleep 0.1; done
quiet "$SKB" pack $(cat "$W/dirs") -o "$W/corpus.skillpack" --sign "$W/a.key" --release 1.0.0 --profile claude-code
echo "pack: $(stat -c %s "$W/corpus.skillpack") bytes, $N_INDEX skills"
# A new repository per run, so no run finds its blobs already there.
$TIME "skb push" "$RUNS" 1 "" "$SKB push $W/corpus.skillpack oci://$REG/bench/skb{i}:1.0.0"
$TIME "oras push (process)" "$RUNS" 1 "" "$ORAS push $REG bench/oras{i}:1.0.0 $W/corpus.skillpack"
$TIME "skb pull" "$RUNS" 1 "rm -f $W/pulled.skillpack" "$SKB pull oci://$REG/bench/skb0:1.0.0 -o $W/pulled.skillpack"
$TIME "oras pull (process)" "$RUNS" 1 "rm -rf $W/orasout" "$ORAS pull $REG bench/oras0:1.0.0 $W/orasout"
echo "oras in-process (the SDK call alone), 5 runs each:"
for i in 1 2 3 4 5; do $ORAS push "$REG" "bench/orasip$i:1.0.0" "$W/corpus.skillpack"; done | sort -t' ' -k2 -n | sed -n 3p | sed 's/^/  push median: /'
for i in 1 2 3 4 5; do rm -rf "$W/orasout"; $ORAS pull "$REG" bench/oras0:1.0.0 "$W/orasout"; done | sort -t' ' -k2 -n | sed -n 3p | sed 's/^/  pull median: /'
fi
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
