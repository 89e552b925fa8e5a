//! Renderers of a security scan (`skb scan`, `skb validate --scan`) in every
//! output format, and of the rule table (`skb scan --rules`).
//!
//! Each reads the same [`Scan`](crate::scan::Scan); what is shown and what
//! fails was decided when it was built. This module owns the summary line
//! the human and GitHub outputs end with.

use std::time::Duration;

use skills_compiler::render::{count, thousands};
use skills_scan::Severity;

use super::human::format_elapsed;
use crate::scan::Counts;

pub mod github;
pub mod human;
pub mod json;
pub mod rules;
pub mod sarif;

/// Where the guide explains the scanner and lists its rules.
pub const GUIDE_URI: &str = concat!(
    env!("CARGO_PKG_REPOSITORY"),
    "/blob/main/GUIDE.md#scanning-skills-for-attacks"
);

/// The closing line, for example
/// `scanned 454 skills in 80 ms: 1 critical, 2 high, 3 low (1 suppressed, 2 baselined)`
/// or `scanned 3 skills in 2 ms: no findings (0 suppressed)`.
pub fn summary_line(counts: &Counts, elapsed: Duration) -> String {
    let mut line = format!(
        "scanned {} in {}: ",
        count(counts.skills as u64, "skill"),
        format_elapsed(elapsed)
    );
    let by_severity: Vec<String> = Severity::ALL
        .iter()
        .rev()
        .filter(|&&s| counts.at(s) > 0)
        .map(|&s| format!("{} {s}", thousands(counts.at(s) as u64)))
        .collect();
    if by_severity.is_empty() {
        line.push_str("no findings");
    } else {
        line.push_str(&by_severity.join(", "));
    }
    let mut notes = vec![format!(
        "{} suppressed",
        thousands(counts.suppressed as u64)
    )];
    if counts.hidden > 0 {
        notes.push(format!(
            "{} below --min-severity not shown",
            thousands(counts.hidden as u64)
        ));
    }
    if counts.baselined > 0 {
        notes.push(format!("{} baselined", thousands(counts.baselined as u64)));
    }
    if counts.stale > 0 {
        let noun = if counts.stale == 1 {
            "entry"
        } else {
            "entries"
        };
        notes.push(format!(
            "{} stale baseline {noun}",
            thousands(counts.stale as u64)
        ));
    }
    if counts.skipped > 0 {
        notes.push(format!(
            "{} not scanned",
            count(counts.skipped as u64, "file")
        ));
    }
    if counts.failed > 0 {
        notes.push(format!(
            "{} could not be read",
            count(counts.failed as u64, "skill folder")
        ));
    }
    line.push_str(&format!(" ({})", notes.join(", ")));
    line
}

/// SARIF's `level` for a severity: `error` for high and critical, `warning`
/// for medium, `note` below.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "note",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lines() {
        let mut counts = Counts {
            skills: 1,
            ..Counts::default()
        };
        let ms = Duration::from_millis(2);
        assert_eq!(
            summary_line(&counts, ms),
            "scanned 1 skill in 2 ms: no findings (0 suppressed)"
        );
        counts.skills = 1204;
        counts.by_severity[Severity::Critical as usize] = 1;
        counts.by_severity[Severity::Low as usize] = 3;
        counts.by_severity[Severity::Info as usize] = 2;
        counts.hidden = 2;
        counts.suppressed = 1;
        counts.baselined = 4;
        counts.stale = 1;
        counts.skipped = 2;
        counts.failed = 1;
        assert_eq!(
            summary_line(&counts, ms),
            "scanned 1,204 skills in 2 ms: 1 critical, 3 low, 2 info (1 suppressed, 2 below --min-severity not shown, 4 baselined, 1 stale baseline entry, 2 files not scanned, 1 skill folder could not be read)"
        );
        counts.stale = 2;
        assert!(summary_line(&counts, ms).contains("2 stale baseline entries"));
    }

    #[test]
    fn levels() {
        assert_eq!(level(Severity::Critical), "error");
        assert_eq!(level(Severity::High), "error");
        assert_eq!(level(Severity::Medium), "warning");
        assert_eq!(level(Severity::Low), "note");
        assert_eq!(level(Severity::Info), "note");
    }
}
