//! Checks beyond the reference validator, all warnings with stable codes.
//!
//! * `SK301` `SKILL.md` over 500 lines or about 5,000 tokens (the
//!   specification's advice for progressive disclosure; tokens are estimated
//!   as characters / 4).
//! * `SK302` a relative file the body references (a Markdown link, or a
//!   backticked path under `scripts/`, `references/` or `assets/`) that the
//!   skill does not have. Fenced code blocks, URLs and anchors are skipped.
//! * `SK303`/`SK304` a script under `scripts/` without `#!` or executable bit.
//! * `SK305` zero-width, bidirectional-control or tag characters anywhere in
//!   `SKILL.md` (they hide text from reviewers: "Trojan Source").
//! * `SK306` `<` or `>` in the description (Anthropic's `quick_validate.py`
//!   rejects them, and they can break XML prompts).
//! * `SK307` a description that never says when to use the skill.

use std::collections::BTreeSet;
use std::io::Read;
use std::ops::Range;

use crate::diag::Code;
use crate::files::SkillFile;
use crate::frontmatter::Split;
use crate::rules::Ctx;
use crate::source::find_any;
use skills_core::fsread::Dir;
use skills_core::invisible::{is_invisible, may_start_invisible};

const MAX_LINES: usize = 500;
const MAX_TOKENS: usize = 5_000;

/// Runs every lint on one parsed skill.
pub(crate) fn check(
    ctx: &mut Ctx<'_>,
    split: &Split,
    description: Option<(&str, Range<usize>)>,
    files: &[SkillFile],
    complete: bool,
    dir: &Dir,
) {
    size(ctx);
    invisible(ctx);
    if let Some((text, span)) = description {
        description_lints(ctx, text, span);
    }
    // Which named files are missing is known only from a whole listing.
    if complete {
        references(ctx, split, files);
    }
    scripts(ctx, files, dir);
}

fn size(ctx: &mut Ctx<'_>) {
    let bytes = ctx.source.bytes();
    // Characters: every byte that does not continue a UTF-8 sequence. A file
    // of at most 4 x MAX_TOKENS bytes cannot exceed the limit, so skip the count.
    let tokens = if bytes.len() <= 4 * MAX_TOKENS {
        0
    } else {
        bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count() / 4
    };
    let lines = ctx.source.line_count();
    if lines > MAX_LINES || tokens > MAX_TOKENS {
        ctx.report(
            Code::SkillMdTooLong,
            None,
            format!("`SKILL.md` is {lines} lines and about {tokens} tokens; keep it under {MAX_LINES} lines and {MAX_TOKENS} tokens"),
        )
        .set_help("move detailed material into `references/` files that the body links to");
    }
}

/// The offset of the first byte at or after `from` that is not ASCII.
fn next_non_ascii(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut base = from;
    for chunk in rest.chunks(64) {
        if !chunk.is_ascii() {
            return chunk.iter().position(|b| !b.is_ascii()).map(|i| base + i);
        }
        base += chunk.len();
    }
    None
}

fn invisible(ctx: &mut Ctx<'_>) {
    let bytes = ctx.source.bytes();
    let Some(text) = ctx.source.text() else {
        return;
    };
    let mut last_line = 0;
    // Only non-ASCII characters starting with a candidate lead byte are
    // decoded; runs of ASCII are skipped a word at a time.
    let mut from = 0;
    while let Some(at) = next_non_ascii(bytes, from) {
        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        from = at + c.len_utf8();
        if !may_start_invisible(bytes[at]) || !is_invisible(c) {
            continue;
        }
        // A zero-width joiner between two pictographs builds an emoji.
        if c == '\u{200D}' {
            let pictograph = |c: Option<char>| c.is_some_and(|c| c as u32 >= 0x2100);
            let before = text[..at].chars().next_back();
            let after = text[at + c.len_utf8()..].chars().next();
            if pictograph(before) && pictograph(after) {
                continue;
            }
        }
        let line = ctx.source.line_col(at).line;
        if line == last_line {
            continue;
        }
        last_line = line;
        ctx.report(
            Code::InvisibleUnicode,
            Some(at..at + c.len_utf8()),
            format!("invisible character U+{:04X} in `SKILL.md`", c as u32),
        )
        .set_help("remove it: invisible and bidirectional-control characters can hide text from reviewers");
    }
}

