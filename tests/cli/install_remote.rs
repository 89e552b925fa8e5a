//! `skb add`, `install`, `update`, `pull` and `push` against real servers
//! on 127.0.0.1: a repository served by `git daemon`, a signed well-known
//! index served by Python's `http.server`, an OCI registry (CNCF
//! `distribution`), the ORAS Python SDK reading what `skb push` wrote, and
//! `std::net` servers that misbehave on purpose. Every refusal and fault
//! leaves the project folder byte for byte as it was, and its message
//! names the source.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

pub mod servers;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::skills;
use servers::{GitDaemon, PyHttp, Registry, Scripted, answer, free_port, git};
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
        .env_remove("SKB_NO_CACHE")
        .env_remove("CODEX_HOME")
        .env_remove("SKILLS_KEY_PASSWORD")
        .env_remove("SOURCE_DATE_EPOCH")
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

fn fails(dir: &Path, args: &[&str], code: i32) -> String {
    let out = run(dir, args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "skb {args:?}: {}",
        text(&out)
    );
    text(&out)
}

/// Every file under `dir` with its bytes, skb's guard file left out.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(dir)
        .into_iter()
        .filter(|(rel, _)| rel != ".skb/guard" && rel != ".skb/.gitignore")
        .map(|(rel, path)| (rel, std::fs::read(path).unwrap()))
        .collect()
}

/// Runs `args` in `p`, which must exit 1 (refused: the input is not what
/// it must be) naming every one of `names`, and leave `p` exactly as it
/// was. Returns the output.
fn refused(p: &Path, args: &[&str], names: &[&str]) -> String {
    refused_with(p, args, 1, names)
}

/// [`refused`] with exit `code` (2: an I/O failure such as a server's
/// error, as `skb`'s documented exit statuses say).
fn refused_with(p: &Path, args: &[&str], code: i32, names: &[&str]) -> String {
    let before = snapshot(p);
    let out = fails(p, args, code);
    for name in names {
        assert!(
            out.contains(name),
            "skb {args:?} does not name {name:?}: {out}"
        );
    }
    assert_eq!(snapshot(p), before, "skb {args:?} changed the project");
    out
}

fn skill(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {name} does things. Use it for things.\n---\n{body}\n")
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref())
        .unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

/// A fresh clone of the project: only what is committed (the lock, the
/// trust file) stays.
fn fresh_clone(p: &Path) {
    for dir in [".claude", ".agents", ".skb"] {
        let _ = std::fs::remove_dir_all(p.join(dir));
    }
}

/// A temporary root with an empty project folder `p`.
fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempdir();
    let root = tmp.path().to_path_buf();
    let p = root.join("p");
    std::fs::create_dir_all(&p).unwrap();
    (tmp, root, p)
}

/// A repository `served/repo` of two skills, one commit; `git daemon`
/// serving it.
fn git_repo(root: &Path) -> (GitDaemon, PathBuf, String) {
    let repo = root.join("served/repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "--quiet"]);
    write_tree(
        &repo,
        &[
            (
                "skills/alpha/SKILL.md",
                skill("alpha", "Alpha 1.").as_bytes(),
            ),
            ("skills/beta/SKILL.md", skill("beta", "Beta.").as_bytes()),
        ],
    );
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "first"]);
    let first = git(&repo, &["rev-parse", "HEAD"]);
    (GitDaemon::start(&root.join("served")), repo, first)
}

/// Commits a new `alpha` upstream; returns the commit.
fn commit_alpha(repo: &Path, body: &str) -> String {
    std::fs::write(repo.join("skills/alpha/SKILL.md"), skill("alpha", body)).unwrap();
    git(repo, &["commit", "--quiet", "-am", "alpha"]);
    git(repo, &["rev-parse", "HEAD"])
}

