#!/usr/bin/env python3
"""Builds the documentation of every published crate of the workspace as
docs.rs would: nightly rustdoc, `--cfg docsrs`, the features and arguments
the crate's `[package.metadata.docs.rs]` names (docs.rs's defaults when it
has none: default features, no extra arguments), one crate at a time, with
warnings denied. A stable `cargo doc` cannot see a break that only the
`docsrs` cfg or nightly shows (a removed nightly feature behind
`cfg_attr(docsrs, ...)` once broke skills-bundle's docs.rs page).

The crates come from `cargo metadata`: every workspace member whose
`publish` is not `false` and that has a library. docs.rs documents the
library alone (`cargo rustdoc --lib`; a crate without one, such as `skb`,
gets no documentation there), so that is what is built here: documenting
`skb`'s binary, which docs.rs never does, compiled 222 crates under nightly,
half of this check.

Crates whose docs.rs settings are the same (today every crate but
skills-bundle, which asks for all its features) are documented by one
`cargo doc` with a `-p` each: their dependencies are compiled once for the
group instead of once per crate (Cargo unifies the group's features, which
are each crate's defaults, as the workspace's own builds do). A crate with
settings of its own gets a command of its own. Needs the nightly toolchain (`rustup toolchain
install nightly --profile minimal`).

    python3 scripts/check-docsrs.py [--target-dir DIR]   (run by .ci/run)
"""

import json
import os
import subprocess
import sys


def published(meta):
    members = set(meta["workspace_members"])
    for p in meta["packages"]:
        if p["id"] in members and p.get("publish") != []:
            yield p


def has_library(package):
    """docs.rs documents a library or a proc-macro crate, nothing else."""
    return any(k in ("lib", "rlib", "proc-macro") for t in package["targets"] for k in t["kind"])


def docsrs_settings(package):
    """The crate's `[package.metadata.docs.rs]` table. `cargo metadata` gives
    TOML's dotted key as nested tables, `{"docs": {"rs": {...}}}`: a lookup of
    the key "docs.rs" finds nothing (it did, and skills-bundle's docs.rs page,
    built with `all-features = true`, was checked with its default features)."""
    return ((package.get("metadata") or {}).get("docs") or {}).get("rs") or {}


def settings_key(package):
    """What decides a crate's `cargo doc` line besides its name: crates with
    the same key are documented by one command."""
    return json.dumps(docsrs_settings(package), sort_keys=True)


def doc_command(packages, target_dir):
    """The `cargo doc` line and environment docs.rs would use for `packages`,
    which share their settings."""
    settings = docsrs_settings(packages[0])
    cmd = ["cargo", "+nightly", "doc"]
    for package in packages:
        cmd += ["-p", package["name"]]
    cmd += ["--lib", "--no-deps", "--target-dir", target_dir]
    if settings.get("all-features"):
        cmd.append("--all-features")
    if settings.get("no-default-features"):
        cmd.append("--no-default-features")
    if settings.get("features"):
        cmd += ["--features", ",".join(settings["features"])]
    env = dict(os.environ)
    env["RUSTDOCFLAGS"] = " ".join(["--cfg", "docsrs", "-D", "warnings"] + settings.get("rustdoc-args", []))
    if settings.get("rustc-args"):
        env["RUSTFLAGS"] = " ".join(settings["rustc-args"])
    return cmd, env


def main():
    target_dir = "target/docsrs"
    if sys.argv[1:2] == ["--target-dir"] and len(sys.argv) == 3:
        target_dir = sys.argv[2]
    elif sys.argv[1:]:
        sys.exit(__doc__)
    meta = json.loads(subprocess.check_output(["cargo", "metadata", "--no-deps", "--format-version", "1"], text=True))
    groups = {}
    for package in sorted(published(meta), key=lambda p: p["name"]):
        if not has_library(package):
            print(f"== {package['name']}: no library, so no docs on docs.rs", flush=True)
            continue
        groups.setdefault(settings_key(package), []).append(package)
    failed = []
    for packages in groups.values():
        cmd, env = doc_command(packages, target_dir)
        names = ", ".join(p["name"] for p in packages)
        print(f"== {names}: {' '.join(cmd[1:])} (RUSTDOCFLAGS={env['RUSTDOCFLAGS']!r})", flush=True)
        if subprocess.call(cmd, env=env) != 0:
            failed.append(names)
    if failed:
        sys.exit(f"check-docsrs: the docs of {', '.join(failed)} do not build as docs.rs builds them")
    print("every published crate's docs build as docs.rs builds them")


if __name__ == "__main__":
    main()
