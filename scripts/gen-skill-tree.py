#!/usr/bin/env python3
"""Generate a deterministic tree of realistic Agent Skills for benchmarks.

Usage: gen-skill-tree.py OUT N [--seed S] [--invalid-rate R] [--force]

Writes N skills under OUT, nested in groups (`group-007/pdf-table-extract/`,
and for every fifth group one level deeper: `group-010/part-2/csv-merge/`).
Each skill has a SKILL.md (frontmatter `name`, `description`, `license`,
`metadata`, `allowed-tools`, sometimes `compatibility`; a 40-120 line body
that links to its own `references/` files and names its scripts), two or
three files under `references/` and one or two executable scripts under
`scripts/` with a `#!` line.

About 4% of the skills (`--invalid-rate`) are broken on purpose, one way
each, cycling through: uppercase name, name/directory mismatch, unexpected
frontmatter key, description over 1,024 characters, invalid YAML, missing
description, doubled hyphen in the name.

The same OUT, N and seed always give byte-identical files. The tree is built
in `OUT.partial` and renamed into place, so an interrupted run never leaves a
half tree at OUT. Prints a JSON summary on stdout. Standard library only.
"""

import argparse
import json
import os
import random
import shutil
import sys

WORDS_A = """pdf csv json yaml sql git docker kube terraform api http graphql
markdown latex image audio video log metric trace test lint schema config
secret cloud queue cache search index email calendar invoice report chart
table slide spreadsheet notebook model dataset prompt review release deploy
bench profile fuzz proto grpc regex unicode locale date money geo""".split()
WORDS_B = """table text form page diff commit branch query migration manifest
plan policy route schema event span alert token record batch stream frame
summary outline draft comment changelog template snapshot backup archive""".split()
WORDS_C = """extract convert validate format merge split render analyze audit
generate inspect compare summarize clean lint migrate review sync export
import debug trace monitor plan build check fix""".split()
LICENSES = ["MIT", "Apache-2.0", "MIT OR Apache-2.0", "BSD-3-Clause",
            "Complete terms in LICENSE.txt", "Proprietary. LICENSE.txt has complete terms"]
AUTHORS = ["platform-team", "data-eng", "docs-guild", "sre", "ml-research",
           "security", "devex", "finance-tools"]
TOOLS = ["Read", "Write", "Edit", "Grep", "Glob", "Bash(python3:*)", "Bash(git:*)",
         "Bash(jq:*)", "WebFetch", "Bash(npm:*)"]
FILLER = """the a this each every skill file input output result step user
agent request data value field record line section example command script
reference check error warning format option default path directory name
should must can will never always only first then before after when while
with without from into over under read write run parse validate compare
report keep drop split merge small large exact quick careful clear simple""".split()
INVALID_KINDS = ["uppercase-name", "name-dir-mismatch", "unexpected-key",
                 "overlong-description", "bad-yaml", "missing-description",
                 "consecutive-hyphens"]


def sentence(rng, lo=6, hi=18):
    words = [rng.choice(FILLER) for _ in range(rng.randint(lo, hi))]
    words[0] = words[0].capitalize()
    if rng.random() < 0.3:
        words.insert(rng.randrange(1, len(words)), "`" + rng.choice(WORDS_A) + "`")
    return " ".join(words) + "."


def paragraph(rng, n_lines):
    """A paragraph wrapped at about 76 columns, `n_lines` lines long."""
    lines, cur = [], []
    while len(lines) < n_lines:
        for w in sentence(rng).split():
            cur.append(w)
            if sum(len(x) + 1 for x in cur) > 72:
                lines.append(" ".join(cur))
                cur = []
                if len(lines) == n_lines:
                    break
    return lines


def unique_names(rng, n):
    names, seen = [], set()
    while len(names) < n:
        parts = [rng.choice(WORDS_A), rng.choice(WORDS_B), rng.choice(WORDS_C)]
        if rng.random() < 0.35:
            parts = parts[:2] if rng.random() < 0.5 else [parts[0], parts[2]]
        name = "-".join(parts)
        if name in seen:
            name = f"{name}-{len(names)}"
        seen.add(name)
        names.append(name)
    return names


