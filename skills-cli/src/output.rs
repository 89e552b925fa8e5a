//! Writing a command's result to standard output.

use std::io::{self, Write};

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
