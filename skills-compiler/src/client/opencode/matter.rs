//! How `gray-matter` splits a `SKILL.md` for OpenCode, and OpenCode's one
//! rewrite of a frontmatter that did not parse (values holding a `:` made
//! block scalars).

use skills_core::catalog::claude_code::is_js_whitespace;

use super::yaml::{JsYaml, YamlError, parse_js_yaml};

/// The parts of a `SKILL.md` as `gray-matter` splits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts<'t> {
    /// The language named after the opening `---` (trimmed; empty for
    /// none).
    pub language: &'t str,
    /// The frontmatter text (from the line break that ends the opening
    /// line).
    pub yaml: &'t str,
    /// The body.
    pub body: &'t str,
}

/// Splits `text` (byte-order mark already dropped) as `gray-matter` does;
/// `None` when it has no frontmatter.
pub fn split(text: &str) -> Option<Parts<'_>> {
    let rest = text.strip_prefix("---")?;
    if rest.starts_with('-') {
        return None;
    }
    // The language: up to the first `\r?\n`; without one, all but the last
    // character (`slice(0, -1)`).
    let line_end = match rest.find('\n') {
        Some(i) if rest[..i].ends_with('\r') => i - 1,
        Some(i) => i,
        None => rest.char_indices().last().map_or(0, |(i, _)| i),
    };
    let language = rest[..line_end].trim_matches(is_js_whitespace);
    let rest = if language.is_empty() {
        rest
    } else {
        &rest[line_end..]
    };
    let (yaml, body) = match rest.find("\n---") {
        Some(close) => {
            let after = &rest[close + 4..];
            let after = after.strip_prefix('\r').unwrap_or(after);
            (&rest[..close], after.strip_prefix('\n').unwrap_or(after))
        }
        None => (rest, ""),
    };
    Some(Parts {
        language,
        yaml,
        body,
    })
}

/// OpenCode's rewrite of a frontmatter that did not parse, on the whole
/// file (byte-order mark included): the frontmatter is what lies between
/// a first line exactly `---` and the first line starting with `---`; of its
/// lines (split at `\r?\n`, joined with `\n`), each unindented, uncommented
/// `key: value` whose key is ASCII letters, digits and `_` (not starting
/// with a digit) and whose trimmed value holds a `:` and is not empty, `>`,
/// `|` or quoted becomes `key: |-` and the value indented by two spaces.
/// `None` when the file has no such frontmatter (nothing rewritten).
pub fn sanitize(text: &str) -> Option<String> {
    let rest = text
        .strip_prefix("---\r\n")
        .or_else(|| text.strip_prefix("---\n"))?;
    let close = rest.find("\n---")?;
    let frontmatter = rest[..close].strip_suffix('\r').unwrap_or(&rest[..close]);
    let mut processed = String::with_capacity(frontmatter.len() + 16);
    for (i, line) in frontmatter.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if i > 0 {
            processed.push('\n');
        }
        match block_scalar(line) {
            Some((key, value)) => {
                processed.push_str(key);
                processed.push_str(": |-\n  ");
                processed.push_str(value);
            }
            None => processed.push_str(line),
        }
    }
    // `content.replace(frontmatter, ...)`: the first occurrence.
    let at = text.find(frontmatter)?;
    let mut out = String::with_capacity(text.len() + processed.len());
    out.push_str(&text[..at]);
    out.push_str(&processed);
    out.push_str(&text[at + frontmatter.len()..]);
    Some(out)
}

/// The `(key, trimmed value)` of a line [`sanitize`] turns into a block
/// scalar.
fn block_scalar(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_matches(is_js_whitespace);
    if trimmed.is_empty() || trimmed.starts_with('#') || line.starts_with(is_js_whitespace) {
        return None;
    }
    let key_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(line.len());
    let key = &line[..key_end];
    if key.is_empty() || key.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let after = line[key_end..].trim_start_matches(is_js_whitespace);
    // `\s*(.*)$`: the blanks (line terminators included) are skipped, then
    // `.` matches no line terminator up to the end.
    let value = after
        .strip_prefix(':')?
        .trim_start_matches(is_js_whitespace);
    if value.contains(['\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    let value = value.trim_end_matches(is_js_whitespace);
    if matches!(value, "" | ">" | "|") || value.starts_with(['"', '\'']) || !value.contains(':') {
        return None;
    }
    Some((key, value))
}

/// One pass of `gray-matter` over `text`: the parsed frontmatter (`None`
/// when there is none or it is empty) and the body.
pub(super) fn matter(text: &str) -> Result<(Option<JsYaml>, String), YamlError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let Some(parts) = split(text) else {
        return Ok((None, text.to_owned()));
    };
    // `gray-matter`'s engines: `yaml` (also `yml`, any case), `json`
    // (exactly), `javascript` (also `js`, any case); any other throws.
    let language = parts.language.to_ascii_lowercase();
    if parts.language == "json" || matches!(language.as_str(), "js" | "javascript") {
        return Err(YamlError::NotModelled(format!(
            "the frontmatter is opened as `---{}`, which OpenCode reads in that language; this \
             tool does not",
            parts.language
        )));
    }
    if !matches!(language.as_str(), "" | "yaml" | "yml") {
        return Err(YamlError::Invalid(format!(
            "the frontmatter is opened as `---{}`, a language OpenCode does not read",
            parts.language
        )));
    }
    let parsed = parse_js_yaml(parts.yaml)?;
    Ok((Some(parsed), parts.body.to_owned()))
}
