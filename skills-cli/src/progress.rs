//! A transfer's progress on stderr: only on a terminal, only once a
//! transfer has taken longer than a moment, one line rewritten in place and
//! cleared at the end. In CI (no terminal) nothing is printed.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a transfer runs before its progress is shown.
const QUIET_FOR: Duration = Duration::from_millis(400);

/// One transfer's progress line.
#[derive(Debug)]
pub struct Progress {
    label: String,
    started: Instant,
    shown: bool,
    last: Instant,
    terminal: bool,
}

impl Progress {
    /// Progress of fetching `label`.
    pub fn new(label: &str) -> Progress {
        let now = Instant::now();
        Progress {
            label: label.to_string(),
            started: now,
            shown: false,
            last: now,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// `done` bytes of `total` (if known) have arrived.
    pub fn update(&mut self, done: u64, total: Option<u64>) {
        if !self.terminal || self.started.elapsed() < QUIET_FOR {
            return;
        }
        if self.shown && self.last.elapsed() < Duration::from_millis(100) {
            return;
        }
        self.last = Instant::now();
        self.shown = true;
        let mib = |n: u64| n as f64 / f64::from(1 << 20);
        let line = match total {
            Some(t) if t > 0 => {
                let width = 24usize;
                let filled =
                    usize::try_from(done.min(t).saturating_mul(width as u64) / t).unwrap_or(width);
                format!(
                    "{} [{}{}] {:.1}/{:.1} MiB",
                    self.label,
                    "#".repeat(filled),
                    " ".repeat(width - filled),
                    mib(done),
                    mib(t)
                )
            }
            _ => format!("{} {:.1} MiB", self.label, mib(done)),
        };
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
    }
}
