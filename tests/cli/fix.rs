//! `skb fix`: each fix (a byte-order mark or blank lines before `---`
//! removed, a missing `name` added, `policy.allow_implicit_invocation:
//! false` written in `agents/openai.yaml` for a skill with
//! `disable-model-invocation: true`), a second run that changes nothing,
//! `--dry-run`'s diff and its exit status, the files left as they are
//! (links, YAML that does not parse), and the permissions kept.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::skills;
use skills_tests::{tempdir, write_tree};

fn fix(cwd: &Path, args: &[&str]) -> Output {
    skills()
        .arg("fix")
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every file under `dir` (links as `-> target`), with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let rel = path.strip_prefix(dir).unwrap().to_path_buf();
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                all.insert(rel, format!("-> {}", target.display()).into_bytes());
            } else if meta.is_dir() {
                stack.push(path);
            } else {
                all.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    all
}

fn read(dir: &Path, rel: &str) -> String {
    String::from_utf8(std::fs::read(dir.join(rel)).unwrap()).unwrap()
}

const DMI: &str =
    "---\nname: dmi\ndescription: Use when testing.\ndisable-model-invocation: true\n---\nBody.\n";
const POLICY: &str = "policy:\n  allow_implicit_invocation: false\n";

/// Skills each needing one fix, and one needing none.
fn tree(dir: &Path) {
    write_tree(
        dir,
        &[
            ("dmi/SKILL.md", DMI.as_bytes()),
            (
                "bom/SKILL.md",
                b"\xEF\xBB\xBF---\nname: bom\ndescription: Use when testing.\n---\nBody.\n",
            ),
            (
                "blank/SKILL.md",
                b"\n  \n---\nname: blank\ndescription: Use when testing.\n---\nBody.\n",
            ),
            (
                "no-name/SKILL.md",
                b"---\r\ndescription: Use when testing.\r\n---\r\nBody.\r\n",
            ),
            (
                "fine/SKILL.md",
                b"---\nname: fine\ndescription: Use when testing.\n---\nBody.\n",
            ),
        ],
    );
}

#[test]
fn each_fix_then_nothing() {
    let tmp = tempdir();
    let dir = tmp.path();
    tree(dir);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let p = std::fs::Permissions::from_mode(0o600);
        std::fs::set_permissions(dir.join("no-name/SKILL.md"), p).unwrap();
    }
    let before = snapshot(dir);
    let out = fix(dir, &[]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stderr(&out), "");
    let text = stdout(&out);
    for line in [
        "fixed `./blank/SKILL.md`: 2 blank lines before `---` removed",
        "fixed `./bom/SKILL.md`: the byte-order mark before `---` removed",
        "fixed `./dmi/agents/openai.yaml`: `policy.allow_implicit_invocation: false` written",
        "fixed `./no-name/SKILL.md`: `name: no-name` added",
    ] {
        assert!(text.contains(line), "{line:?} in {text}");
    }
    assert!(text.ends_with("fixed 4 files in 4 skills\n"), "{text}");
    assert!(!text.contains("fine"), "{text}");
    assert_eq!(
        read(dir, "blank/SKILL.md"),
        "---\nname: blank\ndescription: Use when testing.\n---\nBody.\n"
    );
    assert_eq!(
        read(dir, "bom/SKILL.md"),
        "---\nname: bom\ndescription: Use when testing.\n---\nBody.\n"
    );
    assert_eq!(
        read(dir, "no-name/SKILL.md"),
        "---\r\nname: no-name\r\ndescription: Use when testing.\r\n---\r\nBody.\r\n"
    );
    assert_eq!(read(dir, "dmi/SKILL.md"), DMI);
    assert_eq!(read(dir, "dmi/agents/openai.yaml"), POLICY);
    // Only those files changed, and nothing was left beside them.
    let after = snapshot(dir);
    let changed: Vec<&PathBuf> = after
        .keys()
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert_eq!(
        changed,
        [
            Path::new("blank/SKILL.md"),
            Path::new("bom/SKILL.md"),
            Path::new("dmi/agents/openai.yaml"),
            Path::new("no-name/SKILL.md"),
        ]
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |rel: &str| {
            std::fs::metadata(dir.join(rel))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("no-name/SKILL.md"), 0o600);
        assert_eq!(mode("dmi/agents/openai.yaml"), 0o644);
    }
    // A second run: nothing to change, byte for byte.
    let out = fix(dir, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "nothing to fix in 5 skills\n");
    assert_eq!(snapshot(dir), after);
    let out = fix(dir, &["--dry-run"]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));
}

/// In an existing `agents/openai.yaml`, only the key is added or changed:
/// comments, order and the other keys stay as written.
#[test]
fn an_existing_openai_yaml_keeps_everything_else() {
    let tmp = tempdir();
    let dir = tmp.path();
    let cases = [
        (
            "# Codex metadata\ninterface:\n  display_name: \"DMI\"  # shown\n",
            "# Codex metadata\ninterface:\n  display_name: \"DMI\"  # shown\npolicy:\n  allow_implicit_invocation: false\n",
        ),
        (
            "policy:\n  products: [codex]  # ours\n",
            "policy:\n  allow_implicit_invocation: false\n  products: [codex]  # ours\n",
        ),
        (
            "policy:\n  allow_implicit_invocation: true  # was on\n",
            "policy:\n  allow_implicit_invocation: false  # was on\n",
        ),
    ];
    for (old, new) in cases {
        write_tree(
            dir,
            &[
                ("dmi/SKILL.md", DMI.as_bytes()),
                ("dmi/agents/openai.yaml", old.as_bytes()),
            ],
        );
        let out = fix(dir, &["dmi"]);
        assert_eq!(code(&out), 0, "{old:?}: {}", stderr(&out));
        assert_eq!(read(dir, "dmi/agents/openai.yaml"), new, "{old:?}");
        assert!(
            stdout(&out).contains("`policy.allow_implicit_invocation: false` set"),
            "{}",
            stdout(&out)
        );
        let out = fix(dir, &["dmi"]);
        assert_eq!(stdout(&out), "nothing to fix in 1 skill\n");
    }
}

