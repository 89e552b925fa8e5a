//! A Sigstore-signed skill pack installed and ACCEPTED end to end: the
//! pack, its bundle and the trusted root of a throwaway Sigstore instance
//! (`tests/fixtures/sigstore-local`, see its README) served from a
//! loopback HTTP server, with `SKB_SIGSTORE_TRUSTED_ROOT` naming that root.
//! A `sigstore` trust entry lets `skb add` install it (a download, or an
//! entry of a well-known index) without `--allow-unsigned`, the lock
//! records who signed, and `install --frozen` and `verify --installed` hold
//! to that record. Around it, the refusals,
//! each naming why and writing nothing: no entry, an identity pattern or
//! issuer that does not match, a host pinned to another entry, the pack
//! changed by one byte, a bundle for another identity, a bundle of another
//! instance, the public-good root (which knows nothing of this one), and a
//! bundle too large to be one.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest as _, Sha256};
use skills_tests::{files_under, tempdir};

use crate::install_remote::servers::{Scripted, answer};
use crate::skills;

const ISSUER: &str = "https://token.actions.githubusercontent.com";
/// The identity the committed bundle's certificate names.
const IDENTITY: &str =
    "https://github.com/example-org/skills/.github/workflows/release.yml@refs/tags/v1.0.0";
/// The identity `other-identity.sigstore.json`'s certificate names.
const OTHER_IDENTITY: &str =
    "https://github.com/mallory/skills/.github/workflows/release.yml@refs/tags/v1.0.0";
/// The release workflow at any tag.
const RELEASES: &str =
    "https://github.com/example-org/skills/.github/workflows/release.yml@refs/tags/*";
const PACK: &str = "alpha.skillpack";
const BUNDLE: &str = "alpha.skillpack.sigstore.json";
/// The site's index, its one entry's archive, and that archive's bundle.
const INDEX: &str = "site/.well-known/agent-skills/index.json";
const ENTRY: &str = "site/.well-known/agent-skills/alpha/1.0.0/alpha.zip";
const ENTRY_BUNDLE: &str = "site/.well-known/agent-skills/alpha/1.0.0/alpha.zip.sigstore.json";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/sigstore-local")
        .join(name)
}

fn read_fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).unwrap()
}

fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A project `p` beside a home, and a loopback server serving whatever
/// `files` holds when asked (so a test can change what it serves).
struct World {
    _tmp: tempfile::TempDir,
    p: PathBuf,
    home: PathBuf,
    files: Arc<Mutex<BTreeMap<String, Vec<u8>>>>,
    server: Scripted,
    /// `SKB_SIGSTORE_TRUSTED_ROOT`, or the built-in root when `None`.
    root: Option<PathBuf>,
}

