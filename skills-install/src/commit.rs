//! The commit stage: every folder an operation changes, and the lock,
//! changed together or not at all, even across a `kill -9` or a full disk.
//!
//! A transaction lives in the project's state folder (`.skb/txn/<id>/`, or
//! `~/.config/skb/txn/<id>/` for the user's scope), outside every folder a
//! client reads (Qwen Code, Kimi Code and Amp list hidden folders too, so
//! nothing is staged beside a skill). It holds `new/<i>`, the staged copy of
//! step `i`'s folder; `old/<i>`, where the folder it replaces goes; `lock`,
//! the new lock file; and the journal, the list of steps.
//!
//! 1. Staging writes every new folder and the new lock into the
//!    transaction, then flushes the file system. Nothing a client reads has
//!    changed; a failure (a full disk) removes the transaction.
//! 2. The commit point: `journal.pending` is renamed to `journal`.
//! 3. Each step renames the folder in place to `old/<i>` and `new/<i>` into
//!    place (or only the first, for a removal); then `lock` is renamed over
//!    the lock file; then the replaced folders are deleted (or kept as
//!    backups) with the transaction.
//!
//! A failure after the commit point undoes the renames done, in reverse. A
//! process killed anywhere leaves a transaction that the next command
//! ([`recover`], run under the project's guard before anything else) rolls
//! back when it has no `journal` (nothing a client reads was touched) and
//! finishes when it has one: each step's state is told by which of
//! `new/<i>`, `old/<i>` and the target exist, so finishing is idempotent.

use std::collections::{BTreeMap, BTreeSet};
use std::io;

use serde::{Deserialize, Serialize};

use crate::adopt;
use crate::root::{Kind, Rel, Root};

/// Largest journal read back (a step is a few hundred bytes).
const MAX_JOURNAL: u64 = 64 << 20;

/// The folder of transactions, in the state root.
const TXN: &str = "txn";

/// Where a path of a transaction is: below the project (or home) root, or
/// below the state root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Base {
    /// The project folder (or the home folder).
    Target,
    /// The state folder (`.skb`, `~/.config/skb`).
    State,
}

/// A path below one of the two roots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct At {
    base: Base,
    path: String,
}

impl At {
    /// `rel` below `base`.
    pub(crate) fn new(base: Base, rel: &Rel) -> At {
        At {
            base,
            path: rel.as_str().to_string(),
        }
    }

    fn rel(&self) -> io::Result<Rel> {
        Rel::new(&self.path).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "a transaction names `{}`, which is no relative path",
                    self.path
                ),
            )
        })
    }
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "do")]
enum Step {
    /// `target` becomes the staged folder; what was there goes to `backup`
    /// when given, else is deleted.
    Put { target: At, backup: Option<At> },
    /// `target` is deleted (or moved to `backup`).
    Remove { target: At, backup: Option<At> },
}

impl Step {
    fn target(&self) -> &At {
        match self {
            Step::Put { target, .. } | Step::Remove { target, .. } => target,
        }
    }

    fn backup(&self) -> Option<&At> {
        match self {
            Step::Put { backup, .. } | Step::Remove { backup, .. } => backup.as_ref(),
        }
    }
}

/// The journal: the steps, in order, and where the new lock goes.
#[derive(Debug, Serialize, Deserialize)]
struct Journal {
    version: u32,
    steps: Vec<Step>,
    lock: Option<At>,
}

/// The two roots a transaction works in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Roots<'a> {
    /// The project (or home) folder.
    pub(crate) target: &'a Root,
    /// The state folder.
    pub(crate) state: &'a Root,
}

impl Roots<'_> {
    fn root(&self, base: Base) -> &Root {
        match base {
            Base::Target => self.target,
            Base::State => self.state,
        }
    }

    fn kind(&self, at: &At) -> io::Result<Option<Kind>> {
        self.root(at.base).kind(&at.rel()?)
    }

    fn rename(&self, from: &At, to: &At) -> io::Result<()> {
        self.root(from.base)
            .rename(&from.rel()?, self.root(to.base), &to.rel()?)
    }

    fn show(&self, at: &At) -> String {
        match at.rel() {
            Ok(rel) => self.root(at.base).show(&rel).display().to_string(),
            Err(_) => at.path.clone(),
        }
    }
}

