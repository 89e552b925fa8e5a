#!/usr/bin/env python3
"""Times a shell command the way scripts/bench-supply.sh needs it.

Usage: bench_supply_time.py LABEL RUNS WARMUP PREPARE COMMAND

PREPARE and COMMAND are `bash -c` strings; `{i}` in either is replaced by
the run's number (0-based, warm-up runs included), so a run can use a fresh
folder or repository name. PREPARE runs before each run, untimed. COMMAND
must exit 0: a failing run stops the benchmark (its output is shown), so a
figure is never the time of an error.

Prints one line: LABEL, median and min wall time, and median CPU time (user +
system of COMMAND's process tree, from getrusage(RUSAGE_CHILDREN)), in ms.
The median-of-runs line is what BENCHMARKS.md quotes. hyperfine is not
needed (it is not packaged everywhere CI runs); the method is the same:
warm-up runs first, then RUNS timed runs.
"""

import resource
import statistics
import subprocess
import sys
import time


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(script: str, i: int, timed: bool) -> tuple[float, float]:
    before_cpu = cpu_children()
    start = time.perf_counter()
    done = subprocess.run(
        ["bash", "-c", script.replace("{i}", str(i))],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    wall = time.perf_counter() - start
    cpu = cpu_children() - before_cpu
    if done.returncode != 0:
        what = "command" if timed else "prepare"
        tail = done.stdout.decode(errors="replace")[-3000:]
        sys.exit(f"{what} failed (exit {done.returncode}) in run {i}: {script}\n{tail}")
    return wall * 1000, cpu * 1000


def main() -> None:
    label, runs, warmup, prepare, command = sys.argv[1:6]
    walls, cpus = [], []
    for i in range(int(warmup) + int(runs)):
        if prepare:
            run(prepare, i, False)
        wall, cpu = run(command, i, True)
        if i >= int(warmup):
            walls.append(wall)
            cpus.append(cpu)
    print(
        f"{label}\tmedian {statistics.median(walls):.1f} ms\tmin {min(walls):.1f} ms"
        f"\tcpu {statistics.median(cpus):.1f} ms\truns {len(walls)}",
        flush=True,
    )


if __name__ == "__main__":
    main()
