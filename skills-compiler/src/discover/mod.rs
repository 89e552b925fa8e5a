//! Discovery: which directories under a path the user named are skills.
//!
//! [`discover`] takes one *root* (a path as the user typed it) and returns the
//! skill directories under it, in a fixed order, with every path built from
//! the root as given (never canonicalised). Problems become [`Diagnostic`]s;
//! discovery never stops early because of one.
//!
//! # What a root can be
//!
//! - **Missing**: error `SK001` (``path `X` does not exist``; the reference
//!   validator says `Path does not exist: X`). Nothing is returned.
//! - **A file** named `SKILL.md` in any letter case (as `skills-ref` compares
//!   `path.name.lower() == "skill.md"`): the skill is its parent directory
//!   (`.` when the path has no parent) and [`FoundSkill::root`] is the file.
//!   Any other file: error `SK002` (`Not a directory: X`). A root that exists
//!   but cannot be read is error `SK005`; everything below a root gives
//!   warnings only.
//! - **A directory**, examined in this order:
//!   1. **Marketplace**: it has `.claude-plugin/marketplace.json`. Each entry of
//!      `plugins` is a plugin named by its `name`. A string `source` is a path
//!      relative to the root (`"./plugins/foo"`); one written without a leading
//!      `./` is relative to `metadata.pluginRoot` when that is set. An object
//!      `source` (`github`, `url`, `git-subdir`, `npm`, ...) names a remote
//!      plugin, which cannot be walked: it is skipped without a diagnostic. The
//!      plugin directory is then read as in rule 2, with the entry's `skills`
//!      added to the plugin's own; an entry with `"strict": false` is the whole
//!      plugin definition, so its `plugin.json`'s `skills` is not read; and an
//!      entry whose source is the root itself and which lists `skills` gets
//!      exactly those (the default `skills/` is not scanned), as Claude Code
//!      does for `anthropics/skills`. The root is then walked by rules 2 to
//!      4 as well, so that skills and plugins the marketplace does not list
//!      are validated too (Claude Code would not load them, but CI should
//!      see them); a directory already found keeps its marketplace plugin
//!      name. A marketplace file that cannot be used at all (not JSON, no
//!      `plugins` array) is reported and the root is read by rules 2 to 4.
//!   2. **Plugin**: it has `.claude-plugin/plugin.json`. The plugin's name is
//!      its `name` (else the directory's name); its skills are named
//!      `plugin:skill`. Its `skills/` directory is always scanned when present,
//!      and every path in its `skills` field (a string or an array of strings,
//!      relative to the plugin) is scanned too. A scanned path that holds a
//!      `SKILL.md` is one skill; otherwise each of its sub-directories is a
//!      skill (one level, sorted, skipping the names the walk skips; those
//!      without a `SKILL.md` are returned too, so the missing file is
//!      reported), except that the plugin directory itself (`"."`) only
//!      contributes sub-directories that hold a `SKILL.md`. A listed path may
//!      also name a `SKILL.md` file, meaning its directory. A plugin with
//!      neither skills in `skills/` nor a `skills` field, whose own directory
//!      holds a `SKILL.md`, is a single-skill plugin.
//!   3. **Skill**: it holds an entry named exactly `SKILL.md` or `skill.md`
//!      (of any kind: a directory named `SKILL.md` is reported by the parser).
//!      Discovery does not look inside a skill.
//!
//!      **Project folder**: otherwise, a directory that holds a client's
//!      skills folder (`.claude/skills`, `.agents/skills` or `.codex/skills`): the skills
//!      are those the clients read from there up to the repository's root,
//!      each folder scanned as its client scans it (`clients.rs`); the rest of
//!      the directory is not walked. The working directory (`.`, the
//!      commands' default) in which rule 4 finds no skill is read the same
//!      way (a client started in `src/` still reads the repository root's
//!      `.claude/skills`), and when that finds none either, error `SK003`
//!      says where it looked. Any other directory keeps rule 5: a skill
//!      directory missing its `SKILL.md` is reported, never passed on the
//!      strength of skills elsewhere.
//!   4. **Anything else** is walked: sub-directories in byte-wise order of
//!      their names, rules 2 and 3 applied to each (a `marketplace.json` only
//!      counts at the root), hidden directories (`.name`), `node_modules`,
//!      `__pycache__` and `target` skipped (a root is never skipped, even a
//!      hidden one). The walk descends at most [`DiscoveryOptions::max_depth`]
//!      levels (the root is level 0) and reads at most
//!      [`DiscoveryOptions::max_dirs`] directories; hitting either limit gives
//!      one error `SK007` per limit and root, naming the flag that raises it
//!      (`--max-depth`, `--max-dirs`), and the walk goes no further: a tree
//!      never passes on a part of it.
//!   5. A directory root in which none of this finds a skill is returned as
//!      the only skill, so the parser reports `Missing required file:
//!      SKILL.md` exactly as the reference validator does.
//!
//! Manifest paths must be relative, `/`-separated and free of `..`; others are
//! reported (`SK010`) and ignored, as are paths that do not exist. A manifest
//! that is not JSON, is larger than 1 MiB, or has a field of the wrong type
//! gives warning `SK010` pointing into the file, and the defaults apply (for
//! `plugin.json`: the directory's name and `skills/`).
//!
//! # Symbolic links
//!
//! A link to a skill directory (one holding `SKILL.md`) is followed wherever
//! it leads, as Claude Code and Codex follow them; the skill's own files stay
//! bounded by its canonical directory ([`files`](super::files)), so links
//! inside it that leave it are still refused. Any other link is followed only
//! when its canonical target lies inside the canonical root; otherwise
//! warning `SK008` names the link and its target and the link is skipped. A link back to a directory on the current walk path is
//! a cycle (warning `SK009`, skipped); a directory reached a second time by
//! another way is skipped silently. A dangling link gives warning `SK005`.
//! Discovery only follows links to directories; links to files are left to
//! [`files`](super::files), which applies the same policy inside a skill.
//! The root itself may be a link: the user named it, so it is followed and its
//! target becomes the boundary.
//!
//! # Order
//!
//! Skills come in walk order: marketplace plugins in manifest order, a
//! plugin's `skills/` before its listed paths, directories byte-wise sorted.
//! A directory reached twice (same canonical path) is returned once, the
//! first time.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::diag::{Code, Diagnostic, Severity};
use super::knobs::{Knobs, Limit};
use super::render::thousands;
use skills_core::listing::Listing;

