//! The readers of a skill, each bounded before the work and linear in its
//! input, through the `skb` binary: our YAML reader, the client readings
//! (Claude Code's, and Codex's through libyaml) and `agents/openai.yaml`
//! under every profile and format, and names through `validate`, `pack`,
//! `read-properties` and `to-prompt`.
//!
//! One test per attack, each with the exact outcome: YAML nested far past
//! 64 levels (flow lists, flow mappings, block lists) in the frontmatter
//! and in `agents/openai.yaml`; aliases repeating a long list, or a long
//! scalar; a `name` that NFKC expands eighteen times, under a bound on the
//! process's memory. Then the time of every command on the nesting attacks
//! at two sizes: a ratio of the child's CPU time, not a wall-clock limit.
//! (`tests/tests/lib/props.rs` times every reader on every shape, in
//! process.)

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::{skills, skills_bin};
use serde_json::Value;
use skills_tests::{tempdir, write_tree};

/// A skill `s` in a new temporary directory: `SKILL.md` with `yaml` after
/// its name and description in the frontmatter, and `agents/openai.yaml`
/// when given.
fn skill(yaml: &str, openai: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempdir();
    let md = format!("---\nname: s\ndescription: Use when testing.\n{yaml}---\nBody.\n");
    let mut files: Vec<(&str, &[u8])> = vec![("s/SKILL.md", md.as_bytes())];
    if let Some(o) = openai {
        files.push(("s/agents/openai.yaml", o.as_bytes()));
    }
    write_tree(tmp.path(), &files);
    let dir = tmp.path().join("s");
    (tmp, dir)
}

/// Runs `skills <args> <dir>`.
fn run(args: &[&str], dir: &Path) -> Output {
    skills()
        .args(args)
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// One diagnostic of the JSON report: `(code, severity, message, line)`.
type Found = (String, String, String, Option<u64>);

/// One client's reading in the JSON report: `(client, outcome, why)`.
type Read = (String, String, Option<String>);

/// The JSON report's one skill under `profile`: its diagnostics (but for
/// `SK301`, the length lint, which the attacks trip) and, per client, the
/// outcome and why.
fn report(dir: &Path, profile: &str) -> (Vec<Found>, Vec<Read>) {
    let out = run(&["validate", "--format", "json", "--profile", profile], dir);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let skill = &json["skills"][0];
    let found = skill["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] != "SK301")
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
                d["line"].as_u64(),
            )
        })
        .collect();
    let clients = skill["clients"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(c, r)| {
            (
                c.clone(),
                r["outcome"].as_str().unwrap().to_string(),
                r["why"].as_str().map(String::from),
            )
        })
        .collect();
    (found, clients)
}

fn found(code: &str, severity: &str, message: &str, line: Option<u64>) -> Found {
    (code.into(), severity.into(), message.into(), line)
}

const FLOW: &str = "flow-style YAML (`[a, b]`, `{a: b}`) is not allowed in strict YAML";
const ANCHOR: &str = "anchors and aliases are not allowed in strict YAML";

/// Why each client's reading is not known, past `bound`.
fn unknown(bound: &str) -> [Read; 7] {
    let not_recorded = |client: &str, id: &str| -> Read {
        (
            id.into(),
            "unknown".into(),
            Some(format!(
                "the YAML {bound}, the most this tool reads; what {client} reads past that is not recorded"
            )),
        )
    };
    [
        not_recorded("Claude Code", "claude-code"),
        (
            "codex".into(),
            "unknown".into(),
            Some(format!(
                "the YAML {bound}, the most this tool reads; libyaml, which Codex reads it with, has no such bound"
            )),
        ),
        not_recorded("Gemini CLI", "gemini-cli"),
        not_recorded("OpenCode", "opencode"),
        not_recorded("Copilot CLI", "copilot"),
        not_recorded("Qwen Code", "qwen-code"),
        not_recorded("Kimi Code", "kimi-code"),
    ]
}

