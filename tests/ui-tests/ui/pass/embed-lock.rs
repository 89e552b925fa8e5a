//! Skills embedded from `skb.lock`: the installed folders it names, checked
//! against it file by file, give the same skills and digest as the folder
//! they were installed from.

#![deny(warnings)]

use skills_bundle::{Bundle, skills_bundle};

static LOCKED: Bundle = skills_bundle!(lock = "ui/skills/locked/skb.lock");
static FROM_DIR: Bundle = skills_bundle!("ui/skills/valid");

fn main() {
    assert_eq!(LOCKED.digest(), FROM_DIR.digest());
    assert_eq!(LOCKED.catalog(), FROM_DIR.catalog());
    assert!(LOCKED.get("greeter").is_some());
}
