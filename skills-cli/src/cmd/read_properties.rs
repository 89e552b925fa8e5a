//! `skb read-properties` and `skb to-prompt`: the reference CLI's
//! output, byte for byte.
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

use skills_compiler::properties::{self, Properties, PropertiesError};

use crate::Outcome;
use crate::args::{ReadPropertiesArgs, ToPromptArgs};

/// Runs `skb read-properties`.
pub fn read_properties(args: &ReadPropertiesArgs) -> io::Result<Outcome> {
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

/// Runs `skb to-prompt`.
pub fn to_prompt(args: &ToPromptArgs) -> io::Result<Outcome> {
    const USAGE: &str = "to-prompt [OPTIONS] SKILL_PATHS...";
    if args.skill_paths.is_empty() {
        return usage(USAGE, "Missing argument 'SKILL_PATHS...'.");
    }
    if let Some(missing) = args.skill_paths.iter().find(|p| !exists(p)) {
        return usage(
            USAGE,
            &format!(
                "Invalid value for 'SKILL_PATHS...': Path '{}' does not exist.",
                missing.display()
            ),
        );
    }
    let mut read: Vec<Properties> = Vec::with_capacity(args.skill_paths.len());
    for path in &args.skill_paths {
        let dir = skill_dir(path);
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        match properties::read_properties(&dir) {
            Ok(props) => read.push(props),
            Err(e) => return error(&e),
        }
    }
    let block = properties::to_prompt(read.iter().map(|p| {
        (
            p.name.as_str(),
            p.description.as_str(),
            p.skill_md.as_path(),
        )
    }));
    let mut out = io::stdout().lock();
    writeln!(out, "{block}")?;
    out.flush()?;
    Ok(Outcome::Success)
}

/// click's `exists=True`: the path exists (a dangling link does not).
fn exists(path: &Path) -> bool {
    path.exists()
}

/// A `SKILL.md` file given directly means its directory.
fn skill_dir(path: &Path) -> PathBuf {
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

fn error(e: &PropertiesError) -> io::Result<Outcome> {
    let mut err = io::stderr().lock();
    writeln!(err, "Error: {e}")?;
    Ok(Outcome::Invalid)
}

fn usage(usage: &str, message: &str) -> io::Result<Outcome> {
    let command = usage.split(' ').next().unwrap_or_default();
    let mut err = io::stderr().lock();
    writeln!(
        err,
        "Usage: skills {usage}\nTry 'skills {command} --help' for help.\n\nError: {message}"
    )?;
    Ok(Outcome::Usage)
}
