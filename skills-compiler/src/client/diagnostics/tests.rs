//! Tests of `diagnostics`.

use super::*;
use crate::{Options, check_dir};

fn diagnosed(text: &str) -> std::io::Result<Vec<(Code, bool)>> {
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path().join("s");
    std::fs::create_dir(&dir)?;
    std::fs::write(dir.join("SKILL.md"), text)?;
    let options = Options {
        profile: Profile::ClaudeCode,
        lints: false,
        ..Options::default()
    };
    let skill = check_dir(&dir, &options);
    Ok(skill
        .diagnostics
        .iter()
        .map(|d| (d.code, d.is_error()))
        .collect())
}

#[test]
fn claude_code_judges() -> std::io::Result<()> {
    assert_eq!(diagnosed("---\nname: s\ndescription: D.\n---\nB\n")?, []);
    // Loaded with the folder name and the first body line: warnings only.
    let loose = diagnosed("# Title\n")?;
    assert!(loose.iter().all(|(_, e)| !e), "{loose:?}");
    assert!(
        loose.contains(&(Code::ClientDescriptionReplaced, false)),
        "{loose:?}"
    );
    let bad_yaml = diagnosed("---\nname: s\n\tdescription: x\n---\nB\n")?;
    assert!(bad_yaml.iter().all(|(_, e)| !e), "{bad_yaml:?}");
    assert!(
        bad_yaml.contains(&(Code::ClientYamlUnread, false)),
        "{bad_yaml:?}"
    );
    assert!(!bad_yaml.iter().any(|(c, _)| *c == Code::InvalidYaml));
    let hidden = diagnosed("---\nname: s\ndescription: D.\ndisable-model-invocation: true\n---\n")?;
    assert_eq!(hidden, [(Code::ClientNotListed, false)]);
    let keys = diagnosed(
        "---\nname: s\ndescription: D.\narguments: [a, b]\ndisallowed-tools: Bash\nbackground: true\n---\n",
    )?;
    assert!(
        !keys.iter().any(|(c, _)| *c == Code::UnexpectedField),
        "{keys:?}"
    );
    let big = format!(
        "---\nname: s\ndescription: D.\n---\n{}",
        "x\n".repeat(500_001)
    );
    let big = diagnosed(&big)?;
    assert!(big.contains(&(Code::ClientRejected, true)), "{big:?}");
    Ok(())
}
