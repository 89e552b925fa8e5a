#!/usr/bin/env python3
"""Build the TENTH fresh held-out benign corpus (/work/eval/fresh10/benign) from bare mirrors fetched with the
`fetch` tool into /work/.mirror/<owner>+<name>/repo. Nothing from the mirrors is executed: blobs are only read
with `git cat-file` and written out as files. Python 3 standard library only.

Output: /work/eval/fresh10/benign/<owner>+<name>/<skill>-<hash6>/ per skill (SKILL.md with every file beside it
and below it, nested skills left out), /work/eval/fresh10/benign/index.jsonl (one {"dir", "repo", "path",
"commit"} per line, as scripts/scan-eval.py's corpus_set reads) and /work/eval/fresh10/MANIFEST-benign.tsv
(repo, commit, path, licence, folder, files). Only benign/ and the manifest are rewritten (attacks/ is another
builder's).

Repositories: the explicit allow-list REPOS (other helpers fetch unrelated, even hostile, repositories into
/work/.mirror), minus every repository named in an earlier manifest (../benign-manifest.tsv,
../fresh*/MANIFEST-benign.tsv) or on an earlier builder's candidate list, the repositories in EXCLUDE, and
forks (a root commit shared with an earlier or excluded repository whose mirror is present). The allow-list
holds no other repository of an earlier set's or an EXCLUDE publisher (checked before each fetch).
Repositories that gather other publishers' skills wholesale (ClawHub-style stores: JOHNadonis/claude-code-skills,
AlvaGonz/my-opencode, 18111013333/skill-garage) were left off it.

Skills dropped: folders under vendor/, third_party/, external/, upstream/, node_modules/, .venv/, site-packages/,
.system/, eval(s)/, fixture*/, test(s)/ (also "test-fixtures/", "e2e_tests/"), template(s)/, red-team*/ (and
dot-caches); jailbreak kits and deliberately malicious samples (by folder name, or a SKILL.md whose opening
presents itself as one), while security skills doing ordinary defensive or educational work (code review,
secret scanning, threat modelling, hardening) stay in; files over 1 MiB and symlinks (not written);
skills of more than 300 files; duplicates and near-copies (>= 60 % of long SKILL.md lines shared) within this
set and against /work/shared/corpus/collections, /work/shared/scan/skills, the EXCLUDE repositories' mirrors
and every earlier manifest row whose repository's mirror is present (read at the recorded commit); skills
whose other files are mostly (>= 30 %) blobs of those excluded skills.
Cap: CAP (40) skills per repository, skills carrying code first, then in sha256(repo TAB path) order (a
deterministic pseudo-random sample).

A new selection depends on which earlier repositories' mirrors are present (they drive the exclusions); to
get exactly the committed set back, run with MANIFEST=<this folder>/MANIFEST-benign.tsv: every row is then
re-extracted at its recorded commit and nothing is selected."""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

MIRROR = "/work/.mirror"
OUT = os.environ.get("OUT", "/work/eval/fresh10")
HERE = os.path.dirname(os.path.abspath(__file__))
EVAL_DIR = os.path.dirname(HERE)  # skills-scan/eval: the earlier manifests and builders
CAP = int(os.environ.get("CAP", "40"))
MAXF = 1 << 20
MAX_FILES = 300
NEAR = 0.6
EXCLUDE = {"github/awesome-copilot", "microsoft/cat-agent-skills", "getsentry/skills", "anthropics/skills",
           "anthropics/claude-plugins-official", "K-Dense-AI/claude-scientific-skills", "obra/superpowers",
           "trailofbits/skills", "wshobson/agents"}
