#!/usr/bin/env bash
# The GitHub Action's validation step (action.yml runs it), kept in a script
# so it can be run and tested outside GitHub:
#
#   SKILLS_PATHS='skills' SKILLS_ARGS='--profile claude-code' \
#     GITHUB_STEP_SUMMARY=/tmp/summary.md bash scripts/action-validate.sh
#
# Runs `skb validate --format github $SKILLS_ARGS -- $SKILLS_PATHS`, so
# problems become annotations on the pull request, and exits with its status
# (0 valid, 1 errors, 2 usage or I/O failure). When GITHUB_STEP_SUMMARY names
# a file, appends the summary line (`checked N skills ...`) to it.
#
# Environment:
#   SKILLS_PATHS  paths to validate (default `.`): one per line, or, on a
#                 single line, separated by spaces
#   SKILLS_ARGS   extra flags, separated by spaces (no quoting)
#   SKILLS_BIN    the binary (default `skb`, from PATH)
set -uo pipefail

bin=${SKILLS_BIN:-skb}
if ! command -v "$bin" >/dev/null 2>&1; then
  echo "::error title=skb not found::\`$bin\` is not on PATH; install it first (input \`install: cargo\`)"
  exit 2
fi

# No globbing: `*` in an input stays as it is.
set -f
paths=()
input=${SKILLS_PATHS:-.}
if [[ $input == *$'\n'* ]]; then
  while IFS= read -r line; do
    line=${line%$'\r'}
    # Trim surrounding blanks; skip empty lines.
    line=${line#"${line%%[![:space:]]*}"}
    line=${line%"${line##*[![:space:]]}"}
    [ -n "$line" ] && paths+=("$line")
  done <<<"$input"
else
  read -r -a paths <<<"$input"
fi
[ ${#paths[@]} -eq 0 ] && paths=(.)
read -r -a extra <<<"${SKILLS_ARGS:-}"
set +f

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$bin" validate --format github ${extra[@]+"${extra[@]}"} -- "${paths[@]}" | tee "$log"
status=${PIPESTATUS[0]}

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  summary=$(grep '^checked ' "$log" | tail -n 1)
  case $status in
    0) mark='passed' ;;
    1) mark='failed' ;;
    *) mark="could not run (exit status $status)" ;;
  esac
  {
    echo "**skb validate** ${mark}: ${summary:-no summary} (\`${paths[*]}\`)"
    echo
  } >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
