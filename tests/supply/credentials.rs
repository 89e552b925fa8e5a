//! Credentials per origin through `skills_supply::http`, against servers on
//! 127.0.0.1: sent to the origin asked for, never to a server on another
//! port a redirect names, again to the origin when a redirect comes back;
//! a refused or missing credential named by its origin and source, never
//! shown.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use skills_supply::credentials::{HostAuth, HostCredentials};
use skills_supply::http::{HttpError, HttpOptions, get};

use crate::http_server::{Server, redirect, respond};

fn with(credentials: HostCredentials) -> HttpOptions {
    HttpOptions {
        timeout: Duration::from_secs(10),
        retries: 0,
        credentials: HostAuth::Given(credentials),
        ..HttpOptions::default()
    }
}

fn from_env(value: &str) -> HostCredentials {
    HostCredentials::load(Some(value), None, None).unwrap()
}

/// The origin part of a server's URL, `http://127.0.0.1:PORT`.
fn origin(server: &Server) -> String {
    server.url("")
}

#[test]
fn a_token_goes_to_its_origin_only_not_through_a_redirect_to_another_port() {
    let other = Server::start(|_, _, s| respond(s, 200, &[], b"elsewhere"));
    let target = other.url("/artifact.zip");
    let asked = Server::start(move |_, _, s| redirect(s, &target));
    let creds = from_env(&format!("s3cret-token@{}", origin(&asked)));
    let got = get(&asked.url("/index.json"), &with(creds), &mut |_, _| {});
    assert_eq!(got.ok(), Some(b"elsewhere".to_vec()));
    assert_eq!(
        asked.authorizations(),
        vec![Some("Bearer s3cret-token".to_string())]
    );
    assert_eq!(other.authorizations(), vec![None]);
}

#[test]
fn a_redirect_back_to_the_origin_carries_the_credential_again() {
    let hop = Arc::new(Mutex::new(String::new()));
    let to_hop = hop.clone();
    let asked = Server::start(move |n, path, s| match n {
        0 => redirect(s, &to_hop.lock().unwrap()),
        _ => respond(s, 200, &[], path.as_bytes()),
    });
    let back = asked.url("/final");
    let middle = Server::start(move |_, _, s| redirect(s, &back));
    *hop.lock().unwrap() = middle.url("/hop");
    let creds = from_env(&format!("u:pw@{}", origin(&asked)));
    let got = get(&asked.url("/start"), &with(creds), &mut |_, _| {});
    assert_eq!(got.ok(), Some(b"/final".to_vec()));
    let basic = Some("Basic dTpwdw==".to_string());
    assert_eq!(asked.authorizations(), vec![basic.clone(), basic]);
    assert_eq!(middle.authorizations(), vec![None]);
}

/// A server that refuses everyone.
fn guarded() -> Server {
    Server::start(|_, _, s| respond(s, 401, &[("WWW-Authenticate", "Basic realm=\"t\"")], b"no"))
}

#[test]
fn a_refused_credential_is_named_by_origin_and_source_never_shown() {
    let server = guarded();
    let creds = from_env(&format!("u:wr0ng-s3cret@{}", origin(&server)));
    let e = get(&server.url("/i.json"), &with(creds), &mut |_, _| {}).unwrap_err();
    assert!(
        matches!(e, HttpError::Unauthorized { code: 401, .. }),
        "{e:?}"
    );
    let text = format!("{e} {e:?}");
    assert!(text.contains(&origin(&server)), "{text}");
    assert!(
        text.contains("SKB_AUTH") && text.contains("refused"),
        "{text}"
    );
    assert!(!text.contains("wr0ng-s3cret"), "{text}");
    assert_eq!(server.hits(), 1, "a 401 is not tried again");

    let none = get(
        &server.url("/i.json"),
        &with(HostCredentials::default()),
        &mut |_, _| {},
    )
    .unwrap_err()
    .to_string();
    assert!(none.contains("no credential is configured"), "{none}");
}

#[test]
fn netrc_gives_basic_credentials_for_its_machine() {
    let dir = tempfile::tempdir().unwrap();
    let served = Server::start(|_, _, s| respond(s, 200, &[], b"ok"));
    let netrc = dir.path().join("netrc");
    std::fs::write(
        &netrc,
        "machine elsewhere.example login x password y\n\
         macdef init\nmachine 127.0.0.1 login evil password evil\n\n\
         machine 127.0.0.1 login \"u\" password \"p w\"\n",
    )
    .unwrap();
    let creds = HostCredentials::load(None, None, Some(Path::new(&netrc))).unwrap();
    let got = get(&served.url("/x"), &with(creds), &mut |_, _| {});
    assert_eq!(got.ok(), Some(b"ok".to_vec()));
    // base64("u:p w")
    assert_eq!(served.authorizations(), vec![Some("Basic dTpwIHc=".into())]);
}
