#!/usr/bin/env bash
# Time from an edit to the diagnostics of `skb lsp`, as Neovim (headless)
# sees it: the largest SKILL.md of ../shared/corpus (or $1) opened, then 20
# edits (a character appended to the last line), each timed from the change
# to the publishDiagnostics of that version; prints each and the median.
# The server runs with --debounce 0 and Neovim sends each change at once:
# the server's default debounce (200 ms) and Neovim 0.7's own (150 ms,
# `debounce_text_changes`) come on top of the figure.
#   bash scripts/bench-lsp.sh [SKILL.md] [skb binary, default target/release/skb]
#   LSP_ARGS=--no-scan bash scripts/bench-lsp.sh    # the validator's part alone
set -euo pipefail
cd "$(dirname "$0")/.."
skill_md=${1:-$(find ../shared/corpus -name SKILL.md -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2-)}
skb=${2:-target/release/skb}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
SKB=$(realpath "$skb") SKILL_MD=$(realpath "$skill_md") OUT=$out EDITS=${EDITS:-20} BENCH=1 \
  nvim --headless -u NONE -i NONE -c "luafile tests/lsp/neovim.lua" </dev/null
python3 - "$out" "$skill_md" <<'PY'
import json, statistics, sys, os
r = json.load(open(sys.argv[1]))
if r["errors"]:
    sys.exit("bench-lsp: " + "; ".join(r["errors"]))
ms = r["edit_ms"]
print(f"{sys.argv[2]} ({os.path.getsize(sys.argv[2]):,} bytes), {len(r['before'])} diagnostics")
print("edits (ms):", " ".join(f"{m:.1f}" for m in ms))
print(f"median {statistics.median(ms):.1f} ms, min {min(ms):.1f}, max {max(ms):.1f}")
PY
