//! Helpers shared by the workspace's integration tests: the library tests
//! (`tests/tests/lib/`), `skills-cli`'s test binary `cli` (`tests/cli/`),
//! which runs the `skb` binary Cargo built for it, and `skills-bundle-mcp`'s
//! tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[cfg(feature = "mcp")]
pub mod mcp;
pub mod tier;
mod workspace;

pub use tier::{acceptance, acceptance_mod, shared};
pub use workspace::workspace;

/// `name`, checked to be installed, with stdin closed; a test that needs
/// a tool fails without it, naming the Debian package (`package`) that
/// has it, rather than passing for the wrong reason.
pub fn tool(name: &str, package: &str) -> Command {
    let probe = Command::new(name)
        .arg(if name == "python3" || name == "bash" {
            "--version"
        } else {
            "-h"
        })
        .stdin(Stdio::null())
        .output();
    if let Err(e) = probe {
        panic!("cannot run `{name}` ({e}): this test needs it: `apt-get install -y {package}`");
    }
    let mut command = Command::new(name);
    command.stdin(Stdio::null());
    command
}

/// A command that runs git's daemon itself: `git daemon` starts
/// `git-daemon` as a child, which a test's kill of `git` would leave
/// behind, still listening; the program in `git --exec-path` is the daemon
/// (`git daemon` where it is not there).
pub fn git_daemon() -> Command {
    let exec_path = Command::new("git")
        .arg("--exec-path")
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()));
    match exec_path.map(|dir| dir.join("git-daemon")) {
        Some(daemon) if daemon.is_file() => Command::new(daemon),
        _ => {
            let mut git = Command::new("git");
            git.arg("daemon");
            git
        }
    }
}

/// Runs `check` on every row of a table test, even after one fails, then
/// fails naming each failed row (`name`) with its panic message: one bad
/// row hides no other, and the failure says which rows.
pub fn each_row<R>(
    rows: impl IntoIterator<Item = R>,
    name: impl Fn(&R) -> String,
    check: impl Fn(&R),
) {
    let failed = std::sync::Mutex::new(Vec::new());
    let mut count = 0;
    for row in rows {
        count += 1;
        run_row(&row, &name, &check, &failed);
    }
    report_rows(count, failed);
}

/// [`each_row`] with the rows spread over `threads` threads.
pub fn each_row_on<R: Sync>(
    threads: usize,
    rows: impl IntoIterator<Item = R>,
    name: impl Fn(&R) -> String + Sync,
    check: impl Fn(&R) + Sync,
) {
    let rows: Vec<R> = rows.into_iter().collect();
    let failed = std::sync::Mutex::new(Vec::new());
    let chunk = rows.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        for part in rows.chunks(chunk) {
            let (name, check, failed) = (&name, &check, &failed);
            scope.spawn(move || {
                for row in part {
                    run_row(row, name, check, failed);
                }
            });
        }
    });
    report_rows(rows.len(), failed);
}

/// Runs one row, recording its panic message under its name.
fn run_row<R>(
    row: &R,
    name: &impl Fn(&R) -> String,
    check: &impl Fn(&R),
    failed: &std::sync::Mutex<Vec<String>>,
) {
    let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(row))) else {
        return;
    };
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("(a panic without a message)");
    let line = format!("[{}] {message}", name(row));
    failed.lock().unwrap_or_else(|e| e.into_inner()).push(line);
}

/// Fails listing the failed rows, if any; a table without rows fails too.
fn report_rows(count: usize, failed: std::sync::Mutex<Vec<String>>) {
    assert!(count > 0, "a table without rows tests nothing");
    let failed = failed.into_inner().unwrap_or_else(|e| e.into_inner());
    assert!(
        failed.is_empty(),
        "{} of {count} rows failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary directory")
}

/// A fresh temporary directory for a test that creates and deletes many
/// thousands of files (the crash tests of `tests/cli/transactions.rs`): in
/// memory (`/dev/shm`, a tmpfs) where the machine has one, else as
/// [`tempdir`]. On ext4, creating files in a directory tree that has seen
/// thousands of deletions walks the inode tables for recently deleted
/// inodes: with it, a debug `skb add` of ten skills for three clients took
/// 143 ms of CPU, against 86 ms on tmpfs (BENCHMARKS.md, "CI and test
/// time"). What the tests check does not depend on the file system: the
/// kills are the installer's own fault injection, and no test of it relies
/// on what a disk keeps after a power loss.
pub fn churn_tempdir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir()
        && let Ok(dir) = tempfile::Builder::new()
            .prefix("skills-tests-")
            .tempdir_in(shm)
    {
        return dir;
    }
    tempdir()
}

/// Writes `files` (relative path → bytes) under `dir`.
pub fn write_tree(dir: &Path, files: &[(&str, &[u8])]) {
    for (rel, bytes) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create directories");
        }
        std::fs::write(&path, bytes).expect("write file");
    }
}

