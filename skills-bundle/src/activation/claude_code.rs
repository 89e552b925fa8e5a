//! Claude Code's activation text: `Base directory for this skill: <dir>`, a
//! blank line, then the body with its placeholders filled, as Claude Code
//! 2.1.330 gives it to the model after a `Skill` tool call
//! (observed on that version, down to its placeholder and quoting rules).
//!
//! Two passes, in Claude Code's order:
//!
//! 1. [`substitute_arguments`], one left-to-right scan of the body (values
//!    are never scanned again): named `arguments` (`$name`), `$ARGUMENTS[N]`,
//!    `$N` and `$ARGUMENTS`, with one `\` before a placeholder keeping it
//!    literal and going away (`\$0` is `$0`); two or more backslashes
//!    before it all stay and the placeholder is filled (`\\$0` is `\\`
//!    and the value); when no placeholder took the arguments, non-empty
//!    ones are appended as `\n\nARGUMENTS: <args>`. Every value put in the
//!    text, that line's included, goes through [`escape_value`]: a `!`
//!    starting a word becomes `\!` and a `!` beside a backquote is parted
//!    from it, so that no argument makes a `` !`cmd` `` of its own.
//! 2. [`Vars::expand`]: `${CLAUDE_SKILL_DIR}`, `${CLAUDE_SESSION_ID}` and
//!    `${CLAUDE_PROJECT_DIR}` everywhere, the arguments' text included. The
//!    same pass fills these variables in `allowed-tools` rules.
//!
//! # Commands: only the author's, and arguments as data
//!
//! Unlike Claude Code, which finds `` !`cmd` `` in the text *after* both
//! passes (so an argument holding `` !`cmd` `` adds a command, and an
//! argument holding `$(…)` runs inside one), [`render`] finds the commands
//! in the author's text first ([`commands::pieces`]), and fills each
//! command's placeholders as data ([`shell::Line`](Line)): every value is quoted
//! for the context it stands in (outside quotes a quoted word, in `"…"`
//! with `"`, `\`, `$` and `` ` `` escaped, in `'…'` with `'` as `'\''`), so
//! a shell or [`shell::split`](crate::shell::split) reads it back as the very characters given.
//! In a command:
//!
//! - `$N`, `$ARGUMENTS[N]` and `$name` are the same words as in the text
//!   (Claude Code's split, [`split_arguments`](super::split_arguments)),
//!   with `${CLAUDE_…}` expanded inside them; a missing `$N` is empty (not
//!   left as a `$N` for the shell to expand), and an empty value outside
//!   quotes is no word, as an empty unquoted expansion is none;
//! - `$ARGUMENTS` outside quotes is the arguments' words grouped by blanks,
//!   quotes and backslashes only ([`argument_words`](super::argument_words):
//!   `$`, `#`, `|`, `;` stay characters of the words), each quoted; inside
//!   quotes it is the arguments' text as written;
//! - `${CLAUDE_SKILL_DIR}` (and the other variables) are values too, so a
//!   directory with a space stays one word;
//! - a value that would stand where its quoting cannot be sure (after `$(`,
//!   backquotes, `((`, `[[`, a here-document, in a comment) fails the
//!   command ([`CommandError::Unplaceable`]).
//!
//! The text outside commands is exactly Claude Code's. A command's output
//! is never searched for commands, and neither is the `ARGUMENTS:` line.
//! Last, U+FFFE and U+FFFF become U+FFFD.

use super::commands::{self, CommandError, Piece};
use super::shell_words;
use crate::shell::{Context, Line, Unplaceable};
use skills_core::catalog::claude_code::is_js_whitespace;

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

/// A piece of text seen by [`Vars`]: as written, or a known variable.
enum VarPiece<'a> {
    Text(&'a str),
    Var { name: &'a str, value: &'a str },
}

