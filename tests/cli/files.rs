//! Files that are not what they seem, through every command that reads
//! them: each row named after the attack, with the exact outcome.
//!
//! - **A fifo named `SKILL.md`** hung `validate`, `pack`, `catalog`,
//!   `read-properties`, `to-prompt` and `serve` (seen to be a fifo, then
//!   opened anyway). Each row runs under a time limit, so a regression fails
//!   instead of hanging.
//! - **A `SKILL.md` that is a symbolic link** out of its skill: to
//!   `/etc/passwd` (whose first line reached the diagnostic snippet and the
//!   JSON `source_line`), to another skill's `SKILL.md` (validated and
//!   packed as if it were this one), to `/dev/zero` (reported as "a
//!   directory"). Each is error `SK008` now, with nothing of the target
//!   read; a link that stays inside the skill is still read.
//! - **Special and oversized inputs named on the command line**: a pack,
//!   signature or key that is `/dev/zero` (read to exhaustion before) or a
//!   fifo, a signature or key over its bound, a sparse pack over 2 GiB.
//!   Each is refused at once, under a memory limit a read to exhaustion
//!   would break.
//! - **A file swapped for a link out of the skill while `pack` runs**: 100
//!   packs, none may hold the outside file's bytes.
//! - **A cached file swapped for a fifo or a link while the executor checks
//!   the cache**: 100 checks, none may hang or accept it.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::fs;
use std::io::Read;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::{skills, skills_bin};
use skills_bundle::exec::materialise;
use skills_bundle::pack::{Pack, Trust};
use skills_bundle::{Bundle, skills_bundle};
use skills_tests::tempdir;

static S: Bundle = skills_bundle!("../tests/fixtures/security-skills");

/// How long any row may take: far more than a refusal needs.
const LIMIT: Duration = Duration::from_secs(20);

/// Runs `command` with stdin closed, killing it (and failing `row`) if it
/// is still running after [`LIMIT`].
fn run(row: &str, command: &mut Command) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        stdout.read_to_end(&mut b).map(|_| b)
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        stderr.read_to_end(&mut b).map(|_| b)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("[{row}] still running after {LIMIT:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Output {
        status,
        stdout: out.join().unwrap().unwrap(),
        stderr: err.join().unwrap().unwrap(),
    }
}

