//! Where the clients differ on one skill: from every client's [`Reading`]
//! of it ([`all_readings`](super::all_readings)) and the skill's own files,
//! which clients list it and which do not ([`Difference::Listing`]), under
//! which names ([`Difference::Name`]), and which obey a control that others
//! ignore ([`Difference::Control`]).
//!
//! Only the clients that see the skill are compared: a client that does not
//! read the folder the skill is in never sees it ([`Differences::unseen`]),
//! which says where the skill is, not what it is. A reading that is not
//! known ([`Outcome::Unknown`]) is never a difference either: that client is
//! left out of every comparison ([`Differences::unknown`]).
//!
//! A control is a setting that keeps a skill out of one client's list: the
//! frontmatter's `disable-model-invocation: true` and `paths` (Claude Code,
//! read with Claude Code's own rules) and `policy.allow_implicit_invocation:
//! false` in `agents/openai.yaml` (Codex). Each is read by one client (and
//! `disable-model-invocation: true` by Copilot CLI too); the others were
//! recorded reading only `name` and `description` (Gemini CLI,
//! OpenCode) or their own file, so a client that lists a skill a control
//! keeps out of another's list ignores it. Where a file can make a client
//! that ignores a control obey its equivalent, the difference says so
//! ([`Difference::fixes`]); `skb fix` writes it.

use std::path::Path;

use skills_core::client::Client;

use super::claude_code;
use super::codex::{OPENAI_YAML, OpenAiYaml};
use super::reading::{Outcome, Reading};
use crate::checked::CheckedSkill;
use crate::diag::{Code, Diagnostic};
use crate::profile::Profile;
use crate::render;
use crate::rules::MAX_NAME_READ;
use crate::yaml::Node;

/// A setting that keeps a skill out of a client's list to its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Control {
    /// `disable-model-invocation: true` in the frontmatter (Claude Code).
    DisableModelInvocation,
    /// `paths` in the frontmatter (Claude Code: listed only once a matching
    /// file is touched).
    Paths,
    /// `policy.allow_implicit_invocation: false` in `agents/openai.yaml`
    /// (Codex).
    AllowImplicitInvocation,
}

impl Control {
    /// Every control.
    pub const ALL: [Control; 3] = [
        Control::DisableModelInvocation,
        Control::Paths,
        Control::AllowImplicitInvocation,
    ];

    /// The key, as written: `disable-model-invocation`, `paths`,
    /// `policy.allow_implicit_invocation`.
    pub fn key(self) -> &'static str {
        match self {
            Control::DisableModelInvocation => "disable-model-invocation",
            Control::Paths => "paths",
            Control::AllowImplicitInvocation => "policy.allow_implicit_invocation",
        }
    }

    /// The client that reads it.
    pub fn client(self) -> Client {
        match self {
            Control::DisableModelInvocation | Control::Paths => Client::ClaudeCode,
            Control::AllowImplicitInvocation => Client::Codex,
        }
    }

    /// Whether `client` obeys it: the client it was made for, and Copilot
    /// CLI, which was recorded keeping a skill with
    /// `disable-model-invocation: true` out of its list too.
    pub fn read_by(self, client: Client) -> bool {
        client == self.client()
            || (self == Control::DisableModelInvocation && client == Client::Copilot)
    }

    /// The control `client` reads that does what this one does, where there
    /// is one: Claude Code's `disable-model-invocation: true` and Codex's
    /// `policy.allow_implicit_invocation: false` both keep the skill out of
    /// the model's list while the user can still invoke it. Nothing does
    /// what `paths` does in another client.
    pub fn equivalent(self, client: Client) -> Option<Control> {
        match (self, client) {
            (_, c) if self.read_by(c) => Some(self),
            (Control::DisableModelInvocation, Client::Codex) => {
                Some(Control::AllowImplicitInvocation)
            }
            (Control::AllowImplicitInvocation, Client::ClaudeCode | Client::Copilot) => {
                Some(Control::DisableModelInvocation)
            }
            // Qwen Code reads both frontmatter controls as Claude Code does.
            (Control::DisableModelInvocation | Control::Paths, Client::QwenCode) => Some(self),
            (Control::AllowImplicitInvocation, Client::QwenCode) => {
                Some(Control::DisableModelInvocation)
            }
            // Kimi Code reads `disable-model-invocation` (the boolean
            // `true`), and lists a skill with `paths` like any other.
            (Control::DisableModelInvocation, Client::KimiCode) => Some(self),
            (Control::AllowImplicitInvocation, Client::KimiCode) => {
                Some(Control::DisableModelInvocation)
            }
            _ => None,
        }
    }

    /// How it is written, for messages.
    pub fn written(self) -> String {
        match self {
            Control::DisableModelInvocation => "`disable-model-invocation: true`".into(),
            Control::Paths => "`paths`".into(),
            Control::AllowImplicitInvocation => {
                format!("`policy.allow_implicit_invocation: false` in `{OPENAI_YAML}`")
            }
        }
    }

    /// Whether `skill` sets it, read as the client that reads it reads it.
    pub fn is_set(self, skill: &CheckedSkill) -> bool {
        self.is_set_in(skill.frontmatter.as_ref(), skill.openai_yaml.as_deref())
    }

    /// Whether a skill whose frontmatter is `frontmatter` and whose
    /// `agents/openai.yaml` Codex reads as `openai_yaml` sets it.
    pub fn is_set_in(self, frontmatter: Option<&Node>, openai_yaml: Option<&OpenAiYaml>) -> bool {
        let key = |k: &str| frontmatter.and_then(|r| r.get(k));
        match self {
            Control::DisableModelInvocation => {
                key("disable-model-invocation").is_some_and(claude_code::is_true)
            }
            Control::Paths => key("paths").is_some_and(claude_code::scopes),
            Control::AllowImplicitInvocation => {
                openai_yaml.is_some_and(|o| o.allow_implicit_invocation == Some(false))
            }
        }
    }

    /// Whether `skb fix` writes it (it writes only `agents/openai.yaml`:
    /// a frontmatter key it would add is one the specification does not
    /// allow).
    pub fn fix_writes(self) -> bool {
        self == Control::AllowImplicitInvocation
    }
}

