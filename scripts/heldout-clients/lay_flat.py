#!/usr/bin/env python3
"""Lay the shared corpus's skill folders flat into DEST (one folder per skill, named after its folder;
the n-th folder of the same name, in path order, gets `<name>--<n>`). Prints the mapping."""
import os, shutil, sys
SRC = os.environ.get("CORPUS", "/work/shared/corpus/collections")
dest = sys.argv[1]
os.makedirs(dest, exist_ok=True)
dirs = sorted(os.path.dirname(os.path.join(r, f)) for r, _, fs in os.walk(SRC) for f in fs if f == "SKILL.md")
seen = {}
for d in dirs:
    base = os.path.basename(d)
    seen[base] = seen.get(base, 0) + 1
    name = base if seen[base] == 1 else "%s--%d" % (base, seen[base])
    shutil.copytree(d, os.path.join(dest, name), symlinks=False)
    print(name, os.path.relpath(d, SRC))
