#!/usr/bin/env python3
"""The ORAS peer of `skb push` / `skb pull` in scripts/bench-supply.sh.

Usage: bench_supply_oras.py push HOST REPO:TAG FILE
       bench_supply_oras.py pull HOST REPO:TAG OUTDIR

Uses the ORAS Python SDK (`pip install oras`, the package `oras` on PyPI)
against a plain-HTTP registry on HOST (127.0.0.1:PORT): `push` uploads FILE
as the one layer of an artifact, `pull` downloads the artifact's layers into
OUTDIR. Prints the SDK call's own time (`in-process N ms`), so the report
can give both the whole process (Python start and imports included, as a
user running it sees) and the call alone.
"""

import os
import sys
import time

import oras.client


def main() -> None:
    action, host, target, path = sys.argv[1:5]
    client = oras.client.OrasClient(hostname=host, insecure=True)
    ref = f"{host}/{target}"
    start = time.perf_counter()
    if action == "push":
        # Relative path: the SDK names the layer after it.
        os.chdir(os.path.dirname(os.path.abspath(path)))
        client.push(target=ref, files=[os.path.basename(path)], disable_path_validation=True)
    elif action == "pull":
        client.pull(target=ref, outdir=path)
    else:
        sys.exit(f"unknown action {action!r}: push or pull")
    print(f"in-process {(time.perf_counter() - start) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
