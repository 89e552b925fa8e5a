#!/usr/bin/env python3
"""Build the THIRD fresh held-out benign corpus (/work/eval/fresh3) from bare mirrors fetched with the
`fetch` tool into /work/.mirror/<owner>+<name>/repo. Nothing from the mirrors is executed: blobs are only
read with `git cat-file` and written out as files.

Exclusions: repos already in /work/eval/benign/MANIFEST.tsv, the repos named in EXCLUDE, and every SKILL.md whose
whitespace-normalised hash matches the shared corpus (/work/shared/corpus/collections), the shared scan set
(/work/shared/scan/skills), the excluded repos' mirrors, benign-dev, and every MANIFEST row (read from the
mirror at the recorded commit, so /work/eval/held is never read).
Near-copies (>= 60 % of long SKILL.md lines shared with an excluded or already-taken SKILL.md) are dropped too.
Cap: CAP skills per repo (hash-ordered, i.e. a deterministic pseudo-random sample)."""
import hashlib, os, subprocess, sys, json, re

MIRROR = "/work/.mirror"
OUT = "/work/eval/fresh3"
CAP = int(os.environ.get("CAP", "40"))
MAXF = 1 << 20
EXCLUDE = {"github/awesome-copilot", "microsoft/cat-agent-skills", "getsentry/skills", "anthropics/skills",
           "anthropics/claude-plugins-official", "K-Dense-AI/claude-scientific-skills", "obra/superpowers",
           "trailofbits/skills", "wshobson/agents"}
# Explicit allow-list (other helpers may fetch unrelated, even hostile, repos into /work/.mirror).
REPOS = """
laurigates/claude-plugins edwinhu/claude-plugins PranavNagrecha/AwesomeSalesforceSkills cangjielanguage-sig/CangjieSkills
suwa-sh/suwa-sh-claude-plugins corca-ai/claude-plugins settlemint/agent-marketplace kun630/hmos-runtime-tool-skills
zainknoman/Temenos-Skills thoughtspot/thoughtspot-agent-skills imgly/agent-skills tradercjz/dolphindb-agent-skills
simota/agent-skills HoangNguyen0403/agent-skills-standard muratcankoylan/Agent-Skills-for-Context-Engineering
tech-leads-club/agent-skills mblode/agent-skills grahama1970/agent-skills Yuyz0112/public-api-skills oodercn/skills
YoungjaeDev/my-claude-plugins joaquimscosta/arkhe-claude-plugins technicalpickles/pickled-claude-plugins
closedloop-ai/claude-plugins ulpi-io/plugin-marketplace ANcpLua/ancplua-claude-plugins VilnaCRM-Org/claude-plugins
tomada1114/tomada-claude-plugins dev-yakuza/deku-claude-plugins nathanvale/side-quest-marketplace
vanman2024/ai-dev-marketplace LayZeeDK/lz-engineering-claude-plugins ddunnock/claude-plugins Mission42-ai/m42-claude-plugins
tuyenivt/tuyens-agent-skills Tyler-R-Kendrick/agent-skills takusaotome/claude-skills-library jieli-cqwl/org-claude-skills
secondsky/claude-skills camoa/claude-skills oaustegard/claude-skills jamditis/claude-skills-journalism
adaptive-enforcement-lab/claude-skills vinnie357/claude-skills JeongTaehwan/claude-skills ba0918/claude-skills
firebase/agent-skills mongodb/agent-skills elastic/agent-skills PostHog/skills ClickHouse/agent-skills sanity-io/agent-toolkit
sebastienlevert/m365-copilot-skills fernandoartalf/AL-Copilot-Skills-Collection google-gemini/gemini-skills stripe/ai
langchain-ai/langchain-skills neo4j-contrib/neo4j-skills microsoft/azure-skills wix/skills better-auth/skills prisma/skills
dagster-io/skills MicrosoftDocs/Agent-Skills CloudSec181/kilo-sailpoint-powershell-skill cyanxxy/nl-tax-agent-skills
ptreezh/sscisubagent-skills
""".split()
REPOS += os.environ.get("EXTRA_REPOS", "").split()


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


manifest = [l.rstrip("\n").split("\t") for l in open("/work/eval/benign/MANIFEST.tsv")][1:]
used_before = {r[0] for r in manifest}
excl = set()
for root in ["/work/shared/corpus/collections", "/work/shared/scan/skills", "/work/eval/benign-dev"]:
    for dp, dn, fn in os.walk(root):
        if "SKILL.md" in fn:
            b = open(os.path.join(dp, "SKILL.md"), "rb").read()
            excl.add(norm_md(b)); add_doc(b)
miss = 0
for r in manifest:  # earlier sets (dev + held) via the mirrors, at the recorded commit
    p = "SKILL.md" if r[2] == "." else r[2] + "/SKILL.md"
    try:
        b = git(gitdir(r[0]), "show", f"{r[1]}:{p}", text=False)
        excl.add(norm_md(b)); add_doc(b)
    except Exception:
        miss += 1
print("manifest rows not resolvable from mirrors:", miss, file=sys.stderr)
for r in EXCLUDE:
    gd = gitdir(r)
    if not os.path.isdir(gd):
        continue
    for line in git(gd, "ls-tree", "-r", "HEAD").splitlines():
        meta, path = line.split("\t", 1)
        if path.endswith("SKILL.md") and meta.split()[1] == "blob":
            b = git(gd, "cat-file", "blob", meta.split()[2], text=False)
            excl.add(norm_md(b)); add_doc(b)
print("excluded SKILL.md hashes:", len(excl), file=sys.stderr)

# owners whose skills must not come in again through a re-packaging marketplace
bad_owners = {r.split("/")[0].lower() for r in EXCLUDE | used_before | set(REPOS)} | {"k-dense-ai", "sickn33"}
bad_owners.discard("ulpi-io")


def path_ok(repo, sd):
    if re.search(r"(^|/)(test|tests|fixtures?|__fixtures__|node_modules|\.git)(/|$)", sd, re.I):
        return False
    if repo == "ulpi-io/plugin-marketplace":  # plugins/<publisher>/skills/<skill>
        parts = sd.split("/")
        return len(parts) > 1 and parts[0] == "plugins" and parts[1].lower() not in bad_owners
    if repo == "jieli-cqwl/org-claude-skills" and re.match(r"(community|tools/eval)/", sd):
        return False  # vendored third-party copies and eval-run workspace snapshots
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


rows, seen = [], set()
for repo in REPOS:
    if repo in EXCLUDE or repo in used_before:
        print("SKIP (excluded/used before):", repo, file=sys.stderr)
        continue
    gd = gitdir(repo)
    if not os.path.isdir(gd):
        print("SKIP (no mirror):", repo, file=sys.stderr)
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
    skill_dirs.sort(key=lambda s: h((repo + "/" + s).encode()))
    taken = dup = big = near = 0
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
    print(f"{repo}\t{taken} of {len(skill_dirs)} (dup {dup}, near-copy {near}, >300 files {big})", file=sys.stderr)

with open(f"{OUT}/MANIFEST-benign.tsv", "w") as f:
    f.write("repo\tcommit\tpath\tlicence\tfolder\tfiles\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
with open(f"{OUT}/benign/index.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps({"dir": r[4], "repo": r[0], "path": r[2]}) + "\n")
print(len(rows), "skills from", len({r[0] for r in rows}), "repos", file=sys.stderr)
