//! The frontmatter's YAML, read the way the reference validator reads it.
//!
//! `skills-ref` parses frontmatter with strictyaml: every scalar is a string
//! (`name: 123` is `"123"`, `description: yes` is `"yes"`), and flow style,
//! anchors, aliases, tags and duplicate keys are errors. This module builds a
//! small tree of strings, lists and mappings from `saphyr-parser` events,
//! keeping the byte span of every node, and records each strict-YAML
//! violation separately so that a profile can make it an error (`spec`) or a
//! warning (`claude-code`, whose products read YAML leniently). The tree is
//! built either way: aliases are expanded, and a duplicate key keeps its last
//! value, as PyYAML does.
//!
//! Each problem also carries the message the reference prints for it (the
//! ruamel.yaml text inside strictyaml, with its `in "<unicode string>", line
//! L, column C:` marks and snippet), so `--format skills-ref` can reproduce it
//! byte for byte. Marks are computed on the text the reference hands to
//! strictyaml: everything after the opening `---`, so YAML line numbers are
//! file line numbers.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher, RandomState};
use std::ops::Range;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use crate::diag::Code;
use crate::render::thousands;

/// Most nodes one frontmatter may expand to (aliases included).
pub const MAX_NODES: usize = 100_000;
/// Most bytes of scalar text that aliases may repeat: without aliases the
/// tree holds no more text than the file, and this keeps what they add to
/// a fixed amount (an alias of a long scalar repeated costs one node each).
pub const MAX_ALIAS_BYTES: usize = 1 << 20;
/// Deepest nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// saphyr's scanner counts flow levels in a `u8`, and stops at the 256th
/// with this message, ahead of the parser's events; that is past
/// [`MAX_DEPTH`] too.
const SCANNER_DEPTH: &str = "recursion limit exceeded";

/// A YAML value with the byte span it came from (offsets into the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Byte range in the file.
    pub span: Range<usize>,
    /// Whether the scalar was written plain (unquoted, not a block scalar).
    pub plain: bool,
}

/// What a node holds. Every scalar is a string, as in strictyaml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A scalar, as written (after YAML unescaping and folding).
    Str(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, in source order, keys unique (the last duplicate wins).
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The string, if this is a scalar.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The entries, if this is a mapping.
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The value under `key`, if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// The kind of value, for messages: `string`, `list` or `mapping`.
    pub fn kind(&self) -> &'static str {
        match self.value {
            Value::Str(_) => "string",
            Value::Seq(_) => "list",
            Value::Map(_) => "mapping",
        }
    }
}

/// One thing wrong with the YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// `InvalidYaml` (fatal: no tree), or one of the strict-YAML codes.
    pub code: Code,
    /// Our message.
    pub message: String,
    /// Byte range in the file.
    pub span: Range<usize>,
    /// What the reference prints after `Invalid YAML in frontmatter: `.
    pub reference: String,
}

/// The result of parsing one frontmatter.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// The document's root; `None` for an empty document or a syntax error.
    pub root: Option<Node>,
    /// Problems in the order the reference would meet them: scanner and
    /// parser problems by position, then duplicate keys.
    pub problems: Vec<Problem>,
    /// The bound of this module's own that stopped the reading, if one did
    /// (rather than something YAML forbids): what follows it was not read,
    /// and another YAML reader may read it.
    pub limit: Option<Limit>,
}

/// One of this module's bounds, each checked before the work it bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Nesting deeper than [`MAX_DEPTH`] levels.
    Depth,
    /// More than [`MAX_NODES`] nodes, aliases expanded.
    Nodes,
    /// Aliases repeating more than [`MAX_ALIAS_BYTES`] bytes of text.
    AliasBytes,
}

