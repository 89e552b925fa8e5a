//! JSON as the tools that run it read it: the configuration files of agents
//! and editors (`.mcp.json`, `settings.json`, `hooks.json`, VS Code's
//! `tasks.json`, `devcontainer.json`) allow `//` and `/* */` comments and
//! trailing commas, which are blanked out (byte for byte, so every span
//! still points into the file) before [`skills_core::json`] reads it.
//!
//! Text over [`MAX_BYTES`] or nested past [`MAX_DEPTH`] is not parsed: the
//! caller falls back to reading it as text.

use skills_core::json::{self, Node, Value};

/// Configuration larger than this is read as text only.
pub(crate) const MAX_BYTES: usize = 1 << 20;

/// How deep objects and arrays are followed.
const MAX_DEPTH: usize = 64;

/// The document in `text`, comments and trailing commas allowed; `None`
/// when it is not one.
pub(crate) fn parse(text: &str) -> Option<Node> {
    if text.len() > MAX_BYTES || !text.trim_start().starts_with(['{', '[', '\u{feff}']) {
        return None;
    }
    json::parse(&blank(text), MAX_DEPTH).ok()
}

/// `text` with its comments and trailing commas replaced by spaces, one
/// for each byte (so the result is valid UTF-8 of the same length).
fn blank(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let mut in_string = false;
    // A comma seen with only blanks and comments after it so far.
    let mut comma: Option<usize> = None;
    while let Some(&c) = b.get(i) {
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (c, b.get(i + 1)) {
            (b'/', Some(b'/')) => {
                let end = b[i..]
                    .iter()
                    .position(|&x| x == b'\n')
                    .map_or(b.len(), |n| i + n);
                out[i..end].fill(b' ');
                i = end;
                continue;
            }
            (b'/', Some(b'*')) => {
                let end = b[i + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(b.len(), |n| i + 2 + n + 2);
                for x in &mut out[i..end] {
                    if *x != b'\n' {
                        *x = b' ';
                    }
                }
                i = end;
                continue;
            }
            (b'"', _) => {
                in_string = true;
                comma = None;
            }
            (b',', _) => comma = Some(i),
            (b'}' | b']', _) => {
                if let Some(at) = comma.take() {
                    out[at] = b' ';
                }
            }
            (b' ' | b'\t' | b'\r' | b'\n', _) => {}
            _ => comma = None,
        }
        i += 1;
    }
    // Only ASCII bytes were replaced, each by a space: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// The members of `node` when it is an object (none otherwise).
pub(crate) fn members(node: &Node) -> &[(String, Node)] {
    match &node.value {
        Value::Object(m) => m,
        _ => &[],
    }
}

/// The elements of `node` when it is an array (none otherwise).
pub(crate) fn elements(node: &Node) -> &[Node] {
    match &node.value {
        Value::Array(e) => e,
        _ => &[],
    }
}

/// Every string below `node` (itself included) with its node, depth first,
/// and every object member's key: `visit(key, node)` for members, `visit("",
/// node)` for array elements and the root. Iterative, each node once.
pub(crate) fn walk<'n>(node: &'n Node, mut visit: impl FnMut(&'n str, &'n Node)) {
    let mut stack: Vec<(&str, &Node)> = vec![("", node)];
    while let Some((key, n)) = stack.pop() {
        visit(key, n);
        match &n.value {
            Value::Object(m) => stack.extend(m.iter().rev().map(|(k, v)| (k.as_str(), v))),
            Value::Array(e) => stack.extend(e.iter().rev().map(|v| ("", v))),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_read_as_vs_code_reads_them() {
        let text = "{\n // a task\n \"a\": \"x // not a comment\", /* b */ \"b\": [1, 2,],\n}";
        let node = parse(text).expect("JSONC");
        assert_eq!(
            node.get("a").and_then(Node::as_str),
            Some("x // not a comment")
        );
        assert_eq!(elements(node.get("b").expect("b")).len(), 2);
        // Spans still point into the original text.
        let a = node.get("a").expect("a");
        assert!(text[a.span.clone()].starts_with("\"x"));
    }

    #[test]
    fn not_json_is_none() {
        assert!(parse("name: x").is_none());
        assert!(parse("{\"a\": ").is_none());
        assert!(parse("{\"é\": \"/* ü").is_none());
        assert!(parse(&"[".repeat(200)).is_none());
    }

    #[test]
    fn walk_visits_every_node_once() {
        let node = parse(r#"{"a": {"b": ["c", {"d": "e"}]}}"#).expect("JSON");
        let mut keys = Vec::new();
        walk(&node, |k, _| keys.push(k));
        assert_eq!(keys, ["", "a", "b", "", "", "d"]);
    }
}