mod clients;
mod manifest;

pub use clients::{Origin, UserFolders};
use manifest::{Manifest, PluginSpec};

const MANIFEST_DIR: &str = ".claude-plugin";
const PLUGIN_JSON: &str = "plugin.json";
const MARKETPLACE_JSON: &str = "marketplace.json";
const DEFAULT_SKILLS_DIR: &str = "skills";
/// Directory names the walk never enters (besides hidden ones).
const SKIPPED_DIRS: &[&str] = &["node_modules", "__pycache__", "target"];
/// The largest manifest read, in bytes.
const MAX_MANIFEST_BYTES: u64 = 1 << 20;
/// How deeply JSON arrays and objects may nest in a manifest.
const MAX_JSON_DEPTH: usize = 64;

/// How far discovery looks under one root, and whether it reads the user's
/// skills folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveryOptions {
    /// How many levels below the root the walk descends (the root is level 0).
    pub max_depth: usize,
    /// How many directories the walk reads under one root.
    pub max_dirs: usize,
    /// The user's skills folders, read once besides the roots; `None` (the
    /// default) leaves them out.
    pub user: Option<UserFolders>,
    /// How the errors at a limit say to raise it.
    pub knobs: Knobs,
}

impl Default for DiscoveryOptions {
    /// Depth 6, 2,000 directories (as Codex), no user folders.
    fn default() -> Self {
        DiscoveryOptions {
            max_depth: 6,
            max_dirs: 2000,
            user: None,
            knobs: Knobs::Flags,
        }
    }
}

/// One skill directory found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSkill {
    /// The skill directory, built from the root as the user gave it (not canonicalised).
    pub dir: PathBuf,
    /// The plugin it belongs to, for plugin layouts: its skills are named `plugin:skill`.
    pub plugin: Option<String>,
    /// The root it was found under, as the user gave it (for a skill in a
    /// client's skills folder: that folder).
    pub root: PathBuf,
    /// The client's skills folder it was found in, if any.
    pub origin: Option<Origin>,
}

/// Discovers every root, then the user's folders when asked, with a
/// diagnostic list per root (the user's folders count as one more root,
/// `~`). A skill directory reached from two roots is returned once.
pub fn discover_all(
    roots: &[PathBuf],
    opts: &DiscoveryOptions,
) -> (Vec<FoundSkill>, Vec<(PathBuf, Vec<Diagnostic>)>) {
    discover_all_with(roots, opts, &mut |_| {})
}

/// [`discover_all`], handing each skill to `emit` as soon as it is certain
/// to be in the result, in the result's order (the walk of a tree emits its
/// skills while it goes on).
pub fn discover_all_with(
    roots: &[PathBuf],
    opts: &DiscoveryOptions,
    emit: &mut dyn FnMut(&FoundSkill),
) -> (Vec<FoundSkill>, Vec<(PathBuf, Vec<Diagnostic>)>) {
    let mut found: Vec<FoundSkill> = Vec::new();
    let mut reports = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut empty_projects = Vec::new();
    // Claude Code reads the user's folder before the project's, Codex after.
    let (user_first, user_last): (Vec<_>, Vec<_>) = opts
        .user
        .as_ref()
        .map(clients::user_folders)
        .unwrap_or_default()
        .into_iter()
        .partition(|f| f.client.info().user_first);
    let mut user_diags = Vec::new();
    for folder in &user_first {
        found.extend(clients::scan(folder, opts, &mut seen, &mut user_diags));
    }
    found.iter().for_each(&mut *emit);
    for root in roots {
        let mut diags = Vec::new();
        // The walk emits each skill it keeps, in order; the others of this
        // root (a fallback, a project's folders) are emitted after it.
        let mut walked = 0;
        let (skills, project) = discover_root(root, opts, &mut seen, &mut diags, &mut |f| {
            walked += 1;
            emit(f);
        });
        if let Some(project) = project.filter(|_| skills.is_empty()) {
            empty_projects.push((reports.len(), root.clone(), project));
        }
        skills.iter().skip(walked).for_each(&mut *emit);
        found.extend(skills);
        reports.push((root.clone(), diags));
    }
    for folder in &user_last {
        let skills = clients::scan(folder, opts, &mut seen, &mut user_diags);
        skills.iter().for_each(&mut *emit);
        found.extend(skills);
    }
    if let Some(user) = &opts.user {
        reports.push((user.home.clone(), user_diags));
    }
    if found.is_empty() {
        for (at, root, project) in empty_projects {
            reports[at]
                .1
                .push(no_skills(&root, &project, opts.user.is_some()));
        }
    }
    reports.retain(|(_, d)| !d.is_empty());
    (found, reports)
}

/// Where a project root was looked for skills: its repository's root.
#[derive(Debug, Clone)]
struct Project {
    repository: Option<PathBuf>,
}

/// Error `SK003` for a project folder in which no client folder holds a skill.
fn no_skills(root: &Path, project: &Project, user: bool) -> Diagnostic {
    let up_to = match &project.repository {
        Some(top) => format!(
            "in `{}` and each directory up to the repository's root `{}`",
            root.display(),
            top.display()
        ),
        None => format!("in `{}` (not in a git repository)", root.display()),
    };
    let users = if user {
        ", nor in the user's folders"
    } else {
        "; the user's folders were not read (`--user` reads them)"
    };
    Diagnostic::new(
        Code::MissingSkillMd,
        Severity::Error,
        root,
        format!(
            "no skills found: no `SKILL.md` below `{}`, and no skill in {} {up_to}{users}",
            root.display(),
            project_folder_list()
        ),
    )
    .help("add a skill as `.claude/skills/<name>/SKILL.md`, or name the skill directories to check")
}

