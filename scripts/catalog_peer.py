#!/usr/bin/env python3
"""Time skills-ref 0.1.1's `to_prompt` on every skill under a tree.

Usage: catalog_peer.py TREE [--runs N] [--warmup N] [--shipped-runs N] [--expect FILE]

The peer of `cargo bench -p skills-bundle --features compiler --bench agent`
(`catalog_render::render_full`): the same `<available_skills>` block for the
same skills, rendered by the reference.

A skill is every directory under TREE holding `SKILL.md` (hidden directories
skipped). Each is parsed once with `skills_ref.read_properties`, outside the
timing. Two figures:

- `render`: `skills_ref.to_prompt` itself, with the three names it looks up
  in its module (`Path`, `read_properties`, `find_skill_md`) replaced by
  lookups of the already-parsed properties, so that only the render is
  timed: the loop, `html.escape`, the list of lines and the join. The skills
  are passed in name order and located at `skill://<name>/SKILL.md`, as a
  bundle locates them, so the output is the same text as the bundle's
  catalog (`--expect FILE` checks it byte for byte).
- `shipped`: `to_prompt(dirs)` as shipped, which reads and parses every
  `SKILL.md` on each call (locations are then absolute paths).

Times are `time.perf_counter` around one call; the median and the fastest of
`--runs` calls after `--warmup` calls are reported. Prints one JSON object.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

try:
    import skills_ref
    import skills_ref.prompt as prompt
except ImportError:
    print("catalog_peer: cannot import skills_ref; install it with "
          "`pip install skills-ref==0.1.1`", file=sys.stderr)
    sys.exit(2)


def find_skills(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if "SKILL.md" in filenames:
            found.append(Path(dirpath))
    return found


def timed(fn, warmup, runs):
    for _ in range(warmup):
        fn()
    times = []
    out = None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, times


class _Name:
    """Stands in for `Path` in `to_prompt`: `resolve()` gives the name back."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def resolve(self):
        return self.name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tree")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--shipped-runs", type=int, default=3)
    ap.add_argument("--expect")
    args = ap.parse_args()

    dirs = find_skills(args.tree)
    props = {}
    for d in dirs:
        p = skills_ref.read_properties(d)
        props[p.name] = p
    names = sorted(props)
    locations = {n: f"skill://{n}/SKILL.md" for n in names}

    originals = (prompt.Path, prompt.read_properties, prompt.find_skill_md)
    prompt.Path = _Name
    prompt.read_properties = props.__getitem__
    prompt.find_skill_md = locations.__getitem__
    try:
        rendered, render_times = timed(lambda: prompt.to_prompt(names),
                                       args.warmup, args.runs)
    finally:
        prompt.Path, prompt.read_properties, prompt.find_skill_md = originals

    identical = None
    if args.expect:
        with open(args.expect, encoding="utf-8") as f:
            identical = f.read() == rendered

    _, shipped_times = timed(lambda: prompt.to_prompt(dirs), 1, args.shipped_runs)

    us = lambda xs: [round(x * 1e6, 1) for x in xs]
    descs = [len(p.description) for p in props.values()]
    print(json.dumps({
        "skills": len(names),
        "description_chars": {"min": min(descs), "median": statistics.median(descs),
                              "max": max(descs)},
        "catalog_chars": len(rendered),
        "identical_to_bundle_catalog": identical,
        "render": {"runs": args.runs, "median_us": us([statistics.median(render_times)])[0],
                   "fastest_us": us([min(render_times)])[0]},
        "shipped": {"runs": args.shipped_runs,
                    "median_ms": round(statistics.median(shipped_times) * 1e3, 1),
                    "fastest_ms": round(min(shipped_times) * 1e3, 1)},
        "python": sys.version.split()[0],
        "skills_ref": skills_ref.__version__,
    }, indent=1))


if __name__ == "__main__":
    main()
