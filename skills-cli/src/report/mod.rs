//! Renderers of one validation result in every output format.
//!
//! Each renderer reads the same [`Checked`] list and [`Summary`]; none of them
//! decides what is an error (the compiler and its profile did that).

use std::path::Path;
use std::time::Duration;

use skills_compiler::client::differences::Differences;
use skills_compiler::{self as compiler, Diagnostic};

pub mod clients;
pub mod github;
pub mod human;
pub mod json;
mod ordered;
pub mod sarif;
pub mod scan;
pub mod skills_ref;

/// One skill directory (or one root that held no skill) and what was found in it.
#[derive(Debug)]
pub struct Checked<'a> {
    /// The skill directory, as discovered from the user's path.
    pub dir: &'a Path,
    /// The skill's name (`plugin:skill` inside a plugin), when the frontmatter had one.
    pub name: Option<&'a str>,
    /// Every diagnostic for this skill, in the order the rules ran.
    pub diagnostics: &'a [Diagnostic],
    /// Whether this is a skill, or a root's own problems (not counted as a skill).
    pub is_skill: bool,
    /// How each client reads the skill, where the report computed it.
    pub clients: &'a [(
        skills_compiler::client::Client,
        skills_compiler::client::Reading,
    )],
    /// Where the clients differ on the skill, where the report computed it.
    pub differences: Option<&'a Differences>,
}

/// The entries of a validation result: each root's own problems, then each
/// skill. `names` holds each skill's qualified name, in order.
pub fn entries<'a>(result: &'a compiler::Checked, names: &'a [Option<String>]) -> Vec<Checked<'a>> {
    let mut checked: Vec<Checked<'a>> = result
        .roots
        .iter()
        .map(|(root, diags)| Checked {
            dir: root,
            name: None,
            diagnostics: diags,
            is_skill: false,
            clients: &[],
            differences: None,
        })
        .collect();
    checked.extend(result.skills.iter().zip(names).map(|(s, n)| Checked {
        dir: &s.dir,
        name: n.as_deref(),
        diagnostics: &s.diagnostics,
        is_skill: true,
        clients: &[],
        differences: None,
    }));
    checked
}

/// Sets each skill's client readings and differences (`clients` and
/// `differences` hold one per skill, in order).
pub fn with_clients<'a>(
    checked: &mut [Checked<'a>],
    clients: &'a [clients::Clients],
    differences: &'a [Differences],
) {
    for ((c, readings), diffs) in checked
        .iter_mut()
        .filter(|c| c.is_skill)
        .zip(clients)
        .zip(differences)
    {
        c.clients = readings;
        c.differences = Some(diffs);
    }
}

impl Checked<'_> {
    /// Whether this skill has no error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Counts for the closing line.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    /// Skills checked.
    pub skills: usize,
    /// Skills without errors.
    pub valid: usize,
    /// Error diagnostics in all.
    pub errors: usize,
    /// Warning diagnostics in all.
    pub warnings: usize,
    /// Wall time of discovery plus validation.
    pub elapsed: Duration,
}

impl Summary {
    /// Counts over `checked`.
    pub fn of(checked: &[Checked<'_>], elapsed: Duration) -> Summary {
        let all = || checked.iter().flat_map(|c| c.diagnostics.iter());
        let skills = || checked.iter().filter(|c| c.is_skill);
        Summary {
            skills: skills().count(),
            valid: skills().filter(|c| c.is_valid()).count(),
            errors: all().filter(|d| d.is_error()).count(),
            warnings: all().filter(|d| !d.is_error()).count(),
            elapsed,
        }
    }
}