impl Vars<'_> {
    /// `text` with every known `${CLAUDE_…}` variable replaced, in one scan:
    /// a value holding a variable's name is not expanded again. A backslash
    /// before one is no escape (Claude Code keeps it and expands).
    pub fn expand(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.each(text, |piece| match piece {
            VarPiece::Text(t) => out.push_str(t),
            VarPiece::Var { value, .. } => out.push_str(value),
        });
        out
    }

    /// `command` (the author's command line, or a `Bash` rule's pattern)
    /// with every known variable filled as data ([`Line::value`]):
    /// a directory with a space stays one word. `Err` names the variable
    /// that stands where no quoting is sure.
    pub fn expand_in_command(&self, command: &str) -> Result<String, (String, Unplaceable)> {
        let mut line = Line::new();
        let mut error = None;
        self.fill(command, &mut line, &mut error);
        match error {
            Some(e) => Err(e),
            None => Ok(line.into_string()),
        }
    }

    /// Appends `text` to `line`, its variables as values; the first
    /// variable that cannot be placed is kept in `error`.
    fn fill(&self, text: &str, line: &mut Line, error: &mut Option<(String, Unplaceable)>) {
        self.each(text, |piece| match piece {
            VarPiece::Text(t) => line.text(t),
            VarPiece::Var { name, value } => {
                if let Err(e) = line.value(value) {
                    error.get_or_insert((name.to_string(), e));
                }
            }
        });
    }

    /// Calls `f` on the pieces of `text`, in order.
    fn each<'a>(&'a self, text: &'a str, mut f: impl FnMut(VarPiece<'a>)) {
        let vars = [
            ("${CLAUDE_SKILL_DIR}", Some(self.skill_dir)),
            ("${CLAUDE_SESSION_ID}", self.session_id),
            ("${CLAUDE_PROJECT_DIR}", self.project_dir),
        ];
        let mut rest = text;
        while let Some(at) = rest.find("${CLAUDE_") {
            let (before, from) = rest.split_at(at);
            if !before.is_empty() {
                f(VarPiece::Text(before));
            }
            match vars.iter().find_map(|(name, value)| {
                Some((*name, (*value)?)).filter(|(n, _)| from.starts_with(*n))
            }) {
                Some((name, value)) => {
                    f(VarPiece::Var { name, value });
                    rest = &from[name.len()..];
                }
                None => {
                    f(VarPiece::Text("$"));
                    rest = &from[1..];
                }
            }
        }
        if !rest.is_empty() {
            f(VarPiece::Text(rest));
        }
    }
}

/// The whole text block: the header, then `body` with its placeholders
/// filled and each of the author's commands replaced by `run(command)`:
/// `Ok` with the command line, placeholders filled as data, or the
/// [`CommandError::Unplaceable`] that says why it could not be built. See
/// the module documentation.
pub fn render<E>(
    body: &str,
    arguments: &str,
    names: &[&str],
    vars: &Vars<'_>,
    mut run: impl FnMut(Result<String, CommandError>) -> Result<String, E>,
) -> Result<String, E> {
    let args = Args::new(arguments, names);
    let mut used = false;
    let mut out = String::with_capacity(body.len() + arguments.len());
    for piece in commands::pieces(body) {
        match piece {
            Piece::Text(text) => {
                let mut sink = String::with_capacity(text.len());
                used |= scan(text, &args, &mut sink);
                out.push_str(&vars.expand(&sink));
            }
            Piece::Command(command) => {
                let mut sink = InCommand {
                    line: Line::new(),
                    pending: String::new(),
                    vars,
                    error: None,
                };
                used |= scan(command, &args, &mut sink);
                sink.flush();
                let filled = match sink.error {
                    Some((placeholder, e)) => Err(CommandError::Unplaceable {
                        command: command.to_string(),
                        reason: format!("`{placeholder}`: {e}"),
                    }),
                    None => Ok(sink.line.into_string()),
                };
                out.push_str(&run(filled)?);
            }
        }
    }
    if !used && !arguments.is_empty() {
        out.push_str("\n\nARGUMENTS: ");
        out.push_str(&escape_value(&vars.expand(arguments)));
    }
    let text = format!("Base directory for this skill: {}\n\n{out}", vars.skill_dir);
    Ok(text.replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}"))
}

