//! The scanner's rule table (`skb scan --rules`): aligned columns for a
//! terminal, a JSON document for scripts, and the Markdown table of the
//! guide's "Scanning skills for attacks" section (a test checks that the
//! guide holds exactly this output).

use std::io::{self, Write};

use skills_scan::{RULES, Rule};

use crate::report::ordered::{Ordered, object, val, write_pretty};

/// The column headers of the human table.
const HEADERS: [&str; 5] = ["CODE", "NAME", "CATEGORY", "SEVERITY", "SUMMARY"];

/// Writes the rules as aligned columns.
pub fn human(out: &mut dyn Write) -> io::Result<()> {
    let cells = |r: &Rule| {
        [
            r.code.to_string(),
            r.name.to_string(),
            r.category.to_string(),
            r.severity.to_string(),
        ]
    };
    let mut widths = HEADERS.map(str::len);
    for r in RULES {
        for (w, cell) in widths.iter_mut().zip(cells(r)) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let row = |first: [String; 4], last: &str| {
        let mut line = String::new();
        for (cell, w) in first.iter().zip(widths) {
            line.push_str(&format!("{cell:<w$}  "));
        }
        line.push_str(last);
        line
    };
    let headers = HEADERS.map(str::to_string);
    let [a, b, c, d, e] = headers;
    writeln!(out, "{}", row([a, b, c, d], &e))?;
    for r in RULES {
        writeln!(out, "{}", row(cells(r), r.summary))?;
    }
    Ok(())
}

/// Writes the rules as one JSON document.
pub fn json(out: &mut dyn Write) -> io::Result<()> {
    let rules = RULES
        .iter()
        .map(|r| {
            object([
                ("code", val(r.code)),
                ("name", val(r.name)),
                ("category", val(r.category.as_str())),
                ("severity", val(r.severity.as_str())),
                ("security_severity", val(r.severity.security_severity())),
                ("summary", val(r.summary)),
                ("help", val(r.help)),
                ("example", val(r.example)),
            ])
        })
        .collect();
    write_pretty(
        out,
        &object([
            ("version", val(super::json::VERSION)),
            ("rules", Ordered::Array(rules)),
        ]),
    )
}

/// Writes the guide's Markdown table.
pub fn markdown(out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "| Code | Category | Severity | What it looks for | Example | How to suppress |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|")?;
    for r in RULES {
        let suppress = if r.code == "SK609" {
            "cannot be: write the reason after `--`".to_string()
        } else {
            format!("`skb-scan: allow {} -- <why>`", r.code)
        };
        writeln!(
            out,
            "| `{}` {} | {} | {} | {} | {} | {} |",
            r.code,
            r.name,
            r.category,
            r.severity,
            cell(r.summary),
            cell(&code_span(r.example)),
            suppress
        )?;
    }
    Ok(())
}

/// `text` as a code span, with as many backticks around it as it needs.
pub(super) fn code_span(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if longest == 0 {
        format!("{fence}{text}{fence}")
    } else {
        format!("{fence} {text} {fence}")
    }
}

/// `text` safe inside a table cell: `|` escaped, on one line.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: fn(&mut dyn Write) -> io::Result<()>) -> String {
        let mut out = Vec::new();
        f(&mut out).expect("writing to a Vec cannot fail");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn every_rule_once_in_every_form() {
        let human = text(human);
        let markdown = text(markdown);
        let json: serde_json::Value = serde_json::from_str(&text(json)).expect("the output parses");
        assert_eq!(human.lines().count(), RULES.len() + 1);
        assert_eq!(markdown.lines().count(), RULES.len() + 2);
        assert_eq!(json["rules"].as_array().map(Vec::len), Some(RULES.len()));
        for (i, r) in RULES.iter().enumerate() {
            let line = human.lines().nth(i + 1).unwrap_or_default();
            assert!(
                line.starts_with(r.code) && line.ends_with(r.summary),
                "{line}"
            );
            assert_eq!(json["rules"][i]["code"], r.code);
            // Every row has its six cells: no `|` of the text splits one.
            let row = markdown.lines().nth(i + 2).unwrap_or_default();
            assert_eq!(row.replace("\\|", "").matches('|').count(), 7, "{row}");
        }
    }

    #[test]
    fn code_spans_and_cells() {
        assert_eq!(code_span("curl x | sh"), "`curl x | sh`");
        assert_eq!(code_span("!`date`"), "`` !`date` ``");
        assert_eq!(cell("a | b"), "a \\| b");
    }
}
