//! `skills_supply::http::get` against real servers on 127.0.0.1 that
//! answer well, fail, trickle, overflow and redirect in circles.

use std::io::Write;
use std::time::Duration;

use skills_supply::http::{HttpError, HttpOptions, download, get};

use crate::http_server::{Server, redirect, respond, respond_unsized};

/// Options for tests: short waits, few tries.
fn opts() -> HttpOptions {
    HttpOptions {
        timeout: Duration::from_secs(10),
        connect_timeout: Duration::from_secs(5),
        retries: 2,
        ..HttpOptions::default()
    }
}

fn fetch(url: &str, opts: &HttpOptions) -> Result<Vec<u8>, HttpError> {
    get(url, opts, &mut |_, _| {})
}

#[test]
fn a_body_arrives_whole_with_progress() {
    let body: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    let served = body.clone();
    let server = Server::start(move |_, _, s| respond(s, 200, &[], &served));
    let mut seen = Vec::new();
    let got = get(&server.url("/x"), &opts(), &mut |n, total| {
        seen.push((n, total))
    });
    assert_eq!(got.as_deref().ok(), Some(body.as_slice()));
    assert_eq!(seen.first(), Some(&(0, Some(200_000))));
    assert_eq!(seen.last(), Some(&(200_000, Some(200_000))));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:?}");
    assert_eq!(server.hits(), 1);
}

#[test]
fn a_5xx_is_tried_again_until_it_passes() {
    let server = Server::start(|n, _, s| match n {
        0 => respond(s, 503, &[], b"busy"),
        1 => respond(s, 500, &[], b"oops"),
        _ => respond(s, 200, &[], b"ok"),
    });
    assert_eq!(fetch(&server.url("/x"), &opts()).ok(), Some(b"ok".to_vec()));
    assert_eq!(server.hits(), 3);
}

#[test]
fn a_server_always_failing_is_an_error_after_the_tries() {
    let server = Server::start(|_, _, s| respond(s, 502, &[], b"down"));
    let url = server.url("/pack.zip");
    let e = fetch(&url, &opts()).err();
    assert_eq!(
        e,
        Some(HttpError::Status {
            url: url.clone(),
            code: 502
        })
    );
    assert_eq!(server.hits(), 3, "the first try and 2 retries");
    let text = e.map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains(&url) && text.contains("502"), "{text}");
}

#[test]
fn a_4xx_is_final_at_once() {
    let server = Server::start(|_, _, s| respond(s, 404, &[], b"no"));
    let e = fetch(&server.url("/missing"), &opts());
    assert!(
        matches!(e, Err(HttpError::Status { code: 404, .. })),
        "{e:?}"
    );
    assert_eq!(server.hits(), 1);
}

#[test]
fn a_429_waits_for_a_short_retry_after() {
    let server = Server::start(|n, _, s| match n {
        0 => respond(s, 429, &[("Retry-After", "1")], b"slow down"),
        _ => respond(s, 200, &[], b"ok"),
    });
    assert_eq!(fetch(&server.url("/x"), &opts()).ok(), Some(b"ok".to_vec()));
    assert_eq!(server.hits(), 2);
}

#[test]
fn a_long_retry_after_ends_the_tries() {
    let server = Server::start(|_, _, s| respond(s, 503, &[("Retry-After", "3600")], b"later"));
    let e = fetch(&server.url("/x"), &opts());
    assert!(
        matches!(e, Err(HttpError::Status { code: 503, .. })),
        "{e:?}"
    );
    assert_eq!(server.hits(), 1);
}

#[test]
fn a_trickling_server_fails_by_the_overall_timeout() {
    let server = Server::start(|_, _, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n");
        for _ in 0..100 {
            // Every byte well within any read time-out; the whole far over
            // the overall one.
            std::thread::sleep(Duration::from_millis(200));
            if s.write_all(b"x").is_err() {
                return;
            }
        }
    });
    let quick = HttpOptions {
        timeout: Duration::from_secs(1),
        retries: 0,
        ..opts()
    };
    let url = server.url("/slow");
    let e = fetch(&url, &quick);
    assert!(
        matches!(&e, Err(HttpError::Timeout { url: u, .. }) if *u == url),
        "{e:?}"
    );
}

#[test]
fn a_content_length_over_the_limit_is_refused_before_the_body() {
    let server = Server::start(|_, _, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n");
        let _ = s.write_all(&[0; 1000]);
    });
    let small = HttpOptions {
        max_bytes: 100,
        ..opts()
    };
    let mut most = 0;
    let e = get(&server.url("/big"), &small, &mut |n, _| most = most.max(n));
    assert!(
        matches!(e, Err(HttpError::TooLarge { limit: 100, .. })),
        "{e:?}"
    );
    assert_eq!(most, 0);
    assert_eq!(server.hits(), 1, "a size refusal is not tried again");
}

#[test]
fn a_body_without_length_is_stopped_past_the_limit() {
    // Ten times the limit, with no length announced.
    let server = Server::start(|_, _, s| respond_unsized(s, &vec![7; 1 << 20]));
    let limit = 100_000;
    let small = HttpOptions {
        max_bytes: limit,
        ..opts()
    };
    let mut most = 0;
    let e = get(&server.url("/big"), &small, &mut |n, _| most = most.max(n));
    assert!(
        matches!(e, Err(HttpError::TooLarge { limit: 100_000, .. })),
        "{e:?}"
    );
    assert!(most <= limit, "{most}");
    // Exactly the limit passes.
    let server = Server::start(move |_, _, s| respond_unsized(s, &vec![7; 100_000]));
    assert_eq!(
        fetch(&server.url("/x"), &small).map(|b| b.len()).ok(),
        Some(100_000)
    );
}

