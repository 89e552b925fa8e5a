//! What the runtime links, as GUIDE.md ("What an agent binary links", the
//! crate table) and the READMEs of `skills-bundle` and `skills-core`
//! promise it, read from Cargo's own dependency graph (`cargo tree
//! --offline --locked`, the host's graph, which the workspace's own build
//! has already fetched):
//!
//! - `skills-bundle` with its default features, the runtime side (`-e
//!   normal,no-proc-macro`): no YAML parser, no `syn`, no filesystem crate;
//! - `skills-bundle` with every feature (`tokio`, `openai` and the rest of
//!   the agent side), the runtime side: no YAML parser;
//! - `skills-bundle` without default features (no macro, packs at run
//!   time): not even the build (`-e normal,build`, proc macros included)
//!   sees a YAML parser or `syn`;
//! - `skills-core`, every feature: no YAML parser, no `syn`.
//!
//! `skills-bundle-mcp` promises nothing of the kind and is not checked.
//! With default features the build does compile YAML and `syn` (inside
//! `skills-macros`, a proc macro): that is the promise's "never into the
//! binary", which `no-proc-macro` draws.

use std::process::Command;

use skills_tests::workspace;

/// YAML parsers, as Cargo names the crates.
const YAML: &[&str] = &[
    "saphyr",
    "saphyr-parser",
    "yaml_serde",
    "libyaml",
    "libyaml-rs",
    "unsafe-libyaml",
    "serde_yaml",
    "serde_yml",
    "serde_yaml_ng",
    "serde_norway",
    "serde-saphyr",
    "yaml-rust",
    "yaml-rust2",
    "marked-yaml",
];

/// Rust's parser for proc macros.
const SYN: &[&str] = &["syn"];

/// Crates whose business is the file system.
const FILESYSTEM: &[&str] = &[
    "walkdir",
    "ignore",
    "glob",
    "globset",
    "same-file",
    "tempfile",
    "fs_extra",
    "fs-err",
    "cap-std",
    "notify",
    "jwalk",
];

/// The crates of `cargo tree -p <package> <args> --prefix none`, by name.
fn tree(package: &str, args: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--locked", "--prefix", "none", "-p"])
        .arg(package)
        .args(args)
        .current_dir(workspace())
        .output()
        .unwrap_or_else(|e| panic!("cannot run `cargo tree`: {e}"));
    assert!(
        out.status.success(),
        "`cargo tree -p {package} {}` failed:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    crate_names(&String::from_utf8_lossy(&out.stdout))
}

/// The crate names of `cargo tree --prefix none`'s lines (`name vX.Y.Z
/// (path) (*)`), sorted, each once.
fn crate_names(tree: &str) -> Vec<String> {
    let mut names: Vec<String> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(String::from)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The crates of `names` that are in `banned`.
fn found<'a>(names: &'a [String], banned: &[&str]) -> Vec<&'a str> {
    names
        .iter()
        .map(String::as_str)
        .filter(|n| banned.contains(n))
        .collect()
}

/// Asserts that the graph of `package` under `args` holds none of `banned`
/// (`what` names them in the failure), and that it is a real graph: it
/// holds `package` itself and `skills-core`.
fn assert_none(package: &str, args: &[&str], banned: &[&str], what: &str) {
    let names = tree(package, args);
    for expected in [package, "skills-core"] {
        assert!(
            names.iter().any(|n| n == expected),
            "`cargo tree -p {package} {}` lists no {expected}: {names:?}",
            args.join(" ")
        );
    }
    let found = found(&names, banned);
    assert!(
        found.is_empty(),
        "`cargo tree -p {package} {}` holds {what}: {found:?}",
        args.join(" ")
    );
}

#[test]
fn the_runtime_links_no_yaml_parser_no_syn_and_no_filesystem_crate() {
    let runtime = ["-e", "normal,no-proc-macro"];
    assert_none("skills-bundle", &runtime, YAML, "a YAML parser");
    assert_none("skills-bundle", &runtime, SYN, "`syn`");
    assert_none("skills-bundle", &runtime, FILESYSTEM, "a filesystem crate");
}

#[test]
fn the_agent_side_with_every_feature_links_no_yaml_parser() {
    let args = ["--all-features", "-e", "normal,no-proc-macro"];
    assert_none("skills-bundle", &args, YAML, "a YAML parser");
}

#[test]
fn without_the_macro_not_even_the_build_sees_yaml_or_syn() {
    let args = ["--no-default-features", "-e", "normal,build"];
    assert_none("skills-bundle", &args, YAML, "a YAML parser");
    assert_none("skills-bundle", &args, SYN, "`syn`");
}

#[test]
fn skills_core_links_no_yaml_parser_and_no_syn() {
    let args = ["--all-features", "-e", "normal"];
    assert_none("skills-core", &args, YAML, "a YAML parser");
    assert_none("skills-core", &args, SYN, "`syn`");
}

/// The check sees what it looks for: the build graph with the macro holds
/// the compiler's YAML parser and `syn`, and the reading of the lines finds
/// them.
#[test]
fn the_macros_build_is_seen_to_hold_yaml_and_syn() {
    let names = tree("skills-bundle", &["-e", "normal,build"]);
    assert_eq!(found(&names, &["saphyr-parser"]), ["saphyr-parser"]);
    assert_eq!(found(&names, SYN), ["syn"]);
    let lines = "skills-bundle v0.1.0 (/w/skills-bundle)\nsyn v2.0.1\nsaphyr-parser v0.0.6 (*)\n";
    assert_eq!(
        crate_names(lines),
        ["saphyr-parser", "skills-bundle", "syn"]
    );
}
