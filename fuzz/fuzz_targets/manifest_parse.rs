//! Fuzzes the pack manifest reader, `skills_bundle::pack::Manifest::parse`,
//! on its own: the JSON parser, the strict shape checks and the digest
//! recomputation, without a zip around them (`pack_open` reaches them only
//! through a valid archive).
//!
//! Any input must be refused or give a manifest that the writer writes back
//! in the one canonical layout, which parses to the same manifest; its
//! digest must be the one its content gives, so a manifest that parses
//! binds every field it holds. A mutation almost always breaks the digest,
//! so an input refused for that alone is parsed once more with the digest
//! the refusal names: the checks after the digest's are fuzzed too.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_bundle::pack::Manifest;

/// What a refusal for a wrong digest says before the right one.
const COMPUTED: &str = "whose digest is ";

fn check(text: &str) {
    let manifest = match Manifest::parse(text) {
        Ok(manifest) => manifest,
        Err(e) => {
            let Some((_, computed)) = e.split_once(COMPUTED) else {
                return;
            };
            let Some(declared) = text
                .split_once("\"digest\": \"")
                .and_then(|(_, rest)| rest.get(..64))
            else {
                return;
            };
            if declared == computed {
                return;
            }
            match Manifest::parse(&text.replacen(declared, computed, 1)) {
                Ok(manifest) => manifest,
                Err(_) => return,
            }
        }
    };
    let written = manifest.to_json();
    assert_eq!(
        Manifest::parse(&written).as_ref(),
        Ok(&manifest),
        "{written}"
    );
    let rebuilt = Manifest::new(manifest.tool.clone(), manifest.skills.clone());
    assert_eq!(rebuilt, manifest);
    assert_eq!(rebuilt.to_json(), written);
    let entries = manifest.entries();
    assert!(entries.windows(2).all(|w| w[0].0 < w[1].0), "{written}");
}

fuzz_target!(|bytes: &[u8]| {
    if let Ok(text) = std::str::from_utf8(bytes) {
        check(text);
    }
});
