#!/usr/bin/env python3
import os, shutil, sys
sys.path.insert(0, os.path.dirname(__file__))
import common
import a_plugins, b_indirection, c_toolfiles, d_transports, e_instructions, f_oneline, g_sharedstyle, h_hardneg  # noqa
OUT = os.environ.get("EVAL", "/work/eval")
for d in [f"{OUT}/attacks-dev", f"{OUT}/held/attacks"]:
    shutil.rmtree(d, ignore_errors=True)
rows = common.write_all(OUT)
from collections import Counter
for split in ("dev", "held"):
    c = Counter(r["class"] for r in rows[split])
    print(split, sum(c.values()), dict(sorted(c.items())))
