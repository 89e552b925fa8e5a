//! Reading files that someone else may control: opened once, checked on the
//! open descriptor, read with a bound.
//!
//! Every file the compiler, the packer, the executor's cache check and the
//! CLI read goes through here, because any path may turn out to be a fifo
//! (an `open` that never returns), a device (`/dev/zero`: a read that never
//! ends), or a symbolic link swapped in between a check and a read. So:
//!
//! - files are opened with `O_NONBLOCK` and `O_NOCTTY`, so that opening a
//!   fifo or a terminal cannot block or adopt it, and `fstat` on the open
//!   descriptor must then say "regular file": fifos, sockets, devices and
//!   directories are refused, named for what they are;
//! - the size from that `fstat` is checked against the caller's limit before
//!   anything is allocated, and the read stops one byte past the limit, so a
//!   file that grows while it is read is refused too;
//! - [`read_file`] is for paths the user names (a pack, a signature, a key):
//!   symbolic links are followed, since the user may name a link;
//! - [`Dir`] is for files inside a directory that was checked (a skill, a
//!   plugin root, the executor's cache): a path below it is opened one
//!   component at a time with `openat(O_NOFOLLOW)` relative to the
//!   directory's descriptor, so a link, even one swapped in after the
//!   directory was listed, is refused and never followed.
//!
//! Off Unix the same checks run on paths (`symlink_metadata` before each
//! open), which narrows the window for a swap but cannot close it.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// What a path that is not a regular file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A directory.
    Dir,
    /// A named pipe.
    Fifo,
    /// A Unix socket.
    Socket,
    /// A character device, such as `/dev/zero`.
    CharDevice,
    /// A block device.
    BlockDevice,
    /// Something the platform does not name.
    Other,
}

impl Kind {
    /// What `meta` describes; `None` for a regular file.
    fn of(meta: &Metadata) -> Option<Kind> {
        let t = meta.file_type();
        if t.is_file() {
            return None;
        }
        if t.is_dir() {
            return Some(Kind::Dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_fifo() {
                return Some(Kind::Fifo);
            }
            if t.is_socket() {
                return Some(Kind::Socket);
            }
            if t.is_char_device() {
                return Some(Kind::CharDevice);
            }
            if t.is_block_device() {
                return Some(Kind::BlockDevice);
            }
        }
        Some(Kind::Other)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Dir => "a directory",
            Kind::Fifo => "a fifo",
            Kind::Socket => "a socket",
            Kind::CharDevice => "a character device",
            Kind::BlockDevice => "a block device",
            Kind::Other => "an unknown kind of file",
        })
    }
}

/// Why a file was not read.
#[derive(Debug)]
#[non_exhaustive]
pub enum Reason {
    /// Opening or reading failed.
    Io(io::Error),
    /// The path is, or passes through, a symbolic link where links are not
    /// followed.
    Link,
    /// The path is not a regular file.
    NotFile(Kind),
    /// The file is larger than the limit.
    TooLarge {
        /// What `fstat` said, or `None` when the file grew past the limit
        /// while it was read.
        size: Option<u64>,
        /// The limit.
        limit: u64,
    },
}

/// A file that was not read, and why.
#[derive(Debug)]
#[non_exhaustive]
pub struct FileError {
    /// The file, as the caller named it (for [`Dir`], the directory's path
    /// joined with the relative one).
    pub path: PathBuf,
    /// Why.
    pub reason: Reason,
}

impl FileError {
    /// A file at `path` that was not read because of `reason`.
    pub fn new(path: PathBuf, reason: Reason) -> FileError {
        FileError { path, reason }
    }

