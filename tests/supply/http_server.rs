//! HTTP/1.1 servers on 127.0.0.1 for the `http` and `index` tests: a
//! static file server for a published index, and scripted servers that
//! misbehave on purpose (5xx, trickles, endless bodies, redirect loops).
//! Each runs on its own threads, counts the requests it got, and stops when
//! dropped.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What a handler gets: the request's number (from 0), its path, and the
/// connection to write the answer to.
pub type Handler = dyn Fn(usize, &str, &mut TcpStream) + Send + Sync + 'static;

/// A running server; stops when dropped.
pub struct Server {
    addr: SocketAddr,
    hits: Arc<AtomicUsize>,
    /// The `Authorization` header of each request, in order of arrival.
    authorizations: Arc<Mutex<Vec<Option<String>>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server that answers every request with `handler`, each
    /// connection on its own thread.
    pub fn start(handler: impl Fn(usize, &str, &mut TcpStream) + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let hits = Arc::new(AtomicUsize::new(0));
        let authorizations = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let thread = {
            let (hits, stop, seen) = (hits.clone(), stop.clone(), authorizations.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(mut stream) = stream else { continue };
                    let (hits, handler, seen) = (hits.clone(), handler.clone(), seen.clone());
                    std::thread::spawn(move || {
                        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                        let Some((path, authorization)) = read_request(&mut stream) else {
                            return;
                        };
                        if let Ok(mut seen) = seen.lock() {
                            seen.push(authorization);
                        }
                        let n = hits.fetch_add(1, Ordering::SeqCst);
                        handler(n, &path, &mut stream);
                    });
                }
            })
        };
        Server {
            addr,
            hits,
            authorizations,
            stop,
            thread: Some(thread),
        }
    }

    /// A server of the files under `root` (200 with the bytes, or 404).
    pub fn files(root: &Path) -> Server {
        let root = root.to_path_buf();
        Server::start(move |_, path, stream| match file_under(&root, path) {
            Some(bytes) => respond(stream, 200, &[], &bytes),
            None => respond(stream, 404, &[], b"not found\n"),
        })
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The `Authorization` header of each request so far.
    pub fn authorizations(&self) -> Vec<Option<String>> {
        self.authorizations
            .lock()
            .map(|seen| seen.clone())
            .unwrap_or_default()
    }

    /// How many requests arrived so far.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Reads a request's head (at most 16 KiB) and returns its path and its
/// `Authorization` header.
fn read_request(stream: &mut TcpStream) -> Option<(String, Option<String>)> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() > 16 << 10 || stream.read(&mut byte).ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&head);
    let authorization = text.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("authorization")
            .then(|| value.trim().to_string())
    });
    let mut words = text.split_whitespace();
    if words.next()? != "GET" {
        return None;
    }
    Some((words.next()?.to_string(), authorization))
}

/// The bytes of the file `path` names under `root`, if any (no `..`).
fn file_under(root: &Path, path: &str) -> Option<Vec<u8>> {
    let path = path.split('?').next()?;
    let rel = PathBuf::from(path.trim_start_matches('/'));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    std::fs::read(root.join(rel))
        .ok()
        .filter(|_| !path.ends_with('/'))
}

/// Writes a whole answer with `Content-Length` and closes the connection.
pub fn respond(stream: &mut TcpStream, status: u16, headers: &[(&str, &str)], body: &[u8]) {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
}

/// Writes a head and then `body` without any length, ending it by closing.
pub fn respond_unsized(stream: &mut TcpStream, body: &[u8]) {
    let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
    let _ = stream.write_all(body);
}

/// A redirect to `location`.
pub fn redirect(stream: &mut TcpStream, location: &str) {
    respond(stream, 302, &[("Location", location)], b"");
}
