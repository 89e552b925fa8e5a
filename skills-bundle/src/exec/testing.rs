//! Test helper: a one-skill bundle built in memory, loaded from a pack the
//! way an agent loads one (written by `skills_core::pack::write`, the
//! writer `skb pack` uses); and a check that a process is gone.

use std::thread;
use std::time::{Duration, Instant};

use rustix::io::Errno;
use rustix::process::Pid;

use crate::Bundle;
use crate::pack::Trust;
use skills_core::meta::SkillMeta;
use skills_core::pack::write::{compress, write};
use skills_core::pack::{Manifest, ManifestSkill, skill_dir};
use skills_core::zip::write::DosTime;

/// A bundle with one skill named `name`: a `SKILL.md` plus `files`
/// (path, contents, executable).
pub fn bundle(name: &str, files: &[(&str, &[u8], bool)]) -> Bundle {
    bundle_with_body(name, "Body\n", &[], files)
}

/// [`bundle`] with `body` after the frontmatter and `allowed-tools` rules.
pub fn bundle_with_body(
    name: &str,
    body: &str,
    allowed_tools: &[(&str, Option<&str>)],
    files: &[(&str, &[u8], bool)],
) -> Bundle {
    let head = format!("---\nname: {name}\ndescription: Use when testing.\n---\n");
    let md = format!("{head}{body}");
    let mut planned = vec![compress("SKILL.md", md.clone().into_bytes(), false)];
    planned.extend(
        files
            .iter()
            .map(|(path, bytes, exec)| compress(path, bytes.to_vec(), *exec)),
    );
    planned.sort_by(|a, b| a.meta.path.cmp(&b.meta.path));
    let dir = skill_dir(name);
    let skill = ManifestSkill {
        meta: SkillMeta {
            name: name.to_string().into(),
            description: "Use when testing.".into(),
            skill_md: "SKILL.md".into(),
            body: (
                u32::try_from(head.len()).expect("short"),
                u32::try_from(md.len()).expect("short"),
            ),
            allowed_tools: allowed_tools
                .iter()
                .map(|(tool, pattern)| {
                    (
                        tool.to_string().into(),
                        pattern.map(|p| p.to_string().into()),
                    )
                })
                .collect::<Vec<_>>()
                .into(),
            ..SkillMeta::default()
        },
        dir: dir.clone(),
        files: planned.iter().map(|f| f.meta.clone()).collect(),
    };
    let manifest = Manifest::new("skills-bundle tests".into(), vec![skill]);
    let bytes = write(&manifest, &[(&dir, &planned)], DosTime::EPOCH).expect("packs");
    Bundle::from_pack(&bytes, Trust::Unsigned).expect("loads")
}

/// Whether `pid` is gone (or a zombie awaiting its new parent), within 3 s.
pub fn gone(pid: i32) -> bool {
    let Some(p) = Pid::from_raw(pid) else {
        return false;
    };
    let until = Instant::now() + Duration::from_secs(3);
    loop {
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| s.rsplit_once(')').is_some_and(|(_, t)| t.starts_with(" Z")));
        if zombie || rustix::process::test_kill_process(p) == Err(Errno::SRCH) {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// A bundle with one skill `demo` whose `scripts/t.sh` is `body` under a
/// `#!/bin/sh` line.
pub fn script(body: &str) -> Bundle {
    let text = format!("#!/bin/sh\n{body}\n");
    bundle("demo", &[("scripts/t.sh", text.as_bytes(), true)])
}

/// The pid a test script printed on its first line.
pub fn first_pid(out: &[u8]) -> i32 {
    String::from_utf8_lossy(out)
        .lines()
        .next()
        .and_then(|l| l.trim().parse().ok())
        .expect("the script printed a pid")
}
