//! A signed pack embedded at compile time (signature, manifest and every
//! file's hash checked by the macro) gives the same skills, bytes and digest
//! as the directory it was packed from, compiled directly.

#![deny(warnings)]

use skills_bundle::{Bundle, skills_bundle};

static FROM_PACK: Bundle = skills_bundle!(
    pack = "ui/packs/greeter.skillpack",
    pubkey = "ui/packs/test.pub",
);
static FROM_DIR: Bundle = skills_bundle!("ui/skills/valid");
static UNSIGNED: Bundle = skills_bundle!(pack = "ui/packs/greeter.skillpack", unsigned = true);

fn main() {
    assert_eq!(FROM_PACK.digest(), FROM_DIR.digest());
    assert_eq!(UNSIGNED.digest(), FROM_DIR.digest());
    assert_eq!(FROM_PACK.catalog(), FROM_DIR.catalog());
    let a = FROM_PACK.get("greeter").expect("embedded");
    let b = FROM_DIR.get("greeter").expect("embedded");
    assert_eq!(a.description(), b.description());
    assert_eq!(a.license(), Some("MIT"));
    for (x, y) in a.files().zip(b.files()) {
        assert_eq!(x.path(), y.path());
        assert_eq!(x.bytes().expect("read"), y.bytes().expect("read"));
    }
    assert_eq!(
        a.activate("Ada").expect("activate"),
        b.activate("Ada").expect("activate")
    );
    // The base directory is the pack's: the skill's directory inside it.
    assert_eq!(a.source_dir(), "greeter");
}