/// The first pass over a whole body; see the module documentation. `names`
/// are the frontmatter's `arguments`, in order: `$name` is the word at the
/// same index (empty when missing); empty and all-digit names are ignored,
/// and a name `ARGUMENTS` wins over the built-in `$ARGUMENTS`.
pub fn substitute_arguments(body: &str, arguments: &str, names: &[&str]) -> String {
    let args = Args::new(arguments, names);
    let mut out = String::with_capacity(body.len() + arguments.len());
    let used = scan(body, &args, &mut out);
    if !used && !arguments.is_empty() {
        out.push_str("\n\nARGUMENTS: ");
        out.push_str(&escape_value(arguments));
    }
    out
}

/// The arguments, split once for every piece of a body.
struct Args<'a> {
    arguments: &'a str,
    words: Vec<String>,
    named: Vec<(&'a str, usize)>,
}

impl<'a> Args<'a> {
    fn new(arguments: &'a str, names: &[&'a str]) -> Self {
        Args {
            arguments,
            words: shell_words::split(arguments),
            named: names
                .iter()
                .enumerate()
                .filter(|(_, n)| !n.is_empty() && !n.bytes().all(|b| b.is_ascii_digit()))
                .map(|(i, n)| (*n, i))
                .collect(),
        }
    }
}

/// A placeholder's value, for a [`Sink`].
enum Value<'a> {
    /// One word (`$N`, `$ARGUMENTS[N]`, `$name`).
    Word(&'a str),
    /// `$ARGUMENTS`: the arguments as written.
    Whole,
}

/// Where the first pass puts the author's text and the values it finds.
trait Sink {
    /// The author's own text.
    fn text(&mut self, text: &str);
    /// A placeholder (`written`) and its value.
    fn value(&mut self, written: &str, value: Value<'_>, arguments: &str);
    /// A placeholder with no value (an index past the last word).
    fn missing(&mut self, written: &str);
}

/// The text the model reads: values as they are, a missing index as written.
impl Sink for String {
    fn text(&mut self, text: &str) {
        self.push_str(text);
    }

    fn value(&mut self, _: &str, value: Value<'_>, arguments: &str) {
        self.push_str(&escape_value(match value {
            Value::Word(w) => w,
            Value::Whole => arguments,
        }));
    }

    fn missing(&mut self, written: &str) {
        self.push_str(written);
    }
}

/// A command line: the author's text lexed, values filled as data; see the
/// module documentation.
struct InCommand<'a, 'v> {
    line: Line,
    /// The author's text not yet lexed: variables are found in it whole,
    /// never across a value.
    pending: String,
    vars: &'a Vars<'v>,
    /// The first placeholder that could not be placed, and why.
    error: Option<(String, Unplaceable)>,
}

impl InCommand<'_, '_> {
    /// Lexes the pending author text, its variables filled.
    fn flush(&mut self) {
        let text = std::mem::take(&mut self.pending);
        self.vars.fill(&text, &mut self.line, &mut self.error);
    }
}

impl Sink for InCommand<'_, '_> {
    fn text(&mut self, text: &str) {
        self.pending.push_str(text);
    }

    fn value(&mut self, written: &str, value: Value<'_>, arguments: &str) {
        self.flush();
        let placed = match value {
            Value::Word(w) => self.line.value(&self.vars.expand(w)),
            Value::Whole if self.line.context() == Some(Context::Unquoted) => {
                let words: Vec<String> = shell_words::data_words(arguments)
                    .iter()
                    .map(|w| self.vars.expand(w))
                    .collect();
                self.line.words(&words)
            }
            Value::Whole => self.line.value(&self.vars.expand(arguments)),
        };
        if let Err(e) = placed {
            self.error.get_or_insert((written.to_string(), e));
        }
    }