def description(rng, name):
    what = " ".join(sentence(rng, 8, 20) for _ in range(rng.randint(1, 4)))
    when = (f"Use when the user asks to {name.replace('-', ' ')}, or when a task "
            f"involves {rng.choice(WORDS_A)} {rng.choice(WORDS_B)} files.")
    return f"{what} {when}"


def yaml_quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def skill_md(rng, name, dir_name, refs, scripts, invalid):
    """Returns the SKILL.md text; `invalid` is None or one of INVALID_KINDS."""
    fm_name = name
    if invalid == "uppercase-name":
        fm_name = dir_name  # the directory carries the uppercase too
    elif invalid == "name-dir-mismatch":
        fm_name = name + "-v2"
    elif invalid == "consecutive-hyphens":
        fm_name = dir_name
    desc = description(rng, name)
    if invalid == "overlong-description":
        while len(desc) <= 1100:
            desc += " " + sentence(rng, 12, 20)
    fm = ["---", f"name: {fm_name}"]
    if invalid == "bad-yaml":
        fm.append(f'description: "{desc}')  # unterminated quote
    elif invalid != "missing-description":
        # Plain scalars are fine unless the text has `: ` or ` #`; quote then.
        fm.append("description: " + (yaml_quote(desc) if (": " in desc or " #" in desc) else desc))
    fm.append(f"license: {rng.choice(LICENSES)}")
    if rng.random() < 0.25:
        fm.append(f"compatibility: Requires Python 3.{rng.randint(8, 12)}+ and network access")
    fm.append("metadata:")
    fm.append(f"  author: {rng.choice(AUTHORS)}")
    fm.append(f'  version: "{rng.randint(0, 3)}.{rng.randint(0, 9)}"')
    if rng.random() < 0.3:
        fm.append(f"  category: {rng.choice(WORDS_A)}")
    fm.append("allowed-tools: " + " ".join(rng.sample(TOOLS, rng.randint(1, 4))))
    if invalid == "unexpected-key":
        fm.append(rng.choice(["version: 1.0.0", "author: someone", "tags: data",
                              "model: sonnet"]))
    fm.append("---")

    title = " ".join(w.capitalize() for w in name.split("-"))
    body = ["", f"# {title}", ""]
    body += paragraph(rng, rng.randint(2, 4))
    body += ["", "## When to use", ""]
    for _ in range(rng.randint(3, 6)):
        body.append("- " + sentence(rng, 5, 12))
    body += ["", "## Steps", ""]
    for i in range(rng.randint(3, 7)):
        body.append(f"{i + 1}. **{sentence(rng, 2, 5)[:-1]}.** " + sentence(rng, 6, 12))
        if rng.random() < 0.5:
            body.append("   " + sentence(rng, 6, 12))
    script = scripts[0][0]
    body += ["", "Run the bundled script from the skill directory:", "",
             "```bash", f"{'python3' if script.endswith('.py') else 'bash'} scripts/{script} --input data.{rng.choice(['csv', 'json', 'txt'])}",
             "```", ""]
    body += paragraph(rng, rng.randint(2, 5))
    body += ["", "## Reference", ""]
    for ref, _ in refs:
        body.append(f"- [{ref[:-3].replace('-', ' ').capitalize()}](references/{ref}): "
                    + sentence(rng, 4, 9))
    body += ["", "| option | meaning |", "|---|---|"]
    for _ in range(rng.randint(2, 5)):
        body.append(f"| `--{rng.choice(WORDS_C)}` | {sentence(rng, 3, 8)} |")
    body += [""]
    # Pad with sections until the body reaches its drawn length.
    target = rng.randint(40, 120)
    while len(body) < target:
        body += ["", f"## {sentence(rng, 2, 4)[:-1]}", ""]
        body += paragraph(rng, rng.randint(3, 8))
        if rng.random() < 0.3:
            body += ["", "```text", f"$ {name} --{rng.choice(WORDS_C)}",
                     sentence(rng, 3, 6), "```"]
        if rng.random() < 0.4:
            ref = rng.choice(refs)[0]
            body += ["", f"See [the {ref[:-3]} notes](references/{ref}) for details."]
    return "\n".join(fm + body) + "\n"