/// The clients' project skills folders, for a sentence:
/// `` `.claude/skills`, `.agents/skills` or `.codex/skills` ``.
fn project_folder_list() -> String {
    let folders: Vec<String> = skills_core::client::project_folders()
        .map(|(_, rel)| format!("`{rel}`"))
        .collect();
    match folders.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Walks one root (never the user's folders: see [`discover_all`]).
/// Diagnostics (warnings and errors) are pushed, never returned early.
pub fn discover(
    root: &Path,
    opts: &DiscoveryOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<FoundSkill> {
    let mut seen = HashSet::new();
    let (found, project) = discover_root(root, opts, &mut seen, diags, &mut |_| {});
    if let Some(project) = project.filter(|_| found.is_empty()) {
        diags.push(no_skills(root, &project, false));
    }
    found
}

/// One root; `seen` holds the canonical skill directories found in client
/// folders so far. Also says whether the root was read as a project folder.
/// A walk of the root hands each skill it keeps to `walked`, in order: those
/// are the first of the skills returned.
fn discover_root(
    root: &Path,
    opts: &DiscoveryOptions,
    seen: &mut HashSet<PathBuf>,
    diags: &mut Vec<Diagnostic>,
    walked: &mut dyn FnMut(&FoundSkill),
) -> (Vec<FoundSkill>, Option<Project>) {
    let meta = match fs::metadata(root) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            diags.push(
                Diagnostic::new(
                    Code::PathNotFound,
                    Severity::Error,
                    root,
                    format!("path `{}` does not exist", root.display()),
                )
                .help("check the path, or create the skill directory with a `SKILL.md` in it")
                .reference(format!("Path does not exist: {}", root.display())),
            );
            return (Vec::new(), None);
        }
        Err(e) => {
            diags.push(Diagnostic::new(
                Code::Io,
                Severity::Error,
                root,
                format!("cannot read `{}`: {e}", root.display()),
            ));
            return (Vec::new(), None);
        }
    };
    if !meta.is_dir() {
        if meta.is_file() && is_skill_md_name(root) {
            let dir = match root.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let skill = FoundSkill {
                dir,
                plugin: None,
                root: root.to_path_buf(),
                origin: None,
            };
            return (vec![skill], None);
        }
        diags.push(
            Diagnostic::new(
                Code::NotADirectory,
                Severity::Error,
                root,
                format!("`{}` is not a directory", root.display()),
            )
            .help("name a skill directory, or the `SKILL.md` file in it")
            .reference(format!("Not a directory: {}", root.display())),
        );
        return (Vec::new(), None);
    }
    let boundary = match fs::canonicalize(root) {
        Ok(c) => c,
        Err(e) => {
            diags.push(Diagnostic::new(
                Code::Io,
                Severity::Error,
                root,
                format!("cannot resolve `{}`: {e}", root.display()),
            ));
            return (Vec::new(), None);
        }
    };
    // A skill, a plugin or a marketplace is read as such; any other
    // directory holding a client's skills folder is a project folder.
    let exists = |rel: &str| fs::symlink_metadata(root.join(rel)).is_ok();
    let own_layout = exists("SKILL.md") || exists("skill.md") || exists(MANIFEST_DIR);
    if !own_layout && clients::holds_skills_folder(root) {
        return project(root, &boundary, opts, seen, diags);
    }
    // A client's skills folder named itself is scanned as its client does.
    if let Some(folder) = clients::skills_folder(root).filter(|_| !own_layout) {
        let mut found = clients::scan(&folder, opts, seen, diags);
        if found.is_empty() {
            found.push(FoundSkill {
                dir: root.to_path_buf(),
                plugin: None,
                root: root.to_path_buf(),
                origin: None,
            });
        }
        return (found, None);
    }
    let mut walk = Walk {
        root,
        boundary: boundary.clone(),
        opts,
        diags,
        found: Vec::new(),
        skill_dirs: HashSet::new(),
        visited: HashSet::new(),
        stack: Vec::new(),
        dirs_read: 0,
        depth_warned: false,
        stopped: false,
        emit: walked,
    };
    walk.run();
    let mut found = walk.found;
    if found.is_empty() && !own_layout && is_working_directory(root) {
        // The working directory (the default path), with no skill below it:
        // a client started here would still read the skills folders up to
        // the repository's root. A directory named otherwise is not: a skill
        // directory missing its `SKILL.md` must say so, not pass on others.
        return project(root, &boundary, opts, seen, diags);
    }
    if found.is_empty() {
        found.push(FoundSkill {
            dir: root.to_path_buf(),
            plugin: None,
            root: root.to_path_buf(),
            origin: None,
        });
    }
    (found, None)
}

/// Whether `path` names the working directory (`.`, `./`, `./.`).
fn is_working_directory(path: &Path) -> bool {
    path.components().all(|c| c == std::path::Component::CurDir) && !path.as_os_str().is_empty()
}

/// The skills in the clients' folders of the project folder `root`
/// (canonical `canon`), each folder scanned as its client does.
fn project(
    root: &Path,
    canon: &Path,
    opts: &DiscoveryOptions,
    seen: &mut HashSet<PathBuf>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<FoundSkill>, Option<Project>) {
    let mut found = Vec::new();
    for folder in clients::folders(root, canon) {
        found.extend(clients::scan(&folder, opts, seen, diags));
    }
    let repository = clients::repository_root(canon).map(Path::to_path_buf);
    (found, Some(Project { repository }))
}

/// Whether the path's file name is `skill.md` in any letter case.
fn is_skill_md_name(path: &Path) -> bool {
    path.file_name()
        .and_then(OsStr::to_str)
        .is_some_and(|n| n.to_lowercase() == "skill.md")
}

// ---------------------------------------------------------------------------
// Directory listing and the symbolic-link policy, shared with `files`.

pub(super) use skills_core::listing::EntryKind;

/// One directory entry.
#[derive(Debug)]
pub(super) struct Entry {
    pub(super) name: OsString,
    pub(super) path: PathBuf,
    pub(super) kind: EntryKind,
}

/// The entries of `dir`, sorted byte-wise by name. An unreadable directory
/// is an `SK005` warning and has none.
pub(super) fn list_dir(dir: &Path, diags: &mut Vec<Diagnostic>) -> Vec<Entry> {
    read_listing(dir, Listing::read(dir), diags)
        .map(|listing| entries(dir, &listing))
        .unwrap_or_default()
}

/// `listing`, the listing of `dir`, or its error as an `SK005` warning.
pub(super) fn read_listing<'a>(
    dir: &Path,
    listing: io::Result<Listing<'a>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Listing<'a>> {
    listing
        .map_err(|e| {
            diags.push(Diagnostic::new(
                Code::Io,
                Severity::Warning,
                dir,
                format!("cannot read directory `{}`: {e}", dir.display()),
            ));
        })
        .ok()
}

/// The entries of `listing`, the listing of `dir`, in its order.
pub(super) fn entries(dir: &Path, listing: &Listing<'_>) -> Vec<Entry> {
    listing
        .entries()
        .iter()
        .map(|(name, kind)| Entry {
            path: dir.join(name),
            name: name.clone(),
            kind: *kind,
        })
        .collect()
}

/// Where a followed symbolic link leads.
#[derive(Debug)]
pub(super) enum Target {
    /// A directory; its canonical path.
    Dir(PathBuf),
    /// A regular file: its canonical path and metadata.
    File(PathBuf, fs::Metadata),
    /// Something else (fifo, socket, device): its canonical path.
    Other(PathBuf),
}

/// Warning `SK005` for a link that cannot be followed: dangling (naming
/// where it points) or unreadable.
pub(super) fn unfollowable_link(link: &Path, e: &io::Error) -> Diagnostic {
    let message = match (e.kind(), fs::read_link(link)) {
        (io::ErrorKind::NotFound, Ok(to)) => format!(
            "symbolic link `{}` points to `{}`, which does not exist; it was skipped",
            link.display(),
            to.display()
        ),
        _ => format!(
            "cannot follow symbolic link `{}`: {e}; it was skipped",
            link.display()
        ),
    };
    Diagnostic::new(Code::Io, Severity::Warning, link, message)
        .help("remove the link or restore its target")
}

/// Follows the link at `link` if its target stays inside `boundary`
/// (canonical). Dangling links give `SK005`, escaping ones `SK008`; both
/// return `None`. With `dirs_only`, links to anything but a directory return
/// `None` without a diagnostic.
pub(super) fn follow_link(
    link: &Path,
    boundary: &Path,
    boundary_shown: &Path,
    dirs_only: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Target> {
    let canon = match fs::canonicalize(link) {
        Ok(canon) => canon,
        Err(e) => {
            diags.push(unfollowable_link(link, &e));
            return None;
        }
    };
    let meta = match fs::metadata(&canon) {
        Ok(meta) => meta,
        Err(e) => {
            diags.push(Diagnostic::new(
                Code::Io,
                Severity::Warning,
                link,
                format!(
                    "cannot read `{}`, the target of `{}`: {e}",
                    canon.display(),
                    link.display()
                ),
            ));
            return None;
        }
    };
    if dirs_only && !meta.is_dir() {
        return None;
    }
    if !canon.starts_with(boundary) {
        diags.push(
            Diagnostic::new(
                Code::SymlinkEscape,
                Severity::Warning,
                link,
                format!(
                    "symbolic link `{}` points to `{}`, outside `{}`; it was not followed",
                    link.display(),
                    canon.display(),
                    boundary_shown.display()
                ),
            )
            .help("copy the target inside instead of linking to it"),
        );
        return None;
    }
    Some(if meta.is_dir() {
        Target::Dir(canon)
    } else if meta.is_file() {
        Target::File(canon, meta)
    } else {
        Target::Other(canon)
    })
}

/// The canonical path of `base` joined with `parts` (plain names), given
/// `base`'s canonical path `base_canon`: one `lstat` per part while none is
/// a link, and `fs::canonicalize` (a `readlink` per component of the whole
/// path) only once one is. Errors as `fs::canonicalize` gives them.
pub(super) fn canonical_below<P: AsRef<Path>>(
    base: &Path,
    base_canon: &Path,
    parts: &[P],
) -> io::Result<PathBuf> {
    let mut shown = base.to_path_buf();
    let mut canon = base_canon.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        shown.push(part);
        if fs::symlink_metadata(&shown)?.file_type().is_symlink() {
            shown.extend(parts.iter().skip(i + 1));
            return fs::canonicalize(&shown);
        }
        canon.push(part);
    }
    Ok(canon)
}

/// Whether `dir` holds `SKILL.md` (or `skill.md`) and no plugin manifest:
/// rule 3 without listing the directory.
fn is_plain_skill(dir: &Path) -> bool {
    let exists = |rel: &str| fs::symlink_metadata(dir.join(rel)).is_ok();
    (exists("SKILL.md") || exists("skill.md")) && !exists(".claude-plugin")
}

fn has_entry(entries: &[Entry], name: &str) -> bool {
    entries.iter().any(|e| e.name == name)
}

fn has_skill_md(entries: &[Entry]) -> bool {
    has_entry(entries, "SKILL.md") || has_entry(entries, "skill.md")
}

/// Whether the walk leaves a directory of this name alone.
fn is_skipped(name: &OsStr) -> bool {
    let bytes = name.as_encoded_bytes();
    bytes.starts_with(b".") || SKIPPED_DIRS.iter().any(|s| s.as_bytes() == bytes)
}

// ---------------------------------------------------------------------------
// The walk.

struct Walk<'a> {
    root: &'a Path,
    boundary: PathBuf,
    opts: &'a DiscoveryOptions,
    diags: &'a mut Vec<Diagnostic>,
    found: Vec<FoundSkill>,
    /// Canonical skill directories already returned.
    skill_dirs: HashSet<PathBuf>,
    /// Canonical directories already walked.
    visited: HashSet<PathBuf>,
    /// Canonical directories on the current walk path.
    stack: Vec<PathBuf>,
    dirs_read: usize,
    depth_warned: bool,
    stopped: bool,
    /// Told of each skill as it is added to `found`.
    emit: &'a mut dyn FnMut(&FoundSkill),
}

