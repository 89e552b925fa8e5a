//! `skills_supply::git` against real repositories made with the `git`
//! program, read over `file://`, `git daemon` on 127.0.0.1 and a static
//! HTTP server.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use skills_supply::git::{self, GitError, GitLimit, GitLimits, GitOptions, GitSpec};

use crate::git_server::{
    GitDaemon, Repo, StaticHttp, commit, git, hostile_commit, non_loopback_address,
};
use crate::http_server::{Server, redirect};

fn spec(s: &str) -> GitSpec {
    GitSpec::parse(s).unwrap_or_else(|e| panic!("{e}"))
}

fn opts() -> GitOptions {
    GitOptions::default()
}

fn read(root: &Path, rel: &str) -> String {
    fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn is_empty_dir(dir: &Path) -> bool {
    fs::read_dir(dir)
        .map(|mut d| d.next().is_none())
        .unwrap_or(false)
}

#[test]
fn file_url_fetches_the_default_branch_without_git_metadata() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    let dest = tmp.path().join("out");
    let commit = git::fetch(&spec(&repo.file_url()), &dest, &opts()).unwrap();
    assert_eq!(commit, repo.second);
    assert_eq!(read(&dest, "skills/alpha/SKILL.md"), "alpha 2\n");
    assert_eq!(read(&dest, "skills/beta/SKILL.md"), "beta\n");
    assert!(!dest.join(".git").exists());
    assert!(!dest.join("skills/gamma").exists());
}

#[test]
fn daemon_resolves_branches_tags_and_commits() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    let daemon = GitDaemon::start(tmp.path());
    let url = daemon.url("repo");
    let resolve = |r: &str| git::resolve(&spec(&format!("{url}#{r}")), &opts());
    assert_eq!(git::resolve(&spec(&url), &opts()).unwrap(), repo.second);
    assert_eq!(resolve("main").unwrap(), repo.second);
    assert_eq!(resolve("dev").unwrap(), repo.dev);
    assert_eq!(resolve("refs/heads/dev").unwrap(), repo.dev);
    // An annotated tag resolves to its commit, not to the tag object.
    assert_eq!(resolve("v1").unwrap(), repo.first);
    assert_eq!(resolve("light").unwrap(), repo.first);
    assert_eq!(resolve(&repo.dev.to_uppercase()).unwrap(), repo.dev);

    let dest = tmp.path().join("v1");
    let got = git::fetch(&spec(&format!("{url}#v1:skills/alpha")), &dest, &opts()).unwrap();
    assert_eq!(got, repo.first);
    assert_eq!(read(&dest, "skills/alpha/SKILL.md"), "alpha 1\n");
    let dest = tmp.path().join("dev");
    git::fetch(&spec(&format!("{url}#dev")), &dest, &opts()).unwrap();
    assert_eq!(read(&dest, "skills/gamma/SKILL.md"), "gamma\n");
}

#[test]
fn a_missing_ref_is_named_and_leaves_dest_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    Repo::create(&tmp.path().join("repo"));
    let daemon = GitDaemon::start(tmp.path());
    let dest = tmp.path().join("out");
    fs::create_dir(&dest).unwrap();
    let err = git::fetch(&spec(&daemon.url("repo#no-such-ref")), &dest, &opts()).unwrap_err();
    let GitError::RefNotFound {
        reference,
        available,
        ..
    } = &err
    else {
        panic!("not RefNotFound: {err}");
    };
    assert_eq!(reference, "no-such-ref");
    assert_eq!(
        available.as_deref(),
        Some(&["dev", "main", "light", "v1"].map(String::from)[..])
    );
    let message = err.to_string();
    assert!(message.contains("`no-such-ref`"), "{message}");
    assert!(message.contains(&daemon.url("repo")), "{message}");
    assert!(is_empty_dir(&dest));

    let absent = tmp.path().join("absent");
    let err = git::fetch(&spec(&daemon.url("repo#nope")), &absent, &opts()).unwrap_err();
    assert!(matches!(err, GitError::RefNotFound { .. }), "{err}");
    assert!(!absent.exists());
}

