//! Tests of `skill`.

use std::fs;
use std::os::unix::fs::symlink;

use super::*;
use crate::diag::Severity;
use crate::files::FileLimits;

type Result = std::result::Result<(), Box<dyn std::error::Error>>;

const VALID: &str = "---\nname: s\ndescription: d\n---\nbody\n";

fn check(dir: &Path) -> CheckedSkill {
    check_skill(dir, None, &Options::default())
}

fn codes(skill: &CheckedSkill) -> Vec<(Code, Severity)> {
    skill
        .diagnostics
        .iter()
        .map(|d| (d.code, d.severity))
        .collect()
}

#[test]
fn a_fifo_skill_md_is_refused_without_blocking() -> Result {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    fs::create_dir(&dir)?;
    let fifo = dir.join("SKILL.md");
    if !std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        return Ok(());
    }
    let skill = check(&dir);
    assert_eq!(codes(&skill), [(Code::SkillMdNotFile, Severity::Error)]);
    assert_eq!(
        skill.diagnostics[0].message,
        format!(
            "cannot read `{}`: it is a fifo, not a regular file",
            fifo.display()
        )
    );
    assert!(skill.source.is_none());
    Ok(())
}

/// `/dev/zero` itself, made with `mknod` (where allowed, as root), and
/// a link to a fifo inside the skill: each named for what it is.
#[test]
fn a_device_or_a_link_to_a_fifo_is_named_for_what_it_is() -> Result {
    let tmp = tempfile::tempdir()?;
    let made = |args: &[&str]| {
        std::process::Command::new(args[0])
            .args(&args[1..])
            .status()
            .is_ok_and(|s| s.success())
    };
    let dev = tmp.path().join("dev");
    fs::create_dir(&dev)?;
    let zero = dev.join("SKILL.md");
    if made(&["mknod", &zero.to_string_lossy(), "c", "1", "5"]) {
        let skill = check(&dev);
        assert_eq!(codes(&skill), [(Code::SkillMdNotFile, Severity::Error)]);
        assert_eq!(
            skill.diagnostics[0].message,
            format!(
                "cannot read `{}`: it is a character device, not a regular file",
                zero.display()
            )
        );
    }
    let dir = tmp.path().join("s");
    fs::create_dir(&dir)?;
    if made(&["mkfifo", &dir.join("pipe").to_string_lossy()]) {
        symlink("pipe", dir.join("SKILL.md"))?;
        let skill = check(&dir);
        assert_eq!(codes(&skill), [(Code::SkillMdNotFile, Severity::Error)]);
        assert_eq!(skill.diagnostics[0].path, dir.join("SKILL.md"));
        assert_eq!(
            skill.diagnostics[0].message,
            format!(
                "cannot read `{}`: it is a fifo, not a regular file",
                dir.join("pipe").display()
            )
        );
    }
    Ok(())
}

#[test]
fn a_skill_md_linking_out_is_an_error_and_is_not_read() -> Result {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    fs::create_dir(&dir)?;
    fs::write(tmp.path().join("outside.md"), VALID)?;
    symlink(tmp.path().join("outside.md"), dir.join("SKILL.md"))?;
    let skill = check(&dir);
    assert_eq!(codes(&skill), [(Code::SymlinkEscape, Severity::Error)]);
    assert!(skill.source.is_none() && skill.name().is_none());
    assert_eq!(skill.skill_md, Some(dir.join("SKILL.md")));
    Ok(())
}

#[test]
fn a_skill_md_linking_inside_is_read_where_it_leads() -> Result {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    fs::create_dir_all(dir.join("docs"))?;
    fs::write(dir.join("docs/real.md"), VALID)?;
    symlink("docs/real.md", dir.join("SKILL.md"))?;
    let skill = check(&dir);
    assert!(skill.is_valid(), "{:?}", skill.diagnostics);
    assert_eq!(
        skill.source.as_ref().map(Source::bytes),
        Some(VALID.as_bytes())
    );
    Ok(())
}

#[test]
fn a_dangling_skill_md_link_counts_as_none() -> Result {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    fs::create_dir(&dir)?;
    symlink("gone.md", dir.join("SKILL.md"))?;
    let skill = check(&dir);
    assert_eq!(
        codes(&skill),
        [
            (Code::Io, Severity::Warning),
            (Code::MissingSkillMd, Severity::Error)
        ]
    );
    Ok(())
}

/// A skill over a limit on its files is invalid under every profile,
/// and the files its body names are not reported missing: the listing
/// stopped, it is not known which are.
#[test]
fn a_skill_over_its_file_limits_is_invalid() -> Result {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    fs::create_dir_all(dir.join("scripts"))?;
    let md = "---\nname: s\ndescription: d. Use when testing.\n---\nRun `scripts/run.sh`.\n";
    fs::write(dir.join("SKILL.md"), md)?;
    fs::write(dir.join("a.txt"), "a")?;
    fs::write(dir.join("scripts/run.sh"), "#!/bin/sh\n")?;
    for profile in Profile::ALL {
        let options = Options {
            profile,
            files: FileLimits {
                max_files: 2,
                ..FileLimits::default()
            },
            ..Options::default()
        };
        let skill = check_skill(&dir, None, &options);
        let limit = (Code::DiscoveryLimit, Severity::Error);
        assert!(
            codes(&skill).contains(&limit),
            "{profile:?}: {:?}",
            skill.diagnostics
        );
        assert!(!skill.is_valid());
        assert!(
            !codes(&skill)
                .iter()
                .any(|(c, _)| *c == Code::MissingReferencedFile),
            "{profile:?}: {:?}",
            skill.diagnostics
        );
    }
    Ok(())
}

#[test]
fn given_text_is_checked_instead_of_the_disk_and_bounded() -> Result {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    fs::create_dir(&dir)?;
    fs::write(dir.join("SKILL.md"), VALID)?;
    let options = Options::default();
    let edited = "---\nname: S\ndescription: d\n---\nbody\n";
    let given = Given {
        name: "SKILL.md",
        bytes: edited.as_bytes(),
    };
    let skill = check_skill_given(&dir, None, &options, Some(given));
    assert!(codes(&skill).contains(&(Code::NameNotLowercase, Severity::Error)));
    assert_eq!(
        skill.source.as_ref().map(Source::bytes),
        Some(edited.as_bytes())
    );
    // A file not yet on the disk is checked from its text too.
    fs::remove_file(dir.join("SKILL.md"))?;
    let skill = check_skill_given(&dir, None, &options, Some(given));
    assert!(
        !codes(&skill)
            .iter()
            .any(|(c, _)| *c == Code::MissingSkillMd)
    );
    // More than a `SKILL.md` may hold: the error a read of it gives.
    let huge = vec![b'x'; MAX_SKILL_MD as usize + 1];
    let given = Given {
        name: "SKILL.md",
        bytes: &huge,
    };
    let skill = check_skill_given(&dir, None, &options, Some(given));
    assert_eq!(codes(&skill), [(Code::Io, Severity::Error)]);
    Ok(())
}
