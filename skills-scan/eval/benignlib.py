#!/usr/bin/env python3
"""What every fresh benign builder shares (fresh11 onwards): the one home of the selection the fresh3..fresh10
builders each carried a copy of. A builder keeps only what is its own (its allow-list of repositories, its output
folder, its split name) and calls `build()`; `python3 benignlib.py` does nothing by itself.

Read-only towards the mirrors: bare mirrors fetched with the `fetch` tool into /work/.mirror/<owner>+<name>/repo
are read with `git ls-tree` and `git cat-file` only, and nothing from them is executed. Python 3 standard library.

What it owns:
- the exclusions: every repository named in an earlier manifest (benign-manifest.tsv, fresh*/MANIFEST-benign.tsv)
  or on an earlier builder's candidate list (the repository names in build_benign.py's and the fresh builders'
  docstrings and string literals), the always-excluded EXCLUDE repositories, and forks of them (a root commit
  shared with such a repository whose mirror is present);
- the skills left out: folders under vendor/, third_party/, external/, upstream/, node_modules/, .venv/,
  site-packages/, .system/, eval(s)/, fixture*/, test(s)/ (and "test-fixtures/", "e2e_tests/"), template(s)/,
  red-team*/; jailbreak kits and deliberately malicious samples (by folder name, or a SKILL.md whose opening
  presents itself as one: security skills doing ordinary defensive or educational work stay in, malware analysis,
  reverse engineering and authorised penetration tests included, unlike fresh3..fresh10's check); files over
  1 MiB and symlinks (not written); skills of more than MAX_FILES files; vendored copies of excluded publishers;
- the near-copy check: a SKILL.md whose long lines (>= 40 characters, whitespace-normalised) are >= 60 % shared
  with one already taken, with /work/shared/corpus/collections or /work/shared/scan/skills, with an EXCLUDE
  repository's mirror, or with an earlier manifest row whose repository's mirror is present (read at its recorded
  commit); and skills whose other files are mostly (>= 30 %) blobs of those;
- the selection: at most `cap` skills a repository, skills carrying code first, then in sha256(repo TAB path)
  order (a deterministic pseudo-random sample);
- the writers: OUT/benign/<owner>+<name>/<skill>-<hash6>/ per skill, OUT/benign/index.jsonl (one {"dir", "repo",
  "path", "commit", "split"} per line, as scripts/scan-eval.py's corpus_set reads) and OUT/MANIFEST-benign.tsv
  (repo, commit, path, licence, folder, files); and the re-extraction of a committed manifest (`from_manifest`),
  since a new selection depends on which mirrors are present."""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

MIRROR = "/work/.mirror"
EVAL_DIR = os.path.dirname(os.path.abspath(__file__))  # skills-scan/eval: the earlier manifests and builders
MAXF = 1 << 20
MAX_FILES = 300
NEAR = 0.6
EXCLUDE = {"github/awesome-copilot", "microsoft/cat-agent-skills", "getsentry/skills", "anthropics/skills",
           "anthropics/claude-plugins-official", "K-Dense-AI/claude-scientific-skills", "obra/superpowers",
           "trailofbits/skills", "wshobson/agents"}
# publishers whose skills are repackaged wholesale elsewhere: a folder named for one is a vendored copy
REPACKAGED = {"composiohq", "affaan-m", "ruvnet", "anthropics", "obra", "wshobson", "trailofbits", "sickn33", "k-dense-ai"}
SHARED_SKILLS = ["/work/shared/corpus/collections", "/work/shared/scan/skills"]

CODE_EXT = (".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".sh", ".bash", ".zsh", ".ps1", ".psm1", ".rb", ".go", ".pl",
            ".php", ".lua", ".rs", ".java", ".kt", ".swift", ".cs", ".bat", ".cmd")
SKIP_DIR = re.compile(r"(^|/)(tests?|fixtures?|__fixtures__|node_modules|\.git|\.local|\.cache|site-packages|\.venv|venv"
                      r"|vendor|vendored|third[_-]party|external|upstream|\.system|evals?|fixture[^/]*|_?templates?"
                      r"|red[-_]?team(ing)?)(/|$)", re.I)
# a parent folder of fixtures or tests ("test-fixtures/", "e2e_tests/")
FIXTURE_PARENT = re.compile(r"(^|[-_.])(fixtures?|tests?)([-_.]|$)", re.I)
# jailbreak kits and deliberately malicious samples are not benign material (by folder name, or by the opening of
# SKILL.md, where the frontmatter says what a skill is); security work of any ordinary kind stays in the set
ATTACK_NAME = re.compile(r"jailbreak|godmode|g0dm0d3|uncensor|keylog|credential[-_]?(dump|harvest|steal)"
                         r"|av[-_]?evasion|edr[-_]?(bypass|evasion)|infostealer", re.I)
