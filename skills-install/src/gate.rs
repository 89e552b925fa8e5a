//! The install gate: the security scan ([`skills_scan`]) of every skill
//! `add`, `install`, `update` and `import` are about to place, over the very
//! bytes that will be written, and the refusal of a skill with a finding at
//! or above the gate that nothing accepted.
//!
//! The gate is `--scan-fail-on`, else the `fail_on` the lock records for the
//! skill, else `high`. A finding at or above it passes when `--allow-finding`
//! names its rule or its fingerprint, or when the lock's `scan.allowed`
//! lists it (an acceptance recorded earlier carries over to the same
//! finding, as `--allow-unsigned` does to a skill's updates); any other
//! refuses the skill before anything is written, naming the source, the
//! skill, each finding and the flags. What passed is recorded in the lock
//! ([`LockedScan`]): `install --frozen` scans again and holds the result to
//! that record, so a finding a newer scanner reports must be accepted anew
//! (`skb update NAME --allow-finding …`).

use skills_core::lock::{FindingCounts, LockedScan};
use skills_scan::{Finding, Markers, Options, Report, Severity, SkillFile};

use crate::accept::{Allow, FailOn};
use crate::error::{Error, Result, Stage};
use crate::observe::{Event, Note, Observer};

/// The scanner as the lock names it, with its own version: a newer
/// scanner may find more, and the lock says which one accepted a skill.
pub fn engine() -> String {
    format!("skills-scan {}", skills_scan::VERSION)
}

/// The scanner's options at the gate, and wherever a scan should report
/// what the gate will see (`skb publish`'s pages): the skill's own markers
/// never lower its gate; they show in the findings' messages, and only the
/// user and the lock accept a finding.
pub fn options() -> Options {
    Options {
        markers: Markers::Report,
        ..Options::default()
    }
}

/// The scan of `files` (a skill's files as they will be written) that
/// [`Gate::judge`] decides on: it depends on the bytes alone, so the skills
/// of one command can be scanned on all cores and judged in order after.
pub(crate) fn scan(files: &[(String, Vec<u8>, bool)]) -> Report {
    let files: Vec<SkillFile<'_>> = files
        .iter()
        .map(|(path, bytes, _)| SkillFile { path, bytes })
        .collect();
    skills_scan::scan(&files, &options())
}

/// The gate when neither the command line nor the lock names one.
const DEFAULT: FailOn = FailOn(Some(Severity::High));

/// The most findings a refusal lists one by one.
const MAX_LISTED: usize = 20;

/// What the command line asks of the gate, for every skill of one command.
#[derive(Debug, Clone)]
pub struct Gate {
    fail_on: Option<FailOn>,
    allow: Vec<Allow>,
    /// `install`: the refusal points at `update` to record an acceptance.
    restoring: bool,
}

impl Gate {
    /// The gate `fail_on` asks for (`None`: the lock's, else `high`),
    /// with the findings `allow` accepts.
    pub fn new(fail_on: Option<FailOn>, allow: Vec<Allow>) -> Gate {
        Gate {
            fail_on,
            allow,
            restoring: false,
        }
    }

    /// The same gate for `install`, which restores the lock rather than
    /// records: its refusals point at `update`.
    pub(crate) fn restoring(&self) -> Gate {
        Gate {
            restoring: true,
            ..self.clone()
        }
    }

    /// Scans `files` (the skill `name`'s files as they will be written,
    /// from `source`) and returns what the lock records of it, or the
    /// refusal. `locked` is the skill's record in the lock, if any: its gate
    /// and its accepted findings carry over.
    pub(crate) fn check(
        &self,
        source: &str,
        name: &str,
        files: &[(String, Vec<u8>, bool)],
        locked: Option<&LockedScan>,
        observer: &dyn Observer,
    ) -> Result<LockedScan> {
        self.judge(source, name, &scan(files), locked, observer)
    }

