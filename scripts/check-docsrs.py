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

Only crates that docs.rs builds differently from the workspace's stable
`cargo doc --workspace --all-features` (which CI runs with warnings denied)
are built: a crate with a `[package.metadata.docs.rs]` table or whose
sources name `docsrs` (today skills-bundle alone, the crate that broke).
Another crate's docs.rs build is that stable build under nightly rustdoc
with its default features: documenting the other nine under nightly took
130 s of CPU (a cold `cargo +nightly doc` of the nine, measured) to guard
against a nightly rustdoc regression, which this project could not fix
anyway. Crates whose docs.rs settings are the same are documented by one
`cargo doc` with a `-p` each. Needs the nightly toolchain (`rustup
toolchain install nightly --profile minimal`).

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


def built_apart(package):
    """Whether docs.rs builds the crate otherwise than the workspace's stable
    `cargo doc`: settings of its own, or `docsrs` named in its sources (a
    `cfg(docsrs)` or `cfg_attr(docsrs, ...)`)."""
    if docsrs_settings(package):
        return True
    roots = {os.path.dirname(t["src_path"]) for t in package["targets"]
             if any(k in ("lib", "rlib", "proc-macro") for k in t["kind"])}
    for root in roots:
        for folder, _, files in os.walk(root):
            for name in files:
                if name.endswith(".rs"):
                    with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                        if "docsrs" in f.read():
                            return True
    return False


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
        if not built_apart(package):
            print(f"== {package['name']}: no docs.rs settings and no `docsrs` in its sources: "
                  "docs.rs builds it as `cargo doc --workspace` does, under nightly", flush=True)
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
    print("every crate that docs.rs builds apart builds as docs.rs builds it")


if __name__ == "__main__":
    main()
