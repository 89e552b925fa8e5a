//! What `inspect` and `diff` compare: skills with their metadata, and
//! files with sizes and hashes, read from a pack or from directories
//! (validated and compressed exactly as `skb pack` would).

use std::io;
use std::path::{Path, PathBuf};

use skills_bundle::pack::Trust;
use skills_bundle::zip::Limits;
use skills_compiler::embed::Plan;
use skills_compiler::pack::manifest_skill;
use skills_core::digest;

use crate::args::CheckArgs;
use crate::cmd::pack::checked_plan;
use skills_install::extract::{self, Opened};
use skills_install::input;

/// Skills and their files.
#[derive(Debug)]
pub struct Listing {
    /// `pack` or `directory`.
    pub kind: &'static str,
    /// The tool that wrote a pack.
    pub tool: Option<String>,
    /// The content digest.
    pub digest: String,
    /// Skills, sorted by name.
    pub skills: Vec<ListedSkill>,
}

/// One skill.
#[derive(Debug)]
pub struct ListedSkill {
    /// Qualified name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Every metadata field as the manifest writes it
    /// (`ManifestSkill::fields`), in its order.
    pub fields: Vec<(&'static str, String)>,
    /// Files, sorted by path.
    pub files: Vec<ListedFile>,
}

/// One file.
#[derive(Debug)]
pub struct ListedFile {
    /// Path inside the skill.
    pub path: String,
    /// Uncompressed size.
    pub size: u64,
    /// Compressed (stored) size.
    pub stored: u64,
    /// Whether executable.
    pub executable: bool,
    /// SHA-256, hex.
    pub sha256: String,
}

impl ListedSkill {
    /// Total uncompressed size.
    pub fn size(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }

    /// Total stored size.
    pub fn stored(&self) -> u64 {
        self.files.iter().map(|f| f.stored).sum()
    }
}

/// Lists one pack (when `paths` is a single pack file), or the skills
/// under `paths`. `None` when validation failed (already reported).
pub fn list(paths: &[PathBuf], check: &CheckArgs) -> io::Result<Option<Listing>> {
    if let [one] = paths
        && let Some(listing) = pack_listing(one, &check.limits.limits())?
    {
        return Ok(Some(listing));
    }
    Ok(checked_plan(paths, check)?.map(|plan| plan_listing(&plan)))
}

fn pack_listing(path: &Path, limits: &Limits) -> io::Result<Option<Listing>> {
    if !input::is_archive(path) {
        return Ok(None);
    }
    let bytes = extract::read_archive(path)?;
    let Opened::Pack(pack) = extract::open(path, &bytes, Trust::Unsigned, limits)? else {
        return Ok(None);
    };
    let skills = pack
        .bundle()
        .skills()
        .zip(&pack.manifest().skills)
        .map(|(s, listed)| ListedSkill {
            name: s.name().to_string(),
            description: s.description().to_string(),
            fields: listed.fields(),
            files: s
                .files()
                .map(|f| ListedFile {
                    path: f.path().to_string(),
                    size: f.size(),
                    stored: f.stored().0.len() as u64,
                    executable: f.is_executable(),
                    sha256: f.sha256_hex(),
                })
                .collect(),
        })
        .collect();
    Ok(Some(Listing {
        kind: "pack",
        tool: Some(pack.manifest().tool.clone()),
        digest: pack.manifest().digest.clone(),
        skills,
    }))
}

fn plan_listing(plan: &Plan) -> Listing {
    Listing {
        kind: "directory",
        tool: None,
        digest: plan.digest.clone(),
        skills: plan
            .skills
            .iter()
            .map(|s| ListedSkill {
                name: s.meta.name.to_string(),
                description: s.meta.description.to_string(),
                fields: manifest_skill(s).fields(),
                files: s
                    .files
                    .iter()
                    .map(|f| ListedFile {
                        path: f.meta.path.to_string(),
                        size: f.meta.size,
                        stored: f.stored.len() as u64,
                        executable: f.meta.executable,
                        sha256: digest::hex(&f.meta.sha256),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// `stored / size` as a percentage with one decimal.
pub fn ratio(stored: u64, size: u64) -> String {
    if size == 0 {
        return "-".to_string();
    }
    format!("{:.1} %", stored as f64 * 100.0 / size as f64)
}
