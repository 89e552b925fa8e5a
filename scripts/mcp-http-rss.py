#!/usr/bin/env python3
"""Memory of `skb serve --http` under a flood of `initialize` requests.

Usage (from the repository root, after `cargo build -p skb`):

    python3 scripts/mcp-http-rss.py [--bin target/debug/skb] [-n 10000]
        [--wait SECONDS] [-- SERVE_ARGS...]

Starts `skb serve skills --http 127.0.0.1:0 SERVE_ARGS...`, reads its
resident memory (`VmRSS` in /proc) once it is up and has answered one
`initialize`, sends N more `initialize` requests (each a new MCP session,
none closed, over one keep-alive connection), waits (1 s by default), then
reads `VmRSS` and the peak `VmHWM` again. Prints the HTTP statuses seen and the figures; exits 1
when the RSS after the flood is more than twice the fresh server's.
"""

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time

INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "rss", "version": "1"},
        },
    }
).encode()


def memory(pid):
    """VmRSS and VmHWM of `pid`, in KiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


def initialize(conn, authority):
    conn.request(
        "POST",
        "/mcp",
        body=INITIALIZE,
        headers={
            "Host": authority,
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )
    response = conn.getresponse()
    response.read()
    return response.status


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default="target/debug/skb")
    parser.add_argument("-n", type=int, default=10000)
    parser.add_argument(
        "--wait", type=float, default=1,
        help="seconds to wait after the flood before reading the RSS again",
    )
    parser.add_argument("serve_args", nargs="*")
    args = parser.parse_args()

    cache = tempfile.mkdtemp(prefix="skills-rss-")
    server = subprocess.Popen(
        [args.bin, "serve", "skills", "--http", "127.0.0.1:0", "--cache", cache]
        + args.serve_args,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stderr.readline()
        found = re.search(r"http://([^/]+)/mcp", line)
        if not found:
            sys.exit(f"no URL in {line!r}")
        authority = found.group(1)
        host, port = authority.rsplit(":", 1)
        conn = http.client.HTTPConnection(host, int(port))
        first = initialize(conn, authority)
        time.sleep(1)
        fresh, _ = memory(server.pid)

        statuses = {}
        start = time.monotonic()
        for _ in range(args.n):
            status = initialize(conn, authority)
            statuses[status] = statuses.get(status, 0) + 1
        elapsed = time.monotonic() - start
        time.sleep(args.wait)
        after, peak = memory(server.pid)

        print(f"first initialize: HTTP {first}")
        print(f"{args.n} initialize requests in {elapsed:.1f} s: "
              + ", ".join(f"HTTP {k} x {v}" for k, v in sorted(statuses.items())))
        print(f"RSS fresh {fresh / 1024:.1f} MiB, after {after / 1024:.1f} MiB "
              f"({after / fresh:.2f}x), peak {peak / 1024:.1f} MiB")
        return 0 if after <= 2 * fresh else 1
    finally:
        server.kill()
        server.wait()
        subprocess.run(["rm", "-rf", cache], check=False)


if __name__ == "__main__":
    sys.exit(main())