    fn missing(&mut self, _: &str) {
        self.flush();
    }
}

/// One left-to-right scan of `body` into `sink`; whether a placeholder took
/// the arguments.
fn scan(body: &str, args: &Args<'_>, sink: &mut impl Sink) -> bool {
    let mut used = false;
    let mut rest = body;
    while let Some(at) = rest.find('$') {
        let (before, from) = rest.split_at(at);
        let Some(found) = placeholder(from, &args.named, &args.words) else {
            sink.text(before);
            sink.text("$");
            rest = &from[1..];
            continue;
        };
        let written = &from[..found.len];
        // One backslash right before the placeholder (and no other before
        // it) escapes it and goes; more all stay, and it is filled.
        let slashes = before.len() - before.trim_end_matches('\\').len();
        let escaped = slashes == 1;
        sink.text(&before[..before.len() - usize::from(escaped)]);
        match (escaped, found.slot) {
            // `\$…`: the placeholder as written, without the backslash.
            (true, _) => sink.text(written),
            (false, Slot::Value(value)) => {
                sink.value(written, value, args.arguments);
                used = true;
            }
            // A missing index stays as written.
            (false, Slot::Missing) => sink.missing(written),
            // No placeholder: the author's text.
            (false, Slot::Literal) => sink.text(written),
        }
        rest = &from[found.len..];
    }
    sink.text(rest);
    used
}

/// A placeholder at the start of a text: its length, and what it stands for.
struct Found<'a> {
    len: usize,
    slot: Slot<'a>,
}

/// What a placeholder stands for.
enum Slot<'a> {
    /// A value.
    Value(Value<'a>),
    /// An index past the last word: as written in the text, empty in a
    /// command.
    Missing,
    /// No placeholder after all (`$1x`): the author's text, everywhere.
    Literal,
}

/// The placeholder `from` (which starts with `$`) starts with, if any.
fn placeholder<'a>(from: &str, named: &[(&str, usize)], words: &'a [String]) -> Option<Found<'a>> {
    const EMPTY: &str = "";
    let after = &from[1..];
    let word = |i: usize| words.get(i).map(|w| Value::Word(w));
    let index = |digits: &str| match digits.parse().ok().and_then(word) {
        Some(value) => Slot::Value(value),
        None => Slot::Missing,
    };
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
            slot: Slot::Value(word(*i).unwrap_or(Value::Word(EMPTY))),
        });
    }
    if let Some(tail) = after.strip_prefix("ARGUMENTS[") {
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && tail.as_bytes().get(digits) == Some(&b']') {
            return Some(Found {
                len: 1 + "ARGUMENTS[".len() + digits + 1,
                slot: index(&tail[..digits]),
            });
        }
    }
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        // `$1x` is no placeholder: it stays as written, the digits with it.
        let slot = if after.as_bytes().get(digits).copied().is_some_and(is_word) {
            Slot::Literal
        } else {
            index(&after[..digits])
        };
        return Some(Found {
            len: 1 + digits,
            slot,
        });
    }
    if after.starts_with("ARGUMENTS") {
        return Some(Found {
            len: 1 + "ARGUMENTS".len(),
            slot: Slot::Value(Value::Whole),
        });
    }
    None
}

