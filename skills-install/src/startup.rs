//! An agent's question at start: are its skills as new as their sources
//! and trust policy allow? ([`outdated_at_start`]).
//!
//! It never holds a start up for longer than asked and never writes the
//! project. The answer comes from a cache younger than
//! [`StartCheck::max_age`] when there is one (a file per lock in the user's
//! cache folder, named by a hash of the lock's path and bytes, so a changed
//! lock is checked afresh); else [`Installer::outdated`] runs on a thread of
//! its own, waited for at most [`StartCheck::limit`]. A check that takes
//! longer goes on in the background and leaves its answer in the cache for
//! the next start; the caller gets [`StartAnswer::Pending`] with the last
//! cached answer, if any.
//!
//! The cache is advice, like the check itself: what keeps an agent from
//! running a skill that is not what its lock says is
//! `skills_bundle::installed`'s verification, which reads no cache. A cache
//! file that cannot be read, is larger than [`MAX_CACHE_BYTES`] or is not
//! what this module writes counts as no cache.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::gate::Gate;
use crate::installer::Installer;
use crate::observe::Quiet;
use crate::outdated::{OutdatedRequest, Status};
use crate::policy::PolicyFlags;
use crate::project::Project;

/// A cache file larger than this is not read.
pub const MAX_CACHE_BYTES: u64 = 1 << 20;

/// How long a start may wait and how old an answer may be.
#[derive(Debug, Clone)]
pub struct StartCheck {
    /// The longest the caller waits for a check that has to run.
    pub limit: Duration,
    /// The oldest cached answer given without checking again.
    pub max_age: Duration,
    /// The cache folder; `None` keeps no cache (every start checks).
    pub cache: Option<PathBuf>,
}

impl Default for StartCheck {
    /// Two seconds, a day, and [`default_cache_dir`].
    fn default() -> StartCheck {
        StartCheck {
            limit: Duration::from_secs(2),
            max_age: Duration::from_secs(24 * 60 * 60),
            cache: default_cache_dir(),
        }
    }
}

pub use crate::cache_dir::default_cache_dir;

/// What one check of every locked skill found, by skill name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// When it was checked, in seconds since the Unix epoch.
    pub checked_at: u64,
    /// Skills `update` would bring to a newer version.
    pub outdated: Vec<String>,
    /// Skills whose newer version the trust policy or the gate refuses.
    pub refused: Vec<String>,
    /// Skills whose source could not be read.
    pub unchecked: Vec<String>,
}

impl Summary {
    /// Whether every skill was checked and is current.
    pub fn is_current(&self) -> bool {
        self.outdated.is_empty() && self.refused.is_empty() && self.unchecked.is_empty()
    }
}

/// The answer a start gets.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StartAnswer {
    /// Checked now, within the limit (and cached).
    Checked(Summary),
    /// From the cache, younger than the maximum age.
    Cached(Summary),
    /// The check did not finish within the limit; it goes on in the
    /// background and caches its answer. The last cached answer, if any.
    Pending {
        /// The last answer cached, however old.
        last: Option<Summary>,
    },
    /// The check could not be made (no lock, an interrupted transaction);
    /// the last cached answer, if any.
    Failed {
        /// Why.
        reason: String,
        /// The last answer cached, however old.
        last: Option<Summary>,
    },
}

/// Whether `project`'s locked skills are current, as [`StartCheck`] bounds
/// it: checked with the default policy and gate (what `skb update` would
/// apply), in the user's trust store and the project's.
pub fn outdated_at_start(project: Project, check: &StartCheck) -> StartAnswer {
    let lock = match std::fs::read(&project.lock_path) {
        Ok(bytes) => bytes,
        Err(e) => {
            return StartAnswer::Failed {
                reason: format!("{}: {e}", project.lock_path.display()),
                last: None,
            };
        }
    };
    let file = check
        .cache
        .as_deref()
        .map(|dir| cache_file(dir, &project.lock_path, &lock));
    answer(check, file, move || check_now(project))
}

