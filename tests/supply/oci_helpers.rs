//! Docker's credential helpers (`credHelpers`, `credsStore` in
//! `config.json`), run as Docker runs them, against real registries in
//! both auth modes, and skb's own `SKB_AUTH` serving a registry too: `htpasswd` (the helper's user and password answer the
//! registry's Basic challenge) and `token` (they are traded at the token
//! realm; a `<token>` user name makes the secret a refresh token). The
//! helper is a shell script `docker-credential-<name>` on `PATH` that logs
//! the server it was asked about. Each case runs a push in a child process
//! whose environment (`DOCKER_CONFIG`, `PATH`) the test sets.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::Command;

use skills_supply::oci::{self, OciOptions, Reference};

use crate::registry::Registry;

/// Run by the tests below in a child process whose environment they set:
/// pushes a small pack to `SKILLS_TEST_REFERENCE` with the ambient
/// credentials and prints what happened.
#[test]
#[ignore = "a helper: run by another test, in a child process"]
fn push_with_the_ambient_environment() {
    let Ok(text) = std::env::var("SKILLS_TEST_REFERENCE") else {
        return;
    };
    let options = OciOptions {
        retries: 1,
        ..OciOptions::default()
    };
    match oci::push(&Reference::parse(&text).unwrap(), b"pack", None, &options) {
        Ok(digest) => println!("PUSHED {digest}"),
        Err(e) => println!("REFUSED {e}"),
    }
}

/// Writes the helpers into `bin`: `docker-credential-skbtest` answers
/// `answer` (a JSON credential, or Docker's "not found") for `server` and
/// "not found" for any other, logging each server asked to `<bin>/asked`;
/// `docker-credential-skbbroken` fails as a locked keychain does.
fn helpers(bin: &Path, server: &str, answer: &str) {
    let log = bin.join("asked");
    let script = format!(
        "#!/bin/sh\n[ \"$1\" = get ] || exit 3\nserver=$(cat)\necho \"$server\" >> '{}'\n\
         if [ \"$server\" = '{server}' ]; then printf '%s' '{answer}'; \
         case '{answer}' in '{{'*) exit 0;; esac; exit 1; fi\n\
         echo 'credentials not found in native keychain'\nexit 1\n",
        log.display()
    );
    let broken = "#!/bin/sh\necho 'error: the keychain is locked'\nexit 1\n";
    for (name, text) in [("skbtest", script.as_str()), ("skbbroken", broken)] {
        let path = bin.join(format!("docker-credential-{name}"));
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
}

/// Pushes to `reference` in a child process with `config` as the Docker
/// config and `bin` first on `PATH`; the line it printed.
fn push(reference: &str, config: &str, bin: &Path) -> String {
    push_with(reference, config, bin, &[])
}

/// [`push`] with `vars` set too (skb's own credentials: none unless given).
fn push_with(reference: &str, config: &str, bin: &Path, vars: &[(&str, &str)]) -> String {
    let docker = tempfile::tempdir().unwrap();
    std::fs::write(docker.path().join("config.json"), config).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "oci_helpers::push_with_the_ambient_environment"])
        .args(["--ignored", "--nocapture", "--test-threads=1"])
        .env_remove(oci::ENV_HOST)
        .env_remove(oci::ENV_TOKEN)
        .env_remove(oci::ENV_USERNAME)
        .env_remove(oci::ENV_PASSWORD)
        .env("DOCKER_CONFIG", docker.path())
        .env("XDG_CONFIG_HOME", docker.path())
        .env_remove("SKB_AUTH")
        .envs(vars.iter().copied())
        .env("PATH", path)
        .env("SKILLS_TEST_REFERENCE", reference)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    stdout
        .lines()
        .find_map(|l| {
            let at = l.find("PUSHED").or_else(|| l.find("REFUSED"))?;
            Some(l[at..].to_owned())
        })
        .unwrap_or_else(|| panic!("the child printed nothing: {stdout}"))
}

const LOGIN: &str = r#"{"ServerURL":"x","Username":"publisher","Secret":"s3cret"}"#;
const WRONG: &str = r#"{"ServerURL":"x","Username":"publisher","Secret":"wr0ng"}"#;
const NOT_FOUND: &str = "credentials not found in native keychain";

