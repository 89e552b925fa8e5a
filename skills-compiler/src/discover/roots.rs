//! Root classification: what a path the user named is (missing, a
//! `SKILL.md`, a skill, a plugin or marketplace, a project folder, a
//! client's skills folder, or a tree to walk), the order the roots and the
//! user's folders are read in, and error `SK003` for a project without
//! skills.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::clients;
use super::found::FoundSkill;
use super::listing::{MANIFEST_DIR, is_skill_md_name};
use super::options::DiscoveryOptions;
use super::walk::Walk;
use crate::diag::{Code, Diagnostic, Severity};

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
        .partition(|f| f.user_first());
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
            reports[at].1.push(no_skills(
                &root,
                &project,
                opts.user.is_some(),
                opts.as_project,
            ));
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
fn no_skills(root: &Path, project: &Project, user: bool, as_project: bool) -> Diagnostic {
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
        if as_project {
            format!(
                "no skills found: no skill in {} {up_to}{users}",
                project_folder_list()
            )
        } else {
            format!(
                "no skills found: no `SKILL.md` below `{}`, and no skill in {} {up_to}{users}",
                root.display(),
                project_folder_list()
            )
        },
    )
    .help("add a skill as `.claude/skills/<name>/SKILL.md`, or name the skill directories to check")
}

/// The clients' project skills folders, for a sentence:
/// `` `.claude/skills`, `.agents/skills` or `.codex/skills` ``.
fn project_folder_list() -> String {
    let folders: Vec<String> = skills_core::client::distinct_project_folders()
        .into_iter()
        .map(|rel| format!("`{rel}`"))
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
        diags.push(no_skills(root, &project, false, opts.as_project));
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
    if !own_layout && (opts.as_project || clients::holds_skills_folder(root)) {
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
    for folder in clients::folders(root, canon, opts.outside_repository) {
        found.extend(clients::scan(&folder, opts, seen, diags));
    }
    let repository = clients::repository_root(canon).map(Path::to_path_buf);
    (found, Some(Project { repository }))
}
