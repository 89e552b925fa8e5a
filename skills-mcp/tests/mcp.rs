//! `skills_bundle_mcp`: the MCP server in process, driven by rmcp's own client
//! over a duplex pipe.
//!
//! * Tools, resources, the template, prompts, the skills extension and
//!   every error path, for `skills/` ([`skills_tests::mcp::exercise`], which
//!   the CLI tests run against `skb serve` too).
//! * The skills extension's entries pass rmcp's `validate_skills` for
//!   `skills/` and for the whole shared corpus (packed with profile
//!   `claude-code`), and the corpus's listings fit one page.
//! * A timeout past the maximum answered as a tool error.
//! * Invocation control (`tests/fixtures/invocation-skills`): what the
//!   tools' `enum`, `resources/list` and the prompts offer; script runs
//!   without activation under their own skill's rules only; SEP-2640
//!   frontmatter with YAML types; `resources/directory/read`.
//! * SEP-2640 frontmatter verbatim (`tests/fixtures/sep-frontmatter`): the
//!   exact JSON from the directory compiled in, from its pack and over the
//!   wire; a pack written before the manifest carried it.
//!
//! The bundles are packs made by the compiler's library, as `skb pack`
//! makes them; the binary itself (`skb serve` over stdio and HTTP) is
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
use skills_bundle::{Bundle, Mode};
use skills_bundle_mcp::{SkillsServer, extension};
use skills_compiler::pack::write_pack;
use skills_compiler::{Options, Profile, embed};
use skills_core::zip::write::DosTime;
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
fn every_example_skill_passes_rmcp_validation() {
    passes_rmcp_validation("skills/", &example_bundle());
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn every_skill_of_the_corpus_passes_rmcp_validation() {
    passes_rmcp_validation("corpus", &packed(&corpus_roots(), Profile::ClaudeCode));
}

/// Every skill of `bundle` passes rmcp's validation, is listed, and the
/// listings fit in one page each.
fn passes_rmcp_validation(label: &str, bundle: &Bundle) {
    let dir = tempdir();
    let listed = extension::list(bundle);
    for skill in &listed {
        skill
            .validate()
            .unwrap_or_else(|e| panic!("{label}: {}: {e}", skill.uri));
    }
    validate_skills(&listed).unwrap();
    assert_eq!(listed.len(), bundle.len(), "{label}: every skill listed");
    // The listings go out in one page each: well under rmcp's 16 MiB line.
    let server = SkillsServer::new(bundle, LocalExecutor::new(dir.path()), Mode::Restrict);
    // The files of the skills offered to the model (not those reserved
    // for the user, nor `paths`-scoped ones no path brought in).
    let offered: Vec<bool> = bundle
        .skills()
        .map(|s| {
            let i = s.invocation();
            i.model && i.paths.is_empty()
        })
        .collect();
    let resources = skills_bundle_mcp::resources::list(bundle, &offered);
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

fn invocation_bundle() -> Bundle {
    packed(
        &[workspace().join("tests/fixtures/invocation-skills")],
        Profile::ClaudeCode,
    )
}

/// Invocation control over MCP: the tools' `enum` and `resources/list`
/// leave out the skill reserved for the user (and the `paths`-scoped one
/// no path brought in); its prompt stays, and invoking the prompt lets its
/// script run; `user-invocable: false` is no prompt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_offers_the_model_what_it_may_invoke_and_the_user_the_rest() {
    let dir = tempdir();
    let bundle = invocation_bundle();
    let client = connect(&bundle, &dir.path().join("cache")).await;
    let tools = client.list_all_tools().await.unwrap();
    for tool in &tools {
        let key = if tool.name == "activate_skill" {
            "name"
        } else {
            "skill"
        };
        assert_eq!(
            tool.input_schema["properties"][key]["enum"],
            json!(["model-only", "open"]),
            "{}",
            tool.name
        );
    }
    let resources = client.list_all_resources().await.unwrap();
    let skills: Vec<&str> = resources
        .iter()
        .map(|r| {
            r.uri
                .trim_start_matches("skill://")
                .split('/')
                .next()
                .unwrap()
        })
        .collect();
    assert!(
        skills.iter().all(|s| ["model-only", "open"].contains(s)),
        "{skills:?}"
    );
    // Every skill can still be read by URI.
    client
        .read_resource(ReadResourceRequestParams::new("skill://reserved/SKILL.md"))
        .await
        .unwrap();
    let prompts = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["codex-quiet", "open", "reserved", "scoped"]);
    let run = json!({"skill": "reserved", "command": "./scripts/deploy.sh prod"});
    let (error, text) = call(&client, "run_skill_script", run.clone()).await;
    assert!(error);
    assert!(
        text.starts_with("the skill `reserved` is reserved for the user"),
        "{text}"
    );
    client
        .get_prompt(
            GetPromptRequestParams::new("reserved")
                .with_arguments(args(json!({"arguments": "prod"}))),
        )
        .await
        .unwrap();
    let (error, text) = call(&client, "run_skill_script", run).await;
    assert!(!error, "{text}");
    assert_eq!(text, "exit code: 0\ndeployed prod\n");
    client.cancel().await.unwrap();
}

