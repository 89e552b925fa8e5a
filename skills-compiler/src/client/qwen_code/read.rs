//! How Qwen Code reads one `SKILL.md`: the split, the fields and their
//! checks ([`load`]), and the [`Reading`] with its notes. The module above
//! says what Qwen Code does.

use std::borrow::Cow;
use std::path::Path;

use skills_core::client::Client;
use skills_core::fsread;

use super::yaml::{JsValue, frontmatter};
use crate::client::reading::{Listed, Outcome, Reading};
use crate::diag::Code;

/// The largest `SKILL.md` this tool reads (Qwen Code showed no limit).
pub const READ_LIMIT: u64 = 16 << 20;

/// What Qwen Code keeps of a `SKILL.md` it loads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The name.
    pub name: String,
    /// The description, as text.
    pub description: String,
    /// `when_to_use`, when it is text.
    pub when_to_use: Option<String>,
    /// The body, trimmed.
    pub body: String,
    /// Why the model does not see it, when loaded but hidden.
    pub hidden: Option<Hidden>,
    /// Whether the YAML was read by the line reader.
    pub lines_read: bool,
}

/// The text normalised as Qwen Code does (byte-order mark dropped, line
/// ends made `\n`), split into `(yaml, body)`; `None` when it has no
/// frontmatter to Qwen Code (`/^---\n([\s\S]*?)\n---(?:\n|$)([\s\S]*)$/`).
pub fn split(text: &str) -> Option<(String, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Most files have no `\r`: they are split where they lie.
    let text: Cow<'_, str> = if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    };
    let rest = text.strip_prefix("---\n")?;
    let mut from = 0;
    loop {
        let at = from + rest.get(from..)?.find("\n---")?;
        let after = &rest[at + 4..];
        if after.is_empty() || after.starts_with('\n') {
            let body = after.strip_prefix('\n').unwrap_or(after);
            return Some((rest[..at].to_owned(), body.to_owned()));
        }
        from = at + 1;
    }
}

/// Whether Qwen Code accepts `name`: letters, digits, `_`, `:`, `.`, `-`
/// (`/^[\p{L}\p{N}_:.-]+$/u`; Rust's alphabetic class also holds a few
/// combining marks that `\p{L}` does not, not modelled).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphabetic() || c.is_numeric() || matches!(c, '_' | ':' | '.' | '-'))
}

fn js_trim(s: &str) -> &str {
    s.trim_matches(skills_core::catalog::claude_code::is_js_whitespace)
}

/// Reads `text` as Qwen Code does: `Ok` with what it keeps, or `Err` with
/// the reason it drops the skill (`Err(None)` when the reading is not
/// modelled, with the reason in the string).
pub fn load(text: &str) -> Result<Loaded, Dropped> {
    let (yaml, body) = split(text).ok_or(Dropped::No(
        "the file does not start with a `---` line closed by another `---` line",
    ))?;
    let (matter, lines_read) = frontmatter(&yaml).map_err(Dropped::Unknown)?;
    let present = |key: &str| {
        matter
            .get(key)
            .filter(|v| !matches!(v, JsValue::Str(s) if s.is_empty()))
    };
    let name = present("name").ok_or(Dropped::No("there is no `name`"))?;
    let description = present("description").ok_or(Dropped::No("there is no `description`"))?;
    let name = name.js_string();
    if !valid_name(&name) {
        return Err(Dropped::Owned(format!(
            "the name `{name}` holds a character other than a letter, a digit, `_`, `:`, `.` and `-`"
        )));
    }
    let description = description.js_string();
    if matter
        .get("allowedTools")
        .is_some_and(|v| !matches!(v, JsValue::List(_)))
    {
        return Err(Dropped::No("`allowedTools` is not a list"));
    }
    if matter
        .get("model")
        .is_some_and(|v| !matches!(v, JsValue::Str(_)))
    {
        return Err(Dropped::No("`model` is not text"));
    }
    let paths = paths(&matter)?;
    if js_trim(&description).is_empty() {
        return Err(Dropped::No("the description is blank"));
    }
    let when_to_use = match matter.get("when_to_use") {
        Some(JsValue::Str(s)) => Some(s.clone()),
        _ => None,
    };
    let dmi = matches!(
        matter.get("disable-model-invocation"),
        Some(JsValue::Bool(true))
    ) || matches!(matter.get("disable-model-invocation"), Some(JsValue::Str(s)) if s == "true");
    let hidden = if dmi {
        Some(Hidden::ModelInvocation)
    } else if paths {
        Some(Hidden::Paths)
    } else {
        None
    };
    Ok(Loaded {
        name,
        description,
        when_to_use,
        body: js_trim(&body).to_owned(),
        hidden,
        lines_read,
    })
}

