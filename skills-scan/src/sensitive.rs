//! What counts as a secret source: stores of credentials on the disk, the
//! environment as a whole, keychains, browser profiles and wallets, agent
//! transcripts. Shared by the shell, Python and JavaScript analyzers.

use std::sync::LazyLock;

use regex::Regex;

/// Paths of credential stores, as written in code (`~/.aws/credentials`,
/// `$HOME/.ssh/id_ed25519`, `os.path.expanduser('~/.kube/config')`).
static STORE: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(concat!(
        r"(?i)(?:\.aws/credentials|\.ssh/id_[a-z0-9_]+|\.ssh/\*|\.ssh/?\s*$|\.kube/config|\.npmrc|\.pypirc|\.netrc|",
        r"\.git-credentials|\.google_authenticator\b|\.kaggle/kaggle\.json|huggingface/token\b|\.docker/config\.json|\.pgpass\b|\.my\.cnf\b|\.s3cfg\b|\.boto\b|\.vault-token\b|",
        r"\.cargo/credentials|\.gem/credentials|\.pub-cache/credentials\.json|dart/pub-credentials\.json|\.nuget/nuget/nuget\.config|\.m2/settings\.xml|\.gradle/gradle\.properties|\.hex/hex\.config|\.config/rclone/rclone\.conf|\.composer/auth\.json|\.config/hub\b|\.config/gh/hosts\.ya?ml|\.config/gcloud|",
        r"application_default_credentials\.json|\.azure/|\.vpnauth|\.terraformrc|credentials\.tfrc|",
        r"\.config/solana/id\.json|\.ethereum/keystore|wallet\.dat|\.bitcoin/|exodus\.wallet|[/\\]exodus[/\\]|[/\\]metamask[/\\]|",
        r"nkbihfbeogaeaoehlefnkodbefgpgknn|login\s+data|web\s+data|/cookies(?:\.sqlite)?\b|key[34]\.db|logins\.json|",
        r"local\s+state|keychains?/|login\.keychain|/etc/shadow|\.bash_history|\.zsh_history|",
        r"claude_transcript_path|\.claude/projects/|\.codex/sessions|\.codex/auth\.json|\.claude/\.credentials|",
        r"(?:^|[\s/'\x22=@(])\.env(?:\.[a-z]+)?(?:$|[\s'\x22);|>&])|\bid_rsa\b|\bid_ed25519\b|\.pem\b|\.p12\b|\.pfx\b|\.keystore\b)",
    ))
    .expect("the credential store pattern is valid")
});

/// Whether `store` (as [`store_in`] names it) holds an agent's own
/// transcripts (`~/.claude/projects/`, `~/.codex/sessions`): what tools
/// that manage sessions read and move. They hold what was said, secrets
/// among it, so sending them is still a leak; reading them is a note.
pub(crate) fn is_transcript(store: &str) -> bool {
    let s = store.to_ascii_lowercase();
    [
        ".claude/projects",
        ".codex/sessions",
        "claude_transcript_path",
    ]
    .iter()
    .any(|t| s.contains(t))
}

/// Whether `text` names a credential store.
pub(crate) fn names_store(text: &str) -> bool {
    store_in(text).is_some()
}

/// The credential store `text` names, for messages.
pub(crate) fn store_in(text: &str) -> Option<&str> {
    STORE
        .find_iter(text)
        .find(|m| {
            let tail = &text[m.end()..];
            let word_end = tail
                .find(|c: char| c.is_whitespace() || "'\"`)".contains(c))
                .unwrap_or(tail.len());
            // The word the match ends (`fullchain` of `fullchain.pem`), at
            // most 64 bytes of it.
            let head = crate::text::window_before(text, m.start(), 64);
            let lead = head
                .char_indices()
                .rev()
                .find(|(_, c)| c.is_whitespace() || "'\"`(=".contains(*c))
                .and_then(|(i, c)| head.get(i + c.len_utf8()..))
                .unwrap_or(head);
            let whole = format!("{lead}{}{}", m.as_str(), &tail[..word_end]).to_ascii_lowercase();
            // A glob alone on its line (`*.pem` in a `.gitignore`) names a
            // kind of file; in a command (`find ~ -name '*.pem'`) it
            // collects them.
            let line_before = head.get(..head.len() - lead.len()).unwrap_or("");
            let line_after = tail.get(word_end..).unwrap_or("");
            let alone = line_before
                .rsplit('\n')
                .next()
                .is_some_and(|b| b.trim().is_empty())
                && line_after
                    .split('\n')
                    .next()
                    .is_some_and(|a| a.trim().is_empty());
            let glob = whole.starts_with('*') && alone;
            // A dotfile is a name of its own (`~/.ssh`, `.npmrc`), not the
            // tail of another (`runtime.ssh`, a key of a settings file);
            // extensions (`key.pem`) follow a name by design.
            let extension = [".pem", ".p12", ".pfx", ".keystore"]
                .iter()
                .any(|e| m.as_str().to_ascii_lowercase().starts_with(e));
            let tail_of_name = m.as_str().starts_with('.')
                && !extension
                && text[..m.start()]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_');
            if tail_of_name {
                return false;
            }
            let named = [
                "example",
                "sample",
                "template",
                ".dist",
                ".tpl",
                "public",
                ".crt",
                "cert.pem",
                "fullchain",
                "chain.pem",
                "ca.pem",
                "cacert",
            ]
            .iter()
            .any(|w| whole.contains(w))
                // A public key (`id_ed25519.pub`), not `.pub-cache`.
                || whole.ends_with(".pub");
            // A document kept in a store's folder (`.azure/plan.md`) holds
            // no credential, and `{{ .Env.VAR }}` is a template's field.
            let document = [".md", ".txt", ".log", ".html"]
                .iter()
                .any(|e| whole.ends_with(e));
            let template = head.trim_end().ends_with("{{");
            !glob && !named && !document && !template
        })
        .map(|m| {
            m.as_str()
                .trim_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != '/' && c != '_')
        })
}