    /// Whether the file does not exist (or a directory on its path does not).
    pub fn is_not_found(&self) -> bool {
        matches!(&self.reason, Reason::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

impl fmt::Display for Reason {
    /// Why, as a clause about the file: "it is a fifo, not a regular file".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Io(e) => write!(f, "{e}"),
            Reason::Link => {
                f.write_str("it is reached through a symbolic link, which is not followed here")
            }
            Reason::NotFile(kind) => write!(f, "it is {kind}, not a regular file"),
            Reason::TooLarge {
                size: Some(size),
                limit,
            } => write!(f, "it is {size} bytes; the limit is {}", Size(*limit)),
            Reason::TooLarge { size: None, limit } => write!(
                f,
                "it grew past the limit of {} while it was read",
                Size(*limit)
            ),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read `{}`: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.reason {
            Reason::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<FileError> for io::Error {
    /// Keeps the I/O error's kind; a file too large is `InvalidData` (bad
    /// input), anything else that is not a file is `InvalidInput` (the
    /// wrong thing was named). The message names the path.
    fn from(e: FileError) -> io::Error {
        let kind = match &e.reason {
            Reason::Io(source) => source.kind(),
            Reason::TooLarge { .. } => io::ErrorKind::InvalidData,
            Reason::Link | Reason::NotFile(_) => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, e.to_string())
    }
}

/// A byte count as `16 KiB` when it is a whole number of KiB, MiB or GiB.
struct Size(u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
            if self.0 >= 1 << shift && self.0.is_multiple_of(1 << shift) {
                return write!(f, "{} {unit}", self.0 >> shift);
            }
        }
        write!(f, "{} bytes", self.0)
    }
}

/// Reads the regular file at `path`, following symbolic links (for paths
/// the user names), refusing anything else and anything over `limit` bytes.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let fail = |reason| FileError::new(path.to_path_buf(), reason);
    let (mut file, meta) = open_following(path).map_err(fail)?;
    read_open(&mut file, &meta, limit).map_err(fail)
}

/// Reads an open file whose `fstat` is `meta`: at most `limit` bytes,
/// checked against the size before allocating and again while reading.
pub fn read_open(file: &mut File, meta: &Metadata, limit: u64) -> Result<Vec<u8>, Reason> {
    if let Some(kind) = Kind::of(meta) {
        return Err(Reason::NotFile(kind));
    }
    let size = meta.len();
    if size > limit {
        return Err(Reason::TooLarge {
            size: Some(size),
            limit,
        });
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(size).unwrap_or(usize::MAX))
        .map_err(|e| Reason::Io(io::Error::new(io::ErrorKind::OutOfMemory, e.to_string())))?;
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Reason::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Reason::TooLarge { size: None, limit });
    }
    Ok(bytes)
}

/// The identity of a file (device and inode on Unix), to tell whether a
/// path still names the directory it named before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileId {
    #[cfg(unix)]
    dev: u64,
    #[cfg(unix)]
    ino: u64,
}

impl FileId {
    fn of(meta: &Metadata) -> FileId {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            FileId {
                dev: meta.dev(),
                ino: meta.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            FileId {}
        }
    }
}

/// An open directory whose files are read without following links.
#[derive(Debug)]
pub struct Dir {
    path: PathBuf,
    id: FileId,
    /// Its `fstat` when it was opened.
    meta: Metadata,
    /// The open directory (on Unix; elsewhere only its path is kept).
    #[cfg(unix)]
    file: File,
}

