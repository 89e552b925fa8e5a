//! `skills_mcp`: the MCP server in process, driven by rmcp's own client
//! over a duplex pipe.
//!
//! * Tools, resources, the template, prompts, the skills extension and
//!   every error path, for `skills/` ([`skills_tests::mcp::exercise`], which
//!   the CLI tests run against `skills serve` too).
//! * The skills extension's entries pass rmcp's `validate_skills` for
//!   `skills/` and for the whole shared corpus (packed with profile
//!   `claude-code`), and the corpus's listings fit one page.
//! * A timeout past the maximum answered as a tool error.
//!
//! The bundles are packs made by the compiler's library, as `skills pack`
//! makes them; the binary itself (`skills serve` over stdio and HTTP) is
//! tested by `skills-cli`'s test binary (`tests/cli/mcp.rs`).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};

use rmcp::model::{
    GetPromptRequestParams, ListResourcesResult, ListSkillsResult, ReadResourceRequestParams,
    validate_skills,
};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::json;
use skills_bundle::exec::LocalExecutor;
use skills_bundle::pack::Trust;
use skills_bundle::zip::write::DosTime;
use skills_bundle::{Bundle, Mode};
use skills_compiler::pack::write_pack;
use skills_compiler::{Options, Profile, embed};
use skills_mcp::{SkillsServer, extension};
use skills_tests::mcp::{Client, args, call, exercise};
use skills_tests::{corpus_roots, tempdir, workspace};

/// The skills under `roots`, checked under `profile` and packed as `skills
/// pack` packs them (the compiler's plan, written as a pack), then opened.
fn packed(roots: &[PathBuf], profile: Profile) -> Bundle {
    let options = Options {
        profile,
        ..Options::default()
    };
    let checked = skills_compiler::check(roots, &options);
    let errors: Vec<_> = checked.diagnostics().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let plan = embed::plan(&checked, roots, &[]).unwrap();
    let bytes = write_pack(&plan, DosTime::EPOCH).unwrap();
    Bundle::from_pack(&bytes, Trust::Unsigned).unwrap()
}

fn example_bundle() -> Bundle {
    packed(&[workspace().join("skills")], Profile::Spec)
}

/// A server for `bundle` on one end of a pipe, rmcp's client on the other.
async fn connect(bundle: &Bundle, cache: &Path) -> Client {
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let server = SkillsServer::new(bundle, LocalExecutor::new(cache), Mode::Restrict);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_the_example_skills_in_process() {
    let dir = tempdir();
    let bundle = example_bundle();
    let client = connect(&bundle, &dir.path().join("cache")).await;
    exercise(&client, &bundle).await;
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plugin_skills_are_two_uri_segments() {
    let dir = tempdir();
    let plugin = dir.path().join("plug");
    skills_tests::write_tree(
        &plugin,
        &[
            (
                ".claude-plugin/plugin.json",
                br#"{"name": "plug"}"#.as_slice(),
            ),
            (
                "skills/greet/SKILL.md",
                b"---\nname: greet\ndescription: Greets. Use to greet.\n---\n\nSay hello to $ARGUMENTS.\n",
            ),
            (
                "skills/quiet/SKILL.md",
                b"---\nname: quiet\ndescription: Model only. Use when asked.\nuser-invocable: false\n---\n\nBody.\n",
            ),
        ],
    );
    let bundle = packed(&[plugin], Profile::ClaudeCode);
    assert!(bundle.get("plug:greet").is_some());
    let client = connect(&bundle, &dir.path().join("cache")).await;
    let listed = client.list_all_skills().await.unwrap();
    validate_skills(&listed).unwrap();
    assert!(
        listed
            .iter()
            .any(|s| s.uri == "skill://plug/greet/SKILL.md")
    );
    for uri in ["skill://plug/greet/SKILL.md", "skill://plug:greet/SKILL.md"] {
        let read = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap();
        assert_eq!(read.contents.len(), 1, "{uri}");
    }
    let prompts = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["plug:greet"], "user-invocable: false is no prompt");
    let prompt = client
        .get_prompt(
            GetPromptRequestParams::new("plug:greet")
                .with_arguments(args(json!({"arguments": "Ada"}))),
        )
        .await
        .unwrap();
    assert!(
        serde_json::to_string(&prompt)
            .unwrap()
            .contains("Say hello to Ada.")
    );
    client.cancel().await.unwrap();
}

#[test]
fn every_skill_of_the_corpus_passes_rmcp_validation() {
    let dir = tempdir();
    for (label, bundle) in [
        ("skills/", example_bundle()),
        ("corpus", packed(&corpus_roots(), Profile::ClaudeCode)),
    ] {
        let listed = extension::list(&bundle);
        for skill in &listed {
            skill
                .validate()
                .unwrap_or_else(|e| panic!("{label}: {}: {e}", skill.uri));
        }
        validate_skills(&listed).unwrap();
        assert_eq!(listed.len(), bundle.len(), "{label}: every skill listed");
        // The listings go out in one page each: well under rmcp's 16 MiB line.
        let server = SkillsServer::new(&bundle, LocalExecutor::new(dir.path()), Mode::Restrict);
        // The files of the skills offered to the model (not those reserved
        // for the user, nor `paths`-scoped ones no path brought in).
        let offered: Vec<bool> = bundle
            .skills()
            .map(|s| {
                let i = s.invocation();
                i.model && i.paths.is_empty()
            })
            .collect();
        let resources = skills_mcp::resources::list(&bundle, &offered);
        let files: usize = bundle
            .skills()
            .zip(&offered)
            .filter(|(_, o)| **o)
            .map(|(s, _)| s.files().len())
            .sum();
        assert_eq!(resources.len(), files);
        let sizes = [
            serde_json::to_string(&ListResourcesResult::with_all_items(resources))
                .unwrap()
                .len(),
            serde_json::to_string(&ListSkillsResult::with_all_items(listed))
                .unwrap()
                .len(),
            server.get_info().instructions.unwrap_or_default().len(),
        ];
        eprintln!(
            "{label}: {} skills, {files} files; resources/list {} bytes, skills/list {} bytes, instructions {} bytes",
            bundle.len(),
            sizes[0],
            sizes[1],
            sizes[2]
        );
        assert!(sizes.iter().all(|&n| n < 8 << 20), "{sizes:?}");
    }
}

/// A timeout the clock cannot add panicked a worker thread of `skills
/// serve`, and the call never got an answer: now the call is a tool error
/// naming the maximum, and the server answers the next one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_past_the_maximum_is_a_tool_error() {
    let dir = tempdir();
    let bundle = example_bundle();
    let (server_end, client_end) = tokio::io::duplex(1 << 16);
    let mut executor = LocalExecutor::new(dir.path().join("cache"));
    executor.timeout = std::time::Duration::MAX;
    let server = SkillsServer::new(&bundle, executor, Mode::Restrict);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let client: Client = ().serve(client_end).await.unwrap();
    let (error, text) = call(&client, "activate_skill", json!({"name": "calculator"})).await;
    assert!(!error, "{text}");
    let run = json!({"skill": "calculator", "command": "python3 scripts/calc.py '1 + 1'"});
    let (error, text) = call(&client, "run_skill_script", run).await;
    assert!(error);
    assert_eq!(
        text,
        "the timeout 18446744073709551615.999999999s is over the maximum of 604800 s (7 days); set at most that"
    );
    let (error, _) = call(
        &client,
        "read_skill_resource",
        json!({"skill": "calculator", "path": "SKILL.md"}),
    )
    .await;
    assert!(!error, "the server answers after the refusal");
    client.cancel().await.unwrap();
}