#[test]
fn git_daemon_source_installs_pins_the_commit_and_updates() {
    let (_tmp, root, p) = project();
    let (daemon, repo, first) = git_repo(&root);
    let url = daemon.url("repo");
    let two = ["--client", "claude-code", "--client", "codex"];

    let add: Vec<&str> = ["add", url.as_str()].into_iter().chain(two).collect();
    refused(&p, &add, &[&url, "skill `alpha`", "--allow-unsigned"]);
    let nope = format!("{url}#nope");
    refused_with(
        &p,
        &["add", &nope, "--allow-unsigned"],
        2,
        &[&url, "`nope`"],
    );

    let add_unsigned: Vec<&str> = add.iter().copied().chain(["--allow-unsigned"]).collect();
    ok(&p, &add_unsigned);
    for dir in [".claude/skills", ".agents/skills"] {
        assert_eq!(
            read(p.join(dir).join("alpha/SKILL.md")),
            skill("alpha", "Alpha 1.")
        );
        assert_eq!(
            read(p.join(dir).join("beta/SKILL.md")),
            skill("beta", "Beta.")
        );
    }
    let lock = read(p.join("skb.lock"));
    assert!(lock.contains(&first), "{lock}");
    ok(&p, &["verify", "--installed"]);
    let installed = snapshot(&p);

    // Upstream moves on; a fresh clone still gets the locked commit.
    let second = commit_alpha(&repo, "Alpha 2.");
    fresh_clone(&p);
    ok(&p, &["install", "--frozen"]);
    assert_eq!(snapshot(&p), installed);
    ok(&p, &["verify", "--installed"]);

    let out = ok(&p, &["update"]);
    assert!(out.contains("edited: SKILL.md"), "{out}");
    assert_eq!(
        read(p.join(".claude/skills/alpha/SKILL.md")),
        skill("alpha", "Alpha 2.")
    );
    assert_eq!(
        read(p.join(".agents/skills/alpha/SKILL.md")),
        skill("alpha", "Alpha 2.")
    );
    let lock = read(p.join("skb.lock"));
    assert!(lock.contains(&second) && !lock.contains(&first), "{lock}");
    ok(&p, &["verify", "--installed"]);
}

