//! Signatures on what a git checkout fetched: the signed tag the ref named,
//! else the commit itself, checked by git (`verify-tag`/`verify-commit
//! --raw`) against the trust store's SSH and OpenPGP keys only.
//!
//! # Bound to what was fetched
//!
//! The signed object is the commit checked out, or an annotated tag whose
//! `object` is that commit, whose `type` is `commit` and whose `tag` is the
//! name asked for; its id is the one the server listed when the ref was
//! resolved (a tag moved between the two is refused). A lightweight tag is
//! a name, not an object: the commit's own signature is what counts. The
//! signed time (the tagger's or committer's) and the tag's name are what
//! rollback compares; the commit id is the release the lock pins.
//!
//! # Nothing of the user's decides
//!
//! git runs through the same bounded runner as the checkout, with
//! `GIT_CONFIG_GLOBAL` an empty file and no system configuration, so no
//! `gpg.program`, `gpg.ssh.allowedSignersFile` or revocation file of the
//! user's applies. SSH signatures are checked with an allowed-signers file
//! written, in a private temporary folder, from the store's SSH keys;
//! OpenPGP ones with a throwaway `GNUPGHOME` holding only the store's
//! OpenPGP keys (each block's fingerprint checked against the id the store
//! names it by). `ssh-keygen` and `gpg` are looked up in `PATH` and given
//! to git by path; a missing one is [`GitError::ProgramNotFound`].
//!
//! # Fail closed
//!
//! Anything git or gpg says that is not one good signature by a key of the
//! store is an error ([`GitError::Signature`]) or, for a well-formed
//! signature by a key the store does not hold, a [`GitSignature`] with
//! `trusted_key` false that the policy then refuses, naming the key.
//! OpenPGP: an expired or revoked key, an expired signature, more than one
//! signature, or a bad one, is refused; rotation is the store's business
//! (retire the key), not the keyring's.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::GitError;
use super::run::{Head, Output, RunError, Runner, run_program};
use crate::trust::{KeyKind, TrustedKey};

/// The largest commit or tag object read (a signature and a long message).
const MAX_OBJECT: usize = 1 << 20;
/// The most `gpg` may take to import or list the store's keys.
const GPG_TIME: Duration = Duration::from_secs(30);

const SSH_MARK: &str = "-----BEGIN SSH SIGNATURE-----";
const PGP_MARK: &str = "-----BEGIN PGP SIGNATURE-----";
/// The principal every allowed signer is listed under: keys are told
/// apart by fingerprint.
const PRINCIPAL: &str = "skb";

/// A signature found on what was checked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSignature {
    /// SSH or OpenPGP.
    pub kind: KeyKind,
    /// The key's id as the store writes it (`SHA256:…`, or the primary
    /// key's 40-digit fingerprint); for a key the store does not hold,
    /// what the signature names.
    pub key_id: String,
    /// Whether it was verified with a key of the store; `false` for a key
    /// the store does not hold (the policy refuses it, naming the key).
    pub trusted_key: bool,
    /// The commit checked out.
    pub commit: String,
    /// The signed tag, when the signature is a tag's.
    pub tag: Option<SignedTag>,
    /// The signed object's time (tagger's or committer's), Unix seconds.
    pub time: Option<u64>,
}

/// A signed annotated tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedTag {
    /// Its name.
    pub name: String,
    /// The tag object's id.
    pub object: String,
}

/// Where the signed tag of a checkout was fetched to.
pub(super) const TAG_REF: &str = "refs/skb/tag";

