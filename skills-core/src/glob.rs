//! Glob patterns over `/`-separated paths: `exclude = [...]` at build time,
//! and a skill's `paths` (which files make it relevant) at run time.
//!
//! `*` matches within one path component, `**` across components (`**/`
//! also matches nothing), `?` one character other than `/`; everything else
//! matches itself. Both sides of a match may come from input (a skill's
//! frontmatter, a path a host reports), so matching simulates the pattern
//! as a set of states over the path, one character at a time: time is at
//! most the product of the two lengths, whatever the pattern, and nothing
//! backtracks.

/// One piece of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// A character that matches itself.
    Char(char),
    /// `?`.
    One,
    /// `*`: any run of characters without `/`.
    Star,
    /// `**` not followed by `/`: any run of characters.
    Any,
    /// `**/`: nothing, or any run of characters ending with `/`.
    Dirs,
}

fn tokens(pattern: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(match c {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                if chars.peek() == Some(&'/') {
                    chars.next();
                    Token::Dirs
                } else {
                    Token::Any
                }
            }
            '*' => Token::Star,
            '?' => Token::One,
            c => Token::Char(c),
        });
    }
    out
}

/// Whether `path` matches `pattern`.
pub fn matches(pattern: &str, path: &str) -> bool {
    let tokens = tokens(pattern);
    let end = tokens.len();
    // `live[k]`: the first `k` tokens match the path read so far.
    // `inside[k]`: token `k`, a `**/`, has read characters and waits for
    // the `/` that ends them.
    let (mut live, mut next) = (vec![false; end + 1], vec![false; end + 1]);
    let (mut inside, mut next_inside) = (vec![false; end], vec![false; end]);
    live[0] = true;
    close(&tokens, &mut live);
    for c in path.chars() {
        next.iter_mut().for_each(|n| *n = false);
        next_inside.iter_mut().for_each(|n| *n = false);
        for (k, token) in tokens.iter().enumerate() {
            if live[k] {
                match *token {
                    Token::Char(d) if d == c => next[k + 1] = true,
                    Token::One if c != '/' => next[k + 1] = true,
                    Token::Star if c != '/' => next[k] = true,
                    Token::Any => next[k] = true,
                    _ => {}
                }
            }
            if inside[k] || (live[k] && *token == Token::Dirs) {
                next_inside[k] = true;
                if c == '/' {
                    next[k + 1] = true;
                }
            }
        }
        close(&tokens, &mut next);
        std::mem::swap(&mut live, &mut next);
        std::mem::swap(&mut inside, &mut next_inside);
        if !live.contains(&true) && !inside.contains(&true) {
            return false;
        }
    }
    live[end]
}

/// Adds the states reached without reading a character: past a `*`, `**`
/// or `**/` that matches nothing (a `**/` only before it has read any).
fn close(tokens: &[Token], live: &mut [bool]) {
    for (k, token) in tokens.iter().enumerate() {
        if live[k] && matches!(token, Token::Star | Token::Any | Token::Dirs) {
            live[k + 1] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn globs() {
        assert!(matches("**/evals/**", "calc/evals/a.json"));
        assert!(matches("**/evals/**", "evals/a.json"));
        assert!(!matches("**/evals/**", "calc/evalsx/a.json"));
        assert!(matches("*.md", "README.md"));
        assert!(!matches("*.md", "docs/README.md"));
        assert!(matches("**/*.md", "docs/README.md"));
        assert!(matches("**/*.md", "README.md"));
        assert!(matches("a/?.txt", "a/b.txt"));
        assert!(!matches("a/?.txt", "a/bc.txt"));
        assert!(!matches("a?b", "a/b"));
        assert!(matches("drafts/**", "drafts/x/SKILL.md"));
        assert!(matches("src/**", "src/main.rs"));
        assert!(!matches("src/**", "lib/src/main.rs"));
        assert!(matches("**", "anything/at/all"));
        assert!(matches("", ""));
        assert!(!matches("", "a"));
        assert!(!matches("a", ""));
        assert!(matches("*", ""));
        assert!(matches("a*b*c", "aXbYc"));
        assert!(!matches("a*b*c", "aXbY/c"));
    }

    /// The definition, written as a backtracking matcher (the one this
    /// module replaced): exponential at worst, fine on short inputs.
    fn by_definition(p: &[char], s: &[char]) -> bool {
        match p {
            [] => s.is_empty(),
            ['*', '*', '/', rest @ ..] => {
                by_definition(rest, s)
                    || (0..s.len()).any(|i| s[i] == '/' && by_definition(rest, &s[i + 1..]))
            }
            ['*', '*', rest @ ..] => (0..=s.len()).any(|i| by_definition(rest, &s[i..])),
            ['*', rest @ ..] => (0..=s.len())
                .take_while(|&i| i == 0 || s[i - 1] != '/')
                .any(|i| by_definition(rest, &s[i..])),
            ['?', rest @ ..] => matches!(s, [c, ..] if *c != '/') && by_definition(rest, &s[1..]),
            [c, rest @ ..] => matches!(s, [d, ..] if d == c) && by_definition(rest, &s[1..]),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]
        /// The set simulation agrees with the definition everywhere.
        #[test]
        fn agrees_with_the_definition(pattern in "[ab*?/]{0,8}", path in "[ab/]{0,10}") {
            let (p, s): (Vec<char>, Vec<char>) = (pattern.chars().collect(), path.chars().collect());
            proptest::prop_assert_eq!(matches(&pattern, &path), by_definition(&p, &s));
        }
    }

    /// A pattern built to make a backtracking matcher take exponential time
    /// is answered in one pass.
    #[test]
    fn no_backtracking() {
        let pattern = "**/".repeat(40) + &"*a".repeat(40) + "b";
        let path = "a/".repeat(200) + &"a".repeat(4000);
        assert!(!matches(&pattern, &path));
    }
}