/// Decodes standard base64 (the golden cases store file bytes that way).
pub fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let clean: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    for chunk in clean.chunks(4) {
        let data: Vec<u8> = chunk.iter().copied().filter(|&c| c != b'=').collect();
        let mut n = 0u32;
        for (i, &c) in data.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..data.len().max(1)]);
    }
    out
}

/// One case of `../shared/golden/cases.json`, materialised under a temporary root.
#[derive(Debug)]
pub struct GoldenCase {
    /// The case's JSON record.
    pub json: serde_json::Value,
    /// `<ROOT>`: the folder holding the case's directory.
    pub root: tempfile::TempDir,
}

impl GoldenCase {
    /// The case id.
    pub fn id(&self) -> &str {
        self.json["id"].as_str().unwrap_or("")
    }

    /// `<ROOT>/<dirname>`.
    pub fn dir(&self) -> PathBuf {
        self.root
            .path()
            .join(self.json["dirname"].as_str().unwrap_or(""))
    }

    /// Replaces the temporary root with `<ROOT>`, as the recorded output does.
    pub fn anonymise(&self, text: &str) -> String {
        text.replace(&self.root.path().display().to_string(), "<ROOT>")
    }
}

/// Every golden case, materialised (symbolic links included).
pub fn golden_cases() -> Vec<GoldenCase> {
    let path = tier::shared_path("golden/cases.json");
    let text = std::fs::read_to_string(&path).expect("../shared/golden/cases.json");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("cases.json is JSON");
    let cases = doc["cases"].as_array().expect("cases array").clone();
    cases
        .into_iter()
        .map(|json| {
            let root = tempdir();
            let dirname = json["dirname"].as_str().expect("dirname");
            let real = json["dir_is_symlink_to"].as_str().unwrap_or(dirname);
            let dir = root.path().join(real);
            std::fs::create_dir_all(&dir).expect("case directory");
            if let Some(files) = json["files"].as_object() {
                for (rel, spec) in files {
                    let target = dir.join(rel);
                    if let Some(parent) = target.parent() {
                        std::fs::create_dir_all(parent).expect("parent");
                    }
                    if let Some(link) = spec["symlink"].as_str() {
                        symlink(Path::new(link), &target);
                    } else {
                        let bytes = base64_decode(spec["b64"].as_str().expect("b64"));
                        std::fs::write(&target, bytes).expect("write case file");
                    }
                }
            }
            if real != dirname {
                symlink(Path::new(real), &root.path().join(dirname));
            }
            GoldenCase { json, root }
        })
        .collect()
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("create symlink");
}

#[cfg(not(unix))]
fn symlink(_target: &Path, _link: &Path) {}

/// The roots the shared corpus is discovered from: every collection under
/// `../shared/corpus/collections`, sorted (the roots `tests/tests/lib/corpus.rs`
/// checks discovery from).
pub fn corpus_roots() -> Vec<PathBuf> {
    let collections = tier::shared_path("corpus/collections");
    let mut roots: Vec<PathBuf> = std::fs::read_dir(&collections)
        .expect("../shared/corpus/collections")
        .map(|e| e.expect("collection entry").path())
        .filter(|p| p.is_dir())
        .collect();
    roots.sort();
    roots
}

/// How [`copy_tree`] writes a copy: what a pack must not depend on.
#[derive(Debug, Clone, Copy)]
pub struct CopyStyle {
    /// Mode of the files that are not executable in the source (`0o600`).
    pub file_mode: u32,
    /// Mode of the files that are executable in the source (`0o700`).
    pub exec_mode: u32,
    /// Mode of directories (`0o700`).
    pub dir_mode: u32,
    /// Seeds each file's modification time, a pseudo-random instant
    /// between 1973 and 2020 drawn from the seed and the file's path.
    pub mtime_seed: u64,
    /// Creates directories and files in reverse sorted order.
    pub reverse: bool,
}

/// Copies the directories and regular files under `from` into `to` (created
/// here) in `style`: each file is executable in the copy when any `x` bit
/// is set in the source, and keeps nothing else of the source's metadata.
/// A symbolic link or special file in the source is a test setup error.
pub fn copy_tree(from: &Path, to: &Path, style: &CopyStyle) {
    let mut dirs = Vec::new();
    let mut files = Vec::new();
    walk(from, Path::new(""), &mut dirs, &mut files);
    dirs.sort();
    files.sort();
    if style.reverse {
        dirs.reverse();
        files.reverse();
    }
    std::fs::create_dir_all(to).expect("create the copy's root");
    for dir in &dirs {
        std::fs::create_dir_all(to.join(dir)).expect("create a directory");
    }
    for rel in &files {
        let source = from.join(rel);
        let target = to.join(rel);
        let bytes = std::fs::read(&source).expect("read a source file");
        std::fs::write(&target, bytes).expect("write a copied file");
        let mode = if is_executable(&source) {
            style.exec_mode
        } else {
            style.file_mode
        };
        set_mode(&target, mode);
        let seconds = 100_000_000 + fnv1a(style.mtime_seed, rel) % 1_500_000_000;
        let time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds);
        std::fs::File::options()
            .write(true)
            .open(&target)
            .and_then(|f| f.set_modified(time))
            .expect("set a modification time");
    }
    for dir in dirs.iter().chain([&PathBuf::new()]) {
        set_mode(&to.join(dir), style.dir_mode);
    }
}

