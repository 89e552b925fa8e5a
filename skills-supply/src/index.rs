//! The Agent Skills well-known index: reading one ([`parse`],
//! [`fetch_index`]), downloading an entry with its digest checked
//! ([`fetch_entry`]), and writing a static one ([`publish`]).
//!
//! **The format** is the discovery index of schema 0.2.0, as the Agent
//! Skills "Well-Known URI" page (agentskills.io, distilled from
//! Cloudflare's *Agent Skills Discovery via Well-Known URIs* RFC, v0.2.0)
//! defines it and as Vercel's `skills` CLI (npm `skills` 1.5) reads it: a
//! JSON object at `/.well-known/agent-skills/index.json` with
//!
//! | field | we read | we write |
//! | --- | --- | --- |
//! | `$schema` | must be [`SCHEMA`] | [`SCHEMA`] |
//! | `skills[].name` | 1–64 of `a-z0-9-`, no leading, trailing or double `-`; unique | the same |
//! | `skills[].type` | `skill-md` (one `SKILL.md`) or `archive` (a `.zip` or `.tar.gz` whose root is the skill's folder) | `archive`, a zip |
//! | `skills[].description` | 1–1,024 characters | the same |
//! | `skills[].url` | resolved against the index's URL (RFC 3986), `https` (or `http` from an `http` index) | relative to the index, or absolute under a base URL |
//! | `skills[].digest` | `sha256:` and 64 lowercase hex digits, of the artifact's bytes | the same |
//! | `skills[].version` | optional, ours (readers ignore unknown fields) | the version published |
//!
//! Anything else is ignored, as the schema asks of clients. The 0.1.0
//! layout (no `$schema`, a `files` list, no digests) is refused: nothing
//! in it can be verified. A digest is checked before [`fetch_entry`]
//! returns a byte.
//!
//! **Bounds before work.** An index is at most [`MAX_INDEX_BYTES`] (8 MiB,
//! checked before parsing, and while [`fetch_index`] downloads it) and
//! [`MAX_ENTRIES`] entries; an entry's `url` at most 4,096 bytes and its
//! `version` 128. It is read in one pass that keeps only the fields above
//! and skips the rest without building it (`read.rs`), so a hostile
//! document costs a small multiple of its bounded size; a field given
//! twice is refused.
//!
//! **Immutable versions.** The schema has one index per site, always the
//! latest. [`publish`] adds what a lock needs to pin a version: each
//! skill's versions live under `<name>/<version>/`, never rewritten: the
//! archive, its minisign signature beside it (`<archive>.minisig`, the
//! convention a reader follows to find one) and an index of that one
//! version (`<name>/<version>/index.json`, a valid 0.2.0 index whose `url`
//! is relative to itself). The site's `index.json` names the newest
//! version of each skill; a locked install reads the versioned index,
//! whose bytes never change.

use url::Url;

use crate::http::{self, HttpError, HttpOptions};

mod error;
pub mod html;
mod model;
mod publish;
mod read;
mod version;

pub use error::IndexError;
pub use model::{
    Entry, EntryKind, INDEX_FILE, Index, MAX_ENTRIES, MAX_INDEX_BYTES, SCHEMA, SIGNATURE_SUFFIX,
    WELL_KNOWN, digest_of,
};
pub(crate) use model::{check_description, check_digest, check_name};
pub use publish::{Publication, PublishReport, archive_path, publish, signature_path, to_json};
pub use read::parse;

/// The index URL for what a user typed: a URL ending in `.json` as it is;
/// a site (`https://host`, `https://host/docs`) with the well-known path
/// added; a URL already ending in `/.well-known/agent-skills` with
/// `/index.json`. A query or fragment is dropped from a site URL.
pub fn index_url(input: &str) -> String {
    let input = input.trim();
    let base = match Url::parse(input) {
        Ok(u) if u.path().ends_with(".json") => return u.to_string(),
        Ok(mut u) => {
            u.set_query(None);
            u.set_fragment(None);
            u.to_string()
        }
        Err(_) if input.ends_with(".json") => return input.to_string(),
        Err(_) => input.to_string(),
    };
    let base = base.trim_end_matches('/');
    if base.ends_with(WELL_KNOWN) {
        format!("{base}/{INDEX_FILE}")
    } else {
        format!("{base}/{WELL_KNOWN}/{INDEX_FILE}")
    }
}

