//! What the install gate accepts, as the command line writes it: the
//! severity that refuses a skill (`--scan-fail-on`, also the lock's
//! `fail_on`) and the findings allowed past it (`--allow-finding`). A leaf
//! module, so that the argument parser and the gate both read it.

use skills_scan::{Finding, Severity};

/// `--scan-fail-on`: the lowest severity that refuses a skill, or `none`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailOn(pub Option<Severity>);

impl FailOn {
    /// The name, as the flag and the lock write it.
    pub fn as_str(self) -> &'static str {
        self.0.map_or("none", Severity::as_str)
    }

    /// The name as the flag or the lock writes it, if it is one.
    pub fn parse(text: &str) -> Option<FailOn> {
        if text.trim().eq_ignore_ascii_case("none") {
            return Some(FailOn(None));
        }
        Severity::parse(text).map(|s| FailOn(Some(s)))
    }
}

/// Reads `--scan-fail-on`.
pub fn parse_fail_on(text: &str) -> Result<FailOn, String> {
    FailOn::parse(text).ok_or_else(|| {
        format!("`{text}` is not a severity (info, low, medium, high, critical) or `none`")
    })
}

/// One `--allow-finding`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Allow {
    /// Every finding of the rule with this code.
    Rule(&'static str),
    /// One finding, by its fingerprint (and its rule, when written
    /// `CODE:fingerprint`).
    Finding {
        /// The rule's code, when given.
        code: Option<&'static str>,
        /// The fingerprint, lowercase hex.
        fingerprint: String,
    },
}

impl Allow {
    /// Whether this acceptance covers `finding` (whose fingerprint is given).
    pub fn accepts(&self, finding: &Finding, fingerprint: &str) -> bool {
        match self {
            Allow::Rule(code) => finding.rule.code == *code,
            Allow::Finding {
                code,
                fingerprint: fp,
            } => fp == fingerprint && code.is_none_or(|c| c == finding.rule.code),
        }
    }
}

/// Reads `--allow-finding`: a rule's code or name, `CODE:fingerprint`, or
/// a bare fingerprint.
pub fn parse_allow(text: &str) -> Result<Allow, String> {
    let text = text.trim();
    let fingerprint = |fp: &str| -> Result<String, String> {
        let fp = fp.to_ascii_lowercase();
        if (8..=64).contains(&fp.len()) && fp.bytes().all(|b| b.is_ascii_hexdigit()) {
            Ok(fp)
        } else {
            Err(format!(
                "`{text}`: a fingerprint is the hex digits a refusal or `skb scan` prints"
            ))
        }
    };
    let rule = |name: &str| {
        skills_scan::rule(name).map(|r| r.code).ok_or_else(|| {
            format!("`{name}` is not a rule of the scanner (`skb scan --rules` lists them)")
        })
    };
    if let Some((code, fp)) = text.split_once(':') {
        return Ok(Allow::Finding {
            code: Some(rule(code)?),
            fingerprint: fingerprint(fp)?,
        });
    }
    if let Some(r) = skills_scan::rule(text) {
        return Ok(Allow::Rule(r.code));
    }
    if text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(Allow::Finding {
            code: None,
            fingerprint: fingerprint(text)?,
        });
    }
    Err(format!(
        "`{text}` is neither a rule's code or name (SK604, hidden-text) nor a finding's fingerprint (SK604:1a2b…)"
    ))
}