fn walk(root: &Path, rel: &Path, dirs: &mut Vec<PathBuf>, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(root.join(rel)).expect("list a source directory");
    for entry in entries {
        let entry = entry.expect("a source directory entry");
        let child = rel.join(entry.file_name());
        let kind = entry.file_type().expect("a source entry's type");
        if kind.is_dir() {
            dirs.push(child.clone());
            walk(root, &child, dirs, files);
        } else if kind.is_file() {
            files.push(child);
        } else {
            panic!(
                "`{}` is not a file or a directory",
                root.join(child).display()
            );
        }
    }
}

fn fnv1a(seed: u64, path: &Path) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64 ^ seed;
    for byte in path.to_string_lossy().bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Whether any execute bit of `path` is set (never, off Unix).
pub fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(path).expect("metadata");
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Sets the permission bits of `path` (nothing, off Unix).
pub fn set_mode(path: &Path, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
}

/// One central-directory record of a zip archive, as [`zip_records`] reads
/// it: independently of the code under test, trusting nothing but offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipRecord {
    /// The entry name.
    pub name: String,
    /// "Version made by" (host in the high byte).
    pub made_by: u16,
    /// General-purpose flags.
    pub flags: u16,
    /// Compression method: 0 stored, 8 deflated.
    pub method: u16,
    /// MS-DOS time, as recorded in the central directory.
    pub dos_time: u16,
    /// MS-DOS date, as recorded in the central directory.
    pub dos_date: u16,
    /// CRC-32 of the uncompressed data.
    pub crc32: u32,
    /// Compressed size.
    pub compressed: usize,
    /// Uncompressed size.
    pub size: usize,
    /// The Unix mode: the external attributes shifted right 16.
    pub mode: u32,
    /// Offset of this record in the central directory.
    pub central: usize,
    /// Offset of the entry's local header.
    pub local: usize,
    /// Offset of the entry's data, after its local header.
    pub data: usize,
}

/// Reads the central directory of a zip archive without ZIP64 or comment.
pub fn zip_records(bytes: &[u8]) -> Vec<ZipRecord> {
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let end = bytes.len().checked_sub(22).expect("an end record");
    assert_eq!(
        u32_at(end),
        0x0605_4b50,
        "the archive ends with its end record"
    );
    let count = usize::from(u16_at(end + 10));
    let mut at = u32_at(end + 16) as usize;
    let mut records = Vec::with_capacity(count);
    for _ in 0..count {
        assert_eq!(u32_at(at), 0x0201_4b50, "a central record at {at}");
        let name_len = usize::from(u16_at(at + 28));
        let skip = name_len + usize::from(u16_at(at + 30)) + usize::from(u16_at(at + 32));
        let local = u32_at(at + 42) as usize;
        assert_eq!(u32_at(local), 0x0403_4b50, "a local header at {local}");
        let local_skip = usize::from(u16_at(local + 26)) + usize::from(u16_at(local + 28));
        records.push(ZipRecord {
            name: String::from_utf8(bytes[at + 46..at + 46 + name_len].to_vec())
                .expect("a UTF-8 name"),
            made_by: u16_at(at + 4),
            flags: u16_at(at + 8),
            method: u16_at(at + 10),
            dos_time: u16_at(at + 12),
            dos_date: u16_at(at + 14),
            crc32: u32_at(at + 16),
            compressed: u32_at(at + 20) as usize,
            size: u32_at(at + 24) as usize,
            mode: u32_at(at + 38) >> 16,
            central: at,
            local,
            data: local + 30 + local_skip,
        });
        at += 46 + skip;
    }
    records
}

/// Runs `command`, asserting it exits 0; returns its stdout.
pub fn run_ok(command: &mut Command) -> String {
    let output = command.output().expect("run a command");
    assert!(
        output.status.success(),
        "{command:?} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The value of the `digest <hex>` line `skb pack` and `skb inspect`
/// print.
pub fn printed_digest(stdout: &str) -> String {
    let digest = stdout
        .lines()
        .find_map(|l| l.strip_prefix("digest "))
        .unwrap_or_else(|| panic!("no `digest` line in:\n{stdout}"));
    assert_eq!(digest.len(), 64, "a SHA-256 in hex: {digest}");
    digest.to_string()
}

/// Every file under `dir`, recursively, by `/`-separated path relative to it.
pub fn files_under(dir: &Path) -> std::collections::BTreeMap<String, PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut std::collections::BTreeMap<String, PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).expect("under root");
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.insert(rel.join("/"), path);
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}
