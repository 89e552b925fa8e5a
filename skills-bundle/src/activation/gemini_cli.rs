//! Gemini CLI's activation: the `<activated_skill>` text its
//! `activate_skill` tool answers with, as Gemini CLI 0.61.0 was observed to
//! send it (observed behaviour of that version).
//!
//! ```text
//! <activated_skill name="NAME">
//!   <instructions>
//!     BODY
//!   </instructions>
//!
//!   <available_resources>
//!     Showing up to 200 items (files + folders).
//!
//! /abs/skill/dir/
//! ├───SKILL.md
//! └───scripts/
//!     └───run.sh
//!   </available_resources>
//! </activated_skill>
//! ```
//!
//! The body is the text after the frontmatter, trimmed, inserted once as
//! it is: nothing is substituted (`$ARGUMENTS`, `${SKILL_DIR}`, `!{cmd}`,
//! `` !`cmd` `` arrive literally), only its first line is indented, and the
//! name is not escaped. The resources are the skill folder's tree
//! ([`folder_structure`]).
//!
//! The tree, as Gemini CLI builds it: the folder is read breadth first;
//! in each folder, its files first, then its folders, each sorted by the
//! order the caller gives (Gemini CLI sorts with JavaScript's
//! `localeCompare`); at most [`MAX_ITEMS`] files and folders are counted,
//! after which a folder's remaining files or folders become one `...` line
//! and folders not yet read are shown empty. Only regular files and
//! folders count: links and other entries are not shown. The folders
//! [`IGNORED`] are shown as `name/...`, unread. A tree with a `...` gets a
//! second sentence after the first line.

use std::cmp::Ordering;
use std::collections::VecDeque;
use std::io;
use std::path::{Path, PathBuf};

use skills_core::catalog::claude_code::is_js_whitespace;

/// The most files and folders the tree shows.
pub const MAX_ITEMS: usize = 200;

/// Folders shown but not read.
pub const IGNORED: [&str; 4] = ["node_modules", ".git", "dist", "__pycache__"];

const MORE: &str = "...";

/// What a directory entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A folder (not a link to one).
    Folder,
    /// Anything else (a link, a socket, ...): not shown.
    Other,
}

/// The `<activated_skill>` text for the skill `name` whose `SKILL.md` has
/// `body` after its frontmatter (trimmed here, as Gemini CLI trims it),
/// with `resources` ([`folder_structure`]) as its resources.
pub fn render(name: &str, body: &str, resources: &str) -> String {
    let body = body.trim_matches(is_js_whitespace);
    format!(
        "<activated_skill name=\"{name}\">\n  <instructions>\n    {body}\n  </instructions>\n\n  <available_resources>\n    {resources}\n  </available_resources>\n</activated_skill>"
    )
}

/// One folder of the tree.
#[derive(Default)]
struct Node {
    name: String,
    files: Vec<String>,
    folders: Vec<usize>,
    ignored: bool,
    more_files: bool,
    more_folders: bool,
}

