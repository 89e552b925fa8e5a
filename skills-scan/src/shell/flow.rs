//! What the reading of a file collects across its commands and code blocks:
//! variables and files holding secrets or decoded data, downloads, git
//! remotes, and the scope commands are resolved in.

use std::collections::HashSet;

use super::resolve;

/// What the analysis of a file collects across its commands and code
/// blocks (a variable filled in one block of `SKILL.md` and sent in the
/// next).
#[derive(Debug, Default)]
pub(crate) struct Flow {
    /// Variables holding secrets.
    pub(super) tainted: HashSet<String>,
    /// Variables among [`Flow::tainted`] holding the path of a credential
    /// store, not its content (`for f in ~/.ssh/id_rsa .env; do`, and a
    /// string built from one): the content leaves only where the file is
    /// uploaded (`-T "$f"`, `-d @"$f"`), not with the name in a URL.
    pub(super) paths: HashSet<String>,
    /// Files holding secrets.
    pub(super) tainted_files: HashSet<String>,
    /// Files downloaded from the network, with the URL.
    pub(super) downloads: Vec<(String, String)>,
    /// Variables holding decoded data.
    pub(super) decoded: HashSet<String>,
    /// Remotes added by `git remote add`, with their URL.
    pub(super) remotes: Vec<(String, String)>,
    /// Variables, aliases and functions, to read commands as they run.
    pub(super) scope: resolve::Scope,
    /// Whether the text is an agent's hook script, whose standard input is
    /// the hook's payload: the session's prompts, tool inputs and outputs.
    pub(crate) hook_input: bool,
}