/// Whether the `paths` field makes the skill conditional (`Ok(true)`), or
/// drops it: not a list, an absolute pattern, a `..` segment.
fn paths(matter: &JsValue) -> Result<bool, Dropped> {
    let Some(raw) = matter.get("paths") else {
        return Ok(false);
    };
    let JsValue::List(items) = raw else {
        return Err(Dropped::No("`paths` is not a list"));
    };
    let mut any = false;
    for item in items {
        let s = item.js_string();
        let pattern = js_trim(&s);
        if pattern.is_empty() {
            continue;
        }
        any = true;
        let normal = pattern.replace('\\', "/");
        let drive = normal.as_bytes().get(1) == Some(&b':')
            && normal
                .as_bytes()
                .first()
                .is_some_and(u8::is_ascii_alphabetic);
        if normal.starts_with('/') || drive {
            return Err(Dropped::Owned(format!(
                "the `paths` pattern `{pattern}` is absolute"
            )));
        }
        if normal.split('/').any(|seg| seg == "..") {
            return Err(Dropped::Owned(format!(
                "the `paths` pattern `{pattern}` has a `..` segment"
            )));
        }
    }
    Ok(any)
}

/// Why Qwen Code loads a skill but does not list it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hidden {
    /// `disable-model-invocation: true`.
    ModelInvocation,
    /// A non-empty `paths:` list: listed once a tool touches a matching file.
    Paths,
}

impl Hidden {
    /// Why, as a sentence.
    pub fn why(self) -> &'static str {
        match self {
            Hidden::ModelInvocation => {
                "`disable-model-invocation: true`: Qwen Code loads the skill but does not list it, and its `skill` tool refuses it"
            }
            Hidden::Paths => {
                "`paths:` makes it a conditional skill: Qwen Code lists it only once a tool touches a file its patterns match, which `skb` does not model"
            }
        }
    }
}

/// Why Qwen Code drops a `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dropped {
    /// Its reason, fixed.
    No(&'static str),
    /// Its reason, naming a value.
    Owned(String),
    /// Not modelled (a bound, a tag): the reason.
    Unknown(String),
}

/// Reads the skill folder `dir` as Qwen Code does.
pub fn read(dir: &Path) -> Reading {
    let path = dir.join("SKILL.md");
    match fsread::read_file(&path, READ_LIMIT + 1) {
        Ok(bytes) => read_bytes(dir, &path, &bytes),
        Err(e) if e.is_not_found() => Reading::new(Outcome::NotListed {
            why: "no `SKILL.md` in this folder (Qwen Code reads only `SKILL.md`)".into(),
        }),
        Err(e) => Reading::new(Outcome::Rejected {
            why: format!("`SKILL.md` cannot be read: {}", e.reason),
        }),
    }
}

/// Reads `bytes`, the `SKILL.md` at `path`, as Qwen Code does.
pub fn read_bytes(_dir: &Path, path: &Path, bytes: &[u8]) -> Reading {
    if bytes.len() as u64 > READ_LIMIT {
        return Reading::new(Outcome::Unknown {
            why: format!(
                "`SKILL.md` is over {READ_LIMIT} bytes, the most this tool reads; Qwen Code reads it whole"
            ),
        });
    }
    read_text(path, &String::from_utf8_lossy(bytes))
}