/// The tree of the folder `root` (shown as `display`, the absolute path),
/// each folder's entries given by `list` (`list(path)`: names and kinds,
/// in any order) and sorted by `order`. A folder that cannot be read
/// (not found, permission denied) is shown empty; the root not found, or
/// any other error, gives Gemini CLI's error line instead of a tree.
pub fn folder_structure(
    root: &Path,
    display: &str,
    mut list: impl FnMut(&Path) -> io::Result<Vec<(String, Kind)>>,
    order: impl Fn(&str, &str) -> Ordering,
) -> String {
    let mut nodes = vec![Node::default()];
    let mut queue: VecDeque<(usize, PathBuf)> = VecDeque::from([(0, root.to_path_buf())]);
    let mut count = 0;
    while let Some((id, path)) = queue.pop_front() {
        if count >= MAX_ITEMS {
            continue;
        }
        let mut entries = match list(&path) {
            Ok(entries) => entries,
            Err(e) if id == 0 && e.kind() == io::ErrorKind::NotFound => {
                return format!(
                    "Error: Could not read directory \"{display}\". Check path and permissions."
                );
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied
                ) =>
            {
                continue;
            }
            Err(e) => return format!("Error processing directory \"{display}\": {e}"),
        };
        entries.sort_by(|a, b| order(&a.0, &b.0));
        for (name, _) in entries.iter().filter(|(_, k)| *k == Kind::File) {
            if count >= MAX_ITEMS {
                nodes[id].more_files = true;
                break;
            }
            nodes[id].files.push(name.clone());
            count += 1;
        }
        for (name, _) in entries.iter().filter(|(_, k)| *k == Kind::Folder) {
            if count >= MAX_ITEMS {
                nodes[id].more_folders = true;
                break;
            }
            let ignored = IGNORED.contains(&name.as_str());
            let child = nodes.len();
            nodes.push(Node {
                name: name.clone(),
                ignored,
                ..Node::default()
            });
            nodes[id].folders.push(child);
            count += 1;
            if !ignored {
                queue.push_back((child, path.join(name)));
            }
        }
    }
    let mut lines = Vec::new();
    format_node(&nodes, 0, "", true, true, &mut lines);
    let mut summary = format!("Showing up to {MAX_ITEMS} items (files + folders).");
    if nodes
        .iter()
        .any(|n| n.more_files || n.more_folders || n.ignored)
    {
        summary.push_str(&format!(
            " Folders or files indicated with {MORE} contain more items not shown, were ignored, or the display limit ({MAX_ITEMS} items) was reached."
        ));
    }
    format!("{summary}\n\n{display}/\n{}", lines.join("\n"))
}

/// The lines of node `id` and below; `indent` is its own, `last` whether
/// it is its parent's last entry.
fn format_node(
    nodes: &[Node],
    id: usize,
    indent: &str,
    last: bool,
    root: bool,
    out: &mut Vec<String>,
) {
    let node = &nodes[id];
    let connector = |last: bool| if last { "└───" } else { "├───" };
    if !root {
        let mark = if node.ignored { MORE } else { "" };
        out.push(format!("{indent}{}{}/{mark}", connector(last), node.name));
    }
    let inner = if root {
        String::new()
    } else {
        format!("{indent}{}", if last { "    " } else { "│   " })
    };
    let no_folders = node.folders.is_empty() && !node.more_folders;
    for (i, file) in node.files.iter().enumerate() {
        let last_file = i + 1 == node.files.len() && no_folders;
        out.push(format!("{inner}{}{file}", connector(last_file)));
    }
    if node.more_files {
        out.push(format!("{inner}{}{MORE}", connector(no_folders)));
    }
    for (i, &child) in node.folders.iter().enumerate() {
        let last_folder = i + 1 == node.folders.len() && !node.more_folders;
        format_node(nodes, child, &inner, last_folder, false, out);
    }
    if node.more_folders {
        out.push(format!("{inner}└───{MORE}"));
    }
}

/// [`folder_structure`] of the folder `dir` on disk, shown as `display`:
/// entries as the directory listing gives them, links not followed.
pub fn read_folder_structure(
    dir: &Path,
    display: &str,
    order: impl Fn(&str, &str) -> Ordering,
) -> String {
    folder_structure(dir, display, list_dir, order)
}

