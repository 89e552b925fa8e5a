//! The lock file, `skb.lock`: what a project installed, from where, and the
//! exact bytes of every installed file.
//!
//! One file in the project, written by `skb add`, `install`, `update` and
//! `remove`, read by `skb install --frozen` and `verify --installed`, by
//! `skills_bundle!(lock = ...)` (which refuses to embed a folder that differs
//! from it) and by the runtime's check of installed folders. It lives here,
//! beside the pack format, because the build and the run time both read it
//! and neither may link the installer.
//!
//! JSON, in one layout (keys in a fixed order, skills by name, files by path,
//! two-space indent, one file per line), so that a review of a change is a
//! readable `git diff`:
//!
//! ```json
//! {
//!   "version": 1,
//!   "skills": {
//!     "pdf": {
//!       "source": "acme/skills@v1",
//!       "resolved": { "type": "git", "url": "https://github.com/acme/skills.git", "commit": "…", "path": "skills/pdf" },
//!       "digest": "sha256:…",
//!       "signer": { "key": "1A2B3C4D5E6F7A8B", "digest": "…", "version": "1.2.0", "timestamp": 1764200000 },
//!       "scan": { "engine": "skills-scan 0.1.0", "fail_on": "high", "findings": { "high": 1, "low": 2 }, "allowed": ["SK604:…"] },
//!       "installed": [".agents/skills/pdf", ".claude/skills/pdf"],
//!       "files": {
//!         "SKILL.md": { "size": 1234, "sha256": "…" },
//!         "scripts/fill.py": { "size": 88, "sha256": "…", "executable": true }
//!       }
//!     }
//!   }
//! }
//! ```
//!
//! `digest` is the skill's [`crate::digest`] (`skills-digest-v2`, the digest
//! packs carry and `skb inspect` prints, over this one skill); `files` lets a
//! check that parses nothing (the runtime's) name each edited, added or
//! removed file. `unsigned` replaces `signer` when a remote source was
//! installed without a signature, and says which flag allowed it.
//!
//! `scan` is what the installer's security gate saw: the scanner, the gate
//! (the lowest severity that refuses a skill, or `none`), how many findings
//! of each severity it reported, and the findings at or above the gate that
//! were accepted (`--allow-finding`), each as `CODE:fingerprint`. It is the
//! record of that acceptance: `skb install --frozen` scans again and refuses
//! a finding at or above its gate that the list does not name. Locks
//! written before the gate have no `scan`, and read as before.
//!
//! Every reader of a lock file goes through `read` or `Scope::read_lock`
//! (feature `fs`: bounded, UTF-8, strict, checked for its [`Scope`], a
//! project's or the user's), and every check of the installed tree through
//! `installed::verify`.

pub mod attest;
#[cfg(feature = "fs")]
mod file;
#[cfg(feature = "fs")]
pub mod installed;
pub mod scope;
#[cfg(feature = "fs")]
pub mod tree;

mod duplicate;
mod model;
mod read;
mod write;

#[cfg(feature = "fs")]
pub use file::{ReadError, read};
pub use model::{
    FAIL_ON, FILE_NAME, FindingCounts, GitSigned, Lock, LockedFile, LockedScan, LockedSkill,
    MAX_LOCK_FILE, Resolved, SignatureRecord, Signer, SigstoreSigned, VERSION, is_allowed_entry,
};
pub use read::ParseError;
pub use scope::{HomeError, Rule, Scope, ScopeError, home_from_env};

impl Lock {
    /// Reads a lock file's text.
    pub fn parse(text: &str) -> Result<Lock, ParseError> {
        read::parse(text)
    }

    /// The lock as its file's text.
    pub fn to_json(&self) -> String {
        write::to_json(self)
    }
}

#[cfg(test)]
mod tests;