/// The git cache (`$HOME/.cache/skb/git` here): a second `install
/// --frozen` of a locked commit, in a fresh clone or another project, does
/// not need the server (it is taken away); `--no-cache` and
/// `SKB_NO_CACHE=1` do; installs running at once share the cache.
#[test]
fn a_second_frozen_install_is_served_by_the_git_cache() {
    let (_tmp, root, p) = project();
    let (daemon, repo, _first) = git_repo(&root);
    let url = daemon.url("repo");
    ok(
        &p,
        &["add", &url, "--allow-unsigned", "--client", "claude-code"],
    );
    let installed = snapshot(&p);
    let cache = root.join("home/.cache/skb/git");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&cache).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
    // Two fresh projects with the lock, installed at once from a cache
    // emptied first: both fetch or wait, neither breaks the other.
    std::fs::remove_dir_all(&cache).unwrap();
    let q = root.join("q");
    std::fs::create_dir_all(&q).unwrap();
    std::fs::copy(p.join("skb.lock"), q.join("skb.lock")).unwrap();
    fresh_clone(&p);
    let both: Vec<_> = [&p, &q]
        .into_iter()
        .map(|dir| {
            let dir = dir.clone();
            std::thread::spawn(move || run(&dir, &["install", "--frozen"]))
        })
        .collect();
    for out in both {
        let out = out.join().unwrap();
        assert!(out.status.success(), "{}", text(&out));
    }
    assert_eq!(snapshot(&p), installed);
    // The server loses the repository: the locked commit still installs
    // from the cache, and only from there.
    let mut away = repo.clone().into_os_string();
    away.push(".gone");
    std::fs::rename(&repo, &away).unwrap();
    for dir in [&p, &q] {
        fresh_clone(dir);
        ok(dir, &["install", "--frozen"]);
    }
    assert_eq!(snapshot(&p), installed);
    fresh_clone(&p);
    refused_with(&p, &["install", "--frozen", "--no-cache"], 2, &[&url]);
    let out = skills()
        .current_dir(&p)
        .args(["install", "--frozen"])
        .env("HOME", root.join("home"))
        .env_remove("XDG_CACHE_HOME")
        .env("SKB_NO_CACHE", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// `install --frozen` from git writes the checkout once, in the project's
/// state folder, and moves each skill's folder into the transaction: the
/// first client's folder is that folder, the second a copy. Both hold
/// exactly the locked files, with a written copy's modes whatever the umask
/// git ran with; the repository's files beside the skills are not
/// installed; nothing is left in `.skb/txn`; and an edit of one client's
/// copy leaves the other as locked.
#[cfg(unix)]
#[test]
fn a_frozen_install_from_git_moves_the_checkout_in() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, root, p) = project();
    let repo = root.join("served/repo");
    std::fs::create_dir_all(&repo).unwrap();
    write_tree(
        &repo,
        &[
            ("README.md", b"not a skill\n".as_slice()),
            ("skills/alpha/SKILL.md", skill("alpha", "Alpha.").as_bytes()),
            (
                "skills/alpha/scripts/run.sh",
                b"#!/bin/sh\necho alpha\n".as_slice(),
            ),
            (
                "skills/alpha/references/deep/notes.md",
                b"notes\n".as_slice(),
            ),
            ("skills/beta/SKILL.md", skill("beta", "Beta.").as_bytes()),
        ],
    );
    let script = repo.join("skills/alpha/scripts/run.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    git(&repo, &["init", "--quiet"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "first"]);
    let daemon = GitDaemon::start(&root.join("served"));
    let url = daemon.url("repo");
    let clients = ["--client", "claude-code", "--client", "codex"];
    ok(
        &p,
        &[&["add", &url, "--allow-unsigned"][..], &clients].concat(),
    );
    let installed = snapshot(&p);
    let mode = |rel: &str| {
        std::fs::symlink_metadata(p.join(rel))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    let modes = |p: &Path| -> Vec<(String, u32)> {
        files_under(p)
            .into_iter()
            .filter(|(rel, _)| !rel.starts_with(".skb/"))
            .map(|(rel, path)| {
                let m = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
                (rel, m)
            })
            .collect()
    };
    let added_modes = modes(&p);
    for dir in [
        ".claude/skills/alpha",
        ".agents/skills/alpha/references/deep",
    ] {
        assert_eq!(mode(dir), 0o755, "{dir}");
    }
    fresh_clone(&p);
    // git writes what it checks out through the umask: 0600 and 0700 here.
    let out = Command::new("sh")
        .arg("-c")
        .arg("umask 077 && exec \"$0\" install --frozen")
        .arg(crate::skills_bin())
        .current_dir(&p)
        .stdin(Stdio::null())
        .env("HOME", root.join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("SKB_NO_CACHE")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(snapshot(&p), installed);
    assert_eq!(modes(&p), added_modes);
    for dir in [
        ".claude/skills/alpha",
        ".agents/skills/alpha/references/deep",
    ] {
        assert_eq!(mode(dir), 0o755, "{dir}");
    }
    assert_eq!(mode(".claude/skills/alpha/scripts/run.sh"), 0o755);
    assert_eq!(mode(".agents/skills/alpha/SKILL.md"), 0o644);
    assert!(!p.join(".claude/skills/README.md").exists());
    let left: Vec<_> = std::fs::read_dir(p.join(".skb/txn"))
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left in .skb/txn: {left:?}");
    ok(&p, &["verify", "--installed"]);
    // Two copies, not one file twice.
    std::fs::write(
        p.join(".claude/skills/alpha/references/deep/notes.md"),
        "edited\n",
    )
    .unwrap();
    assert_eq!(
        read(p.join(".agents/skills/alpha/references/deep/notes.md")),
        "notes\n"
    );
}

#[test]
fn a_local_edit_to_a_remote_install_is_kept_unless_forced() {
    let (_tmp, root, p) = project();
    let (daemon, repo, _) = git_repo(&root);
    let url = daemon.url("repo");
    ok(
        &p,
        &["add", &url, "--allow-unsigned", "--client", "claude-code"],
    );
    commit_alpha(&repo, "Alpha 2.");
    let edited = p.join(".claude/skills/alpha/SKILL.md");
    std::fs::write(&edited, skill("alpha", "My own alpha.")).unwrap();

    refused(&p, &["update"], &["edited: SKILL.md", "--force"]);

    let out = ok(&p, &["update", "--force"]);
    assert!(out.contains("updated alpha"), "{out}");
    assert_eq!(read(&edited), skill("alpha", "Alpha 2."));
    let backups = files_under(&p.join(".skb/backup"));
    assert!(
        backups.iter().any(|(rel, path)| rel.ends_with("/SKILL.md")
            && read(path) == skill("alpha", "My own alpha.")),
        "no backup of the edit: {:?}",
        backups.keys().collect::<Vec<_>>()
    );
    ok(&p, &["verify", "--installed"]);
}

/// Copies every file under `from` to `to`.
fn copy_tree(from: &Path, to: &Path) {
    for (rel, path) in files_under(from) {
        let dest = to.join(rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(path, dest).unwrap();
    }
}

/// Replaces the first `"sha256:<hex>"` digest in the site index of
/// `site` by another one.
fn corrupt_index_digest(site: &Path) {
    let index = site.join(".well-known/agent-skills/index.json");
    let text = read(&index);
    let at = text
        .find("\"digest\"")
        .unwrap_or_else(|| panic!("no digest: {text}"));
    let hex = at + text[at..].find("sha256:").unwrap() + "sha256:".len();
    let old = &text[hex..hex + 64];
    let new: String = old
        .chars()
        .map(|c| if c == '0' { '1' } else { '0' })
        .collect();
    std::fs::write(&index, text.replacen(old, &new, 1)).unwrap();
}

#[test]
fn a_signed_index_installs_with_trust_and_refuses_tampering_and_rollback() {
    let (_tmp, root, p) = project();
    ok(&root, &["keygen", "-W", "-p", "acme.pub", "-s", "acme.key"]);
    let src = root.join("src/alpha");
    write_tree(
        &src,
        &[("SKILL.md", skill("alpha", "Alpha old.").as_bytes())],
    );
    let publish = |site: &str, version: &str| {
        ok(
            &root,
            &[
                "publish",
                "src/alpha",
                "--out",
                site,
                "--release",
                version,
                "--sign",
                "acme.key",
            ],
        )
    };
    publish("site2", "0.9.0");
    std::fs::write(src.join("SKILL.md"), skill("alpha", "Alpha new.")).unwrap();
    publish("site", "1.0.0");

    let port = free_port();
    let server = PyHttp::start(&root.join("site"), port);
    let url = server.url();
    ok(&p, &["trust", "add", "acme", "../acme.pub"]);
    ok(
        &p,
        &["add", &url, "--client", "claude-code", "--client", "codex"],
    );
    for dir in [".claude/skills", ".agents/skills"] {
        assert_eq!(
            read(p.join(dir).join("alpha/SKILL.md")),
            skill("alpha", "Alpha new.")
        );
    }
    let lock = read(p.join("skb.lock"));
    assert!(lock.contains("\"signer\": {"), "{lock}");
    assert!(lock.contains("\"version\": \"1.0.0\""), "{lock}");
    let installed = snapshot(&p);
    fresh_clone(&p);
    ok(&p, &["install", "--frozen"]);
    assert_eq!(snapshot(&p), installed);
    ok(&p, &["verify", "--installed"]);

    // An index whose digest is not the archive's, on a new project.
    copy_tree(&root.join("site"), &root.join("bad"));
    corrupt_index_digest(&root.join("bad"));
    let bad = PyHttp::start(&root.join("bad"), free_port());
    let q = root.join("q");
    std::fs::create_dir_all(&q).unwrap();
    ok(&q, &["trust", "add", "acme", "../acme.pub"]);
    let bad_url = bad.url();
    refused(&q, &["add", &bad_url], &[&bad_url, "digest"]);
    assert!(!q.join("skb.lock").exists());

    // The same site now serves only 0.9.0: a rollback.
    drop(server);
    let _old = PyHttp::start(&root.join("site2"), port);
    refused(
        &p,
        &["update"],
        &[
            &url,
            "older than the locked version 1.0.0",
            "--allow-downgrade",
        ],
    );
    ok(&p, &["update", "--allow-downgrade"]);
    assert_eq!(
        read(p.join(".claude/skills/alpha/SKILL.md")),
        skill("alpha", "Alpha old.")
    );
    assert!(read(p.join("skb.lock")).contains("\"version\": \"0.9.0\""));
    ok(&p, &["verify", "--installed"]);
}

/// Two signed packs of `alpha` in `root`: `a1.skillpack` (1.0.0, "Alpha
/// new.") and `a0.skillpack` (0.9.0, "Alpha old."), and `acme.pub`.
fn signed_packs(root: &Path) {
    ok(root, &["keygen", "-W", "-p", "acme.pub", "-s", "acme.key"]);
    let body = |b: &str| skill("alpha", b);
    write_tree(
        &root.join("src/alpha"),
        &[("SKILL.md", body("Alpha old.").as_bytes())],
    );
    ok(
        root,
        &[
            "pack",
            "src",
            "-o",
            "a0.skillpack",
            "--sign",
            "acme.key",
            "--release",
            "0.9.0",
        ],
    );
    std::fs::write(root.join("src/alpha/SKILL.md"), body("Alpha new.")).unwrap();
    ok(
        root,
        &[
            "pack",
            "src",
            "-o",
            "a1.skillpack",
            "--sign",
            "acme.key",
            "--release",
            "1.0.0",
        ],
    );
}

#[test]
fn an_oci_artifact_installs_pulls_back_and_refuses_an_older_tag() {
    let (_tmp, root, p) = project();
    signed_packs(&root);
    let registry = Registry::start();
    let reference = format!("oci://{}/acme/skills:1.0.0", registry.host);
    ok(&root, &["push", "a1.skillpack", &reference]);

    ok(&p, &["trust", "add", "acme", "../acme.pub"]);
    ok(
        &p,
        &[
            "add",
            &reference,
            "--client",
            "claude-code",
            "--client",
            "codex",
        ],
    );
    for dir in [".claude/skills", ".agents/skills"] {
        assert_eq!(
            read(p.join(dir).join("alpha/SKILL.md")),
            skill("alpha", "Alpha new.")
        );
    }
    assert!(read(p.join("skb.lock")).contains("\"version\": \"1.0.0\""));
    ok(&p, &["verify", "--installed"]);

    ok(&root, &["pull", &reference, "-o", "pulled.skillpack"]);
    let bytes = |name: &str| std::fs::read(root.join(name)).unwrap();
    assert!(
        bytes("pulled.skillpack") == bytes("a1.skillpack"),
        "pull changed the pack"
    );
    assert!(bytes("pulled.skillpack.minisig") == bytes("a1.skillpack.minisig"));

    let installed = snapshot(&p);
    fresh_clone(&p);
    ok(&p, &["install", "--frozen"]);
    assert_eq!(snapshot(&p), installed);

    // An older signed release pushed over the same tag.
    ok(&root, &["push", "a0.skillpack", &reference]);
    refused(
        &p,
        &["update"],
        &[
            &reference,
            "older than the locked version 1.0.0",
            "--allow-downgrade",
        ],
    );
    ok(&p, &["update", "--allow-downgrade"]);
    assert_eq!(
        read(p.join(".agents/skills/alpha/SKILL.md")),
        skill("alpha", "Alpha old.")
    );
    ok(&p, &["verify", "--installed"]);
}

/// ORAS pulls `target` into `out`, printing each file it wrote.
const ORAS_PULL: &str = "import sys, oras.client\n\
for f in oras.client.OrasClient(insecure=True).pull(target=sys.argv[1], outdir=sys.argv[2]):\n    \
print(f)\n";

#[skills_tests::acceptance("needs the ORAS Python SDK (SKILLS_ORAS_PYTHON or target/oras-venv)")]
#[test]
fn the_oras_sdk_pulls_what_skb_pushes() {
    let python = skills_tests::tier::oras_python();
    let (_tmp, root, _p) = project();
    signed_packs(&root);
    let registry = Registry::start();
    ok(
        &root,
        &[
            "push",
            "a1.skillpack",
            &format!("oci://{}/acme/skills:v1", registry.host),
        ],
    );
    let out = root.join("oras");
    std::fs::create_dir_all(&out).unwrap();
    let pulled = Command::new(python)
        .args([
            "-c",
            ORAS_PULL,
            &format!("{}/acme/skills:v1", registry.host),
        ])
        .arg(&out)
        .current_dir(&out)
        .output()
        .unwrap();
    assert!(pulled.status.success(), "oras pull: {}", text(&pulled));
    let files: Vec<Vec<u8>> = files_under(&out)
        .into_values()
        .map(|path| std::fs::read(path).unwrap())
        .collect();
    let pack = std::fs::read(root.join("a1.skillpack")).unwrap();
    let sig = std::fs::read(root.join("a1.skillpack.minisig")).unwrap();
    assert!(
        files.contains(&pack),
        "ORAS got no layer equal to the pack: {}",
        text(&pulled)
    );
    assert!(
        files.contains(&sig),
        "ORAS got no layer equal to the signature"
    );
}

/// A zip of one deflated entry `alpha/SKILL.md` whose headers declare an
/// uncompressed size of 4 GiB − 16 (the bytes are 5; not the ZIP64
/// marker).
fn zip_declaring_4_gib() -> Vec<u8> {
    let name = b"alpha/SKILL.md";
    let data = b"hello";
    let le16 = |v: u16| v.to_le_bytes().to_vec();
    let le32 = |v: u32| v.to_le_bytes().to_vec();
    let sizes = [le32(0), le32(data.len() as u32), le32(u32::MAX - 15)].concat(); // crc, sizes
    // Deflated (method 8), so that the sizes may differ.
    let mut zip = [
        le32(0x0403_4b50),
        le16(20),
        le16(0),
        le16(8),
        le16(0),
        le16(0),
    ]
    .concat();
    zip.extend(&sizes);
    zip.extend([le16(name.len() as u16), le16(0)].concat());
    zip.extend(name);
    zip.extend(data);
    let central_at = zip.len() as u32;
    let mut central = [
        le32(0x0201_4b50),
        le16(20),
        le16(20),
        le16(0),
        le16(8),
        le16(0),
        le16(0),
    ]
    .concat();
    central.extend(&sizes);
    central.extend([le16(name.len() as u16), le16(0), le16(0), le16(0), le16(0)].concat());
    central.extend([le32(0), le32(0)].concat()); // attributes, local header offset
    central.extend(name);
    let central_len = central.len() as u32;
    zip.extend(central);
    zip.extend([le32(0x0605_4b50), le16(0), le16(0), le16(1), le16(1)].concat());
    zip.extend([le32(central_len), le32(central_at), le16(0)].concat());
    zip
}

/// A server of hostile answers by path: `/500.skillpack` always 500,
/// `/loop-a.skillpack` ⇄ `/loop-b.skillpack` redirecting to each other,
/// `/huge.skillpack` declaring 10 GiB, `/big.zip` a zip declaring a 4 GiB file,
/// and `/two.skillpack` the bytes of `two`.
fn hostile(two: Vec<u8>) -> Scripted {
    Scripted::start(move |path, stream| match path {
        "/500.skillpack" => answer(stream, 500, &[], 4, b"oops"),
        "/loop-a.skillpack" => answer(stream, 302, &[("Location", "/loop-b.skillpack")], 0, b""),
        "/loop-b.skillpack" => answer(stream, 302, &[("Location", "/loop-a.skillpack")], 0, b""),
        "/huge.skillpack" => answer(stream, 200, &[], 10 << 30, b""),
        "/big.zip" => {
            let zip = zip_declaring_4_gib();
            answer(stream, 200, &[], zip.len() as u64, &zip)
        }
        "/two.skillpack" => answer(stream, 200, &[], two.len() as u64, &two),
        _ => answer(stream, 404, &[], 0, b""),
    })
}

/// A project, and a hostile server whose `/two.skillpack` holds two
/// skills (unsigned).
fn hostile_setup() -> (tempfile::TempDir, PathBuf, Scripted, Vec<u8>) {
    let (tmp, root, p) = project();
    write_tree(
        &root.join("src"),
        &[
            ("alpha/SKILL.md", skill("alpha", "Alpha.").as_bytes()),
            ("beta/SKILL.md", skill("beta", "Beta.").as_bytes()),
        ],
    );
    ok(&root, &["pack", "src", "-o", "two.skillpack"]);
    let two = std::fs::read(root.join("two.skillpack")).unwrap();
    (tmp, p, hostile(two.clone()), two)
}

#[test]
fn a_server_answering_500_is_refused_naming_the_url_and_status() {
    let (_tmp, p, server, _) = hostile_setup();
    let url = server.url("/500.skillpack");
    refused_with(&p, &["add", &url, "--allow-unsigned"], 2, &[&url, "500"]);
}

#[test]
fn a_redirect_loop_is_refused_naming_the_url() {
    let (_tmp, p, server, _) = hostile_setup();
    let url = server.url("/loop-a.skillpack");
    refused_with(
        &p,
        &["add", &url, "--allow-unsigned"],
        2,
        &["/loop-", "redirect loop"],
    );
}

#[test]
fn a_body_declared_over_the_limit_is_refused_before_download() {
    let (_tmp, p, server, _) = hostile_setup();
    let url = server.url("/huge.skillpack");
    refused_with(
        &p,
        &["add", &url, "--allow-unsigned"],
        2,
        &[&url, "over the limit of 268435456 bytes"],
    );
}

#[test]
fn a_pin_that_does_not_match_is_refused() {
    let (_tmp, p, server, two) = hostile_setup();
    let url = server.url("/two.skillpack");
    let wrong = format!("{url}#sha256={}", "ab".repeat(32));
    refused(
        &p,
        &["add", &wrong, "--allow-unsigned"],
        &[&url, "not the pinned"],
    );
    // The right pin installs (unsigned, pinned by digest).
    let digest = skills_core_hex(&two);
    ok(
        &p,
        &[
            "add",
            &format!("{url}#sha256={digest}"),
            "--client",
            "claude-code",
        ],
    );
    ok(&p, &["verify", "--installed"]);
}

/// Hex SHA-256 of `bytes`.
fn skills_core_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn an_archive_over_the_entry_limit_is_refused_naming_the_flag() {
    let (_tmp, p, server, _) = hostile_setup();
    let url = server.url("/two.skillpack");
    refused(
        &p,
        &["add", &url, "--allow-unsigned", "--max-entries", "1"],
        &["two.skillpack", "--max-entries"],
    );
}

#[test]
fn a_zip_declaring_a_huge_file_is_refused_naming_the_flag() {
    let (_tmp, p, server, _) = hostile_setup();
    let url = server.url("/big.zip");
    refused(
        &p,
        &["add", &url, "--allow-unsigned"],
        &["big.zip", "--max-ratio"],
    );
    // With the ratio allowed, the declared size alone is refused.
    refused(
        &p,
        &["add", &url, "--allow-unsigned", "--max-ratio", "4294967295"],
        &["big.zip", "--max-entry-size"],
    );
}

/// The refusal of a downloaded archive names the source as the user wrote
/// it (the URL), as every other remote failure does, not only the last
/// segment of its path.
#[test]
fn an_archive_refusal_names_the_whole_url() {
    let (_tmp, p, server, _) = hostile_setup();
    let url = server.url("/two.skillpack");
    refused(
        &p,
        &["add", &url, "--allow-unsigned", "--max-entries", "1"],
        &[&url, "--max-entries"],
    );
}

#[test]
fn a_signed_pack_by_url_needs_its_key_trusted() {
    let (_tmp, root, p) = project();
    signed_packs(&root);
    let files: BTreeMap<String, Vec<u8>> = ["a1.skillpack", "a1.skillpack.minisig"]
        .into_iter()
        .map(|name| (format!("/{name}"), std::fs::read(root.join(name)).unwrap()))
        .collect();
    let server = Scripted::start(move |path, stream| match files.get(path) {
        Some(bytes) => answer(stream, 200, &[], bytes.len() as u64, bytes),
        None => answer(stream, 404, &[], 0, b""),
    });
    let url = server.url("/a1.skillpack");
    ok(
        &root,
        &["keygen", "-W", "-p", "other.pub", "-s", "other.key"],
    );
    refused(
        &p,
        &["add", &url, "--pubkey", "../other.pub"],
        &[&url, "skill `alpha`", "not in the trust store"],
    );
    ok(
        &p,
        &["add", &url, "--pubkey", "../acme.pub", "--client", "codex"],
    );
    let lock = read(p.join("skb.lock"));
    assert!(lock.contains("\"version\": \"1.0.0\""), "{lock}");
    assert_eq!(
        read(p.join(".agents/skills/alpha/SKILL.md")),
        skill("alpha", "Alpha new.")
    );
    // A fresh clone restores the locked bytes (here with the key again).
    fresh_clone(&p);
    ok(&p, &["install", "--frozen", "--pubkey", "../acme.pub"]);
    // Its signer record is verified again: with the key, for this run too.
    refused(&p, &["verify", "--installed"], &["alpha", "does not hold"]);
    ok(&p, &["verify", "--installed", "--pubkey", "../acme.pub"]);
}

/// As [`an_archive_refusal_names_the_whole_url`], for a pack pulled from a
/// registry: the refusal names the reference, not a made-up file name.
#[test]
fn an_oci_archive_refusal_names_the_reference() {
    let (_tmp, root, p) = project();
    signed_packs(&root);
    let registry = Registry::start();
    let reference = format!("oci://{}/acme/skills:1.0.0", registry.host);
    ok(&root, &["push", "a1.skillpack", &reference]);
    refused(
        &p,
        &[
            "add",
            &reference,
            "--pubkey",
            "../acme.pub",
            "--max-entries",
            "1",
        ],
        &[&reference, "--max-entries"],
    );
}