fn description_lints(ctx: &mut Ctx<'_>, text: &str, span: Range<usize>) {
    if text.contains(['<', '>']) {
        ctx.report(
            Code::DescriptionAngleBrackets,
            Some(span.clone()),
            "`description` contains `<` or `>`",
        )
        .set_help(
            "Anthropic's validator rejects angle brackets in descriptions; reword without them",
        );
    }
    let lower = text.to_lowercase();
    const HINTS: [&str; 12] = [
        "when",
        "use this",
        "use for",
        "use to",
        "use it",
        "use if",
        "trigger",
        "invoke",
        "whenever",
        "if the user",
        "if you",
        "should be used",
    ];
    if !HINTS.iter().any(|h| lower.contains(h)) {
        ctx.report(
            Code::DescriptionNoTrigger,
            Some(span),
            "`description` does not say when to use the skill",
        )
        .set_help(
            "agents choose skills by their description: add a sentence such as \"Use when ...\"",
        );
    }
}

/// Relative paths the body references, with their byte ranges in the file.
fn referenced_paths(body: &str, offset: usize) -> Vec<(String, Range<usize>)> {
    let mut found = Vec::new();
    let mut fence: Option<&str> = None;
    let bytes = body.as_bytes();
    let mut from = 0;
    // Only a line holding one of these bytes can open or close a fence,
    // hold a link or a backticked path: the lines are visited from one such
    // byte to the next, and the others are never split out.
    while let Some(hit) = find_any(bytes, from, [b'`', b']', b'~']) {
        let line_start = body[..hit].rfind('\n').map_or(0, |i| i + 1);
        let line_end = find_any(bytes, hit, [b'\n']).map_or(body.len(), |i| i + 1);
        from = line_end;
        let line = &body[line_start..line_end];
        let start = line_start;
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") {
            fence = Some("```");
            continue;
        }
        if trimmed.starts_with("~~~") {
            fence = Some("~~~");
            continue;
        }
        // Markdown links and images: ](target)
        let mut rest = line;
        let mut base = start;
        while let Some(i) = find_link_target(rest) {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            let at = offset + base + i + 2;
            found.push((target.to_string(), at..at + end));
            base += i + 2 + end;
            rest = &after[end..];
        }
        // Backticked paths under the standard directories.
        let mut rest = line;
        let mut base = start;
        while let Some(i) = rest.find('`') {
            let after = &rest[i + 1..];
            let Some(end) = after.find('`') else { break };
            let inner = &after[..end];
            if ["scripts/", "references/", "assets/"]
                .iter()
                .any(|d| inner.len() > d.len() && inner.starts_with(d))
                && !inner.contains(char::is_whitespace)
            {
                let at = offset + base + i + 1;
                found.push((inner.to_string(), at..at + end));
            }
            base += i + 2 + end;
            rest = &after[end + 1..];
        }
    }
    found
}