impl Limit {
    /// The bound, as a phrase after "the YAML": `nests deeper than 64 levels`.
    pub fn phrase(self) -> String {
        match self {
            Limit::Depth => format!("nests deeper than {MAX_DEPTH} levels"),
            Limit::Nodes => format!(
                "has more than {} nodes, aliases expanded",
                thousands(MAX_NODES as u64)
            ),
            Limit::AliasBytes => format!(
                "has aliases repeating more than {} bytes of text",
                thousands(MAX_ALIAS_BYTES as u64)
            ),
        }
    }
}

impl Parsed {
    /// Whether the YAML could not be read at all.
    pub fn is_fatal(&self) -> bool {
        self.problems.iter().any(|p| p.code == Code::InvalidYaml)
    }
}

/// Parses `file[start..end]`, the text between the opening `---` and the
/// closing line. `start` is the byte just after the opening `---`.
pub fn parse(file: &str, start: usize, end: usize) -> Parsed {
    let text = file.get(start..end).unwrap_or("");
    Builder::new(text, start).run()
}

enum Frame {
    Seq {
        items: Vec<Node>,
        start: usize,
        anchor: usize,
    },
    Map {
        entries: Vec<(Node, Node)>,
        /// Entry positions by key hash, so that duplicate keys are found in
        /// constant time (a pairwise check is quadratic in the key count).
        index: HashMap<u64, Vec<usize>>,
        key: Option<Node>,
        start: usize,
        anchor: usize,
    },
}

struct Builder<'t> {
    text: &'t str,
    /// File offset of `text`.
    base: usize,
    /// Byte offset in `text` of each char index (plus one past the end).
    char_bytes: Vec<usize>,
    /// Line table for ruamel-style marks, built at the first problem.
    marks: OnceCell<Marks>,
    /// Keys for hashing mapping keys (one per frontmatter).
    hasher: RandomState,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    root: Option<Node>,
    documents: usize,
    nodes: usize,
    /// Bytes of scalar text repeated by aliases so far.
    alias_bytes: usize,
    flow_depth: usize,
    scan_problems: Vec<(usize, Problem)>,
    dup_problems: Vec<(usize, Problem)>,
    /// The limit of this module that stopped the reading, if one did.
    limit: Option<Limit>,
}

