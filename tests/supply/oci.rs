//! Skill packs pushed to and pulled from a real registry (CNCF distribution
//! 2.8, see `registry.rs`), with and without basic auth, and exchanged with
//! the ORAS Python SDK in both directions.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::PathBuf;
use std::process::Command;

use base64::Engine as _;
use skills_supply::oci::{self, Credentials, OciError, OciOptions, PACK_MEDIA_TYPE, Reference};

use crate::registry::Registry;

/// Options that ignore the machine's own Docker config and environment.
fn anonymous() -> OciOptions {
    OciOptions {
        credentials: Credentials::Anonymous,
        retries: 1,
        ..OciOptions::default()
    }
}

fn reference(registry: &Registry, rest: &str) -> Reference {
    Reference::parse(&format!("oci://{}/{rest}", registry.host)).unwrap()
}

/// Bytes that are not all alike, so a tampered byte shows.
fn pack_bytes(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 % 251) as u8).collect()
}

const SIGNATURE: &str = "untrusted comment: signature from minisign secret key\n\
RUQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3ZmdGxv4Ms3JbmifgZvBU1S1ejyIWp8wizUlQ9pUPpQ0=\n\
trusted comment: timestamp:1700000000\tfile:tools.skillpack\n\
8bYDFDUWzcnzyDHYt2cCKFSsJbXEV8n7sBsdLsKdVE2BYVIOa5R2g6fNW9DYgD3OONq2QEnYzdqVyOs0EcA2Cw==\n";

#[test]
fn push_then_pull_gives_the_same_bytes_and_signature() {
    let registry = Registry::start();
    let options = anonymous();
    let pack = pack_bytes(100_000);
    let tagged = reference(&registry, "team/tools:v1");
    let digest = oci::push(&tagged, &pack, Some(SIGNATURE), &options)
        .unwrap_or_else(|e| panic!("{e}\n{}", registry.log()));
    assert_eq!(
        oci::push(&tagged, &pack, Some(SIGNATURE), &options).unwrap(),
        digest,
        "the same pack gives the same manifest digest"
    );

    let pulled = oci::pull(&tagged, &options).unwrap();
    assert_eq!(pulled.pack, pack);
    assert_eq!(pulled.signature.as_deref(), Some(SIGNATURE));
    assert_eq!(pulled.manifest_digest, digest);

    assert_eq!(oci::resolve(&tagged, &options).unwrap(), digest);
    let pinned = reference(&registry, &format!("team/tools@{digest}"));
    assert_eq!(oci::resolve(&pinned, &options).unwrap(), digest);
    assert_eq!(oci::pull(&pinned, &options).unwrap(), pulled);

    // An unsigned pack under another tag: no signature comes back.
    let unsigned = reference(&registry, "team/tools:unsigned");
    let other = oci::push(&unsigned, &pack, None, &options).unwrap();
    assert_ne!(other, digest);
    let pulled = oci::pull(&unsigned, &options).unwrap();
    assert_eq!((pulled.pack, pulled.signature), (pack, None));
}

#[test]
fn a_push_by_digest_must_name_the_packs_manifest() {
    let registry = Registry::start();
    let options = anonymous();
    let pack = pack_bytes(1_000);
    let digest = oci::push(&reference(&registry, "a/b:t"), &pack, None, &options).unwrap();
    let pinned = reference(&registry, &format!("a/c@{digest}"));
    assert_eq!(oci::push(&pinned, &pack, None, &options).unwrap(), digest);
    assert_eq!(oci::pull(&pinned, &options).unwrap().pack, pack);
    let err = oci::push(&pinned, b"another pack", None, &options).unwrap_err();
    assert!(matches!(err, OciError::DigestMismatch { .. }), "{err}");
}

#[test]
fn a_missing_tag_or_digest_is_named() {
    let registry = Registry::start();
    let options = anonymous();
    oci::push(
        &reference(&registry, "team/tools:v1"),
        b"pack",
        None,
        &options,
    )
    .unwrap();
    for rest in ["team/tools:v9", "team/nothing:v1"] {
        let err = oci::pull(&reference(&registry, rest), &options).unwrap_err();
        assert!(matches!(err, OciError::NotFound { .. }), "{err}");
        let text = err.to_string();
        assert!(text.contains("tag `v") && text.contains(rest), "{text}");
        let err = oci::resolve(&reference(&registry, rest), &options).unwrap_err();
        assert!(err.to_string().contains("not found"), "{err}");
    }
    let absent = format!("team/tools@sha256:{}", "0".repeat(64));
    let err = oci::pull(&reference(&registry, &absent), &options).unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("manifest `sha256:{}`", "0".repeat(64))),
        "{err}"
    );
}