/// The offset of the first `](` in `s` (a search for `]`, which is rare,
/// rather than for the pair, whose searcher costs more to set up than most
/// lines take to scan).
fn find_link_target(s: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = s.get(from..)?.find(']') {
        let at = from + i;
        if s.as_bytes().get(at + 1) == Some(&b'(') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

fn references(ctx: &mut Ctx<'_>, split: &Split, files: &[SkillFile]) {
    let Some(text) = ctx.source.text() else {
        return;
    };
    let Some(body) = text.get(split.body.clone()) else {
        return;
    };
    let have: BTreeSet<&str> = files.iter().map(|f| f.rel.as_str()).collect();
    let mut reported = BTreeSet::new();
    for (target, span) in referenced_paths(body, split.body.start) {
        let Some(rel) = local_path(&target) else {
            continue;
        };
        // A file, or a directory: some file sorts right after `rel/`.
        let exists = have.contains(rel.as_str())
            || have
                .range(format!("{rel}/").as_str()..)
                .next()
                .is_some_and(|f| f.starts_with(&rel) && f.as_bytes().get(rel.len()) == Some(&b'/'));
        if !exists && reported.insert(rel.clone()) {
            ctx.report(
                Code::MissingReferencedFile,
                Some(span),
                format!("the body references `{rel}`, which this skill does not have"),
            )
            .set_help("add the file or fix the path (paths are relative to the skill directory)");
        }
    }
}

/// The skill-relative path a link target names, or `None` for URLs,
/// anchors, absolute paths, templates and paths that leave the skill.
fn local_path(target: &str) -> Option<String> {
    let target = target.trim_matches(['<', '>']);
    let target = target.split(['#', '?']).next().unwrap_or("");
    if target.is_empty()
        || target.contains("://")
        || target.starts_with(['/', '\\', '$', '{', '~'])
        || target.contains(['*', '{', '}', '<', '>', '$', '|'])
        || target
            .split_once(':')
            .is_some_and(|(scheme, _)| !scheme.contains('/'))
    {
        return None;
    }
    let decoded = target.replace("%20", " ");
    let mut parts: Vec<&str> = Vec::new();
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

/// Extensions of files that run as programs.
const SCRIPT_EXTENSIONS: [&str; 13] = [
    "py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "lua", "fish",
];

fn scripts(ctx: &mut Ctx<'_>, files: &[SkillFile], dir: &Dir) {
    for f in files {
        let Some(name) = f.rel.strip_prefix("scripts/") else {
            continue;
        };
        let file_name = name.rsplit('/').next().unwrap_or(name);
        let ext = file_name.rsplit_once('.').map(|(_, e)| e);
        let is_script = match ext {
            Some(e) => SCRIPT_EXTENSIONS.contains(&e),
            None => true,
        };
        if !is_script || file_name == "__init__.py" {
            continue;
        }
        let mut head = [0u8; 2];
        let has_shebang = dir
            .open_file(&f.physical)
            .is_ok_and(|(mut h, _)| h.read_exact(&mut head).is_ok())
            && &head == b"#!";
        if !has_shebang {
            ctx.report(
                Code::ScriptNoShebang,
                None,
                format!("`{}` has no `#!` line", f.rel),
            )
            .set_help("start it with an interpreter line such as `#!/usr/bin/env python3`")
            .path = f.path.clone();
        }
        if cfg!(unix) && !f.executable {
            ctx.report(
                Code::ScriptNotExecutable,
                None,
                format!("`{}` is not executable", f.rel),
            )
            .set_help(format!("run `chmod +x {}`", f.path.display()))
            .path = f.path.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_and_backticked_paths_outside_fences() {
        let body = "See [ref](references/A.md#x) and `scripts/run.py`.\n```\n[no](x.md)\n```\n![img](assets/a.png \"t\")\n";
        let found: Vec<String> = referenced_paths(body, 0)
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        assert_eq!(
            found,
            ["references/A.md#x", "scripts/run.py", "assets/a.png"]
        );
    }

    #[test]
    fn local_paths_skip_urls_and_templates() {
        assert_eq!(
            local_path("./references/a.md#top").as_deref(),
            Some("references/a.md")
        );
        assert_eq!(local_path("https://x.org/a"), None);
        assert_eq!(local_path("mailto:a@b"), None);
        assert_eq!(local_path("#anchor"), None);
        assert_eq!(local_path("../other/SKILL.md"), None);
        assert_eq!(local_path("a/../b.md").as_deref(), Some("b.md"));
        assert_eq!(local_path("scripts/{name}.py"), None);
    }
}
