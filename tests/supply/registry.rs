//! A real OCI registry for the tests: the CNCF `distribution` server
//! (Debian's `docker-registry`, 2.8) started on 127.0.0.1 with a temporary
//! config and storage folder, optionally behind `htpasswd` basic auth or
//! a token server (`token_server.py`), each killed when dropped.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
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
        Registry::spawn(|_| String::new())
    }

    /// A registry that requires `user`/`password` (bcrypt `htpasswd`).
    pub fn start_with_password(user: &str, password: &str) -> Registry {
        let output = Command::new("htpasswd")
            .args(["-Bbn", user, password])
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot run `htpasswd` ({e}): install it: `apt-get install -y apache2-utils`"
                )
            });
        assert!(output.status.success(), "htpasswd failed: {output:?}");
        Registry::spawn(|dir| {
            let path = dir.join("htpasswd");
            std::fs::write(&path, &output.stdout).unwrap();
            format!(
                "auth:\n  htpasswd:\n    realm: skills-tests\n    path: {}\n",
                path.display()
            )
        })
    }

    /// A registry that trusts the tokens of a [`TokenServer`] it starts:
    /// anonymous pulls, pushes with `user:password` or `refresh_token`.
    pub fn start_with_tokens(credentials: &str, refresh_token: &str) -> (Registry, TokenServer) {
        let mut server = None;
        let registry = Registry::spawn(|dir| {
            let started = TokenServer::start(dir, credentials, refresh_token);
            let yaml = format!(
                "auth:\n  token:\n    realm: http://127.0.0.1:{}/token\n    service: {TOKEN_SERVICE}\n    \
                 issuer: {TOKEN_ISSUER}\n    rootcertbundle: {}\n",
                started.port,
                dir.join("token-cert.pem").display()
            );
            server = Some(started);
            yaml
        });
        (registry, server.unwrap())
    }

    /// Starts the registry; `auth` writes what it needs into the registry's
    /// folder and returns the config's `auth:` section.
    fn spawn(auth: impl FnOnce(&Path) -> String) -> Registry {
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
             http:\n  addr: {host}\n  secret: skills-supply-tests\n",
            storage.display()
        );
        config.push_str(&auth(dir.path()));
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
    fn start(dir: &Path, credentials: &str, refresh_token: &str) -> TokenServer {
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