ATTACK_DESC = re.compile(rb"jailbr(ea|oa)k|uncensor|malware sample|malicious payload|keylogger"
                         rb"|credential (harvest|steal)|(av|edr|antivirus) (evasion|bypass)", re.I)
# words that make such a mention defensive ("jailbreak prevention", "detect keyloggers"): a skill whose every mention
# sits within 40 bytes of one of them is ordinary security work and stays in the set
DEFENSIVE = re.compile(rb"prevent|mitigat|defen[cs]|detect|protect|guard|resist|harden|block|against|scan|audit"
                       rb"|review|secur", re.I)
# what a skill doing ordinary security work (malware analysis in a sandbox, reverse engineering, authorised
# penetration tests, incident response, forensics) says of itself: with it, a mention of malware samples, credential
# harvesting or evasion is that work's subject, not the skill's purpose (a jailbreak or uncensoring kit is not excused)
SECURITY_WORK = re.compile(rb"malware analy|sandbox|revers(e|ing)[ -]engineer|penetration test|pentest|incident respon"
                           rb"|forensic|threat hunt|red team exercise|authori[sz]ed (engagement|test)", re.I)
JAILBREAK = re.compile(rb"jailbr|uncensor", re.I)
LICS = [("MIT License", "MIT"), ("Permission is hereby granted", "MIT"), ("Apache License", "Apache-2.0"),
        ("Apache-2.0", "Apache-2.0"), ("BSD", "BSD"), ("GNU GENERAL PUBLIC", "GPL"), ("GNU AFFERO", "AGPL"),
        ("GNU LESSER", "LGPL"), ("Mozilla Public", "MPL-2.0"), ("CC0", "CC0-1.0"), ("Creative Commons", "CC"),
        ("Unlicense", "Unlicense")]
REPO_NAME = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")


def log(*a):
    print(*a, file=sys.stderr)


