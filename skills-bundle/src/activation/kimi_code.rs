//! Kimi Code's activation: the user message its `Skill` tool adds, as Kimi
//! Code 2.1.0 was observed to send it (and as its package's
//! `renderModelToolSkillPrompt` and `expandSkillParameters` write it).
//!
//! ```text
//! Skill tool loaded instructions for this request. Follow them.
//!
//! <skill-loaded name="NAME" trigger="model-tool" source="project" dir="/abs/skill/dir" args="ARGS">
//! BODY
//! </skill-loaded>
//! ```
//!
//! The attributes are XML-escaped (`&`, `<`, `>`, `"`); `args` is there
//! even when empty. The tool itself answers `Skill "NAME" loaded inline.
//! Follow its instructions.` ([`tool_result`]). BODY is the text after the
//! frontmatter, trimmed, with its placeholders filled ([`expand`]), in this
//! order, each over the result of the one before:
//!
//! 1. `$NAME` for each name of the frontmatter's `arguments` (not followed
//!    by `[` or a word character): the word at the name's position;
//! 2. `$ARGUMENTS[N]`: word N (from 0);
//! 3. `$N` (not followed by a word character): word N (`$0` is the first);
//! 4. `$ARGUMENTS`: the whole argument string.
//!
//! A word past the last is empty; the words are the argument string split
//! at white space, quotes (`"`, `'`) grouping and dropped ([`words`]).
//! Every value put in has its `<` and `>` escaped; in steps 1 and 4 a `$`
//! pattern of the value (`$$`, `$&`) is read as JavaScript's `replaceAll`
//! reads it. When none of this changed the body and arguments were given,
//! `\n\nARGUMENTS: ARGS` is appended. Then `${KIMI_SKILL_DIR}` becomes the
//! skill's folder and `${KIMI_SESSION_ID}` the session's id. Nothing else is
//! substituted (`${CLAUDE_SKILL_DIR}`, `` !`cmd` ``, `$HOME` stay).

/// The answer the tool gives for `name` (the skill's own name).
pub fn tool_result(name: &str) -> String {
    format!("Skill \"{name}\" loaded inline. Follow its instructions.")
}

/// The error prefix of the tool's failures.
const ERROR: &str = "<system>ERROR: Tool execution failed.</system>\n";

/// The answer for a name no loaded skill has.
pub fn not_found(name: &str) -> String {
    format!("{ERROR}Skill \"{name}\" not found in the current skill listing.")
}

/// The answer for a skill with `disable-model-invocation: true`.
pub fn model_disabled(name: &str) -> String {
    format!(
        "{ERROR}Skill \"{name}\" can only be triggered by the user (model invocation is disabled)."
    )
}

/// The answer for a `type: flow` or `type: reference` skill (`name` is the
/// skill's own).
pub fn not_inline(name: &str) -> String {
    format!(
        "{ERROR}Skill \"{name}\" is not an inline skill and cannot be invoked by the model in v1."
    )
}

/// What the user message is made of.
#[derive(Debug, Clone, Copy)]
pub struct Loaded<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// Its scope as a `source`: `project`, `user`, `builtin`.
    pub source: &'a str,
    /// Its folder (for a loose file, the folder the file is in).
    pub dir: &'a str,
    /// The argument string, as the model gave it (empty for none).
    pub args: &'a str,
    /// The body with its placeholders filled ([`expand`]).
    pub body: &'a str,
}

/// The user message for `loaded`.
pub fn render(loaded: &Loaded<'_>) -> String {
    let attr = |name: &str, value: &str| format!(" {name}=\"{}\"", escape_xml(value));
    format!(
        "Skill tool loaded instructions for this request. Follow them.\n\n<skill-loaded{}{}{}{}{}>\n{}\n</skill-loaded>",
        attr("name", loaded.name),
        attr("trigger", "model-tool"),
        attr("source", loaded.source),
        attr("dir", loaded.dir),
        attr("args", loaded.args),
        loaded.body
    )
}

