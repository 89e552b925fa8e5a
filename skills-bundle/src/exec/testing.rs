//! Test helper: a one-skill bundle built in memory, loaded from a pack the
//! way an agent loads one.

use crate::Bundle;
use crate::compiler::embed::{Plan, PlanSkill, compress};
use crate::compiler::pack::{manifest, write_pack};
use crate::compiler::zipwrite::DosTime;
use crate::pack::Trust;

/// A bundle with one skill named `name`: a `SKILL.md` plus `files`
/// (path, contents, executable).
pub fn bundle(name: &str, files: &[(&str, &[u8], bool)]) -> Bundle {
    let md = format!("---\nname: {name}\ndescription: Use when testing.\n---\nBody\n");
    let mut planned = vec![compress("SKILL.md", md.clone().into_bytes(), false)];
    planned.extend(
        files
            .iter()
            .map(|(path, bytes, exec)| compress(path, bytes.to_vec(), *exec)),
    );
    planned.sort_by(|a, b| a.path.cmp(&b.path));
    let skill_md = planned
        .iter()
        .position(|f| f.path == "SKILL.md")
        .expect("SKILL.md is planned");
    let mut plan = Plan {
        skills: vec![PlanSkill {
            name: name.into(),
            description: "Use when testing.".into(),
            files: planned,
            skill_md: u32::try_from(skill_md).expect("few files"),
            body: (
                u32::try_from(md.len() - 5).expect("short"),
                u32::try_from(md.len()).expect("short"),
            ),
            ..PlanSkill::default()
        }],
        ..Plan::default()
    };
    plan.digest = manifest(&plan).digest;
    let bytes = write_pack(&plan, DosTime::EPOCH).expect("packs");
    Bundle::from_pack(&bytes, Trust::Unsigned).expect("loads")
}