/// The profiles' `SK005` for a client whose reading is not known.
fn not_known(client: &str, bound: &str, line: Option<u64>) -> Found {
    let tail = if client == "Codex" {
        "libyaml, which Codex reads it with, has no such bound"
    } else {
        "what Claude Code reads past that is not recorded"
    };
    found(
        "SK005",
        "error",
        &format!(
            "what {client} makes of this skill is not known: the YAML {bound}, the most this tool reads; {tail}"
        ),
        line,
    )
}

const DEEP: &str = "nests deeper than 64 levels";

/// 100 KB of `[[[…]]]` in the frontmatter took 6 s to validate (17 s under
/// `--profile codex`), although our reader refused it at once: the client
/// readings gave it to libyaml, whose scanner walks a stack of every open
/// flow level for each token. Now: our error, and each client's reading
/// not known, naming the bound, in every format.
#[test]
fn nested_flow_lists_in_the_frontmatter() {
    let yaml = format!("x: {}{}\n", "[".repeat(50_000), "]".repeat(50_000));
    let (_tmp, dir) = skill(&yaml, None);
    let (diags, clients) = report(&dir, "spec");
    assert_eq!(
        diags,
        [
            found("SK107", "error", FLOW, Some(4)),
            found(
                "SK106",
                "error",
                "the frontmatter nests deeper than 64 levels",
                Some(4)
            ),
        ]
    );
    assert_eq!(clients, unknown(DEEP));
    let (diags, _) = report(&dir, "claude-code");
    assert_eq!(
        diags,
        [
            found("SK107", "warning", FLOW, Some(4)),
            not_known("Claude Code", DEEP, None),
        ]
    );
    let (diags, _) = report(&dir, "codex");
    assert_eq!(
        diags,
        [
            found("SK107", "warning", FLOW, Some(4)),
            not_known("Codex", DEEP, Some(4)),
        ]
    );
    let human = run(&["validate"], &dir);
    let stdout = String::from_utf8_lossy(&human.stdout);
    let note = format!(
        "note: on `{}`: what Claude Code makes of it is not known (the YAML {DEEP}, the most this tool reads; what Claude Code reads past that is not recorded); what Codex makes of it is not known (the YAML {DEEP}, the most this tool reads; libyaml, which Codex reads it with, has no such bound); what Gemini CLI makes of it is not known (the YAML {DEEP}, the most this tool reads; what Gemini CLI reads past that is not recorded); what OpenCode makes of it is not known (the YAML {DEEP}, the most this tool reads; what OpenCode reads past that is not recorded); what GitHub Copilot CLI makes of it is not known (the YAML {DEEP}, the most this tool reads; what Copilot CLI reads past that is not recorded); what Qwen Code makes of it is not known (the YAML {DEEP}, the most this tool reads; what Qwen Code reads past that is not recorded); what Kimi Code makes of it is not known (the YAML {DEEP}, the most this tool reads; what Kimi Code reads past that is not recorded)\n",
        dir.display()
    );
    assert!(stdout.contains(&note), "{stdout}");
    assert_eq!(human.status.code(), Some(1));
    // The reference meets the flow style first, as before.
    let reference = run(&["validate", "--format", "skills-ref"], &dir);
    let stderr = String::from_utf8_lossy(&reference.stderr);
    assert!(
        stderr.contains("Found ugly disallowed JSONesque flow mapping"),
        "{stderr}"
    );
    assert_eq!(reference.status.code(), Some(1));
}