#[test]
fn a_tampered_blob_or_manifest_is_refused() {
    let registry = Registry::start();
    let options = anonymous();
    let pack = pack_bytes(10_000);
    let tagged = reference(&registry, "team/tools:v1");
    let digest = oci::push(&tagged, &pack, Some(SIGNATURE), &options).unwrap();

    // The registry now serves other bytes of the same length for the pack.
    let mut tampered = pack.clone();
    tampered[5_000] ^= 1;
    let pack_digest = format!(
        "sha256:{}",
        skills_core::digest::hex(&skills_core::digest::sha256(&pack))
    );
    std::fs::write(registry.blob_path(&pack_digest), &tampered).unwrap();
    let err = oci::pull(&tagged, &options).unwrap_err();
    match &err {
        OciError::DigestMismatch { what, expected, .. } => {
            assert_eq!((what.as_str(), expected), ("the pack layer", &pack_digest));
        }
        other => panic!("expected a digest mismatch, got {other}"),
    }
    // Longer than its descriptor: stopped at the descriptor's size.
    std::fs::write(
        registry.blob_path(&pack_digest),
        [&pack[..], b"more"].concat(),
    )
    .unwrap();
    let err = oci::pull(&tagged, &options).unwrap_err();
    assert!(matches!(err, OciError::DigestMismatch { .. }), "{err}");

    // A manifest whose stored bytes changed: refused against the pinned
    // digest and against the registry's `Docker-Content-Digest`.
    let manifest = registry.blob_path(&digest);
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.replace("pack.skillpack", "pack.skillpacK")).unwrap();
    for rest in [format!("team/tools@{digest}"), "team/tools:v1".to_owned()] {
        let err = oci::pull(&reference(&registry, &rest), &options).unwrap_err();
        match &err {
            OciError::DigestMismatch { expected, .. } => assert_eq!(expected, &digest),
            other => panic!("expected a digest mismatch for {rest}, got {other}"),
        }
    }
}

#[test]
fn a_pack_over_the_limit_is_refused_before_download() {
    let registry = Registry::start();
    let tagged = reference(&registry, "team/big:v1");
    oci::push(&tagged, &pack_bytes(5_000), None, &anonymous()).unwrap();
    let small = OciOptions {
        max_pack_bytes: 4_999,
        ..anonymous()
    };
    let err = oci::pull(&tagged, &small).unwrap_err();
    assert!(matches!(err, OciError::TooLarge { .. }), "{err}");
    assert!(
        err.to_string().contains("5000 bytes; the limit is 4999"),
        "{err}"
    );
}

