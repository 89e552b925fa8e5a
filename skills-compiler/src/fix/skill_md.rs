//! What a fix changes in a `SKILL.md`, as a pure edit of its text:
//! a byte-order mark and blank lines before the opening `---` removed
//! (Gemini CLI skips a skill with either; OpenCode one with blank lines;
//! Codex finds no frontmatter in either), and `name: <folder>` added to a
//! frontmatter without `name` when the folder's name is one the
//! specification accepts (Gemini CLI, OpenCode and Kimi Code skip a skill
//! without a name; Claude Code and Codex list it under its folder's name,
//! which the added line keeps), and a quoted `disable-model-invocation:
//! "true"` written as the boolean `true` (Claude Code reads both; Kimi
//! Code only the boolean, and lists the skill to its model otherwise).
//!
//! Each edit is made only where needed, and a name is added only where the
//! edited frontmatter, parsed again, holds exactly the keys and values it
//! held, plus `name` with the folder's name: a frontmatter in flow style or
//! indented is left for the author.

use crate::frontmatter;
use crate::yaml::{self, Node, Value};

/// One change made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A byte-order mark before `---` removed.
    Bom,
    /// This many blank lines before `---` removed.
    BlankLines(usize),
    /// `name: <folder>` added.
    Name(String),
    /// `disable-model-invocation: "true"` made the boolean `true`.
    FlagUnquoted,
}

impl Change {
    /// What changes, for the report (after "fixed `path`:").
    pub fn describe(&self) -> String {
        match self {
            Change::Bom => "the byte-order mark before `---` removed (Gemini CLI skips the skill, Codex finds no frontmatter)".into(),
            Change::BlankLines(n) => format!(
                "{} before `---` removed (Gemini CLI, OpenCode, Copilot CLI and Kimi Code skip the skill, Codex finds no frontmatter)",
                if *n == 1 { "the blank line".to_string() } else { format!("{n} blank lines") }
            ),
            Change::Name(name) => format!(
                "`name: {name}` added, the folder's name (Gemini CLI, OpenCode and Kimi Code skip a skill without a name; Claude Code, Codex and Copilot CLI list it under the folder's name)"
            ),
            Change::FlagUnquoted => "`disable-model-invocation: \"true\"` written as the boolean `true` (Claude Code keeps the skill out of its model's list either way; Kimi Code only for the boolean)".into(),
        }
    }
}

/// The edited text and what changed, or why a wanted change was not made.
#[derive(Debug, Default)]
pub struct Edited {
    /// The new text, when anything changed.
    pub text: Option<String>,
    /// What changed, in order.
    pub changes: Vec<Change>,
    /// Why a wanted change was left for the author.
    pub left: Option<String>,
}

/// Edits `text`, the `SKILL.md` of a folder named `folder`.
pub fn edit(text: &str, folder: &str) -> Edited {
    let mut out = Edited::default();
    let mut rest = text;
    if let Some(after) = rest.strip_prefix('\u{FEFF}')
        && opens_after_blank_lines(after).is_some()
    {
        out.changes.push(Change::Bom);
        rest = after;
    }
    if let Some((blank, at)) = opens_after_blank_lines(rest)
        && blank > 0
    {
        out.changes.push(Change::BlankLines(blank));
        rest = &rest[at..];
    }
    let mut edited = rest.to_string();
    match add_name(&edited, folder) {
        Ok(Some(named)) => {
            out.changes.push(Change::Name(folder.to_string()));
            edited = named;
        }
        Ok(None) => {}
        Err(why) => out.left = Some(why),
    }
    if let Some(unquoted) = unquote_flag(&edited) {
        out.changes.push(Change::FlagUnquoted);
        edited = unquoted;
    }
    if !out.changes.is_empty() {
        out.text = Some(edited);
    }
    out
}

/// When `text` is blank lines (empty or spaces, tabs and `\r` only) and
/// then a `---` line: how many blank lines, and the byte where `---` starts.
fn opens_after_blank_lines(text: &str) -> Option<(usize, usize)> {
    let mut at = 0;
    for (blank, line) in text.split_inclusive('\n').enumerate() {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_end_matches([' ', '\t']) == "---" {
            return Some((blank, at));
        }
        if !content.chars().all(|c| matches!(c, ' ' | '\t' | '\r')) {
            return None;
        }
        at += line.len();
    }
    None
}