#[test]
fn a_missing_repository_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let daemon = GitDaemon::start(tmp.path());
    let url = daemon.url("nope.git");
    let err = git::resolve(&spec(&url), &opts()).unwrap_err();
    assert!(matches!(err, GitError::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains(&url), "{err}");

    let missing = format!("file://{}/nope", tmp.path().display());
    let err = git::resolve(&spec(&missing), &opts()).unwrap_err();
    assert!(matches!(err, GitError::Unreachable { .. }), "{err}");
    let message = err.to_string();
    assert!(message.contains(&missing), "{message}");
    assert!(
        message.contains("does not appear to be a git repository"),
        "{message}"
    );

    let dest = tmp.path().join("out");
    let err = git::checkout(&url, &"a".repeat(40), None, &dest, &opts()).unwrap_err();
    assert!(matches!(err, GitError::Unreachable { .. }), "{err}");
    assert!(!dest.exists());
}

#[test]
fn an_older_commit_checks_out_after_the_branch_moved() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    let daemon = GitDaemon::start(tmp.path());
    let source = spec(&daemon.url("repo#main"));
    let locked = git::resolve(&source, &opts()).unwrap();
    let moved = commit(&repo.dir, "skills/alpha/SKILL.md", "alpha 3\n");
    assert_eq!(git::resolve(&source, &opts()).unwrap(), moved);

    for url in [source.url.clone(), repo.file_url()] {
        let dest = tempfile::tempdir().unwrap();
        git::checkout(&url, &locked, None, dest.path(), &opts()).unwrap();
        assert_eq!(
            read(dest.path(), "skills/alpha/SKILL.md"),
            "alpha 2\n",
            "{url}"
        );
        assert!(!dest.path().join(".git").exists());
    }
    // Any older commit of the history, too.
    let dest = tmp.path().join("first");
    git::checkout(&source.url, &repo.first, None, &dest, &opts()).unwrap();
    assert_eq!(read(&dest, "skills/alpha/SKILL.md"), "alpha 1\n");
}

#[test]
fn a_commit_the_repository_lacks_is_named_and_leaves_dest_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    let daemon = GitDaemon::start(tmp.path());
    let absent = "0123456789abcdef0123456789abcdef01234567";
    for url in [daemon.url("repo"), repo.file_url()] {
        let dest = tempfile::tempdir().unwrap();
        let err = git::checkout(&url, absent, None, dest.path(), &opts()).unwrap_err();
        assert!(
            matches!(err, GitError::CommitNotFound { .. }),
            "{url}: {err}"
        );
        assert!(err.to_string().contains(absent), "{err}");
        assert!(is_empty_dir(dest.path()), "{url}");
    }
    // Given as the ref, a full commit id is not looked up by resolve;
    // fetch then fails on it the same way.
    let err = git::fetch(
        &spec(&format!("{}#{absent}", daemon.url("repo"))),
        &tmp.path().join("x"),
        &opts(),
    )
    .unwrap_err();
    assert!(matches!(err, GitError::CommitNotFound { .. }), "{err}");
}

#[test]
fn dumb_http_falls_back_to_fetching_branches_and_tags() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    let http = StaticHttp::start(tmp.path());
    let url = http.url("repo/.git");
    assert_eq!(git::resolve(&spec(&url), &opts()).unwrap(), repo.second);
    let dest = tmp.path().join("out");
    let got = git::fetch(&spec(&format!("{url}#v1")), &dest, &opts()).unwrap();
    assert_eq!(got, repo.first);
    assert_eq!(read(&dest, "skills/alpha/SKILL.md"), "alpha 1\n");
    assert!(!dest.join(".git").exists());
}

