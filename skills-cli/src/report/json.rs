//! JSON output: one pretty document with the summary and every skill's
//! diagnostics, for scripts and editors.
//!
//! The shape is versioned (`"version": 1`); fields are only ever added.
//! Positions are 1-based lines and character columns (end exclusive) plus the
//! byte range, and are `null` when a diagnostic has no place in a file.

use std::io::{self, Write};

use serde::ser::{Serialize, SerializeMap, Serializer};
use skills_compiler::Diagnostic;

use super::human::path_string;
pub(super) use super::ordered::{Ordered, object, val, write_pretty};
use super::{Checked, Summary};

/// The version of the document's shape.
pub const VERSION: u32 = 1;

/// Writes the whole document, then a newline, as
/// `serde_json::to_writer_pretty` writes it. The skills are serialised one
/// at a time (a report of ten thousand skills is never held whole).
pub fn render(out: &mut dyn Write, checked: &[Checked<'_>], summary: &Summary) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let doc = Document {
        checked,
        summary,
        scan: None,
    };
    serde_json::to_writer_pretty(&mut out, &doc)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// [`render`], with the security scan's document (`skb validate --scan`)
/// as one more member, `scan`.
pub(super) fn render_with_scan(
    out: &mut dyn Write,
    checked: &[Checked<'_>],
    summary: &Summary,
    scan: &Ordered,
) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let doc = Document {
        checked,
        summary,
        scan: Some(scan),
    };
    serde_json::to_writer_pretty(&mut out, &doc)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The document: its version, the summary, then every skill (and the scan's
/// document, when there was one).
struct Document<'r, 'a> {
    checked: &'r [Checked<'a>],
    summary: &'r Summary,
    scan: Option<&'r Ordered>,
}

impl Serialize for Document<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3 + usize::from(self.scan.is_some())))?;
        map.serialize_entry("version", &VERSION)?;
        map.serialize_entry("summary", &summary_object(self.summary))?;
        map.serialize_entry("skills", &Skills(self.checked))?;
        if let Some(scan) = self.scan {
            map.serialize_entry("scan", scan)?;
        }
        map.end()
    }
}

/// The skills' objects, each built as it is written.
struct Skills<'r, 'a>(&'r [Checked<'a>]);

impl Serialize for Skills<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(skill))
    }
}

fn summary_object(summary: &Summary) -> Ordered {
    // Microsecond resolution is all the clock gives in practice.
    let elapsed_ms = summary.elapsed.as_micros() as f64 / 1000.0;
    object([
        ("skills", val(summary.skills)),
        ("valid", val(summary.valid)),
        ("invalid", val(summary.skills.saturating_sub(summary.valid))),
        ("errors", val(summary.errors)),
        ("warnings", val(summary.warnings)),
        ("elapsed_ms", val(elapsed_ms)),
    ])
}

fn skill(checked: &Checked<'_>) -> Ordered {
    object([
        ("dir", val(path_string(checked.dir))),
        ("name", val(checked.name)),
        ("valid", val(checked.is_valid())),
        (
            "diagnostics",
            Ordered::Array(checked.diagnostics.iter().map(diagnostic).collect()),
        ),
        ("clients", super::clients::json(checked.clients)),
        (
            "differences",
            super::clients::differences_json(checked.differences),
        ),
    ])
}