impl World {
    /// The committed pack and its bundle, served; the committed root.
    fn new() -> World {
        let tmp = tempdir();
        let p = tmp.path().join("p");
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&p).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let files: Arc<Mutex<BTreeMap<String, Vec<u8>>>> = Arc::default();
        let served = Arc::clone(&files);
        let server = Scripted::start(move |path, stream| {
            let files = served.lock().unwrap_or_else(PoisonError::into_inner);
            match files.get(path) {
                Some(bytes) => answer(stream, 200, &[], bytes.len() as u64, bytes),
                None => answer(stream, 404, &[], 0, b""),
            }
        });
        let world = World {
            _tmp: tmp,
            p,
            home,
            files,
            server,
            root: Some(fixture("trusted_root.json")),
        };
        world.serve(PACK, read_fixture(PACK));
        world.serve(BUNDLE, read_fixture(BUNDLE));
        world
    }

    fn serve(&self, name: &str, bytes: Vec<u8>) {
        self.files
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(format!("/{name}"), bytes);
    }

    fn url(&self) -> String {
        self.server.url(&format!("/{PACK}"))
    }

    /// Serves the committed site (an index of one signed entry) at the
    /// server's root; returns its URL.
    fn serve_site(&self, entry_bundle: Vec<u8>) -> String {
        for (file, bytes) in [
            (INDEX, read_fixture(INDEX)),
            (ENTRY, read_fixture(ENTRY)),
            (ENTRY_BUNDLE, entry_bundle),
        ] {
            self.serve(file.strip_prefix("site/").unwrap(), bytes);
        }
        self.server.url("")
    }

    fn run(&self, args: &[&str]) -> Output {
        let mut command = skills();
        command
            .current_dir(&self.p)
            .args(args)
            .stdin(Stdio::null())
            .env("HOME", &self.home)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("CODEX_HOME")
            .env_remove("SKB_SIGSTORE_TRUSTED_ROOT");
        if let Some(root) = &self.root {
            command.env("SKB_SIGSTORE_TRUSTED_ROOT", root);
        }
        command.output().unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "skb {args:?}: {}", text(&out));
        text(&out)
    }

    /// `skb trust add example` of `issuer` and `identity`, pinned to `source`.
    fn trust(&self, issuer: &str, identity: &str, source: &str) {
        self.trust_as("example", issuer, identity, source);
    }

    /// [`World::trust`] for the publisher `name`.
    fn trust_as(&self, name: &str, issuer: &str, identity: &str, source: &str) {
        self.ok(&[
            "trust",
            "add",
            name,
            "--sigstore-issuer",
            issuer,
            "--sigstore-identity",
            identity,
            "--source",
            source,
        ]);
    }

    /// Runs `args`, which must exit 1 naming every one of `names` and
    /// leave the project and the home exactly as they were.
    fn refused(&self, args: &[&str], names: &[&str]) -> String {
        self.refused_with(args, 1, names)
    }

    /// [`World::refused`] with exit `code`.
    fn refused_with(&self, args: &[&str], code: i32, names: &[&str]) -> String {
        let before = (snapshot(&self.p), snapshot(&self.home));
        let out = self.run(args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(code), "skb {args:?}: {said}");
        for name in names {
            assert!(
                said.contains(name),
                "skb {args:?} does not say {name:?}: {said}"
            );
        }
        assert_eq!(
            (snapshot(&self.p), snapshot(&self.home)),
            before,
            "skb {args:?} wrote something: {said}"
        );
        said
    }
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Every file under `dir` with its bytes, skb's guard files left out.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(dir)
        .into_iter()
        .filter(|(rel, _)| !rel.ends_with("skb/guard") && !rel.ends_with("skb/.gitignore"))
        .map(|(rel, path)| (rel, std::fs::read(path).unwrap()))
        .collect()
}

#[test]
fn a_pack_signed_by_a_trusted_identity_installs_without_allow_unsigned() {
    let w = World::new();
    w.trust(ISSUER, RELEASES, "127.0.0.1/*");
    let url = w.url();
    let said = w.ok(&["add", &url, "--client", "codex"]);
    assert!(said.contains("installed alpha"), "{said}");
    let skill = w.p.join(".agents/skills/alpha/SKILL.md");
    assert!(
        std::fs::read_to_string(&skill)
            .unwrap()
            .contains("name: alpha")
    );

    // The lock says who signed, through which issuer, where the log put it,
    // and which bundle over which bytes.
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(w.p.join("skb.lock")).unwrap()).unwrap();
    let entry = &lock["skills"]["alpha"];
    let signer = &entry["signer"];
    let pack = hex_sha256(&read_fixture(PACK));
    assert_eq!(signer["sigstore"]["identity"], IDENTITY, "{entry}");
    assert_eq!(signer["sigstore"]["issuer"], ISSUER, "{entry}");
    assert_eq!(signer["sigstore"]["log_index"], 3, "{entry}");
    assert_eq!(
        signer["sigstore"]["bundle"],
        hex_sha256(&read_fixture(BUNDLE)).as_str(),
        "{entry}"
    );
    assert_eq!(signer["digest"], pack.as_str(), "{entry}");
    assert_eq!(entry["resolved"]["sha256"], pack.as_str(), "{entry}");
    assert!(
        signer["key"].as_str().unwrap().starts_with("sigstore:"),
        "{entry}"
    );
    assert!(entry.get("unsigned").is_none(), "{entry}");

    // The same again from the lock alone: fetched, verified anew, the very
    // bundle recorded.
    std::fs::remove_dir_all(w.p.join(".agents")).unwrap();
    let said = w.ok(&["install", "--frozen"]);
    assert!(said.contains("restored alpha"), "{said}");
    assert!(skill.is_file());
    let said = w.ok(&["verify", "--installed"]);
    assert!(said.contains("as locked"), "{said}");

    // A bundle swapped after locking, though valid over the same bytes for
    // another identity, or removed: not the signature the lock records.
    let lock_bytes = std::fs::read(w.p.join("skb.lock")).unwrap();
    std::fs::remove_dir_all(w.p.join(".agents")).unwrap();
    w.serve(BUNDLE, read_fixture("other-identity.sigstore.json"));
    w.refused(
        &["install", "--frozen"],
        &["no longer carries the signature the lock records"],
    );
    w.files
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&format!("/{BUNDLE}"));
    w.refused(&["install", "--frozen"], &["it is not signed now"]);
    assert_eq!(std::fs::read(w.p.join("skb.lock")).unwrap(), lock_bytes);
}

