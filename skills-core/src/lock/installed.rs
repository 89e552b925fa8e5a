//! The installed tree against its lock: every skill folder a lock names
//! re-hashed file by file ([`super::tree`]), and every client's skills
//! folder those skill folders are in (the *managed* folders: the parents of
//! the lock's `installed` entries, `.claude/skills`) listed. The one check
//! behind `skb verify --installed`, `skills_bundle::installed::verify` at
//! an agent's start and `skills_bundle!(lock = …)`.
//!
//! Besides edited, added and removed files and changed modes it reports:
//!
//! - an entry of a managed folder that no lock entry names
//!   ([`Change::Unlisted`]): a skill folder nobody reviewed, a staging
//!   folder an interrupted install left (`.<name>.skb-XXXX`), a hidden
//!   folder (Qwen Code, Kimi Code and Amp list hidden folders too). A
//!   caller that also checks another installer's lock passes the folders
//!   that lock records, which are then not unlisted;
//! - a symbolic link where a skill folder or a file was ([`Change::Link`]),
//!   and a skill folder reached through a link above it
//!   ([`Change::Through`], `.claude` committed as a link to a folder
//!   outside the project). The project's root is opened once and every
//!   folder below it component by component with `O_NOFOLLOW`
//!   ([`Dir::open_dir`]): nothing below the root is read through a link.
//!   In the user's scope the folders down to a client's skills folder may
//!   be links ([`Scope::follows_links_to_client_folders`]);
//! - setuid, setgid, sticky and world-writable files and folders
//!   ([`Change::Permissions`]), the skill folders, the managed folders and
//!   (in a project) the folders between them and the root included.
//!
//! The skill folders are checked on every core (`std::thread::scope`),
//! each file read once with a bound of its locked size: the check runs at
//! every agent start.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::file::ReadError;
use super::model::{Lock, LockedSkill};
use super::scope::{Scope, ScopeError};
use super::tree::{self, Change, Drift, UNSAFE_MODE};
use crate::fsread::{Dir, Reason};
use crate::listing::Listing;

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Skills the lock names.
    pub skills: usize,
    /// Skill folders checked (a skill may be installed for several
    /// clients).
    pub folders: usize,
    /// Files the lock lists in those folders, counted once per folder.
    pub files: usize,
    /// Every difference: skill folders first, in the lock's order, then
    /// the managed folders', by path.
    pub findings: Vec<Finding>,
}

impl Report {
    /// Whether every folder is exactly as locked and nothing else is in
    /// the managed folders.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The skill whose folder it is in; `None` for a finding about a
    /// managed folder (an unlisted entry, a folder's mode).
    pub skill: Option<String>,
    /// The folder as the lock records it: a skill folder
    /// (`.claude/skills/pdf`, `~/.claude/skills/pdf`), a managed folder
    /// (`.claude/skills`), or a folder above one (`.claude`).
    pub folder: String,
    /// The path inside `folder` and how it differs.
    pub drift: Drift,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.folder, self.drift)
    }
}

/// Why the check could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum VerifyError {
    /// The lock could not be read.
    Lock(ReadError),
    /// The lock names a folder outside its scope.
    Scope(ScopeError),
    /// The project's root (or the home folder) could not be opened.
    Root {
        /// The folder.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Lock(e) => write!(f, "{e}"),
            VerifyError::Scope(e) => write!(f, "{e}"),
            VerifyError::Root { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::Lock(e) => Some(e),
            VerifyError::Scope(e) => Some(e),
            VerifyError::Root { error, .. } => Some(error),
        }
    }
}

/// Reads `scope`'s lock ([`Scope::read_lock`]) and checks what it names
/// ([`verify`]).
pub fn verify_scope(scope: &Scope) -> Result<Report, VerifyError> {
    let lock = scope.read_lock().map_err(VerifyError::Lock)?;
    verify(scope, &lock, &[])
}

