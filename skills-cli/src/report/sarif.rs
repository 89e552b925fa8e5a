//! SARIF 2.1.0 output, for GitHub code scanning and other SARIF viewers.
//!
//! One run; the driver lists every code in [`Code::ALL`] as a rule, and each
//! result points at its rule by id and by index. Locations are relative URIs
//! exactly as the user named the paths (`/` separators, percent-encoded), and
//! columns count Unicode code points (`columnKind`), as the compiler does.
//! GitHub needs a `region` with a `startLine` on every result, so a diagnostic
//! without a position (a missing file, a directory) points at line 1.

use std::io::{self, Write};
use std::path::Path;

use skills_compiler::{Code, Diagnostic, Profile};

use super::human::path_string;
use super::json::{Ordered, object, val, write_pretty};
use super::{Checked, Summary};

/// The project's home page.
const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

/// Where every code is explained.
const HELP_URI: &str = concat!(
    env!("CARGO_PKG_REPOSITORY"),
    "/blob/main/README.md#diagnostic-codes"
);

/// Writes the SARIF log, then a newline. The summary adds nothing SARIF has
/// a place for; it is taken for a uniform signature.
pub fn render(out: &mut dyn Write, checked: &[Checked<'_>], _summary: &Summary) -> io::Result<()> {
    write_pretty(out, &log(checked))
}

fn log(checked: &[Checked<'_>]) -> Ordered {
    let rules = Code::ALL.iter().map(|&c| rule(c)).collect();
    let results = checked
        .iter()
        .flat_map(|c| c.diagnostics)
        .map(result)
        .collect();
    let driver = object([
        ("name", val("skills")),
        ("version", val(env!("CARGO_PKG_VERSION"))),
        ("informationUri", val(INFORMATION_URI)),
        ("rules", Ordered::Array(rules)),
    ]);
    let run = object([
        ("tool", object([("driver", driver)])),
        ("columnKind", val("unicodeCodePoints")),
        ("results", Ordered::Array(results)),
    ]);
    object([
        (
            "$schema",
            val("https://json.schemastore.org/sarif-2.1.0.json"),
        ),
        ("version", val("2.1.0")),
        ("runs", Ordered::Array(vec![run])),
    ])
}

fn rule(code: Code) -> Ordered {
    object([
        ("id", val(code.as_str())),
        ("name", val(code.slug())),
        ("shortDescription", object([("text", val(code.summary()))])),
        ("helpUri", val(HELP_URI)),
        (
            "defaultConfiguration",
            object([("level", val(default_level(code)))]),
        ),
    ])
}

/// The level a code usually has. The profile decides each diagnostic's
/// severity and every result carries its own `level`; this is only the
/// default a viewer shows for the rule: quality lints (`SK3xx`) warn, the
/// rest are errors.
/// The level under the default profile; each result carries its own.
fn default_level(code: Code) -> &'static str {
    Profile::Spec.severity(code).as_str()
}

fn result(d: &Diagnostic) -> Ordered {
    let rule_index = Code::ALL.iter().position(|&c| c == d.code);
    let text = match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    };
    let region = match &d.label {
        Some(l) => object([
            ("startLine", val(l.start.line)),
            ("startColumn", val(l.start.column)),
            ("endLine", val(l.end.line)),
            ("endColumn", val(l.end.column)),
        ]),
        None => object([("startLine", val(1))]),
    };
    let physical = object([
        ("artifactLocation", object([("uri", val(uri(&d.path)))])),
        ("region", region),
    ]);
    object([
        ("ruleId", val(d.code.as_str())),
        ("ruleIndex", val(rule_index)),
        ("level", val(d.severity.as_str())),
        ("message", object([("text", val(text))])),
        (
            "locations",
            Ordered::Array(vec![object([("physicalLocation", physical)])]),
        ),
    ])
}

/// A URI reference for `path`: relative paths stay relative, absolute ones
/// become `file:` URIs; everything but unreserved characters and `/` is
/// percent-encoded (and `:` too in a relative path, where it would read as a scheme).
fn uri(path: &Path) -> String {
    let text = path_string(path);
    if !path.is_absolute() {
        return percent_encode(&text, false);
    }
    let prefix = if text.starts_with("//") {
        "file:"
    } else if text.starts_with('/') {
        "file://"
    } else {
        "file:///"
    };
    format!("{prefix}{}", percent_encode(&text, true))
}

