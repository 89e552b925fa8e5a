//! The files of one skill: what gets embedded and packed.
//!
//! [`skill_files`] lists every regular file under a skill directory,
//! `SKILL.md` included, sorted byte-wise by its relative path (`/`-separated,
//! for example `scripts/calc.py`), with its size and whether it is
//! executable (on Unix, any `x` bit; elsewhere never).
//!
//! # What packaging leaves out
//!
//! The same files as Anthropic's packager, `package_skill.py`
//! (`anthropics/skills`, `skills/skill-creator/scripts/package_skill.py`):
//!
//! - anything under a `__pycache__` or `node_modules` directory, at any depth;
//! - files named `.DS_Store`, and files whose name ends in `.pyc`;
//! - `evals` at the top of the skill (only there: `scripts/evals/` is kept).
//!
//! Each such directory or file gives one warning `SK308` and is left out. On
//! top of that, `.git` (a directory or a submodule's `.git` file) is left out
//! *without* a warning: version-control data is never skill content, and a
//! skill kept in its own repository would otherwise warn on every run.
//! Hidden files, editor swap and backup files (`.x.swp`, `x~`) are kept, as
//! the packager keeps them. [`dropped_by_packaging`] answers for one path.
//!
//! # What else is skipped
//!
//! - Symbolic links are followed only when their canonical target lies inside
//!   the canonical skill directory; others warn `SK008`. A link back to a
//!   directory being listed warns `SK009`; a dangling link warns `SK005`.
//!   A file reached through links records where it really is
//!   ([`SkillFile::physical`]), and is later read from there without
//!   following any link (see [`skills_core::fsread`]): a link swapped in after the
//!   listing is refused, never followed.
//! - Fifos, sockets and devices warn `SK005`.
//! - Names that are not UTF-8 or that contain `\` or control characters warn
//!   `SK005`: they cannot be embedded or packed portably.
//! - At most [`FileLimits::max_files`] files, [`FileLimits::max_total_bytes`]
//!   bytes, and [`FileLimits::max_depth`] directory levels. Reaching a limit
//!   is error `SK007`, naming the flag that raises it (`--max-files`,
//!   `--max-skill-size`, `--max-skill-depth`), and stops the listing: a
//!   skill is never packed without some of its files.
//!
//! A directory that does not exist or is not a directory has no files and no
//! diagnostic here: the `SKILL.md` check reports it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic, Severity};
use crate::discover::{EntryKind, Target, entries, follow_link, read_listing};
use crate::knobs::{Knobs, Limit};
use crate::render::thousands;
use skills_core::fsread::Dir;
use skills_core::listing::{EntryMeta, Listing};

/// One file of a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    /// Normalised, `/`-separated, relative to the skill directory: `scripts/calc.py`.
    pub rel: String,
    /// The path shown for it, built from the skill directory as given.
    pub path: PathBuf,
    /// Where it is read from: relative to the skill directory, with every
    /// symbolic link on the way resolved (`rel` when there is none).
    pub physical: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// Whether any execute bit is set (Unix); always `false` elsewhere.
    pub executable: bool,
}

/// Limits on one skill's files; a skill over any of them is invalid (the
/// `skb` CLI raises them with `--max-files`, `--max-skill-size` and
/// `--max-skill-depth`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileLimits {
    /// How many files at most.
    pub max_files: usize,
    /// How many bytes in all at most.
    pub max_total_bytes: u64,
    /// How many directory levels below the skill directory at most.
    pub max_depth: usize,
    /// How the errors at a limit say to raise it.
    pub knobs: Knobs,
}

impl Default for FileLimits {
    /// 10,000 files, 256 MiB, 16 levels.
    fn default() -> Self {
        FileLimits {
            max_files: 10_000,
            max_total_bytes: 256 << 20,
            max_depth: 16,
            knobs: Knobs::Flags,
        }
    }
}