#[test]
fn a_silent_server_is_stopped_at_the_timeout() {
    // Connections complete in the backlog and are never answered.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let opts = GitOptions {
        timeout: Duration::from_secs(1),
        ..GitOptions::default()
    };
    let source = spec(&format!("git://127.0.0.1:{port}/r.git#main"));
    let err = git::resolve(&source, &opts).unwrap_err();
    assert!(
        matches!(
            err,
            GitError::Timeout {
                step: "ls-remote",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("`main`"), "{err}");
    let tmp = tempfile::tempdir().unwrap();
    let err = git::checkout(&source.url, &"b".repeat(40), None, tmp.path(), &opts).unwrap_err();
    assert!(matches!(err, GitError::Timeout { .. }), "{err}");
    assert!(is_empty_dir(tmp.path()));
    drop(listener);
}

#[test]
fn a_sha256_repository_resolves_and_checks_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("repo");
    fs::create_dir(&dir).unwrap();
    git(&dir, &["init", "--quiet", "--object-format=sha256"]);
    let head = commit(&dir, "skills/x/SKILL.md", "x\n");
    assert_eq!(head.len(), 64);
    let source = spec(&format!("file://{}", dir.display()));
    let dest = tmp.path().join("out");
    assert_eq!(git::fetch(&source, &dest, &opts()).unwrap(), head);
    assert_eq!(read(&dest, "skills/x/SKILL.md"), "x\n");
}

#[test]
fn subpaths_must_be_folders_inside_the_checkout() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("../..", repo.dir.join("skills/up")).unwrap();
        std::os::unix::fs::symlink("alpha", repo.dir.join("skills/inside")).unwrap();
        std::os::unix::fs::symlink("nothing", repo.dir.join("skills/broken")).unwrap();
        commit(&repo.dir, "skills/README.md", "links\n");
    }
    let dest = tmp.path().join("out");
    git::fetch(&spec(&repo.file_url()), &dest, &opts()).unwrap();
    let at = |sub: &str| git::subpath_dir(&dest, &spec(&format!("{}#:{sub}", repo.file_url())));
    assert_eq!(
        at("skills/alpha").unwrap(),
        dest.join("skills").join("alpha")
    );
    assert_eq!(
        git::subpath_dir(&dest, &spec(&repo.file_url())).unwrap(),
        dest
    );
    let reason = |sub: &str| match at(sub) {
        Err(GitError::SubpathNotFound { reason, .. }) => reason,
        other => panic!("{sub}: {other:?}"),
    };
    assert_eq!(reason("skills/omega"), "is not in the repository");
    assert_eq!(reason("README.md"), "is a file, not a folder, in");
    #[cfg(unix)]
    {
        // Links are checked out as links; the subpath may not leave through one.
        assert!(
            fs::symlink_metadata(dest.join("skills/up"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            reason("skills/up"),
            "leaves the repository through a symbolic link in"
        );
        assert_eq!(
            reason("skills/up/etc"),
            "leaves the repository through a symbolic link in"
        );
        assert_eq!(reason("skills/broken"), "is a broken symbolic link in");
        assert_eq!(
            at("skills/inside").unwrap(),
            dest.join("skills").join("inside")
        );
    }
    let message = at("skills/omega").unwrap_err().to_string();
    assert!(
        message.contains("`skills/omega`") && message.contains(&repo.file_url()),
        "{message}"
    );
}

#[test]
fn refusals_before_git_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("out");
    let marker = tmp.path().join("pwned");
    let injected = format!("--upload-pack=touch {}", marker.display());
    let err = git::checkout(&injected, &"a".repeat(40), None, &dest, &opts()).unwrap_err();
    assert!(matches!(err, GitError::BadSpec { .. }), "{err}");
    let err = git::checkout(
        "ext::sh -c touch% /tmp/x",
        &"a".repeat(40),
        None,
        &dest,
        &opts(),
    )
    .unwrap_err();
    assert!(matches!(err, GitError::BadSpec { .. }), "{err}");
    let err = git::checkout("file:///x", "main", None, &dest, &opts()).unwrap_err();
    assert!(matches!(err, GitError::BadSpec { .. }), "{err}");
    let bad_ref = GitSpec {
        url: "file:///x".into(),
        reference: Some("--output=/tmp/x".into()),
        subpath: None,
    };
    let err = git::resolve(&bad_ref, &opts()).unwrap_err();
    assert!(matches!(err, GitError::BadSpec { .. }), "{err}");
    assert!(!marker.exists() && !dest.exists());

    fs::create_dir(&dest).unwrap();
    fs::write(dest.join("keep"), "mine").unwrap();
    let err = git::checkout("file:///x", &"a".repeat(40), None, &dest, &opts()).unwrap_err();
    assert!(matches!(err, GitError::Dest { .. }), "{err}");
    assert_eq!(read(&dest, "keep"), "mine");
}