#[test]
fn a_signed_index_entry_installs_without_allow_unsigned() {
    let w = World::new();
    w.trust(ISSUER, RELEASES, "127.0.0.1/*");
    let site = w.serve_site(read_fixture(ENTRY_BUNDLE));
    let said = w.ok(&["add", &site, "--client", "codex"]);
    assert!(said.contains("installed alpha"), "{said}");
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(w.p.join("skb.lock")).unwrap()).unwrap();
    let entry = &lock["skills"]["alpha"];
    assert_eq!(entry["resolved"]["type"], "index", "{entry}");
    assert_eq!(entry["signer"]["sigstore"]["identity"], IDENTITY, "{entry}");
    assert_eq!(
        entry["signer"]["digest"],
        hex_sha256(&read_fixture(ENTRY)).as_str(),
        "{entry}"
    );
    std::fs::remove_dir_all(w.p.join(".agents")).unwrap();
    w.ok(&["install", "--frozen"]);
    w.ok(&["verify", "--installed"]);

    // A valid bundle of the same root, for other bytes (the pack's), beside
    // the entry: refused, even with `--allow-unsigned`.
    let w = World::new();
    w.trust(ISSUER, RELEASES, "127.0.0.1/*");
    let site = w.serve_site(read_fixture(BUNDLE));
    for extra in [&[][..], &["--allow-unsigned"][..]] {
        let mut args = vec!["add", &site, "--client", "codex"];
        args.extend(extra);
        w.refused(
            &args,
            &["Sigstore bundle is refused", "not a bundle for these bytes"],
        );
    }
}

#[test]
fn the_record_stands_only_while_the_entry_is_trusted() {
    let w = World::new();
    w.trust(ISSUER, RELEASES, "127.0.0.1/*");
    let url = w.url();
    w.ok(&["add", &url, "--client", "codex"]);
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(w.p.join("skb.lock")).unwrap()).unwrap();
    let id = lock["skills"]["alpha"]["signer"]["key"]
        .as_str()
        .unwrap()
        .to_owned();
    w.ok(&["trust", "remove", "example", &id]);
    let out = w.run(&["verify", "--installed"]);
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains(&id) && said.contains("does not allow"),
        "{said}"
    );
}