/// Block lists nest by indicators (`- - - …`), which libyaml reads in
/// linear time: Codex's reading is libyaml's own, and real; Claude Code's
/// is not known past our reader's bound.
#[test]
fn nested_block_lists_in_the_frontmatter() {
    let yaml = format!("x:\n{}y\n", "- ".repeat(50_000));
    let (_tmp, dir) = skill(&yaml, None);
    let (diags, clients) = report(&dir, "spec");
    assert_eq!(
        diags,
        [found(
            "SK106",
            "error",
            "the frontmatter nests deeper than 64 levels",
            Some(5)
        )]
    );
    let [
        claude_code,
        _,
        gemini_cli,
        opencode,
        copilot,
        qwen_code,
        kimi_code,
    ] = unknown(DEEP);
    assert_eq!(
        clients,
        [
            claude_code,
            ("codex".into(), "listed".into(), None),
            gemini_cli,
            opencode,
            copilot,
            qwen_code,
            kimi_code
        ]
    );
    let (diags, _) = report(&dir, "claude-code");
    assert_eq!(diags, [not_known("Claude Code", DEEP, None)]);
    let (diags, _) = report(&dir, "codex");
    assert_eq!(diags, []);
}

/// 200 KB of `{a: {a: …}}` in `agents/openai.yaml` took 15 s, and 1 MB
/// (its size bound) minutes: it is read in every profile, and libyaml read
/// it after our reader. Now both builds decide without libyaml that it is
/// past the bound: an error under every profile, where it is.
#[test]
fn nested_flow_mappings_in_openai_yaml() {
    let yaml = format!("x: {}b{}\n", "{a: ".repeat(50_000), "}".repeat(50_000));
    let (_tmp, dir) = skill("", Some(&yaml));
    for profile in ["spec", "claude-code", "codex"] {
        let (diags, clients) = report(&dir, profile);
        assert_eq!(
            diags,
            [found(
                "SK005",
                "error",
                "`agents/openai.yaml` cannot be read as Codex reads it, so whether Codex lists the skill to its model (`policy.allow_implicit_invocation`) is not known: the YAML nests deeper than 64 levels, the most this tool reads",
                Some(1)
            )],
            "{profile}"
        );
        assert_eq!(
            clients,
            [
                ("claude-code".into(), "listed".into(), None),
                ("codex".into(), "listed".into(), None),
                ("gemini-cli".into(), "listed".into(), None),
                ("opencode".into(), "listed".into(), None),
                ("copilot".into(), "listed".into(), None),
                ("qwen-code".into(), "listed".into(), None),
                ("kimi-code".into(), "listed".into(), None)
            ]
        );
    }
}

/// A list of 1,000 items aliased 1,000 times: libyaml's serde layer copied
/// it into a `yaml_serde::Value` each time (28 KB of YAML took 1.6 GB).
/// Now our reader's bound on nodes after aliases stops it, and names it.
#[test]
fn aliases_repeating_a_long_list_in_the_frontmatter() {
    let list = vec!["x"; 1_000].join(", ");
    let aliases = vec!["*a"; 1_000].join(", ");
    let yaml = format!("when_to_use: w\na: &a [{list}]\nb: [{aliases}]\n");
    let (_tmp, dir) = skill(&yaml, None);
    let nodes = "has more than 100,000 nodes, aliases expanded";
    let (diags, clients) = report(&dir, "spec");
    assert_eq!(
        diags,
        [
            found("SK108", "error", ANCHOR, Some(5)),
            found("SK107", "error", FLOW, Some(5)),
            found("SK107", "error", FLOW, Some(6)),
            found(
                "SK106",
                "error",
                "aliases expand the frontmatter to more than 100,000 nodes",
                Some(6)
            ),
        ]
    );
    assert_eq!(clients, unknown(nodes));
    let (diags, _) = report(&dir, "codex");
    assert_eq!(diags.last(), Some(&not_known("Codex", nodes, Some(6))));
}

