//! Writing packs: a [`Plan`] as a signed-ready, byte-reproducible zip.
//!
//! The same plan that `skills_bundle!` turns into statics is written here
//! as a skill pack (`skills_core::pack` documents the format, reads it back
//! and writes it: [`mod@write`]) or as Claude `.skill` archives. The bytes
//! depend only on the plan and the timestamp: entries sorted byte-wise,
//! compressed data reused from the plan (deflate at a fixed level), modes
//! 0644/0755, and the zip layout fixed by
//! [`zip::write`](skills_core::zip::write).

use super::embed::{Plan, PlanFile, PlanSkill};
use skills_core::pack::{Manifest, ManifestSkill, skill_dir, write};
use skills_core::zip::write::{DosTime, ZipWriter};

/// The tool that writes packs, as the manifest records it.
pub const TOOL: &str = concat!("skills ", env!("CARGO_PKG_VERSION"));

/// The manifest of a plan.
pub fn manifest(plan: &Plan) -> Manifest {
    Manifest::new(
        TOOL.to_string(),
        plan.skills.iter().map(manifest_skill).collect(),
    )
}

/// One skill of a plan as its manifest lists it.
pub fn manifest_skill(s: &PlanSkill) -> ManifestSkill {
    ManifestSkill {
        meta: s.meta.clone(),
        dir: skill_dir(&s.meta.name),
        files: s.files.iter().map(|f| f.meta.clone()).collect(),
    }
}

/// A skill pack holding every skill of `plan` ([`write::write`]).
pub fn write_pack(plan: &Plan, time: DosTime) -> Result<Vec<u8>, String> {
    let manifest = manifest(plan);
    if manifest.digest != plan.digest {
        return Err(format!(
            "internal error: the manifest's digest {} differs from the plan's {}",
            manifest.digest, plan.digest
        ));
    }
    let dirs: Vec<String> = plan
        .skills
        .iter()
        .map(|s| skill_dir(&s.meta.name))
        .collect();
    let files: Vec<(&str, &[PlanFile])> = dirs
        .iter()
        .zip(&plan.skills)
        .map(|(dir, s)| (dir.as_str(), s.files.as_slice()))
        .collect();
    write::write(&manifest, &files, time)
}

/// A Claude `.skill` archive for one skill: its files under a
/// `<skill-dir>/` wrapper, as Anthropic's `package_skill.py` lays them out
/// (the files `package_skill.py` leaves out were already left out when the
/// skill was read), with the determinism of a pack. Returns the archive and
/// the wrapper's name, which is the skill's own (its directory's) name.
pub fn write_skill_zip(skill: &PlanSkill, time: DosTime) -> Result<(Vec<u8>, String), String> {
    let name = &skill.meta.name;
    let dir = name.rsplit(':').next().unwrap_or(name).to_string();
    let mut zip = ZipWriter::new(time);
    // Sorted by path already; the wrapper keeps the order.
    for f in &skill.files {
        write::add(&mut zip, &format!("{dir}/{}", f.meta.path), f)?;
    }
    Ok((zip.finish(), dir))
}
