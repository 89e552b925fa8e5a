//! SARIF 2.1.0 output, for GitHub code scanning and other SARIF viewers.
//!
//! One run; the driver lists every code in [`Code::ALL`] as a rule, and each
//! result points at its rule by id and by index. Every rule has what GitHub
//! code scanning requires (`fullDescription`, `help`) and a PascalCase
//! `name`; the output passes Microsoft's SARIF Multitool
//! (`validate --rule-kind "Sarif;Gh"`, checked in CI by `.ci/run`).
//!
//! Locations are relative URIs (`/` separators, percent-encoded) with a
//! `uriBaseId`: a path the user named relatively stays as named, relative to
//! `%SRCROOT%`, the working directory (a checkout's root in CI; GitHub reads
//! it so); an absolute path inside the working directory is made relative to
//! it too, and any other absolute path is relative to `ROOT`, the file
//! system's root. The run's `originalUriBaseIds` gives both as `file:` URIs.
//! Columns count Unicode code points (`columnKind`), as the compiler does.
//! GitHub needs a `region` with a `startLine` on every result, so a diagnostic
//! without a position (a missing file, a directory) points at line 1.

use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

use skills_compiler::{Code, Diagnostic, Profile};

use super::human::path_string;
use super::json::{Ordered, object, val, write_pretty};
use super::{Checked, Summary};

/// The project's home page.
pub(super) const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

/// Where every code is explained.
const HELP_URI: &str = concat!(
    env!("CARGO_PKG_REPOSITORY"),
    "/blob/main/GUIDE.md#diagnostic-codes"
);

/// The base of paths named relatively: the working directory.
const SRCROOT: &str = "%SRCROOT%";
/// The base of other absolute paths: the file system's root.
const ROOT: &str = "ROOT";

