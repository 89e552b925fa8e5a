//! Signing as a user does it, against the stock `minisign` binary: keys from
//! `skb keygen` used by `minisign`, packs signed by `skb pack --sign`
//! verified by `minisign -Vm`, keys and signatures from `minisign` used by
//! `skills`, and the messages for a missing or wrong password.
//!
//! These tests need `minisign` on `PATH` (CI installs it) and fail, rather
//! than skip, without it. The password always comes from
//! `SKILLS_KEY_PASSWORD` with stdin closed, so no test waits on a prompt.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::skills;
use skills_tests::{tempdir, write_tree};

const PASSWORD: &str = "correct horse";

/// Runs `skills <args>` in `dir` with stdin closed and `password`, if any,
/// in `SKILLS_KEY_PASSWORD`.
fn run(dir: &Path, args: &[&str], password: Option<&str>) -> Output {
    let mut command = skills();
    command
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env_remove("SKILLS_KEY_PASSWORD");
    if let Some(password) = password {
        command.env("SKILLS_KEY_PASSWORD", password);
    }
    command.output().unwrap()
}

/// Runs the stock `minisign` in `dir`, typing `input`; it must succeed.
fn minisign(dir: &Path, args: &[&str], input: &str) -> String {
    let mut child = Command::new("minisign")
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run `minisign` ({e}): these tests need it: `apt-get install minisign`")
        });
    if let Some(mut stdin) = child.stdin.take() {
        // minisign may exit without reading (`-W`): a closed pipe is fine.
        let _ = stdin.write_all(input.as_bytes());
    }
    let output = child.wait_with_output().unwrap();
    let text = text(&output);
    assert!(
        output.status.success(),
        "`minisign {}` failed:\n{text}",
        args.join(" ")
    );
    text
}

/// stdout and stderr together.
fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

/// Asserts that `output` is a success, showing it otherwise.
fn success(output: &Output) -> String {
    assert!(output.status.success(), "{}", text(output));
    text(output)
}

/// Asserts that `output` is a usage or I/O failure (exit 2); returns stderr.
fn failure(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(2), "{}", text(output));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A directory holding one valid skill, `demo/`.
fn skill_dir() -> tempfile::TempDir {
    let dir = tempdir();
    write_tree(
        dir.path(),
        &[
            (
                "demo/SKILL.md",
                b"---\nname: demo\ndescription: Demonstrates signing. Use when testing.\n---\nBody.\n",
            ),
            ("demo/notes.txt", b"some notes\n"),
        ],
    );
    dir
}

/// The second line of a key file: its base64 key.
fn base64_key(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().nth(1).unwrap().to_owned()
}

#[test]
fn keys_from_keygen_work_with_stock_minisign() {
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("data"), b"some bytes\n").unwrap();

    let out = success(&run(
        d,
        &["keygen", "-W", "-p", "k.pub", "-s", "k.key"],
        None,
    ));
    let id = out.lines().next().unwrap().trim_start_matches("key id ");
    let public = std::fs::read_to_string(d.join("k.pub")).unwrap();
    assert!(public.starts_with(&format!("untrusted comment: minisign public key {id}\n")));
    minisign(d, &["-S", "-s", "k.key", "-m", "data", "-t", "plain"], "");
    let shown = minisign(d, &["-Vm", "data", "-p", "k.pub"], "");
    assert!(shown.contains("Trusted comment: plain"), "{shown}");

    let args = ["keygen", "-p", "e.pub", "-s", "e.key"];
    success(&run(d, &args, Some(PASSWORD)));
    let typed = format!("{PASSWORD}\n");
    minisign(
        d,
        &["-S", "-s", "e.key", "-m", "data", "-t", "encrypted"],
        &typed,
    );
    let shown = minisign(d, &["-Vm", "data", "-p", "e.pub"], "");
    assert!(shown.contains("Trusted comment: encrypted"), "{shown}");
}

#[test]
fn keygen_needs_a_password_or_w_and_keeps_existing_keys() {
    let dir = tempdir();
    let d = dir.path();
    let err = failure(&run(d, &["keygen"], None));
    assert!(err.contains("set `SKILLS_KEY_PASSWORD`"), "{err}");
    assert!(err.contains("`-W`"), "{err}");
    assert!(!d.join("skills.key").exists() && !d.join("skills.pub").exists());

    let err = failure(&run(d, &["keygen"], Some("")));
    assert!(err.contains("empty password"), "{err}");

    let first = success(&run(d, &["keygen", "-W"], None));
    let err = failure(&run(d, &["keygen", "-W"], None));
    assert!(err.contains("`skills.key` already exists"), "{err}");
    assert!(err.contains("`--force`"), "{err}");
    let second = success(&run(d, &["keygen", "-W", "--force"], None));
    assert_ne!(first.lines().next(), second.lines().next(), "a new key id");
}

