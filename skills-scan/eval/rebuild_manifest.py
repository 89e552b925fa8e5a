#!/usr/bin/env python3
"""Re-extract the real skills a freshN manifest lists from the bare mirrors the `fetch` tool leaves.

Usage: python3 rebuild_manifest.py MANIFEST OUT
  e.g. python3 skills-scan/eval/rebuild_manifest.py skills-scan/eval/fresh7/MANIFEST-benign.tsv /work/eval/fresh7/benign

MANIFEST is a freshN/MANIFEST-benign.tsv (columns repo, commit, path, licence, folder, files). Each row is read
from the bare mirror $MIRROR/<owner>+<name>/repo (default MIRROR=/work/.mirror; fetch `github:owner/name`
first) at its recorded commit and written to OUT/FOLDER the way the freshN builders wrote it: every blob under
the skill's path except symbolic links, submodules, files over 1 MiB and the folders of nested skills (any
other folder below it holding a SKILL.md). Blobs are only read (`git ls-tree`, `git cat-file`); nothing from a
mirror is run. OUT/index.jsonl gets one line per rebuilt row ({"dir", "repo", "path", "split"}, the form
scripts/scan-eval.py reads), OUT/MANIFEST-benign.tsv a copy of the manifest, and OUT/MISSING.tsv the rows that
could not be rebuilt (no mirror, commit absent from the snapshot, or a file count other than the manifest's)
with the reason. Each row's folder is deleted and rewritten; nothing else under OUT is touched.
Python 3 standard library only.
"""

import json
import os
import shutil
import subprocess
import sys

MIRROR = os.environ.get("MIRROR", "/work/.mirror")
MAX_FILE = 1 << 20
SKIPPED_MODES = ("120000", "160000")  # symbolic links, submodules
SKILL_MODES = ("100644", "100755")  # a SKILL.md that makes its folder a skill


def git_dir(repo):
    d = os.path.join(MIRROR, repo.replace("/", "+", 1), "repo")
    return os.path.join(d, ".git") if os.path.isdir(os.path.join(d, ".git")) else d


def git(gd, *args):
    return subprocess.run(["git", "--git-dir", gd, *args], capture_output=True)


def git_quotes(path):
    """Whether `git ls-tree` (core.quotePath on) prints this path quoted: control bytes, `"`, `\\`, non-ASCII."""
    return any(b < 0x20 or b >= 0x7F or b in b'"\\' for b in path)


def tree(gd, commit):
    """{path: (mode, sha, size)} of the commit's blobs, or None when the commit is absent.

    The freshN builders read `git ls-tree` without -z, so a path git prints quoted never matched its skill's
    prefix (nor counted as a SKILL.md) and was left out of the sets as measured; it is left out here too."""
    out = git(gd, "ls-tree", "-r", "-l", "-z", "--full-tree", commit)
    if out.returncode:
        return None
    entries = {}
    for rec in out.stdout.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, typ, sha, size = meta.decode().split()
        if typ == "blob" and size.isdigit() and not git_quotes(path):
            entries[path.decode("utf-8", "surrogateescape")] = (mode, sha, int(size))
    return entries


def skill_files(entries, path):
    """The paths (relative to the skill) and blob ids the builders kept for the skill at `path`."""
    pref = "" if path == "." else path + "/"
    skills = {os.path.dirname(p) for p, (mode, _, _) in entries.items()
              if os.path.basename(p) == "SKILL.md" and mode in SKILL_MODES}
    own = "" if path == "." else path
    nested = [s + "/" for s in skills if s and s != own and (s + "/").startswith(pref)]
    kept = []
    for p, (mode, sha, size) in sorted(entries.items()):
        if not p.startswith(pref) or any(p.startswith(n) for n in nested):
            continue
        if size > MAX_FILE or mode in SKIPPED_MODES:
            continue
        kept.append((p[len(pref):], sha))
    return kept


def safe_rel(rel):
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and all(x not in ("", ".", "..") for x in parts)


