//! The trust store on disk: files written, read back and merged, the errors
//! for broken files, and signatures made by the stock `minisign` checked
//! through the store (this needs `minisign` on `PATH`:
//! `apt-get install minisign`; the test fails without it).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::Command;

use skills_supply::http::{HttpOptions, download};
use skills_supply::trust::{
    Decision, LockedSigned, Origin, PolicyFlags, Provenance, RefusalKind, Signer, TrustError,
    TrustStore,
};

use crate::http_server::{Server, redirect, respond};

const OLD: &str = "RWSE9TbhK4nkT7K4t0/B/lNihgeUqInocCWnqPbcZYcA8KQM8M8MFlRq";
const OLD_ID: &str = "4FE4892BE136F584";
const NEW: &str = "RWQF5xph8jCG4/OjEU48pItL8GxHOPv6n7U5LKQfMBz5eY34pEEONwVU";
const NEW_ID: &str = "E38630F2611AE705";
const BOB: &str = "RWRUcT8oec9Zg6ga54nIHe2d3QlIJTirPJzxZFKNSQISo5vTkX4BKfaj";
const BOB_ID: &str = "8359CF79283F7154";

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn ids(keys: &[&skills_supply::trust::TrustedKey]) -> Vec<String> {
    keys.iter().map(|k| k.id.clone()).collect()
}

#[test]
fn a_store_is_written_sorted_and_reads_back_the_same() {
    let dir = tempdir();
    let d = dir.path();
    let mut store = TrustStore::load(d, None).unwrap();
    assert!(store.publishers().is_empty(), "no file is an empty store");
    assert_eq!(store.add_key("zed", BOB).unwrap(), BOB_ID);
    let pub_file = format!("untrusted comment: minisign public key {OLD_ID}\n{OLD}\n");
    assert_eq!(store.add_key("acme", &pub_file).unwrap(), OLD_ID);
    assert_eq!(store.add_key("acme", NEW).unwrap(), NEW_ID);
    assert_eq!(
        store.add_key("acme", NEW).unwrap(),
        NEW_ID,
        "adding twice changes nothing"
    );
    let file = store.project_mut();
    file.pin("acme", "github.com/acme/*").unwrap();
    file.pin("acme", "oci://ghcr.io/acme/*").unwrap();
    file.retire_key("acme", OLD_ID, "2026-03-01: moved to a hardware key")
        .unwrap();
    store.save().unwrap();

    let path = d.join("skills-trust.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let expected = format!(
        r#"{{
  "version": 1,
  "publishers": {{
    "acme": {{
      "keys": [
        {{
          "key": "{OLD}",
          "id": "{OLD_ID}",
          "retired": "2026-03-01: moved to a hardware key"
        }},
        {{
          "key": "{NEW}",
          "id": "{NEW_ID}"
        }}
      ],
      "sources": [
        "github.com/acme/*",
        "oci://ghcr.io/acme/*"
      ]
    }},
    "zed": {{
      "keys": [
        {{
          "key": "{BOB}",
          "id": "{BOB_ID}"
        }}
      ]
    }}
  }}
}}
"#
    );
    assert_eq!(text, expected);

    let again = TrustStore::load(d, None).unwrap();
    assert_eq!(again.publishers(), store.publishers());
    again.save().unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        expected,
        "a round trip is byte-identical"
    );
    assert_eq!(ids(&again.keys_for("acme/skills")), [OLD_ID, NEW_ID]);
    assert_eq!(
        ids(&again.keys_for("oci://ghcr.io/acme/pdf:1.0")),
        [OLD_ID, NEW_ID]
    );
    assert_eq!(
        ids(&again.keys_for("https://example.org/index.json")).len(),
        3
    );

    let mut removed = again;
    removed.project_mut().remove_key("zed", BOB_ID).unwrap();
    assert!(
        removed.project().publisher("zed").is_none(),
        "a publisher without keys goes"
    );
    assert!(matches!(
        removed.project_mut().remove_key("acme", BOB_ID),
        Err(TrustError::Argument(_))
    ));
}

