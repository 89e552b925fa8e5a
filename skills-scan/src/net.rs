//! Where a URL points: the machine itself, a collector (tunnels, request
//! bins, out-of-band callbacks), a bare IP address, or a host that ships
//! official installers and packages.
//!
//! The installer list is what real skills pipe to a shell when they set up
//! a tool (`astral.sh/uv`, `sh.rustup.rs`, a project's GitHub release): an
//! honest pattern worth a note, not an alarm. Anything else fetched and run
//! is an alarm.

use std::sync::LazyLock;

use regex::Regex;

/// URLs in a text: scheme, host and the rest.
pub(crate) static URL: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(
        r#"(?i)\b(https?|ftp|wss?)://([^\s/:"'`<>()\[\]{}|\\]+)(:\d+)?([^\s"'`<>|\\]*)"#,
    )
    .expect("the URL pattern is valid")
});

/// The host of `url` (`https://a.b/c` → `a.b`), lowercased, without the
/// dot or comma of a sentence it ends (`https://a.b.` → `a.b`).
pub(crate) fn host(url: &str) -> Option<String> {
    let caps = URL.captures(url)?;
    let host = caps.get(2)?.as_str().trim_end_matches(['.', ',', ';']);
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Whether a request header of this name (`Authorization`, `X-Api-Key`,
/// `Private-Token`) is the one a service reads a credential from: a secret
/// in it is presented to the host, not sent away (the shell's `curl -H`,
/// PowerShell's `-Headers`).
pub(crate) fn is_credential_header(name: &str) -> bool {
    let name = name.trim().to_ascii_lowercase();
    ["auth", "token", "api-key", "apikey", "api_key"]
        .iter()
        .any(|w| name.contains(w))
}

/// A loopback or private address, or a name that stays on the machine.
pub(crate) fn is_local(host: &str) -> bool {
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "0.0.0.0"
        || host.starts_with("[::1]")
        || host.starts_with("10.")
        || host.starts_with("192.168.")
        || in_block(host, 172, 16..=31)
        // Carrier-grade NAT (Tailscale's addresses) and link-local.
        || in_block(host, 100, 64..=127)
        || host.starts_with("169.254.")
        || host.ends_with(".local")
        || host.ends_with(".internal") && !host.contains("-")
}

/// Whether `host` is a dotted IPv4 address whose first octet is `first`
/// and second is in `second`.
fn in_block(host: &str, first: u8, second: std::ops::RangeInclusive<u8>) -> bool {
    let mut octets = host.split('.').map(str::parse::<u8>);
    matches!(octets.next(), Some(Ok(a)) if a == first)
        && matches!(octets.next(), Some(Ok(b)) if second.contains(&b))
}

/// A literal IPv4 address that is not local.
pub(crate) fn is_bare_ip(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
        && !is_local(host)
}

/// Tunnels, request bins and out-of-band callback services: where data goes
/// to be picked up, not where software is served.
pub(crate) fn is_collector(host: &str) -> bool {
    const COLLECTORS: &[&str] = &[
        "ngrok.io",
        "ngrok-free.app",
        "ngrok-free.dev",
        "ngrok.app",
        "ngrok.dev",
        "trycloudflare.com",
        "serveo.net",
        "localtunnel.me",
        "loca.lt",
        "localhost.run",
        "lhr.life",
        "pagekite.me",
        "webhook.site",
        "requestbin.com",
        "requestbin.net",
        "pipedream.net",
        "m.pipedream.net",
        "hookbin.com",
        "beeceptor.com",
        "requestcatcher.com",
        "interact.sh",
        "interactsh.com",
        "oast.fun",
        "oast.live",
        "oast.me",
        "oast.online",
        "oast.pro",
        "oast.site",
        "burpcollaborator.net",
        "oastify.com",
        "canarytokens.com",
        "dnslog.cn",
        "ceye.io",
        "transfer.sh",
        "file.io",
        "0x0.st",
        "paste.ee",
        "pastebin.com",
        "hastebin.com",
        "termbin.com",
        "discord.com/api/webhooks",
        "api.telegram.org",
    ];
    COLLECTORS
        .iter()
        .any(|c| host == *c || host.ends_with(&format!(".{c}")))
}

/// Collectors that are also messaging APIs (a bot posting to its chat):
/// where honest code sends too, so quoting them in documentation is no
/// alarm.
pub(crate) fn is_messaging_api(host: &str) -> bool {
    host == "api.telegram.org" || host == "discord.com" || host.ends_with(".discord.com")
}

/// Whether `url` is written for the reader to fill in: its host or path
/// holds a placeholder (`YOUR_USERNAME`, `your-uuid`, `<user>`, `{org}`,
/// `${HOST}`, `abc123`, `xxxx`, `username/repo`). A guide shows where
/// things go; a live address names one place. (`example.com` is still a
/// host: attackers and samples use it alike.)
pub(crate) fn is_placeholder(url: &str) -> bool {
    static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
        crate::text::regex(
            r"(?i)(?:^|[/.:@_-])(?:your[-_]?[a-z]*|my[-_]?(?:user(?:name)?|org|repo|app|bucket)|username|org(?:anization)?[-_]?name|<[^>]{1,40}>|\{[^}]{1,40}\}|x{3,}|abc[-_]?123(?:[-_]?def)?|[0-9a-z]*-?uuid|placeholder)(?:$|[/.:@_?#-])",
        )
        .expect("the placeholder pattern is valid")
    });
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    url.contains("${") || url.contains("$HOST") || url.contains("...") || PLACEHOLDER.is_match(rest)
}

