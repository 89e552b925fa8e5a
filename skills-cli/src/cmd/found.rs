//! What the client styles (`skb catalog --style`, `skb show --style`) start
//! from: the skills discovery finds, read from the folders as each client
//! reads them rather than from validated skills, and the warning for one
//! whose reading is not known.

use std::io;
use std::path::PathBuf;

use skills_compiler::{DiscoveryOptions, FoundSkill, discover, render};

/// Refuses an archive among `paths`: a client style shows skills as the
/// client reads them from their folders.
pub(crate) fn folders_only(paths: &[PathBuf]) -> io::Result<()> {
    match paths.iter().find(|p| skills_install::input::is_archive(p)) {
        Some(archive) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--style shows skills as a client reads them from their folders, and `{}` is an archive: unpack it first (`skb unpack`)",
                archive.display()
            ),
        )),
        None => Ok(()),
    }
}

/// The skills discovery finds under `paths`, its diagnostics printed on
/// stderr; `None` when one is an error (a limit reached).
pub(crate) fn discovered(paths: &[PathBuf], options: &DiscoveryOptions) -> Option<Vec<FoundSkill>> {
    let (found, reports) = discover::discover_all(paths, options);
    let mut failed = false;
    for d in reports.iter().flat_map(|(_, diags)| diags) {
        eprintln!("{}", render::shown(&d.to_string()));
        failed |= d.is_error();
    }
    (!failed).then_some(found)
}

/// The stderr line for a skill left out because what `client` does with it
/// is not known (it is past a bound of this tool), before it is escaped
/// (`output::warn`).
pub(crate) fn unknown_line(client: &str, path: &std::path::Path, why: &str) -> String {
    format!(
        "warning: left out {}: what {client} makes of it is not known: {why}",
        path.display()
    )
}
