#!/usr/bin/env python3
"""Lists the public API of skills-bundle, one sorted line per public path.

Reads rustdoc's JSON output (built by scripts/public-api.sh) for
skills-bundle and for the crates its re-exports come from (skills-core),
and walks the crate from its root the way a user reaches items: modules,
re-exports (followed into the defining crate's JSON, under the re-exported
name), the fields, variants and methods of each type, and trait impls
other than auto traits and blanket impls. Each line is

    <path> <kind> [non_exhaustive] [cfg(<the cfgs it needs>)]

usage: public-api.py ROOT.json [OTHER.json ...]   # prints the list
"""

import json
import re
import sys

SPAN = re.compile(r",?\s*(?:span: )?[^\s,()\[\]]+:\d+:\d+: \d+:\d+ \(#\d+\)")


def cfg_text(attrs):
    """The `cfg` conditions of an item, as Rust source, from rustdoc's attrs."""
    out = []
    for a in attrs:
        text = a.get("other") if isinstance(a, dict) else a
        if not isinstance(text, str) or "CfgTrace(" not in text:
            continue
        body = text[text.index("CfgTrace(") + len("CfgTrace(") : text.rindex(")")]
        body = SPAN.sub("", body)
        body = re.sub(r'NameValue \{ name: "(\w+)", value: None \}', r"\1", body)
        body = re.sub(
            r'NameValue \{ name: "(\w+)", value: Some\("([^"]*)"\) \}', r'\1 = "\2"', body
        )
        body = body.replace("All([", "all(").replace("Any([", "any(")
        body = body.replace("Not(", "not(").replace("])", ")")
        body = body.strip()
        if body.startswith("[") and body.endswith("]"):
            body = body[1:-1]
        out.append(body)
    return out


def cfg_suffix(cfgs):
    """` cfg(...)`, the conjunction of `cfgs`, or nothing."""
    if not cfgs:
        return ""
    conds = sorted(set(cfgs))
    return " cfg(" + (conds[0] if len(conds) == 1 else "all(" + ", ".join(conds) + ")") + ")"


class Crate:
    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)
        self.index = self.doc["index"]
        self.paths = self.doc["paths"]
        self.name = self.index[str(self.doc["root"])]["name"]
        # path (tuple) -> id, for the crate's own items
        self.by_path = {}
        for id_, p in self.paths.items():
            if p["crate_id"] == 0:
                self.by_path[(tuple(p["path"]), p["kind"])] = id_

    def item(self, id_):
        return self.index.get(str(id_))


