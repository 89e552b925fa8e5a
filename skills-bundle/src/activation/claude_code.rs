//! Claude Code's activation text: `Base directory for this skill: <dir>`, a
//! blank line, then the body with its placeholders filled, as Claude Code
//! 2.1.330 gives it to the model after a `Skill` tool call
//! (`../shared/clients/BEHAVIOUR.md` and its "Finer rules").
//!
//! Two passes, in Claude Code's order:
//!
//! 1. [`substitute_arguments`], one left-to-right scan of the body (values
//!    are never scanned again): named `arguments` (`$name`), `$ARGUMENTS[N]`,
//!    `$N` and `$ARGUMENTS`, with `\` before a placeholder keeping it
//!    literal; when no placeholder took the arguments, non-empty ones are
//!    appended as `\n\nARGUMENTS: <args>`.
//! 2. [`Vars::expand`]: `${CLAUDE_SKILL_DIR}`, `${CLAUDE_SESSION_ID}` and
//!    `${CLAUDE_PROJECT_DIR}` everywhere, the arguments' text included. The
//!    same pass fills these variables in `allowed-tools` rules.
//!
//! `` !`cmd` `` comes after both ([`commands`](super::commands)), then
//! U+FFFE and U+FFFF become U+FFFD.

use super::shell_words;

/// The variables of the second pass. A variable left `None` stays literal
/// (a library caller without a session or project says nothing false).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Vars<'v> {
    /// `${CLAUDE_SKILL_DIR}`: the skill's directory, as in the header.
    pub skill_dir: &'v str,
    /// `${CLAUDE_SESSION_ID}`.
    pub session_id: Option<&'v str>,
    /// `${CLAUDE_PROJECT_DIR}`.
    pub project_dir: Option<&'v str>,
}

impl Vars<'_> {
    /// `text` with every known `${CLAUDE_…}` variable replaced, in one scan:
    /// a value holding a variable's name is not expanded again. A backslash
    /// before one is no escape (Claude Code keeps it and expands).
    pub fn expand(&self, text: &str) -> String {
        let vars = [
            ("${CLAUDE_SKILL_DIR}", Some(self.skill_dir)),
            ("${CLAUDE_SESSION_ID}", self.session_id),
            ("${CLAUDE_PROJECT_DIR}", self.project_dir),
        ];
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find("${CLAUDE_") {
            let (before, from) = rest.split_at(at);
            out.push_str(before);
            match vars.iter().find_map(|(name, value)| {
                Some((name, (*value)?)).filter(|(n, _)| from.starts_with(**n))
            }) {
                Some((name, value)) => {
                    out.push_str(value);
                    rest = &from[name.len()..];
                }
                None => {
                    out.push('$');
                    rest = &from[1..];
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// The whole text block: the header, then `body` through both passes and
/// `run` (which handles `` !`cmd` ``).
pub fn render<E>(
    body: &str,
    arguments: &str,
    names: &[&str],
    vars: &Vars<'_>,
    run: impl FnOnce(&str) -> Result<String, E>,
) -> Result<String, E> {
    let body = vars.expand(&substitute_arguments(body, arguments, names));
    let body = run(&body)?;
    let text = format!(
        "Base directory for this skill: {}\n\n{body}",
        vars.skill_dir
    );
    Ok(text.replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}"))
}

/// The first pass; see the module documentation. `names` are the
/// frontmatter's `arguments`, in order: `$name` is the word at the same
/// index (empty when missing); empty and all-digit names are ignored, and
/// a name `ARGUMENTS` wins over the built-in `$ARGUMENTS`.
pub fn substitute_arguments(body: &str, arguments: &str, names: &[&str]) -> String {
    let words = shell_words::split(arguments);
    let named: Vec<(&str, usize)> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.is_empty() && !n.bytes().all(|b| b.is_ascii_digit()))
        .map(|(i, n)| (*n, i))
        .collect();
    let mut out = String::with_capacity(body.len() + arguments.len());
    let mut used = false;
    let mut rest = body;
    while let Some(at) = rest.find('$') {
        let (before, from) = rest.split_at(at);
        let Some(found) = placeholder(from, &named, &words, arguments) else {
            out.push_str(before);
            out.push('$');
            rest = &from[1..];
            continue;
        };
        match (before.strip_suffix('\\'), found.value) {
            // `\$…`: the placeholder as written, without the backslash.
            (Some(before), _) => {
                out.push_str(before);
                out.push_str(&from[..found.len]);
            }
            (None, Some(value)) => {
                out.push_str(before);
                out.push_str(value);
                used = true;
            }
            // A missing index stays as written.
            (None, None) => {
                out.push_str(before);
                out.push_str(&from[..found.len]);
            }
        }
        rest = &from[found.len..];
    }
    out.push_str(rest);
    if !used && !arguments.is_empty() {
        out.push_str("\n\nARGUMENTS: ");
        out.push_str(arguments);
    }
    out
}

/// A placeholder at the start of a text: its length, and its value (`None`
/// for an index past the last word).
struct Found<'a> {
    len: usize,
    value: Option<&'a str>,
}

/// The placeholder `from` (which starts with `$`) starts with, if any.
fn placeholder<'a>(
    from: &str,
    named: &[(&str, usize)],
    words: &'a [String],
    arguments: &'a str,
) -> Option<Found<'a>> {
    const EMPTY: &str = "";
    let after = &from[1..];
    let word = |i: usize| words.get(i).map(String::as_str);
    // Named: the longest name followed by neither `[` nor a word character.
    if let Some((name, i)) = named
        .iter()
        .filter(|(name, _)| {
            after
                .strip_prefix(name)
                .is_some_and(|tail| !tail.bytes().next().is_some_and(|b| b == b'[' || is_word(b)))
        })
        .max_by_key(|(name, _)| name.len())
    {
        return Some(Found {
            len: 1 + name.len(),
            value: Some(word(*i).unwrap_or(EMPTY)),
        });
    }
    if let Some(tail) = after.strip_prefix("ARGUMENTS[") {
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && tail.as_bytes().get(digits) == Some(&b']') {
            return Some(Found {
                len: 1 + "ARGUMENTS[".len() + digits + 1,
                value: tail[..digits].parse().ok().and_then(word),
            });
        }
    }
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        // `$1x` is no placeholder: it stays as written, the digits with it.
        let value = if after.as_bytes().get(digits).copied().is_some_and(is_word) {
            None
        } else {
            after[..digits].parse().ok().and_then(word)
        };
        return Some(Found {
            len: 1 + digits,
            value,
        });
    }
    if after.starts_with("ARGUMENTS") {
        return Some(Found {
            len: 1 + "ARGUMENTS".len(),
            value: Some(arguments),
        });
    }
    None
}

