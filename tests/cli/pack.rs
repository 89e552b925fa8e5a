//! What `skb pack`, `verify`, `inspect`, `unpack`, `diff` and `keygen`
//! do and print, exit statuses included, and what a pack gives the runtime
//! API: `Bundle::from_pack` on a CLI-made pack is the directory it was made
//! from.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::skills;
use serde_json::Value;
use skills_bundle::Bundle;
use skills_bundle::pack::Trust;
use skills_compiler::render::thousands;
use skills_compiler::{self as compiler, Options, embed};
use skills_core::zip::write::{DosTime, ZipWriter};
use skills_tests::{
    CopyStyle, copy_tree, is_executable, printed_digest, run_ok, set_mode, tempdir, workspace,
    write_tree, zip_records,
};

/// `skills <args>` in `dir`, stdin closed, without a password or a date.
fn run(dir: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env_remove("SKILLS_KEY_PASSWORD")
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts the exit status; returns stdout and stderr together.
fn exits(out: &Output, code: i32) -> String {
    let shown = stdout(out) + &stderr(out);
    assert_eq!(out.status.code(), Some(code), "{shown}");
    shown
}

/// The repository's example skills.
fn examples() -> PathBuf {
    workspace().join("skills")
}

/// A copy of the example skills at `dir/name`.
fn copy_examples(dir: &Path, name: &str) -> PathBuf {
    let style = CopyStyle {
        file_mode: 0o644,
        exec_mode: 0o755,
        dir_mode: 0o755,
        mtime_seed: 0,
        reverse: false,
    };
    let target = dir.join(name);
    copy_tree(&examples(), &target, &style);
    target
}

/// The files under `dir` (recursive), with their bytes and modes.
fn tree(dir: &Path) -> BTreeMap<String, (Vec<u8>, bool)> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, (Vec<u8>, bool)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap();
                let rel = rel.to_string_lossy().replace('\\', "/");
                let value = (std::fs::read(&path).unwrap(), is_executable(&path));
                out.insert(rel, value);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

const VALID: &[u8] =
    b"---\nname: good\ndescription: Does good things. Use when testing.\n---\nBody.\n";

#[test]
fn pack_reports_counts_digest_and_size() {
    let tmp = tempdir();
    let d = tmp.path();
    let src = examples();
    std::fs::write(d.join("x.skillpack.minisig"), "stale\n").unwrap();
    let out = run(d, &["pack", src.to_str().unwrap(), "-o", "x.skillpack"]);
    let shown = exits(&out, 0);
    let size = std::fs::metadata(d.join("x.skillpack")).unwrap().len();
    let first = stdout(&out).lines().next().unwrap_or_default().to_string();
    assert!(
        first.starts_with("packed 5 skills (14 files, ")
            && first.ends_with(&format!(
                "bytes) into x.skillpack ({} bytes)",
                thousands(size)
            )),
        "{shown}"
    );
    assert!(
        !d.join("x.skillpack.minisig").exists(),
        "a stale signature is removed with an unsigned pack"
    );
    let digest = printed_digest(&stdout(&out));
    let inspected = json(&run(d, &["inspect", "x.skillpack", "--format", "json"]));
    assert_eq!(inspected["digest"], digest.as_str());
}

#[test]
fn invalid_skills_write_nothing_and_keep_the_old_output() {
    let tmp = tempdir();
    let d = tmp.path();
    write_tree(
        d,
        &[
            ("src/good/SKILL.md", VALID),
            (
                "src/bad/SKILL.md",
                b"---\nname: bad\n---\nNo description.\n",
            ),
        ],
    );
    let out = run(d, &["pack", "src", "-o", "x.skillpack"]);
    exits(&out, 1);
    let err = stderr(&out);
    assert!(err.contains("error[SK210]"), "{err}");
    assert!(err.contains("src/bad/SKILL.md"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!stdout(&out).contains("packed"), "{}", stdout(&out));
    assert!(!d.join("x.skillpack").exists());

    let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    for (name, text) in [
        ("x.skillpack", "old pack"),
        ("x.skillpack.minisig", "old sig"),
    ] {
        std::fs::write(d.join(name), text).unwrap();
        let file = std::fs::File::options().write(true).open(d.join(name));
        file.unwrap().set_modified(old).unwrap();
    }
    exits(&run(d, &["pack", "src", "-o", "x.skillpack"]), 1);
    exits(
        &run(d, &["pack", "src", "-o", "dir", "--format", "skill"]),
        1,
    );
    for (name, text) in [
        ("x.skillpack", "old pack"),
        ("x.skillpack.minisig", "old sig"),
    ] {
        assert_eq!(std::fs::read_to_string(d.join(name)).unwrap(), text);
        let modified = std::fs::metadata(d.join(name)).unwrap().modified().unwrap();
        assert_eq!(modified, old, "{name} was touched");
    }
    let mut left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["src", "x.skillpack", "x.skillpack.minisig"]);
}

#[test]
fn verify_needs_a_key_or_unsigned() {
    let tmp = tempdir();
    let d = tmp.path();
    run_ok(
        skills()
            .current_dir(d)
            .args(["pack", "-o", "x.skillpack"])
            .arg(examples()),
    );
    let out = run(d, &["verify", "x.skillpack"]);
    let shown = exits(&out, 2);
    assert!(shown.contains("--pubkey"), "{shown}");

    exits(&run(d, &["keygen", "-W", "-p", "k.pub", "-s", "k.key"]), 0);
    let out = run(d, &["verify", "x.skillpack", "-p", "k.pub"]);
    let shown = exits(&out, 1);
    assert!(
        shown.contains("signature  FAILED `x.skillpack` is not signed: no `x.skillpack.minisig`"),
        "{shown}"
    );
    assert!(shown.contains("NOT verified: x.skillpack"), "{shown}");

    let shown = exits(&run(d, &["verify", "x.skillpack", "--unsigned"]), 0);
    assert!(
        shown.contains("files      ok     14 of 14 match their SHA-256"),
        "{shown}"
    );
}

#[test]
fn verify_names_a_damaged_file() {
    let tmp = tempdir();
    let d = tmp.path();
    run_ok(
        skills()
            .current_dir(d)
            .args(["pack", "-o", "x.skillpack"])
            .arg(examples()),
    );
    let mut bytes = std::fs::read(d.join("x.skillpack")).unwrap();
    let victim = zip_records(&bytes)
        .into_iter()
        .find(|r| r.method == 8 && r.name != "skillpack.json")
        .expect("a deflated file");
    bytes[victim.data + victim.compressed / 2] ^= 0x01;
    std::fs::write(d.join("damaged.skillpack"), &bytes).unwrap();

    let out = run(d, &["verify", "damaged.skillpack", "--unsigned"]);
    let shown = exits(&out, 1);
    let failed: Vec<&str> = shown.lines().filter(|l| l.contains("FAILED")).collect();
    assert!(
        matches!(failed[..], [line] if (line.starts_with("files ") || line.starts_with("archive "))
            && line.contains(&victim.name)),
        "the damaged `{}` is not named:\n{shown}",
        victim.name
    );
    assert!(shown.contains("NOT verified: damaged.skillpack"), "{shown}");
    let out = run(
        d,
        &[
            "verify",
            "damaged.skillpack",
            "--unsigned",
            "--format",
            "json",
        ],
    );
    exits(&out, 1);
    assert_eq!(json(&out)["verified"], false);
    let out = run(d, &["unpack", "damaged.skillpack", "-o", "u"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains(&victim.name), "{}", stderr(&out));
    assert!(!d.join("u").exists());
}

#[test]
fn inspect_reports_the_same_content_for_a_directory_and_its_pack() {
    let tmp = tempdir();
    let d = tmp.path();
    let src = examples();
    let src = src.to_str().unwrap();
    exits(&run(d, &["pack", src, "-o", "x.skillpack"]), 0);
    let dir = json(&run(d, &["inspect", src, "--format", "json"]));
    let pack = json(&run(d, &["inspect", "x.skillpack", "--format", "json"]));
    assert_eq!(
        (&dir["kind"], &pack["kind"]),
        (&"directory".into(), &"pack".into())
    );
    assert_eq!(dir["tool"], Value::Null);
    assert!(pack["tool"].as_str().unwrap().starts_with("skills "));
    assert_eq!(dir["digest"], pack["digest"]);
    assert_eq!(
        dir["skills"], pack["skills"],
        "skills, files, sizes and hashes"
    );
    assert_eq!(
        (&dir["size"], &dir["stored"]),
        (&pack["size"], &pack["stored"])
    );

    let skills = pack["skills"].as_array().unwrap();
    let names: Vec<&str> = skills.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "calculator",
            "csv-insights",
            "git-workflow",
            "review-plugin:code-review",
            "review-plugin:security-review"
        ]
    );
    let calculator = &skills[0];
    let files = calculator["files"].as_array().unwrap();
    let on_disk = tree(&examples().join("calculator"));
    assert_eq!(files.len(), on_disk.len());
    for f in files {
        let (bytes, executable) = &on_disk[f["path"].as_str().unwrap()];
        assert_eq!(f["size"], bytes.len());
        assert_eq!(f["mode"], if *executable { "0755" } else { "0644" });
        assert_eq!(f["sha256"].as_str().unwrap().len(), 64);
        assert!(f["stored"].as_u64().unwrap() <= f["size"].as_u64().unwrap());
    }
    let total: u64 = files.iter().map(|f| f["size"].as_u64().unwrap()).sum();
    assert_eq!(calculator["size"], total);
    let total: u64 = skills.iter().map(|s| s["size"].as_u64().unwrap()).sum();
    assert_eq!(pack["size"], total);
}

