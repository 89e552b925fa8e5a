//! Catalogs: the list of skills an agent puts in front of its model, in
//! each client's dialect ([`Style`]).
//!
//! * [`Style::Xml`] is the `<available_skills>` block of the reference's
//!   `to_prompt` (Anthropic's recommended XML for Claude): one `<skill>` with
//!   `<name>`, `<description>` and `<location>` lines each, names and
//!   descriptions escaped as Python's `html.escape` does. Compiled bundles
//!   render it at build time into a `&'static str`, with each entry's
//!   [`Span`], so that cutting it to a character budget at run time is a walk
//!   over numbers and a copy ([`within`]). The functions of this module are
//!   that dialect.
//! * [`Style::ClaudeCode`] is Claude Code's listing ([`claude_code`]).
//! * [`Style::Codex`] is Codex's `<skills_instructions>` list ([`codex`]).
//! * [`Style::GeminiCli`] is Gemini CLI's `# Available Agent Skills`
//!   section ([`gemini_cli`]); [`Style::OpenCode`] OpenCode's
//!   `<available_skills>` list ([`opencode`]). Neither client has a budget.
//! * [`Style::Copilot`] is Copilot CLI's `<available_skills>` list, its
//!   built-ins last, whole entries within its budget ([`copilot`]).
//! * [`Style::QwenCode`] is Qwen Code's `<available_skills>` reminder
//!   ([`qwen_code`]): its own size rule, no budget to set.
//! * [`Style::KimiCode`] is Kimi Code's `# Skills` section, grouped by
//!   scope, its built-ins last ([`kimi_code`]): descriptions cut to 250
//!   units, no budget.
//!
//! Every dialect renders from the same [`Entry`] records with [`render_style`],
//! within a budget whose unit and default are the dialect's own.

pub mod claude_code;
pub mod codex;
pub mod copilot;
mod entry;
pub mod gemini_cli;
pub mod kimi_code;
pub mod opencode;
pub mod qwen_code;
mod xml;

pub use entry::Entry;

use std::borrow::Cow;

use crate::client::Client;

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
    push_escaped(&mut out, s);
    out
}

/// Appends `html.escape(s)`: unescaped runs are copied whole.
fn push_escaped(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
        let (plain, tail) = rest.split_at(i);
        out.push_str(plain);
        let mut chars = tail.chars();
        out.push_str(match chars.next() {
            Some('&') => "&amp;",
            Some('<') => "&lt;",
            Some('>') => "&gt;",
            Some('"') => "&quot;",
            _ => "&#x27;",
        });
        rest = chars.as_str();
    }
    out.push_str(rest);
}

/// `(bytes, chars)` of `html.escape(s)`, without building it.
fn escaped_size(s: &str) -> (usize, usize) {
    let (mut bytes, mut chars) = (0, 0);
    for b in s.bytes() {
        let extra = match b {
            b'&' => 4,
            b'<' | b'>' => 3,
            b'"' | b'\'' => 5,
            _ => 0,
        };
        bytes += 1 + extra;
        // Every byte but a UTF-8 continuation byte starts a character.
        chars += usize::from(b & 0xC0 != 0x80) + extra;
    }
    (bytes, chars)
}

/// The block for `(name, description)` pairs of embedded skills, in the
/// order given, each located at [`location`].
pub fn render_embedded<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let skills = located(skills);
    render(skills.iter().map(|(n, d, l)| (*n, *d, l.as_str())))
}

fn located<'a>(
    skills: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<(&'a str, &'a str, String)> {
    skills
        .into_iter()
        .map(|(name, description)| (name, description, location(name)))
        .collect()
}

const OPEN: &str = "<available_skills>";
const CLOSE: &str = "\n</available_skills>";
const NAME_OPEN: &str = "\n<skill>\n<name>\n";
const NAME_CLOSE: &str = "\n</name>";
const DESCRIPTION_OPEN: &str = "\n<description>\n";
const DESCRIPTION_CLOSE: &str = "\n</description>";
const LOCATION_OPEN: &str = "\n<location>\n";
const LOCATION_CLOSE: &str = "\n</location>\n</skill>";

/// The block for `(name, description, location)` triples, in the order given.
pub fn render<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> String {
    let mut out = String::from(OPEN);
    for (name, description, location) in skills {
        out.push_str(NAME_OPEN);
        push_escaped(&mut out, name);
        out.push_str(NAME_CLOSE);
        out.push_str(DESCRIPTION_OPEN);
        push_escaped(&mut out, description);
        out.push_str(DESCRIPTION_CLOSE);
        out.push_str(LOCATION_OPEN);
        out.push_str(location);
        out.push_str(LOCATION_CLOSE);
    }
    out.push_str(CLOSE);
    out
}