/// How one client that does not list the skill treats it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotListed {
    /// The client.
    pub client: Client,
    /// Whether it refuses the skill outright (else it loads it unlisted).
    pub rejected: bool,
    /// Why, in the client's reading's words.
    pub why: String,
}

/// The name a client lists the skill under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedName {
    /// The client.
    pub client: Client,
    /// The name its entry starts with.
    pub name: String,
    /// A second name it shows in parentheses (Claude Code), if any.
    pub alias: Option<String>,
}

impl ListedName {
    /// The name as the entry shows it, each part quoted by its ends when
    /// long (a name may be millions of characters).
    fn shown(&self) -> String {
        let quoted = |s: &str| render::elided(s, MAX_NAME_READ);
        match &self.alias {
            Some(a) => format!("`{} ({})`", quoted(&self.name), quoted(a)),
            None => format!("`{}`", quoted(&self.name)),
        }
    }
}

/// One way the clients that see a skill treat it differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// Some list the skill to their model, others do not (for another
    /// reason than a control).
    Listing {
        /// The clients that list it.
        listed: Vec<Client>,
        /// The clients that do not, and why.
        not_listed: Vec<NotListed>,
    },
    /// The clients that list it do so under different names.
    Name {
        /// Each listing client's name for it.
        names: Vec<ListedName>,
    },
    /// A control keeps the skill out of some clients' lists and the others
    /// ignore it.
    Control {
        /// The clients that obey a control, each with the control.
        obeyed: Vec<(Client, Control)>,
        /// The clients that list the skill regardless.
        ignored_by: Vec<Client>,
    },
}

impl Difference {
    /// The stable code.
    pub fn code(&self) -> Code {
        match self {
            Difference::Listing { .. } => Code::ClientsDifferListing,
            Difference::Name { .. } => Code::ClientsDifferName,
            Difference::Control { .. } => Code::ClientIgnoresControl,
        }
    }

    /// `listing`, `name` or `control`.
    pub fn kind(&self) -> &'static str {
        match self {
            Difference::Listing { .. } => "listing",
            Difference::Name { .. } => "name",
            Difference::Control { .. } => "control",
        }
    }

    /// One line naming the clients.
    pub fn message(&self) -> String {
        match self {
            Difference::Listing { listed, not_listed } => {
                let not: Vec<String> = not_listed
                    .iter()
                    .map(|n| {
                        let verb = if n.rejected {
                            "does not load it"
                        } else {
                            "does not list it"
                        };
                        format!("{} {verb} ({})", n.client.title(), n.why)
                    })
                    .collect();
                format!(
                    "{} {} this skill to the model; {}",
                    titles(listed),
                    if listed.len() == 1 { "lists" } else { "list" },
                    not.join("; ")
                )
            }
            Difference::Name { names } => {
                let each: Vec<String> = names
                    .iter()
                    .map(|n| format!("{} as {}", n.client.title(), n.shown()))
                    .collect();
                format!(
                    "the clients list this skill under different names: {}",
                    each.join(", ")
                )
            }
            Difference::Control { obeyed, ignored_by } => {
                let keys: Vec<String> = distinct(obeyed.iter().map(|(_, k)| *k))
                    .into_iter()
                    .map(|k| format!("`{}`", k.key()))
                    .collect();
                let kept = match obeyed.as_slice() {
                    [(c, k)] => format!(
                        "{} keeps this skill out of its model's list ({})",
                        c.title(),
                        k.written()
                    ),
                    _ => {
                        let each: Vec<String> = obeyed
                            .iter()
                            .map(|(c, k)| format!("{} ({})", c.title(), k.written()))
                            .collect();
                        format!(
                            "{} keep this skill out of their models' lists",
                            and_list(&each)
                        )
                    }
                };
                let (verb, who) = match ignored_by.len() {
                    1 => ("lists", "it does"),
                    _ => ("list", "they do"),
                };
                format!(
                    "{kept}; {} {verb} it: {who} not read {}",
                    titles(ignored_by),
                    or_list(&keys)
                )
            }
        }
    }

    /// For each client that ignores the controls, the equivalent control
    /// it reads that `skb fix` can write, when there is one.
    pub fn fixes(&self) -> Vec<(Client, Control)> {
        let Difference::Control { obeyed, ignored_by } = self else {
            return Vec::new();
        };
        ignored_by
            .iter()
            .filter_map(|&c| {
                obeyed
                    .iter()
                    .find_map(|(_, k)| k.equivalent(c))
                    .filter(|e| e.fix_writes())
                    .map(|e| (c, e))
            })
            .collect()
    }

    /// What makes the clients agree, where something does.
    pub fn help(&self) -> Option<String> {
        let Difference::Control { obeyed, ignored_by } = self else {
            return None;
        };
        let mut helps: Vec<String> = self
            .fixes()
            .into_iter()
            .map(|(c, k)| {
                format!(
                    "`skb fix` writes {}, which {} obeys",
                    k.written(),
                    c.title()
                )
            })
            .collect();
        for &c in ignored_by {
            let by_hand = obeyed
                .iter()
                .find_map(|(_, k)| k.equivalent(c))
                .filter(|e| !e.fix_writes());
            if let Some(e) = by_hand {
                helps.push(format!(
                    "for {} to do the same, set {}",
                    c.title(),
                    e.written()
                ));
            }
        }
        (!helps.is_empty()).then(|| helps.join("; "))
    }

    /// The warning for `skill_md` under `profile`.
    pub fn diagnostic(&self, skill_md: &Path, profile: Profile) -> Diagnostic {
        let code = self.code();
        let d = Diagnostic::new(code, profile.severity(code), skill_md, self.message());
        match self.help() {
            Some(h) => d.help(h),
            None => d,
        }
    }
}

