#!/usr/bin/env python3
"""Build the SIXTH fresh held-out benign corpus (/work/eval/fresh6) from bare mirrors fetched with the
`fetch` tool into /work/.mirror/<owner>+<name>/repo. Nothing from the mirrors is executed: blobs are only
read with `git cat-file` and written out as files.

Exclusions: repos in the benign, fresh3, fresh4 and fresh5 MANIFESTs or on the earlier builders' candidate lists, the repos
named in EXCLUDE, and every SKILL.md whose whitespace-normalised hash matches the shared corpus
(/work/shared/corpus/collections), the shared scan set (/work/shared/scan/skills), benign-dev, fresh3/benign,
fresh4/benign, fresh5/benign, the excluded repos' mirrors, and every MANIFEST row (read from the mirror at the recorded commit,
so /work/eval/held is never read).
Skill folders under vendor/, third_party/, external/, upstream/, .system/, eval(s)/, fixture*/ or template(s)/ are skipped.
Near-copies (>= 60 % of long SKILL.md lines shared with an excluded or already-taken SKILL.md) are dropped too.
Cap: CAP skills per repo (skills carrying code first, then hash-ordered: a deterministic pseudo-random sample).
Forks (a root commit shared with an earlier/excluded repo) are skipped."""
import hashlib, os, subprocess, sys, json, re

MIRROR = "/work/.mirror"
OUT = "/work/eval/fresh6"
CAP = int(os.environ.get("CAP", "40"))
MAXF = 1 << 20
EXCLUDE = {"github/awesome-copilot", "microsoft/cat-agent-skills", "getsentry/skills", "anthropics/skills",
           "anthropics/claude-plugins-official", "K-Dense-AI/claude-scientific-skills", "obra/superpowers",
           "trailofbits/skills", "wshobson/agents"}
