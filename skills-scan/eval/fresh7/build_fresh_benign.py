#!/usr/bin/env python3
"""Build the SEVENTH fresh held-out benign corpus (/work/eval/fresh7) from bare mirrors fetched with the
`fetch` tool into /work/.mirror/<owner>+<name>/repo. Nothing from the mirrors is executed: blobs are only
read with `git cat-file` and written out as files.

Exclusions: repos in the benign, fresh3, fresh4, fresh5 and fresh6 MANIFESTs or on the earlier builders' candidate lists, the repos
named in EXCLUDE, and every SKILL.md whose whitespace-normalised hash matches the shared corpus
(/work/shared/corpus/collections), the shared scan set (/work/shared/scan/skills), benign-dev, fresh3/benign,
fresh4/benign, fresh5/benign, fresh6/benign, the excluded repos' mirrors, and every MANIFEST row (read from the mirror at the recorded commit,
so /work/eval/held is never read).
Skill folders under vendor/, third_party/, external/, upstream/, .system/, eval(s)/, fixture*/, template(s)/, .local/, .cache/,
site-packages/, .venv/ or red-team(ing)/ (jailbreak tooling is not benign) are skipped.
Near-copies (>= 60 % of long SKILL.md lines shared with an excluded or already-taken SKILL.md) are dropped too.
Cap: CAP skills per repo (skills carrying code first, then hash-ordered: a deterministic pseudo-random sample).
Forks (a root commit shared with an earlier/excluded repo) are skipped."""
import hashlib, os, subprocess, sys, json, re

MIRROR = "/work/.mirror"
OUT = "/work/eval/fresh7"
CAP = int(os.environ.get("CAP", "40"))
MAXF = 1 << 20
EXCLUDE = {"github/awesome-copilot", "microsoft/cat-agent-skills", "getsentry/skills", "anthropics/skills",
           "anthropics/claude-plugins-official", "K-Dense-AI/claude-scientific-skills", "obra/superpowers",
           "trailofbits/skills", "wshobson/agents"}
