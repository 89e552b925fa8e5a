//! The markup of the browsable pages, and the one escaping every text goes
//! through ([`Html::text`]). Names, descriptions, paths, key ids and the
//! base URL are a publisher's input: they are only ever text (`&`, `<`,
//! `>`, `"` and `'` escaped; control and invisible characters shown as
//! `U+XXXX`), never markup, an attribute's name or a link's target. Links
//! are built from names and versions that passed the index's rules
//! (`a-z 0-9 -`, and a version's `A-Z a-z 0-9 . _ + -`), and are escaped
//! all the same.
//!
//! Hand-written rather than templated: the pages are two, with one
//! escaping function, and askama (the templating crate this workspace's
//! style follows) would add its derive and parser to skills-supply's
//! build (measured in the guide).

use std::fmt::Write as _;
use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use skills_core::digest::sha256;
use skills_core::invisible::is_invisible;

use super::model::{PAGE_FILE, PageFile, ScanSummary, SkillPage};
use crate::index::INDEX_FILE;

/// The pages' style, inline (its hash is in the policy). Colours give at
/// least 4.5:1 against their background: text `#1b1b1b` and links
/// `#0b57a4` on white, muted `#4a4a4a`.
const STYLE: &str = "\
:root{color-scheme:light}\
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1b;background:#fff}\
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:.5rem}\
.skip:focus{left:.5rem}\
header,nav,main,footer{display:block;max-width:60rem;margin:0 auto;padding:0 1rem}\
header{border-bottom:1px solid #767676}\
footer{border-top:1px solid #767676;margin-top:2rem;color:#4a4a4a;font-size:.9rem}\
a{color:#0b57a4}\
a:focus{outline:3px solid #1b1b1b;outline-offset:2px}\
h1{font-size:1.75rem;margin:1rem 0 .25rem;overflow-wrap:anywhere}\
h2{font-size:1.35rem;margin:1.5rem 0 .5rem;border-bottom:1px solid #d0d0d0}\
h3{font-size:1.1rem;margin:.75rem 0 .25rem;overflow-wrap:anywhere}\
p{margin:.25rem 0}\
.letters{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.25rem}\
.letters a{display:inline-block;min-width:2.75rem;padding:.5rem 0;text-align:center}\
.skills{list-style:none;padding:0;margin:0}\
.skills li{padding:.5rem 0;border-bottom:1px solid #e0e0e0}\
.skills h3{margin:0}\
.desc{overflow-wrap:anywhere}\
.meta{color:#4a4a4a;font-size:.9rem;overflow-wrap:anywhere}\
code,pre{font-family:ui-monospace,monospace}\
pre{background:#f3f3f3;padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0}\
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}\
dt{font-weight:bold}\
dd{margin:0;overflow-wrap:anywhere}\
table{border-collapse:collapse;width:100%}\
caption{text-align:left;color:#4a4a4a}\
th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #e0e0e0;overflow-wrap:anywhere}\
td.n,th.n{text-align:right;white-space:nowrap}\
label{display:block;font-weight:bold}\
input{font:inherit;padding:.4rem;width:100%;max-width:30rem;box-sizing:border-box;border:1px solid #767676}\
[hidden]{display:none}\
@media (max-width:30rem){dl{grid-template-columns:1fr}dd{margin-bottom:.5rem}}";

/// The index page's progressive enhancement: a filter box over the
/// names and descriptions. Without it the page is whole (letter groups).
const SCRIPT: &str = "\
(function(){var box=document.getElementById('filter');if(!box){return;}\
var label=document.createElement('label');label.htmlFor='q';\
label.textContent='Filter skills by name or description';\
var input=document.createElement('input');input.type='search';input.id='q';input.autocomplete='off';\
var said=document.createElement('p');said.className='meta';said.setAttribute('aria-live','polite');\
box.appendChild(label);box.appendChild(input);box.appendChild(said);\
var items=Array.prototype.slice.call(document.querySelectorAll('.skills li'));\
var groups=Array.prototype.slice.call(document.querySelectorAll('section.letter'));\
input.addEventListener('input',function(){var q=input.value.toLowerCase(),n=0;\
items.forEach(function(li){var hit=li.textContent.toLowerCase().indexOf(q)>=0;li.hidden=!hit;if(hit){n++;}});\
groups.forEach(function(g){g.hidden=!g.querySelector('li:not([hidden])');});\
said.textContent=q?n+' of '+items.length+' skills':'';});})();";

