//! A real OCI registry for the tests: the CNCF `distribution` server
//! (Debian's `docker-registry`, 2.8) started on 127.0.0.1 with a temporary
//! config and storage folder, optionally behind `htpasswd` basic auth or
//! a token server (`token_server.py`), redirecting blob downloads to
//! another server (its `redirect` storage middleware) or naming another
//! host in the URLs it generates (`http.host`), each killed when dropped;
//! and [`Recorder`], the other server, which records what it is sent.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A running registry.
pub struct Registry {
    child: Child,
    /// `127.0.0.1:<port>`.
    pub host: String,
    dir: tempfile::TempDir,
}

const INSTALL: &str = "install it: `apt-get install -y docker-registry` (Debian/Ubuntu), \
     or point SKILLS_DOCKER_REGISTRY at a `registry` binary of CNCF distribution 2.x";

impl Registry {
    /// A registry anyone may push to and pull from.
    pub fn start() -> Registry {
        Registry::spawn("", |_| String::new())
    }

    /// A registry that requires `user`/`password` (bcrypt `htpasswd`).
    pub fn start_with_password(user: &str, password: &str) -> Registry {
        let auth = htpasswd_auth(user, password);
        Registry::spawn("", auth)
    }

    /// A registry (behind `login`, if given) that answers every blob
    /// download with a redirect to a [`Recorder`] on `ip` serving the
    /// registry's storage folder: what registries backed by S3 or a CDN do.
    pub fn start_redirecting_blobs(
        ip: IpAddr,
        login: Option<(&str, &str)>,
    ) -> (Registry, Recorder) {
        let mut mirror = None;
        let auth = login.map(|(user, password)| htpasswd_auth(user, password));
        let registry = Registry::spawn("", |dir| {
            let started = Recorder::files(ip, &dir.join("storage"));
            let yaml = format!(
                "middleware:\n  storage:\n    - name: redirect\n      options:\n        baseurl: {}\n{}",
                started.url(),
                auth.map_or_else(String::new, |auth| auth(dir))
            );
            mirror = Some(started);
            yaml
        });
        (registry, mirror.unwrap())
    }