/// Checks every folder `lock` names in `scope`, and the managed folders
/// they are in. `listed_elsewhere` are folders another installer's lock
/// records (`.claude/skills/gamma`, as [`Scope::record`] writes them): not
/// unlisted, and not checked here.
pub fn verify(
    scope: &Scope,
    lock: &Lock,
    listed_elsewhere: &[String],
) -> Result<Report, VerifyError> {
    scope.check(lock).map_err(VerifyError::Scope)?;
    let root = Dir::open(scope.root()).map_err(|error| VerifyError::Root {
        path: scope.root().to_path_buf(),
        error,
    })?;
    let mut jobs = Vec::new();
    let mut named: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for skill in &lock.skills {
        for recorded in &skill.installed {
            // `check` above: of the scope, a parent and a name.
            let Some((parent, name)) = scope
                .below_root(recorded)
                .and_then(|rel| rel.rsplit_once('/'))
            else {
                continue;
            };
            named.entry(parent).or_default().insert(name);
            jobs.push(Job {
                skill,
                recorded,
                parent,
                name,
            });
        }
    }
    let elsewhere: BTreeSet<(&str, &str)> = listed_elsewhere
        .iter()
        .filter_map(|e| e.rsplit_once('/'))
        .collect();
    let mut around = Vec::new();
    let mut modes_seen = BTreeSet::new();
    let managed: BTreeMap<&str, Managed> = named
        .iter()
        .map(|(parent, names)| {
            let folder = open_managed(scope, &root, parent, &mut modes_seen, &mut around);
            if let Managed::Open(dir) = &folder {
                unlisted(scope, dir, parent, names, &elsewhere, &mut around);
            }
            (*parent, folder)
        })
        .collect();
    let checked = parallel(&jobs, |job| job.check(&managed));
    let mut findings: Vec<Finding> = checked.into_iter().flatten().collect();
    around.sort_by(|a: &Finding, b| a.folder.cmp(&b.folder));
    findings.extend(around);
    Ok(Report {
        skills: lock.skills.len(),
        folders: jobs.len(),
        files: jobs.iter().map(|j| j.skill.files.len()).sum(),
        findings,
    })
}

/// A client's skills folder, as it was found.
#[derive(Debug)]
enum Managed {
    /// Open, reached without a link.
    Open(Dir),
    /// Not there: every skill folder in it is missing.
    Absent,
    /// Behind a symbolic link (recorded path, target).
    Through(String, String),
    /// It could not be opened.
    Unreadable(String),
}

/// Opens the managed folder `parent` below `root`, component by component
/// without following a link in a project, checking each folder's mode
/// (once per folder, `seen`), findings into `out`.
fn open_managed(
    scope: &Scope,
    root: &Dir,
    parent: &str,
    seen: &mut BTreeSet<String>,
    out: &mut Vec<Finding>,
) -> Managed {
    let mut mode = |rel: &str, dir: &Dir| {
        if !seen.insert(rel.to_string()) {
            return;
        }
        let bits = tree::mode_of(dir.metadata());
        if bits & UNSAFE_MODE != 0 {
            out.push(Finding {
                skill: None,
                folder: scope.record(rel),
                drift: Drift {
                    path: String::new(),
                    change: Change::Permissions(bits),
                },
            });
        }
    };
    if scope.follows_links_to_client_folders() {
        return match Dir::open(&scope.root().join(parent)) {
            Ok(dir) => {
                mode(parent, &dir);
                Managed::Open(dir)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Managed::Absent,
            Err(e) => Managed::Unreadable(e.to_string()),
        };
    }
    let mut at: Option<Dir> = None;
    let mut rel = String::new();
    for part in parent.split('/') {
        let here = at.as_ref().unwrap_or(root);
        let next = here.open_dir(Path::new(part));
        if !rel.is_empty() {
            rel.push('/');
        }
        rel.push_str(part);
        match next {
            Ok(dir) => {
                mode(&rel, &dir);
                at = Some(dir);
            }
            Err(e) if e.is_not_found() => return Managed::Absent,
            Err(e) => {
                return match e.reason {
                    Reason::Link => {
                        Managed::Through(scope.record(&rel), tree::link_target(here, part.as_ref()))
                    }
                    other => Managed::Unreadable(format!("`{}`: {other}", scope.record(&rel))),
                };
            }
        }
    }
    at.map_or(Managed::Absent, Managed::Open)
}

/// The entries of the managed folder `dir` (at `parent`) that neither the
/// lock (`names`) nor another installer's (`elsewhere`: recorded folder,
/// name) names, into `out`.
fn unlisted(
    scope: &Scope,
    dir: &Dir,
    parent: &str,
    names: &BTreeSet<&str>,
    elsewhere: &BTreeSet<(&str, &str)>,
    out: &mut Vec<Finding>,
) {
    let folder = scope.record(parent);
    let listing = match Listing::of(dir) {
        Ok(l) => l,
        Err(e) => {
            out.push(Finding {
                skill: None,
                folder,
                drift: Drift {
                    path: String::new(),
                    change: Change::Unreadable(e.to_string()),
                },
            });
            return;
        }
    };
    for (name, kind) in listing.entries() {
        let name = name.to_string_lossy();
        if names.contains(&*name) || elsewhere.contains(&(folder.as_str(), &*name)) {
            continue;
        }
        out.push(Finding {
            skill: None,
            folder: folder.clone(),
            drift: Drift {
                path: name.into_owned(),
                change: Change::Unlisted(*kind),
            },
        });
    }
}

/// One skill folder to check.
#[derive(Debug)]
struct Job<'a> {
    skill: &'a LockedSkill,
    /// As the lock records it.
    recorded: &'a str,
    /// The managed folder it is in, below the root.
    parent: &'a str,
    /// Its name there.
    name: &'a str,
}

