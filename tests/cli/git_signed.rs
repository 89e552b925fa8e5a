//! Signed installs from git, end to end against the real programs: a
//! repository served by `git daemon` on 127.0.0.1, commits and tags signed
//! by `ssh-keygen` keys (git's `gpg.format ssh`) and by a key
//! `gpg --quick-gen-key` made, `skb trust add` of those keys with a pin, and
//! every refusal: a key the store does not hold, a key trusted for another
//! source, an unsigned commit, a tag moved to an unsigned commit, a lock
//! edited to name another key, a retired key's new release.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::install_remote::servers::GitDaemon;
use crate::skills;
use skills_tests::{files_under, tempdir, write_tree};

/// Runs `skb` in `dir` with a `HOME` beside it (no user trust file).
fn run(dir: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env("HOME", dir.parent().unwrap().join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("GNUPGHOME")
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(out.status.success(), "skb {args:?}: {}", text(&out));
    text(&out)
}

/// Runs `args`, which must fail naming each of `names` and leave the
/// project's files as they were.
fn refused(p: &Path, args: &[&str], names: &[&str]) -> String {
    let before = snapshot(p);
    let out = run(p, args);
    let said = text(&out);
    assert!(!out.status.success(), "skb {args:?} succeeded: {said}");
    for name in names {
        assert!(
            said.contains(name),
            "skb {args:?} does not name {name:?}: {said}"
        );
    }
    assert_eq!(snapshot(p), before, "skb {args:?} changed the project");
    said
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .filter(|(rel, _)| !rel.starts_with(".skb/"))
        .map(|(rel, path)| (rel, std::fs::read(path).unwrap()))
        .collect()
}

/// How a commit or tag is signed.
#[derive(Clone, Copy)]
enum Sign<'a> {
    No,
    /// With this SSH private key file.
    Ssh(&'a Path),
    /// With this OpenPGP key, from this gpg home.
    Pgp(&'a Path, &'a str),
}

/// Runs `git` in `dir`, signing as `sign` says, with nothing of the user's
/// configuration; returns trimmed stdout.
fn git(dir: &Path, sign: Sign<'_>, args: &[&str]) -> String {
    let mut cmd = Command::new("git");
    cmd.args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    match sign {
        Sign::No => {}
        Sign::Ssh(key) => {
            cmd.args(["-c", "gpg.format=ssh", "-c"])
                .arg(format!("user.signingkey={}", key.display()));
        }
        Sign::Pgp(home, fingerprint) => {
            cmd.args(["-c", "gpg.format=openpgp", "-c"])
                .arg(format!("user.signingkey={fingerprint}"))
                .env("GNUPGHOME", home);
        }
    }
    let out = cmd
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run `git` ({e}): `apt-get install -y git`"));
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A new SSH key `<dir>/<name>` (no passphrase); returns its private key
/// file (`.pub` beside it).
fn ssh_key(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `ssh-keygen` ({e}): `apt-get install -y openssh-client`")
        });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

/// The fingerprint `ssh-keygen -l` prints for `key`'s public key.
fn ssh_fingerprint(key: &Path) -> String {
    let out = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(key.with_extension("pub"))
        .output()
        .unwrap();
    let line = String::from_utf8_lossy(&out.stdout).into_owned();
    line.split_whitespace().nth(1).unwrap().to_owned()
}

fn skill(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {name} does things. Use it for things.\n---\n{body}\n")
}

/// A repository `served/<name>` of one skill `alpha`, its first commit
/// signed as `sign` says.
fn repo(root: &Path, name: &str, sign: Sign<'_>) -> PathBuf {
    let repo = root.join("served").join(name);
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, Sign::No, &["init", "--quiet"]);
    write_tree(
        &repo,
        &[(
            "skills/alpha/SKILL.md",
            skill("alpha", "Alpha 1.").as_bytes(),
        )],
    );
    git(&repo, Sign::No, &["add", "."]);
    commit(&repo, sign, "first");
    repo
}

/// Commits what is staged, signed as `sign` says; returns the commit.
fn commit(repo: &Path, sign: Sign<'_>, message: &str) -> String {
    let signed = !matches!(sign, Sign::No);
    let mut args = vec!["commit", "--quiet", "--allow-empty", "-m", message];
    if signed {
        args.push("-S");
    }
    git(repo, sign, &args);
    git(repo, Sign::No, &["rev-parse", "HEAD"])
}