#[test]
fn changes_are_checked_before_they_are_made() {
    let dir = tempdir();
    let mut store = TrustStore::load(dir.path(), None).unwrap();
    store.add_key("acme", NEW).unwrap();
    let refused = [
        (
            store.add_key("bob", NEW),
            "key `E38630F2611AE705` is already trusted as `acme`",
        ),
        (
            store.add_key("has space", BOB),
            "`has space` cannot name a publisher",
        ),
        (store.add_key("", BOB), "`` cannot name a publisher"),
        (
            store.add_key("bob", "RWQ"),
            "\"RWQ\" is not a minisign public key",
        ),
    ];
    for (result, message) in refused {
        let err = result.unwrap_err().to_string();
        assert!(err.contains(message), "{err}");
    }
    let file = store.project_mut();
    let err = file.pin("nobody", "x/*").unwrap_err().to_string();
    assert_eq!(err, "no publisher is named `nobody`");
    let err = file
        .retire_key("acme", NEW_ID, " ")
        .unwrap_err()
        .to_string();
    assert_eq!(err, "say when or why the key is retired");
    assert!(
        !dir.path().join("skills-trust.json").exists(),
        "nothing saved"
    );
}

/// The project's definition of a publisher wins; every file's pins apply,
/// each with the keys its own file gives.
#[test]
fn project_and_user_files_merge() {
    let dir = tempdir();
    let d = dir.path();
    let user = d.join("config/skb/trust.json");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(
        d.join("skills-trust.json"),
        format!(
            r#"{{"version": 1, "publishers": {{"acme": {{"comment": "project", "keys": [{{"key": "{NEW}"}}], "sources": ["acme/*"]}}}}}}"#
        ),
    )
    .unwrap();
    std::fs::write(
        &user,
        format!(
            r#"{{"version": 1, "publishers": {{
                "acme": {{"comment": "user", "keys": [{{"key": "{BOB}"}}], "sources": ["oci://ghcr.io/acme/*"]}},
                "mine": {{"keys": [{{"key": "{OLD}"}}]}}
            }}}}"#
        ),
    )
    .unwrap();
    let store = TrustStore::load(d, Some(&user)).unwrap();
    let names: Vec<(&str, Option<&str>, Origin)> = store
        .publishers()
        .iter()
        .map(|p| (p.name.as_str(), p.comment.as_deref(), p.keys[0].origin))
        .collect();
    assert_eq!(
        names,
        [
            ("acme", Some("project"), Origin::Project),
            ("mine", None, Origin::User)
        ]
    );
    // Unpinned: every key of the merged store; the user's `acme` is hidden.
    assert_eq!(
        ids(&store.keys_for("https://example.org/x.skillpack")),
        [NEW_ID, OLD_ID]
    );
    // The project's pin, the project's keys.
    assert_eq!(
        ids(&store.keys_for("https://github.com/acme/pdf")),
        [NEW_ID]
    );
    // The user's pin still applies, with the keys the user gave it.
    assert_eq!(ids(&store.keys_for("oci://ghcr.io/acme/pdf:2")), [BOB_ID]);

    // Saving writes each file back to where it came from.
    let mut store = store;
    store.user_mut().unwrap().add_key("mine", NEW).unwrap();
    store.save().unwrap();
    let text = std::fs::read_to_string(&user).unwrap();
    assert!(
        text.contains(NEW_ID) && text.contains("\"comment\": \"user\""),
        "{text}"
    );
    let project = std::fs::read_to_string(d.join("skills-trust.json")).unwrap();
    assert!(!project.contains(OLD_ID), "{project}");
}

