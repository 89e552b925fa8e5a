#!/usr/bin/env python3
"""Finds import cycles between the source files of each crate.

A file imports another when it names an item the other defines: through
`use crate::…`, `use super::…`, `use self::…`, or a path written inline in
the code (`crate::a::f()`). Re-exports are followed to the file that
defines the item, so importing through a facade is an edge to the item's
home, not to the facade; `mod child;` alone is no edge. Items of a crate's
root file (`lib.rs`, `main.rs`) count like any other file's.

A `#[cfg(test)]` module's imports are left out unless `--tests` is given:
unit tests beside an analyzer may drive the whole crate through its entry
point (`crate::scan`), which is no layering of the code itself. With
`--tests`, a test module's `super::` is the file it sits in.

Without arguments, checks every library, proc-macro and binary target of
every workspace member, as `cargo metadata --no-deps` lists them; with
arguments, the crates whose source folders (holding `lib.rs` or `main.rs`)
or root files they name. Prints every strongly connected group of two or
more files and exits 1 if there is one; `--graph` prints the edges too.

    python3 scripts/check-import-cycles.py [--graph] [--tests] [CRATE_SRC_DIR_OR_ROOT...]
"""

import json
import os
import re
import subprocess
import sys

# Target kinds whose sources are a crate's own code (tests and benches are
# single files or folders of topics, checked by their own crates' tests).
KINDS = {"lib", "rlib", "proc-macro", "bin"}


def workspace_roots(root):
    """The root file of every library, proc-macro and binary target of the
    workspace's members, from `cargo metadata`."""
    out = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1"],
        cwd=root, check=True, capture_output=True, text=True,
    ).stdout
    meta = json.loads(out)
    members = set(meta["workspace_members"])
    roots = []
    for package in meta["packages"]:
        if package["id"] not in members:
            continue
        for t in package["targets"]:
            if KINDS & set(t["kind"]):
                roots.append(os.path.normpath(t["src_path"]))
    return sorted(set(roots))


def crate_root(arg):
    """The root file of a crate given as its source folder or root file."""
    if os.path.isfile(arg):
        return arg
    for name in ("lib.rs", "main.rs"):
        if os.path.exists(os.path.join(arg, name)):
            return os.path.join(arg, name)
    sys.exit(f"check-import-cycles: no lib.rs or main.rs in `{arg}`")


