//! Docker's credential helpers, run as Docker runs them: the program
//! `docker-credential-<name>` (found on `PATH`), `get` as its argument,
//! the server URL on its standard input, a JSON answer on its standard
//! output (`{"ServerURL": …, "Username": …, "Secret": …}`; `auth.rs`
//! reads the user name `<token>` as Docker does: an identity token). The
//! helper's standard error is the user's terminal (a helper may ask for a
//! passphrase there).
//!
//! As in Docker, a helper that answers `credentials not found in native
//! keychain` means "no login": the pull goes on anonymously. Anything else
//! that is not an answer (the program is missing, exits non-zero, writes
//! more than [`MAX_OUTPUT`] bytes, runs longer than [`TIMEOUT`], or prints
//! what is not the JSON above) is an error naming the helper: a broken
//! login never turns silently into an anonymous pull.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::credentials::Secret;

/// The most a helper may print.
pub(crate) const MAX_OUTPUT: u64 = 64 << 10;
/// The longest a helper may run.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(60);
/// What a helper prints when it has no credentials for the server.
const NOT_FOUND: &str = "credentials not found in native keychain";

/// Runs the helper `name` for `server`; `path` is the `PATH` to find it on.
/// Its user name and secret; `None` when it has none for `server`.
pub(crate) fn get(
    name: &str,
    server: &str,
    path: Option<&str>,
) -> Result<Option<(String, Secret)>, String> {
    let program = format!("docker-credential-{name}");
    let fail = |why: String| format!("the credential helper `{program}`: {why}");
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(fail("not a helper name".into()));
    }
    let found = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(&program))
        .find(|c| is_executable(c))
        .ok_or_else(|| fail("not found on `PATH`".into()))?;
    let output = run(&found, server, TIMEOUT).map_err(fail)?;
    parse(&output.0, output.1).map_err(fail)
}

/// Whether `path` is a file we may run.
fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Runs `program get` with `server` on its input, for at most `limit`; its
/// output (at most [`MAX_OUTPUT`] bytes) and whether it exited 0.
fn run(program: &Path, server: &str, limit: Duration) -> Result<(Vec<u8>, bool), String> {
    let mut child = Command::new(program)
        .arg("get")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run it: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A helper that exits without reading is judged by its exit.
        let _ = stdin.write_all(server.as_bytes());
    }
    let stdout = child.stdout.take();
    let (sender, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stdout) = stdout {
            let _ = stdout.take(MAX_OUTPUT + 1).read_to_end(&mut out);
        }
        let _ = sender.send(out);
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Ok(None) => {
                // With whatever it started (a keychain agent, a login flow).
                crate::stop::stop(&mut child);
                return Err(format!("no answer within {} s", limit.as_secs()));
            }
            Err(e) => return Err(e.to_string()),
        }
    };
    // A program it started may hold its output open: the same deadline.
    let left = deadline.saturating_duration_since(Instant::now());
    let out = received
        .recv_timeout(left)
        .map_err(|_| format!("its output did not end within {} s", limit.as_secs()))?;
    if out.len() as u64 > MAX_OUTPUT {
        return Err(format!("more than {MAX_OUTPUT} bytes of output"));
    }
    Ok((out, status.success()))
}

/// A helper's answer, as Docker reads it.
fn parse(out: &[u8], success: bool) -> Result<Option<(String, Secret)>, String> {
    let text = String::from_utf8_lossy(out);
    if text.trim() == NOT_FOUND {
        return Ok(None);
    }
    if !success {
        // Its first line, bounded: what Docker shows too.
        let first: String = text
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(200)
            .collect();
        return Err(format!("it failed: `{}`", first.trim()));
    }
    #[derive(serde::Deserialize)]
    struct Answer {
        #[serde(rename = "Username", default)]
        username: String,
        #[serde(rename = "Secret", default)]
        secret: String,
    }
    let answer: Answer = serde_json::from_slice(out).map_err(|e| {
        format!(
            "its answer is not the JSON of a credential (line {}, column {})",
            e.line(),
            e.column()
        )
    })?;
    Ok((!answer.secret.is_empty()).then(|| (answer.username, Secret::new(answer.secret))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_docker_reads_them() {
        let basic = parse(br#"{"ServerURL":"h","Username":"u","Secret":"p"}"#, true).unwrap();
        assert_eq!(basic, Some(("u".into(), Secret::new("p"))));
        let token = parse(br#"{"Username":"<token>","Secret":"r"}"#, true).unwrap();
        assert_eq!(token, Some(("<token>".into(), Secret::new("r"))));
        assert_eq!(parse(br#"{"Username":"u","Secret":""}"#, true), Ok(None));
        assert_eq!(
            parse(b"credentials not found in native keychain\n", false),
            Ok(None)
        );
        let e = parse(b"error: s3cret-free failure\nmore", false).unwrap_err();
        assert!(
            e.contains("s3cret-free failure") && !e.contains("more"),
            "{e}"
        );
        let e = parse(br#"{"Username":"u","Secret":"s3cret""#, true).unwrap_err();
        assert!(e.contains("not the JSON") && !e.contains("s3cret"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_helper_that_prints_too_much_is_refused_and_one_that_answers_is_read() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, body: &str| {
            let path = dir.path().join(format!("docker-credential-{name}"));
            std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        write("loud", "head -c 70000 /dev/zero");
        write(
            "good",
            r#"read s; printf '{"Username":"u","Secret":"%s-pw"}' "$s""#,
        );
        let path = dir.path().to_str().unwrap();
        let e = get("loud", "h", Some(path)).unwrap_err();
        assert!(
            e.contains("docker-credential-loud") && e.contains("more than"),
            "{e}"
        );
        let got = get("good", "reg.example\n", Some(path)).unwrap();
        assert_eq!(got, Some(("u".into(), Secret::new("reg.example-pw"))));
    }

    /// A helper past its time is stopped with what it started: a program
    /// left running could still read the keychain, or answer a prompt.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_helper_past_its_time_is_stopped_with_what_it_started() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let helper = dir.path().join("docker-credential-slow");
        let pid_file = dir.path().join("pid");
        std::fs::write(
            &helper,
            format!(
                "#!/bin/sh\nsleep 60 >/dev/null 2>&1 &\necho $! > '{}'\nwait\n",
                pid_file.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&helper, std::fs::Permissions::from_mode(0o755)).unwrap();
        let e = run(&helper, "h", Duration::from_secs(1)).unwrap_err();
        assert!(e.contains("no answer within 1 s"), "{e}");
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let stat = format!("/proc/{}/stat", pid.trim());
        let start = Instant::now();
        // Gone, or a zombie of the init that adopted it.
        while std::fs::read_to_string(&stat).is_ok_and(|s| {
            s.rsplit_once(") ")
                .is_some_and(|(_, rest)| !rest.starts_with('Z') && !rest.starts_with('X'))
        }) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the helper's child outlived it"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn a_missing_or_misnamed_helper_is_named() {
        let e = get("skb-none", "h", Some("/nonexistent")).unwrap_err();
        assert!(
            e.contains("docker-credential-skb-none") && e.contains("PATH"),
            "{e}"
        );
        let e = get("../sh", "h", Some("/bin")).unwrap_err();
        assert!(e.contains("not a helper name"), "{e}");
    }
}
