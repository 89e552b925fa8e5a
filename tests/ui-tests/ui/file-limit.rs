//! A skill over a limit of its files: the error names the macro option
//! that raises it, not a command-line flag.

use skills_bundle::{Bundle, skills_bundle};

static SKILLS: Bundle = skills_bundle!("ui/skills/valid", max_files = 2);

fn main() {
    let _ = SKILLS.get("greeter");
}
