//! Packs and archives against the tools a user already has: the stock
//! `minisign`, Info-ZIP's `unzip` and `zip`, and Python's `zipfile`.
//!
//! * Keys from `skb keygen` and signatures from `skb pack --sign`
//!   verify with `minisign -Vm`, which shows the signed digest; keys and
//!   signatures from `minisign` verify with `skb verify`.
//! * Every pack and `.skill` archive written here (the repository's
//!   `skills/`, the shared corpus, signed and dated packs) passes
//!   `unzip -t` and Python's `zipfile`, with the names, sizes and modes
//!   `skb inspect` lists for the directories they came from.
//! * A `.skill` archive in the layout of Anthropic's `package_skill.py`
//!   (`tests/fixtures/package_skill_layout.py`) or made by `zip -r` is read
//!   like the directory it was made from, and `skb pack --format skill`
//!   output packs back to the same bytes.
//!
//! These tests need `minisign`, `unzip`, `zip` and `python3` on `PATH` (CI
//! installs them) and fail, rather than skip, without them.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::skills;
use serde_json::Value;
use skills_tests::{
    corpus_roots, files_under, printed_digest, run_ok, set_mode, tempdir, tool, workspace,
    write_tree,
};

const PASSWORD: &str = "interop password";

fn minisign() -> Command {
    tool("minisign", "minisign")
}

/// `skills` in `dir`, stdin closed, without a password or a date.
fn skills_in(dir: &Path) -> Command {
    let mut command = skills();
    command
        .current_dir(dir)
        .stdin(Stdio::null())
        .env_remove("SKILLS_KEY_PASSWORD")
        .env_remove("SOURCE_DATE_EPOCH");
    command
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

/// The second line of a key file: its base64 key.
fn bare_key(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string()
}

fn example_skills() -> PathBuf {
    workspace().join("skills")
}

#[test]
fn skills_keys_and_signatures_verify_with_minisign() {
    let tmp = tempdir();
    let d = tmp.path();
    let examples = example_skills();
    for (key, password) in [("plain", None), ("encrypted", Some(PASSWORD))] {
        let (public, secret) = (format!("{key}.pub"), format!("{key}.key"));
        let pack = format!("{key}.skillpack");
        let mut keygen = skills_in(d);
        keygen.args(["keygen", "-p", &public, "-s", &secret]);
        let mut sign = skills_in(d);
        sign.arg("pack").arg(&examples);
        sign.args(["-o", &pack, "--sign", &secret]);
        match password {
            Some(p) => {
                keygen.env("SKILLS_KEY_PASSWORD", p);
                sign.env("SKILLS_KEY_PASSWORD", p);
            }
            None => {
                keygen.arg("-W");
            }
        }
        let made = run_ok(&mut keygen);
        assert!(
            made.contains("not encrypted") == password.is_none(),
            "{made}"
        );
        let digest = printed_digest(&run_ok(&mut sign));

        let shown = run_ok(
            minisign()
                .current_dir(d)
                .args(["-Vm", &pack, "-p", &public]),
        );
        let comment = format!("Trusted comment: skills-digest-v2:{digest}\n");
        assert!(shown.contains(&comment), "{key}: {shown}");
        let bare = bare_key(&d.join(&public));
        run_ok(minisign().current_dir(d).args(["-Vm", &pack, "-P", &bare]));
        let verified = run_ok(skills_in(d).args(["verify", &pack, "-p", &public]));
        assert!(verified.contains(&format!("verified {pack}")), "{verified}");
    }
}

#[test]
fn minisign_keys_and_signatures_verify_with_skills() {
    let tmp = tempdir();
    let d = tmp.path();
    for key in ["stock", "other"] {
        let (public, secret) = (format!("{key}.pub"), format!("{key}.key"));
        run_ok(
            minisign()
                .current_dir(d)
                .args(["-G", "-W", "-p", &public, "-s", &secret]),
        );
    }
    let digest = printed_digest(&run_ok(
        skills_in(d)
            .arg("pack")
            .arg(example_skills())
            .args(["-o", "x.skillpack"]),
    ));
    run_ok(
        minisign()
            .current_dir(d)
            .args(["-Sm", "x.skillpack", "-s", "stock.key"]),
    );
    assert!(d.join("x.skillpack.minisig").is_file());

    let bare = bare_key(&d.join("stock.pub"));
    for key in ["stock.pub", bare.as_str()] {
        let out = run_ok(skills_in(d).args(["verify", "x.skillpack", "-p", key]));
        assert!(out.contains("signature  ok     good signature by"), "{out}");
        assert!(out.contains(&format!("digest {digest}")), "{out}");
        assert!(out.contains("verified x.skillpack"), "{out}");
    }

    let out = skills_in(d)
        .args(["verify", "x.skillpack", "-p", "other.pub"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let shown = text(&out);
    assert!(
        shown.contains("signature  FAILED signature: the pack was signed with another key"),
        "{shown}"
    );
    assert!(shown.contains("NOT verified: x.skillpack"), "{shown}");
}

/// What Python's `zipfile` reads in each archive: `testzip()`, and every
/// entry's name, size, mode and date; the manifest's digest for a pack.
const ZIPFILE_READER: &str = r#"
import json, sys, zipfile
out = []
for path in sys.argv[1:]:
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        digest = None
        if infos and infos[0].filename == "skillpack.json":
            digest = json.loads(z.read("skillpack.json"))["digest"]
        out.append({
            "path": path,
            "testzip": z.testzip(),
            "digest": digest,
            "entries": [[i.filename, i.file_size, i.external_attr >> 16, list(i.date_time)] for i in infos],
        })
print(json.dumps(out))
"#;

/// One archive as `zipfile` read it.
struct Read {
    testzip: Value,
    digest: Value,
    /// (name, size, Unix mode, date) of every entry, in order.
    entries: Vec<(String, u64, u64, Vec<u64>)>,
}

fn python_read(archives: &[PathBuf]) -> BTreeMap<PathBuf, Read> {
    let stdout = run_ok(
        tool("python3", "python3")
            .args(["-c", ZIPFILE_READER])
            .args(archives),
    );
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    doc.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let entries = a["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    let date = e[3].as_array().unwrap();
                    (
                        e[0].as_str().unwrap().to_string(),
                        e[1].as_u64().unwrap(),
                        e[2].as_u64().unwrap(),
                        date.iter().map(|v| v.as_u64().unwrap()).collect(),
                    )
                })
                .collect();
            let read = Read {
                testzip: a["testzip"].clone(),
                digest: a["digest"].clone(),
                entries,
            };
            (PathBuf::from(a["path"].as_str().unwrap()), read)
        })
        .collect()
}