/// Finds and checks the signature of what `git_dir` holds: `tag` (fetched
/// to [`TAG_REF`]) when it is annotated and signed, else `commit`.
pub(super) fn examine(
    runner: &Runner<'_>,
    git_dir: &Path,
    url: &str,
    commit: &str,
    tag: Option<(&str, &str)>,
    keys: &[&TrustedKey],
) -> Result<Option<GitSignature>, GitError> {
    let repo = Repo {
        runner,
        git_dir,
        url,
        commit,
    };
    if let Some((name, listed)) = tag {
        let fetched = repo.text("rev-parse", &["rev-parse", "--verify", "--quiet", TAG_REF])?;
        let fetched = fetched.trim();
        if fetched != listed {
            return Err(repo.refuse(format!(
                "tag `{name}` was {listed} when the ref was read and is {fetched} now: it moved; try again"
            )));
        }
        let object = repo.text("cat-file", &["cat-file", "tag", fetched])?;
        let header = Header::read(&object);
        let wrong = if header.get("object") != Some(commit) {
            Some(format!(
                "tags {}, not the commit checked out ({commit})",
                header.get("object").unwrap_or("nothing")
            ))
        } else if header.get("type") != Some("commit") {
            Some("does not tag a commit".to_owned())
        } else if header.get("tag") != Some(name) {
            Some(format!(
                "is named `{}` inside",
                header.get("tag").unwrap_or_default()
            ))
        } else {
            None
        };
        if let Some(wrong) = wrong {
            return Err(repo.refuse(format!("tag `{name}` ({fetched}) {wrong}")));
        }
        if let Some(kind) = kind_of(&object) {
            let signed = SignedTag {
                name: name.to_owned(),
                object: fetched.to_owned(),
            };
            let time = header.get("tagger").and_then(signed_time);
            return repo
                .verify(kind, &["verify-tag", "--raw", fetched], keys)
                .map(|(key_id, trusted_key)| {
                    Some(GitSignature {
                        kind,
                        key_id,
                        trusted_key,
                        commit: commit.to_owned(),
                        tag: Some(signed),
                        time,
                    })
                });
        }
    }
    let object = repo.text("cat-file", &["cat-file", "commit", commit])?;
    let header = Header::read(&object);
    let Some(kind) = header
        .get("gpgsig")
        .or_else(|| header.get("gpgsig-sha256"))
        .and_then(kind_of)
    else {
        return Ok(None);
    };
    let time = header.get("committer").and_then(signed_time);
    repo.verify(kind, &["verify-commit", "--raw", commit], keys)
        .map(|(key_id, trusted_key)| {
            Some(GitSignature {
                kind,
                key_id,
                trusted_key,
                commit: commit.to_owned(),
                tag: None,
                time,
            })
        })
}

/// The fingerprint of the one OpenPGP public key in `block`, as `gpg`
/// computes it in a throwaway home (for `skb trust add`).
pub fn openpgp_fingerprint(block: &str) -> Result<String, GitError> {
    let home = Keyring::private_dir()?;
    let gpg = find_program("gpg")?;
    let deadline = Instant::now() + GPG_TIME;
    let found = import(&gpg, home.path(), &[block], deadline)?;
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(GitError::Signature {
            url: String::new(),
            object: "the OpenPGP key".to_owned(),
            detail: format!(
                "the block holds {} primary keys; give exactly one",
                found.len()
            ),
        }),
    }
}

/// The kind of the signature block in `text`, if any.
fn kind_of(text: &str) -> Option<KeyKind> {
    if text.contains(SSH_MARK) {
        Some(KeyKind::Ssh)
    } else if text.contains(PGP_MARK) {
        Some(KeyKind::OpenPgp)
    } else {
        None
    }
}

/// The Unix time of a `tagger`/`committer` line: `Name <mail> <time> <tz>`.
fn signed_time(line: &str) -> Option<u64> {
    let after_mail = &line[line.rfind('>')? + 1..];
    after_mail.split_whitespace().next()?.parse().ok()
}

/// An object's header lines, up to the first blank line (continuation
/// lines, which start with a space, belong to the header before them).
struct Header<'a> {
    fields: Vec<(&'a str, String)>,
}

