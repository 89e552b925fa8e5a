//! Profiles: which keys a skill may use, and how bad each problem is.
//!
//! * `spec` (the default) is the Agent Skills specification exactly as
//!   `skills-ref validate` 0.1.1 enforces it: six keys, strict YAML, and every
//!   reference rule an error. Checks the reference does not make are warnings.
//! * `claude-code` is Claude Code as recorded (`crate::client::claude_code`):
//!   an error exactly where Claude Code would not load the skill, a warning
//!   with a stable code (`SK4xx`) wherever it loads it differently from what
//!   the author wrote (`crate::client::diagnostics`). The keys it reads are
//!   accepted; what the specification requires and Claude Code does without
//!   (a `name`, a `description`, a frontmatter at all) is a warning.
//! * `codex` is Codex CLI as recorded (`crate::client::codex`): an error
//!   exactly where Codex would not load the skill (`SK401`, with Codex's
//!   reason) or would not find it (`skill.md`), everything else a warning,
//!   with `SK4xx` codes where Codex lists it differently from what the
//!   author wrote, and `SK452` for what it ignores in `agents/openai.yaml`.
//!   Codex's reading of `SKILL.md` needs libyaml, built by the `codex-yaml`
//!   feature (the `skb` CLI's): without it the profile exists and reports
//!   every skill as one whose reading is not known (`SK005`, naming the
//!   feature), so no check passes on a reading it did not make.
//! * `gemini-cli` is Gemini CLI as recorded (`crate::client::gemini_cli`):
//!   an error exactly where Gemini CLI would skip the skill without a word
//!   (`SK402`, with the reason: no frontmatter at the first byte, no `name`
//!   or `description`, replaced by a later skill of the same name), and
//!   `SK4xx` warnings where it lists the skill differently from what the
//!   author wrote (the name sanitised, the YAML unread and the lines read
//!   instead).
//! * `copilot` is GitHub Copilot CLI as recorded (`crate::client::copilot`):
//!   an error where Copilot drops the skill (`SK401`: YAML that does not
//!   parse, a name or description it refuses, a description over 1,024
//!   characters), warnings where it lists the skill differently (a name with
//!   spaces, a description taken from the body) or not at all (hidden by a
//!   `SKILL.md` directly in its skills folder, a later copy of a name,
//!   `disable-model-invocation: true`).
//!
//! The client profiles are one per client of the registry
//! ([`skills_core::client::CLIENTS`]), named as the client is.

use crate::client::Client;
use crate::diag::{Code, Severity};

/// A set of rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// The Agent Skills specification, as the reference validator enforces it.
    #[default]
    Spec,
    /// What Claude Code loads and lists.
    ClaudeCode,
    /// What Codex CLI loads (Codex's reading of `SKILL.md` needs the
    /// `codex-yaml` feature, see [`crate::client::codex`]).
    Codex,
    /// What Gemini CLI loads and lists.
    GeminiCli,
    /// What OpenCode loads and lists.
    OpenCode,
    /// What GitHub Copilot CLI loads and lists.
    Copilot,
    /// What Qwen Code loads and lists.
    QwenCode,
    /// What Kimi Code loads and lists.
    KimiCode,
}

/// The keys the specification allows, sorted as the reference prints them.
pub const SPEC_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];

/// The shape an extension key's value should have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A string.
    Str,
    /// `true` or `false`.
    Bool,
    /// A string or a list of strings.
    StrOrList,
    /// A mapping.
    Map,
    /// Anything.
    Any,
}