#[test]
fn signed_packs_verify_with_stock_minisign_and_skills() {
    let dir = skill_dir();
    let d = dir.path();
    success(&run(
        d,
        &["keygen", "-p", "k.pub", "-s", "k.key"],
        Some(PASSWORD),
    ));
    let args = ["pack", "demo", "-o", "demo.skillpack", "--sign", "k.key"];
    success(&run(d, &args, Some(PASSWORD)));
    let signature = std::fs::read_to_string(d.join("demo.skillpack.minisig")).unwrap();
    assert!(signature.starts_with("untrusted comment: signature from skills secret key\n"));

    let shown = minisign(d, &["-Vm", "demo.skillpack", "-p", "k.pub"], "");
    assert!(
        shown.contains("Trusted comment: skills-digest-v2:"),
        "{shown}"
    );
    let bare = base64_key(&d.join("k.pub"));
    minisign(d, &["-Vm", "demo.skillpack", "-P", &bare], "");
    success(&run(d, &["verify", "demo.skillpack", "-p", "k.pub"], None));
    success(&run(d, &["verify", "demo.skillpack", "-p", &bare], None));
}

#[test]
fn stock_keys_and_signatures_work_with_skills() {
    let dir = skill_dir();
    let d = dir.path();
    minisign(d, &["-G", "-p", "stock.pub", "-s", "stock.key", "-W"], "");

    let args = [
        "pack",
        "demo",
        "-o",
        "signed.skillpack",
        "--sign",
        "stock.key",
    ];
    success(&run(d, &args, None));
    minisign(d, &["-Vm", "signed.skillpack", "-p", "stock.pub"], "");

    success(&run(d, &["pack", "demo", "-o", "plain.skillpack"], None));
    minisign(d, &["-S", "-s", "stock.key", "-m", "plain.skillpack"], "");
    success(&run(
        d,
        &["verify", "plain.skillpack", "-p", "stock.pub"],
        None,
    ));
    let bare = base64_key(&d.join("stock.pub"));
    success(&run(d, &["verify", "plain.skillpack", "-p", &bare], None));
}

#[test]
fn signing_failures_name_the_key_and_write_nothing() {
    let dir = skill_dir();
    let d = dir.path();
    success(&run(
        d,
        &["keygen", "-p", "k.pub", "-s", "k.key"],
        Some(PASSWORD),
    ));
    let args = ["pack", "demo", "-o", "demo.skillpack", "--sign", "k.key"];

    let err = failure(&run(d, &args, None));
    assert!(
        err.contains("`k.key` is encrypted: set `SKILLS_KEY_PASSWORD`"),
        "{err}"
    );
    let err = failure(&run(d, &args, Some("wrong")));
    assert!(err.contains("wrong password for `k.key`"), "{err}");
    let missing = [
        "pack",
        "demo",
        "-o",
        "demo.skillpack",
        "--sign",
        "missing.key",
    ];
    let err = failure(&run(d, &missing, None));
    assert!(err.contains("cannot read `missing.key`"), "{err}");

    std::fs::write(d.join("bad.key"), "untrusted comment: x\nnot a key\n").unwrap();
    let bad = ["pack", "demo", "-o", "demo.skillpack", "--sign", "bad.key"];
    let err = failure(&run(d, &bad, None));
    assert!(
        err.contains("`bad.key` is not a minisign secret key"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(!d.join("demo.skillpack").exists());
    assert!(!d.join("demo.skillpack.minisig").exists());
}

/// An empty `.minisig` is a signature file that holds no signature, not a
/// missing one: `verify` says so, with status 1.
#[test]
fn an_empty_signature_file_is_not_a_signature() {
    let dir = skill_dir();
    let d = dir.path();
    success(&run(
        d,
        &["keygen", "-p", "k.pub", "-s", "k.key"],
        Some(PASSWORD),
    ));
    success(&run(d, &["pack", "demo", "-o", "demo.skillpack"], None));
    std::fs::write(d.join("demo.skillpack.minisig"), "").unwrap();
    let out = run(d, &["verify", "demo.skillpack", "-p", "k.pub"], None);
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).as_ref()
        ),
        (
            Some(1),
            "signature  FAILED signature: the signature is not a minisign signature\n\
             NOT verified: demo.skillpack\n"
        ),
        "{}",
        text(&out)
    );
}

/// Runs `skb pack demo -o demo.skillpack` with `extra` arguments, signing
/// with the unencrypted `k.key`, `SOURCE_DATE_EPOCH` set to `epoch` (or
/// removed).
fn pack_release(dir: &Path, extra: &[&str], epoch: Option<&str>) -> Output {
    let mut command = skills();
    command
        .current_dir(dir)
        .args(["pack", "demo", "-o", "demo.skillpack", "--sign", "k.key"])
        .args(extra)
        .stdin(Stdio::null())
        .env_remove("SKILLS_KEY_PASSWORD")
        .env_remove("SOURCE_DATE_EPOCH");
    if let Some(epoch) = epoch {
        command.env("SOURCE_DATE_EPOCH", epoch);
    }
    command.output().unwrap()
}