/// Writes the SARIF log, then a newline. The summary adds nothing SARIF has
/// a place for; it is taken for a uniform signature.
pub fn render(out: &mut dyn Write, checked: &[Checked<'_>], _summary: &Summary) -> io::Result<()> {
    let cwd = std::env::current_dir()?;
    write_pretty(out, &log(checked, &cwd))
}

fn log(checked: &[Checked<'_>], cwd: &Path) -> Ordered {
    envelope(vec![run(checked, cwd)])
}

/// The log around `runs` (`skb validate --scan` writes two: validation and
/// scan).
pub(super) fn envelope(runs: Vec<Ordered>) -> Ordered {
    object([
        (
            "$schema",
            val("https://json.schemastore.org/sarif-2.1.0.json"),
        ),
        ("version", val("2.1.0")),
        ("runs", Ordered::Array(runs)),
    ])
}

/// The validation's run.
pub(super) fn run(checked: &[Checked<'_>], cwd: &Path) -> Ordered {
    let rules = Code::ALL.iter().map(|&c| rule(c)).collect();
    let results = checked
        .iter()
        .flat_map(|c| c.diagnostics)
        .map(|d| result(d, cwd))
        .collect();
    let driver = object([
        ("name", val("skb")),
        ("version", val(env!("CARGO_PKG_VERSION"))),
        ("informationUri", val(INFORMATION_URI)),
        ("rules", Ordered::Array(rules)),
    ]);
    object([
        ("tool", object([("driver", driver)])),
        ("originalUriBaseIds", bases(cwd)),
        ("columnKind", val("unicodeCodePoints")),
        ("results", Ordered::Array(results)),
    ])
}

/// `originalUriBaseIds`: `%SRCROOT%` (the working directory) and `ROOT`.
pub(super) fn bases(cwd: &Path) -> Ordered {
    object([
        (SRCROOT, object([("uri", val(dir_uri(cwd)))])),
        (ROOT, object([("uri", val(dir_uri(&fs_root(cwd))))])),
    ])
}

fn rule(code: Code) -> Ordered {
    let full = format!("{}: {}.", code.as_str(), code.summary());
    let help_text =
        format!("{full} Every code, with how to fix it, is listed in the guide: {HELP_URI}");
    let help_markdown =
        format!("{full} Every code, with how to fix it, is listed in the [guide]({HELP_URI}).");
    object([
        ("id", val(code.as_str())),
        ("name", val(pascal_case(code.slug()))),
        ("shortDescription", object([("text", val(code.summary()))])),
        ("fullDescription", object([("text", val(full))])),
        (
            "help",
            object([("text", val(help_text)), ("markdown", val(help_markdown))]),
        ),
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

/// `name-not-lowercase` as `NameNotLowercase`, the form SARIF asks rule
/// names in. The article `a` is left out: the Multitool takes a one-letter
/// word (`NotADirectory`) for a broken identifier.
pub(super) fn pascal_case(slug: &str) -> String {
    slug.split('-')
        .filter(|word| *word != "a")
        .flat_map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}

fn result(d: &Diagnostic, cwd: &Path) -> Ordered {
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
        ("artifactLocation", location(&d.path, cwd)),
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

/// An `artifactLocation` for `path`: a relative URI reference and its base.
pub(super) fn location(path: &Path, cwd: &Path) -> Ordered {
    let (relative, base) = if !path.is_absolute() {
        (path.to_path_buf(), SRCROOT)
    } else if let Ok(inside) = path.strip_prefix(cwd) {
        (inside.to_path_buf(), SRCROOT)
    } else {
        let below_root: PathBuf = path
            .components()
            .filter(|c| {
                matches!(
                    c,
                    Component::Normal(_) | Component::CurDir | Component::ParentDir
                )
            })
            .collect();
        (below_root, ROOT)
    };
    object([("uri", val(uri(&relative))), ("uriBaseId", val(base))])
}

/// A relative URI reference for the relative `path`: everything but
/// unreserved characters and `/` is percent-encoded (`:` too, where it would
/// read as a scheme).
fn uri(path: &Path) -> String {
    percent_encode(&path_string(path), false)
}

/// The root `dir` sits under: `/`, or a Windows drive's root.
fn fs_root(dir: &Path) -> PathBuf {
    dir.components()
        .take_while(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
        .collect()
}

/// The `file:` URI of the absolute directory `dir`, ending in `/` as a base must.
fn dir_uri(dir: &Path) -> String {
    let mut text = path_string(dir);
    if !text.ends_with('/') {
        text.push('/');
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
        assert_eq!(driver["name"], "skb");
        assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
        let rule = &driver["rules"][0];
        assert_eq!(rule["id"], "SK001");
        assert_eq!(rule["name"], "PathNotFound");
        assert_eq!(
            rule["fullDescription"]["text"],
            "SK001: a path given to the validator does not exist."
        );
        // GitHub code scanning refuses a rule without `help` (GH2012).
        for rule in driver["rules"].as_array().expect("rules is an array") {
            assert!(
                rule["help"]["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("GUIDE.md"))
            );
            assert!(rule["help"]["markdown"].is_string());
            assert!(rule["fullDescription"]["text"].is_string());
        }
        let bases = &log["runs"][0]["originalUriBaseIds"];
        let src = bases["%SRCROOT%"]["uri"].as_str().expect("a base URI");
        assert!(src.starts_with("file:///") && src.ends_with('/'), "{src}");
        #[cfg(unix)]
        assert_eq!(bases["ROOT"]["uri"], "file:///");
        assert_eq!(
            rule["helpUri"],
            "https://github.com/skills-rs/skills/blob/main/GUIDE.md#diagnostic-codes"
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
                    "artifactLocation": { "uri": "skills/MySkill/SKILL.md", "uriBaseId": "%SRCROOT%" },
                    "region": { "startLine": 2, "startColumn": 7, "endLine": 2, "endColumn": 14 }
                }}]
            },
            {
                "ruleId": "SK306",
                "ruleIndex": index(Code::DescriptionAngleBrackets),
                "level": "warning",
                "message": { "text": "`description` contains `<`" },
                "locations": [{ "physicalLocation": {
                    "artifactLocation": { "uri": "skills/MySkill/SKILL.md", "uriBaseId": "%SRCROOT%" },
                    "region": { "startLine": 3, "startColumn": 23, "endLine": 3, "endColumn": 26 }
                }}]
            },
            {
                "ruleId": "SK003",
                "ruleIndex": index(Code::MissingSkillMd),
                "level": "error",
                "message": { "text": "no `SKILL.md` in `skills/no md`\nhelp: create one or remove the directory" },
                "locations": [{ "physicalLocation": {
                    "artifactLocation": { "uri": "skills/no%20md", "uriBaseId": "%SRCROOT%" },
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
        assert_eq!(dir_uri(Path::new("/tmp/a b")), "file:///tmp/a%20b/");
    }

    #[test]
    fn rule_names_are_pascal_case() {
        assert_eq!(pascal_case("name-not-lowercase"), "NameNotLowercase");
        assert_eq!(pascal_case("skill-md-not-a-file"), "SkillMdNotFile");
        for code in Code::ALL {
            let name = pascal_case(code.slug());
            // Words of two or more characters, each capitalised.
            let mut words = name.split(|c: char| c.is_ascii_uppercase()).skip(1);
            assert!(
                name.chars().all(|c| c.is_ascii_alphanumeric())
                    && name.starts_with(|c: char| c.is_ascii_uppercase())
                    && words.all(|w| !w.is_empty()),
                "{name}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn absolute_paths_are_relative_to_a_base() {
        let cwd = Path::new("/work/repo");
        let shown = |p: &str| {
            let mut text = String::new();
            if let Ordered::Object(fields) = location(Path::new(p), cwd) {
                for (k, v) in fields {
                    if let Ordered::Value(v) = v {
                        text.push_str(&format!("{k}={} ", v.as_str().unwrap_or_default()));
                    }
                }
            }
            text
        };
        assert_eq!(shown("s/SKILL.md"), "uri=s/SKILL.md uriBaseId=%SRCROOT% ");
        assert_eq!(
            shown("/work/repo/.claude/skills/a/SKILL.md"),
            "uri=.claude/skills/a/SKILL.md uriBaseId=%SRCROOT% "
        );
        assert_eq!(
            shown("/home/u/.claude/skills/a b/SKILL.md"),
            "uri=home/u/.claude/skills/a%20b/SKILL.md uriBaseId=ROOT "
        );
    }
}
