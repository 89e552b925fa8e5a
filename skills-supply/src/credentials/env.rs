//! `SKB_AUTH`: credentials in one environment variable, each naming its
//! host, as Deno's `DENO_AUTH_TOKENS` does:
//!
//! ```text
//! SKB_AUTH='TOKEN@skills.example.com;ci:PASSWORD@pkgs.example.com:8443'
//! ```
//!
//! Entries are separated by `;`. An entry is `<credential>@<origin>`, split
//! at its last `@` (a host holds none); the origin is `[scheme://]host[:port]`
//! (see [`Origin`]). A credential with a `:` is `user:password` (Basic),
//! split at its first `:`; one without is a bearer token. Neither can hold
//! a `;`: such a secret belongs in the credentials file or `.netrc`.
//! Errors name the entry by its position, never by its text.

use super::auth::Auth;
use super::origin::Origin;
use super::secret::Secret;

/// The variable's name.
pub const ENV_AUTH: &str = "SKB_AUTH";

/// The entries of `SKB_AUTH`'s value, in order.
pub(crate) fn parse(value: &str) -> Result<Vec<(Origin, Auth)>, String> {
    let mut entries = Vec::new();
    for (n, entry) in value.split(';').enumerate() {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let bad = |why: &str| format!("`{ENV_AUTH}`: entry {}: {why}", n + 1);
        let (credential, host) = entry
            .rsplit_once('@')
            .ok_or_else(|| bad("no `@<host>` after the credential"))?;
        let origin = Origin::parse(host)
            .ok_or_else(|| bad("what follows the last `@` is not `[https://]host[:port]`"))?;
        let auth = match credential.split_once(':') {
            Some((username, password)) => Auth::Basic {
                username: username.to_owned(),
                password: Secret::new(password),
            },
            None => Auth::Bearer(Secret::new(credential)),
        };
        if auth.is_empty() {
            return Err(bad("the credential is empty"));
        }
        entries.push((origin, auth));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_passwords_each_for_their_origin() {
        let got = parse(" t0k@n@a.example ; u:p:w@B.example:8443;; http://127.0.0.1:9 ").err();
        assert!(got.is_some_and(|e| e.contains("entry 4") && !e.contains("127")));
        let got = parse("t0k@n@a.example;u:p:w@B.example:8443").unwrap();
        assert_eq!(
            got,
            vec![
                (
                    Origin::parse("a.example").unwrap(),
                    Auth::Bearer(Secret::new("t0k@n"))
                ),
                (
                    Origin::parse("https://b.example:8443").unwrap(),
                    Auth::Basic {
                        username: "u".into(),
                        password: Secret::new("p:w")
                    }
                ),
            ]
        );
    }

    #[test]
    fn errors_never_quote_the_secret() {
        for (value, why) in [
            ("s3cret", "no `@<host>`"),
            ("s3cret@host/path", "not `[https://]host[:port]`"),
            ("@host", "empty"),
        ] {
            let e = parse(value).unwrap_err();
            assert!(e.contains(why) && e.contains("entry 1"), "{e}");
            assert!(!e.contains("s3cret"), "{e}");
        }
    }
}