/// Directory (or file) names the packager drops at any depth, with why.
const DROPPED_ANYWHERE: &[(&str, &str)] = &[
    ("__pycache__", "`__pycache__` holds Python bytecode caches"),
    (
        "node_modules",
        "`node_modules` holds installed npm packages",
    ),
];
/// Names dropped at the top of the skill only.
const DROPPED_AT_TOP: &[(&str, &str)] = &[(
    "evals",
    "`evals/` at the top of a skill holds its evaluations",
)];
const GIT: &str = ".git";
const GIT_REASON: &str = "`.git` holds version-control data";

/// Whether packaging leaves this relative file path out, and why (`None`: kept).
///
/// `rel` is `/`-separated and relative to the skill directory. See the module
/// documentation for the list; it mirrors `package_skill.py`, plus `.git`.
pub fn dropped_by_packaging(rel: &str) -> Option<&'static str> {
    let parts = rel.split('/').filter(|p| !p.is_empty() && *p != ".");
    let first = parts.clone().next()?;
    if let Some(why) = dropped_at_top(first) {
        return Some(why);
    }
    let mut last = first;
    for part in parts {
        if let Some(why) = dropped_anywhere(part) {
            return Some(why);
        }
        last = part;
    }
    if last == ".DS_Store" {
        return Some("`.DS_Store` is macOS folder metadata");
    }
    if last.ends_with(".pyc") {
        return Some("`.pyc` files are compiled Python bytecode");
    }
    None
}

fn dropped_anywhere(name: &str) -> Option<&'static str> {
    if name == GIT {
        return Some(GIT_REASON);
    }
    DROPPED_ANYWHERE
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, why)| *why)
}

fn dropped_at_top(name: &str) -> Option<&'static str> {
    DROPPED_AT_TOP
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, why)| *why)
}

/// Every file of the skill rooted at `dir`, sorted byte-wise by `rel`, `SKILL.md` included.
/// Files that packaging drops are reported (`SK308`, warning) and left out.
/// A `dir` that cannot be listed gives an `SK005` warning and no files.
pub fn skill_files(dir: &Path, limits: &FileLimits, diags: &mut Vec<Diagnostic>) -> Vec<SkillFile> {
    skill_files_in(dir, None, limits, diags)
}

/// [`skill_files`], the skill directory being `open` when given (then
/// listed through it: the directory the check opened, not whatever `dir`
/// names by now).
pub fn skill_files_in(
    dir: &Path,
    open: Option<&Dir>,
    limits: &FileLimits,
    diags: &mut Vec<Diagnostic>,
) -> Vec<SkillFile> {
    let mut lister = Lister {
        dir,
        limits,
        diags,
        boundary: None,
        stack: vec![Frame {
            name: String::new(),
            target: None,
        }],
        files: Vec::new(),
        total: 0,
        stopped: false,
    };
    let listing = match open {
        Some(open) => Listing::of(open),
        None => Listing::read(dir),
    };
    if let Some(listing) = read_listing(dir, listing, lister.diags) {
        lister.list(dir, &listing, "", Path::new(""), 0);
    }
    let mut files = lister.files;
    files.sort_by(|a, b| a.rel.as_bytes().cmp(b.rel.as_bytes()));
    files
}

/// A directory being listed: its name, and its canonical path when it was
/// reached through a symbolic link (otherwise its parent's joined with `name`).
struct Frame {
    name: String,
    target: Option<PathBuf>,
}

struct Lister<'a> {
    dir: &'a Path,
    limits: &'a FileLimits,
    diags: &'a mut Vec<Diagnostic>,
    /// The canonical skill directory, computed at the first symbolic link
    /// (`Err` when it cannot be: then no link is followed).
    boundary: Option<Result<PathBuf, ()>>,
    /// The directories being listed, the skill directory first.
    stack: Vec<Frame>,
    files: Vec<SkillFile>,
    total: u64,
    /// Set when a limit was reached: the listing ends there.
    stopped: bool,
}