/// The pages of `pages` (the index page, then one per skill), with
/// `base_url` (the site's root) in the install lines; without it they
/// say `SITE`.
pub fn render(pages: &[SkillPage], base_url: Option<&str>) -> Vec<PageFile> {
    let site = base_url.unwrap_or("SITE");
    let mut files = Vec::with_capacity(pages.len() + 1);
    files.push((PathBuf::from(PAGE_FILE), index_page(pages, base_url)));
    for page in pages {
        files.push((
            PathBuf::from(&page.name).join(PAGE_FILE),
            skill_page(page, site, base_url.is_some()),
        ));
    }
    files
}

/// An HTML document being written.
struct Html(String);

impl Html {
    /// Adds markup written here (never input).
    fn raw(&mut self, markup: &str) -> &mut Self {
        self.0.push_str(markup);
        self
    }

    /// Adds `text` as text: markup characters escaped, control and
    /// invisible characters shown as `U+XXXX`.
    fn text(&mut self, text: &str) -> &mut Self {
        for c in text.chars() {
            match c {
                '&' => self.0.push_str("&amp;"),
                '<' => self.0.push_str("&lt;"),
                '>' => self.0.push_str("&gt;"),
                '"' => self.0.push_str("&quot;"),
                '\'' => self.0.push_str("&#39;"),
                '\n' | '\t' => self.0.push(c),
                c if c.is_control() || is_invisible(c) => {
                    let _ = write!(self.0, "U+{:04X}", u32::from(c));
                }
                c => self.0.push(c),
            }
        }
        self
    }

