//! `.netrc`, as curl, git (through curl) and Python read it: `machine`
//! entries with `login` and `password`, one `default` entry for any other
//! host, `account` read and ignored, `macdef` bodies skipped (up to the
//! next blank line), `#` comments, and double-quoted words with `\"`, `\\`,
//! `\n`, `\r` and `\t` escapes (curl's, so a password may hold a space).
//!
//! A machine name is a host without a port, compared without regard to
//! case and one trailing dot: it matches that host on any port, as in curl.
//! An entry without a password is no credential. Errors name the line and
//! never quote a word (it may be part of a password).

use super::secret::Secret;

/// One entry: `machine <host>` or `default`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Machine {
    /// The host; `None` for `default`.
    pub(crate) host: Option<String>,
    pub(crate) login: String,
    pub(crate) password: Secret,
}

/// The entries of a `.netrc`, in order, those without a password left out.
pub(crate) fn parse(text: &str) -> Result<Vec<Machine>, String> {
    let mut words = Words {
        text,
        at: 0,
        line: 1,
    };
    let mut machines = Vec::new();
    let mut current: Option<(Option<String>, Option<String>, Option<Secret>)> = None;
    let mut finish = |current: &mut Option<(Option<String>, Option<String>, Option<Secret>)>| {
        if let Some((host, login, Some(password))) = current.take() {
            machines.push(Machine {
                host,
                login: login.unwrap_or_default(),
                password,
            });
        }
    };
    while let Some((word, line)) = words.next()? {
        let value = |words: &mut Words<'_>, what: &str| {
            words
                .next()?
                .map(|(v, _)| v)
                .ok_or_else(|| format!("line {line}: `{what}` without a value"))
        };
        match word.as_str() {
            "machine" => {
                finish(&mut current);
                let host = value(&mut words, "machine")?;
                current = Some((Some(normal_host(&host)), None, None));
            }
            "default" => {
                finish(&mut current);
                current = Some((None, None, None));
            }
            "login" | "password" | "account" => {
                let v = value(&mut words, &word)?;
                let Some(entry) = current.as_mut() else {
                    return Err(format!(
                        "line {line}: `{word}` before any `machine` or `default`"
                    ));
                };
                match word.as_str() {
                    "login" => entry.1 = Some(v),
                    "password" => entry.2 = Some(Secret::new(v)),
                    _ => {}
                }
            }
            "macdef" => {
                value(&mut words, "macdef")?;
                words.skip_macro();
            }
            _ => {
                return Err(format!("line {line}: a word that is not a netrc keyword"));
            }
        }
    }
    finish(&mut current);
    Ok(machines)
}

/// The entry for `host`: the first `machine` naming it, else `default`.
pub(crate) fn lookup<'a>(machines: &'a [Machine], host: &str) -> Option<&'a Machine> {
    let host = normal_host(host);
    machines
        .iter()
        .find(|m| m.host.as_deref() == Some(host.as_str()))
        .or_else(|| machines.iter().find(|m| m.host.is_none()))
}

/// A host as compared: lowercase, one trailing dot dropped.
fn normal_host(host: &str) -> String {
    let lower = host.to_ascii_lowercase();
    lower.strip_suffix('.').map_or(lower.clone(), str::to_owned)
}

/// The words of a `.netrc`, with the line each starts on.
struct Words<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

