//! GitHub Copilot CLI's activation, as Copilot CLI 1.0.102 gives it
//! (observed behaviour of that version, `copilot_activation.json` and
//! `limits_bodies_copilot.json` in the shared recordings).
//!
//! Its `skill` tool (one parameter, `skill`) answers with a tool result,
//! [`loaded`], and adds a **user** message ([`render`]):
//!
//! ```text
//! <skill-context name="NAME">
//! Base directory for this skill: DIR
//!
//! Summarized directories:
//!   - references/big/ (60 items)
//! Related files (use view tool to read):
//!   - DIR/assets/logo.txt
//!   - DIR/scripts/run.sh
//!   ...and more files (listing truncated)
//!
//! BODY
//! </skill-context>
//! ```
//!
//! `NAME` is the name listed (the tool finds a skill case-insensitively:
//! `OK-BASIC` loads `ok-basic`, shown as `ok-basic`). The two blocks come
//! from one walk of the folder ([`related_files`]): depth first, each
//! folder's entries in the order the file system gives them, hidden ones
//! included; a folder below the skill's holding more than
//! [`SUMMARY_OVER`] entries is not entered but named, with its count, under
//! `Summarized directories:` (sorted); files named `SKILL.md` in any case
//! are left out; the first [`MAX_FILES`] files are listed as absolute
//! paths, sorted, and the walk stops at the next file, which adds the
//! `...and more files` line. A block is there only when it has something
//! to say. BODY is the text after the frontmatter's closing line without
//! its leading blank lines, its end as written. Nothing is substituted or
//! escaped, but Copilot's secret filter replaces what looks like a
//! credential in the whole message with `******` (`redact`: `Bearer
//! TOKEN`, `password=…`, GitHub and npm tokens, a URL's password):
//! `$ARGUMENTS`, `${CLAUDE_SKILL_DIR}`, `` !`cmd` `` arrive as
//! written, and an `args` argument changes nothing. A name the tool does
//! not know, or a skill with `disable-model-invocation: true`, gets
//! [`not_found`].
//!
//! Recorded with the real program for this module (beyond the shared
//! record): hidden files listed, `0zero`, `Upper.txt`, `_under.md`,
//! `a/b/c.txt`, `lower.txt` in that order (byte order), a nested
//! `SKILL.md` or `skill.md` left out; a CRLF body arrives with LF line ends
//! (the reader's); 50 files in one folder listed and 51 summarized (hidden
//! entries and a nested `SKILL.md` counted), 51 and 120 beside `SKILL.md`
//! never summarized; 100 files listed whole and 101 cut to 100; which 100 of
//! 105 and of 200 (the folders met first in directory order, a folder
//! entered where it is met); folders over 50 entries met after the cut not
//! named. Not recorded: a depth limit ([`MAX_DEPTH`] is ours). The order is
//! the file system's, so what `show` prints is a prediction for the machine
//! it runs on, as Copilot's own listing is for its.

use std::path::{Path, PathBuf};

mod redact;

/// The most files [`related_files`] lists.
pub const MAX_FILES: usize = 100;

/// A folder below the skill's with more entries than this is named, not
/// entered.
pub const SUMMARY_OVER: usize = 50;

/// The deepest folder [`related_files`] enters, below the skill's.
pub const MAX_DEPTH: usize = 64;

/// The tool result for the skill listed as `name`.
pub fn loaded(name: &str) -> String {
    format!("Skill \"{name}\" loaded successfully. Follow the instructions in the skill context.")
}

/// The tool result for a name the tool does not know: `names` are the
/// skills it lists, in its catalog's order (built-ins last).
pub fn not_found(name: &str, names: &[&str]) -> String {
    format!(
        "Skill \"{name}\" not found. Available skills: {}",
        names.join(", ")
    )
}

