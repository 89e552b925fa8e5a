//! `skb keygen`: a minisign key pair for signing packs.

use std::io::{self, Write};

use skills_core::pack::sign;

use crate::Outcome;
use crate::args::KeygenArgs;
use crate::sign::{KeyError, new_password};

/// Runs `skb keygen`.
pub fn run(args: &KeygenArgs) -> io::Result<Outcome> {
    let failed = |e| io::Error::other(KeyError::Sign(e));
    sign::check_destinations(&args.pubkey, &args.seckey, args.force).map_err(failed)?;
    let password = if args.no_password {
        None
    } else {
        Some(new_password(&args.seckey).map_err(io::Error::other)?)
    };
    let id = sign::keygen(&args.pubkey, &args.seckey, password.as_deref(), args.force)
        .map_err(failed)?;
    let mut out = io::stdout().lock();
    writeln!(out, "key id {id}")?;
    writeln!(out, "public key: {}", args.pubkey.display())?;
    writeln!(
        out,
        "secret key: {}{}",
        args.seckey.display(),
        if password.is_some() {
            " (encrypted)"
        } else {
            " (not encrypted)"
        }
    )?;
    writeln!(
        out,
        "sign with `skb pack ... --sign {}`; verify with `skb verify PACK -p {}` or `minisign -Vm PACK -p {}`",
        args.seckey.display(),
        args.pubkey.display(),
        args.pubkey.display()
    )?;
    Ok(Outcome::Success)
}