/// A transaction being staged.
#[derive(Debug)]
pub(crate) struct Txn<'a> {
    roots: Roots<'a>,
    dir: Rel,
    steps: Vec<Step>,
    lock: Option<At>,
    /// Folders created on the way to a target, removed again (if empty)
    /// when the commit is undone.
    created: BTreeSet<Rel>,
    done: bool,
}

impl<'a> Txn<'a> {
    /// A new, empty transaction. Call [`recover`] first: one transaction
    /// at a time.
    pub(crate) fn begin(roots: Roots<'a>) -> io::Result<Txn<'a>> {
        let id = format!(
            "{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        );
        let dir = rel(&format!("{TXN}/{id}"))?;
        roots.state.create_dir_all(&dir)?;
        let txn = Txn {
            roots,
            dir,
            steps: Vec::new(),
            lock: None,
            created: BTreeSet::new(),
            done: false,
        };
        txn.roots.state.create_dir_all(&txn.sub("new")?)?;
        txn.roots.state.create_dir_all(&txn.sub("old")?)?;
        Ok(txn)
    }

    fn sub(&self, name: &str) -> io::Result<Rel> {
        rel(&format!("{}/{name}", self.dir))
    }

    /// Stages `files` (path, bytes, executable) as the new content of the
    /// folder `target` (below the target root); what is there now goes to
    /// `backup` when given. `from`, a folder below the state root (a
    /// checkout in the [`scratch`] folder), is moved in instead when it
    /// holds exactly `files` ([`adopt::holds`]); otherwise `files` are
    /// written.
    pub(crate) fn put(
        &mut self,
        target: &Rel,
        files: &[(String, Vec<u8>, bool)],
        backup: Option<At>,
        from: Option<&Rel>,
    ) -> io::Result<()> {
        self.same_device(target)?;
        let i = self.steps.len();
        let staged = self.sub(&format!("new/{i}"))?;
        let state = self.roots.state;
        if let Some(from) = from
            && self.adopt(from, &staged, files)?
        {
            self.steps.push(Step::Put {
                target: At::new(Base::Target, target),
                backup,
            });
            return Ok(());
        }
        // Every folder of the copy, opened once: `""` is its top.
        let mut dirs: BTreeMap<String, std::fs::File> = BTreeMap::new();
        let top = state.create_dir_all(&staged)?;
        // 0755 whatever the umask, as every folder below it is made.
        rustix::fs::fchmod(&top, rustix::fs::Mode::from_raw_mode(0o755))?;
        dirs.insert(String::new(), top);
        for (path, bytes, executable) in files {
            let file = rel(path)?;
            let (parent, name) = file.split();
            let parent = parent.unwrap_or_default();
            if !dirs.contains_key(parent) {
                // Each missing folder on the way, from the top down.
                let mut so_far = String::new();
                for part in parent.split('/') {
                    let next = if so_far.is_empty() {
                        part.to_string()
                    } else {
                        format!("{so_far}/{part}")
                    };
                    if !dirs.contains_key(&next) {
                        let at = staged.join(&so_far).unwrap_or_else(|| staged.clone());
                        let made = match dirs.get(&so_far) {
                            Some(up) => state.mkdir_in(up, &at, part)?,
                            None => return Err(bad_path(path)),
                        };
                        dirs.insert(next.clone(), made);
                    }
                    so_far = next;
                }
            }
            let (Some(dir), at) = (
                dirs.get(parent),
                staged.join(parent).unwrap_or_else(|| staged.clone()),
            ) else {
                return Err(bad_path(path));
            };
            state.write_new(dir, &at, name, bytes, *executable)?;
        }
        self.steps.push(Step::Put {
            target: At::new(Base::Target, target),
            backup,
        });
        Ok(())
    }

    /// Moves the folder `from` (below the state root) to `staged` and
    /// checks that it holds exactly `files`, byte for byte, each with its
    /// mode; `false` when it could not be moved or holds anything else
    /// (then it goes back, nothing is left at `staged`, and the caller
    /// writes `files`).
    fn adopt(
        &self,
        from: &Rel,
        staged: &Rel,
        files: &[(String, Vec<u8>, bool)],
    ) -> io::Result<bool> {
        let state = self.roots.state;
        let parent = staged.split().0.map(rel).transpose()?;
        if let Some(parent) = &parent {
            state.create_dir_all(parent)?;
        }
        // Gone (a folder moved with another skill's), or on another file
        // system: written instead.
        if state.rename(from, state, staged).is_err() {
            return Ok(false);
        }
        let held = match state.open_dir(staged)? {
            Some(dir) => adopt::holds(&dir, files)?,
            None => false,
        };
        if !held && state.rename(staged, state, from).is_err() {
            state.remove_all(staged)?;
        }
        Ok(held)
    }

    /// Stages the removal of the folder `target`; it goes to `backup` when
    /// given.
    pub(crate) fn remove(&mut self, target: &Rel, backup: Option<At>) {
        self.steps.push(Step::Remove {
            target: At::new(Base::Target, target),
            backup,
        });
    }

    /// Stages `bytes` as the new lock file at `lock`.
    pub(crate) fn lock(&mut self, lock: At, bytes: &[u8]) -> io::Result<()> {
        self.roots
            .state
            .create_file(&self.sub("lock")?, bytes, false)?;
        self.lock = Some(lock);
        Ok(())
    }

    /// Renames between the two roots stay on one file system: a target on
    /// another is refused now, before anything is changed.
    fn same_device(&self, target: &Rel) -> io::Result<()> {
        let state = self.roots.state.device()?;
        // The nearest folder on the way that exists.
        let mut probe = target.split().0.map(str::to_string);
        let device = loop {
            match &probe {
                None => break self.roots.target.device()?,
                Some(p) => {
                    let r = rel(p)?;
                    if let Some(dir) = self.roots.target.open_dir(&r)? {
                        break std::os::unix::fs::MetadataExt::dev(&dir.metadata()?);
                    }
                    probe = r.split().0.map(str::to_string);
                }
            }
        };
        if device != state {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "{} and {} are on different file systems: skb cannot change them together; nothing was written",
                    self.roots.target.show(target).display(),
                    self.roots.state.path().display()
                ),
            ));
        }
        Ok(())
    }

    /// Commits: after this returns `Ok`, every step and the lock are in
    /// place. On an error, what was done is undone (or, if even that
    /// fails, left for the next command to finish).
    pub(crate) fn commit(mut self) -> io::Result<Vec<Kept>> {
        let journal = Journal {
            version: 1,
            steps: self.steps.clone(),
            lock: self.lock.clone(),
        };
        let text = serde_json::to_vec_pretty(&journal).map_err(io::Error::other)?;
        let state = self.roots.state;
        state.create_file(&self.sub("journal.pending")?, &text, false)?;
        // Everything staged, and the journal, on the disk before the commit
        // point (one file system: `same_device`, so one flush).
        state.sync()?;
        // The commit point.
        state.rename(&self.sub("journal.pending")?, state, &self.sub("journal")?)?;
        let mut applied = 0;
        let result = (|| {
            for (i, step) in journal.steps.iter().enumerate() {
                self.apply(i, step)?;
                applied = i + 1;
            }
            if let Some(lock) = &journal.lock {
                let staged = At::new(Base::State, &self.sub("lock")?);
                self.roots.rename(&staged, lock)?;
            }
            state.sync()
        })();
        if let Err(e) = result {
            return Err(match self.undo(&journal, applied) {
                Ok(()) => e,
                Err(undo) => io::Error::new(
                    e.kind(),
                    format!(
                        "{e}; undoing it failed too ({undo}): the next skb command in this project finishes it"
                    ),
                ),
            });
        }
        self.done = true;
        finish(self.roots, &self.dir, &journal)
    }

    /// Step `i`, from whatever state a crash left it in.
    fn apply(&mut self, i: usize, step: &Step) -> io::Result<()> {
        let created = apply(self.roots, &self.dir, i, step)?;
        self.created.extend(created);
        Ok(())
    }

    /// Undoes the first `applied` steps, in reverse, then the commit point.
    fn undo(&self, journal: &Journal, applied: usize) -> io::Result<()> {
        let roots = self.roots;
        for (i, step) in journal.steps.iter().enumerate().take(applied + 1).rev() {
            let target = step.target();
            let new = At::new(Base::State, &self.sub(&format!("new/{i}"))?);
            let old = At::new(Base::State, &self.sub(&format!("old/{i}"))?);
            if matches!(step, Step::Put { .. })
                && roots.kind(&new)?.is_none()
                && roots.kind(target)?.is_some()
            {
                roots.rename(target, &new)?;
            }
            if roots.kind(&old)?.is_some() && roots.kind(target)?.is_none() {
                roots.rename(&old, target)?;
            }
        }
        for dir in self.created.iter().rev() {
            // Only an empty folder goes: `rmdir` refuses any other.
            let _ = roots.target.remove_if_empty(dir);
        }
        roots.state.remove_all(&self.sub("journal")?)
    }
}