# Explicit allow-list (other helpers may fetch unrelated, even hostile, repos into /work/.mirror).
REPOS = """
aws/agent-toolkit-for-aws datacommonsorg/agent-toolkit kagenti/agent-toolkit kooda-ai/skills gestel-ai/skills altertable-ai/skills
paniolo-ai/skills bugzy-ai/skills customware-ai/skills XGENT-ai/skills specy-ai/skills 2lab-ai/skills wowok-ai/skills
2nth-ai/skills moldable-ai/skills Kelet-ai/skills raindrop-ai/skills elfa-ai/skills Minara-AI/skills fast-agent-ai/skills
engchina/oracle-db-skills-ja MapleEve/legal-skills-cn liuhua1202/story-skills-zh starluna-app/solo-skills-zh DustinYoon/cro-skills-ko
virgil0418/software-development-lifecycle-skills-cn aliyun/alibabacloud-aiops-skills aws-samples/sample-corgiro-aws-ops-skills
OptimNow/cloud-finops-skills tosin2013/rhel-devops-skills-cli yearn/webops-skills JohnnyYwQ/wps-skills maha-media/synaps-skills
googleSandy/secops-skills elevenlabs/skills software-mansion-labs/skills knocklabs/skills shadcn-labs/skills black-forest-labs/skills
subsquid-labs/skills scenario-labs/skills noditlabs/skills caffeinelabs/skills JudgmentLabs/skills photon-hq/skills
openstatusHQ/skills parseablehq/skills avo-hq/skills zenml-io/skills kurrent-io/skills n8n-io/skills mrge-io/skills
flagship-io/skills pinecone-io/skills coscene-io/skills posit-dev/skills rivet-dev/skills opendatahub-io/skills-registry
expanso-io/skills.expanso.io cloudgrid-io/skills TracyHQ/skills iii-hq/skills elmochilyas/laraskills onurseckin/skills
heymishy/skills-repo Desmond766/Skills-RevitPluginGenerator ai-study-creator/ai-skills johnloucks3-sudo/d2m-travel-skills
OnlyJust3rd/salmon-skills starci183/starci-skills lazyants/claude-plugins adzuci/claude-plugins yandy-r/claude-plugins
TheVoskamps/claude-plugins-marketplace ApurvBazari/claude-plugins radleta/claude-plugins mareurs/claude-plugins
ch-courtesy/claude-plugins neotherapper/claude-plugins jtsternberg/claude-plugins divadbaroon/claude-plugins saldigioia/claude-plugins
SpawnBox-dev/claude-plugins adiazpar/adiaz-claude-plugins transform-ia/claude-plugins jannosiilbek/jann0z-claude-plugins
asermax/claude-plugins relusion/vg-sdlc-claude-plugins rsprudencio/claude-plugins juanmhidalgo/claude-plugins mostlyhumanagency/claude-plugins
ginopoitier/claude-plugins jedwards1230/claude-plugins jan-warchol/jw-claude-plugins pjschulz3004/claude-plugins
acolomba/pi-claude-marketplace park-kyungchan/palantir-mini-marketplace ForgeaX-Games/forgeax-marketplace AndreHahm/andres-cc-marketplace
galaykos/cc-marketplace stevennitesh/programming-agent-skills product-on-purpose/agent-skills-toolkit Rycen7822/Frontier-Agent-skills
juandelossantos/another-agent-skills bm629/agent-skills jhonatan-oliveiradev/agent-skills felipeblassioli/agent-skills
lwndev/lwndev-agent-skills G1Joshi/Agent-Skills jcl2018/claude-skills-templates paulingram/claude-skills doublej/claude-skills
mattzerg/claude-skills revenantworks/claude-skills sumrae412/claude-skills cajias/claude-skills df2k2/claude-skills
cameri/claude-skills bog5d/claude-skills leadgenjay/claude-skills theflysurfer/claude-skills-marketplace aresbit/claude-skills
luluywang/claude-skills gsannikov/claude-skills yomi202703/claude-skills npow/claude-skills MOlechowski/claude-skills
kolirt/claude-skills abhijitbansal/claude-skills digischola/Claude-Skills future3OOO/claude-skills Kazu-Kadota/claude-skills
oiler/claude-skills nexadevapp/nexa-claude-skills-marketplace lobsterclause/claude-skills robert1030/robert-create-codex-skills
Zengxiansheng007/codex-skills qiuranke99/codex-skills sdaxiji-beep/codex-skills JackSmack1971/codex-skills smturtle2/codex-skills
yananlong/codex-skills renanfranca/codex-skills TheWorstProgrammerEver/codex-skills jiangnan030-del/pfc-codex-skills
lingwei-zheng/codex-skills zenithjuno/codex-skills farawayshore/codex-skills changyiZ/cy-codex-skills CCDawn/codex-skills
prudence2024/prudence-codex-skills Canepro/codex-skills lumoswyy/codex-skills shaowei-g/codex-skills WesPerez/codex-skills
Nick2bad4u/codex-skills ruicore/codex-skills kiku-jw/codex-skills troykelly/codex-skills someflydev/codex-skills
pedronauck/skills waynesutton/convexskills pproenca/dot-skills aj-geddes/useful-ai-prompts cexll/myclaude vladmdgolam/agent-skills
WebJeffery/nuxt-skills-cn ChenyCHENYU/wl-skills-kit timothybrush/sample-well-architected-skills-and-steering mattlane66/planning-skills-for-agents-and-humans
TrothByte/low-level-skills-trothbyte sygnaltech/agent-skills
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
                                                     "/work/eval/fresh4/MANIFEST-benign.tsv", "/work/eval/fresh5/MANIFEST-benign.tsv")
            for l in list(open(mf))[1:]]
used_before = {r[0] for r in manifest}
# repos on the earlier builders' candidate lists count as used too, even when they yielded nothing
for bf in ("/work/eval/tools/build_benign.py", "/work/eval/fresh3/build_fresh_benign.py", "/work/eval/fresh4/build_fresh_benign.py",
           "/work/eval/fresh5/build_fresh_benign.py"):
    bt = open(bf).read()
    for m in re.finditer(r'"""(.*?)"""', bt, re.S):
        used_before |= {w for w in m.group(1).split() if re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", w)}
    used_before |= set(re.findall(r'"([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)"', bt))
excl, excl_files = set(), set()


def git_blob_id(b):
    return hashlib.sha1(b"blob %d\0" % len(b) + b).hexdigest()


for root in ["/work/shared/corpus/collections", "/work/shared/scan/skills", "/work/eval/benign-dev", "/work/eval/fresh3/benign",
             "/work/eval/fresh4/benign", "/work/eval/fresh5/benign"]:
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
    if re.search(r"(^|/)(test|tests|fixtures?|__fixtures__|node_modules|\.git)(/|$)", sd, re.I):
        return False
    # vendored / installed copies of other publishers' skills, eval fixtures and skill templates
    if re.search(r"(^|/)(vendor|vendored|third[_-]party|external|upstream|\.system|evals?|fixture[^/]*|_?templates?)(/|$)", sd, re.I):
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
        f.write(json.dumps({"dir": r[4], "repo": r[0], "path": r[2], "split": "fresh6"}) + "\n")
print(len(rows), "skills from", len({r[0] for r in rows}), "repos", file=sys.stderr)
