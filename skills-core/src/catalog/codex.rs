//! Codex's list of available skills, as Codex CLI 0.169.0 was recorded
//! sending it (`../shared/clients/BEHAVIOUR.md`): one line per skill,
//! `- <name>: <description> (file: <location>)`, descriptions with their
//! whitespace collapsed and cut at 1,024 characters, no escaping,
//! `when_to_use` ignored.
//!
//! This first version renders the entry lines only; the surrounding
//! `<skills_instructions>` text and its roots table belong to the Codex
//! model of the client.

use super::Entry;

/// The budget Codex 0.169.0 was seen to apply (about 21,760 characters of
/// model-visible list; the formula is not confirmed).
pub const DEFAULT_BUDGET: usize = 21_760;

/// The longest description; a longer one keeps `MAX_DESCRIPTION - 3`
/// characters and `...`.
pub const MAX_DESCRIPTION: usize = 1_024;

/// The description Codex lists: whitespace runs collapsed to one space,
/// trimmed, cut to [`MAX_DESCRIPTION`] characters.
pub fn description(description: &str) -> String {
    let collapsed = description.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= MAX_DESCRIPTION {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(MAX_DESCRIPTION - 3).collect();
    cut.push_str("...");
    cut
}

fn line(entry: &Entry<'_>, description: &str) -> String {
    format!("- {}: {description} (file: {})", entry.name, entry.location)
}

/// The entry lines of `entries` within `budget` characters: whole when they
/// fit; else every description cut to the longest shared length that fits
/// (no ellipsis); else without descriptions, keeping the entries that fit in
/// order.
pub fn render(entries: &[Entry<'_>], budget: usize) -> String {
    let descriptions: Vec<String> = entries.iter().map(|e| description(e.description)).collect();
    let size = |cut: usize| -> usize {
        entries
            .iter()
            .zip(&descriptions)
            .map(|(e, d)| {
                let kept: String = d.chars().take(cut).collect();
                line(e, &kept).chars().count()
            })
            .sum::<usize>()
            + entries.len().saturating_sub(1)
    };
    let longest = descriptions
        .iter()
        .map(|d| d.chars().count())
        .max()
        .unwrap_or(0);
    let cut = if size(longest) <= budget {
        Some(longest)
    } else {
        // The largest shared length that fits, if any description survives.
        let (mut lo, mut hi) = (1, longest);
        let mut best = None;
        while lo <= hi {
            let mid = lo + (hi - lo) / 2;
            if size(mid) <= budget {
                best = Some(mid);
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        best
    };
    let mut lines = Vec::with_capacity(entries.len());
    match cut {
        Some(cut) => {
            for (e, d) in entries.iter().zip(&descriptions) {
                let kept: String = d.chars().take(cut).collect();
                lines.push(line(e, &kept));
            }
        }
        None => {
            let mut used = 0;
            for e in entries {
                let bare = format!("- {}: (file: {})", e.name, e.location);
                let n = bare.chars().count() + usize::from(!lines.is_empty());
                if used + n > budget {
                    break;
                }
                used += n;
                lines.push(bare);
            }
        }
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(name: &'a str, description: &'a str) -> Entry<'a> {
        Entry {
            name,
            description,
            location: "r0/x/SKILL.md",
            ..Entry::default()
        }
    }

    #[test]
    fn lines_collapse_whitespace_and_cut_at_1024() {
        let e = Entry {
            when_to_use: Some("ignored"),
            ..entry("My Skill", "Has <tag>\n and  more.")
        };
        assert_eq!(
            render(&[e], DEFAULT_BUDGET),
            "- My Skill: Has <tag> and more. (file: r0/x/SKILL.md)"
        );
        let long = "w".repeat(1100);
        assert_eq!(description(&long), format!("{}...", "w".repeat(1021)));
    }

    #[test]
    fn over_budget_descriptions_are_cut_evenly_then_dropped() {
        let entries = [entry("a", "aaaaaaaaaa"), entry("b", "bbbbbbbbbb")];
        let whole = render(&entries, DEFAULT_BUDGET);
        let n = whole.chars().count();
        let trimmed = render(&entries, n - 4);
        assert_eq!(
            trimmed,
            "- a: aaaaaaaa (file: r0/x/SKILL.md)\n- b: bbbbbbbb (file: r0/x/SKILL.md)"
        );
        let bare = render(&entries, 30);
        assert_eq!(bare, "- a: (file: r0/x/SKILL.md)");
    }
}
