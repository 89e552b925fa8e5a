//! `skills_supply::git` with a commit cache ([`GitOptions::cache`]): a
//! commit fetched once is checked out again with the server gone; a
//! subpath fetches only its own blobs from a server that filters, and
//! everything from one that does not; a cache whose objects were changed is
//! thrown away and fetched again; checkouts running at once share it.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use skills_supply::git::{self, GitError, GitOptions};

use crate::git_server::{GitDaemon, Repo, git};

fn cached(cache: &Path) -> GitOptions {
    GitOptions {
        cache: Some(cache.to_path_buf()),
        ..GitOptions::default()
    }
}

fn read(root: &Path, rel: &str) -> String {
    fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The one repository the cache holds.
fn cache_repo(cache: &Path) -> PathBuf {
    let repos: Vec<PathBuf> = fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "git"))
        .collect();
    assert_eq!(repos.len(), 1, "{repos:?}");
    repos.into_iter().next().unwrap()
}

/// The objects of `commit` the cache's repository lacks.
fn missing(repo: &Path, commit: &str) -> Vec<String> {
    let out = Command::new("git")
        .arg(format!("--git-dir={}", repo.display()))
        .args(["rev-list", "--objects", "--missing=print", commit])
        .env("GIT_NO_LAZY_FETCH", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix('?').map(str::to_owned))
        .collect()
}

/// Takes the served repository away: the server answers that it has no
/// such repository, which shows the checkout never asked it.
fn gone(repo: &Repo) {
    let mut away = repo.dir.clone().into_os_string();
    away.push(".gone");
    fs::rename(&repo.dir, away).unwrap();
}

/// A blob's id at `path` of `commit` in the served repository.
fn blob(repo: &Repo, commit: &str, path: &str) -> String {
    git(&repo.dir, &["rev-parse", &format!("{commit}:{path}")])
}

#[test]
fn a_cached_commit_checks_out_with_the_server_gone() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    let cache = tmp.path().join("cache");
    let daemon = GitDaemon::start(tmp.path());
    let url = daemon.url("repo");
    let opts = cached(&cache);
    git::checkout(&url, &repo.first, None, &tmp.path().join("a"), &opts).unwrap();
    git::checkout(
        &url,
        &repo.second,
        Some("skills/alpha"),
        &tmp.path().join("b"),
        &opts,
    )
    .unwrap();
    gone(&repo);
    // The same commits, whole or in part, from the cache alone.
    for (commit, subpath, dest, file, text) in [
        (&repo.first, None, "c", "skills/alpha/SKILL.md", "alpha 1\n"),
        (
            &repo.first,
            Some("skills/beta"),
            "d",
            "skills/beta/SKILL.md",
            "beta\n",
        ),
        (
            &repo.second,
            Some("skills/alpha"),
            "e",
            "skills/alpha/SKILL.md",
            "alpha 2\n",
        ),
    ] {
        let dest = tmp.path().join(dest);
        git::checkout(&url, commit, subpath, &dest, &opts).unwrap();
        assert_eq!(read(&dest, file), text);
        assert!(!dest.join(".git").exists());
    }
    // A commit the cache does not hold needs the server.
    let err = git::checkout(&url, &repo.dev, None, &tmp.path().join("f"), &opts).unwrap_err();
    assert!(matches!(err, GitError::Unreachable { .. }), "{err}");
    // Another spelling of the URL is the same repository.
    let other = format!("{}.git/", url.replace("git://", "GIT://"));
    git::checkout(&other, &repo.first, None, &tmp.path().join("g"), &opts).unwrap();
    // Without the cache, the server is needed again.
    let err = git::checkout(
        &url,
        &repo.first,
        None,
        &tmp.path().join("h"),
        &GitOptions::default(),
    );
    assert!(err.is_err());
}

#[test]
fn a_subpath_fetches_only_its_own_blobs_where_the_server_filters() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    git(&repo.dir, &["config", "uploadpack.allowFilter", "true"]);
    let cache = tmp.path().join("cache");
    let daemon = GitDaemon::start(tmp.path());
    let url = daemon.url("repo");
    let opts = cached(&cache);
    let dest = tmp.path().join("a");
    git::checkout(&url, &repo.second, Some("skills/alpha"), &dest, &opts).unwrap();
    assert_eq!(read(&dest, "skills/alpha/SKILL.md"), "alpha 2\n");
    let store = cache_repo(&cache);
    let alpha = blob(&repo, &repo.second, "skills/alpha/SKILL.md");
    let beta = blob(&repo, &repo.second, "skills/beta/SKILL.md");
    let readme = blob(&repo, &repo.second, "README.md");
    let lacking = missing(&store, &repo.second);
    assert!(!lacking.contains(&alpha), "{lacking:?}");
    assert!(
        lacking.contains(&beta) && lacking.contains(&readme),
        "{lacking:?}"
    );
    // Another subpath of the same commit: its blobs are fetched then; the
    // whole tree, the rest.
    let dest = tmp.path().join("b");
    git::checkout(&url, &repo.second, Some("skills/beta"), &dest, &opts).unwrap();
    assert_eq!(read(&dest, "skills/beta/SKILL.md"), "beta\n");
    assert_eq!(missing(&store, &repo.second), [readme]);
    let dest = tmp.path().join("c");
    git::checkout(&url, &repo.second, None, &dest, &opts).unwrap();
    assert_eq!(read(&dest, "README.md"), "a repository of skills\n");
    assert_eq!(missing(&store, &repo.second), Vec::<String>::new());
}

