//! Private sources end to end: `skb add` and `skb install` from an HTTPS
//! well-known index behind authentication (Python's `http.server` over TLS,
//! with a test CA made by `openssl` and trusted through `SSL_CERT_FILE`),
//! with the credential from each place skb reads one: `SKB_AUTH` (a bearer
//! token), the user's `credentials.json` and `~/.netrc` (Basic). Refusals:
//! no credential, a wrong one, an untrusted certificate, and a redirect to
//! another origin, which never receives the credential. And `skb push` and
//! `skb add oci://` logged in to a registry behind passwords by a Docker
//! credential helper (`credsStore`), a missing helper failing closed. No
//! secret reaches the project's files or skb's output.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use crate::skills;
use skills_tests::{files_under, tempdir, write_tree};

const TOKEN: &str = "s3cret-t0ken";
const USER: &str = "ci";
const PASSWORD: &str = "pa55-w0rd";
/// `Basic` of `ci:pa55-w0rd`.
const BASIC: &str = "Basic Y2k6cGE1NS13MHJk";

/// A test CA and a certificate for 127.0.0.1 it signed.
struct Tls {
    ca: PathBuf,
    cert: PathBuf,
    key: PathBuf,
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run `openssl` ({e}): `apt-get install -y openssl`"));
    assert!(out.status.success(), "openssl {args:?}: {out:?}");
}

fn test_ca(dir: &Path) -> Tls {
    std::fs::create_dir_all(dir).unwrap();
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    openssl(
        dir,
        &[
            &["req", "-x509"][..],
            &ec,
            &[
                "-days",
                "2",
                "-subj",
                "/CN=skb test CA",
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign,cRLSign",
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
            ],
        ]
        .concat(),
    );
    openssl(
        dir,
        &[
            &["req"][..],
            &ec,
            &[
                "-subj",
                "/CN=127.0.0.1",
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
            ],
        ]
        .concat(),
    );
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n\
         keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "server.ext",
            "-out",
            "server.pem",
        ],
    );
    Tls {
        ca: dir.join("ca.pem"),
        cert: dir.join("server.pem"),
        key: dir.join("server.key"),
    }
}

/// `auth_server.py` over TLS on 127.0.0.1, logging what each request
/// carried.
struct AuthServer {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl AuthServer {
    /// Serves `root`; wants one of `expect` as `Authorization` (anything,
    /// when empty); redirects a missing file to `elsewhere`, if given.
    fn start(root: &Path, tls: &Tls, expect: &[&str], elsewhere: Option<&str>) -> AuthServer {
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/cli/private_sources/auth_server.py");
        let log = root.with_extension("requests.log");
        let mut cmd = Command::new("python3");
        cmd.arg(script).arg(root).arg(&log);
        cmd.arg("--tls").arg(&tls.cert).arg(&tls.key);
        for value in expect {
            cmd.args(["--expect", value]);
        }
        if let Some(url) = elsewhere {
            cmd.args(["--elsewhere", url]);
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run `python3` ({e}): install Python 3"));
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            BufReader::new(stdout).read_line(&mut line).unwrap();
        }
        let Ok(port) = line.trim().parse() else {
            let _ = child.kill();
            panic!("auth_server.py did not print its port: {line:?}");
        };
        AuthServer { child, port, log }
    }

    /// `https://127.0.0.1:PORT`.
    fn origin(&self) -> String {
        format!("https://127.0.0.1:{}", self.port)
    }

    /// The `Authorization` each request carried (`None`: none).
    fn seen(&self) -> Vec<Option<String>> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| {
                let value = l.split_once('\t').map_or("-", |(_, v)| v);
                (value != "-").then(|| value.to_owned())
            })
            .collect()
    }
}

impl Drop for AuthServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `skb` in `dir` with `HOME` beside it and only the credentials and
/// roots `env` gives.
fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    skills()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env("HOME", home(dir))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("NETRC")
        .env_remove("SKB_AUTH")
        .env_remove("SSL_CERT_FILE")
        .env_remove("SOURCE_DATE_EPOCH")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn home(dir: &Path) -> PathBuf {
    dir.parent().unwrap().join("home")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Every project file's bytes, skb's guard left out.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .filter(|(rel, _)| rel != ".skb/guard" && rel != ".skb/.gitignore")
        .map(|(rel, path)| (rel, std::fs::read(path).unwrap()))
        .collect()
}