impl<'a> Header<'a> {
    fn read(object: &'a str) -> Header<'a> {
        let mut fields: Vec<(&'a str, String)> = Vec::new();
        for line in object.split('\n') {
            if line.is_empty() {
                break;
            }
            match (line.strip_prefix(' '), fields.last_mut()) {
                (Some(more), Some((_, value))) => {
                    value.push('\n');
                    value.push_str(more);
                }
                _ => {
                    let (name, value) = line.split_once(' ').unwrap_or((line, ""));
                    fields.push((name, value.to_owned()));
                }
            }
        }
        Header { fields }
    }

    /// The first field called `name`.
    fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The checkout's repository, for the runs that read and verify.
struct Repo<'a> {
    runner: &'a Runner<'a>,
    git_dir: &'a Path,
    url: &'a str,
    commit: &'a str,
}

impl Repo<'_> {
    fn args(&self, args: &[&str]) -> Vec<OsString> {
        let mut dir = OsString::from("--git-dir=");
        dir.push(self.git_dir);
        let mut all = vec![dir];
        all.extend(args.iter().map(OsString::from));
        all
    }

    fn run(
        &self,
        step: &'static str,
        args: &[OsString],
        env: &[(&str, &OsStr)],
    ) -> Result<Output<Head>, GitError> {
        let args: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        self.runner
            .run_env(&args, Head::new(MAX_OBJECT), None, env)
            .map_err(|e| match e {
                RunError::NotFound(program) => GitError::GitNotFound { program },
                RunError::Timeout => GitError::Timeout {
                    url: self.url.to_owned(),
                    reference: Some(self.commit.to_owned()),
                    step,
                    after: self.runner.opts.timeout,
                },
                RunError::Stopped(e) => e,
                RunError::Io(e) => self.refuse(format!("`git {step}`: {e}")),
            })
    }

    /// A small object's or id's text; a failed run or one too long is an
    /// error.
    fn text(&self, step: &'static str, args: &[&str]) -> Result<String, GitError> {
        let out = self.run(step, &self.args(args), &[])?;
        if !out.status.success() || out.stdout.truncated {
            return Err(self.refuse(format!(
                "`git {step}` could not read it ({})",
                if out.stdout.truncated {
                    format!("over {MAX_OBJECT} bytes")
                } else {
                    out.stderr.clone()
                }
            )));
        }
        String::from_utf8(out.stdout.bytes)
            .map_err(|_| self.refuse(format!("`git {step}` gave text that is not UTF-8")))
    }

    /// Runs `verify` (`verify-commit`/`verify-tag --raw <id>`) with only
    /// the store's keys of `kind`: the key id, and whether the store holds
    /// it.
    fn verify(
        &self,
        kind: KeyKind,
        verify: &[&str],
        keys: &[&TrustedKey],
    ) -> Result<(String, bool), GitError> {
        let ring = Keyring::new(kind, keys, self.runner.deadline)?;
        let mut args = vec!["-c".to_owned(), ring.program_setting()];
        if let Some(signers) = &ring.allowed_signers {
            args.push("-c".to_owned());
            args.push(format!("gpg.ssh.allowedSignersFile={}", signers.display()));
        }
        let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
        all.extend(verify);
        let env = ring.env();
        let env: Vec<(&str, &OsStr)> = env.iter().map(|(n, v)| (*n, v.as_os_str())).collect();
        let out = self.run("verify", &self.args(&all), &env)?;
        let said = String::from_utf8_lossy(&out.stderr_raw).into_owned();
        let read = match kind {
            KeyKind::OpenPgp => read_gpg(&said, out.status.success(), keys),
            _ => read_ssh(&said, out.status.success(), keys),
        };
        read.map_err(|why| self.refuse(why))
    }

    fn refuse(&self, detail: String) -> GitError {
        GitError::Signature {
            url: self.url.to_owned(),
            object: format!("commit {}", self.commit),
            detail,
        }
    }
}

/// What `ssh-keygen` said through git: `Good "git" signature for skb with
/// ED25519 key SHA256:…` for a key of the allowed signers, `Good "git"
/// signature with … key SHA256:…` (and a failure) for a key not among
/// them.
fn read_ssh(said: &str, ok: bool, keys: &[&TrustedKey]) -> Result<(String, bool), String> {
    let fingerprint = |line: &str| line.rsplit(' ').next().map(str::to_owned);
    let trusted = format!("Good \"git\" signature for {PRINCIPAL} with ");
    for line in said.lines().map(str::trim) {
        if ok
            && line.starts_with(&trusted)
            && let Some(id) = fingerprint(line)
            && keys.iter().any(|k| k.kind == KeyKind::Ssh && k.id == id)
        {
            return Ok((id, true));
        }
    }
    if !ok
        && let Some(id) = said
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("Good \"git\" signature with "))
            .and_then(fingerprint)
            .filter(|id| id.starts_with("SHA256:"))
        && !keys.iter().any(|k| k.id == id)
    {
        return Ok((id, false));
    }
    Err(format!(
        "its SSH signature does not check: {}",
        one_line(said)
    ))
}

