#!/usr/bin/env python3
"""compare_catalog.py CLIENT RECORDED PREDICTED: entries equal in order, and whole text equal."""
import re, sys
client, rec, pred = sys.argv[1:4]
a = open(rec, encoding="utf-8").read()
b = open(pred, encoding="utf-8").read()
if client == "copilot":
    # skb prints the tool's section opening `<skill>` too; the recording is cut at `<available_skills>`
    b = b[b.find("<available_skills>"):].rstrip("\n")

def entries(s):
    if client in ("copilot", "qwen"):
        es = re.findall(r"<skill>\n.*?\n</skill>\n", s, re.S)
        if client == "copilot":
            m = re.search(r"Additional skills available.*", s)
            if m:
                es.append(m.group(0))
        return es
    # kimi: entries end at a "  Path: " line; headings kept as their own entries
    out, cur = [], []
    body = s[s.find("Current available skills:\n") + len("Current available skills:\n"):] if "Current available skills:" in s else s
    for line in body.split("\n"):
        if line.startswith("### ") and not cur:
            out.append(line)
            continue
        cur.append(line)
        if line.startswith("  Path: "):
            out.append("\n".join(cur))
            cur = []
    return out

ea, eb = entries(a), entries(b)
same_pos = sum(1 for x, y in zip(ea, eb) if x == y)
sa, sb = set(ea), set(eb)
print("%s: recorded %d entries, predicted %d; equal in position %d; recorded entries present in prediction %d; whole text equal: %s"
      % (client, len(ea), len(eb), same_pos, len(sa & sb), a == b or a.rstrip("\n") == b.rstrip("\n")))
if "-v" in sys.argv:
    for x in ea:
        if x not in sb:
            print("--- recorded only:\n" + x[:600])
    for y in eb:
        if y not in sa:
            print("+++ predicted only:\n" + y[:600])