impl Dir {
    /// Opens the directory at `path` (links in `path` itself are followed:
    /// it was named or checked by the caller). A path that is not a
    /// directory is `io::ErrorKind::NotADirectory`.
    pub fn open(path: &Path) -> io::Result<Dir> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let file = File::from(rustix::fs::open(
                path,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?);
            let meta = file.metadata()?;
            Ok(Dir {
                path: path.to_path_buf(),
                id: FileId::of(&meta),
                meta,
                file,
            })
        }
        #[cfg(not(unix))]
        {
            let meta = std::fs::metadata(path)?;
            if !meta.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    "not a directory",
                ));
            }
            Ok(Dir {
                path: path.to_path_buf(),
                id: FileId::of(&meta),
                meta,
            })
        }
    }

    /// The directory's path, as given to [`Dir::open`].
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The directory's identity when it was opened.
    pub fn id(&self) -> FileId {
        self.id
    }

    /// The open directory.
    #[cfg(target_os = "linux")]
    pub(crate) fn fd(&self) -> std::os::fd::BorrowedFd<'_> {
        use std::os::fd::AsFd;
        self.file.as_fd()
    }

    /// Opens the regular file at `rel` (relative, no `..`) below the
    /// directory without following any symbolic link on the way, and
    /// returns it with its `fstat`.
    pub fn open_file(&self, rel: &Path) -> Result<(File, Metadata), FileError> {
        let fail = |reason| FileError::new(self.path.join(rel), reason);
        let parts = components(rel).map_err(fail)?;
        let Some((last, dirs)) = parts.split_last() else {
            return Err(fail(Reason::NotFile(Kind::Dir)));
        };
        #[cfg(unix)]
        let (file, meta) = self.open_beneath(dirs, last, false).map_err(fail)?;
        #[cfg(not(unix))]
        let (file, meta) = self.open_beneath(dirs, last).map_err(fail)?;
        match Kind::of(&meta) {
            None => Ok((file, meta)),
            Some(kind) => Err(fail(Reason::NotFile(kind))),
        }
    }

    /// Opens the directory at `rel` (relative, no `..`, not empty) below
    /// this one without following any symbolic link on the way, the last
    /// component included: a link is [`Reason::Link`]; a regular file is an
    /// I/O error of kind `NotADirectory`.
    pub fn open_dir(&self, rel: &Path) -> Result<Dir, FileError> {
        let path = self.path.join(rel);
        let fail = |reason| FileError::new(path.clone(), reason);
        let parts = components(rel).map_err(fail)?;
        let Some((last, dirs)) = parts.split_last() else {
            return Err(fail(Reason::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                "no directory named below the directory",
            ))));
        };
        #[cfg(unix)]
        let (file, meta) = self.open_beneath(dirs, last, true).map_err(fail)?;
        #[cfg(not(unix))]
        let meta = {
            let mut at = self.path.clone();
            for part in dirs.iter().chain(std::iter::once(last)) {
                at.push(part);
                let meta = std::fs::symlink_metadata(&at).map_err(|e| fail(Reason::Io(e)))?;
                if meta.file_type().is_symlink() {
                    return Err(fail(Reason::Link));
                }
            }
            std::fs::metadata(&at).map_err(|e| fail(Reason::Io(e)))?
        };
        if !meta.is_dir() {
            return Err(fail(Reason::Io(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ))));
        }
        Ok(Dir {
            path,
            id: FileId::of(&meta),
            meta,
            #[cfg(unix)]
            file,
        })
    }

    /// `fstat` of the directory when it was opened (its mode, owner).
    pub fn metadata(&self) -> &Metadata {
        &self.meta
    }

    /// What the symbolic link `name`, an entry of this directory, says.
    pub fn read_link(&self, name: &std::ffi::OsStr) -> io::Result<PathBuf> {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let target = rustix::fs::readlinkat(&self.file, name, Vec::new())?;
            Ok(PathBuf::from(std::ffi::OsString::from_vec(
                target.into_bytes(),
            )))
        }
        #[cfg(not(unix))]
        {
            std::fs::read_link(self.path.join(name))
        }
    }

    /// Reads the regular file at `rel` below the directory (see
    /// [`Dir::open_file`]), at most `limit` bytes.
    pub fn read(&self, rel: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
        let (mut file, meta) = self.open_file(rel)?;
        read_open(&mut file, &meta, limit)
            .map_err(|reason| FileError::new(self.path.join(rel), reason))
    }

    /// Opens `dirs/last` below the directory, following no link; `last`
    /// as a directory when `dir`, else as a file that may be a fifo (which
    /// the caller refuses by its `fstat`).
    #[cfg(unix)]
    fn open_beneath(
        &self,
        dirs: &[&std::ffi::OsStr],
        last: &std::ffi::OsStr,
        dir: bool,
    ) -> Result<(File, Metadata), Reason> {
        use rustix::fs::{Mode, OFlags};
        use std::os::fd::{AsFd, OwnedFd};
        let file_flags = if dir {
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
        } else {
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC
        };
        // Below a sub-directory: one `openat2` for the whole path, refusing
        // every link on it and any way out of the directory, instead of an
        // `openat` and a `close` per component. Any failure (a link, a
        // missing file, a kernel without `openat2`) is retried component by
        // component below, which says exactly what was wrong.
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if !dirs.is_empty() {
            use rustix::fs::ResolveFlags;
            let mut rel = PathBuf::new();
            rel.extend(dirs);
            rel.push(last);
            let resolve =
                ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            if let Ok(fd) =
                rustix::fs::openat2(self.file.as_fd(), &rel, file_flags, Mode::empty(), resolve)
            {
                let file = File::from(fd);
                let meta = file.metadata().map_err(Reason::Io)?;
                return Ok((file, meta));
            }
        }
        let mut owned: Option<OwnedFd> = None;
        for part in dirs {
            let at = owned.as_ref().map_or(self.file.as_fd(), |fd| fd.as_fd());
            let next = rustix::fs::openat(
                at,
                *part,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .map_err(|e| classify(at, part, e))?;
            owned = Some(next);
        }
        let at = owned.as_ref().map_or(self.file.as_fd(), |fd| fd.as_fd());
        let fd = rustix::fs::openat(at, last, file_flags, Mode::empty())
            .map_err(|e| classify(at, last, e))?;
        let file = File::from(fd);
        let meta = file.metadata().map_err(Reason::Io)?;
        Ok((file, meta))
    }

    #[cfg(not(unix))]
    fn open_beneath(
        &self,
        dirs: &[&std::ffi::OsStr],
        last: &std::ffi::OsStr,
    ) -> Result<(File, Metadata), Reason> {
        let mut path = self.path.clone();
        for part in dirs.iter().chain(std::iter::once(&last)) {
            path.push(part);
            let meta = std::fs::symlink_metadata(&path).map_err(Reason::Io)?;
            if meta.file_type().is_symlink() {
                return Err(Reason::Link);
            }
        }
        let file = File::open(&path).map_err(Reason::Io)?;
        let meta = file.metadata().map_err(Reason::Io)?;
        Ok((file, meta))
    }
}

