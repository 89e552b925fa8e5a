#!/usr/bin/env python3
"""compare_cc.py [-v]: Claude Code held-out activations (cc-held/act/NAME) against
`skb show --style claude-code NAME --args ARGS --json`."""
import difflib, glob, json, os, subprocess, sys
HERE = os.environ.get("CLIENTS_DIR", "/work/eval/clients")
SKB = os.environ.get("SKB", "/work/targets/heldout/debug/skb")
base = os.path.join(HERE, "cc-held")
cases = {c["name"]: c["args"] for c in json.load(open(os.path.join(base, "cases.json")))}
ok = total = 0
for name in sorted(cases):
    d = os.path.join(base, "act", name)
    if not os.path.exists(os.path.join(d, "done")):
        continue
    reqs = [json.load(open(f))["body"] for f in sorted(glob.glob(os.path.join(d, "log", "req-*.json")))]
    rec = None
    for r in reqs:
        for m in r.get("messages", []):
            if m.get("role") == "user" and isinstance(m.get("content"), list) and any(p.get("type") == "tool_result" for p in m["content"]):
                tr = next(p for p in m["content"] if p.get("type") == "tool_result")
                trc = tr["content"] if isinstance(tr["content"], str) else "".join(x.get("text", "") for x in tr["content"])
                texts = [p["text"] for p in m["content"] if p.get("type") == "text"]
                rec = (trc, texts[0] if texts else None, tr.get("is_error", False))
    total += 1
    if rec is None:
        print("  no recorded call:", name); continue
    p = subprocess.run([SKB, "show", "--style", "claude-code", name, "--args=" + cases[name], "--json"],
                       cwd=os.path.join(base, "proj"), capture_output=True, text=True)
    if p.returncode != 0:
        same = rec[2] and rec[0] in p.stderr
        got = p.stderr
    else:
        pred = json.loads(p.stdout)
        got = (pred.get("tool_result"), pred.get("text"))
        same = got == rec[:2]
    if same:
        ok += 1
    else:
        print("  differs: %s args=%r" % (name, cases[name]))
        if "-v" in sys.argv:
            print("    recorded:", repr(rec)[:600]); print("    skb:     ", repr(got)[:600])
print("claude-code: %d of %d activations equal" % (ok, total))
