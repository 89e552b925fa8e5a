//! `skills_supply::git::checkout_signed` against a repository whose tags
//! and commits `ssh-keygen` signed: what vouches, and the refusals that bind
//! a signature to what was checked out (a tag over another commit, a tag
//! object the server no longer lists, a changed object).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use skills_supply::git::{self, GitError, GitOptions, TagRef};
use skills_supply::trust::{Origin, TrustFile, TrustedKey};

use crate::git_server::{git, write};

/// Runs git in `dir` signing with the SSH key `key`; returns stdout.
fn signing(dir: &Path, key: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
        .args(["-c", "gpg.format=ssh", "-c"])
        .arg(format!("user.signingkey={}", key.display()))
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn ssh_key(dir: &Path) -> PathBuf {
    let path = dir.join("key");
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(&path)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `ssh-keygen` ({e}): `apt-get install -y openssh-client`")
        });
    assert!(out.status.success());
    path
}

/// The store's keys: `key`'s public key, trusted as `acme`.
fn store(dir: &Path, key: &Path) -> TrustFile {
    let mut file = TrustFile::load(&dir.join("trust.json"), Origin::Project).unwrap();
    let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
    file.add_key("acme", &public).unwrap();
    file
}

fn keys_of(file: &TrustFile) -> Vec<&TrustedKey> {
    file.publishers().flat_map(|p| &p.keys).collect()
}

#[skills_tests::acceptance("needs ssh-keygen (openssh-client) beside git")]
#[test]
fn a_signature_vouches_only_for_the_commit_checked_out() {
    let tmp = tempfile::tempdir().unwrap();
    let key = ssh_key(tmp.path());
    let file = store(tmp.path(), &key);
    let keys = keys_of(&file);
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "--quiet"]);
    write(&repo, "skills/a/SKILL.md", "a\n");
    git(&repo, &["add", "."]);
    signing(&repo, &key, &["commit", "--quiet", "-S", "-m", "first"]);
    let first = git(&repo, &["rev-parse", "HEAD"]);
    signing(&repo, &key, &["tag", "-s", "-m", "one", "v1"]);
    let v1 = git(&repo, &["rev-parse", "v1"]);
    write(&repo, "skills/a/SKILL.md", "a 2\n");
    git(&repo, &["commit", "--quiet", "-am", "second, unsigned"]);
    let second = git(&repo, &["rev-parse", "HEAD"]);
    let url = format!("file://{}", repo.display());
    // Without a cache, and with one: there every checkout after the first
    // of a commit reads it from the cache, and its signature is checked on
    // the cached objects just the same.
    for cache in [None, Some(tmp.path().join("cache"))] {
        let opts = GitOptions {
            cache: cache.clone(),
            ..GitOptions::default()
        };
        let run = if cache.is_some() { "cached" } else { "fresh" };
        checks(
            &url,
            &opts,
            &tmp.path().join(run),
            &keys,
            [&first, &second, &v1],
        );
    }
}

/// What [`a_signature_vouches_only_for_the_commit_checked_out`] checks,
/// checking out into folders under `out`.
fn checks(
    url: &str,
    opts: &GitOptions,
    out: &Path,
    keys: &[&TrustedKey],
    [first, second, v1]: [&String; 3],
) {
    std::fs::create_dir_all(out).unwrap();
    let dest = |n: &str| out.join(n);
    let tag = |object: &str| TagRef {
        name: "v1".into(),
        object: Some(object.into()),
    };

    // The tag vouches for its commit; its time and name are read.
    let signed = git::checkout_signed(url, first, Some(&tag(v1)), None, &dest("a"), opts, keys)
        .unwrap()
        .unwrap();
    assert!(signed.trusted_key);
    assert_eq!(signed.key_id, keys[0].id);
    assert_eq!(
        signed.tag.as_ref().map(|t| t.object.as_str()),
        Some(v1.as_str())
    );
    assert!(signed.time.is_some());
    // The commit alone, signed too; the unsigned one is unsigned.
    let commit_only = git::checkout_signed(url, first, None, None, &dest("b"), opts, keys).unwrap();
    assert_eq!(commit_only.map(|s| s.tag), Some(None));
    let unsigned = git::checkout_signed(url, second, None, None, &dest("c"), opts, keys).unwrap();
    assert_eq!(unsigned, None);

    // A signed tag over another commit than the one checked out: refused,
    // and nothing is left.
    let err = git::checkout_signed(url, second, Some(&tag(v1)), None, &dest("d"), opts, keys)
        .unwrap_err();
    assert!(matches!(err, GitError::Signature { .. }), "{err}");
    assert!(
        err.to_string().contains("not the commit checked out"),
        "{err}"
    );
    assert!(!dest("d").exists() || std::fs::read_dir(dest("d")).unwrap().next().is_none());
    // The tag the server lists now is not the one the ref was read as.
    let err = git::checkout_signed(
        url,
        first,
        Some(&tag(&"0".repeat(40))),
        None,
        &dest("e"),
        opts,
        keys,
    )
    .unwrap_err();
    assert!(err.to_string().contains("it moved"), "{err}");
    // A key the store does not hold: found, not trusted.
    let other = tempfile::tempdir().unwrap();
    let stranger = ssh_key(other.path());
    let stranger_file = store(other.path(), &stranger);
    let found = git::checkout_signed(
        url,
        first,
        None,
        None,
        &dest("f"),
        opts,
        &keys_of(&stranger_file),
    )
    .unwrap()
    .unwrap();
    assert!(!found.trusted_key);
    assert_eq!(found.key_id, keys[0].id);
}