#[test]
fn dry_run_writes_nothing_and_shows_the_diff() {
    let tmp = tempdir();
    let dir = tmp.path();
    tree(dir);
    let before = snapshot(dir);
    let out = fix(dir, &["--dry-run", "dmi", "blank"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "--- /dev/null\n+++ b/dmi/agents/openai.yaml\n@@ -0,0 +1,2 @@\n+policy:\n+  allow_implicit_invocation: false\n\
         --- a/blank/SKILL.md\n+++ b/blank/SKILL.md\n@@ -1,5 +1,3 @@\n-\n-  \n ---\n name: blank\n description: Use when testing.\n"
    );
    let err = stderr(&out);
    assert!(
        err.contains("would fix `blank/SKILL.md`: 2 blank lines before `---` removed"),
        "{err}"
    );
    assert!(
        err.ends_with("would fix 2 files in 2 skills (dry run: nothing written)\n"),
        "{err}"
    );
    assert_eq!(snapshot(dir), before);
    // The diff is one `patch -p1` applies, giving what `fix` writes.
    let applied = tempdir();
    tree(applied.path());
    let fixed = tempdir();
    tree(fixed.path());
    assert_eq!(code(&fix(fixed.path(), &["dmi", "blank"])), 0);
    if let Ok(mut patch) = std::process::Command::new("patch")
        .args(["-p1", "--quiet"])
        .current_dir(applied.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        patch.stdin.take().unwrap().write_all(&out.stdout).unwrap();
        assert!(patch.wait().unwrap().success());
        assert_eq!(snapshot(applied.path()), snapshot(fixed.path()));
    }
}

/// What cannot be edited safely is left as it is, said on stderr, with
/// exit 1; the other skills are still fixed.
#[test]
fn files_left_as_they_are() {
    let tmp = tempdir();
    let dir = tmp.path();
    write_tree(
        dir,
        &[
            ("yaml/SKILL.md", DMI.as_bytes()),
            ("yaml/agents/openai.yaml", b"interface: [\n"),
            ("list/SKILL.md", DMI.as_bytes()),
            ("list/agents/openai.yaml", b"- policy\n"),
            ("linked-yaml/SKILL.md", DMI.as_bytes()),
            ("linked-yaml/real.yaml", b"interface:\n  display_name: X\n"),
            (
                "linked-md/real.md",
                b"\n---\nname: linked-md\ndescription: Use when testing.\n---\n",
            ),
            ("other/SKILL.md", DMI.as_bytes()),
        ],
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        std::fs::create_dir_all(dir.join("linked-yaml/agents")).unwrap();
        symlink("../real.yaml", dir.join("linked-yaml/agents/openai.yaml")).unwrap();
        symlink("real.md", dir.join("linked-md/SKILL.md")).unwrap();
    }
    let out = fix(dir, &[]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let err = stderr(&out);
    for line in [
        "skb: could not fix `./yaml`: `agents/openai.yaml` is not edited: Codex ignores the whole file",
        "skb: could not fix `./list`: `agents/openai.yaml` is not edited: Codex ignores the whole file",
    ] {
        assert!(err.contains(line), "{line:?} in {err}");
    }
    #[cfg(unix)]
    {
        assert!(
            err.contains("skb: could not fix `./linked-yaml`: `agents/openai.yaml` is not edited: it is a symbolic link"),
            "{err}"
        );
        assert!(
            err.contains("skb: could not fix `./linked-md`: `SKILL.md` is not edited"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_link(dir.join("linked-md/SKILL.md")).unwrap(),
            Path::new("real.md")
        );
        assert!(read(dir, "linked-md/real.md").starts_with('\n'));
        assert_eq!(
            read(dir, "linked-yaml/real.yaml"),
            "interface:\n  display_name: X\n"
        );
    }
    assert_eq!(read(dir, "yaml/agents/openai.yaml"), "interface: [\n");
    assert_eq!(read(dir, "list/agents/openai.yaml"), "- policy\n");
    // The skill that could be fixed was.
    assert_eq!(read(dir, "other/agents/openai.yaml"), POLICY);
    assert!(
        stdout(&out).ends_with("fixed 1 file in 1 skill\n"),
        "{}",
        stdout(&out)
    );
    // A dry run says the same and writes nothing.
    let before = snapshot(dir);
    let out = fix(dir, &["--dry-run"]);
    assert_eq!((code(&out), stdout(&out)), (1, String::new()));
    assert!(stderr(&out).contains("skb: could not fix `./yaml`"));
    assert_eq!(snapshot(dir), before);
}

/// A linked `agents` folder is not written through.
#[cfg(unix)]
#[test]
fn a_linked_agents_folder_is_not_written_through() {
    let tmp = tempdir();
    let dir = tmp.path();
    write_tree(dir, &[("s/SKILL.md", DMI.as_bytes())]);
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("../elsewhere", dir.join("s/agents")).unwrap();
    let out = fix(dir, &["s"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("`agents/openai.yaml` is not edited: it is a symbolic link"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_dir(dir.join("elsewhere")).unwrap().count(), 0);
}

#[test]
fn usage_errors_exit_2() {
    let tmp = tempdir();
    let out = fix(tmp.path(), &["nowhere"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stderr(&out).contains("nowhere"), "{}", stderr(&out));
    let out = fix(tmp.path(), &["--bogus"]);
    assert_eq!(code(&out), 2);
}