#[test]
fn a_server_that_does_not_filter_sends_everything_and_that_works() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    git(&repo.dir, &["config", "uploadpack.allowFilter", "false"]);
    let cache = tmp.path().join("cache");
    let daemon = GitDaemon::start(tmp.path());
    let url = daemon.url("repo");
    let dest = tmp.path().join("a");
    git::checkout(
        &url,
        &repo.second,
        Some("skills/alpha"),
        &dest,
        &cached(&cache),
    )
    .unwrap();
    assert_eq!(read(&dest, "skills/alpha/SKILL.md"), "alpha 2\n");
    assert!(!dest.join("skills/beta").exists());
    assert_eq!(
        missing(&cache_repo(&cache), &repo.second),
        Vec::<String>::new()
    );
    // And without a cache, into the throwaway repository.
    let dest = tmp.path().join("b");
    git::checkout(
        &url,
        &repo.second,
        Some("skills/beta"),
        &dest,
        &GitOptions::default(),
    )
    .unwrap();
    assert_eq!(read(&dest, "skills/beta/SKILL.md"), "beta\n");
}

/// Attack: someone changes an object in the cache (a byte of a pack), so
/// that a checkout from it would write other bytes than the commit holds.
/// Every object of a cached commit is hashed again before it is used: the
/// changed one does not match its id, and the repository is thrown away
/// and fetched again, or, with the server gone, nothing is checked out.
#[test]
fn a_changed_object_in_the_cache_is_not_used() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    let cache = tmp.path().join("cache");
    let daemon = GitDaemon::start(tmp.path());
    let url = daemon.url("repo");
    let opts = cached(&cache);
    git::checkout(&url, &repo.second, None, &tmp.path().join("a"), &opts).unwrap();
    let store = cache_repo(&cache);
    let change = || {
        let packs = store.join("objects/pack");
        for entry in fs::read_dir(&packs).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pack") {
                let mut bytes = fs::read(&path).unwrap();
                // Past the 12-byte header, inside the first object's data.
                let at = bytes.len() / 2;
                bytes[at] ^= 0x40;
                let mut perms = fs::metadata(&path).unwrap().permissions();
                #[allow(clippy::permissions_set_readonly_false)]
                perms.set_readonly(false);
                fs::set_permissions(&path, perms).unwrap();
                fs::write(&path, bytes).unwrap();
            }
        }
    };
    change();
    let dest = tmp.path().join("b");
    git::checkout(&url, &repo.second, None, &dest, &opts).unwrap();
    assert_eq!(read(&dest, "skills/alpha/SKILL.md"), "alpha 2\n");
    assert_eq!(read(&dest, "skills/beta/SKILL.md"), "beta\n");
    assert_eq!(read(&dest, "README.md"), "a repository of skills\n");
    // Fetched again: the repository is whole.
    let out = Command::new("git")
        .arg(format!("--git-dir={}", store.display()))
        .args(["fsck", "--no-dangling"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    gone(&repo);
    change();
    let dest = tmp.path().join("c");
    let err = git::checkout(&url, &repo.second, None, &dest, &opts).unwrap_err();
    assert!(matches!(err, GitError::Unreachable { .. }), "{err}");
    assert!(fs::read_dir(&dest).map_or(true, |mut d| d.next().is_none()));
}

#[test]
fn checkouts_at_once_share_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    git(&repo.dir, &["config", "uploadpack.allowFilter", "true"]);
    let cache = tmp.path().join("cache");
    let daemon = GitDaemon::start(tmp.path());
    let url = daemon.url("repo");
    let runs: Vec<_> = (0..6)
        .map(|i| {
            let (url, opts) = (url.clone(), cached(&cache));
            let dest = tmp.path().join(format!("out{i}"));
            let (commit, subpath) = match i % 3 {
                0 => (repo.second.clone(), None),
                1 => (repo.second.clone(), Some("skills/beta")),
                _ => (repo.first.clone(), Some("skills/alpha")),
            };
            std::thread::spawn(move || {
                git::checkout(&url, &commit, subpath, &dest, &opts).map(|()| dest)
            })
        })
        .collect();
    for (i, run) in runs.into_iter().enumerate() {
        let dest = run.join().unwrap().unwrap_or_else(|e| panic!("{i}: {e}"));
        let (file, text) = match i % 3 {
            0 => ("README.md", "a repository of skills\n"),
            1 => ("skills/beta/SKILL.md", "beta\n"),
            _ => ("skills/alpha/SKILL.md", "alpha 1\n"),
        };
        assert_eq!(read(&dest, file), text);
    }
    let out = Command::new("git")
        .arg(format!("--git-dir={}", cache_repo(&cache).display()))
        .args(["fsck", "--no-dangling", "--connectivity-only"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A whole tree checked out of a cache that holds an older commit fetched
/// for a subpath alone: the server, told the cache has that commit, leaves
/// out the blobs both share, which the cache never got; they are fetched.
#[test]
fn a_whole_tree_after_a_subpath_of_an_older_commit() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    git(&repo.dir, &["config", "uploadpack.allowFilter", "true"]);
    let cache = tmp.path().join("cache");
    let daemon = GitDaemon::start(tmp.path());
    let url = daemon.url("repo");
    let alpha = tmp.path().join("alpha");
    git::checkout(
        &url,
        &repo.first,
        Some("skills/alpha"),
        &alpha,
        &cached(&cache),
    )
    .unwrap();
    assert_eq!(read(&alpha, "skills/alpha/SKILL.md"), "alpha 1\n");
    let whole = tmp.path().join("whole");
    git::checkout(&url, &repo.second, None, &whole, &cached(&cache)).unwrap();
    assert_eq!(read(&whole, "README.md"), "a repository of skills\n");
    assert_eq!(read(&whole, "skills/beta/SKILL.md"), "beta\n");
}
