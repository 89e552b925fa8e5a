#!/usr/bin/env python3
"""Measure the skill scanner and its two PyPI peers on the same sets, in one run.

Usage (from anywhere; Python 3 standard library only):

    python3 scripts/scan-eval.py                      # ours = `skb scan PATHS --format sarif`
    python3 scripts/scan-eval.py --ours /work/targets/scan/release/examples/scan
    python3 scripts/scan-eval.py --ours '/work/main/target/release/skb scan DIR --format sarif --fail-on none' \\
        --sets shared,attacks-dev,benign-dev --no-peers
    python3 scripts/scan-eval.py --held-details /work/eval/held/details.md > /work/eval/baseline.md

`--ours CMD` is split like a shell line; the token `DIR` is replaced by the set's skill folders (one argument
each, run from the set's root); without `DIR` they are appended. A bare `skb` binary gets `scan` and
`--format sarif --fail-on none` added; any other command gets `--format sarif` when it has no `--format`.
Exit status 0 or 1 is a run (1 = findings); anything else is reported as a failed run.

Sets (`--sets`, comma separated; default: shared, attacks-dev, attacks-held, benign-dev, benign-held and corpus,
each skipped when absent; the fresh pairs are measured only when named):
  shared        /work/shared/scan: labels.jsonl (120 skills; class = origin.source: cisco/progent/own)
  attacks-dev   $EVAL/attacks-dev/labels-dev.jsonl (written samples, about 40 % of each class; tune on it)
  attacks-held  $EVAL/held/attacks/labels-held.jsonl (the other 60 %; nobody tunes on it)
  benign-dev    $EVAL/benign-dev/index.jsonl (real public skills with their scripts, about 40 %)
  benign-held   $EVAL/held/benign/index.jsonl (the other 60 %)
  attacks-fresh3, benign-fresh3
                $EVAL/fresh3/attacks/labels.jsonl (176 written samples) and $EVAL/fresh3/benign/index.jsonl
                (1,489 real skills of 66 other repositories): built after the sets above had been tuned on
  attacks-fresh4, benign-fresh4
                $EVAL/fresh4/attacks/labels.jsonl and $EVAL/fresh4/benign/index.jsonl: built blind while the
                third round tuned on the third pair
  attacks-fresh5, benign-fresh5
                $EVAL/fresh5/attacks/labels.jsonl and $EVAL/fresh5/benign/index.jsonl: built blind while the
                fourth round tuned on the third and fourth pairs
  attacks-fresh6, benign-fresh6
                $EVAL/fresh6/attacks/labels.jsonl and $EVAL/fresh6/benign/index.jsonl: built blind while the
                fifth round tuned on the third to fifth pairs
  attacks-fresh7, benign-fresh7
                $EVAL/fresh7/attacks/labels.jsonl and $EVAL/fresh7/benign/index.jsonl: built blind while the
                sixth round tuned on the third to sixth pairs
  attacks-fresh8, benign-fresh8
                $EVAL/fresh8/attacks/labels.jsonl and $EVAL/fresh8/benign/index.jsonl: built blind while the
                seventh round tuned on the third to seventh pairs
  attacks-fresh9
                $EVAL/fresh9/attacks/labels.jsonl: built blind while the eighth round tuned on the third to
                eighth pairs (176 samples, 30 of them hard negatives; generator in skills-scan/eval/fresh9)
  benign-fresh9 $EVAL/fresh9/benign/index.jsonl: built blind while the eighth round tuned on the third to
                eighth pairs (2,982 real skills of 138 repositories; builder and manifest in skills-scan/eval/fresh9)
  attacks-fresh10
                $EVAL/fresh10/attacks/labels.jsonl: built blind while the ninth round tuned on the third to
                ninth sets (176 samples, 30 of them hard negatives; generator in skills-scan/eval/fresh10)
  benign-fresh10
                $EVAL/fresh10/benign/index.jsonl: built blind while the ninth round tuned on the third to ninth
                sets (3,075 real skills of 164 repositories; builder and manifest in skills-scan/eval/fresh10)
  attacks-fresh11
                $EVAL/fresh11/attacks/labels.jsonl: built blind while the tenth round tuned on the third to
                tenth sets (176 samples, 30 of them hard negatives; generator in skills-scan/eval/fresh11)
  benign-fresh11
                $EVAL/fresh11/benign/index.jsonl: built blind while the tenth round tuned on the third to tenth
                sets (2,977 real skills of 138 repositories; builder and manifest in skills-scan/eval/fresh11)
  corpus        /work/shared/corpus/collections with /work/shared/corpus-code/collections copied over it in a
                temporary folder (the 454 shared real skills with their scripts)
Classes of the written samples: a-plugins, b-indirection, c-tool-run-files, d-transports, e-instructions,
f-one-line, g-shared-style, h-hard-negative (benign).

Peers (each skipped with a note when absent; both install a top-level `skill_scanner` package, so each
needs its own venv):
  cisco   $EVAL/peers-venv/bin/skill-scanner (cisco-ai-skill-scanner 2.3.2):
          `skill-scanner scan-all ROOT --recursive --format json --output-json OUT`, default analyzers only
          (static YAML/YARA rules; no --use-llm/--use-behavioral/--use-virustotal/--use-aidefense/--use-osv)
  agent   $EVAL/peers-venv-agent/bin/agent-skill-scan (agent-skill-scanner 0.1.0):
          `agent-skill-scan scan --path ROOT --output json` (regexes over SKILL.md and other Markdown)
  Recreate them with
    python3 -m venv $EVAL/peers-venv && $EVAL/peers-venv/bin/pip install cisco-ai-skill-scanner==2.3.2
    python3 -m venv $EVAL/peers-venv-agent && $EVAL/peers-venv-agent/bin/pip install agent-skill-scanner==0.1.0
Every scanner runs in an empty network namespace (`unshare -rn`) when the kernel allows it, with LiteLLM /
Hugging Face offline switches set; wall time, CPU time (user + system) and peak RSS come from wait4().

Scoring reuses /work/shared/scan/score.py (imported): its readers of SARIF and of both peers' JSON, and its
mapping of a finding's path to the labelled skill folder. A skill is flagged at a threshold when one of its
findings reaches it. "peers combined" is the union of the two peers.

Rebuilding the data (outside the repository; never commit it, never run anything from it):
  - benign: $EVAL/benign/MANIFEST.tsv lists repo, commit, path in repo, licence, folder here, split, file count.
    `python3 scripts/scan-eval.py --rebuild-benign` re-extracts every folder from the bare mirrors that the
    `fetch` tool leaves under /work/.mirror/<owner>+<name>/repo (`git archive COMMIT PATH`), skipping files
    over 1 MiB and nested skills, and rewrites benign-dev/index.jsonl and held/benign/index.jsonl.
    Selection (done once): up to 45 skill folders per repository, in order of sha256(repo TAB path), skipping
    test/fixture folders, skills whose SKILL.md (whitespace-normalised) equals one in the shared corpus, the
    shared labelled set, anthropics/skills, github/awesome-copilot, getsentry/skills or
    microsoft/cat-agent-skills, and duplicates; split: dev when the first 32 bits of sha256(repo TAB path)
    / 2^32 < 0.4, else held.
  - written samples: skills-scan/eval/gen/build.py (CC0-1.0) writes both halves and their labels; each class is
    sorted by sha256(id) and its first 40 % goes to attacks-dev.
"""

