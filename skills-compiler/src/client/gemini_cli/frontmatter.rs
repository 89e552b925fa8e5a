//! Where Gemini CLI finds the frontmatter and the body of a `SKILL.md`, and
//! its second reading of a frontmatter whose YAML it cannot use: `name:` and
//! `description:` read from the lines themselves.
//!
//! Both behave as Gemini CLI 0.61.0's JavaScript patterns, written out here
//! with JavaScript's whitespace (`\s`, what `trim` removes) and its `.`
//! (anything but a line terminator).

use skills_core::catalog::claude_code::is_js_whitespace;

/// A `SKILL.md` as Gemini CLI splits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts<'t> {
    /// The text between the delimiters: the line break before the closing
    /// `---` (`\n` or `\r\n`) is not part of it.
    pub yaml: &'t str,
    /// What follows the closing `---` and its line break; empty when
    /// something else follows `---` on its line, or nothing at all.
    pub body: &'t str,
}

/// Why a text has no frontmatter for Gemini CLI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoFrontmatter {
    /// It starts with a byte-order mark.
    Bom,
    /// `---` comes after blank lines or spaces.
    NotFirst,
    /// It does not start with `---` at all.
    Missing,
    /// The first line is `---` followed by something other than a line
    /// break (`----`, `--- x`).
    OpeningLine,
    /// No line starting with `---` follows the opening one.
    Unclosed,
}

impl NoFrontmatter {
    /// Why, as a clause after "Gemini CLI skips the skill:".
    pub fn why(self) -> &'static str {
        match self {
            NoFrontmatter::Bom => {
                "the file starts with a byte-order mark, so its frontmatter does not start at the first byte"
            }
            NoFrontmatter::NotFirst => {
                "the frontmatter's `---` is not at the first byte of the file (a blank line or spaces come first)"
            }
            NoFrontmatter::Missing => {
                "there is no frontmatter (the file does not start with `---`)"
            }
            NoFrontmatter::OpeningLine => {
                "the first line is not exactly `---` (something follows it on the line)"
            }
            NoFrontmatter::Unclosed => {
                "the frontmatter is never closed (no line starting with `---` follows the opening one)"
            }
        }
    }
}

/// Splits `text` as Gemini CLI does, which behaves as the pattern
/// `^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?`: `---` and a line break
/// at the very first byte; the YAML runs to the first line that *starts*
/// with `---` (`---x` and `----` close it too); the body is what follows
/// that line's break, or nothing when the closing `---` is followed by
/// anything else on its line.
pub fn split(text: &str) -> Result<Parts<'_>, NoFrontmatter> {
    let Some(rest) = text.strip_prefix("---") else {
        return Err(if text.starts_with('\u{FEFF}') {
            NoFrontmatter::Bom
        } else if text.trim_start_matches(is_js_whitespace).starts_with("---") {
            NoFrontmatter::NotFirst
        } else {
            NoFrontmatter::Missing
        });
    };
    let yaml_start = if rest.starts_with("\r\n") {
        2
    } else if rest.starts_with('\n') {
        1
    } else {
        return Err(NoFrontmatter::OpeningLine);
    };
    let inner = &rest[yaml_start..];
    // The first `\n---` whose line break is inside the YAML's text (the
    // YAML may be empty: `---\n\n---`).
    let Some(newline) = inner.find("\n---") else {
        return Err(NoFrontmatter::Unclosed);
    };
    let yaml_end = if newline > 0 && inner.as_bytes()[newline - 1] == b'\r' {
        newline - 1
    } else {
        newline
    };
    let after = &inner[newline + "\n---".len()..];
    let body = after
        .strip_prefix("\r\n")
        .or_else(|| after.strip_prefix('\n'))
        .unwrap_or("");
    Ok(Parts {
        yaml: &inner[..yaml_end],
        body,
    })
}