fn ok(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let out = run(dir, args, env);
    assert!(out.status.success(), "skb {args:?}: {}", text(&out));
    assert_no_secret(&text(&out));
    text(&out)
}

/// Runs `args`, which must fail naming each of `names` and leave `dir`
/// as it was; returns the output.
fn refused(dir: &Path, args: &[&str], env: &[(&str, &str)], names: &[&str]) -> String {
    let before = snapshot(dir);
    let out = run(dir, args, env);
    let said = text(&out);
    assert!(!out.status.success(), "skb {args:?} passed: {said}");
    for name in names {
        assert!(
            said.contains(name),
            "skb {args:?} does not say {name:?}: {said}"
        );
    }
    assert_no_secret(&said);
    assert!(snapshot(dir) == before, "skb {args:?} changed the project");
    said
}

fn assert_no_secret(text: &str) {
    for secret in [TOKEN, PASSWORD, BASIC, "wr0ng"] {
        assert!(!text.contains(secret), "{secret:?} shown: {text}");
    }
}

/// A site publishing `alpha` 1.0.0 (unsigned) under `root/site`.
fn site(root: &Path) -> PathBuf {
    write_tree(
        &root.join("src/alpha"),
        &[(
            "SKILL.md",
            b"---\nname: alpha\ndescription: Alpha does things. Use it for things.\n---\nAlpha.\n",
        )],
    );
    ok(
        root,
        &[
            "publish",
            "src/alpha",
            "--out",
            "site",
            "--release",
            "1.0.0",
        ],
        &[],
    );
    root.join("site")
}

fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempdir();
    let root = tmp.path().to_path_buf();
    let p = root.join("p");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::create_dir_all(home(&p)).unwrap();
    (tmp, root, p)
}

/// A fresh clone: the lock stays, the installed folders go.
fn fresh_clone(p: &Path) {
    for dir in [".claude", ".agents", ".skb"] {
        let _ = std::fs::remove_dir_all(p.join(dir));
    }
}

#[skills_tests::acceptance("needs openssl and python3 (a TLS server behind authentication)")]
#[test]
fn an_https_index_behind_auth_installs_with_a_token_a_credentials_file_and_netrc() {
    let (_tmp, root, p) = project();
    let site = site(&root);
    let tls = test_ca(&root.join("tls"));
    let server = AuthServer::start(&site, &tls, &[&format!("Bearer {TOKEN}"), BASIC], None);
    let url = server.origin();
    let host = url.trim_start_matches("https://");
    let ca = tls.ca.to_str().unwrap();
    let token = format!("{TOKEN}@{host}");
    let add = [
        "add",
        url.as_str(),
        "--allow-unsigned",
        "--client",
        "claude-code",
    ];

    // The test CA is not trusted unless `SSL_CERT_FILE` names it.
    refused(&p, &add, &[("SKB_AUTH", &token)], &[&url]);
    // No credential, or a wrong one: the 401 says which, never what.
    refused(
        &p,
        &add,
        &[("SSL_CERT_FILE", ca)],
        &[&url, "401", "no credential is configured"],
    );
    let wrong = format!("wr0ng@{host}");
    let said = refused(
        &p,
        &add,
        &[("SSL_CERT_FILE", ca), ("SKB_AUTH", &wrong)],
        &[&url, "401", "SKB_AUTH", "refused"],
    );
    assert!(!said.contains("wr0ng"), "{said}");

    // A bearer token from `SKB_AUTH`.
    ok(&p, &add, &[("SSL_CERT_FILE", ca), ("SKB_AUTH", &token)]);
    assert!(p.join(".claude/skills/alpha/SKILL.md").is_file());
    let installed = snapshot(&p);

    // Basic from the user's credentials file, then from `~/.netrc`.
    let config = home(&p).join(".config/skb");
    std::fs::create_dir_all(&config).unwrap();
    let credentials = config.join("credentials.json");
    std::fs::write(
        &credentials,
        format!(
            r#"{{"version":1,"hosts":{{"{url}":{{"username":"{USER}","password":"{PASSWORD}"}}}}}}"#
        ),
    )
    .unwrap();
    fresh_clone(&p);
    ok(&p, &["install", "--frozen"], &[("SSL_CERT_FILE", ca)]);
    assert!(snapshot(&p) == installed);
    std::fs::remove_file(&credentials).unwrap();
    std::fs::write(
        home(&p).join(".netrc"),
        format!("machine elsewhere.example login x password y\nmachine 127.0.0.1 login {USER} password {PASSWORD}\n"),
    )
    .unwrap();
    fresh_clone(&p);
    ok(&p, &["install", "--frozen"], &[("SSL_CERT_FILE", ca)]);
    assert!(snapshot(&p) == installed);

    // What the server saw: every successful request authenticated, each
    // kind of credential once at least.
    let seen = server.seen();
    assert!(seen.contains(&Some(format!("Bearer {TOKEN}"))), "{seen:?}");
    assert!(seen.contains(&Some(BASIC.to_owned())), "{seen:?}");
    // No secret in any file of the project, the lock included.
    for (rel, bytes) in snapshot(&p) {
        assert_no_secret(&format!("{rel}: {}", String::from_utf8_lossy(&bytes)));
    }
}

