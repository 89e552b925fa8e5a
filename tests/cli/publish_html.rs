//! `skb publish`'s browsable pages: one per skill and the index page,
//! every skill listed, text escaped, links to files that exist, the same
//! bytes from the same input, `--no-html`, the signer and the marketplace's
//! plugin named. The same pages in a real browser, with axe-core, over the
//! shared corpus: `browser` below (acceptance tier).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::skills;
use skills_tests::{tempdir, workspace, write_tree};

const WELL_KNOWN: &str = ".well-known/agent-skills";

fn run(dir: &Path, args: &[&str]) -> Output {
    skills()
        .args(args)
        .current_dir(dir)
        .env("SKILLS_KEY_PASSWORD", "pw")
        .output()
        .unwrap()
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "skb {args:?}:\n{text}");
    text
}

fn skill(root: &Path, dir: &str, name: &str, description: &str) {
    let md = format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nBody.\n");
    write_tree(&root.join(dir), &[("SKILL.md", md.as_bytes())]);
}

/// Every page under the site, by path relative to the well-known folder.
fn pages(site: &Path) -> BTreeMap<PathBuf, String> {
    let root = site.join(WELL_KNOWN);
    let mut out = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                let rel = p.strip_prefix(&root).unwrap().to_path_buf();
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

/// The `href` values of a page.
fn hrefs(html: &str) -> Vec<&str> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect()
}

#[test]
fn every_skill_has_a_page_and_every_link_names_a_file() {
    let tmp = tempdir();
    let root = tmp.path();
    skill(
        root,
        "src/alpha",
        "alpha",
        "Alpha does things. Use it for things.",
    );
    skill(
        root,
        "src/beta",
        "beta",
        "Beta does other things. Use it for those.",
    );
    skill(
        root,
        "src/9lives",
        "9lives",
        "Nine lives. Use it when a cat.",
    );
    write_tree(&root.join("src/beta/scripts"), &[("run.sh", b"echo hi\n")]);
    ok(root, &["keygen", "-p", "k.pub", "-s", "k.key"]);
    let out = ok(
        root,
        &[
            "publish",
            "src",
            "--out",
            "site",
            "--release",
            "1.0.0",
            "--sign",
            "k.key",
            "--base-url",
            "https://skills.example",
        ],
    );
    assert!(
        out.contains("browsable pages: 4 pages (4 written, 0 unchanged)"),
        "{out}"
    );
    ok(
        root,
        &[
            "publish",
            "src/alpha",
            "--out",
            "site",
            "--release",
            "1.1.0",
            "--base-url",
            "https://skills.example",
        ],
    );
    let site = root.join("site");
    let pages = pages(&site);
    let names = ["9lives", "alpha", "beta"];
    assert_eq!(pages.len(), names.len() + 1, "{:?}", pages.keys());
    let index = &pages[Path::new("index.html")];
    for name in names {
        assert!(index.contains(&format!("<a href=\"{name}/index.html\">{name}</a>")));
        let page = &pages[&Path::new(name).join("index.html")];
        assert!(page.contains(&format!("skb add https://skills.example --skill {name}")));
        assert!(page.contains(&format!(
            "npx skills add https://skills.example --skill {name}"
        )));
        assert!(page.contains("None: this skill was not published from a plugin"));
        assert!(page.contains("skills-scan "), "{page}");
    }
    // Both versions of alpha, the newest first and unsigned; beta signed.
    let alpha = &pages[Path::new("alpha/index.html")];
    let (v11, v10) = (
        alpha.find(">1.1.0<").unwrap(),
        alpha.find(">1.0.0<").unwrap(),
    );
    assert!(v11 < v10, "{alpha}");
    assert!(alpha.contains("nobody: the newest version is unsigned"));
    let key = std::fs::read_to_string(root.join("k.pub")).unwrap();
    let key_id = key.lines().next().unwrap().rsplit(' ').next().unwrap();
    let beta = &pages[Path::new("beta/index.html")];
    assert!(
        beta.contains(&format!("key <code>{key_id}</code>")),
        "{key_id}\n{beta}"
    );
    assert!(beta.contains("<code>scripts/run.sh</code>"));
    // Every link is a file of the site (or an anchor of the page).
    let wk = site.join(WELL_KNOWN);
    for (rel, html) in &pages {
        for href in hrefs(html) {
            if let Some(anchor) = href.strip_prefix('#') {
                assert!(
                    html.contains(&format!("id=\"{anchor}\"")),
                    "{rel:?}: {href}"
                );
                continue;
            }
            let target = wk.join(rel).parent().unwrap().join(href);
            assert!(target.is_file(), "{rel:?} links {href}: no such file");
        }
    }
}

