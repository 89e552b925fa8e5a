//! One parse of a frontmatter's YAML for every client reader handed the
//! same text. Several clients read YAML with this crate's reader
//! ([`crate::yaml`]), each after its own split of `SKILL.md`; for most
//! files two or more of those splits give the same text (Gemini CLI and
//! Qwen Code the lines between the fences, Copilot CLI and OpenCode the
//! same with the opening line's break), and all clients' readings of a
//! skill are made one after the other on one thread
//! ([`all_readings`](super::all_readings)). So the last few parses on the
//! thread are kept, keyed by their whole text: a parse depends on its text
//! alone, so a kept parse is exactly what parsing again would give.

use std::cell::RefCell;
use std::rc::Rc;

use crate::yaml::{self, Parsed};

/// How many parses a thread keeps: one per distinct split of a skill.
const KEPT: usize = 2;

/// The longest text kept: longer frontmatters (rare) are parsed each time,
/// so that what a thread keeps stays small.
const MAX_KEPT_BYTES: usize = 64 << 10;

thread_local! {
    /// The last parses made on this thread, newest last.
    static KEPT_PARSES: RefCell<Vec<(Box<str>, Rc<Parsed>)>> = const { RefCell::new(Vec::new()) };
}

/// [`yaml::parse`] of the whole of `text` (spans from 0), shared with the
/// readers that were handed the same text last on this thread.
pub(crate) fn parse(text: &str) -> Rc<Parsed> {
    if text.len() > MAX_KEPT_BYTES {
        return Rc::new(yaml::parse(text, 0, text.len()));
    }
    KEPT_PARSES.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some((_, parsed)) = kept.iter().find(|(t, _)| **t == *text) {
            return Rc::clone(parsed);
        }
        let parsed = Rc::new(yaml::parse(text, 0, text.len()));
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((text.into(), Rc::clone(&parsed)));
        parsed
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_is_parsed_once_and_another_text_again() {
        let a = parse("name: a\ndescription: x");
        let b = parse("name: a\ndescription: x");
        assert!(Rc::ptr_eq(&a, &b));
        let c = parse("\nname: a\ndescription: x");
        assert!(!Rc::ptr_eq(&a, &c));
        // Spans are the text's own, from 0, as `yaml::parse` gives them.
        let root = c.root.as_ref().and_then(|r| r.get("name"));
        assert_eq!(root.map(|n| n.span.clone()), Some(7..8));
        assert!(Rc::ptr_eq(&a, &parse("name: a\ndescription: x")));
    }

    #[test]
    fn a_kept_parse_is_what_parsing_again_gives() {
        for text in ["a: [1", "a: 1\na: 2", "!!str x: y", "", "- a\n- b"] {
            parse(text);
            let kept = parse(text);
            let again = yaml::parse(text, 0, text.len());
            assert_eq!(format!("{:?}", *kept), format!("{again:?}"));
        }
    }
}