/// The parts of `rel`, a relative path below a directory (`.` dropped).
fn components(rel: &Path) -> Result<Vec<&std::ffi::OsStr>, Reason> {
    let mut parts = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(part) => parts.push(part),
            Component::CurDir => {}
            _ => {
                return Err(Reason::Io(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "not a relative path below the directory",
                )));
            }
        }
    }
    Ok(parts)
}

/// Opens `path` following links, without blocking on a fifo; returns the
/// file and its `fstat`, which says a regular file.
fn open_following(path: &Path) -> Result<(File, Metadata), Reason> {
    #[cfg(unix)]
    let file = {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        match rustix::fs::open(path, flags, Mode::empty()) {
            Ok(fd) => File::from(fd),
            // A socket cannot be opened (ENXIO): say what it is.
            Err(e) => {
                return Err(
                    match std::fs::metadata(path).ok().as_ref().and_then(Kind::of) {
                        Some(kind) => Reason::NotFile(kind),
                        None => Reason::Io(e.into()),
                    },
                );
            }
        }
    };
    #[cfg(not(unix))]
    let file = File::open(path).map_err(Reason::Io)?;
    let meta = file.metadata().map_err(Reason::Io)?;
    match Kind::of(&meta) {
        None => Ok((file, meta)),
        Some(kind) => Err(Reason::NotFile(kind)),
    }
}

