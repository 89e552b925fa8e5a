//! Glob patterns for `exclude = [...]`: `*` matches within one path
//! component, `**` across components (`**/` also matches nothing), `?` one
//! character; everything else matches itself. Paths are `/`-separated.

/// Whether `path` matches `pattern`.
pub fn matches(pattern: &str, path: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = path.chars().collect();
    match_from(&p, &s)
}

fn match_from(p: &[char], s: &[char]) -> bool {
    match p {
        [] => s.is_empty(),
        ['*', '*', '/', rest @ ..] => {
            // Zero components, or any prefix ending after a `/`.
            match_from(rest, s)
                || (0..s.len()).any(|i| s[i] == '/' && match_from(rest, &s[i + 1..]))
        }
        ['*', '*', rest @ ..] => (0..=s.len()).any(|i| match_from(rest, &s[i..])),
        ['*', rest @ ..] => (0..=s.len())
            .take_while(|&i| i == 0 || s[i - 1] != '/')
            .any(|i| match_from(rest, &s[i..])),
        ['?', rest @ ..] => matches!(s, [c, ..] if *c != '/') && match_from(rest, &s[1..]),
        [c, rest @ ..] => matches!(s, [d, ..] if d == c) && match_from(rest, &s[1..]),
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
        assert!(matches("a/?.txt", "a/b.txt"));
        assert!(!matches("a/?.txt", "a/bc.txt"));
        assert!(matches("drafts/**", "drafts/x/SKILL.md"));
    }
}
