//! A small JSON reader for plugin manifests: RFC 8259 with byte spans.
//!
//! Duplicate keys are kept; lookups take the last, as JavaScript does. A
//! lone UTF-16 surrogate in a `\u` escape becomes U+FFFD. A leading UTF-8
//! byte-order mark is skipped.
//!
//! [`quote`] writes a string literal for the JSON this crate writes (a pack's
//! manifest, tool definitions).
//!
//! Used for `.claude-plugin/plugin.json` and `marketplace.json` by the
//! compiler, and for a pack's manifest when a pack is loaded at run time
//! (which is why it lives outside the `compiler` module).

use std::fmt::Write as _;
use std::ops::Range;

/// A JSON value; members and elements keep their spans ([`Node`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number; its text is at the node's span.
    Number,
    /// A string, unescaped.
    String(String),
    /// An array's elements, in order.
    Array(Vec<Node>),
    /// An object's members, in order, duplicates kept.
    Object(Vec<(String, Node)>),
}

/// A value and the bytes it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The value read.
    pub value: Value,
    /// The bytes of the input it was read from.
    pub span: Range<usize>,
}

/// Why the input is not JSON, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What is wrong, for a message.
    pub message: String,
    /// Byte offset of the problem.
    pub at: usize,
}

impl Node {
    /// The member `key` of an object (the last one, if repeated).
    // The compiler's plugin-manifest readers use this and `as_bool`; a
    // runtime-only build reads packs, whose reader is stricter.
    #[allow(dead_code)]
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if the value is one.
    #[allow(dead_code)]
    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// What the value is, for messages: `a string`, `an array`, ...
    pub fn kind(&self) -> &'static str {
        match self.value {
            Value::Null => "`null`",
            Value::Bool(_) => "a boolean",
            Value::Number => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

/// Parses one JSON document.
pub fn parse(text: &str, max_depth: usize) -> Result<Node, Error> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        max_depth,
    };
    if text.starts_with('\u{feff}') {
        p.pos = '\u{feff}'.len_utf8();
    }
    p.space();
    let node = p.value(0)?;
    p.space();
    if p.pos < p.bytes.len() {
        return Err(p.error("unexpected text after the end of the JSON value"));
    }
    Ok(node)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    max_depth: usize,
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            at: self.pos,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn found(&self) -> String {
        match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
            Some(c) if !c.is_control() => format!("`{c}`"),
            Some(c) => format!("{c:?}"),
            None => "the end of the file".to_owned(),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, Error> {
        let start = self.pos;
        let value = match self.peek() {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Value::String(self.string()?),
            Some(b't') => self.word("true", Value::Bool(true))?,
            Some(b'f') => self.word("false", Value::Bool(false))?,
            Some(b'n') => self.word("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            _ => return Err(self.error(format!("expected a value, found {}", self.found()))),
        };
        Ok(Node {
            value,
            span: start..self.pos,
        })
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a value (`true`, `false` and `null` are lowercase)"))
        }
    }

    fn enter(&self, depth: usize) -> Result<(), Error> {
        if depth >= self.max_depth {
            Err(self.error(format!(
                "arrays and objects nest more than {} levels deep",
                self.max_depth
            )))
        } else {
            Ok(())
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, Error> {
        self.enter(depth)?;
        self.pos += 1;
        let mut members = Vec::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return Err(self.error(format!("expected a string key, found {}", self.found())));
            }
            let key = self.string()?;
            self.space();
            if self.peek() != Some(b':') {
                return Err(self.error(format!("expected `:` after a key, found {}", self.found())));
            }
            self.pos += 1;
            self.space();
            let value = self.value(depth + 1)?;
            members.push((key, value));
            self.space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Object(members));
                }
                _ => {
                    return Err(self.error(format!("expected `,` or `}}`, found {}", self.found())));
                }
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, Error> {
        self.enter(depth)?;
        self.pos += 1;
        let mut items = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.space();
            items.push(self.value(depth + 1)?);
            self.space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                _ => {
                    return Err(self.error(format!("expected `,` or `]`, found {}", self.found())));
                }
            }
        }
    }

    fn number(&mut self) -> Result<Value, Error> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error(format!("expected a digit, found {}", self.found()))),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error(format!(
                    "expected a digit after `.`, found {}",
                    self.found()
                )));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error(format!(
                    "expected a digit in the exponent, found {}",
                    self.found()
                )));
            }
            self.digits();
        }
        Ok(Value::Number)
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn string(&mut self) -> Result<String, Error> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            // The run ends before an ASCII byte or at the end: a char boundary.
            out.push_str(self.text.get(run..self.pos).unwrap_or_default());
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => {
                    return Err(self.error(
                        "control character in a string; write it as an escape such as `\\n`",
                    ));
                }
                None => {
                    return Err(Error {
                        message: "the string is never closed with `\"`".to_owned(),
                        at: open,
                    });
                }
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let high = self.hex4()?;
                let c = if (0xD800..0xDC00).contains(&high) {
                    if self.bytes[self.pos..].starts_with(b"\\u") {
                        let save = self.pos;
                        self.pos += 2;
                        let low = self.hex4()?;
                        if (0xDC00..0xE000).contains(&low) {
                            let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                            char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
                        } else {
                            self.pos = save;
                            char::REPLACEMENT_CHARACTER
                        }
                    } else {
                        char::REPLACEMENT_CHARACTER
                    }
                } else {
                    char::from_u32(high).unwrap_or(char::REPLACEMENT_CHARACTER)
                };
                out.push(c);
                return Ok(());
            }
            _ => {
                return Err(self.error(format!("unknown escape `\\` followed by {}", self.found())));
            }
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut code = 0;
        for i in 0..4 {
            let digit = self
                .bytes
                .get(self.pos + i)
                .and_then(|b| char::from(*b).to_digit(16))
                .ok_or_else(|| self.error("expected four hex digits after `\\u`"))?;
            code = code * 16 + digit;
        }
        self.pos += 4;
        Ok(code)
    }
}

