//! `skb unpack`: a pack or archive into a new directory, all or nothing.
//!
//! A pack is opened with every check `skb verify` makes (the signature
//! too, when a key is given), and each file is hash-checked as it is
//! written; any other zip goes through the same structural checks and each
//! entry's CRC-32. Everything is written into a fresh hidden directory
//! beside the target, validated there as `skb validate` would (under
//! `--profile`), and renamed into place only when it holds skills and none
//! has an error: an archive without a skill, or with an invalid one, leaves
//! nothing behind but the diagnostics.

use std::io::{self, Write};

use skills_bundle::pack::Trust;
use skills_compiler::{Options, render};

use crate::Outcome;
use crate::args::{Color, UnpackArgs};
use crate::cmd::pack::check_inputs;
use crate::trust::Signed;
use skills_install::extract::{self, Opened, Staging};
use skills_install::input::Inputs;

/// Runs `skb unpack`.
pub fn run(args: &UnpackArgs) -> io::Result<Outcome> {
    let bytes = extract::read_archive(&args.pack)?;
    let signed = match &args.pubkey {
        Some(arg) => Some(Signed::load(arg, args.signature.as_deref(), &args.pack)?),
        None => None,
    };
    let trust = signed.as_ref().map_or(Trust::Unsigned, Signed::trust);
    let staging = Staging::new(&args.output)?;
    let count = match extract::open(&args.pack, &bytes, trust, &args.limits.limits())? {
        Opened::Pack(pack) => extract::write_pack(&pack, staging.dir())?,
        Opened::Zip(archive) => extract::write_zip(&bytes, &archive, staging.dir())?,
    };
    let options = Options {
        profile: args.profile.profile(),
        discovery: args.discovery.options(),
        files: args.skill_limits.file_limits(),
        ..Options::default()
    };
    let inputs = Inputs::extracted(staging.dir(), &args.pack);
    if check_inputs(&inputs, &options, false, Color::Auto)?.is_none() {
        // Dropped, the staging directory is removed.
        return Ok(Outcome::Invalid);
    }
    staging.commit()?;
    writeln!(
        io::stdout().lock(),
        "unpacked {} into {}",
        render::count(count as u64, "file"),
        args.output.display()
    )?;
    Ok(Outcome::Success)
}