impl Walk<'_> {
    fn run(&mut self) {
        let root = self.root.to_path_buf();
        let canon = self.boundary.clone();
        let entries = list_dir(&root, self.diags);
        self.dirs_read = 1;
        self.visited.insert(canon.clone());
        self.stack.push(canon.clone());
        if has_entry(&entries, MANIFEST_DIR)
            && let Manifest::Read(src) = self.read_manifest(&root, &canon, MARKETPLACE_JSON)
        {
            // Listed plugins come first, with their names; the walk
            // below still finds skills the marketplace does not list,
            // because CI should validate everything in the tree.
            self.marketplace(&src);
        }
        self.visit(&root, &canon, 0, &entries);
    }

    /// Rules 2 to 4 for one directory whose entries are already listed.
    fn visit(&mut self, dir: &Path, canon: &Path, depth: usize, entries: &[Entry]) {
        if has_entry(entries, MANIFEST_DIR)
            && fs::symlink_metadata(dir.join(MANIFEST_DIR).join(PLUGIN_JSON)).is_ok()
        {
            self.plugin(dir, canon, PluginSpec::default());
            return;
        }
        if has_skill_md(entries) {
            self.add_skill(dir, canon, None);
            return;
        }
        for entry in entries {
            if self.stopped {
                return;
            }
            if is_skipped(&entry.name) {
                continue;
            }
            let Some(child_canon) = self.child_dir(canon, entry) else {
                continue;
            };
            if self.visited.contains(&child_canon) {
                if self.stack.contains(&child_canon) {
                    self.cycle(&entry.path, &child_canon);
                }
                continue;
            }
            if depth + 1 > self.opts.max_depth {
                if !self.depth_warned {
                    self.depth_warned = true;
                    self.diags.push(
                        Diagnostic::new(
                            Code::DiscoveryLimit,
                            Severity::Error,
                            &entry.path,
                            format!(
                                "skills below `{}` were not searched: discovery stops {} level{} below `{}`",
                                entry.path.display(),
                                self.opts.max_depth,
                                if self.opts.max_depth == 1 { "" } else { "s" },
                                self.root.display()
                            ),
                        )
                        .help(format!("raise the limit with {}, or name the skill directory directly", self.opts.knobs.name(Limit::Depth))),
                    );
                }
                continue;
            }
            if self.dirs_read >= self.opts.max_dirs {
                self.stopped = true;
                self.diags.push(
                    Diagnostic::new(
                        Code::DiscoveryLimit,
                        Severity::Error,
                        self.root,
                        format!(
                            "discovery stopped after reading {} directories under `{}`",
                            thousands(self.opts.max_dirs as u64),
                            self.root.display()
                        ),
                    )
                    .help(format!(
                        "raise the limit with {}, or name the skill directories directly",
                        self.opts.knobs.name(Limit::Dirs)
                    )),
                );
                return;
            }
            self.dirs_read += 1;
            if is_plain_skill(&entry.path) {
                // Two `stat`s instead of listing the directory: most
                // directories of a skills tree are skills.
                self.visited.insert(child_canon.clone());
                self.add_skill(&entry.path, &child_canon, None);
                continue;
            }
            let child_entries = list_dir(&entry.path, self.diags);
            self.visited.insert(child_canon.clone());
            self.stack.push(child_canon.clone());
            self.visit(&entry.path, &child_canon, depth + 1, &child_entries);
            self.stack.pop();
        }
    }

    /// The canonical path of `entry` if it is a directory the walk may enter.
    fn child_dir(&mut self, parent_canon: &Path, entry: &Entry) -> Option<PathBuf> {
        match entry.kind {
            EntryKind::Dir => Some(parent_canon.join(&entry.name)),
            EntryKind::Symlink => {
                // A link to a skill directory is followed wherever it leads,
                // as the clients do; the skill's own files stay bounded by
                // its directory. Other links must stay inside the root.
                if let Ok(canon) = fs::canonicalize(&entry.path)
                    && !canon.starts_with(&self.boundary)
                    && is_plain_skill(&canon)
                {
                    return Some(canon);
                }
                match follow_link(&entry.path, &self.boundary, self.root, true, self.diags) {
                    Some(Target::Dir(canon)) => Some(canon),
                    _ => None,
                }
            }
            EntryKind::File | EntryKind::Other => None,
        }
    }

    fn cycle(&mut self, link: &Path, target: &Path) {
        self.diags.push(
            Diagnostic::new(
                Code::SymlinkCycle,
                Severity::Warning,
                link,
                format!(
                    "symbolic link `{}` leads back to `{}`, which is being walked; it was not followed",
                    link.display(),
                    target.display()
                ),
            )
            .help("remove the link; it makes the directory tree endless"),
        );
    }

    fn add_skill(&mut self, dir: &Path, canon: &Path, plugin: Option<&str>) {
        if self.skill_dirs.insert(canon.to_path_buf()) {
            let skill = FoundSkill {
                dir: dir.to_path_buf(),
                plugin: plugin.map(str::to_owned),
                root: self.root.to_path_buf(),
                origin: None,
            };
            (self.emit)(&skill);
            self.found.push(skill);
        }
    }

    // -- manifests ----------------------------------------------------------
}