impl Words<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.at..).unwrap_or_default()
    }

    fn bump(&mut self, c: char) {
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
    }

    /// The next word, quoted or not; comments skipped.
    fn next(&mut self) -> Result<Option<(String, usize)>, String> {
        loop {
            let Some(c) = self.rest().chars().next() else {
                return Ok(None);
            };
            if c.is_whitespace() {
                self.bump(c);
            } else if c == '#' {
                while let Some(c) = self.rest().chars().next().filter(|&c| c != '\n') {
                    self.bump(c);
                }
            } else {
                break;
            }
        }
        let line = self.line;
        let mut word = String::new();
        if self.rest().starts_with('"') {
            self.bump('"');
            loop {
                let Some(c) = self.rest().chars().next() else {
                    return Err(format!("line {line}: a quoted word is not closed"));
                };
                self.bump(c);
                match c {
                    '"' => break,
                    '\\' => {
                        let Some(e) = self.rest().chars().next() else {
                            return Err(format!("line {line}: a quoted word is not closed"));
                        };
                        self.bump(e);
                        word.push(match e {
                            'n' => '\n',
                            'r' => '\r',
                            't' => '\t',
                            other => other,
                        });
                    }
                    c => word.push(c),
                }
            }
        } else {
            while let Some(c) = self.rest().chars().next().filter(|c| !c.is_whitespace()) {
                word.push(c);
                self.bump(c);
            }
        }
        Ok(Some((word, line)))
    }

    /// Skips a macro's body: the rest of the `macdef` line, then every line
    /// up to and including the first blank one.
    fn skip_macro(&mut self) {
        let mut first = true;
        loop {
            let rest = self.rest();
            if rest.is_empty() {
                return;
            }
            let end = rest.find('\n').map_or(rest.len(), |i| i + 1);
            let blank = rest[..end].trim().is_empty();
            for c in rest[..end].to_owned().chars() {
                self.bump(c);
            }
            if blank && !first {
                return;
            }
            first = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(host: Option<&str>, login: &str, password: &str) -> Machine {
        Machine {
            host: host.map(str::to_owned),
            login: login.to_owned(),
            password: Secret::new(password),
        }
    }

    #[test]
    fn machines_and_default() {
        let text = "machine a.example login u password p\n\
                    # a comment with password x\n\
                    machine B.Example. login v password q account acct\n\
                    default login anon password guest\n";
        let got = parse(text).unwrap();
        assert_eq!(
            got,
            vec![
                entry(Some("a.example"), "u", "p"),
                entry(Some("b.example"), "v", "q"),
                entry(None, "anon", "guest"),
            ]
        );
        assert_eq!(
            lookup(&got, "b.example").map(|m| m.login.as_str()),
            Some("v")
        );
        assert_eq!(
            lookup(&got, "A.EXAMPLE.").map(|m| m.login.as_str()),
            Some("u")
        );
        assert_eq!(
            lookup(&got, "c.example").map(|m| m.login.as_str()),
            Some("anon")
        );
        let no_default = parse("machine a login u password p").unwrap();
        assert_eq!(lookup(&no_default, "c.example"), None);
    }

    #[test]
    fn macros_are_skipped_up_to_a_blank_line() {
        let text = "macdef init\ncd /pub\nmachine evil login x password y\n\n\
                    machine a login u password p\n";
        assert_eq!(parse(text).unwrap(), vec![entry(Some("a"), "u", "p")]);
        // A macro that runs to the end of the file takes everything.
        assert_eq!(
            parse("macdef m\nmachine a login u password p").unwrap(),
            vec![]
        );
    }

    #[test]
    fn quoted_words_hold_spaces_and_escapes() {
        let text = r#"machine a login "my user" password "p a\"s\\s\tw""#;
        let got = parse(text).unwrap();
        assert_eq!(got, vec![entry(Some("a"), "my user", "p a\"s\\s\tw")]);
        let e = parse("machine a password \"open").unwrap_err();
        assert!(e.contains("line 1") && e.contains("not closed"), "{e}");
    }

    #[test]
    fn entries_without_a_password_are_no_credentials() {
        let got = parse("machine a login u\nmachine b password p\n").unwrap();
        assert_eq!(got, vec![entry(Some("b"), "", "p")]);
    }

    #[test]
    fn errors_name_the_line_and_never_a_word() {
        let e = parse("machine a login u password two words\n").unwrap_err();
        assert!(e.contains("line 1") && !e.contains("words"), "{e}");
        let e = parse("\n\nlogin u").unwrap_err();
        assert!(e.contains("line 3"), "{e}");
        let e = parse("machine").unwrap_err();
        assert!(e.contains("`machine` without a value"), "{e}");
    }
}