/// A JSON string literal: `"`, `\` and control characters escaped, the rest
/// as UTF-8.
pub fn quote(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

#[cfg(test)]
mod tests {
    use super::{Value, parse};

    fn ok(text: &str) -> Value {
        match parse(text, 64) {
            Ok(node) => node.value,
            Err(e) => panic!("{text:?}: {e:?}"),
        }
    }

    fn err(text: &str) -> usize {
        match parse(text, 64) {
            Ok(node) => panic!("{text:?} parsed as {node:?}"),
            Err(e) => e.at,
        }
    }

    #[test]
    fn scalars_and_nesting() {
        assert_eq!(ok(" null "), Value::Null);
        assert_eq!(ok("true"), Value::Bool(true));
        assert_eq!(ok("false"), Value::Bool(false));
        for n in ["0", "-0", "12", "-3.25", "1e5", "1E+2", "2.5e-3"] {
            assert_eq!(ok(n), Value::Number, "{n}");
        }
        let Value::Object(members) = ok(r#"{"a": [1, {"b": []}], "c": {}}"#) else {
            panic!("not an object");
        };
        assert_eq!(members.len(), 2);
        assert_eq!(members[0].0, "a");
        assert_eq!(members[0].1.span, 6..20);
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(
            ok(r#""a\"b\\c\/d\b\f\n\r\t""#),
            Value::String("a\"b\\c/d\u{8}\u{c}\n\r\t".into())
        );
        assert_eq!(ok(r#""\u00e9\u4E2D""#), Value::String("é中".into()));
        assert_eq!(ok(r#""\ud83d\ude00""#), Value::String("😀".into()));
        assert_eq!(ok(r#""\ud83dx""#), Value::String("\u{FFFD}x".into()));
        assert_eq!(ok(r#""\ude00""#), Value::String("\u{FFFD}".into()));
        assert_eq!(ok(r#""\ud83d\u0041""#), Value::String("\u{FFFD}A".into()));
        assert_eq!(ok("\"Paweł ✓\""), Value::String("Paweł ✓".into()));
        assert_eq!(ok("\u{feff}\"bom\""), Value::String("bom".into()));
    }

    #[test]
    fn last_duplicate_key_wins() {
        let node = match parse(r#"{"a": 1, "a": "x"}"#, 64) {
            Ok(node) => node,
            Err(e) => panic!("{e:?}"),
        };
        assert_eq!(node.get("a").and_then(|n| n.as_str()), Some("x"));
    }

    #[test]
    fn errors_point_at_the_problem() {
        assert_eq!(err(""), 0);
        assert_eq!(err("[1,]"), 3);
        assert_eq!(err("{\"a\" 1}"), 5);
        assert_eq!(err("{\"a\":1,}"), 7);
        assert_eq!(err("[1 2]"), 3);
        assert_eq!(err("\"abc"), 0);
        assert_eq!(err("\"a\nb\""), 2);
        assert_eq!(err(r#""\x""#), 2);
        assert_eq!(err(r#""\u12""#), 3);
        assert_eq!(err(r#""\ud800\u12""#), 9);
        assert_eq!(err("01"), 1);
        assert_eq!(err("-"), 1);
        assert_eq!(err("1."), 2);
        assert_eq!(err("1e"), 2);
        assert_eq!(err("tru"), 0);
        assert_eq!(err("True"), 0);
        assert_eq!(err("{} x"), 3);
        assert_eq!(err("'a'"), 0);
        assert_eq!(err("{\"a\":"), 5);
    }

    #[test]
    fn depth_is_limited_without_overflowing_the_stack() {
        let deep = "[".repeat(100_000);
        assert!(parse(&deep, 64).is_err());
        let ok_depth = format!("{}{}", "[".repeat(64), "]".repeat(64));
        assert!(parse(&ok_depth, 64).is_ok());
        let too_deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
        assert!(parse(&too_deep, 64).is_err());
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        // A cheap deterministic fuzz: every prefix of a tricky document,
        // and single-byte corruptions of it.
        let doc = r#"{"a": [1, -2.5e+3, true, null, "x\u00e9\ud83d\ude00\n"], "b": {"c": []}}"#;
        for end in 0..=doc.len() {
            if let Some(prefix) = doc.get(..end) {
                let _ = parse(prefix, 64);
            }
        }
        let bytes = doc.as_bytes();
        for i in 0..bytes.len() {
            for b in [b'"', b'\\', b'{', b']', b'u', b'0', b'-', b' ', 0x01] {
                let mut v = bytes.to_vec();
                v[i] = b;
                if let Ok(text) = std::str::from_utf8(&v) {
                    let _ = parse(text, 64);
                }
            }
        }
    }
}
