//! What the git tests serve repositories with: a repository made with the
//! `git` program, `git daemon` on 127.0.0.1 (or another address of this
//! machine), and a static-file HTTP server
//! (git's "dumb" HTTP transport, which cannot fetch one commit by id).

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpListener, TcpStream, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Runs `git` in `dir` with a fixed identity and no signing; panics with
/// git's message on failure. Returns trimmed stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "tag.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `git` ({e}): install it with `apt-get install git`")
        });
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Runs `git` in `dir` with `input` on stdin; returns trimmed stdout.
fn git_with_input(dir: &Path, args: &[&str], input: &str) -> String {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Makes `main` a commit whose tree `git add` would never build:
/// `<top>/hooks/post-checkout` (a script that creates `marker`) beside an
/// ordinary file `ok`. Returns the commit.
pub fn hostile_commit(dir: &Path, top: &str, marker: &Path) -> String {
    let script = dir.join("hook.sh");
    fs::write(
        &script,
        format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    )
    .unwrap();
    let blob = git(dir, &["hash-object", "-w", "hook.sh"]);
    fs::remove_file(script).unwrap();
    let hooks = git_with_input(
        dir,
        &["mktree"],
        &format!("100755 blob {blob}\tpost-checkout\n"),
    );
    let top_tree = git_with_input(dir, &["mktree"], &format!("040000 tree {hooks}\thooks\n"));
    let root = git_with_input(
        dir,
        &["mktree"],
        &format!("040000 tree {top_tree}\t{top}\n100644 blob {blob}\tok\n"),
    );
    let commit = git(dir, &["commit-tree", &root, "-m", "hostile"]);
    git(dir, &["update-ref", "refs/heads/main", &commit]);
    commit
}

/// Writes `text` at `rel` under `root`, creating folders.
pub fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(path, text).unwrap();
}

/// A repository of skills with some history:
///
/// - `first`: `skills/alpha/SKILL.md` ("alpha 1"), `skills/beta/SKILL.md`,
///   `README.md`; tagged `v1` (annotated) and `light` (lightweight);
/// - `dev` (branch from `first`): adds `skills/gamma/SKILL.md`;
/// - `second` (`main`): `skills/alpha/SKILL.md` becomes "alpha 2".
#[derive(Debug)]
pub struct Repo {
    /// The working repository (served as it is: its `.git` is the repository).
    pub dir: PathBuf,
    pub first: String,
    pub dev: String,
    pub second: String,
}

impl Repo {
    pub fn create(dir: &Path) -> Repo {
        fs::create_dir_all(dir).unwrap();
        git(dir, &["init", "--quiet"]);
        write(dir, "README.md", "a repository of skills\n");
        write(dir, "skills/alpha/SKILL.md", "alpha 1\n");
        write(dir, "skills/beta/SKILL.md", "beta\n");
        git(dir, &["add", "."]);
        git(dir, &["commit", "--quiet", "-m", "first"]);
        let first = git(dir, &["rev-parse", "HEAD"]);
        git(dir, &["tag", "-a", "v1", "-m", "version 1"]);
        git(dir, &["tag", "light"]);
        git(dir, &["checkout", "--quiet", "-b", "dev"]);
        write(dir, "skills/gamma/SKILL.md", "gamma\n");
        git(dir, &["add", "."]);
        git(dir, &["commit", "--quiet", "-m", "gamma"]);
        let dev = git(dir, &["rev-parse", "HEAD"]);
        git(dir, &["checkout", "--quiet", "main"]);
        let second = commit(dir, "skills/alpha/SKILL.md", "alpha 2\n");
        Repo {
            dir: dir.to_path_buf(),
            first,
            dev,
            second,
        }
    }

    /// `file://` URL of the repository.
    pub fn file_url(&self) -> String {
        format!("file://{}", self.dir.display())
    }
}

/// Commits `text` at `rel` on the current branch; returns the commit.
pub fn commit(dir: &Path, rel: &str, text: &str) -> String {
    write(dir, rel, text);
    git(dir, &["add", "."]);
    git(dir, &["commit", "--quiet", "-m", rel]);
    // For the dumb HTTP server: refresh `info/refs` and `objects/info/packs`.
    git(dir, &["update-server-info"]);
    git(dir, &["rev-parse", "HEAD"])
}

