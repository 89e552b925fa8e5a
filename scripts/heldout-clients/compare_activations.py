#!/usr/bin/env python3
"""compare_activations.py CLIENT [-v]: for each recorded run in corpus/CLIENT/act/NNN, `skb show --style S NAME --json`
(kimi with --args "first second") against the recorded messages. Prints the figures; -v shows each difference."""
import difflib, json, os, subprocess, sys
HERE = os.environ.get("CLIENTS_DIR", "/work/eval/clients")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import activation
SKB = os.environ.get("SKB", "/work/targets/heldout/debug/skb")
client = sys.argv[1]
style = {"copilot": "copilot", "qwen": "qwen-code", "kimi": "kimi-code"}[client]
base = os.path.join(HERE, "corpus", client)
ok = total = 0
bad = []
for d in sorted(os.listdir(os.path.join(base, "act"))):
    run = os.path.join(base, "act", d)
    if not os.path.exists(os.path.join(run, "done")):
        continue
    name = open(os.path.join(run, "name"), encoding="utf-8").read()
    rec = activation(client, os.path.join(run, "log"))
    if rec is None:
        bad.append((name, "no recorded call", "", ""))
        total += 1
        continue
    cmd = [SKB, "show", "--style", style, name, "--json"]
    if client == "kimi":
        cmd += ["--args", "first second"]
    p = subprocess.run(cmd, cwd=os.path.join(base, "proj"), capture_output=True, text=True)
    total += 1
    if p.returncode != 0:
        # an error: compare the quoted tool answer
        want = rec["tool_result"] or ""
        got = p.stderr
        same = want and want in got
        if same:
            ok += 1
        else:
            bad.append((name, "error", want, got))
        continue
    pred = json.loads(p.stdout)
    if client == "qwen":
        want, got = rec["tool_result"], pred.get("content")
    else:
        want, got = (rec["tool_result"], rec["text"]), (pred.get("tool_result"), pred.get("text"))
    if want == got:
        ok += 1
    else:
        bad.append((name, "text", want, got))
print("%s: %d of %d activations equal" % (client, ok, total))
for name, kind, want, got in bad:
    print("  differs: %s (%s)" % (name, kind))
    if "-v" in sys.argv:
        w = want if isinstance(want, str) else "\n=====\n".join(x or "" for x in want)
        g = got if isinstance(got, str) else "\n=====\n".join(x or "" for x in got)
        for line in list(difflib.unified_diff(w.splitlines(), g.splitlines(), "recorded", "skb", lineterm="", n=1))[:30]:
            print("    " + line[:300])
