//! How Codex CLI 0.169.0 reads a skill folder: which `SKILL.md` its scan
//! loads, what it rejects and with which message, and the name and
//! description it lists.
//!
//! The rules are those Codex was observed to follow when run on test
//! folders, and those its public loader states; nothing here runs Codex. Codex reads the
//! frontmatter with serde over libyaml, so this module does too
//! (`yaml_serde`): a tab in indentation, a list where a string belongs, a
//! scalar frontmatter are rejected with the very text Codex prints. The
//! steps, in Codex's order:
//!
//! 1. The file must be UTF-8 (else `failed to read file: stream did not
//!    contain valid UTF-8`). No size limit.
//! 2. Its first line, trimmed of whitespace, must be `---` and a later line
//!    (trimmed) must be `---`, with at least one line between (else `missing
//!    YAML frontmatter delimited by ---`). A byte-order mark is not
//!    whitespace: a file starting with one has no frontmatter for Codex.
//! 3. The lines between are parsed as YAML into `name`, `description` (both
//!    optional strings: any scalar is read as its text, `12345` and `007`
//!    stay as written) and `metadata.short-description`. When that fails,
//!    Codex still lists skills whose YAML only fails for want of quotes
//!    (`description: Use when: x`, `description: [unclosed`): the record
//!    shows both listed with their text as written, while a tab in the
//!    indentation and a list description stay rejected. The rule that
//!    explains all four, and the one applied here, is: every top-level
//!    `key: value` line whose value is not already quoted or a block scalar
//!    is quoted as written and the YAML parsed again; if that parses, its
//!    values are used, else the first error is reported (`invalid YAML:
//!    <libyaml's message>`).
//! 4. Name: the frontmatter `name`, whitespace runs collapsed to one space;
//!    without one (no key, `null`, or blank) the folder's name. Uppercase,
//!    spaces and `:` are kept. Over 64 characters: `invalid name: exceeds
//!    maximum length of 64 characters`.
//! 5. Description: whitespace runs collapsed to one space, nothing escaped,
//!    `when_to_use` ignored. None or blank: `missing field `description``.
//!    A long one is listed cut (see [`skills_core::catalog::codex`]).
//!
//! 6. `agents/openai.yaml` ([`read_openai_yaml`]) never makes Codex refuse
//!    a skill; `policy.allow_implicit_invocation: false` in it keeps the
//!    skill out of the model's list (`read` says not listed).
//!
//! The scan rule ([`scans`]): below a root, Codex walks folders up to
//! [`MAX_DEPTH`] levels deep (the root is level 0, so a `SKILL.md` directly
//! in the root counts, and one in `root/a/b/c/d/e/f/` is the deepest found),
//! skips every entry whose name starts with `.` (but not `node_modules`),
//! follows symbolic links to folders, and loads files named exactly
//! `SKILL.md` (`skill.md` is not a skill). The walk itself is discovery's
//! ([`crate::discover`]); `listing` lists what it finds as Codex does.
//!
//! Two builds. Steps 1 to 5 give libyaml's own verdicts, messages and
//! positions (`SK401` quotes them), which no other YAML reader reproduces;
//! so they are built with the `codex-yaml` feature only (`skill_md`,
//! `diagnose`, `listing`). The feature is additive: the `codex` client and
//! profile exist in every build, and without it Codex's reading of a skill
//! is not known ([`crate::client::read`] says so, naming the feature), which
//! every profile makes an error. The `skb` CLI enables it; `skills_bundle!`
//! does not, which spares every build that embeds skills serde, its derive,
//! `yaml_serde`, `libyaml-rs`, `indexmap` and `hashbrown` (about 3 s of a
//! clean debug build). The macro refuses `profile = "codex"` by name, with
//! `skb validate --profile codex` as the way to get those verdicts: a
//! reading that mostly agrees with libyaml would be a different verdict
//! given silently. Step 6 is read in both builds, because
//! `policy.allow_implicit_invocation` is part of the metadata a bundle
//! carries and must not depend on who built it: `openai_yaml` reads it
//! without libyaml, proves that reading against libyaml's with the feature,
//! and makes an error of what it cannot decide.

#[cfg(feature = "codex-yaml")]
pub(crate) mod diagnose;
#[cfg(feature = "codex-yaml")]
mod listing;
pub(crate) mod openai_yaml;
pub mod roots;
mod scan;
#[cfg(feature = "codex-yaml")]
mod skill_md;

pub use scan::{MAX_DEPTH, MAX_NAME_CHARS, MISSING_FRONTMATTER, NOT_UTF8, SKILL_MD, scans};
pub use skills_core::catalog::codex::collapse_whitespace;

#[cfg(feature = "codex-yaml")]
pub use diagnose::reading;
#[cfg(feature = "codex-yaml")]
pub use listing::{Found, Listing, listing, rejection_line};
pub use openai_yaml::{OPENAI_YAML, OpenAiYaml, OpenAiYamlProblem, read_openai_yaml};
#[cfg(feature = "codex-yaml")]
pub use skill_md::{
    CodexSkill, READ_LIMIT, Rejection, Unread, extract_frontmatter, ignored_key_message, notes,
    read, read_checked, read_loaded, read_skill_md,
};
