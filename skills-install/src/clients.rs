//! Per client, before anything is installed: would it load each skill, and
//! under which name?
//!
//! The clients `skb` models (Claude Code, Codex, Gemini CLI, OpenCode) are
//! asked through their profiles: the compiler reads the fetched skills as
//! that client would and every error is a skill the client would not load
//! or list. Amp is asked its recorded name rules (`client::amp`: it is
//! listing only). The other install targets are folders only. A plugin's skill
//! (`plugin:skill`) is installed and listed under its own name.

use skills_compiler::embed::PlanSkill;
use skills_compiler::{self as compiler, Options, Profile};
use skills_core::client::InstallTarget;

use crate::input::Inputs;
use crate::install::folder_name;

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
        if target.id == "amp" {
            for skill in skills {
                if let Some(problem) = compiler::client::amp::name_problem(&skill.meta.name) {
                    out.push(Note {
                        client: target.id,
                        skill: skill.meta.name.to_string(),
                        note: format!("would not list it: {problem}"),
                    });
                }
            }
        }
        for skill in skills {
            let name = folder_name(skill);
            if name != &*skill.meta.name {
                out.push(Note {
                    client: target.id,
                    skill: skill.meta.name.to_string(),
                    note: format!("installed outside its plugin, listed as `{name}`"),
                });
            }
        }
    }
    out
}
