#!/usr/bin/env python3
"""Build the benign corpus from fetched bare mirrors (/work/.mirror/<owner>+<name>/repo).
Writes /work/eval/benign/MANIFEST.tsv and extracts each skill folder into benign-dev/ or held/benign/."""
import hashlib, os, subprocess, sys, json, re

MIRROR = "/work/.mirror"
OUT = os.environ.get("EVAL", "/work/eval")
EXCLUDE = {"github/awesome-copilot", "microsoft/cat-agent-skills", "getsentry/skills", "anthropics/skills"}
CAP = int(os.environ.get("CAP", "45"))
MAXF = 1 << 20

def git(gd, *a, text=True):
    return subprocess.run(["git", "--git-dir", gd, *a], capture_output=True, check=True, text=text).stdout

def h(b):
    return hashlib.sha256(b).hexdigest()

def norm_md(b):
    return h(re.sub(rb"\s+", b" ", b).strip())

# hashes to exclude: shared corpus, shared scan set, excluded repos
excl = set()
for root in ["/work/shared/corpus/collections", "/work/shared/scan/skills"]:
    for dp, dn, fn in os.walk(root):
        if "SKILL.md" in fn:
            excl.add(norm_md(open(os.path.join(dp, "SKILL.md"), "rb").read()))
excl_names = set()
for r in EXCLUDE:
    gd = f"{MIRROR}/{r.replace('/', '+')}/repo"
    if not os.path.isdir(gd):
        continue
    for line in git(gd, "ls-tree", "-r", "HEAD").splitlines():
        meta, path = line.split("\t", 1)
        if path.endswith("SKILL.md") and meta.split()[1] == "blob":
            excl.add(norm_md(git(gd, "cat-file", "blob", meta.split()[2], text=False)))
print("excluded SKILL.md hashes:", len(excl), file=sys.stderr)

def licence(gd, files):
    for cand in ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "license", "COPYING"]:
        if cand in files:
            t = git(gd, "show", f"HEAD:{cand}")[:3000]
            for k, v in [("MIT License", "MIT"), ("Permission is hereby granted", "MIT"), ("Apache License", "Apache-2.0"),
                         ("BSD", "BSD"), ("GNU GENERAL PUBLIC", "GPL"), ("Mozilla Public", "MPL-2.0"), ("CC0", "CC0-1.0"),
                         ("Creative Commons", "CC"), ("Unlicense", "Unlicense")]:
                if k in t:
                    return v
            return "see " + cand
    return "unknown"

def lic_guess(t):
    for k, v in [("MIT License", "MIT"), ("Permission is hereby granted", "MIT"), ("Apache License", "Apache-2.0"), ("Apache-2.0", "Apache-2.0"),
                 ("BSD", "BSD"), ("GNU GENERAL PUBLIC", "GPL"), ("Mozilla Public", "MPL-2.0"), ("CC0", "CC0-1.0"),
                 ("Creative Commons", "CC"), ("Unlicense", "Unlicense")]:
        if k.lower() in t.lower():
            return v
    return None


def skill_licence(d):
    try:
        m = re.search(r"^license:\s*(.+)$", open(os.path.join(d, "SKILL.md"), errors="ignore").read(3000), re.M)
        if m:
            return m.group(1).strip().strip("'\"")[:40]
        for n in sorted(os.listdir(d)):
            if n.upper().startswith(("LICENSE", "LICENCE")):
                return lic_guess(open(os.path.join(d, n), errors="ignore").read(3000)) or "see " + n
    except OSError:
        pass
    return None


rows, seen = [], set()
for d in sorted(os.listdir(MIRROR)):
    gd = f"{MIRROR}/{d}/repo"
    if not os.path.isdir(gd):
        continue
    repo = d.replace("+", "/", 1)
    if repo in EXCLUDE:
        continue
    commit = git(gd, "rev-parse", "HEAD").strip()
    entries = {}
    for line in git(gd, "ls-tree", "-r", "-l", "HEAD").splitlines():
        meta, path = line.split("\t", 1)
        mode, typ, sha, size = meta.split()
        if typ == "blob" and size.isdigit():
            entries[path] = (sha, int(size), mode)
    top = {p for p in entries if "/" not in p}
    lic = licence(gd, top)
    skill_dirs = sorted({os.path.dirname(p) for p in entries if os.path.basename(p) == "SKILL.md" and entries[p][2] in ("100644", "100755")})
    # skip .git-ish or test fixture dirs
    skill_dirs = [s for s in skill_dirs if not re.search(r"(^|/)(test|tests|fixtures?|__fixtures__|node_modules|\.git)(/|$)", s, re.I)]
    skill_dirs.sort(key=lambda s: h((repo + "/" + s).encode()))
    taken = 0
    for sd in skill_dirs:
        if taken >= CAP:
            break
        mdh = norm_md(git(gd, "cat-file", "blob", entries[(sd + "/" if sd else "") + "SKILL.md"][0], text=False))
        if mdh in excl or mdh in seen:
            continue
        pref = sd + "/" if sd else ""
        files = [p for p in entries if p.startswith(pref)]
        # drop files belonging to nested skills
        nested = [s + "/" for s in skill_dirs if s != sd and s.startswith(pref)]
        files = [p for p in files if not any(p.startswith(n) for n in nested)]
        files = [p for p in files if entries[p][1] <= MAXF and entries[p][2] != "120000" and entries[p][2] != "160000"]
        if len(files) > 300:
            continue
        seen.add(mdh)
        key = h((repo + "\t" + sd).encode())
        split = "dev" if int(key[:8], 16) / 0xFFFFFFFF < 0.4 else "held"
        name = (os.path.basename(sd) or d.split("+", 1)[1])[:60] + "-" + key[:6]
        base = f"{OUT}/benign-dev" if split == "dev" else f"{OUT}/held/benign"
        dest = f"{base}/{d}/{name}"
        for p in files:
            rel = p[len(pref):]
            fp = os.path.join(dest, rel)
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            with open(fp, "wb") as f:
                f.write(git(gd, "cat-file", "blob", entries[p][0], text=False))
        slic = skill_licence(dest)
        rows.append((repo, commit, sd or ".", slic + " (skill)" if slic else lic, f"{d}/{name}", split, str(len(files))))
        taken += 1
    print(repo, taken, "of", len(skill_dirs), file=sys.stderr)

os.makedirs(f"{OUT}/benign", exist_ok=True)
with open(f"{OUT}/benign/MANIFEST.tsv", "w") as f:
    f.write("repo\tcommit\tpath\tlicence\tfolder\tsplit\tfiles\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
for split, base in [("dev", f"{OUT}/benign-dev"), ("held", f"{OUT}/held/benign")]:
    with open(f"{base}/index.jsonl", "w") as f:
        for r in rows:
            if r[5] == split:
                f.write(json.dumps({"dir": r[4], "repo": r[0], "path": r[2]}) + "\n")
print(len(rows), "skills;", sum(r[5] == "dev" for r in rows), "dev", file=sys.stderr)