class Repo:
    """One bare mirror, read through a single `git cat-file --batch` process."""

    def __init__(self, gd):
        self.gd = gd
        self.p = subprocess.Popen(["git", "--git-dir", gd, "cat-file", "--batch"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)

    def git(self, *a):
        return subprocess.run(["git", "--git-dir", self.gd, *a], capture_output=True, check=True).stdout.decode(
            "utf-8", "surrogateescape")

    def blob(self, ref):
        self.p.stdin.write(ref.encode("utf-8", "surrogateescape") + b"\n")
        self.p.stdin.flush()
        head = self.p.stdout.readline().split()
        if len(head) < 3 or head[1] != b"blob":
            if len(head) >= 3:  # a non-blob object: drain it
                self.p.stdout.read(int(head[2]) + 1)
            return None
        data = self.p.stdout.read(int(head[2]))
        self.p.stdout.read(1)
        return data

    def tree(self, rev):
        """{path: (sha, size, mode)} of the blobs at rev"""
        out = {}
        for line in self.git("ls-tree", "-r", "-l", rev).splitlines():
            meta, path = line.split("\t", 1)
            mode, typ, sha, size = meta.split()
            if typ == "blob" and size.isdigit():
                out[path] = (sha, int(size), mode)
        return out

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def h(b):
    return hashlib.sha256(b).hexdigest()


def norm_md(b):
    return h(re.sub(rb"\s+", b" ", b).strip())


def long_lines(b):
    """hashes of the long, whitespace-normalised lines of a SKILL.md (for near-duplicate detection)"""
    out = set()
    for line in b.splitlines():
        line = re.sub(rb"\s+", b" ", line).strip()
        if len(line) >= 40:
            out.add(hashlib.sha1(line).digest()[:8])
    return out


def git_blob_id(b):
    return hashlib.sha1(b"blob %d\0" % len(b) + b).hexdigest()


def gitdir(repo):
    d = f"{MIRROR}/{repo.replace('/', '+', 1)}/repo"
    return d + "/.git" if os.path.isdir(d + "/.git") else d


def roots(gd):
    """root commits of a mirror (a fork shares them with its origin)"""
    try:
        return set(subprocess.run(["git", "--git-dir", gd, "rev-list", "--max-parents=0", "HEAD"], capture_output=True,
                                  check=True, text=True).stdout.split())
    except (OSError, subprocess.CalledProcessError):
        return set()


class Seen:
    """The SKILL.md texts and other blobs a new skill must not copy: exact hashes, long-line index, file blobs."""

    def __init__(self):
        self.inv, self.doc_len, self.exact, self.files = {}, [], set(), set()

    def add(self, md, others=()):
        self.exact.add(norm_md(md))
        ls = long_lines(md)
        i = len(self.doc_len)
        self.doc_len.append(len(ls))
        for x in ls:
            self.inv.setdefault(x, []).append(i)
        self.files.update(others)

    def near(self, md):
        """whether md shares >= NEAR of its long lines with a text already added (or one shares that much of it)"""
        ls = long_lines(md)
        if len(ls) < 3:
            return False
        shared = {}
        for x in ls:
            for i in self.inv.get(x, ()):
                shared[i] = shared.get(i, 0) + 1
        return any(n / len(ls) >= NEAR or (self.doc_len[i] >= 5 and n / self.doc_len[i] >= NEAR)
                   for i, n in shared.items())


def attack_text(md):
    """whether the opening of a SKILL.md presents the skill as a jailbreak kit or a malicious sample"""
    head = md[:1500]
    work = SECURITY_WORK.search(head)
    return any(not DEFENSIVE.search(head[max(0, m.start() - 40):m.end() + 40])
               and not (work and not JAILBREAK.match(m.group(0))) for m in ATTACK_DESC.finditer(head))


def skill_dirs_of(entries):
    return sorted({os.path.dirname(p) for p in entries
                   if os.path.basename(p) == "SKILL.md" and entries[p][2] in ("100644", "100755")})


def skill_files(entries, all_dirs, sd):
    """the regular files of skill folder sd (nested skills, symlinks, submodules and files over MAXF left out)"""
    pref = sd + "/" if sd else ""
    nested = [s + "/" for s in all_dirs if s != sd and (s.startswith(pref) if pref else True)]
    return [p for p in entries if p.startswith(pref) and not any(p.startswith(n) for n in nested)
            and entries[p][1] <= MAXF and entries[p][2] in ("100644", "100755")]


def write_skill(g, entries, files, pref, dest):
    """write files (paths below pref) under dest; returns the files written"""
    done = []
    for p in files:
        rel = p[len(pref):]
        if not rel or rel.startswith("/") or ".." in rel.split("/"):
            continue
        data = g.blob(entries[p][0])
        if data is None:
            continue
        fp = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(fp), exist_ok=True)
        with open(fp, "wb") as f:
            f.write(data)
        done.append(p)
    return done


def write_outputs(out, split, rows):
    with open(f"{out}/MANIFEST-benign.tsv", "w") as f:
        f.write("repo\tcommit\tpath\tlicence\tfolder\tfiles\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    with open(f"{out}/benign/index.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps({"dir": r[4], "repo": r[0], "path": r[2], "commit": r[1], "split": split}) + "\n")


def read_manifest(mf):
    return [line.rstrip("\n").split("\t") for line in list(open(mf))[1:] if line.strip()]


def from_manifest(out, split, mf):
    """re-extract exactly the rows of a manifest, each at its recorded commit, instead of selecting again"""
    rows, missing = [], 0
    shutil.rmtree(f"{out}/benign", ignore_errors=True)
    os.makedirs(f"{out}/benign", exist_ok=True)
    by = {}
    for r in read_manifest(mf):
        by.setdefault((r[0], r[1]), []).append(r)
    for (repo, commit), rs in by.items():
        try:
            g = Repo(gitdir(repo))
            entries = g.tree(commit)
        except (OSError, subprocess.CalledProcessError):
            missing += len(rs)
            continue
        all_dirs = skill_dirs_of(entries)
        for r in rs:
            sd = "" if r[2] == "." else r[2]
            pref = sd + "/" if sd else ""
            if pref + "SKILL.md" not in entries or ".." in r[4].split("/"):
                missing += 1
                continue
            files = write_skill(g, entries, skill_files(entries, all_dirs, sd), pref, f"{out}/benign/{r[4]}")
            if len(files) != int(r[5]):
                log("file count differs:", r[4], len(files), "!=", r[5])
            rows.append(r)
        g.close()
    write_outputs(out, split, rows)
    log(len(rows), "skills re-extracted,", missing, "not found")