fn list_dir(path: &Path) -> io::Result<Vec<(String, Kind)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(path)? {
        let entry = entry?;
        let kind = match entry.file_type()? {
            t if t.is_file() => Kind::File,
            t if t.is_dir() => Kind::Folder,
            _ => Kind::Other,
        };
        out.push((entry.file_name().to_string_lossy().into_owned(), kind));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree of `(folder path, entries)`; folders not listed are empty.
    fn tree<'a>(
        dirs: &'a [(&'a str, &'a [(&'a str, Kind)])],
    ) -> impl FnMut(&Path) -> io::Result<Vec<(String, Kind)>> + 'a {
        move |p: &Path| {
            let key = p.to_string_lossy();
            Ok(dirs
                .iter()
                .find(|(d, _)| *d == key)
                .map(|(_, e)| e.iter().map(|(n, k)| ((*n).to_owned(), *k)).collect())
                .unwrap_or_default())
        }
    }

    fn by_name(a: &str, b: &str) -> Ordering {
        a.to_lowercase().cmp(&b.to_lowercase())
    }

    #[test]
    fn the_recorded_activation() {
        let dirs: &[(&str, &[(&str, Kind)])] = &[
            (
                "/s",
                &[
                    ("scripts", Kind::Folder),
                    ("SKILL.md", Kind::File),
                    ("assets", Kind::Folder),
                    ("references", Kind::Folder),
                    ("link", Kind::Other),
                ],
            ),
            ("/s/assets", &[("logo.txt", Kind::File)]),
            ("/s/references", &[("ref.md", Kind::File)]),
            ("/s/scripts", &[("run.sh", Kind::File)]),
        ];
        let resources = folder_structure(Path::new("/s"), "/p/s", tree(dirs), by_name);
        let body = "\n# Args demo\nwhole=[$ARGUMENTS] !{echo hi}\n\n";
        assert_eq!(
            render("args-demo", body, &resources),
            "<activated_skill name=\"args-demo\">\n  <instructions>\n    # Args demo\nwhole=[$ARGUMENTS] !{echo hi}\n  </instructions>\n\n  <available_resources>\n    Showing up to 200 items (files + folders).\n\n/p/s/\n├───SKILL.md\n├───assets/\n│   └───logo.txt\n├───references/\n│   └───ref.md\n└───scripts/\n    └───run.sh\n  </available_resources>\n</activated_skill>"
        );
    }

    #[test]
    fn ignored_folders_and_the_limit() {
        let many: Vec<(String, Kind)> = (0..250)
            .map(|i| (format!("f{i:03}"), Kind::File))
            .chain([("sub".to_owned(), Kind::Folder)])
            .collect();
        let mut calls = 0;
        let text = folder_structure(
            Path::new("/s"),
            "/s",
            |p| {
                calls += 1;
                Ok(if p == Path::new("/s") {
                    many.clone()
                } else {
                    Vec::new()
                })
            },
            by_name,
        );
        assert_eq!(calls, 1);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with("the display limit (200 items) was reached."));
        assert_eq!(lines[3], "├───f000");
        assert_eq!(lines[202], "├───f199");
        assert_eq!(lines[203], "├───...");
        assert_eq!(lines[204], "└───...");
        assert_eq!(lines.len(), 205);

        let dirs: &[(&str, &[(&str, Kind)])] = &[(
            "/s",
            &[("SKILL.md", Kind::File), ("node_modules", Kind::Folder)],
        )];
        let text = folder_structure(Path::new("/s"), "/s", tree(dirs), by_name);
        assert!(
            text.ends_with("/s/\n├───SKILL.md\n└───node_modules/..."),
            "{text}"
        );
        assert!(text.contains("were ignored"));
    }

    /// Gemini CLI's own quirks at the limit: a folder counted but not read
    /// before the limit is shown empty and unmarked; with files left out and
    /// no folder, the last file and the `...` both close the list.
    #[test]
    fn at_the_limit() {
        let files = |n: usize| (0..n).map(|i| (format!("f{i:03}"), Kind::File));
        let root: Vec<(String, Kind)> = files(199)
            .chain([("a".into(), Kind::Folder), ("b".into(), Kind::Folder)])
            .collect();
        let text = folder_structure(
            Path::new("/s"),
            "/s",
            |p| {
                Ok(if p == Path::new("/s") {
                    root.clone()
                } else {
                    vec![("inner".into(), Kind::File)]
                })
            },
            by_name,
        );
        assert!(text.ends_with("├───f198\n├───a/\n└───..."), "{text}");
        let only_files: Vec<(String, Kind)> = files(201).collect();
        let text = folder_structure(Path::new("/s"), "/s", |_| Ok(only_files.clone()), by_name);
        assert!(text.ends_with("└───f199\n└───..."), "{text}");
    }

    #[test]
    fn errors() {
        let text = folder_structure(
            Path::new("/s"),
            "/s",
            |_| Err(io::Error::from(io::ErrorKind::NotFound)),
            by_name,
        );
        assert_eq!(
            text,
            "Error: Could not read directory \"/s\". Check path and permissions."
        );
    }
}