/// The name of a directory, for a plugin without one.
fn dir_name(dir: &Path, canon: &Path) -> String {
    dir.file_name()
        .filter(|n| *n != ".")
        .or_else(|| canon.file_name())
        .map_or_else(|| "plugin".to_owned(), |n| n.to_string_lossy().into_owned())
}

// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    type Result = std::result::Result<(), Box<dyn std::error::Error>>;

    fn write(path: &Path, text: &str) -> io::Result<()> {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::File::create(path)?.write_all(text.as_bytes())
    }

    fn skill(dir: &Path) -> io::Result<()> {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        write(
            &dir.join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: d\n---\n"),
        )
    }

    fn run(root: &Path) -> (Vec<FoundSkill>, Vec<Diagnostic>) {
        run_with(root, &DiscoveryOptions::default())
    }

    fn run_with(root: &Path, opts: &DiscoveryOptions) -> (Vec<FoundSkill>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let found = discover(root, opts, &mut diags);
        (found, diags)
    }

    /// Skill directories relative to `root`, with `plugin:` prefixes.
    fn names(root: &Path, found: &[FoundSkill]) -> Vec<String> {
        found
            .iter()
            .map(|f| {
                let rel = f
                    .dir
                    .strip_prefix(root)
                    .unwrap_or(&f.dir)
                    .to_string_lossy()
                    .replace('\\', "/");
                match &f.plugin {
                    Some(p) => format!("{p}:{rel}"),
                    None => rel,
                }
            })
            .collect()
    }

    fn codes(diags: &[Diagnostic]) -> Vec<Code> {
        diags.iter().map(|d| d.code).collect()
    }

    #[test]
    fn missing_path_is_an_error_with_the_reference_text() {
        let (found, diags) = run(Path::new("/no/such/dir/anywhere"));
        assert!(found.is_empty());
        assert_eq!(codes(&diags), [Code::PathNotFound]);
        assert_eq!(
            diags[0].message,
            "path `/no/such/dir/anywhere` does not exist"
        );
        assert_eq!(
            diags[0].reference.as_deref(),
            Some("Path does not exist: /no/such/dir/anywhere")
        );
        assert!(diags[0].is_error());
    }

    #[test]
    fn skill_md_given_as_a_file_means_its_directory() -> Result {
        let tmp = tempfile::tempdir()?;
        skill(&tmp.path().join("foo"))?;
        write(&tmp.path().join("bar/skill.md"), "x")?;
        write(&tmp.path().join("bar/notes.txt"), "x")?;
        let (found, diags) = run(&tmp.path().join("foo/SKILL.md"));
        assert!(diags.is_empty());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].dir, tmp.path().join("foo"));
        assert_eq!(found[0].root, tmp.path().join("foo/SKILL.md"));
        let (found, _) = run(&tmp.path().join("bar/skill.md"));
        assert_eq!(found[0].dir, tmp.path().join("bar"));
        let (found, diags) = run(&tmp.path().join("bar/notes.txt"));
        assert!(found.is_empty());
        assert_eq!(codes(&diags), [Code::NotADirectory]);
        let shown = tmp.path().join("bar/notes.txt");
        assert_eq!(
            diags[0].reference,
            Some(format!("Not a directory: {}", shown.display()))
        );
        Ok(())
    }

    #[test]
    fn a_skill_directory_is_one_skill_and_not_descended() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("my-skill");
        skill(&root)?;
        skill(&root.join("nested"))?;
        let (found, diags) = run(&root);
        assert!(diags.is_empty());
        assert_eq!(names(&root, &found), [""]);
        Ok(())
    }

    #[test]
    fn lowercase_skill_md_counts() -> Result {
        let tmp = tempfile::tempdir()?;
        write(&tmp.path().join("a/skill.md"), "x")?;
        fs::create_dir_all(tmp.path().join("b/SKILL.md"))?; // a directory: the parser reports it
        let (found, _) = run(tmp.path());
        assert_eq!(names(tmp.path(), &found), ["a", "b"]);
        Ok(())
    }

    #[test]
    fn walk_is_sorted_skips_hidden_and_build_dirs() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        for d in [
            "b/two",
            "a/one",
            "a-x",
            "group/inner/three",
            ".hidden/s",
            "node_modules/s",
            "__pycache__/s",
            "target/s",
        ] {
            skill(&root.join(d))?;
        }
        let (found, diags) = run(root);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            names(root, &found),
            ["a/one", "a-x", "b/two", "group/inner/three"]
        );
        assert!(found.iter().all(|f| f.root == root));
        Ok(())
    }

    #[test]
    fn a_hidden_root_is_walked() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join(".claude/skills");
        skill(&root.join("x"))?;
        let (found, _) = run(&root);
        assert_eq!(names(&root, &found), ["x"]);
        Ok(())
    }

    #[test]
    fn empty_directory_root_is_returned_itself() -> Result {
        let tmp = tempfile::tempdir()?;
        write(&tmp.path().join("docs/readme.md"), "x")?;
        let (found, diags) = run(tmp.path());
        assert!(diags.is_empty());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].dir, tmp.path());
        Ok(())
    }

    #[test]
    fn depth_limit_warns_once() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        skill(&root.join("1/2/shallow"))?;
        skill(&root.join("1/2/3/deep"))?;
        skill(&root.join("x/2/3/deep"))?;
        let opts = DiscoveryOptions {
            max_depth: 3,
            ..DiscoveryOptions::default()
        };
        let (found, diags) = run_with(root, &opts);
        assert_eq!(names(root, &found), ["1/2/shallow"]);
        assert_eq!(codes(&diags), [Code::DiscoveryLimit]);
        assert!(
            diags[0].message.contains("3 levels"),
            "{}",
            diags[0].message
        );
        assert!(
            diags[0]
                .help
                .as_deref()
                .is_some_and(|h| h.contains("--max-depth"))
        );
        Ok(())
    }

    #[test]
    fn directory_limit_stops_the_walk() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        for d in ["a/s", "b/s", "c/s", "d/s"] {
            skill(&root.join(d))?;
        }
        // root, a, a/s, b, b/s = 5 directories read.
        let opts = DiscoveryOptions {
            max_dirs: 5,
            ..DiscoveryOptions::default()
        };
        let (found, diags) = run_with(root, &opts);
        assert_eq!(names(root, &found), ["a/s", "b/s"]);
        assert_eq!(codes(&diags), [Code::DiscoveryLimit]);
        assert!(diags[0].message.contains("5 directories"));
        Ok(())
    }

    #[test]
    fn plugin_with_string_skills_supplements_default() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("my-plugin");
        write(
            &root.join(".claude-plugin/plugin.json"),
            r#"{"name": "tools", "skills": "./extra"}"#,
        )?;
        skill(&root.join("skills/b"))?;
        skill(&root.join("skills/a"))?;
        skill(&root.join("extra/c"))?;
        skill(&root.join("other/ignored"))?;
        let (found, diags) = run(&root);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            names(&root, &found),
            ["tools:skills/a", "tools:skills/b", "tools:extra/c"]
        );
        Ok(())
    }

    #[test]
    fn plugin_with_array_skills_and_direct_skill_paths() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("p");
        write(
            &root.join(".claude-plugin/plugin.json"),
            r#"{"skills": ["./core/one", "./more/", "./skills/a", "./core/two/SKILL.md"]}"#,
        )?;
        skill(&root.join("core/one"))?;
        skill(&root.join("core/two"))?;
        skill(&root.join("more/x"))?;
        fs::create_dir_all(root.join("more/no-skill-md"))?;
        skill(&root.join("skills/a"))?;
        let (found, diags) = run(&root);
        assert!(diags.is_empty(), "{diags:?}");
        // No `name`: the directory's name. `skills/a` is found once.
        assert_eq!(
            names(&root, &found),
            [
                "p:skills/a",
                "p:core/one",
                "p:more/no-skill-md",
                "p:more/x",
                "p:core/two"
            ]
        );
        Ok(())
    }

    #[test]
    fn plugin_skill_paths_must_stay_inside() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("p");
        write(
            &root.join(".claude-plugin/plugin.json"),
            "{\"name\": \"p\",\n \"skills\": [\"../outside\", \"/abs\", \"./missing\", 7]}",
        )?;
        skill(&tmp.path().join("outside"))?;
        skill(&root.join("skills/a"))?;
        let (found, diags) = run(&root);
        assert_eq!(names(&root, &found), ["p:skills/a"]);
        assert_eq!(codes(&diags), [Code::BadManifest; 4]);
        // The non-string entry is reported first (while reading the field).
        assert!(diags[0].message.contains("not a number"));
        assert!(diags[1].message.contains("`..`"));
        assert!(diags[2].message.contains("absolute"));
        assert!(diags[3].message.contains("does not exist"));
        let label = diags[1]
            .label
            .as_ref()
            .map(|l| (l.start.line, l.start.column));
        assert_eq!(label, Some((2, 13)));
        Ok(())
    }

    #[test]
    fn single_skill_plugin_at_its_root() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("solo");
        write(
            &root.join(".claude-plugin/plugin.json"),
            r#"{"name": "solo"}"#,
        )?;
        skill(&root)?;
        let (found, diags) = run(&root);
        assert!(diags.is_empty());
        assert_eq!(names(&root, &found), ["solo:"]);
        Ok(())
    }

    #[test]
    fn malformed_plugin_json_falls_back_to_defaults() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("broken");
        write(
            &root.join(".claude-plugin/plugin.json"),
            "{\n  \"name\": \"x\",\n  \"skills\": [1,]\n}",
        )?;
        skill(&root.join("skills/a"))?;
        let (found, diags) = run(&root);
        assert_eq!(names(&root, &found), ["broken:skills/a"]);
        assert_eq!(codes(&diags), [Code::BadManifest]);
        assert!(
            diags[0].message.contains("not valid JSON"),
            "{}",
            diags[0].message
        );
        let label = diags[0]
            .label
            .as_ref()
            .map(|l| (l.start.line, l.start.column, l.line_text.clone()));
        assert_eq!(label, Some((3, 16, "  \"skills\": [1,]".to_owned())));
        Ok(())
    }

    #[test]
    fn wrong_types_in_plugin_json_are_reported() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("typed");
        write(
            &root.join(".claude-plugin/plugin.json"),
            r#"{"name": 3, "skills": {"a": 1}}"#,
        )?;
        skill(&root.join("skills/a"))?;
        let (found, diags) = run(&root);
        assert_eq!(names(&root, &found), ["typed:skills/a"]);
        assert_eq!(codes(&diags), [Code::BadManifest, Code::BadManifest]);
        let (found, diags) = {
            write(&root.join(".claude-plugin/plugin.json"), "[]")?;
            run(&root)
        };
        assert_eq!(names(&root, &found), ["typed:skills/a"]);
        assert_eq!(codes(&diags), [Code::BadManifest]);
        Ok(())
    }

    #[test]
    fn nested_plugins_are_found_by_the_walk() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        write(
            &root.join("plugins/alpha/.claude-plugin/plugin.json"),
            r#"{"name": "alpha"}"#,
        )?;
        skill(&root.join("plugins/alpha/skills/s1"))?;
        skill(&root.join("plugins/alpha/agents/not-a-skill-path"))?;
        skill(&root.join("standalone"))?;
        // A nested marketplace means nothing below the root.
        write(
            &root.join("sub/.claude-plugin/marketplace.json"),
            r#"{"plugins": []}"#,
        )?;
        skill(&root.join("sub/s2"))?;
        let (found, diags) = run(root);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            names(root, &found),
            ["alpha:plugins/alpha/skills/s1", "standalone", "sub/s2"]
        );
        Ok(())
    }

    #[test]
    fn marketplace_with_local_and_remote_sources() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        write(
            &root.join(".claude-plugin/marketplace.json"),
            r#"{
  "name": "m", "owner": {"name": "o"},
  "metadata": {"pluginRoot": "./plugins"},
  "plugins": [
    {"name": "one", "source": "./plugins/one"},
    {"name": "remote", "source": {"source": "github", "repo": "a/b"}},
    {"name": "two", "source": "two", "skills": ["./extra"]},
    {"name": "gone", "source": "./plugins/gone"},
    {"name": "up", "source": "../elsewhere"}
  ]
}"#,
        )?;
        write(
            &root.join("plugins/one/.claude-plugin/plugin.json"),
            r#"{"name": "ignored-name"}"#,
        )?;
        skill(&root.join("plugins/one/skills/a"))?;
        skill(&root.join("plugins/two/skills/b"))?;
        skill(&root.join("plugins/two/extra/c"))?;
        skill(&root.join("not-listed"))?;
        let (found, diags) = run(root);
        assert_eq!(
            names(root, &found),
            [
                "one:plugins/one/skills/a",
                "two:plugins/two/skills/b",
                "two:plugins/two/extra/c",
                // Not in the marketplace, found by the walk after it.
                "not-listed"
            ]
        );
        assert_eq!(codes(&diags), [Code::BadManifest, Code::BadManifest]);
        assert!(
            diags[0].message.contains("`./plugins/gone` does not exist"),
            "{}",
            diags[0].message
        );
        assert!(diags[1].message.contains("`..`"));
        Ok(())
    }

    #[test]
    fn marketplace_at_root_with_skills_lists_replaces_default() -> Result {
        // The shape of anthropics/skills: several plugins share source `./`.
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        write(
            &root.join(".claude-plugin/marketplace.json"),
            r#"{"plugins": [
                {"name": "docs", "source": "./", "strict": false, "skills": ["./skills/pdf"]},
                {"name": "examples", "source": "./", "strict": false, "skills": ["./skills/art", "./skills/pdf"]}
            ]}"#,
        )?;
        for s in ["art", "pdf", "unlisted"] {
            skill(&root.join("skills").join(s))?;
        }
        let (found, diags) = run(root);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            names(root, &found),
            ["docs:skills/pdf", "examples:skills/art", "skills/unlisted"]
        );
        Ok(())
    }

    #[test]
    fn marketplace_root_plugin_without_skills_uses_plugin_json() -> Result {
        // The shape of obra/superpowers.
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        write(
            &root.join(".claude-plugin/marketplace.json"),
            r#"{"plugins": [{"name": "sp", "source": "./"}]}"#,
        )?;
        write(
            &root.join(".claude-plugin/plugin.json"),
            r#"{"name": "superpowers"}"#,
        )?;
        skill(&root.join("skills/tdd"))?;
        let (found, diags) = run(root);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(names(root, &found), ["sp:skills/tdd"]);
        Ok(())
    }

    #[test]
    fn unusable_marketplace_falls_back_to_the_walk() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path();
        write(
            &root.join(".claude-plugin/marketplace.json"),
            r#"{"plugins": "nope"}"#,
        )?;
        skill(&root.join("a"))?;
        let (found, diags) = run(root);
        assert_eq!(names(root, &found), ["a"]);
        assert_eq!(codes(&diags), [Code::BadManifest]);
        write(&root.join(".claude-plugin/marketplace.json"), "")?;
        let (found, diags) = run(root);
        assert_eq!(names(root, &found), ["a"]);
        assert_eq!(codes(&diags), [Code::BadManifest]);
        Ok(())
    }

    #[test]
    fn oversized_manifest_is_refused() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("big");
        let mut text = String::from("{\"name\": \"big\", \"x\": \"");
        text.push_str(&"a".repeat((MAX_MANIFEST_BYTES as usize) + 10));
        text.push_str("\"}");
        write(&root.join(".claude-plugin/plugin.json"), &text)?;
        skill(&root.join("skills/a"))?;
        let (found, diags) = run(&root);
        assert_eq!(names(&root, &found), ["big:skills/a"]);
        assert_eq!(codes(&diags), [Code::BadManifest]);
        assert!(diags[0].message.contains("1 MiB"));
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_manifest_is_refused_without_blocking() -> Result {
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("p");
        skill(&root.join("skills/a"))?;
        fs::create_dir_all(root.join(".claude-plugin"))?;
        let fifo = root.join(".claude-plugin/plugin.json");
        if !std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            return Ok(());
        }
        let (found, diags) = run(&root);
        assert_eq!(names(&root, &found), ["p:skills/a"]);
        assert_eq!(codes(&diags), [Code::BadManifest]);
        assert_eq!(
            diags[0].message,
            format!(
                "cannot read `{}`: it is a fifo, not a regular file; it was ignored",
                fifo.display()
            )
        );
        Ok(())
    }

    #[test]
    fn trailofbits_corpus_marketplace() {
        let root = &crate::shared("corpus/collections/trailofbits-skills");
        let (found, diags) = run(root);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(found.len(), 80);
        assert!(
            found
                .iter()
                .all(|f| f.plugin.is_some() && f.dir.join("SKILL.md").is_file())
        );
        let first = found
            .iter()
            .find(|f| f.plugin.as_deref() == Some("building-secure-contracts"));
        assert!(first.is_some_and(|f| {
            f.dir
                .starts_with(root.join("plugins/building-secure-contracts/skills"))
        }));
    }

    #[test]
    fn corpus_collections_find_every_listed_skill() {
        let base = crate::shared("corpus/collections");
        let read = fs::read_dir(&base).expect("the corpus lists");
        let mut collections: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
        assert!(collections.len() >= 6, "{collections:?}");
        collections.sort();
        for root in collections {
            let (found, diags) = run(&root);
            assert!(!found.is_empty(), "{}", root.display());
            assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
            let mut dirs: Vec<&PathBuf> = found.iter().map(|f| &f.dir).collect();
            let n = dirs.len();
            dirs.sort();
            dirs.dedup();
            assert_eq!(n, dirs.len(), "duplicates under {}", root.display());
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_inside_are_followed_outside_and_cycles_are_not() -> Result {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir()?;
        let root = tmp.path().join("root");
        skill(&tmp.path().join("outside/escaped"))?;
        skill(&root.join("real/inner"))?;
        symlink(tmp.path().join("outside"), root.join("a-escape"))?;
        symlink(root.join("real"), root.join("b-inside"))?;
        symlink(&root, root.join("real/c-loop"))?;
        symlink(root.join("nowhere"), root.join("d-dangling"))?;
        let (found, diags) = run(&root);
        // `b-inside` reaches `real/inner` first; `real` is then skipped silently.
        assert_eq!(names(&root, &found), ["b-inside/inner"]);
        assert_eq!(
            codes(&diags),
            [Code::SymlinkEscape, Code::SymlinkCycle, Code::Io]
        );
        assert!(diags[0].message.contains("a-escape"));
        assert!(diags[0].message.contains("outside"));
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_root_is_followed() -> Result {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir()?;
        skill(&tmp.path().join("real/s"))?;
        symlink(tmp.path().join("real"), tmp.path().join("link"))?;
        let root = tmp.path().join("link");
        let (found, diags) = run(&root);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].dir, root.join("s"));
        Ok(())
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(10_000_000), "10,000,000");
    }
}