class Blobs:
    """One `git cat-file --batch` per mirror: blob contents by id."""

    def __init__(self, gd):
        self.p = subprocess.Popen(["git", "--git-dir", gd, "cat-file", "--batch"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, sha):
        self.p.stdin.write(sha.encode() + b"\n")
        self.p.stdin.flush()
        head = self.p.stdout.readline().split()
        if len(head) != 3 or head[1] != b"blob":
            raise ValueError(f"blob {sha} unreadable")
        size = int(head[2])
        if size > MAX_FILE:
            raise ValueError(f"blob {sha} over 1 MiB")
        data = self.p.stdout.read(size)
        self.p.stdout.read(1)
        return data

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def write_new(root, rel, data):
    """Write data to root/rel, creating its folders; refuses to follow or replace anything already there."""
    dest = root
    for part in rel.split("/")[:-1]:
        dest = os.path.join(dest, part)
        if os.path.islink(dest):
            raise ValueError(f"symbolic link in the way: {dest}")
        if not os.path.isdir(dest):
            os.mkdir(dest)
    fd = os.open(os.path.join(root, rel), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    manifest, out = sys.argv[1], sys.argv[2]
    split = os.path.basename(os.path.dirname(os.path.abspath(manifest)))
    lines = open(manifest, encoding="utf-8").read().splitlines()
    header, rows = lines[0].split("\t"), [dict(zip(lines[0].split("\t"), l.split("\t"))) for l in lines[1:] if l]
    for col in ("repo", "commit", "path", "folder", "files"):
        if col not in header:
            sys.exit(f"rebuild_manifest: {manifest} has no `{col}` column")
    os.makedirs(out, exist_ok=True)
    shutil.copyfile(manifest, os.path.join(out, "MANIFEST-benign.tsv"))
    index, missing, trees, blobs = [], [], {}, {}
    for r in rows:
        if len(r) != len(header):
            missing.append((dict.fromkeys(header, "?") | r, "malformed row"))
            continue
        repo, commit, path, folder = r["repo"], r["commit"], r["path"], r["folder"]
        if not safe_rel(folder) or not (path == "." or safe_rel(path)):
            missing.append((r, "unsafe folder or path"))
            continue
        gd = git_dir(repo)
        if not os.path.isdir(gd):
            missing.append((r, "no mirror"))
            continue
        if (repo, commit) not in trees:
            trees[(repo, commit)] = tree(gd, commit)
        entries = trees[(repo, commit)]
        if entries is None:
            missing.append((r, "commit not in the snapshot"))
            continue
        files = skill_files(entries, path)
        if not any(rel == "SKILL.md" for rel, _ in files):
            missing.append((r, "no SKILL.md at that path"))
            continue
        if not all(safe_rel(rel) for rel, _ in files):
            missing.append((r, "unsafe file path in the tree"))
            continue
        dest = os.path.join(out, folder)
        if any(os.path.islink(os.path.join(out, *folder.split("/")[:i + 1])) for i in range(folder.count("/") + 1)):
            missing.append((r, "symbolic link on the way to the destination"))
            continue
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        if repo not in blobs:
            blobs[repo] = Blobs(gd)
        try:
            for rel, sha in files:
                write_new(dest, rel, blobs[repo].read(sha))
        except (OSError, ValueError) as e:
            shutil.rmtree(dest, ignore_errors=True)
            missing.append((r, f"not written: {e}"))
            continue
        if str(len(files)) != r["files"]:
            shutil.rmtree(dest, ignore_errors=True)
            missing.append((r, f"{len(files)} files, manifest says {r['files']}"))
            continue
        index.append({"dir": folder, "repo": repo, "path": path, "split": split})
    for b in blobs.values():
        b.close()
    with open(os.path.join(out, "index.jsonl"), "w") as f:
        for e in index:
            f.write(json.dumps(e) + "\n")
    with open(os.path.join(out, "MISSING.tsv"), "w") as f:
        f.write("repo\tcommit\tpath\tfolder\treason\n")
        for r, why in missing:
            f.write(f"{r['repo']}\t{r['commit']}\t{r['path']}\t{r['folder']}\t{why}\n")
    print(f"rebuilt {len(index)} of {len(rows)} rows, from {len({e['repo'] for e in index})} of "
          f"{len({r['repo'] for r in rows})} repositories; "
          f"{len(missing)} missing (see {os.path.join(out, 'MISSING.tsv')})", file=sys.stderr)


if __name__ == "__main__":
    main()
