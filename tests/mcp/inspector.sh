#!/usr/bin/env bash
# `skb serve` driven by @modelcontextprotocol/inspector in CLI mode.
#
#   tests/mcp/inspector.sh [SKILLS_BIN] [SKILLS_DIR]
#   tests/mcp/inspector.sh --install     (the install alone, as .ci/run does
#                                         beside its first compiles)
#
# Installs the inspector (pinned, from the npm registry; about 20 s, 240
# packages) into $INSPECTOR_DIR (default ~/.cache/skills-ci/inspector) unless
# it is there, then makes one inspector call per check; each call spawns its
# own server, so a call cannot see an earlier call's activation. Exit 1 on the
# first failed check. Manual equivalent:
#
#   npx -y @modelcontextprotocol/inspector --cli target/debug/skb serve skills --method tools/list
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=0.15.0
DIR=${INSPECTOR_DIR:-$HOME/.cache/skills-ci/inspector}
INSPECTOR=$DIR/node_modules/.bin/mcp-inspector

if ! [ -x "$INSPECTOR" ] ||
    [ "$(node -p "require('$DIR/node_modules/@modelcontextprotocol/inspector/package.json').version" 2>/dev/null)" != "$VERSION" ]; then
    echo "installing @modelcontextprotocol/inspector@$VERSION into $DIR"
    mkdir -p "$DIR"
    timeout 180 npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error \
        "@modelcontextprotocol/inspector@$VERSION" >/dev/null
fi
if [ "${1-}" = --install ]; then
    exit 0
fi
BIN=$(realpath "${1:-target/debug/skb}")
SKILLS=$(realpath "${2:-skills}")

CACHE=$(mktemp -d)
trap 'rm -rf "$CACHE"' EXIT
passed=0
failed=0

# check NAME EXPECT_STATUS PYTHON_ASSERTION -- INSPECTOR_ARGS...
# The assertion sees the inspector's stdout as `out` (and `j`, its JSON, when
# it parses).
check() {
    local name=$1 want=$2 assertion=$3
    shift 4
    local out status=0
    out=$(timeout 60 "$INSPECTOR" --cli "$BIN" serve "$SKILLS" --cache "$CACHE" "$@" 2>&1) || status=$?
    if [ "$status" = "$want" ] && OUT=$out python3 -c "
import json, os, sys
out = os.environ['OUT']
try:
    j = json.loads(out)
except ValueError:
    j = None
sys.exit(0 if ($assertion) else 1)
"; then
        echo "  ok    $name"
        passed=$((passed + 1))
    else
        echo "  FAIL  $name (exit $status, wanted $want)"
        printf '%s\n' "$out" | head -20 | sed 's/^/        /'
        failed=$((failed + 1))
    fi
}

echo "== the MCP inspector $VERSION (CLI mode) against $BIN"
check "tools/list: the three tools, the skill names as an enum" 0 \
    "[t['name'] for t in j['tools']] == ['activate_skill', 'read_skill_resource', 'run_skill_script'] and 'calculator' in j['tools'][0]['inputSchema']['properties']['name']['enum']" \
    -- --method tools/list
check "resources/list: skill://calculator/scripts/calc.py, text/x-python" 0 \
    "any(r['uri'] == 'skill://calculator/scripts/calc.py' and r['mimeType'] == 'text/x-python' for r in j['resources'])" \
    -- --method resources/list
check "resources/templates/list: skill://{name}/{+path}" 0 \
    "[t['uriTemplate'] for t in j['resourceTemplates']] == ['skill://{name}/{+path}']" \
    -- --method resources/templates/list
check "prompts/list: calculator" 0 "any(p['name'] == 'calculator' for p in j['prompts'])" \
    -- --method prompts/list
check "resources/read skill://calculator/scripts/calc.py" 0 \
    "j['contents'][0]['text'] == open('$SKILLS/calculator/scripts/calc.py').read()" \
    -- --method resources/read --uri skill://calculator/scripts/calc.py
check "prompts/get calculator arguments=6*7: \$ARGUMENTS filled" 0 \
    "'6*7' in j['messages'][0]['content']['text']" \
    -- --method prompts/get --prompt-name calculator --prompt-args 'arguments=6*7'
check "tools/call activate_skill calculator" 0 \
    "not j.get('isError') and 'Base directory for this skill: skill://calculator' in j['content'][0]['text']" \
    -- --method tools/call --tool-name activate_skill --tool-arg name=calculator
# One server per call, as a framework that opens a session per tool call:
# a run needs no activation, its own skill's allowed-tools decide.
check "tools/call run_skill_script in a fresh session: the skill's own allowed-tools let it run" 0 \
    "not j.get('isError') and '345' in j['content'][0]['text']" \
    -- --method tools/call --tool-name run_skill_script --tool-arg skill=calculator "command=python3 scripts/calc.py '15 * 23'"
check "tools/call run_skill_script outside the skill's allowed-tools: isError" 0 \
    "j['isError'] and '345' not in j['content'][0]['text']" \
    -- --method tools/call --tool-name run_skill_script --tool-arg skill=calculator "command=cat scripts/calc.py"
check "tools/call read_skill_resource ../x: isError, Illegal path" 0 \
    "j['isError'] and 'Illegal path' in j['content'][0]['text']" \
    -- --method tools/call --tool-name read_skill_resource --tool-arg skill=calculator path=../x
check "tools/call activate_skill no-such-skill: isError" 0 \
    "j['isError'] and 'no skill' in j['content'][0]['text']" \
    -- --method tools/call --tool-name activate_skill --tool-arg name=no-such-skill
check "resources/read skill://calculator/../x: MCP error -32002, exit 1" 1 \
    "'MCP error -32002' in out" \
    -- --method resources/read --uri 'skill://calculator/../x'
echo "inspector: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