/// A broken trust file stops everything, with a message naming it.
#[test]
fn broken_files_are_errors_that_name_them() {
    let cases: [(&str, String); 11] = [
        (
            "{\"version\": 1,\n  \"publishers\": {",
            ":2:17: not a trust file: EOF while parsing an object".into(),
        ),
        (
            "{\"version\": 1, \"keys\": {}}",
            "unknown field `keys`".into(),
        ),
        (
            "{\"version\": 2}",
            "`version` is 2; this skb reads version 1".into(),
        ),
        (
            &format!(
                r#"{{"version": 1, "publishers": {{"a": {{"keys": [{{"key": "{NEW}"}}]}}, "a": {{"keys": [{{"key": "{BOB}"}}]}}}}}}"#
            ),
            "publisher `a` is given twice".into(),
        ),
        (
            &format!(
                r#"{{"version": 1, "publishers": {{"a": {{"keys": [{{"key": "{NEW}"}}, {{"key": "{NEW}"}}]}}}}}}"#
            ),
            format!("publisher `a` lists key `{NEW_ID}` twice"),
        ),
        (
            &format!(
                r#"{{"version": 1, "publishers": {{"a": {{"keys": [{{"key": "{NEW}"}}]}}, "b": {{"keys": [{{"key": "{NEW}"}}]}}}}}}"#
            ),
            format!("key `{NEW_ID}` is listed under both `a` and `b`"),
        ),
        (
            r#"{"version": 1, "publishers": {"a": {"keys": [{"key": "RWQnot"}]}}}"#,
            "publisher `a`: \"RWQnot\" is not a minisign public key".into(),
        ),
        (
            &format!(
                r#"{{"version": 1, "publishers": {{"a": {{"keys": [{{"key": "{NEW}", "id": "{BOB_ID}"}}]}}}}}}"#
            ),
            format!("the key written with id `{BOB_ID}` has id `{NEW_ID}`"),
        ),
        (
            &format!(
                r#"{{"version": 1, "publishers": {{"a": {{"keys": [{{"key": "{NEW}", "retired": ""}}]}}}}}}"#
            ),
            format!("key `{NEW_ID}` has an empty `retired`"),
        ),
        (
            r#"{"version": 1, "publishers": {"a": {"keys": []}}}"#,
            "publisher `a` has no keys".into(),
        ),
        (
            &format!(
                r#"{{"version": 1, "publishers": {{"a/b": {{"keys": [{{"key": "{NEW}"}}]}}}}}}"#
            ),
            "`a/b` cannot name a publisher".into(),
        ),
    ];
    for (text, message) in cases {
        let dir = tempdir();
        let path = dir.path().join("skills-trust.json");
        std::fs::write(&path, text).unwrap();
        let err = TrustStore::load(dir.path(), None).unwrap_err().to_string();
        assert!(err.starts_with(&format!("`{}`", path.display())), "{err}");
        assert!(err.contains(&message), "{text}\n{err}");
    }

    let dir = tempdir();
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; (1 << 20) + 1]).unwrap();
    let err = TrustStore::load(dir.path(), Some(&big)).unwrap_err();
    assert!(matches!(err, TrustError::Read(_)), "{err}");
    assert!(err.to_string().contains("big.json"), "{err}");
    std::fs::create_dir(dir.path().join("skills-trust.json")).unwrap();
    let err = TrustStore::load(dir.path(), None).unwrap_err();
    assert!(matches!(err, TrustError::Read(_)), "{err}");
}