def earlier(own_dir):
    """(rows of every earlier manifest, names of every repository an earlier set used or listed); own_dir's
    manifest copy and builder are not earlier"""
    own_dir = os.path.abspath(own_dir)
    rows = []
    for mf in [os.path.join(EVAL_DIR, "benign-manifest.tsv")] + sorted(glob.glob(os.path.join(EVAL_DIR, "fresh*", "MANIFEST-benign.tsv"))):
        if os.path.dirname(os.path.abspath(mf)) != own_dir:
            rows += read_manifest(mf)
    used = {r[0] for r in rows}
    for bf in [os.path.join(EVAL_DIR, "build_benign.py")] + sorted(glob.glob(os.path.join(EVAL_DIR, "fresh*", "build_fresh_benign.py"))):
        if os.path.dirname(os.path.abspath(bf)) == own_dir:
            continue
        bt = open(bf).read()
        for m in re.finditer(r'"""(.*?)"""', bt, re.S):
            used |= {w for w in m.group(1).split() if REPO_NAME.fullmatch(w)}
        used |= set(re.findall(r'"([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)"', bt))
    return rows, used


def load_seen(manifest_rows):
    """the shared corpus, the labelled set, every earlier manifest row whose mirror is present, the EXCLUDE mirrors"""
    seen = Seen()
    for root in SHARED_SKILLS:
        for dp, _, fn in os.walk(root):
            if "SKILL.md" in fn:
                others = set()
                for dp2, _, fn2 in os.walk(dp):
                    for n in fn2:
                        fp2 = os.path.join(dp2, n)
                        if n != "SKILL.md" and not os.path.islink(fp2) and os.path.getsize(fp2) >= 200 \
                                and not n.upper().startswith(("LICENSE", "LICENCE", "README")):
                            others.add(git_blob_id(open(fp2, "rb").read()))
                seen.add(open(os.path.join(dp, "SKILL.md"), "rb").read(), others)
    by_repo = {}
    for r in manifest_rows:
        by_repo.setdefault(r[0], []).append(r)
    resolved = miss = 0
    for name, rows in sorted(by_repo.items()):
        gd = gitdir(name)
        if not os.path.isdir(gd):
            miss += len(rows)
            continue
        try:
            g = Repo(gd)
            trees = {}
            for r in rows:
                if r[1] not in trees:
                    try:
                        trees[r[1]] = g.tree(r[1])
                    except subprocess.CalledProcessError:
                        trees[r[1]] = g.tree("HEAD")
                t = trees[r[1]]
                pref = "" if r[2] == "." else r[2] + "/"
                if pref + "SKILL.md" not in t:
                    miss += 1
                    continue
                seen.add(g.blob(t[pref + "SKILL.md"][0]) or b"",
                         {v[0] for p, v in t.items() if p.startswith(pref) and not p.endswith("SKILL.md")})
                resolved += 1
            g.close()
        except (OSError, subprocess.CalledProcessError):
            miss += len(rows)
    log(f"earlier manifest rows read from mirrors: {resolved}, not resolvable: {miss}")
    for name in sorted(EXCLUDE):
        gd = gitdir(name)
        if not os.path.isdir(gd):
            continue
        g = Repo(gd)
        for path, (sha, _, _) in g.tree("HEAD").items():
            if path.endswith("SKILL.md"):
                seen.add(g.blob(sha) or b"")
            elif "skills/" in path:
                seen.files.add(sha)
        g.close()
    log("excluded SKILL.md hashes:", len(seen.exact), "other files:", len(seen.files))
    return seen


def path_ok(sd, used_owners):
    if SKIP_DIR.search(sd) or ATTACK_NAME.search(os.path.basename(sd)):
        return False
    if any(FIXTURE_PARENT.search(seg) for seg in sd.split("/")[:-1]):
        return False
    # vendored copies of earlier/excluded publishers' skills ("<owner>/..." or "<owner>--<repo>/...")
    return not any(seg.lower() in REPACKAGED or ("--" in seg and seg.lower().split("--")[0] in used_owners)
                   for seg in sd.split("/")[:-1])


def lic_guess(t):
    for k, v in LICS:
        if k.lower() in t.lower():
            return v
    return None


def repo_licence(g, tree):
    for cand in ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "LICENCE.md", "license", "License", "COPYING",
                 "LICENSE-MIT", "LICENSE-APACHE"]:
        if cand in tree:
            b = g.blob(tree[cand][0]) or b""
            return lic_guess(b[:3000].decode("utf-8", "replace")) or "see " + cand
    return "unknown"


def skill_licence(md, files, g, entries, pref):
    m = re.search(rb"^license:\s*(.+)$", md[:3000], re.M)
    if m:
        return m.group(1).decode("utf-8", "replace").strip().strip("'\"")[:40]
    for p in sorted(files):
        base = p[len(pref):]
        if "/" not in base and base.upper().startswith(("LICENSE", "LICENCE")):
            b = g.blob(entries[p][0]) or b""
            return lic_guess(b[:3000].decode("utf-8", "replace")) or "see " + base
    return None


