//! Fuzzes what `skb add` reads from other people before anything is
//! fetched or trusted: a well-known index (`skills_supply::index::parse`),
//! Vercel's `skills-lock.json` (`vercel::parse`), a git source
//! (`git::GitSpec::parse`) and an OCI reference (`oci::Reference::parse`).
//! None may panic; a parsed git spec prints a form that parses back to it,
//! and so does a parsed reference.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_supply::{git::GitSpec, index, oci::Reference, vercel};

fuzz_target!(|bytes: &[u8]| {
    let _ = index::parse(bytes);
    let _ = vercel::parse(bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok(spec) = GitSpec::parse(text)
        && !spec.url.contains('@')
    {
        let shown = spec.to_string();
        assert_eq!(GitSpec::parse(&shown).as_ref().ok(), Some(&spec), "{shown}");
    }
    if let Ok(r) = Reference::parse(text) {
        let shown = r.to_string();
        assert_eq!(Reference::parse(&shown).as_ref().ok(), Some(&r), "{shown}");
    }
});
