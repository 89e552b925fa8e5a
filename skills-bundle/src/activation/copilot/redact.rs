//! Copilot CLI's secret filter over the `<skill-context>` message: each
//! stretch of text that looks like a credential becomes `******` before
//! the message reaches the model. Copilot CLI 1.0.102 filters this message
//! (its whole text: the folder's path, the related files, the body), not
//! the catalog and not the tool result; Qwen Code and Kimi Code filter
//! nothing.
//!
//! Recorded with the real program for this model (runs against a loopback
//! model server, 2026-12-07), every pattern below tried with matching and
//! near-miss text. "Boundary" is an ASCII word boundary (`_` and digits
//! are word characters, any non-ASCII character is not); "space" is
//! Unicode white space, line breaks included; a "value" is one or more
//! characters that are neither space nor `'`, `"`, `;`.
//!
//! - boundary, `Bearer` (this case only), space, value
//!   (`Authorization: Bearer $TOKEN` → `Authorization: ******`);
//! - boundary, `eyJ0eXAiOi` / `eyJhbGciOi` / `eyJ4NXQiOi` / `eyJraWQiOi`,
//!   value (a JSON web token);
//! - boundary, `password` or `pwd` (any case), `=`, then a value or a
//!   double-quoted text (line breaks included);
//! - space, `-`, `password` or `pwd` (any case), space, then a value or a
//!   double-quoted text (the space before the `-` goes too);
//! - between boundaries: `v1.` and 40 hex digits; `ghp_`, `gho_`, `ghu_`,
//!   `ghs_`, `ghr_` and 36 letters or digits; `github_pat_`, a digit, 21,
//!   `_`, 59; `npm_` and 36; three of `[0-9A-Za-z-_~.]`, `7Q~` and 31 more
//!   (or `8Q~` and 34);
//! - boundary, `x-ghcr-signature=` and everything up to the next `&`;
//! - a URL's user and password: a scheme, `://`, a user (no space, `/`,
//!   `:`, `@`), `:`, a password (no space, `/`, `@`; may be empty), `@`.
//!
//! At each position the patterns are tried in that order and the first
//! that matches is replaced; the scan goes on after it. Seen in the
//! binary's strings but not tried, so not modelled: Azure storage and
//! service keys (long base64 runs with fixed infixes such as `AzFu`,
//! `+ACR`, `AzCa`) and `oy2…` NuGet keys.

/// What each match becomes.
const MASK: &str = "******";

/// `text` with every credential-looking stretch replaced by `******`.
pub(super) fn secrets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut kept = 0;
    while i < text.len() {
        if let Some(end) = match_at(text, i) {
            out.push_str(text.get(kept..i).unwrap_or_default());
            out.push_str(MASK);
            i = end;
            kept = end;
            continue;
        }
        i += text
            .get(i..)
            .and_then(|r| r.chars().next())
            .map_or(1, char::len_utf8);
    }
    out.push_str(text.get(kept..).unwrap_or_default());
    out
}

/// The end of the first pattern matching at `i`, if one does.
fn match_at(text: &str, i: usize) -> Option<usize> {
    let rest = text.get(i..)?;
    // Where `r`, a tail of `text`, starts.
    let at = |r: &str| text.len() - r.len();
    let b = boundary(text, i);
    let bearer = || {
        let r = skip_space(rest.strip_prefix("Bearer")?)?;
        Some(at(r) + value_len(r)?)
    };
    let jwt = || {
        let r = JWT.iter().find_map(|p| rest.strip_prefix(p))?;
        Some(at(r) + value_len(r)?)
    };
    let assigned = || {
        let r = password(rest)?.strip_prefix('=')?;
        Some(at(r) + value_or_quoted(r)?)
    };
    let option = || {
        let r = skip_space(password(skip_space(rest)?.strip_prefix('-')?)?)?;
        Some(at(r) + value_or_quoted(r)?)
    };
    let signature = || {
        let r = rest.strip_prefix("x-ghcr-signature=")?;
        let n = r.find('&').unwrap_or(r.len());
        (n > 0).then_some(at(r) + n)
    };
    let bounded = |f: &dyn Fn() -> Option<usize>| if b { f() } else { None };
    bounded(&bearer)
        .or_else(|| bounded(&jwt))
        .or_else(|| bounded(&assigned))
        .or_else(option)
        .or_else(|| bounded(&|| token(text, i)))
        .or_else(|| bounded(&signature))
        .or_else(|| url_credentials(text, i))
}

/// The prefixes of a JSON web token's header.
const JWT: [&str; 4] = ["eyJ0eXAiOi", "eyJhbGciOi", "eyJ4NXQiOi", "eyJraWQiOi"];