/// A value as Claude Code puts it in the text: a `` `! `` becomes
/// `` ` ! ``, a `` !` `` becomes `` ! ` ``, then a `!` at the start or
/// after JavaScript whitespace gets a backslash (`\!`), so that a value
/// never starts a `` !`cmd` `` (recorded on 2.1.332: `a ! b` fills `$1`
/// with `\!`).
pub fn escape_value(value: &str) -> String {
    let parted = value.replace("`!", "` !").replace("!`", "! `");
    let mut out = String::with_capacity(parted.len() + 8);
    let mut after_blank = true;
    for c in parted.chars() {
        if c == '!' && after_blank {
            out.push('\\');
        }
        after_blank = is_js_whitespace(c);
        out.push(c);
    }
    out
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
        // One backslash right before a placeholder escapes it; more all
        // stay and it is filled (recorded on 2.1.332). Elsewhere
        // backslashes stay as written.
        let body = r"A[\\$0] B[\\\$0] C[\\\\$0] D[\$0] E[\\$ARGUMENTS] F[\\$5] G[$ARGUMENTS] H[\\$ARGUMENTS[1]] I[x\\y] J[$1]";
        assert_eq!(
            sub(body, "p q"),
            r"A[\\p] B[\\\p] C[\\\\p] D[$0] E[\\p q] F[\\$5] G[p q] H[\\q] I[x\\y] J[q]"
        );
        // Values: a `!` starting a word gets a backslash, one beside a
        // backquote is parted from it (recorded).
        assert_eq!(
            sub(body, "a ! b"),
            r"A[\\a] B[\\\a] C[\\\\a] D[$0] E[\\a \! b] F[\\$5] G[a \! b] H[\\\!] I[x\\y] J[\!]"
        );
        assert_eq!(
            sub("$ARGUMENTS", "!x `y` a!`b` !`c`\n!y"),
            "\\!x `y` a! `b` \\! `c`\n\\!y"
        );
        assert_eq!(sub("Body", "!x"), "Body\n\nARGUMENTS: \\!x");
        assert_eq!(sub(r"C:\\x \\ \n $0\\", "a"), r"C:\\x \\ \n a\\");
        assert_eq!(sub(r"\\$1x", "a b"), "\\\\$1x\n\nARGUMENTS: a b");
        assert_eq!(sub(r"\$1x", "a b"), "$1x\n\nARGUMENTS: a b");
        assert_eq!(
            sub(r"\$HOME $HOME $ $", "a"),
            "\\$HOME $HOME $ $\n\nARGUMENTS: a"
        );
    }

    #[test]
    fn values_are_not_scanned_again() {
        assert_eq!(sub("$0 $1", "'$1' x"), "$1 x");
        // Every placeholder of the body is filled, whatever the values hold.
        assert_eq!(
            sub("$ARGUMENTS|$0|$1|$ARGUMENTS[1]", "'$ARGUMENTS' '$0'"),
            "'$ARGUMENTS' '$0'|$ARGUMENTS|$0|$0"
        );
        assert_eq!(
            substitute_arguments("$a $b $0", "'$b' '\\$a'", &["a", "b"]),
            "$b \\$a $b"
        );
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
    fn placeholders_in_a_command_are_data() {
        let vars = Vars {
            skill_dir: "/s d",
            session_id: None,
            project_dir: Some("/p"),
        };
        let commands = |body: &str, args: &str, names: &[&str]| {
            let mut seen = Vec::new();
            let text = render::<()>(body, args, names, &vars, |c| {
                seen.push(c.map_err(|e| e.to_string()));
                Ok("<ran>".into())
            });
            (text.unwrap_or_default(), seen)
        };
        let (text, seen) = commands(
            "$0 !`echo $0 \"$1\" '$1' $ARGUMENTS \"$ARGUMENTS\"` $1",
            "a 'b c'",
            &[],
        );
        assert_eq!(text, "Base directory for this skill: /s d\n\na <ran> b c");
        assert_eq!(
            seen,
            [Ok("echo a \"b c\" 'b c' a 'b c' \"a 'b c'\"".into())]
        );
        // `$1x` is no placeholder, as in the text; a missing index is
        // empty, not a `$5` for the shell; `\$0` is the author's `$0`.
        let (text, seen) = commands("!`echo $1x $5 \\$0`", "a b", &[]);
        assert_eq!(
            text,
            "Base directory for this skill: /s d\n\n<ran>\n\nARGUMENTS: a b"
        );
        assert_eq!(seen, [Ok("echo $1x  $0".into())]);
        // Variables are values: a directory with a space is one word.
        let (_, seen) = commands(
            "!`${CLAUDE_SKILL_DIR}/x.sh \"${CLAUDE_PROJECT_DIR}\" ${CLAUDE_SESSION_ID}`",
            "",
            &[],
        );
        assert_eq!(seen, [Ok("'/s d'/x.sh \"/p\" ${CLAUDE_SESSION_ID}".into())]);
        // Named arguments; a missing one is nothing.
        let (_, seen) = commands("!`echo $who $what.txt`", "'x y'", &["who", "what"]);
        assert_eq!(seen, [Ok("echo 'x y' .txt".into())]);
        // `$ARGUMENTS` outside quotes keeps every character as data.
        let (_, seen) = commands("!`echo $ARGUMENTS`", "$0 $$ <(x) #y !`z`", &[]);
        assert_eq!(seen, [Ok("echo '$0' '$$' '<(x)' '#y' '!`z`'".into())]);
        // Where no quoting is sure, the command is not built.
        let (_, seen) = commands("!`echo $(date) $0`", "x", &[]);
        assert_eq!(
            seen,
            [Err(
                "the skill's command !`echo $(date) $0` cannot take its arguments as data: \
                  `$0`: it stands after `$(`, where no quoting is sure to keep a value one \
                  word of data; quote the placeholder or move it out of that construct"
                    .into()
            )]
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
            render::<()>(body, args, &[], &vars, |c| {
                Ok(format!("<{}>", c.unwrap_or_else(|e| e.to_string())))
            })
            .unwrap_or_default()
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
        fn values_in_a_command_are_words_of_data(values in proptest::collection::vec(tricky(), 3)) {
            use crate::shell;
            // Every value quoted: a bare `if` or `A=1` first is no word of
            // Claude Code's.
            let args = values
                .iter()
                .map(|v| format!("'{}'", v.replace('\'', "'\\''")))
                .collect::<Vec<_>>()
                .join(" ");
            prop_assert_eq!(&shell_words::split(&args), &values, "each value is one argument");
            let vars = Vars { skill_dir: "/s d", session_id: Some("id"), project_dir: None };
            let mut seen = Vec::new();
            let _ = render::<()>("!`echo $0 \"$1\" '$2'`", &args, &[], &vars, |c| {
                seen.push(c);
                Ok(String::new())
            });
            let [Ok(line)] = seen.as_slice() else {
                return Err(TestCaseError::fail(format!("one command line: {seen:?}")));
            };
            let v: Vec<String> = values.iter().map(|v| vars.expand(v)).collect();
            let mut want = vec!["echo".to_string()];
            want.extend(Some(v[0].clone()).filter(|v| !v.is_empty()));
            want.extend([v[1].clone(), v[2].clone()]);
            prop_assert_eq!(shell::split(line), Ok(want), "{}", line);
        }

        #[test]
        fn substitution_never_panics(body in tricky(), args in tricky(), names in proptest::collection::vec(tricky(), 0..4)) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let vars = Vars { skill_dir: "/s", session_id: Some("id"), project_dir: None };
            let text = render::<()>(&body, &args, &names, &vars, |c| {
                Ok(commands::marker(&c.unwrap_or_else(|e| e.command().to_string())))
            });
            let text = text.unwrap_or_default();
            prop_assert!(text.starts_with("Base directory for this skill: /s\n\n"));
            let bad = ['\u{fffe}', '\u{ffff}'];
            prop_assert!(!text.contains(bad), "U+FFFE or U+FFFF left");
            // Outside commands, the text is Claude Code's: both passes over
            // the whole body (here it has no command).
            if commands::pieces(&body).iter().all(|p| matches!(p, commands::Piece::Text(_))) {
                let want = vars.expand(&substitute_arguments(&body, &args, &names));
                let want = format!("Base directory for this skill: /s\n\n{want}")
                    .replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}");
                prop_assert_eq!(&text, &want);
            }
            // Without placeholders or arguments the body comes back as written.
            if !body.contains(['$', '!']) && args.is_empty() {
                prop_assert_eq!(&text["Base directory for this skill: /s\n\n".len()..], body.replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}"));
            }
        }
    }
}