impl<'t> Builder<'t> {
    fn new(text: &'t str, base: usize) -> Self {
        let mut char_bytes: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        char_bytes.push(text.len());
        Builder {
            text,
            base,
            char_bytes,
            marks: OnceCell::new(),
            hasher: RandomState::new(),
            stack: Vec::new(),
            anchors: HashMap::new(),
            root: None,
            documents: 0,
            nodes: 0,
            alias_bytes: 0,
            flow_depth: 0,
            scan_problems: Vec::new(),
            dup_problems: Vec::new(),
            limit: None,
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        self.char_bytes
            .get(char_index)
            .copied()
            .unwrap_or(self.text.len())
    }

    fn file_span(&self, chars: Range<usize>) -> Range<usize> {
        self.base + self.byte(chars.start)..self.base + self.byte(chars.end.max(chars.start))
    }

    fn run(mut self) -> Parsed {
        if let Some((at, c)) = self
            .text
            .chars()
            .enumerate()
            .find(|&(_, c)| !is_printable(c))
        {
            let code = u32::from(c);
            let name = char_name(c).map_or(String::new(), |n| format!(" ({n})"));
            let (_, problem) = self.fatal(
                at,
                format!(
                    "the frontmatter holds the character U+{code:04X}{name}, which YAML does not allow; remove it or move it into the body"
                ),
                format!(
                    "unacceptable character #x{code:04x}: special characters are not allowed\n  in \"<unicode string>\", position {at}"
                ),
            );
            return Parsed {
                root: None,
                problems: vec![problem],
                limit: None,
            };
        }
        let mut parser = Parser::new_from_str(self.text);
        let mut fatal: Option<(usize, Problem)> = None;
        loop {
            match parser.next_event() {
                None | Some(Ok((Event::StreamEnd, _))) => break,
                Some(Ok((event, span))) => {
                    if let Err(problem) = self.event(event, span.start.index(), span.end.index()) {
                        fatal = Some(problem);
                        break;
                    }
                }
                Some(Err(e)) if e.info() == SCANNER_DEPTH => {
                    fatal = Some(self.too_deep(e.marker().index()));
                    break;
                }
                Some(Err(e)) => {
                    fatal = Some(self.syntax_error(&e));
                    break;
                }
            }
        }
        let mut problems: Vec<(usize, Problem)> = self.scan_problems;
        if let Some(f) = fatal {
            // Strict violations before the syntax error are met first.
            problems.retain(|(at, _)| *at < f.0);
            problems.push(f);
            problems.sort_by_key(|(at, _)| *at);
            return Parsed {
                root: None,
                problems: problems.into_iter().map(|(_, p)| p).collect(),
                limit: self.limit,
            };
        }
        problems.sort_by_key(|(at, _)| *at);
        let mut dups = self.dup_problems;
        dups.sort_by_key(|(at, _)| *at);
        problems.extend(dups);
        Parsed {
            root: self.root,
            problems: problems.into_iter().map(|(_, p)| p).collect(),
            limit: None,
        }
    }

    fn fatal(&self, at: usize, message: String, reference: String) -> (usize, Problem) {
        (
            at,
            Problem {
                code: Code::InvalidYaml,
                message,
                span: self.file_span(at..at + 1),
                reference,
            },
        )
    }

    fn event(
        &mut self,
        event: Event<'_>,
        start: usize,
        end: usize,
    ) -> Result<(), (usize, Problem)> {
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    let first = self.marked(0);
                    let here = self.marked(start);
                    return Err(self.fatal(
                        start,
                        "the frontmatter holds more than one YAML document".into(),
                        format!(
                            "expected a single document in the stream\n{first}\nbut found another document\n{here}"
                        ),
                    ));
                }
                Ok(())
            }
            Event::Scalar(value, style, anchor, tag) => {
                let props_end = self.properties(start, anchor, tag.is_some());
                let node = Node {
                    value: Value::Str(value.into_owned()),
                    span: self.file_span(props_end..end),
                    plain: style == ScalarStyle::Plain,
                };
                self.complete(node, anchor, start)
            }
            Event::SequenceStart(anchor, tag) => self.open(true, start, anchor, tag.is_some()),
            Event::MappingStart(anchor, tag) => self.open(false, start, anchor, tag.is_some()),
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Ok(());
                };
                let (value, from, anchor) = match frame {
                    Frame::Seq {
                        items,
                        start,
                        anchor,
                    } => (Value::Seq(items), start, anchor),
                    Frame::Map {
                        entries,
                        start,
                        anchor,
                        ..
                    } => (Value::Map(entries), start, anchor),
                };
                if matches!(self.char_at(from), Some('[' | '{')) {
                    self.flow_depth = self.flow_depth.saturating_sub(1);
                }
                let node = Node {
                    value,
                    span: self.file_span(from..end.max(from)),
                    plain: false,
                };
                self.complete(node, anchor, from)
            }
            Event::Alias(id) => {
                // What the alias repeats is measured before it is copied.
                let Some((nodes, bytes)) = self.anchors.get(&id).map(size) else {
                    let name = self.token_at(start);
                    return Err(self.fatal(
                        start,
                        format!("undefined alias `{name}`"),
                        format!(
                            "found undefined alias '{}'\n{}",
                            &name[1.min(name.len())..],
                            self.marked(start)
                        ),
                    ));
                };
                self.nodes = self.nodes.saturating_add(nodes);
                self.alias_bytes = self.alias_bytes.saturating_add(bytes);
                if self.nodes > MAX_NODES {
                    self.limit = Some(Limit::Nodes);
                    return Err(self.fatal(
                        start,
                        format!(
                            "aliases expand the frontmatter to more than {} nodes",
                            thousands(MAX_NODES as u64)
                        ),
                        format!("aliases expand to more than {MAX_NODES} nodes"),
                    ));
                }
                if self.alias_bytes > MAX_ALIAS_BYTES {
                    self.limit = Some(Limit::AliasBytes);
                    return Err(self.fatal(
                        start,
                        format!(
                            "aliases repeat more than {} bytes of the frontmatter's text",
                            thousands(MAX_ALIAS_BYTES as u64)
                        ),
                        format!("aliases repeat more than {MAX_ALIAS_BYTES} bytes"),
                    ));
                }
                let Some(node) = self.anchors.get(&id) else {
                    return Ok(());
                };
                let node = Node {
                    span: self.file_span(start..end),
                    ..node.clone()
                };
                self.complete(node, 0, start)
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => Ok(()),
        }
    }

    fn open(
        &mut self,
        is_seq: bool,
        start: usize,
        anchor: usize,
        tagged: bool,
    ) -> Result<(), (usize, Problem)> {
        let props_end = self.properties(start, anchor, tagged);
        if matches!(self.char_at(props_end), Some('[' | '{')) {
            if self.flow_depth == 0 {
                self.scan_problems.push((
                    props_end,
                    Problem {
                        code: Code::YamlFlowStyle,
                        message: "flow-style YAML (`[a, b]`, `{a: b}`) is not allowed in strict YAML".into(),
                        span: self.file_span(props_end..props_end + 1),
                        reference: format!(
                            "While scanning\n{}\nFound ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)\n{}",
                            self.marked(props_end),
                            self.marked(props_end + 1)
                        ),
                    },
                ));
            }
            self.flow_depth += 1;
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.too_deep(start));
        }
        self.stack.push(if is_seq {
            Frame::Seq {
                items: Vec::new(),
                start: props_end,
                anchor,
            }
        } else {
            Frame::Map {
                entries: Vec::new(),
                index: HashMap::new(),
                key: None,
                start: props_end,
                anchor,
            }
        });
        Ok(())
    }

    /// The problem of nesting past [`MAX_DEPTH`], found at `at`.
    fn too_deep(&mut self, at: usize) -> (usize, Problem) {
        self.limit = Some(Limit::Depth);
        self.fatal(
            at,
            format!("the frontmatter nests deeper than {MAX_DEPTH} levels"),
            format!("nesting deeper than {MAX_DEPTH} levels"),
        )
    }

    fn text_at(&self, char_index: usize) -> Option<&str> {
        self.text.get(self.byte(char_index)..)
    }

    fn char_at(&self, char_index: usize) -> Option<char> {
        self.text_at(char_index).and_then(|s| s.chars().next())
    }

    /// The token starting at `char_index`, up to whitespace.
    fn token_at(&self, char_index: usize) -> String {
        self.text_at(char_index)
            .unwrap_or("")
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect()
    }

    /// Records anchor and tag violations for the node properties that start at
    /// `start`, and returns the char index where the node's content begins.
    fn properties(&mut self, start: usize, anchor: usize, tagged: bool) -> usize {
        if anchor == 0 && !tagged {
            return start;
        }
        let mut at = start;
        let mut reported = false;
        while let Some(c @ ('&' | '!')) = self.char_at(at) {
            let token_len = self.token_at(at).chars().count();
            let token_end = at + token_len;
            if !reported {
                reported = true;
                let problem = if c == '&' {
                    Problem {
                        code: Code::YamlAnchor,
                        message: "anchors and aliases are not allowed in strict YAML".into(),
                        span: self.file_span(at..token_end),
                        reference: format!(
                            "While scanning\n{}\nFound confusing disallowed anchor token (surround with ' and ' to make text appear literally)\n{}",
                            self.marked(at),
                            self.marked(token_end)
                        ),
                    }
                } else {
                    Problem {
                        code: Code::YamlTag,
                        message: "tags are not allowed in strict YAML".into(),
                        span: self.file_span(at..token_end),
                        reference: format!(
                            "While scanning\n{}\nFound disallowed tag tokens (do not specify types in markup)\n{}",
                            self.marked(token_end),
                            self.marked(at)
                        ),
                    }
                };
                self.scan_problems.push((at, problem));
            }
            at = token_end;
            while matches!(self.char_at(at), Some(' ' | '\t' | '\n' | '\r')) {
                at += 1;
            }
        }
        if !reported {
            // The property was not where the event said (for example an
            // anchor on the line before a block collection): point at the node.
            let (code, message) = if anchor != 0 {
                (
                    Code::YamlAnchor,
                    "anchors and aliases are not allowed in strict YAML",
                )
            } else {
                (Code::YamlTag, "tags are not allowed in strict YAML")
            };
            self.scan_problems.push((
                start,
                Problem {
                    code,
                    message: message.into(),
                    span: self.file_span(start..start + 1),
                    reference: format!("While scanning\n{}\n{message}", self.marked(start)),
                },
            ));
        }
        at
    }

    fn complete(&mut self, node: Node, anchor: usize, at: usize) -> Result<(), (usize, Problem)> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            self.limit = Some(Limit::Nodes);
            return Err(self.fatal(
                at,
                format!(
                    "the frontmatter has more than {} nodes",
                    thousands(MAX_NODES as u64)
                ),
                format!("more than {MAX_NODES} nodes"),
            ));
        }
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                index,
                key,
                ..
            }) => match key.take() {
                None => *key = Some(node),
                Some(k) => {
                    let hash = self.hasher.hash_one(KeyHash(&k.value));
                    let slots = index.entry(hash).or_default();
                    match slots
                        .iter()
                        .copied()
                        .find(|&i| entries[i].0.value == k.value)
                    {
                        Some(i) => {
                            let name = key_text(&k);
                            let key_start =
                                char_index_of(&self.char_bytes, self.base, k.span.start);
                            let key_end = char_index_of(&self.char_bytes, self.base, k.span.end);
                            let marks = self.marks.get_or_init(|| Marks::new(self.text));
                            let problem = Problem {
                                code: Code::YamlDuplicateKey,
                                message: format!("duplicate key `{name}`"),
                                span: k.span.clone(),
                                reference: format!(
                                    "While parsing\n{}\nDuplicate key '{name}' found\n{}",
                                    marks.marked(key_start),
                                    marks.marked(key_end)
                                ),
                            };
                            self.dup_problems.push((key_start, problem));
                            entries[i] = (k, node);
                        }
                        None => {
                            slots.push(entries.len());
                            entries.push((k, node));
                        }
                    }
                }
            },
        }
        Ok(())
    }

    /// ruamel's mark text for a char index into the frontmatter.
    fn marked(&self, pointer: usize) -> String {
        self.marks
            .get_or_init(|| Marks::new(self.text))
            .marked(pointer)
    }

    fn syntax_error(&self, e: &ScanError) -> (usize, Problem) {
        let at = e.marker().index();
        let info = e.info();
        if info.contains("tab") {
            // ruamel names the tab itself: the first one from the start of
            // the marker's line on.
            let chars: Vec<char> = self.text.chars().collect();
            let mut line_start = at.min(chars.len());
            while line_start > 0 && !matches!(chars[line_start - 1], '\n' | '\r') {
                line_start -= 1;
            }
            let tab = chars[line_start..]
                .iter()
                .position(|&c| c == '\t')
                .map_or(at, |i| line_start + i);
            return self.fatal(
                tab,
                "a tab cannot indent YAML; use spaces".into(),
                format!(
                    "while scanning for the next token\nfound character '\\t' that cannot start any token\n{}",
                    self.marked(tab)
                ),
            );
        }
        if info.starts_with("mapping values are not allowed") {
            return self.fatal(
                at,
                "a `: ` inside an unquoted value starts a mapping here; quote the value".into(),
                format!("mapping values are not allowed here\n{}", self.marked(at)),
            );
        }
        self.fatal(at, info.to_string(), format!("{info}\n{}", self.marked(at)))
    }
}

