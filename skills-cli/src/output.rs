//! Writing a command's result to standard output, and its refusal or
//! warnings to standard error: [`print()`] writes the bytes it is given (a
//! client's text, byte for byte); [`fail`] and [`warn`] escape control and
//! invisible characters ([`shown`], the one escaping of terminal text), so
//! that a file name or a skill's text cannot move the cursor, recolour the
//! terminal or hide what is printed, whichever client a command speaks for.

use std::io::{self, Write};

use skills_compiler::render::shown;

use crate::Outcome;

/// Prints a catalog and a newline; nothing at all for an empty one.
pub fn print_catalog(catalog: &str) -> io::Result<Outcome> {
    if catalog.is_empty() {
        return Ok(Outcome::Success);
    }
    print(catalog.as_bytes(), true)
}

/// Writes `bytes` (and a newline when asked) to standard output.
pub fn print(bytes: &[u8], newline: bool) -> io::Result<Outcome> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    if newline {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(Outcome::Success)
}

/// Prints a client's text as it is, with no newline added.
pub fn print_text(text: &str) -> io::Result<Outcome> {
    print(text.as_bytes(), false)
}

/// Prints `skb: <message>` on standard error, escaped: the command could
/// not do what was asked ([`Outcome::Invalid`]).
pub fn fail(message: &str) -> io::Result<Outcome> {
    eprintln!("skb: {}", shown(message));
    Ok(Outcome::Invalid)
}

/// Prints a warning line (`line` says `warning: ...` itself) on standard
/// error, escaped.
pub fn warn(line: &str) {
    eprintln!("{}", shown(line));
}