/// A character of JavaScript's `\w`.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(body: &str, args: &str) -> String {
        substitute_arguments(body, args, &[])
    }

    #[test]
    fn the_recorded_args_demo() {
        let body = "All: $ARGUMENTS\nFirst indexed: $ARGUMENTS[0]\nSecond indexed: $ARGUMENTS[1]\nDollar0: $0\nDollar1: $1\nDollar2: $2\nEscaped: \\$ARGUMENTS\n";
        assert_eq!(
            sub(body, r#"alpha "beta gamma" delta"#),
            "All: alpha \"beta gamma\" delta\nFirst indexed: alpha\nSecond indexed: beta gamma\nDollar0: alpha\nDollar1: beta gamma\nDollar2: delta\nEscaped: $ARGUMENTS\n"
        );
        assert_eq!(
            sub(body, ""),
            "All: \nFirst indexed: $ARGUMENTS[0]\nSecond indexed: $ARGUMENTS[1]\nDollar0: $0\nDollar1: $1\nDollar2: $2\nEscaped: $ARGUMENTS\n"
        );
    }

    #[test]
    fn arguments_have_no_word_boundary_and_braces_are_literal() {
        assert_eq!(sub("$ARGUMENTSx ${ARGUMENTS}", "v"), "vx ${ARGUMENTS}");
        assert_eq!(sub("$ARGUMENTS[x]", "v"), "v[x]");
    }

    #[test]
    fn indexes_take_all_their_digits() {
        let ten = "a b c d e f g h i j";
        assert_eq!(sub("$01 $1", "a b"), "b b");
        assert_eq!(sub("$10.", ten), "$10.\n\nARGUMENTS: a b c d e f g h i j");
        assert_eq!(sub("$10.", &format!("{ten} k")), "k.");
        assert_eq!(sub("$1x $1_ $1-", "a b"), "$1x $1_ b-");
        assert_eq!(sub("$ARGUMENTS[01]", "a b"), "b");
        assert_eq!(
            sub("$ARGUMENTS[5] $5", "a"),
            "$ARGUMENTS[5] $5\n\nARGUMENTS: a"
        );
        // Past every integer: missing, so literal, never a panic.
        let huge = format!("$ARGUMENTS[{0}] ${0}", "9".repeat(40));
        assert_eq!(sub(&huge, "a"), format!("{huge}\n\nARGUMENTS: a"));
    }

    #[test]
    fn named_arguments() {
        let names = ["target", "mode"];
        let s = |body: &str, args: &str| substitute_arguments(body, args, &names);
        assert_eq!(
            s(
                "Target is $target and mode is $mode. All: $ARGUMENTS\n",
                "prod fast extra"
            ),
            "Target is prod and mode is fast. All: prod fast extra\n"
        );
        // Missing: empty (and that counts as used).
        assert_eq!(s("[$target][$mode]", "prod"), "[prod][]");
        // A word character or `[` after the name: no placeholder.
        assert_eq!(
            s("$targets $target[0] $target-x", "p"),
            "$targets $target[0] p-x"
        );
        // All-digit and empty names are ignored; `$0` stays positional.
        assert_eq!(substitute_arguments("$0 $1", "a b", &["1", "", "x"]), "a b");
        // A name `ARGUMENTS` wins over the built-in.
        assert_eq!(
            substitute_arguments("$ARGUMENTS|$ARGUMENTSx", "a b", &["ARGUMENTS"]),
            "a|a bx"
        );
        // The longest name wins.
        assert_eq!(
            substitute_arguments("$a-b $ab", "1 2", &["a", "ab"]),
            "1-b 2"
        );
    }

    #[test]
    fn escapes_and_dollars() {
        assert_eq!(
            sub(r"\$ARGUMENTS \$0 \$ARGUMENTS[0]", "a"),
            "$ARGUMENTS $0 $ARGUMENTS[0]\n\nARGUMENTS: a"
        );
        assert_eq!(sub("$$ARGUMENTS $$0 $$", "a"), "$a $a $$");
        assert_eq!(
            sub(r"\$HOME $HOME $ $", "a"),
            "\\$HOME $HOME $ $\n\nARGUMENTS: a"
        );
    }

    #[test]
    fn values_are_not_scanned_again() {
        assert_eq!(sub("$0 $1", "'$1' x"), "$1 x");
        assert_eq!(substitute_arguments("$a $b", "'$b' y", &["a", "b"]), "$b y");
    }

    #[test]
    fn the_arguments_line() {
        assert_eq!(
            sub("# Plain\nJust a body line.\n", "one two"),
            "# Plain\nJust a body line.\n\n\nARGUMENTS: one two"
        );
        assert_eq!(sub("", "x"), "\n\nARGUMENTS: x");
        assert_eq!(sub("Body", ""), "Body");
        assert_eq!(sub("a\r\nb\r\n", "x"), "a\r\nb\r\n\n\nARGUMENTS: x");
    }

    #[test]
    fn variables() {
        let vars = Vars {
            skill_dir: "/s/demo",
            session_id: Some("sid"),
            project_dir: Some("/p"),
        };
        assert_eq!(
            vars.expand("${CLAUDE_SKILL_DIR}/x ${CLAUDE_SESSION_ID} ${CLAUDE_PROJECT_DIR} \\${CLAUDE_SKILL_DIR} ${CLAUDE_OTHER} ${CLAUDE_SKILL_DIR"),
            "/s/demo/x sid /p \\/s/demo ${CLAUDE_OTHER} ${CLAUDE_SKILL_DIR"
        );
        let bare = Vars {
            skill_dir: "${CLAUDE_SESSION_ID}",
            ..Vars::default()
        };
        assert_eq!(
            bare.expand("${CLAUDE_SKILL_DIR} ${CLAUDE_SESSION_ID}"),
            "${CLAUDE_SESSION_ID} ${CLAUDE_SESSION_ID}"
        );
    }

    #[test]
    fn render_orders_the_passes() {
        let vars = Vars {
            skill_dir: "/s",
            session_id: None,
            project_dir: None,
        };
        let text = |body: &str, args: &str| {
            render::<()>(body, args, &[], &vars, |b| Ok(b.to_string())).unwrap_or_default()
        };
        // The arguments' own `${CLAUDE_SKILL_DIR}` expands, their
        // `$ARGUMENTS` does not.
        assert_eq!(
            text("$ARGUMENTS", "${CLAUDE_SKILL_DIR} $ARGUMENTS"),
            "Base directory for this skill: /s\n\n/s $ARGUMENTS"
        );
        assert_eq!(
            text("", "a"),
            "Base directory for this skill: /s\n\n\n\nARGUMENTS: a"
        );
        assert_eq!(
            text("a\u{fffe}b\u{ffff}\r\n", ""),
            "Base directory for this skill: /s\n\na\u{fffd}b\u{fffd}\r\n"
        );
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;
    use crate::activation::commands;

    /// Text rich in the characters the scanners look at.
    fn tricky() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("$".to_string()),
                Just("\\".to_string()),
                Just("ARGUMENTS".to_string()),
                Just("[".to_string()),
                Just("]".to_string()),
                Just("${CLAUDE_SKILL_DIR}".to_string()),
                Just("!`".to_string()),
                Just("`".to_string()),
                Just("'".to_string()),
                Just("\"".to_string()),
                Just(" ".to_string()),
                Just("#".to_string()),
                Just("|".to_string()),
                "[0-9]{1,3}",
                "[a-z]{1,3}",
                any::<String>(),
            ],
            0..40,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #[test]
        fn substitution_never_panics(body in tricky(), args in tricky(), names in proptest::collection::vec(tricky(), 0..4)) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let vars = Vars { skill_dir: "/s", session_id: Some("id"), project_dir: None };
            let text = render::<()>(&body, &args, &names, &vars, |b| {
                commands::replace(b, |c| Ok(commands::marker(c)))
            });
            let text = text.unwrap_or_default();
            prop_assert!(text.starts_with("Base directory for this skill: /s\n\n"));
            let bad = ['\u{fffe}', '\u{ffff}'];
            prop_assert!(!text.contains(bad), "U+FFFE or U+FFFF left");
            // Without placeholders or arguments the body comes back as written.
            if !body.contains(['$', '!']) && args.is_empty() {
                prop_assert_eq!(&text["Base directory for this skill: /s\n\n".len()..], body.replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}"));
            }
        }
    }
}
