//! `skb read`: level 3, one file of a skill, as an agent built from the same
//! sources reads it.

use std::io;

use skills_bundle::Bundle;

use crate::Outcome;
use crate::args::ReadArgs;
use crate::bundle::bundle_of;
use crate::output::print;

/// Runs `skb read`.
pub fn run(args: &ReadArgs) -> io::Result<Outcome> {
    let Some(bundle) = bundle_of(&args.from, &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    let Some(skill) = bundle.get(&args.name) else {
        return unknown(&bundle, &args.name);
    };
    match skill.read(&args.path) {
        Ok(bytes) => print(bytes, false),
        Err(e) => failed(&e),
    }
}

fn unknown(bundle: &Bundle, name: &str) -> io::Result<Outcome> {
    let names: Vec<&str> = bundle.skills().map(|s| s.name()).collect();
    eprintln!("skb: no skill `{name}`; available: {}", names.join(", "));
    Ok(Outcome::Invalid)
}

fn failed(e: &dyn std::error::Error) -> io::Result<Outcome> {
    eprintln!("skb: {e}");
    Ok(Outcome::Invalid)
}
