//! Secret sources as shell commands name them: credential stores (by path
//! or glob) and commands that print a token.

use std::sync::LazyLock;

use regex::Regex;

use crate::sensitive;

/// Credential stores named by a glob or a folder (`~/.ssh/id_*`,
/// `~/.aws/cred*`, `~/.config/gcloud/*`, `~/.gnupg/`), which a shell
/// expands to the store itself; added to [`sensitive`]'s paths.
pub(super) static STORE_GLOB: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r"(?:\.ssh/id_\*|\.ssh/\*|\.aws/cred\w*\*|\.aws/\*|(?:^|[/~\s'\x22=])\.aws/?$|\.kube/\*|\.config/gcloud|/\.gnupg/?(?:$|\s|\*|private-keys)|\.password-store\b|\.mozilla/firefox/\*|google-chrome/\*|\.docker/\*)")
        .expect("valid")
});

pub(super) fn store_in(text: &str) -> Option<&str> {
    sensitive::store_in(text).or_else(|| STORE_GLOB.find(text).map(|m| m.as_str()))
}

pub(super) fn names_store(text: &str) -> bool {
    store_in(text).is_some()
}

/// Commands that print a cloud or cluster credential.
pub(super) static TOKEN_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r"\baz\s+account\s+get-access-token|\bgcloud\s+auth\s+(?:application-default\s+)?print-\w+|\bkubectl\s+get\s+secrets?\b|\bvault\s+(?:read|kv\s+get)\b|\baws\s+(?:sts\s+get-session-token|ecr\s+get-login-password|secretsmanager\s+get-secret-value|ssm\s+get-parameters?\b[^|;]*--with-decryption)|\bop\s+(?:read|item\s+get)\b|\bheroku\s+auth:token|\bdoppler\s+secrets\b|\bgh\s+auth\s+status\s+-t|\bnpm\s+token\s+(?:list|create)")
        .expect("valid")
});

pub(super) fn secret_source(text: &str) -> bool {
    sensitive::is_secret_source(text) || STORE_GLOB.is_match(text)
}