/// The tokens of fixed shape, between boundaries, matched at `i`.
fn token(text: &str, i: usize) -> Option<usize> {
    let rest = text.get(i..)?.as_bytes();
    let alnum = |c: &u8| c.is_ascii_alphanumeric();
    let azure = |c: &u8| c.is_ascii_alphanumeric() || b"-_~.".contains(c);
    let ends = [
        run(rest, b"v1.", &|c: &u8| c.is_ascii_hexdigit(), 40),
        gh(rest),
        github_pat(rest),
        run(rest, b"npm_", &alnum, 36),
        entra(rest, b"7Q~", 31, &azure),
        entra(rest, b"8Q~", 34, &azure),
    ];
    ends.into_iter()
        .flatten()
        .find(|&n| boundary(text, i + n))
        .map(|n| i + n)
}

/// `prefix` then exactly `count` bytes of `class` at the start of `rest`:
/// the length.
fn run(rest: &[u8], prefix: &[u8], class: &dyn Fn(&u8) -> bool, count: usize) -> Option<usize> {
    let r = rest.strip_prefix(prefix)?;
    let n = r.iter().take(count).take_while(|c| class(c)).count();
    (n == count).then_some(prefix.len() + count)
}

/// `gh[pousr]_` and 36 letters or digits.
fn gh(rest: &[u8]) -> Option<usize> {
    let kind = *rest.get(2)?;
    (rest.starts_with(b"gh") && b"pousr".contains(&kind)).then_some(())?;
    run(rest.get(3..)?, b"_", &u8::is_ascii_alphanumeric, 36).map(|n| n + 3)
}

/// `github_pat_`, a digit, 21 letters or digits, `_`, 59 more.
fn github_pat(rest: &[u8]) -> Option<usize> {
    let r = rest.strip_prefix(b"github_pat_")?;
    r.first().filter(|c| c.is_ascii_digit())?;
    let first = run(r.get(1..)?, b"", &u8::is_ascii_alphanumeric, 21)?;
    let second = run(r.get(1 + first..)?, b"_", &u8::is_ascii_alphanumeric, 59)?;
    Some(11 + 1 + first + second)
}

/// Three of `class`, `infix`, then `count` more of `class`.
fn entra(rest: &[u8], infix: &[u8], count: usize, class: &dyn Fn(&u8) -> bool) -> Option<usize> {
    let head = rest.get(..3)?;
    head.iter().all(class).then_some(())?;
    run(rest.get(3..)?, infix, class, count).map(|n| n + 3)
}

/// `password` or `pwd` in any case at the start of `s` (Unicode case
/// folding: `ſ` is an `s`): what follows it.
fn password(s: &str) -> Option<&str> {
    ["password", "pwd"].iter().find_map(|word| {
        let mut chars = s.char_indices();
        for want in word.chars() {
            let (_, c) = chars.next()?;
            let same = c.eq_ignore_ascii_case(&want) || (want == 's' && c == 'ſ');
            same.then_some(())?;
        }
        Some(
            chars
                .next()
                .map_or("", |(at, _)| s.get(at..).unwrap_or_default()),
        )
    })
}

/// What follows the white space at the start of `s`; `None` when there is
/// none.
fn skip_space(s: &str) -> Option<&str> {
    let r = s.trim_start_matches(char::is_whitespace);
    (r.len() < s.len()).then_some(r)
}

/// The length of a value (neither space nor `'`, `"`, `;`) at the start of
/// `s`; `None` when it is empty.
fn value_len(s: &str) -> Option<usize> {
    let n = s
        .find(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | ';'))
        .unwrap_or(s.len());
    (n > 0).then_some(n)
}

/// A value, else a double-quoted text (at least one character inside).
fn value_or_quoted(s: &str) -> Option<usize> {
    value_len(s).or_else(|| {
        let inner = s.strip_prefix('"')?;
        let n = inner.find('"')?;
        (n > 0).then_some(n + 2)
    })
}

/// A URL's `scheme://user:password@` starting at `i`: its end.
fn url_credentials(text: &str, i: usize) -> Option<usize> {
    let rest = text.get(i..)?;
    let bytes = rest.as_bytes();
    bytes.first().filter(|c| c.is_ascii_alphabetic())?;
    // Only where a scheme starts: not inside a longer one.
    let prev = i.checked_sub(1).and_then(|p| text.as_bytes().get(p));
    if prev.is_some_and(|c| c.is_ascii_alphanumeric() || b"+.-".contains(c)) {
        return None;
    }
    let scheme = bytes
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || b"+.-".contains(c))
        .count();
    let r = rest.get(scheme..)?.strip_prefix("://")?;
    let user = r
        .find(|c: char| c.is_whitespace() || matches!(c, '/' | ':' | '@'))
        .unwrap_or(r.len());
    if user == 0 {
        return None;
    }
    let r = r.get(user..)?.strip_prefix(':')?;
    let pass = r
        .find(|c: char| c.is_whitespace() || matches!(c, '/' | '@'))
        .unwrap_or(r.len());
    r.get(pass..)?.strip_prefix('@')?;
    Some(text.len() - r.len() + pass + 1)
}

/// Whether an ASCII word boundary is at byte `i`.
fn boundary(text: &str, i: usize) -> bool {
    let word = |c: Option<&u8>| c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
    let bytes = text.as_bytes();
    word(i.checked_sub(1).and_then(|p| bytes.get(p))) != word(bytes.get(i))
}

#[cfg(test)]
mod tests;