/// The run's time (`in 0.6 ms`, `in 12 ms`) as `in <T>`.
fn untimed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(" in ") {
        let (head, tail) = rest.split_at(at + 4);
        out.push_str(head);
        let digits = tail
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(tail.len());
        if digits > 0 && tail[digits..].starts_with(" ms") {
            out.push_str("<T>");
            rest = &tail[digits + 3..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// A line of `/etc/passwd`, which must never be printed.
fn passwd_line() -> String {
    fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|t| t.lines().next().map(str::to_string))
        .unwrap_or_else(|| "root:x:0:0:".to_string())
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

const VALID: &str = "---\nname: s\ndescription: Inside. Use when testing.\n---\nbody\n";
const OUTSIDE: &str =
    "---\nname: s\ndescription: OUTSIDE-DESCRIPTION. Use when testing.\n---\nOUTSIDE-BODY\n";

// ---------------------------------------------------------------------------
// 1. `SKILL.md` is a fifo or a link: through every command that reads it.

/// What `SKILL.md` is in skill directory `s` (the tree is under a fresh
/// `<ROOT>`, the current directory of the run).
#[derive(Debug, Clone, Copy)]
enum SkillMd {
    Fifo,
    /// A link to `/etc/passwd`.
    EtcPasswd,
    /// A link to `<ROOT>/other/s/SKILL.md`, a valid skill of the same name.
    OtherSkill,
    DevZero,
    /// A link to `real.md` inside the skill (the control row).
    Inside,
}

impl SkillMd {
    fn make(self, root: &Path) {
        let dir = root.join("s");
        fs::create_dir_all(&dir).unwrap();
        let md = dir.join("SKILL.md");
        match self {
            SkillMd::Fifo => mkfifo(&md),
            SkillMd::EtcPasswd => symlink("/etc/passwd", &md).unwrap(),
            SkillMd::OtherSkill => {
                fs::create_dir_all(root.join("other/s")).unwrap();
                fs::write(root.join("other/s/SKILL.md"), OUTSIDE).unwrap();
                symlink("../other/s/SKILL.md", &md).unwrap();
            }
            SkillMd::DevZero => symlink("/dev/zero", &md).unwrap(),
            SkillMd::Inside => {
                fs::write(dir.join("real.md"), VALID).unwrap();
                symlink("real.md", &md).unwrap();
            }
        }
    }
}

struct MdCase {
    attack: &'static str,
    skill_md: SkillMd,
    args: &'static [&'static str],
    code: i32,
    /// `<ROOT>` is the canonical root; times read `in <T>`.
    stdout: &'static str,
    stderr: &'static str,
}

/// `SK004` for the fifo `s/SKILL.md`, as `validate` prints it.
macro_rules! fifo_sk004 {
    () => {
        "error[SK004]: cannot read `s/SKILL.md`: it is a fifo, not a regular file\n --> s/SKILL.md\n\nchecked 1 skill in <T>: 0 valid, 1 invalid (1 error)\n"
    };
}

/// `SK008` for `s/SKILL.md` pointing to `target`, as `validate` prints it.
macro_rules! sk008 {
    ($target:literal) => {
        concat!(
            "error[SK008]: symbolic link `s/SKILL.md` points to `",
            $target,
            "`, outside `s`; it was not followed\n --> s/SKILL.md\n  = help: copy the target inside instead of linking to it\n\nchecked 1 skill in <T>: 0 valid, 1 invalid (1 error)\n"
        )
    };
}

const MD_CASES: &[MdCase] = &[
    MdCase {
        attack: "fifo SKILL.md: validate",
        skill_md: SkillMd::Fifo,
        args: &["validate", "s"],
        code: 1,
        stdout: fifo_sk004!(),
        stderr: "",
    },
    MdCase {
        attack: "fifo SKILL.md: validate --format github",
        skill_md: SkillMd::Fifo,
        args: &["validate", "--format", "github", "s"],
        code: 1,
        stdout: "::error file=s/SKILL.md,title=SK004 skill-md-not-a-file::cannot read `s/SKILL.md`: it is a fifo, not a regular file\nchecked 1 skill in <T>: 0 valid, 1 invalid (1 error)\n",
        stderr: "",
    },
    MdCase {
        attack: "fifo SKILL.md: pack",
        skill_md: SkillMd::Fifo,
        args: &["pack", "s", "-o", "out.skillpack"],
        code: 1,
        stdout: "",
        stderr: concat!(fifo_sk004!(), "skb: nothing was written\n"),
    },
    MdCase {
        attack: "fifo SKILL.md: catalog",
        skill_md: SkillMd::Fifo,
        args: &["catalog", "s"],
        code: 1,
        stdout: "",
        stderr: concat!(fifo_sk004!(), "skb: nothing was written\n"),
    },
    MdCase {
        attack: "fifo SKILL.md: read-properties",
        skill_md: SkillMd::Fifo,
        args: &["read-properties", "s"],
        code: 1,
        stdout: "",
        stderr: "Error: cannot read `s/SKILL.md`: it is a fifo, not a regular file\n",
    },
    MdCase {
        attack: "fifo SKILL.md: to-prompt",
        skill_md: SkillMd::Fifo,
        args: &["to-prompt", "s"],
        code: 1,
        stdout: "",
        stderr: "Error: cannot read `<ROOT>/s/SKILL.md`: it is a fifo, not a regular file\n",
    },
    MdCase {
        attack: "fifo SKILL.md: serve",
        skill_md: SkillMd::Fifo,
        args: &["serve", "s"],
        code: 1,
        stdout: "",
        stderr: concat!(fifo_sk004!(), "skb: nothing was written\n"),
    },
    MdCase {
        attack: "SKILL.md -> /etc/passwd: validate prints no line of it",
        skill_md: SkillMd::EtcPasswd,
        args: &["validate", "s"],
        code: 1,
        stdout: sk008!("/etc/passwd"),
        stderr: "",
    },
    MdCase {
        attack: "SKILL.md -> /etc/passwd: pack",
        skill_md: SkillMd::EtcPasswd,
        args: &["pack", "s", "-o", "out.skillpack"],
        code: 1,
        stdout: "",
        stderr: concat!(sk008!("/etc/passwd"), "skb: nothing was written\n"),
    },
    MdCase {
        attack: "SKILL.md -> /etc/passwd: read-properties",
        skill_md: SkillMd::EtcPasswd,
        args: &["read-properties", "s"],
        code: 1,
        stdout: "",
        stderr: "Error: symbolic link `s/SKILL.md` points to `/etc/passwd`, outside `s`; it was not followed\n",
    },
    MdCase {
        attack: "SKILL.md -> another skill's SKILL.md: validate",
        skill_md: SkillMd::OtherSkill,
        args: &["validate", "s"],
        code: 1,
        stdout: sk008!("<ROOT>/other/s/SKILL.md"),
        stderr: "",
    },
    MdCase {
        attack: "SKILL.md -> another skill's SKILL.md: pack writes nothing",
        skill_md: SkillMd::OtherSkill,
        args: &["pack", "s", "-o", "out.skillpack"],
        code: 1,
        stdout: "",
        stderr: concat!(
            sk008!("<ROOT>/other/s/SKILL.md"),
            "skb: nothing was written\n"
        ),
    },
    MdCase {
        attack: "SKILL.md -> another skill's SKILL.md: catalog",
        skill_md: SkillMd::OtherSkill,
        args: &["catalog", "s"],
        code: 1,
        stdout: "",
        stderr: concat!(
            sk008!("<ROOT>/other/s/SKILL.md"),
            "skb: nothing was written\n"
        ),
    },
    MdCase {
        attack: "SKILL.md -> /dev/zero: validate says what it is, reads nothing",
        skill_md: SkillMd::DevZero,
        args: &["validate", "s"],
        code: 1,
        stdout: sk008!("/dev/zero"),
        stderr: "",
    },
    MdCase {
        attack: "SKILL.md -> /dev/zero: read-properties",
        skill_md: SkillMd::DevZero,
        args: &["read-properties", "s"],
        code: 1,
        stdout: "",
        stderr: "Error: symbolic link `s/SKILL.md` points to `/dev/zero`, outside `s`; it was not followed\n",
    },
    MdCase {
        attack: "control: SKILL.md -> a file inside the skill is read",
        skill_md: SkillMd::Inside,
        args: &["validate", "s"],
        code: 0,
        stdout: "checked 1 skill in <T>: all valid\n",
        stderr: "",
    },
    MdCase {
        attack: "control: SKILL.md -> a file inside the skill: read-properties",
        skill_md: SkillMd::Inside,
        args: &["read-properties", "s"],
        code: 0,
        stdout: "{\n  \"name\": \"s\",\n  \"description\": \"Inside. Use when testing.\"\n}\n",
        stderr: "",
    },
];

#[test]
fn skill_md_that_is_a_fifo_or_a_link_out_of_the_skill() {
    let passwd = passwd_line();
    for case in MD_CASES {
        let row = case.attack;
        let tmp = tempdir();
        let root = fs::canonicalize(tmp.path()).unwrap();
        case.skill_md.make(&root);
        let out = run(row, skills().current_dir(&root).args(case.args));
        let stdout = untimed(&String::from_utf8_lossy(&out.stdout));
        let stderr = untimed(&String::from_utf8_lossy(&out.stderr));
        let want = |s: &str| s.replace("<ROOT>", &root.display().to_string());
        assert_eq!(stdout, want(case.stdout), "[{row}] stdout");
        assert_eq!(stderr, want(case.stderr), "[{row}] stderr");
        assert_eq!(out.status.code(), Some(case.code), "[{row}] exit status");
        for text in [&stdout, &stderr] {
            assert!(!text.contains(&passwd), "[{row}] /etc/passwd leaked");
            assert!(
                !text.contains("OUTSIDE"),
                "[{row}] the outside skill leaked"
            );
        }
        assert!(
            !root.join("out.skillpack").exists(),
            "[{row}] a pack was written"
        );
    }
}

/// The JSON report: no `source_line` from the target, the code an error.
#[test]
fn skill_md_to_etc_passwd_leaves_nothing_in_the_json_report() {
    let row = "SKILL.md -> /etc/passwd: validate --format json";
    let tmp = tempdir();
    SkillMd::EtcPasswd.make(tmp.path());
    let out = run(
        row,
        skills()
            .current_dir(tmp.path())
            .args(["validate", "--format", "json", "s"]),
    );
    assert_eq!(out.status.code(), Some(1), "[{row}]");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(&passwd_line()), "[{row}] leaked:\n{text}");
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let diags = doc["skills"][0]["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "[{row}] {diags:?}");
    let d = &diags[0];
    assert_eq!(
        (
            d["code"].as_str(),
            d["severity"].as_str(),
            d["message"].as_str(),
            &d["source_line"]
        ),
        (
            Some("SK008"),
            Some("error"),
            Some(
                "symbolic link `s/SKILL.md` points to `/etc/passwd`, outside `s`; it was not followed"
            ),
            &serde_json::Value::Null
        ),
        "[{row}]"
    );
}

/// A link inside the skill is packed: both names, the inside bytes.
#[test]
fn a_skill_md_linked_inside_the_skill_is_packed() {
    let tmp = tempdir();
    SkillMd::Inside.make(tmp.path());
    let out = run(
        "pack",
        skills()
            .current_dir(tmp.path())
            .args(["pack", "s", "-o", "in.skillpack"]),
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let bytes = fs::read(tmp.path().join("in.skillpack")).unwrap();
    let pack = Pack::open(&bytes, Trust::Unsigned).unwrap();
    let skill = pack.bundle().get("s").unwrap();
    for path in ["SKILL.md", "real.md"] {
        assert_eq!(skill.read(path).unwrap(), VALID.as_bytes(), "{path}");
    }
}

// ---------------------------------------------------------------------------
// 2. Special and oversized files named on the command line.

/// What a row names where the command expects a file.
#[derive(Debug, Clone, Copy)]
enum Input {
    DevZero,
    /// A fifo at this name (under `<ROOT>`).
    Fifo(&'static str),
    /// A regular file of this many bytes at this name.
    Sized(&'static str, u64),
}

impl Input {
    fn make(self, root: &Path) -> String {
        match self {
            Input::DevZero => "/dev/zero".to_string(),
            Input::Fifo(name) => {
                mkfifo(&root.join(name));
                name.to_string()
            }
            Input::Sized(name, len) => {
                let f = fs::File::create(root.join(name)).unwrap();
                // Sparse: no disk, and a reader that trusted the size
                // would allocate all of it.
                f.set_len(len).unwrap();
                name.to_string()
            }
        }
    }
}

struct InputCase {
    attack: &'static str,
    input: Input,
    /// `{}` is the input. `good.skillpack` (signed, with `good.pub` and
    /// `good.skillpack.minisig`) and `key.key` exist.
    args: &'static [&'static str],
    code: i32,
    stderr: &'static str,
}

const INPUT_CASES: &[InputCase] = &[
    InputCase {
        attack: "verify a pack that is /dev/zero",
        input: Input::DevZero,
        args: &["verify", "--unsigned", "{}"],
        code: 2,
        stderr: "skb: cannot read `/dev/zero`: it is a character device, not a regular file\n",
    },
    InputCase {
        attack: "unpack a pack that is /dev/zero",
        input: Input::DevZero,
        args: &["unpack", "{}", "-o", "out"],
        code: 2,
        stderr: "skb: cannot read `/dev/zero`: it is a character device, not a regular file\n",
    },
    InputCase {
        attack: "verify a pack that is a fifo",
        input: Input::Fifo("fifo.skillpack"),
        args: &["verify", "--unsigned", "{}"],
        code: 2,
        stderr: "skb: cannot read `fifo.skillpack`: it is a fifo, not a regular file\n",
    },
    InputCase {
        attack: "unpack a pack that is a fifo",
        input: Input::Fifo("fifo.skillpack"),
        args: &["unpack", "{}", "-o", "out"],
        code: 2,
        stderr: "skb: cannot read `fifo.skillpack`: it is a fifo, not a regular file\n",
    },
    InputCase {
        attack: "verify a sparse pack of 3 GiB",
        input: Input::Sized("huge.skillpack", 3 << 30),
        args: &["verify", "--unsigned", "{}"],
        code: 1,
        stderr: "skb: cannot read `huge.skillpack`: it is 3221225472 bytes; the limit is 2 GiB\n",
    },
    InputCase {
        attack: "--signature /dev/zero",
        input: Input::DevZero,
        args: &[
            "verify",
            "--pubkey",
            "good.pub",
            "--signature",
            "{}",
            "good.skillpack",
        ],
        code: 2,
        stderr: "skb: cannot read `/dev/zero`: it is a character device, not a regular file\n",
    },
    InputCase {
        attack: "--signature names a fifo",
        input: Input::Fifo("fifo.minisig"),
        args: &[
            "verify",
            "--pubkey",
            "good.pub",
            "--signature",
            "{}",
            "good.skillpack",
        ],
        code: 2,
        stderr: "skb: cannot read `fifo.minisig`: it is a fifo, not a regular file\n",
    },
    InputCase {
        attack: "--signature of 17 KiB",
        input: Input::Sized("big.minisig", 17 << 10),
        args: &[
            "verify",
            "--pubkey",
            "good.pub",
            "--signature",
            "{}",
            "good.skillpack",
        ],
        code: 1,
        stderr: "skb: cannot read `big.minisig`: it is 17408 bytes; the limit is 16 KiB\n",
    },
    InputCase {
        attack: "--signature /dev/zero through unpack",
        input: Input::DevZero,
        args: &[
            "unpack",
            "--pubkey",
            "good.pub",
            "--signature",
            "{}",
            "good.skillpack",
            "-o",
            "out",
        ],
        code: 2,
        stderr: "skb: cannot read `/dev/zero`: it is a character device, not a regular file\n",
    },
    InputCase {
        attack: "--pubkey /dev/zero",
        input: Input::DevZero,
        args: &["verify", "--pubkey", "{}", "good.skillpack"],
        code: 2,
        stderr: "skb: cannot read `/dev/zero`: it is a character device, not a regular file\n",
    },
    InputCase {
        attack: "--pubkey names a fifo",
        input: Input::Fifo("fifo.pub"),
        args: &["verify", "--pubkey", "{}", "good.skillpack"],
        code: 2,
        stderr: "skb: cannot read `fifo.pub`: it is a fifo, not a regular file\n",
    },
    InputCase {
        attack: "--pubkey of 5 KiB",
        input: Input::Sized("big.pub", 5 << 10),
        args: &["verify", "--pubkey", "{}", "good.skillpack"],
        code: 2,
        stderr: "skb: cannot read `big.pub`: it is 5120 bytes; the limit is 4 KiB\n",
    },
    InputCase {
        attack: "--pubkey /dev/zero through serve",
        input: Input::DevZero,
        args: &["serve", "--pubkey", "{}", "good.skillpack"],
        code: 2,
        stderr: "skb: cannot read `/dev/zero`: it is a character device, not a regular file\n",
    },
    InputCase {
        attack: "pack --sign with a secret key that is /dev/zero",
        input: Input::DevZero,
        args: &["pack", "s", "-o", "new.skillpack", "--sign", "{}"],
        code: 2,
        stderr: "skb: cannot read `/dev/zero`: it is a character device, not a regular file\n",
    },
    InputCase {
        attack: "pack --sign with a secret key that is a fifo",
        input: Input::Fifo("fifo.key"),
        args: &["pack", "s", "-o", "new.skillpack", "--sign", "{}"],
        code: 2,
        stderr: "skb: cannot read `fifo.key`: it is a fifo, not a regular file\n",
    },
];

/// Address space for one run: a debug `skills` needs a few tens of MiB; a
/// read to exhaustion, or an allocation of a 3 GiB pack, cannot fit.
const MEMORY_KIB: u64 = 1 << 20;

#[test]
fn special_and_oversized_inputs_are_refused_at_once() {
    let tmp = tempdir();
    let root = tmp.path();
    fs::create_dir_all(root.join("s")).unwrap();
    fs::write(root.join("s/SKILL.md"), VALID).unwrap();
    let setup = |args: &[&str]| {
        let out = run("setup", skills().current_dir(root).args(args));
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    setup(&["keygen", "-W", "-p", "good.pub", "-s", "key.key"]);
    setup(&["pack", "s", "-o", "good.skillpack", "--sign", "key.key"]);
    for case in INPUT_CASES {
        let row = case.attack;
        for leftover in ["fifo.skillpack", "fifo.minisig", "fifo.pub", "fifo.key"] {
            let _ = fs::remove_file(root.join(leftover));
        }
        let input = case.input.make(root);
        let args: Vec<String> = case.args.iter().map(|a| a.replace("{}", &input)).collect();
        let started = Instant::now();
        let out = run(
            row,
            Command::new("sh")
                .current_dir(root)
                .arg("-c")
                .arg(format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\""))
                .arg(skills_bin())
                .args(&args),
        );
        let elapsed = started.elapsed();
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            case.stderr,
            "[{row}] stderr"
        );
        assert_eq!(out.status.code(), Some(case.code), "[{row}] exit status");
        assert!(out.stdout.is_empty(), "[{row}] stdout: {out:?}");
        assert!(elapsed < Duration::from_secs(5), "[{row}] took {elapsed:?}");
        assert!(!root.join("out").exists(), "[{row}] unpacked");
        assert!(!root.join("new.skillpack").exists(), "[{row}] packed");
    }
}

// ---------------------------------------------------------------------------
// 3. The swap race while packing.

/// Swaps `target` between a regular file holding `real` and a symbolic
/// link to `outside`, atomically (`rename`), until `stop`; returns how many
/// times it swapped.
fn swapper(
    target: PathBuf,
    real: &'static [u8],
    outside: PathBuf,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<u64> {
    std::thread::spawn(move || {
        let scratch = target.parent().unwrap().parent().unwrap().parent().unwrap();
        let (link, file) = (scratch.join("swap-link"), scratch.join("swap-file"));
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            let _ = fs::remove_file(&link);
            symlink(&outside, &link).unwrap();
            fs::rename(&link, &target).unwrap();
            fs::write(&file, real).unwrap();
            fs::rename(&file, &target).unwrap();
            swaps += 2;
        }
        swaps
    })
}

#[test]
fn a_file_swapped_for_an_outside_link_while_packing_never_gets_in() {
    const REAL: &[u8] = b"real data, inside the skill\n";
    const SECRET: &str = "OUTSIDE-SECRET-a7c19e";
    const REFUSED: &[&str] = &[
        "skb: s/references/data.txt: cannot read `s/references/data.txt`: it is reached through a symbolic link, which is not followed here\n",
        "skb: s/references/data.txt: `s/references/data.txt` grew after it was checked (26 bytes then); run again\n",
    ];
    let tmp = tempdir();
    let root = tmp.path().join("work");
    fs::create_dir_all(root.join("s/references")).unwrap();
    fs::write(root.join("s/SKILL.md"), VALID).unwrap();
    fs::write(root.join("s/references/data.txt"), REAL).unwrap();
    let outside = tmp.path().join("secret.txt");
    fs::write(&outside, format!("{SECRET}\n").repeat(3)).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let handle = swapper(
        root.join("s/references/data.txt"),
        REAL,
        outside,
        Arc::clone(&stop),
    );
    let (mut with_file, mut left_out, mut refused) = (0, 0, 0);
    for i in 0..100 {
        let row = format!("pack {i}");
        let name = format!("p{i}.skillpack");
        let out = run(
            &row,
            skills().current_dir(&root).args(["pack", "s", "-o", &name]),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains(SECRET), "[{row}] {stderr}");
        if out.status.code() == Some(2) {
            // Met as a link when read, or as a file of another size than
            // when listed (the link's own size): refused either way.
            assert!(REFUSED.contains(&&*stderr), "[{row}] {stderr}");
            assert!(!root.join(&name).exists(), "[{row}] written after all");
            refused += 1;
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "[{row}] {out:?}");
        let bytes = fs::read(root.join(&name)).unwrap();
        let pack = Pack::open(&bytes, Trust::Unsigned).unwrap();
        let skill = pack.bundle().get("s").unwrap();
        for f in skill.files() {
            let data = f.bytes().unwrap();
            assert!(
                !String::from_utf8_lossy(data).contains(SECRET),
                "[{row}] `{}` holds the outside file",
                f.path()
            );
        }
        match skill.read("references/data.txt") {
            Ok(data) => {
                assert_eq!(data, REAL, "[{row}]");
                with_file += 1;
            }
            // Listed while it was a link out (SK008), or met as a link
            // just after the listing saw a file (SK005): left out.
            Err(_) => {
                assert!(
                    stderr.contains("warning[SK008]")
                        || stderr.contains("warning[SK005]: `s/references/data.txt` changed while the skill was being listed"),
                    "[{row}] {stderr}"
                );
                left_out += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = handle.join().unwrap();
    println!(
        "100 packs while swapping {swaps} times: {with_file} with the real file, \
         {left_out} without it (SK008 or SK005), {refused} refused, 0 with the outside file"
    );
}

// ---------------------------------------------------------------------------
// 4. The swap race while the executor checks its cache.

/// How many times the cache is checked: enough for the swaps to land
/// between a check and an open (before the fix, a hang within about 100).
const CHECKS: u32 = 1000;

#[test]
fn a_cached_file_swapped_for_a_fifo_or_a_link_never_hangs_or_passes() {
    let probe = S.get("probe").unwrap();
    let tmp = tempdir();
    let cache = tmp.path().join("cache");
    let dir = materialise(&probe, &cache).unwrap().dir;
    let target = dir.join("scripts/argv.sh");
    let copy = tmp.path().join("copy.sh");
    fs::copy(&target, &copy).unwrap();

    // Hard links of one fifo and one copy renamed over the file, and a
    // fresh link: each swap a few system calls, atomic.
    let fifo = tmp.path().join("fifo");
    mkfifo(&fifo);
    let stop = Arc::new(AtomicBool::new(false));
    let swapping = {
        let (stop, target) = (Arc::clone(&stop), target.clone());
        let scratch = tmp.path().to_path_buf();
        std::thread::spawn(move || {
            let staged = scratch.join("staged");
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                for (i, from) in [&fifo, &copy, &copy, &copy].into_iter().enumerate() {
                    if i == 2 {
                        symlink(from, &staged).unwrap();
                    } else {
                        fs::hard_link(from, &staged).unwrap();
                    }
                    // The directory is missing while a rebuild sets it aside.
                    if fs::rename(&staged, &target).is_err() {
                        fs::remove_file(&staged).unwrap();
                        continue;
                    }
                    swaps += 1;
                }
            }
            swaps
        })
    };
    let mut outcomes = std::collections::BTreeMap::<String, u32>::new();
    for i in 0..CHECKS {
        let (tx, rx) = std::sync::mpsc::channel();
        let (probe, cache) = (S.get("probe").unwrap(), cache.clone());
        std::thread::spawn(move || {
            let _ = tx.send(materialise(&probe, &cache));
        });
        let outcome = match rx.recv_timeout(LIMIT) {
            Ok(outcome) => outcome,
            Err(_) => panic!("[check {i}] the cache check hangs"),
        };
        let key = match outcome {
            Ok(m) => {
                assert_eq!(m.dir, dir, "[check {i}]");
                match m.rebuilt {
                    None => "accepted".to_string(),
                    Some(r) => {
                        assert_eq!(r.path, target, "[check {i}]");
                        assert!(
                            ["not a regular file", "a symlink was added"]
                                .contains(&r.reason.as_str()),
                            "[check {i}] {}",
                            r.reason
                        );
                        format!("rebuilt: {}", r.reason)
                    }
                }
            }
            Err(e) => panic!("[check {i}] {e}"),
        };
        *outcomes.entry(key).or_default() += 1;
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapping.join().unwrap();
    println!("{CHECKS} cache checks while swapping {swaps} times: {outcomes:?}");
    assert_eq!(
        materialise(&probe, &cache).unwrap().dir,
        dir,
        "after the swaps"
    );
}