# Explicit allow-list: the repositories this set was drawn from (found with find_repos, fetched with fetch).
REPOS = """
bobmatnyc/claude-mpm 0x7067/ai-dev-pipeline 27rdeepak/Professional-AI-Skills AregShahbazian/ai AlexLee00/ai-agent-system 5n7/dotfiles
Atom-oh/awsops DefaultPerson/agent-setup Nave-wata/agent-configs ArjenSchwarz/agentic-coding Bimzy27/AgenticWorkspace GuidoSantillanID/cockpit
Ikaroshu/agentrc Kieirra/al1x-ai-agents KrzaQ/claude-setup Richydos2305/copilot-agents Way-Of/aiharness adrielp/ai-engineering-harness
crazygit/dot-code-agents dhruhin/claude-cortex 20-D-20/agent-skills 27Aaron/Skills 333-333-333/agents 457376245/claude-config
A0nameless0man/pi-agent-config AdolphKevin/claude-plugins AragornZJF/skill-tools BastiDood/skills Benknightdark/neo-skills BolasLien/skills
C-Luv9615/harness-agent CcooLcyy/skills CorentinLumineau/x-workflows DCjanus/prompts DargonLee/My-Skills Dev10x-Guru/Dev10x-Claude
FBisca/dev-agents-skills FuDesign2008/open-skills GalainDev/AI GitHubJiKe/ai-playbook HoaMi/opencode-configuration Hogeyama/agent-skills
IBINIBIN/claude-plugins JCGJ94/senior-dev-workspace-kit JackDrogon/ai-skills JackKelly/opencode_config JeffAbrahamson/AI JxJuly/agent-skills
KMFtcy/Things4AIAgents KScaesar/vibe-coder KelvinYou/agent-skills KimoLink/agent-skills Kromeshn/ai-framework LandonSchropp/agent-toolkit
Levezze/devkit 01O10/agent-engineering-playbook AndersonsRepo/AI-Harness AndyB840506/claude-code-skills Ceasar369/claude-behavior-layer CALLBACK-Online/aiox-advanced-brain
Lascari-AI/claude-code-config JosephSearle/skills 0xrafasec/ai-workflow 1075551341/claude_code_config 12zhangyan/dev-workflow-skills 1415923/ForgeKit
1Mangesh1/dev-skills-collection 3AceShowHand/agent-skills 575568329/Skill-Warehouse 8-BitRhyon/monozen-skills 89jobrien/pjlib A2C-SMCP/a2c-smcp-skills
AGMO-Inc/agmo-everywhere Agitolyev/skills Ahmed-ES-SH/opencode-configration Ajinkya-hash-25/claude_config Alex-nx-netizen/Alex-harness AlexKVal/rust-skills-for-cursor
Allmight97/agents AndreyBegma/claude-code-review-skills Andru-1987/agents-opencode ALEXxZ20/claude_skills Abdo-Eid/agent-skills Aim67TQ7/pete-skills
Cogni-AI-OU/cogni-ai-copilot-collections Dannykkh/skill-olympus Dedalus-ERP-PAS/foundation-skills Dirtytrii/codex-skills EmpK1019/MLCA-skills HiQ-AI/cortex-skills
IamMistake/opencode-config InnerScopeHearing/otchealth-claude-tools JPFrancoia/skills_and_commands JasonxzWen/harness-hub CodySwannGT/lisa JakeChang/skill_pool
Qredence/skill-fleet bluemouse/AIConfig cam-barts/claude-marketplace jeudy100/AgentLibrary basher83/Virgo-Core bianbianzhu/claude-code-utilities
0xRabbidfly/Eric-Cartman Abdourahmandev/superpowers-data-engineer BobvD/bobkit DrivvenConsulting/forge-registry Melvynx/cli-skills TrevorEdris/constellation
aaronearles/claude-skills alisonaquinas/llm-shared-skills apyatkin/personal-tools cloudvoyant/codevoyant cofin/flow cosmix/claude-code-setup
dortort/skills hhushhas/agents-home iliaal/ai-skills iuliandita/skills jmreicha/agent-tools jprotin/claude-framework
julweber/ai_agent_skills kontrolplane/skills krzwiatrzyk/ai maroffo/claude-forge mauromedda/agent-toolkit mivek/opencode-config
namyoungkim/leo-claude-plugin nq-rdl/agent-extensions nr-mdakilahmed/claude_code_setup pstaylor-patrick/skills ricciviero/agentic-swe rntgspr/dot-llm
romankovsv/claude-code-python-devops-mlops Carton/agent-skills CesarGuzmanLopez/opencode-dotfiles FunTimeCoding/soil KR-NerdLab/claude-code-system KiBlazer/ai-skills
Lee-W/maigo Lion-1209/Lion-Skills Merlynr/ai-skills NEXUZ-SYS/devflow Olatisunkanmi/claudefiles Pradnyeshp/Codex-skills
Sanmanchekar/skills-library SuzumiyaAoba/skills ahgraber/skills andybrandt/superartes appleboy/skills bouroo/agents
caramelotech/devkit castocolina/ai-kit dacheng-gao/ai danielvm-git/bigpowers docs-as-code-toolkit/architecture-knowledge-toolkit AlexSchadek/dotnet-claude-kit
AlexisSisley/mugiwara-agents Calebmambwe/claude-super-setup CloudyWing/ai-dotfiles DarceyLloyd/pi-aftc-toolset Nomik94/claude-code-preset bosmadev/claude
JustMaier/openrouter-skills minw147/my-claude-skills maaarcooo/claude-skills DanAIDev/agent-skills
""".split()
REPOS += os.environ.get("EXTRA_REPOS", "").split()
if os.environ.get("ONLY_REPOS"):
    REPOS = os.environ["ONLY_REPOS"].split()

