//! A folder already on the disk taken as a transaction's staged copy: a
//! skill's folder in a checkout written to the scratch folder
//! ([`crate::commit::scratch`]), moved into the transaction instead of
//! written a second time. It is kept only when it holds exactly the files
//! the skill was validated and scanned as: the same paths, byte for byte,
//! and nothing else (no link, no other file, no empty folder, nothing that
//! is not a regular file, no file with a second name). Everything is reached through descriptors
//! without following a link, and each file is read only up to the size
//! expected, so a file that grew is never read whole. Its modes are then
//! set as a written copy's are (folders 0755, files 0644 or 0755),
//! whatever the umask git ran with.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

/// Deepest folder walked (git limits a tree's depth before this).
const MAX_DEPTH: usize = 64;

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

const FILE_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

/// The files wanted, by path: their bytes and whether they are executable.
type Wanted<'a> = HashMap<&'a str, (&'a [u8], bool)>;

/// Whether the open folder `dir` holds exactly `files` (path, bytes,
/// executable) and nothing else; when it does, its modes are set to those
/// of a written copy. A read or a mode change that fails is an error; a
/// folder that holds anything else is `false`, with nothing there changed
/// but modes.
pub(crate) fn holds(dir: &File, files: &[(String, Vec<u8>, bool)]) -> io::Result<bool> {
    let wanted: Wanted<'_> = files
        .iter()
        .map(|(path, bytes, executable)| (path.as_str(), (bytes.as_slice(), *executable)))
        .collect();
    if wanted.len() != files.len() || wanted.is_empty() {
        return Ok(false);
    }
    let mut seen = 0usize;
    let all_wanted = walk(dir, "", 0, &wanted, &mut seen)?;
    if !(all_wanted && seen == wanted.len()) {
        return Ok(false);
    }
    rustix::fs::fchmod(dir, Mode::from_raw_mode(0o755))?;
    Ok(true)
}

/// Walks `dir` (at `prefix` in the skill's folder): `false` at the first
/// entry that is not one of `wanted` with its bytes; counts the files seen.
fn walk(
    dir: &File,
    prefix: &str,
    depth: usize,
    wanted: &Wanted<'_>,
    seen: &mut usize,
) -> io::Result<bool> {
    if depth > MAX_DEPTH {
        return Ok(false);
    }
    let mut names = Vec::new();
    for entry in rustix::fs::Dir::read_from(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let Ok(name) = std::str::from_utf8(name) else {
            return Ok(false);
        };
        names.push(name.to_owned());
    }
    // An empty folder is none of the skill's files: a copy would lack it.
    if names.is_empty() {
        return Ok(false);
    }
    for name in names {
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let st = rustix::fs::statat(dir.as_fd(), name.as_str(), AtFlags::SYMLINK_NOFOLLOW)?;
        let held = match FileType::from_raw_mode(st.st_mode) {
            FileType::Directory => {
                let sub = match rustix::fs::openat(
                    dir.as_fd(),
                    name.as_str(),
                    DIR_FLAGS,
                    Mode::empty(),
                ) {
                    Ok(fd) => File::from(fd),
                    // Swapped for a link since: not what was listed.
                    Err(Errno::LOOP | Errno::NOTDIR) => return Ok(false),
                    Err(e) => return Err(e.into()),
                };
                let held = walk(&sub, &path, depth + 1, wanted, seen)?;
                if held {
                    rustix::fs::fchmod(&sub, Mode::from_raw_mode(0o755))?;
                }
                held
            }
            FileType::RegularFile => match wanted.get(path.as_str()) {
                Some(&(bytes, executable)) => {
                    *seen += 1;
                    same_file(dir, &name, bytes, executable)?
                }
                None => false,
            },
            _ => false,
        };
        if !held {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether the regular file `name` in `dir` holds `bytes` (read up to
/// their length and one byte more); when it does, its mode is set.
fn same_file(dir: &File, name: &str, bytes: &[u8], executable: bool) -> io::Result<bool> {
    let mut file = match rustix::fs::openat(dir.as_fd(), name, FILE_FLAGS, Mode::empty()) {
        Ok(fd) => File::from(fd),
        Err(Errno::LOOP) => return Ok(false),
        Err(e) => return Err(e.into()),
    };
    let meta = file.metadata()?;
    // A second name for the file (a hard link) would let a change made
    // through it reach the installed copy: such a file is written instead.
    if !meta.is_file() || meta.nlink() != 1 || meta.len() != bytes.len() as u64 {
        return Ok(false);
    }
    let mut got = Vec::with_capacity(bytes.len());
    Read::by_ref(&mut file)
        .take(bytes.len() as u64 + 1)
        .read_to_end(&mut got)?;
    if got != bytes {
        return Ok(false);
    }
    let mode = if executable { 0o755 } else { 0o644 };
    rustix::fs::fchmod(&file, Mode::from_raw_mode(mode))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    use super::*;

    type Files = Vec<(String, Vec<u8>, bool)>;

    /// A skill's files as the plan has them, and a folder holding them
    /// written as git would (modes from a narrow umask).
    fn setup() -> (tempfile::TempDir, Files) {
        let tmp = tempfile::tempdir().unwrap();
        let files: Files = vec![
            ("SKILL.md".into(), b"---\nname: a\n---\n".to_vec(), false),
            ("scripts/run.sh".into(), b"#!/bin/sh\n".to_vec(), true),
            (
                "references/deep/notes.md".into(),
                b"notes\n".to_vec(),
                false,
            ),
        ];
        for (path, bytes, executable) in &files {
            let at = tmp.path().join(path);
            fs::create_dir_all(at.parent().unwrap()).unwrap();
            fs::write(&at, bytes).unwrap();
            let mode = if *executable { 0o700 } else { 0o600 };
            fs::set_permissions(&at, fs::Permissions::from_mode(mode)).unwrap();
        }
        (tmp, files)
    }

    fn open(dir: &Path) -> File {
        File::open(dir).unwrap()
    }

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_folder_holding_exactly_the_files_is_kept_with_a_copys_modes() {
        let (tmp, files) = setup();
        fs::set_permissions(
            tmp.path().join("scripts"),
            fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        assert!(holds(&open(tmp.path()), &files).unwrap());
        assert_eq!(mode(&tmp.path().join("SKILL.md")), 0o644);
        assert_eq!(mode(&tmp.path().join("scripts/run.sh")), 0o755);
        assert_eq!(mode(&tmp.path().join("scripts")), 0o755);
        assert_eq!(mode(tmp.path()), 0o755);
    }

    #[test]
    fn anything_else_in_the_folder_is_refused() {
        type Change = fn(&Path);
        let cases: [(&str, Change); 8] = [
            ("another file", |d| {
                fs::write(d.join("extra.md"), "x").unwrap()
            }),
            ("a missing file", |d| {
                fs::remove_file(d.join("scripts/run.sh")).unwrap()
            }),
            ("other bytes", |d| {
                fs::write(d.join("SKILL.md"), "---\nname: b\n---\n").unwrap()
            }),
            ("a longer file", |d| {
                fs::write(d.join("SKILL.md"), "---\nname: a\n---\nmore").unwrap()
            }),
            ("an empty folder", |d| {
                fs::create_dir(d.join("empty")).unwrap()
            }),
            ("a link for a file", |d| {
                fs::remove_file(d.join("SKILL.md")).unwrap();
                fs::write(d.join("../elsewhere.md"), "---\nname: a\n---\n").unwrap();
                std::os::unix::fs::symlink("../elsewhere.md", d.join("SKILL.md")).unwrap();
            }),
            ("a file with a second name", |d| {
                fs::hard_link(d.join("SKILL.md"), d.join("../second-name.md")).unwrap();
            }),
            ("a link for a folder", |d| {
                fs::rename(d.join("references"), d.join("../refs")).unwrap();
                std::os::unix::fs::symlink("../refs", d.join("references")).unwrap();
            }),
        ];
        for (what, change) in cases {
            let (tmp, files) = setup();
            let dir = tmp.path().join("skill");
            fs::create_dir(&dir).unwrap();
            for entry in ["SKILL.md", "scripts", "references"] {
                fs::rename(tmp.path().join(entry), dir.join(entry)).unwrap();
            }
            change(&dir);
            assert!(!holds(&open(&dir), &files).unwrap(), "{what}");
        }
    }

    #[test]
    fn nothing_wanted_is_never_held() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(!holds(&open(tmp.path()), &[]).unwrap());
    }
}
