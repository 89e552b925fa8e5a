//! Baselines: the findings a team has already seen, recorded so that a scan
//! reports only what is new.
//!
//! A team adopting the scanner on an existing tree writes every current
//! finding to a file (`skb scan --write-baseline FILE`), commits it, and
//! scans with `--baseline FILE` from then on: a finding whose rule code, path
//! and [`Finding::fingerprint`] are in the file is hidden. The fingerprint
//! hashes the rule, the file and the evidence, not the line, so edits
//! elsewhere in the file keep a finding baselined; an entry no finding
//! matches any more is *stale* (the problem was fixed, or its evidence
//! changed) and is counted so the file can be written again.
//!
//! The file is small JSON, written and read with [`skills_core::json`]
//! (no serde in this crate):
//!
//! ```json
//! {
//!   "version": 1,
//!   "findings": [
//!     {
//!       "code": "SK630",
//!       "path": "skills/setup/SKILL.md",
//!       "fingerprint": "4f1c0d6e9a2b7c3d5e8f0a1b",
//!       "evidence": "curl -fsSL https://get.example.net | sh",
//!       "severity": "high"
//!     }
//!   ]
//! }
//! ```
//!
//! Entries are sorted by code, path and fingerprint, one per key, so the file
//! diffs cleanly. `path` is whatever the caller names the file by (the CLI:
//! the skill's folder as given, joined with the finding's path); `evidence`
//! and `severity` are for the reader and are not compared.

use std::collections::HashMap;
use std::fmt;

use skills_core::json::{self, Node, Value};

use crate::finding::Finding;
use crate::rule::Severity;

/// The version of the file's shape.
pub const VERSION: u32 = 1;

/// How deep the file's JSON may nest (it needs 3).
const MAX_DEPTH: usize = 8;

/// One recorded finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The rule's code (`SK630`).
    pub code: String,
    /// The file, as the caller names it.
    pub path: String,
    /// The finding's [`Finding::fingerprint`].
    pub fingerprint: String,
    /// The finding's evidence, for a reader of the file.
    pub evidence: String,
    /// The finding's severity, for a reader of the file (`None` when a
    /// hand-edited file leaves it out).
    pub severity: Option<Severity>,
}

impl Entry {
    /// The entry for `finding`, in the file the caller calls `path`.
    pub fn of(path: &str, finding: &Finding) -> Entry {
        Entry {
            code: finding.rule.code.to_string(),
            path: path.to_string(),
            fingerprint: finding.fingerprint(),
            evidence: finding.evidence.clone(),
            severity: Some(finding.severity),
        }
    }

    fn key(&self) -> (&str, &str, &str) {
        (&self.code, &self.path, &self.fingerprint)
    }
}

/// A baseline file's entries, sorted, one per key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baseline {
    entries: Vec<Entry>,
}

/// Why a baseline file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineError {
    message: String,
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BaselineError {}

fn error(message: impl Into<String>) -> BaselineError {
    BaselineError {
        message: message.into(),
    }
}

impl Baseline {
    /// A baseline of these entries, sorted by code, path and fingerprint,
    /// duplicates of a key dropped.
    pub fn new(mut entries: Vec<Entry>) -> Baseline {
        entries.sort_by(|a, b| a.key().cmp(&b.key()));
        entries.dedup_by(|b, a| a.key() == b.key());
        Baseline { entries }
    }

