#!/bin/bash
# record_activations.sh CLIENT: one run per name in corpus/CLIENT/activate.txt, into corpus/CLIENT/act/NNN/
# (kimi calls carry args "first second").
c=$1; S=$(cd "$(dirname "$0")" && pwd); cd "${CLIENTS_DIR:-/work/eval/clients}/corpus"
i=0
while IFS= read -r name; do
  i=$((i+1)); d=$(printf '%s/act/%03d' "$c" "$i")
  [ -f "$d/done" ] && continue
  rm -rf "$d"; mkdir -p "$d"; printf '%s' "$name" > "$d/name"
  extra=(); [ "$c" = kimi ] && extra=(--args "first second")
  python3 "$S/run_client.py" "$c" "$c/proj" "$d/home" "$d/log" --call "$name" "${extra[@]}" > "$d/run.txt" 2>&1
  rm -rf "$d/home"; touch "$d/done"
done < "$c/activate.txt"