/// The frontmatter's root mapping (an empty frontmatter is an empty
/// mapping), when `text` splits and its YAML parses to a mapping.
pub fn frontmatter(text: &str) -> Option<(frontmatter::Split, Option<Node>)> {
    let split = frontmatter::split(text.as_bytes()).ok()?;
    let parsed = yaml::parse(text, split.yaml.start, split.yaml.end);
    if parsed.is_fatal() || parsed.limit.is_some() {
        return None;
    }
    match parsed.root {
        None => Some((split, None)),
        Some(root) if root.as_map().is_some() => Some((split, Some(root))),
        Some(_) => None,
    }
}

/// `text` with `name: <folder>` after the opening `---`, when the
/// frontmatter has no `name` and `folder` is a name the specification
/// accepts; `Ok(None)` when nothing is to be added; `Err` when a name is
/// wanted but the frontmatter cannot take the line safely.
fn add_name(text: &str, folder: &str) -> Result<Option<String>, String> {
    let Some((split, root)) = frontmatter(text) else {
        return Ok(None);
    };
    if root.as_ref().and_then(|r| r.get("name")).is_some() {
        return Ok(None);
    }
    if !crate::is_spec_name(folder) {
        return Ok(None);
    }
    let eol = match text.get(split.open.end..) {
        Some(t) if t.starts_with("\r\n") => "\r\n",
        Some(t) if t.starts_with('\r') => "\r",
        _ => "\n",
    };
    let at = split.open.end + eol.len();
    let line = format!("name: {}{eol}", yaml_scalar(folder));
    let mut named = String::with_capacity(text.len() + line.len());
    named.push_str(text.get(..at).unwrap_or(text));
    named.push_str(&line);
    named.push_str(text.get(at..).unwrap_or(""));
    let kept = frontmatter(&named).and_then(|(_, r)| r).is_some_and(|new| {
        new.get("name").and_then(Node::as_str) == Some(folder)
            && same_but(root.as_ref(), &new, "name")
    });
    if kept {
        Ok(Some(named))
    } else {
        Err(format!(
            "the frontmatter has no `name`, and a line `name: {folder}` would change how it reads (flow style, or indented): add it by hand"
        ))
    }
}

/// `text` with a quoted `disable-model-invocation: "true"` (or `'true'`)
/// written plain, when the frontmatter, parsed again, then holds the same
/// keys and values but that one, now the boolean.
fn unquote_flag(text: &str) -> Option<String> {
    const KEY: &str = "disable-model-invocation";
    let (_, root) = frontmatter(text)?;
    let root = root?;
    let flag = root.get(KEY)?;
    let quoted = text.get(flag.span.clone())?;
    if flag.plain || !matches!(quoted, "\"true\"" | "'true'") {
        return None;
    }
    let mut plain = String::with_capacity(text.len());
    plain.push_str(text.get(..flag.span.start)?);
    plain.push_str("true");
    plain.push_str(text.get(flag.span.end..)?);
    let (_, new) = frontmatter(&plain)?;
    let new = new?;
    let same = new
        .get(KEY)
        .is_some_and(|f| f.plain && f.as_str() == Some("true"))
        && same_but(Some(&root), &new, KEY);
    same.then_some(plain)
}

/// The name as a YAML scalar every client reads as that text: quoted when
/// it would read as a number, a boolean or null.
fn yaml_scalar(name: &str) -> String {
    let keyword = matches!(
        name,
        "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
    );
    if keyword || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("\"{name}\"")
    } else {
        name.to_string()
    }
}

/// Whether `new` holds exactly the entries of `old` (none, when `old` is
/// empty), `key` aside.
fn same_but(old: Option<&Node>, new: &Node, key: &str) -> bool {
    let others = |n: Option<&Node>| -> Vec<(Node, Node)> {
        n.and_then(Node::as_map)
            .unwrap_or_default()
            .iter()
            .filter(|(k, _)| k.as_str() != Some(key))
            .cloned()
            .collect()
    };
    let (old, new) = (others(old), others(Some(new)));
    old.len() == new.len()
        && old
            .iter()
            .zip(&new)
            .all(|((ka, va), (kb, vb))| same(ka, kb) && same(va, vb))
}

