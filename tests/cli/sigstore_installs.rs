//! Sigstore bundles beside archives (`<archive>.sigstore.json`), as a user
//! meets them: a `sigstore` entry added and listed with `skb trust`, and a
//! bundle that does not verify over the archive fetched (another
//! artifact's, a kind skb does not verify, a malformed one) refused before
//! anything is extracted, even with `--allow-unsigned`. The bundles are
//! sigstore's conformance fixtures (`tests/fixtures/sigstore-conformance`,
//! see its `NOTICE`); their artifact is a text file, not an archive, so an
//! accepted install is `sigstore_install_accepted.rs`'s, on a pack signed
//! by a throwaway instance of our own.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::install_remote::servers::{Scripted, answer};
use crate::skills;
use skills_tests::{tempdir, write_tree};

const ISSUER: &str = "https://token.actions.githubusercontent.com";
const RELEASE: &str = "https://github.com/acme/skills/.github/workflows/release.yml@refs/tags/*";

fn run(dir: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env("HOME", dir.parent().unwrap().join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CODEX_HOME")
        .env_remove("SKB_SIGSTORE_TRUSTED_ROOT")
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

fn fails(dir: &Path, args: &[&str], code: i32, names: &[&str]) -> String {
    let out = run(dir, args);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(code), "skb {args:?}: {said}");
    for name in names {
        assert!(
            said.contains(name),
            "skb {args:?} does not say {name:?}: {said}"
        );
    }
    said
}

fn fixture(case: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/sigstore-conformance")
            .join(case)
            .join("bundle.sigstore.json"),
    )
    .unwrap()
}

/// A root holding the pack `a.skillpack` (one skill, `alpha`) and an empty
/// project `p`.
fn world() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempdir();
    let root = tmp.path().to_path_buf();
    let md = "---\nname: alpha\ndescription: alpha does things. Use it for things.\n---\nBody.\n";
    write_tree(&root.join("src/alpha"), &[("SKILL.md", md.as_bytes())]);
    ok(&root, &["pack", "src", "-o", "a.skillpack"]);
    let p = root.join("p");
    std::fs::create_dir_all(&p).unwrap();
    (tmp, root, p)
}

#[test]
fn a_sigstore_signer_is_trusted_by_issuer_and_identity_and_listed() {
    let (_tmp, _root, p) = world();
    let said = ok(
        &p,
        &[
            "trust",
            "add",
            "acme",
            "--sigstore-issuer",
            ISSUER,
            "--sigstore-identity",
            RELEASE,
            "--source",
            "github.com/acme/*",
        ],
    );
    assert!(said.contains("trusted Sigstore signer sigstore:"), "{said}");
    let file = std::fs::read_to_string(p.join("skills-trust.json")).unwrap();
    assert!(file.contains("\"kind\": \"sigstore\""), "{file}");
    let listed = ok(&p, &["trust", "list"]);
    assert!(
        listed.contains("sigstore\tproject\t") && listed.contains(RELEASE),
        "{listed}"
    );
    // A host or issuer left to a `*`, an identity without its issuer.
    for identity in ["https://*/acme/release.yml@refs/tags/*", "ci@*", "*"] {
        fails(
            &p,
            &[
                "trust",
                "add",
                "x",
                "--sigstore-issuer",
                ISSUER,
                "--sigstore-identity",
                identity,
            ],
            2,
            &["host or domain written out"],
        );
    }
    fails(
        &p,
        &["trust", "add", "x", "--sigstore-identity", RELEASE],
        2,
        &["--sigstore-issuer"],
    );
    assert_eq!(
        std::fs::read_to_string(p.join("skills-trust.json")).unwrap(),
        file
    );
}

#[test]
fn a_bundle_beside_a_local_archive_that_does_not_verify_is_refused() {
    let (_tmp, root, p) = world();
    let bundle = root.join("a.skillpack.sigstore.json");
    for (case, why) in [
        ("happy-path-v0.3", "not a bundle for these bytes"),
        ("rekor2-happy-path", "a kind of bundle skb does not verify"),
        ("bundle-malformed-json_fail", "malformed"),
    ] {
        std::fs::write(&bundle, fixture(case)).unwrap();
        for extra in [&[][..], &["--allow-unsigned"][..]] {
            let mut args = vec!["add", "../a.skillpack", "--client", "codex"];
            args.extend(extra);
            fails(
                &p,
                &args,
                1,
                &["Sigstore bundle is refused", why, "nothing was installed"],
            );
            assert!(
                !p.join(".codex").exists() && !p.join("skb.lock").exists(),
                "{case}"
            );
        }
    }
    // Without the bundle, the same pack installs as a local one does.
    std::fs::remove_file(&bundle).unwrap();
    ok(&p, &["add", "../a.skillpack", "--client", "codex"]);
}

#[test]
fn a_bundle_served_beside_a_download_is_checked_before_extraction() {
    let (_tmp, root, p) = world();
    let mut files = BTreeMap::new();
    files.insert(
        "/a.skillpack".to_owned(),
        std::fs::read(root.join("a.skillpack")).unwrap(),
    );
    files.insert(
        "/a.skillpack.sigstore.json".to_owned(),
        fixture("happy-path-v0.2"),
    );
    let server = Scripted::start(move |path, stream| match files.get(path) {
        Some(bytes) => answer(stream, 200, &[], bytes.len() as u64, bytes),
        None => answer(stream, 404, &[], 0, b""),
    });
    let url = server.url("/a.skillpack");
    fails(
        &p,
        &["add", &url, "--client", "codex", "--allow-unsigned"],
        1,
        &["Sigstore bundle is refused", "not a bundle for these bytes"],
    );
    assert!(!p.join("skb.lock").exists());
}
