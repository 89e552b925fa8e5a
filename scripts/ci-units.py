#!/usr/bin/env python3
"""How many compilations each step of `.ci/run` makes on a clean checkout,
without building anything: every cargo command a step runs is asked for
its unit graph (`cargo +nightly … --unit-graph -Z unstable-options`), and a
unit counts as compiled by the first step that needs it in its target
directory. A unit is the same unit when its package, target, profile, mode,
features and (recursively) dependencies are: what Cargo's fingerprint
compares. Build-script runs are not compilations and are not counted.

    python3 scripts/ci-units.py before|after|round2|now

`before` models .ci/run as it was at commit 9114a50, `after` as it was at
commit fa3eddf, `round2` as it was at commit a2a9a81: check-packages's
verification builds and the README's crate under the workspace's dev
profile, docs.rs's builds of the libraries alone; `now` as it is now:
check-packages checks each tarball (`cargo check`) instead of building it
(BENCHMARKS.md, "CI and test time"). The order of the steps is the order of their first
compilation: docs.rs's, in the background since `now`, has a target
directory of its own, so where it runs does not change what it compiles. What no unit graph shows is left
out and said so: crates.io's skills-cli (cargo install), trybuild's and the
rebuild tests' scratch crates (those compile the same in both), and the
rebuild a changed environment variable forces (RUSTC_BOOTSTRAP in the
public API check, which thiserror's build script watches).
"""

import collections
import hashlib
import json
import os
import subprocess
import sys

PUBLISHED = ["skills-core", "skills-compiler", "skills-macros", "skills-bundle", "skills-bundle-mcp",
             "skills-rig", "skills-supply", "skills-scan", "skills-install", "skills-lsp", "skb"]


def graph(args):
    env = dict(os.environ, SKILLS_ACCEPTANCE="1")
    out = subprocess.run(["cargo", "+nightly", *args, "--unit-graph", "-Z", "unstable-options"],
                         check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out)


def unit_keys(g, tag):
    """Each unit's identity, a hash over its fields and its dependencies'."""
    units = g["units"]
    memo = {}

    def key(i):
        if i in memo:
            return memo[i]
        u = units[i]
        local = u["pkg_id"].startswith("path+")
        # The profile's name is not compared (Cargo's `Profile::comparable`):
        # `test`'s dependencies are `dev`'s.
        profile = {k: v for k, v in u["profile"].items() if k != "name"}
        own = json.dumps([u["pkg_id"], u["target"]["name"], u["target"]["kind"], profile, u["mode"],
                          u["features"], u["platform"], (tag(u) if local else "")], sort_keys=True)
        deps = sorted(key(d["index"]) for d in u["dependencies"])
        memo[i] = hashlib.sha256((own + "".join(deps)).encode()).hexdigest()
        return memo[i]

    return [(key(i), u) for i, u in enumerate(units)]


class Run:
    def __init__(self):
        self.built = collections.defaultdict(dict)  # target dir -> key -> unit
        self.rows = []

    def step(self, title, commands, note=""):
        counts = collections.Counter()
        names = collections.Counter()
        for cmd in commands:
            if callable(cmd):
                cmd(self)
                continue
            space, args, tag = cmd
            for k, u in unit_keys(graph(args), tag):
                if u["mode"] == "run-custom-build" or k in self.built[space]:
                    continue
                self.built[space][k] = u
                kind = ("doc" if u["mode"] == "doc" else
                        "check" if u["mode"] == "check" else
                        "opt" if u["profile"]["opt_level"] not in ("0",) else "debug")
                counts[kind] += 1
                names[u["target"]["name"]] += 1
        self.rows.append((title, counts, names, note))

    def forget(self, space, pred):
        for k in [k for k, u in self.built[space].items() if pred(u)]:
            del self.built[space][k]


def plain(u):
    return ""


def clippy(u):
    return "clippy" if u["mode"] == "check" else ""


def tarball(u):
    return "tarball"


def user(u):
    return "user"


def feature_matrix():
    meta = json.loads(subprocess.check_output(
        ["cargo", "metadata", "--format-version", "1", "--no-deps", "--locked"], text=True))
    out = []
    for p in meta["packages"]:
        if p.get("publish") == []:
            continue
        features = sorted(f for f in p["features"] if f != "default")
        kinds = {k for t in p["targets"] for k in t["kind"]}
        targets = sorted({flag for kind, flag in [("lib", "--lib"), ("proc-macro", "--lib"), ("bin", "--bins"),
                                                  ("test", "--tests"), ("example", "--examples")] if kind in kinds})
        combos = [["--no-default-features"], []]
        combos += [["--no-default-features", "--features", f] for f in features]
        if features:
            combos.append(["--all-features"])
        out += [(p["name"], targets + c) for c in combos]
    return out