def strip(text):
    """Removes comments, strings and char literals, keeping line structure."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 40]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.[^']*|[^\\'])'", text[i:i + 12]):
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:i + 12])
            out.append("' '")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_top(s):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def expand_tree(tree, prefix=()):
    """`a::{b, c::d as e}` -> [(path, alias)]."""
    tree = tree.strip()
    m = re.match(r"^(.*?)\{(.*)\}$", tree, re.S)
    if m:
        head = [s for s in m.group(1).strip().rstrip(":").split("::") if s.strip()]
        res = []
        for part in split_top(m.group(2)):
            res += expand_tree(part, prefix + tuple(s.strip() for s in head))
        return res
    alias = None
    am = re.match(r"^(.*)\s+as\s+(\w+)$", tree, re.S)
    if am:
        tree, alias = am.group(1), am.group(2)
    segs = tuple(s.strip() for s in tree.split("::") if s.strip())
    full = prefix + segs
    if full and full[-1] == "self":
        full = full[:-1]
    return [(full, alias)]


class Module:
    def __init__(self, path, file):
        self.path = path  # tuple
        self.file = file
        self.children = {}  # name -> Module
        self.reexports = {}  # name -> absolute path tuple (pub use)
        self.globs = []  # absolute module paths (pub use x::*)
        self.external = set()  # names brought in from other crates
        self.uses = []  # (abs path tuple) from use statements
        self.inline = []  # raw inline paths (start segment, rest)
        self.test_text = ""


def module_files(root):
    """Maps module path tuples to files for the crate rooted at `root`."""
    mods = {}

    def visit(path, file):
        mod = Module(path, file)
        mods[path] = mod
        text = strip(open(file, encoding="utf-8").read())
        base = os.path.dirname(file)
        stem = os.path.splitext(os.path.basename(file))[0]
        if stem not in ("lib", "main", "mod") and file != root:
            base = os.path.join(base, stem)
        # Drop `#[cfg(test)] mod x { ... }` bodies: their super:: is this file.
        main_text, test_text = text, ""
        tm = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)
        if tm:
            main_text, test_text = text[: tm.start()], text[tm.start():]
        mod.text = main_text
        mod.test_text = test_text
        for m in re.finditer(r"(#\[path\s*=\s*\"[^\"]*\"\]\s*)?(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", main_text):
            name = m.group(2)
            cands = [os.path.join(base, name + ".rs"), os.path.join(base, name, "mod.rs")]
            for c in cands:
                if os.path.exists(c):
                    mod.children[name] = visit(path + (name,), c)
                    break
        return mod

    visit((), root)
    return mods


def resolve_start(mod_path, segs):
    """Turns a path relative to a module into an absolute one, or None."""
    if not segs:
        return None
    if segs[0] == "crate":
        return segs[1:]
    if segs[0] == "self":
        return mod_path + segs[1:]
    if segs[0] == "super":
        p = mod_path
        while segs and segs[0] == "super":
            if not p:
                return None
            p = p[:-1]
            segs = segs[1:]
        return p + tuple(segs)
    return None


def parse(mods, tests):
    use_re = re.compile(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.S)
    for mod in mods.values():
        parts = [(mod.text, False)] + ([(mod.test_text, True)] if tests else [])
        for part, is_test in parts:
            here = mod.path
            for m in use_re.finditer(part):
                is_pub = bool(m.group(1)) and not is_test
                for segs, alias in expand_tree(m.group(2)):
                    if not segs:
                        continue
                    if is_test and segs[0] == "super":
                        segs = ("self",) + segs[1:]
                    absolute = resolve_start(here, segs)
                    if absolute is None:
                        # `use child::x` (2018 paths relative to this module).
                        if segs[0] in mod.children:
                            absolute = here + segs
                        else:
                            if not is_test and segs[-1] != "*":
                                mod.external.add(alias or segs[-1])
                            continue
                    if absolute and absolute[-1] == "*":
                        if is_pub:
                            mod.globs.append(absolute[:-1])
                        mod.uses.append(absolute[:-1] + ("*",))
                        continue
                    if is_pub:
                        mod.reexports[alias or absolute[-1]] = absolute
                    mod.uses.append(absolute)
            body = use_re.sub("", part)
            for m in re.finditer(r"\b((?:crate|super|self)(?:::\w+)+)", body):
                segs = tuple(m.group(1).split("::"))
                if is_test and segs[0] == "super":
                    segs = ("self",) + segs[1:]
                absolute = resolve_start(here, segs)
                if absolute is not None:
                    mod.uses.append(absolute)
            # `child::item` written inline.
            for m in re.finditer(r"(?<![\w:])(\w+)::(\w+)", body):
                if m.group(1) in mod.children:
                    mod.uses.append(here + (m.group(1), m.group(2)))


def target(mods, absolute, depth=0):
    """The file defining what `absolute` names."""
    if depth > 20:
        return None
    cur = mods.get(())
    i = 0
    while i < len(absolute):
        seg = absolute[i]
        if seg == "*":
            return cur.file
        if seg in cur.children:
            cur = cur.children[seg]
            i += 1
            continue
        if seg in cur.external and seg not in cur.reexports:
            return None
        if seg in cur.reexports:
            return target(mods, cur.reexports[seg] + tuple(absolute[i + 1:]), depth + 1)
        for g in cur.globs:
            t = target(mods, g + (seg,) + tuple(absolute[i + 1:]), depth + 1)
            if t is not None and t != mods[g].file if g in mods else False:
                return t
        return cur.file
    return cur.file


def sccs(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    graph = "--graph" in sys.argv
    tests = "--tests" in sys.argv
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    crates = [crate_root(a) for a in args] if args else workspace_roots(root)
    bad = 0
    for crate in crates:
        mods = module_files(crate)
        parse(mods, tests)
        edges, nodes = {}, set()
        for mod in mods.values():
            nodes.add(mod.file)
            for absolute in mod.uses:
                t = target(mods, absolute)
                if t and t != mod.file:
                    edges.setdefault(mod.file, set()).add(t)
        rel = lambda f: os.path.relpath(f, root) if os.path.isabs(f) else os.path.normpath(f)
        if graph:
            for a in sorted(edges):
                for b in sorted(edges[a]):
                    print(f"{rel(a)} -> {rel(b)}")
        groups = [g for g in sccs(nodes, edges) if len(g) > 1]
        print(f"{rel(crate)}: {len(nodes)} files, {sum(len(v) for v in edges.values())} imports, "
              f"{len(groups)} cycle(s)")
        for g in groups:
            bad += 1
            print("  cycle: " + " <-> ".join(rel(f) for f in g))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
