//! What a document must be before libyaml (the YAML library Codex reads
//! with, through `yaml_serde`) is given it, decided without libyaml.
//!
//! libyaml has no bound of its own on nesting, and its scanner looks
//! through a stack with one entry per open flow collection for every token
//! it reads: `[[[[…]]]]` or `{a: {a: …}}` take time that grows with the
//! square of their size (a 1 MB `agents/openai.yaml` took minutes). Its
//! serde layer copies what an alias stands for each time a typed field
//! reads it, so a long scalar aliased from a long list takes memory that
//! grows with the square of the file; and it keeps every event of the
//! document (about 100 bytes each: 8 MB of `- a` lines took 210 MB).
//! Codex itself reads such files (it has no bound either, only the time);
//! this tool does not, and says so:
//! a document past a bound gets a [`Beyond`] naming it, which the readers
//! report as a reading that is not known, never as a verdict.
//!
//! The bounds are those of the crate's own reader ([`crate::yaml`]: 64
//! levels, 100,000 nodes, 1 MiB repeated by aliases), and they are checked
//! in two ways, both linear in the text:
//!
//! 1. a count, on a text of at most 256 KiB ([`MAX_COUNTED`]; libyaml
//!    makes at most one event per byte, so at most some 26 MB of them):
//!    at most 64 `[` and `{` in the
//!    whole text means at most 64 open flow collections whatever the text
//!    says, and `*` count times the text's length within 1 MiB bounds what
//!    aliases can repeat (each repeats at most the whole text, and the
//!    fields Codex reads nest aliases only as deep as its types, a few
//!    levels);
//! 2. failing that, the crate's own reader, when it reads the whole text:
//!    its scanner is a port of libyaml's (tokens, simple keys, flow levels,
//!    block scalars alike), so the nesting and the aliases it reads are
//!    libyaml's, within its bounds. Where the two read lines apart (U+0085,
//!    U+2028 and U+2029 end lines in YAML 1.1 only; a byte-order mark
//!    after the start), or where it stops at a syntax error first, it
//!    vouches for nothing, and only the count can.
//!
//! The decision needs no libyaml, so every build (the macro's included)
//! decides alike where it matters: whether `agents/openai.yaml` can be read
//! as Codex reads it.

use std::ops::Range;

use crate::render::thousands;
use crate::yaml::{self, MAX_ALIAS_BYTES, MAX_DEPTH, MAX_NODES, Parsed};

/// The longest text the count alone may let through: libyaml makes at most
/// one event of a byte (`[]`, `- `, `a,`), and keeps each, about 100 bytes.
pub const MAX_COUNTED: usize = 256 * 1024;

/// Why a document is not given to libyaml: the bound it is past, in words
/// that name it, and where, when that is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beyond {
    /// What is past which bound, as a clause that completes "… is not
    /// known: ": `the YAML nests deeper than 64 levels, the most this tool
    /// reads`.
    pub message: String,
    /// Byte range in the text checked.
    pub span: Option<Range<usize>>,
}

