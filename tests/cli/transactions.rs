//! All or nothing across client folders: `skb add`, `update` and `remove`
//! killed at every point where they change the disk, and failed with
//! `ENOSPC` at every write, over three clients' folders. After each, the
//! project is either exactly as before or exactly as after a clean run
//! (every folder and the lock together), `skb install` needs no `--force`,
//! and no staging copy is left anywhere a client reads.
//!
//! The points come from the installer's fault injection (the `failpoints`
//! feature of skills-install, which this test binary's build turns on, see
//! Cargo.toml): `SKB_FAILPOINT_COUNT` tells how many mutations an operation
//! makes, `SKB_FAILPOINT_CRASH=n` aborts the process at the n-th (no
//! destructor runs, as with `kill -9`), `SKB_FAILPOINT_ENOSPC=n` makes the
//! n-th and every later write fail as a full disk does. A crash is also
//! made during the recovery that follows (a second kill), and a few real
//! `SIGKILL`s land at random times.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use skills_tests::churn_tempdir;

use crate::skills;

/// Skills per source for the kill tests: enough that kills land before the
/// first skill, between skills, inside the first, a middle and the last
/// one, in each client's folder and in the lock (374 points across the four
/// operations). More skills repeat the same points: ten gave over a
/// thousand, the same code paths at about three times the CI time.
const SKILLS: usize = 4;
/// Skills per source for the full-disk tests: every write of a smaller
/// operation fails in turn (the same code paths, fewer runs).
const FULL_DISK_SKILLS: usize = 3;
const FILES: usize = 6;
/// The clients installed for: three folders.
const CLIENTS: [&str; 3] = ["claude-code", "codex", "gemini-cli"];

/// One skill's files at `version`: `SKILL.md`, then files in two folders
/// (one executable), some of which change or vanish between versions.
fn skill(dir: &Path, name: &str, version: usize) {
    let d = dir.join(name);
    std::fs::create_dir_all(d.join("scripts")).unwrap();
    std::fs::create_dir_all(d.join("references")).unwrap();
    std::fs::write(
        d.join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: Does {name} things, version {version}. Use when testing.\n---\n\nRun the script.\n"
        ),
    )
    .unwrap();
    for i in 0..FILES - 1 {
        // Version 2 drops the last file and changes every other one.
        if version == 2 && i == FILES - 2 {
            continue;
        }
        let changed = if version == 2 && i % 2 == 0 {
            "v2"
        } else {
            "v1"
        };
        let (folder, ext) = if i % 2 == 0 {
            ("scripts", "sh")
        } else {
            ("references", "md")
        };
        let path = d.join(folder).join(format!("f{i}.{ext}"));
        std::fs::write(
            &path,
            format!("#!/bin/sh\n# {name} {i} {changed}\necho {i}\n"),
        )
        .unwrap();
        if ext == "sh" {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
}

fn source(dir: &Path, version: usize, skills: usize) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..skills {
        skill(dir, &format!("s{i}"), version);
    }
}

