//! Lines, in any file, that hand a machine, a cluster or every package
//! install to someone else, written the same whether a script runs them, a
//! code block shows them or a `printf` writes them into a file:
//!
//! - a cluster's `cluster-admin` bound to a namespace's `default` service
//!   account (every pod in it) or to anonymous or all users;
//! - a Windows account hidden from the sign-in screen
//!   (`SpecialAccounts\UserList`);
//! - a package index or registry at a bare address or a collection service
//!   written as a setting (`index-url = http://192.0.2.1/simple`).
//!
//! In documentation a line is a note; elsewhere it is what the skill does.
//! One pass over lines.

use crate::ctx::{Ctx, Unit};
use crate::rule::{Severity, id};

/// The longest line read.
const MAX_LINE: usize = 4096;

/// Reports the lines of `unit` that grant access as the module says.
pub(crate) fn scan(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    let severity = if crate::severity::is_documentation(ctx.path()) {
        Severity::Low
    } else {
        Severity::High
    };
    let mut at = 0;
    for line in unit.text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        if line.len() > MAX_LINE {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        let range = start..start + line.trim_end().len();
        if cluster_admin_to_anyone(&lower) {
            ctx.report(
                unit,
                id::SudoAbuse,
                severity,
                range,
                "binds `cluster-admin` to a default service account or to anonymous or all users: every pod (or anyone) then owns the cluster".into(),
            );
        } else if lower.contains(r"specialaccounts\userlist")
            || lower.contains(r"specialaccounts\\userlist")
        {
            ctx.report(
                unit,
                id::SudoAbuse,
                severity,
                range,
                "hides a Windows account from the sign-in screen: an account nobody is meant to notice".into(),
            );
        } else if let Some(host) = index_elsewhere(&lower) {
            ctx.report(
                unit,
                id::UntrustedPackageSource,
                severity,
                range,
                format!("sets a package index or registry at `{host}`, a bare address or a collection service: every later install comes from it"),
            );
        }
    }
}

/// `kubectl create clusterrolebinding … --clusterrole=cluster-admin` for
/// a `default` service account, anonymous, unauthenticated or all users.
fn cluster_admin_to_anyone(lower: &str) -> bool {
    lower.contains("clusterrolebinding")
        && lower.contains("cluster-admin")
        && lower.split_whitespace().any(|w| {
            let w = w.trim_matches(['"', '\'']);
            let sa = w
                .strip_prefix("--serviceaccount=")
                .is_some_and(|v| v.ends_with(":default") || v.starts_with("kube-system:"));
            let anyone = [
                "system:anonymous",
                "system:unauthenticated",
                "system:authenticated",
                "system:serviceaccounts",
            ]
            .iter()
            .any(|g| w == format!("--user={g}") || w == format!("--group={g}"));
            sa || anyone
        })
}

/// The host of a package index or registry setting in `lower` that is a
/// bare public address or a collection service.
fn index_elsewhere(lower: &str) -> Option<String> {
    if !["index-url", "index_url", "registry", "extra-index"]
        .iter()
        .any(|k| lower.contains(k))
    {
        return None;
    }
    crate::net::URL.find_iter(lower).find_map(|m| {
        let host = crate::net::host(m.as_str())?;
        (!crate::net::is_local(&host)
            && (crate::net::is_bare_ip(&host) || crate::net::is_collector(&host)))
        .then_some(host)
    })
}

#[cfg(test)]
mod tests {
    use super::{cluster_admin_to_anyone, index_elsewhere};

    #[test]
    fn cluster_admin_for_everyone() {
        assert!(cluster_admin_to_anyone(
            "kubectl create clusterrolebinding x --clusterrole=cluster-admin --serviceaccount=default:default"
        ));
        assert!(cluster_admin_to_anyone(
            "kubectl create clusterrolebinding x --clusterrole=cluster-admin --group=system:unauthenticated"
        ));
        assert!(!cluster_admin_to_anyone(
            "kubectl create clusterrolebinding me --clusterrole=cluster-admin --user=$(gcloud config get-value account)"
        ));
        assert!(!cluster_admin_to_anyone(
            "kubectl create clusterrolebinding ci --clusterrole=view --serviceaccount=ci:default"
        ));
    }

    #[test]
    fn package_indexes_elsewhere() {
        assert_eq!(
            index_elsewhere("printf '[global]\\nindex-url = http://192.0.2.133/pypi/simple\\n' > ~/.config/pip/pip.conf").as_deref(),
            Some("192.0.2.133")
        );
        assert!(index_elsewhere("npm config set registry https://registry.npmjs.org/").is_none());
        assert!(
            index_elsewhere("pip install -i http://mirrors.aliyun.com/pypi/simple x").is_none()
        );
        assert!(index_elsewhere("curl http://192.0.2.1/x").is_none());
    }
}
