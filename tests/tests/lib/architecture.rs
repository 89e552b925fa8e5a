//! ARCHITECTURE.md answers "where is …?" in one hop, so every file and
//! folder it names must exist: a move that forgets the map fails here.

use std::path::Path;

/// The spans in backquotes that name a path of the workspace: a folder or
/// a file (`skills-core/src/lock/read.rs`, `shell/`, `ctx.rs`), with no
/// placeholder, wildcard or space (not `<client>.rs` or `Bash(git:*)`).
fn named_paths(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            let file = [".rs", ".py", ".sh", ".md"]
                .iter()
                .any(|e| span.ends_with(e));
            (span.contains('/') || file)
                && span.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.')
                && !span.contains(['<', '*', ' ', '(', ':', '$', '~', '{'])
                // The skill format's file, not one of the workspace.
                && *span != "SKILL.md"
        })
        .collect()
}

#[test]
fn every_path_architecture_md_names_exists() {
    let root = skills_tests::workspace();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let paths = named_paths(&text);
    assert!(paths.len() > 40, "too few paths found: {paths:?}");
    // A path is the workspace's, or a crate's (a paragraph about a crate
    // names its files from its `src/`): it must exist under the root or
    // under one crate's `src/`.
    let crates: Vec<_> = std::fs::read_dir(&root)
        .expect("workspace")
        .filter_map(Result::ok)
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    let missing: Vec<&str> = paths
        .iter()
        .copied()
        .filter(|p| {
            let p = Path::new(p.trim_end_matches('/'));
            !root.join(p).exists() && !crates.iter().any(|c| c.join(p).exists())
        })
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn paths_are_told_from_code() {
    assert_eq!(
        named_paths(
            "see `skills-core/src/lock/read.rs` and `Bash(git:*)`, `<client>.rs`, `shell/`, `//!`, `ctx.rs`"
        ),
        ["skills-core/src/lock/read.rs", "shell/", "ctx.rs"]
    );
}