CODE_EXT = (".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".sh", ".bash", ".zsh", ".ps1", ".psm1", ".rb", ".go", ".pl",
            ".php", ".lua", ".rs", ".java", ".kt", ".swift", ".cs", ".bat", ".cmd")
SKIP_DIR = re.compile(r"(^|/)(tests?|fixtures?|__fixtures__|node_modules|\.git|\.local|\.cache|site-packages|\.venv|venv"
                      r"|vendor|vendored|third[_-]party|external|upstream|\.system|evals?|fixture[^/]*|_?templates?"
                      r"|red[-_]?team(ing)?)(/|$)", re.I)
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


def attack_text(md):
    """whether the opening of a SKILL.md presents the skill as a jailbreak kit or a malicious sample"""
    head = md[:1500]
    return any(not DEFENSIVE.search(head[max(0, m.start() - 40):m.end() + 40]) for m in ATTACK_DESC.finditer(head))
# a parent folder of fixtures or tests ("test-fixtures/", "e2e_tests/")
FIXTURE_PARENT = re.compile(r"(^|[-_.])(fixtures?|tests?)([-_.]|$)", re.I)


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
    for l in b.splitlines():
        l = re.sub(rb"\s+", b" ", l).strip()
        if len(l) >= 40:
            out.add(hashlib.sha1(l).digest()[:8])
    return out


inv, doc_len, excl, excl_files = {}, [], set(), set()


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


def git_blob_id(b):
    return hashlib.sha1(b"blob %d\0" % len(b) + b).hexdigest()


def gitdir(repo):
    d = f"{MIRROR}/{repo.replace('/', '+', 1)}/repo"
    return d + "/.git" if os.path.isdir(d + "/.git") else d


def exclude_skill(md, others):
    excl.add(norm_md(md))
    add_doc(md)
    excl_files.update(others)


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


def write_outputs(rows):
    with open(f"{OUT}/MANIFEST-benign.tsv", "w") as f:
        f.write("repo\tcommit\tpath\tlicence\tfolder\tfiles\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    with open(f"{OUT}/benign/index.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps({"dir": r[4], "repo": r[0], "path": r[2], "commit": r[1], "split": "fresh10"}) + "\n")


def from_manifest(mf):
    """re-extract exactly the rows of a manifest (this set's, MANIFEST=fresh10/MANIFEST-benign.tsv), each at its
    recorded commit, instead of selecting again (a new selection depends on the mirrors present)"""
    rows, missing = [], 0
    shutil.rmtree(f"{OUT}/benign", ignore_errors=True)
    os.makedirs(f"{OUT}/benign", exist_ok=True)
    by = {}
    for r in [l.rstrip("\n").split("\t") for l in list(open(mf))[1:] if l.strip()]:
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
            files = write_skill(g, entries, skill_files(entries, all_dirs, sd), pref, f"{OUT}/benign/{r[4]}")
            if len(files) != int(r[5]):
                print("file count differs:", r[4], len(files), "!=", r[5], file=sys.stderr)
            rows.append(r)
        g.close()
    write_outputs(rows)
    print(len(rows), "skills re-extracted,", missing, "not found", file=sys.stderr)


if os.environ.get("MANIFEST"):
    from_manifest(os.environ["MANIFEST"])
    sys.exit(0)


