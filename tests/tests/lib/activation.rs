//! Activation on the shared corpus of 454 real skills: the body the runtime
//! activates is the body Claude Code reads (`../shared/clients/BEHAVIOUR.md`:
//! everything after the frontmatter and the blanks that follow it, CRLF and
//! the final line break kept), and no real skill's activation fails or
//! panics, whatever its placeholders.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use skills_bundle::Bundle;
use skills_bundle::activation::Options;
use skills_bundle::pack::Trust;
use skills_compiler::client::claude_code;
use skills_compiler::pack::write_pack;
use skills_compiler::{self as compiler, Options as CheckOptions, Profile, embed};
use skills_core::zip::write::DosTime;
use skills_tests::corpus_roots;

#[skills_tests::acceptance("needs ../shared/corpus")]
#[test]
fn every_corpus_skill_activates_with_the_body_claude_code_reads() {
    let roots = corpus_roots();
    let options = CheckOptions {
        profile: Profile::ClaudeCode,
        ..CheckOptions::default()
    };
    let checked = compiler::check(&roots, &options);
    let plan = embed::plan(&checked, &roots, &[]).unwrap();
    let bundle =
        Bundle::from_pack(&write_pack(&plan, DosTime::EPOCH).unwrap(), Trust::Unsigned).unwrap();
    let (mut compared, mut with_placeholders) = (0, 0);
    let mut wrong = Vec::new();
    for found in checked
        .skills
        .iter()
        .filter(|s| s.is_valid() && s.duplicate_of.is_none())
    {
        let name = found.qualified_name().unwrap();
        let skill = bundle.get(&name).unwrap();
        let dir = found.dir.to_string_lossy();
        let options = Options::default()
            .with_arguments("first \"second word\" third")
            .with_base_dir(&dir)
            .with_session_id("session")
            .with_project_dir("/project");
        let text = skill.activate_with(&options).unwrap().content;
        let header = format!("Base directory for this skill: {dir}\n\n");
        assert!(text.starts_with(&header), "{name}");
        let md = std::fs::read(found.dir.join("SKILL.md")).unwrap();
        let md = String::from_utf8_lossy(&md);
        let body = claude_code::split(md.strip_prefix('\u{feff}').unwrap_or(&md)).body;
        if body.contains(['$', '\u{fffe}', '\u{ffff}']) || body.contains("!`") {
            with_placeholders += 1;
            continue;
        }
        compared += 1;
        // No placeholder took the arguments: they follow the body.
        let want = format!("{header}{body}\n\nARGUMENTS: first \"second word\" third");
        if text != want {
            wrong.push(name);
        }
    }
    assert!(wrong.is_empty(), "bodies unlike Claude Code's: {wrong:?}");
    assert_eq!(compared + with_placeholders, 454);
    assert!(compared > 300, "only {compared} compared");
}