/// Whether `text` may be given to libyaml. `parsed` is the crate's reading
/// of exactly `text`, when the caller has one; it is read here otherwise,
/// and only when the count does not decide.
pub fn check(text: &str, parsed: Option<&Parsed>) -> Result<(), Beyond> {
    let openers = text.bytes().filter(|b| matches!(b, b'[' | b'{')).count();
    let stars = text.bytes().filter(|&b| b == b'*').count();
    let (long, deep, aliased) = (
        text.len() > MAX_COUNTED,
        openers > MAX_DEPTH,
        stars.saturating_mul(text.len()) > MAX_ALIAS_BYTES,
    );
    if !(long || deep || aliased) {
        return Ok(());
    }
    let own;
    let parsed = match parsed {
        Some(p) => p,
        None => {
            own = yaml::parse(text, 0, text.len());
            &own
        }
    };
    let stopped = parsed
        .problems
        .iter()
        .find(|p| p.code == crate::diag::Code::InvalidYaml);
    if let (Some(limit), Some(p)) = (parsed.limit, stopped) {
        return Err(Beyond {
            message: format!("the YAML {}, the most this tool reads", limit.phrase()),
            span: Some(p.span.clone()),
        });
    }
    let apart = text.char_indices().find(|&(i, c)| {
        matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}') || (c == '\u{feff}' && i > 0)
    });
    let (why, span) = match (stopped, apart) {
        (None, None) => return Ok(()),
        (_, Some((i, c))) => (
            format!(
                "the YAML holds U+{:04X}, which ends a line for libyaml but not for this tool's reader,",
                u32::from(c)
            ),
            i..i + c.len_utf8(),
        ),
        (Some(p), None) => (
            format!("this tool's reader stops at a syntax error ({})", p.message),
            p.span.clone(),
        ),
    };
    // What the count found, which only the reader could have vouched for.
    let mut counted = Vec::new();
    if long {
        counted.push(format!("is {} bytes long", thousands(text.len() as u64)));
    }
    if deep {
        counted.push(format!("has {} `[` and `{{`", thousands(openers as u64)));
    }
    if aliased {
        counted.push(format!("has {} `*`", thousands(stars as u64)));
    }
    Err(Beyond {
        message: format!(
            "{why} and the YAML {}, so how deep libyaml would nest it, how many nodes it would read, or how much its aliases would repeat, is not bounded before libyaml runs (this tool reads at most {MAX_DEPTH} levels, {} nodes and {} bytes repeated by aliases)",
            counted.join(" and "),
            thousands(MAX_NODES as u64),
            thousands(MAX_ALIAS_BYTES as u64)
        ),
        span: Some(span),
    })
}

