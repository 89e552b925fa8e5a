//! The walk of a root that is neither a skill nor a project folder (rules 2
//! to 4 of [`discover`](super)): sub-directories in byte-wise order, plugins
//! and skills recognised on the way, links followed inside the root (or to
//! a skill, wherever it is), within the depth and directory limits. The
//! manifests it meets are read by [`manifest`](super::manifest).

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::found::FoundSkill;
use super::links::{Target, follow_link};
use super::listing::{
    Entry, EntryKind, MANIFEST_DIR, PLUGIN_JSON, has_entry, has_skill_md, is_plain_skill,
    is_skipped, list_dir,
};
use super::options::DiscoveryOptions;
use crate::diag::{Code, Diagnostic, Severity};
use crate::knobs::Limit;
use crate::render::thousands;

pub(super) struct Walk<'a> {
    pub(super) root: &'a Path,
    pub(super) boundary: PathBuf,
    pub(super) opts: &'a DiscoveryOptions,
    pub(super) diags: &'a mut Vec<Diagnostic>,
    pub(super) found: Vec<FoundSkill>,
    /// Canonical skill directories already returned.
    pub(super) skill_dirs: HashSet<PathBuf>,
    /// Canonical directories already walked.
    pub(super) visited: HashSet<PathBuf>,
    /// Canonical directories on the current walk path.
    pub(super) stack: Vec<PathBuf>,
    pub(super) dirs_read: usize,
    pub(super) depth_warned: bool,
    pub(super) stopped: bool,
    /// Told of each skill as it is added to `found`.
    pub(super) emit: &'a mut dyn FnMut(&FoundSkill),
}

impl Walk<'_> {
    pub(super) fn run(&mut self) {
        let root = self.root.to_path_buf();
        let canon = self.boundary.clone();
        let entries = list_dir(&root, self.diags);
        self.dirs_read = 1;
        self.visited.insert(canon.clone());
        self.stack.push(canon.clone());
        if has_entry(&entries, MANIFEST_DIR) {
            // Listed plugins come first, with their names; the walk
            // below still finds skills the marketplace does not list,
            // because CI should validate everything in the tree.
            self.root_marketplace(&root, &canon);
        }
        self.visit(&root, &canon, 0, &entries);
    }

    /// Rules 2 to 4 for one directory whose entries are already listed.
    pub(super) fn visit(&mut self, dir: &Path, canon: &Path, depth: usize, entries: &[Entry]) {
        if has_entry(entries, MANIFEST_DIR)
            && fs::symlink_metadata(dir.join(MANIFEST_DIR).join(PLUGIN_JSON)).is_ok()
        {
            self.listed_plugin(dir, canon);
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
    pub(super) fn child_dir(&mut self, parent_canon: &Path, entry: &Entry) -> Option<PathBuf> {
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

    pub(super) fn add_skill(&mut self, dir: &Path, canon: &Path, plugin: Option<&str>) {
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
}

/// The name of a directory, for a plugin without one.
pub(super) fn dir_name(dir: &Path, canon: &Path) -> String {
    dir.file_name()
        .filter(|n| *n != ".")
        .or_else(|| canon.file_name())
        .map_or_else(|| "plugin".to_owned(), |n| n.to_string_lossy().into_owned())
}