/// What `gpg --status-fd` said through git (`[GNUPG:] …` lines): one
/// signature, good and valid, by a primary key of the store; or one by a
/// key the keyring does not have.
fn read_gpg(said: &str, ok: bool, keys: &[&TrustedKey]) -> Result<(String, bool), String> {
    let status: Vec<Vec<&str>> = said
        .lines()
        .filter_map(|l| l.trim().strip_prefix("[GNUPG:] "))
        .map(|l| l.split(' ').collect())
        .collect();
    let has = |name: &str| status.iter().find(|f| f.first() == Some(&name));
    if status
        .iter()
        .filter(|f| f.first() == Some(&"NEWSIG"))
        .count()
        > 1
    {
        return Err("it carries more than one OpenPGP signature".to_owned());
    }
    for (word, why) in [
        (
            "BADSIG",
            "its OpenPGP signature is bad (the object was changed)",
        ),
        ("EXPKEYSIG", "it is signed by an expired OpenPGP key"),
        ("REVKEYSIG", "it is signed by a revoked OpenPGP key"),
        ("EXPSIG", "its OpenPGP signature has expired"),
    ] {
        if let Some(fields) = has(word) {
            return Err(format!("{why} ({})", fields.get(1).unwrap_or(&"?")));
        }
    }
    if let Some(err) = has("ERRSIG")
        && has("NO_PUBKEY").is_some()
    {
        // ERRSIG <keyid> <algo> <hash> <class> <time> <rc> [<fpr>]
        let id = err
            .get(7)
            .filter(|f| crate::trust::is_openpgp_fingerprint(f))
            .map(|f| (*f).to_owned())
            .or_else(|| err.get(1).map(|k| format!("openpgp:{k}")))
            .unwrap_or_else(|| "openpgp:unknown".to_owned());
        return Ok((id, false));
    }
    let valid = has("VALIDSIG").and_then(|f| f.get(10).copied());
    match (ok, has("GOODSIG"), valid) {
        (true, Some(_), Some(primary))
            if keys
                .iter()
                .any(|k| k.kind == KeyKind::OpenPgp && k.id == primary) =>
        {
            Ok((primary.to_owned(), true))
        }
        _ => Err(format!(
            "its OpenPGP signature does not check: {}",
            one_line(said)
        )),
    }
}

/// `text` on one line for a message, control characters left out.
fn one_line(text: &str) -> String {
    let joined: Vec<String> = text
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_control()).collect::<String>())
        .filter(|l| !l.trim().is_empty())
        .collect();
    let mut line = joined.join("; ");
    if line.len() > 600 {
        let cut = (0..=600)
            .rev()
            .find(|&i| line.is_char_boundary(i))
            .unwrap_or(0);
        line.truncate(cut);
        line.push('…');
    }
    if line.is_empty() {
        "nothing said".to_owned()
    } else {
        line
    }
}

/// The keys one verification may use, in a private temporary folder.
struct Keyring {
    dir: tempfile::TempDir,
    program: PathBuf,
    kind: KeyKind,
    allowed_signers: Option<PathBuf>,
    empty_config: PathBuf,
}

