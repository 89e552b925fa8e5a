#!/usr/bin/env python3
"""The oldest Rust each publishable crate can build with, as far as its
dependency graph says: the highest `rust-version` among the packages its
normal and build dependencies resolve to (`cargo metadata`, this lock
file), and the crate's own `rust-version`. Prints one line per crate;
exits 1 when a crate declares an older `rust-version` than its
dependencies need, or when README.md's "Rust X or newer" is not the
newest `rust-version` of the workspace (the oldest Rust that builds every
crate, which is what the README's two commands need).
Usage: python3 scripts/msrv.py"""
import json, os, re, subprocess, sys

meta = json.loads(subprocess.check_output(
    ["cargo", "metadata", "--format-version", "1", "--locked"], text=True))
packages = {p["id"]: p for p in meta["packages"]}
nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
members = [packages[i] for i in meta["workspace_members"]]

def key(version):
    return tuple(int(x) for x in (version or "0").split(".")) + (0,) * (3 - len((version or "0").split(".")))

def needs(pid):
    """(highest rust-version, the package that needs it) over the normal/build closure of pid."""
    best, who, seen, stack = None, None, set(), [pid]
    while stack:
        cur = stack.pop()
        if cur in seen:
            continue
        seen.add(cur)
        if cur != pid:
            rv = packages[cur].get("rust_version")
            if rv and (best is None or key(rv) > key(best)):
                best, who = rv, packages[cur]["name"] + " " + packages[cur]["version"]
        for dep in nodes[cur]["deps"]:
            if any(k["kind"] in (None, "build") for k in dep["dep_kinds"]):
                stack.append(dep["pkg"])
    return best, who

bad = False
for p in sorted(members, key=lambda p: p["name"]):
    if p.get("publish") == []:
        continue
    declared = p.get("rust_version")
    dep, who = needs(p["id"])
    ok = dep is None or key(declared) >= key(dep)
    bad |= not ok
    print(f"{p['name']:16} rust-version {declared:6}  dependencies need {dep or '-':6} ({who or 'none'}){'' if ok else '  <- declared too old'}")
newest = max((p.get("rust_version") or "0" for p in members), key=key)
readme = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md"), encoding="utf-8").read()
said = re.search(r"Rust (\d+\.\d+(?:\.\d+)?) or newer", readme)
if said is None or key(said.group(1)) != key(newest):
    bad = True
    claim = said.group(0) if said else "nothing like 'Rust X or newer'"
    print(f"README.md says {claim}; the workspace needs Rust {newest} or newer")
else:
    print(f"README.md: Rust {said.group(1)} or newer, the newest rust-version of the workspace")
sys.exit(1 if bad else 0)
