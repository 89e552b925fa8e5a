//! Tests of discovery.

use super::*;
use std::fs;
use std::io;
use std::path::Path;

use super::listing::MAX_MANIFEST_BYTES;
use crate::diag::{Code, Diagnostic};
use crate::render::thousands;
use std::io::Write;

type Result = std::result::Result<(), Box<dyn std::error::Error>>;

fn write(path: &Path, text: &str) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::File::create(path)?.write_all(text.as_bytes())
}

fn skill(dir: &Path) -> io::Result<()> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    write(
        &dir.join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: d\n---\n"),
    )
}

fn run(root: &Path) -> (Vec<FoundSkill>, Vec<Diagnostic>) {
    run_with(root, &DiscoveryOptions::default())
}

fn run_with(root: &Path, opts: &DiscoveryOptions) -> (Vec<FoundSkill>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let found = discover(root, opts, &mut diags);
    (found, diags)
}

/// Skill directories relative to `root`, with `plugin:` prefixes.
fn names(root: &Path, found: &[FoundSkill]) -> Vec<String> {
    found
        .iter()
        .map(|f| {
            let rel = f
                .dir
                .strip_prefix(root)
                .unwrap_or(&f.dir)
                .to_string_lossy()
                .replace('\\', "/");
            match &f.plugin {
                Some(p) => format!("{p}:{rel}"),
                None => rel,
            }
        })
        .collect()
}

fn codes(diags: &[Diagnostic]) -> Vec<Code> {
    diags.iter().map(|d| d.code).collect()
}

#[test]
fn missing_path_is_an_error_with_the_reference_text() {
    let (found, diags) = run(Path::new("/no/such/dir/anywhere"));
    assert!(found.is_empty());
    assert_eq!(codes(&diags), [Code::PathNotFound]);
    assert_eq!(
        diags[0].message,
        "path `/no/such/dir/anywhere` does not exist"
    );
    assert_eq!(
        diags[0].reference.as_deref(),
        Some("Path does not exist: /no/such/dir/anywhere")
    );
    assert!(diags[0].is_error());
}

#[test]
fn skill_md_given_as_a_file_means_its_directory() -> Result {
    let tmp = tempfile::tempdir()?;
    skill(&tmp.path().join("foo"))?;
    write(&tmp.path().join("bar/skill.md"), "x")?;
    write(&tmp.path().join("bar/notes.txt"), "x")?;
    let (found, diags) = run(&tmp.path().join("foo/SKILL.md"));
    assert!(diags.is_empty());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].dir, tmp.path().join("foo"));
    assert_eq!(found[0].root, tmp.path().join("foo/SKILL.md"));
    let (found, _) = run(&tmp.path().join("bar/skill.md"));
    assert_eq!(found[0].dir, tmp.path().join("bar"));
    let (found, diags) = run(&tmp.path().join("bar/notes.txt"));
    assert!(found.is_empty());
    assert_eq!(codes(&diags), [Code::NotADirectory]);
    let shown = tmp.path().join("bar/notes.txt");
    assert_eq!(
        diags[0].reference,
        Some(format!("Not a directory: {}", shown.display()))
    );
    Ok(())
}

#[test]
fn a_skill_directory_is_one_skill_and_not_descended() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("my-skill");
    skill(&root)?;
    skill(&root.join("nested"))?;
    let (found, diags) = run(&root);
    assert!(diags.is_empty());
    assert_eq!(names(&root, &found), [""]);
    Ok(())
}

#[test]
fn lowercase_skill_md_counts() -> Result {
    let tmp = tempfile::tempdir()?;
    write(&tmp.path().join("a/skill.md"), "x")?;
    fs::create_dir_all(tmp.path().join("b/SKILL.md"))?; // a directory: the parser reports it
    let (found, _) = run(tmp.path());
    assert_eq!(names(tmp.path(), &found), ["a", "b"]);
    Ok(())
}

#[test]
fn walk_is_sorted_skips_hidden_and_build_dirs() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    for d in [
        "b/two",
        "a/one",
        "a-x",
        "group/inner/three",
        ".hidden/s",
        "node_modules/s",
        "__pycache__/s",
        "target/s",
    ] {
        skill(&root.join(d))?;
    }
    let (found, diags) = run(root);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        names(root, &found),
        ["a/one", "a-x", "b/two", "group/inner/three"]
    );
    assert!(found.iter().all(|f| f.root == root));
    Ok(())
}

#[test]
fn a_hidden_root_is_walked() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join(".claude/skills");
    skill(&root.join("x"))?;
    let (found, _) = run(&root);
    assert_eq!(names(&root, &found), ["x"]);
    Ok(())
}