#[test]
fn the_same_input_gives_the_same_bytes_and_no_html_writes_none() {
    let tmp = tempdir();
    let root = tmp.path();
    skill(
        root,
        "src/alpha",
        "alpha",
        "Alpha does things. Use it for things.",
    );
    let args = ["publish", "src", "--out", "site", "--release", "1.0.0"];
    ok(root, &args);
    let first = pages(&root.join("site"));
    let out = ok(root, &args);
    assert!(out.contains("(0 written, 2 unchanged)"), "{out}");
    assert_eq!(pages(&root.join("site")), first);
    // A copy published elsewhere: the same bytes.
    ok(
        root,
        &["publish", "src", "--out", "other", "--release", "1.0.0"],
    );
    assert_eq!(pages(&root.join("other")), first);
    ok(
        root,
        &[
            "publish",
            "src",
            "--out",
            "bare",
            "--release",
            "1.0.0",
            "--no-html",
        ],
    );
    assert!(pages(&root.join("bare")).is_empty());
    assert!(
        root.join("bare")
            .join(WELL_KNOWN)
            .join("index.json")
            .is_file()
    );
}

#[test]
fn a_hostile_description_and_file_name_are_inert_text() {
    let tmp = tempdir();
    let root = tmp.path();
    let md = "---\nname: evil\ndescription: '<script>alert(1)</script> \"x\" ''y'' \
              javascript:alert(2) <img src=x onerror=alert(3)> Use it never.'\n---\nBody.\n";
    write_tree(
        &root.join("src/evil"),
        &[("SKILL.md", md.as_bytes()), ("<b>\"q\".md", b"x\n")],
    );
    ok(
        root,
        &["publish", "src", "--out", "site", "--release", "1.0.0"],
    );
    for (rel, html) in pages(&root.join("site")) {
        assert!(!html.contains("<script>alert"), "{rel:?}");
        assert!(!html.contains("<img"), "{rel:?}");
        assert!(!html.contains("<b>"), "{rel:?}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &quot;x&quot; &#39;y&#39;"));
        assert!(
            hrefs(&html).iter().all(|h| !h.contains(':')),
            "{rel:?}: {html}"
        );
        // The only script is the index page's own, allowed by hash.
        let scripts = html.matches("<script>").count();
        assert_eq!(
            scripts,
            usize::from(rel == Path::new("index.html")),
            "{rel:?}"
        );
        assert!(html.contains("http-equiv=\"Content-Security-Policy\""));
    }
}

