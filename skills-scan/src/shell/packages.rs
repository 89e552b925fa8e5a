//! Package installs outside the registry: `pip` from other indexes (or
//! without checking their certificate) and from package files at a URL,
//! `npm`, `npx`, `pnpm` and `bunx` from other registries, git branches and URLs.

use super::cmd::Cmd;
use crate::ctx::{Ctx, Unit};
use crate::lex::shell::Word;
use crate::net;
use crate::rule::{Severity, id};

pub(super) fn pip_rules(ctx: &mut Ctx<'_>, unit: &Unit<'_>, cmd: &Cmd<'_>) {
    let args: Vec<&Word> = cmd.args.iter().collect();
    // A runner fetches and runs what it names (`pipx run`, `uvx --from`,
    // `uv run --with`, `uv tool install`): an install too.
    if !args
        .iter()
        .any(|a| a.text == "install" || a.text == "add" || a.text == "run")
        && !matches!(cmd.name.as_str(), "pipx" | "uvx")
    {
        return;
    }
    // A runner's own options end at its first operand: the package
    // (`uvx PKG`, `pipx run PKG`) or the command (`uv run script.py -i x`),
    // whose arguments are not the runner's.
    let runner = !args.iter().any(|a| a.text == "install" || a.text == "add");
    let runs_package = matches!(cmd.name.as_str(), "uvx" | "pipx");
    let mut prev = "";
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        let t = a.text.as_str();
        let value = matches!(
            prev,
            "--from"
                | "--with"
                | "--spec"
                | "-w"
                | "--index"
                | "-i"
                | "--index-url"
                | "--extra-index-url"
                | "--python"
                | "-p"
        );
        let operand = !t.starts_with('-') && !value && !matches!(t, "run" | "tool");
        prev = t;
        if runner && operand {
            if runs_package && let Some(url) = net::URL.find(t) {
                package_file(ctx, unit, a, url.as_str());
            }
            break;
        }
        let (flag, value) = match t.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (t, None),
        };
        if matches!(
            flag,
            "--index-url"
                | "-i"
                | "--extra-index-url"
                | "--trusted-host"
                | "--find-links"
                | "-f"
                | "--index"
        ) {
            let value = value
                .or_else(|| it.peek().map(|w| w.text.clone()))
                .unwrap_or_default();
            let host = net::host(&value).unwrap_or_else(|| value.clone());
            if flag == "--trusted-host" {
                ctx.report(
                    unit,
                    id::UntrustedPackageSource,
                    Severity::High,
                    a.span.clone(),
                    format!("installs packages from `{host}` without checking its certificate"),
                );
                continue;
            }
            if net::is_local(&host)
                || net::is_installer_host(&host, &value)
                || net::is_code_host(&host)
                || net::is_placeholder(&value)
            {
                continue;
            }
            let replaces = matches!(flag, "--index-url" | "-i" | "--index");
            let severity = if value.starts_with("http://") || net::is_bare_ip(&host) {
                Severity::High
            } else if replaces {
                Severity::Medium
            } else {
                Severity::Low
            };
            ctx.report(unit, id::UntrustedPackageSource, severity, a.span.clone(),
                format!("installs packages from the index at `{host}`, which no public registry reviews, and lets it shadow PyPI's names"));
        } else if let Some(url) = net::URL.find(t) {
            package_file(ctx, unit, a, url.as_str());
        }
    }
}

/// A package spec that is a URL (`pip install https://…/x.whl`, `uvx
/// --from https://…`): outside any registry unless the host is local, a
/// code host or the installer's own.
fn package_file(ctx: &mut Ctx<'_>, unit: &Unit<'_>, word: &Word, url: &str) {
    let host = net::host(url).unwrap_or_default();
    if net::is_local(&host)
        || net::is_code_host(&host)
        || net::is_installer_host(&host, url)
        || net::is_placeholder(url)
    {
        return;
    }
    ctx.report(
        unit,
        id::UntrustedPackageSource,
        Severity::High,
        word.span.clone(),
        format!("installs a package file from `{host}`, outside any registry"),
    );
}

pub(super) fn npm_rules(ctx: &mut Ctx<'_>, unit: &Unit<'_>, cmd: &Cmd<'_>) {
    // The package specs: after `install`/`i`/`add`, or npx's first operand
    // (the rest are the package's own arguments).
    let installs = cmd.args.iter().position(|a| {
        matches!(
            a.text.as_str(),
            "install" | "i" | "add" | "exec" | "dlx" | "x"
        )
    });
    let runner = matches!(cmd.name.as_str(), "npx" | "bunx")
        || cmd.name == "pnpm" && installs.is_some_and(|i| cmd.args[i].text != "add");
    let mut it = cmd.args.iter().enumerate().peekable();
    let mut operand_seen = false;
    while let Some((i, a)) = it.next() {
        let t = a.text.as_str();
        if t == "--registry" || t.starts_with("--registry=") {
            let value = t
                .strip_prefix("--registry=")
                .map(str::to_string)
                .or_else(|| it.peek().map(|(_, w)| w.text.clone()))
                .unwrap_or_default();
            let host = net::host(&value).unwrap_or_default();
            if !host.is_empty()
                && !host.ends_with("npmjs.org")
                && !net::is_local(&host)
                && !net::is_placeholder(&value)
            {
                ctx.report(unit, id::UntrustedPackageSource, Severity::High, a.span.clone(),
                    format!("installs from the registry at `{host}`, where public package names can be taken over"));
            }
            continue;
        }
        if t.starts_with('-') {
            continue;
        }
        let is_spec = if runner {
            !operand_seen
        } else {
            installs.is_some_and(|k| i > k)
        };
        operand_seen = true;
        if !is_spec {
            continue;
        }
        let spec = t.trim_start_matches("git+");
        if t.starts_with("github:") || t.starts_with("gitlab:") || t.starts_with("bitbucket:") {
            // The skill's own vendor's tool (`npx github:acme/cli` in an
            // `acme` skill) is a note.
            let severity = if crate::severity::own_repository(&ctx.skill.declared, t) {
                Severity::Low
            } else {
                Severity::High
            };
            ctx.report(
                unit,
                id::UntrustedPackageSource,
                severity,
                a.span.clone(),
                format!("runs `{t}`: a git branch, unversioned and unreviewed by the registry"),
            );
        } else if let Some(url) = net::URL.find(spec).map(|m| m.as_str().to_string()) {
            let host = net::host(&url).unwrap_or_default();
            if net::is_local(&host) || host.ends_with("npmjs.org") || net::is_placeholder(&url) {
                continue;
            }
            ctx.report(
                unit,
                id::UntrustedPackageSource,
                Severity::High,
                a.span.clone(),
                format!("installs a package from `{host}`, outside the registry"),
            );
        }
    }
}