impl Lister<'_> {
    fn warn(&mut self, code: Code, path: &Path, message: String, help: &str) {
        self.diags
            .push(Diagnostic::new(code, Severity::Warning, path, message).help(help));
    }

    /// Reports the limit `flag` raises as reached at `path`, and ends the
    /// listing: the skill is invalid, so none of it is packed.
    fn limit(&mut self, path: &Path, message: String, limit: Limit) {
        self.stopped = true;
        let help = format!(
            "remove files the skill does not need, split it into several skills, or raise the limit with {}",
            self.limits.knobs.name(limit)
        );
        self.diags
            .push(Diagnostic::new(Code::DiscoveryLimit, Severity::Error, path, message).help(help));
    }

    fn boundary(&mut self) -> Option<PathBuf> {
        if self.boundary.is_none() {
            self.boundary = Some(match fs::canonicalize(self.dir) {
                Ok(canon) => Ok(canon),
                Err(e) => {
                    let message = format!(
                        "cannot resolve skill directory `{}`: {e}; its symbolic links were not followed",
                        self.dir.display()
                    );
                    self.warn(Code::Io, self.dir, message, "check its permissions");
                    Err(())
                }
            });
        }
        self.boundary.clone().and_then(Result::ok)
    }

    /// Lists `dir`, which is `prefix` (shown) and `physical` (resolved)
    /// relative to the skill directory.
    fn list(
        &mut self,
        dir: &Path,
        listing: &Listing<'_>,
        prefix: &str,
        physical: &Path,
        depth: usize,
    ) {
        for entry in entries(dir, listing) {
            if self.stopped {
                return;
            }
            let Some(name) = entry.name.to_str() else {
                let message = format!(
                    "`{}` has a name that is not valid UTF-8; it was left out",
                    entry.path.display()
                );
                self.warn(
                    Code::Io,
                    &entry.path,
                    message,
                    "rename it using UTF-8 characters",
                );
                continue;
            };
            if name.contains('\\') || name.chars().any(char::is_control) {
                let message = format!(
                    "`{}` has a name with `\\` or a control character; it was left out",
                    entry.path.display()
                );
                self.warn(
                    Code::Io,
                    &entry.path,
                    message,
                    "rename it: such names cannot be packed portably",
                );
                continue;
            }
            let rel = if prefix.is_empty() {
                name.to_owned()
            } else {
                format!("{prefix}/{name}")
            };
            match entry.kind {
                EntryKind::Dir => {
                    self.enter(&entry.path, &rel, name, physical.join(name), None, depth)
                }
                EntryKind::File => match listing.metadata(&entry.name) {
                    // The kind came from the directory listing; the size
                    // must come from the same kind of file.
                    Ok(meta) if meta.kind == EntryKind::File => {
                        self.add(&entry.path, rel, physical.join(name), &meta);
                    }
                    Ok(_) => {
                        let message = format!(
                            "`{}` changed while the skill was being listed; it was left out",
                            entry.path.display()
                        );
                        self.warn(Code::Io, &entry.path, message, "run again");
                    }
                    Err(e) => {
                        let message = format!(
                            "cannot read `{}`: {e}; it was left out",
                            entry.path.display()
                        );
                        self.warn(Code::Io, &entry.path, message, "check its permissions");
                    }
                },
                EntryKind::Symlink => {
                    let Some(boundary) = self.boundary() else {
                        continue;
                    };
                    let target = follow_link(&entry.path, &boundary, self.dir, false, self.diags);
                    match target {
                        Some(Target::Dir(canon)) => {
                            let inside = canon.strip_prefix(&boundary).map(Path::to_path_buf);
                            if let Ok(inside) = inside {
                                self.enter(&entry.path, &rel, name, inside, Some(canon), depth);
                            }
                        }
                        Some(Target::File(canon, meta)) => {
                            if let Ok(inside) = canon.strip_prefix(&boundary) {
                                let meta = EntryMeta::of(&meta);
                                self.add(&entry.path, rel, inside.to_path_buf(), &meta);
                            }
                        }
                        Some(Target::Other(_)) => self.special(&entry.path),
                        None => {}
                    }
                }
                EntryKind::Other => self.special(&entry.path),
            }
        }
    }

    /// Lists a sub-directory (`physical` relative to the skill directory);
    /// `target` is its canonical path when reached through a link.
    fn enter(
        &mut self,
        path: &Path,
        rel: &str,
        name: &str,
        physical: PathBuf,
        target: Option<PathBuf>,
        depth: usize,
    ) {
        let dropped = if depth == 0 {
            dropped_at_top(name).or_else(|| dropped_anywhere(name))
        } else {
            dropped_anywhere(name)
        };
        if let Some(why) = dropped {
            if name != GIT {
                let message = format!("`{rel}/` is left out of the packaged skill: {why}");
                self.warn(Code::PackagingDrops, path, message, DROP_HELP);
            }
            return;
        }
        if let Some(target) = &target
            && self.on_stack(target)
        {
            let message = format!(
                "symbolic link `{}` leads back to `{}`, which is being listed; it was not followed",
                path.display(),
                target.display()
            );
            self.warn(
                Code::SymlinkCycle,
                path,
                message,
                "remove the link; it makes the directory tree endless",
            );
            return;
        }
        if depth + 1 > self.limits.max_depth {
            let message = format!(
                "`{rel}/` is {} directory levels deep in `{}`, over the limit of {}; raise it with {}",
                depth + 1,
                self.dir.display(),
                self.limits.max_depth,
                self.limits.knobs.name(Limit::SkillDepth)
            );
            self.limit(path, message, Limit::SkillDepth);
            return;
        }
        let Some(listing) = read_listing(path, Listing::read(path), self.diags) else {
            return;
        };
        self.stack.push(Frame {
            name: name.to_owned(),
            target,
        });
        self.list(path, &listing, rel, &physical, depth + 1);
        self.stack.pop();
    }

    /// Whether `canon` is one of the directories being listed. Only called
    /// for links, so the canonical paths are built only then.
    fn on_stack(&mut self, canon: &Path) -> bool {
        let Some(mut current) = self.boundary() else {
            return false;
        };
        for (i, frame) in self.stack.iter().enumerate() {
            if i > 0 {
                current = match &frame.target {
                    Some(target) => target.clone(),
                    None => current.join(&frame.name),
                };
            }
            if current == canon {
                return true;
            }
        }
        false
    }

    fn add(&mut self, path: &Path, rel: String, physical: PathBuf, meta: &EntryMeta) {
        if let Some(why) = dropped_by_packaging(&rel) {
            if !rel.split('/').any(|p| p == GIT) {
                let message = format!("`{rel}` is left out of the packaged skill: {why}");
                self.warn(Code::PackagingDrops, path, message, DROP_HELP);
            }
            return;
        }
        let size = meta.len;
        if self.files.len() >= self.limits.max_files {
            let message = format!(
                "`{}` has more than {} files, the limit; raise it with {}",
                self.dir.display(),
                thousands(self.limits.max_files as u64),
                self.limits.knobs.name(Limit::Files)
            );
            self.limit(path, message, Limit::Files);
            return;
        }
        if self.total.saturating_add(size) > self.limits.max_total_bytes {
            let message = format!(
                "the files of `{}` add up to more than {} bytes, the limit; raise it with {}",
                self.dir.display(),
                thousands(self.limits.max_total_bytes),
                self.limits.knobs.name(Limit::SkillSize)
            );
            self.limit(path, message, Limit::SkillSize);
            return;
        }
        self.total += size;
        self.files.push(SkillFile {
            rel,
            path: path.to_path_buf(),
            physical,
            size,
            executable: meta.executable,
        });
    }

    fn special(&mut self, path: &Path) {
        let message = format!(
            "`{}` is not a regular file or directory (a fifo, socket or device); it was left out",
            path.display()
        );
        self.warn(
            Code::Io,
            path,
            message,
            "remove it from the skill directory",
        );
    }
}