import argparse
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

SHARED = os.environ.get("SHARED", "/work/shared")
EVAL = os.environ.get("EVAL", "/work/eval")
MIRROR = os.environ.get("MIRROR", "/work/.mirror")
RANK = {"info": 0, "none": 0, "low": 1, "medium": 2, "moderate": 2, "high": 3, "error": 3, "critical": 4}
MAX_FILE = 1 << 20


def load_score_module():
    path = os.path.join(SHARED, "scan", "score.py")
    spec = importlib.util.spec_from_file_location("scanbench_score", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------- sets

class Set:
    """One evaluation set: a root folder, its skill folders (relative to root) and the score.py inputs."""

    def __init__(self, name, root, dirs, labels=None, corpus=None, held=False):
        self.name, self.root, self.dirs, self.labels, self.corpus, self.held = name, root, dirs, labels, corpus, held


def labelled_set(name, labels, held=False):
    if not os.path.exists(labels):
        return None
    root = os.path.dirname(labels)
    dirs = [json.loads(l)["path"] for l in open(labels) if l.strip()]
    return Set(name, root, dirs, labels=labels, held=held)


def corpus_set(name, index, root, held=False):
    if not os.path.exists(index):
        return None
    dirs = [json.loads(l)["dir"] for l in open(index) if l.strip()]
    return Set(name, root, dirs, corpus=(index, root), held=held)


def overlay_corpus(tmp):
    base = os.path.join(SHARED, "corpus")
    if not os.path.isdir(os.path.join(base, "collections")):
        return None
    root = os.path.join(tmp, "corpus")
    shutil.copytree(os.path.join(base, "collections"), os.path.join(root, "collections"), symlinks=True)
    code = os.path.join(SHARED, "corpus-code", "collections")
    if os.path.isdir(code):
        shutil.copytree(code, os.path.join(root, "collections"), symlinks=True, dirs_exist_ok=True)
    return corpus_set("corpus", os.path.join(base, "expected-skills-ref.jsonl"), root)


def build_sets(names, tmp):
    makers = {
        "shared": lambda: labelled_set("shared", os.path.join(SHARED, "scan", "labels.jsonl")),
        "attacks-dev": lambda: labelled_set("attacks-dev", os.path.join(EVAL, "attacks-dev", "labels-dev.jsonl")),
        "attacks-held": lambda: labelled_set("attacks-held", os.path.join(EVAL, "held", "attacks", "labels-held.jsonl"), True),
        "benign-dev": lambda: corpus_set("benign-dev", os.path.join(EVAL, "benign-dev", "index.jsonl"), os.path.join(EVAL, "benign-dev")),
        "benign-held": lambda: corpus_set("benign-held", os.path.join(EVAL, "held", "benign", "index.jsonl"),
                                          os.path.join(EVAL, "held", "benign"), True),
        "corpus": lambda: overlay_corpus(tmp),
        # A third pair, written and fetched after the others had been tuned on.
        "attacks-fresh3": lambda: labelled_set("attacks-fresh3", os.path.join(EVAL, "fresh3", "attacks", "labels.jsonl"), True),
        "benign-fresh3": lambda: corpus_set("benign-fresh3", os.path.join(EVAL, "fresh3", "benign", "index.jsonl"),
                                            os.path.join(EVAL, "fresh3", "benign"), True),
        # A fourth pair, built blind while the third round was tuned on the third.
        "attacks-fresh4": lambda: labelled_set("attacks-fresh4", os.path.join(EVAL, "fresh4", "attacks", "labels.jsonl"), True),
        "benign-fresh4": lambda: corpus_set("benign-fresh4", os.path.join(EVAL, "fresh4", "benign", "index.jsonl"),
                                            os.path.join(EVAL, "fresh4", "benign"), True),
        # A fifth pair, built blind while the fourth round was tuned on the third and fourth.
        "attacks-fresh5": lambda: labelled_set("attacks-fresh5", os.path.join(EVAL, "fresh5", "attacks", "labels.jsonl"), True),
        "benign-fresh5": lambda: corpus_set("benign-fresh5", os.path.join(EVAL, "fresh5", "benign", "index.jsonl"),
                                            os.path.join(EVAL, "fresh5", "benign"), True),
        "attacks-fresh6": lambda: labelled_set("attacks-fresh6", os.path.join(EVAL, "fresh6", "attacks", "labels.jsonl"), True),
        "benign-fresh6": lambda: corpus_set("benign-fresh6", os.path.join(EVAL, "fresh6", "benign", "index.jsonl"),
                                            os.path.join(EVAL, "fresh6", "benign"), True),
        # A seventh pair, built blind while the sixth round was tuned on the third to sixth.
        "attacks-fresh7": lambda: labelled_set("attacks-fresh7", os.path.join(EVAL, "fresh7", "attacks", "labels.jsonl"), True),
        "benign-fresh7": lambda: corpus_set("benign-fresh7", os.path.join(EVAL, "fresh7", "benign", "index.jsonl"),
                                            os.path.join(EVAL, "fresh7", "benign"), True),
        # An eighth pair, built blind while the seventh round was tuned on the third to seventh.
        "attacks-fresh8": lambda: labelled_set("attacks-fresh8", os.path.join(EVAL, "fresh8", "attacks", "labels.jsonl"), True),
        "benign-fresh8": lambda: corpus_set("benign-fresh8", os.path.join(EVAL, "fresh8", "benign", "index.jsonl"),
                                            os.path.join(EVAL, "fresh8", "benign"), True),
        # A ninth set, built blind while the eighth round was tuned on the third to eighth.
        "attacks-fresh9": lambda: labelled_set("attacks-fresh9", os.path.join(EVAL, "fresh9", "attacks", "labels.jsonl"), True),
        "benign-fresh9": lambda: corpus_set("benign-fresh9", os.path.join(EVAL, "fresh9", "benign", "index.jsonl"),
                                            os.path.join(EVAL, "fresh9", "benign"), True),
        # A tenth set, built blind while the ninth round was tuned on the third to ninth.
        "attacks-fresh10": lambda: labelled_set("attacks-fresh10", os.path.join(EVAL, "fresh10", "attacks", "labels.jsonl"), True),
        "benign-fresh10": lambda: corpus_set("benign-fresh10", os.path.join(EVAL, "fresh10", "benign", "index.jsonl"),
                                             os.path.join(EVAL, "fresh10", "benign"), True),
        # An eleventh set, built blind while the tenth round was tuned on the third to tenth.
        "attacks-fresh11": lambda: labelled_set("attacks-fresh11", os.path.join(EVAL, "fresh11", "attacks", "labels.jsonl"), True),
        "benign-fresh11": lambda: corpus_set("benign-fresh11", os.path.join(EVAL, "fresh11", "benign", "index.jsonl"),
                                             os.path.join(EVAL, "fresh11", "benign"), True),
    }
    out, notes = [], []
    for n in names:
        if n not in makers:
            sys.exit(f"scan-eval: unknown set `{n}` (known: {', '.join(makers)})")
        s = makers[n]()
        if s is None:
            notes.append(f"set `{n}` skipped: its files are missing")
        else:
            out.append(s)
    return out, notes


# ---------------------------------------------------------------- running

def offline_prefix():
    try:
        if subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0:
            return ["unshare", "-rn"]
    except OSError:
        pass
    return []


def run_timed(argv, cwd, stdout_path, env):
    """Runs argv; returns (ok, wall s, cpu s, peak RSS MiB, stderr tail)."""
    err_path = stdout_path + ".err"
    t0 = time.monotonic()
    with open(stdout_path, "wb") as out, open(err_path, "wb") as err:
        try:
            p = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err, env=env)
        except OSError as e:
            return False, 0.0, 0.0, 0.0, str(e)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    rc = p.returncode
    tail = open(err_path, "rb").read()[-400:].decode("utf-8", "replace")
    return rc in (0, 1), wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, f"exit {rc}: {tail}"


