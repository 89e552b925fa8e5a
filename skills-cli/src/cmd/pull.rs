//! `skb pull oci://… -o FILE`: a pack and its signature from a registry,
//! every blob checked against its digest, written through temporary files
//! renamed into place. Trust is `skb verify`'s (or `skb add`'s) business.

use std::io::{self, Write};

use skills_core::pack::signature::minisig_path;
use skills_supply::oci::{self, OciOptions, Reference};

use crate::Outcome;
use crate::args::PullArgs;
use skills_install::oci::oci_error;

/// Runs `skb pull`.
pub fn run(args: &PullArgs) -> io::Result<Outcome> {
    let reference = Reference::parse(&args.reference).map_err(oci_error)?;
    let pulled = oci::pull(&reference, &OciOptions::default()).map_err(oci_error)?;
    crate::cmd::pack::write_atomically(&args.output, &pulled.pack, pulled.signature.as_deref())?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "pulled {reference} into {} ({} bytes{})",
        args.output.display(),
        pulled.pack.len(),
        match &pulled.signature {
            Some(_) => format!(", signature in {}", minisig_path(&args.output).display()),
            None => ", unsigned".to_string(),
        }
    )?;
    writeln!(out, "digest {}", pulled.manifest_digest)?;
    Ok(Outcome::Success)
}