const DROP_HELP: &str =
    "remove it from the skill directory; packaging (`package_skill.py`, `skb pack`) leaves it out";

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{self, Write};

    type Result = std::result::Result<(), Box<dyn std::error::Error>>;

    fn write(path: &Path, text: &str) -> io::Result<()> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::File::create(path)?.write_all(text.as_bytes())
    }

    fn list(dir: &Path, limits: &FileLimits) -> (Vec<SkillFile>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let files = skill_files(dir, limits, &mut diags);
        (files, diags)
    }

    fn rels(files: &[SkillFile]) -> Vec<&str> {
        files.iter().map(|f| f.rel.as_str()).collect()
    }

    fn codes(diags: &[Diagnostic]) -> Vec<Code> {
        diags.iter().map(|d| d.code).collect()
    }

    #[test]
    fn packaging_rules_match_package_skill_py() {
        for kept in [
            "SKILL.md",
            "scripts/calc.py",
            "scripts/evals/x.json",
            ".hidden",
            "notes.swp",
            "a~",
            "pyc",
            "x.pyc.txt",
            "DS_Store",
            "evals.md",
            "x.PYC",
        ] {
            assert_eq!(dropped_by_packaging(kept), None, "{kept}");
        }
        for dropped in [
            "__pycache__/a.cpython-312.pyc",
            "scripts/__pycache__/x.txt",
            "node_modules/pkg/index.js",
            "a/b/node_modules",
            "evals/evals.json",
            "evals",
            ".DS_Store",
            "assets/.DS_Store",
            "scripts/x.pyc",
            ".pyc",
            ".git/config",
            "vendor/.git",
        ] {
            assert!(dropped_by_packaging(dropped).is_some(), "{dropped}");
        }
        assert_eq!(dropped_by_packaging(""), None);
    }

    #[test]
    fn lists_sorted_relative_paths_and_sizes() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        write(&dir.join("SKILL.md"), "---\n---\n")?;
        write(&dir.join("scripts/run.sh"), "#!/bin/sh\n")?;
        write(&dir.join("a-b.txt"), "1")?;
        write(&dir.join("a/z.txt"), "12")?;
        write(&dir.join("references/deep/er/x.md"), "")?;
        fs::create_dir_all(dir.join("empty"))?;
        let (files, diags) = list(&dir, &FileLimits::default());
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            rels(&files),
            [
                "SKILL.md",
                "a-b.txt",
                "a/z.txt",
                "references/deep/er/x.md",
                "scripts/run.sh"
            ]
        );
        assert_eq!(files[2].size, 2);
        assert_eq!(files[2].path, dir.join("a").join("z.txt"));
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn executable_bit() -> Result {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir()?;
        write(&tmp.path().join("run.sh"), "#!/bin/sh\n")?;
        write(&tmp.path().join("data.txt"), "x")?;
        fs::set_permissions(tmp.path().join("run.sh"), fs::Permissions::from_mode(0o755))?;
        fs::set_permissions(
            tmp.path().join("data.txt"),
            fs::Permissions::from_mode(0o644),
        )?;
        let (files, _) = list(tmp.path(), &FileLimits::default());
        let exec: Vec<(&str, bool)> = files
            .iter()
            .map(|f| (f.rel.as_str(), f.executable))
            .collect();
        assert_eq!(exec, [("data.txt", false), ("run.sh", true)]);
        Ok(())
    }

    #[test]
    fn dropped_files_warn_once_per_directory() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path();
        write(&dir.join("SKILL.md"), "x")?;
        write(&dir.join("scripts/__pycache__/a.pyc"), "x")?;
        write(&dir.join("scripts/__pycache__/b.pyc"), "x")?;
        write(&dir.join("scripts/stray.pyc"), "x")?;
        write(&dir.join("node_modules/p/i.js"), "x")?;
        write(&dir.join("evals/evals.json"), "x")?;
        write(&dir.join("scripts/evals/kept.json"), "x")?;
        write(&dir.join(".DS_Store"), "x")?;
        write(&dir.join(".git/HEAD"), "x")?;
        write(&dir.join(".gitignore"), "x")?;
        let (files, diags) = list(dir, &FileLimits::default());
        assert_eq!(
            rels(&files),
            [".gitignore", "SKILL.md", "scripts/evals/kept.json"]
        );
        assert_eq!(codes(&diags), [Code::PackagingDrops; 5]);
        let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert!(
            messages[0].starts_with("`.DS_Store` is left out"),
            "{messages:?}"
        );
        assert!(
            messages[1].starts_with("`evals/` is left out"),
            "{messages:?}"
        );
        assert!(
            messages[2].starts_with("`node_modules/` is left out"),
            "{messages:?}"
        );
        assert!(
            messages[3].starts_with("`scripts/__pycache__/` is left out"),
            "{messages:?}"
        );
        assert!(
            messages[4].starts_with("`scripts/stray.pyc` is left out"),
            "{messages:?}"
        );
        Ok(())
    }

    #[test]
    fn missing_or_file_dir_has_no_files_and_one_warning() -> Result {
        let tmp = tempfile::tempdir()?;
        write(&tmp.path().join("f"), "x")?;
        for dir in [tmp.path().join("nope"), tmp.path().join("f")] {
            let (files, diags) = list(&dir, &FileLimits::default());
            assert!(files.is_empty());
            assert_eq!(diags.len(), 1);
            assert_eq!(diags[0].code, Code::Io);
            assert_eq!(diags[0].severity, Severity::Warning);
        }
        Ok(())
    }

    #[test]
    fn file_count_limit() -> Result {
        let tmp = tempfile::tempdir()?;
        for n in ["a", "b", "c", "d"] {
            write(&tmp.path().join(n), "x")?;
        }
        let limits = FileLimits {
            max_files: 2,
            ..FileLimits::default()
        };
        let (_, diags) = list(tmp.path(), &limits);
        assert_eq!(codes(&diags), [Code::DiscoveryLimit]);
        assert_eq!(diags[0].severity, Severity::Error);
        let message = format!(
            "`{}` has more than 2 files, the limit; raise it with `--max-files`",
            tmp.path().display()
        );
        assert_eq!(diags[0].message, message);
        assert_eq!(diags[0].path, tmp.path().join("c"));
        // At the limit, every file is listed and nothing is said.
        let limits = FileLimits {
            max_files: 4,
            ..FileLimits::default()
        };
        let (files, diags) = list(tmp.path(), &limits);
        assert_eq!((rels(&files), diags.len()), (vec!["a", "b", "c", "d"], 0));
        Ok(())
    }

    #[test]
    fn byte_limit() -> Result {
        let tmp = tempfile::tempdir()?;
        write(&tmp.path().join("a"), "12345")?;
        write(&tmp.path().join("b"), "12345")?;
        write(&tmp.path().join("c"), "1")?;
        let limits = FileLimits {
            max_total_bytes: 9,
            ..FileLimits::default()
        };
        let (_, diags) = list(tmp.path(), &limits);
        assert_eq!(codes(&diags), [Code::DiscoveryLimit]);
        assert_eq!(diags[0].severity, Severity::Error);
        let message = format!(
            "the files of `{}` add up to more than 9 bytes, the limit; raise it with `--max-skill-size`",
            tmp.path().display()
        );
        assert_eq!(diags[0].message, message);
        assert_eq!(diags[0].path, tmp.path().join("b"));
        let limits = FileLimits {
            max_total_bytes: 11,
            ..FileLimits::default()
        };
        let (files, diags) = list(tmp.path(), &limits);
        assert_eq!((rels(&files), diags.len()), (vec!["a", "b", "c"], 0));
        Ok(())
    }

    #[test]
    fn depth_limit() -> Result {
        let tmp = tempfile::tempdir()?;
        write(&tmp.path().join("1/top.txt"), "x")?;
        write(&tmp.path().join("1/2/deep.txt"), "x")?;
        write(&tmp.path().join("x/2/deep.txt"), "x")?;
        let limits = FileLimits {
            max_depth: 1,
            ..FileLimits::default()
        };
        let (_, diags) = list(tmp.path(), &limits);
        assert_eq!(codes(&diags), [Code::DiscoveryLimit]);
        assert_eq!(diags[0].severity, Severity::Error);
        let message = format!(
            "`1/2/` is 2 directory levels deep in `{}`, over the limit of 1; raise it with `--max-skill-depth`",
            tmp.path().display()
        );
        assert_eq!(diags[0].message, message);
        let limits = FileLimits {
            max_depth: 2,
            ..FileLimits::default()
        };
        let (files, diags) = list(tmp.path(), &limits);
        assert_eq!(
            (rels(&files), diags.len()),
            (vec!["1/2/deep.txt", "1/top.txt", "x/2/deep.txt"], 0)
        );
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn odd_names_are_skipped() -> Result {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let tmp = tempfile::tempdir()?;
        write(&tmp.path().join("ok.txt"), "x")?;
        write(&tmp.path().join("back\\slash"), "x")?;
        write(&tmp.path().join("tab\there"), "x")?;
        write(&tmp.path().join(OsStr::from_bytes(b"bad\xff")), "x")?;
        let (files, diags) = list(tmp.path(), &FileLimits::default());
        assert_eq!(rels(&files), ["ok.txt"]);
        assert_eq!(codes(&diags), [Code::Io; 3]);
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_escape_cycle_dangling_and_inside() -> Result {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        write(&dir.join("SKILL.md"), "x")?;
        write(&dir.join("real/data.txt"), "abc")?;
        write(&tmp.path().join("secret.txt"), "x")?;
        symlink(tmp.path().join("secret.txt"), dir.join("a-escape.txt"))?;
        symlink(dir.join("real/data.txt"), dir.join("b-inside.txt"))?;
        symlink(&dir, dir.join("real/c-loop"))?;
        symlink(dir.join("missing"), dir.join("d-dangling"))?;
        symlink(dir.join("real"), dir.join("e-dir"))?;
        let (files, diags) = list(&dir, &FileLimits::default());
        assert_eq!(
            rels(&files),
            [
                "SKILL.md",
                "b-inside.txt",
                "e-dir/data.txt",
                "real/data.txt"
            ]
        );
        assert_eq!(files[1].size, 3);
        assert_eq!(files[1].path, dir.join("b-inside.txt"));
        // Where each is read from: the links resolved, inside the skill.
        let physical: Vec<&Path> = files.iter().map(|f| f.physical.as_path()).collect();
        assert_eq!(
            physical,
            [
                Path::new("SKILL.md"),
                Path::new("real/data.txt"),
                Path::new("real/data.txt"),
                Path::new("real/data.txt")
            ]
        );
        assert_eq!(
            codes(&diags),
            [
                Code::SymlinkEscape,
                Code::Io,
                Code::SymlinkCycle,
                Code::SymlinkCycle
            ]
        );
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn fifos_are_skipped() -> Result {
        let tmp = tempfile::tempdir()?;
        write(&tmp.path().join("SKILL.md"), "x")?;
        let fifo = tmp.path().join("pipe");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !status.is_ok_and(|s| s.success()) {
            return Ok(());
        }
        let (files, diags) = list(tmp.path(), &FileLimits::default());
        assert_eq!(rels(&files), ["SKILL.md"]);
        assert_eq!(codes(&diags), [Code::Io]);
        Ok(())
    }
}