/// Why `openat(at, name, O_NOFOLLOW)` failed: a link (`ELOOP`, or a link
/// where a directory was expected), something that cannot be opened (a
/// socket), or the error itself.
#[cfg(unix)]
fn classify(
    at: std::os::fd::BorrowedFd<'_>,
    name: &std::ffi::OsStr,
    e: rustix::io::Errno,
) -> Reason {
    use rustix::fs::FileType;
    // `O_NOFOLLOW` met a link: so it was one then, whatever is there now.
    if e == rustix::io::Errno::LOOP {
        return Reason::Link;
    }
    let Ok(st) = rustix::fs::statat(at, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW) else {
        return Reason::Io(e.into());
    };
    match FileType::from_raw_mode(st.st_mode) {
        FileType::Symlink => Reason::Link,
        FileType::Fifo => Reason::NotFile(Kind::Fifo),
        FileType::Socket => Reason::NotFile(Kind::Socket),
        FileType::CharacterDevice => Reason::NotFile(Kind::CharDevice),
        FileType::BlockDevice => Reason::NotFile(Kind::BlockDevice),
        _ => Reason::Io(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Result = std::result::Result<(), Box<dyn std::error::Error>>;

    fn reason(r: std::result::Result<Vec<u8>, FileError>) -> Reason {
        match r {
            Ok(bytes) => panic!("read {} bytes", bytes.len()),
            Err(e) => e.reason,
        }
    }

    #[test]
    fn reads_a_regular_file_within_the_limit() -> Result {
        let tmp = tempfile::tempdir()?;
        let path = tmp.path().join("f");
        std::fs::write(&path, b"12345")?;
        assert_eq!(read_file(&path, 5)?, b"12345");
        let e = read_file(&path, 4).err().ok_or("read over the limit")?;
        assert!(matches!(
            e.reason,
            Reason::TooLarge {
                size: Some(5),
                limit: 4
            }
        ));
        assert_eq!(
            e.to_string(),
            format!(
                "cannot read `{}`: it is 5 bytes; the limit is 4 bytes",
                path.display()
            )
        );
        Ok(())
    }

    #[test]
    fn sizes_are_shown_in_whole_units() {
        assert_eq!(Size(16 << 10).to_string(), "16 KiB");
        assert_eq!(Size(1 << 20).to_string(), "1 MiB");
        assert_eq!(Size(2 << 30).to_string(), "2 GiB");
        assert_eq!(Size(1000).to_string(), "1000 bytes");
        assert_eq!(Size(0).to_string(), "0 bytes");
    }

    #[test]
    fn a_directory_is_not_a_file() -> Result {
        let tmp = tempfile::tempdir()?;
        let e = read_file(tmp.path(), 10).err().ok_or("read a directory")?;
        assert!(matches!(e.reason, Reason::NotFile(Kind::Dir)), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "cannot read `{}`: it is a directory, not a regular file",
                tmp.path().display()
            )
        );
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn dev_zero_is_refused_without_reading() {
        let started = std::time::Instant::now();
        let r = reason(read_file(Path::new("/dev/zero"), u64::MAX));
        assert!(matches!(r, Reason::NotFile(Kind::CharDevice)), "{r:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) -> bool {
        std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success())
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() -> Result {
        let tmp = tempfile::tempdir()?;
        let fifo = tmp.path().join("pipe");
        if !mkfifo(&fifo) {
            return Ok(());
        }
        let r = reason(read_file(&fifo, 10));
        assert!(matches!(r, Reason::NotFile(Kind::Fifo)), "{r:?}");
        let dir = Dir::open(tmp.path())?;
        let r = reason(dir.read(Path::new("pipe"), 10));
        assert!(matches!(r, Reason::NotFile(Kind::Fifo)), "{r:?}");
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn a_socket_is_named() -> Result {
        let tmp = tempfile::tempdir()?;
        let path = tmp.path().join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&path)?;
        let r = reason(read_file(&path, 10));
        assert!(matches!(r, Reason::NotFile(Kind::Socket)), "{r:?}");
        let r = reason(Dir::open(tmp.path())?.read(Path::new("sock"), 10));
        assert!(matches!(r, Reason::NotFile(Kind::Socket)), "{r:?}");
        Ok(())
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_for_named_files_only() -> Result {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir()?;
        std::fs::create_dir_all(tmp.path().join("d/sub"))?;
        std::fs::write(tmp.path().join("d/sub/f"), b"inside")?;
        std::fs::write(tmp.path().join("outside"), b"secret")?;
        symlink(tmp.path().join("outside"), tmp.path().join("d/link"))?;
        symlink(tmp.path().join("d/sub"), tmp.path().join("d/dirlink"))?;
        assert_eq!(read_file(&tmp.path().join("d/link"), 100)?, b"secret");
        let dir = Dir::open(&tmp.path().join("d"))?;
        assert_eq!(dir.read(Path::new("sub/f"), 100)?, b"inside");
        assert_eq!(dir.read(Path::new("./sub/./f"), 100)?, b"inside");
        let r = reason(dir.read(Path::new("link"), 100));
        assert!(matches!(r, Reason::Link), "{r:?}");
        let r = reason(dir.read(Path::new("dirlink/f"), 100));
        assert!(matches!(r, Reason::Link), "{r:?}");
        // Below a sub-directory (one `openat2` on Linux): a link at the end
        // is refused too, and a missing file is still "not found".
        symlink(tmp.path().join("outside"), tmp.path().join("d/sub/link"))?;
        let r = reason(dir.read(Path::new("sub/link"), 100));
        assert!(matches!(r, Reason::Link), "{r:?}");
        let e = dir
            .read(Path::new("sub/missing"), 100)
            .err()
            .ok_or("read")?;
        assert!(e.is_not_found(), "{e:?}");
        let r = reason(dir.read(Path::new("../outside"), 100));
        assert!(
            matches!(&r, Reason::Io(e) if e.kind() == io::ErrorKind::InvalidInput),
            "{r:?}"
        );
        let e = dir.read(Path::new("missing"), 100).err().ok_or("read")?;
        assert!(e.is_not_found(), "{e:?}");
        let e = dir.read(Path::new("link"), 100).err().ok_or("read")?;
        assert_eq!(
            e.to_string(),
            format!(
                "cannot read `{}`: it is reached through a symbolic link, which is not followed here",
                tmp.path().join("d/link").display()
            )
        );
        Ok(())
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_growing_past_the_limit_stops_at_the_limit() -> Result {
        // A size that `fstat` reports as 0 while the file has contents:
        // what a growing file looks like to a reader that trusted `fstat`.
        let r = reason(read_file(Path::new("/proc/self/status"), 16));
        assert!(
            matches!(
                r,
                Reason::TooLarge {
                    size: None,
                    limit: 16
                }
            ),
            "{r:?}"
        );
        Ok(())
    }

    #[test]
    fn errors_keep_their_kind_as_io_errors() -> Result {
        let tmp = tempfile::tempdir()?;
        let missing = io::Error::from(read_file(&tmp.path().join("nope"), 1).err().ok_or("read")?);
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        let dir = io::Error::from(read_file(tmp.path(), 1).err().ok_or("read")?);
        assert_eq!(dir.kind(), io::ErrorKind::InvalidInput);
        std::fs::write(tmp.path().join("big"), b"xx")?;
        let big = io::Error::from(read_file(&tmp.path().join("big"), 1).err().ok_or("read")?);
        assert_eq!(big.kind(), io::ErrorKind::InvalidData);
        Ok(())
    }
}