/// Runs the stock `minisign` in `dir`; it must succeed.
fn minisign(dir: &Path, args: &[&str]) {
    let output = Command::new("minisign")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `minisign` ({e}): this test needs it: `apt-get install minisign`")
        });
    assert!(
        output.status.success(),
        "`minisign {}` failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A pack signed by the stock `minisign`, with the claims `skb pack
/// --release` writes, read through the store and judged by the policy.
#[test]
fn signatures_by_stock_minisign_go_through_the_store() {
    let dir = tempdir();
    let d = dir.path();
    minisign(d, &["-G", "-W", "-p", "k.pub", "-s", "k.key"]);
    let digest = "ab".repeat(32);
    std::fs::write(d.join("pack"), b"the pack's bytes").unwrap();
    let comment = format!("skills-digest-v2:{digest} version:1.2.0 timestamp:1700000000");
    minisign(d, &["-S", "-s", "k.key", "-m", "pack", "-t", &comment]);
    let bytes = std::fs::read(d.join("pack")).unwrap();
    let sig = std::fs::read_to_string(d.join("pack.minisig")).unwrap();
    let public = std::fs::read_to_string(d.join("k.pub")).unwrap();
    // minisign's `.pub` comment drops the id's leading zeros; skb writes
    // all 16 digits.
    let written = public.lines().next().unwrap().rsplit(' ').next().unwrap();
    let stock_id = format!("{:016X}", u64::from_str_radix(written, 16).unwrap());

    let mut store = TrustStore::load(d, None).unwrap();
    let unknown = store.signer(&bytes, &sig).unwrap();
    assert_eq!(
        (unknown.key_id.as_str(), unknown.digest.as_deref()),
        (stock_id.as_str(), None)
    );
    let refusal = store
        .check(
            &Provenance::remote("acme/skills"),
            "pdf",
            Some(&unknown),
            None,
            &PolicyFlags::default(),
        )
        .unwrap_err();
    assert_eq!(
        refusal.to_string(),
        format!(
            "refusing `acme/skills` skill `pdf`: signed by key {stock_id}, which is not in the \
             trust store; trust it with `skb trust add` or pass --allow-unsigned"
        )
    );

    assert_eq!(store.add_key("acme", &public).unwrap(), stock_id);
    let signer = store.signer(&bytes, &sig).unwrap();
    assert_eq!(signer.key_id, stock_id);
    assert_eq!(signer.digest.as_deref(), Some(digest.as_str()));
    assert_eq!(signer.version.as_deref(), Some("1.2.0"));
    assert_eq!(signer.timestamp, Some(1_700_000_000));
    assert_eq!(
        store.check(
            &Provenance::remote("acme/skills"),
            "pdf",
            Some(&signer),
            None,
            &PolicyFlags::default()
        ),
        Ok(Decision::Signed {
            publisher: "acme".into(),
            key_id: stock_id.clone(),
            retired: false,
            downgrade: false
        })
    );
    let newer = LockedSigned {
        key_id: stock_id.clone(),
        digest: "cd".repeat(32),
        version: Some("1.10.0".into()),
        timestamp: Some(1_600_000_000),
    };
    let refusal = store
        .check(
            &Provenance::remote("acme/skills"),
            "pdf",
            Some(&signer),
            Some(&newer),
            &PolicyFlags::default(),
        )
        .unwrap_err();
    assert!(
        matches!(*refusal.kind, RefusalKind::Downgrade { .. }),
        "{refusal}"
    );

    let mut tampered = bytes.clone();
    tampered[0] ^= 1;
    assert!(
        store.signer(&tampered, &sig).is_err(),
        "altered bytes do not verify"
    );
    assert!(store.signer(&bytes, "not a signature").is_err());
}

// Pins against every spelling of a pinned location (issue 27, class 1):
// each test is an attack that made a pinned publisher's source escape its
// pin, so that another trusted key (`bob`'s) could sign it.

/// `acme` pins GitHub's `acme`, a loopback host, an IPv6 host and two IDNA
/// hosts (one written in Unicode, one in punycode); `bob`, trusted too,
/// pins nothing.
fn pinned_store(dir: &Path) -> TrustStore {
    std::fs::write(
        dir.join("skills-trust.json"),
        format!(
            r#"{{"version": 1, "publishers": {{
                "acme": {{"keys": [{{"key": "{OLD}", "retired": "rotated"}}, {{"key": "{NEW}"}}],
                          "sources": ["github.com/acme/*", "127.0.0.1/acme/*", "[2001:db8::1]/acme/*",
                                      "bücher.example/acme/*", "xn--caf-dma.example/acme/*"]}},
                "bob": {{"keys": [{{"key": "{BOB}"}}]}}
            }}}}"#
        ),
    )
    .unwrap();
    TrustStore::load(dir, None).unwrap()
}