impl Drop for Txn<'_> {
    /// A transaction dropped before its commit point leaves nothing: its
    /// folder goes (if that fails, the next command's [`recover`] removes
    /// it, as it has no journal).
    fn drop(&mut self) {
        if !self.done && self.roots.state.kind(&self.dir).ok().flatten().is_some() {
            let journal = self.sub("journal").ok();
            let committed = journal
                .as_ref()
                .and_then(|j| self.roots.state.kind(j).ok().flatten())
                .is_some();
            if !committed {
                let _ = self.roots.state.remove_all(&self.dir);
            }
        }
    }
}

/// A replaced folder kept as a backup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Kept {
    /// The folder it was.
    pub(crate) folder: String,
    /// Where it is now.
    pub(crate) backup: String,
}

/// Step `i` of the transaction in `dir`, done from any state a crash left
/// it in; returns the folders it created on the way to the target.
fn apply(roots: Roots<'_>, dir: &Rel, i: usize, step: &Step) -> io::Result<Vec<Rel>> {
    let target = step.target();
    let new = At::new(Base::State, &rel(&format!("{dir}/new/{i}"))?);
    let old = At::new(Base::State, &rel(&format!("{dir}/old/{i}"))?);
    let new_there = roots.kind(&new)?.is_some();
    if matches!(step, Step::Put { .. }) && !new_there {
        // Done: the staged folder is in place.
        return Ok(Vec::new());
    }
    if roots.kind(target)?.is_some() {
        if roots.kind(&old)?.is_some() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "{} exists, and so does the copy it replaced ({}): something changed it while skb was interrupted",
                    roots.show(target),
                    roots.show(&old)
                ),
            ));
        }
        roots.rename(target, &old)?;
    }
    let mut created = Vec::new();
    if matches!(step, Step::Put { .. }) {
        let target_rel = target.rel()?;
        if let (Some(parent), Base::Target) = (target_rel.split().0, target.base) {
            // The folders on the way, made here, after the commit point, so
            // that an undone install leaves no empty client folder behind.
            let parent = rel(parent)?;
            let mut probe = Some(parent.clone());
            while let Some(p) = probe {
                if roots.target.kind(&p)?.is_some() {
                    break;
                }
                created.push(p.clone());
                probe = p.split().0.and_then(Rel::new);
            }
            let placed = roots
                .target
                .create_dir_all(&parent)
                .and_then(|_| roots.rename(&new, target));
            if let Err(e) = placed {
                // A full disk can stop this halfway down the folders: those
                // made on the way go again (deepest first; only if empty),
                // or the undone install would leave an empty client folder.
                for dir in &created {
                    let _ = roots.target.remove_if_empty(dir);
                }
                return Err(e);
            }
            return Ok(created);
        }
        roots.rename(&new, target)?;
    }
    Ok(created)
}