#[test]
fn an_endless_chunked_body_is_stopped_past_the_limit() {
    let server = Server::start(|_, _, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        let chunk = [b"1000\r\n".as_slice(), &[b'z'; 0x1000], b"\r\n"].concat();
        for _ in 0..100_000 {
            if s.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    let small = HttpOptions {
        max_bytes: 50_000,
        ..opts()
    };
    let e = fetch(&server.url("/endless"), &small);
    assert!(matches!(e, Err(HttpError::TooLarge { .. })), "{e:?}");
}

#[test]
fn a_body_cut_short_is_an_error() {
    let server = Server::start(|_, _, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this");
    });
    let e = fetch(&server.url("/cut"), &opts());
    assert!(matches!(e, Err(HttpError::Transfer { .. })), "{e:?}");
    assert_eq!(server.hits(), 3, "a broken transfer is tried again");
}

#[test]
fn a_redirect_loop_is_an_error_naming_the_url() {
    let server = Server::start(|_, path, s| match path {
        "/a" => redirect(s, "/b"),
        _ => redirect(s, "/a"),
    });
    let e = fetch(&server.url("/a"), &opts());
    let want = server.url("/a");
    assert!(
        matches!(&e, Err(HttpError::RedirectLoop { url }) if *url == want),
        "{e:?}"
    );
    assert!(e.err().is_some_and(|e| e.to_string().contains(&want)));
    assert_eq!(server.hits(), 2, "a loop is not tried again");
}

#[test]
fn redirects_are_followed_up_to_the_limit() {
    let server = Server::start(|_, path, s| {
        let n: u32 = path.trim_start_matches("/r/").parse().unwrap_or(0);
        if n == 3 {
            respond(s, 200, &[], b"end");
        } else {
            redirect(s, &format!("/r/{}", n + 1));
        }
    });
    assert_eq!(
        fetch(&server.url("/r/0"), &opts()).ok(),
        Some(b"end".to_vec())
    );
    let two = HttpOptions {
        max_redirects: 2,
        ..opts()
    };
    let e = fetch(&server.url("/r/0"), &two);
    let want = server.url("/r/3");
    assert!(
        matches!(&e, Err(HttpError::TooManyRedirects { url, max: 2 }) if *url == want),
        "{e:?}"
    );
}

/// `download` names the URL asked for and every redirect's target, of the
/// attempt that brought the bytes: what trust pins are applied to.
#[test]
fn a_download_names_every_url_the_bytes_came_through() {
    let server = Server::start(|n, path, s| match (n, path) {
        (0, "/start") => redirect(s, "/old"),
        (_, "/old") => respond(s, 503, &[], b"busy"),
        (_, "/start") => redirect(s, "./mirror/../new?x=1"),
        (_, "/new?x=1") => redirect(s, "/end"),
        (_, "/end") => respond(s, 200, &[], b"end"),
        _ => respond(s, 404, &[], b""),
    });
    let got = download(&server.url("/start"), &opts(), &mut |_, _| {});
    let got = got.as_ref().map(|d| (d.bytes.as_slice(), d.urls.clone()));
    assert_eq!(
        got,
        Ok((
            b"end".as_slice(),
            vec![
                server.url("/start"),
                server.url("/new?x=1"),
                server.url("/end")
            ]
        ))
    );
    assert_eq!(server.hits(), 5, "the failed try's hops are not listed");
    let one = download(&server.url("/end"), &opts(), &mut |_, _| {});
    assert_eq!(one.map(|d| d.urls), Ok(vec![server.url("/end")]));
}

#[test]
fn a_redirect_to_plain_http_elsewhere_is_refused_before_contact() {
    // Never contacted: the scheme rule is checked before each hop.
    let server = Server::start(|_, _, s| redirect(s, "http://skills.invalid/pack.zip"));
    let e = fetch(&server.url("/x"), &opts());
    assert!(
        matches!(&e, Err(HttpError::Insecure { url }) if url == "http://skills.invalid/pack.zip"),
        "{e:?}"
    );
    assert_eq!(server.hits(), 1);
    let text = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains("use `https://`"), "{text}");
}

#[test]
fn plain_http_to_a_remote_host_is_refused() {
    let e = fetch("http://skills.invalid/x.zip", &opts());
    assert!(matches!(e, Err(HttpError::Insecure { .. })), "{e:?}");
    let e = fetch("file:///etc/passwd", &opts());
    assert!(matches!(e, Err(HttpError::BadUrl { .. })), "{e:?}");
}

#[test]
fn a_closed_port_is_a_connection_error() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("address").port()
    };
    let once = HttpOptions {
        retries: 1,
        ..opts()
    };
    let url = format!("http://127.0.0.1:{port}/x");
    let e = fetch(&url, &once);
    assert!(
        matches!(&e, Err(HttpError::Connect { url: u, .. }) if *u == url),
        "{e:?}"
    );
}

#[test]
fn https_speaks_tls_and_a_server_that_does_not_is_refused() {
    // A server that answers plain HTTP at once, before any request: a TLS
    // client gets no handshake.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("https://{}/x", listener.local_addr().expect("address"));
    let thread = std::thread::spawn(move || {
        if let Ok((mut s, _)) = listener.accept() {
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nplain");
        }
    });
    let once = HttpOptions {
        retries: 0,
        ..opts()
    };
    let e = fetch(&url, &once);
    assert!(
        matches!(&e, Err(HttpError::Connect { url: u, .. }) if *u == url),
        "{e:?}"
    );
    let _ = thread.join();
}