fn edit_alpha(repo: &Path, body: &str) {
    std::fs::write(repo.join("skills/alpha/SKILL.md"), skill("alpha", body)).unwrap();
    git(repo, Sign::No, &["add", "."]);
}

/// A temporary root with an empty project `p`.
fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempdir();
    let root = tmp.path().to_path_buf();
    let p = root.join("p");
    std::fs::create_dir_all(&p).unwrap();
    (tmp, root, p)
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref()).unwrap()
}

/// Only what a fresh clone of the project has: the lock and the trust file.
fn fresh_clone(p: &Path) {
    for dir in [".claude", ".skb"] {
        let _ = std::fs::remove_dir_all(p.join(dir));
    }
}

#[skills_tests::acceptance("needs ssh-keygen (openssh-client) beside git")]
#[test]
fn ssh_signed_tags_and_commits_install_and_every_other_signature_is_refused() {
    let (_tmp, root, p) = project();
    let keys = root.join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let acme = ssh_key(&keys, "acme");
    let bob = ssh_key(&keys, "bob");
    let stranger = ssh_key(&keys, "stranger");
    let (acme_id, bob_id, stranger_id) = (
        ssh_fingerprint(&acme),
        ssh_fingerprint(&bob),
        ssh_fingerprint(&stranger),
    );

    // acme signs a tag of `skills`; the others sign commits of their own.
    let skills_repo = repo(&root, "skills", Sign::Ssh(&acme));
    let signed_commit = git(&skills_repo, Sign::No, &["rev-parse", "HEAD"]);
    git(
        &skills_repo,
        Sign::Ssh(&acme),
        &["tag", "-s", "-m", "release 1.0.0", "v1.0.0"],
    );
    let tag_object = git(&skills_repo, Sign::No, &["rev-parse", "v1.0.0"]);
    repo(&root, "by-bob", Sign::Ssh(&bob));
    repo(&root, "by-stranger", Sign::Ssh(&stranger));
    repo(&root, "unsigned", Sign::No);
    let daemon = GitDaemon::start(&root.join("served"));
    let url = |name: &str| daemon.url(name);
    let host = url("")
        .trim_start_matches("git://")
        .trim_end_matches('/')
        .to_owned();

    // acme's key pins acme's repositories; bob's key is trusted for bob's.
    let out = ok(
        &p,
        &[
            "trust",
            "add",
            "acme",
            acme.with_extension("pub").to_str().unwrap(),
            "--source",
            &format!("{host}/skills"),
            "--source",
            &format!("{host}/by-*"),
            "--source",
            &format!("{host}/unsigned"),
        ],
    );
    assert!(out.contains(&acme_id) && out.contains("ssh key"), "{out}");
    ok(
        &p,
        &[
            "trust",
            "add",
            "bob",
            &read(bob.with_extension("pub")),
            "--source",
            "github.com/bob/*",
        ],
    );
    let listed = ok(&p, &["trust", "list"]);
    assert!(
        listed.contains(&format!("acme\t{acme_id}\tssh\tproject")),
        "{listed}"
    );
    let trust_file = read(p.join("skills-trust.json"));
    assert!(trust_file.contains("\"kind\": \"ssh\""), "{trust_file}");

    // The signed tag vouches: installed without --allow-unsigned.
    let at_tag = format!("{}#v1.0.0", url("skills"));
    let out = ok(&p, &["add", &at_tag, "--client", "claude-code"]);
    assert!(out.contains("alpha"), "{out}");
    let lock = read(p.join("skb.lock"));
    for want in [
        format!("\"key\": \"{acme_id}\""),
        "\"kind\": \"ssh\"".to_owned(),
        format!("\"commit\": \"{signed_commit}\""),
        "\"tag\": \"v1.0.0\"".to_owned(),
        format!("\"tag_object\": \"{tag_object}\""),
        "\"version\": \"1.0.0\"".to_owned(),
    ] {
        assert!(lock.contains(&want), "{want} not in {lock}");
    }
    assert!(!lock.contains("\"unsigned\""), "{lock}");
    ok(&p, &["verify", "--installed"]);
    fresh_clone(&p);
    ok(&p, &["install", "--frozen"]);

    // A lock edited to name another key: refused, offline and frozen.
    let edited = lock.replace(&acme_id, &bob_id);
    std::fs::write(p.join("skb.lock"), &edited).unwrap();
    let out = run(&p, &["verify", "--installed"]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(&bob_id), "{}", text(&out));
    fresh_clone(&p);
    refused(&p, &["install", "--frozen"], &[&bob_id]);
    std::fs::write(p.join("skb.lock"), &lock).unwrap();
    ok(&p, &["install", "--frozen"]);

    // Each other signature is refused, naming its key and why.
    let other = root.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(p.join("skills-trust.json"), other.join("skills-trust.json")).unwrap();
    let said = refused(
        &other,
        &["add", &url("by-stranger"), "--client", "claude-code"],
        &[&stranger_id, "not trusted for this source", "pin: acme"],
    );
    assert!(said.contains("--allow-unsigned"), "{said}");
    refused(
        &other,
        &["add", &url("by-bob"), "--client", "claude-code"],
        &[&bob_id, "not trusted for this source", "pin: acme"],
    );
    refused(
        &other,
        &["add", &url("unsigned"), "--client", "claude-code"],
        &[
            "not signed",
            "--allow-unsigned",
            "a lightweight tag signs nothing",
        ],
    );

    // `--pubkey` trusts an SSH key for one run, as it does a minisign key.
    let once = root.join("once");
    std::fs::create_dir_all(&once).unwrap();
    let acme_pub = acme.with_extension("pub");
    ok(
        &once,
        &[
            "add",
            &at_tag,
            "--client",
            "claude-code",
            "--pubkey",
            acme_pub.to_str().unwrap(),
        ],
    );
    assert!(read(once.join("skb.lock")).contains(&acme_id));

    // Without ssh-keygen nothing is taken on trust: the program is named.
    #[cfg(unix)]
    {
        let bin = root.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let real_git = String::from_utf8(
            Command::new("sh")
                .args(["-c", "command -v git"])
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap();
        std::os::unix::fs::symlink(real_git.trim(), bin.join("git")).unwrap();
        let out = skills()
            .current_dir(&other)
            .args(["add", &at_tag, "--client", "claude-code"])
            .env("HOME", root.join("home"))
            .env("PATH", &bin)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{}", text(&out));
        assert!(
            text(&out).contains("`ssh-keygen` was not found in PATH")
                && text(&out).contains("openssh-client"),
            "{}",
            text(&out)
        );
    }

    // A newer signed tag updates; the older one is then a rollback.
    edit_alpha(&skills_repo, "Alpha 2.");
    commit(&skills_repo, Sign::Ssh(&acme), "second");
    git(
        &skills_repo,
        Sign::Ssh(&acme),
        &["tag", "-s", "-m", "release 2.0.0", "v2.0.0"],
    );
    let at_two = format!("{}#v2.0.0", url("skills"));
    ok(&p, &["add", &at_two, "--client", "claude-code"]);
    assert!(read(p.join("skb.lock")).contains("\"tag\": \"v2.0.0\""));
    refused(
        &p,
        &["add", &at_tag, "--client", "claude-code"],
        &["version 1.0.0", "older", "--allow-downgrade"],
    );

    // The tag moved to an unsigned commit: a new install is refused, and
    // the lock's tag no longer holds for a frozen one.
    edit_alpha(&skills_repo, "Alpha 3, not signed.");
    commit(&skills_repo, Sign::No, "unsigned");
    git(&skills_repo, Sign::No, &["tag", "-f", "v2.0.0"]);
    refused(
        &other,
        &["add", &at_two, "--client", "claude-code"],
        &["not signed", "--allow-unsigned"],
    );
    fresh_clone(&p);
    refused(&p, &["install", "--frozen"], &["tag `v2.0.0`", "moved"]);
    // Removed: the same.
    git(&skills_repo, Sign::No, &["tag", "-d", "v2.0.0"]);
    refused(&p, &["install", "--frozen"], &["tag `v2.0.0`", "removed"]);
}

/// An OpenPGP key `gpg --quick-gen-key` made in `home`; returns its
/// fingerprint and armored public key.
fn gpg_key(home: &Path, uid: &str) -> (String, String) {
    std::fs::create_dir_all(home).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(home, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let gpg = |args: &[&str]| {
        let out = Command::new("gpg")
            .args(["--batch", "--quiet", "--homedir"])
            .arg(home)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run `gpg` ({e}): `apt-get install -y gnupg`"));
        assert!(
            out.status.success(),
            "gpg {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    gpg(&[
        "--passphrase",
        "",
        "--quick-gen-key",
        uid,
        "ed25519",
        "sign",
        "never",
    ]);
    let listing = gpg(&["--with-colons", "--list-keys", uid]);
    let fingerprint = listing
        .lines()
        .find_map(|l| l.strip_prefix("fpr:"))
        .and_then(|l| l.split(':').find(|f| f.len() == 40))
        .unwrap()
        .to_owned();
    (
        fingerprint.clone(),
        gpg(&["--armor", "--export", &fingerprint]),
    )
}

#[skills_tests::acceptance("needs gpg (gnupg) and ssh-keygen (openssh-client) beside git")]
#[test]
fn openpgp_signed_commits_install_and_a_retired_key_verifies_only_the_locked_release() {
    let (_tmp, root, p) = project();
    let home = root.join("gnupg");
    let (fingerprint, armored) = gpg_key(&home, "Acme <release@acme.example>");
    let (stranger, _) = gpg_key(&home, "Mallory <m@example.org>");
    let sign = Sign::Pgp(&home, &fingerprint);
    let repo = repo(&root, "skills", sign);
    let first = git(&repo, Sign::No, &["rev-parse", "HEAD"]);
    let daemon = GitDaemon::start(&root.join("served"));
    let url = daemon.url("skills");

    let key_file = root.join("acme.asc");
    std::fs::write(&key_file, &armored).unwrap();
    let out = ok(&p, &["trust", "add", "acme", key_file.to_str().unwrap()]);
    assert!(
        out.contains(&fingerprint) && out.contains("openpgp key"),
        "{out}"
    );

    // Installed from the signed commit (the branch's head), no flag.
    ok(&p, &["add", &url, "--client", "claude-code"]);
    let lock = read(p.join("skb.lock"));
    assert!(
        lock.contains(&format!("\"key\": \"{fingerprint}\"")),
        "{lock}"
    );
    assert!(lock.contains("\"kind\": \"openpgp\""), "{lock}");
    assert!(lock.contains(&first), "{lock}");
    ok(&p, &["verify", "--installed"]);

    // A new signed commit: `outdated` names its signer, `update` takes it.
    edit_alpha(&repo, "Alpha 2.");
    let second = commit(&repo, sign, "second");
    let out = run(&p, &["outdated"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("signed by key {fingerprint}")),
        "{}",
        text(&out)
    );
    ok(&p, &["update"]);
    assert!(read(p.join("skb.lock")).contains(&second));

    // The key retired: the locked release still installs, a new one does
    // not.
    ok(
        &p,
        &[
            "trust",
            "retire",
            "acme",
            &fingerprint,
            "2026-12-07: rotated",
        ],
    );
    fresh_clone(&p);
    ok(&p, &["install", "--frozen"]);
    edit_alpha(&repo, "Alpha 2b.");
    commit(&repo, sign, "third");
    refused(&p, &["update"], &[&fingerprint, "retired"]);

    // A commit by a key gpg has but the store does not: refused by id.
    edit_alpha(&repo, "Alpha 3.");
    commit(&repo, Sign::Pgp(&home, &stranger), "fourth");
    refused(&p, &["update"], &[&stranger, "not in the trust store"]);

    // A revoked key verifies nothing, even where it is trusted: the commit
    // signed before the revocation is refused once the key block carries it.
    edit_alpha(&repo, "Alpha 4.");
    commit(&repo, sign, "fifth");
    let certificate = read(
        home.join("openpgp-revocs.d")
            .join(format!("{fingerprint}.rev")),
    )
    .replace(":-----BEGIN", "-----BEGIN");
    let revocation = root.join("revocation.asc");
    std::fs::write(&revocation, certificate).unwrap();
    let gpg = |args: &[&str]| {
        let out = Command::new("gpg")
            .args(["--batch", "--quiet", "--homedir"])
            .arg(&home)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    gpg(&["--import", revocation.to_str().unwrap()]);
    let revoked = root.join("revoked.asc");
    std::fs::write(&revoked, gpg(&["--armor", "--export", &fingerprint])).unwrap();
    let q = root.join("q");
    std::fs::create_dir_all(&q).unwrap();
    ok(&q, &["trust", "add", "acme", revoked.to_str().unwrap()]);
    refused(
        &q,
        &["add", &url, "--client", "claude-code"],
        &["revoked OpenPGP key"],
    );
}