#[test]
fn empty_directory_root_is_returned_itself() -> Result {
    let tmp = tempfile::tempdir()?;
    write(&tmp.path().join("docs/readme.md"), "x")?;
    let (found, diags) = run(tmp.path());
    assert!(diags.is_empty());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].dir, tmp.path());
    Ok(())
}

#[test]
fn depth_limit_warns_once() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    skill(&root.join("1/2/shallow"))?;
    skill(&root.join("1/2/3/deep"))?;
    skill(&root.join("x/2/3/deep"))?;
    let opts = DiscoveryOptions {
        max_depth: 3,
        ..DiscoveryOptions::default()
    };
    let (found, diags) = run_with(root, &opts);
    assert_eq!(names(root, &found), ["1/2/shallow"]);
    assert_eq!(codes(&diags), [Code::DiscoveryLimit]);
    assert!(
        diags[0].message.contains("3 levels"),
        "{}",
        diags[0].message
    );
    assert!(
        diags[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("--max-depth"))
    );
    Ok(())
}

#[test]
fn directory_limit_stops_the_walk() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    for d in ["a/s", "b/s", "c/s", "d/s"] {
        skill(&root.join(d))?;
    }
    // root, a, a/s, b, b/s = 5 directories read.
    let opts = DiscoveryOptions {
        max_dirs: 5,
        ..DiscoveryOptions::default()
    };
    let (found, diags) = run_with(root, &opts);
    assert_eq!(names(root, &found), ["a/s", "b/s"]);
    assert_eq!(codes(&diags), [Code::DiscoveryLimit]);
    assert!(diags[0].message.contains("5 directories"));
    Ok(())
}

#[test]
fn plugin_with_string_skills_supplements_default() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("my-plugin");
    write(
        &root.join(".claude-plugin/plugin.json"),
        r#"{"name": "tools", "skills": "./extra"}"#,
    )?;
    skill(&root.join("skills/b"))?;
    skill(&root.join("skills/a"))?;
    skill(&root.join("extra/c"))?;
    skill(&root.join("other/ignored"))?;
    let (found, diags) = run(&root);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        names(&root, &found),
        ["tools:skills/a", "tools:skills/b", "tools:extra/c"]
    );
    Ok(())
}

#[test]
fn plugin_with_array_skills_and_direct_skill_paths() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("p");
    write(
        &root.join(".claude-plugin/plugin.json"),
        r#"{"skills": ["./core/one", "./more/", "./skills/a", "./core/two/SKILL.md"]}"#,
    )?;
    skill(&root.join("core/one"))?;
    skill(&root.join("core/two"))?;
    skill(&root.join("more/x"))?;
    fs::create_dir_all(root.join("more/no-skill-md"))?;
    skill(&root.join("skills/a"))?;
    let (found, diags) = run(&root);
    assert!(diags.is_empty(), "{diags:?}");
    // No `name`: the directory's name. `skills/a` is found once.
    assert_eq!(
        names(&root, &found),
        [
            "p:skills/a",
            "p:core/one",
            "p:more/no-skill-md",
            "p:more/x",
            "p:core/two"
        ]
    );
    Ok(())
}

#[test]
fn plugin_skill_paths_must_stay_inside() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("p");
    write(
        &root.join(".claude-plugin/plugin.json"),
        "{\"name\": \"p\",\n \"skills\": [\"../outside\", \"/abs\", \"./missing\", 7]}",
    )?;
    skill(&tmp.path().join("outside"))?;
    skill(&root.join("skills/a"))?;
    let (found, diags) = run(&root);
    assert_eq!(names(&root, &found), ["p:skills/a"]);
    assert_eq!(codes(&diags), [Code::BadManifest; 4]);
    // The non-string entry is reported first (while reading the field).
    assert!(diags[0].message.contains("not a number"));
    assert!(diags[1].message.contains("`..`"));
    assert!(diags[2].message.contains("absolute"));
    assert!(diags[3].message.contains("does not exist"));
    let label = diags[1]
        .label
        .as_ref()
        .map(|l| (l.start.line, l.start.column));
    assert_eq!(label, Some((2, 13)));
    Ok(())
}

#[test]
fn single_skill_plugin_at_its_root() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("solo");
    write(
        &root.join(".claude-plugin/plugin.json"),
        r#"{"name": "solo"}"#,
    )?;
    skill(&root)?;
    let (found, diags) = run(&root);
    assert!(diags.is_empty());
    assert_eq!(names(&root, &found), ["solo:"]);
    Ok(())
}