/// The check itself, run on the checking thread.
fn check_now(project: Project) -> Result<Summary, String> {
    static QUIET: Quiet = Quiet;
    let installer = Installer::new(project, &QUIET).map_err(|e| e.to_string())?;
    let found = installer
        .outdated(&OutdatedRequest {
            names: Vec::new(),
            flags: PolicyFlags::default(),
            gate: Gate::new(None, Vec::new()),
            profile: None,
        })
        .map_err(|e| e.to_string())?;
    let mut summary = Summary {
        checked_at: now(),
        outdated: Vec::new(),
        refused: Vec::new(),
        unchecked: Vec::new(),
    };
    for skill in found.skills {
        match skill.status {
            Status::Current => {}
            Status::Outdated { .. } => summary.outdated.push(skill.name),
            Status::Refused { .. } => summary.refused.push(skill.name),
            Status::Unchecked { .. } => summary.unchecked.push(skill.name),
        }
    }
    Ok(summary)
}

/// The answer from the cache `file` or from `run` on its own thread, bounded
/// by `check`.
fn answer(
    check: &StartCheck,
    file: Option<PathBuf>,
    run: impl FnOnce() -> Result<Summary, String> + Send + 'static,
) -> StartAnswer {
    let last = file.as_deref().and_then(read_cache);
    if let Some(cached) = &last
        && now().saturating_sub(cached.checked_at) <= check.max_age.as_secs()
    {
        return StartAnswer::Cached(cached.clone());
    }
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let result = run();
        if let (Ok(summary), Some(file)) = (&result, &file) {
            // A cache that cannot be written only means the next start
            // checks again.
            let _ = write_cache(file, summary);
        }
        // The caller may have stopped waiting; the answer is cached.
        let _ = send.send(result);
    });
    match receive.recv_timeout(check.limit) {
        Ok(Ok(summary)) => StartAnswer::Checked(summary),
        Ok(Err(reason)) => StartAnswer::Failed { reason, last },
        Err(mpsc::RecvTimeoutError::Timeout) => StartAnswer::Pending { last },
        Err(mpsc::RecvTimeoutError::Disconnected) => StartAnswer::Failed {
            reason: "the check stopped without an answer".into(),
            last,
        },
    }
}

/// The cache file of the lock at `path` holding `bytes`.
fn cache_file(dir: &Path, path: &Path, bytes: &[u8]) -> PathBuf {
    let mut keyed = path.as_os_str().as_encoded_bytes().to_vec();
    keyed.push(0);
    keyed.extend_from_slice(bytes);
    let digest = skills_core::digest::hex(&skills_core::digest::sha256(&keyed));
    dir.join(format!("outdated-{}.json", &digest[..32]))
}