/// An alias stands for one node however long its scalar: 40 aliases of a
/// 30 KB scalar are 1.2 MB of text our reader copied. Now its bytes are
/// bounded too, before the copy.
#[test]
fn aliases_repeating_a_long_scalar_in_the_frontmatter() {
    let yaml = format!(
        "a: &a {}\nb: [{}]\n",
        "x".repeat(30_000),
        vec!["*a"; 40].join(", ")
    );
    let (_tmp, dir) = skill(&yaml, None);
    let bytes = "has aliases repeating more than 1,048,576 bytes of text";
    let (diags, clients) = report(&dir, "spec");
    assert_eq!(
        diags.last(),
        Some(&found(
            "SK106",
            "error",
            "aliases repeat more than 1,048,576 bytes of the frontmatter's text",
            Some(5)
        ))
    );
    assert_eq!(clients, unknown(bytes));
    let (diags, _) = report(&dir, "claude-code");
    assert_eq!(diags.last(), Some(&not_known("Claude Code", bytes, None)));
}

/// Runs `skills <args> <dir>` with its data segment bounded to `kib`
/// KiB (`ulimit -d`: heap and private mappings), through `sh`.
fn run_bounded(kib: u64, args: &[&str], dir: &Path) -> Output {
    std::process::Command::new("sh")
        .args(["-c", "ulimit -d \"$1\" && shift && exec \"$@\"", "sh"])
        .arg(kib.to_string())
        .arg(skills_bin())
        .args(args)
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A `name` of 250,000 U+FDFA (750 KB) is 4.5 million characters after
/// NFKC. The rules built it, copied it into five messages and listed every
/// space in it: `validate` needed over 128 MiB of heap, `read-properties`
/// over 64 (7.5 MB: 0.9 and 1.3 GB). Now the NFKC length is counted as it
/// streams, each message quotes the name's two ends, and every command
/// runs in 48 MiB; the reference's messages keep their form.
#[test]
#[cfg(target_os = "linux")]
fn a_name_nfkc_expands_eighteen_times() {
    let raw = "\u{fdfa}".repeat(250_000);
    let tmp = tempdir();
    let md = format!("---\nname: {raw}\ndescription: Use when testing.\n---\nBody.\n");
    write_tree(tmp.path(), &[("s/SKILL.md", md.as_bytes())]);
    let dir = tmp.path().join("s");
    let expanded = "صلى الله عليه وسلم".repeat(250_000);
    let head: String = expanded.chars().take(960).collect();
    let tail: String = expanded.chars().skip(4_500_000 - 64).collect();
    let quoted = format!("{head}…{tail}");
    const HEAP: u64 = 48 * 1024;

    let out = run_bounded(HEAP, &["validate", "--format", "json"], &dir);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let skill = &json["skills"][0];
    assert_eq!(skill["name"], Value::Null);
    let diags: Vec<(&str, &str, &str)> = skill["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        // Where the clients differ (Codex refuses the name) is not the
        // reference's.
        .filter(|d| d["code"] != "SK301" && !d["code"].as_str().unwrap().starts_with("SK49"))
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["message"].as_str().unwrap(),
                d["reference"].as_str().unwrap(),
            )
        })
        .collect();
    let too_long = format!("Skill name '{quoted}' exceeds 64 character limit (4500000 chars)");
    let invalid = format!(
        "Skill name '{quoted}' contains invalid characters. Only letters, digits, and hyphens are allowed."
    );
    let mismatch = format!("Directory name 's' must match skill name '{quoted}'");
    assert_eq!(
        diags,
        [
            (
                "SK204",
                "`name` is 4500000 characters; the limit is 64",
                too_long.as_str()
            ),
            (
                "SK208",
                "`name` may hold only letters, digits and hyphens; found ' '",
                invalid.as_str()
            ),
            (
                "SK209",
                format!("`name` is `{quoted}` but the directory is `s`").as_str(),
                mismatch.as_str()
            ),
        ]
    );

    let out = run_bounded(HEAP, &["validate", "--format", "skills-ref"], &dir);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "Validation failed for {}:\n  - {too_long}\n  - {invalid}\n  - {mismatch}\n",
            dir.display()
        )
    );
    assert_eq!(out.status.code(), Some(1));

    let out = run_bounded(
        HEAP,
        &["pack", "--profile", "claude-code", "-o", "p.pack"],
        &dir,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.ends_with(&format!(
            "skb: {}: a bundle or pack needs a `name` and a `description` read from the frontmatter's YAML (a `name` longer than 1,024 characters after NFKC is not read as one); this profile accepts the skill without them (as its client does), packing does not\n",
            dir.join("SKILL.md").display()
        )),
        "{}",
        stderr.chars().rev().take(400).collect::<String>()
    );
    assert_eq!(out.status.code(), Some(2));

    // The reference reads properties without normalising: the name as
    // written.
    let out = run_bounded(HEAP, &["read-properties"], &dir);
    assert!(out.status.success());
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["name"].as_str(), Some(raw.as_str()));
    let out = run_bounded(HEAP, &["to-prompt"], &dir);
    assert!(out.status.success());
    let prompt = String::from_utf8(out.stdout).unwrap();
    assert!(prompt.contains(&format!("<name>\n{raw}\n</name>")));
}

