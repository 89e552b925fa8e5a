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
//! Related files (use view tool to read):
//!   - DIR/assets/logo.txt
//!   - DIR/scripts/run.sh
//!
//! BODY
//! </skill-context>
//! ```
//!
//! `NAME` is the name listed (the tool finds a skill case-insensitively:
//! `OK-BASIC` loads `ok-basic`, shown as `ok-basic`). The files block is
//! there only when the folder holds a file besides `SKILL.md`: every file
//! below it, at any depth, hidden ones included, but those named
//! `SKILL.md` in any case, as absolute paths, sorted ([`related_files`]).
//! BODY is the text after the frontmatter's closing line without its
//! leading blank lines, its end as written. Nothing is substituted or
//! escaped: `$ARGUMENTS`, `${CLAUDE_SKILL_DIR}`, `` !`cmd` `` arrive as
//! written, and an `args` argument changes nothing. A name the tool does
//! not know, or a skill with `disable-model-invocation: true`, gets
//! [`not_found`].
//!
//! Recorded with the real program for this module (beyond the shared
//! record): hidden files listed, `0zero`, `Upper.txt`, `_under.md`,
//! `a/b/c.txt`, `lower.txt` in that order (byte order), a nested
//! `SKILL.md` or `skill.md` left out; a CRLF body arrives with LF line ends
//! (the reader's). Not recorded, so chosen here: Copilot's binary says `...and more files (listing
//! truncated)` past some count that no recorded skill reached, so every
//! file is listed up to [`MAX_FILES`].

use std::path::{Path, PathBuf};

/// The most files [`related_files`] lists.
pub const MAX_FILES: usize = 10_000;

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
/// (absolute), with `files` ([`related_files`]) and `body` (the text after
/// the frontmatter's closing line, leading blank lines removed).
pub fn render(name: &str, dir: &str, files: &[String], body: &str) -> String {
    let mut out =
        format!("<skill-context name=\"{name}\">\nBase directory for this skill: {dir}\n\n");
    if !files.is_empty() {
        out.push_str("Related files (use view tool to read):\n");
        for f in files {
            out.push_str("  - ");
            out.push_str(f);
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str(body);
    out.push_str("\n</skill-context>");
    out
}

/// Every file below the skill folder `dir` but those named `SKILL.md` in
/// any case (a nested `sub/SKILL.md` and `x/skill.md` are left out,
/// `sub/other.txt` listed: recorded with Copilot CLI 1.0.102 here), as
/// absolute paths (`dir` joined with the relative path), sorted; at most
/// [`MAX_FILES`], no folder deeper than [`MAX_DEPTH`]. Links are followed
/// to what they name; unreadable folders are skipped.
pub fn related_files(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    walk(dir, 0, &mut files);
    files.retain(|f| {
        !f.file_name()
            .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("SKILL.md"))
    });
    let mut files: Vec<String> = files
        .into_iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

fn walk(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.flatten() {
        if files.len() >= MAX_FILES {
            return;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            if depth < MAX_DEPTH {
                walk(&path, depth + 1, files);
            }
        } else if meta.is_file() {
            files.push(path);
        }
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
        assert_eq!(
            render("args-demo", dir, &files, "# Args\n$ARGUMENTS\n"),
            "<skill-context name=\"args-demo\">\nBase directory for this skill: /p/.github/skills/args-demo\n\nRelated files (use view tool to read):\n  - /p/.github/skills/args-demo/assets/logo.txt\n  - /p/.github/skills/args-demo/scripts/run.sh\n\n# Args\n$ARGUMENTS\n\n</skill-context>"
        );
        assert_eq!(
            render("ws-body", "/d", &[], "# Title\n\nText.\n\n\n"),
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
        let got = related_files(&dir);
        let want: Vec<String> = ["assets/logo.txt", "b.md", "scripts/run.sh"]
            .iter()
            .map(|f| dir.join(f).to_string_lossy().into_owned())
            .collect();
        assert_eq!(got, want);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
