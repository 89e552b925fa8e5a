//! Limits set by the macro's options: the three files of `greeter` fit in
//! `max_files = 3`, one level of directories in `max_skill_depth = 1`.

#![deny(warnings)]

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!(
    "ui/skills/valid",
    max_files = 3,
    max_skill_depth = 1,
    max_skill_size = 1_000_000,
    max_depth = 2,
    max_dirs = 10,
);

fn main() {
    assert_eq!(SKILLS.get("greeter").expect("embedded").files().count(), 3);
}