fn escape_xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn escape_tags(s: &str) -> String {
    s.replace('<', "&lt;").replace('>', "&gt;")
}

/// JavaScript's white space (`\s`).
fn is_space(c: char) -> bool {
    skills_core::catalog::claude_code::is_js_whitespace(c)
}

/// JavaScript's word character (`\w`, without the `u` flag).
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The words of an argument string as Kimi Code splits them: at white
/// space, a quote (`"` or `'`) grouping up to the same quote and dropped;
/// `""` is an empty word.
pub fn words(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut has = false;
    for c in raw.chars() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            } else {
                current.push(c);
                has = true;
            }
            continue;
        }
        if c == '"' || c == '\'' {
            quote = Some(c);
            has = true;
        } else if is_space(c) {
            if has {
                out.push(std::mem::take(&mut current));
                has = false;
            }
        } else {
            current.push(c);
            has = true;
        }
    }
    if has {
        out.push(current);
    }
    out
}

/// `replacement` as JavaScript's `replaceAll` with a string reads it for a
/// match `matched` between `before` and `after` (no capture groups):
/// `$$` is `$`, `$&` the match, `` $` `` and `$'` the text around it.
fn substitution(replacement: &str, matched: &str, before: &str, after: &str) -> String {
    if !replacement.contains('$') {
        return replacement.to_owned();
    }
    let mut out = String::with_capacity(replacement.len());
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('$') => out.push('$'),
            Some('&') => out.push_str(matched),
            Some('`') => out.push_str(before),
            Some('\'') => out.push_str(after),
            _ => {
                out.push('$');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// Replaces every `pattern` in `text` not followed by a character `stop`
/// accepts, with `value` read as a `replaceAll` replacement string.
fn replace_all(text: &str, pattern: &str, value: &str, stop: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|t| t.find(pattern)) {
        let start = from + at;
        let end = start + pattern.len();
        if text[end..].chars().next().is_some_and(&stop) {
            out.push_str(&text[from..start + 1]);
            from = start + 1;
            // Keep `from` on a character boundary.
            while !text.is_char_boundary(from) {
                from += 1;
            }
            continue;
        }
        out.push_str(&text[from..start]);
        out.push_str(&substitution(value, pattern, &text[..start], &text[end..]));
        from = end;
    }
    out.push_str(&text[from..]);
    out
}

/// Replaces `prefix` + digits (+ `suffix`) with `word(digits)`, where the
/// match is not followed by a character `stop` accepts.
fn replace_indexed(
    text: &str,
    prefix: &str,
    suffix: &str,
    words: &[String],
    stop: impl Fn(char) -> bool,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|t| t.find(prefix)) {
        let start = from + at;
        let digits_start = start + prefix.len();
        let digits = text[digits_start..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let end = digits_start + digits;
        let matched = digits > 0
            && text[end..].starts_with(suffix)
            && !text[end + suffix.len()..].chars().next().is_some_and(&stop);
        if !matched {
            out.push_str(&text[from..digits_start]);
            from = digits_start;
            continue;
        }
        out.push_str(&text[from..start]);
        let index: Option<usize> = text[digits_start..end].parse().ok();
        let word = index.and_then(|i| words.get(i)).map_or("", String::as_str);
        out.push_str(&escape_tags(word));
        from = end + suffix.len();
    }
    out.push_str(&text[from..]);
    out
}

/// The body with Kimi Code's placeholders filled from the argument string
/// `args`, the frontmatter's argument names `names`, the skill's folder
/// `dir` and the session's id.
pub fn expand(body: &str, args: &str, names: &[String], dir: &str, session_id: &str) -> String {
    let tokens = words(args);
    let mut content = body.to_owned();
    for (i, name) in names.iter().enumerate() {
        let value = escape_tags(tokens.get(i).map_or("", String::as_str));
        content = replace_all(&content, &format!("${name}"), &value, |c| {
            c == '[' || is_word(c)
        });
    }
    content = replace_indexed(&content, "$ARGUMENTS[", "]", &tokens, |_| false);
    content = replace_indexed(&content, "$", "", &tokens, is_word);
    content = replace_all(&content, "$ARGUMENTS", &escape_tags(args), |_| false);
    let placeholders = content != body;
    content = replace_all(&content, "${KIMI_SKILL_DIR}", dir, |_| false);
    content = replace_all(&content, "${KIMI_SESSION_ID}", session_id, |_| false);
    if !placeholders && !args.is_empty() {
        content.push_str("\n\nARGUMENTS: ");
        content.push_str(&escape_tags(args));
    }
    content
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_placeholders() {
        let names = vec!["target".to_owned(), "mode".to_owned()];
        let body =
            "kimi_dir=[${KIMI_SKILL_DIR}] target=[$target] mode=[$mode] all=[$ARGUMENTS] a1=[$1]";
        assert_eq!(
            expand(body, "src/ fast", &names, "/p/s/ph", "id"),
            "kimi_dir=[/p/s/ph] target=[src/] mode=[fast] all=[src/ fast] a1=[fast]"
        );
        assert_eq!(
            expand(
                "w=[$ARGUMENTS] f=[$0] x=[$ARGUMENTS[1]] ${ARGUMENTS} ${CLAUDE_SKILL_DIR} $HOME",
                "",
                &[],
                "/d",
                ""
            ),
            "w=[] f=[] x=[] ${ARGUMENTS} ${CLAUDE_SKILL_DIR} $HOME"
        );
        assert_eq!(
            expand("Plain.", "a b", &[], "/d", ""),
            "Plain.\n\nARGUMENTS: a b"
        );
        assert_eq!(expand("Plain.", "", &[], "/d", ""), "Plain.");
    }

    #[test]
    fn the_edges_javascript_gives() {
        // `$1a` and `$targets` are not placeholders; `$target[` neither.
        let names = vec!["target".to_owned()];
        assert_eq!(
            expand("$1a $targets $target[0] $target.", "x y", &names, "/d", ""),
            "$1a $targets $target[0] x."
        );
        // Values are tag-escaped; `$&` in a value is the match.
        assert_eq!(
            expand("[$ARGUMENTS]", "<a> $&", &[], "/d", ""),
            "[&lt;a&gt; $ARGUMENTS]"
        );
        assert_eq!(expand("[$0]", "<a> $&", &[], "/d", ""), "[&lt;a&gt;]");
        // A placeholder that gives itself back is no placeholder.
        assert_eq!(expand("$0", "$0", &[], "/d", ""), "$0\n\nARGUMENTS: $0");
        assert_eq!(
            expand("$99999999999999999999999 é", "a", &[], "/d", ""),
            " é"
        );
    }

    #[test]
    fn words_and_quotes() {
        assert_eq!(words(" a  \"b c\" 'd\"e' \"\" "), ["a", "b c", "d\"e", ""]);
        assert_eq!(words("x'y z'w"), ["xy zw"]);
    }

    #[test]
    fn the_message() {
        let text = render(&Loaded {
            name: "a&b",
            source: "project",
            dir: "/p/<d>",
            args: "\"x\"",
            body: "Body.",
        });
        assert_eq!(
            text,
            "Skill tool loaded instructions for this request. Follow them.\n\n<skill-loaded name=\"a&amp;b\" trigger=\"model-tool\" source=\"project\" dir=\"/p/&lt;d&gt;\" args=\"&quot;x&quot;\">\nBody.\n</skill-loaded>"
        );
        assert_eq!(
            not_found("nope"),
            "<system>ERROR: Tool execution failed.</system>\nSkill \"nope\" not found in the current skill listing."
        );
    }
}
