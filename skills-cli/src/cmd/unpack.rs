//! `skills unpack`: a pack or archive into a new directory, all or nothing.
//!
//! A pack is opened with every check `skills verify` makes (the signature
//! too, when a key is given), and each file is hash-checked as it is
//! written; any other zip goes through the same structural checks and each
//! entry's CRC-32. Everything is written into a fresh hidden directory
//! beside the target and renamed into place at the end.

use std::io::{self, Write};

use skills_bundle::pack::Trust;

use crate::Outcome;
use crate::args::UnpackArgs;
use crate::extract::{self, Opened, Staging};
use crate::trust::Signed;

/// Runs `skills unpack`.
pub fn run(args: &UnpackArgs) -> io::Result<Outcome> {
    let bytes = extract::read_archive(&args.pack)?;
    let signed = match &args.pubkey {
        Some(arg) => Some(Signed::load(arg, args.signature.as_deref(), &args.pack)?),
        None => None,
    };
    let trust = signed.as_ref().map_or(Trust::Unsigned, Signed::trust);
    let staging = Staging::new(&args.output)?;
    let count = match extract::open(&args.pack, &bytes, trust)? {
        Opened::Pack(pack) => extract::write_pack(&pack, staging.dir())?,
        Opened::Zip(archive) => extract::write_zip(&bytes, &archive, staging.dir())?,
    };
    staging.commit()?;
    writeln!(
        io::stdout().lock(),
        "unpacked {count} files into {}",
        args.output.display()
    )?;
    Ok(Outcome::Success)
}
