//! One parse of a frontmatter's YAML for every client reader handed the
//! same text. Several clients read YAML with this crate's reader
//! ([`crate::yaml`]), each after its own split of `SKILL.md`; for most
//! files two or more of those splits give the same text (Gemini CLI and
//! Qwen Code the lines between the fences, Copilot CLI and OpenCode the
//! same with the opening line's break), and all clients' readings of a
//! skill are made one after the other on one thread
//! ([`all_readings`](super::all_readings)). So while one skill's readings
//! are made ([`one_skill`]) the last few parses are kept, keyed by their
//! whole text: a parse depends on its text alone, so a kept parse is
//! exactly what parsing again would give. They are dropped when the
//! skill's readings are done, so nothing of one skill outlives them and no
//! size bound is needed (a bound once made every frontmatter over 64 KiB
//! parsed four times instead of twice). A reading made alone parses its
//! text itself.

use std::cell::RefCell;
use std::rc::Rc;

use crate::yaml::{self, Parsed};

/// How many parses are kept: one per distinct split of a skill.
const KEPT: usize = 2;

/// The parses kept on this thread, newest last; `None` outside
/// [`one_skill`].
type Kept = Option<Vec<(Box<str>, Rc<Parsed>)>>;

thread_local! {
    static KEPT_PARSES: RefCell<Kept> = const { RefCell::new(None) };
}

/// Runs `read`, the readings of one skill, sharing their parses; what was
/// kept is dropped when it returns (or unwinds).
pub(crate) fn one_skill<R>(read: impl FnOnce() -> R) -> R {
    /// Puts back what was kept before (`None`, unless nested).
    struct Restore(Kept);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            KEPT_PARSES.with(|kept| *kept.borrow_mut() = before);
        }
    }
    let _restore = Restore(KEPT_PARSES.with(|kept| kept.replace(Some(Vec::new()))));
    read()
}

/// [`yaml::parse`] of the whole of `text` (spans from 0), shared with the
/// readers of the same skill that were handed the same text.
pub(crate) fn parse(text: &str) -> Rc<Parsed> {
    KEPT_PARSES.with(|kept| {
        let mut kept = kept.borrow_mut();
        let Some(kept) = kept.as_mut() else {
            return Rc::new(yaml::parse(text, 0, text.len()));
        };
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
        one_skill(|| {
            let a = parse("name: a\ndescription: x");
            let b = parse("name: a\ndescription: x");
            assert!(Rc::ptr_eq(&a, &b));
            let c = parse("\nname: a\ndescription: x");
            assert!(!Rc::ptr_eq(&a, &c));
            // Spans are the text's own, from 0, as `yaml::parse` gives them.
            let root = c.root.as_ref().and_then(|r| r.get("name"));
            assert_eq!(root.map(|n| n.span.clone()), Some(7..8));
            assert!(Rc::ptr_eq(&a, &parse("name: a\ndescription: x")));
            // However long the text.
            let long = format!("name: a\ndescription: {}", "x".repeat(100 << 10));
            assert!(Rc::ptr_eq(&parse(&long), &parse(&long)));
        });
    }

    #[test]
    fn nothing_is_kept_outside_one_skills_readings() {
        let a = one_skill(|| parse("name: a"));
        assert!(!Rc::ptr_eq(&a, &parse("name: a")));
        assert!(!Rc::ptr_eq(&parse("name: a"), &parse("name: a")));
        KEPT_PARSES.with(|kept| assert!(kept.borrow().is_none()));
        // Nor after a reading that panicked.
        let _ = std::panic::catch_unwind(|| one_skill(|| panic!("a reader failed")));
        KEPT_PARSES.with(|kept| assert!(kept.borrow().is_none()));
    }

    #[test]
    fn a_kept_parse_is_what_parsing_again_gives() {
        one_skill(|| {
            for text in ["a: [1", "a: 1\na: 2", "!!str x: y", "", "- a\n- b"] {
                parse(text);
                let kept = parse(text);
                let again = yaml::parse(text, 0, text.len());
                assert_eq!(format!("{:?}", *kept), format!("{again:?}"));
            }
        });
    }
}