/// Whether YAML (and ruamel.yaml's reader, which checks the whole text before
/// scanning) accepts the character anywhere in a document: tab, line breaks,
/// printable ASCII, NEL and the rest of Unicode but for C0/C1 controls,
/// surrogates and U+FFFE/U+FFFF.
fn is_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        || u32::from(c) >= 0x10000
}

/// A short name for the control characters people meet in files.
fn char_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\0' => "NUL",
        '\u{7}' => "BEL",
        '\u{8}' => "backspace",
        '\u{b}' => "vertical tab",
        '\u{c}' => "form feed",
        '\u{1b}' => "escape",
        '\u{7f}' => "DEL",
        _ => return None,
    })
}

fn char_index_of(char_bytes: &[usize], base: usize, file_byte: usize) -> usize {
    let b = file_byte.saturating_sub(base);
    char_bytes.partition_point(|&x| x < b)
}

/// The nodes in `node` and the bytes of its scalars. The walk costs what
/// it counts, and every node counted is charged to [`MAX_NODES`] before the
/// next alias, so all walks together stay within that bound.
fn size(node: &Node) -> (usize, usize) {
    let add = |(n, b): (usize, usize), (m, c): (usize, usize)| (n + m, b + c);
    match &node.value {
        Value::Str(s) => (1, s.len()),
        Value::Seq(items) => items.iter().map(size).fold((1, 0), add),
        Value::Map(entries) => entries
            .iter()
            .map(|(k, v)| add(size(k), size(v)))
            .fold((1, 0), add),
    }
}