#[test]
fn unpack_then_pack_gives_the_same_bytes() {
    // `vendor/` does not exist yet: unpack creates the parent.
    let tmp = tempdir();
    let d = tmp.path();
    let names = ["calculator", "csv-insights", "git-workflow"];
    let mut command = skills();
    command.current_dir(d).arg("pack");
    command.args(names.iter().map(|n| examples().join(n)));
    run_ok(command.args(["-o", "a.skillpack"]));
    let shown = exits(&run(d, &["unpack", "a.skillpack", "-o", "vendor/out"]), 0);
    assert!(
        shown.contains("unpacked 11 files into vendor/out"),
        "{shown}"
    );
    for name in names {
        assert_eq!(
            tree(&d.join("vendor/out").join(name)),
            tree(&examples().join(name))
        );
    }
    exits(&run(d, &["pack", "vendor/out", "-o", "b.skillpack"]), 0);
    let (a, b) = (d.join("a.skillpack"), d.join("b.skillpack"));
    assert!(std::fs::read(a).unwrap() == std::fs::read(b).unwrap());
}

/// A plugin's skill `p:s` keeps its name, so its pack its bytes, through
/// `unpack` then `pack`, and through `pack` given the pack itself (which is
/// extracted the way `unpack` extracts it).
#[test]
fn plugin_skills_keep_their_names_through_unpack_and_repack() {
    let tmp = tempdir();
    let d = tmp.path();
    run_ok(
        skills()
            .current_dir(d)
            .args(["pack", "-o", "a.skillpack"])
            .arg(examples()),
    );
    let digest = |out: Output| printed_digest(&exits(&out, 0));
    let original = digest(run(d, &["inspect", "a.skillpack"]));
    let repacked = digest(run(d, &["pack", "a.skillpack", "-o", "b.skillpack"]));
    exits(&run(d, &["unpack", "a.skillpack", "-o", "out"]), 0);
    let unpacked = digest(run(d, &["pack", "out", "-o", "c.skillpack"]));
    let diff = stdout(&run(d, &["diff", "a.skillpack", "b.skillpack"]));
    assert_eq!(
        (&repacked, &unpacked),
        (&original, &original),
        "re-packing changes the content:\n{diff}"
    );
    let original = std::fs::read(d.join("a.skillpack")).unwrap();
    for other in ["b.skillpack", "c.skillpack"] {
        assert!(std::fs::read(d.join(other)).unwrap() == original, "{other}");
    }
}