#[test]
fn a_signer_the_store_does_not_trust_for_the_source_is_refused() {
    const DEPLOY: &str =
        "https://github.com/example-org/skills/.github/workflows/deploy.yml@refs/tags/*";
    /// Trust entries: (publisher, issuer, identity pattern, source pin).
    type Entries = &'static [(&'static str, &'static str, &'static str, &'static str)];
    // The entries, and what the refusal says besides who signed.
    let cases: [(Entries, &[&str]); 4] = [
        (
            &[],
            &[
                "not in the trust store",
                "--sigstore-identity",
                "--allow-unsigned",
            ],
        ),
        (
            &[("example", ISSUER, DEPLOY, "127.0.0.1/*")],
            &["not trusted for this source"],
        ),
        (
            &[(
                "example",
                "https://accounts.google.com",
                RELEASES,
                "127.0.0.1/*",
            )],
            &["not trusted for this source"],
        ),
        // The right entry, pinned elsewhere, while the loopback host is
        // pinned to another publisher's.
        (
            &[
                ("example", ISSUER, RELEASES, "github.com/example-org/*"),
                ("other", ISSUER, DEPLOY, "127.0.0.1/*"),
            ],
            &["not trusted for this source", "pin: other"],
        ),
    ];
    for (entries, names) in cases {
        let w = World::new();
        for (name, issuer, identity, source) in entries {
            w.trust_as(name, issuer, identity, source);
        }
        let url = w.url();
        let said = w.refused(&["add", &url, "--client", "codex"], names);
        // The refusal names who signed, and through which issuer.
        assert!(
            said.contains(IDENTITY) && said.contains(ISSUER),
            "{entries:?}: {said}"
        );
    }
}

#[test]
fn a_bundle_that_is_not_for_this_pack_this_signer_or_this_root_is_refused() {
    let mut changed = read_fixture(PACK);
    let middle = changed.len() / 2;
    changed[middle] ^= 1;
    // (what is served as the pack, as its bundle, whether the committed
    // root is named, what the refusal says)
    let cases = [
        (
            changed,
            read_fixture(BUNDLE),
            true,
            vec!["Sigstore bundle is refused", "not a bundle for these bytes"],
        ),
        (
            read_fixture(PACK),
            read_fixture("foreign-ca.sigstore.json"),
            true,
            vec![
                "Sigstore bundle is refused",
                "does not verify against the trusted root",
            ],
        ),
        (
            read_fixture(PACK),
            read_fixture(BUNDLE),
            false,
            vec![
                "Sigstore bundle is refused",
                "does not verify against the trusted root",
            ],
        ),
        (
            read_fixture(PACK),
            read_fixture("other-identity.sigstore.json"),
            true,
            vec!["not trusted for this source", OTHER_IDENTITY],
        ),
    ];
    for (pack, bundle, own_root, names) in cases {
        let mut w = World::new();
        w.trust(ISSUER, RELEASES, "127.0.0.1/*");
        w.serve(PACK, pack);
        w.serve(BUNDLE, bundle);
        if !own_root {
            w.root = None;
        }
        let url = w.url();
        w.refused(&["add", &url, "--client", "codex"], &names);
        // A bundle that does not verify is never taken as no signature.
        if names[0].starts_with("Sigstore") {
            w.refused(
                &["add", &url, "--client", "codex", "--allow-unsigned"],
                &names,
            );
        }
    }
}

#[test]
fn a_signature_beside_a_download_is_read_no_further_than_its_own_limit() {
    // A server that says a pack's bundle, or its `.minisig`, is tens of
    // megabytes: refused before its body is read, at the bundle's limit
    // (8 MiB) or the signature file's (16 KiB), not at an archive's.
    let w = World::new();
    w.trust(ISSUER, RELEASES, "127.0.0.1/*");
    let pack = read_fixture(PACK);
    let server = Scripted::start(move |path, stream| match path {
        "/a.skillpack" | "/b.skillpack" => answer(stream, 200, &[], pack.len() as u64, &pack),
        "/a.skillpack.sigstore.json" | "/b.skillpack.minisig" => {
            answer(stream, 200, &[], 64 << 20, b"")
        }
        _ => answer(stream, 404, &[], 0, b""),
    });
    for (name, limit) in [("a", 8 << 20), ("b", 16 << 10)] {
        let url = server.url(&format!("/{name}.skillpack"));
        w.refused_with(
            &["add", &url, "--client", "codex"],
            2,
            &[&format!("over the limit of {limit} bytes")],
        );
    }
}