/// Whether the string literal `value` names a credential file of the
/// user's project, not of their account: a relative path (`key.pem`,
/// `./certs/client.p12`, `.npmrc`, `.env`) to a kind of file projects keep
/// (TLS keys, keystores, the project's registry and environment settings),
/// and `home` (the code just before it) does not put it under the home
/// directory (`Path.home() / ".npmrc"`, `os.homedir()`). A tool reading
/// those works on the project; `~/.npmrc`, `~/.ssh` and the like are the
/// user's accounts.
pub(crate) fn in_project(value: &str, home: &str) -> bool {
    const PROJECT: &[&str] = &[
        ".pem",
        ".p12",
        ".pfx",
        ".keystore",
        ".jks",
        ".npmrc",
        ".env",
        ".crt",
        ".key",
    ];
    let v = value.trim().to_ascii_lowercase();
    let name = v.rsplit(['/', '\\']).next().unwrap_or("");
    let kind = PROJECT
        .iter()
        .any(|k| name.ends_with(k) || name.starts_with(".env") && *k == ".env");
    let absolute = v.starts_with(['/', '~', '$', '%', '\\'])
        || v.get(1..3) == Some(":\\")
        || [
            ".ssh/", ".aws/", ".config/", ".kube/", ".gnupg/", ".docker/",
        ]
        .iter()
        .any(|d| v.contains(d));
    let h = home.to_ascii_lowercase();
    kind && !absolute
        && !["home", "expanduser", "userprofile", "appdata"]
            .iter()
            .any(|w| h.contains(w))
}

/// Whether the string literal `value` names a keychain file of the skill's
/// own (`~/Library/Keychains/claude-keys.keychain-db`): a tool keeping its
/// own key apart from the user's, in a keychain it created and names. The
/// user's keychains (`login`, `System`, the folder as a whole) are theirs.
pub(crate) fn own_keychain(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    let Some((_, name)) = v.split_once("keychains/") else {
        return false;
    };
    let stem = name
        .strip_suffix(".keychain-db")
        .or_else(|| name.strip_suffix(".keychain"));
    stem.is_some_and(|s| {
        !s.is_empty()
            && !s.contains(['/', '*', '?'])
            && !matches!(s, "login" | "system" | "metadata" | "login_renamed")
    })
}

/// Shell commands that print secrets: the environment, keychains, tokens.
static SECRET_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(concat!(
        r"(?:^|[\s;&|(`])(?:env|printenv|export\s+-p|set)\s*(?:$|[|;)&>`])|",
        r"security\s+(?:dump-keychain|find-generic-password|find-internet-password)|",
        r"gh\s+auth\s+token|aws\s+configure\s+(?:get\s+\S*(?:key|token|secret|session)|export-credentials)|gcloud\s+auth\s+print-access-token|",
        r"git\s+config\s+(?:--get\s+)?credential|git\s+credential\s+fill|kubectl\s+config\s+view\s+--raw|",
        r"\bcompgen\s+-v|\bdeclare\s+-x|",
        // Commands whose output is a new key, a session token or every
        // secret of a cluster.
        r"aws\s+iam\s+create-access-key|aws\s+sts\s+get-session-token|",
        r"kubectl\s+get\s+secrets?\b[^|;&\n]*-o\s*(?:json|yaml)",
    ))
    .expect("the secret command pattern is valid")
});

/// Whether `text` (a command line or substitution) prints secrets or reads
/// a credential store.
pub(crate) fn is_secret_source(text: &str) -> bool {
    SECRET_COMMAND.is_match(text) || names_store(text)
}

