//! The one definition of shell syntax in this crate: what a POSIX shell
//! reads as syntax rather than as part of a word, how a word is quoted, and
//! where in a command line a value lands.
//!
//! Three places must agree on what a command line means, or a line one of
//! them calls harmless is run by another as something else: the policy
//! ([`ToolPolicy`](crate::ToolPolicy): may an allow rule with a pattern match
//! it?), the executor ([`exec::split_args`](crate::exec::split_args): which
//! argv?) and the activation runner (`activation::PolicyRunner`: does it need
//! `sh -c`?). All three ask this module:
//!
//! - [`split`] reads a line into words as a shell would, and refuses what a
//!   shell would *do* rather than quote (see [`split`] for the list). A line
//!   it refuses for [`SplitError::ShellSyntax`] [needs a shell](needs_shell);
//!   an allow rule with a pattern never matches one, so only a rule without
//!   a pattern (`Bash`) ever lets such a line reach `sh -c`.
//! - [`quote`] makes any text one word that [`split`] and `sh` read back
//!   unchanged; [`join`] quotes a whole argv.
//! - [`Line`] fills values into an author's command line (the placeholders
//!   of a `` !`cmd` ``, `${CLAUDE_SKILL_DIR}` in a `Bash` rule), each quoted
//!   for the context it stands in (outside quotes, in `"…"`, in `'…'`), so a
//!   value is data whatever it holds. Where the context cannot be told
//!   without the whole shell grammar (after `$(`, backquotes, `((`, `[[`, a
//!   here-document, in a comment), a value is refused ([`Unplaceable`]).
//! - [`braced_expansion`] finds a `${` a shell would expand.
//!
//! Claude Code's lenient split of a skill's arguments (`$0`, `$1`, …) is
//! another reader, of text that is never run; it shares
//! [`CONTROL_OPERATORS`] with [`split`].

mod line;
mod split;
mod syntax;

pub use line::{Context, Line, Unplaceable, braced_expansion, quote_in};
pub use split::{SplitError, needs_shell, split};
pub use syntax::{CONTROL_OPERATORS, EXPANSIONS, LINE_BREAKS, SEGMENT_BREAKS, join, quote};

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Vec<String> {
        match split(line) {
            Ok(words) => words,
            Err(e) => panic!("`{line}` refused: {e}"),
        }
    }

    fn refused(line: &str) -> SplitError {
        match split(line) {
            Ok(words) => panic!("`{line}` accepted as {words:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            ok(r#"python3 scripts/calc.py "15 * 23""#),
            ["python3", "scripts/calc.py", "15 * 23"]
        );
        assert_eq!(ok("  a\tb  "), ["a", "b"]);
        assert_eq!(ok(""), Vec::<String>::new());
        assert_eq!(ok("a '' \"\""), ["a", "", ""]);
        assert_eq!(ok(r"a\ b c"), ["a b", "c"]);
        assert_eq!(ok(r#"x"y"'z'"#), ["xyz"]);
        assert_eq!(ok(r#""a \" \\ \$ \n""#), [r#"a " \ $ \n"#]);
        assert_eq!(ok("'$(x); `y` | z'"), ["$(x); `y` | z"]);
        assert_eq!(ok(r"\; \$HOME"), [";", "$HOME"]);
        assert_eq!(
            ok("a#b *.txt ~ {a,b} x=y"),
            ["a#b", "*.txt", "~", "{a,b}", "x=y"]
        );
        assert_eq!(ok("a\\\nb"), ["ab"]);
        assert_eq!(ok("'a\rb' \"c\nd\""), ["a\rb", "c\nd"]);
    }

    #[test]
    fn refuses_shell_syntax() {
        assert_eq!(
            refused("ls; rm -rf /"),
            SplitError::ShellSyntax { found: ';', at: 2 }
        );
        for (line, found) in [
            ("a | b", '|'),
            ("a && b", '&'),
            ("a & ", '&'),
            ("a > out", '>'),
            ("a < in", '<'),
            ("cat <(touch x)", '<'),
            ("echo `id`", '`'),
            ("echo $(id)", '$'),
            ("echo $HOME", '$'),
            ("echo $0 $$", '$'),
            ("echo \"$(id)\"", '$'),
            ("echo \"`id`\"", '`'),
            ("(a)", '('),
            ("a )", ')'),
            ("a\nb", '\n'),
            ("a\rb", '\r'),
            ("a #comment", '#'),
        ] {
            match refused(line) {
                SplitError::ShellSyntax { found: f, .. } => assert_eq!(f, found, "{line}"),
                e => panic!("`{line}`: {e}"),
            }
            assert!(needs_shell(line), "{line}");
        }
        assert_eq!(
            refused("a 'b"),
            SplitError::UnclosedQuote { quote: '\'', at: 2 }
        );
        assert_eq!(
            refused("a \"b\\\""),
            SplitError::UnclosedQuote { quote: '"', at: 2 }
        );
        assert_eq!(refused("a \\"), SplitError::TrailingBackslash);
        assert!(!needs_shell("a 'b") && !needs_shell("a \\") && !needs_shell("a b"));
        assert!(refused("ls; rm -rf /").to_string().contains("quote it"));
    }

    #[test]
    fn quoted_words_read_back_unchanged() {
        for word in [
            "plain",
            "scripts/x.sh",
            "--a=b",
            "",
            " ",
            "a b",
            "it's",
            "'",
            "$0 $$ $HOME",
            "<(touch X)",
            "$(touch X)",
            "`id`",
            "; rm -rf /",
            "#x",
            "~",
            "*",
            "a\nb",
            "a\rb",
            "\\",
            "'\\''",
            "\"",
            "!`cat /etc/hostname`",
            "${IFS}",
            "é 😀",
        ] {
            let quoted = quote(word);
            assert_eq!(ok(&quoted), [word], "{word:?} quoted as {quoted:?}");
            let line = join([word, "x", word]);
            assert_eq!(ok(&line), [word, "x", word], "{line:?}");
        }
        assert_eq!(quote("scripts/x.sh"), "scripts/x.sh");
        assert_eq!(quote("a=b"), "'a=b'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
    }
}