def ours_argv(cmd, dirs):
    argv = shlex.split(cmd)
    if os.path.basename(argv[0]) == "skb" and len(argv) == 1:
        argv += ["scan", "DIR", "--format", "sarif", "--fail-on", "none"]
    if "--format" not in argv:
        argv += ["--format", "sarif"]
    if "DIR" in argv:
        i = argv.index("DIR")
        return argv[:i] + dirs + argv[i + 1:]
    return argv + dirs


class Scanner:
    def __init__(self, name, label, argv_for, out_ext, reads_stdout):
        self.name, self.label, self.argv_for, self.out_ext, self.reads_stdout = name, label, argv_for, out_ext, reads_stdout


def make_scanners(args):
    scanners, notes = [], []
    ours_cmd = args.ours
    first = shlex.split(ours_cmd)[0]
    if shutil.which(first) is None and not os.access(first, os.X_OK):
        notes.append(f"ours skipped: `{first}` not found")
    else:
        scanners.append(Scanner("ours", f"ours (`{ours_cmd}`)", lambda s, out: ours_argv(ours_cmd, s.dirs), "sarif", True))
    if not args.no_peers:
        cisco = args.cisco
        if os.access(cisco, os.X_OK):
            scanners.append(Scanner("cisco", "cisco-ai-skill-scanner 2.3.2",
                                    lambda s, out: [cisco, "scan-all", s.root, "--recursive", "--format", "json",
                                                    "--output-json", out], "json", False))
        else:
            notes.append(f"cisco-ai-skill-scanner skipped: `{cisco}` not found")
        agent = args.agent
        if os.access(agent, os.X_OK):
            scanners.append(Scanner("agent", "agent-skill-scanner 0.1.0",
                                    lambda s, out: [agent, "scan", "--path", s.root, "--output", "json"], "json", True))
        else:
            notes.append(f"agent-skill-scanner skipped: `{agent}` not found")
    return scanners, notes