/// Whether `text` holds a token a vendor's CLI prints for signing in to
/// that vendor, and `host` is that vendor's (`gh auth token` for
/// `api.github.com` or `raw.githubusercontent.com`).
pub(crate) fn token_issued_by(text: &str, host: &str) -> bool {
    const ISSUERS: &[(&str, &[&str])] = &[
        (
            "gh auth token",
            &["github.com", "githubusercontent.com", "ghcr.io"],
        ),
        (
            "gcloud auth print-access-token",
            &["googleapis.com", "google.com"],
        ),
    ];
    let host = host.to_ascii_lowercase();
    ISSUERS.iter().any(|(command, hosts)| {
        text.contains(command)
            && hosts
                .iter()
                .any(|h| host == *h || host.ends_with(&format!(".{h}")))
    })
}

/// Whether `text` dumps the whole environment (not one variable).
pub(crate) fn dumps_environment(text: &str) -> bool {
    static ENV: LazyLock<Regex> = LazyLock::new(|| {
        crate::text::regex(r"(?:^|[\s;&|(`])(?:env|printenv|export\s+-p)\s*(?:$|[|;)&>`])")
            .expect("the environment pattern is valid")
    });
    ENV.is_match(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_in_a_stores_folder_and_template_fields_are_no_stores() {
        for text in [
            "Read `.azure/deployment-plan.md` to find the services",
            "replace {{ .Env.VAR }} with $VAR",
        ] {
            assert_eq!(store_in(text), None, "{text}");
        }
        for text in [
            "cat ~/.azure/accessTokens.json",
            "cp .env /tmp/x",
            "cat ~/.aws/credentials",
        ] {
            assert!(store_in(text).is_some(), "{text}");
        }
    }

    #[test]
    fn project_files_and_account_files() {
        for (v, home) in [
            ("key.pem", "open("),
            ("./certs/client.p12", "load("),
            (".npmrc", "read_text(Path("),
            ("config/.env.local", ""),
        ] {
            assert!(in_project(v, home), "{v}");
        }
        for (v, home) in [
            ("~/.npmrc", ""),
            (".npmrc", "Path.home() / "),
            (".npmrc", "os.path.join(os.path.expanduser('~'), "),
            ("/etc/ssl/private/key.pem", ""),
            (".ssh/id_rsa", ""),
            ("$HOME/.env", ""),
            ("C:\\Users\\me\\.npmrc", ""),
            (".aws/credentials", ""),
        ] {
            assert!(!in_project(v, home), "{v}");
        }
    }

    #[test]
    fn wallets_are_named_by_their_folders_not_by_their_words() {
        // A wallet whose name is a word (a book, a brand) is a store only as
        // a folder or a file of its own.
        for text in [
            "\"Exodus.15.5\"",
            "Exodus 14:21",
            "metamask docs",
            "the MetaMask extension",
        ] {
            assert_eq!(store_in(text), None, "{text}");
        }
        for text in [
            "~/.config/Exodus/exodus.wallet",
            "%APPDATA%\\Exodus\\exodus.wallet",
            "Local Extension Settings/metamask/",
        ] {
            assert!(store_in(text).is_some(), "{text}");
        }
    }

    #[test]
    fn stores_and_commands() {
        for t in [
            "cat ~/.aws/credentials",
            "open(os.path.expanduser('~/.ssh/id_rsa'))",
            "cat .env 2>/dev/null",
            "find ~ -name '*.pem' -exec cat {} +",
            "~/.config/google-chrome/Default/Login Data",
            "cat \"$CLAUDE_TRANSCRIPT_PATH\"",
        ] {
            assert!(is_secret_source(t), "{t}");
        }
        for t in [
            "env | base64",
            "security dump-keychain -d",
            "(env; cat x)",
            "aws iam create-access-key --user-name admin",
            "cat ~/.pgpass",
            "aws configure get aws_secret_access_key",
            "aws configure export-credentials",
        ] {
            assert!(is_secret_source(t), "{t}");
        }
        for t in [
            "cat ~/.aws/config",
            "cat .env.example",
            "environment",
            "grep -o x ~/.ssh/config",
            "gh ssh-key add ~/.ssh/id_ed25519.pub",
            "cp fullchain.pem /etc/nginx/",
            "runtime.ssh",
            "x\u{3000}fullchain.pem",
            "# keys\n*.pem\n.env*.local\n",
            "source .venv/bin/activate",
            "REGION=$(aws configure get region)",
        ] {
            assert!(!is_secret_source(t), "{t}");
        }
    }

    #[test]
    fn a_keychain_of_the_skills_own_is_not_the_users() {
        for v in [
            "~/Library/Keychains/claude-keys.keychain-db",
            "/Users/me/Library/Keychains/acme.keychain",
        ] {
            assert!(own_keychain(v), "{v}");
        }
        for v in [
            "~/Library/Keychains/login.keychain-db",
            "~/Library/Keychains/",
            "~/Library/Keychains/*.keychain-db",
            "/Library/Keychains/System.keychain",
            "~/.ssh/id_rsa",
        ] {
            assert!(!own_keychain(v), "{v}");
        }
    }
}