    /// A registry behind `login` whose generated URLs (an upload's
    /// `Location`) name a [`Recorder`] on 127.0.0.1 (another origin) that
    /// forwards every request to the registry.
    pub fn start_behind_other_host(user: &str, password: &str) -> (Registry, Recorder) {
        let front = Recorder::forward(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let registry = Registry::spawn(
            &format!("  host: {}\n", front.url()),
            htpasswd_auth(user, password),
        );
        front.set_upstream(&registry.host);
        (registry, front)
    }

    /// A registry that trusts the tokens of a [`TokenServer`] it starts:
    /// anonymous pulls, pushes with `user:password` or `refresh_token`.
    pub fn start_with_tokens(credentials: &str, refresh_token: &str) -> (Registry, TokenServer) {
        Registry::start_with_tokens_on(IpAddr::V4(Ipv4Addr::LOCALHOST), credentials, refresh_token)
    }

    /// The same with the token server listening on `ip`, and the realm
    /// named as `http://<ip>:<port>/token`.
    pub fn start_with_tokens_on(
        ip: IpAddr,
        credentials: &str,
        refresh_token: &str,
    ) -> (Registry, TokenServer) {
        let mut server = None;
        let registry = Registry::spawn("", |dir| {
            let started = TokenServer::start(dir, ip, credentials, refresh_token);
            let yaml = format!(
                "auth:\n  token:\n    realm: http://{ip}:{}/token\n    service: {TOKEN_SERVICE}\n    \
                 issuer: {TOKEN_ISSUER}\n    rootcertbundle: {}\n",
                started.port,
                dir.join("token-cert.pem").display()
            );
            server = Some(started);
            yaml
        });
        (registry, server.unwrap())
    }

    /// Starts the registry; `http` is added to the config's `http:`
    /// section; `extra` writes what it needs into the registry's folder and
    /// returns more top-level sections (`auth:`, `middleware:`).
    fn spawn(http: &str, extra: impl FnOnce(&Path) -> String) -> Registry {
        let program = std::env::var_os("SKILLS_DOCKER_REGISTRY")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/usr/bin/docker-registry"));
        assert!(
            program.is_file(),
            "`{}` is missing: the OCI tests need a real registry; {INSTALL}",
            program.display()
        );
        let dir = tempfile::tempdir().unwrap();
        let port = {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap().port()
        };
        let host = format!("127.0.0.1:{port}");
        let storage = dir.path().join("storage");
        let mut config = format!(
            "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\n\
             storage:\n  filesystem:\n    rootdirectory: {}\n  delete:\n    enabled: true\n\
             http:\n  addr: {host}\n  secret: skills-supply-tests\n{http}",
            storage.display()
        );
        config.push_str(&extra(dir.path()));
        let config_path = dir.path().join("config.yml");
        std::fs::write(&config_path, config).unwrap();
        let log = std::fs::File::create(dir.path().join("registry.log")).unwrap();
        let child = Command::new(&program)
            .arg("serve")
            .arg(&config_path)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start `{}` ({e}); {INSTALL}", program.display()));
        let mut registry = Registry { child, host, dir };
        registry.wait_until_ready();
        registry
    }

    /// Polls `GET /v2/` until the registry answers (200, or 401 with auth).
    fn wait_until_ready(&mut self) {
        let url = format!("http://{}/v2/", self.host);
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(2)))
            .build()
            .into();
        let start = Instant::now();
        loop {
            if let Ok(response) = agent.get(&url).call()
                && matches!(response.status().as_u16(), 200 | 401)
            {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the registry exited ({status}): {}", self.log());
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the registry did not answer `GET /v2/` within 30 s: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The registry's log, for failure messages.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("registry.log")).unwrap_or_default()
    }

    /// Where the registry keeps the bytes of the blob `digest` (`sha256:…`),
    /// for tests that tamper with storage.
    pub fn blob_path(&self, digest: &str) -> PathBuf {
        let hex = digest.strip_prefix("sha256:").unwrap();
        self.storage()
            .join("docker/registry/v2/blobs/sha256")
            .join(&hex[..2])
            .join(hex)
            .join("data")
    }

    /// The storage root written in the config.
    fn storage(&self) -> PathBuf {
        self.dir.path().join("storage")
    }

    /// A scratch folder that lives as long as the registry.
    pub fn scratch(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join("scratch").join(name);
        std::fs::create_dir_all(&path).unwrap();
        path
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const TOKEN_SERVICE: &str = "skills-registry";
const TOKEN_ISSUER: &str = "skills-tests";

/// `token_server.py` on the system's `python3`, signing with a key and
/// self-signed certificate made by `openssl` in the registry's folder.
pub struct TokenServer {
    child: Child,
    port: u16,
}

impl TokenServer {
    fn start(dir: &Path, ip: IpAddr, credentials: &str, refresh_token: &str) -> TokenServer {
        let key = dir.join("token-key.pem");
        let cert = dir.join("token-cert.pem");
        let made = Command::new("openssl")
            .args([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            ])
            .args(["-subj", "/CN=skills-tests-token"])
            .arg("-keyout")
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .output()
            .unwrap_or_else(|e| panic!("cannot run `openssl` ({e}): `apt-get install -y openssl`"));
        assert!(made.status.success(), "openssl req failed: {made:?}");
        let script =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/supply/token_server.py");
        let mut child = Command::new("python3")
            .arg(script)
            .args([&key, &cert])
            .args([TOKEN_ISSUER, TOKEN_SERVICE, credentials, refresh_token])
            .arg(ip.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run `python3` ({e}): install Python 3"));
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            BufReader::new(stdout).read_line(&mut line).unwrap();
        }
        let port = line.trim().parse().unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("token_server.py did not print its port: {line:?}")
        });
        TokenServer { child, port }
    }
}

impl Drop for TokenServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `auth:` section of a registry that requires `user`/`password`
/// (bcrypt `htpasswd`), writing the password file into its folder.
fn htpasswd_auth(user: &str, password: &str) -> impl FnOnce(&Path) -> String {
    let output = Command::new("htpasswd")
        .args(["-Bbn", user, password])
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `htpasswd` ({e}): install it: `apt-get install -y apache2-utils`")
        });
    assert!(output.status.success(), "htpasswd failed: {output:?}");
    move |dir: &Path| {
        let path = dir.join("htpasswd");
        std::fs::write(&path, &output.stdout).unwrap();
        format!(
            "auth:\n  htpasswd:\n    realm: skills-tests\n    path: {}\n",
            path.display()
        )
    }
}

