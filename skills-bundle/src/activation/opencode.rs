//! OpenCode's activation: the answer of its `skill` tool, as OpenCode
//! 1.18.33 gives it (observed behaviour of that version).
//!
//! ```text
//! <skill_content name="NAME">
//! # Skill: NAME
//!
//! BODY
//!
//! Base directory for this skill: DIR
//! Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
//! Note: file list is sampled.
//!
//! <skill_files>
//! <file>DIR/scripts/run.sh</file>
//! </skill_files>
//! </skill_content>
//! ```
//!
//! The body is the text after the frontmatter, trimmed (JavaScript's
//! `trim`), with nothing substituted: `$ARGUMENTS`, `${CLAUDE_SKILL_DIR}`
//! and `` !`cmd` `` arrive as written. Nothing is escaped. The directory is
//! the one holding `SKILL.md`, absolute.
//!
//! The file list ([`sample_files`]) is what ripgrep lists in the skill's
//! folder (`--files --hidden`, links not followed): every file at any
//! depth, hidden ones included, but none whose path holds `SKILL.md`, and
//! at most [`FILE_SAMPLE`] of them, each as an absolute path; none gives an
//! empty line between the tags. OpenCode takes the first ten in the order
//! ripgrep prints them, unsorted: its walker keeps a stack, so the walk is
//! depth first and each folder's entries come out in the reverse of the
//! file system's directory order (the order `readdir` gives: hash order on
//! ext4, creation order on tmpfs). [`sample_files`] reads each folder in
//! that order and reverses it, so its list is a *prediction* for the
//! machine it runs on, with the same folder on the same file system.
//! Ripgrep walks with several threads, which can interleave folders
//! between runs of the real program: on a 2-core machine OpenCode 1.18.33
//! listed 19 of 35 fresh skill folders (ext4 and tmpfs) exactly as
//! predicted, 24 with the same ten files, and none in name order. Ignore files
//! (`.gitignore`, `.ignore`), which ripgrep obeys, are not read.

use std::path::{Path, PathBuf};

use skills_core::catalog::claude_code::is_js_whitespace;

/// The most files OpenCode lists.
pub const FILE_SAMPLE: usize = 10;

/// The most folder entries [`sample_files`] looks at before it stops.
pub const MAX_ENTRIES: usize = 10_000;

/// The deepest folder [`sample_files`] enters, below the skill's.
pub const MAX_DEPTH: usize = 64;

/// The tool's answer for the skill `name` whose body (the text after its
/// frontmatter, untrimmed) is `body`, in the folder `dir` (absolute),
/// listing `files` (absolute paths, see [`sample_files`]).
pub fn render(name: &str, body: &str, dir: &str, files: &[String]) -> String {
    let files: Vec<String> = files.iter().map(|f| format!("<file>{f}</file>")).collect();
    [
        format!("<skill_content name=\"{name}\">"),
        format!("# Skill: {name}"),
        String::new(),
        body.trim_matches(is_js_whitespace).to_owned(),
        String::new(),
        format!("Base directory for this skill: {dir}"),
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.".into(),
        "Note: file list is sampled.".into(),
        String::new(),
        "<skill_files>".into(),
        files.join("\n"),
        "</skill_files>".into(),
        "</skill_content>".into(),
    ]
    .join("\n")
}

/// The tool's answer for a name it does not know: `names` are every
/// skill's name (listed or not), in the order given (OpenCode sorts them
/// by UTF-16 code units).
pub fn not_found(name: &str, names: &[&str]) -> String {
    let available = if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    };
    format!("Skill \"{name}\" not found. Available skills: {available}")
}

/// The files of the skill folder `dir` OpenCode lists (see the module):
/// absolute paths, at most [`FILE_SAMPLE`], depth first, each folder's
/// entries in the reverse of its directory order. Folders that cannot be read are skipped; the walk stops after
/// [`MAX_ENTRIES`] entries and enters no folder deeper than [`MAX_DEPTH`].
pub fn sample_files(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut seen = 0;
    walk(dir, "", 0, &mut files, &mut seen);
    files
}

