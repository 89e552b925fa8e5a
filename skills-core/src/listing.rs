//! Listing a directory that someone else may control, and `stat`ing its
//! entries without following links.
//!
//! Discovery and the file walk of a skill list thousands of directories, so
//! a listing costs only what it must: on Linux one `open`, the `getdents64`
//! calls (into one 8 KiB buffer on the stack) and one `close`, where `std::fs::read_dir`
//! also `fstat`s each directory it opens; the type of each entry comes from
//! the listing itself (a `stat` only where the file system does not record
//! it), and an entry is `stat`ed relative to the open directory
//! (`fstatat(AT_SYMLINK_NOFOLLOW)`), so the name is looked up in the
//! directory that was listed, not in whatever its path names by then. A
//! directory already open as a [`Dir`] is listed through its own descriptor.
//!
//! Elsewhere the same answers come from `std::fs::read_dir` and
//! `symlink_metadata` on paths.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;
#[cfg(not(target_os = "linux"))]
use std::path::PathBuf;

use crate::fsread::Dir;

/// What a directory entry is, links not followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A directory.
    Dir,
    /// A regular file.
    File,
    /// A symbolic link.
    Symlink,
    /// A fifo, socket or device.
    Other,
}

/// What `stat` says of an entry, links not followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryMeta {
    /// What it is.
    pub kind: EntryKind,
    /// Its size in bytes.
    pub len: u64,
    /// Whether any execute bit is set (always `false` off Unix).
    pub executable: bool,
}

/// A directory's entries (`.` and `..` left out), sorted byte-wise by name,
/// with the open directory they were read from.
#[derive(Debug)]
pub struct Listing<'a> {
    entries: Vec<(OsString, EntryKind)>,
    #[cfg(target_os = "linux")]
    fd: Fd<'a>,
    #[cfg(not(target_os = "linux"))]
    path: PathBuf,
    #[cfg(not(target_os = "linux"))]
    _dir: std::marker::PhantomData<&'a Dir>,
}

/// The directory a listing was read from: opened for it, or a [`Dir`]'s.
#[cfg(target_os = "linux")]
#[derive(Debug)]
enum Fd<'a> {
    Owned(std::os::fd::OwnedFd),
    Borrowed(std::os::fd::BorrowedFd<'a>),
}

#[cfg(target_os = "linux")]
impl std::os::fd::AsFd for Fd<'_> {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        match self {
            Fd::Owned(fd) => fd.as_fd(),
            Fd::Borrowed(fd) => *fd,
        }
    }
}

impl Listing<'static> {
    /// Lists the directory at `path` (links in `path` itself are followed).
    pub fn read(path: &Path) -> io::Result<Listing<'static>> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            let fd = rustix::fs::open(path, flags, Mode::empty())?;
            Listing::from_fd(Fd::Owned(fd))
        }
        #[cfg(not(target_os = "linux"))]
        {
            Listing::from_path(path.to_path_buf())
        }
    }
}

impl<'a> Listing<'a> {
    /// Lists the open directory `dir` itself, through its descriptor.
    pub fn of(dir: &'a Dir) -> io::Result<Listing<'a>> {
        #[cfg(target_os = "linux")]
        {
            // From the start, whoever read it before.
            rustix::fs::seek(dir.fd(), rustix::fs::SeekFrom::Start(0))?;
            Listing::from_fd(Fd::Borrowed(dir.fd()))
        }
        #[cfg(not(target_os = "linux"))]
        {
            Listing::from_path(dir.path().to_path_buf())
        }
    }

    #[cfg(target_os = "linux")]
    fn from_fd(fd: Fd<'a>) -> io::Result<Listing<'a>> {
        use rustix::fs::{AtFlags, FileType, RawDir};
        use std::mem::MaybeUninit;
        use std::os::fd::AsFd;
        use std::os::unix::ffi::OsStrExt;
        // On the stack: most directories fit in one call, larger ones take
        // more calls, never more memory.
        let mut buf = [const { MaybeUninit::<u8>::uninit() }; 8 << 10];
        let mut raw = RawDir::new(fd.as_fd(), &mut buf);
        let mut entries = Vec::new();
        while let Some(entry) = raw.next() {
            let entry = entry?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let name = OsStr::from_bytes(name).to_os_string();
            let kind = match entry.file_type() {
                FileType::Unknown => {
                    let st = rustix::fs::statat(fd.as_fd(), &*name, AtFlags::SYMLINK_NOFOLLOW)?;
                    kind_of(FileType::from_raw_mode(st.st_mode))
                }
                t => kind_of(t),
            };
            entries.push((name, kind));
        }
        entries.sort_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
        Ok(Listing { entries, fd })
    }

    #[cfg(not(target_os = "linux"))]
    fn from_path(path: PathBuf) -> io::Result<Listing<'a>> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&path)? {
            let entry = entry?;
            entries.push((entry.file_name(), EntryKind::of(entry.file_type()?)));
        }
        entries.sort_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
        Ok(Listing {
            entries,
            path,
            _dir: std::marker::PhantomData,
        })
    }