#[skills_tests::acceptance("needs openssl and python3 (a TLS server behind authentication)")]
#[test]
fn a_credential_is_not_sent_to_the_other_origin_a_redirect_names() {
    let (_tmp, root, p) = project();
    let site = site(&root);
    let tls = test_ca(&root.join("tls"));
    // The index on `front`, which redirects every other file to `files`,
    // another port on the same host.
    let front_root = root.join("front");
    let index = ".well-known/agent-skills/index.json";
    std::fs::create_dir_all(front_root.join(".well-known/agent-skills")).unwrap();
    std::fs::copy(site.join(index), front_root.join(index)).unwrap();
    let files = AuthServer::start(&site, &tls, &[], None);
    let bearer = format!("Bearer {TOKEN}");
    let front = AuthServer::start(&front_root, &tls, &[&bearer], Some(&files.origin()));
    let url = front.origin();
    let token = format!("{TOKEN}@{}", url.trim_start_matches("https://"));
    let env = [
        ("SSL_CERT_FILE", tls.ca.to_str().unwrap()),
        ("SKB_AUTH", &token),
    ];

    ok(
        &p,
        &["add", &url, "--allow-unsigned", "--client", "claude-code"],
        &env,
    );
    assert!(p.join(".claude/skills/alpha/SKILL.md").is_file());
    let front_seen = front.seen();
    assert!(
        front_seen
            .iter()
            .all(|a| a.as_deref() == Some(bearer.as_str())),
        "{front_seen:?}"
    );
    let files_seen = files.seen();
    assert!(
        !files_seen.is_empty() && files_seen.iter().all(Option::is_none),
        "{files_seen:?}"
    );

    // When the other origin wants the token too, it does not get it: the
    // refusal says where the credential goes.
    drop(files);
    let guarded = AuthServer::start(&site, &tls, &[&bearer], None);
    let front = AuthServer::start(&front_root, &tls, &[&bearer], Some(&guarded.origin()));
    let url = front.origin();
    let token = format!("{TOKEN}@{}", url.trim_start_matches("https://"));
    let env = [
        ("SSL_CERT_FILE", tls.ca.to_str().unwrap()),
        ("SKB_AUTH", &token),
    ];
    let q = root.join("q");
    std::fs::create_dir_all(&q).unwrap();
    refused(
        &q,
        &["add", &url, "--allow-unsigned", "--client", "claude-code"],
        &env,
        &[&guarded.origin(), "401", "another origin"],
    );
    let guarded_seen = guarded.seen();
    assert!(guarded_seen.iter().all(Option::is_none), "{guarded_seen:?}");
}

/// The CNCF `distribution` registry behind `htpasswd` (bcrypt, from
/// `apache2-utils`), on 127.0.0.1; killed when dropped.
struct PasswordRegistry {
    child: Child,
    host: String,
}

