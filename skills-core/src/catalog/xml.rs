//! The XML escaping several clients' catalogs share.

/// `&`, `<`, `>`, `"` and `'` as XML entities (the apostrophe as
/// `&apos;`): how Copilot CLI escapes names and descriptions, OpenCode a
/// location and Qwen Code every field (JavaScript's `escapeXml`).
pub(crate) fn xml_escape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"', '\'']) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out.into()
}