    /// The document's start: the policy, the title, the style, the skip
    /// link to `main`.
    fn start(title: &str, skip: &str, script: bool) -> Html {
        let mut policy = format!(
            "default-src 'none'; style-src '{}'; base-uri 'none'; form-action 'none'",
            csp_hash(STYLE)
        );
        if script {
            let _ = write!(policy, "; script-src '{}'", csp_hash(SCRIPT));
        }
        let mut h = Html(String::new());
        h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
            .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
            .raw("<meta http-equiv=\"Content-Security-Policy\" content=\"")
            .text(&policy)
            .raw("\">\n<title>")
            .text(title)
            .raw("</title>\n<style>")
            .raw(STYLE)
            .raw("</style>\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">")
            .text(skip)
            .raw("</a>\n");
        h
    }

    /// The document's end: the footer, the script if any.
    fn end(mut self, script: bool) -> Vec<u8> {
        self.raw(
            "<footer>\n<p>Written by <code>skb publish</code>. Every archive's \
             <code>sha256</code> digest is in the machine-readable index, \
             which <code>skb add</code> checks before it unpacks a byte.</p>\n</footer>\n",
        );
        if script {
            self.raw("<script>").raw(SCRIPT).raw("</script>\n");
        }
        self.raw("</body>\n</html>\n");
        self.0.into_bytes()
    }
}

/// A policy's `'sha256-…'` source for an inline element's text.
fn csp_hash(text: &str) -> String {
    format!("sha256-{}", STANDARD.encode(sha256(text.as_bytes())))
}

/// `1 skill`, `2 skills`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The letter group a name is listed under: its first letter, or `0-9`.
fn group(name: &str) -> char {
    match name.chars().next() {
        Some(c) if c.is_ascii_lowercase() => c,
        _ => '0',
    }
}

/// The group's heading.
fn group_title(g: char) -> String {
    if g == '0' {
        "0–9".to_string()
    } else {
        g.to_ascii_uppercase().to_string()
    }
}

/// The index page: every skill, grouped by first letter.
fn index_page(pages: &[SkillPage], base_url: Option<&str>) -> Vec<u8> {
    let mut groups: Vec<(char, Vec<&SkillPage>)> = Vec::new();
    for page in pages {
        let g = group(&page.name);
        match groups.iter_mut().find(|(k, _)| *k == g) {
            Some((_, list)) => list.push(page),
            None => groups.push((g, vec![page])),
        }
    }
    groups.sort_by_key(|(k, _)| *k);
    let title = format!("Agent Skills: {}", count(pages.len(), "skill"));
    let mut h = Html::start(&title, "Skip to the skills", true);
    h.raw("<header>\n<h1>Agent Skills</h1>\n<p>")
        .text(&count(pages.len(), "skill"));
    match base_url {
        Some(url) => {
            h.raw(" published at ").text(url);
        }
        None => {
            h.raw(" published here");
        }
    }
    h.raw(". For programs: <a href=\"")
        .text(INDEX_FILE)
        .raw("\">the well-known index</a> (<code>")
        .text(INDEX_FILE)
        .raw("</code>).</p>\n</header>\n<nav aria-label=\"Skills by first letter\">\n")
        .raw("<ul class=\"letters\">\n");
    for (g, _) in &groups {
        h.raw("<li><a href=\"#letter-")
            .text(&g.to_string())
            .raw("\">")
            .text(&group_title(*g))
            .raw("</a></li>\n");
    }
    h.raw("</ul>\n</nav>\n<main id=\"main\" tabindex=\"-1\">\n<div id=\"filter\"></div>\n");
    for (g, list) in &groups {
        h.raw("<section class=\"letter\" aria-labelledby=\"letter-")
            .text(&g.to_string())
            .raw("\">\n<h2 id=\"letter-")
            .text(&g.to_string())
            .raw("\">")
            .text(&group_title(*g))
            .raw("</h2>\n<ul class=\"skills\">\n");
        for page in list {
            h.raw("<li>\n<h3><a href=\"")
                .text(&page.name)
                .raw("/")
                .raw(PAGE_FILE)
                .raw("\">")
                .text(&page.name)
                .raw("</a></h3>\n<p class=\"desc\">")
                .text(&page.description)
                .raw("</p>\n<p class=\"meta\">")
                .text(&summary_line(page))
                .raw("</p>\n</li>\n");
        }
        h.raw("</ul>\n</section>\n");
    }
    h.raw("</main>\n");
    h.end(true)
}

/// The index page's line under a skill: version, signer, scan.
fn summary_line(page: &SkillPage) -> String {
    let mut parts = Vec::new();
    match page.versions.first() {
        Some(v) => parts.push(format!("version {v}")),
        None => parts.push("not published by skb".to_string()),
    }
    if !page.versions.is_empty() {
        parts.push(match &page.key_id {
            Some(k) => format!("signed by key {k}"),
            None => "unsigned".to_string(),
        });
    }
    if let Some(scan) = &page.scan {
        parts.push(format!("scan: {}", scan_counts(scan)));
    }
    if !page.files.is_empty() {
        parts.push(count(page.files.len(), "file"));
    }
    parts.join(" · ")
}

/// `no findings`, or `2 high, 1 medium`.
fn scan_counts(scan: &ScanSummary) -> String {
    let counts: Vec<String> = scan
        .counts
        .by_name()
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    if counts.is_empty() {
        "no findings".to_string()
    } else {
        counts.join(", ")
    }
}

/// One skill's page.
fn skill_page(page: &SkillPage, site: &str, has_base: bool) -> Vec<u8> {
    let title = format!("{}: Agent Skill", page.name);
    let mut h = Html::start(&title, "Skip to the skill", false);
    h.raw("<header>\n<h1>")
        .text(&page.name)
        .raw("</h1>\n<p class=\"desc\">")
        .text(&page.description)
        .raw("</p>\n</header>\n<nav aria-label=\"Breadcrumb\">\n<p><a href=\"../")
        .raw(PAGE_FILE)
        .raw("\">All skills</a></p>\n</nav>\n<main id=\"main\" tabindex=\"-1\">\n");
    versions(&mut h, page);
    install(&mut h, page, site, has_base);
    scan(&mut h, page);
    files(&mut h, page);
    h.raw("</main>\n");
    h.end(false)
}

/// The versions, the digest and the signer.
fn versions(h: &mut Html, page: &SkillPage) {
    h.raw("<h2>Versions</h2>\n");
    if page.versions.is_empty() {
        h.raw("<p>None published by <code>skb</code> here: the index lists this skill at <code>")
            .text(&page.digest)
            .raw("</code>.</p>\n");
        return;
    }
    h.raw("<ul>\n");
    for (i, v) in page.versions.iter().enumerate() {
        h.raw("<li><a href=\"")
            .text(v)
            .raw("/")
            .text(&page.name)
            .raw(".zip\">")
            .text(v)
            .raw("</a> (<a href=\"")
            .text(v)
            .raw("/")
            .raw(INDEX_FILE)
            .raw("\">its index</a>)");
        if i == 0 {
            h.raw(", the newest");
        }
        h.raw("</li>\n");
    }
    h.raw("</ul>\n<dl>\n<dt>Digest of the newest</dt><dd><code>")
        .text(&page.digest)
        .raw("</code></dd>\n<dt>Signed by</dt><dd>");
    match (&page.key_id, page.versions.first()) {
        (Some(k), Some(v)) => {
            h.raw("key <code>")
                .text(k)
                .raw("</code> (<a href=\"")
                .text(v)
                .raw("/")
                .text(&page.name)
                .raw(".zip.minisig\">signature</a>)");
        }
        _ => {
            h.raw("nobody: the newest version is unsigned");
        }
    }
    h.raw("</dd>\n</dl>\n");
}

/// The install lines.
fn install(h: &mut Html, page: &SkillPage, site: &str, has_base: bool) {
    h.raw("<h2>Install</h2>\n");
    if !has_base {
        h.raw("<p><code>SITE</code> is the address this folder is served at ")
            .raw("(publish with <code>--base-url</code> to have it written here).</p>\n");
    }
    let line = |h: &mut Html, who: &str, cmd: &str| {
        h.raw("<h3>")
            .text(who)
            .raw("</h3>\n<pre><code>")
            .text(cmd)
            .raw("</code></pre>\n");
    };
    line(h, "skb", &format!("skb add {site} --skill {}", page.name));
    line(
        h,
        "Vercel's skills CLI",
        &format!("npx skills add {site} --skill {}", page.name),
    );
    match &page.plugin {
        Some(p) => {
            line(
                h,
                "Claude Code",
                &format!("/plugin install {}@{}", p.plugin, p.marketplace),
            );
            h.raw("<p>After <code>/plugin marketplace add</code> of the marketplace <code>")
                .text(&p.marketplace)
                .raw("</code> (its repository or URL).</p>\n");
        }
        None => {
            h.raw("<h3>Claude Code</h3>\n<p>None: this skill was not published from a ")
                .raw("plugin in a Claude Code marketplace.</p>\n");
        }
    }
}

/// The scan summary.
fn scan(h: &mut Html, page: &SkillPage) {
    h.raw("<h2>Scan</h2>\n");
    let Some(scan) = &page.scan else {
        h.raw("<p>Not scanned: no archive of this skill is published here.</p>\n");
        return;
    };
    h.raw("<p>")
        .text(&scan.engine)
        .raw(" over the newest archive's files: ")
        .text(&scan_counts(scan))
        .raw(". <code>skb add</code> refuses a finding at <code>high</code> or above ")
        .raw("unless it is accepted with <code>--allow-finding</code>.</p>\n");
    if scan.rules.is_empty() {
        return;
    }
    h.raw("<table>\n<caption>Rules reported</caption>\n<thead><tr><th scope=\"col\">Rule</th>")
        .raw("<th scope=\"col\">Severity</th><th scope=\"col\" class=\"n\">Findings</th></tr></thead>\n<tbody>\n");
    for (code, severity, n) in &scan.rules {
        h.raw("<tr><td><code>")
            .text(code)
            .raw("</code></td><td>")
            .text(severity)
            .raw("</td><td class=\"n\">")
            .text(&n.to_string())
            .raw("</td></tr>\n");
    }
    h.raw("</tbody>\n</table>\n");
}

/// The newest version's files.
fn files(h: &mut Html, page: &SkillPage) {
    h.raw("<h2>Files</h2>\n");
    if page.files.is_empty() {
        h.raw("<p>None known: no archive of this skill is published here.</p>\n");
        return;
    }
    let total: u64 = page.files.iter().map(|(_, n)| n).sum();
    h.raw("<table>\n<caption>")
        .text(&count(page.files.len(), "file"))
        .raw(", ")
        .text(&count(total as usize, "byte"))
        .raw(", in the newest version</caption>\n<thead><tr><th scope=\"col\">Path</th>")
        .raw("<th scope=\"col\" class=\"n\">Bytes</th></tr></thead>\n<tbody>\n");
    for (path, size) in &page.files {
        h.raw("<tr><td><code>")
            .text(path)
            .raw("</code></td><td class=\"n\">")
            .text(&size.to_string())
            .raw("</td></tr>\n");
    }
    h.raw("</tbody>\n</table>\n");
}

#[cfg(test)]
mod tests {
    use super::super::model::PluginSource;
    use super::*;
    use skills_core::lock::FindingCounts;