/// Where the clients differ on one skill, and which were not compared.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Differences {
    /// The differences, in the order: listing, control, name.
    pub differences: Vec<Difference>,
    /// The clients that do not read the folder the skill is in, and why.
    pub unseen: Vec<(Client, String)>,
    /// The clients whose reading is not known.
    pub unknown: Vec<Client>,
}

/// Where the clients differ on `skill`, from `readings` (each client's
/// reading of it, as [`all_readings`](super::all_readings) gives them).
pub fn differences(skill: &CheckedSkill, readings: &[(Client, Reading)]) -> Differences {
    let mut out = Differences::default();
    let mut seen: Vec<(Client, &Reading)> = Vec::new();
    for (c, r) in readings {
        if let Some(why) = super::other_clients_folder(*c, skill) {
            out.unseen.push((*c, why));
        } else if matches!(r.outcome, Outcome::Unknown { .. }) {
            out.unknown.push(*c);
        } else {
            seen.push((*c, r));
        }
    }
    let set: Vec<Control> = Control::ALL
        .into_iter()
        .filter(|k| k.is_set(skill))
        .collect();
    let listed: Vec<Client> = seen
        .iter()
        .filter(|(_, r)| r.outcome.listed().is_some())
        .map(|(c, _)| *c)
        .collect();
    let mut obeyed = Vec::new();
    let mut not_listed = Vec::new();
    for (c, r) in &seen {
        let (rejected, why) = match &r.outcome {
            Outcome::NotListed { why } => (false, why),
            Outcome::Rejected { why } => (true, why),
            Outcome::Listed(_) | Outcome::Unknown { .. } => continue,
        };
        match set.iter().find(|k| k.read_by(*c)).filter(|_| !rejected) {
            Some(k) => obeyed.push((*c, *k)),
            None => not_listed.push(NotListed {
                client: *c,
                rejected,
                why: why.clone(),
            }),
        }
    }
    if listed.is_empty() {
        return out;
    }
    if !not_listed.is_empty() {
        out.differences.push(Difference::Listing {
            listed: listed.clone(),
            not_listed,
        });
    }
    if !obeyed.is_empty() {
        out.differences.push(Difference::Control {
            obeyed,
            ignored_by: listed,
        });
    }
    let names: Vec<ListedName> = seen
        .iter()
        .filter_map(|(c, r)| {
            let l = r.outcome.listed()?;
            Some(ListedName {
                client: *c,
                name: l.name.clone(),
                alias: l.alias.clone(),
            })
        })
        .collect();
    let differ = names
        .first()
        .is_some_and(|f| names.iter().any(|n| n.name != f.name));
    if differ {
        out.differences.push(Difference::Name { names });
    }
    out
}

/// `Claude Code`, `Claude Code and Codex`, `Claude Code, Codex and OpenCode`.
fn titles(clients: &[Client]) -> String {
    let names: Vec<&str> = clients.iter().map(|c| c.title()).collect();
    and_list(&names)
}

fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    join(items, "and")
}

fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    join(items, "or")
}

fn join<S: AsRef<str>>(items: &[S], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} {word} {}", rest.join(", "), last.as_ref())
        }
    }
}

fn distinct(controls: impl Iterator<Item = Control>) -> Vec<Control> {
    let mut v: Vec<Control> = controls.collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests;
