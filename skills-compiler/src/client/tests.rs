//! Tests of `client`.

use super::*;
use crate::Options;

/// Without the `codex-yaml` feature the `codex` profile still exists,
/// and a skill Codex would read is an error naming the feature: no check
/// passes on a reading this build cannot make.
#[test]
fn the_codex_profile_names_the_feature_it_needs() -> std::io::Result<()> {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("SKILL.md"), "---\nname: s\ndescription: D.\n---\n")?;
    let options = Options {
        profile: crate::Profile::Codex,
        ..Options::default()
    };
    let skill = crate::check_dir(&dir, &options);
    let errors: Vec<&str> = skill
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    if cfg!(feature = "codex-yaml") {
        assert_eq!(errors, Vec::<&str>::new());
    } else {
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("`codex-yaml` feature"), "{errors:?}");
    }
    Ok(())
}

#[test]
fn the_same_yaml_is_the_checks_range_less_the_opening_lines_break() {
    let file = "---\nname: a\n---\nbody";
    let yaml = &file[4..12];
    assert!(claude_code::same_yaml(file, yaml, &(3..12)));
    assert!(claude_code::same_yaml(file, yaml, &(4..12)));
    assert!(!claude_code::same_yaml(file, yaml, &(3..11)));
    let file = "---\r\nname: a\r\n---\r\n";
    assert!(claude_code::same_yaml(file, &file[5..14], &(3..14)));
    let file = "--- \nname: a\n---\n";
    assert!(!claude_code::same_yaml(file, &file[5..13], &(3..13)));
    let other = String::from(&file[5..13]);
    assert!(!claude_code::same_yaml(file, &other, &(3..13)));
}

/// Each client lists a skill under the name its registry row says: the
/// folder's (Claude Code) or the frontmatter's (Codex).
#[test]
fn each_client_lists_under_the_name_its_row_says() -> std::io::Result<()> {
    use skills_core::client::ListedName;
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("folder-name");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: frontmatter-name\ndescription: D.\n---\n",
    )?;
    let mut read = 0;
    for client in Client::ALL {
        let reading = super::read(client, &dir);
        if cfg!(not(feature = "codex-yaml")) && client == Client::Codex {
            // This build cannot read as Codex does, and says so.
            assert!(matches!(reading.outcome, Outcome::Unknown { .. }));
            continue;
        }
        let listed = reading
            .outcome
            .listed()
            .unwrap_or_else(|| panic!("{client}: {:?}", reading.outcome));
        let expected = match client.info().listed_name {
            ListedName::FolderName => "folder-name",
            ListedName::Frontmatter => "frontmatter-name",
        };
        assert_eq!(listed.name, expected, "{client}");
        read += 1;
    }
    assert!(read >= 1);
    Ok(())
}

/// A checked skill's reading, made from the check's text (and one YAML
/// parse shared between readers), is the reading of the file's bytes by
/// each JavaScript client's own reader: UTF-8 or not, LF or CRLF, YAML that
/// parses or not, a description at the end of the frontmatter or not.
#[test]
fn readings_from_the_checks_text_are_the_readers_own() -> std::io::Result<()> {
    let files: [&[u8]; 6] = [
        b"---\nname: s\ndescription: D.\n---\nbody\n",
        b"---\r\nname: s\r\ndescription: |\r\n  two\r\n  lines\r\n---\r\nbody\r\n",
        b"---\nname: s\ndescription: Use when: x\n---\n",
        b"---\nname: s\ndescription: caf\xe9\n---\nbody \xff\n",
        b"---\nname: [unclosed\ndescription: D.\n---\n",
        b"\xef\xbb\xbf---\nname: s\ndescription: D.\n---\n",
    ];
    for bytes in files {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        std::fs::create_dir_all(&dir)?;
        let path = dir.join("SKILL.md");
        std::fs::write(&path, bytes)?;
        let skill = crate::check_dir(&dir, &Options::default());
        let text = String::from_utf8_lossy(bytes);
        for (client, own) in [
            (
                Client::GeminiCli,
                gemini_cli::read_bytes(&dir, &path, bytes),
            ),
            (Client::OpenCode, opencode::read_bytes(&dir, &path, bytes)),
            (Client::Copilot, copilot::read_bytes(&dir, &path, bytes)),
            (Client::QwenCode, qwen_code::read_bytes(&dir, &path, bytes)),
        ] {
            assert_eq!(
                reading_of(client, &skill),
                Some(own),
                "{client:?} of {text:?}"
            );
        }
    }
    Ok(())
}