/// The user message for the skill listed as `name` in the folder `dir`
/// (absolute), with `related` ([`related_files`]) and `body` (the text
/// after the frontmatter's closing line, leading blank lines removed).
pub fn render(name: &str, dir: &str, related: &Related, body: &str) -> String {
    let mut out =
        format!("<skill-context name=\"{name}\">\nBase directory for this skill: {dir}\n\n");
    if !related.summarized.is_empty() {
        out.push_str("Summarized directories:\n");
        for (folder, items) in &related.summarized {
            out.push_str(&format!("  - {folder}/ ({items} items)\n"));
        }
    }
    if !related.files.is_empty() || related.truncated {
        out.push_str("Related files (use view tool to read):\n");
        for f in &related.files {
            out.push_str("  - ");
            out.push_str(f);
            out.push('\n');
        }
        if related.truncated {
            out.push_str("  ...and more files (listing truncated)\n");
        }
    }
    if !related.summarized.is_empty() || !related.files.is_empty() || related.truncated {
        out.push('\n');
    }
    out.push_str(body);
    out.push_str("\n</skill-context>");
    redact::secrets(&out)
}

/// What Copilot CLI tells its model of a skill's other files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Related {
    /// The folders named instead of entered: the path below the skill's
    /// folder (`/`-separated) and how many entries it holds, sorted.
    pub summarized: Vec<(String, usize)>,
    /// The files listed, absolute, sorted: at most [`MAX_FILES`].
    pub files: Vec<String>,
    /// Whether the walk stopped at a file past [`MAX_FILES`].
    pub truncated: bool,
}

/// Walks the skill folder `dir` as Copilot CLI does (the module's rules):
/// files as absolute paths (`dir` joined with the relative path). Links
/// are followed to what they name; unreadable folders are skipped; no
/// folder deeper than [`MAX_DEPTH`] is entered.
pub fn related_files(dir: &Path) -> Related {
    let mut walk = Walk {
        top: dir,
        related: Related::default(),
        found: Vec::new(),
    };
    if let Ok(read) = std::fs::read_dir(dir) {
        walk.folder(read.flatten().map(|e| e.path()), 0);
    }
    let mut related = walk.related;
    related.files = walk
        .found
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    related.files.sort();
    related.summarized.sort();
    related
}

/// The entries of the folder `dir` in the order the file system gives
/// them, when it holds at most `keep` (else none), and how many it holds;
/// one read of the folder, nothing kept past `keep`. An unreadable folder
/// holds none.
fn listed(dir: &Path, keep: usize) -> (Vec<PathBuf>, usize) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return (Vec::new(), 0);
    };
    let mut kept = Vec::new();
    let mut count = 0;
    for entry in read.flatten() {
        count += 1;
        if count <= keep {
            kept.push(entry.path());
        } else {
            kept.clear();
        }
    }
    (kept, count)
}

struct Walk<'a> {
    top: &'a Path,
    related: Related,
    found: Vec<PathBuf>,
}

