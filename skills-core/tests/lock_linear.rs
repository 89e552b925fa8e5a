//! The lock reader takes time linear in the lock (up to a log factor): a
//! lock with `n` file entries and one with `8n` are read, and the larger
//! must take less than `8 × 4 = 32` times the smaller. Linear work gives
//! about 8 (a little more: sorting is `n log n`); the duplicate-key check
//! that compared every pair of keys gave 64 (and 49 s for 100,000 files).
//!
//! A ratio, never an absolute time, measured as `skills-scan`'s
//! `tests/linear.rs` does, so that it does not flake on a busy machine:
//! the test thread's CPU time (`/proc/thread-self/schedstat`; wall time
//! elsewhere); both sizes measured alternately in the same thread; each
//! sample repeats the read until at least [`FLOOR`] has passed; the
//! medians of [`SAMPLES`] samples compared. Files are listed in the lock's
//! order (the writer's) and in reverse order (a hand-merged lock), which
//! takes the reader's sorting paths. `the_measure_sees_quadratic_work`
//! checks the measure can fail.

use std::hint::black_box;
use std::time::{Duration, Instant};

use skills_core::lock::Lock;

/// The smaller lock's file entries; the larger has `GROWTH` times more.
const N: usize = 1_000;
/// How much larger the second lock is.
const GROWTH: usize = 8;
/// The most the time may grow: linear growth with a factor 4 of headroom.
const MAX_RATIO: f64 = (GROWTH * 4) as f64;
/// Samples per size; the median is compared.
const SAMPLES: usize = 5;
/// The least time one sample measures.
const FLOOR: Duration = Duration::from_millis(20);

fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The time per call of `small` and of `large`: medians of alternate
/// samples of at least [`FLOOR`] each.
fn medians(mut small: impl FnMut(), mut large: impl FnMut()) -> (f64, f64) {
    let origin = Instant::now();
    let now = || thread_cpu().unwrap_or_else(|| origin.elapsed());
    let sample = |work: &mut dyn FnMut()| -> f64 {
        let start = now();
        let mut calls = 0u32;
        loop {
            work();
            calls += 1;
            let spent = now().saturating_sub(start);
            if spent >= FLOOR {
                return spent.as_secs_f64() / f64::from(calls);
            }
        }
    };
    let (mut s, mut l) = (Vec::new(), Vec::new());
    for _ in 0..SAMPLES {
        s.push(sample(&mut small));
        l.push(sample(&mut large));
    }
    s.sort_by(f64::total_cmp);
    l.sort_by(f64::total_cmp);
    (s[SAMPLES / 2], l[SAMPLES / 2])
}

/// A lock of one skill with `files` file entries, in sorted order or
/// reversed.
fn lock_text(files: usize, reversed: bool) -> String {
    let hash = "0".repeat(64);
    let mut entries: Vec<String> = (0..files)
        .map(|i| {
            format!(
                "        \"d{}/f{i:07}.md\": {{ \"size\": {i}, \"sha256\": \"{hash}\" }}",
                i % 31
            )
        })
        .collect();
    entries.sort();
    if reversed {
        entries.reverse();
    }
    format!(
        "{{\n  \"version\": 1,\n  \"skills\": {{\n    \"big\": {{\n      \"source\": \"./big\",\n      \"resolved\": {{ \"type\": \"folder\", \"path\": \"./big\" }},\n      \"digest\": \"sha256:{hash}\",\n      \"installed\": [\".claude/skills/big\"],\n      \"files\": {{\n{}\n      }}\n    }}\n  }}\n}}\n",
        entries.join(",\n")
    )
}

fn read(text: &str) {
    match Lock::parse(black_box(text)) {
        Ok(lock) => {
            black_box(lock);
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn reading_a_lock_is_linear_in_its_files() {
    for reversed in [false, true] {
        let small = lock_text(N, reversed);
        let large = lock_text(N * GROWTH, reversed);
        let (s, l) = medians(|| read(&small), || read(&large));
        let ratio = l / s;
        assert!(
            ratio < MAX_RATIO,
            "reversed: {reversed}: {} files took {ratio:.1} times as long as {N} (linear: about {GROWTH})",
            N * GROWTH
        );
    }
}

/// The measure catches quadratic work of the same size: comparing every
/// pair of `n` keys, as the reader's duplicate check once did.
#[test]
fn the_measure_sees_quadratic_work() {
    let keys = |n: usize| -> Vec<String> { (0..n).map(|i| format!("d/f{i:07}.md")).collect() };
    let pairs = |keys: &[String]| {
        let mut same = 0usize;
        for (i, k) in keys.iter().enumerate() {
            same += keys[..i].iter().filter(|k2| *k2 == k).count();
        }
        black_box(same);
    };
    let (small, large) = (keys(N), keys(N * GROWTH));
    let (s, l) = medians(|| pairs(&small), || pairs(&large));
    assert!(
        l / s >= MAX_RATIO,
        "quadratic work measured as {:.1}",
        l / s
    );
}
