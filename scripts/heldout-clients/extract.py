#!/usr/bin/env python3
"""Extract from a run's recorded requests what a client sent its model.

extract.py catalog CLIENT LOGDIR   -> the catalog text (stdout)
extract.py activation CLIENT LOGDIR -> JSON {"tool_result": ..., "text": ...}: the messages the skill call added
"""
import glob, json, os, sys

def reqs(log):
    return [json.load(open(f))["body"] for f in sorted(glob.glob(os.path.join(log, "req-*.json")))]

def text_of(content):
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content if isinstance(p, dict))

def first_with_tools(rs):
    for r in rs:
        if any(((t.get("function") or {}).get("name") or t.get("name")) in ("skill", "Skill") for t in r.get("tools") or []):
            return r
    return rs[0]

def catalog(client, log):
    r = first_with_tools(reqs(log))
    if client == "copilot":
        s = text_of(r["messages"][0]["content"])
        a = s.find("<available_skills>")
        b = s.find("</available_skills>", a)
        return s[a:b + len("</available_skills>")]
    if client == "qwen":
        c = r["messages"][1]["content"]
        return c[0]["text"] if isinstance(c, list) else c
    if client == "kimi":
        s = text_of(r["messages"][0]["content"])
        return s[s.find("# Skills"):]

def activation(client, log):
    rs = reqs(log)
    # the request after the one answered with the call: its messages after the assistant's tool call
    for r in rs:
        msgs = r.get("messages") or []
        for i, m in enumerate(msgs):
            if m.get("role") == "assistant" and m.get("tool_calls"):
                added = msgs[i + 1:]
                tool = next((text_of(x["content"]) for x in added if x.get("role") == "tool"), None)
                user = next((text_of(x["content"]) for x in added if x.get("role") == "user"), None)
                return {"tool_result": tool, "text": user, "added": added}
    return None

if __name__ == "__main__":
    mode, client, log = sys.argv[1:4]
    if mode == "catalog":
        sys.stdout.write(catalog(client, log))
    else:
        print(json.dumps(activation(client, log), ensure_ascii=False))