fn key_text(k: &Node) -> String {
    match &k.value {
        Value::Str(s) => s.clone(),
        _ => k.kind().to_string(),
    }
}

/// Hashes a mapping key by its value only (spans differ between two copies
/// of one key); equal values hash equally, so equality decides among hits.
struct KeyHash<'a>(&'a Value);

impl Hash for KeyHash<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self.0 {
            Value::Str(s) => {
                state.write_u8(0);
                s.hash(state);
            }
            Value::Seq(items) => {
                state.write_u8(1);
                state.write_usize(items.len());
                for item in items {
                    KeyHash(&item.value).hash(state);
                }
            }
            Value::Map(entries) => {
                state.write_u8(2);
                state.write_usize(entries.len());
                for (k, v) in entries {
                    KeyHash(&k.value).hash(state);
                    KeyHash(&v.value).hash(state);
                }
            }
        }
    }
}

/// The frontmatter as characters with the start of every line, as
/// ruamel.yaml counts lines, so that a mark costs a binary search and a
/// bounded snippet rather than a scan from the start of the text.
struct Marks {
    chars: Vec<char>,
    /// Char index of the start of each line after the first.
    line_starts: Vec<usize>,
}

impl Marks {
    fn new(text: &str) -> Marks {
        let chars: Vec<char> = text.chars().collect();
        let line_starts = chars
            .iter()
            .enumerate()
            .filter(|&(i, &c)| {
                matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
                    || (c == '\r' && chars.get(i + 1) != Some(&'\n'))
            })
            .map(|(i, _)| i + 1)
            .collect();
        Marks { chars, line_starts }
    }