/// Whether two nodes hold the same value, wherever they are.
fn same(a: &Node, b: &Node) -> bool {
    a.plain == b.plain
        && match (&a.value, &b.value) {
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::Seq(x), Value::Seq(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
            }
            (Value::Map(x), Value::Map(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((ka, va), (kb, vb))| same(ka, kb) && same(va, vb))
            }
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(text: &str, folder: &str) -> (Option<String>, Vec<Change>, Option<String>) {
        let e = edit(text, folder);
        (e.text, e.changes, e.left)
    }

    #[test]
    fn each_edit_only_where_needed() {
        let ok = "---\nname: x\ndescription: d\n---\nBody.\n";
        assert_eq!(edited(ok, "x"), (None, vec![], None));
        assert_eq!(
            edited(&format!("\u{FEFF}{ok}"), "x"),
            (Some(ok.into()), vec![Change::Bom], None)
        );
        assert_eq!(
            edited(&format!("\n \t\r\n{ok}"), "x"),
            (Some(ok.into()), vec![Change::BlankLines(2)], None)
        );
        assert_eq!(
            edited(&format!("\u{FEFF}\n{ok}"), "x"),
            (
                Some(ok.into()),
                vec![Change::Bom, Change::BlankLines(1)],
                None
            )
        );
        // Not before a `---`: left alone.
        assert_eq!(edited("\u{FEFF}# Title\n", "x"), (None, vec![], None));
        assert_eq!(edited("\n# Title\n---\n", "x"), (None, vec![], None));
    }

    #[test]
    fn a_name_is_added_after_the_opening_line() {
        assert_eq!(
            edited("---\ndescription: d\n---\n", "my-skill")
                .0
                .as_deref(),
            Some("---\nname: my-skill\ndescription: d\n---\n")
        );
        assert_eq!(
            edited("---\r\ndescription: d\r\n---\r\n", "s").0.as_deref(),
            Some("---\r\nname: s\r\ndescription: d\r\n---\r\n")
        );
        assert_eq!(
            edited("---\n---\nBody\n", "s").0.as_deref(),
            Some("---\nname: s\n---\nBody\n")
        );
        assert_eq!(
            edited("---\ndescription: d\n---\n", "123").0.as_deref(),
            Some("---\nname: \"123\"\ndescription: d\n---\n")
        );
        // Blank lines first, then the name, in one pass.
        assert_eq!(
            edited("\n---\ndescription: d\n---\n", "s"),
            (
                Some("---\nname: s\ndescription: d\n---\n".into()),
                vec![Change::BlankLines(1), Change::Name("s".into())],
                None
            )
        );
    }

    #[test]
    fn no_name_is_added_where_it_would_not_be_safe_or_valid() {
        // A folder name the specification refuses.
        for folder in ["My_Skill", "-x", "a--b", "UPPER", ""] {
            assert_eq!(
                edited("---\ndescription: d\n---\n", folder),
                (None, vec![], None)
            );
        }
        // An empty or null `name` is a name the author wrote.
        assert_eq!(edited("---\nname:\ndescription: d\n---\n", "s").0, None);
        // Flow style and indentation: left, with why.
        for fm in ["{description: d}", "  description: d"] {
            let (text, changes, left) = edited(&format!("---\n{fm}\n---\n"), "s");
            assert_eq!((text, changes), (None, vec![]));
            assert!(left.is_some_and(|w| w.contains("by hand")));
        }
        // YAML that does not parse, no frontmatter: nothing to add to.
        assert_eq!(
            edited("---\ndescription: [\n---\n", "s"),
            (None, vec![], None)
        );
        assert_eq!(edited("# Only a body\n", "s"), (None, vec![], None));
    }

    #[test]
    fn a_quoted_flag_is_written_plain() {
        let (text, changes, _) = edited(
            "---\nname: s\ndisable-model-invocation: 'true'\ndescription: d\n---\n",
            "s",
        );
        assert_eq!(changes, [Change::FlagUnquoted]);
        assert_eq!(
            text.as_deref(),
            Some("---\nname: s\ndisable-model-invocation: true\ndescription: d\n---\n")
        );
        for kept in [
            "---\nname: s\ndisable-model-invocation: true\n---\n",
            "---\nname: s\ndisable-model-invocation: \"false\"\n---\n",
            "---\nname: s\ndisable-model-invocation: \"True\"\n---\n",
        ] {
            assert_eq!(edited(kept, "s").1, [], "{kept:?}");
        }
    }

    #[test]
    fn edits_are_idempotent() {
        for text in [
            "\u{FEFF}\n\n---\ndescription: d\n---\nBody\n",
            "---\ndescription: d\n---\n",
            "\r\n---\r\ndescription: d\r\n---\r\n",
            "---\nname: s\ndescription: d\ndisable-model-invocation: \"true\"\n---\n",
        ] {
            let once = edited(text, "s").0.expect("a change");
            assert_eq!(edited(&once, "s"), (None, vec![], None), "{text:?}");
        }
    }
}