#[test]
fn a_missing_git_program_says_what_to_install() {
    let tmp = tempfile::tempdir().unwrap();
    let opts = GitOptions {
        git: tmp.path().join("no-git-here"),
        ..GitOptions::default()
    };
    let err = git::resolve(&spec("o/r"), &opts).unwrap_err();
    assert!(matches!(err, GitError::GitNotFound { .. }), "{err}");
    assert!(err.to_string().contains("install git"), "{err}");
    let dest = tmp.path().join("out");
    let err = git::checkout("file:///x", &"a".repeat(40), None, &dest, &opts).unwrap_err();
    assert!(matches!(err, GitError::GitNotFound { .. }), "{err}");
    assert!(!dest.exists());
}

#[test]
fn a_tree_that_writes_into_git_metadata_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().join("hook-ran");
    // `.GIT` is `.git` on case-insensitive file systems: refused everywhere.
    for top in [".git", ".GIT", "GIT~1"] {
        let repo = Repo::create(&tmp.path().join(format!("repo{top}")));
        let hostile = hostile_commit(&repo.dir, top, &marker);
        let source = spec(&repo.file_url());
        assert_eq!(git::resolve(&source, &opts()).unwrap(), hostile);
        let dest = tempfile::tempdir().unwrap();
        let err = git::fetch(&source, dest.path(), &opts()).unwrap_err();
        // Refused as it arrives (git's object checks, `hasDotgit`), or, by
        // a git whose checks miss a spelling, when the index is read.
        assert!(
            matches!(
                &err,
                GitError::Failed {
                    step: "read-tree",
                    ..
                }
            ) || matches!(
                &err,
                GitError::Failed { step: "fetch", detail, .. } if detail.contains("hasDotgit")
            ),
            "{top}: {err}"
        );
        assert!(is_empty_dir(dest.path()), "{top}");
    }
    assert!(!marker.exists(), "a hook from the repository ran");
}

