//! The real servers the remote-install tests talk to, each on 127.0.0.1
//! and stopped when dropped: `git daemon`, Python's `http.server` over a
//! published site, the CNCF `distribution` registry (Debian's
//! `docker-registry`), and a scripted `std::net` server that misbehaves
//! on purpose. A missing program fails the test with what to install.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A port on 127.0.0.1 that was free a moment ago.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until something listens on `port`, or `child` exits (a panic
/// with `log`'s text and `install`).
fn wait_listening(child: &mut Child, port: u16, what: &str, log: &Path, install: &str) {
    let give_up = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "{what} exited ({status}): {}\n{install}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        assert!(
            Instant::now() < give_up,
            "{what} did not listen on 127.0.0.1:{port}: {}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `git` in `dir` with a fixed identity; returns trimmed stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run `git` ({e}): `apt-get install -y git`"));
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// `git daemon` exporting every repository under `base`.
pub struct GitDaemon {
    child: Child,
    port: u16,
}

impl GitDaemon {
    pub fn start(base: &Path) -> GitDaemon {
        const INSTALL: &str = "`git daemon` ships with git: `apt-get install -y git`";
        let port = free_port();
        let log = base.join("daemon.log");
        let mut child = skills_tests::git_daemon()
            .args(["--reuseaddr", "--listen=127.0.0.1", "--export-all"])
            .arg(format!("--port={port}"))
            .arg(format!("--base-path={}", base.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run `git daemon` ({e}); {INSTALL}"));
        wait_listening(&mut child, port, "`git daemon`", &log, INSTALL);
        GitDaemon { child, port }
    }

    /// `git://127.0.0.1:PORT/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("git://127.0.0.1:{}/{path}", self.port)
    }
}

impl Drop for GitDaemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `python3 -m http.server` serving `root` on `port`.
pub struct PyHttp {
    child: Child,
    pub port: u16,
}

impl PyHttp {
    pub fn start(root: &Path, port: u16) -> PyHttp {
        const INSTALL: &str = "install Python 3: `apt-get install -y python3`";
        let log = root.with_extension("http.log");
        let mut child = Command::new("python3")
            .args(["-m", "http.server", "--bind", "127.0.0.1", "--directory"])
            .arg(root)
            .arg(port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run `python3` ({e}); {INSTALL}"));
        wait_listening(&mut child, port, "`python3 -m http.server`", &log, INSTALL);
        PyHttp { child, port }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for PyHttp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const REGISTRY_INSTALL: &str = "the OCI tests need a real registry: `apt-get install -y \
     docker-registry`, or point SKILLS_DOCKER_REGISTRY at a CNCF distribution 2.x `registry`";

/// The CNCF `distribution` registry with a temporary config and storage.
pub struct Registry {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub host: String,
    _dir: tempfile::TempDir,
}

impl Registry {
    pub fn start() -> Registry {
        let program = std::env::var_os("SKILLS_DOCKER_REGISTRY")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/usr/bin/docker-registry"));
        assert!(
            program.is_file(),
            "`{}` is missing; {REGISTRY_INSTALL}",
            program.display()
        );
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let host = format!("127.0.0.1:{port}");
        let config = dir.path().join("config.yml");
        std::fs::write(
            &config,
            format!(
                "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\n\
                 storage:\n  filesystem:\n    rootdirectory: {}\n\
                 http:\n  addr: {host}\n  secret: skb-install-remote-tests\n",
                dir.path().join("storage").display()
            ),
        )
        .unwrap();
        let log = dir.path().join("registry.log");
        let file = std::fs::File::create(&log).unwrap();
        let mut child = Command::new(&program)
            .arg("serve")
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start `{}` ({e}); {REGISTRY_INSTALL}",
                    program.display()
                )
            });
        wait_listening(&mut child, port, "the registry", &log, REGISTRY_INSTALL);
        Registry {
            child,
            host,
            _dir: dir,
        }
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a [`Scripted`] handler gets: the request's path and the connection.
type Handler = dyn Fn(&str, &mut TcpStream) + Send + Sync + 'static;

/// A `std::net` HTTP/1.1 server answering each request with a handler,
/// one thread per connection.
pub struct Scripted {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Scripted {
    pub fn start(handler: impl Fn(&str, &mut TcpStream) + Send + Sync + 'static) -> Scripted {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let stopping = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(mut stream) = stream else { continue };
                let handler = Arc::clone(&handler);
                std::thread::spawn(move || {
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                    if let Some(path) = request_path(&mut stream) {
                        handler(&path, &mut stream);
                    }
                });
            }
        });
        Scripted {
            port,
            stop,
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for Scripted {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The path of a GET request (its head read up to 16 KiB).
fn request_path(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() > 16 << 10 || stream.read(&mut byte).ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&head);
    let mut words = text.split_whitespace();
    (words.next()? == "GET").then(|| words.next().map(str::to_string))?
}

/// Writes a head with `status`, `headers` and a `Content-Length` of
/// `length`, then `body`, and closes.
pub fn answer(
    stream: &mut TcpStream,
    status: u16,
    headers: &[(&str, &str)],
    length: u64,
    body: &[u8],
) {
    let mut head =
        format!("HTTP/1.1 {status} X\r\nContent-Length: {length}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
}