impl Job<'_> {
    fn check(&self, managed: &BTreeMap<&str, Managed>) -> Vec<Finding> {
        let files = &self.skill.files;
        let whole = |change| {
            vec![Drift {
                path: String::new(),
                change,
            }]
        };
        let drift = match managed.get(self.parent) {
            None | Some(Managed::Absent) => tree::removed(files),
            Some(Managed::Through(link, target)) => whole(Change::Through {
                link: link.clone(),
                target: target.clone(),
            }),
            Some(Managed::Unreadable(why)) => whole(Change::Unreadable(why.clone())),
            Some(Managed::Open(dir)) => match dir.open_dir(Path::new(self.name)) {
                Ok(folder) => tree::check_open(&folder, files),
                Err(e) if e.is_not_found() => tree::removed(files),
                Err(e) => whole(match e.reason {
                    Reason::Link => Change::Link {
                        target: tree::link_target(dir, self.name.as_ref()),
                    },
                    Reason::NotFile(kind) => Change::NotAFolder(tree::kind_name(kind)),
                    Reason::Io(e) if e.kind() == io::ErrorKind::NotADirectory => {
                        Change::NotAFolder("a regular file")
                    }
                    other => Change::Unreadable(other.to_string()),
                }),
            },
        };
        drift
            .into_iter()
            .map(|drift| Finding {
                skill: Some(self.skill.name.clone()),
                folder: self.recorded.to_string(),
                drift,
            })
            .collect()
    }
}

