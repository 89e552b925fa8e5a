//! The catalog as Codex CLI 0.169.0 gives it to its model: the
//! `<skills_instructions>` block, entry lines, their order, and the budget.
//!
//! The block is Codex's wording byte for byte, with a table of skill roots
//! (`` - `r0` = `/abs/root` ``) and one line per skill,
//! `- name: description (file: r0/dir/SKILL.md)`. Codex ends the block with
//! a "How to use skills" section only for the models it knows (the record
//! shows it for gpt-5.5, not for other slugs), in words that are its own:
//! we leave it out, as Codex does for a model it does not know.
//!
//! Order: by group (the caller's rank for where the root sits: system, then
//! the repository's folders, then `$CODEX_HOME/skills`, then
//! `~/.agents/skills`), then by name in byte order (`Upper` before `lower`),
//! then by path. Skills sharing a name are all listed. Roots are numbered
//! `r0`, `r1`, ... in the order given, counting only roots that list a skill.
//!
//! Descriptions longer than [`MAX_DESCRIPTION_CHARS`] characters are listed
//! as their first 1,021 characters and `...`. The budget (default
//! [`DEFAULT_BUDGET`], about what the record shows: 2% of a 272,000-token
//! window at 4 characters a token) counts the characters of the entry lines,
//! each with its newline; the header and the roots table are not counted
//! (the record does not say; this is our choice). Over the budget, every
//! description is first cut to one shared maximum length, the longest that
//! lets the list fit, with no ellipsis (and trailing spaces of a cut
//! dropped). If the list does not fit even with no descriptions, entries
//! lose their descriptions (`- name: (file: ...)`) and are kept in order
//! while they fit; the number left out is reported ([`Rendered::notice`],
//! Codex's warning text).
//!
//! [`render_rooted`] is the block Codex writes for skills on disk;
//! [`render`] (for [`super::render_style`], where entries carry whole
//! locations such as an embedded skill's `skill://name/SKILL.md`) is the
//! form Codex uses for paths it cannot shorten: no roots table, and the
//! intro sentence it has for that case.

use std::borrow::Cow;

use super::entry::Entry;

/// The default budget: characters of entry lines, newlines included.
pub const DEFAULT_BUDGET: usize = 21_760;
/// The longest description listed whole, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

const HEAD: &str = "<skills_instructions>\n## Skills\nA skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. ";
const ROOTED: &str = "Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.\n### Skill roots";
const UNROOTED: &str = "Each entry includes a name, description, and file path so you can open the source for full instructions when using a specific skill.";
const AVAILABLE: &str = "\n### Available skills";
const CLOSE: &str = "\n</skills_instructions>";

/// One skill to list under a root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootedEntry<'a> {
    /// The name Codex lists.
    pub name: &'a str,
    /// The description as Codex read it (whitespace collapsed, not cut).
    pub description: &'a str,
    /// Which root it was found under: an index into the roots given.
    pub root: usize,
    /// Its `SKILL.md` below that root, `/`-separated.
    pub path: &'a str,
    /// The rank of the root's group (lower lists first).
    pub group: u8,
}

/// A rendered block and what the budget did to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The `<skills_instructions>` block.
    pub text: String,
    /// The shared maximum description length, when descriptions were cut
    /// to fit (0 when they were all removed).
    pub description_limit: Option<usize>,
    /// How many skills were left out because even their bare entries did
    /// not fit.
    pub omitted: usize,
}

impl Rendered {
    /// Codex's warning when skills were left out, without its `warning: `
    /// prefix.
    pub fn notice(&self) -> Option<String> {
        (self.omitted > 0).then(|| {
            format!(
                "Exceeded skills context budget. All skill descriptions were removed and {} additional skills were not included in the model-visible skills list.",
                self.omitted
            )
        })
    }
}

/// Runs of whitespace collapsed to one space, ends trimmed, as Codex reads
/// names and descriptions (Rust's Unicode whitespace: U+00A0 and U+3000
/// too).
pub fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The description as listed: whole up to [`MAX_DESCRIPTION_CHARS`]
/// characters, else its first 1,021 characters and `...`.
pub fn listed_description(description: &str) -> Cow<'_, str> {
    match description.char_indices().nth(MAX_DESCRIPTION_CHARS) {
        None => Cow::Borrowed(description),
        Some(_) => {
            let cut = description
                .char_indices()
                .nth(MAX_DESCRIPTION_CHARS - 3)
                .map_or(description.len(), |(i, _)| i);
            Cow::Owned(format!("{}...", description.get(..cut).unwrap_or_default()))
        }
    }
}

