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

use super::{Client, Outcome, Reading};
use crate::diag::{Code, Diagnostic};
use crate::profile::Profile;
use crate::skill::CheckedSkill;

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
mod tests {
    use super::*;
    use crate::{Options, check_dir};

    fn diagnosed(text: &str) -> std::io::Result<Vec<(Code, bool)>> {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        std::fs::create_dir(&dir)?;
        std::fs::write(dir.join("SKILL.md"), text)?;
        let options = Options {
            profile: Profile::ClaudeCode,
            lints: false,
            ..Options::default()
        };
        let skill = check_dir(&dir, &options);
        Ok(skill
            .diagnostics
            .iter()
            .map(|d| (d.code, d.is_error()))
            .collect())
    }

    #[test]
    fn claude_code_judges() -> std::io::Result<()> {
        assert_eq!(diagnosed("---\nname: s\ndescription: D.\n---\nB\n")?, []);
        // Loaded with the folder name and the first body line: warnings only.
        let loose = diagnosed("# Title\n")?;
        assert!(loose.iter().all(|(_, e)| !e), "{loose:?}");
        assert!(
            loose.contains(&(Code::ClientDescriptionReplaced, false)),
            "{loose:?}"
        );
        let bad_yaml = diagnosed("---\nname: s\n\tdescription: x\n---\nB\n")?;
        assert!(bad_yaml.iter().all(|(_, e)| !e), "{bad_yaml:?}");
        assert!(
            bad_yaml.contains(&(Code::ClientYamlUnread, false)),
            "{bad_yaml:?}"
        );
        assert!(!bad_yaml.iter().any(|(c, _)| *c == Code::InvalidYaml));
        let hidden =
            diagnosed("---\nname: s\ndescription: D.\ndisable-model-invocation: true\n---\n")?;
        assert_eq!(hidden, [(Code::ClientNotListed, false)]);
        let keys = diagnosed(
            "---\nname: s\ndescription: D.\narguments: [a, b]\ndisallowed-tools: Bash\nbackground: true\n---\n",
        )?;
        assert!(
            !keys.iter().any(|(c, _)| *c == Code::UnexpectedField),
            "{keys:?}"
        );
        let big = format!(
            "---\nname: s\ndescription: D.\n---\n{}",
            "x\n".repeat(500_001)
        );
        let big = diagnosed(&big)?;
        assert!(big.contains(&(Code::ClientRejected, true)), "{big:?}");
        Ok(())
    }
}