/// After the last step: each replaced folder kept or deleted, then the
/// transaction itself.
fn finish(roots: Roots<'_>, dir: &Rel, journal: &Journal) -> io::Result<Vec<Kept>> {
    let mut kept = Vec::new();
    for (i, step) in journal.steps.iter().enumerate() {
        let old = At::new(Base::State, &rel(&format!("{dir}/old/{i}"))?);
        if let Some(backup) = step.backup()
            && roots.kind(&old)?.is_some()
        {
            if let Some(parent) = backup.rel()?.split().0 {
                roots.root(backup.base).create_dir_all(&rel(parent)?)?;
            }
            roots.rename(&old, backup)?;
            kept.push(Kept {
                folder: roots.show(step.target()),
                backup: roots.show(backup),
            });
        }
    }
    roots.state.remove_all(dir)?;
    Ok(kept)
}

/// What [`recover`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Recovered {
    /// An interrupted operation had not reached its commit point: its
    /// staged files were removed.
    RolledBack,
    /// An interrupted operation had passed its commit point: it was
    /// finished.
    Finished,
}

/// What a journal may name, checked before a step of it is replayed: a
/// project's `.skb` is in its working tree, so a cloned repository can
/// commit a "transaction" of its own; replayed, it must not be able to do
/// more than committing the same files directly would.
#[derive(Clone, Copy)]
pub(crate) struct Bounds<'a> {
    /// Whether a step's target (below the target root) may be changed: a
    /// skill's folder in a client's skills folder.
    pub(crate) target: &'a dyn Fn(&Rel) -> bool,
    /// The one place the lock may go.
    pub(crate) lock: &'a At,
}