impl PasswordRegistry {
    fn start(dir: &Path, user: &str, password: &str) -> PasswordRegistry {
        let program = std::env::var_os("SKILLS_DOCKER_REGISTRY")
            .map_or_else(|| PathBuf::from("/usr/bin/docker-registry"), PathBuf::from);
        assert!(
            program.is_file(),
            "`{}` is missing: `apt-get install -y docker-registry`",
            program.display()
        );
        std::fs::create_dir_all(dir).unwrap();
        let hashed = Command::new("htpasswd")
            .args(["-Bbn", user, password])
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run `htpasswd` ({e}): `apt-get install -y apache2-utils`")
            });
        assert!(hashed.status.success(), "htpasswd: {hashed:?}");
        std::fs::write(dir.join("htpasswd"), &hashed.stdout).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let host = format!("127.0.0.1:{port}");
        let config = dir.join("config.yml");
        std::fs::write(
            &config,
            format!(
                "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\n\
                 storage:\n  filesystem:\n    rootdirectory: {}\n\
                 http:\n  addr: {host}\n  secret: skb-private-sources\n\
                 auth:\n  htpasswd:\n    realm: skills\n    path: {}\n",
                dir.join("storage").display(),
                dir.join("htpasswd").display()
            ),
        )
        .unwrap();
        let child = Command::new(&program)
            .arg("serve")
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut registry = PasswordRegistry { child, host };
        for _ in 0..600 {
            if std::net::TcpStream::connect(&registry.host).is_ok() {
                return registry;
            }
            if let Ok(Some(status)) = registry.child.try_wait() {
                panic!("the registry exited: {status}");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("the registry did not listen on {}", registry.host);
    }
}

impl Drop for PasswordRegistry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[skills_tests::acceptance("needs docker-registry and htpasswd (a registry behind passwords)")]
#[test]
fn a_docker_credential_helper_logs_skb_in_to_push_and_add() {
    let (_tmp, root, p) = project();
    write_tree(
        &root.join("src/alpha"),
        &[(
            "SKILL.md",
            b"---\nname: alpha\ndescription: Alpha does things. Use it for things.\n---\nAlpha.\n",
        )],
    );
    ok(&root, &["pack", "src", "-o", "a.skillpack"], &[]);
    let registry = PasswordRegistry::start(&root.join("registry"), USER, PASSWORD);
    let host = registry.host.clone();
    // The helper answers for this registry only, logging what it is asked.
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let helper = bin.join("docker-credential-skbtest");
    std::fs::write(
        &helper,
        format!(
            "#!/bin/sh\nserver=$(cat)\necho \"$1 $server\" >> '{}'\n\
             if [ \"$server\" = '{host}' ]; then\n\
             printf '{{\"ServerURL\":\"%s\",\"Username\":\"{USER}\",\"Secret\":\"{PASSWORD}\"}}' \"$server\"\n\
             exit 0\nfi\necho 'credentials not found in native keychain'\nexit 1\n",
            bin.join("asked").display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&helper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let docker = root.join("docker");
    std::fs::create_dir_all(&docker).unwrap();
    std::fs::write(docker.join("config.json"), r#"{"credsStore":"skbtest"}"#).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let docker_dir = docker.to_str().unwrap();
    let env = [("DOCKER_CONFIG", docker_dir), ("PATH", path.as_str())];
    let reference = format!("oci://{host}/acme/skills:1.0.0");

    ok(&root, &["push", "a.skillpack", &reference], &env);
    let add = [
        "add",
        reference.as_str(),
        "--allow-unsigned",
        "--client",
        "claude-code",
    ];
    ok(&p, &add, &env);
    assert!(p.join(".claude/skills/alpha/SKILL.md").is_file());
    let asked = std::fs::read_to_string(bin.join("asked")).unwrap();
    assert!(asked.lines().all(|l| l == format!("get {host}")), "{asked}");
    for (rel, bytes) in snapshot(&p) {
        assert_no_secret(&format!("{rel}: {}", String::from_utf8_lossy(&bytes)));
    }

    // Without the helper on `PATH`, the login is broken, not anonymous.
    let q = root.join("q");
    std::fs::create_dir_all(&q).unwrap();
    refused(
        &q,
        &add,
        &[("DOCKER_CONFIG", docker_dir), ("PATH", "/usr/bin:/bin")],
        &["docker-credential-skbtest", "PATH"],
    );
}