#[test]
fn unpack_refuses_an_existing_directory() {
    let tmp = tempdir();
    let d = tmp.path();
    run_ok(
        skills()
            .current_dir(d)
            .args(["pack", "-o", "x.skillpack"])
            .arg(examples()),
    );
    write_tree(d, &[("out/keep.txt", b"mine\n")]);
    let out = run(d, &["unpack", "x.skillpack", "-o", "out"]);
    let shown = exits(&out, 2);
    assert!(shown.contains("`out` already exists"), "{shown}");
    let left = tree(&d.join("out"));
    assert_eq!(left.keys().collect::<Vec<_>>(), ["keep.txt"]);
    assert_eq!(left["keep.txt"].0, b"mine\n");
    let entries = std::fs::read_dir(d).unwrap().count();
    assert_eq!(entries, 2, "no partial directory is left beside `out`");
}

/// `unpack` validates what it would write, under `--profile`, before
/// anything reaches the target: an archive without a skill, or with an
/// invalid one, gives the diagnostics, exit 1, and leaves nothing behind.
#[test]
fn unpack_writes_only_valid_skills() {
    let md = |name: &str, extra: &str| {
        format!("---\nname: {name}\ndescription: Says hi. Use when greeting.\n{extra}---\nHi.\n")
    };
    let spec = "--profile=spec";
    /// The case, the archive's files, `--profile`, the exit status, and
    /// how stderr starts.
    type Row<'a> = (&'a str, Vec<(&'a str, String)>, &'a str, i32, &'a str);
    let rows: [Row<'_>; 5] = [
        (
            "no skill",
            vec![("notes/readme.txt", "hi\n".into())],
            spec,
            1,
            "error[SK003]: no `SKILL.md` in `in.zip`\n",
        ),
        (
            "an empty archive",
            vec![],
            spec,
            1,
            "error[SK003]: no `SKILL.md` in `in.zip`\n",
        ),
        (
            "an invalid name",
            vec![("demo/SKILL.md", md("Demo", ""))],
            spec,
            1,
            "error[SK205]: `name` must be lowercase: `Demo`\n --> in.zip/demo/SKILL.md:2:7\n",
        ),
        (
            "a Claude Code key under the default profile",
            vec![("demo/SKILL.md", md("demo", "model: opus\n"))],
            spec,
            1,
            "error[SK201]: unexpected key `model`\n --> in.zip/demo/SKILL.md:4:1\n",
        ),
        (
            "a Claude Code key under `--profile claude-code`",
            vec![("demo/SKILL.md", md("demo", "model: opus\n"))],
            "--profile=claude-code",
            0,
            "",
        ),
    ];
    let mut failed = Vec::new();
    for (name, files, profile, code, says) in rows {
        let tmp = tempdir();
        let d = tmp.path();
        let mut zip = ZipWriter::new(DosTime::EPOCH);
        for (path, text) in &files {
            zip.add(path, text.as_bytes(), false).unwrap();
        }
        std::fs::write(d.join("in.zip"), zip.finish()).unwrap();
        let out = run(d, &["unpack", "in.zip", "-o", "out", profile]);
        let err = stderr(&out);
        let left: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let ok = if code == 0 {
            out.status.success() && d.join("out/demo/SKILL.md").is_file()
        } else {
            out.status.code() == Some(code)
                && err.starts_with(says)
                && err.ends_with("skb: nothing was written\n")
                && left == ["in.zip"]
        };
        if !ok {
            failed.push(format!(
                "{name}: exit {:?}, left {left:?}\n{err}",
                out.status.code()
            ));
        }
    }
    assert_eq!(failed, Vec::<String>::new());
}

#[test]
fn unpack_with_the_wrong_key_writes_nothing() {
    let tmp = tempdir();
    let d = tmp.path();
    for key in ["k1", "k2"] {
        let (public, secret) = (format!("{key}.pub"), format!("{key}.key"));
        exits(&run(d, &["keygen", "-W", "-p", &public, "-s", &secret]), 0);
    }
    let mut command = skills();
    command
        .current_dir(d)
        .args(["pack", "-o", "x.skillpack", "--sign", "k1.key"]);
    run_ok(command.arg(examples()));
    let before = std::fs::read_dir(d).unwrap().count();

    let out = run(d, &["unpack", "x.skillpack", "-o", "out", "-p", "k2.pub"]);
    assert_ne!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("signed with another key"),
        "{}",
        stderr(&out)
    );
    assert!(!d.join("out").exists());
    assert_eq!(
        std::fs::read_dir(d).unwrap().count(),
        before,
        "nothing new beside `out`"
    );

    let shown = exits(
        &run(d, &["unpack", "x.skillpack", "-o", "out", "-p", "k1.pub"]),
        0,
    );
    assert!(shown.contains("unpacked 14 files into out"), "{shown}");
}