impl Keyring {
    fn private_dir() -> Result<tempfile::TempDir, GitError> {
        tempfile::Builder::new()
            .prefix("skb-keys-")
            .tempdir()
            .map_err(|source| GitError::Io {
                path: std::env::temp_dir(),
                source,
            })
    }

    /// The store's keys of `kind` made ready for git: an allowed-signers
    /// file, or a `GNUPGHOME` they were imported into.
    fn new(kind: KeyKind, keys: &[&TrustedKey], deadline: Instant) -> Result<Keyring, GitError> {
        let dir = Keyring::private_dir()?;
        let write = |path: &Path, text: &str| {
            fs::write(path, text).map_err(|source| GitError::Io {
                path: path.to_path_buf(),
                source,
            })
        };
        let empty_config = dir.path().join("gitconfig");
        write(&empty_config, "")?;
        let mine: Vec<&&TrustedKey> = keys.iter().filter(|k| k.kind == kind).collect();
        let (program, allowed_signers) = match kind {
            KeyKind::OpenPgp => {
                let gpg = find_program("gpg")?;
                let home = dir.path().join("gnupg");
                create_private(&home)?;
                let blocks: Vec<&str> = mine.iter().map(|k| k.key.as_str()).collect();
                let found = if blocks.is_empty() {
                    Vec::new()
                } else {
                    import(
                        &gpg,
                        &home,
                        &blocks,
                        deadline.min(Instant::now() + GPG_TIME),
                    )?
                };
                let mut wanted: Vec<&str> = mine.iter().map(|k| k.id.as_str()).collect();
                wanted.sort_unstable();
                wanted.dedup();
                if found != wanted {
                    return Err(GitError::Signature {
                        url: String::new(),
                        object: "the trust store's OpenPGP keys".to_owned(),
                        detail: format!(
                            "their blocks hold the keys {} and the store names them {}: a block is not the key its id says",
                            found.join(", "),
                            wanted.join(", ")
                        ),
                    });
                }
                (gpg, None)
            }
            _ => {
                let program = find_program("ssh-keygen")?;
                let path = dir.path().join("allowed_signers");
                write(&path, &allowed_signers(&mine))?;
                (program, Some(path))
            }
        };
        Ok(Keyring {
            dir,
            program,
            kind,
            allowed_signers,
            empty_config,
        })
    }

    fn program_setting(&self) -> String {
        let key = match self.kind {
            KeyKind::OpenPgp => "gpg.openpgp.program",
            _ => "gpg.ssh.program",
        };
        format!("{key}={}", self.program.display())
    }

    fn env(&self) -> Vec<(&'static str, OsString)> {
        vec![
            (
                "GIT_CONFIG_GLOBAL",
                self.empty_config.clone().into_os_string(),
            ),
            ("GIT_CONFIG_NOSYSTEM", "1".into()),
            ("GNUPGHOME", self.dir.path().join("gnupg").into_os_string()),
        ]
    }
}

/// The allowed-signers file of `keys` (SSH keys): every one under one
/// principal, for git's namespace only.
fn allowed_signers(keys: &[&&TrustedKey]) -> String {
    keys.iter()
        .map(|k| format!("{PRINCIPAL} namespaces=\"git\" {}\n", k.key))
        .collect()
}

/// A folder only this user may read (gpg refuses a home others can).
fn create_private(path: &Path) -> Result<(), GitError> {
    let io = |source| GitError::Io {
        path: path.to_path_buf(),
        source,
    };
    fs::create_dir(path).map_err(io)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o700)).map_err(io)?;
    }
    Ok(())
}