    /// [`Gate::check`] of a skill already [`scan`]ned: its `report`.
    pub(crate) fn judge(
        &self,
        source: &str,
        name: &str,
        report: &Report,
        locked: Option<&LockedScan>,
        observer: &dyn Observer,
    ) -> Result<LockedScan> {
        let fail_on = self
            .fail_on
            .or_else(|| locked.and_then(|l| FailOn::parse(&l.fail_on)))
            .unwrap_or(DEFAULT);
        for claim in &report.claimed {
            observer.event(Event::Note(Note::Marker {
                skill: name.to_string(),
                marker: format!(
                    "{}:{} claims to allow {} (\"{}\")",
                    claim.finding.path, claim.marker_line, claim.finding.rule.code, claim.reason
                ),
            }));
        }
        let mut findings = FindingCounts::default();
        let mut allowed = Vec::new();
        let mut refused = Vec::new();
        let mut below = 0usize;
        for f in &report.findings {
            if let Some(n) = findings.get_mut(f.severity.as_str()) {
                *n += 1;
            }
            if fail_on.0.is_none_or(|gate| f.severity < gate) {
                below += 1;
                continue;
            }
            let fingerprint = f.fingerprint();
            let id = format!("{}:{fingerprint}", f.rule.code);
            let accepted = self.allow.iter().any(|a| a.accepts(f, &fingerprint))
                || locked.is_some_and(|l| l.allowed.contains(&id));
            if accepted {
                observer.event(Event::Note(Note::Accepted {
                    skill: name.to_string(),
                    finding: describe(f, &fingerprint),
                }));
                allowed.push(id);
            } else {
                refused.push(describe(f, &fingerprint));
            }
        }
        if !refused.is_empty() {
            return Err(Error::refused(
                Stage::Scan,
                self.refusal(source, name, fail_on, &refused),
            ));
        }
        if below > 0 {
            observer.event(Event::Note(Note::BelowGate {
                skill: name.to_string(),
                count: below,
                gate: fail_on.as_str(),
            }));
        }
        allowed.sort();
        allowed.dedup();
        Ok(LockedScan {
            engine: engine(),
            fail_on: fail_on.as_str().to_string(),
            findings,
            allowed,
        })
    }

    fn refusal(&self, source: &str, name: &str, fail_on: FailOn, refused: &[String]) -> String {
        let mut lines = vec![format!(
            "refusing `{source}` skill `{name}`: its security scan reports {} finding{} at or above `{}` that nothing accepted; nothing was written",
            refused.len(),
            if refused.len() == 1 { "" } else { "s" },
            fail_on.as_str()
        )];
        lines.extend(refused.iter().take(MAX_LISTED).map(|r| format!("  {r}")));
        if refused.len() > MAX_LISTED {
            lines.push(format!(
                "  … and {} more (`skb scan` lists them)",
                refused.len() - MAX_LISTED
            ));
        }
        let how = "--allow-finding CODE:FINGERPRINT accepts one finding (as printed in brackets), --allow-finding CODE a rule's every finding, --scan-fail-on SEVERITY|none moves the gate";
        lines.push(if self.restoring {
            format!(
                "review the skill; the lock does not accept these findings: `skb update {name}` with {how}, and records it in the lock"
            )
        } else {
            format!("review the skill; {how}; each accepted finding is recorded in the lock")
        });
        lines.join("\n")
    }
}

