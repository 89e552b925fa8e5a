//! `skb push PACK oci://…`: a pack and its signature as one OCI artifact.

use std::io::{self, Write};

use skills_core::fsread;
use skills_core::pack::signature::{MAX_SIGNATURE_FILE, minisig_path};
use skills_supply::oci::{self, OciOptions, Reference};

use crate::Outcome;
use crate::args::PushArgs;
use skills_install::extract;
use skills_install::oci::oci_error;

/// Runs `skb push`.
pub fn run(args: &PushArgs) -> io::Result<Outcome> {
    let reference = Reference::parse(&args.reference).map_err(oci_error)?;
    let pack = extract::read_archive(&args.pack)?;
    // A pack that does not open is not pushed (nor its signature).
    skills_bundle::pack::Pack::open(&pack, skills_bundle::pack::Trust::Unsigned).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {}", args.pack.display(), extract::pack_message(&e)),
        )
    })?;
    let signature = if args.unsigned {
        None
    } else {
        let path = args
            .signature
            .clone()
            .unwrap_or_else(|| minisig_path(&args.pack));
        match fsread::read_file(&path, MAX_SIGNATURE_FILE) {
            Ok(b) => Some(String::from_utf8(b).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: not a minisign signature", path.display()),
                )
            })?),
            Err(e) if e.is_not_found() && args.signature.is_none() => None,
            Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidInput, e.to_string())),
        }
    };
    let digest = oci::push(
        &reference,
        &pack,
        signature.as_deref(),
        &OciOptions::default(),
    )
    .map_err(oci_error)?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "pushed {} ({} bytes{}) to {reference}",
        args.pack.display(),
        pack.len(),
        if signature.is_some() {
            ", signed"
        } else {
            ", unsigned"
        }
    )?;
    writeln!(out, "digest {digest}")?;
    Ok(Outcome::Success)
}