/// The absolute URL of `entry`'s artifact, resolved against the index's
/// URL. Refuses schemes other than `https` and `http`, and `http` from an
/// `https` index.
pub fn entry_url(index_url: &str, entry: &Entry) -> Result<String, IndexError> {
    let bad = |reason: String| IndexError::Url {
        name: entry.name.clone(),
        url: entry.url.clone(),
        reason,
    };
    let base = Url::parse(index_url).map_err(|e| bad(format!("index URL `{index_url}`: {e}")))?;
    let url = base.join(&entry.url).map_err(|e| bad(e.to_string()))?;
    match (base.scheme(), url.scheme()) {
        (_, "https") | ("http", "http") => Ok(url.into()),
        ("https", "http") => Err(bad(format!(
            "resolves to `{url}`: `http://` from an `https://` index is refused"
        ))),
        (_, other) => Err(bad(format!(
            "resolves to `{url}`: scheme `{other}` is not fetched"
        ))),
    }
}

/// Downloads and parses the index at `url` (see [`index_url`]). The
/// download is bounded by [`MAX_INDEX_BYTES`] (or `opts.max_bytes`, when
/// smaller): a longer body is not read past it.
pub fn fetch_index(
    url: &str,
    opts: &HttpOptions,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Index, IndexError> {
    let at = |e: IndexError| IndexError::At {
        url: url.to_string(),
        source: Box::new(e),
    };
    let bounded = HttpOptions {
        max_bytes: opts.max_bytes.min(MAX_INDEX_BYTES),
        ..opts.clone()
    };
    let bytes = match http::get(url, &bounded, progress) {
        Ok(bytes) => bytes,
        Err(HttpError::TooLarge { limit, .. }) => return Err(at(IndexError::TooLarge { limit })),
        Err(e) => return Err(e.into()),
    };
    parse(&bytes).map_err(at)
}

/// Downloads `entry`'s artifact and returns its bytes only if their digest
/// is the entry's.
pub fn fetch_entry(
    index_url: &str,
    entry: &Entry,
    opts: &HttpOptions,
    progress: &mut dyn FnMut(u64, Option<u64>),
) -> Result<Vec<u8>, IndexError> {
    check_digest(&entry.digest).map_err(|message| IndexError::Entry {
        position: None,
        name: Some(entry.name.clone()),
        message,
    })?;
    let url = entry_url(index_url, entry)?;
    let bytes = http::get(&url, opts, progress)?;
    let actual = digest_of(&bytes);
    if actual != entry.digest {
        return Err(IndexError::DigestMismatch {
            name: entry.name.clone(),
            url,
            expected: entry.digest.clone(),
            actual,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn index_with(entry: &str) -> String {
        format!(r#"{{"$schema": "{SCHEMA}", "skills": [{entry}]}}"#)
    }

    fn entry(fields: &str) -> String {
        format!(
            r#"{{"name": "pdf", "type": "archive", "description": "PDFs.", "url": "pdf.zip", "digest": "{D}"{fields}}}"#
        )
    }

    fn error(text: &str) -> String {
        match parse(text.as_bytes()) {
            Ok(i) => panic!("parsed: {i:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_valid_index_parses_and_ignores_unknown_fields() {
        let text = index_with(&format!(
            "{}, {}",
            entry(r#", "version": "1.2.0", "extra": {"deep": [1, 2]}"#),
            r#"{"name": "a-b", "type": "skill-md", "description": "d", "url": "https://x.example/a/SKILL.md", "digest": "sha256:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}"#
        ));
        let index = parse(text.as_bytes()).map_err(|e| e.to_string());
        let index = index.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(index.skills.len(), 2);
        assert_eq!(index.skills[0].kind, EntryKind::Archive);
        assert_eq!(index.skills[0].version.as_deref(), Some("1.2.0"));
        assert_eq!(index.skills[1].kind, EntryKind::SkillMd);
        assert_eq!(index.skills[1].version, None);
        // What we write reads back the same.
        assert_eq!(parse(to_json(&index).as_bytes()).ok(), Some(index));
    }

    #[test]
    fn hostile_json_is_an_error_not_a_panic() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let cases = [
            "",
            "null",
            "[]",
            "\"x\"",
            "{",
            "\u{feff}{}",
            &deep,
            "{\"$schema\": 1}",
            &format!(r#"{{"$schema": "{SCHEMA}"}}"#),
            &format!(r#"{{"$schema": "{SCHEMA}", "skills": {{}}}}"#),
            &format!(r#"{{"$schema": "{SCHEMA}", "skills": [1]}}"#),
            &format!(r#"{{"$schema": "{SCHEMA}", "skills": [null]}}"#),
        ];
        for case in cases {
            assert!(parse(case.as_bytes()).is_err(), "{:.40}", case);
        }
        assert!(parse(&[0xff, 0xfe, 0]).is_err());
    }

    #[test]
    fn the_schema_is_required() {
        assert!(error(r#"{"skills": []}"#).contains("no `$schema`"));
        let e = error(
            r#"{"$schema": "https://schemas.agentskills.io/discovery/0.3.0/schema.json", "skills": []}"#,
        );
        assert!(e.contains("0.3.0"), "{e}");
    }

    #[test]
    fn bad_digests_are_refused_naming_the_entry() {
        for digest in [
            "",
            "sha256:",
            "sha256:0123",
            "sha512:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "sha256:0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",
            "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg",
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        ] {
            let text = index_with(&entry("").replace(D, digest));
            let e = error(&text);
            assert!(e.contains("`pdf`") && e.contains("digest"), "{e}");
        }
        let text = index_with(&entry("").replace(&format!(r#", "digest": "{D}""#), ""));
        assert!(error(&text).contains("`digest` is missing"));
        let text = index_with(&entry("").replace(&format!(r#""{D}""#), "7"));
        assert!(error(&text).contains("`digest` is not a string"));
    }

    #[test]
    fn names_types_and_descriptions_follow_the_schema() {
        for name in [
            "",
            "PDF",
            "-pdf",
            "pdf-",
            "p--df",
            "p_df",
            "pdf/..",
            &"a".repeat(65),
        ] {
            let text = index_with(&entry("").replace(r#""pdf""#, &format!("{name:?}")));
            assert!(error(&text).contains("breaks the rule"), "{name}");
        }
        let e = error(&index_with(&entry("").replace("archive", "tarball")));
        assert!(
            e.contains("unknown `type` `tarball`") && e.contains("`pdf`"),
            "{e}"
        );
        let long = "x".repeat(1025);
        let e = error(&index_with(&entry("").replace("PDFs.", &long)));
        assert!(e.contains("1,024"), "{e}");
        let e = error(&index_with(&entry(r#", "version": 3"#)));
        assert!(e.contains("`version`"), "{e}");
        let two = format!("{}, {}", entry(""), entry(""));
        assert!(error(&index_with(&two)).contains("second entry"));
    }

    fn with_url(url: &str) -> Entry {
        Entry {
            name: "pdf".into(),
            description: "d".into(),
            kind: EntryKind::Archive,
            url: url.into(),
            digest: D.into(),
            version: None,
        }
    }

    #[test]
    fn relative_urls_resolve_against_the_index() {
        let base = "https://ex.com/docs/.well-known/agent-skills/index.json";
        let cases = [
            (
                "pdf/1.0/pdf.zip",
                "https://ex.com/docs/.well-known/agent-skills/pdf/1.0/pdf.zip",
            ),
            (
                "/.well-known/agent-skills/pdf.zip",
                "https://ex.com/.well-known/agent-skills/pdf.zip",
            ),
            ("../x.zip", "https://ex.com/docs/.well-known/x.zip"),
            ("//cdn.ex.com/p.zip", "https://cdn.ex.com/p.zip"),
            ("https://other.ex/p.zip", "https://other.ex/p.zip"),
        ];
        for (url, want) in cases {
            assert_eq!(
                entry_url(base, &with_url(url)).ok().as_deref(),
                Some(want),
                "{url}"
            );
        }
        for url in [
            "http://ex.com/p.zip",
            "file:///etc/passwd",
            "data:,x",
            "ftp://ex.com/p",
        ] {
            let e = entry_url(base, &with_url(url)).map_err(|e| e.to_string());
            assert!(
                e.as_ref().is_err_and(|e| e.contains("`pdf`")),
                "{url}: {e:?}"
            );
        }
        let local = "http://127.0.0.1:8000/.well-known/agent-skills/index.json";
        let got = entry_url(local, &with_url("pdf.zip")).ok();
        assert_eq!(
            got.as_deref(),
            Some("http://127.0.0.1:8000/.well-known/agent-skills/pdf.zip")
        );
    }

    #[test]
    fn index_urls_come_from_sites() {
        let w = ".well-known/agent-skills/index.json";
        let cases = [
            ("https://ex.com", format!("https://ex.com/{w}")),
            ("https://ex.com/", format!("https://ex.com/{w}")),
            ("https://ex.com/docs/", format!("https://ex.com/docs/{w}")),
            (
                "https://ex.com/docs?x=1#y",
                format!("https://ex.com/docs/{w}"),
            ),
            (
                "https://ex.com/.well-known/agent-skills/",
                format!("https://ex.com/{w}"),
            ),
            (
                "https://ex.com/pdf/1.0/index.json",
                "https://ex.com/pdf/1.0/index.json".into(),
            ),
            (
                "https://ex.com/skills.json?v=2",
                "https://ex.com/skills.json?v=2".into(),
            ),
        ];
        for (input, want) in cases {
            assert_eq!(index_url(input), want, "{input}");
        }
    }
}