/// Frontmatter keys outside the specification that Claude Code or Codex read,
/// or that real published skills use, with the shape each expects.
pub const EXTENSION_FIELDS: &[(&str, Shape)] = &[
    ("agent", Shape::Str),
    ("argument-hint", Shape::StrOrList),
    ("arguments", Shape::StrOrList),
    ("author", Shape::Str),
    ("background", Shape::Bool),
    ("context", Shape::Str),
    ("disable-model-invocation", Shape::Bool),
    ("disallowed-tools", Shape::StrOrList),
    ("effort", Shape::Str),
    ("fallback", Shape::Any),
    ("hooks", Shape::Any),
    ("model", Shape::Str),
    ("paths", Shape::StrOrList),
    ("shell", Shape::Str),
    ("tags", Shape::StrOrList),
    ("tools", Shape::StrOrList),
    ("type", Shape::Str),
    ("user-invocable", Shape::Bool),
    ("version", Shape::Str),
    ("when_to_use", Shape::Str),
];

impl Profile {
    /// Every profile: `spec`, then the clients' in the registry's order.
    pub const ALL: [Profile; 1 + Client::ALL.len()] = {
        let mut all = [Profile::Spec; 1 + Client::ALL.len()];
        let mut i = 0;
        while i < Client::ALL.len() {
            all[i + 1] = Profile::of(Client::ALL[i]);
            i += 1;
        }
        all
    };

    /// The profile that validates for `client`: what it loads.
    pub const fn of(client: Client) -> Profile {
        match client {
            Client::ClaudeCode => Profile::ClaudeCode,
            Client::Codex => Profile::Codex,
            Client::GeminiCli => Profile::GeminiCli,
            Client::OpenCode => Profile::OpenCode,
            Client::Copilot => Profile::Copilot,
            Client::QwenCode => Profile::QwenCode,
            Client::KimiCode => Profile::KimiCode,
        }
    }