/// Every git run, seen through a wrapper that logs it and runs git: the
/// settings that keep prompts, hooks and helpers out, and `--` before the
/// URL wherever one is given.
#[cfg(unix)]
#[test]
fn every_run_is_non_interactive_and_ends_options_before_the_url() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    let log = tmp.path().join("runs.log");
    let wrapper = tmp.path().join("git-wrapper");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nprintf 'prompt=%s nosystem=%s allow=%s args=%s\\n' \
             \"$GIT_TERMINAL_PROMPT\" \"$GIT_CONFIG_NOSYSTEM\" \"$GIT_ALLOW_PROTOCOL\" \"$*\" >> '{}'\n\
             exec git \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
    let opts = GitOptions {
        git: wrapper,
        ..GitOptions::default()
    };
    let url = repo.file_url();
    let dest = tmp.path().join("out");
    git::fetch(&spec(&format!("{url}#v1")), &dest, &opts).unwrap();
    let runs = fs::read_to_string(&log).unwrap();
    let runs: Vec<&str> = runs.lines().collect();
    // ls-remote, init, fetch, ls-tree, read-tree, checkout-index.
    assert_eq!(runs.len(), 6, "{runs:#?}");
    for run in &runs {
        // No plain-text transport for a `file://` source, even through
        // the user's `insteadOf`.
        assert!(
            run.starts_with("prompt=0 nosystem=1 allow=file:https:ssh args="),
            "{run}"
        );
        for setting in [
            "-c core.hooksPath=/dev/null",
            "-c protocol.ext.allow=never",
            "-c core.fsmonitor=false",
            "-c advice.detachedHead=false",
            "-c http.followRedirects=false",
        ] {
            assert!(run.contains(setting), "{setting} missing: {run}");
        }
        // The URL after `--`, or (a fetch) as the value of a setting, with
        // the remote's name after `--`: never where git reads an option.
        if run.contains(&url) {
            assert!(
                run.contains(&format!(" -- {url}"))
                    || (run.contains(&format!("-c remote.origin.url={url} "))
                        && run.contains(" -- origin")),
                "{run}"
            );
        }
    }
    assert_eq!(runs.iter().filter(|r| r.contains(&url)).count(), 2);
}

/// Attack: a source (or a lock) names `http://` or `git://` on a host
/// that is not loopback, and git fetches it in plain text although the
/// guide says plain text is for loopback only. Here the host is this
/// machine's own address on its network interface, so that the server
/// can answer when the refusal is missing.
#[test]
fn plain_text_git_to_a_non_loopback_host_is_refused() {
    let ip = non_loopback_address();
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    git(&repo.dir, &["update-server-info"]);
    let daemon = GitDaemon::start_on(tmp.path(), ip);
    let http = StaticHttp::start_on(tmp.path(), ip);
    for url in [daemon.url("repo"), http.url("repo/.git")] {
        let err = git::resolve(&spec(&url), &opts()).unwrap_err();
        assert!(matches!(err, GitError::Insecure { .. }), "{url}: {err}");
        let message = err.to_string();
        assert!(
            message.contains(&url) && message.contains("loopback"),
            "{message}"
        );
        let dest = tmp.path().join("out");
        let err = git::checkout(&url, &repo.second, None, &dest, &opts()).unwrap_err();
        assert!(matches!(err, GitError::Insecure { .. }), "{url}: {err}");
        assert!(!dest.exists());

        // Said explicitly, the same URL is used.
        let allowed = GitOptions {
            allow_plain_text: true,
            ..opts()
        };
        assert_eq!(
            git::resolve(&spec(&url), &allowed).unwrap(),
            repo.second,
            "{url}"
        );
    }
}

/// Attack: the server a source names redirects git elsewhere (git follows
/// the first request's redirects by default, and with `http` allowed, to
/// plain text), so what is fetched is not what the source, and a pin on
/// it, names. No redirect is followed: the URL fetched is the URL given.
#[test]
fn a_git_server_redirect_is_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    git(&repo.dir, &["update-server-info"]);
    let real = StaticHttp::start(tmp.path());
    assert_eq!(
        git::resolve(&spec(&real.url("repo/.git")), &opts()).unwrap(),
        repo.second
    );
    let elsewhere = real.url("");
    let redirector = Server::start(move |_, path, stream| {
        redirect(
            stream,
            &format!("{}{}", elsewhere, path.trim_start_matches('/')),
        );
    });
    let url = redirector.url("/repo/.git");
    let err = git::resolve(&spec(&url), &opts()).unwrap_err();
    assert!(matches!(err, GitError::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains("redirect"), "{err}");
}