/// The CPU time, in clock ticks, of the finished child `pid`, read before
/// it is reaped: `/proc/<pid>/stat`'s user and system times, every thread's.
#[cfg(target_os = "linux")]
fn cpu_ticks(child: &mut std::process::Child) -> u64 {
    use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
    waitid(
        WaitId::Pid(pid),
        WaitIdOptions::EXITED | WaitIdOptions::NOWAIT,
    )
    .unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", child.id())).unwrap();
    // After the command name, in parentheses: field 3 on; utime and stime
    // are fields 14 and 15.
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    child.wait().unwrap();
    ticks
}

/// The least CPU time of two runs of `skills <args> <dir>`, in clock ticks.
#[cfg(target_os = "linux")]
fn fastest(args: &[&str], dir: &Path) -> u64 {
    (0..2)
        .map(|_| {
            let mut child = skills()
                .args(args)
                .arg(dir)
                .current_dir(dir)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            cpu_ticks(&mut child)
        })
        .min()
        .unwrap_or_default()
}

/// Every command, in every format, on nested flow collections in the
/// frontmatter and in `agents/openai.yaml`, at 220 KB and 875 KB (under
/// that file's bound of 1 MiB): four times the input may take about four
/// times the CPU, never the sixteen times the quadratic scan took (a ratio
/// of the child's own CPU time, each the least of two runs, with a floor
/// of 5 ticks for the small one).
#[test]
#[cfg(target_os = "linux")]
fn every_command_is_linear_in_the_nesting() {
    const COMMANDS: &[&[&str]] = &[
        &["validate"],
        &["validate", "--format", "json"],
        &["validate", "--format", "sarif"],
        &["validate", "--format", "github"],
        &["validate", "--format", "skills-ref"],
        &["validate", "--profile", "claude-code"],
        &["validate", "--profile", "codex"],
        &["validate", "--profile", "codex", "--format", "json"],
        &["pack", "--profile", "codex", "-o", "p.pack"],
        &["read-properties"],
        &["to-prompt"],
    ];
    let nest = |n: usize| format!("x: {}b{}\n", "[{a: ".repeat(n / 8), "}]".repeat(n / 8));
    let mut slow = Vec::new();
    for in_openai in [false, true] {
        let sizes: Vec<(tempfile::TempDir, PathBuf)> = [250_000, 1_000_000]
            .into_iter()
            .map(|n| match in_openai {
                false => skill(&nest(n), None),
                true => skill("", Some(&nest(n))),
            })
            .collect();
        for args in COMMANDS {
            let small = fastest(args, &sizes[0].1).max(5);
            let large = fastest(args, &sizes[1].1);
            let ratio = large as f64 / small as f64;
            if ratio >= 10.0 {
                slow.push(format!(
                    "skills {} ({}): {small} then {large} ticks",
                    args.join(" "),
                    if in_openai {
                        "agents/openai.yaml"
                    } else {
                        "frontmatter"
                    }
                ));
            }
        }
    }
    assert!(slow.is_empty(), "{}", slow.join("\n"));
}
