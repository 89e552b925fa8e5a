//! The project's boundary: every folder the installer checks, writes,
//! renames or deletes is reached from an open descriptor of the project's
//! root (or, for the user's scope, the home folder), one component at a
//! time, never through a symbolic link.
//!
//! A cloned repository may commit `.claude` as a link to a folder outside
//! the project, or `.claude/skills/pdf` as a link to the user's own copy;
//! a path-based installer would then write, replace or delete there. Here
//! a folder below the root is opened with `openat2(RESOLVE_BENEATH |
//! RESOLVE_NO_SYMLINKS)` where the kernel has it, else component by
//! component with `openat(O_NOFOLLOW | O_DIRECTORY)` from the root's
//! descriptor; files are created with `O_CREAT | O_EXCL | O_NOFOLLOW`; a
//! rename or delete names its parent by descriptor. A link anywhere on the
//! way is an error naming the path, and nothing is written.
//!
//! Paths are [`Rel`]: relative, `/`-separated, no `.` or `..`, checked
//! when made. Every mutation first passes the fault injection point, which
//! the crash and full-disk tests use.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::failpoint;

/// What a link on the way says, as the error message's reason.
pub(crate) const LINK: &str =
    "is a symbolic link: skb reads and writes nothing through a link below the project";

/// A relative path below a root: `/`-separated normal components.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rel(String);

impl Rel {
    /// `path` if it is relative and normal (no empty, `.` or `..`
    /// component, no backslash or NUL); `None` otherwise.
    pub fn new(path: &str) -> Option<Rel> {
        skills_core::path::is_normal(path).then(|| Rel(path.to_string()))
    }

    /// The path, `/`-separated.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `self/name` (`name` one normal component, or several).
    pub fn join(&self, name: &str) -> Option<Rel> {
        Rel::new(&format!("{}/{name}", self.0))
    }

    /// The parent and the last component; the parent is `None` for a
    /// one-component path.
    pub fn split(&self) -> (Option<&str>, &str) {
        match self.0.rsplit_once('/') {
            Some((parent, name)) => (Some(parent), name),
            None => (None, &self.0),
        }
    }

    fn components(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }
}

impl fmt::Display for Rel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What is at a path below a root, links not followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A directory.
    Dir,
    /// A regular file.
    File,
    /// A symbolic link.
    Link,
    /// A fifo, socket or device.
    Other,
}

/// An open root: the project folder, or the user's home.
#[derive(Debug)]
pub struct Root {
    path: PathBuf,
    dir: File,
    /// The user's home: the folders leading to a skill's folder may be
    /// links the user made (a dotfiles checkout linked as `~/.claude`), as
    /// `skills_core::lock::Scope` reads them; the skill's folder itself and
    /// everything in it may not.
    follow_above: bool,
}

impl Root {
    /// Opens the folder at `path` (links in `path` itself are followed: the
    /// user named it), creating it when `create`.
    pub fn open(path: &Path, create: bool) -> io::Result<Root> {
        if create {
            std::fs::create_dir_all(path).map_err(|e| annotate(e, path))?;
        }
        let dir = open_dir_at_path(path).map_err(|e| annotate(e, path))?;
        Ok(Root {
            path: path.to_path_buf(),
            dir,
            follow_above: false,
        })
    }

    /// Opens the user's home folder at `path` (created when missing):
    /// folders opened as the parents of a skill's folder follow links
    /// there, the user's own layout (see [`Root`]).
    pub fn open_home(path: &Path) -> io::Result<Root> {
        Ok(Root {
            follow_above: true,
            ..Root::open(path, true)?
        })
    }

    /// The folder `rel` below this root, as a root of its own (created
    /// when missing; never through a link).
    pub fn sub(&self, rel: &Rel) -> io::Result<Root> {
        Ok(Root {
            path: self.show(rel),
            dir: self.create_dir_all(rel)?,
            follow_above: false,
        })
    }

    /// Opens the regular file `name` directly in this root for reading and
    /// writing, created (mode 0644) when missing, never through a link: a
    /// lock file for `flock`.
    pub fn open_lockfile(&self, name: &str) -> io::Result<File> {
        let shown = self.path.join(name);
        sys::open_or_create(&self.dir, name).map_err(|e| annotate(e, &shown))
    }