/// What the policy says of `source` signed by `key_id`.
fn judged(store: &TrustStore, source: &str, key_id: &str) -> Result<Decision, RefusalKind> {
    judged_from(store, &Provenance::remote(source), key_id)
}

/// What the policy says of what came through `from`, signed by `key_id`.
fn judged_from(
    store: &TrustStore,
    from: &Provenance,
    key_id: &str,
) -> Result<Decision, RefusalKind> {
    let signer = Signer {
        key_id: key_id.into(),
        digest: Some("d".into()),
        version: None,
        timestamp: None,
        sigstore: None,
    };
    store
        .check(from, "pdf", Some(&signer), None, &PolicyFlags::default())
        .map_err(|refusal| *refusal.kind)
}

/// Every spelling in `sources` is held to `acme`'s pin: only its keys may
/// sign it, and `bob`'s signature is refused naming the pin.
fn held_to_acme(sources: &[&str]) {
    let dir = tempdir();
    let store = pinned_store(dir.path());
    for source in sources {
        assert_eq!(
            ids(&store.keys_for(source)),
            [OLD_ID, NEW_ID],
            "`{source}` escapes acme's pin"
        );
        assert_eq!(
            judged(&store, source, BOB_ID),
            Err(RefusalKind::Untrusted {
                key_id: BOB_ID.into(),
                pins: vec!["acme".into()]
            }),
            "`{source}`"
        );
        assert_eq!(
            judged(&store, source, NEW_ID),
            Ok(Decision::Signed {
                publisher: "acme".into(),
                key_id: NEW_ID.into(),
                retired: false,
                downgrade: false
            }),
            "`{source}`"
        );
    }
}

#[test]
fn a_dot_segment_path_does_not_escape_the_pin() {
    held_to_acme(&[
        "https://github.com/x/../acme/skills",
        "https://github.com/x/y/../../acme/skills",
        "https://github.com/x/%2e%2E/acme/skills",
        "https://github.com/x/.%2e/acme/skills",
        "https://github.com/../acme/skills",
        "http://127.0.0.1/x/../acme/pack.skill",
    ]);
}

#[test]
fn empty_segments_do_not_escape_the_pin() {
    held_to_acme(&[
        "https://github.com//acme/skills",
        "https://github.com///acme//skills",
        "http://127.0.0.1//acme/pack.skill",
    ]);
}

#[test]
fn a_single_dot_segment_does_not_escape_the_pin() {
    held_to_acme(&[
        "https://github.com/./acme/skills",
        "https://github.com/%2E/acme/skills",
        "http://127.0.0.1/./acme/pack.skill",
    ]);
}

#[test]
fn percent_encoded_letters_do_not_escape_the_pin() {
    held_to_acme(&[
        "https://github.com/%61cme/skills",
        "https://github.com/%41%43%4D%45/skills",
        "https://github.com/ac%6de/skills",
        "https://%67ithub.com/acme/skills",
        "http://127.0.0.1/%61cme/pack.skill",
    ]);
}

#[test]
fn an_encoded_slash_does_not_escape_the_pin() {
    held_to_acme(&[
        "https://github.com/acme%2Fskills",
        "https://github.com/acme%2fskills",
        "https://github.com/acme%5Cskills",
        "https://github.com/x/..%2Facme/skills",
        "https://github.com/x%2F..%2Facme%2Fskills",
        // A server that does not decode `%2F` serves this from acme's path.
        "https://github.com/acme/..%2F..%2Fbob/skills",
    ]);
}

#[test]
fn a_backslash_does_not_escape_the_pin() {
    held_to_acme(&[
        "https://github.com\\acme\\skills",
        "https://github.com/x\\..\\acme/skills",
    ]);
}

#[test]
fn ipv4_spellings_do_not_escape_the_pin() {
    held_to_acme(&[
        "http://127.1/acme/pack.skill",
        "http://127.0.1/acme/pack.skill",
        "http://2130706433/acme/pack.skill",
        "http://0x7f000001/acme/pack.skill",
        "http://0x7F.0.0.1/acme/pack.skill",
        "http://0177.0.0.1/acme/pack.skill",
        "http://0177.0.0.01/acme/pack.skill",
        "http://127.000.000.001/acme/pack.skill",
        "http://%31%32%37.0.0.1/acme/pack.skill",
    ]);
}