fn walk(dir: &Path, prefix: &str, depth: usize, files: &mut Vec<String>, seen: &mut usize) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries = Vec::new();
    for entry in read.flatten() {
        *seen += 1;
        if *seen > MAX_ENTRIES {
            break;
        }
        entries.push(entry);
    }
    // Ripgrep pushes a folder's entries on its stack in directory order
    // and takes them off the top.
    for entry in entries.into_iter().rev() {
        if files.len() >= FILE_SAMPLE {
            return;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        let relative = format!("{prefix}{name}");
        let path: PathBuf = entry.path();
        if kind.is_dir() {
            if name != ".git" && depth < MAX_DEPTH {
                walk(&path, &format!("{relative}/"), depth + 1, files, seen);
            }
        } else if kind.is_file() && !relative.contains("SKILL.md") {
            files.push(path.to_string_lossy().into_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_answers() {
        assert_eq!(
            render(
                "other-name",
                "Body of mismatch-dir.\n",
                "/p/.opencode/skills/mismatch-dir",
                &[]
            ),
            "<skill_content name=\"other-name\">\n# Skill: other-name\n\nBody of mismatch-dir.\n\nBase directory for this skill: /p/.opencode/skills/mismatch-dir\nRelative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\nNote: file list is sampled.\n\n<skill_files>\n\n</skill_files>\n</skill_content>"
        );
        let files = ["/d/scripts/run.sh".to_owned(), "/d/a b.txt".to_owned()];
        assert!(
            render("n", "\u{FEFF} $ARGUMENTS\r\n\r\n", "/d", &files)
                .contains("# Skill: n\n\n$ARGUMENTS\n\nBase directory for this skill: /d\n")
        );
        assert!(render("n", "", "/d", &files).ends_with(
            "<skill_files>\n<file>/d/scripts/run.sh</file>\n<file>/d/a b.txt</file>\n</skill_files>\n</skill_content>"
        ));
        assert_eq!(
            not_found("nope", &["-a", "My Skill", "b"]),
            "Skill \"nope\" not found. Available skills: -a, My Skill, b"
        );
    }

    #[test]
    fn the_sample() -> std::io::Result<()> {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path();
        for f in [
            "SKILL.md",
            "scripts/run.sh",
            "references/ref.md",
            "assets/logo.txt",
            ".hidden",
            "sub/SKILL.md",
            "SKILL.md.bak",
            ".git/config",
        ] {
            let path = dir.join(f);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, "x\n")?;
        }
        let d = dir.to_string_lossy();
        // Depth first, each folder's entries in the reverse of the order
        // the file system lists them.
        let reversed = |folder: &Path| -> std::io::Result<Vec<String>> {
            let mut names: Vec<String> = std::fs::read_dir(folder)?
                .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect::<Result<_, _>>()?;
            names.reverse();
            Ok(names)
        };
        let mut want = Vec::new();
        for top in reversed(dir)? {
            match top.as_str() {
                "SKILL.md" | "SKILL.md.bak" | "sub" | ".git" => {}
                ".hidden" => want.push(format!("{d}/.hidden")),
                folder => {
                    for inner in reversed(&dir.join(folder))? {
                        want.push(format!("{d}/{folder}/{inner}"));
                    }
                }
            }
        }
        assert_eq!(sample_files(dir), want);
        assert_eq!(want.len(), 4);
        for i in 0..12 {
            std::fs::write(dir.join(format!("f{i:02}")), "x")?;
        }
        let sample = sample_files(dir);
        assert_eq!(sample.len(), FILE_SAMPLE);
        let tops = reversed(dir)?;
        let first = tops
            .iter()
            .find(|n| n.starts_with('f'))
            .map(|n| format!("{d}/{n}"));
        assert_eq!(sample.iter().find(|p| p.contains("/f")), first.as_ref());
        assert!(sample_files(&dir.join("missing")).is_empty());
        Ok(())
    }
}