fn skb(dir: &Path, args: &[&str], env: &[(&str, String)]) -> Output {
    let mut c = skills();
    c.current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env("HOME", dir.join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CODEX_HOME");
    for name in [
        "SKB_FAILPOINT_CRASH",
        "SKB_FAILPOINT_ENOSPC",
        "SKB_FAILPOINT_COUNT",
    ] {
        c.env_remove(name);
    }
    // Kills lose nothing the kernel holds: the flushes only slow a
    // thousand runs down.
    c.env("SKB_FAILPOINT_NOSYNC", "1");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn ok(dir: &Path, args: &[&str]) {
    let out = skb(dir, args, &[]);
    assert!(
        out.status.success(),
        "skb {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Everything in the project a client or a reviewer sees: each file with
/// its bytes and mode, each folder, each link, skb's state folder left out.
fn snapshot(project: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    walk(project, project, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // skb's state (the guard, transactions): not what a client reads.
        if matches!(
            rel.as_str(),
            ".skb"
                | "home/.config/skb/guard"
                | "home/.config/skb/txn"
                | "home/.config/skb/.gitignore"
        ) {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.file_type().is_symlink() {
            out.insert(rel, "link".into());
        } else if meta.is_dir() {
            out.insert(rel.clone(), "dir".into());
            walk(root, &path, out);
        } else {
            let mode = meta.permissions().mode() & 0o777;
            let bytes = std::fs::read(&path).unwrap();
            out.insert(rel, format!("{mode:o} {}", String::from_utf8_lossy(&bytes)));
        }
    }
}

/// No staging copy anywhere: no transaction left, nothing hidden in a
/// client's folder.
fn no_leftovers(project: &Path) -> Result<(), String> {
    let txn = project.join(".skb/txn");
    if let Ok(entries) = std::fs::read_dir(&txn) {
        let left: Vec<_> = entries.map(|e| e.unwrap().file_name()).collect();
        if !left.is_empty() {
            return Err(format!("transactions left in {}: {left:?}", txn.display()));
        }
    }
    for folder in [".claude/skills", ".agents/skills", ".gemini/skills"] {
        if let Ok(entries) = std::fs::read_dir(project.join(folder)) {
            for e in entries {
                let name = e.unwrap().file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    return Err(format!("{folder}/{name} left behind"));
                }
            }
        }
    }
    Ok(())
}

/// No transaction left in a state folder.
fn no_leftovers_in(state: &Path) -> Result<(), String> {
    let left = std::fs::read_dir(state.join("txn")).map_or(0, Iterator::count);
    if left > 0 {
        return Err(format!("transactions left in {}", state.display()));
    }
    Ok(())
}

/// A copy of `from` at `to`, its files hard links: skb never writes a
/// file in place (it creates new ones and renames), so a world's run
/// cannot change the template's bytes, and a thousand copies cost no data.
fn copy_tree(from: &Path, to: &Path) {
    let out = Command::new("cp")
        .arg("-al")
        .arg(from)
        .arg(to)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A prepared world: `root/p` (the project) and `root/src` (the source),
/// and the operation to run in `p`.
struct Scenario {
    name: &'static str,
    template: PathBuf,
    args: Vec<String>,
    before: BTreeMap<String, String>,
    after: BTreeMap<String, String>,
    points: usize,
}

fn client_args() -> Vec<String> {
    CLIENTS
        .iter()
        .flat_map(|c| ["--client".to_string(), c.to_string()])
        .collect()
}

fn scenario(base: &Path, name: &'static str, skills: usize) -> Scenario {
    let template = base.join(name);
    let p = template.join("p");
    let src = template.join("src");
    std::fs::create_dir_all(p.join("home")).unwrap();
    // Every scenario starts with one skill locked, so that `install` has a
    // lock to restore even when the operation never got to write one.
    let keep = template.join("keep");
    std::fs::create_dir_all(&keep).unwrap();
    skill(&keep, "keep", 1);
    let mut add_keep = vec!["add".to_string(), "../keep".to_string()];
    if name == "global" {
        add_keep
            .extend(["--global", "--client", "claude-code", "--client", "codex"].map(String::from));
    } else {
        add_keep.extend(client_args());
    }
    ok(&p, &add_keep.iter().map(String::as_str).collect::<Vec<_>>());
    let args: Vec<String> = match name {
        "add" => {
            source(&src, 1, skills);
            let mut a = vec!["add".to_string(), "../src".to_string()];
            a.extend(client_args());
            a
        }
        "update" => {
            source(&src, 1, skills);
            let mut a = vec!["add".to_string(), "../src".to_string()];
            a.extend(client_args());
            ok(&p, &a.iter().map(String::as_str).collect::<Vec<_>>());
            source(&src, 2, skills);
            vec!["update".to_string()]
        }
        // The user's scope: folders below the home folder, the lock and
        // the transactions in `~/.config/skb`, two roots renamed between.
        "global" => {
            source(&src, 1, skills);
            vec![
                "add".to_string(),
                src.display().to_string(),
                "--global".to_string(),
                "--client".to_string(),
                "claude-code".to_string(),
                "--client".to_string(),
                "codex".to_string(),
            ]
        }
        "remove" => {
            source(&src, 1, skills);
            let mut a = vec!["add".to_string(), "../src".to_string()];
            a.extend(client_args());
            ok(&p, &a.iter().map(String::as_str).collect::<Vec<_>>());
            (0..skills / 2)
                .map(|i| format!("s{i}"))
                .fold(vec!["remove".to_string()], |mut v, s| {
                    v.push(s);
                    v
                })
        }
        _ => unreachable!("no scenario {name}"),
    };
    // Each world takes its own guard (a shared inode would serialise them).
    for guard in [p.join(".skb/guard"), p.join("home/.config/skb/guard")] {
        let _ = std::fs::remove_file(guard);
    }
    let before = snapshot(&p);
    // A clean run, counted, gives the state after and the number of points.
    let clean = base.join(format!("{name}-clean"));
    copy_tree(&template, &clean);
    let count = base.join(format!("{name}.count"));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = skb(
        &clean.join("p"),
        &argv,
        &[("SKB_FAILPOINT_COUNT", count.display().to_string())],
    );
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let points: usize = std::fs::read_to_string(&count)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let after = snapshot(&clean.join("p"));
    assert_ne!(before, after, "{name} changes something");
    Scenario {
        name,
        template,
        args,
        before,
        after,
        points,
    }
}

/// Which of the two states `p` is in, or why neither.
fn state(s: &Scenario, p: &Path) -> Result<&'static str, String> {
    let now = snapshot(p);
    if now == s.before {
        Ok("old")
    } else if now == s.after {
        Ok("new")
    } else {
        let diff: Vec<String> = now
            .keys()
            .chain(s.before.keys())
            .chain(s.after.keys())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .filter(|k| now.get(*k) != s.before.get(*k) || now.get(*k) != s.after.get(*k))
            .take(6)
            .map(|k| {
                format!(
                    "{k}: now {:?}, old {:?}, new {:?}",
                    now.get(k).map(|v| v.len()),
                    s.before.get(k).map(|v| v.len()),
                    s.after.get(k).map(|v| v.len())
                )
            })
            .collect();
        Err(format!("neither old nor new: {}", diff.join("; ")))
    }
}

/// Runs `check(point)` for every point, on both cores.
fn each_point(points: usize, check: impl Fn(usize) -> Result<(), String> + Sync) {
    let next = AtomicUsize::new(1);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k > points {
                        break;
                    }
                    if let Err(e) = check(k) {
                        failures.lock().unwrap().push(format!("point {k}: {e}"));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn fresh(s: &Scenario, base: &Path, tag: &str, k: usize) -> PathBuf {
    let world = base.join(format!("{}-{tag}-{k}", s.name));
    copy_tree(&s.template, &world);
    world
}

/// After whatever happened: `skb install` (no `--force`) finishes or
/// undoes it, the project is old or new, nothing is left over, and (when
/// `verify`) `verify --installed` agrees.
fn settles(s: &Scenario, p: &Path, verify: bool) -> Result<&'static str, String> {
    let global = s.name == "global";
    let install: &[&str] = if global {
        &["install", "--global"]
    } else {
        &["install"]
    };
    let out = skb(p, install, &[]);
    if !out.status.success() {
        return Err(format!(
            "`skb install` after it failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let st = state(s, p)?;
    no_leftovers(p)?;
    if global {
        no_leftovers(&p.join("home"))?;
        no_leftovers_in(&p.join("home/.config/skb"))?;
    }
    if !verify {
        return Ok(st);
    }
    let check: &[&str] = if global {
        &["verify", "--installed", "--global"]
    } else {
        &["verify", "--installed"]
    };
    let out = skb(p, check, &[]);
    if !out.status.success() {
        return Err(format!(
            "`skb verify --installed` after recovery: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(st)
}

static KILLS: AtomicUsize = AtomicUsize::new(0);

fn crash_everywhere(name: &'static str) {
    let tmp = churn_tempdir();
    let s = scenario(tmp.path(), name, SKILLS);
    let outcomes = std::sync::Mutex::new(BTreeMap::<&str, usize>::new());
    each_point(s.points, |k| {
        let world = fresh(&s, tmp.path(), "crash", k);
        let p = world.join("p");
        let argv: Vec<&str> = s.args.iter().map(String::as_str).collect();
        let out = skb(&p, &argv, &[("SKB_FAILPOINT_CRASH", k.to_string())]);
        if out.status.code().is_some() {
            return Err(format!(
                "the process was not killed at point {k} of {}: {}",
                s.points,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        KILLS.fetch_add(1, Ordering::SeqCst);
        // A second kill, in the recovery itself, at a point picked from
        // `k` (the recovery has few points: the first few, cycling).
        let j = 1 + (k * 7919) % 12;
        let install: &[&str] = if s.name == "global" {
            &["install", "--global"]
        } else {
            &["install"]
        };
        let out = skb(&p, install, &[("SKB_FAILPOINT_CRASH", j.to_string())]);
        if out.status.code().is_none() {
            KILLS.fetch_add(1, Ordering::SeqCst);
        }
        let st = settles(&s, &p, k % 8 == 0)?;
        *outcomes.lock().unwrap().entry(st).or_default() += 1;
        std::fs::remove_dir_all(&world).unwrap();
        Ok(())
    });
    let outcomes = outcomes.into_inner().unwrap();
    eprintln!(
        "{name}: {} points, each killed: {outcomes:?} ({} kills so far)",
        s.points,
        KILLS.load(Ordering::SeqCst)
    );
    // Both outcomes happen: points before the commit point roll back,
    // points after it roll forward.
    assert!(
        outcomes.contains_key("old") && outcomes.contains_key("new"),
        "{outcomes:?}"
    );
}

fn full_disk_everywhere(name: &'static str) {
    let tmp = churn_tempdir();
    let s = scenario(tmp.path(), name, FULL_DISK_SKILLS);
    let outcomes = std::sync::Mutex::new(BTreeMap::<&str, usize>::new());
    each_point(s.points, |k| {
        let world = fresh(&s, tmp.path(), "enospc", k);
        let p = world.join("p");
        let argv: Vec<&str> = s.args.iter().map(String::as_str).collect();
        let out = skb(&p, &argv, &[("SKB_FAILPOINT_ENOSPC", k.to_string())]);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        if out.status.code().is_none() {
            return Err(format!("killed by a signal: {err}"));
        }
        // Right away, before any recovery: old or new, nothing left.
        let now = state(&s, &p).map_err(|e| format!("after `{err}`: {e}"))?;
        if out.status.success() != (now == "new") {
            return Err(format!(
                "exit {:?} but the project is {now}: {err}",
                out.status.code()
            ));
        }
        if !out.status.success() && !err.contains("No space left on device") {
            return Err(format!("the failure does not say the disk is full: {err}"));
        }
        no_leftovers(&p)?;
        let st = settles(&s, &p, k % 8 == 0)?;
        if st != now {
            return Err(format!("install changed {now} into {st}"));
        }
        *outcomes.lock().unwrap().entry(st).or_default() += 1;
        std::fs::remove_dir_all(&world).unwrap();
        Ok(())
    });
    eprintln!(
        "{name}: {} writes failed in turn: {:?}",
        s.points,
        outcomes.into_inner().unwrap()
    );
}

#[test]
fn add_killed_anywhere_leaves_all_old_or_all_new() {
    crash_everywhere("add");
}

#[test]
fn update_killed_anywhere_leaves_all_old_or_all_new() {
    crash_everywhere("update");
}

#[test]
fn a_global_add_killed_anywhere_leaves_all_old_or_all_new() {
    crash_everywhere("global");
}

#[test]
fn remove_killed_anywhere_leaves_all_old_or_all_new() {
    crash_everywhere("remove");
}

#[test]
fn add_on_a_full_disk_leaves_all_old_or_all_new() {
    full_disk_everywhere("add");
}

#[test]
fn update_on_a_full_disk_leaves_all_old_or_all_new() {
    full_disk_everywhere("update");
}

#[test]
fn remove_on_a_full_disk_leaves_all_old_or_all_new() {
    full_disk_everywhere("remove");
}

/// Real `SIGKILL`s, at times spread over a clean run's duration.
#[test]
fn update_sigkilled_at_random_times_leaves_all_old_or_all_new() {
    let tmp = churn_tempdir();
    let s = scenario(tmp.path(), "update", SKILLS);
    let started = std::time::Instant::now();
    let world = fresh(&s, tmp.path(), "timing", 0);
    let argv: Vec<&str> = s.args.iter().map(String::as_str).collect();
    let _ = skb(&world.join("p"), &argv, &[]);
    let took = started.elapsed();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for i in 0..40 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let at = took.mul_f64((seed % 1000) as f64 / 1000.0);
        let world = fresh(&s, tmp.path(), "sigkill", i);
        let p = world.join("p");
        let mut child = skills()
            .current_dir(&p)
            .args(&argv)
            .env("HOME", p.join("home"))
            .env_remove("XDG_CONFIG_HOME")
            .env("SKB_FAILPOINT_NOSYNC", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(at);
        let _ = child.kill();
        let _ = child.wait();
        if let Err(e) = settles(&s, &p, true) {
            panic!("killed after {at:?}: {e}");
        }
    }
}

/// Skills in the git source of the `install --frozen` tests.
const GIT_SKILLS: usize = 2;

/// A template world for `install --frozen` from git: `src`, a repository
/// of [`GIT_SKILLS`] skills read through `file://`, added to `p` for the
/// three clients and then cloned fresh (only `skb.lock` kept). Returns the
/// template, the installed project's snapshot and the command.
fn git_template(base: &Path) -> (PathBuf, BTreeMap<String, String>, Vec<&'static str>) {
    let template = base.join("git");
    let p = template.join("p");
    let src = template.join("src");
    source(&src, 1, GIT_SKILLS);
    for args in [
        &["init", "--quiet"][..],
        &["add", "."],
        &["commit", "--quiet", "-m", "skills"],
    ] {
        let out = Command::new("git")
            .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(&src)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}");
    }
    std::fs::create_dir_all(p.join("home")).unwrap();
    let url = format!("file://{}", src.display());
    // The cache would be written below `home` (in the snapshot): the
    // checkout's own store instead.
    let mut add = vec!["add", &url, "--allow-unsigned", "--no-cache"];
    let clients = client_args();
    add.extend(clients.iter().map(String::as_str));
    ok(&p, &add);
    let after = snapshot(&p);
    for dir in [".claude", ".agents", ".gemini", ".skb"] {
        std::fs::remove_dir_all(p.join(dir)).unwrap();
    }
    (template, after, vec!["install", "--frozen", "--no-cache"])
}

/// After a killed or failed `install --frozen` from git: the next one (no
/// `--force`) finishes, every client's folders are as locked, nothing is
/// left in `.skb/txn` (the checkout included), and (when `verify`) `skb
/// verify --installed` agrees.
fn git_settles(
    p: &Path,
    install: &[&str],
    after: &BTreeMap<String, String>,
    verify: bool,
) -> Result<(), String> {
    let out = skb(p, install, &[]);
    if !out.status.success() {
        return Err(format!(
            "`skb install --frozen` after it: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if snapshot(p) != *after {
        return Err("the project is not as locked".into());
    }
    no_leftovers(p)?;
    if verify {
        let out = skb(p, &["verify", "--installed"], &[]);
        if !out.status.success() {
            return Err(format!(
                "`skb verify --installed`: {}",
                String::from_utf8_lossy(&out.stdout)
            ));
        }
    }
    Ok(())
}

/// The number of points a clean `install` in a copy of `template` has;
/// the copy must end as `after`.
fn git_points(
    base: &Path,
    template: &Path,
    install: &[&str],
    after: &BTreeMap<String, String>,
) -> usize {
    let clean = base.join("git-clean");
    copy_tree(template, &clean);
    let count = base.join("git.count");
    let out = skb(
        &clean.join("p"),
        install,
        &[("SKB_FAILPOINT_COUNT", count.display().to_string())],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(snapshot(&clean.join("p")), *after);
    std::fs::read_to_string(&count)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// `install --frozen` from git, whose transaction moves the checkout's
/// folders in instead of writing them, killed at every point where it
/// changes the disk and again in the recovery after: the next `install
/// --frozen` finishes it, and no checkout or staging copy is left.
#[test]
fn a_frozen_install_from_git_killed_anywhere_is_finished_by_the_next() {
    let tmp = churn_tempdir();
    let (template, after, install) = git_template(tmp.path());
    let points = git_points(tmp.path(), &template, &install, &after);
    each_point(points, |k| {
        let world = tmp.path().join(format!("git-crash-{k}"));
        copy_tree(&template, &world);
        let p = world.join("p");
        let out = skb(&p, &install, &[("SKB_FAILPOINT_CRASH", k.to_string())]);
        if out.status.code().is_some() {
            return Err(format!("not killed at point {k} of {points}"));
        }
        let j = 1 + (k * 7919) % 12;
        let _ = skb(&p, &install, &[("SKB_FAILPOINT_CRASH", j.to_string())]);
        git_settles(&p, &install, &after, k % 4 == 0)?;
        std::fs::remove_dir_all(&world).unwrap();
        Ok(())
    });
    eprintln!("install --frozen from git: {points} points, each killed");
}

/// The same `install --frozen` with every write from the n-th on failing
/// as on a full disk: it fails saying so with nothing a client reads
/// changed and nothing left in `.skb/txn`, or succeeds; the next one
/// finishes.
#[test]
fn a_frozen_install_from_git_on_a_full_disk_leaves_nothing_behind() {
    let tmp = churn_tempdir();
    let (template, after, install) = git_template(tmp.path());
    let points = git_points(tmp.path(), &template, &install, &after);
    each_point(points, |k| {
        let world = tmp.path().join(format!("git-enospc-{k}"));
        copy_tree(&template, &world);
        let p = world.join("p");
        let before = snapshot(&p);
        let out = skb(&p, &install, &[("SKB_FAILPOINT_ENOSPC", k.to_string())]);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() {
            if !err.contains("No space left on device") {
                return Err(format!("the failure does not say the disk is full: {err}"));
            }
            if snapshot(&p) != before {
                return Err(format!("failed ({err}) but changed the project"));
            }
        }
        no_leftovers(&p)?;
        git_settles(&p, &install, &after, k % 4 == 0)?;
        std::fs::remove_dir_all(&world).unwrap();
        Ok(())
    });
    eprintln!("install --frozen from git: {points} writes failed in turn");
}