fn percent_encode(text: &str, keep_colon: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) || (keep_colon && b == b':') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::human::fixture::{ELAPSED, sample};
    use super::*;

    fn parsed() -> Value {
        let f = sample();
        let mut out = Vec::new();
        render(&mut out, &f.checked(), &f.summary(ELAPSED)).expect("writing to a Vec cannot fail");
        serde_json::from_slice(&out).expect("the output parses")
    }

    #[test]
    fn every_result_names_its_rule_by_index() {
        let log = parsed();
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"]
            .as_array()
            .expect("rules is an array");
        assert_eq!(rules.len(), Code::ALL.len());
        let results = run["results"].as_array().expect("results is an array");
        assert_eq!(results.len(), 3);
        for result in results {
            let index = result["ruleIndex"].as_u64().expect("ruleIndex is a number");
            let index = usize::try_from(index).expect("ruleIndex fits");
            assert_eq!(rules[index]["id"], result["ruleId"]);
            let level = result["level"].as_str().expect("level is a string");
            assert!(level == "error" || level == "warning");
            let region = &result["locations"][0]["physicalLocation"]["region"];
            assert!(region["startLine"].as_u64() >= Some(1));
            for key in ["startColumn", "endColumn"] {
                assert!(region.get(key).is_none() || region[key].as_u64() >= Some(1));
            }
        }
    }

    #[test]
    fn log_shape() {
        let log = parsed();
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(
            log["$schema"],
            "https://json.schemastore.org/sarif-2.1.0.json"
        );
        let driver = &log["runs"][0]["tool"]["driver"];
        assert_eq!(driver["name"], "skills");
        assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
        let rule = &driver["rules"][0];
        assert_eq!(rule["id"], "SK001");
        assert_eq!(rule["name"], "path-not-found");
        assert_eq!(
            rule["helpUri"],
            "https://github.com/skills-rs/skills/blob/main/README.md#diagnostic-codes"
        );
    }

    #[test]
    fn golden_results() {
        let log = parsed();
        let index = |code| Code::ALL.iter().position(|&c| c == code);
        let expected = json!([
            {
                "ruleId": "SK205",
                "ruleIndex": index(Code::NameNotLowercase),
                "level": "error",
                "message": { "text": "`name` must be lowercase\nhelp: use `myskill`, and rename the directory to match" },
                "locations": [{ "physicalLocation": {
                    "artifactLocation": { "uri": "skills/MySkill/SKILL.md" },
                    "region": { "startLine": 2, "startColumn": 7, "endLine": 2, "endColumn": 14 }
                }}]
            },
            {
                "ruleId": "SK306",
                "ruleIndex": index(Code::DescriptionAngleBrackets),
                "level": "warning",
                "message": { "text": "`description` contains `<`" },
                "locations": [{ "physicalLocation": {
                    "artifactLocation": { "uri": "skills/MySkill/SKILL.md" },
                    "region": { "startLine": 3, "startColumn": 23, "endLine": 3, "endColumn": 26 }
                }}]
            },
            {
                "ruleId": "SK003",
                "ruleIndex": index(Code::MissingSkillMd),
                "level": "error",
                "message": { "text": "no `SKILL.md` in `skills/no md`\nhelp: create one or remove the directory" },
                "locations": [{ "physicalLocation": {
                    "artifactLocation": { "uri": "skills/no%20md" },
                    "region": { "startLine": 1 }
                }}]
            }
        ]);
        assert_eq!(log["runs"][0]["results"], expected);
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri(Path::new("a b/ü:x#1.md")), "a%20b/%C3%BC%3Ax%231.md");
        assert_eq!(uri(Path::new("./s/SKILL.md")), "./s/SKILL.md");
        #[cfg(unix)]
        assert_eq!(uri(Path::new("/tmp/a b")), "file:///tmp/a%20b");
    }
}