fn read_cache(file: &Path) -> Option<Summary> {
    use std::io::Read as _;
    let f = std::fs::File::open(file).ok()?;
    if f.metadata().ok()?.len() > MAX_CACHE_BYTES {
        return None;
    }
    let mut bytes = Vec::new();
    f.take(MAX_CACHE_BYTES + 1).read_to_end(&mut bytes).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Writes `summary` to `file` whole or not at all (a temporary file renamed
/// over it).
fn write_cache(file: &Path, summary: &Summary) -> std::io::Result<()> {
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    serde_json::to_writer(&mut tmp, summary)?;
    tmp.persist(file).map_err(|e| e.error)?;
    Ok(())
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(outdated: &[&str], checked_at: u64) -> Summary {
        Summary {
            checked_at,
            outdated: outdated.iter().map(|s| (*s).to_string()).collect(),
            refused: Vec::new(),
            unchecked: Vec::new(),
        }
    }

    fn check(dir: &Path, limit: Duration, max_age: Duration) -> StartCheck {
        StartCheck {
            limit,
            max_age,
            cache: Some(dir.to_path_buf()),
        }
    }

    #[test]
    fn a_fresh_check_is_cached_and_a_young_cache_answers_without_checking() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = cache_file(dir.path(), Path::new("/p/skb.lock"), b"lock");
        let long = check(
            dir.path(),
            Duration::from_secs(60),
            Duration::from_secs(3600),
        );
        let got = answer(&long, Some(file.clone()), || Ok(summary(&["pdf"], now())));
        let StartAnswer::Checked(first) = got else {
            panic!("{got:?}")
        };
        assert_eq!(first.outdated, ["pdf"]);
        // The thread wrote the cache before it answered.
        assert_eq!(read_cache(&file), Some(first.clone()));
        let got = answer(&long, Some(file.clone()), || {
            Err("must not run: the cache is young".into())
        });
        assert_eq!(got, StartAnswer::Cached(first));
        // Too old: checked again.
        let strict = check(dir.path(), Duration::from_secs(60), Duration::ZERO);
        write_cache(&file, &summary(&["pdf"], now() - 10)).expect("write");
        let got = answer(&strict, Some(file), || Ok(summary(&[], now())));
        assert!(matches!(got, StartAnswer::Checked(s) if s.is_current()));
    }

    #[test]
    fn a_check_past_the_limit_leaves_the_start_and_caches_its_answer_later() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = cache_file(dir.path(), Path::new("/p/skb.lock"), b"lock");
        let old = summary(&["old"], 1);
        write_cache(&file, &old).expect("write");
        let (release, hold) = mpsc::channel::<()>();
        let (finished, done) = mpsc::channel::<()>();
        let short = check(
            dir.path(),
            Duration::from_millis(10),
            Duration::from_secs(60),
        );
        let got = answer(&short, Some(file.clone()), move || {
            // Blocks until the test lets it go: the start cannot wait.
            let _ = hold.recv();
            let s = summary(&["new"], now());
            let _ = finished.send(());
            Ok(s)
        });
        assert_eq!(got, StartAnswer::Pending { last: Some(old) });
        release.send(()).expect("release");
        done.recv().expect("finished");
        // The background check's answer reaches the cache (written before
        // it reports; wait for the file to change).
        let mut cached = read_cache(&file);
        for _ in 0..500 {
            if cached.as_ref().is_some_and(|s| s.outdated == ["new"]) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
            cached = read_cache(&file);
        }
        assert_eq!(cached.map(|s| s.outdated), Some(vec!["new".to_string()]));
    }

    #[test]
    fn a_failed_check_says_why_and_a_bad_cache_is_no_cache() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("outdated-x.json");
        std::fs::write(&file, b"{not json").expect("write");
        let c = check(dir.path(), Duration::from_secs(60), Duration::from_secs(60));
        let got = answer(&c, Some(file.clone()), || Err("no lock".into()));
        assert_eq!(
            got,
            StartAnswer::Failed {
                reason: "no lock".into(),
                last: None
            }
        );
        std::fs::write(&file, vec![b' '; (MAX_CACHE_BYTES + 1) as usize]).expect("write");
        assert_eq!(read_cache(&file), None);
        // Each lock its own file, a changed lock another.
        let a = cache_file(dir.path(), Path::new("/p/skb.lock"), b"one");
        assert_ne!(a, cache_file(dir.path(), Path::new("/p/skb.lock"), b"two"));
        assert_ne!(a, cache_file(dir.path(), Path::new("/q/skb.lock"), b"one"));
    }

    #[test]
    fn a_project_whose_source_moved_on_is_outdated_at_start() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let src = tmp.path().join("src");
        let write = |body: &str| {
            std::fs::create_dir_all(src.join("pdf")).expect("mkdir");
            std::fs::write(
                src.join("pdf/SKILL.md"),
                format!("---\nname: pdf\ndescription: Reads PDFs. Use it for PDFs.\n---\n{body}\n"),
            )
            .expect("write");
        };
        write("One.");
        let root = tmp.path().join("p");
        std::fs::create_dir_all(&root).expect("mkdir");
        let add = |root: &Path| {
            let installer = Installer::new(Project::at(root), &Quiet).expect("installer");
            let mut request = crate::AddRequest::new(src.to_str().expect("utf-8"));
            request.clients = vec![crate::targets::parse_target("claude-code").expect("target")];
            installer.add(&request).expect("add");
        };
        add(&root);
        let cache = tmp.path().join("cache");
        let c = check(&cache, Duration::from_secs(120), Duration::from_secs(3600));
        let got = outdated_at_start(Project::at(&root), &c);
        assert!(
            matches!(&got, StartAnswer::Checked(s) if s.is_current()),
            "{got:?}"
        );
        let lock_before = std::fs::read(root.join("skb.lock")).expect("lock");
        write("Two.");
        // The lock did not change, so the young cache answers...
        assert!(matches!(
            outdated_at_start(Project::at(&root), &c),
            StartAnswer::Cached(_)
        ));
        // ...and with no cache the source is read again.
        let fresh = StartCheck { cache: None, ..c };
        let got = outdated_at_start(Project::at(&root), &fresh);
        assert!(
            matches!(&got, StartAnswer::Checked(s) if s.outdated == ["pdf"]),
            "{got:?}"
        );
        assert_eq!(
            std::fs::read(root.join("skb.lock")).expect("lock"),
            lock_before
        );
        let none = outdated_at_start(Project::at(&tmp.path().join("nowhere")), &fresh);
        assert!(
            matches!(none, StartAnswer::Failed { last: None, .. }),
            "{none:?}"
        );
    }
}
