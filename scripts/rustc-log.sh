#!/usr/bin/env bash
# A RUSTC_WRAPPER that logs every compilation Cargo starts, for counting how
# often CI compiles each crate (BENCHMARKS.md, "Where CI's time goes"):
#
#   RUSTC_LOG_FILE=/tmp/rustc.log RUSTC_WRAPPER=$PWD/scripts/rustc-log.sh bash .ci/run
#
# One tab-separated line per compilation: start and end (epoch seconds),
# crate name, what it emits (metadata only is a check or clippy build; link
# is a full build), the opt-level, the output directory. Cargo's probes
# (`rustc -vV`, no --crate-name) are not logged.
set -u
name='' emit='' opt=0 out=''
prev=''
for a in "$@"; do
  case "$prev" in
    --crate-name) name=$a ;;
    --emit) emit=$a ;;
    --out-dir) out=$a ;;
    -C) case "$a" in opt-level=*) opt=${a#opt-level=} ;; esac ;;
  esac
  case "$a" in --emit=*) emit=${a#--emit=} ;; esac
  prev=$a
done
if [ -z "$name" ]; then exec "$@"; fi
start=$(date +%s.%N)
"$@"
rc=$?
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$start" "$(date +%s.%N)" "$name" "$emit" "$opt" "$out" >>"${RUSTC_LOG_FILE:-/tmp/rustc.log}"
exit $rc