/// libyaml's reading of `text` as `T` (`yaml_serde::from_str`), once
/// [`check`] allows it.
#[cfg(feature = "codex-yaml")]
pub fn from_str<T: serde::de::DeserializeOwned>(
    text: &str,
    parsed: Option<&Parsed>,
) -> Result<Result<T, yaml_serde::Error>, Beyond> {
    check(text, parsed)?;
    Ok(yaml_serde::from_str(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beyond(text: &str) -> Option<String> {
        check(text, None).err().map(|b| b.message)
    }

    #[test]
    fn a_few_brackets_and_stars_need_no_reading() {
        assert_eq!(beyond("a: [[[[x]]]]\nb: *c\n"), None);
        // Unreadable, but 64 openers cannot nest deeper than 64.
        let flat = format!("a: {}\n\t- b: c\n", "[".repeat(64));
        assert_eq!(beyond(&flat), None);
    }

    #[test]
    fn the_readers_bounds_are_named() {
        let deep = format!("x: {}{}\n", "[".repeat(100), "]".repeat(100));
        assert_eq!(
            beyond(&deep).as_deref(),
            Some("the YAML nests deeper than 64 levels, the most this tool reads")
        );
        let wide = format!("x: {}{}\n", "{a: ".repeat(70), "}".repeat(70));
        assert_eq!(
            beyond(&wide).as_deref(),
            Some("the YAML nests deeper than 64 levels, the most this tool reads")
        );
        let long = "x".repeat(30_000);
        let aliases = vec!["*a"; 40].join(", ");
        assert_eq!(
            beyond(&format!("a: &a {long}\nb: [{aliases}]\n")).as_deref(),
            Some(
                "the YAML has aliases repeating more than 1,048,576 bytes of text, the most this tool reads"
            )
        );
    }

    #[test]
    fn many_brackets_the_reader_reads_whole_are_given() {
        let lists = "k: [a, b]\n".repeat(200);
        assert_eq!(beyond(&lists), None);
        let aliases = format!("a: &a x\nb: [{}]\n", vec!["*a"; 2_000].join(", "));
        assert_eq!(beyond(&aliases), None);
    }

    /// libyaml keeps every event of a document: a long one is given to it
    /// only when the reader read it whole, within its node bound.
    #[test]
    fn a_long_text_needs_the_readers_reading() {
        let lines = format!("x:\n{}", "- a\n".repeat(90_000));
        assert_eq!(beyond(&lines), None);
        let lines = format!("x:\n{}", "- a\n".repeat(120_000));
        assert_eq!(
            beyond(&lines).as_deref(),
            Some(
                "the YAML has more than 100,000 nodes, aliases expanded, the most this tool reads"
            )
        );
        let unreadable = format!("{}d: Use when: x\n", "k: vvvvvvvvvvvvvvv\n".repeat(14_000));
        let why = beyond(&unreadable).unwrap_or_default();
        assert!(
            why.ends_with(
                "and the YAML is 266,015 bytes long, so how deep libyaml would nest it, how many nodes it would read, or how much its aliases would repeat, is not bounded before libyaml runs (this tool reads at most 64 levels, 100,000 nodes and 1,048,576 bytes repeated by aliases)"
            ),
            "{why}"
        );
    }

    #[test]
    fn many_brackets_the_reader_cannot_read_are_not() {
        let lists = format!("{}d: Use when: x\n", "k: [a, b]\n".repeat(65));
        let why = beyond(&lists).unwrap_or_default();
        assert!(
            why.starts_with(
                "this tool's reader stops at a syntax error (a `: ` inside an unquoted value starts a mapping here; quote the value) and the YAML has 65 `[` and `{`, so how deep"
            ),
            "{why}"
        );
        let nel = format!("# c\u{85}x: {}\n", "[".repeat(65));
        let why = beyond(&nel).unwrap_or_default();
        assert!(
            why.starts_with("the YAML holds U+0085, which ends a line for libyaml"),
            "{why}"
        );
    }

    /// How deep libyaml nests a document: serde's view of it.
    #[cfg(feature = "codex-yaml")]
    struct Depth(usize);

    #[cfg(feature = "codex-yaml")]
    impl<'de> serde::Deserialize<'de> for Depth {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            use serde::de::{EnumAccess, IgnoredAny, MapAccess, SeqAccess, VariantAccess, Visitor};
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Depth;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("anything")
                }
                fn visit_unit<E>(self) -> Result<Depth, E> {
                    Ok(Depth(0))
                }
                fn visit_bool<E>(self, _: bool) -> Result<Depth, E> {
                    Ok(Depth(0))
                }
                fn visit_i64<E>(self, _: i64) -> Result<Depth, E> {
                    Ok(Depth(0))
                }
                fn visit_u64<E>(self, _: u64) -> Result<Depth, E> {
                    Ok(Depth(0))
                }
                fn visit_f64<E>(self, _: f64) -> Result<Depth, E> {
                    Ok(Depth(0))
                }
                fn visit_str<E>(self, _: &str) -> Result<Depth, E> {
                    Ok(Depth(0))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Depth, A::Error> {
                    let mut deepest = 0;
                    while let Some(Depth(d)) = seq.next_element()? {
                        deepest = deepest.max(d);
                    }
                    Ok(Depth(deepest + 1))
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Depth, A::Error> {
                    let mut deepest = 0;
                    while let Some((Depth(k), Depth(v))) = map.next_entry()? {
                        deepest = deepest.max(k).max(v);
                    }
                    Ok(Depth(deepest + 1))
                }
                fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Depth, A::Error> {
                    let (IgnoredAny, variant) = data.variant::<IgnoredAny>()?;
                    variant.newtype_variant::<Depth>()
                }
            }
            d.deserialize_any(V)
        }
    }

    /// A flow collection from `ops` (open a list, open a mapping, close,
    /// a scalar), with the scalars and the gaps between items drawn from
    /// what could tell two scanners apart: brackets inside quotes, inside
    /// plain scalars and in comments.
    #[cfg(feature = "codex-yaml")]
    fn flow(ops: &[(u8, usize)], hazards: bool) -> String {
        const SCALARS: &[&str] = &[
            "a",
            "b c",
            "\"[{\"",
            "'[{'",
            "'it''s ['",
            "\"\\\"[\"",
            "don't",
            "*a",
            "&b b",
            "!x c",
            "\"#[\"",
            "? a",
        ];
        const HAZARDS: &[&str] = &[
            "\"\u{85}[\"",
            "a\u{2028}[",
            "x #[",
            "\t[",
            "\u{feff}[",
            "a#[",
            "- a",
        ];
        const GAPS: &[&str] = &["", " ", " # [[{\n  ", "\n  ", "\n# [\n  "];
        let scalar = |pick: usize| match pick % 16 {
            0 if hazards => HAZARDS[(pick / 16) % HAZARDS.len()],
            _ => SCALARS[pick % SCALARS.len()],
        };
        let mut out = String::new();
        let mut stack: Vec<char> = Vec::new();
        let mut first = true;
        // A later item of a mapping is a `k: ` entry.
        let item = |out: &mut String, stack: &[char], first: bool, gap: &str| {
            if !first {
                out.push(',');
            }
            out.push_str(gap);
            if !first && stack.last() == Some(&'}') {
                out.push_str("k: ");
            }
        };
        for &(op, pick) in ops {
            let gap = GAPS[pick % GAPS.len()];
            match op % 4 {
                0 | 1 => {
                    item(&mut out, &stack, first, gap);
                    let (open, close) = if op % 4 == 0 {
                        ("[", ']')
                    } else {
                        ("{a: ", '}')
                    };
                    out.push_str(open);
                    stack.push(close);
                    first = true;
                }
                2 => {
                    if let Some(close) = stack.pop() {
                        out.push_str(gap);
                        out.push(close);
                        first = false;
                    }
                }
                _ => {
                    item(&mut out, &stack, first, gap);
                    out.push_str(scalar(pick));
                    first = false;
                }
            }
        }
        while let Some(close) = stack.pop() {
            out.push(close);
        }
        out
    }

    /// What the check lets libyaml read, libyaml nests at most as deep as
    /// the bound: the reader's scanner, a port of libyaml's, finds the
    /// structure libyaml finds, on text made to tell them apart, with more
    /// than 64 `[` and `{` so that the count does not decide.
    #[cfg(feature = "codex-yaml")]
    #[test]
    fn what_is_given_nests_within_the_bound() {
        let vouched = std::cell::Cell::new(0usize);
        proptest::proptest!(
            proptest::prelude::ProptestConfig::with_cases(2048),
            |(
                ops in proptest::collection::vec((0u8..4, 0usize..256), 1..400),
                wrap in 0usize..3,
                hazards in proptest::bool::weighted(0.2),
            )| {
                let body = format!("[{}]", flow(&ops, hazards));
                let padding = "[".repeat(65);
                let text = match wrap {
                    0 => format!("a0: &a x\nk: {body}\n"),
                    1 => format!("a0: &a x\nk: {body}\n# {padding}\n"),
                    _ => format!("a0: &a x\nj: |\n  {padding}\nk: {body}\n"),
                };
                if check(&text, None).is_ok() {
                    vouched.set(vouched.get() + usize::from(text.matches(['[', '{']).count() > MAX_DEPTH));
                    let read = yaml_serde::from_str::<Depth>(&text);
                    if let Err(e) = &read {
                        proptest::prop_assert!(
                            !e.to_string().contains("recursion limit"),
                            "{text:?}: {e}"
                        );
                    }
                    if let Ok(Depth(d)) = read {
                        proptest::prop_assert!(d <= MAX_DEPTH + 1, "{text:?}: {d}");
                    }
                }
            }
        );
        // The reader, not the count, decided often enough to mean something.
        assert!(vouched.get() > 200, "{}", vouched.get());
    }
}