    fn page(name: &str, description: &str) -> SkillPage {
        SkillPage {
            name: name.to_string(),
            description: description.to_string(),
            versions: vec!["1.1.0".into(), "1.0.0".into()],
            digest: format!("sha256:{}", "a".repeat(64)),
            key_id: Some("0123456789ABCDEF".into()),
            files: vec![("SKILL.md".into(), 12), ("scripts/<x>.sh".into(), 3)],
            scan: Some(ScanSummary {
                engine: "skills-scan 1".into(),
                counts: FindingCounts {
                    high: 1,
                    ..FindingCounts::default()
                },
                rules: vec![("SK100".into(), "high".into(), 1)],
            }),
            plugin: None,
        }
    }

    fn text(files: &[PageFile], at: &str) -> String {
        let (_, bytes) = files.iter().find(|(p, _)| p == &PathBuf::from(at)).unwrap();
        String::from_utf8(bytes.clone()).unwrap()
    }

    #[test]
    fn input_is_text_never_markup() {
        let evil = "<script>alert(1)</script> \"onmouseover='x' javascript:alert(1) \u{202E}&";
        let files = render(&[page("evil", evil)], Some("https://x.test/\"><script>"));
        for (_, bytes) in &files {
            let html = String::from_utf8(bytes.clone()).unwrap();
            assert!(!html.contains("<script>alert"), "{html}");
            assert!(!html.contains("\"><script>"), "{html}");
            assert!(!html.contains("'x'"), "{html}");
            assert!(!html.contains('\u{202E}'), "{html}");
            assert!(!html.contains("href=\"javascript"), "{html}");
            // Only the index page has a script, and it is ours.
            assert_eq!(
                html.matches("<script>").count(),
                usize::from(html.contains(SCRIPT))
            );
        }
        let index = text(&files, "index.html");
        assert!(
            index.contains("&lt;script&gt;alert(1)&lt;/script&gt; &quot;onmouseover=&#39;x&#39;")
        );
        assert!(index.contains("U+202E&amp;"));
        let skill = text(&files, "evil/index.html");
        assert!(skill.contains("<code>scripts/&lt;x&gt;.sh</code>"));
        assert!(skill.contains("skb add https://x.test/&quot;&gt;&lt;script&gt; --skill evil"));
    }