/// A client that opens a session per call (LangChain's `get_tools()`,
/// LlamaIndex's `BasicMCPClient`) runs a script without activating its
/// skill first: the call names the skill, and that skill's own
/// `allowed-tools` decide. Another skill's grant never widens them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_runs_without_activation_under_its_own_skills_rules_only() {
    let dir = tempdir();
    let bundle = invocation_bundle();
    let cache = dir.path().join("cache");
    // A fresh session for each call, as those clients make.
    let hello = json!({"skill": "open", "command": "./scripts/hello.sh"});
    let client = connect(&bundle, &cache).await;
    let (error, text) = call(&client, "run_skill_script", hello.clone()).await;
    assert!(!error, "{text}");
    assert_eq!(text, "exit code: 0\nhello\n");
    client.cancel().await.unwrap();
    let client = connect(&bundle, &cache).await;
    let (error, text) = call(
        &client,
        "run_skill_script",
        json!({"skill": "open", "command": "ls"}),
    )
    .await;
    assert!(error);
    assert_eq!(
        text,
        "Tool 'Bash' not allowed for skill 'open'. Allowed tools: ['Bash(./scripts/hello.sh:*)']"
    );
    client.cancel().await.unwrap();
    // `open` active (its grant: `./scripts/hello.sh`): `model-only`, whose
    // own `allowed-tools` is empty, gets nothing of it.
    let client = connect(&bundle, &cache).await;
    let (error, _) = call(&client, "activate_skill", json!({"name": "open"})).await;
    assert!(!error);
    let (error, text) = call(
        &client,
        "run_skill_script",
        json!({"skill": "model-only", "command": "./scripts/hello.sh"}),
    )
    .await;
    assert!(error);
    assert_eq!(
        text,
        "`./scripts/hello.sh` is not pre-approved by the skill's allowed-tools, and there is nobody to ask in this session"
    );
    client.cancel().await.unwrap();
}

/// SEP-2640's `frontmatter` keeps YAML's types (a boolean, a number, a
/// list), and `resources/directory/read` lists a folder's direct children.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frontmatter_keeps_yaml_types_and_directories_can_be_read() {
    use rmcp::model::ReadResourceDirectoryRequestParams as Dir;

    let dir = tempdir();
    let bundle = invocation_bundle();
    let client = connect(&bundle, &dir.path().join("cache")).await;
    let info = client.peer_info().unwrap();
    let caps = serde_json::to_value(&info.capabilities).unwrap();
    assert_eq!(
        caps["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true})
    );
    let listed = client.list_all_skills().await.unwrap();
    let frontmatter = |name: &str| {
        let skill = listed.iter().find(|s| s.frontmatter.name == name).unwrap();
        serde_json::to_value(&skill.frontmatter).unwrap()
    };
    assert_eq!(
        frontmatter("open"),
        json!({
            "name": "open",
            "description": "Says hello through its script.",
            "allowed-tools": "Bash(./scripts/hello.sh:*)",
            "version": 2,
            "user-invocable": true,
            "tags": ["greeting", "2"],
            "when_to_use": "When someone says hi.",
        })
    );
    assert_eq!(
        frontmatter("reserved")["disable-model-invocation"],
        json!(true)
    );
    assert_eq!(frontmatter("scoped")["paths"], json!(["src/**", "*.rs"]));
    let children = |uri: &'static str| {
        let client = &client;
        async move {
            client
                .read_resource_directory(Dir::new(uri))
                .await
                .map(|r| {
                    r.resources
                        .iter()
                        .map(|c| (c.uri.clone(), c.mime_type.clone()))
                        .collect::<Vec<_>>()
                })
        }
    };
    let dir_mime = Some("inode/directory".to_string());
    assert_eq!(
        children("skill://open").await.unwrap(),
        [
            (
                "skill://open/SKILL.md".to_string(),
                Some("text/markdown".to_string())
            ),
            ("skill://open/references".to_string(), dir_mime.clone()),
            ("skill://open/scripts".to_string(), dir_mime.clone()),
        ]
    );
    assert_eq!(
        children("skill://open/references/").await.unwrap(),
        [
            ("skill://open/references/deep".to_string(), dir_mime),
            (
                "skill://open/references/notes.md".to_string(),
                Some("text/markdown".to_string())
            ),
        ]
    );
    for not_a_directory in [
        "skill://open/SKILL.md",
        "skill://open/nothing",
        "skill://nope",
        "file:///etc",
    ] {
        let error = children(not_a_directory).await.unwrap_err();
        assert_eq!(
            skills_tests::mcp::code(error),
            rmcp::model::ErrorCode::INVALID_PARAMS,
            "{not_a_directory}"
        );
    }
    client.cancel().await.unwrap();
}