/// The value of a line `key: value` as the pattern `^\s*key:\s*(.*)$`
/// captures it, trimmed: `None` when the line is not such a line (or its
/// value holds a line terminator, which `.` does not match).
fn value_of<'l>(line: &'l str, key: &str) -> Option<&'l str> {
    let rest = line
        .trim_start_matches(is_js_whitespace)
        .strip_prefix(key)?
        .strip_prefix(':')?;
    let value = rest.trim_start_matches(is_js_whitespace);
    if value.contains(['\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(value.trim_end_matches(is_js_whitespace))
}

/// Whether `line` continues a description: `^[ \t]+\S`.
fn continues(line: &str) -> bool {
    let text = line.trim_start_matches([' ', '\t']);
    text.len() < line.len() && text.chars().next().is_some_and(|c| !is_js_whitespace(c))
}

/// `name` and `description` as Gemini CLI's line reading finds them in
/// `yaml`: each line (split at `\n` and `\r\n`) that is `name:` or
/// `description:` after optional whitespace gives that field its value,
/// trimmed; a description continues on each following line that is
/// indented by spaces or tabs and not blank, the pieces joined by single
/// spaces (empty ones left out). A later line of a field replaces an earlier
/// one, whatever its indentation (`metadata:` then `  name: x` sets the
/// name); a line consumed as a description's continuation is not read
/// again.
pub fn line_fields(yaml: &str) -> (Option<String>, Option<String>) {
    let lines: Vec<&str> = yaml
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if let Some(value) = value_of(line, "name") {
            name = Some(value.to_owned());
            continue;
        }
        if let Some(first) = value_of(line, "description") {
            let mut pieces: Vec<&str> = vec![first];
            while let Some(next) = lines.get(i).filter(|l| continues(l)) {
                pieces.push(next.trim_matches(is_js_whitespace));
                i += 1;
            }
            pieces.retain(|p| !p.is_empty());
            description = Some(pieces.join(" "));
        }
    }
    (name, description)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_as_the_pattern() {
        let p = split("---\nname: a\ndescription: b\n---\nBody.\n").unwrap();
        assert_eq!(p.yaml, "name: a\ndescription: b");
        assert_eq!(p.body, "Body.\n");
        let crlf = split("---\r\nname: crlf\r\n---\r\nBody.\r\n").unwrap();
        assert_eq!(crlf.yaml, "name: crlf");
        assert_eq!(crlf.body, "Body.\r\n");
        assert_eq!(split("---\n\n---\nB").unwrap().yaml, "");
        assert_eq!(split("---\na: 1\n---x\nB").unwrap().body, "");
        assert_eq!(split("---\na: 1\n----\nB").unwrap().yaml, "a: 1");
        assert_eq!(split("---\na: 1\n---").unwrap().body, "");
        assert_eq!(split("\u{FEFF}---\na\n---\n"), Err(NoFrontmatter::Bom));
        assert_eq!(split("\n---\na\n---\n"), Err(NoFrontmatter::NotFirst));
        assert_eq!(split("# T\n"), Err(NoFrontmatter::Missing));
        assert_eq!(split(""), Err(NoFrontmatter::Missing));
        assert_eq!(split("----\na\n---\n"), Err(NoFrontmatter::OpeningLine));
        assert_eq!(split("---\na: b\n# Body\n"), Err(NoFrontmatter::Unclosed));
        // The closing line break must follow the opening one.
        assert_eq!(split("---\n---\n"), Err(NoFrontmatter::Unclosed));
    }

    #[test]
    fn lines_as_recorded() {
        let f = |y: &str| line_fields(y);
        assert_eq!(
            f("name: bad-yaml-colon\ndescription: Use when: the plain scalar has a colon-space"),
            (
                Some("bad-yaml-colon".into()),
                Some("Use when: the plain scalar has a colon-space".into())
            )
        );
        assert_eq!(
            f("name: bad-yaml-tab\n\tdescription: tab indented")
                .1
                .as_deref(),
            Some("tab indented")
        );
        assert_eq!(
            f("name: desc-list\ndescription:\n  - item one\n  - item two")
                .1
                .as_deref(),
            Some("- item one - item two")
        );
        assert_eq!(
            f("description: |\n  Line one.\n\n  Para.").1.as_deref(),
            Some("| Line one.")
        );
        assert_eq!(f("name:\ndescription: d").0.as_deref(), Some(""));
        assert_eq!(
            f("name: a\nmetadata:\n  name: b\ndescription: x\n  name: c")
                .0
                .as_deref(),
            Some("b")
        );
        assert_eq!(f("name: a\rb\ndescription: x").0, None);
        assert_eq!(f("names: a\ndescription: x").0, None);
        assert_eq!(f("description: a\n \u{A0}b").1.as_deref(), Some("a"));
    }
}