    /// The root's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The absolute path of `rel`, for messages.
    pub fn show(&self, rel: &Rel) -> PathBuf {
        self.path.join(rel.as_str())
    }

    /// Opens the folder `rel` without following a link on the way;
    /// `Ok(None)` when it (or a folder on the way) does not exist.
    pub fn open_dir(&self, rel: &Rel) -> io::Result<Option<File>> {
        match self.open_parent(rel, false) {
            Ok(f) => Ok(Some(f)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.error(e, rel)),
        }
    }

    /// Opens the folder `rel`, creating it and every missing folder on the
    /// way (mode 0755), without following a link.
    pub fn create_dir_all(&self, rel: &Rel) -> io::Result<File> {
        self.open_parent(rel, true).map_err(|e| self.error(e, rel))
    }

    /// What is at `rel`, links not followed; `None` when nothing is (or a
    /// folder on the way is missing). A link on the way is an error.
    pub fn kind(&self, rel: &Rel) -> io::Result<Option<Kind>> {
        let (parent, name) = rel.split();
        let dir = match parent {
            None => self.dir.try_clone()?,
            Some(p) => match self.open_parent(&Rel(p.to_string()), false) {
                Ok(d) => d,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(self.error(e, rel)),
            },
        };
        sys::kind_at(&dir, name).map_err(|e| self.error(e, rel))
    }

    /// Writes the regular file `name` in the open folder `dir`: created new
    /// (never through a link, never over a file), mode 0644 or 0755, its
    /// data flushed.
    pub fn write_new(
        &self,
        dir: &File,
        at: &Rel,
        name: &str,
        bytes: &[u8],
        executable: bool,
    ) -> io::Result<()> {
        let shown = || self.path.join(at.as_str()).join(name);
        failpoint::hit(failpoint::Op::Write).map_err(|e| annotate(e, &shown()))?;
        let mut file = sys::create_new(dir, name, executable).map_err(|e| annotate(e, &shown()))?;
        file.write_all(bytes).map_err(|e| annotate(e, &shown()))?;
        Ok(())
    }

    /// Writes the new regular file `rel` (see [`Root::write_new`]); its
    /// folder must exist.
    pub fn create_file(&self, rel: &Rel, bytes: &[u8], executable: bool) -> io::Result<()> {
        let (dir, name) = self.parent_of(rel)?;
        failpoint::hit(failpoint::Op::Write).map_err(|e| self.error(e, rel))?;
        let mut file = sys::create_new(&dir, name, executable).map_err(|e| self.error(e, rel))?;
        file.write_all(bytes).map_err(|e| self.error(e, rel))
    }

    /// Creates the folder `name` in the open folder `dir` (mode 0755) and
    /// opens it.
    pub fn mkdir_in(&self, dir: &File, at: &Rel, name: &str) -> io::Result<File> {
        let shown = || self.path.join(at.as_str()).join(name);
        failpoint::hit(failpoint::Op::Write).map_err(|e| annotate(e, &shown()))?;
        sys::mkdir_open(dir, name).map_err(|e| annotate(e, &shown()))
    }