impl Bounds<'_> {
    fn check(&self, journal: &Journal, shown: &str) -> io::Result<()> {
        let refuse = |what: String| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{shown}: {what}: not a transaction skb would make; nothing was replayed (remove it if you did not expect it)"
                ),
            )
        };
        for step in &journal.steps {
            let target = step.target();
            if target.base != Base::Target || !(self.target)(&target.rel()?) {
                return Err(refuse(format!(
                    "it changes `{}`, not a skill's folder",
                    target.path
                )));
            }
            if let Some(b) = step.backup()
                && (b.base != Base::State || !b.path.starts_with("backup/"))
            {
                return Err(refuse(format!("it keeps a backup at `{}`", b.path)));
            }
        }
        if journal.lock.as_ref().is_some_and(|l| l != self.lock) {
            return Err(refuse("it writes the lock elsewhere".to_string()));
        }
        Ok(())
    }
}

/// Finishes or rolls back every transaction an interrupted command left in
/// the state root (see the module documentation), each journal first
/// checked against `bounds`. Run under the project's guard, before anything
/// else reads the folders or the lock.
pub(crate) fn recover(roots: Roots<'_>, bounds: Bounds<'_>) -> io::Result<Vec<Recovered>> {
    let txns = rel(TXN)?;
    let mut out = Vec::new();
    for name in roots.state.list(&txns)? {
        let txn = rel(&format!("{TXN}/{name}"))?;
        let journal = rel(&format!("{txn}/journal"))?;
        match roots.state.kind(&journal)? {
            None => {
                roots.state.remove_all(&txn)?;
                out.push(Recovered::RolledBack);
            }
            Some(_) => {
                let text = roots.state.read(&journal, MAX_JOURNAL)?;
                let j: Journal = serde_json::from_slice(&text).map_err(|e| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "{}: not a journal: {e}",
                            roots.state.show(&journal).display()
                        ),
                    )
                })?;
                bounds.check(&j, &roots.state.show(&journal).display().to_string())?;
                for (i, step) in j.steps.iter().enumerate() {
                    apply(roots, &txn, i, step)?;
                }
                if let Some(lock) = &j.lock {
                    let staged = At::new(Base::State, &rel(&format!("{txn}/lock"))?);
                    if roots.kind(&staged)?.is_some() {
                        roots.rename(&staged, lock)?;
                    }
                }
                roots.state.sync()?;
                finish(roots, &txn, &j)?;
                out.push(Recovered::Finished);
            }
        }
    }
    Ok(out)
}

/// The scratch folder of the state root (`<state>/txn`, made without
/// following a link): where a checkout is written so that [`Txn::put`] can
/// move its folders in. What a stopped command left there has no journal,
/// and the next command's [`recover`] removes it.
pub(crate) fn scratch(state: &Root) -> io::Result<std::path::PathBuf> {
    let txns = rel(TXN)?;
    state.create_dir_all(&txns)?;
    Ok(state.show(&txns))
}

/// Whether an interrupted operation left a transaction (for commands that
/// only read, which report it instead of finishing it).
pub(crate) fn pending(state: &Root) -> io::Result<bool> {
    Ok(!state.list(&rel(TXN)?)?.is_empty())
}

fn rel(path: &str) -> io::Result<Rel> {
    Rel::new(path).ok_or_else(|| bad_path(path))
}

fn bad_path(path: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("`{path}` is not a relative path"),
    )
}