#[test]
fn malformed_plugin_json_falls_back_to_defaults() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("broken");
    write(
        &root.join(".claude-plugin/plugin.json"),
        "{\n  \"name\": \"x\",\n  \"skills\": [1,]\n}",
    )?;
    skill(&root.join("skills/a"))?;
    let (found, diags) = run(&root);
    assert_eq!(names(&root, &found), ["broken:skills/a"]);
    assert_eq!(codes(&diags), [Code::BadManifest]);
    assert!(
        diags[0].message.contains("not valid JSON"),
        "{}",
        diags[0].message
    );
    let label = diags[0]
        .label
        .as_ref()
        .map(|l| (l.start.line, l.start.column, l.line_text.clone()));
    assert_eq!(label, Some((3, 16, "  \"skills\": [1,]".to_owned())));
    Ok(())
}

#[test]
fn wrong_types_in_plugin_json_are_reported() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("typed");
    write(
        &root.join(".claude-plugin/plugin.json"),
        r#"{"name": 3, "skills": {"a": 1}}"#,
    )?;
    skill(&root.join("skills/a"))?;
    let (found, diags) = run(&root);
    assert_eq!(names(&root, &found), ["typed:skills/a"]);
    assert_eq!(codes(&diags), [Code::BadManifest, Code::BadManifest]);
    let (found, diags) = {
        write(&root.join(".claude-plugin/plugin.json"), "[]")?;
        run(&root)
    };
    assert_eq!(names(&root, &found), ["typed:skills/a"]);
    assert_eq!(codes(&diags), [Code::BadManifest]);
    Ok(())
}

#[test]
fn nested_plugins_are_found_by_the_walk() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    write(
        &root.join("plugins/alpha/.claude-plugin/plugin.json"),
        r#"{"name": "alpha"}"#,
    )?;
    skill(&root.join("plugins/alpha/skills/s1"))?;
    skill(&root.join("plugins/alpha/agents/not-a-skill-path"))?;
    skill(&root.join("standalone"))?;
    // A nested marketplace means nothing below the root.
    write(
        &root.join("sub/.claude-plugin/marketplace.json"),
        r#"{"plugins": []}"#,
    )?;
    skill(&root.join("sub/s2"))?;
    let (found, diags) = run(root);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        names(root, &found),
        ["alpha:plugins/alpha/skills/s1", "standalone", "sub/s2"]
    );
    Ok(())
}

#[test]
fn marketplace_with_local_and_remote_sources() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    write(
        &root.join(".claude-plugin/marketplace.json"),
        r#"{
  "name": "m", "owner": {"name": "o"},
  "metadata": {"pluginRoot": "./plugins"},
  "plugins": [
    {"name": "one", "source": "./plugins/one"},
    {"name": "remote", "source": {"source": "github", "repo": "a/b"}},
    {"name": "two", "source": "two", "skills": ["./extra"]},
    {"name": "gone", "source": "./plugins/gone"},
    {"name": "up", "source": "../elsewhere"}
  ]
}"#,
    )?;
    write(
        &root.join("plugins/one/.claude-plugin/plugin.json"),
        r#"{"name": "ignored-name"}"#,
    )?;
    skill(&root.join("plugins/one/skills/a"))?;
    skill(&root.join("plugins/two/skills/b"))?;
    skill(&root.join("plugins/two/extra/c"))?;
    skill(&root.join("not-listed"))?;
    let (found, diags) = run(root);
    assert_eq!(
        names(root, &found),
        [
            "one:plugins/one/skills/a",
            "two:plugins/two/skills/b",
            "two:plugins/two/extra/c",
            // Not in the marketplace, found by the walk after it.
            "not-listed"
        ]
    );
    assert_eq!(codes(&diags), [Code::BadManifest, Code::BadManifest]);
    assert!(
        diags[0].message.contains("`./plugins/gone` does not exist"),
        "{}",
        diags[0].message
    );
    assert!(diags[1].message.contains("`..`"));
    Ok(())
}

#[test]
fn marketplace_at_root_with_skills_lists_replaces_default() -> Result {
    // The shape of anthropics/skills: several plugins share source `./`.
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    write(
        &root.join(".claude-plugin/marketplace.json"),
        r#"{"plugins": [
                {"name": "docs", "source": "./", "strict": false, "skills": ["./skills/pdf"]},
                {"name": "examples", "source": "./", "strict": false, "skills": ["./skills/art", "./skills/pdf"]}
            ]}"#,
    )?;
    for s in ["art", "pdf", "unlisted"] {
        skill(&root.join("skills").join(s))?;
    }
    let (found, diags) = run(root);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        names(root, &found),
        ["docs:skills/pdf", "examples:skills/art", "skills/unlisted"]
    );
    Ok(())
}

#[test]
fn marketplace_root_plugin_without_skills_uses_plugin_json() -> Result {
    // The shape of obra/superpowers.
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    write(
        &root.join(".claude-plugin/marketplace.json"),
        r#"{"plugins": [{"name": "sp", "source": "./"}]}"#,
    )?;
    write(
        &root.join(".claude-plugin/plugin.json"),
        r#"{"name": "superpowers"}"#,
    )?;
    skill(&root.join("skills/tdd"))?;
    let (found, diags) = run(root);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(names(root, &found), ["sp:skills/tdd"]);
    Ok(())
}