#[test]
fn a_trailing_dot_does_not_escape_the_pin() {
    held_to_acme(&[
        "https://github.com./acme/skills",
        "https://github.com../acme/skills",
        "git@github.com.:acme/skills.git",
        "http://127.0.0.1./acme/pack.skill",
        "http://0x7f.1./acme/pack.skill",
    ]);
}

#[test]
fn localhost_does_not_escape_the_pin() {
    held_to_acme(&[
        "http://localhost/acme/pack.skill",
        "http://LocalHost./acme/pack.skill",
        "http://mirror.localhost/acme/pack.skill",
        "http://127.0.0.2/acme/pack.skill",
        "http://0.0.0.0/acme/pack.skill",
        "http://[::1]/acme/pack.skill",
        "http://[::ffff:127.0.0.1]/acme/pack.skill",
    ]);
}

#[test]
fn an_explicit_default_port_does_not_escape_the_pin() {
    held_to_acme(&[
        "https://github.com:443/acme/skills",
        "https://github.com:0443/acme/skills",
        "ssh://git@github.com:22/acme/skills.git",
        "git://github.com:9418/acme/skills.git",
        "http://127.0.0.1:80/acme/pack.skill",
        "https://127.0.0.1:443/acme/pack.skill",
    ]);
}

/// A pin that names no port is the host's whatever the port: a publisher's
/// host serves its own content on every port.
#[test]
fn another_port_does_not_escape_a_pin_without_one() {
    held_to_acme(&[
        "http://127.0.0.1:8080/acme/pack.skill",
        "https://github.com:8443/acme/skills",
        "127.0.0.1:8080/acme/pack.skill",
    ]);
}

#[test]
fn an_uppercase_host_does_not_escape_the_pin() {
    held_to_acme(&[
        "HTTPS://GITHUB.COM/ACME/SKILLS",
        "https://GitHub.Com/acme/skills",
        "git@GITHUB.COM:acme/skills",
    ]);
}

#[test]
fn an_idna_host_does_not_escape_the_pin() {
    held_to_acme(&[
        // The pin is written in Unicode, the source in punycode ...
        "https://xn--bcher-kva.example/acme/x",
        "https://BÜCHER.example/acme/x",
        // ... and the other way round.
        "https://café.example/acme/x",
        "https://CAFÉ.example/acme/x",
        // Full-width letters and an ideographic full stop map to ASCII.
        "https://ｇｉｔｈｕｂ.com/acme/skills",
        "https://github。com/acme/skills",
    ]);
}

#[test]
fn ipv6_spellings_do_not_escape_the_pin() {
    held_to_acme(&[
        "https://[2001:DB8::1]/acme/x",
        "https://[2001:db8:0:0:0:0:0:1]/acme/x",
        "https://[2001:0db8::0001]/acme/x",
        "https://[2001:db8::1]:443/acme/x",
        "http://[0:0:0:0:0:0:0:1]/acme/pack.skill",
        "http://[::FFFF:7F00:1]/acme/pack.skill",
    ]);
}

/// `skills_supply::git` reads `www.github.com` as `github.com`.
#[test]
fn the_www_alias_of_github_does_not_escape_the_pin() {
    held_to_acme(&[
        "https://www.github.com/acme/skills",
        "https://WWW.GitHub.com./acme/skills",
    ]);
}

/// `https:github.com/…` is a URL of github.com to an HTTP client.
#[test]
fn a_scheme_without_slashes_does_not_escape_the_pin() {
    held_to_acme(&[
        "https:github.com/acme/skills",
        "https:/github.com/acme/skills",
        "https:\\\\github.com/acme/skills",
        "https:///github.com/acme/skills",
    ]);
}

