#!/usr/bin/env python3
"""Time the reference validator, skills-ref 0.1.1, on every skill under some roots.

Usage: skills_ref_inprocess.py ROOT... [--runs N] [--warmup N] [--cli-sample N]

A skill is every directory that holds a file named SKILL.md (the walk does
not enter hidden directories). Each run calls `skills_ref.validate(dir)` on
all of them in one process; `seconds` times that loop alone
(`time.perf_counter`), `cpu_seconds` is the CPU time of the loop
(`time.process_time`, which a busy machine disturbs less), and
`walk_and_validate_seconds` times the directory walk plus the loop. With several runs the medians are reported, and every run's
figures are listed. `--cli-sample N` also times the reference CLI,
`agentskills validate DIR`, one process per directory, on N directories
spread evenly over the list, and reports the cost of one invocation.

Prints one JSON object on stdout:
  {"skills", "invalid", "seconds", "cpu_seconds", "walk_and_validate_seconds",
   "runs": [...],
   "ms_per_skill", "cli": {...}}
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

try:
    from skills_ref import validate
except ImportError:
    print("skills_ref_inprocess: cannot import skills_ref; install it with "
          "`pip install skills-ref==0.1.1`", file=sys.stderr)
    sys.exit(2)


def find_skills(roots):
    """Every directory under `roots` that holds SKILL.md, sorted per root."""
    found = []
    for root in roots:
        if not os.path.isdir(root):
            print(f"skills_ref_inprocess: `{root}` is not a directory", file=sys.stderr)
            sys.exit(2)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            if "SKILL.md" in filenames:
                found.append(Path(dirpath))
    return found


def one_run(roots):
    t0 = time.perf_counter()
    dirs = find_skills(roots)
    t1 = time.perf_counter()
    c1 = time.process_time()
    invalid = 0
    for d in dirs:
        if validate(d):
            invalid += 1
    c2 = time.process_time()
    t2 = time.perf_counter()
    return {"skills": len(dirs), "invalid": invalid, "seconds": t2 - t1,
            "cpu_seconds": c2 - c1, "walk_and_validate_seconds": t2 - t0}, dirs


def time_cli(dirs, sample):
    exe = shutil.which("agentskills")
    if exe is None:
        return {"error": "`agentskills` is not on PATH"}
    n = min(sample, len(dirs))
    if n == 0:
        return {"error": "no skills"}
    step = len(dirs) / n
    picked = [dirs[int(i * step)] for i in range(n)]
    times = []
    for d in picked:
        t0 = time.perf_counter()
        subprocess.run([exe, "validate", str(d)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t0)
    return {"sample": n, "median_ms_per_invocation": statistics.median(times) * 1e3,
            "mean_ms_per_invocation": statistics.fmean(times) * 1e3,
            "min_ms": min(times) * 1e3, "max_ms": max(times) * 1e3}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--runs", type=int, default=1, help="timed runs (median reported)")
    ap.add_argument("--warmup", type=int, default=0, help="untimed runs first")
    ap.add_argument("--cli-sample", type=int, default=0, metavar="N",
                    help="also time `agentskills validate` on N directories")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    for _ in range(args.warmup):
        one_run(args.roots)
    runs, dirs = [], []
    for _ in range(args.runs):
        r, dirs = one_run(args.roots)
        runs.append(r)
    seconds = statistics.median(r["seconds"] for r in runs)
    out = {
        "skills": runs[0]["skills"],
        "invalid": runs[0]["invalid"],
        "seconds": seconds,
        "cpu_seconds": statistics.median(r["cpu_seconds"] for r in runs),
        "walk_and_validate_seconds": statistics.median(
            r["walk_and_validate_seconds"] for r in runs),
        "ms_per_skill": seconds * 1e3 / max(1, runs[0]["skills"]),
        "runs": runs,
    }
    if args.cli_sample:
        out["cli"] = time_cli(dirs, args.cli_sample)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