impl Walk<'_> {
    /// Walks a folder's `entries`, in the order the file system gives
    /// them; `false` once the walk is over.
    fn folder(&mut self, entries: impl Iterator<Item = PathBuf>, depth: usize) -> bool {
        for path in entries {
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                if depth >= MAX_DEPTH {
                    continue;
                }
                let (inner, items) = listed(&path, SUMMARY_OVER);
                if items > SUMMARY_OVER {
                    let rel = path.strip_prefix(self.top).unwrap_or(&path);
                    let rel: Vec<_> = rel
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy())
                        .collect();
                    self.related.summarized.push((rel.join("/"), items));
                } else if !self.folder(inner.into_iter(), depth + 1) {
                    return false;
                }
            } else if meta.is_file() {
                let skill_md = path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("SKILL.md"));
                if skill_md {
                    continue;
                }
                if self.found.len() == MAX_FILES {
                    self.related.truncated = true;
                    return false;
                }
                self.found.push(path);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_message() {
        let dir = "/p/.github/skills/args-demo";
        let files = vec![
            format!("{dir}/assets/logo.txt"),
            format!("{dir}/scripts/run.sh"),
        ];
        let related = Related {
            files,
            ..Related::default()
        };
        assert_eq!(
            render("args-demo", dir, &related, "# Args\n$ARGUMENTS\n"),
            "<skill-context name=\"args-demo\">\nBase directory for this skill: /p/.github/skills/args-demo\n\nRelated files (use view tool to read):\n  - /p/.github/skills/args-demo/assets/logo.txt\n  - /p/.github/skills/args-demo/scripts/run.sh\n\n# Args\n$ARGUMENTS\n\n</skill-context>"
        );
        assert_eq!(
            render(
                "ws-body",
                "/d",
                &Related::default(),
                "# Title\n\nText.\n\n\n"
            ),
            "<skill-context name=\"ws-body\">\nBase directory for this skill: /d\n\n# Title\n\nText.\n\n\n\n</skill-context>"
        );
        assert_eq!(
            not_found("nope", &["a", "customize-cloud-agent"]),
            "Skill \"nope\" not found. Available skills: a, customize-cloud-agent"
        );
    }

    #[test]
    fn related_files_are_sorted_without_skill_md() {
        let dir = std::env::temp_dir().join(format!("skb-copilot-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in ["SKILL.md", "scripts/run.sh", "assets/logo.txt", "b.md"] {
            let path = dir.join(f);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(&path, "x").expect("write");
        }
        let got = related_files(&dir).files;
        let want: Vec<String> = ["assets/logo.txt", "b.md", "scripts/run.sh"]
            .iter()
            .map(|f| dir.join(f).to_string_lossy().into_owned())
            .collect();
        assert_eq!(got, want);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn tree(name: &str, files: &[String]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("skb-copilot-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in files {
            let path = dir.join(f);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            std::fs::write(&path, "x").expect("write");
        }
        dir
    }

    #[test]
    fn a_folder_over_fifty_entries_is_named_not_entered() {
        let mut files: Vec<String> = (0..51).map(|i| format!("refs/big/f{i:02}.md")).collect();
        files.extend((0..50).map(|i| format!("refs/ok/f{i:02}.md")));
        // The skill's own folder is never summarized.
        files.extend((0..49).map(|i| format!("t{i:02}.md")));
        files.push("SKILL.md".into());
        let dir = tree("summary", &files);
        let got = related_files(&dir);
        assert_eq!(got.summarized, [("refs/big".to_string(), 51)]);
        assert_eq!(got.files.len(), 99, "{got:?}");
        assert!(!got.truncated);
        let text = render("s", "/d", &got, "Body.");
        assert!(
            text.contains("Summarized directories:\n  - refs/big/ (51 items)\nRelated files (use view tool to read):\n"),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_walk_stops_at_the_file_past_one_hundred() {
        let files: Vec<String> = (0..101).map(|i| format!("f{i:03}.md")).collect();
        let dir = tree("cut", &files);
        let got = related_files(&dir);
        assert_eq!(got.files.len(), MAX_FILES);
        assert!(got.truncated);
        let mut sorted = got.files.clone();
        sorted.sort();
        assert_eq!(got.files, sorted);
        assert!(
            render("s", "/d", &got, "Body.")
                .ends_with("  ...and more files (listing truncated)\n\nBody.\n</skill-context>")
        );
        let _ = std::fs::remove_dir_all(&dir);
        let dir = tree("whole", &files[..100]);
        let got = related_files(&dir);
        assert_eq!((got.files.len(), got.truncated), (100, false));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_a_summary_has_no_files_block() {
        let files: Vec<String> = (0..60).map(|i| format!("refs/f{i:02}.md")).collect();
        let dir = tree("only", &files);
        let got = related_files(&dir);
        assert_eq!(
            render("s", "/d", &got, "Body."),
            "<skill-context name=\"s\">\nBase directory for this skill: /d\n\nSummarized directories:\n  - refs/ (60 items)\n\nBody.\n</skill-context>"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