/// Imports `blocks` into the gpg home `home` and returns the primary
/// keys' fingerprints it then holds, sorted.
fn import(
    gpg: &Path,
    home: &Path,
    blocks: &[&str],
    deadline: Instant,
) -> Result<Vec<String>, GitError> {
    if !home.exists() {
        create_private(home)?;
    }
    let file = home.join("trusted.asc");
    fs::write(&file, blocks.join("\n")).map_err(|source| GitError::Io {
        path: file.clone(),
        source,
    })?;
    let base: [&OsStr; 4] = [
        "--batch".as_ref(),
        "--no-autostart".as_ref(),
        "--homedir".as_ref(),
        home.as_os_str(),
    ];
    let gpg_run = |args: &[&OsStr]| -> Result<Output<Head>, GitError> {
        let mut all: Vec<&OsStr> = base.to_vec();
        all.extend(args);
        let out =
            run_program(gpg, &all, &[], Head::new(MAX_OBJECT), deadline).map_err(|e| match e {
                RunError::NotFound(_) => GitError::ProgramNotFound {
                    program: "gpg",
                    package: "gnupg",
                },
                other => GitError::Signature {
                    url: String::new(),
                    object: "the trust store's OpenPGP keys".to_owned(),
                    detail: format!("gpg did not finish: {other:?}"),
                },
            })?;
        if out.status.success() && !out.stdout.truncated {
            Ok(out)
        } else {
            Err(GitError::Signature {
                url: String::new(),
                object: "the trust store's OpenPGP keys".to_owned(),
                detail: format!("gpg could not read them: {}", out.stderr),
            })
        }
    };
    gpg_run(&["--quiet".as_ref(), "--import".as_ref(), file.as_os_str()])?;
    let listed = gpg_run(&["--with-colons".as_ref(), "--list-keys".as_ref()])?;
    let text = String::from_utf8_lossy(&listed.stdout.bytes);
    // `pub` then its `fpr`: the first `fpr` after each `pub` is the
    // primary key's (subkeys' come after `sub`).
    let mut found = Vec::new();
    let mut primary = false;
    for line in text.lines() {
        let fields: Vec<&str> = line.split(':').collect();
        match fields.first() {
            Some(&"pub") => primary = true,
            Some(&"fpr") if primary => {
                if let Some(fpr) = fields.get(9) {
                    found.push((*fpr).to_owned());
                }
                primary = false;
            }
            _ => {}
        }
    }
    found.sort_unstable();
    found.dedup();
    Ok(found)
}

