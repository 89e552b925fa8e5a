#!/usr/bin/env python3
"""pick.py CLIENT: names to activate: 40 listed names chosen by sha256, plus every skill with odd frontmatter
(placeholders in the body, long descriptions, YAML the strict clients refuse, duplicates, type:, dmi), by name."""
import hashlib, os, re, sys
client = sys.argv[1]
folder = {"copilot": ".github/skills", "qwen": ".qwen/skills", "kimi": ".kimi-code/skills"}[client]
root = os.path.join(client, "proj", folder)
cat = open(os.path.join(client, "catalog.recorded.txt"), encoding="utf-8").read()
if client == "kimi":
    listed = re.findall(r"^- ([^:\n]+): ", cat, re.M)
    listed = [n for n in listed if n not in ("check-kimi-code-docs", "update-config", "write-goal")]
else:
    listed = re.findall(r"<name>\n?(.*?)\n?</name>", cat)
    if client == "copilot":
        m = re.search(r"Additional skills available \(invoke by name\): (.*?)(\.\.\. and \d+ more)?$", cat, re.M)
        listed += m.group(1).split(", ")
        listed = [n for n in listed if n not in ("customize-cloud-agent", "github-pr-media")]
    else:
        listed = [n for n in listed if "(bundled)" not in cat.split("<name>\n%s\n</name>" % n)[1][:2000].split("</skill>")[0]]
sample = sorted(listed, key=lambda n: hashlib.sha256(n.encode()).hexdigest())[:40]
odd = set()
for d in sorted(os.listdir(root)):
    p = os.path.join(root, d, "SKILL.md")
    t = open(p, encoding="utf-8", errors="replace").read()
    m = re.match(r"\ufeff?---\r?\n(.*?)\r?\n---", t, re.S)
    fm = m.group(1) if m else ""
    body = t[m.end():] if m else t
    nm = re.search(r"^name:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", fm, re.M)
    name = nm.group(1).strip() if nm else d
    dm = re.search(r"^description:\s*(.*)$", fm, re.M)
    why = []
    if re.search(r"\$ARGUMENTS|\$[0-9]|\$\{[A-Z_]+\}|!`", body): why.append("placeholder")
    if dm and (len(dm.group(1)) > 1024 or dm.group(1).strip() in ("|", ">", "|-", ">-", "")): why.append("long/block description")
    if re.search(r"^(type|arguments|disable-model-invocation|when_to_use):", fm, re.M): why.append("keys")
    if "--" in d: why.append("dup")
    if why:
        odd.add(name)
names = list(dict.fromkeys(sample + sorted(odd)))
for n in names:
    print(n)