/// A repository whose `main` holds `small/SKILL.md`, `big/SKILL.md` and
/// `big/zeros.bin` (`zeros` bytes of zeros: a few KiB packed).
fn repo_with_zeros(dir: &Path, zeros: usize) -> String {
    fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "--quiet"]);
    fs::create_dir_all(dir.join("big")).unwrap();
    fs::write(dir.join("big/zeros.bin"), vec![0u8; zeros]).unwrap();
    commit(dir, "big/SKILL.md", "big\n");
    commit(dir, "small/SKILL.md", "small\n")
}

/// The size of everything under `dir`, links not followed.
fn disk_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let meta = fs::symlink_metadata(entry.path()).unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                total += meta.len();
            }
        }
    }
    total
}

/// A git wrapper that logs the git command (the first word that is not
/// an option or a `-c` setting) of every run to `log`, then runs git.
#[cfg(unix)]
fn logging_git(dir: &Path, log: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let wrapper = dir.join("git-logging");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nskip=\nfor a in \"$@\"; do\n  if [ -n \"$skip\" ]; then skip=; continue; fi\n  \
             case \"$a\" in -c) skip=1;; -*) ;; *) echo \"$a\" >> '{}'; break;; esac\ndone\n\
             exec git \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
    wrapper
}

/// Attack: a small repository whose tree holds a highly compressible blob
/// (484 KiB on the wire became 4 GiB on disk): `git checkout` wrote the
/// whole tree before any bound. The tree's sizes are read first and the
/// checkout refused, naming the limit and the repository, before git
/// writes a file. The limit is made small here (1 MiB, a 2 MiB blob) to
/// keep the test's disk use small; the defaults are the zip reader's.
#[cfg(unix)]
#[test]
fn a_compressible_blob_is_refused_before_checkout_writes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let head = repo_with_zeros(&repo, 2 << 20);
    let url = format!("file://{}", repo.display());
    let log = tmp.path().join("runs.log");
    let small = GitOptions {
        git: logging_git(tmp.path(), &log),
        limits: GitLimits {
            max_file_bytes: 1 << 20,
            ..GitLimits::default()
        },
        ..opts()
    };
    let dest = tmp.path().join("out");
    let err = git::checkout(&url, &head, None, &dest, &small).unwrap_err();
    let GitError::OverLimit { limit, .. } = &err else {
        panic!("not OverLimit: {err}");
    };
    assert_eq!(*limit, GitLimit::FileBytes);
    let message = err.to_string();
    for part in [
        "big/zeros.bin",
        "2097152",
        "1048576",
        "max_file_bytes",
        &url,
    ] {
        assert!(message.contains(part), "{part} missing: {message}");
    }
    let runs = fs::read_to_string(&log).unwrap();
    assert!(
        !runs
            .lines()
            .any(|run| run.starts_with("checkout") || run == "read-tree"),
        "git wrote to the work tree: {runs}"
    );
    assert!(runs.lines().any(|run| run == "ls-tree"), "{runs}");
    assert!(!dest.exists());

    // The same for the total and the count; and the subpath alone, which
    // holds no large file, checks out without the rest of the tree.
    for (limits, which) in [
        (
            GitLimits {
                max_total_bytes: 1 << 20,
                ..GitLimits::default()
            },
            GitLimit::TotalBytes,
        ),
        (
            GitLimits {
                max_files: 2,
                ..GitLimits::default()
            },
            GitLimit::Files,
        ),
    ] {
        let opts = GitOptions {
            limits,
            ..small.clone()
        };
        match git::checkout(&url, &head, None, &dest, &opts) {
            Err(GitError::OverLimit { limit, .. }) => assert_eq!(limit, which),
            other => panic!("{which:?}: {other:?}"),
        }
        assert!(!dest.exists());
    }
    git::checkout(&url, &head, Some("small"), &dest, &small).unwrap();
    assert_eq!(read(&dest, "small/SKILL.md"), "small\n");
    assert!(!dest.join("big").exists());
    assert!(disk_bytes(&dest) < 64 << 10, "{}", disk_bytes(&dest));
}