/// `name` found in `PATH` (with `.exe` on Windows).
fn find_program(name: &'static str) -> Result<PathBuf, GitError> {
    let file = if cfg!(windows) {
        format!("{name}.exe")
    } else {
        name.to_owned()
    };
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(&file))
        .find(|path| path.is_file())
        .ok_or(GitError::ProgramNotFound {
            program: name,
            package: if name == "gpg" {
                "gnupg"
            } else {
                "openssh-client"
            },
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trust::Origin;

    fn key(kind: KeyKind, key: &str, id: &str) -> TrustedKey {
        TrustedKey {
            publisher: "acme".into(),
            kind,
            key: key.into(),
            id: id.into(),
            retired: None,
            origin: Origin::Project,
        }
    }

    const FP: &str = "SHA256:zJ6r4ceeUc7PQ7MHu8cjKILgx1eNNKpNjFZycWpioFI";
    const PGP: &str = "1F86E4068CA2C6C775D978587D1139CC94BB9C1C";

    #[test]
    fn allowed_signers_list_ssh_keys_for_git_only() {
        let ssh = key(KeyKind::Ssh, "ssh-ed25519 AAAA", FP);
        assert_eq!(
            allowed_signers(&[&&ssh]),
            "skb namespaces=\"git\" ssh-ed25519 AAAA\n"
        );
    }

    #[test]
    fn ssh_reports_are_read_fail_closed() {
        let ssh = key(KeyKind::Ssh, "ssh-ed25519 AAAA", FP);
        let keys = [&ssh];
        let good = format!("Good \"git\" signature for skb with ED25519 key {FP}\n");
        assert_eq!(read_ssh(&good, true, &keys), Ok((FP.to_owned(), true)));
        // The same words with a failed run, or for a key not in the store.
        assert!(read_ssh(&good, false, &keys).is_err());
        assert!(read_ssh(&good, true, &[]).is_err());
        let stranger =
            "Good \"git\" signature with ED25519 key SHA256:other\nNo principal matched.\n";
        assert_eq!(
            read_ssh(stranger, false, &keys),
            Ok(("SHA256:other".to_owned(), false))
        );
        // A key of the store named without a principal: something is off.
        let odd = format!("Good \"git\" signature with ED25519 key {FP}\n");
        assert!(read_ssh(&odd, false, &keys).is_err());
        let bad = "Signature verification failed: incorrect signature\n";
        assert!(
            read_ssh(bad, false, &keys)
                .expect_err("bad")
                .contains("incorrect signature")
        );
        assert!(read_ssh("", true, &keys).is_err());
    }

    #[test]
    fn gpg_reports_are_read_fail_closed() {
        let pgp = key(KeyKind::OpenPgp, "-----BEGIN PGP", PGP);
        let keys = [&pgp];
        let good = format!(
            "[GNUPG:] NEWSIG\n[GNUPG:] GOODSIG 7D1139CC94BB9C1C Pub\n\
             [GNUPG:] VALIDSIG {PGP} 2026-12-07 1796644279 0 4 0 22 8 00 {PGP}\n\
             [GNUPG:] TRUST_UNDEFINED 0 pgp\n"
        );
        assert_eq!(read_gpg(&good, true, &keys), Ok((PGP.to_owned(), true)));
        assert!(read_gpg(&good, false, &keys).is_err());
        assert!(read_gpg(&good, true, &[]).is_err());
        let twice = format!("[GNUPG:] NEWSIG\n{good}");
        assert!(
            read_gpg(&twice, true, &keys)
                .expect_err("two")
                .contains("more than one")
        );
        for (word, why) in [
            ("EXPKEYSIG", "expired OpenPGP key"),
            ("REVKEYSIG", "revoked"),
            ("BADSIG", "bad"),
            ("EXPSIG", "signature has expired"),
        ] {
            let said = format!("[GNUPG:] {word} 7D1139CC94BB9C1C Pub\n{good}");
            assert!(
                read_gpg(&said, true, &keys).expect_err(word).contains(why),
                "{word}"
            );
        }
        let unknown = format!(
            "[GNUPG:] NEWSIG\n[GNUPG:] ERRSIG 7D1139CC94BB9C1C 22 8 00 1796644279 9 {PGP}\n\
             [GNUPG:] NO_PUBKEY 7D1139CC94BB9C1C\n"
        );
        assert_eq!(read_gpg(&unknown, false, &[]), Ok((PGP.to_owned(), false)));
        let old_gpg = "[GNUPG:] ERRSIG 7D1139CC94BB9C1C 22 8 00 1796644279 9\n[GNUPG:] NO_PUBKEY 7D1139CC94BB9C1C\n";
        assert_eq!(
            read_gpg(old_gpg, false, &[]),
            Ok(("openpgp:7D1139CC94BB9C1C".to_owned(), false))
        );
        assert!(read_gpg("gpg: garbage", true, &keys).is_err());
    }

    #[test]
    fn headers_and_times() {
        let object = "object abc\ntype commit\ntag v1\ntagger A <a@b> 1700000000 +0100\n\nmsg\n-----BEGIN SSH SIGNATURE-----\n";
        let header = Header::read(object);
        assert_eq!(header.get("object"), Some("abc"));
        assert_eq!(header.get("tag"), Some("v1"));
        assert_eq!(
            header.get("tagger").and_then(signed_time),
            Some(1_700_000_000)
        );
        assert_eq!(kind_of(object), Some(KeyKind::Ssh));
        let commit = "tree t\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\ncommitter C <c> 5 +0000\n\nm\n";
        let header = Header::read(commit);
        assert_eq!(
            header.get("gpgsig").and_then(kind_of),
            Some(KeyKind::OpenPgp)
        );
        assert_eq!(header.get("committer").and_then(signed_time), Some(5));
        assert_eq!(kind_of("no signature"), None);
        assert_eq!(signed_time("A <a> x"), None);
    }
}
