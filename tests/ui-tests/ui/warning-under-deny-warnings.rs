//! A skill warning with the default `warnings = "warn"` is a compiler warning,
//! so `#![deny(warnings)]` (or `RUSTFLAGS=-Dwarnings`) turns it into an error.

#![deny(warnings)]

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/warning-under-deny-warnings");

fn main() {
    let _ = SKILLS.get("notes");
}