    /// The entries: name and kind, sorted byte-wise by name.
    pub fn entries(&self) -> &[(OsString, EntryKind)] {
        &self.entries
    }

    /// `stat` of the entry `name` of this directory, links not followed.
    pub fn metadata(&self, name: &OsStr) -> io::Result<EntryMeta> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{AtFlags, FileType};
            use std::os::fd::AsFd;
            let st = rustix::fs::statat(self.fd.as_fd(), name, AtFlags::SYMLINK_NOFOLLOW)?;
            Ok(EntryMeta {
                kind: kind_of(FileType::from_raw_mode(st.st_mode)),
                len: st.st_size.try_into().unwrap_or(0),
                executable: st.st_mode & 0o111 != 0,
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let meta = std::fs::symlink_metadata(self.path.join(name))?;
            Ok(EntryMeta::of(&meta))
        }
    }
}

impl EntryKind {
    /// What a `std` file type says.
    fn of(t: std::fs::FileType) -> EntryKind {
        if t.is_symlink() {
            EntryKind::Symlink
        } else if t.is_dir() {
            EntryKind::Dir
        } else if t.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        }
    }
}

impl EntryMeta {
    /// From `std` metadata (of a file reached through a link, say).
    pub fn of(meta: &std::fs::Metadata) -> EntryMeta {
        let kind = EntryKind::of(meta.file_type());
        #[cfg(unix)]
        let executable = {
            use std::os::unix::fs::PermissionsExt;
            meta.permissions().mode() & 0o111 != 0
        };
        #[cfg(not(unix))]
        let executable = false;
        EntryMeta {
            kind,
            len: meta.len(),
            executable,
        }
    }
}

#[cfg(target_os = "linux")]
fn kind_of(t: rustix::fs::FileType) -> EntryKind {
    use rustix::fs::FileType;
    match t {
        FileType::Directory => EntryKind::Dir,
        FileType::RegularFile => EntryKind::File,
        FileType::Symlink => EntryKind::Symlink,
        _ => EntryKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_sorted_kinds_and_stats_without_following_links() -> io::Result<()> {
        let tmp = std::env::temp_dir().join(format!("skills-listing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(tmp.join("sub"))?;
        std::fs::write(tmp.join("b.txt"), b"hello")?;
        std::fs::write(tmp.join("a.sh"), b"#!/bin/sh\n")?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(tmp.join("a.sh"), std::fs::Permissions::from_mode(0o755))?;
            std::os::unix::fs::symlink("b.txt", tmp.join("link"))?;
        }
        let listing = Listing::read(&tmp)?;
        let names: Vec<_> = listing
            .entries()
            .iter()
            .map(|(n, k)| (n.to_str(), *k))
            .collect();
        let mut expected = vec![
            (Some("a.sh"), EntryKind::File),
            (Some("b.txt"), EntryKind::File),
        ];
        #[cfg(unix)]
        expected.push((Some("link"), EntryKind::Symlink));
        expected.push((Some("sub"), EntryKind::Dir));
        assert_eq!(names, expected);
        let b = listing.metadata(OsStr::new("b.txt"))?;
        assert_eq!((b.kind, b.len, b.executable), (EntryKind::File, 5, false));
        #[cfg(unix)]
        {
            assert!(listing.metadata(OsStr::new("a.sh"))?.executable);
            assert_eq!(
                listing.metadata(OsStr::new("link"))?.kind,
                EntryKind::Symlink
            );
        }
        // A directory open as a `Dir` lists the same, twice.
        let dir = Dir::open(&tmp)?;
        for _ in 0..2 {
            let again = Listing::of(&dir)?;
            assert_eq!(again.entries(), listing.entries());
        }
        assert!(Listing::read(&tmp.join("b.txt")).is_err());
        std::fs::remove_dir_all(&tmp)
    }
}