def reference_md(rng, title):
    lines = [f"# {title}", ""]
    for _ in range(rng.randint(2, 5)):
        lines += [f"## {sentence(rng, 2, 4)[:-1]}", ""]
        lines += paragraph(rng, rng.randint(3, 10)) + [""]
    return "\n".join(lines)


def script_text(rng, fname):
    if fname.endswith(".py"):
        return ("#!/usr/bin/env python3\n"
                f'"""{sentence(rng)}"""\n\nimport sys\n\n\n'
                "def main(argv):\n"
                f"    # {sentence(rng)}\n"
                "    for arg in argv[1:]:\n"
                "        print(arg)\n"
                "    return 0\n\n\n"
                'if __name__ == "__main__":\n'
                "    sys.exit(main(sys.argv))\n")
    return ("#!/usr/bin/env bash\nset -euo pipefail\n"
            f"# {sentence(rng)}\n"
            'for f in "$@"; do\n  echo "checking $f"\ndone\n')


def write(path, text, mode=0o644):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.chmod(path, mode)


def generate(out, n, seed, invalid_rate):
    rng = random.Random(seed)
    names = unique_names(rng, n)
    per_group = 50
    n_groups = max(1, (n + per_group - 1) // per_group)
    counts = {k: 0 for k in INVALID_KINDS}
    invalid_total = 0
    for i, name in enumerate(names):
        g = i // per_group
        group = os.path.join(out, f"group-{g:03d}")
        if g % 5 == 0 and n_groups > 1:
            group = os.path.join(group, f"part-{(i % per_group) // 17}")
        invalid = None
        if rng.random() < invalid_rate:
            invalid = INVALID_KINDS[invalid_total % len(INVALID_KINDS)]
            invalid_total += 1
            counts[invalid] += 1
        dir_name = name
        if invalid == "uppercase-name":
            dir_name = "-".join(p.capitalize() for p in name.split("-"))
        elif invalid == "consecutive-hyphens":
            dir_name = name.replace("-", "--", 1) if "-" in name else name + "--x"
        skill = os.path.join(group, dir_name)
        os.makedirs(os.path.join(skill, "references"))
        os.makedirs(os.path.join(skill, "scripts"))
        ref_names = rng.sample(["guide.md", "api.md", "examples.md", "troubleshooting.md",
                                "formats.md", "glossary.md"], rng.randint(2, 3))
        refs = [(r, reference_md(rng, r[:-3].capitalize())) for r in ref_names]
        script_names = rng.sample(["run.py", "check.sh", "convert.py", "report.py",
                                   "setup.sh"], rng.randint(1, 2))
        scripts = [(s, script_text(rng, s)) for s in script_names]
        write(os.path.join(skill, "SKILL.md"),
              skill_md(rng, name, dir_name, refs, scripts, invalid))
        for r, text in refs:
            write(os.path.join(skill, "references", r), text)
        for s, text in scripts:
            write(os.path.join(skill, "scripts", s), text, 0o755)
    return {"out": out, "skills": n, "groups": n_groups, "seed": seed,
            "invalid": invalid_total, "invalid_by_kind": counts}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--invalid-rate", type=float, default=0.04)
    ap.add_argument("--force", action="store_true", help="replace OUT if it exists")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("N must be at least 1")
    out = os.path.abspath(args.out)
    if os.path.exists(out):
        if not args.force:
            print(f"gen-skill-tree: `{out}` exists; pass --force to replace it",
                  file=sys.stderr)
            return 2
        shutil.rmtree(out)
    partial = out + ".partial"
    if os.path.exists(partial):
        shutil.rmtree(partial)
    os.makedirs(partial)
    summary = generate(partial, args.n, args.seed, args.invalid_rate)
    os.rename(partial, out)
    summary["out"] = out
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