/// Paths deeper or longer than the limits are refused before checkout.
#[test]
fn deep_or_long_paths_are_refused_before_checkout() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "--quiet"]);
    let deep = (0..10)
        .map(|i| format!("d{i}"))
        .collect::<Vec<_>>()
        .join("/");
    let head = commit(&repo, &format!("{deep}/SKILL.md"), "deep\n");
    let url = format!("file://{}", repo.display());
    let dest = tmp.path().join("out");
    for (limits, which) in [
        (
            GitLimits {
                max_depth: 10,
                ..GitLimits::default()
            },
            GitLimit::Depth,
        ),
        (
            GitLimits {
                max_path_bytes: 20,
                ..GitLimits::default()
            },
            GitLimit::PathBytes,
        ),
    ] {
        let opts = GitOptions { limits, ..opts() };
        match git::checkout(&url, &head, None, &dest, &opts) {
            Err(GitError::OverLimit { limit, .. }) => assert_eq!(limit, which),
            other => panic!("{which:?}: {other:?}"),
        }
        assert!(!dest.exists());
    }
    git::checkout(&url, &head, None, &dest, &opts()).unwrap();
    assert_eq!(read(&dest, &format!("{deep}/SKILL.md")), "deep\n");
}

/// What git fetches is bounded while it arrives: a pack over the limit
/// stops the fetch (incompressible bytes, so the pack is as large as the
/// file).
#[test]
fn a_fetch_over_the_limit_is_stopped() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "--quiet"]);
    let mut noise = Vec::with_capacity(3 << 20);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while noise.len() < 3 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise.extend_from_slice(&x.to_le_bytes());
    }
    fs::write(repo.join("noise.bin"), &noise).unwrap();
    let head = commit(&repo, "SKILL.md", "noise\n");
    let url = format!("file://{}", repo.display());
    let opts = GitOptions {
        limits: GitLimits {
            max_fetch_bytes: 1 << 20,
            ..GitLimits::default()
        },
        ..opts()
    };
    let dest = tmp.path().join("out");
    match git::checkout(&url, &head, None, &dest, &opts) {
        Err(GitError::OverLimit { limit, .. }) => assert_eq!(limit, GitLimit::FetchBytes),
        other => panic!("{other:?}"),
    }
    assert!(!dest.exists());
}

/// A subpath is checked out alone; one that is missing, a file or a link
/// is named before anything is written.
#[test]
fn only_the_subpath_is_checked_out() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::create(&tmp.path().join("repo"));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("alpha", repo.dir.join("skills/inside")).unwrap();
        commit(&repo.dir, "skills/README.md", "links\n");
    }
    let url = repo.file_url();
    let dest = tmp.path().join("out");
    let got = git::fetch(&spec(&format!("{url}#:skills/alpha")), &dest, &opts()).unwrap();
    assert_eq!(read(&dest, "skills/alpha/SKILL.md"), "alpha 2\n");
    assert!(!dest.join("skills/beta").exists() && !dest.join("README.md").exists());
    assert!(!dest.join(".git").exists());
    let dest = tmp.path().join("out2");
    let mut missing = vec![("skills/omega", "is not in the repository")];
    missing.push(("README.md", "is a file, not a folder, in"));
    #[cfg(unix)]
    missing.push(("skills/inside", "is a symbolic link, not a folder, in"));
    for (sub, reason) in missing {
        let err = git::checkout(&url, &got, Some(sub), &dest, &opts()).unwrap_err();
        match &err {
            GitError::SubpathNotFound { reason: r, .. } => assert_eq!(*r, reason, "{sub}"),
            other => panic!("{sub}: {other}"),
        }
        assert!(!dest.exists(), "{sub}");
    }
    // A subpath is a literal path, not a pattern.
    let err = git::checkout(&url, &got, Some("skills/*"), &dest, &opts()).unwrap_err();
    assert!(matches!(err, GitError::SubpathNotFound { .. }), "{err}");
}