def has_code(code_dirs, s):
    return any(c == s or c.startswith(s + "/") for c in code_dirs) if s else bool(code_dirs)


def select_repo(repo, g, seen, used_owners, cap, out):
    """the skills taken from one mirror (at most cap), written under out/benign; returns the manifest rows"""
    d = repo.replace("/", "+", 1)
    commit = g.git("rev-parse", "HEAD").strip()
    entries = g.tree("HEAD")
    lic = repo_licence(g, {p: v for p, v in entries.items() if "/" not in p})
    all_dirs = skill_dirs_of(entries)
    skill_dirs = [s for s in all_dirs if path_ok(s, used_owners)]
    code_dirs = {os.path.dirname(p) for p in entries if p.lower().endswith(CODE_EXT)}
    skill_dirs.sort(key=lambda s: (not has_code(code_dirs, s), h((repo + "\t" + s).encode())))
    rows = []
    dup = big = near = fcopy = attack = 0
    for sd in skill_dirs:
        if len(rows) >= cap:
            break
        pref = sd + "/" if sd else ""
        md = g.blob(entries[pref + "SKILL.md"][0]) or b""
        if norm_md(md) in seen.exact:
            dup += 1
            continue
        if attack_text(md):
            log("  attack/jailbreak text, left out:", repo, sd)
            attack += 1
            continue
        if seen.near(md):
            near += 1
            continue
        files = skill_files(entries, all_dirs, sd)
        if len(files) > MAX_FILES:
            big += 1
            continue
        others = [p for p in files if p != pref + "SKILL.md" and entries[p][1] >= 200
                  and not os.path.basename(p).upper().startswith(("LICENSE", "LICENCE", "README"))]
        copied = sum(entries[p][0] in seen.files for p in others)
        if others and copied >= 1 and copied / len(others) >= 0.3:
            fcopy += 1
            continue
        seen.add(md)
        key = h((repo + "\t" + sd).encode())
        name = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(sd) or d.split("+", 1)[1])[:60] + "-" + key[:6]
        files = write_skill(g, entries, files, pref, f"{out}/benign/{d}/{name}")
        slic = skill_licence(md, files, g, entries, pref)
        rows.append((repo, commit, sd or ".", slic + " (skill)" if slic else lic, f"{d}/{name}", str(len(files))))
    log(f"{repo}\t{len(rows)} of {len(skill_dirs)} (dup {dup}, near-copy {near}, file-copy {fcopy}, attack {attack}, "
        f">{MAX_FILES} files {big})")
    return rows


def build(split, out, repos, own_dir, cap=40):
    """select a new set from the mirrors of repos (an explicit allow-list) into out; own_dir is the builder's folder
    (its manifest copy is not an earlier set). With MANIFEST=<a manifest> in the environment, re-extract that
    manifest's rows instead."""
    if os.environ.get("MANIFEST"):
        from_manifest(out, split, os.environ["MANIFEST"])
        return
    manifest_rows, used = earlier(own_dir)
    used_lower = {r.lower() for r in used | EXCLUDE}
    used_owners = {r.split("/")[0] for r in used_lower}
    seen = load_seen(manifest_rows)
    old_roots = set()
    for name in sorted(used | EXCLUDE):
        if os.path.isdir(gitdir(name)):
            old_roots |= roots(gitdir(name))
    log("root commits of earlier/excluded repos:", len(old_roots))
    shutil.rmtree(f"{out}/benign", ignore_errors=True)  # rebuilt from scratch each run
    os.makedirs(f"{out}/benign", exist_ok=True)
    rows = []
    for repo in repos:
        if repo.lower() in used_lower:
            log("SKIP (excluded/used before):", repo)
            continue
        gd = gitdir(repo)
        if not os.path.isdir(gd):
            log("SKIP (no mirror):", repo)
            continue
        if roots(gd) & old_roots:
            log("SKIP (fork of an earlier/excluded repo):", repo)
            continue
        g = Repo(gd)
        rows += select_repo(repo, g, seen, used_owners, cap, out)
        g.close()
    write_outputs(out, split, rows)
    code = sum(1 for r in rows
               if any(p.lower().endswith(CODE_EXT) for _, _, fs in os.walk(f"{out}/benign/{r[4]}") for p in fs))
    log(len(rows), "skills from", len({r[0] for r in rows}), "repos;", code, "carry code")
