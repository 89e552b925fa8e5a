#!/usr/bin/env bash
# What `skb publish`'s browsable pages add to a publication: the same
# inputs published with `--no-html` and with the pages, alternately, each
# into a fresh folder; prints every run's wall and CPU time (user +
# system) and the medians. The figures in BENCHMARKS.md ("Published
# pages") are from the release `skb` over the corpus as
# tests/html/browser_test.py prepares it (a skill of each name, no
# description over 1,024 characters).
#
# Usage: scripts/bench-publish-pages.sh SKB RUNS PATH...
set -euo pipefail
skb=$1 runs=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A wall cpu
for i in $(seq 1 "$runs"); do
  for mode in json html; do
    flag=()
    [ "$mode" = json ] && flag=(--no-html)
    out="$tmp/$mode-$i"
    /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$skb" publish "$@" --out "$out" --release 1.0.0 \
      --profile claude-code "${flag[@]}" >/dev/null 2>&1
    read -r e u s <"$tmp/t"
    c=$(echo "$u + $s" | bc)
    echo "$mode run $i: wall $e s, cpu $c s"
    wall[$mode]+="$e "
    cpu[$mode]+="$c "
    rm -rf "$out"
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for mode in json html; do
  echo "$mode: median wall $(echo "${wall[$mode]}" | median) s, cpu $(echo "${cpu[$mode]}" | median) s"
done
