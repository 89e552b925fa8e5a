//! `profile = "codex"` is the CLI's: Codex's reading of `SKILL.md` needs
//! libyaml, which the macro does not build.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", profile = "codex");

fn main() {
    let _ = SKILLS.get("greeter");
}
