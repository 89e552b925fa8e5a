#!/usr/bin/env python3
"""digest.py OUT.json: SHA-256 digests of the held-out recordings (no recorded text, so no corpus text is
committed): each client's corpus catalog, Copilot's 13 chunk catalogs, and every recorded activation, with
the project's path written <PROJECT_DIR>. Activations the model does not reproduce by design are left out
and counted."""
import hashlib, json, os, sys
HERE = os.environ.get("CLIENTS_DIR", "/work/eval/clients")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import activation
C = os.path.join(HERE, "corpus")

def h(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()

out = {"recorded": "2026-12-07", "clients": {}}
for client, folder in [("copilot", ".github/skills"), ("qwen-code", ".qwen/skills"), ("kimi-code", ".kimi-code/skills")]:
    short = client.split("-")[0]
    proj = os.path.join(C, short, "proj")
    cat = open(os.path.join(C, short, "catalog.recorded.txt"), encoding="utf-8").read().replace(proj, "<PROJECT_DIR>").rstrip("\n")
    acts, skipped = [], 0
    for d in sorted(os.listdir(os.path.join(C, short, "act"))):
        run = os.path.join(C, short, "act", d)
        name = open(os.path.join(run, "name"), encoding="utf-8").read()
        rec = activation(short, os.path.join(run, "log"))
        if rec is None:
            continue
        tool = (rec["tool_result"] or "").replace(proj, "<PROJECT_DIR>")
        text = "" if short == "qwen" else (rec["text"] or "").replace(proj, "<PROJECT_DIR>")
        if short == "qwen" and (tool.startswith("<persisted-output>") or tool.startswith("Tool output was too large")):
            skipped += 1
            continue
        acts.append({"name": name, "sha256": h(tool + "\0" + text)})
    entry = {"folder": folder, "catalog_sha256": h(cat), "activations": acts, "not_modelled": skipped}
    if short == "kimi":
        entry["args"] = "first second"
    if short == "copilot":
        chunks = []
        for d in sorted(os.listdir(os.path.join(C, "copilot-chunks"))):
            p = os.path.join(C, "copilot-chunks", d)
            if not os.path.isdir(p):
                continue
            names = sorted(os.listdir(os.path.join(p, "proj", folder)))
            t = open(os.path.join(p, "catalog.recorded.txt"), encoding="utf-8").read().rstrip("\n")
            chunks.append({"folders": names, "catalog_sha256": h(t)})
        entry["chunks"] = chunks
    out["clients"][client] = entry
json.dump(out, open(sys.argv[1], "w"), indent=1, ensure_ascii=False)
print({k: (len(v["activations"]), v["not_modelled"]) for k, v in out["clients"].items()})
