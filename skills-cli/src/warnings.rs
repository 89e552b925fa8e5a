//! The libraries' `log` warnings on standard error, as `skills: warning:
//! …` lines: what a library reports without failing (a skill's cache found
//! changed and rebuilt before a run). Text is shown as every other message
//! is, with control characters made visible.

use log::{Level, LevelFilter, Log, Metadata, Record};

/// Prints warnings and errors; see the module documentation.
struct Stderr;

impl Log for Stderr {
    fn enabled(&self, meta: &Metadata<'_>) -> bool {
        meta.level() <= Level::Warn
    }

    fn log(&self, record: &Record<'_>) {
        if self.enabled(record.metadata()) {
            let text = record.args().to_string();
            eprintln!("skb: warning: {}", skills_compiler::render::shown(&text));
        }
    }

    fn flush(&self) {}
}

/// Installs the printer, once, before any command runs.
pub fn install() {
    // Only fails when a logger is already set, which nothing else does.
    if log::set_logger(&Stderr).is_ok() {
        log::set_max_level(LevelFilter::Warn);
    }
}
