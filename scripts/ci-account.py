#!/usr/bin/env python3
"""Where a `.ci/run` spends its time: per step, the wall clock and CPU time
(from the step headers) and the compilations Cargo started (from the log of
scripts/rustc-log.sh), by kind, with the crates compiled more than once.

    RUSTC_LOG_FILE=/tmp/rustc.log RUSTC_WRAPPER=$PWD/scripts/rustc-log.sh \\
      bash .ci/run >/tmp/ci.log 2>&1
    python3 scripts/ci-account.py /tmp/ci.log /tmp/rustc.log

A compilation belongs to the step whose header came last before it started.
"check" is a compilation that emits metadata only (clippy, check, the
dependencies of a rustdoc run), "build" one that links or emits an rlib, at
opt-level 0 ("debug") or above ("opt"). Two versions of one crate (sha2
0.10 and 0.11) count as the same crate compiled twice.
"""

import collections
import datetime
import re
import sys

HEADER = re.compile(r"^== \[(\d\d):(\d\d):(\d\d), (\d+)s(?:, cpu (\d+)s)?\] (.*)$")


def steps(ci_log, day):
    out = []
    for line in open(ci_log, encoding="utf-8", errors="replace"):
        m = HEADER.match(line.rstrip("\n"))
        if m:
            h, mi, s, secs, cpu, title = m.groups()
            at = datetime.datetime(day.year, day.month, day.day, int(h), int(mi), int(s),
                                   tzinfo=datetime.timezone.utc).timestamp()
            out.append({"at": at, "secs": int(secs), "cpu": int(cpu) if cpu else None, "title": title})
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = []
    for line in open(sys.argv[2], encoding="utf-8"):
        start, end, name, emit, opt, out = line.rstrip("\n").split("\t")
        if name == "___":  # Cargo's probe of the compiler (`--print=file-names`)
            continue
        if name == "build_script_build":  # named by its package: build/<package>-<hash>
            name = "build.rs of " + out.rstrip("/").rsplit("/", 1)[-1].rsplit("-", 1)[0]
        rows.append((float(start), float(end), name, emit, opt))
    rows.sort()
    day = datetime.datetime.fromtimestamp(rows[0][0] if rows else 0, datetime.timezone.utc)
    st = steps(sys.argv[1], day)
    per = collections.defaultdict(list)
    for r in rows:
        i = max((k for k, s in enumerate(st) if s["at"] <= r[0] + 1), default=0)
        per[i].append(r)
    seen = collections.Counter()
    print("| step | wall s | CPU s | compilations (check / debug / opt) | rustc wall s | crates compiled again |")
    print("|---|---:|---:|---|---:|---|")
    for k, s in enumerate(st):
        nxt = st[k + 1] if k + 1 < len(st) else None
        wall = (nxt["secs"] - s["secs"]) if nxt else None
        cpu = (nxt["cpu"] - s["cpu"]) if nxt and s["cpu"] is not None and nxt["cpu"] is not None else None
        rs = per.get(k, [])
        kinds = collections.Counter(
            "check" if r[3] in ("metadata", "dep-info,metadata") else ("opt" if r[4] not in ("0", "") else "debug")
            for r in rs)
        again = collections.Counter()
        for r in rs:
            if seen[r[2]]:
                again[r[2]] += 1
            seen[r[2]] += 1
        again_s = ", ".join(f"{n}×{c}" if c > 1 else n for n, c in again.most_common(8))
        if len(again) > 8:
            again_s += f", … ({len(again)} crates)"
        busy = sum(r[1] - r[0] for r in rs)
        if s["title"] == "done":
            continue
        print(f"| {s['title'][:70]} | {wall if wall is not None else '?'} | {cpu if cpu is not None else '?'} | "
              f"{len(rs)} ({kinds['check']} / {kinds['debug']} / {kinds['opt']}) | {busy:.0f} | {again_s} |")
    total = st[-1]
    print(f"\ntotal: {total['secs']} s wall, {total['cpu']} s CPU, {len(rows)} compilations of "
          f"{len(seen)} crates; {sum(c - 1 for c in seen.values())} of them a crate compiled before")


if __name__ == "__main__":
    main()
