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
    let skills = located(skills);
    render(skills.iter().map(|(n, d, l)| (*n, *d, l.as_str())))
}

/// [`render_embedded`] within `budget` characters ([`render_within`]).
pub fn render_embedded_within<'a>(
    skills: impl IntoIterator<Item = (&'a str, &'a str)>,
    budget: usize,
) -> String {
    let skills = located(skills);
    render_within(skills.iter().map(|(n, d, l)| (*n, *d, l.as_str())), budget)
}

fn located<'a>(
    skills: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<(&'a str, &'a str, String)> {
    skills
        .into_iter()
        .map(|(name, description)| (name, description, location(name)))
        .collect()
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

/// The block for `(name, description, location)` triples within `budget`
/// characters, as agents that cap their skill listing do: the whole block
/// when it fits; else every skill's name and location with descriptions
/// kept in order while they fit (a skill past that point is listed without
/// its `<description>`); else only the skills whose names fit, in order.
/// The result never exceeds `budget` unless even the empty block does.
pub fn render_within<'a>(
    skills: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
    budget: usize,
) -> String {
    let skills: Vec<(&str, &str, &str)> = skills.into_iter().collect();
    let full = render(skills.iter().copied());
    if full.chars().count() <= budget {
        return full;
    }
    const OPEN: &str = "<available_skills>";
    const CLOSE: &str = "\n</available_skills>";
    let entry = |name: &str, description: Option<&str>, location: &str| {
        let mut e = format!("\n<skill>\n<name>\n{}\n</name>", html_escape(name));
        if let Some(d) = description {
            e.push_str(&format!(
                "\n<description>\n{}\n</description>",
                html_escape(d)
            ));
        }
        e.push_str(&format!("\n<location>\n{location}\n</location>\n</skill>"));
        e
    };
    let bare: Vec<String> = skills.iter().map(|(n, _, l)| entry(n, None, l)).collect();
    let fixed = OPEN.chars().count() + CLOSE.chars().count();
    let names_only: usize = fixed + bare.iter().map(|e| e.chars().count()).sum::<usize>();
    let mut out = String::from(OPEN);
    if names_only <= budget {
        // Descriptions in order, while the rest still fits without theirs.
        let mut used = names_only;
        let mut describing = true;
        for ((name, description, location), plain) in skills.iter().zip(&bare) {
            let rich = entry(name, Some(description), location);
            let extra = rich.chars().count() - plain.chars().count();
            if describing && used + extra <= budget {
                used += extra;
                out.push_str(&rich);
            } else {
                describing = false;
                out.push_str(plain);
            }
        }
    } else {
        let mut used = fixed;
        for plain in &bare {
            let len = plain.chars().count();
            if used + len > budget {
                break;
            }
            used += len;
            out.push_str(plain);
        }
    }
    out.push_str(CLOSE);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_block() {
        assert_eq!(render([]), "<available_skills>\n</available_skills>");
    }

    #[test]
    fn a_budget_drops_descriptions_before_names() {
        let skills = [
            ("alpha", "First & foremost.", "skill://alpha/SKILL.md"),
            ("beta", "Second.", "skill://beta/SKILL.md"),
            ("gamma", "Third.", "skill://gamma/SKILL.md"),
        ];
        let full = render(skills);
        assert_eq!(render_within(skills, usize::MAX), full);
        assert_eq!(render_within(skills, full.chars().count()), full);
        let tight = render_within(skills, full.chars().count() - 1);
        assert!(tight.chars().count() < full.chars().count());
        assert!(tight.contains("First &amp; foremost."), "{tight}");
        assert!(tight.contains("<name>\ngamma\n</name>"), "{tight}");
        assert!(!tight.contains("Third."), "{tight}");
        let names = render_within(skills, 300);
        assert!(!names.contains("<description>"), "{names}");
        assert_eq!(names.matches("<skill>").count(), 3);
        let two = render_within(skills, 215);
        assert!(two.chars().count() <= 215, "{two}");
        assert_eq!(two.matches("<skill>").count(), 2, "{two}");
        assert_eq!(render_within(skills, 0), render([]));
        for budget in 0..=full.chars().count() + 1 {
            let out = render_within(skills, budget);
            assert!(out.chars().count() <= budget.max(render([]).chars().count()));
        }
    }

    #[test]
    fn escapes_like_python() {
        assert_eq!(
            html_escape("Use <foo> & 'x' \"y\""),
            "Use &lt;foo&gt; &amp; &#x27;x&#x27; &quot;y&quot;"
        );
    }
}