fn unzip_test(archive: &Path) {
    let out = tool("unzip", "unzip")
        .arg("-t")
        .arg(archive)
        .output()
        .unwrap();
    let shown = text(&out);
    assert!(
        out.status.success() && shown.contains("No errors detected"),
        "`unzip -t {}`:\n{shown}",
        archive.display()
    );
}

/// `skb inspect <roots> --format json`: what the directories hold.
fn inspect(roots: &[PathBuf], args: &[&str]) -> Value {
    let stdout = run_ok(
        skills()
            .arg("inspect")
            .args(roots)
            .args(args)
            .args(["--format", "json"]),
    );
    serde_json::from_str(&stdout).unwrap()
}

/// (entry name, size, Unix mode) of the files of an archive.
type Entries = Vec<(String, u64, u64)>;

/// The [`Entries`] of a listed `skill`'s files, each under `dir/`.
fn expected_entries(skill: &Value, dir: &str) -> Entries {
    skill["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let mode = u64::from_str_radix(f["mode"].as_str().unwrap(), 8).unwrap();
            (
                format!("{dir}/{}", f["path"].as_str().unwrap()),
                f["size"].as_u64().unwrap(),
                0o100_000 | mode,
            )
        })
        .collect()
}

/// Packs `roots` every way (plain, signed, dated, `.skill`), then checks
/// every archive with `unzip -t` and `zipfile` against `skb inspect`.
fn check_archives(roots: &[PathBuf], args: &[&str], out: &Path, sign: bool) {
    let listing = inspect(roots, args);
    let digest = listing["digest"].as_str().unwrap();
    let skills_listed = listing["skills"].as_array().unwrap();
    let mut packs = vec![(out.join("plain.skillpack"), None)];
    if sign {
        packs.push((out.join("signed.skillpack"), None));
        packs.push((out.join("dated.skillpack"), Some("1700000000")));
    }
    for (pack, epoch) in &packs {
        let mut command = skills_in(out);
        command
            .arg("pack")
            .args(roots)
            .args(args)
            .arg("-o")
            .arg(pack);
        if pack.ends_with("signed.skillpack") {
            command.args(["--sign", "k.key"]);
        }
        if let Some(epoch) = epoch {
            command.env("SOURCE_DATE_EPOCH", epoch);
        }
        run_ok(&mut command);
    }
    let skill_dir = out.join("skill");
    run_ok(
        skills_in(out)
            .arg("pack")
            .args(roots)
            .args(args)
            .args(["--format", "skill", "-o"])
            .arg(&skill_dir),
    );
    let mut archives: Vec<PathBuf> = packs.iter().map(|(p, _)| p.clone()).collect();
    let skill_files: Vec<(String, PathBuf)> = files_under(&skill_dir).into_iter().collect();
    assert!(!skill_files.is_empty());
    archives.extend(skill_files.iter().map(|(_, p)| p.clone()));
    for archive in &archives {
        unzip_test(archive);
    }
    let read = python_read(&archives);

    let mut pack_entries = vec![];
    for s in skills_listed {
        let dir = skills_bundle::pack::skill_dir(s["name"].as_str().unwrap());
        pack_entries.extend(expected_entries(s, &dir));
    }
    pack_entries.sort();
    for (pack, epoch) in &packs {
        let r = &read[pack];
        assert_eq!(r.testzip, Value::Null, "{}", pack.display());
        assert_eq!(r.digest.as_str(), Some(digest), "{}", pack.display());
        let date = match epoch {
            Some(_) => vec![2023, 11, 14, 22, 13, 20],
            None => vec![1980, 1, 1, 0, 0, 0],
        };
        let (manifest, files) = r.entries.split_first().unwrap();
        assert_eq!(
            (manifest.0.as_str(), manifest.2),
            ("skillpack.json", 0o100_644)
        );
        let got: Entries = files
            .iter()
            .map(|(n, size, mode, _)| (n.clone(), *size, *mode))
            .collect();
        assert!(got == pack_entries, "{}: entries differ", pack.display());
        assert!(r.entries.iter().all(|e| e.3 == date), "{}", pack.display());
    }

    // One `.skill` per skill: `<skill>.skill`, or `<plugin>/<skill>.skill`.
    let mut by_file: BTreeMap<String, Vec<Entries>> = BTreeMap::new();
    for s in skills_listed {
        let name = s["name"].as_str().unwrap();
        let (file, last) = match name.rsplit_once(':') {
            Some((plugin, last)) => (format!("{plugin}/{last}.skill"), last),
            None => (format!("{name}.skill"), name),
        };
        by_file
            .entry(file)
            .or_default()
            .push(expected_entries(s, last));
    }
    assert_eq!(skill_files.len(), by_file.len(), "one `.skill` per skill");
    for (name, file) in &skill_files {
        let name = name.clone();
        let r = &read[file];
        assert_eq!(r.testzip, Value::Null, "{name}");
        assert_eq!(r.digest, Value::Null, "{name}: no manifest in a `.skill`");
        let got: Entries = r
            .entries
            .iter()
            .map(|(n, size, mode, _)| (n.clone(), *size, *mode))
            .collect();
        let candidates = by_file
            .get(&name)
            .unwrap_or_else(|| panic!("`{name}` is no skill's"));
        assert!(
            candidates == &vec![got.clone()],
            "{name}: entries {got:?}, expected {candidates:?}"
        );
    }
    assert_eq!(skill_files.len(), by_file.len());
    println!(
        "{} archives read by unzip and zipfile ({} `.skill`)",
        archives.len(),
        skill_files.len()
    );
}

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn every_pack_and_skill_archive_reads_with_unzip_and_zipfile() {
    let tmp = tempdir();
    let d = tmp.path();
    run_ok(skills_in(d).args(["keygen", "-W", "-p", "k.pub", "-s", "k.key"]));
    check_archives(&[example_skills()], &[], d, true);

    let corpus = d.join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    check_archives(
        &corpus_roots(),
        &["--profile", "claude-code"],
        &corpus,
        false,
    );
}