/// Where one skill's entry sits in a rendered block, in bytes, and its
/// length in characters: what [`within`] needs to cut the block to a budget
/// by copying slices, without rendering or counting anything again.
/// Compiled bundles carry these as statics; a pack computes them on load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// Where the entry starts (its `\n<skill>`).
    pub start: usize,
    /// Where its `\n<description>` starts.
    pub description: usize,
    /// Where its description element ends.
    pub description_end: usize,
    /// Where the entry ends.
    pub end: usize,
    /// The entry's length in characters.
    pub chars: usize,
    /// The description element's length in characters.
    pub description_chars: usize,
}

/// The length in characters of the block [`render`] makes from `skills`,
/// and each entry's [`Span`].
pub fn layout<'a>(
    skills: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> (usize, Vec<Span>) {
    layout_sized(
        skills
            .into_iter()
            .map(|(n, d, l)| (n, d, (l.len(), l.chars().count()))),
    )
}

/// The block of embedded skills as a bundle carries it: the text, its
/// length in characters, and each entry's [`Span`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Embedded {
    /// The block ([`render_embedded`]).
    pub text: String,
    /// Its length in characters.
    pub chars: usize,
    /// Where each entry sits in it, in the order given.
    pub spans: Vec<Span>,
}

/// The block, its length and its spans for `(name, description)` pairs of
/// embedded skills, in the order given: what a compiled bundle and a loaded
/// pack both carry, computed by this one function.
pub fn embedded<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str)> + Clone) -> Embedded {
    let text = render_embedded(skills.clone());
    let (chars, spans) = layout_embedded(skills);
    Embedded { text, chars, spans }
}

/// [`layout`] for the block of [`render_embedded`].
pub fn layout_embedded<'a>(
    skills: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> (usize, Vec<Span>) {
    let fixed = BASE_SCHEME.len() + "/SKILL.md".len();
    layout_sized(
        skills
            .into_iter()
            .map(|(n, d)| (n, d, (fixed + n.len(), fixed + n.chars().count()))),
    )
}

fn layout_sized<'a>(
    skills: impl IntoIterator<Item = (&'a str, &'a str, (usize, usize))>,
) -> (usize, Vec<Span>) {
    // Every fixed piece is ASCII: bytes and characters agree.
    let mut at = OPEN.len();
    let mut chars = OPEN.len() + CLOSE.len();
    let spans = skills
        .into_iter()
        .map(|(name, description, (loc_bytes, loc_chars))| {
            let (name_bytes, name_chars) = escaped_size(name);
            let (desc_bytes, desc_chars) = escaped_size(description);
            let start = at;
            let head = NAME_OPEN.len() + name_bytes + NAME_CLOSE.len();
            let desc = DESCRIPTION_OPEN.len() + DESCRIPTION_CLOSE.len();
            let tail = LOCATION_OPEN.len() + LOCATION_CLOSE.len();
            let span = Span {
                start,
                description: start + head,
                description_end: start + head + desc + desc_bytes,
                end: start + head + desc + desc_bytes + tail + loc_bytes,
                chars: head - name_bytes + name_chars + desc + desc_chars + tail + loc_chars,
                description_chars: desc + desc_chars,
            };
            at = span.end;
            chars += span.chars;
            span
        })
        .collect();
    (chars, spans)
}

/// `catalog` (made by [`render`], `chars` characters long, laid out as
/// `spans` say) within `budget` characters, as agents that cap their skill
/// listing do: the whole block when it fits (borrowed); else every skill's
/// name and location with descriptions kept in order while they fit (a
/// skill past that point is listed without its `<description>`); else only
/// the skills whose names fit, in order. The result never exceeds `budget`
/// unless even the empty block does.
///
/// The work is a walk over the spans and one copy of what is kept.
pub fn within<'c>(catalog: &'c str, chars: usize, spans: &[Span], budget: usize) -> Cow<'c, str> {
    if chars <= budget {
        return Cow::Borrowed(catalog);
    }
    let slice = |from: usize, to: usize| catalog.get(from..to).unwrap_or_default();
    let fixed = OPEN.len() + CLOSE.len();
    let bare = |s: &Span| s.chars - s.description_chars;
    let names_only: usize = fixed + spans.iter().map(bare).sum::<usize>();
    let mut out = String::with_capacity(catalog.len().min(budget.saturating_mul(2)));
    out.push_str(OPEN);
    if names_only <= budget {
        // Descriptions in order, while the rest still fits without theirs.
        let mut used = names_only;
        let mut describing = true;
        for s in spans {
            if describing && used + s.description_chars <= budget {
                used += s.description_chars;
                out.push_str(slice(s.start, s.end));
            } else {
                describing = false;
                out.push_str(slice(s.start, s.description));
                out.push_str(slice(s.description_end, s.end));
            }
        }
    } else {
        let mut used = fixed;
        for s in spans {
            if used + bare(s) > budget {
                break;
            }
            used += bare(s);
            out.push_str(slice(s.start, s.description));
            out.push_str(slice(s.description_end, s.end));
        }
    }
    out.push_str(CLOSE);
    Cow::Owned(out)
}