def docsrs_commands(now=False, metadata_read=False):
    """docs.rs's builds. Until `now` (`metadata_read`), check-docsrs.py looked
    up `[package.metadata.docs.rs]` under the key "docs.rs", which `cargo
    metadata` never has (it gives `{"docs": {"rs": …}}`), and so built
    skills-bundle with its default features instead of all of them."""
    meta = json.loads(subprocess.check_output(["cargo", "metadata", "--no-deps", "--format-version", "1"], text=True))
    members = set(meta["workspace_members"])
    cmds = []
    for p in sorted(meta["packages"], key=lambda p: p["name"]):
        if p["id"] not in members or p.get("publish") == []:
            continue
        lib = any(k in ("lib", "rlib", "proc-macro") for t in p["targets"] for k in t["kind"])
        if now and not lib:
            continue
        s = ((p.get("metadata") or {}).get("docs") or {}).get("rs") or {} if metadata_read else {}
        args = ["doc", "-p", p["name"], "--no-deps"] + (["--lib"] if now else [])
        if s.get("all-features"):
            args.append("--all-features")
        cmds.append(("nightly:target/docsrs", args, plain))
    return cmds


def bundle_features():
    meta = json.loads(subprocess.check_output(["cargo", "metadata", "--no-deps", "--format-version", "1"], text=True))
    p = next(p for p in meta["packages"] if p["name"] == "skills-bundle")
    return ",".join("skills-bundle/" + f for f in sorted(p["features"]) if f != "default")


def main():
    which = sys.argv[1] if len(sys.argv) == 2 else ""
    if which not in ("before", "after", "round2", "now"):
        sys.exit(__doc__)
    after = which in ("after", "round2", "now")
    round2 = which in ("round2", "now")
    T = "stable:target"
    r = Run()
    r.step("cargo clippy", [(T, ["check", "--workspace", "--all-targets"], clippy)])
    r.step("public API (rustdoc JSON)", [(T, ["doc", "--no-deps", "-p", "skills-bundle", "-p", "skills-core",
                                              "--features", bundle_features()], plain)])
    r.step("cargo doc", [(T, ["doc", "--workspace", "--no-deps", "--all-features"], plain)])
    r.step("docs.rs (nightly)", docsrs_commands(now=round2, metadata_read=which == "now"))
    r.step("tests, both tiers", [(T, ["test", "--workspace", "--no-run"], plain)],
           "and the scratch crates of trybuild and the rebuild tests")
    r.step("the unshare test", [(T, ["test", "--workspace" if after else "-p", *([] if after else ["skb"]),
                                     "--test", "cli", "--no-run"], plain)])
    workspace_crates = set(PUBLISHED)

    def verify(run):
        # check-packages.sh, before: the workspace's own builds of the
        # packaged crates deleted from target/debug
        if not after:
            run.forget(T, lambda u: u["pkg_id"].startswith("path+") and
                       u["target"]["name"].replace("_", "-") in workspace_crates | {"skb"})

    # The verification builds, and the README's crate, are workspaces of
    # their own without the workspace's [profile] sections: until `now`,
    # Cargo's default dev profile (full debug info, no per-package
    # opt-level), so their units never matched the workspace's, though
    # they share a directory; `now` they are given the workspace's dev
    # profile (`--config`), and their dependencies are the debug skb's
    # wherever the features agree.
    D = T if round2 else "stable:target, default profile"
    verification = "check" if which == "now" else "build"
    packages = [verify] + [(D, [verification, "-p", c], tarball) for c in PUBLISHED] + [
        (D if after else "stable:target/package-user-target", ["build", "-p", "skills-bundle"], user),
        (T, ["build", "-p", "skb"], plain)]
    coexists = [(T, ["build", "-p", "skb"] if after else ["build", "--release", "-p", "skb"], plain)]
    features = [(T if after else "stable:target/features", ["check", "-p", c, *flags], plain)
                for c, flags in feature_matrix()]
    late = [("MCP (cargo build -p skb)", [(T, ["build", "-p", "skb"], plain)]),
            ("examples", [(T, ["build", "--workspace", "--example", "neutral", "--example", "rig",
                                "--example", "install"], plain)] if after else
             [(T, ["build", "-p", "skills-bundle", "--example", "neutral"], plain),
              (T, ["build", "-p", "skills-rig", "--example", "rig"], plain),
              (T, ["build", "-p", "skills-install", "--example", "install"], plain)]),
            ("walkthrough and README command (cargo build -p skb)", [(T, ["build", "-p", "skb"], plain)])]
    checks = [("check-packages.sh", packages, ""),
              ("check-coexists.sh", coexists, "and crates.io's skills-cli, " + ("debug" if after else "release")),
              ("check-features.sh", features, "")]
    if after:
        for title, cmds in late:
            r.step(title, cmds)
        # coexists before packages in the new order
        for title, cmds, note in [checks[1], checks[0], checks[2]]:
            r.step(title, cmds, note)
    else:
        for title, cmds, note in checks:
            r.step(title, cmds, note)
        for title, cmds in late:
            r.step(title, cmds)
    total = collections.Counter()
    print(f"| step ({which}) | compilations | check | debug | opt | doc | compiled in an earlier step's target too |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for title, c, names, note in r.rows:
        total += c
        print(f"| {title}{' (' + note + ')' if note else ''} | {sum(c.values())} | {c['check']} | {c['debug']} | "
              f"{c['opt']} | {c['doc']} | |")
    print(f"| total | {sum(total.values())} | {total['check']} | {total['debug']} | {total['opt']} | {total['doc']} | |")


if __name__ == "__main__":
    main()