/// `--release` signs the version and the time beside the digest: stock
/// `minisign -Vm` still verifies and shows them, `skb verify` still accepts
/// the pack, and `skills_core` reads the claims and the key id back.
#[test]
fn releases_are_signed_with_the_digest_and_read_back() {
    use skills_core::pack::signature;

    let dir = skill_dir();
    let d = dir.path();
    let keygen = success(&run(
        d,
        &["keygen", "-W", "-p", "k.pub", "-s", "k.key"],
        None,
    ));
    let id = keygen.lines().next().unwrap().trim_start_matches("key id ");

    let out = success(&pack_release(
        d,
        &["--release", "1.4.0-rc.1+build.7"],
        Some("1700000000"),
    ));
    assert!(
        out.contains(&format!("with key {id}, release 1.4.0-rc.1+build.7")),
        "{out}"
    );
    let digest = out
        .lines()
        .find_map(|line| line.strip_prefix("digest "))
        .unwrap();
    let expected =
        format!("skills-digest-v2:{digest} version:1.4.0-rc.1+build.7 timestamp:1700000000");
    let shown = minisign(d, &["-Vm", "demo.skillpack", "-p", "k.pub"], "");
    assert!(
        shown.contains(&format!("Trusted comment: {expected}")),
        "{shown}"
    );
    success(&run(d, &["verify", "demo.skillpack", "-p", "k.pub"], None));

    let text = std::fs::read_to_string(d.join("demo.skillpack.minisig")).unwrap();
    let comment = text
        .lines()
        .find_map(|line| line.strip_prefix("trusted comment: "))
        .unwrap();
    assert_eq!(comment, expected);
    let claims = signature::claims(comment).unwrap();
    assert_eq!(claims.digest, digest);
    assert_eq!(claims.version.as_deref(), Some("1.4.0-rc.1+build.7"));
    assert_eq!(claims.timestamp, Some(1_700_000_000));
    assert_eq!(signature::signature_key_id(&text).as_deref(), Some(id));
    let public = std::fs::read_to_string(d.join("k.pub")).unwrap();
    assert_eq!(signature::public_key_id(&public).as_deref(), Some(id));
}

/// Without `--release` the trusted comment is the digest alone, as before:
/// no version, no time.
#[test]
fn without_a_release_the_comment_is_the_digest_alone() {
    use skills_core::pack::signature;

    let dir = skill_dir();
    let d = dir.path();
    success(&run(
        d,
        &["keygen", "-W", "-p", "k.pub", "-s", "k.key"],
        None,
    ));
    let out = success(&pack_release(d, &[], Some("1700000000")));
    assert!(!out.contains("release"), "{out}");
    minisign(d, &["-Vm", "demo.skillpack", "-p", "k.pub"], "");
    let text = std::fs::read_to_string(d.join("demo.skillpack.minisig")).unwrap();
    let comment = text
        .lines()
        .find_map(|line| line.strip_prefix("trusted comment: "))
        .unwrap();
    let claims = signature::claims(comment).unwrap();
    assert_eq!(comment, signature::trusted_comment(&claims.digest));
    assert_eq!((claims.version, claims.timestamp), (None, None));
}

/// A release that is not a SemVer version, a `SOURCE_DATE_EPOCH` that is no
/// time, and `--release` without `--sign` are usage errors, and nothing is
/// written.
#[test]
fn bad_releases_are_refused_and_nothing_is_written() {
    let dir = skill_dir();
    let d = dir.path();
    success(&run(
        d,
        &["keygen", "-W", "-p", "k.pub", "-s", "k.key"],
        None,
    ));
    for bad in ["1.4", "v1.4.0", "1.04.0", "1.4.0-", "latest"] {
        let err = failure(&pack_release(d, &["--release", bad], None));
        assert!(
            err.contains(&format!("`--release {bad}` is not a SemVer version")),
            "{err}"
        );
    }
    let err = failure(&pack_release(d, &["--release", "1.4.0"], Some("-5")));
    assert!(err.contains("`SOURCE_DATE_EPOCH` is \"-5\""), "{err}");
    let unsigned = ["pack", "demo", "-o", "demo.skillpack", "--release", "1.4.0"];
    let err = failure(&run(d, &unsigned, None));
    assert!(err.contains("--sign <KEY>"), "{err}");
    assert!(!d.join("demo.skillpack").exists());
    assert!(!d.join("demo.skillpack.minisig").exists());
}