    /// Renames `from` (below this root) to `to` (below `to_root`), neither
    /// through a link; `to` must not exist unless it is an empty folder.
    pub fn rename(&self, from: &Rel, to_root: &Root, to: &Rel) -> io::Result<()> {
        failpoint::hit(failpoint::Op::Rename).map_err(|e| self.error(e, from))?;
        let (from_parent, from_name) = self.parent_of(from)?;
        let (to_parent, to_name) = to_root.parent_of(to)?;
        sys::rename(&from_parent, from_name, &to_parent, to_name).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "renaming {} to {}: {e}",
                    self.show(from).display(),
                    to_root.show(to).display()
                ),
            )
        })
    }

    /// Deletes `rel` and everything below it without following any link
    /// (a link inside is deleted as itself); nothing there is fine.
    pub fn remove_all(&self, rel: &Rel) -> io::Result<()> {
        let (parent, name) = match self.parent_of(rel) {
            Ok(p) => p,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e),
        };
        failpoint::hit(failpoint::Op::Remove).map_err(|e| self.error(e, rel))?;
        sys::remove_tree(&parent, name, 0).map_err(|e| self.error(e, rel))
    }

    /// The names in the folder `rel` (links not followed on the way),
    /// sorted; empty when it does not exist.
    pub fn list(&self, rel: &Rel) -> io::Result<Vec<String>> {
        match self.open_dir(rel)? {
            Some(dir) => sys::names(&dir).map_err(|e| self.error(e, rel)),
            None => Ok(Vec::new()),
        }
    }

    /// Deletes the folder `rel` if it is empty; a folder with anything in
    /// it, or nothing there, is left as it is.
    pub fn remove_if_empty(&self, rel: &Rel) -> io::Result<()> {
        let (parent, name) = self.parent_of(rel)?;
        failpoint::hit(failpoint::Op::Remove).map_err(|e| self.error(e, rel))?;
        sys::rmdir_if_empty(&parent, name).map_err(|e| self.error(e, rel))
    }

    /// Reads the regular file `rel` (no link on the way or at the end), at
    /// most `limit` bytes.
    pub fn read(&self, rel: &Rel, limit: u64) -> io::Result<Vec<u8>> {
        let (parent, name) = self.parent_of(rel)?;
        let mut file = sys::open_file(&parent, name).map_err(|e| self.error(e, rel))?;
        let mut bytes = Vec::new();
        std::io::Read::by_ref(&mut file)
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| self.error(e, rel))?;
        if bytes.len() as u64 > limit {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: larger than {limit} bytes", self.show(rel).display()),
            ));
        }
        Ok(bytes)
    }

    /// Flushes the file system the root is on (one call for everything a
    /// transaction staged, instead of one `fsync` per file).
    pub fn sync(&self) -> io::Result<()> {
        failpoint::hit(failpoint::Op::Sync).map_err(|e| annotate(e, &self.path))?;
        if !failpoint::syncs() {
            return Ok(());
        }
        sys::sync(&self.dir).map_err(|e| annotate(e, &self.path))
    }

    /// The device the root is on (renames stay within one).
    pub fn device(&self) -> io::Result<u64> {
        sys::device(&self.dir)
    }

    /// The folder holding `rel`, open, and `rel`'s last component.
    fn parent_of<'a>(&self, rel: &'a Rel) -> io::Result<(File, &'a str)> {
        let (parent, name) = rel.split();
        let dir = match parent {
            None => self.dir.try_clone()?,
            Some(p) => self
                .open_parent(&Rel(p.to_string()), false)
                .map_err(|e| self.error(e, rel))?,
        };
        Ok((dir, name))
    }

    /// Opens `rel` as the folder holding something this root changes: in
    /// the user's home, following links on the way (the user's layout);
    /// elsewhere, never.
    fn open_parent(&self, rel: &Rel, create: bool) -> io::Result<File> {
        if !self.follow_above {
            return sys::open_beneath(&self.dir, rel, create);
        }
        let path = self.path.join(rel.as_str());
        if create {
            failpoint::hit(failpoint::Op::Write)?;
            std::fs::create_dir_all(&path)?;
        }
        open_dir_at_path(&path)
    }

    fn error(&self, e: io::Error, rel: &Rel) -> io::Error {
        annotate(e, &self.show(rel))
    }
}

/// `e` with the path it is about; a link met on the way says so.
fn annotate(e: io::Error, path: &Path) -> io::Error {
    if sys::is_link_error(&e) {
        return io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} (or a folder on the way to it) {LINK}", path.display()),
        );
    }
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn open_dir_at_path(path: &Path) -> io::Result<File> {
    sys::open_dir_following(path)
}

#[cfg(unix)]
mod sys {
    //! The descriptor-relative operations, through rustix.