    #[test]
    fn the_policy_allows_exactly_the_inline_style_and_script() {
        let files = render(&[page("a", "d")], None);
        let index = text(&files, "index.html");
        assert!(index.contains(&format!("style-src &#39;{}&#39;", csp_hash(STYLE))));
        assert!(index.contains(&format!("script-src &#39;{}&#39;", csp_hash(SCRIPT))));
        assert!(index.contains(&format!("<style>{STYLE}</style>")));
        assert!(index.contains("default-src &#39;none&#39;"));
        let skill = text(&files, "a/index.html");
        assert!(!skill.contains("script-src") && !skill.contains("<script"));
        assert!(skill.contains("<html lang=\"en\">"));
    }

    #[test]
    fn every_skill_is_listed_under_its_letter_and_has_a_page() {
        let pages = [page("beta", "b"), page("alpha", "a"), page("7zip", "z")];
        let files = render(&pages, None);
        assert_eq!(files.len(), 4);
        let index = text(&files, "index.html");
        for (name, letter) in [("alpha", "a"), ("beta", "b"), ("7zip", "0")] {
            assert!(index.contains(&format!("href=\"{name}/index.html\"")));
            assert!(index.contains(&format!("href=\"#letter-{letter}\"")));
            assert!(index.contains(&format!("<h2 id=\"letter-{letter}\">")));
        }
        assert!(index.find("letter-0\"").unwrap() < index.find("letter-a\"").unwrap());
        for landmark in ["<header>", "<nav ", "<main ", "<footer>"] {
            assert!(index.contains(landmark), "{landmark}");
            assert!(
                text(&files, "beta/index.html").contains(landmark),
                "{landmark}"
            );
        }
    }

    #[test]
    fn install_lines_name_the_site_and_the_plugin_when_there_is_one() {
        let mut p = page("alpha", "a");
        let files = render(std::slice::from_ref(&p), Some("https://skills.example"));
        let skill = text(&files, "alpha/index.html");
        assert!(skill.contains("skb add https://skills.example --skill alpha"));
        assert!(skill.contains("npx skills add https://skills.example --skill alpha"));
        assert!(skill.contains("None: this skill was not published from a plugin"));
        p.plugin = Some(PluginSource {
            plugin: "tools".into(),
            marketplace: "acme".into(),
        });
        let files = render(&[p], None);
        let skill = text(&files, "alpha/index.html");
        assert!(skill.contains("/plugin install tools@acme"));
        assert!(skill.contains("skb add SITE --skill alpha"));
    }

    #[test]
    fn versions_link_their_files_and_the_signer_is_named() {
        let files = render(&[page("alpha", "a")], None);
        let skill = text(&files, "alpha/index.html");
        assert!(skill.contains("href=\"1.1.0/alpha.zip\""));
        assert!(skill.contains("href=\"1.0.0/index.json\""));
        assert!(skill.contains("href=\"1.1.0/alpha.zip.minisig\""));
        assert!(skill.contains("key <code>0123456789ABCDEF</code>"));
        assert!(skill.contains("1 high"));
    }
}