#[test]
fn a_marketplace_plugin_gets_its_plugin_install_line() {
    let tmp = tempdir();
    let root = tmp.path();
    write_tree(
        &root.join("market/.claude-plugin"),
        &[(
            "marketplace.json",
            br#"{"name": "acme", "owner": {"name": "Acme"}, "plugins": [{"name": "tools", "source": "./plugins/tools"}]}"#,
        )],
    );
    write_tree(
        &root.join("market/plugins/tools/.claude-plugin"),
        &[("plugin.json", br#"{"name": "tools"}"#)],
    );
    skill(
        root,
        "market/plugins/tools/skills/alpha",
        "alpha",
        "Alpha does things. Use it for things.",
    );
    skill(
        root,
        "loose/beta",
        "beta",
        "Beta does other things. Use it for those.",
    );
    ok(
        root,
        &[
            "publish",
            "market",
            "loose",
            "--out",
            "site",
            "--release",
            "1.0.0",
        ],
    );
    let pages = pages(&root.join("site"));
    let alpha = &pages[Path::new("alpha/index.html")];
    assert!(alpha.contains("/plugin install tools@acme"), "{alpha}");
    assert!(alpha.contains("skb add SITE --skill alpha"));
    let beta = &pages[Path::new("beta/index.html")];
    assert!(beta.contains("None: this skill was not published from a plugin"));
}

/// The corpus's pages in headless Chromium with axe-core
/// (`tests/html/browser_test.py`): screenshots into `$SKILLS_HTML_SHOTS` (default: `skills-html-shots` in the
/// temporary folder).
#[skills_tests::acceptance(
    "needs chromium, chromium-driver, selenium (SKILLS_BROWSER_PYTHON) and axe-core (SKILLS_AXE_JS)"
)]
#[test]
fn the_corpus_pages_pass_axe_core_in_chromium() {
    let python = std::env::var_os("SKILLS_BROWSER_PYTHON").unwrap_or_else(|| {
        panic!(
            "SKILLS_BROWSER_PYTHON is not set: a venv with selenium (the pinned pip line is in \
             .ci/run), and Debian's chromium and chromium-driver"
        )
    });
    let axe = std::env::var_os("SKILLS_AXE_JS")
        .unwrap_or_else(|| panic!("SKILLS_AXE_JS is not set: npm's axe-core's axe.min.js"));
    let root = workspace();
    let shots = std::env::var_os("SKILLS_HTML_SHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("skills-html-shots"));
    let mut cmd = Command::new(python);
    cmd.arg(root.join("tests/html/browser_test.py"))
        .arg(crate::skills_bin())
        .arg(axe)
        .arg(&shots);
    let collections = skills_tests::tier::shared_path("corpus/collections");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&collections)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    cmd.args(&dirs);
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    print!("{text}");
    assert!(out.status.success(), "{text}");
    assert!(text.contains(": 0 violations on "), "{text}");
    assert!(text.contains("browser checks passed"), "{text}");
}

/// A signed version published again is left as it is (its signature kept:
/// signing is hedged, so signing the same bytes again gives new bytes),
/// while other content, another key, or a signature the key did not make
/// is still refused as a change of a published version.
#[test]
fn a_signed_version_published_again_keeps_its_signature() {
    let tmp = tempdir();
    let root = tmp.path();
    skill(
        root,
        "src/alpha",
        "alpha",
        "Alpha does things. Use it for things.",
    );
    ok(root, &["keygen", "-W", "-p", "k.pub", "-s", "k.key"]);
    ok(root, &["keygen", "-W", "-p", "k2.pub", "-s", "k2.key"]);
    let publish = |key: &str| {
        run(
            root,
            &[
                "publish",
                "src",
                "--out",
                "site",
                "--release",
                "1.0.0",
                "--sign",
                key,
            ],
        )
    };
    let out = publish("k.key");
    assert!(out.status.success(), "{out:?}");
    let sig = root.join("site/.well-known/agent-skills/alpha/1.0.0/alpha.zip.minisig");
    let first = std::fs::read(&sig).unwrap();
    let again = publish("k.key");
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{again:?}");
    assert!(said.contains("(0 written,"), "{said}");
    assert_eq!(std::fs::read(&sig).unwrap(), first);
    // Another key's signature of the same bytes is another publication.
    let other = publish("k2.key");
    assert!(!other.status.success());
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("already published with other content"),
        "{other:?}"
    );
    // A signature planted in the folder is neither kept nor replaced.
    let planted = root.join("planted.minisig");
    let out = run(
        root,
        &[
            "publish",
            "src",
            "--out",
            "other-site",
            "--release",
            "1.0.0",
            "--sign",
            "k2.key",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    std::fs::copy(
        root.join("other-site/.well-known/agent-skills/alpha/1.0.0/alpha.zip.minisig"),
        &planted,
    )
    .unwrap();
    std::fs::copy(&planted, &sig).unwrap();
    let out = publish("k.key");
    assert!(!out.status.success(), "{out:?}");
    assert_eq!(
        std::fs::read(&sig).unwrap(),
        std::fs::read(&planted).unwrap()
    );
    // Other content under the same version is refused, signed or not.
    std::fs::write(&sig, &first).unwrap();
    skill(
        root,
        "src/alpha",
        "alpha",
        "Alpha does other things now. Use it for them.",
    );
    let out = publish("k.key");
    assert!(!out.status.success(), "{out:?}");
}
