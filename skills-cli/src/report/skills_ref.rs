//! `--format skills-ref`: exactly what `skills-ref validate` 0.1.1 prints.
//!
//! For one skill directory the reference prints `Valid skill: <path>` on
//! stdout and exits 0, or `Validation failed for <path>:` and one
//! `  - <message>` line per error on stderr and exits 1. The path is the
//! argument as Python's `pathlib` normalises it. A problem met while reading
//! `SKILL.md` or its YAML stops the reference, so only the first such message
//! is printed; otherwise every message the reference has for the skill's
//! diagnostics is printed in the order its rules run.
//!
//! Where the reference crashes with a Python traceback (a `SKILL.md` that is
//! not UTF-8, or is a directory) this prints our own message in its format.

use std::io::{self, Write};
use std::path::Path;

use skills_compiler::CheckedSkill;

/// Prints the reference's output for one skill; returns whether it was valid.
pub fn render(
    out: &mut dyn Write,
    err: &mut dyn Write,
    arg: &Path,
    skill: &CheckedSkill,
) -> io::Result<bool> {
    let shown = python_path(arg);
    let messages = skill.reference_messages();
    if messages.is_empty() {
        writeln!(out, "Valid skill: {shown}")?;
        Ok(true)
    } else {
        writeln!(err, "Validation failed for {shown}:")?;
        for m in messages {
            writeln!(err, "  - {m}")?;
        }
        Ok(false)
    }
}

/// `str(pathlib.PurePosixPath(p))`: repeated and trailing slashes and `.`
/// components dropped, `..` kept, a leading `//` kept.
pub fn python_path(p: &Path) -> String {
    let s = p.to_string_lossy();
    let root = if s.starts_with("//") && !s.starts_with("///") {
        "//"
    } else if s.starts_with('/') {
        "/"
    } else {
        ""
    };
    let parts: Vec<&str> = s
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    match (root, parts.is_empty()) {
        ("", true) => ".".to_string(),
        (r, _) => format!("{r}{}", parts.join("/")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_normalise_like_pathlib() {
        for (given, shown) in [
            ("./good/", "good"),
            (".//good/./", "good"),
            (".", "."),
            ("./", "."),
            ("a/../b", "a/../b"),
            ("/x//y/", "/x/y"),
            ("//x", "//x"),
            ("///x", "/x"),
        ] {
            assert_eq!(python_path(Path::new(given)), shown, "{given}");
        }
    }
}
