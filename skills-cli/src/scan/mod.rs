//! A security scan of skill folders, as `skb scan` and `skb validate --scan`
//! run it: the folders scanned in parallel (`skills_scan::scan_dir`), then,
//! in the folders' order, each finding named by its path as shown, matched
//! against the baseline, and filtered by severity.
//!
//! The renderers (`report::scan`) read the [`Scan`] this builds; none of
//! them decides what is shown or what fails.

pub mod targets;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skills_compiler::render::path_string;
use skills_scan::baseline::{Baseline, Entry};
use skills_scan::{Finding, Options, Severity, Suppressed};

pub use targets::Target;

/// How to run a scan and judge its findings.
#[derive(Debug)]
pub struct Settings<'b> {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Findings below this are counted, not shown.
    pub min_severity: Severity,
    /// A finding at or above this fails the scan; `None`: nothing does.
    pub fail_on: Option<Severity>,
    /// Findings recorded here are hidden.
    pub baseline: Option<&'b Baseline>,
}

/// A finding, with its file as reports name it.
#[derive(Debug)]
pub struct Located {
    /// The file: the skill's folder as shown, joined with the finding's path.
    pub file: String,
    /// The finding.
    pub finding: Finding,
}

/// One skill folder's results.
#[derive(Debug)]
pub struct Scanned {
    /// The folder, as shown.
    pub dir: PathBuf,
    /// The findings shown: not suppressed, not baselined, at or above the
    /// minimum severity.
    pub findings: Vec<Located>,
    /// Findings an inline marker suppressed (whatever their severity).
    pub suppressed: Vec<(String, Suppressed)>,
    /// Files not scanned, with why.
    pub skipped: Vec<(String, String)>,
    /// Why the folder could not be scanned at all.
    pub error: Option<String>,
}

/// Counts for the summary and the exit status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Skill folders scanned (including any that could not be read).
    pub skills: usize,
    /// Findings remaining (after suppressions and the baseline) by
    /// severity, indexed as `Severity::ALL`, shown or not.
    pub by_severity: [usize; 5],
    /// Of those, the ones below the minimum severity (not shown).
    pub hidden: usize,
    /// Findings inline markers suppressed.
    pub suppressed: usize,
    /// Findings the baseline hid.
    pub baselined: usize,
    /// Baseline entries no finding matched.
    pub stale: usize,
    /// Files not scanned.
    pub skipped: usize,
    /// Folders that could not be scanned.
    pub failed: usize,
}

impl Counts {
    /// Findings remaining, shown or not.
    pub fn findings(&self) -> usize {
        self.by_severity.iter().sum()
    }

    /// Findings remaining at `severity`.
    pub fn at(&self, severity: Severity) -> usize {
        self.by_severity[severity as usize]
    }
}

/// A whole scan.
#[derive(Debug)]
pub struct Scan {
    /// Each folder's results, in the targets' order.
    pub skills: Vec<Scanned>,
    /// The counts.
    pub counts: Counts,
    /// Whether a remaining finding reaches `fail_on`.
    pub failed: bool,
    /// Every finding after inline suppressions (baselined or not, at any
    /// severity), for `--write-baseline`.
    pub current: Vec<Entry>,
    /// Wall time of the scan (not the search for folders).
    pub elapsed: Duration,
}

/// Scans `targets` and judges what they hold.
pub fn run(targets: &[Target], settings: &Settings<'_>) -> Scan {
    let started = Instant::now();
    let options = Options::default();
    let reports = skills_compiler::parallel::map(targets, settings.threads, |t| {
        skills_scan::scan_dir(&t.dir, &options)
    });
    let elapsed = started.elapsed();
    let mut matcher = settings.baseline.map(Baseline::matcher);
    let mut counts = Counts {
        skills: targets.len(),
        ..Counts::default()
    };
    let mut current = Vec::new();
    let mut failed = false;
    let mut skills = Vec::with_capacity(targets.len());
    for (target, report) in targets.iter().zip(reports) {
        let mut scanned = Scanned {
            dir: target.shown.clone(),
            findings: Vec::new(),
            suppressed: Vec::new(),
            skipped: Vec::new(),
            error: None,
        };
        let report = match report {
            Ok(report) => report,
            Err(e) => {
                counts.failed += 1;
                scanned.error = Some(e.to_string());
                skills.push(scanned);
                continue;
            }
        };
        let name = |rel: &str| path_string(&target.shown.join(rel));
        for finding in report.findings {
            let file = name(&finding.path);
            let key = baseline_path(&file);
            current.push(Entry::of(&key, &finding));
            if matcher.as_mut().is_some_and(|m| m.contains(&key, &finding)) {
                counts.baselined += 1;
                continue;
            }
            counts.by_severity[finding.severity as usize] += 1;
            failed |= settings.fail_on.is_some_and(|t| finding.severity >= t);
            if finding.severity < settings.min_severity {
                counts.hidden += 1;
                continue;
            }
            scanned.findings.push(Located { file, finding });
        }
        counts.suppressed += report.suppressed.len();
        scanned.suppressed = report
            .suppressed
            .into_iter()
            .map(|s| (name(&s.finding.path), s))
            .collect();
        counts.skipped += report.skipped.len();
        scanned.skipped = report
            .skipped
            .into_iter()
            .map(|(rel, why)| (name(&rel), why))
            .collect();
        skills.push(scanned);
    }
    counts.stale = matcher.as_ref().map_or(0, |m| m.stale().count());
    Scan {
        skills,
        counts,
        failed,
        current,
        elapsed,
    }
}

/// The name a baseline records a file by: its path as shown, without `.`
/// components, so that `skills/x` and `./skills/x` agree.
pub fn baseline_path(file: &str) -> String {
    let path: PathBuf = Path::new(file)
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    path_string(&path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baseline_paths_drop_dot_components() {
        assert_eq!(baseline_path("./skills/x/SKILL.md"), "skills/x/SKILL.md");
        assert_eq!(baseline_path("skills/./x/a b.md"), "skills/x/a b.md");
        #[cfg(unix)]
        assert_eq!(baseline_path("/tmp/./x/SKILL.md"), "/tmp/x/SKILL.md");
    }

    #[test]
    fn counts_index_by_severity() {
        let mut counts = Counts::default();
        counts.by_severity[Severity::High as usize] += 2;
        assert_eq!(counts.at(Severity::High), 2);
        assert_eq!(counts.at(Severity::Low), 0);
        assert_eq!(counts.findings(), 2);
    }
}
