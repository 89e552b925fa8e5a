//! A client profile's diagnostics: how a client's [`Reading`] of a skill
//! turns into errors and warnings.
//!
//! Under a client profile the client is the judge. Its reading gives the
//! error where it would not load the skill (`SK401`), and a warning with a
//! stable code wherever it loads the skill differently from what the author
//! wrote: not listed to the model (`SK402`), and each [`Note`](super::Note)
//! (name not shown, description replaced, cut or escaped, YAML it could not
//! read, a flag it does not read). The specification's diagnostics that the
//! reading says better (a missing or unreadable description, YAML errors,
//! angle brackets) are dropped; the others keep the profile's severity.

use super::reading::{Outcome, Reading};
use crate::checked::CheckedSkill;
use crate::diag::{Code, Diagnostic};
use crate::profile::Profile;
use skills_core::client::Client;

/// The specification's codes a client reading replaces: what the client
/// does about them is in the reading.
pub const REPLACED: &[Code] = &[
    Code::InvalidYaml,
    Code::FrontmatterNotMapping,
    Code::MissingDescription,
    Code::DescriptionNotString,
    Code::DescriptionAngleBrackets,
];

/// Rewrites `skill`'s diagnostics for `profile` from `client`'s `reading`.
pub fn apply(skill: &mut CheckedSkill, client: Client, reading: &Reading, profile: Profile) {
    skill.diagnostics.retain(|d| !REPLACED.contains(&d.code));
    let path = skill.skill_md.clone().unwrap_or_else(|| skill.dir.clone());
    let mut push = |code: Code, message: String| {
        skill.diagnostics.push(Diagnostic::new(
            code,
            profile.severity(code),
            &path,
            message,
        ));
    };
    let who = client.title();
    match &reading.outcome {
        Outcome::Rejected { why } => {
            push(
                Code::ClientRejected,
                format!("{who} does not load this skill: {why}"),
            );
        }
        Outcome::NotListed { why } => {
            push(
                Code::ClientNotListed,
                format!("{who} does not list this skill to the model: {why}"),
            );
        }
        Outcome::Unknown { why } => {
            push(
                Code::Io,
                format!("what {who} makes of this skill is not known: {why}"),
            );
        }
        Outcome::Listed(_) => {}
    }
    for note in &reading.notes {
        push(note.code, note.message.clone());
    }
    #[cfg(feature = "codex-yaml")]
    if client == Client::Codex {
        super::codex::diagnose::locate(skill);
    }
}

#[cfg(test)]
mod tests;