/// Reads `text`, the `SKILL.md` at `path` decoded as [`read_bytes`]
/// decodes it, as Qwen Code does. The caller has bounded its size
/// ([`READ_LIMIT`]).
pub fn read_text(path: &Path, text: &str) -> Reading {
    let loaded = match load(text) {
        Ok(l) => l,
        Err(Dropped::Unknown(why)) => return Reading::new(Outcome::Unknown { why }),
        Err(Dropped::No(why)) => return rejected(why),
        Err(Dropped::Owned(why)) => return rejected(&why),
    };
    let mut reading = Reading::new(Outcome::NotListed { why: String::new() });
    if loaded.lines_read {
        reading.note(
            Code::ClientYamlUnread,
            "the YAML does not parse (or repeats a key); Qwen Code reads its `key: value` lines as written instead",
        );
    }
    if let Some(hidden) = loaded.hidden {
        reading.outcome = Outcome::NotListed {
            why: hidden.why().into(),
        };
        return reading;
    }
    reading.outcome = Outcome::Listed(Listed {
        name: loaded.name,
        alias: None,
        description: loaded.description,
        when_to_use: loaded.when_to_use,
        location: crate::client::absolute::absolute(path),
        client: Client::QwenCode,
    });
    reading
}

fn rejected(why: &str) -> Reading {
    Reading::new(Outcome::Rejected {
        why: format!("Qwen Code drops the skill: {why}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split() {
        assert_eq!(
            split("\u{feff}---\r\nname: a\r\n---\r\nBody\r\n"),
            Some(("name: a".into(), "Body\n".into()))
        );
        assert_eq!(split("---\n---\n"), None);
        assert_eq!(split("---\n\n---"), Some((String::new(), String::new())));
        assert_eq!(split("----\nname: a\n----\n"), None);
        assert_eq!(split("\n---\nname: a\n---\n"), None);
        assert_eq!(split("---\nname: a\n"), None);
        assert_eq!(
            split("---\na: b\n---x\n---\nbody"),
            Some(("a: b\n---x".into(), "body".into()))
        );
    }

    #[test]
    fn what_it_drops_and_hides() {
        let l = |t: &str| load(t);
        assert!(l("---\nname: My Skill Name\ndescription: d\n---\n").is_err());
        assert!(l("---\nname: a\ndescription: \"\"\n---\n").is_err());
        assert!(l("---\nname: a\ndescription: \"  \"\n---\n").is_err());
        assert!(l("---\nname: a\n---\n").is_err());
        assert!(l("---\nname: a\ndescription: d\npaths: src/*.rs\n---\n").is_err());
        assert!(l("---\nname: a\ndescription: d\npaths: [../x]\n---\n").is_err());
        let ok =
            l("---\nname: 12345\ndescription: [a, b]\nwhen_to_use: W\n---\n\n  Body.\n\n").unwrap();
        assert_eq!(
            (ok.name.as_str(), ok.description.as_str()),
            ("12345", "a,b")
        );
        assert_eq!(ok.when_to_use.as_deref(), Some("W"));
        assert_eq!(ok.body, "Body.");
        assert!(ok.hidden.is_none());
        assert!(
            l("---\nname: a\ndescription: d\npaths: [\"src/**\"]\n---\n")
                .unwrap()
                .hidden
                .is_some()
        );
        assert!(
            l("---\nname: a\ndescription: d\npaths: []\n---\n")
                .unwrap()
                .hidden
                .is_none()
        );
        assert!(
            l("---\nname: a\ndescription: d\ndisable-model-invocation: \"true\"\n---\n")
                .unwrap()
                .hidden
                .is_some()
        );
        assert!(l("---\nname: ns:thing.x_y-名前\ndescription: d\n---\n").is_ok());
    }
}
