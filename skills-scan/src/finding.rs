//! What a scan reports: findings at a place in a file, and the findings an
//! inline marker suppressed.

use sha2::{Digest, Sha256};

use crate::rule::{Rule, Severity};

/// One thing a rule found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule that found it.
    pub rule: &'static Rule,
    /// How bad this instance is (the rule's default, or raised when the
    /// payload was hidden or combines with another finding).
    pub severity: Severity,
    /// The file, relative to the skill's folder, `/`-separated.
    pub path: String,
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1, in characters.
    pub column: u32,
    /// Why this instance matters, one line.
    pub message: String,
    /// The text that matched, on one line, at most [`EVIDENCE_CHARS`]
    /// characters (control and invisible characters written as `<U+XXXX>`).
    pub evidence: String,
    /// How the evidence was hidden, outermost first (`["base64", "zlib"]`);
    /// empty when it was in plain sight.
    pub decoded: Vec<&'static str>,
}

/// The most characters of evidence a finding carries.
pub const EVIDENCE_CHARS: usize = 160;

impl Finding {
    /// A stable identity for baselines: the rule, the file and the evidence,
    /// not the line, so that edits elsewhere in the file keep it.
    pub fn fingerprint(&self) -> String {
        let mut h = Sha256::new();
        h.update(self.rule.code.as_bytes());
        h.update([0]);
        h.update(self.path.as_bytes());
        h.update([0]);
        h.update(
            self.evidence
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .as_bytes(),
        );
        let digest = h.finalize();
        digest[..12].iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// A finding an inline marker covers, with the marker's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppressed {
    /// The finding.
    pub finding: Finding,
    /// The reason written after `--` in the marker.
    pub reason: String,
    /// The line of the marker.
    pub marker_line: u32,
}

/// Everything a scan of one skill found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Findings, ordered by file, line, column and code.
    pub findings: Vec<Finding>,
    /// Findings inline markers suppressed (with [`Markers::Honour`]).
    ///
    /// [`Markers::Honour`]: crate::Markers::Honour
    pub suppressed: Vec<Suppressed>,
    /// Findings inline markers claim to suppress, which stay in `findings`
    /// (with [`Markers::Report`]).
    ///
    /// [`Markers::Report`]: crate::Markers::Report
    pub claimed: Vec<Suppressed>,
    /// Files not read as text, with why (binary data, too large, compiled
    /// code); each but binary data of a known format is also a finding.
    pub skipped: Vec<(String, String)>,
}

impl Report {
    /// The highest severity among the findings.
    pub fn max_severity(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// The findings at or above `threshold`.
    pub fn at_least(&self, threshold: Severity) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(move |f| f.severity >= threshold)
    }
}

/// `text` on one line, invisible and control characters made visible, cut
/// at [`EVIDENCE_CHARS`] characters.
pub(crate) fn evidence(text: &str) -> String {
    let mut out = String::new();
    let mut n = 0;
    let mut space = false;
    for c in text.trim().chars() {
        if n >= EVIDENCE_CHARS {
            out.push('…');
            break;
        }
        if c.is_whitespace() {
            if !space {
                out.push(' ');
                n += 1;
            }
            space = true;
            continue;
        }
        space = false;
        if c.is_control() || skills_core::invisible::is_invisible(c) {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
        n += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_is_one_visible_line() {
        assert_eq!(evidence("  a\n\tb  "), "a b");
        assert_eq!(evidence("x\u{200b}y"), "x<U+200B>y");
        let long = "a".repeat(500);
        assert_eq!(evidence(&long).chars().count(), EVIDENCE_CHARS + 1);
    }
}