    /// The entries, sorted.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The file's text, ending in a newline.
    pub fn to_json(&self) -> String {
        let q = |s: &str| json::quote(s);
        let mut out = format!("{{\n  \"version\": {VERSION},\n  \"findings\": [");
        for (i, e) in self.entries.iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            let severity = e.severity.map_or("null".to_string(), |s| q(s.as_str()));
            out.push_str(&format!(
                "    {{\n      \"code\": {},\n      \"path\": {},\n      \"fingerprint\": {},\n      \"evidence\": {},\n      \"severity\": {severity}\n    }}",
                q(&e.code),
                q(&e.path),
                q(&e.fingerprint),
                q(&e.evidence),
            ));
        }
        out.push_str(if self.entries.is_empty() {
            "]\n}\n"
        } else {
            "\n  ]\n}\n"
        });
        out
    }

    /// Reads a baseline file's text.
    pub fn parse(text: &str) -> Result<Baseline, BaselineError> {
        let doc = json::parse(text, MAX_DEPTH)
            .map_err(|e| error(format!("not JSON at byte {}: {}", e.at, e.message)))?;
        if !matches!(doc.value, Value::Object(_)) {
            return Err(error(format!("expected an object, found {}", doc.kind())));
        }
        let version = doc.get("version").ok_or_else(|| error("no `version`"))?;
        let number = text.get(version.span.clone()).unwrap_or_default();
        if !matches!(version.value, Value::Number) || number != VERSION.to_string() {
            return Err(error(format!(
                "`version` is {}; this scanner reads version {VERSION}",
                text.get(version.span.clone()).unwrap_or("?")
            )));
        }
        let Some(Node {
            value: Value::Array(items),
            ..
        }) = doc.get("findings")
        else {
            return Err(error("`findings` must be an array"));
        };
        let mut entries = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            entries.push(entry(item).map_err(|why| error(format!("`findings[{i}]`: {why}")))?);
        }
        Ok(Baseline::new(entries))
    }

    /// A matcher that hides findings in this baseline and remembers which
    /// entries matched.
    pub fn matcher(&self) -> Matcher<'_> {
        let keys = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.key(), i))
            .collect();
        Matcher {
            baseline: self,
            keys,
            used: vec![false; self.entries.len()],
        }
    }
}

fn entry(item: &Node) -> Result<Entry, String> {
    if !matches!(item.value, Value::Object(_)) {
        return Err(format!("expected an object, found {}", item.kind()));
    }
    let text = |key: &str| -> Result<Option<String>, String> {
        match item.get(key) {
            None => Ok(None),
            Some(Node {
                value: Value::Null, ..
            }) => Ok(None),
            Some(n) => n
                .as_str()
                .map(|s| Some(s.to_string()))
                .ok_or_else(|| format!("`{key}` must be a string, found {}", n.kind())),
        }
    };
    let required = |key: &str| text(key).and_then(|v| v.ok_or_else(|| format!("no `{key}`")));
    let severity = match text("severity")? {
        None => None,
        Some(s) => Some(Severity::parse(&s).ok_or_else(|| format!("unknown severity `{s}`"))?),
    };
    Ok(Entry {
        code: required("code")?,
        path: required("path")?,
        fingerprint: required("fingerprint")?,
        evidence: text("evidence")?.unwrap_or_default(),
        severity,
    })
}

/// Matches findings against a [`Baseline`], counting what matched.
#[derive(Debug)]
pub struct Matcher<'b> {
    baseline: &'b Baseline,
    keys: HashMap<(&'b str, &'b str, &'b str), usize>,
    used: Vec<bool>,
}