#[test]
fn diff_reports_each_kind_of_change() {
    let tmp = tempdir();
    let d = tmp.path();
    copy_examples(d, "old");
    let new = copy_examples(d, "new");
    let shown = exits(&run(d, &["diff", "old", "new"]), 0);
    assert!(shown.starts_with("same content: digest "), "{shown}");
    exits(&run(d, &["pack", "old", "-o", "old.skillpack"]), 0);
    let shown = exits(&run(d, &["diff", "old.skillpack", "new"]), 0);
    assert!(shown.starts_with("same content: digest "), "{shown}");

    let reference = new.join("csv-insights/references/REFERENCE.md");
    let mut text = std::fs::read(&reference).unwrap();
    let (old_len, csv_len) = (
        text.len() as u64,
        std::fs::metadata(new.join("csv-insights/assets/sample.csv"))
            .unwrap()
            .len(),
    );
    text.extend_from_slice(b"\nOne more line.\n");
    std::fs::write(&reference, &text).unwrap();
    std::fs::write(new.join("calculator/NOTES.md"), "notes\n").unwrap();
    std::fs::remove_dir_all(new.join("git-workflow")).unwrap();
    set_mode(&new.join("csv-insights/assets/sample.csv"), 0o755);

    let out = run(d, &["diff", "old.skillpack", "new"]);
    let shown = exits(&out, 1);
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5, "{shown}");
    assert_eq!(
        lines[..4],
        [
            "+ calculator/NOTES.md".to_string(),
            format!(
                "~ csv-insights/assets/sample.csv (mode; {0} -> {0} bytes)",
                thousands(csv_len)
            ),
            format!(
                "~ csv-insights/references/REFERENCE.md (content; {} -> {} bytes)",
                thousands(old_len),
                thousands(text.len() as u64)
            ),
            "- git-workflow (4 files)".to_string(),
        ],
        "{shown}"
    );
    assert!(lines[4].starts_with("4 changes; digest "), "{shown}");

    let doc = json(&run(d, &["diff", "old", "new", "--format", "json"]));
    assert_eq!(doc["same"], false);
    assert_ne!(doc["old_digest"], doc["new_digest"]);
    let changes: Vec<(String, String, String)> = doc["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or("").to_string();
            (s("change"), s("skill"), s("path"))
        })
        .collect();
    let want = [
        ("added", "calculator", "NOTES.md"),
        ("changed", "csv-insights", "assets/sample.csv"),
        ("changed", "csv-insights", "references/REFERENCE.md"),
        ("removed", "git-workflow", ""),
    ]
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()));
    assert_eq!(changes, want);
    let mode = &doc["changes"][1];
    assert_eq!(
        (&mode["old"]["mode"], &mode["new"]["mode"]),
        (&"0644".into(), &"0755".into())
    );
    assert_eq!(mode["old"]["sha256"], mode["new"]["sha256"]);
    let same = json(&run(
        d,
        &["diff", "old", "old.skillpack", "--format", "json"],
    ));
    assert_eq!(
        (&same["same"], same["changes"].as_array().unwrap().len()),
        (&true.into(), 0)
    );
}

