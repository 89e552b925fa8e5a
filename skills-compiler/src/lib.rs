//! The compiler behind `skills_bundle!` and the `skb` CLI: discovery,
//! `SKILL.md` parsing, every validation rule, diagnostics and their
//! rendering, the embed plan, and pack writing.
//!
//! Plain data in, plain data out: no proc-macro types, no terminal output.
//! The `skb` CLI renders the [`Diagnostic`]s it returns; the `skills_bundle!`
//! macro turns them into compile errors and warnings. There is exactly one
//! implementation of each rule, here.
//!
//! This is an ordinary library, tested as one, but it has no stable API of
//! its own: it is versioned with `skills-bundle` and `skb`, which are
//! what users depend on, and may change in any release (as
//! `sqlx-macros-core` does for `sqlx`).
//!
//! ```no_run
//! use skills_compiler::{check, Options};
//! let result = check(&["skills".into()], &Options::default());
//! for skill in &result.skills {
//!     for d in &skill.diagnostics {
//!         eprintln!("{d}");
//!     }
//! }
//! ```

pub mod client;
pub mod diag;
pub mod discover;
pub mod duplicates;
pub mod embed;
pub mod files;
pub mod frontmatter;
pub mod libyaml_bound;
pub mod pack;
pub mod parallel;
pub mod profile;
pub mod properties;
pub mod rederive;
pub mod render;
pub mod skill;
pub mod source;
pub mod yaml;
pub mod yaml_json;

mod any_program;
mod knobs;
mod lints;
mod pyunicode;
mod rules;
mod yaml11;

use std::path::{Path, PathBuf};

pub use diag::{Code, Diagnostic, Label, Severity};
pub use discover::{DiscoveryOptions, FoundSkill, Origin, UserFolders};
pub use files::{FileLimits, SkillFile};
pub use knobs::{Knobs, Limit};
pub use profile::Profile;
pub use rules::Fields;
pub use skill::{CheckedSkill, check_skill};
pub use source::{LineCol, Source};

/// Everything that decides what the compiler accepts.
#[derive(Debug, Clone)]
pub struct Options {
    /// Which rules, and how severe.
    pub profile: Profile,
    /// Limits of the directory walk.
    pub discovery: DiscoveryOptions,
    /// Limits on one skill's files.
    pub files: FileLimits,
    /// Whether to run the checks beyond the reference (`SK3xx`).
    pub lints: bool,
    /// Worker threads; 0 means one per available core.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            profile: Profile::default(),
            discovery: DiscoveryOptions::default(),
            files: FileLimits::default(),
            lints: true,
            threads: 0,
        }
    }
}

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
/// the user's skills folders if [`DiscoveryOptions::user`] says so) and
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
    let mut skill = [check_skill(dir, None, options)];
    judge_by_client(&mut skill, options);
    let [skill] = skill;
    skill
}

/// The shared material beside the repository (`../shared`: the corpus of
/// real skills, the reference's golden cases), which the tests read. CI
/// checks it out; a test that needs it fails without it rather than pass
/// having checked nothing.
#[cfg(test)]
pub(crate) fn shared(rel: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(rel);
    assert!(
        path.exists(),
        "{} is missing: check out the shared material beside the repository",
        path.display()
    );
    path
}