# Explicit allow-list (other helpers may fetch unrelated, even hostile, repos into /work/.mirror).
REPOS = """
kjuhwa/skills-hub newkub/devin-skills pleaseai/claude-code-plugins CrestApps/CrestApps.AgentSkills jk-kim0/skills-jk
itumor/opencode-skills zhc1212/claude-code-skills coastdigitalgroup/coastai-skills wenmai-ai/wenmai-skills
leechangsu2131/my-skills justcyl/my-skills alex-voloshin-dev/ai-skills synapseradio/ai-skills
nasakoski/claude-code-skills whichguy/hermes-skills-marketplace Desko77/claude-code-skills-1c qi-o/claude-code-skills
julianobarbosa/claude-code-skills yuzhaopeng-up/financial-ai-skills solvelab/ai-skills Wbunker/skills-repo
shawn-dumas/claude-code-skills nsalvacao/nsalvacao-claude-code-plugins benperry6/my-skills sussdorff/claude-code-plugins
levonk/skills-releases majq1990/opencode-skills ohmyhotelco/hare-cc-plugins jizzoe/joericearchitect-ai-skills
espensev/ai-skills meriley/claude-code-skills dryvist/claude-code-plugins doodledood/claude-code-plugins
zeveck/zskills-dev fuzheado/Wikipedia-AI-Skills motlin/claude-code-plugins Zate/cc-plugins cuozg/oh-my-skills
robinlllll/claude-code-skills Clownnvd/claude-code-skills biwakonbu/cc-plugins bcmcpher/my-skills ondrasek/cc-plugins
mwguerra/claude-code-plugins TrogonStack/agentskills manifoldlogic/claude-code-plugins ewswlw/my-skills
silee9019/cc-plugins machingclee/my-skills BlueEventHorizon/bw-cc-plugins C0ntr0lledCha0s/claude-code-plugins
JacobPEvans/claude-code-plugins yebot/rad-cc-plugins datum-cloud/claude-code-plugins reggiechan74/cc-plugins
pablolok/gemini-skills ferparra/my-skills kterto/my-skills EduardValentin/ai-skills sammasak/claude-code-skills
gustavo-gardusi/cursor-skills wtsi-hgi/agentskills Postman-Devrel/devrel-claude-code-skills ArabAgentSkills/Skills
Arise-AI-Group/cc-plugins stellarshenson/claude-code-plugins haboshi/claude-code-skills marcospmail/claude-code-plugins
musingfox/cc-plugins zrt-ai-lab/opencode-skills jamiemills/opencode-skills Krastanov/JuliaLLMAgentSkills
luohao-brian/my-skills levnikolaevich/claude-code-skills ChoshimWy/iOSAgentSkills FunnyQ/cc-plugins
abhattacherjee/claude-code-skills photostructure/claude-code-skills 21-BreakinCode/cc-plugins yanmxa/cc-plugins
kenkenmain/ken-cc-plugins constellos/claude-code-plugins codethread/claude-code-plugins trancong12102/agentskills
Jodre11/claude-code-plugins EnigmaWU/MyCodeAgentSkills elimydlarz/claude-code-plugins BrocksiNet/ai-skills-shopware
schuettc/claude-code-plugins analitiq-ai/claude-code-plugins CuriouslyCory/my-skills AllanSantos-DV/claude-code-plugins
lestrrat-ai/claude-code-plugins NecturaLabs/AgentSkills evelan-de/claude-code-plugins nkia-ai-team/claude-code-skills
FHIDev/Fhi.AgentSkills fprochazka/claude-code-plugins Kweiza/kweiza-cc-plugins Executioner1939/claude-code-skills
pmeenan/ai-skills doritoes/claude-code-skills LayZeeDK/lz-advisor-claude-plugins paulomac1000/ai-skills
HollandDM/my-skills applab-nl/claude-code-plugins LiLo-Labs/claude-code-plugins edgedelta/claude-code-plugins
Connsulting/claude-code-plugins activeloopai/deeplake-claude-code-plugins armelhbobdad/oh-my-skills
famaoai-creator/gemini-skills CNaught-Inc/claude-code-plugins nelsonlove/claude-code-plugins xiaoshuai1024/cursor-skills
harrychuang/cursor-skills justinwetch/HIGAgentSkills SSiertsema/claude-code-plugins
""".split()
REPOS += os.environ.get("EXTRA_REPOS", "").split()
if os.environ.get("ONLY_REPOS"):
    REPOS = os.environ["ONLY_REPOS"].split()


def git(gd, *a, text=True):
    return subprocess.run(["git", "--git-dir", gd, *a], capture_output=True, check=True, text=text).stdout


def h(b):
    return hashlib.sha256(b).hexdigest()


def norm_md(b):
    return h(re.sub(rb"\s+", b" ", b).strip())


def long_lines(b):
    """hashes of the long, whitespace-normalised lines of a SKILL.md (for near-duplicate detection)"""
    out = set()
    for l in b.splitlines():
        l = re.sub(rb"\s+", b" ", l).strip()
        if len(l) >= 40:
            out.add(hashlib.sha1(l).digest()[:8])
    return out


NEAR = 0.6  # a SKILL.md sharing >= 60 % of its long lines with an excluded/already-taken one is a near-copy
inv, doc_len = {}, []


def add_doc(b):
    ls = long_lines(b)
    i = len(doc_len)
    doc_len.append(len(ls))
    for x in ls:
        inv.setdefault(x, []).append(i)


def near_dup(b):
    ls = long_lines(b)
    if len(ls) < 3:
        return False
    shared = {}
    for x in ls:
        for i in inv.get(x, ()):
            shared[i] = shared.get(i, 0) + 1
    return any(n / len(ls) >= NEAR or (doc_len[i] >= 5 and n / doc_len[i] >= NEAR) for i, n in shared.items())