#[test]
fn a_helper_logs_in_to_an_htpasswd_registry_and_its_failures_are_named() {
    let registry = Registry::start_with_password("publisher", "s3cret");
    let host = registry.host.clone();
    let reference = format!("oci://{host}/private/tools:v1");
    let bin = tempfile::tempdir().unwrap();
    let for_host = format!(r#"{{"credHelpers":{{"{host}":"skbtest"}}}}"#);
    let store = |name: &str| format!(r#"{{"credsStore":"{name}","auths":{{"{host}":{{}}}}}}"#);

    helpers(bin.path(), &host, LOGIN);
    let out = push(&reference, &for_host, bin.path());
    assert!(out.starts_with("PUSHED"), "{out}\n{}", registry.log());
    let asked = std::fs::read_to_string(bin.path().join("asked")).unwrap();
    assert_eq!(
        asked.trim(),
        host,
        "the helper is asked with the registry's host"
    );
    let out = push(&reference, &store("skbtest"), bin.path());
    assert!(out.starts_with("PUSHED"), "{out}");

    // A wrong password from the helper: refused, never shown.
    helpers(bin.path(), &host, WRONG);
    let out = push(&reference, &for_host, bin.path());
    assert!(
        out.contains("refused the credentials") && !out.contains("wr0ng"),
        "{out}"
    );

    // "Not found" is no login, as in Docker: an anonymous push, refused.
    helpers(bin.path(), &host, NOT_FOUND);
    let out = push(&reference, &for_host, bin.path());
    assert!(out.contains("requires credentials"), "{out}");

    // A helper for another registry is not asked about this one.
    std::fs::remove_file(bin.path().join("asked")).unwrap();
    let elsewhere = r#"{"credHelpers":{"ghcr.io":"skbbroken"}}"#;
    let out = push(&reference, elsewhere, bin.path());
    assert!(out.contains("requires credentials"), "{out}");

    // A failing or missing helper fails closed, named.
    let out = push(&reference, &store("skbbroken"), bin.path());
    assert!(
        out.starts_with("REFUSED")
            && out.contains("docker-credential-skbbroken")
            && out.contains("the keychain is locked"),
        "{out}"
    );
    let out = push(&reference, &store("skbmissing"), bin.path());
    assert!(
        out.contains("docker-credential-skbmissing") && out.contains("not found on `PATH`"),
        "{out}"
    );
}

#[test]
fn a_helper_logs_in_through_a_token_realm_with_a_password_or_an_identity_token() {
    let (registry, _tokens) = Registry::start_with_tokens("publisher:s3cret", "refresh-me");
    let host = registry.host.clone();
    let reference = format!("oci://{host}/team/tools:v1");
    let bin = tempfile::tempdir().unwrap();
    let config = r#"{"credsStore":"skbtest"}"#;

    helpers(bin.path(), &host, LOGIN);
    let out = push(&reference, config, bin.path());
    assert!(out.starts_with("PUSHED"), "{out}\n{}", registry.log());

    let identity = r#"{"ServerURL":"x","Username":"<token>","Secret":"refresh-me"}"#;
    helpers(bin.path(), &host, identity);
    let out = push(&reference, config, bin.path());
    assert!(out.starts_with("PUSHED"), "{out}\n{}", registry.log());

    helpers(bin.path(), &host, WRONG);
    let out = push(&reference, config, bin.path());
    assert!(
        out.contains("refused the credentials") && !out.contains("wr0ng"),
        "{out}"
    );
}

#[test]
fn skb_auth_serves_a_registry_by_its_origin_before_the_docker_config() {
    let registry = Registry::start_with_password("publisher", "s3cret");
    let host = registry.host.clone();
    let reference = format!("oci://{host}/private/tools:v1");
    let bin = tempfile::tempdir().unwrap();
    helpers(bin.path(), &host, WRONG);
    let docker = format!(r#"{{"credHelpers":{{"{host}":"skbtest"}}}}"#);
    // A loopback registry is spoken to over `http://`: its origin says so.
    let mine = format!("publisher:s3cret@http://{host}");
    let out = push_with(&reference, &docker, bin.path(), &[("SKB_AUTH", &mine)]);
    assert!(out.starts_with("PUSHED"), "{out}\n{}", registry.log());
    assert!(!bin.path().join("asked").exists(), "the helper was asked");
    let elsewhere = "publisher:s3cret@https://ghcr.io";
    let out = push_with(&reference, "{}", bin.path(), &[("SKB_AUTH", elsewhere)]);
    assert!(out.contains("requires credentials"), "{out}");
}
