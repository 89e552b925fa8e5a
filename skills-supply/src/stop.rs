//! Stopping a program the supply side runs (git, a Docker credential
//! helper) with everything it started. Git runs its transport
//! (`upload-pack`, `ssh`, a remote helper) and `index-pack` as children
//! that go on without it: a fetch stopped at its byte limit by killing
//! `git` alone was finished by its orphans, which went on writing into the
//! checkout while it was being cleaned up; a credential helper stopped at
//! its time limit may have started a keychain agent or a login flow. So on
//! Linux the run's tree is frozen from the top (`SIGSTOP`: a stopped
//! process neither forks nor reaps, so the ids read below it stay its
//! children's), walked through `/proc/PID/task/TID/children`, and killed.
//! The program stays in skb's process group, so a Ctrl-C at the terminal
//! still reaches all of it. Elsewhere, and where the kernel has no
//! `children` files, only the child is killed.

use std::process::Child;

/// The most processes one run's tree is walked for.
#[cfg(target_os = "linux")]
const MAX_TREE: usize = 1024;

/// Kills `child` and, on Linux, every process below it, then reaps `child`
/// (it may have exited already), so that no zombie is left.
pub(crate) fn stop(child: &mut Child) {
    #[cfg(target_os = "linux")]
    kill_tree(child.id());
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(target_os = "linux")]
fn kill_tree(root: u32) {
    use rustix::process::{Pid, Signal, kill_process};

    let mut frozen = Vec::new();
    let mut todo = vec![root];
    while let Some(raw) = todo.pop() {
        if frozen.len() >= MAX_TREE {
            break;
        }
        let Some(pid) = i32::try_from(raw).ok().and_then(Pid::from_raw) else {
            continue;
        };
        if kill_process(pid, Signal::STOP).is_err() {
            continue;
        }
        frozen.push(pid);
        todo.extend(children(raw));
    }
    for pid in frozen {
        let _ = kill_process(pid, Signal::KILL);
    }
}

/// The children of every thread of `pid`, as the kernel lists them.
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// Whether `pid` has exited (gone, or a zombie waiting for its parent).
    #[cfg(target_os = "linux")]
    fn exited(pid: u32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_processes_a_run_started_die_with_it() {
        use super::{children, stop};
        use std::process::{Command, Stdio};
        use std::time::{Duration, Instant};

        let mut child = Command::new("sh")
            .args(["-c", "sleep 60 & sleep 60 & wait"])
            .stdin(Stdio::null())
            .spawn()
            .expect("sh runs");
        let start = Instant::now();
        let below = loop {
            let below = children(child.id());
            if below.len() == 2 || start.elapsed() > Duration::from_secs(10) {
                break below;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert_eq!(below.len(), 2, "sh started its two sleeps");
        stop(&mut child);
        let start = Instant::now();
        while !below.iter().all(|&pid| exited(pid)) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "a process the run started outlived it: {below:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