/// `tests/fixtures/sep-frontmatter` compiled in (the macro's tables).
static SEP: Bundle = skills_bundle::skills_bundle!(
    "../tests/fixtures/sep-frontmatter",
    profile = "claude-code",
    warnings = "allow"
);

/// What SEP-2640's `frontmatter` of `typed` is, byte for byte: every key
/// in the author's order after `name` and `description` (rmcp writes those
/// first), each value typed as YAML types it, `metadata` and
/// `allowed-tools` as written.
const TYPED: &str = r#"{"name":"typed","description":"Serves its frontmatter as written. Use when checking SEP-2640.","metadata":{"version":2,"tags":["a","b"],"nested":{"x":true},"quoted":"2"},"allowed-tools":["Read","Bash(git:*)"],"user-invocable":false,"license":"MIT"}"#;

/// `spaced` writes `allowed-tools` as one string: served as that string.
const SPACED: &str = r#"{"name":"spaced","description":"Lists its tools as one string. Use when checking SEP-2640.","allowed-tools":"Read Bash(git:*)"}"#;

/// `numbered`'s `description: 2026` is a number to YAML; SEP-2640 needs a
/// string: the skill's own text of it.
const NUMBERED: &str = r#"{"name":"numbered","description":"2026"}"#;

fn served_frontmatter(bundle: &Bundle, name: &str) -> String {
    let got = extension::get(bundle, &format!("skill://{name}/SKILL.md")).unwrap();
    serde_json::to_string(&got.skill.frontmatter).unwrap()
}

/// SEP-2640's `frontmatter` is the frontmatter verbatim, the same from the
/// directory compiled in, from its pack, and over the wire.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frontmatter_is_served_verbatim_from_a_directory_and_from_its_pack() {
    let root = workspace().join("tests/fixtures/sep-frontmatter");
    let pack = packed(&[root], Profile::ClaudeCode);
    for (source, bundle) in [("directory", &SEP), ("pack", &pack)] {
        assert_eq!(served_frontmatter(bundle, "typed"), TYPED, "{source}");
        assert_eq!(served_frontmatter(bundle, "spaced"), SPACED, "{source}");
        assert_eq!(served_frontmatter(bundle, "numbered"), NUMBERED, "{source}");
        validate_skills(&extension::list(bundle)).unwrap();
    }
    assert_eq!(SEP.digest(), pack.digest());
    let dir = tempdir();
    let client = connect(&pack, &dir.path().join("cache")).await;
    let listed = client.list_all_skills().await.unwrap();
    let wire: Vec<String> = listed
        .iter()
        .map(|s| serde_json::to_string(&s.frontmatter).unwrap())
        .collect();
    assert_eq!(wire, [NUMBERED, SPACED, TYPED]);
    client.cancel().await.unwrap();
}

/// A pack written before the manifest carried `frontmatter` (the field
/// left out, as those writers did) still loads, and is still re-derived
/// without a disagreement; its frontmatter is made of the fields the
/// runtime reads: `metadata` values as strings, the rules joined.
#[test]
fn a_pack_without_frontmatter_serves_the_fields_it_records() {
    let roots = [workspace().join("tests/fixtures/sep-frontmatter")];
    let options = Options {
        profile: Profile::ClaudeCode,
        ..Options::default()
    };
    let mut plan = embed::plan(&skills_compiler::check(&roots, &options), &roots, &[]).unwrap();
    for skill in &mut plan.skills {
        skill.meta.frontmatter = Default::default();
    }
    plan.digest = skills_core::digest::bundle_digest(plan.skills.iter().map(|s| s.digested()));
    let bytes = write_pack(&plan, DosTime::EPOCH).unwrap();
    assert!(!String::from_utf8_lossy(&bytes).contains("\"frontmatter\""));
    let limits = skills_bundle::zip::Limits::default();
    embed::from_pack::plan_pack(&bytes, Trust::Unsigned, &limits).unwrap();
    let old = Bundle::from_pack(&bytes, Trust::Unsigned).unwrap();
    assert_eq!(
        served_frontmatter(&old, "typed"),
        r#"{"name":"typed","description":"Serves its frontmatter as written. Use when checking SEP-2640.","license":"MIT","metadata":{"version":"2","tags":"['a', 'b']","nested":"{'x': 'true'}","quoted":"2"},"allowed-tools":"Read Bash(git:*)","user-invocable":false}"#
    );
}