/// The block for `(name, description, location)` triples within `budget`
/// characters; see [`within`].
pub fn render_within<'a>(
    skills: impl IntoIterator<Item = (&'a str, &'a str, &'a str)> + Clone,
    budget: usize,
) -> String {
    let full = render(skills.clone());
    let (chars, spans) = layout(skills);
    within(&full, chars, &spans, budget).into_owned()
}

/// A catalog dialect: whose listing to reproduce. One per client of the
/// registry ([`crate::client::CLIENTS`]), named as the client is, plus the
/// reference's `xml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Style {
    /// The reference's `<available_skills>` block (budget in characters,
    /// none by default).
    #[default]
    Xml,
    /// Claude Code's `The following skills are available ...` listing
    /// (budget in terminal display width, 30,000 by default).
    ClaudeCode,
    /// Codex's `<skills_instructions>` list (budget in characters).
    Codex,
    /// Gemini CLI's `# Available Agent Skills` section (no budget).
    GeminiCli,
    /// OpenCode's `<available_skills>` list (no budget).
    OpenCode,
    /// Copilot CLI's `<available_skills>` list (budget in characters of
    /// entries, 15,000 by default).
    Copilot,
    /// Qwen Code's `<available_skills>` reminder (no budget to set; its
    /// own 8,000-unit rule cuts descriptions to their first line).
    QwenCode,
    /// Kimi Code's `# Skills` section (no budget; its own 250-unit cut of
    /// each description).
    KimiCode,
}

impl Style {
    /// Every style: `xml`, then the clients' in the registry's order.
    pub const ALL: [Style; 1 + Client::ALL.len()] = {
        let mut all = [Style::Xml; 1 + Client::ALL.len()];
        let mut i = 0;
        while i < Client::ALL.len() {
            all[i + 1] = Style::of(Client::ALL[i]);
            i += 1;
        }
        all
    };

    /// The dialect `client` lists skills in.
    pub const fn of(client: Client) -> Style {
        match client {
            Client::ClaudeCode => Style::ClaudeCode,
            Client::Codex => Style::Codex,
            Client::GeminiCli => Style::GeminiCli,
            Client::OpenCode => Style::OpenCode,
            Client::Copilot => Style::Copilot,
            Client::QwenCode => Style::QwenCode,
            Client::KimiCode => Style::KimiCode,
        }
    }

    /// The client whose dialect this is; `None` for `xml`.
    pub const fn client(self) -> Option<Client> {
        match self {
            Style::Xml => None,
            Style::ClaudeCode => Some(Client::ClaudeCode),
            Style::Codex => Some(Client::Codex),
            Style::GeminiCli => Some(Client::GeminiCli),
            Style::OpenCode => Some(Client::OpenCode),
            Style::Copilot => Some(Client::Copilot),
            Style::QwenCode => Some(Client::QwenCode),
            Style::KimiCode => Some(Client::KimiCode),
        }
    }

    /// The style's name on the command line: `xml`, or the client's name
    /// (`claude-code`, `codex`).
    pub const fn as_str(self) -> &'static str {
        match self.client() {
            None => "xml",
            Some(client) => client.as_str(),
        }
    }

    /// Parses a style name.
    pub fn from_name(name: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The budget a client applies when nobody sets one: `None` (no cut)
    /// for `xml`, Gemini CLI and OpenCode, [`claude_code::DEFAULT_BUDGET`],
    /// [`codex::DEFAULT_BUDGET`], [`copilot::DEFAULT_BUDGET`].
    pub fn default_budget(self) -> Option<usize> {
        match self {
            Style::Xml | Style::GeminiCli | Style::OpenCode | Style::QwenCode | Style::KimiCode => {
                None
            }
            Style::ClaudeCode => Some(claude_code::DEFAULT_BUDGET),
            Style::Codex => Some(codex::DEFAULT_BUDGET),
            Style::Copilot => Some(copilot::DEFAULT_BUDGET),
        }
    }
}

/// One entry line of `client`'s listing, as its model sees it (for Codex,
/// with `entry.location` as the file).
pub fn client_entry_line(client: Client, entry: &Entry<'_>) -> String {
    match client {
        Client::ClaudeCode => claude_code::entry_line(entry),
        Client::Codex => codex::line(entry),
        Client::GeminiCli => gemini_cli::entry_line(entry),
        Client::OpenCode => opencode::entry_line(entry),
        Client::Copilot => copilot::entry_line(entry),
        Client::QwenCode => qwen_code::entry_line(entry),
        Client::KimiCode => kimi_code::entry_line(entry),
    }
}