    /// ruamel.yaml's `Mark.__str__` for a char index: the position line, then
    /// the line's text (cut to 75 characters around the mark) and a caret.
    fn marked(&self, pointer: usize) -> String {
        const BREAKS: [char; 6] = ['\0', '\r', '\n', '\u{85}', '\u{2028}', '\u{2029}'];
        let chars = &self.chars;
        let pointer = pointer.min(chars.len());
        let line = self.line_starts.partition_point(|&s| s <= pointer);
        let column = pointer - line.checked_sub(1).map_or(0, |l| self.line_starts[l]);
        let half = 75.0 / 2.0 - 1.0;
        let mut head = "";
        let mut start = pointer;
        while start > 0 && !BREAKS.contains(&chars[start - 1]) {
            start -= 1;
            if (pointer - start) as f64 > half {
                head = " ... ";
                start += 5;
                break;
            }
        }
        let mut tail = "";
        let mut end = pointer;
        while end < chars.len() && !BREAKS.contains(&chars[end]) {
            end += 1;
            if (end - pointer) as f64 > half {
                tail = " ... ";
                end -= 5;
                break;
            }
        }
        let snippet: String = chars[start..end].iter().collect();
        format!(
            "  in \"<unicode string>\", line {}, column {}:\n    {head}{snippet}{tail}\n{}^ (line: {})",
            line + 1,
            column + 1,
            " ".repeat(4 + pointer - start + head.len()),
            line + 1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_fm(fm: &str) -> (String, Parsed) {
        let file = format!("---{fm}---\n");
        let parsed = parse(&file, 3, 3 + fm.len());
        (file, parsed)
    }

    #[test]
    fn scalars_are_strings_with_spans() {
        let (file, p) = parse_fm("\nname: 123\ndescription: yes\n");
        let root = p.root.expect("a mapping");
        let name = root.get("name").expect("name");
        assert_eq!(name.as_str(), Some("123"));
        assert_eq!(&file[name.span.clone()], "123");
        assert!(name.plain);
        assert_eq!(root.get("description").and_then(Node::as_str), Some("yes"));
        assert!(p.problems.is_empty());
    }

    #[test]
    fn empty_value_is_empty_string() {
        let (_, p) = parse_fm("\nname:\n");
        assert_eq!(
            p.root
                .and_then(|r| r.get("name").cloned())
                .and_then(|n| n.as_str().map(String::from)),
            Some(String::new())
        );
    }

    #[test]
    fn flow_style_is_a_strict_violation_with_reference_text() {
        let (_, p) =
            parse_fm("\nname: my-skill\ndescription: A test skill\nallowed-tools: [Read, Write]\n");
        assert_eq!(p.problems.len(), 1);
        assert_eq!(p.problems[0].code, Code::YamlFlowStyle);
        assert_eq!(
            p.problems[0].reference,
            "While scanning\n  in \"<unicode string>\", line 4, column 16:\n    allowed-tools: [Read, Write]\n                   ^ (line: 4)\nFound ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)\n  in \"<unicode string>\", line 4, column 17:\n    allowed-tools: [Read, Write]\n                    ^ (line: 4)"
        );
        let root = p.root.expect("tree still built");
        assert_eq!(root.get("allowed-tools").map(Node::kind), Some("list"));
    }

    #[test]
    fn anchors_expand_and_are_reported() {
        let (_, p) = parse_fm("\nname: &n my-skill\ndescription: *n\n");
        assert_eq!(p.problems[0].code, Code::YamlAnchor);
        assert!(p.problems[0].reference.contains("line 2, column 7"));
        assert!(p.problems[0].reference.contains("line 2, column 9"));
        let root = p.root.expect("tree");
        assert_eq!(
            root.get("description").and_then(Node::as_str),
            Some("my-skill")
        );
    }

    #[test]
    fn duplicate_keys_keep_the_last_value() {
        let (_, p) = parse_fm("\nname: a\nname: b\n");
        assert_eq!(p.problems[0].code, Code::YamlDuplicateKey);
        assert_eq!(
            p.root
                .and_then(|r| r.get("name").cloned())
                .and_then(|n| n.as_str().map(String::from))
                .as_deref(),
            Some("b")
        );
    }

    #[test]
    fn a_duplicate_among_many_keys_is_found_once() {
        let mut fm = String::from("\n");
        for i in 0..5_000 {
            fm.push_str(&format!("k{i}: v\n"));
        }
        fm.push_str("k2500: last\n");
        let (_, p) = parse_fm(&fm);
        assert_eq!(p.problems.len(), 1, "{:?}", p.problems.first());
        assert_eq!(p.problems[0].message, "duplicate key `k2500`");
        assert!(p.problems[0].reference.contains("line 5002, column 1"));
        let root = p.root.expect("tree");
        assert_eq!(root.get("k2500").and_then(Node::as_str), Some("last"));
        assert_eq!(root.as_map().map(<[_]>::len), Some(5_000));
    }

    #[test]
    fn a_nul_byte_is_named_where_it_is_not_called_a_tab() {
        let (file, p) = parse_fm("\nname: x\ndescription: a \0 b\n");
        assert!(p.is_fatal());
        assert_eq!(p.problems.len(), 1);
        let problem = &p.problems[0];
        assert_eq!(
            problem.message,
            "the frontmatter holds the character U+0000 (NUL), which YAML does not allow; remove it or move it into the body"
        );
        assert_eq!(&file[problem.span.clone()], "\0");
        assert_eq!(
            problem.reference,
            "unacceptable character #x0000: special characters are not allowed\n  in \"<unicode string>\", position 24"
        );
        // Tabs, NEL and the rest of Unicode are fine; C1 controls are not.
        assert!(
            !parse_fm("\nname: x\ndescription: a\tb \u{85} é 😀\n")
                .1
                .is_fatal()
        );
        assert!(
            parse_fm("\nname: x\ndescription: a \u{9b} b\n")
                .1
                .is_fatal()
        );
    }

    #[test]
    fn alias_bombs_are_bounded() {
        let mut fm = String::from("\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
        let mut prev = 'a';
        for c in 'b'..='k' {
            fm.push_str(&format!("{c}: &{c} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
            prev = c;
        }
        let (_, p) = parse_fm(&fm);
        assert!(p.is_fatal());
    }

    /// Flow nesting past the scanner's own limit (255 levels, met ahead of
    /// the parser's events) is this module's depth bound, named as such,
    /// not a syntax error: a reader of the tree must know that a bound, not
    /// the YAML, stopped it.
    #[test]
    fn flow_nesting_past_the_scanners_limit_is_the_depth_bound() {
        for depth in [64, 255, 256, 300, 100_000] {
            let fm = format!("\nx: {}{}\n", "[".repeat(depth), "]".repeat(depth));
            let (_, p) = parse_fm(&fm);
            assert_eq!(p.limit, Some(Limit::Depth), "{depth}: {:?}", p.problems);
            assert!(p.is_fatal());
            assert_eq!(
                p.problems.last().map(|p| p.message.as_str()),
                Some("the frontmatter nests deeper than 64 levels"),
                "{depth}"
            );
        }
        // The mapping is the first level.
        let fm = format!("\nx: {}{}\n", "[".repeat(63), "]".repeat(63));
        assert!(!parse_fm(&fm).1.is_fatal());
    }

    /// An alias of a long scalar is one node however long the scalar: the
    /// bytes it repeats are bounded too, before it is copied.
    #[test]
    fn aliases_of_long_scalars_are_bounded_in_bytes() {
        let long = "x".repeat(20_000);
        let aliases = vec!["*a"; 60].join(", ");
        let (_, p) = parse_fm(&format!("\na: &a {long}\nb: [{aliases}]\n"));
        assert_eq!(p.limit, Some(Limit::AliasBytes), "{:?}", p.problems);
        assert!(p.is_fatal());
        assert_eq!(
            p.problems.last().map(|p| p.message.as_str()),
            Some("aliases repeat more than 1,048,576 bytes of the frontmatter's text")
        );
        let aliases = vec!["*a"; 50].join(", ");
        let (_, p) = parse_fm(&format!("\na: &a {long}\nb: [{aliases}]\n"));
        assert!(!p.is_fatal(), "{:?}", p.problems.last());
    }

    #[test]
    fn snippet_is_cut_like_ruamel() {
        let line = format!("description: {}: x", "w".repeat(60));
        let m = Marks::new(&line).marked(73);
        assert!(m.contains(" ... "), "{m}");
    }
}