#[test]
fn unusable_marketplace_falls_back_to_the_walk() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    write(
        &root.join(".claude-plugin/marketplace.json"),
        r#"{"plugins": "nope"}"#,
    )?;
    skill(&root.join("a"))?;
    let (found, diags) = run(root);
    assert_eq!(names(root, &found), ["a"]);
    assert_eq!(codes(&diags), [Code::BadManifest]);
    write(&root.join(".claude-plugin/marketplace.json"), "")?;
    let (found, diags) = run(root);
    assert_eq!(names(root, &found), ["a"]);
    assert_eq!(codes(&diags), [Code::BadManifest]);
    Ok(())
}

#[test]
fn oversized_manifest_is_refused() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("big");
    let mut text = String::from("{\"name\": \"big\", \"x\": \"");
    text.push_str(&"a".repeat((MAX_MANIFEST_BYTES as usize) + 10));
    text.push_str("\"}");
    write(&root.join(".claude-plugin/plugin.json"), &text)?;
    skill(&root.join("skills/a"))?;
    let (found, diags) = run(&root);
    assert_eq!(names(&root, &found), ["big:skills/a"]);
    assert_eq!(codes(&diags), [Code::BadManifest]);
    assert!(diags[0].message.contains("1 MiB"));
    Ok(())
}

#[cfg(unix)]
#[test]
fn a_fifo_manifest_is_refused_without_blocking() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("p");
    skill(&root.join("skills/a"))?;
    fs::create_dir_all(root.join(".claude-plugin"))?;
    let fifo = root.join(".claude-plugin/plugin.json");
    if !std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        return Ok(());
    }
    let (found, diags) = run(&root);
    assert_eq!(names(&root, &found), ["p:skills/a"]);
    assert_eq!(codes(&diags), [Code::BadManifest]);
    assert_eq!(
        diags[0].message,
        format!(
            "cannot read `{}`: it is a fifo, not a regular file; it was ignored",
            fifo.display()
        )
    );
    Ok(())
}

#[cfg(unix)]
#[test]
fn symlinks_inside_are_followed_outside_and_cycles_are_not() -> Result {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir()?;
    let root = tmp.path().join("root");
    skill(&tmp.path().join("outside/escaped"))?;
    skill(&root.join("real/inner"))?;
    symlink(tmp.path().join("outside"), root.join("a-escape"))?;
    symlink(root.join("real"), root.join("b-inside"))?;
    symlink(&root, root.join("real/c-loop"))?;
    symlink(root.join("nowhere"), root.join("d-dangling"))?;
    let (found, diags) = run(&root);
    // `b-inside` reaches `real/inner` first; `real` is then skipped silently.
    assert_eq!(names(&root, &found), ["b-inside/inner"]);
    assert_eq!(
        codes(&diags),
        [Code::SymlinkEscape, Code::SymlinkCycle, Code::Io]
    );
    assert!(diags[0].message.contains("a-escape"));
    assert!(diags[0].message.contains("outside"));
    Ok(())
}

#[cfg(unix)]
#[test]
fn a_symlinked_root_is_followed() -> Result {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir()?;
    skill(&tmp.path().join("real/s"))?;
    symlink(tmp.path().join("real"), tmp.path().join("link"))?;
    let root = tmp.path().join("link");
    let (found, diags) = run(&root);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].dir, root.join("s"));
    Ok(())
}

#[test]
fn thousands_separators() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1000), "1,000");
    assert_eq!(thousands(10_000_000), "10,000,000");
}

#[test]
fn a_directory_read_as_a_project_is_never_walked() -> Result {
    let tmp = tempfile::tempdir()?;
    let root = tmp.path();
    fs::create_dir(root.join(".git"))?;
    // A tree of skills no client reads from here (fixtures, say) ...
    skill(&root.join("tests/fixtures/stray"))?;
    let walked = DiscoveryOptions::default();
    let project = DiscoveryOptions {
        as_project: true,
        ..DiscoveryOptions::default()
    };
    assert_eq!(
        names(root, &run_with(root, &walked).0),
        ["tests/fixtures/stray"]
    );
    // ... is not what a client started here lists: nothing, said so.
    let (found, diags) = run_with(root, &project);
    assert!(found.is_empty(), "{:?}", names(root, &found));
    assert_eq!(codes(&diags), [Code::MissingSkillMd]);
    // A client started in a subdirectory reads the skills folders up to the
    // repository's root.
    skill(&root.join(".claude/skills/kept"))?;
    let sub = root.join("tests");
    let (found, _) = run_with(&sub, &project);
    assert_eq!(names(root, &found), [".claude/skills/kept"]);
    Ok(())
}