# ---------------------------------------------------------------- scoring

def per_skill_max(score_mod, s, files):
    """Returns (index, {abs dir: max rank}, scanned ok)."""
    a = argparse.Namespace(labels=[s.labels] if s.labels else None, benign_corpus=s.corpus, sarif_base=s.root)
    idx = score_mod.load_labels(a)
    findings, _unmatched = score_mod.load_results(files, idx, a)
    mx = defaultdict(lambda: -1)
    for row, sev, _rule in findings:
        r = score_mod.sev_rank(sev)
        if r is not None:
            k = score_mod.norm(row["abs"])
            mx[k] = max(mx[k], r)
    return idx, mx


def klass(row):
    return row.get("class") or (row.get("origin") or {}).get("source") or "?"


def summarise(idx, mx):
    rows = list(idx.by_dir.items())
    mal = [(d, r) for d, r in rows if r["label"] == "malicious"]
    ben = [(d, r) for d, r in rows if r["label"] != "malicious"]
    res = {"n_mal": len(mal), "n_ben": len(ben), "recall": {}, "class": defaultdict(lambda: [0, 0, 0]),
           "ben": {}, "missed": [], "flagged": []}
    for t in ("medium", "high"):
        res["recall"][t] = sum(mx[d] >= RANK[t] for d, _ in mal)
    for d, r in mal:
        c = res["class"][klass(r)]
        c[0] += mx[d] >= RANK["medium"]
        c[1] += mx[d] >= RANK["high"]
        c[2] += 1
        if mx[d] < RANK["medium"]:
            res["missed"].append(r["id"])
    for t in ("medium", "high", "critical"):
        res["ben"][t] = sum(mx[d] >= RANK[t] for d, _ in ben)
    inv = {v: k for k, v in RANK.items() if k in ("low", "medium", "high", "critical")}
    for d, r in ben:
        if mx[d] >= RANK["medium"]:
            res["flagged"].append(f"{r['id']} ({inv[mx[d]]})")
    return res


