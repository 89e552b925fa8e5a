//! Skill packs pushed to and pulled from a real registry (CNCF distribution
//! 2.8, see `registry.rs`), with and without basic auth, and exchanged with
//! the ORAS Python SDK in both directions.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::process::Command;

use base64::Engine as _;
use skills_supply::oci::{self, Credentials, OciError, OciOptions, PACK_MEDIA_TYPE, Reference};

use crate::git_server::non_loopback_address;
use crate::registry::{Recorder, Registry};

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

fn oras(args: &[&str], cwd: &std::path::Path) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/supply/oras_interop.py");
    let output = Command::new(skills_tests::tier::oras_python())
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

#[skills_tests::acceptance("needs the ORAS Python SDK (SKILLS_ORAS_PYTHON or target/oras-venv)")]
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

#[skills_tests::acceptance("needs the ORAS Python SDK (SKILLS_ORAS_PYTHON or target/oras-venv)")]
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
    let output = Command::new(skills_tests::tier::oras_python())
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

fn login() -> OciOptions {
    OciOptions {
        credentials: Credentials::Basic {
            username: "publisher".into(),
            password: "s3cret".into(),
        },
        ..anonymous()
    }
}

/// Attack: a registry answers a blob download with a redirect to plain
/// `http://` on a host that is not loopback (as a registry backed by a
/// CDN answers with its CDN), and the HTTP library followed it by its own
/// policy. Each hop now goes through the transport's scheme rule. The
/// mirror is on this machine's own network address, so it would answer.
#[test]
fn a_blob_redirect_to_plain_http_on_another_host_is_refused() {
    let ip = non_loopback_address();
    let (registry, mirror) = Registry::start_redirecting_blobs(ip, None);
    let tagged = reference(&registry, "team/tools:v1");
    oci::push(&tagged, &pack_bytes(5_000), Some(SIGNATURE), &anonymous())
        .unwrap_or_else(|e| panic!("{e}\n{}", registry.log()));
    let err = oci::pull(&tagged, &anonymous())
        .map(|pulled| pulled.manifest_digest)
        .unwrap_err();
    assert!(matches!(err, OciError::Transport { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&mirror.url()) && text.contains("loopback"),
        "{text}"
    );
    assert!(mirror.seen().is_empty(), "{:?}", mirror.seen());
}

/// A blob redirected to another (loopback) server is fetched there, and
/// the registry's credentials stay with the registry.
#[test]
fn a_blob_redirect_is_followed_without_the_credentials() {
    let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let (registry, mirror) =
        Registry::start_redirecting_blobs(loopback, Some(("publisher", "s3cret")));
    let tagged = reference(&registry, "team/tools:v1");
    let pack = pack_bytes(5_000);
    oci::push(&tagged, &pack, Some(SIGNATURE), &login())
        .unwrap_or_else(|e| panic!("{e}\n{}", registry.log()));
    let pulled = oci::pull(&tagged, &login()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pulled.pack, pack);
    let seen = mirror.seen();
    assert!(seen.len() >= 2, "{seen:?}");
    assert!(seen.iter().all(|s| s.authorization.is_none()), "{seen:?}");
}

/// Attack: a registry's upload `Location` names another host, and the
/// registry's credentials went there with the blob. They are sent to the
/// registry's own origin only; the other host (which forwards to the
/// registry) gets none, so the upload is refused instead.
#[test]
fn push_credentials_are_not_sent_to_an_upload_location_on_another_host() {
    let (registry, front) = Registry::start_behind_other_host("publisher", "s3cret");
    let tagged = reference(&registry, "team/tools:v1");
    let result = oci::push(&tagged, &pack_bytes(2_000), None, &login());
    let seen = front.seen();
    assert!(!seen.is_empty(), "the upload did not go to the other host");
    assert!(
        seen.iter().all(|s| s.authorization.is_none()),
        "credentials sent to {}: {seen:?}",
        front.url()
    );
    let err = result.map(|_| ()).unwrap_err();
    assert!(err.to_string().contains(&front.url()), "{err}");
}

/// Attack: a loopback registry names a token realm in plain `http://` on a
/// host that is not loopback, and the credentials went there in clear. A
/// realm is asked only over `https://`, or `http://` to a loopback host.
#[test]
fn credentials_are_not_sent_to_a_plain_http_token_realm_on_another_host() {
    let ip = non_loopback_address();
    let (registry, _tokens) = Registry::start_with_tokens_on(ip, "publisher:s3cret", "refresh-me");
    let tagged = reference(&registry, "team/tools:v1");
    let err = oci::push(&tagged, &pack_bytes(1_000), None, &login()).unwrap_err();
    assert!(matches!(err, OciError::Transport { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&format!("http://{ip}:")) && text.contains("loopback"),
        "{text}"
    );
}

/// Attack: a Docker config entry whose key is not exactly the registry's
/// host (a path after it, or the registry's name inside another URL) was
/// used for it. Keys are matched by their canonical host only.
#[test]
fn docker_config_credentials_go_only_to_their_registry() {
    let registry = Registry::start_with_password("publisher", "s3cret");
    let tagged = reference(&registry, "private/tools:v1");
    oci::push(&tagged, &pack_bytes(1_000), None, &login()).unwrap();
    let auth = base64::engine::general_purpose::STANDARD.encode("publisher:s3cret");
    let docker = tempfile::tempdir().unwrap();
    let config = |keys: &[String]| {
        let entries: Vec<String> = keys
            .iter()
            .map(|key| format!(r#""{key}":{{"auth":"{auth}"}}"#))
            .collect();
        std::fs::write(
            docker.path().join("config.json"),
            format!(r#"{{"auths":{{{}}}}}"#, entries.join(",")),
        )
        .unwrap();
        OciOptions {
            credentials: Credentials::DockerConfig(docker.path().to_owned()),
            ..anonymous()
        }
    };
    let host = &registry.host;
    let elsewhere = config(&[
        format!("https://evil.example/{host}"),
        format!("{host}/private"),
        format!("{host}.evil.example"),
    ]);
    let err = oci::pull(&tagged, &elsewhere)
        .map(|pulled| pulled.manifest_digest)
        .unwrap_err();
    assert!(
        matches!(
            err,
            OciError::Unauthorized {
                had_credentials: false,
                ..
            }
        ),
        "{err}"
    );
    // The same host written as `docker login` writes it, in any case.
    for key in [host.clone(), format!("http://{host}/"), host.to_uppercase()] {
        let pulled =
            oci::pull(&tagged, &config(std::slice::from_ref(&key))).map(|p| p.manifest_digest);
        assert!(pulled.is_ok(), "{key}: {pulled:?}");
    }
}

/// Run by `ambient_registry_credentials_go_only_to_their_host` in a child
/// process whose environment that test sets: pulls the reference in
/// `SKILLS_TEST_REFERENCE` with the ambient credentials and prints what
/// happened.
#[test]
#[ignore = "a helper: run by another test, in a child process"]
fn pull_with_the_ambient_environment() {
    let Ok(text) = std::env::var("SKILLS_TEST_REFERENCE") else {
        return;
    };
    let options = OciOptions {
        retries: 1,
        ..OciOptions::default()
    };
    match oci::pull(&Reference::parse(&text).unwrap(), &options) {
        Ok(pulled) => println!("PULLED {}", pulled.manifest_digest),
        Err(e) => println!("REFUSED {e}"),
    }
}

/// Attack: `SKB_REGISTRY_TOKEN`, or `SKB_REGISTRY_USERNAME` and
/// `SKB_REGISTRY_PASSWORD`, were sent to whatever registry a source or a
/// lock named. Read from the real environment of a child process, they go
/// only to the registry `SKB_REGISTRY_HOST` names; otherwise nothing is
/// sent (the server in front of the registry records every request), and
/// the registry's `401` says why.
#[test]
fn ambient_registry_credentials_go_only_to_their_host() {
    let registry = Registry::start_with_password("publisher", "s3cret");
    oci::push(
        &reference(&registry, "private/tools:v1"),
        &pack_bytes(1_000),
        None,
        &login(),
    )
    .unwrap();
    let front = Recorder::forward(IpAddr::V4(Ipv4Addr::LOCALHOST));
    front.set_upstream(&registry.host);
    let host = front.url().trim_start_matches("http://").to_owned();
    let empty_docker = tempfile::tempdir().unwrap();
    let run = |vars: &[(&str, &str)]| {
        let output = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "oci::pull_with_the_ambient_environment"])
            .args(["--ignored", "--nocapture", "--test-threads=1"])
            .env_remove(oci::ENV_HOST)
            .env_remove(oci::ENV_TOKEN)
            .env_remove(oci::ENV_USERNAME)
            .env_remove(oci::ENV_PASSWORD)
            .env("DOCKER_CONFIG", empty_docker.path())
            .env(
                "SKILLS_TEST_REFERENCE",
                format!("oci://{host}/private/tools:v1"),
            )
            .envs(vars.iter().copied())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        // The test harness prints the test's name on the same line.
        let line = stdout.lines().find_map(|l| {
            let at = l.find("PULLED").or_else(|| l.find("REFUSED"))?;
            Some(l[at..].to_owned())
        });
        line.unwrap_or_else(|| panic!("the helper printed nothing: {stdout}"))
    };
    let sent = || front.seen().iter().any(|s| s.authorization.is_some());

    let out = run(&[(oci::ENV_TOKEN, "a-token")]);
    assert!(
        out.starts_with("REFUSED") && out.contains("SKB_REGISTRY_HOST") && out.contains("not set"),
        "{out}"
    );
    let out = run(&[
        (oci::ENV_HOST, "ghcr.io"),
        (oci::ENV_USERNAME, "publisher"),
        (oci::ENV_PASSWORD, "s3cret"),
    ]);
    assert!(
        out.starts_with("REFUSED") && out.contains("names `ghcr.io`"),
        "{out}"
    );
    assert!(!sent(), "credentials sent: {:?}", front.seen());

    let out = run(&[
        (oci::ENV_HOST, &host),
        (oci::ENV_USERNAME, "publisher"),
        (oci::ENV_PASSWORD, "s3cret"),
    ]);
    assert!(out.starts_with("PULLED"), "{out}");
    assert!(sent());
}
