use skills_bundle::{Bundle, skills_bundle};

// An installed skill edited after `skb add`: the build names the lock, the
// folder and each file that differs.
static SKILLS: Bundle = skills_bundle!(lock = "ui/skills/lock-drift/skb.lock");

fn main() {
    let _ = &SKILLS;
}