# --- what earlier sets used -------------------------------------------------------------------------------------
manifest = []
for mf in [os.path.join(EVAL_DIR, "benign-manifest.tsv")] + sorted(glob.glob(os.path.join(EVAL_DIR, "fresh*", "MANIFEST-benign.tsv"))):
    if os.path.abspath(mf) == os.path.join(HERE, "MANIFEST-benign.tsv"):
        continue  # this set's own manifest copy
    manifest += [l.rstrip("\n").split("\t") for l in list(open(mf))[1:] if l.strip()]
used_before = {r[0] for r in manifest}
for bf in [os.path.join(EVAL_DIR, "build_benign.py")] + sorted(glob.glob(os.path.join(EVAL_DIR, "fresh*", "build_fresh_benign.py"))):
    if os.path.abspath(bf) == os.path.abspath(__file__):
        continue
    bt = open(bf).read()
    for m in re.finditer(r'"""(.*?)"""', bt, re.S):
        used_before |= {w for w in m.group(1).split() if re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", w)}
    used_before |= set(re.findall(r'"([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)"', bt))
used_lower = {r.lower() for r in used_before | EXCLUDE}
used_owners = {r.split("/")[0].lower() for r in used_lower}

for root in ["/work/shared/corpus/collections", "/work/shared/scan/skills"]:
    for dp, dn, fn in os.walk(root):
        if "SKILL.md" in fn:
            others = set()
            for dp2, dn2, fn2 in os.walk(dp):
                for n in fn2:
                    fp2 = os.path.join(dp2, n)
                    if n != "SKILL.md" and not os.path.islink(fp2) and os.path.getsize(fp2) >= 200 \
                            and not n.upper().startswith(("LICENSE", "LICENCE", "README")):
                        others.add(git_blob_id(open(fp2, "rb").read()))
            exclude_skill(open(os.path.join(dp, "SKILL.md"), "rb").read(), others)

by_repo = {}
for r in manifest:
    by_repo.setdefault(r[0], []).append(r)
resolved = miss = 0
for name, rows in sorted(by_repo.items()):  # earlier sets' skills, read from the mirrors present
    gd = gitdir(name)
    if not os.path.isdir(gd):
        miss += len(rows)
        continue
    try:
        g = Repo(gd)
        trees = {}
        for r in rows:
            commit = r[1]
            if commit not in trees:
                try:
                    trees[commit] = g.tree(commit)
                except subprocess.CalledProcessError:
                    trees[commit] = g.tree("HEAD")
            t = trees[commit]
            pref = "" if r[2] == "." else r[2] + "/"
            if pref + "SKILL.md" not in t:
                miss += 1
                continue
            md = g.blob(t[pref + "SKILL.md"][0]) or b""
            exclude_skill(md, {v[0] for p, v in t.items() if p.startswith(pref) and not p.endswith("SKILL.md")})
            resolved += 1
        g.close()
    except (OSError, subprocess.CalledProcessError):
        miss += len(rows)
print(f"earlier manifest rows read from mirrors: {resolved}, not resolvable: {miss}", file=sys.stderr)
for name in sorted(EXCLUDE):
    gd = gitdir(name)
    if not os.path.isdir(gd):
        continue
    g = Repo(gd)
    for path, (sha, size, mode) in g.tree("HEAD").items():
        if path.endswith("SKILL.md"):
            md = g.blob(sha) or b""
            excl.add(norm_md(md))
            add_doc(md)
        elif "skills/" in path:
            excl_files.add(sha)
    g.close()
print("excluded SKILL.md hashes:", len(excl), "other files:", len(excl_files), file=sys.stderr)


def roots(gd):
    try:
        return set(subprocess.run(["git", "--git-dir", gd, "rev-list", "--max-parents=0", "HEAD"], capture_output=True,
                                  check=True, text=True).stdout.split())
    except (OSError, subprocess.CalledProcessError):
        return set()


old_roots = set()
for name in sorted(used_before | EXCLUDE):
    if os.path.isdir(gitdir(name)):
        old_roots |= roots(gitdir(name))
print("root commits of earlier/excluded repos:", len(old_roots), file=sys.stderr)

REPACKAGED = {"composiohq", "affaan-m", "ruvnet", "anthropics", "obra", "wshobson", "trailofbits", "sickn33", "k-dense-ai"}


def path_ok(sd):
    if SKIP_DIR.search(sd):
        return False
    if ATTACK_NAME.search(os.path.basename(sd)):
        return False
    if any(FIXTURE_PARENT.search(seg) for seg in sd.split("/")[:-1]):
        return False
    # vendored copies of earlier/excluded publishers' skills ("<owner>/..." or "<owner>--<repo>/...")
    return not any(seg.lower() in REPACKAGED or ("--" in seg and seg.lower().split("--")[0] in used_owners)
                   for seg in sd.split("/")[:-1])


LICS = [("MIT License", "MIT"), ("Permission is hereby granted", "MIT"), ("Apache License", "Apache-2.0"),
        ("Apache-2.0", "Apache-2.0"), ("BSD", "BSD"), ("GNU GENERAL PUBLIC", "GPL"), ("GNU AFFERO", "AGPL"),
        ("GNU LESSER", "LGPL"), ("Mozilla Public", "MPL-2.0"), ("CC0", "CC0-1.0"), ("Creative Commons", "CC"),
        ("Unlicense", "Unlicense")]


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


shutil.rmtree(f"{OUT}/benign", ignore_errors=True)  # rebuilt from scratch each run
os.makedirs(f"{OUT}/benign", exist_ok=True)
rows, seen = [], set()
for repo in REPOS:
    if repo.lower() in used_lower:
        print("SKIP (excluded/used before):", repo, file=sys.stderr)
        continue
    gd = gitdir(repo)
    if not os.path.isdir(gd):
        print("SKIP (no mirror):", repo, file=sys.stderr)
        continue
    if roots(gd) & old_roots:
        print("SKIP (fork of an earlier/excluded repo):", repo, file=sys.stderr)
        continue
    g = Repo(gd)
    d = repo.replace("/", "+", 1)
    commit = g.git("rev-parse", "HEAD").strip()
    entries = g.tree("HEAD")
    lic = repo_licence(g, {p: v for p, v in entries.items() if "/" not in p})
    all_dirs = skill_dirs_of(entries)
    skill_dirs = [s for s in all_dirs if path_ok(s)]
    code_dirs = {os.path.dirname(p) for p in entries if p.lower().endswith(CODE_EXT)}

    def has_code(s):
        return any(c == s or c.startswith(s + "/") for c in code_dirs) if s else bool(code_dirs)

    skill_dirs.sort(key=lambda s: (not has_code(s), h((repo + "\t" + s).encode())))
    taken = dup = big = near = fcopy = attack = 0
    for sd in skill_dirs:
        if taken >= CAP:
            break
        pref = sd + "/" if sd else ""
        md = g.blob(entries[pref + "SKILL.md"][0]) or b""
        mdh = norm_md(md)
        if mdh in excl or mdh in seen:
            dup += 1
            continue
        if attack_text(md):
            print("  attack/jailbreak text, left out:", repo, sd, file=sys.stderr)
            attack += 1
            continue
        if near_dup(md):
            near += 1
            continue
        files = skill_files(entries, all_dirs, sd)
        if len(files) > MAX_FILES:
            big += 1
            continue
        others = [p for p in files if p != pref + "SKILL.md" and entries[p][1] >= 200
                  and not os.path.basename(p).upper().startswith(("LICENSE", "LICENCE", "README"))]
        copied = sum(entries[p][0] in excl_files for p in others)
        if others and copied >= 1 and copied / len(others) >= 0.3:
            fcopy += 1
            continue
        seen.add(mdh)
        add_doc(md)
        key = h((repo + "\t" + sd).encode())
        name = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(sd) or d.split("+", 1)[1])[:60] + "-" + key[:6]
        dest = f"{OUT}/benign/{d}/{name}"
        files = write_skill(g, entries, files, pref, dest)
        slic = skill_licence(md, files, g, entries, pref)
        rows.append((repo, commit, sd or ".", slic + " (skill)" if slic else lic, f"{d}/{name}", str(len(files))))
        taken += 1
    g.close()
    print(f"{repo}\t{taken} of {len(skill_dirs)} (dup {dup}, near-copy {near}, file-copy {fcopy}, attack {attack}, "
          f">{MAX_FILES} files {big})", file=sys.stderr)

write_outputs(rows)
code = sum(1 for r in rows if any(p.lower().endswith(CODE_EXT) for _, _, fs in os.walk(f"{OUT}/benign/{r[4]}") for p in fs))
print(len(rows), "skills from", len({r[0] for r in rows}), "repos;", code, "carry code", file=sys.stderr)
