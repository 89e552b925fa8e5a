//! The verify stage's first half: fetched skills validated by the compiler
//! under a profile and planned as `skb pack` would plan them, so that an
//! installed skill is byte for byte what a pack of it holds.

use skills_bundle::zip::Limits;
use skills_compiler::embed::{self, Plan};
use skills_compiler::{self as compiler, Checked, Options, Profile};

use crate::error::{Error, ErrorKind, Result, Stage};
use crate::input::Inputs;
use crate::observe::{Event, Observer};

/// How fetched skills are validated and read.
#[derive(Debug, Clone)]
pub struct Validation {
    /// The compiler's options: the profile, lints, discovery, file limits.
    pub options: Options,
    /// Warnings refuse a skill too.
    pub deny_warnings: bool,
    /// Files left out (globs relative to each root).
    pub exclude: Vec<String>,
    /// Bounds on the archives extracted.
    pub limits: Limits,
}

impl Default for Validation {
    fn default() -> Validation {
        Validation {
            options: Options::default(),
            deny_warnings: false,
            exclude: Vec::new(),
            limits: Limits::DEFAULT,
        }
    }
}

impl Validation {
    /// The profile the lock records for a skill validated this way (`None`
    /// for `spec`, the default).
    pub fn locked_profile(&self) -> Option<String> {
        match self.options.profile {
            Profile::Spec => None,
            p => Some(p.as_str().to_string()),
        }
    }

    /// These options with the profile a lock entry records (`spec` when
    /// none).
    pub fn with_locked_profile(&self, profile: Option<&str>) -> Result<Validation> {
        let mut v = self.clone();
        v.options.profile = match profile {
            None => Profile::Spec,
            Some(name) => Profile::from_name(name).ok_or_else(|| {
                Error::refused(
                    Stage::Lock,
                    format!("the lock names profile `{name}`, which this skb does not know"),
                )
            })?,
        };
        Ok(v)
    }
}

/// Validates the roots of `inputs` and plans their skills; the verdict goes
/// to `observer` first, and an error (or, with `deny_warnings`, a warning)
/// is [`ErrorKind::Invalid`].
pub fn plan(inputs: &Inputs, validation: &Validation, observer: &dyn Observer) -> Result<Plan> {
    let started = std::time::Instant::now();
    let checked = compiler::check(&inputs.roots, &validation.options);
    let (errors, warnings) = count(&checked);
    let failed = errors > 0 || (validation.deny_warnings && warnings > 0);
    if errors + warnings > 0 {
        observer.event(Event::Checked {
            checked: &checked,
            inputs,
            failed,
            elapsed: started.elapsed(),
        });
    }
    if failed {
        return Err(Error::invalid(Stage::Verify));
    }
    // Installed files are written whole: no time goes into compressing them.
    let plan =
        embed::plan_uncompressed(&checked, &inputs.roots, &validation.exclude).map_err(|e| {
            Error::new(
                Stage::Verify,
                ErrorKind::Io,
                format!("{}: {}", inputs.label(&e.path).display(), e.message),
            )
        })?;
    if plan.skills.is_empty() {
        return Err(Error::new(
            Stage::Verify,
            ErrorKind::NotFound,
            "no skill found under the paths given",
        ));
    }
    Ok(plan)
}

/// Errors and warnings of a verdict.
fn count(checked: &Checked) -> (usize, usize) {
    let all = checked
        .roots
        .iter()
        .flat_map(|(_, d)| d.iter())
        .chain(checked.skills.iter().flat_map(|s| s.diagnostics.iter()));
    let mut errors = 0;
    let mut warnings = 0;
    for d in all {
        if d.is_error() {
            errors += 1;
        } else {
            warnings += 1;
        }
    }
    (errors, warnings)
}
