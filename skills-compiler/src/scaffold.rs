//! A new skill's folder (`skb init`): a `SKILL.md` whose name, description
//! (what it does, then when to use it) and scoped `allowed-tools` rule every
//! modelled client accepts, and a `scripts/` example that rule allows,
//! written into a folder that did not exist, whole or not at all.
//!
//! The name must be one every client lists as written: the specification's
//! rule in ASCII (`a-z`, `0-9` and single inner hyphens, at most 64). The
//! folder is made with `create_dir`, which fails when anything is already
//! there, so nothing is ever overwritten; a failure after that removes what
//! was made.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::rules::is_spec_name;

/// One file of a new skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFile {
    /// Its path in the skill's folder, `/`-separated.
    pub path: &'static str,
    /// Its text.
    pub text: String,
    /// Whether it is a program (mode 0755 on Unix).
    pub executable: bool,
}

/// Why a skill could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum ScaffoldError {
    /// The name is not one every client lists as written.
    Name(String),
    /// Something is already at the skill's path.
    Exists(PathBuf),
    /// Writing failed (what was made is removed).
    Io(PathBuf, io::Error),
}

impl fmt::Display for ScaffoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScaffoldError::Name(name) => write!(
                f,
                "`{name}` is not a skill name every client takes: use 1-64 of `a-z`, `0-9` and `-`, \
                 with no hyphen first, last or twice in a row"
            ),
            ScaffoldError::Exists(path) => write!(
                f,
                "`{}` already exists; nothing was written (pick another name or folder)",
                path.display()
            ),
            ScaffoldError::Io(path, e) => {
                write!(f, "`{}`: {e}; nothing was left behind", path.display())
            }
        }
    }
}

impl std::error::Error for ScaffoldError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ScaffoldError::Io(_, e) => Some(e),
            _ => None,
        }
    }
}

/// Whether `name` is one every client lists as written.
pub fn is_portable_name(name: &str) -> bool {
    name.bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && is_spec_name(name)
}

/// The files of a new skill called `name`.
pub fn files(name: &str) -> Result<Vec<NewFile>, ScaffoldError> {
    if !is_portable_name(name) {
        return Err(ScaffoldError::Name(name.to_string()));
    }
    let words = name.replace('-', " ");
    let skill_md = format!(
        "---
name: {name}
description: Describe what {name} does and what it works on. Use when the user asks for {words}.
allowed-tools: Bash(python3 scripts/example.py:*)
---

# {words}

Replace this with what an agent should do when it uses the skill: the steps,
in order, and what to check before saying it is done.

## Steps

1. Run `python3 scripts/example.py --name <who>` from this skill's folder.
2. Report what it printed.

## Files

- `scripts/example.py`: an example program. The `allowed-tools` rule above
  lets an agent run it, and nothing else, without asking; name each program
  the skill runs the same way.
"
    );
    let example = "#!/usr/bin/env python3
\"\"\"An example program for the skill: prints a greeting.\"\"\"

import argparse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(\"--name\", default=\"world\", help=\"who to greet\")
    args = parser.parse_args()
    print(f\"Hello, {args.name}!\")


if __name__ == \"__main__\":
    main()
"
    .to_string();
    Ok(vec![
        NewFile {
            path: "SKILL.md",
            text: skill_md,
            executable: false,
        },
        NewFile {
            path: "scripts/example.py",
            text: example,
            executable: true,
        },
    ])
}

/// Makes the skill `name` in `parent` (`parent/name`), refusing when
/// anything is there; returns its folder.
pub fn create(parent: &Path, name: &str) -> Result<PathBuf, ScaffoldError> {
    let files = files(name)?;
    let dir = parent.join(name);
    match fs::create_dir(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            return Err(ScaffoldError::Exists(dir));
        }
        Err(e) => return Err(ScaffoldError::Io(dir, e)),
    }
    if let Err((path, e)) = write_all(&dir, &files) {
        // Only what this call made: the folder was new.
        let _ = fs::remove_dir_all(&dir);
        return Err(ScaffoldError::Io(path, e));
    }
    Ok(dir)
}

/// Makes a skill in the existing folder `dir`, named by the folder's name,
/// refusing when any of its files is already there; a failure removes
/// what this call wrote.
pub fn create_in(dir: &Path) -> Result<PathBuf, ScaffoldError> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| ScaffoldError::Name(dir.display().to_string()))?;
    let files = files(name)?;
    for file in &files {
        let path = dir.join(file.path);
        if fs::symlink_metadata(&path).is_ok() {
            return Err(ScaffoldError::Exists(path));
        }
    }
    // A `scripts` that is a link (or a file) is refused: writing through it
    // would put the example somewhere else.
    let scripts = dir.join("scripts");
    let made_scripts = match fs::symlink_metadata(&scripts) {
        Err(_) => true,
        Ok(m) if m.is_dir() => false,
        Ok(_) => return Err(ScaffoldError::Exists(scripts)),
    };
    if let Err((path, e)) = write_all(dir, &files) {
        for file in &files {
            let _ = fs::remove_file(dir.join(file.path));
        }
        if made_scripts {
            let _ = fs::remove_dir(&scripts);
        }
        return Err(ScaffoldError::Io(path, e));
    }
    Ok(dir.to_path_buf())
}