/// Writes `tests/fixtures/package_skill_layout.py`'s archive of `skill` to `out`.
fn package_skill(skill: &Path, out: &Path) {
    let script = workspace().join("tests/fixtures/package_skill_layout.py");
    run_ok(tool("python3", "python3").arg(script).arg(skill).arg(out));
}

/// Packs `paths` from `dir` into `out`; returns the pack's bytes.
fn pack_bytes(dir: &Path, paths: &[PathBuf], out: &str) -> Vec<u8> {
    run_ok(skills_in(dir).arg("pack").args(paths).args(["-o", out]));
    std::fs::read(dir.join(out)).unwrap()
}

#[test]
fn package_skill_archives_read_like_their_directories() {
    let tmp = tempdir();
    let d = tmp.path();
    write_tree(
        d,
        &[
            (
                "demo-skill/SKILL.md",
                b"---\nname: demo-skill\ndescription: Demonstrates archives. Use when testing.\n---\nRun scripts/run.sh.\n",
            ),
            ("demo-skill/scripts/run.sh", b"#!/bin/sh\necho demo\n"),
            ("demo-skill/scripts/evals/kept.json", b"{}\n"),
            ("demo-skill/references/guide.md", b"# Guide\n"),
            ("demo-skill/evals/evals.json", b"[]\n"),
            ("demo-skill/__pycache__/x.cpython-311.pyc", b"\0\0"),
            ("demo-skill/scripts/node_modules/m/index.js", b"1;\n"),
            ("demo-skill/references/.DS_Store", b"\0"),
            ("demo-skill/helper.pyc", b"\0"),
        ],
    );
    set_mode(&d.join("demo-skill/scripts/run.sh"), 0o755);
    package_skill(&d.join("demo-skill"), &d.join("demo-skill.skill"));
    let listed = run_ok(
        tool("unzip", "unzip")
            .current_dir(d)
            .args(["-Z1", "demo-skill.skill"]),
    );
    let mut names: Vec<&str> = listed.lines().collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "demo-skill/SKILL.md",
            "demo-skill/references/guide.md",
            "demo-skill/scripts/evals/kept.json",
            "demo-skill/scripts/run.sh",
        ],
        "the fixture leaves out what package_skill.py leaves out"
    );

    let checked = run_ok(skills_in(d).args(["validate", "demo-skill.skill"]));
    assert!(checked.contains("all valid"), "{checked}");
    let inspected = run_ok(skills_in(d).args(["inspect", "demo-skill.skill", "--files"]));
    assert!(inspected.contains("0755"), "{inspected}");
    let from_dir = pack_bytes(d, &["demo-skill".into()], "dir.skillpack");
    let from_archive = pack_bytes(d, &["demo-skill.skill".into()], "archive.skillpack");
    assert!(from_archive == from_dir, "the `.skill` packs differently");
    let dir_digest = printed_digest(&run_ok(skills_in(d).args(["inspect", "dir.skillpack"])));
    assert_eq!(printed_digest(&inspected), dir_digest);

    // Info-ZIP's `zip -r` adds directory entries and extra fields, and
    // keeps what the packager would leave out; the directory's rules apply.
    run_ok(
        tool("zip", "zip")
            .current_dir(d)
            .args(["-qr", "info-zip.skill", "demo-skill"]),
    );
    let from_zip = pack_bytes(d, &["info-zip.skill".into()], "zip.skillpack");
    assert!(
        from_zip == from_dir,
        "the `zip -r` archive packs differently"
    );

    // The examples, through package_skill.py's layout and through
    // `skb pack --format skill`.
    let examples = example_skills();
    let names = ["calculator", "csv-insights", "git-workflow"];
    let dirs: Vec<PathBuf> = names.iter().map(|n| examples.join(n)).collect();
    let original = pack_bytes(d, &dirs, "examples.skillpack");
    let archived: Vec<PathBuf> = names
        .iter()
        .map(|n| {
            let archive = d.join(format!("{n}.skill"));
            package_skill(&examples.join(n), &archive);
            archive
        })
        .collect();
    let repacked = pack_bytes(d, &archived, "from-layout.skillpack");
    assert!(
        repacked == original,
        "package_skill.py archives pack differently"
    );
    let mut command = skills_in(d);
    command.arg("pack").args(&dirs);
    run_ok(command.args(["--format", "skill", "-o", "written"]));
    let written: Vec<PathBuf> = names
        .iter()
        .map(|n| d.join("written").join(format!("{n}.skill")))
        .collect();
    let repacked = pack_bytes(d, &written, "from-written.skillpack");
    assert!(
        repacked == original,
        "`--format skill` output packs differently"
    );
}

#[test]
fn an_invalid_skill_archive_is_reported_inside_the_archive() {
    let tmp = tempdir();
    let d = tmp.path();
    write_tree(
        d,
        &[(
            "bad-skill/SKILL.md",
            b"---\nname: bad-skill\n---\nNo description.\n",
        )],
    );
    package_skill(&d.join("bad-skill"), &d.join("bad-skill.skill"));
    let out = skills_in(d)
        .args(["validate", "bad-skill.skill"])
        .output()
        .unwrap();
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains("--> bad-skill.skill/bad-skill/SKILL.md:2:1"),
        "{shown}"
    );
    assert!(
        shown.contains("missing required key `description`"),
        "{shown}"
    );
    assert!(
        !shown.contains("skills-input-"),
        "a temporary path leaks: {shown}"
    );

    let out = skills_in(d)
        .args(["pack", "bad-skill.skill", "-o", "bad.skillpack"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("bad-skill.skill/bad-skill/SKILL.md"));
    assert!(!d.join("bad.skillpack").exists());
}