    use std::fs::File;
    use std::io;
    use std::os::fd::{AsFd, OwnedFd};
    use std::path::Path;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};
    use rustix::io::Errno;

    use crate::root::{Kind, Rel};

    /// A marker error for "a link was met", mapped by `annotate`.
    fn link() -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, "symbolic link")
    }

    pub(super) fn is_link_error(e: &io::Error) -> bool {
        e.kind() == io::ErrorKind::InvalidData && e.to_string() == "symbolic link"
    }

    const DIR_FLAGS: OFlags = OFlags::RDONLY
        .union(OFlags::DIRECTORY)
        .union(OFlags::NOFOLLOW)
        .union(OFlags::CLOEXEC);

    pub(super) fn open_dir_following(path: &Path) -> io::Result<File> {
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(File::from(fd))
    }

    /// Opens (creating when asked) the folder `rel` below `root`.
    pub(super) fn open_beneath(root: &File, rel: &Rel, create: bool) -> io::Result<File> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if !create {
            use rustix::fs::ResolveFlags;
            let resolve =
                ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            match rustix::fs::openat2(
                root.as_fd(),
                rel.as_str(),
                DIR_FLAGS,
                Mode::empty(),
                resolve,
            ) {
                Ok(fd) => return Ok(File::from(fd)),
                // A link on the way (`ELOOP`), or a path leaving the root
                // (`EXDEV`): refused as a link.
                Err(Errno::LOOP | Errno::XDEV) => return Err(link()),
                Err(Errno::NOENT) => return Err(Errno::NOENT.into()),
                // No `openat2` (old kernel, seccomp), or anything else:
                // component by component says exactly what is wrong.
                Err(_) => {}
            }
        }
        let mut dir: Option<OwnedFd> = None;
        for part in rel.components() {
            let at = dir.as_ref().map_or(root.as_fd(), |d| d.as_fd());
            let next = match rustix::fs::openat(at, part, DIR_FLAGS, Mode::empty()) {
                Ok(fd) => fd,
                Err(Errno::NOENT) if create => {
                    crate::failpoint::hit(crate::failpoint::Op::Write)?;
                    match rustix::fs::mkdirat(at, part, Mode::from_raw_mode(0o755)) {
                        Ok(()) | Err(Errno::EXIST) => {}
                        Err(e) => return Err(e.into()),
                    }
                    rustix::fs::openat(at, part, DIR_FLAGS, Mode::empty())
                        .map_err(|e| classify(at, part, e))?
                }
                Err(e) => return Err(classify(at, part, e)),
            };
            dir = Some(next);
        }
        match dir {
            Some(d) => Ok(File::from(d)),
            None => root.try_clone(),
        }
    }

    /// Why `openat(at, name, O_NOFOLLOW | O_DIRECTORY)` failed.
    fn classify(at: std::os::fd::BorrowedFd<'_>, name: &str, e: Errno) -> io::Error {
        if e == Errno::LOOP {
            return link();
        }
        if e == Errno::NOTDIR
            && let Ok(st) = rustix::fs::statat(at, name, AtFlags::SYMLINK_NOFOLLOW)
            && FileType::from_raw_mode(st.st_mode) == FileType::Symlink
        {
            return link();
        }
        e.into()
    }

    pub(super) fn kind_at(dir: &File, name: &str) -> io::Result<Option<Kind>> {
        match rustix::fs::statat(dir.as_fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(match FileType::from_raw_mode(st.st_mode) {
                FileType::Directory => Kind::Dir,
                FileType::RegularFile => Kind::File,
                FileType::Symlink => Kind::Link,
                _ => Kind::Other,
            })),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    pub(super) fn create_new(dir: &File, name: &str, executable: bool) -> io::Result<File> {
        let mode = if executable { 0o755 } else { 0o644 };
        let fd = rustix::fs::openat(
            dir.as_fd(),
            name,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(mode),
        )
        .map_err(|e| if e == Errno::LOOP { link() } else { e.into() })?;
        // The umask may have narrowed it: the mode is what the lock says.
        rustix::fs::fchmod(&fd, Mode::from_raw_mode(mode))?;
        Ok(File::from(fd))
    }

    pub(super) fn mkdir_open(dir: &File, name: &str) -> io::Result<File> {
        rustix::fs::mkdirat(dir.as_fd(), name, Mode::from_raw_mode(0o755))?;
        let fd = rustix::fs::openat(dir.as_fd(), name, DIR_FLAGS, Mode::empty())?;
        rustix::fs::fchmod(&fd, Mode::from_raw_mode(0o755))?;
        Ok(File::from(fd))
    }

    pub(super) fn rename(from: &File, from_name: &str, to: &File, to_name: &str) -> io::Result<()> {
        rustix::fs::renameat(from.as_fd(), from_name, to.as_fd(), to_name)?;
        Ok(())
    }

    /// Deletes `name` in `dir`: a folder with everything in it (entries
    /// opened relative to their folder, never followed), else the entry.
    pub(super) fn remove_tree(dir: &File, name: &str, depth: usize) -> io::Result<()> {
        let st = match rustix::fs::statat(dir.as_fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => st,
            Err(Errno::NOENT) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        if FileType::from_raw_mode(st.st_mode) != FileType::Directory {
            return match rustix::fs::unlinkat(dir.as_fd(), name, AtFlags::empty()) {
                Ok(()) | Err(Errno::NOENT) => Ok(()),
                Err(e) => Err(e.into()),
            };
        }
        if depth > 64 {
            return Err(io::Error::other("folders nested more than 64 deep"));
        }
        let sub = File::from(rustix::fs::openat(
            dir.as_fd(),
            name,
            DIR_FLAGS,
            Mode::empty(),
        )?);
        // A folder without write permission (a skill's `chmod -w` folder)
        // cannot be emptied: make it writable first.
        let _ = rustix::fs::fchmod(&sub, Mode::from_raw_mode(0o700));
        let mut names = Vec::new();
        for entry in rustix::fs::Dir::read_from(&sub)? {
            let entry = entry?;
            let n = entry.file_name().to_bytes();
            if n != b"." && n != b".." {
                names.push(
                    std::str::from_utf8(n)
                        .map(str::to_string)
                        .map_err(|_| io::Error::other("a name that is not UTF-8"))?,
                );
            }
        }
        for n in names {
            remove_tree(&sub, &n, depth + 1)?;
        }
        match rustix::fs::unlinkat(dir.as_fd(), name, AtFlags::REMOVEDIR) {
            Ok(()) | Err(Errno::NOENT) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    pub(super) fn open_or_create(dir: &File, name: &str) -> io::Result<File> {
        let fd = rustix::fs::openat(
            dir.as_fd(),
            name,
            OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o644),
        )
        .map_err(|e| {
            if e == Errno::LOOP {
                link()
            } else {
                io::Error::from(e)
            }
        })?;
        Ok(File::from(fd))
    }

    pub(super) fn names(dir: &File) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in rustix::fs::Dir::read_from(dir)? {
            let entry = entry?;
            let n = entry.file_name().to_bytes();
            if n != b"." && n != b".." {
                names.push(String::from_utf8_lossy(n).into_owned());
            }
        }
        names.sort();
        Ok(names)
    }

    pub(super) fn rmdir_if_empty(dir: &File, name: &str) -> io::Result<()> {
        match rustix::fs::unlinkat(dir.as_fd(), name, AtFlags::REMOVEDIR) {
            Ok(()) | Err(Errno::NOENT | Errno::NOTEMPTY | Errno::EXIST | Errno::NOTDIR) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    pub(super) fn open_file(dir: &File, name: &str) -> io::Result<File> {
        let fd = rustix::fs::openat(
            dir.as_fd(),
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| {
            if e == Errno::LOOP {
                link()
            } else {
                io::Error::from(e)
            }
        })?;
        let file = File::from(fd);
        if !file.metadata()?.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "not a regular file",
            ));
        }
        Ok(file)
    }

    pub(super) fn sync(dir: &File) -> io::Result<()> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            rustix::fs::syncfs(dir.as_fd())?;
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        {
            rustix::fs::fsync(dir.as_fd())?;
        }
        Ok(())
    }

    pub(super) fn device(dir: &File) -> io::Result<u64> {
        Ok(rustix::fs::fstat(dir.as_fd())?.st_dev as u64)
    }
}

#[cfg(not(unix))]
mod sys {
    //! The boundary rests on descriptor-relative calls (`openat`,
    //! `renameat`, `unlinkat`) that only Unix has.
    compile_error!("skills-install needs a Unix platform (openat, renameat, unlinkat)");
}