def pct(a, b):
    return f"{a}/{b} ({100 * a / b:.1f} %)" if b else "-"


def ratio(a, b):
    return f"{a / b:.3f} ({a}/{b})" if b else "-"


def table(s, results, run_info):
    lines = [f"### {s.name} ({len(s.dirs)} skills, root `{s.root}`)", ""]
    any_mal = any(r["n_mal"] for r in results.values())
    classes = sorted({c for r in results.values() for c in r["class"]})
    head = ["scanner"]
    if any_mal:
        head += ["recall >= medium", "recall >= high"] + [f"{c} (med/high)" for c in classes]
    head += ["benign flagged >= medium", ">= high", "critical", "wall s", "CPU s", "peak RSS MiB"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, r in results.items():
        row = [name]
        if any_mal:
            row += [ratio(r["recall"]["medium"], r["n_mal"]), ratio(r["recall"]["high"], r["n_mal"])]
            for c in classes:
                m, h, n = r["class"].get(c, [0, 0, 0])
                row.append(f"{m}/{h} of {n}" if n else "-")
        row += [pct(r["ben"]["medium"], r["n_ben"]), pct(r["ben"]["high"], r["n_ben"]), pct(r["ben"]["critical"], r["n_ben"])]
        info = run_info.get(name)
        row += [f"{info[0]:.2f}", f"{info[1]:.2f}", f"{info[2]:.0f}"] if info else ["-", "-", "-"]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    return lines


def id_lists(s, results):
    lines = []
    for name, r in results.items():
        if r["missed"]:
            lines.append(f"- {name}, missed (< medium): {' '.join(sorted(r['missed']))}")
        if r["flagged"]:
            lines.append(f"- {name}, benign flagged (>= medium): {' '.join(sorted(r['flagged']))}")
            if s.corpus:
                by_repo = defaultdict(int)
                for f in r["flagged"]:
                    by_repo[f.split(":", 1)[-1].split("/", 1)[0]] += 1
                top = sorted(by_repo.items(), key=lambda kv: (-kv[1], kv[0]))
                lines.append(f"- {name}, benign flagged per publisher folder ({len(top)} folders): "
                             + ", ".join(f"{k} {v}" for k, v in top))
    return lines + ([""] if lines else [])


# ---------------------------------------------------------------- benign rebuild

def rebuild_benign():
    manifest = os.path.join(EVAL, "benign", "MANIFEST.tsv")
    rows = [l.rstrip("\n").split("\t") for l in open(manifest)][1:]
    index = {"dev": [], "held": []}
    for repo, commit, path, _lic, folder, split, _n in rows:
        gd = os.path.join(MIRROR, repo.replace("/", "+", 1), "repo")
        base = os.path.join(EVAL, "benign-dev") if split == "dev" else os.path.join(EVAL, "held", "benign")
        dest = os.path.join(base, folder)
        spec = [] if path == "." else ["--", path]
        ls = subprocess.run(["git", "--git-dir", gd, "ls-tree", "-r", "-l", commit] + spec, capture_output=True, text=True)
        if ls.returncode:
            print(f"rebuild: {repo}@{commit} not mirrored (fetch github:{repo} first)", file=sys.stderr)
            continue
        entries = []
        for line in ls.stdout.splitlines():
            meta, p = line.split("\t", 1)
            mode, typ, sha, size = meta.split()
            if typ == "blob" and size.isdigit() and int(size) <= MAX_FILE and mode not in ("120000", "160000"):
                entries.append((p, sha))
        pref = "" if path == "." else path + "/"
        nested = {os.path.dirname(p) + "/" for p, _ in entries if os.path.basename(p) == "SKILL.md" and os.path.dirname(p) + "/" != pref}
        for p, sha in entries:
            if any(p.startswith(n) for n in nested):
                continue
            fp = os.path.join(dest, p[len(pref):])
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            blob = subprocess.run(["git", "--git-dir", gd, "cat-file", "blob", sha], capture_output=True).stdout
            with open(fp, "wb") as f:
                f.write(blob)
        index[split].append({"dir": folder, "repo": repo, "path": path})
    for split, base in (("dev", os.path.join(EVAL, "benign-dev")), ("held", os.path.join(EVAL, "held", "benign"))):
        os.makedirs(base, exist_ok=True)
        with open(os.path.join(base, "index.jsonl"), "w") as f:
            for r in index[split]:
                f.write(json.dumps(r) + "\n")
    print(f"rebuilt {len(index['dev'])} dev and {len(index['held'])} held skills", file=sys.stderr)


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default="skb scan DIR --format sarif --fail-on none", help="our scanner's command (see above)")
    ap.add_argument("--sets", default="shared,attacks-dev,attacks-held,benign-dev,benign-held,corpus")
    ap.add_argument("--cisco", default=os.path.join(EVAL, "peers-venv", "bin", "skill-scanner"))
    ap.add_argument("--agent", default=os.path.join(EVAL, "peers-venv-agent", "bin", "agent-skill-scan"))
    ap.add_argument("--no-peers", action="store_true", help="run ours only")
    ap.add_argument("--out", help="keep raw outputs in this folder (default: a temporary one)")
    ap.add_argument("--held-details", metavar="FILE",
                    help="write the held sets' missed / flagged ids to FILE instead of stdout (keeps them unseen)")
    ap.add_argument("--rebuild-benign", action="store_true", help="re-extract the benign corpus from MANIFEST.tsv and exit")
    args = ap.parse_args()
    if args.rebuild_benign:
        rebuild_benign()
        return
    score_mod = load_score_module()
    tmp = tempfile.mkdtemp(prefix="scan-eval-")
    try:
        out_dir = args.out or os.path.join(tmp, "out")
        os.makedirs(out_dir, exist_ok=True)
        sets, notes = build_sets([x for x in args.sets.split(",") if x], tmp)
        scanners, n2 = make_scanners(args)
        notes += n2
        pre = offline_prefix()
        if not pre:
            notes.append("no network namespace available: scanners ran with the network reachable (offline env switches only)")
        env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
                   NO_COLOR="1")
        print("# Scanner evaluation\n")
        print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores; load {open('/proc/loadavg').read().split()[0]}; "
              f"a skill is flagged when one finding reaches the threshold; recall = flagged malicious / malicious; "
              f"class cells are `flagged >= medium / flagged >= high of n`.\n")
        for sc in scanners:
            print(f"- {sc.name}: {sc.label}")
        for n in notes:
            print(f"- note: {n}")
        print()
        held_lines = []
        for s in sets:
            results, info = {}, {}
            per_scanner = {}
            for sc in scanners:
                out = os.path.join(out_dir, f"{s.name}.{sc.name}.{sc.out_ext}")
                argv = sc.argv_for(s, out)
                ok, wall, cpu, rss, err = run_timed(pre + argv, s.root, out if sc.reads_stdout else out + ".stdout", env)
                if not ok or not os.path.exists(out) or os.path.getsize(out) == 0:
                    print(f"- {s.name}: {sc.name} failed ({err.strip()[:300]})\n")
                    continue
                try:
                    idx, mx = per_skill_max(score_mod, s, [out])
                except (ValueError, KeyError) as e:
                    print(f"- {s.name}: {sc.name} output unreadable ({e})\n")
                    continue
                per_scanner[sc.name] = (idx, mx)
                results[sc.name] = summarise(idx, mx)
                info[sc.name] = (wall, cpu, rss)
                print(f"{s.name}: {sc.name} done in {wall:.1f} s", file=sys.stderr)
            if "cisco" in per_scanner and "agent" in per_scanner:
                idx = per_scanner["cisco"][0]
                comb = defaultdict(lambda: -1)
                for name in ("cisco", "agent"):
                    for k, v in per_scanner[name][1].items():
                        comb[k] = max(comb[k], v)
                results["peers combined"] = summarise(idx, comb)
            print("\n".join(table(s, results, info)))
            ids = id_lists(s, results)
            if s.held and args.held_details:
                held_lines += [f"### {s.name}", ""] + ids
            else:
                print("\n".join(ids))
        if args.held_details and held_lines:
            with open(args.held_details, "w") as f:
                f.write("# Held-out sets: missed and flagged ids\n\n" + "\n".join(held_lines) + "\n")
            print(f"(held sets' id lists written to {args.held_details})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
