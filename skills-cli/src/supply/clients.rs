//! Per client, before anything is installed: would it load each skill, and
//! under which name?
//!
//! The clients `skb` models (Claude Code, Codex) are asked through their
//! profiles: the compiler reads the fetched skills as that client would and
//! every error is a skill the client would not load. For the others, what
//! running them showed (GUIDE.md, "Installing skills"): Gemini CLI skips a
//! `SKILL.md` that starts with a byte-order mark or a blank line before
//! `---`; OpenCode reads only `SKILL.md`, never `skill.md`. A plugin's skill
//! (`plugin:skill`) is installed and listed under its own name.

use skills_compiler::embed::PlanSkill;
use skills_compiler::{self as compiler, Options, Profile};
use skills_core::client::InstallTarget;

use super::install::folder_name;
use crate::input::Inputs;

/// One thing a client would do differently with a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The client's id.
    pub client: &'static str,
    /// The skill's name.
    pub skill: String,
    /// What it would do.
    pub note: String,
}

/// The notes for `skills` installed for `targets`, read from `inputs` with
/// `options` (the profile replaced per modelled client).
pub fn notes(
    inputs: &Inputs,
    options: &Options,
    skills: &[&PlanSkill],
    contents: &[Vec<(String, Vec<u8>, bool)>],
    targets: &[&'static InstallTarget],
) -> Vec<Note> {
    let mut out = Vec::new();
    for target in targets {
        if let Some(client) = target.client {
            let checked = compiler::check(
                &inputs.roots,
                &Options {
                    profile: Profile::of(client),
                    ..options.clone()
                },
            );
            for skill in skills {
                let Some(found) = checked
                    .skills
                    .iter()
                    .find(|c| c.qualified_name().as_deref() == Some(&*skill.meta.name))
                else {
                    continue;
                };
                for d in found.diagnostics.iter().filter(|d| d.is_error()) {
                    out.push(Note {
                        client: target.id,
                        skill: skill.meta.name.to_string(),
                        note: format!("would not load it: {} [{}]", d.message, d.code.as_str()),
                    });
                }
            }
        }
        for (skill, files) in skills.iter().zip(contents) {
            let name = folder_name(skill);
            if name != &*skill.meta.name {
                out.push(Note {
                    client: target.id,
                    skill: skill.meta.name.to_string(),
                    note: format!("installed outside its plugin, listed as `{name}`"),
                });
            }
            let md = files.iter().find(|(p, _, _)| *p == *skill.meta.skill_md);
            match target.id {
                "gemini-cli" => {
                    if let Some((_, bytes, _)) = md
                        && (bytes.starts_with("\u{feff}".as_bytes())
                            || bytes.first().is_some_and(|b| matches!(b, b'\n' | b'\r')))
                    {
                        out.push(Note {
                            client: target.id,
                            skill: skill.meta.name.to_string(),
                            note: "would skip it: `SKILL.md` starts with a byte-order mark or a blank line before `---`".into(),
                        });
                    }
                }
                "opencode" if md.is_some_and(|(p, _, _)| p != "SKILL.md") => {
                    out.push(Note {
                        client: target.id,
                        skill: skill.meta.name.to_string(),
                        note: "would not find it: OpenCode reads `SKILL.md`, not `skill.md`".into(),
                    });
                }
                _ => {}
            }
        }
    }
    out
}