def gitdir(repo):
    d = f"{MIRROR}/{repo.replace('/', '+', 1)}/repo"
    return d + "/.git" if os.path.isdir(d + "/.git") else d


manifest = [l.rstrip("\n").split("\t") for mf in ("/work/eval/benign/MANIFEST.tsv", "/work/eval/fresh3/MANIFEST-benign.tsv",
                                                     "/work/eval/fresh4/MANIFEST-benign.tsv", "/work/eval/fresh5/MANIFEST-benign.tsv",
                                                     "/work/eval/fresh6/MANIFEST-benign.tsv")
            for l in list(open(mf))[1:]]
used_before = {r[0] for r in manifest}
# repos on the earlier builders' candidate lists count as used too, even when they yielded nothing
for bf in ("/work/eval/tools/build_benign.py", "/work/eval/fresh3/build_fresh_benign.py", "/work/eval/fresh4/build_fresh_benign.py",
           "/work/eval/fresh5/build_fresh_benign.py", "/work/eval/fresh6/build_fresh_benign.py"):
    bt = open(bf).read()
    for m in re.finditer(r'"""(.*?)"""', bt, re.S):
        used_before |= {w for w in m.group(1).split() if re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", w)}
    used_before |= set(re.findall(r'"([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)"', bt))
excl, excl_files = set(), set()


def git_blob_id(b):
    return hashlib.sha1(b"blob %d\0" % len(b) + b).hexdigest()


for root in ["/work/shared/corpus/collections", "/work/shared/scan/skills", "/work/eval/benign-dev", "/work/eval/fresh3/benign",
             "/work/eval/fresh4/benign", "/work/eval/fresh5/benign", "/work/eval/fresh6/benign"]:
    for dp, dn, fn in os.walk(root):
        if "SKILL.md" in fn:
            b = open(os.path.join(dp, "SKILL.md"), "rb").read()
            excl.add(norm_md(b)); add_doc(b)
            for dp2, dn2, fn2 in os.walk(dp):
                for n in fn2:
                    if n != "SKILL.md" and not n.upper().startswith(("LICENSE", "LICENCE", "README")):
                        fp2 = os.path.join(dp2, n)
                        if os.path.getsize(fp2) >= 200:
                            excl_files.add(git_blob_id(open(fp2, "rb").read()))
miss = 0
for r in manifest:  # earlier sets (dev + held) via the mirrors, at the recorded commit
    p = "SKILL.md" if r[2] == "." else r[2] + "/SKILL.md"
    try:
        b = git(gitdir(r[0]), "show", f"{r[1]}:{p}", text=False)
        excl.add(norm_md(b)); add_doc(b)
        for line in git(gitdir(r[0]), "ls-tree", "-r", r[1], "--", "." if r[2] == "." else r[2] + "/").splitlines():
            meta, path = line.split("\t", 1)
            if meta.split()[1] == "blob" and not path.endswith("SKILL.md"):
                excl_files.add(meta.split()[2])
    except Exception:
        miss += 1
print("manifest rows not resolvable from mirrors:", miss, file=sys.stderr)
for r in EXCLUDE:
    gd = gitdir(r)
    if not os.path.isdir(gd):
        continue
    for line in git(gd, "ls-tree", "-r", "HEAD").splitlines():
        meta, path = line.split("\t", 1)
        if meta.split()[1] != "blob":
            continue
        if path.endswith("SKILL.md"):
            b = git(gd, "cat-file", "blob", meta.split()[2], text=False)
            excl.add(norm_md(b)); add_doc(b)
        elif "skills/" in path:
            excl_files.add(meta.split()[2])
print("excluded SKILL.md hashes:", len(excl), "other files:", len(excl_files), file=sys.stderr)

# owners whose skills must not come in again through a re-packaging marketplace
bad_owners = {r.split("/")[0].lower() for r in EXCLUDE | used_before} | {"k-dense-ai", "sickn33"}
bad_owners.discard("ulpi-io")
REPACKAGED = {"composiohq", "affaan-m", "ruvnet", "anthropics", "obra", "wshobson", "trailofbits", "sickn33", "k-dense-ai"}
bad_owners |= REPACKAGED


def path_ok(repo, sd):
    if re.search(r"(^|/)(test|tests|fixtures?|__fixtures__|node_modules|\.git|\.local|\.cache|site-packages|\.venv)(/|$)", sd, re.I):
        return False
    # vendored / installed copies of other publishers' skills, eval fixtures and skill templates
    if re.search(r"(^|/)(vendor|vendored|third[_-]party|external|upstream|\.system|evals?|fixture[^/]*|_?templates?|red[-_]?team(ing)?)(/|$)", sd, re.I):
        return False
    if os.path.basename(sd).lower() in ("godmode", "g0dm0d3"):  # Hermes' jailbreak (red-teaming) skill, copied around
        return False
    if repo == "ulpi-io/plugin-marketplace":  # plugins/<publisher>/skills/<skill>
        parts = sd.split("/")
        return len(parts) > 1 and parts[0] == "plugins" and parts[1].lower() not in bad_owners
    if repo == "mohitagw15856/pm-claude-skills" and re.match(r"exports/", sd):
        return False  # generated re-exports of the repo's own skills (openclaw format)
    # vendored copies of earlier/excluded publishers' skills (e.g. "<owner>/..." or "<owner>--<repo>/...")
    if any(seg.lower() in REPACKAGED or ("--" in seg and seg.lower().split("--")[0] in bad_owners)
           for seg in sd.split("/")[:-1]):
        return False
    return True


LICS = [("MIT License", "MIT"), ("Permission is hereby granted", "MIT"), ("Apache License", "Apache-2.0"),
        ("Apache-2.0", "Apache-2.0"), ("BSD", "BSD"), ("GNU GENERAL PUBLIC", "GPL"), ("GNU AFFERO", "AGPL"),
        ("Mozilla Public", "MPL-2.0"), ("CC0", "CC0-1.0"), ("Creative Commons", "CC"), ("Unlicense", "Unlicense")]


def lic_guess(t):
    for k, v in LICS:
        if k.lower() in t.lower():
            return v
    return None


def licence(gd, files):
    for cand in ["LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "LICENCE.md", "license", "License", "COPYING", "LICENSE-MIT"]:
        if cand in files:
            return lic_guess(git(gd, "show", f"HEAD:{cand}")[:3000]) or "see " + cand
    return "unknown"


def skill_licence(d):
    try:
        m = re.search(r"^license:\s*(.+)$", open(os.path.join(d, "SKILL.md"), errors="ignore").read(3000), re.M)
        if m:
            return m.group(1).strip().strip("'\"")[:40]
        for n in sorted(os.listdir(d)):
            if n.upper().startswith(("LICENSE", "LICENCE")) and os.path.isfile(os.path.join(d, n)):
                return lic_guess(open(os.path.join(d, n), errors="ignore").read(3000)) or "see " + n
    except OSError:
        pass
    return None


# forks of earlier/excluded repos: any shared root commit with a used-before or excluded repo's mirror
def roots(gd):
    try:
        return set(git(gd, "rev-list", "--max-parents=0", "HEAD").split())
    except Exception:
        return set()


old_roots = set()
for r in sorted(used_before | EXCLUDE):
    gd = gitdir(r)
    if os.path.isdir(gd):
        old_roots |= roots(gd)
print("root commits of earlier/excluded repos:", len(old_roots), file=sys.stderr)

import shutil
shutil.rmtree(f"{OUT}/benign", ignore_errors=True)  # rebuilt from scratch each run
rows, seen = [], set()
for repo in REPOS:
    if repo in EXCLUDE or repo in used_before:
        print("SKIP (excluded/used before):", repo, file=sys.stderr)
        continue
    gd = gitdir(repo)
    if not os.path.isdir(gd):
        print("SKIP (no mirror):", repo, file=sys.stderr)
        continue
    if roots(gd) & old_roots:
        print("SKIP (fork of an earlier/excluded repo):", repo, file=sys.stderr)
        continue
    d = repo.replace("/", "+", 1)
    commit = git(gd, "rev-parse", "HEAD").strip()
    entries = {}
    for line in git(gd, "ls-tree", "-r", "-l", "HEAD").splitlines():
        meta, path = line.split("\t", 1)
        mode, typ, sha, size = meta.split()
        if typ == "blob" and size.isdigit():
            entries[path] = (sha, int(size), mode)
    top = {p for p in entries if "/" not in p}
    lic = licence(gd, top)
    all_dirs = sorted({os.path.dirname(p) for p in entries
                       if os.path.basename(p) == "SKILL.md" and entries[p][2] in ("100644", "100755")})
    skill_dirs = [s for s in all_dirs if path_ok(repo, s)]
    # skills that carry code first (the scanner's false positives come mostly from code), then hash order
    CODE_EXT = (".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".sh", ".bash", ".ps1", ".psm1", ".rb", ".go", ".pl", ".php")
    code_dirs = {os.path.dirname(p) for p in entries if p.lower().endswith(CODE_EXT)}

    def has_code(s):
        pref = s + "/" if s else ""
        return any(c == s or c.startswith(pref) for c in code_dirs) if s else bool(code_dirs)
    skill_dirs.sort(key=lambda s: (not has_code(s), h((repo + "/" + s).encode())))
    taken = dup = big = near = fcopy = 0
    for sd in skill_dirs:
        if taken >= CAP:
            break
        pref = sd + "/" if sd else ""
        mdb = git(gd, "cat-file", "blob", entries[pref + "SKILL.md"][0], text=False)
        mdh = norm_md(mdb)
        if mdh in excl or mdh in seen:
            dup += 1
            continue
        if near_dup(mdb):
            near += 1
            continue
        files = [p for p in entries if p.startswith(pref)]
        nested = [s + "/" for s in all_dirs if s != sd and s.startswith(pref)]
        files = [p for p in files if not any(p.startswith(n) for n in nested)]
        files = [p for p in files if entries[p][1] <= MAXF and entries[p][2] not in ("120000", "160000")]
        if len(files) > 300:
            big += 1
            continue
        others = [p for p in files if p != pref + "SKILL.md" and entries[p][1] >= 200
                  and not os.path.basename(p).upper().startswith(("LICENSE", "LICENCE", "README"))]
        if others and sum(entries[p][0] in excl_files for p in others) / len(others) >= 0.3 \
                and sum(entries[p][0] in excl_files for p in others) >= 1:
            fcopy += 1
            continue
        seen.add(mdh)
        add_doc(mdb)
        key = h((repo + "\t" + sd).encode())
        name = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(sd) or d.split("+", 1)[1])[:60] + "-" + key[:6]
        dest = f"{OUT}/benign/{d}/{name}"
        for p in files:
            fp = os.path.join(dest, p[len(pref):])
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            with open(fp, "wb") as f:
                f.write(git(gd, "cat-file", "blob", entries[p][0], text=False))
        slic = skill_licence(dest)
        rows.append((repo, commit, sd or ".", slic + " (skill)" if slic else lic, f"{d}/{name}", str(len(files))))
        taken += 1
    print(f"{repo}\t{taken} of {len(skill_dirs)} (dup {dup}, near-copy {near}, file-copy {fcopy}, >300 files {big})", file=sys.stderr)

with open(f"{OUT}/MANIFEST-benign.tsv", "w") as f:
    f.write("repo\tcommit\tpath\tlicence\tfolder\tfiles\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
with open(f"{OUT}/benign/index.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps({"dir": r[4], "repo": r[0], "path": r[2], "split": "fresh7"}) + "\n")
print(len(rows), "skills from", len({r[0] for r in rows}), "repos", file=sys.stderr)