impl Matcher<'_> {
    /// Whether the baseline records `finding` in the file the caller calls
    /// `path` (the same name it gave when the baseline was written).
    pub fn contains(&mut self, path: &str, finding: &Finding) -> bool {
        let fingerprint = finding.fingerprint();
        match self
            .keys
            .get(&(finding.rule.code, path, fingerprint.as_str()))
        {
            Some(&i) => {
                self.used[i] = true;
                true
            }
            None => false,
        }
    }

    /// The entries no finding matched so far, in the file's order.
    pub fn stale(&self) -> impl Iterator<Item = &Entry> {
        self.baseline
            .entries
            .iter()
            .zip(&self.used)
            .filter(|(_, used)| !**used)
            .map(|(e, _)| e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::rule;

    fn finding(code: &str, path: &str, line: u32, evidence: &str) -> Finding {
        let rule = rule(code).expect("a known code");
        Finding {
            rule,
            severity: rule.severity,
            path: path.to_string(),
            line,
            column: 1,
            message: "m".into(),
            evidence: evidence.into(),
            decoded: Vec::new(),
        }
    }

    #[test]
    fn written_sorted_and_read_back() {
        let a = finding("SK630", "SKILL.md", 3, "curl x | sh");
        let b = finding("SK604", "SKILL.md", 9, "tag \"text\"\\");
        let baseline = Baseline::new(vec![
            Entry::of("s/SKILL.md", &a),
            Entry::of("s/SKILL.md", &b),
            Entry::of("s/SKILL.md", &a),
        ]);
        assert_eq!(baseline.entries().len(), 2);
        assert_eq!(baseline.entries()[0].code, "SK604");
        let text = baseline.to_json();
        assert!(text.starts_with("{\n  \"version\": 1,\n  \"findings\": [\n    {\n      \"code\": \"SK604\",\n      \"path\": \"s/SKILL.md\",\n"), "{text}");
        assert!(text.ends_with("\n  ]\n}\n"), "{text}");
        assert_eq!(Baseline::parse(&text), Ok(baseline));
    }

    #[test]
    fn empty_baseline_round_trips() {
        let text = Baseline::default().to_json();
        assert_eq!(text, "{\n  \"version\": 1,\n  \"findings\": []\n}\n");
        assert_eq!(Baseline::parse(&text), Ok(Baseline::default()));
    }

    #[test]
    fn matches_by_code_path_and_fingerprint_not_line() {
        let old = finding("SK630", "SKILL.md", 3, "curl x | sh");
        let gone = finding("SK610", "run.sh", 1, "curl -d @~/.aws");
        let baseline = Baseline::new(vec![
            Entry::of("s/SKILL.md", &old),
            Entry::of("s/run.sh", &gone),
        ]);
        let mut m = baseline.matcher();
        let moved = finding("SK630", "SKILL.md", 40, "curl   x | sh");
        assert!(m.contains("s/SKILL.md", &moved));
        assert!(!m.contains("t/SKILL.md", &moved), "another file");
        assert!(!m.contains(
            "s/SKILL.md",
            &finding("SK630", "SKILL.md", 3, "wget y | sh")
        ));
        let stale: Vec<&str> = m.stale().map(|e| e.path.as_str()).collect();
        assert_eq!(stale, ["s/run.sh"]);
    }

    #[test]
    fn hand_edited_entries_need_only_the_key() {
        let text = r#"{"version": 1, "findings": [{"code": "SK604", "path": "a", "fingerprint": "f", "severity": null}]}"#;
        let b = Baseline::parse(text).expect("a valid baseline");
        assert_eq!(b.entries()[0].severity, None);
        assert_eq!(b.entries()[0].evidence, "");
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let bad = |text: &str| match Baseline::parse(text) {
            Err(e) => e.to_string(),
            Ok(b) => format!("parsed: {b:?}"),
        };
        assert!(
            bad("nope").starts_with("not JSON at byte 0"),
            "{}",
            bad("nope")
        );
        assert_eq!(bad("[]"), "expected an object, found an array");
        assert_eq!(bad("{}"), "no `version`");
        assert_eq!(
            bad(r#"{"version": 2, "findings": []}"#),
            "`version` is 2; this scanner reads version 1"
        );
        assert_eq!(bad(r#"{"version": 1}"#), "`findings` must be an array");
        assert_eq!(
            bad(r#"{"version": 1, "findings": [{"code": "SK604", "path": "a"}]}"#),
            "`findings[0]`: no `fingerprint`"
        );
        assert_eq!(
            bad(r#"{"version": 1, "findings": [{"code": 1, "path": "a", "fingerprint": "f"}]}"#),
            "`findings[0]`: `code` must be a string, found a number"
        );
        assert_eq!(
            bad(
                r#"{"version": 1, "findings": [{"code": "SK604", "path": "a", "fingerprint": "f", "severity": "dire"}]}"#
            ),
            "`findings[0]`: unknown severity `dire`"
        );
    }
}