/// One request a [`Recorder`] got (its method and path, for failure
/// messages).
#[derive(Debug, Clone)]
pub struct Seen {
    #[allow(dead_code)] // shown by `Debug` when a test fails
    pub method: String,
    #[allow(dead_code)] // shown by `Debug` when a test fails
    pub path: String,
    /// Its `Authorization` header, if it had one.
    pub authorization: Option<String>,
}

/// What a [`Recorder`] does with a request.
enum Answer {
    /// `GET`/`HEAD` of the files under this folder (200 or 404).
    Files(PathBuf),
    /// Forwarded as it is to `host:port`, once set, and the answer copied back.
    Forward(Arc<Mutex<String>>),
}

/// A plain HTTP/1.1 server (one request per connection) that records
/// every request it gets and serves files or forwards to another server;
/// stopped when dropped.
pub struct Recorder {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<Seen>>>,
    upstream: Option<Arc<Mutex<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Recorder {
    /// Serves the files under `root` on `ip`.
    pub fn files(ip: IpAddr, root: &Path) -> Recorder {
        Recorder::start(ip, Answer::Files(root.to_path_buf()))
    }

    /// Forwards to the server [`Recorder::set_upstream`] names.
    pub fn forward(ip: IpAddr) -> Recorder {
        Recorder::start(ip, Answer::Forward(Arc::new(Mutex::new(String::new()))))
    }

    fn start(ip: IpAddr, answer: Answer) -> Recorder {
        let listener = TcpListener::bind((ip, 0)).unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let upstream = match &answer {
            Answer::Forward(upstream) => Some(upstream.clone()),
            Answer::Files(_) => None,
        };
        let answer = Arc::new(answer);
        let thread = {
            let (seen, stop) = (seen.clone(), stop.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (seen, answer) = (seen.clone(), answer.clone());
                    std::thread::spawn(move || serve(stream, &seen, &answer));
                }
            })
        };
        Recorder {
            addr,
            seen,
            upstream,
            stop,
            thread: Some(thread),
        }
    }

    /// `http://<ip>:<port>`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Where a forwarding recorder sends what it gets (`host:port`).
    pub fn set_upstream(&self, host: &str) {
        if let Some(upstream) = &self.upstream {
            *upstream.lock().unwrap() = host.to_owned();
        }
    }

    /// The requests so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Reads one request (head up to 64 KiB, then its `Content-Length` body),
/// records it and answers it.
fn serve(mut stream: TcpStream, seen: &Mutex<Vec<Seen>>, answer: &Answer) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if head.len() > 64 << 10 || !matches!(stream.read(&mut byte), Ok(1)) {
            return;
        }
        head.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let mut lines = text.split("\r\n");
    let mut words = lines.next().unwrap_or("").split(' ');
    let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let header = |name: &str| {
        text.split("\r\n").skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    };
    let length: usize = header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length.min(64 << 20)];
    if stream.read_exact(&mut body).is_err() {
        return;
    }
    seen.lock().unwrap().push(Seen {
        method: method.to_owned(),
        path: path.to_owned(),
        authorization: header("authorization"),
    });
    match answer {
        Answer::Files(root) => {
            let rel = PathBuf::from(path.split('?').next().unwrap_or("").trim_start_matches('/'));
            let file = rel
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
                .then(|| std::fs::read(root.join(&rel)).ok())
                .flatten();
            let (status, bytes) = match file {
                Some(bytes) => ("200 OK", bytes),
                None => ("404 Not Found", Vec::new()),
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                bytes.len()
            );
            if method != "HEAD" {
                let _ = stream.write_all(&bytes);
            }
        }
        Answer::Forward(upstream) => {
            let host = upstream.lock().unwrap().clone();
            let Ok(mut up) = TcpStream::connect(&host) else {
                return;
            };
            let mut request = String::new();
            for (i, line) in text.trim_end().split("\r\n").enumerate() {
                let name = line.split(':').next().unwrap_or("");
                if i > 0 && name.eq_ignore_ascii_case("connection") {
                    continue;
                }
                request.push_str(line);
                request.push_str("\r\n");
            }
            request.push_str("Connection: close\r\n\r\n");
            let mut answer = Vec::new();
            if up.write_all(request.as_bytes()).is_ok()
                && up.write_all(&body).is_ok()
                && up.read_to_end(&mut answer).is_ok()
            {
                let _ = stream.write_all(&answer);
            }
        }
    }
}
