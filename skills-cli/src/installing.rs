//! What the installing commands (`add`, `install`, `update`, `remove`,
//! `import`, `verify --installed`) share on the command line's side: the
//! [`Installer`] their arguments describe, the observer that prints its
//! progress and notes on stderr, and how results are printed.

use std::cell::RefCell;
use std::io::{self, IsTerminal, Write};

use skills_install::{Event, Installer, Observer, Project, Validation};
use skills_supply::trust::{self, TrustStore};

use crate::args::{CheckArgs, ListFormat, PolicyArgs, ProjectArgs};
use crate::progress::Progress;

/// Prints an operation's events on stderr: transfers as a progress line on
/// a terminal, diagnostics as `skb validate` renders them, notes prefixed
/// `skb: note:`.
#[derive(Debug)]
pub struct Stderr {
    color: crate::args::Color,
    progress: RefCell<Option<Progress>>,
}

impl Stderr {
    /// The observer, colouring diagnostics as `color` says.
    pub fn new(color: crate::args::Color) -> Stderr {
        Stderr {
            color,
            progress: RefCell::new(None),
        }
    }
}

impl Observer for Stderr {
    fn event(&self, event: Event<'_>) {
        match event {
            Event::Waiting { project } => {
                eprintln!(
                    "skb: waiting for another skb working in {}",
                    project.display()
                );
            }
            Event::Transfer { url, done, total } => {
                let mut slot = self.progress.borrow_mut();
                let p = slot.get_or_insert_with(|| Progress::new(url));
                p.update(done, total);
            }
            Event::TransferDone { .. } => {
                self.progress.borrow_mut().take();
            }
            Event::Checked {
                checked,
                inputs,
                failed,
                elapsed,
            } => {
                let mut shown = checked.clone();
                inputs.relabel(&mut shown);
                let color = self.color.enabled(io::stderr().is_terminal());
                let _ = crate::cmd::pack::render_checked(&shown, elapsed, color);
                if failed {
                    eprintln!("skb: nothing was written");
                }
            }
            Event::Note(note) => eprintln!("skb: note: {note}"),
            _ => {}
        }
    }
}

/// The project (or the user's scope) the arguments name.
pub fn project(args: &ProjectArgs) -> io::Result<Project> {
    if args.global {
        return Project::user(&home()?).map_err(into_io);
    }
    let root = std::path::absolute(&args.project)?;
    Ok(Project::at(&root))
}

/// The home directory: `HOME`, set and absolute (skills-core's rule).
pub fn home() -> io::Result<std::path::PathBuf> {
    skills_core::lock::home_from_env().map_err(|e| io::Error::new(io::ErrorKind::NotFound, e))
}

/// The installer the arguments describe: the project, its trust store with
/// the keys `--pubkey` names for this run (trusted for every source, never
/// written to a file), and the validation options.
pub fn installer<'a>(
    project_args: &ProjectArgs,
    policy: Option<&PolicyArgs>,
    check: Option<&CheckArgs>,
    observer: &'a dyn Observer,
) -> io::Result<Installer<'a>> {
    let project = project(project_args)?;
    let trust = trust_store(
        &project,
        policy.map(|p| p.pubkeys.as_slice()).unwrap_or_default(),
    )?;
    let mut installer = Installer::new(project, observer).map_err(into_io)?;
    installer.trust = trust;
    installer.allow_plain_text = policy.is_some_and(|p| p.allow_plain_text);
    if policy.is_some_and(|p| p.no_cache) {
        installer.git_cache = None;
    }
    if let Some(check) = check {
        installer.validation = validation(check);
    }
    Ok(installer)
}

/// The project's trust store (its `skills-trust.json` and the user's
/// file) with the keys `pubkeys` names trusted for this run, for every
/// source (never written to a file).
pub fn trust_store(project: &Project, pubkeys: &[String]) -> io::Result<TrustStore> {
    let user = trust::user_file();
    let mut store = TrustStore::load(&project.root, user.as_deref())
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    for arg in pubkeys {
        let key = match skills_core::pack::sign::load_public_key(arg) {
            Ok(key) => key,
            Err(minisign) => crate::cmd::trust::git_key_text(arg)?
                .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, minisign.to_string()))?,
        };
        store
            .project_mut()
            .add_key("command-line", &key)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    }
    Ok(store)
}

/// The library's validation options from the command line's.
pub fn validation(check: &CheckArgs) -> Validation {
    Validation {
        options: check.options(),
        deny_warnings: check.deny_warnings,
        exclude: check.exclude.clone(),
        limits: check.limits.limits(),
    }
}

/// An installer error as the `io::Error` whose kind gives the exit status
/// (`InvalidData`: 1; the rest: 2).
pub fn into_io(e: skills_install::Error) -> io::Error {
    use skills_install::ErrorKind as K;
    let kind = match e.kind() {
        K::Invalid | K::Refused => io::ErrorKind::InvalidData,
        K::NotFound => io::ErrorKind::NotFound,
        K::Usage => io::ErrorKind::InvalidInput,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, e.to_string())
}

/// The outcome of an operation that failed: a skill that does not
/// validate exits 1 with its diagnostics already printed; any other error
/// is returned to be printed once.
pub fn failed(e: skills_install::Error) -> io::Result<crate::Outcome> {
    if e.kind() == skills_install::ErrorKind::Invalid {
        return Ok(crate::Outcome::Invalid);
    }
    Err(into_io(e))
}

/// One skill `add` or `import` placed, as a line: `installed NAME -> FOLDERS`.
pub fn added_line(s: &skills_install::AddedSkill) -> String {
    format!(
        "{} {} -> {}",
        s.action.verb(),
        s.name,
        s.installed.join(", ")
    )
}

/// The same as JSON.
pub fn added_json(s: &skills_install::AddedSkill) -> serde_json::Value {
    serde_json::json!({
        "name": s.name,
        "action": s.action.verb(),
        "installed": s.installed,
        "digest": s.digest,
    })
}

/// Prints `lines` (human) or `json` on stdout.
pub fn print(format: ListFormat, lines: &[String], json: &serde_json::Value) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match format {
        ListFormat::Human => {
            for l in lines {
                writeln!(out, "{l}")?;
            }
        }
        ListFormat::Json => {
            serde_json::to_writer_pretty(&mut out, json).map_err(io::Error::other)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
