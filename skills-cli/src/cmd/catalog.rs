//! `skb catalog`: level 1 of the skills, the `<available_skills>` catalog an
//! agent built from the same sources gives its model (`--style <client>`
//! is `catalog_client`'s).

use std::io;

use crate::Outcome;
use crate::args::CatalogArgs;
use crate::bundle::bundle_of;
use crate::cmd::catalog_client;
use crate::output::print;

/// Runs `skb catalog`.
pub fn run(args: &CatalogArgs) -> io::Result<Outcome> {
    if let Some(client) = args.style.client() {
        return catalog_client::run(args, client);
    }
    let Some(bundle) = bundle_of(&args.roots(), &args.check)? else {
        return Ok(Outcome::Invalid);
    };
    if bundle.skills().len() == 0 {
        return Ok(Outcome::Success);
    }
    let block = match args.budget {
        Some(budget) => bundle.catalog_within(budget),
        None => bundle.catalog().into(),
    };
    print(block.as_bytes(), true)
}
