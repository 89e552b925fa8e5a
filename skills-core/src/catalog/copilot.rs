//! The catalog as GitHub Copilot CLI 1.0.102 gives it to its model: the
//! `<skill>` section of its system message's tool instructions (after
//! `<fetch_copilot_cli_documentation>`, before `<sql>`).
//!
//! Recorded (`copilot_*_catalog.txt`, `budget_copilot_*.json`,
//! `limits_copilot_more.json` in the shared recordings):
//!
//! ```text
//! <skill>
//! <available_skills>
//! <skill>
//!   <name>NAME</name>
//!   <description>DESCRIPTION</description>
//!   <location>LEVEL</location>
//! </skill>
//! ...
//! Additional skills available (invoke by name): NAME, NAME... and N more
//! </available_skills>
//! ```
//!
//! [`render`] gives that text up to `</available_skills>`, as the recorded
//! catalogs are cut; Copilot closes the section with `</skill>` on the next
//! line. `LEVEL` is a word, never a path: `project`, `user`, or `builtin`
//! for the client's own skills ([`BUILTINS`], which end every listing).
//! The name and description are XML-escaped (`&lt; &gt; &amp; &quot;
//! &apos;`); a description keeps the line breaks the YAML gives it.
//!
//! **Budget.** Whole entries are listed while the entries' text (each
//! `<skill>` … `</skill>` and its line break) stays within [`DEFAULT_BUDGET`]
//! characters; the rest, built-ins included, are named on one line
//! ([`ADDITIONAL`]), joined by `, `, while that line stays within
//! [`ADDITIONAL_BUDGET`] characters; the names that do not fit are counted
//! (`... and N more`, right after the last name). The record bounds the
//! first cap to 14,850–15,047 characters (13 × 1,098, 75 × 198 and 37 × 398
//! listed; 15,372, 15,048 and 15,124 not) and the second to 4,989–5,011:
//! the round figures are taken. The caps count UTF-16 code units, as
//! Copilot's cap on a description does (20 entries of 1,000 `é` cut after
//! 13, as 1,000 ASCII characters do: not bytes; recorded with the real
//! program for this module). Where an entry does not fit the listing
//! stops: a short entry after it is named on the line, not listed (recorded
//! here too).

use super::entry::Entry;
use super::xml::xml_escape;

/// The UTF-16 code units of entry text Copilot lists before it names the
/// rest.
pub const DEFAULT_BUDGET: usize = 15_000;

/// The UTF-16 code units the [`ADDITIONAL`] line holds before it counts
/// the rest.
pub const ADDITIONAL_BUDGET: usize = 5_000;

/// The start of the line naming the skills past the budget.
pub const ADDITIONAL: &str = "Additional skills available (invoke by name): ";

/// Copilot CLI 1.0.102's own skills, as it lists them last (level
/// `builtin`), description before escaping. A skill of the same name in a
/// project or user folder takes the built-in's place (assumed, as for the
/// user's and the project's skills: not recorded).
pub const BUILTINS: [(&str, &str); 2] = [
    (
        "customize-cloud-agent",
        "Skill for customizing the Copilot cloud agent (formerly known as Copilot coding agent) environment, including copilot-setup-steps.yml configuration, preinstalling tools and dependencies, runners, and settings. Use when the user mentions copilot-setup-steps, copilot setup steps, or wants to configure the cloud agent environment.",
    ),
    (
        "github-pr-media",
        "Upload an image or video to GitHub's user attachments API and embed it in a pull request description or comment. Use when asked to add screenshots, diagrams, recordings, or other media to a PR or GitHub comment.",
    ),
];

/// The level Copilot shows for its own skills.
pub const BUILTIN_LEVEL: &str = "builtin";

const HEAD: &str = "<skill>\n<available_skills>\n";
const CLOSE: &str = "</available_skills>";

/// One `<skill>` element, without a line break after it.
pub fn entry_line(entry: &Entry<'_>) -> String {
    format!(
        "<skill>\n  <name>{}</name>\n  <description>{}</description>\n  <location>{}</location>\n</skill>",
        xml_escape(entry.name),
        xml_escape(entry.description),
        entry.location
    )
}

/// `entries` (the project's and the user's skills, in Copilot's order,
/// each with its level as location) followed by the built-ins no entry
/// replaces: every skill Copilot knows, in its order.
pub fn with_builtins<'a>(entries: &[Entry<'a>]) -> Vec<Entry<'a>> {
    let mut all = entries.to_vec();
    for (name, description) in BUILTINS {
        if !entries.iter().any(|e| e.name == name) {
            all.push(Entry {
                name,
                description,
                location: BUILTIN_LEVEL,
                ..Entry::default()
            });
        }
    }
    all
}