class Walker:
    def __init__(self, crates):
        self.crates = {c.name: c for c in crates}
        self.lines = set()
        self.seen = set()

    def emit(self, path, kind, cfgs, extra=""):
        line = "::".join(path) + " " + kind
        if extra:
            line += " " + extra
        self.lines.add(line + cfg_suffix(cfgs))

    def resolve(self, crate, id_):
        """The (crate, item) an id names, following into other crates' JSON."""
        it = crate.item(id_)
        if it is not None:
            return crate, it
        p = crate.paths.get(str(id_))
        if p is None:
            return None, None
        other = self.crates.get(p["path"][0])
        if other is None:
            return None, None
        oid = other.by_path.get((tuple(p["path"]), p["kind"]))
        if oid is None:
            return None, None
        return other, other.item(oid)

    def cfgs_of(self, crate, it):
        own = cfg_text(it.get("attrs", []))
        if crate.name != self.root.name:
            own = [f"{crate.name}: {c}" for c in own]
        return own

    def walk_root(self, crate):
        self.root = crate
        root = crate.item(crate.doc["root"])
        self.walk_module(crate, root, [crate.name], [])

    def walk_module(self, crate, mod, path, cfgs):
        key = (crate.name, mod["id"], tuple(path))
        if key in self.seen:
            return
        self.seen.add(key)
        for id_ in mod["inner"]["module"]["items"]:
            it = crate.item(id_)
            if it is None or it["visibility"] != "public":
                continue
            if "use" in it["inner"]:
                use = it["inner"]["use"]
                ucfgs = cfgs + self.cfgs_of(crate, it)
                tcrate, target = self.resolve(crate, use["id"]) if use["id"] is not None else (None, None)
                if use["is_glob"]:
                    if target is not None and "module" in target["inner"]:
                        self.walk_module(tcrate, target, path, ucfgs)
                    else:
                        self.emit(path + ["*"], "glob-reexport-of-" + use["source"], ucfgs)
                    continue
                if target is None:
                    self.emit(path + [use["name"]], "reexport-of-" + use["source"], ucfgs)
                    continue
                self.walk_item(tcrate, target, path + [use["name"]], ucfgs)
            else:
                self.walk_item(crate, it, path + [it["name"]], cfgs)

    def walk_item(self, crate, it, path, cfgs):
        cfgs = cfgs + self.cfgs_of(crate, it)
        kind = next(iter(it["inner"]))
        inner = it["inner"][kind]
        doc_hidden = any(
            (a.get("other") if isinstance(a, dict) else a) in ("#[doc(hidden)]",)
            or (isinstance(a, dict) and "hidden" in str(a.get("other", "")) and "doc" in str(a))
            for a in it.get("attrs", [])
        )
        extra = "non_exhaustive" if "non_exhaustive" in it.get("attrs", []) else ""
        if doc_hidden:
            extra = (extra + " doc(hidden)").strip()
        if kind == "module":
            self.emit(path, "mod", cfgs, extra)
            if not doc_hidden:
                self.walk_module(crate, it, path, cfgs)
            return
        self.emit(path, kind, cfgs, extra)
        if kind == "struct":
            skind = inner["kind"]
            fields = []
            if isinstance(skind, dict) and "plain" in skind:
                fields = skind["plain"]["fields"]
            elif isinstance(skind, dict) and "tuple" in skind:
                fields = [f for f in skind["tuple"] if f is not None]
            for i, f in enumerate(fields):
                fi = crate.item(f)
                if fi and fi["visibility"] == "public":
                    self.emit(path + [fi["name"]], "field", cfgs + self.cfgs_of(crate, fi))
            self.walk_impls(crate, inner["impls"], path, cfgs, it["id"])
        elif kind == "enum":
            for v in inner["variants"]:
                vi = crate.item(v)
                if vi is None:
                    continue
                vcfgs = cfgs + self.cfgs_of(crate, vi)
                vext = "non_exhaustive" if "non_exhaustive" in vi.get("attrs", []) else ""
                self.emit(path + [vi["name"]], "variant", vcfgs, vext)
                vk = vi["inner"]["variant"]["kind"]
                if isinstance(vk, dict) and "struct" in vk:
                    for f in vk["struct"]["fields"]:
                        fi = crate.item(f)
                        if fi:
                            self.emit(path + [vi["name"], fi["name"]], "field", vcfgs)
            self.walk_impls(crate, inner["impls"], path, cfgs, it["id"])
        elif kind == "trait":
            for t in inner["items"]:
                ti = crate.item(t)
                if ti:
                    tk = next(iter(ti["inner"]))
                    self.emit(path + [ti["name"]], "trait-" + tk, cfgs + self.cfgs_of(crate, ti))

    def walk_impls(self, crate, impls, path, cfgs, self_id):
        for i in impls:
            im = crate.item(i)
            if im is None:
                continue
            imp = im["inner"]["impl"]
            if imp["is_synthetic"] or imp["blanket_impl"] is not None:
                continue
            icfgs = cfgs + self.cfgs_of(crate, im)
            if imp["trait"] is None:
                for m in imp["items"]:
                    mi = crate.item(m)
                    if mi and mi["visibility"] == "public":
                        mk = next(iter(mi["inner"]))
                        self.emit(path + [mi["name"]], "method" if mk == "function" else mk,
                                  icfgs + self.cfgs_of(crate, mi))
            else:
                tr = imp["trait"]
                name = tr["path"].split("::")[-1]
                args = tr.get("args") or {}
                ab = args.get("angle_bracketed") if isinstance(args, dict) else None
                if ab and ab.get("args"):
                    name += "<" + ", ".join(type_text(a.get("type")) for a in ab["args"]) + ">"
                for_ = imp["for"]
                on_self = isinstance(for_, dict) and for_.get("resolved_path", {}).get("id") == self_id
                target = "::".join(path) if on_self else type_text(for_) + " (from " + "::".join(path) + ")"
                self.lines.add(f"impl {name} for {target}" + cfg_suffix(icfgs))


def type_text(t):
    if not isinstance(t, dict):
        return "_"
    if "resolved_path" in t:
        return t["resolved_path"]["path"].split("::")[-1]
    if "primitive" in t:
        return t["primitive"]
    if "borrowed_ref" in t:
        return "&" + type_text(t["borrowed_ref"]["type"])
    if "generic" in t:
        return t["generic"]
    if "slice" in t:
        return "[" + type_text(t["slice"]) + "]"
    return "_"


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    crates = [Crate(p) for p in argv[1:]]
    w = Walker(crates)
    w.walk_root(crates[0])
    for line in sorted(w.lines):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
