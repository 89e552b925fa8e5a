//! `skills unpack`: a pack or archive into a new directory, all or nothing.
//!
//! A pack is opened with every check `skills verify` makes (the signature
//! too, when a key is given), and each file is hash-checked as it is
//! written; any other zip goes through the same structural checks and each
//! entry's CRC-32. Everything is written into a fresh hidden directory
//! beside the target and renamed into place at the end.

use std::io::{self, Write};

use skills_bundle::pack::{Trust, signature};

use crate::args::UnpackArgs;
use crate::cmd::pack::minisig_path;
use crate::extract::{self, Opened, Staging};
use crate::{Outcome, sign};

/// Runs `skills unpack`.
pub fn run(args: &UnpackArgs) -> io::Result<Outcome> {
    let bytes = extract::read_bounded(&args.pack, extract::MAX_ARCHIVE)?;
    let key = match &args.pubkey {
        Some(arg) => Some(sign::load_public_key(arg).map_err(io::Error::other)?),
        None => None,
    };
    let sig_path = args
        .signature
        .clone()
        .unwrap_or_else(|| minisig_path(&args.pack));
    let sig_text = match &key {
        Some(_) => std::fs::read_to_string(&sig_path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("the signature `{}` cannot be read: {e}", sig_path.display()),
            )
        })?,
        None => String::new(),
    };
    let trust = match &key {
        Some(public_key) => Trust::Signed {
            public_key,
            signature: &sig_text,
        },
        None => Trust::Unsigned,
    };
    let staging = Staging::new(&args.output)?;
    let count = match extract::open(&args.pack, &bytes, trust)? {
        Opened::Pack(pack) => extract::write_pack(&pack, staging.dir())?,
        Opened::Zip(archive) => {
            if let Some(public_key) = &key {
                signature::verify(&bytes, public_key, &sig_text).map_err(|e| {
                    io::Error::new(io::ErrorKind::InvalidData, format!("signature: {e}"))
                })?;
            }
            extract::write_zip(&bytes, &archive, staging.dir())?
        }
    };
    staging.commit()?;
    writeln!(
        io::stdout().lock(),
        "unpacked {count} files into {}",
        args.output.display()
    )?;
    Ok(Outcome::Success)
}