/// The catalog of `entries` as given (built-ins included where wanted:
/// [`with_builtins`]), whole entries within `budget` characters, the rest
/// named on the [`ADDITIONAL`] line.
pub fn render(entries: &[Entry<'_>], budget: usize) -> String {
    let mut out = String::from(HEAD);
    let mut used = 0;
    let mut listed = 0;
    for e in entries {
        let line = entry_line(e);
        let size = line.encode_utf16().count() + 1;
        if used + size > budget {
            break;
        }
        used += size;
        listed += 1;
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(rest) = entries.get(listed..).filter(|r| !r.is_empty()) {
        out.push_str(&additional(rest.iter().map(|e| e.name)));
        out.push('\n');
    }
    out.push_str(CLOSE);
    out
}

/// The [`ADDITIONAL`] line for `names`: each while the line stays within
/// [`ADDITIONAL_BUDGET`] characters, then `... and N more` for the others.
pub fn additional<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let total = names.len();
    let mut line = String::from(ADDITIONAL);
    let mut chars = ADDITIONAL.encode_utf16().count();
    let mut shown = 0;
    for name in names {
        let name = xml_escape(name);
        let sep = if shown == 0 { 0 } else { 2 };
        let size = sep + name.encode_utf16().count();
        if chars + size > ADDITIONAL_BUDGET {
            break;
        }
        if shown > 0 {
            line.push_str(", ");
        }
        line.push_str(&name);
        chars += size;
        shown += 1;
    }
    if shown < total {
        line.push_str(&format!("... and {} more", total - shown));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(name: &'a str, description: &'a str) -> Entry<'a> {
        Entry {
            name,
            description,
            location: "project",
            ..Entry::default()
        }
    }

    #[test]
    fn entries_are_escaped_and_the_builtins_end_the_list() {
        let all = with_builtins(&[entry("a", "Has <tag> & 'q'")]);
        let text = render(&all, DEFAULT_BUDGET);
        assert!(text.starts_with(
            "<skill>\n<available_skills>\n<skill>\n  <name>a</name>\n  <description>Has &lt;tag&gt; &amp; &apos;q&apos;</description>\n  <location>project</location>\n</skill>\n<skill>\n  <name>customize-cloud-agent</name>"
        ));
        assert!(text.ends_with(
            "GitHub comment.</description>\n  <location>builtin</location>\n</skill>\n</available_skills>"
        ));
        // A skill named like a built-in takes its place.
        let replaced = with_builtins(&[entry("github-pr-media", "mine")]);
        assert_eq!(replaced.len(), 2);
        assert_eq!(replaced[0].description, "mine");
    }

    #[test]
    fn the_budget_counts_whole_entries() {
        // 75 entries of 198 characters fit in 15,000 (14,850); a 76th
        // would make 15,048 (budget_copilot_150x100.json).
        let names: Vec<String> = (0..150).map(|i| format!("b{i:03}")).collect();
        let desc = "d".repeat(100);
        let entries: Vec<Entry<'_>> = names.iter().map(|n| entry(n, &desc)).collect();
        assert_eq!(entry_line(&entries[0]).chars().count() + 1, 198);
        let text = render(&with_builtins(&entries), DEFAULT_BUDGET);
        assert_eq!(text.matches("<name>").count(), 75);
        assert!(text.contains("\nAdditional skills available (invoke by name): b075, b076, "));
        assert!(
            text.ends_with(", b149, customize-cloud-agent, github-pr-media\n</available_skills>")
        );
    }

    #[test]
    fn the_additional_line_counts_what_does_not_fit() {
        // limits_copilot_more.json: 21-character names, 215 fit (4,989
        // characters), the 216th would make 5,012.
        let names: Vec<String> = (0..389)
            .map(|i| format!("skill-name-number-{i:03}"))
            .collect();
        let line = additional(names.iter().map(String::as_str));
        assert!(
            line.ends_with("skill-name-number-214... and 174 more"),
            "{line}"
        );
        assert_eq!(line.chars().count(), 4_989 + "... and 174 more".len());
        assert_eq!(
            additional(["a", "b"].into_iter()),
            format!("{ADDITIONAL}a, b")
        );
    }
}