    /// The profile's name on the command line and in the macro: `spec`, or
    /// the client's name.
    pub const fn as_str(self) -> &'static str {
        match self.client() {
            None => "spec",
            Some(client) => client.as_str(),
        }
    }

    /// Parses a profile name.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// Whether the profile accepts `key` at the top level of the frontmatter.
    pub fn allows_key(self, key: &str) -> bool {
        SPEC_FIELDS.contains(&key) || self.extension_shape(key).is_some()
    }

    /// The expected shape of an extension key this profile knows.
    pub fn extension_shape(self, key: &str) -> Option<Shape> {
        match self {
            Profile::Spec => None,
            // The client profiles: Claude Code and Codex.
            _ => EXTENSION_FIELDS
                .iter()
                .find(|(k, _)| *k == key)
                .map(|&(_, shape)| shape),
        }
    }

    /// The client whose reading decides this profile's errors, if any.
    pub const fn client(self) -> Option<Client> {
        match self {
            Profile::Spec => None,
            Profile::ClaudeCode => Some(Client::ClaudeCode),
            Profile::Codex => Some(Client::Codex),
            Profile::GeminiCli => Some(Client::GeminiCli),
            Profile::OpenCode => Some(Client::OpenCode),
            Profile::Copilot => Some(Client::Copilot),
            Profile::QwenCode => Some(Client::QwenCode),
            Profile::KimiCode => Some(Client::KimiCode),
        }
    }

    /// How bad `code` is under this profile.
    pub fn severity(self, code: Code) -> Severity {
        use Code::*;
        // Gemini CLI lists every skill it loads: a skill it does not list
        // is one it skips without a word, which its profile makes an error.
        if self == Profile::GeminiCli && code == ClientNotListed {
            return Severity::Error;
        }
        if self.client().is_some() {
            match code {
                // The client would not load the skill.
                ClientRejected | LowercaseSkillMd => return Severity::Error,
                // It loads the skill, differently from what was written.
                ClientNotListed
                | ClientNameNotShown
                | ClientDescriptionReplaced
                | ClientDescriptionCut
                | ClientDescriptionEscaped
                | ClientYamlUnread
                | ClientFlagNotRead
                | ClientLooseFile
                | ClientKeyNotModelled
                | NotUtf8
                | Bom
                | EmptyFile
                | MissingFrontmatter
                | UnclosedFrontmatter
                | InvalidYaml
                | FrontmatterNotMapping
                | MissingName
                | NameNotString
                | MissingDescription
                | DescriptionNotString => return Severity::Warning,
                _ => {}
            }
        }
        let warning = match code {
            DuplicateSkill
            | SymlinkEscape
            | SymlinkCycle
            | BadManifest
            | LowercaseSkillMd
            | Yaml11Type
            | FieldType
            | AllowedToolsForm
            | SkillMdTooLong
            | MissingReferencedFile
            | ScriptNoShebang
            | ScriptNotExecutable
            | InvisibleUnicode
            | DescriptionAngleBrackets
            | DescriptionNoTrigger
            | PackagingDrops
            | AllowedToolsAnyProgram
            | ClientKeyIgnored
            | CodexOpenAiYaml
            | ClientsDifferListing
            | ClientsDifferName
            | ClientIgnoresControl => true,
            YamlFlowStyle
            | YamlAnchor
            | YamlTag
            | YamlDuplicateKey
            | UnexpectedField
            | NameTooLong
            | NameNotLowercase
            | NameHyphenEdge
            | NameConsecutiveHyphens
            | NameInvalidChars
            | NameDirMismatch
            | DescriptionTooLong
            | CompatibilityNotString
            | CompatibilityTooLong => self.client().is_some(),
            _ => false,
        };
        if warning {
            Severity::Warning
        } else {
            Severity::Error
        }
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Profile::ALL {
            assert_eq!(Profile::from_name(p.as_str()), Some(p));
        }
        for c in Client::ALL {
            assert_eq!(Profile::of(c).client(), Some(c));
            assert_eq!(Profile::of(c).as_str(), c.as_str());
        }
        assert_eq!(Profile::from_name("strict"), None);
    }

    #[test]
    fn spec_errors_become_claude_code_warnings() {
        assert_eq!(
            Profile::Spec.severity(Code::UnexpectedField),
            Severity::Error
        );
        assert_eq!(
            Profile::ClaudeCode.severity(Code::UnexpectedField),
            Severity::Warning
        );
        assert_eq!(
            Profile::ClaudeCode.severity(Code::MissingName),
            Severity::Warning
        );
        assert_eq!(
            Profile::ClaudeCode.severity(Code::InvalidYaml),
            Severity::Warning
        );
        assert_eq!(
            Profile::ClaudeCode.severity(Code::ClientRejected),
            Severity::Error
        );
        assert_eq!(Profile::Spec.severity(Code::MissingName), Severity::Error);
        assert_eq!(
            Profile::Spec.severity(Code::ScriptNoShebang),
            Severity::Warning
        );
    }

    #[test]
    fn codex_errors_only_where_codex_does_not_load() {
        let errors: Vec<Code> = Code::ALL
            .iter()
            .copied()
            .filter(|&c| Profile::Codex.severity(c) == Severity::Error)
            .collect();
        assert_eq!(
            errors,
            [
                Code::PathNotFound,
                Code::NotADirectory,
                Code::MissingSkillMd,
                Code::SkillMdNotFile,
                Code::Io,
                Code::DiscoveryLimit,
                Code::LowercaseSkillMd,
                Code::ClientRejected,
            ]
        );
        assert!(Profile::Codex.allows_key("when_to_use"));
    }

    #[test]
    fn gemini_cli_errors_where_it_skips_a_skill() {
        assert_eq!(
            Profile::GeminiCli.severity(Code::ClientNotListed),
            Severity::Error
        );
        assert_eq!(
            Profile::ClaudeCode.severity(Code::ClientNotListed),
            Severity::Warning
        );
        assert_eq!(
            Profile::GeminiCli.severity(Code::ClientYamlUnread),
            Severity::Warning
        );
    }

    #[test]
    fn extension_keys_are_sorted_and_not_spec_keys() {
        let keys: Vec<&str> = EXTENSION_FIELDS.iter().map(|(k, _)| *k).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        assert!(keys.iter().all(|k| !SPEC_FIELDS.contains(k)));
        assert!(Profile::ClaudeCode.allows_key("user-invocable"));
        assert!(!Profile::Spec.allows_key("user-invocable"));
    }
}