/// A pin written `host:port/…` without a scheme names the port, as the
/// same pin written with `https://` does.
#[test]
fn a_pin_written_with_a_port_and_no_scheme_applies() {
    let dir = tempdir();
    std::fs::write(
        dir.path().join("skills-trust.json"),
        format!(
            r#"{{"version": 1, "publishers": {{
                "acme": {{"keys": [{{"key": "{NEW}"}}], "sources": ["localhost:8080/acme/*"]}},
                "bob": {{"keys": [{{"key": "{BOB}"}}]}}
            }}}}"#
        ),
    )
    .unwrap();
    let store = TrustStore::load(dir.path(), None).unwrap();
    for source in [
        "http://127.0.0.1:8080/acme/pack.skill",
        "http://localhost:8080/acme/pack.skill",
    ] {
        assert_eq!(ids(&store.keys_for(source)), [NEW_ID], "{source}");
    }
    assert_eq!(
        ids(&store.keys_for("http://127.0.0.1:9090/acme/pack.skill")).len(),
        2,
        "another port is not the pinned one"
    );
}

/// A pack asked for at an unpinned URL that redirects to a pinned location
/// is held to that location's pin: pins apply to every URL the bytes came
/// through, each in its canonical form (here a relative `Location` with a
/// dot segment and a percent-encoded letter).
#[test]
fn a_redirect_to_a_pinned_location_keeps_the_pin() {
    let dir = tempdir();
    let store = pinned_store(dir.path());
    let server = Server::start(|_, path, stream| match path {
        "/free/pack.skill" => redirect(stream, "/x/../%61cme/pack.skill"),
        "/%61cme/pack.skill" => respond(stream, 200, &[], b"the pack"),
        _ => respond(stream, 404, &[], b""),
    });
    let source = server.url("/free/pack.skill");
    let fetched = download(&source, &HttpOptions::default(), &mut |_, _| {}).unwrap();
    assert_eq!(fetched.bytes, b"the pack");
    assert_eq!(
        fetched.urls,
        [source.clone(), server.url("/%61cme/pack.skill")]
    );

    // The URL asked for is pinned by nobody: any trusted key would do.
    assert_eq!(
        judged(&store, &source, BOB_ID),
        Ok(Decision::Signed {
            publisher: "bob".into(),
            key_id: BOB_ID.into(),
            retired: false,
            downgrade: false
        })
    );
    // Where the bytes came from is acme's.
    let from = fetched
        .urls
        .iter()
        .fold(Provenance::remote(&source), |from, url| from.through(url));
    assert!(
        from.locations()
            .iter()
            .any(|l| l.ends_with("/acme/pack.skill")),
        "{:?}",
        from.locations()
    );
    assert_eq!(
        judged_from(&store, &from, BOB_ID),
        Err(RefusalKind::Untrusted {
            key_id: BOB_ID.into(),
            pins: vec!["acme".into()]
        })
    );
    assert_eq!(
        judged_from(&store, &from, NEW_ID),
        Ok(Decision::Signed {
            publisher: "acme".into(),
            key_id: NEW_ID.into(),
            retired: false,
            downgrade: false
        })
    );
    assert_eq!(server.hits(), 2);
}

/// Whether a source is local is the caller's word (the kind of source it
/// fetched), not its spelling: a remote source written like a path needs a
/// signature like any other.
#[test]
fn a_remote_source_written_like_a_path_is_not_local() {
    let dir = tempdir();
    let store = pinned_store(dir.path());
    for source in [
        "./vendor/skills",
        "/srv/mirror/pack.skill",
        "~/skills",
        "C:\\x",
    ] {
        let refused = store
            .check(
                &Provenance::remote(source),
                "pdf",
                None,
                None,
                &PolicyFlags::default(),
            )
            .map_err(|refusal| *refusal.kind);
        assert_eq!(refused, Err(RefusalKind::Unsigned), "{source}");
        assert_eq!(
            store.check(
                &Provenance::local(source),
                "pdf",
                None,
                None,
                &PolicyFlags::default()
            ),
            Ok(Decision::Local),
            "{source}"
        );
    }
}