/// `f` of every item, in order, on every core.
fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(item)));
        }
    };
    let mut all = std::thread::scope(|s| {
        // A helper that cannot be started leaves its share to the others.
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| std::thread::Builder::new().spawn_scoped(s, work).ok())
            .collect();
        let mut all = work();
        for helper in helpers {
            match helper.join() {
                Ok(done) => all.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::listing::EntryKind;
    use crate::lock::{tests::local, tree::hash_files};
    use std::fs;

    const MD: &[u8] = b"---\nname: a\n---\n";

    /// A project with skills `a` and `b` in `.claude/skills`, as locked.
    fn project() -> (tempfile::TempDir, Scope, Lock) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut lock = Lock::default();
        for name in ["a", "b"] {
            let dir = tmp.path().join(".claude/skills").join(name);
            fs::create_dir_all(dir.join("scripts")).expect("mkdir");
            fs::write(dir.join("SKILL.md"), MD).expect("write");
            fs::write(dir.join("scripts/run.sh"), b"echo").expect("write");
            lock.insert(local(
                name,
                vec![format!(".claude/skills/{name}")],
                hash_files([
                    ("SKILL.md", MD, false),
                    ("scripts/run.sh", &b"echo"[..], false),
                ]),
            ));
        }
        let scope = Scope::project(tmp.path());
        (tmp, scope, lock)
    }

    fn found(scope: &Scope, lock: &Lock, elsewhere: &[String]) -> Vec<String> {
        verify(scope, lock, elsewhere)
            .expect("verified")
            .findings
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_tree_as_locked_is_clean_and_counted() {
        let (_tmp, scope, lock) = project();
        let report = verify(&scope, &lock, &[]).expect("verified");
        assert!(report.is_clean(), "{:?}", report.findings);
        assert_eq!((report.skills, report.folders, report.files), (2, 2, 4));
    }

    #[test]
    fn unlisted_folders_staging_folders_hidden_folders_and_files_are_reported() {
        let (tmp, scope, lock) = project();
        let skills = tmp.path().join(".claude/skills");
        for dir in ["evil", ".a.skb-x1Y2z3/new", ".quiet"] {
            fs::create_dir_all(skills.join(dir)).expect("mkdir");
        }
        fs::write(skills.join("notes.txt"), b"x").expect("write");
        let report = verify(&scope, &lock, &[]).expect("verified");
        let unlisted: Vec<(&str, &Change)> = report
            .findings
            .iter()
            .map(|f| (f.drift.path.as_str(), &f.drift.change))
            .collect();
        assert_eq!(
            unlisted,
            [
                (".a.skb-x1Y2z3", &Change::Unlisted(EntryKind::Dir)),
                (".quiet", &Change::Unlisted(EntryKind::Dir)),
                ("evil", &Change::Unlisted(EntryKind::Dir)),
                ("notes.txt", &Change::Unlisted(EntryKind::File)),
            ]
        );
        assert!(
            report
                .findings
                .iter()
                .all(|f| f.skill.is_none() && f.folder == ".claude/skills")
        );
        let text = found(&scope, &lock, &[]);
        assert_eq!(
            text[0],
            ".claude/skills: not in the lock (a staging folder skb left behind): .a.skb-x1Y2z3"
        );
        assert_eq!(
            text[1],
            ".claude/skills: not in the lock (a hidden folder, which Qwen Code, Kimi Code and Amp list): .quiet"
        );
        // What another installer's lock records is not unlisted.
        let elsewhere = [
            ".claude/skills/evil".to_string(),
            ".claude/skills/notes.txt".into(),
        ];
        assert_eq!(found(&scope, &lock, &elsewhere).len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn a_skill_folder_replaced_by_a_link_to_a_copy_is_reported_not_followed() {
        let (tmp, scope, lock) = project();
        let copy = tmp.path().join("copy");
        fs::rename(tmp.path().join(".claude/skills/a"), &copy).expect("mv");
        std::os::unix::fs::symlink(&copy, tmp.path().join(".claude/skills/a")).expect("link");
        let report = verify(&scope, &lock, &[]).expect("verified");
        assert_eq!(report.findings.len(), 1, "{:?}", report.findings);
        let f = &report.findings[0];
        assert_eq!(
            (f.skill.as_deref(), f.folder.as_str()),
            (Some("a"), ".claude/skills/a")
        );
        assert_eq!(
            f.drift.change,
            Change::Link {
                target: copy.display().to_string()
            }
        );
        // A file swapped for a link inside a folder: the same.
        std::os::unix::fs::symlink("/etc/passwd", tmp.path().join(".claude/skills/b/x"))
            .expect("link");
        assert!(found(&scope, &lock, &[]).contains(
            &".claude/skills/b: a symbolic link to `/etc/passwd`, not followed: x".to_string()
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_client_folder_committed_as_a_link_is_reported_for_each_folder_behind_it() {
        let (tmp, scope, lock) = project();
        let outside = tmp.path().join("outside");
        fs::rename(tmp.path().join(".claude"), &outside).expect("mv");
        std::os::unix::fs::symlink(&outside, tmp.path().join(".claude")).expect("link");
        let report = verify(&scope, &lock, &[]).expect("verified");
        let changes: Vec<(&str, &Change)> = report
            .findings
            .iter()
            .map(|f| (f.folder.as_str(), &f.drift.change))
            .collect();
        let through = Change::Through {
            link: ".claude".into(),
            target: outside.display().to_string(),
        };
        assert_eq!(
            changes,
            [
                (".claude/skills/a", &through),
                (".claude/skills/b", &through)
            ]
        );
        // A link one level down, at the skills folder itself, the same.
        fs::remove_file(tmp.path().join(".claude")).expect("rm");
        fs::create_dir(tmp.path().join(".claude")).expect("mkdir");
        std::os::unix::fs::symlink(outside.join("skills"), tmp.path().join(".claude/skills"))
            .expect("link");
        let report = verify(&scope, &lock, &[]).expect("verified");
        assert!(matches!(
            &report.findings[0].drift.change,
            Change::Through { link, .. } if link == ".claude/skills"
        ));
    }

    #[cfg(unix)]
    #[test]
    fn setuid_setgid_sticky_and_world_writable_modes_are_reported() {
        use std::os::unix::fs::PermissionsExt;
        let (tmp, scope, lock) = project();
        let chmod = |rel: &str, mode: u32| {
            fs::set_permissions(tmp.path().join(rel), fs::Permissions::from_mode(mode))
                .expect("chmod");
        };
        chmod(".claude/skills/a/scripts/run.sh", 0o4644);
        chmod(".claude/skills/a/SKILL.md", 0o646);
        chmod(".claude/skills/a/scripts", 0o2755);
        chmod(".claude/skills/b", 0o1777);
        chmod(".claude", 0o757);
        assert_eq!(
            found(&scope, &lock, &[]),
            [
                ".claude/skills/a: unsafe mode 0646 (world-writable): SKILL.md",
                ".claude/skills/a: unsafe mode 2755 (setgid): scripts",
                ".claude/skills/a: unsafe mode 4644 (setuid): scripts/run.sh",
                ".claude/skills/b: unsafe mode 1777 (sticky, world-writable)",
                ".claude: unsafe mode 0757 (world-writable)",
            ]
        );
    }

    #[test]
    fn edited_added_removed_and_missing_are_reported_as_before() {
        let (tmp, scope, lock) = project();
        let a = tmp.path().join(".claude/skills/a");
        fs::write(a.join("SKILL.md"), b"---\nname: b\n---\n").expect("write");
        fs::write(a.join("extra.md"), b"x").expect("write");
        fs::remove_file(a.join("scripts/run.sh")).expect("rm");
        fs::remove_dir_all(tmp.path().join(".claude/skills/b")).expect("rm");
        assert_eq!(
            found(&scope, &lock, &[]),
            [
                ".claude/skills/a: edited: SKILL.md",
                ".claude/skills/a: added: extra.md",
                ".claude/skills/a: removed: scripts/run.sh",
                ".claude/skills/b: removed: SKILL.md",
                ".claude/skills/b: removed: scripts/run.sh",
            ]
        );
        fs::remove_dir_all(tmp.path().join(".claude")).expect("rm");
        assert_eq!(found(&scope, &lock, &[]).len(), 4);
        fs::write(tmp.path().join(".claude"), b"a file").expect("write");
        let report = verify(&scope, &lock, &[]).expect("verified");
        assert!(!report.is_clean());
    }

    #[cfg(unix)]
    #[test]
    fn the_users_scope_follows_links_to_client_folders_not_to_skill_folders() {
        let (tmp, _, _) = project();
        let home = tmp.path();
        let dotfiles = home.join("dotfiles-claude");
        fs::rename(home.join(".claude"), &dotfiles).expect("mv");
        std::os::unix::fs::symlink(&dotfiles, home.join(".claude")).expect("link");
        let scope = Scope::user(home, None).expect("absolute");
        let mut lock = Lock::default();
        let skill = |name: &str| {
            local(
                name,
                vec![format!("~/.claude/skills/{name}")],
                hash_files([
                    ("SKILL.md", MD, false),
                    ("scripts/run.sh", &b"echo"[..], false),
                ]),
            )
        };
        lock.insert(skill("a"));
        lock.insert(skill("b"));
        assert_eq!(found(&scope, &lock, &[]), Vec::<String>::new());
        let copy = home.join("copy");
        fs::rename(dotfiles.join("skills/a"), &copy).expect("mv");
        std::os::unix::fs::symlink(&copy, dotfiles.join("skills/a")).expect("link");
        assert_eq!(
            found(&scope, &lock, &[]),
            [format!(
                "~/.claude/skills/a: a symbolic link to `{}`, not followed",
                copy.display()
            )]
        );
    }

    #[test]
    fn a_lock_outside_its_scope_is_refused_before_anything_is_read() {
        let (_tmp, scope, mut lock) = project();
        if let Some(s) = lock.skills.first_mut() {
            s.installed = vec!["~/.claude/skills/a".into()];
        }
        assert!(matches!(
            verify(&scope, &lock, &[]),
            Err(VerifyError::Scope(_))
        ));
    }

    #[test]
    fn parallel_keeps_the_order_of_its_items() {
        let items: Vec<usize> = (0..1000).collect();
        assert_eq!(
            parallel(&items, |i| i * 2),
            items.iter().map(|i| i * 2).collect::<Vec<_>>()
        );
        assert_eq!(parallel(&[] as &[usize], |i| *i), Vec::<usize>::new());
    }
}