fn diagnostic(d: &Diagnostic) -> Ordered {
    let label = d.label.as_ref();
    object([
        ("code", val(d.code.as_str())),
        ("slug", val(d.code.slug())),
        ("severity", val(d.severity.as_str())),
        ("message", val(d.message.as_str())),
        ("path", val(path_string(&d.path))),
        ("line", val(label.map(|l| l.start.line))),
        ("column", val(label.map(|l| l.start.column))),
        ("end_line", val(label.map(|l| l.end.line))),
        ("end_column", val(label.map(|l| l.end.column))),
        ("byte_start", val(label.map(|l| l.bytes.start))),
        ("byte_end", val(label.map(|l| l.bytes.end))),
        ("source_line", val(label.map(|l| l.line_text.as_str()))),
        ("help", val(d.help.as_deref())),
        ("reference", val(d.reference.as_deref())),
    ])
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::Value;

    use super::super::human::fixture::{ELAPSED, sample};
    use super::*;

    fn rendered(checked: &[Checked<'_>], summary: &Summary) -> String {
        let mut out = Vec::new();
        render(&mut out, checked, summary).expect("writing to a Vec cannot fail");
        String::from_utf8(out).expect("the output is UTF-8")
    }

    #[test]
    fn golden() {
        let f = sample();
        let text = rendered(&f.checked(), &f.summary(ELAPSED));
        let expected = r#"{
  "version": 1,
  "summary": {
    "skills": 3,
    "valid": 1,
    "invalid": 2,
    "errors": 2,
    "warnings": 1,
    "elapsed_ms": 23.0
  },
  "skills": [
    {
      "dir": "skills/MySkill",
      "name": "MySkill",
      "valid": false,
      "diagnostics": [
        {
          "code": "SK205",
          "slug": "name-not-lowercase",
          "severity": "error",
          "message": "`name` must be lowercase",
          "path": "skills/MySkill/SKILL.md",
          "line": 2,
          "column": 7,
          "end_line": 2,
          "end_column": 14,
          "byte_start": 10,
          "byte_end": 17,
          "source_line": "name: MySkill",
          "help": "use `myskill`, and rename the directory to match",
          "reference": "Skill name 'MySkill' should be lowercase"
        },
        {
          "code": "SK306",
          "slug": "description-angle-brackets",
          "severity": "warning",
          "message": "`description` contains `<`",
          "path": "skills/MySkill/SKILL.md",
          "line": 3,
          "column": 23,
          "end_line": 3,
          "end_column": 26,
          "byte_start": 46,
          "byte_end": 49,
          "source_line": "description:\tUses 日本語 <b> text.",
          "help": null,
          "reference": null
        }
      ],
      "clients": {},
      "differences": []
    },
    {
      "dir": "skills/no md",
      "name": null,
      "valid": false,
      "diagnostics": [
        {
          "code": "SK003",
          "slug": "missing-skill-md",
          "severity": "error",
          "message": "no `SKILL.md` in `skills/no md`",
          "path": "skills/no md",
          "line": null,
          "column": null,
          "end_line": null,
          "end_column": null,
          "byte_start": null,
          "byte_end": null,
          "source_line": null,
          "help": "create one or remove the directory",
          "reference": null
        }
      ],
      "clients": {},
      "differences": []
    },
    {
      "dir": "skills/fine",
      "name": "fine",
      "valid": true,
      "diagnostics": [],
      "clients": {},
      "differences": []
    }
  ]
}
"#;
        assert_eq!(text, expected);
    }

    #[test]
    fn ordered_writes_what_serde_json_pretty_writes() {
        // Keys already sorted, so that serde_json's order is the same.
        let doc = object([
            (
                "a",
                Ordered::Array(vec![val(1), val(Value::Null), object([])]),
            ),
            ("b", val("x\"y\n\u{e9}")),
            ("c", Ordered::Array(Vec::new())),
            ("d", object([("e", val(0.5))])),
        ]);
        let mut out = Vec::new();
        write_pretty(&mut out, &doc).expect("writing to a Vec cannot fail");
        let same = serde_json::json!({
            "a": [1, null, {}],
            "b": "x\"y\n\u{e9}",
            "c": [],
            "d": { "e": 0.5 },
        });
        let expected = serde_json::to_string_pretty(&same).expect("a Value serialises");
        assert_eq!(
            String::from_utf8(out).expect("the output is UTF-8"),
            expected + "\n"
        );
    }

    #[test]
    fn empty_run_and_fractional_time() {
        let summary = Summary::of(&[], Duration::from_micros(420));
        let value: Value =
            serde_json::from_str(&rendered(&[], &summary)).expect("the output parses");
        assert_eq!(value["summary"]["elapsed_ms"], Value::from(0.42));
        assert_eq!(value["summary"]["skills"], Value::from(0));
        assert_eq!(value["skills"], Value::Array(Vec::new()));
    }
}