/// One entry line: `- name: description (file: file)`, or
/// `- name: (file: file)` without a description.
pub fn entry_line(name: &str, description: &str, file: &str) -> String {
    if description.is_empty() {
        format!("- {name}: (file: {file})")
    } else {
        format!("- {name}: {description} (file: {file})")
    }
}

/// The line Codex lists for `entry`, its location as the file, its
/// description collapsed and cut as listed.
pub fn line(entry: &Entry<'_>) -> String {
    entry_line(entry.name, &shown(entry.description), entry.location)
}

/// The alias of root number `n`: `r0`, `r1`, ...
pub fn alias(n: usize) -> String {
    format!("r{n}")
}

/// The block for `entries` found under `roots` (absolute paths, in scan
/// order) within `budget`; `None` when there is nothing to list.
pub fn render_rooted(
    roots: &[&str],
    entries: &[RootedEntry<'_>],
    budget: usize,
) -> Option<Rendered> {
    if entries.is_empty() {
        return None;
    }
    let mut order: Vec<&RootedEntry<'_>> = entries.iter().collect();
    let root_of = |e: &RootedEntry<'_>| roots.get(e.root).copied().unwrap_or_default();
    order.sort_by(|a, b| {
        (a.group, a.name.as_bytes(), root_of(a), a.path).cmp(&(
            b.group,
            b.name.as_bytes(),
            root_of(b),
            b.path,
        ))
    });
    // Aliases for the roots that list something, in the order given.
    let mut used: Vec<bool> = vec![false; roots.len()];
    for e in entries {
        if let Some(u) = used.get_mut(e.root) {
            *u = true;
        }
    }
    let mut aliases: Vec<Option<usize>> = vec![None; roots.len()];
    let mut table = Vec::new();
    for (i, _) in used.iter().enumerate().filter(|(_, u)| **u) {
        aliases[i] = Some(table.len());
        table.push((alias(table.len()), roots[i]));
    }
    let items: Vec<Item<'_>> = order
        .iter()
        .map(|e| Item {
            name: e.name,
            description: shown(e.description),
            file: match aliases.get(e.root).copied().flatten() {
                Some(n) => format!("{}/{}", alias(n), e.path),
                None => e.path.to_string(),
            },
        })
        .collect();
    Some(block(Some(&table), &items, budget))
}

/// The block for `entries` whose locations are shown whole (no roots
/// table, as Codex writes it for absolute paths), ordered by name in byte
/// order, then location; empty for no entries.
pub fn render(entries: &[Entry<'_>], budget: usize) -> String {
    if entries.is_empty() {
        return String::new();
    }
    let mut order: Vec<&Entry<'_>> = entries.iter().collect();
    order.sort_by(|a, b| (a.name.as_bytes(), a.location).cmp(&(b.name.as_bytes(), b.location)));
    let items: Vec<Item<'_>> = order
        .iter()
        .map(|e| Item {
            name: e.name,
            description: shown(e.description),
            file: e.location.to_string(),
        })
        .collect();
    block(None, &items, budget).text
}

/// One line to be: the description collapsed and cut as listed.
struct Item<'a> {
    name: &'a str,
    description: String,
    file: String,
}

/// A description as an entry shows it before any budget.
fn shown(description: &str) -> String {
    listed_description(&collapse_whitespace(description)).into_owned()
}

fn block(roots: Option<&[(String, &str)]>, items: &[Item<'_>], budget: usize) -> Rendered {
    let fitted = fit(items, budget);
    let mut text = String::from(HEAD);
    match roots {
        Some(roots) => {
            text.push_str(ROOTED);
            for (alias, path) in roots {
                text.push_str(&format!("\n- `{alias}` = `{path}`"));
            }
        }
        None => text.push_str(UNROOTED),
    }
    text.push_str(AVAILABLE);
    for line in &fitted.lines {
        text.push('\n');
        text.push_str(line);
    }
    text.push_str(CLOSE);
    Rendered {
        text,
        description_limit: fitted.limit,
        omitted: fitted.omitted,
    }
}

struct Fitted {
    lines: Vec<String>,
    limit: Option<usize>,
    omitted: usize,
}

/// The description cut to `limit` characters, trailing spaces dropped.
fn cut(description: &str, limit: usize) -> &str {
    let end = description
        .char_indices()
        .nth(limit)
        .map_or(description.len(), |(i, _)| i);
    description.get(..end).unwrap_or_default().trim_end()
}

/// Cost of one line: its characters and its newline.
fn cost(name: &str, description: &str, file: &str) -> usize {
    let fixed = "- : (file: )".len() + 1;
    let desc = match description.chars().count() {
        0 => 0,
        n => n + 1,
    };
    fixed + name.chars().count() + desc + file.chars().count()
}

fn fit(items: &[Item<'_>], budget: usize) -> Fitted {
    let total = |limit: usize| -> usize {
        items
            .iter()
            .map(|i| cost(i.name, cut(&i.description, limit), &i.file))
            .sum()
    };
    let lines_with = |limit: usize| -> Vec<String> {
        items
            .iter()
            .map(|i| entry_line(i.name, cut(&i.description, limit), &i.file))
            .collect()
    };
    let longest = items
        .iter()
        .map(|i| i.description.chars().count())
        .max()
        .unwrap_or(0);
    if total(longest) <= budget {
        return Fitted {
            lines: lines_with(longest),
            limit: None,
            omitted: 0,
        };
    }
    if total(0) <= budget {
        // The longest shared limit that fits: total() grows with the limit.
        let (mut fits, mut over) = (0, longest);
        while over - fits > 1 {
            let mid = fits + (over - fits) / 2;
            if total(mid) <= budget {
                fits = mid;
            } else {
                over = mid;
            }
        }
        return Fitted {
            lines: lines_with(fits),
            limit: Some(fits),
            omitted: 0,
        };
    }
    let mut used = 0;
    let mut lines = Vec::new();
    let mut omitted = 0;
    for i in items {
        let c = cost(i.name, "", &i.file);
        if used + c <= budget {
            used += c;
            lines.push(entry_line(i.name, "", &i.file));
        } else {
            omitted += 1;
        }
    }
    Fitted {
        lines,
        limit: Some(0),
        omitted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(name: &'a str, description: &'a str, path: &'a str) -> RootedEntry<'a> {
        RootedEntry {
            name,
            description,
            root: 0,
            path,
            group: 0,
        }
    }

    fn lines(r: &Rendered) -> Vec<&str> {
        r.text
            .lines()
            .filter(|l| l.starts_with("- ") && !l.starts_with("- `"))
            .collect()
    }

    #[test]
    fn the_block_as_codex_writes_it() {
        let roots = ["/repo/.agents/skills"];
        let r = render_rooted(
            &roots,
            &[entry("pdf", "Fill PDFs.", "pdf/SKILL.md")],
            DEFAULT_BUDGET,
        );
        let r = r.unwrap_or_else(|| panic!("nothing rendered"));
        assert_eq!(
            r.text,
            "<skills_instructions>\n## Skills\nA skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.\n### Skill roots\n- `r0` = `/repo/.agents/skills`\n### Available skills\n- pdf: Fill PDFs. (file: r0/pdf/SKILL.md)\n</skills_instructions>"
        );
        assert_eq!(
            (r.description_limit, r.omitted, r.notice()),
            (None, 0, None)
        );
        assert_eq!(render_rooted(&roots, &[], DEFAULT_BUDGET), None);
    }

    #[test]
    fn order_is_group_then_name_bytes_then_path_and_roots_are_numbered_when_used() {
        let roots = ["/home/.agents/skills", "/unused", "/repo/.agents/skills"];
        let mut a = entry("ok-basic", "Home.", "ok-basic/SKILL.md");
        a.group = 3;
        let mut b = entry("ok-basic", "Repo B.", "b/SKILL.md");
        b.root = 2;
        let mut c = entry("ok-basic", "Repo A.", "a/SKILL.md");
        c.root = 2;
        let mut d = entry("Upper", "U.", "u/SKILL.md");
        d.root = 2;
        let mut e = entry("-dash", "D.", "d/SKILL.md");
        e.root = 2;
        let r = render_rooted(&roots, &[a, b, c, d, e], DEFAULT_BUDGET);
        let r = r.unwrap_or_else(|| panic!("nothing rendered"));
        assert_eq!(
            lines(&r),
            [
                "- -dash: D. (file: r1/d/SKILL.md)",
                "- Upper: U. (file: r1/u/SKILL.md)",
                "- ok-basic: Repo A. (file: r1/a/SKILL.md)",
                "- ok-basic: Repo B. (file: r1/b/SKILL.md)",
                "- ok-basic: Home. (file: r0/ok-basic/SKILL.md)",
            ]
        );
        assert!(
            r.text
                .contains("- `r0` = `/home/.agents/skills`\n- `r1` = `/repo/.agents/skills`\n")
        );
        assert!(!r.text.contains("/unused"));
    }

    #[test]
    fn whole_locations_need_no_roots_table() {
        let entries = [
            Entry {
                name: "zeta",
                description: "Z.",
                location: "skill://zeta/SKILL.md",
                ..Entry::default()
            },
            Entry {
                name: "alpha",
                description: "A\u{a0}<b>.",
                when_to_use: Some("ignored"),
                location: "skill://alpha/SKILL.md",
                ..Entry::default()
            },
        ];
        assert_eq!(
            render(&entries, DEFAULT_BUDGET),
            "<skills_instructions>\n## Skills\nA skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and file path so you can open the source for full instructions when using a specific skill.\n### Available skills\n- alpha: A <b>. (file: skill://alpha/SKILL.md)\n- zeta: Z. (file: skill://zeta/SKILL.md)\n</skills_instructions>"
        );
        assert_eq!(render(&[], DEFAULT_BUDGET), "");
        assert_eq!(
            line(&entries[0]),
            "- zeta: Z. (file: skill://zeta/SKILL.md)"
        );
    }

    #[test]
    fn descriptions_over_1024_characters_are_cut_to_1021_and_an_ellipsis() {
        let exact = "é".repeat(1024);
        assert_eq!(listed_description(&exact), exact.as_str());
        let over = "é".repeat(1025);
        let listed = listed_description(&over);
        assert_eq!(listed.chars().count(), 1024);
        assert_eq!(listed, format!("{}...", "é".repeat(1021)));
    }

    #[test]
    fn over_budget_descriptions_share_one_maximum_length() {
        let roots = ["/r"];
        let long = "word ".repeat(40);
        let long = long.trim_end();
        let entries = [
            entry("a", long, "a/SKILL.md"),
            entry("b", "Short one.", "b/SKILL.md"),
            entry("c", long, "c/SKILL.md"),
        ];
        let full = render_rooted(&roots, &entries, usize::MAX).unwrap_or_else(|| panic!("none"));
        let full_cost: usize = lines(&full).iter().map(|l| l.chars().count() + 1).sum();
        for budget in [full_cost - 1, full_cost - 150, 200] {
            let r = render_rooted(&roots, &entries, budget).unwrap_or_else(|| panic!("none"));
            let limit = r
                .description_limit
                .unwrap_or_else(|| panic!("not cut at {budget}"));
            let got = lines(&r);
            let used: usize = got.iter().map(|l| l.chars().count() + 1).sum();
            assert!(used <= budget, "{used} > {budget}");
            assert_eq!(r.omitted, 0);
            assert!(!r.text.contains("..."), "{}", r.text);
            // The shared maximum is the longest that fits: one more character does not.
            let wider: usize = entries
                .iter()
                .map(|e| {
                    cost(
                        e.name,
                        cut(e.description, limit + 1),
                        &format!("r0/{}", e.path),
                    )
                })
                .sum();
            assert!(
                wider > budget,
                "limit {limit} is not the largest at {budget}"
            );
            for (line, e) in got.iter().zip(&entries) {
                let shown = cut(e.description, limit);
                assert_eq!(*line, entry_line(e.name, shown, &format!("r0/{}", e.path)));
            }
        }
        // "Short one." is kept whole while the limit is at least its length.
        let r = render_rooted(&roots, &entries, full_cost - 20).unwrap_or_else(|| panic!("none"));
        assert!(lines(&r)[1].contains("Short one."), "{:?}", lines(&r));
    }

    #[test]
    fn past_bare_entries_skills_are_dropped_with_codexs_notice() {
        let roots = ["/r"];
        let entries = [
            entry("alpha", "A.", "alpha/SKILL.md"),
            entry("beta", "B.", "beta/SKILL.md"),
            entry("gamma", "G.", "gamma/SKILL.md"),
        ];
        let bare = |name: &str| {
            format!("- {name}: (file: r0/{name}/SKILL.md)")
                .chars()
                .count()
                + 1
        };
        let budget = bare("alpha") + bare("beta");
        let r = render_rooted(&roots, &entries, budget).unwrap_or_else(|| panic!("none"));
        assert_eq!(
            lines(&r),
            [
                "- alpha: (file: r0/alpha/SKILL.md)",
                "- beta: (file: r0/beta/SKILL.md)"
            ]
        );
        assert_eq!((r.description_limit, r.omitted), (Some(0), 1));
        assert_eq!(
            r.notice().as_deref(),
            Some(
                "Exceeded skills context budget. All skill descriptions were removed and 1 additional skills were not included in the model-visible skills list."
            )
        );
        let none = render_rooted(&roots, &entries, 0).unwrap_or_else(|| panic!("none"));
        assert_eq!((lines(&none).len(), none.omitted), (0, 3));
    }
}