/// A port on `ip` that was free a moment ago.
fn free_port(ip: IpAddr) -> u16 {
    let listener = TcpListener::bind((ip, 0)).unwrap();
    listener.local_addr().unwrap().port()
}

/// This machine's own address on the interface of its default route: a
/// host that is not loopback, yet reachable without leaving the machine,
/// so a test can show that a plain-text connection to it is (or is not)
/// made. Connecting a UDP socket sends nothing; it only picks the route.
pub fn non_loopback_address() -> IpAddr {
    let socket = UdpSocket::bind("0.0.0.0:0").unwrap();
    let ip = socket
        .connect("198.51.100.1:9")
        .and_then(|()| socket.local_addr())
        .map(|addr| addr.ip())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    assert!(
        !ip.is_loopback() && !ip.is_unspecified(),
        "this test needs a network interface with an address that is not loopback \
         (a default route); this machine has none"
    );
    ip
}

/// `git daemon` serving every repository under `base` as
/// `git://<ip>:<port>/<path>`; killed on drop.
#[derive(Debug)]
pub struct GitDaemon {
    ip: IpAddr,
    pub port: u16,
    child: Child,
}

impl GitDaemon {
    pub fn start(base: &Path) -> GitDaemon {
        GitDaemon::start_on(base, IpAddr::V4(Ipv4Addr::LOCALHOST))
    }

    /// `git daemon` listening on `ip` only.
    pub fn start_on(base: &Path, ip: IpAddr) -> GitDaemon {
        let port = free_port(ip);
        let log = base.join("daemon.log");
        let mut child = skills_tests::git_daemon()
            .arg("--reuseaddr")
            .arg(format!("--listen={ip}"))
            .arg(format!("--port={port}"))
            .arg(format!("--base-path={}", base.display()))
            .arg("--export-all")
            .arg("--enable=upload-pack")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log).unwrap())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot run `git` ({e}): install it with `apt-get install git`")
            });
        // Waiting for it to listen; how long it takes is not asserted.
        let give_up = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                panic!(
                    "`git daemon` exited ({status}): {}\nit ships in Debian's git package: \
                     `apt-get install git`",
                    fs::read_to_string(&log).unwrap_or_default()
                );
            }
            if TcpStream::connect((ip, port)).is_ok() {
                return GitDaemon { ip, port, child };
            }
            assert!(
                Instant::now() < give_up,
                "`git daemon` did not listen on {ip}:{port}: {}",
                fs::read_to_string(&log).unwrap_or_default()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// `git://<ip>:<port>/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("git://{}:{}/{path}", self.ip, self.port)
    }
}

impl Drop for GitDaemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Serves the files under `root` over HTTP/1.1 (GET only, one request per
/// connection): what a static host does with a repository after `git
/// update-server-info`. Stopped on drop.
#[derive(Debug)]
pub struct StaticHttp {
    ip: IpAddr,
    pub port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl StaticHttp {
    pub fn start(root: &Path) -> StaticHttp {
        StaticHttp::start_on(root, IpAddr::V4(Ipv4Addr::LOCALHOST))
    }

    /// The server listening on `ip` only.
    pub fn start_on(root: &Path, ip: IpAddr) -> StaticHttp {
        let listener = TcpListener::bind((ip, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let root = root.to_path_buf();
        let stopping = Arc::clone(&stop);
        let thread = thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    serve(stream, &root);
                }
            }
        });
        StaticHttp {
            ip,
            port,
            stop,
            thread: Some(thread),
        }
    }

    /// `http://<ip>:<port>/<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}:{}/{path}", self.ip, self.port)
    }
}

fn serve(mut stream: TcpStream, root: &Path) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 65536 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    }
    let request = String::from_utf8_lossy(&request);
    let target = request
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("GET "))
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or("");
    let path = target
        .split('?')
        .next()
        .unwrap_or("")
        .trim_start_matches('/');
    let file = (!path.split('/').any(|c| c == ".."))
        .then(|| root.join(path))
        .filter(|f| f.is_file())
        .and_then(|f| fs::read(f).ok());
    let _ = match file {
        Some(body) => stream
            .write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
                    body.len()
                )
                .as_bytes(),
            )
            .and_then(|()| stream.write_all(&body)),
        None => stream.write_all(
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        ),
    };
}

impl Drop for StaticHttp {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect((self.ip, self.port));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
