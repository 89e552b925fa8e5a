#!/usr/bin/env bash
# `skb outdated` on the 454 shared corpus skills locked from a well-known
# index served on 127.0.0.1 (BENCHMARKS.md, "Checking for updates"): the
# time (hyperfine, median), and that nothing is written anywhere (every file
# of the project and of the home folder hashed before and after). With
# BASELINE=<an older skb>, both in the same run. A benchmark, not a test.
#
# The index format lists each name once and descriptions of at most 1,024
# characters, so the corpus is copied first with its six repeated names
# renamed (`access-2`, ...) and its two longer descriptions cut: the copy
# is still 454 skills.
#
# Needs: cargo, python3, hyperfine. Usage: bash scripts/bench-outdated.sh
#   (SKB=<a built skb> skips the release build; RUNS, default 30; PORT).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${CORPUS:-$ROOT/../shared/corpus/collections}
RUNS=${RUNS:-30}
PORT=${PORT:-8791}
for need in python3 hyperfine; do
  command -v "$need" >/dev/null || { echo "missing: $need" >&2; exit 2; }
done
[ -d "$CORPUS" ] || { echo "missing: the corpus at $CORPUS (../shared)" >&2; exit 2; }
if [ -z "${SKB:-}" ]; then
  (cd "$ROOT" && cargo build --release -p skb --quiet)
  SKB=$ROOT/target/release/skb
fi

WORK=$(mktemp -d)
trap 'kill "${SERVER:-0}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
cp -r "$CORPUS" "$WORK/corpus"
python3 - "$WORK/corpus" <<'EOF'
import collections, os, re, sys
seen = collections.Counter()
paths = sorted(os.path.join(r, "SKILL.md") for r, _, f in os.walk(sys.argv[1]) if "SKILL.md" in f)
for p in paths:
    s = open(p, encoding="utf-8").read()
    m = re.search(r"^name:\s*(.*)$", s, re.M)
    if not m:
        continue
    name = m.group(1).strip()
    seen[name] += 1
    if seen[name] > 1:
        new = re.sub(r"[^a-z0-9-]", "-", name.lower()).strip("-") + f"-{seen[name]}"
        s = s[: m.start()] + f"name: {new}" + s[m.end():]
        d = os.path.dirname(p)
        os.rename(d, os.path.join(os.path.dirname(d), new))
        p = os.path.join(os.path.dirname(d), new, "SKILL.md")
    # A description over 1,000 characters, folded onto one quoted line.
    end = s.index("\n---", 4)
    lines, out, i = s[:end].split("\n"), [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("description:"):
            j = i + 1
            while j < len(lines) and (lines[j].startswith(" ") or lines[j] == ""):
                j += 1
            value = " ".join(x.strip() for x in [line[12:]] + lines[i + 1 : j]).strip()
            if len(value) > 1000:
                value = value.lstrip(">|").strip().strip("\"'")[:1000].replace('"', "'")
                out.append(f'description: "{value}"')
                i = j
                continue
        out.append(line)
        i += 1
    open(p, "w", encoding="utf-8").write("\n".join(out) + s[end:])
EOF
# Diagnostics (the corpus's warnings) to a file, shown when a step fails.
quiet() { "$@" 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }; }
quiet "$SKB" publish --out "$WORK/site" --release 1.0.0 --profile claude-code "$WORK"/corpus/* | tail -1
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$WORK/site" >/dev/null 2>&1 &
SERVER=$!
sleep 1
mkdir -p "$WORK/p" "$WORK/home"
cd "$WORK/p"
export HOME=$WORK/home
unset XDG_CONFIG_HOME XDG_CACHE_HOME
quiet "$SKB" add "http://127.0.0.1:$PORT" --client claude-code --allow-unsigned --profile claude-code | tail -1
hash_all() { find "$WORK/p" "$WORK/home" -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum; }
before=$(hash_all)
"$SKB" outdated | tail -1
commands=("$SKB outdated")
[ -n "${BASELINE:-}" ] && commands+=("$BASELINE outdated")
hyperfine -N --warmup 3 --runs "$RUNS" --export-json "$WORK/hf.json" "${commands[@]}" >/dev/null
python3 - "$WORK/hf.json" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['command']}: median {r['median'] * 1000:.1f} ms (min {r['min'] * 1000:.1f}, max {r['max'] * 1000:.1f}, {len(r['times'])} runs)")
EOF
after=$(hash_all)
if [ "$before" = "$after" ]; then
  echo "nothing written: the project and the home folder hash the same before and after"
else
  echo "WRITTEN: the project or the home folder changed" >&2
  exit 1
fi
