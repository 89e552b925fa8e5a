//! The `<available_skills>` prompt block.
//!
//! The format is the reference's `to_prompt` (Anthropic's recommended XML for
//! Claude): one `<skill>` with `<name>`, `<description>` and `<location>`
//! lines each, names and descriptions escaped as Python's `html.escape`
//! does. Compiled bundles render it at build time into a `&'static str`.

/// The scheme of an embedded skill's virtual base directory.
///
/// An embedded skill has no directory on disk: its base directory is
/// `skill://<name>`, and its files are `skill://<name>/<path>`, read with
/// `Skill::read`. Script execution materialises a real directory.
pub const BASE_SCHEME: &str = "skill://";

/// Where the catalog says a skill's instructions are: `skill://<name>/SKILL.md`.
pub fn location(name: &str) -> String {
    format!("{BASE_SCHEME}{name}/SKILL.md")
}

/// `html.escape(s)`, quotes included.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The block for `(name, description)` pairs of embedded skills, in the
/// order given, each located at [`location`].
pub fn render_embedded<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let skills: Vec<(&str, &str, String)> = skills
        .into_iter()
        .map(|(name, description)| (name, description, location(name)))
        .collect();
    render(skills.iter().map(|(n, d, l)| (*n, *d, l.as_str())))
}

/// The block for `(name, description, location)` triples, in the order given.
pub fn render<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> String {
    let mut lines = vec!["<available_skills>".to_string()];
    for (name, description, location) in skills {
        lines.push("<skill>".into());
        lines.push("<name>".into());
        lines.push(html_escape(name));
        lines.push("</name>".into());
        lines.push("<description>".into());
        lines.push(html_escape(description));
        lines.push("</description>".into());
        lines.push("<location>".into());
        lines.push(location.to_string());
        lines.push("</location>".into());
        lines.push("</skill>".into());
    }
    lines.push("</available_skills>".into());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_block() {
        assert_eq!(render([]), "<available_skills>\n</available_skills>");
    }

    #[test]
    fn escapes_like_python() {
        assert_eq!(
            html_escape("Use <foo> & 'x' \"y\""),
            "Use &lt;foo&gt; &amp; &#x27;x&#x27; &quot;y&quot;"
        );
    }
}
