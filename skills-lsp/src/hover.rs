//! Hover notes, computed from the clients' own readings rather than a table
//! of facts kept here: on a frontmatter key, what each modelled client does
//! with it in this skill (the skill read by every client with the key and
//! without it, the notes a client's reading gives that name the key, and
//! whether each profile accepts the key); on the `name` value, how each
//! client lists the skill (its catalog entry, or why it does not list it).

use std::path::Path;

use skills_compiler::client::{self, Client, Outcome, Reading};
use skills_compiler::profile::SPEC_FIELDS;
use skills_compiler::{Code, Profile, Severity};

use crate::analysis::check_text;
use crate::frontmatter::{self, Entry};

/// Every client's reading of the skill whose `SKILL.md` at `path` holds
/// `text`, in [`Client::ALL`] order.
pub fn readings(dir: &Path, path: &Path, text: &str, profile: Profile) -> Vec<(Client, Reading)> {
    let skill = check_text(dir, path, text, profile);
    client::all_readings(std::slice::from_ref(&skill), 1)
        .into_iter()
        .next()
        .unwrap_or_default()
}

/// What a reading amounts to, in one line.
pub fn outcome(reading: &Reading) -> String {
    match &reading.outcome {
        Outcome::Listed(l) => format!("lists it as `{}`", l.line()),
        Outcome::NotListed { why } => format!("does not list it ({why})"),
        Outcome::Rejected { why } => format!("rejects it ({why})"),
        Outcome::Unknown { why } => format!("reading not known ({why})"),
    }
}

/// The hover on the key of `entry`.
pub fn key(dir: &Path, path: &Path, text: &str, entry: &Entry, profile: Profile) -> String {
    let key = entry.key.as_str();
    let with = readings(dir, path, text, profile);
    let without = readings(dir, path, &frontmatter::without(text, entry), profile);
    let mut out = format!("**`{key}`**: ");
    out.push_str(if SPEC_FIELDS.contains(&key) {
        "a key of the Agent Skills specification."
    } else {
        "not a key of the specification (`SK201` under `--profile spec`)."
    });
    out.push_str(
        "\n\nWhat each client does with it, in this skill (read with the key and without it):\n",
    );
    for (client, reading) in &with {
        let profile = Profile::of(*client);
        let accepts = if profile.allows_key(key) {
            "its profile accepts the key".to_string()
        } else {
            let severity = match profile.severity(Code::UnexpectedField) {
                Severity::Error => "an error",
                Severity::Warning => "a warning",
            };
            format!("its profile reports `SK201` ({severity})")
        };
        let now = outcome(reading);
        let before = without
            .iter()
            .find(|(c, _)| c == client)
            .map(|(_, r)| outcome(r));
        let change = match before {
            Some(b) if b == now => "the same without the key".to_string(),
            Some(b) => format!("without the key it {b}"),
            None => "without the key: not known".to_string(),
        };
        out.push_str(&format!(
            "\n- **{}**: {now}; {change}; {accepts}.",
            client.title()
        ));
        let marked = format!("`{key}`");
        for note in reading.notes.iter().filter(|n| n.message.contains(&marked)) {
            out.push_str(&format!("\n  - `{}`: {}", note.code, note.message));
        }
    }
    out
}

/// The hover on the `name` value: how each client lists the skill.
pub fn name(dir: &Path, path: &Path, text: &str, profile: Profile) -> String {
    let mut out = String::from("**How each client lists this skill** (its catalog entry):\n");
    for (client, reading) in readings(dir, path, text, profile) {
        out.push_str(&format!(
            "\n- **{}**: {}.",
            client.title(),
            outcome(&reading)
        ));
    }
    out
}