fn write_all(dir: &Path, files: &[NewFile]) -> Result<(), (PathBuf, io::Error)> {
    for file in files {
        let path = dir.join(file.path);
        let at = |e| (path.clone(), e);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(at)?;
        }
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt as _;
            options.mode(if file.executable { 0o755 } else { 0o644 });
        }
        let mut out = options.open(&path).map_err(at)?;
        out.write_all(file.text.as_bytes()).map_err(at)?;
        out.sync_all().map_err(at)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Options, Profile, check};

    #[test]
    fn a_new_skill_is_clean_under_every_profile() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = create(tmp.path(), "release-notes").expect("create");
        for profile in Profile::ALL {
            // Codex's reader is libyaml's, behind a feature this crate's
            // own tests may lack; `tests/cli/init.rs` runs every profile
            // through `skb`, which has it.
            if !cfg!(feature = "codex-yaml")
                && profile.client() == Some(crate::client::Client::Codex)
            {
                continue;
            }
            let checked = check(
                std::slice::from_ref(&dir),
                &Options {
                    profile,
                    ..Options::default()
                },
            );
            assert_eq!(checked.skills.len(), 1, "{profile:?}");
            let said: Vec<String> = checked.skills[0]
                .diagnostics
                .iter()
                .map(|d| format!("{:?} {}", d.code, d.message))
                .collect();
            assert!(said.is_empty(), "{profile:?}: {said:?}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = fs::metadata(dir.join("scripts/example.py"))
                .expect("script")
                .permissions()
                .mode();
            assert_eq!(mode & 0o111, 0o111);
        }
    }

    #[test]
    fn nothing_is_overwritten_and_a_bad_name_writes_nothing() {
        let tmp = tempfile::tempdir().expect("tempdir");
        fs::create_dir(tmp.path().join("taken")).expect("mkdir");
        fs::write(tmp.path().join("taken/notes.txt"), "mine").expect("write");
        let e = create(tmp.path(), "taken").expect_err("exists");
        assert!(matches!(e, ScaffoldError::Exists(_)), "{e}");
        assert_eq!(
            fs::read_to_string(tmp.path().join("taken/notes.txt")).expect("kept"),
            "mine"
        );
        fs::write(tmp.path().join("file"), "x").expect("write");
        assert!(matches!(
            create(tmp.path(), "file"),
            Err(ScaffoldError::Exists(_))
        ));
        for bad in [
            "",
            "Demo",
            "-x",
            "x-",
            "a--b",
            "ünï",
            "a b",
            "../x",
            &"a".repeat(65),
        ] {
            assert!(
                matches!(create(tmp.path(), bad), Err(ScaffoldError::Name(_))),
                "{bad:?}"
            );
        }
        // In place: the folder's name, and only when none of the files is
        // there.
        let here = tmp.path().join("weekly-report");
        fs::create_dir(&here).expect("mkdir");
        fs::write(here.join("notes.txt"), "mine").expect("write");
        create_in(&here).expect("in place");
        assert!(here.join("SKILL.md").is_file() && here.join("scripts/example.py").is_file());
        assert!(matches!(create_in(&here), Err(ScaffoldError::Exists(_))));
        #[cfg(unix)]
        {
            let linked = tmp.path().join("linked");
            fs::create_dir(&linked).expect("mkdir");
            std::os::unix::fs::symlink(tmp.path().join("taken"), linked.join("scripts"))
                .expect("link");
            assert!(matches!(create_in(&linked), Err(ScaffoldError::Exists(_))));
            assert!(!tmp.path().join("taken/example.py").exists());
            fs::remove_dir_all(&linked).expect("clean");
        }
        let bad = tmp.path().join("Bad_Name");
        fs::create_dir(&bad).expect("mkdir");
        assert!(matches!(create_in(&bad), Err(ScaffoldError::Name(_))));
        assert_eq!(fs::read_dir(&bad).expect("list").count(), 0);
        fs::remove_dir_all(&here).expect("clean");
        fs::remove_dir(&bad).expect("clean");
        let mut left: Vec<String> = fs::read_dir(tmp.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["file", "taken"]);
    }
}
