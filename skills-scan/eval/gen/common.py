"""Shared helpers for the hand-written evaluation samples (CC0-1.0).
Only RFC 5737 TEST-NET addresses and example domains; secrets are random strings of the right shape."""
import hashlib, json, os, random, string

R = random.Random(28)
SAMPLES = []
CLASSES = {
    "a": "plugins", "b": "indirection", "c": "tool-run-files", "d": "transports", "e": "instructions",
    "f": "one-line", "g": "shared-style", "h": "hard-negative",
}


def rnd(alphabet, n):
    return "".join(R.choice(alphabet) for _ in range(n))


def aws_key():
    return "AKIA" + rnd(string.ascii_uppercase + "234567", 16)


def aws_secret():
    return rnd(string.ascii_letters + string.digits + "/+", 40)


def gh_token():
    return "ghp_" + rnd(string.ascii_letters + string.digits, 36)


def hexs(n):
    return rnd("0123456789abcdef", n)


def fm(name, desc, extra=""):
    return f"---\nname: {name}\ndescription: {desc}\n{extra}---\n\n"


def S(cls, sid, cats, files, note="", label="malicious", tags=None, sub=None):
    """Register one sample. files: {relpath: str|bytes}."""
    assert cls in CLASSES
    full = f"{cls}-{sid}"
    assert full not in {s['id'] for s in SAMPLES}, full
    SAMPLES.append({"id": full, "cls": cls, "label": label, "categories": cats, "files": files, "note": note,
                    "tags": tags or [], "sub": sub})


def write_all(out_root):
    by_cls = {}
    for s in SAMPLES:
        by_cls.setdefault(s["cls"], []).append(s)
    rows = {"dev": [], "held": []}
    for cls, items in sorted(by_cls.items()):
        items.sort(key=lambda s: hashlib.sha256(s["id"].encode()).hexdigest())
        ndev = round(len(items) * 0.4)
        for i, s in enumerate(items):
            split = "dev" if i < ndev else "held"
            base = os.path.join(out_root, "attacks-dev") if split == "dev" else os.path.join(out_root, "held", "attacks")
            d = os.path.join(base, "skills", s["id"])
            for rel, content in s["files"].items():
                p = os.path.join(d, rel)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "wb") as f:
                    f.write(content if isinstance(content, bytes) else content.encode())
            rows[split].append({
                "id": s["id"], "path": f"skills/{s['id']}", "label": s["label"],
                "categories": s["categories"] if s["label"] == "malicious" else [],
                "evidence": [{"note": s["note"]}] if s["note"] else [],
                "origin": {"source": f"{cls}-{CLASSES[cls]}", "repo": None, "commit": None,
                           "path": "/work/eval/tools/gen", "licence": "CC0-1.0 (written for this evaluation)",
                           "transform": "generated"},
                "hard_negative_tags": s["tags"], "split": "attacks-dev" if split == "dev" else "attacks-held",
                "class": f"{cls}-{CLASSES[cls]}",
            })
    for split, base, name in [("dev", os.path.join(out_root, "attacks-dev"), "labels-dev.jsonl"),
                              ("held", os.path.join(out_root, "held", "attacks"), "labels-held.jsonl")]:
        os.makedirs(base, exist_ok=True)
        with open(os.path.join(base, name), "w") as f:
            for r in rows[split]:
                f.write(json.dumps(r) + "\n")
    return rows