/// Hosts that serve official installers and packages, piped to shells by
/// honest skills every day.
pub(crate) fn is_installer_host(host: &str, url: &str) -> bool {
    const HOSTS: &[&str] = &[
        "astral.sh",
        "sh.rustup.rs",
        "rustup.rs",
        "static.rust-lang.org",
        "bun.sh",
        "deno.land",
        "get.docker.com",
        "docker.com",
        "brew.sh",
        "install.python-poetry.org",
        "get.pnpm.io",
        "deb.nodesource.com",
        "rpm.nodesource.com",
        "get.sdkman.io",
        "fluxcd.io",
        "run.linkerd.io",
        "get.helm.sh",
        "get.k3s.io",
        "ollama.com",
        "tailscale.com",
        "starship.rs",
        "install.determinate.systems",
        "nixos.org",
        "foundry.paradigm.xyz",
        "opencode.ai",
        "claude.ai",
        "cli.github.com",
        "dot.net",
        "get.pulumi.com",
        "sdk.cloud.google.com",
        "awscli.amazonaws.com",
        "install.julialang.org",
        "mise.run",
        "pixi.sh",
        "get.volta.sh",
        "fnm.vercel.app",
        "vercel.com",
        "fly.io",
        "supabase.com",
        "pyenv.run",
        "setup.rye.astral.sh",
        "get.jenkins.io",
        "apt.releases.hashicorp.com",
        "releases.hashicorp.com",
        "dl.k8s.io",
        "get.haskellstack.org",
        "get-ghcup.haskell.org",
        "raw.githubusercontent.com/homebrew/",
        "raw.githubusercontent.com/nvm-sh/",
        "raw.githubusercontent.com/helm/",
        "raw.githubusercontent.com/rust-lang/",
        "raw.githubusercontent.com/python-poetry/",
        "raw.githubusercontent.com/pyenv/",
        "antigravity.google",
        "download.pytorch.org",
        "pypi.nvidia.com",
        "pypi.ngc.nvidia.com",
        "data.pyg.org",
        "storage.googleapis.com/tensorflow",
        "dl.cloudsmith.io",
        "packagecloud.io",
        "packages.microsoft.com",
        "download.docker.com",
        "apt.llvm.org",
        "nodejs.org",
        "go.dev",
    ];
    let lower = url.to_ascii_lowercase();
    let path_after_host = lower.split_once(host).map_or("", |(_, rest)| rest);
    if (host == "github.com" || host == "gitlab.com") && path_after_host.contains("/releases/") {
        return true;
    }
    HOSTS.iter().any(|h| match h.split_once('/') {
        Some((hh, prefix)) => host == hh && path_after_host.starts_with(&format!("/{prefix}")),
        None => host == *h || host.ends_with(&format!(".{h}")),
    })
}

/// Hosts that serve source and packages by name (not a random server).
pub(crate) fn is_code_host(host: &str) -> bool {
    const HOSTS: &[&str] = &[
        "github.com",
        "gitlab.com",
        "bitbucket.org",
        "codeberg.org",
        "pypi.org",
        "files.pythonhosted.org",
        "registry.npmjs.org",
        "npmjs.com",
        "crates.io",
        "huggingface.co",
    ];
    HOSTS
        .iter()
        .any(|h| host == *h || host.ends_with(&format!(".{h}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_hosts() {
        assert_eq!(
            host("curl https://A.b.example/x?y").as_deref(),
            Some("a.b.example")
        );
        assert_eq!(host("see https://a.example.").as_deref(), Some("a.example"));
        assert!(is_local("localhost") && is_local("127.0.0.1"));
        assert!(
            is_local("172.25.236.1") && is_local("100.109.134.50") && is_local("169.254.169.254")
        );
        assert!(!is_local("172.32.0.1") && !is_local("100.128.0.1") && is_bare_ip("172.32.0.1"));
        assert!(is_placeholder(
            "https://github.com/YOUR_USERNAME/my-weather-server.git"
        ));
        assert!(is_placeholder("https://github.com/username/repo.git"));
        assert!(is_placeholder("https://abc123.ngrok.io/webhooks"));
        assert!(is_placeholder("https://webhook.site/your-uuid"));
        assert!(is_placeholder("https://webhook.site/abc-123-def"));
        assert!(is_placeholder("https://<your-subdomain>.ngrok.app"));
        assert!(!is_placeholder(
            "https://webhook.site/7f3c2e9a-1b4d-4c8e-9f21-0a6b5d3e8c17"
        ));
        assert!(!is_placeholder("https://x7k2q9.ngrok-free.app/in"));
        assert!(!is_placeholder("https://api.github.com/user"));
        assert!(is_bare_ip("203.0.113.7") && !is_bare_ip("127.0.0.1") && !is_bare_ip("1.2.3"));
        assert!(is_collector("a1b2c3.ngrok-free.dev") && is_collector("webhook.site"));
        assert!(!is_collector("github.com"));
        assert!(is_installer_host(
            "astral.sh",
            "https://astral.sh/uv/install.sh"
        ));
        assert!(is_installer_host(
            "github.com",
            "https://github.com/j178/prek/releases/latest/download/x.sh"
        ));
        assert!(!is_installer_host(
            "github.com",
            "https://github.com/evil/x/raw/main/a.sh"
        ));
        assert!(is_installer_host(
            "raw.githubusercontent.com",
            "https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh"
        ));
        assert!(!is_installer_host(
            "raw.githubusercontent.com",
            "https://raw.githubusercontent.com/evil/x/main/a.sh"
        ));
        assert!(!is_installer_host(
            "devtools-cdn.dev",
            "https://devtools-cdn.dev/bootstrap/latest.sh"
        ));
    }
}
