//! `skb read-properties` (and what `skb to-prompt` shares with it): the
//! reference CLI's output, byte for byte.
//!
//! Both take a skill directory or its `SKILL.md` (case-insensitively), as
//! `skills-ref` does. A path that does not exist gets click's usage error
//! (exit 2); a skill the reference cannot read gets `Error: <its message>`
//! on stderr (exit 1). `to-prompt` locates each `SKILL.md` through the
//! resolved directory, as the reference's `Path.resolve()` does. The
//! reference crashes with a Python traceback on a `SKILL.md` that is not
//! UTF-8 or is a directory; there we print `Error: ...` and exit 1 as well.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use skills_compiler::properties::{self, PropertiesError};

use crate::Outcome;
use crate::args::ReadPropertiesArgs;

/// Runs `skb read-properties`.
pub fn run(args: &ReadPropertiesArgs) -> io::Result<Outcome> {
    const USAGE: &str = "read-properties [OPTIONS] SKILL_PATH";
    let Some(path) = &args.skill_path else {
        return usage(USAGE, "Missing argument 'SKILL_PATH'.");
    };
    if !exists(path) {
        return usage(
            USAGE,
            &format!(
                "Invalid value for 'SKILL_PATH': Path '{}' does not exist.",
                path.display()
            ),
        );
    }
    match properties::read_properties(&skill_dir(path)) {
        Ok(props) => {
            let mut out = io::stdout().lock();
            writeln!(out, "{}", props.to_json())?;
            out.flush()?;
            Ok(Outcome::Success)
        }
        Err(e) => error(&e),
    }
}

/// click's `exists=True`: the path exists (a dangling link does not).
pub(super) fn exists(path: &Path) -> bool {
    path.exists()
}

/// A `SKILL.md` file given directly means its directory.
pub(super) fn skill_dir(path: &Path) -> PathBuf {
    let is_skill_md = path.is_file()
        && path
            .file_name()
            .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"));
    if !is_skill_md {
        return path.to_path_buf();
    }
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

pub(super) fn error(e: &PropertiesError) -> io::Result<Outcome> {
    let mut err = io::stderr().lock();
    writeln!(err, "Error: {e}")?;
    Ok(Outcome::Invalid)
}

pub(super) fn usage(usage: &str, message: &str) -> io::Result<Outcome> {
    let command = usage.split(' ').next().unwrap_or_default();
    let mut err = io::stderr().lock();
    writeln!(
        err,
        "Usage: skills {usage}\nTry 'skills {command} --help' for help.\n\nError: {message}"
    )?;
    Ok(Outcome::Usage)
}