#[test]
fn a_registry_with_passwords_takes_docker_config_credentials() {
    let registry = Registry::start_with_password("publisher", "s3cret");
    let docker = tempfile::tempdir().unwrap();
    let auth = base64::engine::general_purpose::STANDARD.encode("publisher:s3cret");
    std::fs::write(
        docker.path().join("config.json"),
        format!(r#"{{"auths":{{"{}":{{"auth":"{auth}"}}}}}}"#, registry.host),
    )
    .unwrap();
    let with_login = OciOptions {
        credentials: Credentials::DockerConfig(docker.path().to_owned()),
        ..anonymous()
    };
    let tagged = reference(&registry, "private/tools:v1");
    let pack = pack_bytes(2_000);
    let digest = oci::push(&tagged, &pack, Some(SIGNATURE), &with_login)
        .unwrap_or_else(|e| panic!("{e}\n{}", registry.log()));
    let pulled = oci::pull(&tagged, &with_login).unwrap();
    assert_eq!(
        (pulled.pack, pulled.manifest_digest),
        (pack.clone(), digest)
    );

    let err = oci::pull(&tagged, &anonymous()).unwrap_err();
    assert!(
        matches!(
            err,
            OciError::Unauthorized {
                status: 401,
                had_credentials: false,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("requires credentials"), "{err}");
    let err = oci::push(&tagged, &pack, None, &anonymous()).unwrap_err();
    assert!(matches!(err, OciError::Unauthorized { .. }), "{err}");

    let wrong = OciOptions {
        credentials: Credentials::Basic {
            username: "publisher".into(),
            password: "guess".into(),
        },
        ..anonymous()
    };
    let err = oci::pull(&tagged, &wrong).unwrap_err();
    assert!(err.to_string().contains("refused the credentials"), "{err}");
}

/// The Python with the ORAS SDK: `SKILLS_ORAS_PYTHON`, else the venv under
/// the workspace's `target/oras-venv`.
fn oras_python() -> PathBuf {
    let python = std::env::var_os("SKILLS_ORAS_PYTHON").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/oras-venv/bin/python"),
        PathBuf::from,
    );
    let works = Command::new(&python)
        .args(["-c", "import oras.client"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        works,
        "`{}` cannot import the ORAS Python SDK: run `python3 -m venv target/oras-venv && \
         target/oras-venv/bin/pip install oras` in the workspace, or set SKILLS_ORAS_PYTHON",
        python.display()
    );
    python
}

fn oras(args: &[&str], cwd: &std::path::Path) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/supply/oras_interop.py");
    let output = Command::new(oras_python())
        .arg(script)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "oras {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn oras_pulls_what_we_push() {
    let registry = Registry::start();
    let pack = pack_bytes(50_000);
    oci::push(
        &reference(&registry, "team/tools:v1"),
        &pack,
        Some(SIGNATURE),
        &anonymous(),
    )
    .unwrap();
    let out = registry.scratch("oras-pull");
    let target = format!("{}/team/tools:v1", registry.host);
    oras(&["pull", &target, out.to_str().unwrap()], &out);
    assert_eq!(std::fs::read(out.join("pack.skillpack")).unwrap(), pack);
    assert_eq!(
        std::fs::read_to_string(out.join("pack.skillpack.minisig")).unwrap(),
        SIGNATURE
    );
}

#[test]
fn we_pull_what_oras_pushes() {
    let registry = Registry::start();
    let dir = registry.scratch("oras-push");
    let pack = pack_bytes(30_000);
    std::fs::write(dir.join("p.skillpack"), &pack).unwrap();
    std::fs::write(dir.join("p.skillpack.minisig"), SIGNATURE).unwrap();
    let target = format!("{}/from/oras:v2", registry.host);
    oras(
        &["push", &target, "p.skillpack", "p.skillpack.minisig"],
        &dir,
    );
    let tagged = reference(&registry, "from/oras:v2");
    let pulled = oci::pull(&tagged, &anonymous()).unwrap();
    assert_eq!(pulled.pack, pack);
    assert_eq!(pulled.signature.as_deref(), Some(SIGNATURE));
    assert_eq!(
        oci::resolve(&tagged, &anonymous()).unwrap(),
        pulled.manifest_digest
    );

    // Without our media types it is not a pack, and says which type it lacks.
    let plain = format!("{}/from/oras:plain", registry.host);
    std::fs::write(dir.join("notes.txt"), "hello").unwrap();
    let output = Command::new(oras_python())
        .args(["-c", "import oras.client,sys; oras.client.OrasClient(insecure=True).push(target=sys.argv[1], files=['notes.txt'])", &plain])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let err = oci::pull(&reference(&registry, "from/oras:plain"), &anonymous()).unwrap_err();
    assert!(matches!(err, OciError::Invalid { .. }), "{err}");
    assert!(err.to_string().contains(PACK_MEDIA_TYPE), "{err}");
}

#[test]
fn a_token_realm_gives_anonymous_pulls_and_pushes_with_credentials() {
    let (registry, _tokens) = Registry::start_with_tokens("publisher:s3cret", "refresh-me");
    let tagged = reference(&registry, "team/tools:v1");
    let pack = pack_bytes(3_000);
    let err = oci::push(&tagged, &pack, None, &anonymous()).unwrap_err();
    assert!(matches!(err, OciError::Unauthorized { .. }), "{err}");

    let publisher = OciOptions {
        credentials: Credentials::Basic {
            username: "publisher".into(),
            password: "s3cret".into(),
        },
        ..anonymous()
    };
    let digest = oci::push(&tagged, &pack, Some(SIGNATURE), &publisher)
        .unwrap_or_else(|e| panic!("{e}\n{}", registry.log()));
    let pulled = oci::pull(&tagged, &anonymous()).unwrap();
    assert_eq!(
        (pulled.pack, pulled.manifest_digest),
        (pack, digest.clone())
    );
    assert_eq!(oci::resolve(&tagged, &anonymous()).unwrap(), digest);

    // Docker's `identitytoken` is traded at the realm for an access token.
    let docker = tempfile::tempdir().unwrap();
    std::fs::write(
        docker.path().join("config.json"),
        format!(
            r#"{{"auths":{{"{}":{{"auth":"","identitytoken":"refresh-me"}}}}}}"#,
            registry.host
        ),
    )
    .unwrap();
    let with_identity = OciOptions {
        credentials: Credentials::DockerConfig(docker.path().to_owned()),
        ..anonymous()
    };
    let other = reference(&registry, "team/other:v1");
    oci::push(&other, b"other", None, &with_identity).unwrap();
    assert_eq!(oci::pull(&other, &anonymous()).unwrap().pack, b"other");

    let wrong = OciOptions {
        credentials: Credentials::Basic {
            username: "publisher".into(),
            password: "guess".into(),
        },
        ..anonymous()
    };
    let err = oci::pull(&tagged, &wrong).unwrap_err();
    assert!(err.to_string().contains("refused the credentials"), "{err}");
}

#[test]
fn a_refused_bearer_token_is_reported_not_replaced() {
    let (registry, _tokens) = Registry::start_with_tokens("publisher:s3cret", "refresh-me");
    let tagged = reference(&registry, "team/tools:v1");
    let with_token = OciOptions {
        credentials: Credentials::Bearer("not-a-token".into()),
        ..anonymous()
    };
    let err = oci::pull(&tagged, &with_token).unwrap_err();
    assert!(
        matches!(
            err,
            OciError::Unauthorized {
                had_credentials: true,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_registry_that_does_not_answer_is_named() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let tagged = Reference::parse(&format!("oci://127.0.0.1:{port}/team/tools:v1")).unwrap();
    let err = oci::pull(&tagged, &anonymous()).unwrap_err();
    assert!(matches!(err, OciError::Transport { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&format!(
            "http://127.0.0.1:{port}/v2/team/tools/manifests/v1"
        )),
        "{text}"
    );
}