impl From<Client> for Style {
    fn from(client: Client) -> Style {
        Style::of(client)
    }
}

impl std::fmt::Display for Style {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The catalog of `entries`, in the order given, in `style`, within `budget`
/// (in the style's unit; `None` is [`Style::default_budget`]). No entries
/// give an empty string in every style: a client with no skills shows no
/// catalog.
pub fn render_style(style: Style, entries: &[Entry<'_>], budget: Option<usize>) -> String {
    if entries.is_empty() {
        return String::new();
    }
    let budget = budget.or(style.default_budget());
    match style {
        Style::Xml => {
            let triples = entries.iter().map(|e| (e.name, e.description, e.location));
            match budget {
                Some(budget) => render_within(triples, budget),
                None => render(triples),
            }
        }
        Style::ClaudeCode => {
            claude_code::render(entries, budget.unwrap_or(claude_code::DEFAULT_BUDGET))
        }
        Style::Codex => codex::render(entries, budget.unwrap_or(codex::DEFAULT_BUDGET)),
        // Neither client has a budget: every entry is sent whole.
        Style::GeminiCli => gemini_cli::render(entries),
        Style::OpenCode => opencode::render(entries),
        Style::Copilot => copilot::render(
            &copilot::with_builtins(entries),
            budget.unwrap_or(copilot::DEFAULT_BUDGET),
        ),
        Style::QwenCode => qwen_code::render(entries),
        // A bundle's skills are the project's.
        Style::KimiCode => kimi_code::render_project(entries),
    }
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
    fn the_layout_matches_the_rendered_block() {
        let skills = [
            (
                "a&b",
                "Ünïcödé <tags> & \"quotes\" 'x' 日本",
                "skill://a&b/SKILL.md",
            ),
            ("plain", "", "loc"),
            ("z", "<>&'\"", "skill://z/SKILL.md"),
        ];
        let full = render(skills);
        let (chars, spans) = layout(skills);
        assert_eq!(chars, full.chars().count());
        assert_eq!(spans.last().map(|s| s.end + CLOSE.len()), Some(full.len()));
        for (s, (name, description, _)) in spans.iter().zip(skills) {
            let entry = &full[s.start..s.end];
            assert!(entry.starts_with(NAME_OPEN) && entry.ends_with(LOCATION_CLOSE));
            assert!(entry.contains(&html_escape(name)));
            let desc = &full[s.description..s.description_end];
            assert_eq!(
                desc,
                format!(
                    "{DESCRIPTION_OPEN}{}{DESCRIPTION_CLOSE}",
                    html_escape(description)
                )
            );
            assert_eq!(s.chars, entry.chars().count());
            assert_eq!(s.description_chars, desc.chars().count());
        }
        let embedded = [("x", "Dé<s>"), ("yé", "")];
        let Embedded {
            text: full,
            chars,
            spans,
        } = super::embedded(embedded);
        assert_eq!(full, render_embedded(embedded));
        assert_eq!(chars, full.chars().count());
        assert_eq!(spans.last().map(|s| s.end + CLOSE.len()), Some(full.len()));
    }

    #[test]
    fn styles_round_trip_and_render_nothing_for_no_skills() {
        for style in Style::ALL {
            assert_eq!(Style::from_name(style.as_str()), Some(style));
            assert_eq!(render_style(style, &[], None), "");
        }
        assert_eq!(Style::from_name("json"), None);
        for client in Client::ALL {
            assert_eq!(Style::of(client).client(), Some(client));
            assert_eq!(Style::of(client).as_str(), client.as_str());
        }
        assert_eq!(Style::ALL.len(), 1 + Client::ALL.len());
        // A client's entry line is the one its catalog shows.
        let entry = Entry {
            name: "pdf",
            alias: None,
            description: "Reads PDFs.",
            when_to_use: None,
            location: "/skills/pdf/SKILL.md",
        };
        for client in Client::ALL {
            let line = client_entry_line(client, &entry);
            let catalog = render_style(Style::of(client), &[entry], None);
            assert!(
                line.contains("pdf") && line.contains("Reads PDFs."),
                "{line}"
            );
            assert!(
                catalog.lines().any(|l| l == line) || catalog.contains(&format!("\n{line}\n")),
                "{client}: {line:?} in {catalog:?}"
            );
        }
        let e = Entry {
            name: "a",
            description: "D <x>",
            location: "skill://a/SKILL.md",
            ..Entry::default()
        };
        assert_eq!(
            render_style(Style::Xml, &[e], None),
            render([("a", "D <x>", "skill://a/SKILL.md")])
        );
    }

    #[test]
    fn escapes_like_python() {
        assert_eq!(
            html_escape("Use <foo> & 'x' \"y\""),
            "Use &lt;foo&gt; &amp; &#x27;x&#x27; &quot;y&quot;"
        );
    }
}