/// What the runtime obeys is content too: an `allowed-tools` rule widened
/// in `SKILL.md` (same length, so the body does not move) is named as a
/// metadata change (the rules, and the frontmatter served as written)
/// beside the file's, in both formats.
#[test]
fn diff_names_a_changed_metadata_field() {
    let tmp = tempdir();
    let d = tmp.path();
    copy_examples(d, "old");
    let new = copy_examples(d, "new");
    let md = new.join("calculator/SKILL.md");
    let text = std::fs::read_to_string(&md).unwrap();
    let (from, to) = ("Bash(python3 scripts/calc.py:*) Read", "Bash Read");
    let widened = text.replace(from, &format!("{to:<0$}", from.len()));
    assert_ne!(widened, text);
    std::fs::write(&md, widened).unwrap();
    exits(&run(d, &["pack", "old", "-o", "old.skillpack"]), 0);
    let out = run(d, &["diff", "old.skillpack", "new"]);
    let shown = exits(&out, 1);
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines[0], "~ calculator (allowed_tools)", "{shown}");
    assert_eq!(lines[1], "~ calculator (frontmatter)", "{shown}");
    assert!(
        lines[2].starts_with("~ calculator/SKILL.md (content; "),
        "{shown}"
    );
    assert!(lines[3].starts_with("3 changes; digest "), "{shown}");
    let doc = json(&run(
        d,
        &["diff", "old.skillpack", "new", "--format", "json"],
    ));
    assert_eq!(
        doc["changes"][0],
        serde_json::json!({
            "change": "metadata",
            "skill": "calculator",
            "field": "allowed_tools",
            "old": [["Bash", "python3 scripts/calc.py:*"], ["Read", null]],
            "new": [["Bash", null], ["Read", null]],
        })
    );
    let frontmatter = &doc["changes"][1];
    assert_eq!(frontmatter["field"], "frontmatter");
    let written = |side: &str| frontmatter[side].as_str().unwrap().to_string();
    assert!(written("old").contains(r#""allowed-tools":"Bash(python3 scripts/calc.py:*) Read""#));
    // The padding ends a plain scalar: YAML drops it.
    assert!(written("new").contains(r#""allowed-tools":"Bash Read""#));
}

#[test]
fn keygen_refuses_to_overwrite_without_force() {
    let tmp = tempdir();
    let d = tmp.path();
    exits(&run(d, &["keygen", "-W", "-p", "k.pub", "-s", "k.key"]), 0);
    let keys = || {
        (
            std::fs::read(d.join("k.pub")).unwrap(),
            std::fs::read(d.join("k.key")).unwrap(),
        )
    };
    let before = keys();
    let shown = exits(&run(d, &["keygen", "-W", "-p", "k.pub", "-s", "k.key"]), 2);
    assert!(shown.contains("already exists: pass `--force`"), "{shown}");
    assert!(keys() == before, "the keys were changed");

    std::fs::remove_file(d.join("k.key")).unwrap();
    let shown = exits(&run(d, &["keygen", "-W", "-p", "k.pub", "-s", "k.key"]), 2);
    assert!(shown.contains("`k.pub` already exists"), "{shown}");
    assert!(!d.join("k.key").exists(), "a half key pair was written");

    exits(
        &run(d, &["keygen", "-W", "-f", "-p", "k.pub", "-s", "k.key"]),
        0,
    );
    assert!(keys().0 != before.0, "`-f` writes a new key");
}

/// Two plugins may each have a skill `access`: `--format skill` must not
/// write both to one `access.skill`, the second silently replacing the
/// first while both are reported packed.
#[test]
fn skill_format_keeps_every_skill() {
    let tmp = tempdir();
    let d = tmp.path();
    let skill = |plugin: &str| {
        format!(
            "---\nname: access\ndescription: Grants access for {plugin}. Use when testing.\n---\nBody.\n"
        )
    };
    let (one, two) = (skill("one"), skill("two"));
    write_tree(
        d,
        &[
            (
                "src/one/.claude-plugin/plugin.json",
                b"{\"name\": \"one\"}\n",
            ),
            ("src/one/skills/access/SKILL.md", one.as_bytes()),
            (
                "src/two/.claude-plugin/plugin.json",
                b"{\"name\": \"two\"}\n",
            ),
            ("src/two/skills/access/SKILL.md", two.as_bytes()),
        ],
    );
    let listed = json(&run(d, &["inspect", "src", "--format", "json"]));
    let names: Vec<&str> = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["one:access", "two:access"]);

    let out = run(d, &["pack", "src", "--format", "skill", "-o", "out"]);
    let written = std::fs::read_dir(d.join("out")).map_or(0, Iterator::count);
    assert!(
        !out.status.success() || written == 2,
        "exit 0, {written} `.skill` file(s) written for 2 skills:\n{}",
        stdout(&out)
    );
}

#[test]
fn bundle_from_pack_is_the_directory() {
    let tmp = tempdir();
    let d = tmp.path();
    run_ok(
        skills()
            .current_dir(d)
            .args(["pack", "-o", "x.skillpack"])
            .arg(examples()),
    );
    let bytes = std::fs::read(d.join("x.skillpack")).unwrap();
    let bundle = Bundle::from_pack(&bytes, Trust::Unsigned).unwrap();

    let roots = vec![examples()];
    let checked = compiler::check(&roots, &Options::default());
    let plan = embed::plan(&checked, &roots, &[]).unwrap();
    assert_eq!(bundle.digest(), plan.digest);
    assert_eq!(bundle.catalog(), plan.catalog);
    assert_eq!(bundle.len(), 5);
    assert_eq!(bundle.len(), plan.skills.len());
    for (skill, planned) in bundle.skills().zip(&plan.skills) {
        assert_eq!(skill.name(), planned.meta.name);
        assert_eq!(skill.description(), planned.meta.description);
        assert_eq!(
            bundle.get(&planned.meta.name).map(|s| s.name()),
            Some(skill.name())
        );
        let on_disk = tree(&examples().join(&planned.source_dir));
        let in_pack: BTreeMap<String, (Vec<u8>, bool)> = skill
            .files()
            .map(|f| {
                let bytes = f.bytes().unwrap().to_vec();
                (f.path().to_string(), (bytes, f.is_executable()))
            })
            .collect();
        assert!(in_pack == on_disk, "{}: files differ", planned.meta.name);
        let hashes: Vec<(&str, &[u8; 32], bool)> = skill
            .files()
            .map(|f| (f.path(), f.sha256(), f.is_executable()))
            .collect();
        let planned_hashes: Vec<(&str, &[u8; 32], bool)> = planned
            .files
            .iter()
            .map(|f| (&*f.meta.path, &f.meta.sha256, f.meta.executable))
            .collect();
        assert_eq!(hashes, planned_hashes);
        let md = &on_disk["SKILL.md"].0;
        let (start, end) = planned.meta.body;
        let body = std::str::from_utf8(&md[start as usize..end as usize]).unwrap();
        assert_eq!(skill.body().unwrap(), body);
    }
}
