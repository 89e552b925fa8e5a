//! What a fix writes in `agents/openai.yaml`: `policy:
//! allow_implicit_invocation: false`, so that Codex keeps out of its
//! model's list a skill Claude Code keeps out of its own
//! (`disable-model-invocation: true`).
//!
//! A pure edit of the file's text: a new file holds only that key; in an
//! existing one only that key is added or its value changed, every other
//! byte (comments, order, quoting) kept. The result is read again as Codex
//! reads it, and kept only when Codex then reads `false` there and
//! everything else as before. A file that cannot be edited so (YAML that
//! does not parse, not a mapping, a `policy` that is not a block mapping, a
//! file Codex already ignores whole) is left for the author, with why.

use crate::client::codex::read_openai_yaml;
use crate::yaml::{self, Node, Value};

/// The file a fix creates.
pub const NEW_FILE: &str = "policy:\n  allow_implicit_invocation: false\n";

/// The new text of `agents/openai.yaml` (`None`: there is none), or
/// `Ok(None)` when Codex already reads `false` there, or why the file is
/// left as it is.
pub fn set_policy(text: Option<&str>) -> Result<Option<String>, String> {
    let Some(text) = text else {
        return Ok(Some(NEW_FILE.to_string()));
    };
    let before = read_openai_yaml(text);
    if let Some(u) = before.undecided {
        return Err(format!(
            "what Codex reads in it cannot be told ({})",
            u.message
        ));
    }
    let Some(read) = before.read else {
        let why = before
            .problems
            .first()
            .map_or_else(|| "Codex ignores it".to_string(), |p| p.message.clone());
        return Err(format!("{why}; fix the file by hand"));
    };
    if read.allow_implicit_invocation == Some(false) {
        return Ok(None);
    }
    let edited = edit(text)?;
    let after = read_openai_yaml(&edited);
    let agrees = after.undecided.is_none()
        && after.read.is_some_and(|mut r| {
            let set = r.allow_implicit_invocation == Some(false);
            r.allow_implicit_invocation = read.allow_implicit_invocation;
            set && r == read
        });
    if agrees {
        Ok(Some(edited))
    } else {
        Err("the key cannot be written without changing how the rest of the file reads: add `policy.allow_implicit_invocation: false` by hand".into())
    }
}

/// The text with the key set, before it is checked.
fn edit(text: &str) -> Result<String, String> {
    let parsed = yaml::parse(text, 0, text.len());
    if parsed.is_fatal() || parsed.limit.is_some() {
        let why = parsed
            .problems
            .first()
            .map_or("it is past this tool's bounds".to_string(), |p| {
                p.message.clone()
            });
        return Err(format!("its YAML does not parse ({why})"));
    }
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let Some(root) = parsed.root else {
        // Empty, or comments only: the block goes after them.
        return Ok(append(text, eol));
    };
    if root.as_map().is_none() {
        return Err(format!("it is not a mapping (it holds a {})", root.kind()));
    }
    let Some(policy) = root.get("policy") else {
        return Ok(append(text, eol));
    };
    match &policy.value {
        Value::Map(entries) => {
            if let Some((_, value)) = entries
                .iter()
                .find(|(k, _)| k.as_str() == Some("allow_implicit_invocation"))
            {
                return Ok(replace(text, value, "false"));
            }
            let Some((first, _)) = entries.first() else {
                return Err("`policy` is an empty flow mapping: edit it by hand".into());
            };
            let line_start = text
                .get(..first.span.start)
                .and_then(|t| t.rfind(['\n', '\r']))
                .map_or(0, |i| i + 1);
            let indent = text.get(line_start..first.span.start).unwrap_or("");
            if indent.is_empty() || !indent.chars().all(|c| c == ' ') {
                return Err("`policy` is not written as an indented block: edit it by hand".into());
            }
            let mut out = text.to_string();
            out.insert_str(
                line_start,
                &format!("{indent}allow_implicit_invocation: false{eol}"),
            );
            Ok(out)
        }
        Value::Str(s) if policy.plain && matches!(s.as_str(), "" | "~" | "null") => Ok(replace(
            text,
            policy,
            &format!("{eol}  allow_implicit_invocation: false"),
        )),
        _ => Err(format!("`policy` is a {}, not a mapping", policy.kind())),
    }
}

/// `text` with `policy:` appended as a new block at the end.
fn append(text: &str, eol: &str) -> String {
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') && !out.ends_with('\r') {
        out.push_str(eol);
    }
    out.push_str(&format!(
        "policy:{eol}  allow_implicit_invocation: false{eol}"
    ));
    out
}

/// `text` with `node`'s bytes replaced by `with`.
fn replace(text: &str, node: &Node, with: &str) -> String {
    let (start, end) = (node.span.start, node.span.end.max(node.span.start));
    match (text.get(..start), text.get(end..)) {
        (Some(head), Some(tail)) => format!("{head}{with}{tail}"),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> String {
        match set_policy(Some(text)) {
            Ok(Some(t)) => t,
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn a_new_file() {
        assert_eq!(set_policy(None), Ok(Some(NEW_FILE.to_string())));
    }

    #[test]
    fn only_the_key_changes() {
        assert_eq!(
            set("# Codex metadata\ninterface:\n  display_name: UI  # shown\n"),
            "# Codex metadata\ninterface:\n  display_name: UI  # shown\npolicy:\n  allow_implicit_invocation: false\n"
        );
        assert_eq!(
            set("interface:\n  display_name: UI"),
            "interface:\n  display_name: UI\npolicy:\n  allow_implicit_invocation: false\n"
        );
        assert_eq!(
            set("policy:\n    products: [codex] # mine\n"),
            "policy:\n    allow_implicit_invocation: false\n    products: [codex] # mine\n"
        );
        assert_eq!(
            set("policy:\n  allow_implicit_invocation: true # was\n"),
            "policy:\n  allow_implicit_invocation: false # was\n"
        );
        assert_eq!(
            set("policy:\r\n  products: [codex]\r\n"),
            "policy:\r\n  allow_implicit_invocation: false\r\n  products: [codex]\r\n"
        );
        assert_eq!(
            set("# nothing yet\n"),
            "# nothing yet\npolicy:\n  allow_implicit_invocation: false\n"
        );
        assert_eq!(set(""), NEW_FILE);
    }

    #[test]
    fn nothing_to_do_when_codex_reads_false() {
        assert_eq!(
            set_policy(Some("policy:\n  allow_implicit_invocation: false\n")),
            Ok(None)
        );
    }

    #[test]
    fn files_left_as_they_are() {
        for text in [
            "interface: [\n",
            "- a\n- b\n",
            "policy: [a]\n",
            "policy: {products: [codex]}\n",
            "{interface: {display_name: x}}\n",
            "policy:\n  allow_implicit_invocation: maybe\n",
        ] {
            assert!(set_policy(Some(text)).is_err(), "{text:?}");
        }
    }

    #[test]
    fn setting_the_policy_is_idempotent() {
        for text in [
            "",
            "interface:\n  display_name: UI\n",
            "policy:\n  products: [codex]\n",
            "policy:\n  allow_implicit_invocation: true\n",
            "policy:\r\n  products: [codex]\r\n",
        ] {
            let once = set(text);
            assert_eq!(set_policy(Some(&once)), Ok(None), "{text:?}");
        }
    }
}
