//! The check of whole roots: discovery and the check of each skill found,
//! in parallel ([`check`]), then what needs all skills at once: the client's
//! reading of them as one listing (under a client profile) and duplicates.
//! [`check_dir`] is the same for one skill directory.

pub(crate) mod checked;
pub mod files;
pub(crate) mod knobs;
pub(crate) mod options;
pub mod parallel;
pub(crate) mod read;
pub mod skill;

use skills_core::client::Client;
use std::path::{Path, PathBuf};

use crate::checked::CheckedSkill;
use crate::client;
use crate::diag::Diagnostic;
use crate::discover::{self, FoundSkill};
use crate::duplicates;
use crate::options::Options;
use crate::read::Given;
use crate::skill::{check_skill, check_skill_given};

/// The result of checking some roots.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// Every skill found, in discovery order (roots in the order given).
    pub skills: Vec<CheckedSkill>,
    /// Problems that belong to a root rather than a skill, with that root.
    pub roots: Vec<(PathBuf, Vec<Diagnostic>)>,
}

impl Checked {
    /// Every diagnostic, roots first.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.roots
            .iter()
            .flat_map(|(_, d)| d.iter())
            .chain(self.skills.iter().flat_map(|s| s.diagnostics.iter()))
    }

    /// Whether nothing is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics().any(Diagnostic::is_error)
    }
}

/// Discovers the skills under `roots` (searched in the order given; then
/// the user's skills folders if [`DiscoveryOptions::user`](crate::DiscoveryOptions::user) says so) and
/// checks each of them, in parallel. Skills found twice are resolved and
/// reported as [`duplicates`] says, naming both paths.
pub fn check(roots: &[PathBuf], options: &Options) -> Checked {
    // Each skill is checked on a worker thread as soon as discovery finds
    // it, while discovery goes on.
    let ((found, mut root_diags), mut skills) = parallel::pipeline(
        options.threads,
        |emit| discover::discover_all_with(roots, &options.discovery, emit),
        |f: &FoundSkill| check_skill(&f.dir, f.plugin.clone(), options),
    );
    debug_assert_eq!(found.len(), skills.len());
    for (skill, f) in skills.iter_mut().zip(&found) {
        skill.origin = f.origin.clone();
    }
    for (_, diags) in &mut root_diags {
        for d in diags {
            d.severity = options.profile.severity(d.code);
        }
    }
    judge_by_client(&mut skills, options);
    duplicates::mark(&found, &mut skills, options.profile);
    if options.profile.client() == Some(Client::KimiCode) {
        root_diags.extend(client::kimi_code::loose::diagnostics(
            &found,
            options.profile,
        ));
    }
    Checked {
        skills,
        roots: root_diags,
    }
}

/// Under a client profile, rewrites each skill's diagnostics from the
/// client's reading of all of them as one listing.
fn judge_by_client(skills: &mut [CheckedSkill], options: &Options) {
    let Some(client) = options.profile.client() else {
        return;
    };
    let readings = client::readings(client, skills, options.threads);
    for (skill, reading) in skills.iter_mut().zip(readings) {
        if let Some(reading) = reading {
            client::diagnostics::apply(skill, client, &reading, options.profile);
        }
    }
}

/// Checks one skill directory with the reference validator's semantics
/// (and, under a client profile, as that client reads it).
pub fn check_dir(dir: &Path, options: &Options) -> CheckedSkill {
    check_dir_given(dir, options, None)
}

/// [`check_dir`] with the text of `SKILL.md` given (an editor's unsaved
/// buffer) instead of read from the disk: the rest of the skill folder
/// (its files, `agents/openai.yaml`) is the disk's.
pub fn check_dir_given(dir: &Path, options: &Options, given: Option<Given<'_>>) -> CheckedSkill {
    let mut skill = [check_skill_given(dir, None, options, given)];
    judge_by_client(&mut skill, options);
    let [skill] = skill;
    skill
}