/// A finding in one line: code, rule name, severity, place, message, and
/// the identity `--allow-finding` takes.
fn describe(f: &Finding, fingerprint: &str) -> String {
    format!(
        "{} {} ({}) at {}:{}: {} [{}:{fingerprint}]",
        f.rule.code, f.rule.name, f.severity, f.path, f.line, f.message, f.rule.code
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accept::{parse_allow, parse_fail_on};
    use crate::observe::Quiet;

    fn hidden(words: &str) -> String {
        let tags: String = words
            .chars()
            .filter_map(|c| char::from_u32(0xE0000 + c as u32))
            .collect();
        format!("---\nname: x\ndescription: Does x.\n---\nUse it.{tags}\n")
    }

    fn files(text: &str) -> Vec<(String, Vec<u8>, bool)> {
        vec![("SKILL.md".to_string(), text.as_bytes().to_vec(), false)]
    }

    fn gate(fail_on: Option<&str>, allow: &[&str]) -> Gate {
        Gate::new(
            fail_on.map(|f| parse_fail_on(f).expect("severity")),
            allow
                .iter()
                .map(|a| parse_allow(a).expect("allow"))
                .collect(),
        )
    }

    #[test]
    fn the_flags_read_severities_rules_and_fingerprints() {
        assert_eq!(parse_fail_on("HIGH"), Ok(FailOn(Some(Severity::High))));
        assert_eq!(parse_fail_on("none"), Ok(FailOn(None)));
        assert!(parse_fail_on("severe").is_err());
        assert_eq!(parse_allow("sk604"), Ok(Allow::Rule("SK604")));
        assert_eq!(parse_allow("hidden-text"), Ok(Allow::Rule("SK604")));
        assert_eq!(
            parse_allow("SK604:0123456789ABCDEF01234567"),
            Ok(Allow::Finding {
                code: Some("SK604"),
                fingerprint: "0123456789abcdef01234567".into()
            })
        );
        assert_eq!(
            parse_allow("0123456789abcdef"),
            Ok(Allow::Finding {
                code: None,
                fingerprint: "0123456789abcdef".into()
            })
        );
        for bad in ["SK999", "SK604:xyz", "SK604:12", "no-such-rule", "abc"] {
            assert!(parse_allow(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_hidden_instruction_is_refused_accepted_by_flag_or_lock_and_counted() {
        let text = hidden("prefer short sentences");
        let refusal = gate(None, &[])
            .check("./src", "x", &files(&text), None, &Quiet)
            .expect_err("refused");
        let message = refusal.to_string();
        assert!(message.contains("refusing `./src` skill `x`"), "{message}");
        assert!(
            message.contains("SK604 hidden-text (high) at SKILL.md:5"),
            "{message}"
        );
        assert!(message.contains("--allow-finding"), "{message}");

        let record = gate(None, &["SK604"])
            .check("./src", "x", &files(&text), None, &Quiet)
            .expect("accepted");
        assert_eq!(record.engine, engine());
        assert_eq!(record.fail_on, "high");
        assert!(record.findings.high >= 1, "{record:?}");
        assert_eq!(record.allowed.len(), 1);
        assert!(record.allowed[0].starts_with("SK604:"), "{record:?}");
        assert!(message.contains(&format!("[{}]", record.allowed[0])));

        // The recorded acceptance carries over, and the fingerprint alone
        // accepts the same finding.
        assert_eq!(
            gate(None, &[])
                .check("./src", "x", &files(&text), Some(&record), &Quiet)
                .ok()
                .as_ref(),
            Some(&record)
        );
        assert_eq!(
            gate(None, &[&record.allowed[0]])
                .check("./src", "x", &files(&text), None, &Quiet)
                .ok()
                .as_ref(),
            Some(&record)
        );
        // A different hidden text is a different finding.
        assert!(
            gate(None, &[])
                .check(
                    "./src",
                    "x",
                    &files(&hidden("use active voice")),
                    Some(&record),
                    &Quiet
                )
                .is_err()
        );
    }

    #[test]
    fn the_gate_moves_with_the_flag_or_the_lock() {
        let text = hidden("prefer short sentences");
        let none = gate(Some("none"), &[])
            .check("./src", "x", &files(&text), None, &Quiet)
            .expect("no gate");
        assert_eq!(none.fail_on, "none");
        assert!(none.allowed.is_empty());
        assert!(none.findings.high >= 1);
        // The lock's `none` carries over; a flag overrides it.
        assert!(
            gate(None, &[])
                .check("./src", "x", &files(&text), Some(&none), &Quiet)
                .is_ok()
        );
        assert!(
            gate(Some("high"), &[])
                .check("./src", "x", &files(&text), Some(&none), &Quiet)
                .is_err()
        );
        assert!(
            gate(Some("critical"), &[])
                .check("./src", "x", &files(&text), None, &Quiet)
                .is_ok()
        );
    }

    #[test]
    fn a_clean_skill_passes_with_nothing_recorded_but_the_gate() {
        let record = gate(None, &[])
            .check(
                "./src",
                "x",
                &files("---\nname: x\ndescription: Does x.\n---\nUse it.\n"),
                None,
                &Quiet,
            )
            .expect("clean");
        assert_eq!(record.findings, FindingCounts::default());
        assert!(record.allowed.is_empty());
    }
}
