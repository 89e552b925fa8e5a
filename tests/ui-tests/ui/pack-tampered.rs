//! One byte of a file changed after signing: the signature no longer matches.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(
    pack = "ui/packs/tampered.skillpack",
    pubkey = "ui/packs/test.pub",
);

fn main() {
    let _ = SKILLS.len();
}
