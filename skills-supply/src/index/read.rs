//! Reading an index within bounds: the document's size first
//! ([`MAX_INDEX_BYTES`]), then one pass of `serde_json` over visitors that
//! keep only what an index has (the `$schema`, and each entry's six
//! fields, as text or as the kind of value found instead) and skip
//! everything else without building it; the entries stop being kept at
//! [`MAX_ENTRIES`]. No generic JSON tree is built, so memory is a small
//! multiple of the bounded document, whatever its shape; `serde_json`
//! bounds nesting (128 levels). The checks of each field then run on
//! what was kept.

use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{
    Entry, EntryKind, Index, IndexError, MAX_ENTRIES, MAX_INDEX_BYTES, SCHEMA, check_description,
    check_digest, check_name,
};

/// The longest entry `url`, in bytes.
pub(super) const MAX_URL_BYTES: usize = 4096;
/// The longest entry `version`, in bytes.
pub(super) const MAX_VERSION_BYTES: usize = 128;

/// Parses a 0.2.0 index, checking its size, its number of entries and every
/// entry.
pub fn parse(bytes: &[u8]) -> Result<Index, IndexError> {
    if bytes.len() as u64 > MAX_INDEX_BYTES {
        return Err(IndexError::TooLarge {
            limit: MAX_INDEX_BYTES,
        });
    }
    let json = |message: String| IndexError::Json { message };
    let top: Shape<RawIndex> = serde_json::from_slice(bytes).map_err(|e| json(e.to_string()))?;
    let Shape::Read(top) = top else {
        return Err(json("the top level is not an object".into()));
    };
    match top.schema {
        Some(Shape::Read(Text(s))) if s == SCHEMA => {}
        Some(Shape::Read(Text(s))) => return Err(IndexError::Schema { found: Some(s) }),
        Some(Shape::Other(kind)) => {
            return Err(IndexError::Schema {
                found: Some(kind.to_owned()),
            });
        }
        None => return Err(IndexError::Schema { found: None }),
    }
    let Some(Shape::Read(raw)) = top.skills else {
        return Err(json("`skills` is missing or not a list".into()));
    };
    if raw.over {
        return Err(IndexError::TooManyEntries { limit: MAX_ENTRIES });
    }
    let mut seen = HashSet::new();
    let mut skills = Vec::with_capacity(raw.entries.len());
    for (position, item) in raw.entries.into_iter().enumerate() {
        let entry = entry(position, item)?;
        if !seen.insert(entry.name.clone()) {
            return Err(IndexError::Entry {
                position: Some(position),
                name: Some(entry.name),
                message: "a second entry with this name".into(),
            });
        }
        skills.push(entry);
    }
    Ok(Index {
        schema: SCHEMA.to_string(),
        skills,
    })
}

/// One entry of `skills`, checked.
fn entry(position: usize, item: Shape<RawEntry>) -> Result<Entry, IndexError> {
    let Shape::Read(item) = item else {
        return Err(IndexError::Entry {
            position: Some(position),
            name: None,
            message: "not an object".into(),
        });
    };
    let name_seen = match &item.name {
        Some(Shape::Read(Text(name))) => Some(name.clone()),
        _ => None,
    };
    let bad = |message: String| IndexError::Entry {
        position: Some(position),
        name: name_seen.clone(),
        message,
    };
    let text = |field: &str, value: Option<Shape<Text>>| match value {
        Some(Shape::Read(Text(s))) => Ok(s),
        Some(Shape::Other(_)) => Err(bad(format!("`{field}` is not a string"))),
        None => Err(bad(format!("`{field}` is missing"))),
    };
    let name = text("name", item.name)?;
    check_name(&name).map_err(&bad)?;
    let description = text("description", item.description)?;
    check_description(&description).map_err(&bad)?;
    let kind = match text("type", item.kind)?.as_str() {
        "skill-md" => EntryKind::SkillMd,
        "archive" => EntryKind::Archive,
        other => {
            return Err(bad(format!(
                "unknown `type` `{}`: expected `skill-md` or `archive`",
                shown(other)
            )));
        }
    };
    let url = text("url", item.url)?;
    if url.is_empty() {
        return Err(bad("`url` is empty".into()));
    }
    if url.len() > MAX_URL_BYTES {
        return Err(bad(format!(
            "`url` is {} bytes; the limit is {MAX_URL_BYTES}",
            url.len()
        )));
    }
    let digest = text("digest", item.digest)?;
    check_digest(&digest).map_err(&bad)?;
    let version = match item.version {
        None | Some(Shape::Other("null")) => None,
        Some(Shape::Read(Text(s))) if s.len() > MAX_VERSION_BYTES => {
            return Err(bad(format!(
                "`version` is {} bytes; the limit is {MAX_VERSION_BYTES}",
                s.len()
            )));
        }
        Some(Shape::Read(Text(s))) => Some(s),
        Some(Shape::Other(_)) => return Err(bad("`version` is not a string".into())),
    };
    Ok(Entry {
        name,
        description,
        kind,
        url,
        digest,
        version,
    })
}

/// `text` for a message: at most 64 characters, escaped.
fn shown(text: &str) -> String {
    let cut: String = text.chars().take(64).collect();
    let more = if cut.len() < text.len() { "…" } else { "" };
    format!("{}{more}", cut.escape_debug())
}

/// A JSON value read as `R` when it has `R`'s shape, else only named by its
/// kind (`a number`, `null`, ...) and skipped without being built.
enum Shape<R> {
    Read(R),
    Other(&'static str),
}

/// What can be read from one shape of JSON value; every other shape is
/// skipped (the defaults).
trait Readable<'de>: Sized {
    /// What the value should be, for serde's messages.
    const EXPECTING: &'static str;

    /// From an object.
    fn map<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    /// From a list.
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    /// From a string.
    fn text(_: &str) -> Option<Self> {
        None
    }
}

impl<'de, R: Readable<'de>> Deserialize<'de> for Shape<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ShapeVisitor(PhantomData))
    }
}

struct ShapeVisitor<R>(PhantomData<R>);

impl<'de, R: Readable<'de>> Visitor<'de> for ShapeVisitor<R> {
    type Value = Shape<R>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(R::EXPECTING)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Shape<R>, E> {
        Ok(Shape::Other("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Shape<R>, E> {
        Ok(Shape::Other("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Shape<R>, E> {
        Ok(Shape::Other("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Shape<R>, E> {
        Ok(Shape::Other("a number"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Shape<R>, E> {
        Ok(R::text(v).map_or(Shape::Other("a string"), Shape::Read))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Shape<R>, E> {
        Ok(Shape::Other("null"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Shape<R>, A::Error> {
        Ok(R::seq(seq)?.map_or(Shape::Other("a list"), Shape::Read))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Shape<R>, A::Error> {
        Ok(R::map(map)?.map_or(Shape::Other("an object"), Shape::Read))
    }
}

/// A string value.
struct Text(String);

impl Readable<'_> for Text {
    const EXPECTING: &'static str = "a string";

    fn text(s: &str) -> Option<Self> {
        Some(Text(s.to_owned()))
    }
}

/// The top-level object: the two fields read, the others skipped.
struct RawIndex {
    schema: Option<Shape<Text>>,
    skills: Option<Shape<RawEntries>>,
}

impl<'de> Readable<'de> for RawIndex {
    const EXPECTING: &'static str = "a skills index (a JSON object)";

    fn map<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut index = RawIndex {
            schema: None,
            skills: None,
        };
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "$schema" => once(&mut index.schema, "$schema", map.next_value()?)?,
                "skills" => once(&mut index.skills, "skills", map.next_value()?)?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Some(index))
    }
}

/// `skills`: at most [`MAX_ENTRIES`] entries kept; `over` when there were
/// more (the rest skipped unbuilt).
struct RawEntries {
    entries: Vec<Shape<RawEntry>>,
    over: bool,
}

impl<'de> Readable<'de> for RawEntries {
    const EXPECTING: &'static str = "a list of entries";

    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Option<Self>, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = seq.next_element::<Shape<RawEntry>>()? {
            if entries.len() == MAX_ENTRIES {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                return Ok(Some(RawEntries {
                    entries,
                    over: true,
                }));
            }
            entries.push(entry);
        }
        Ok(Some(RawEntries {
            entries,
            over: false,
        }))
    }
}

/// One entry's fields, as found.
#[derive(Default)]
struct RawEntry {
    name: Option<Shape<Text>>,
    kind: Option<Shape<Text>>,
    description: Option<Shape<Text>>,
    url: Option<Shape<Text>>,
    digest: Option<Shape<Text>>,
    version: Option<Shape<Text>>,
}

impl<'de> Readable<'de> for RawEntry {
    const EXPECTING: &'static str = "an entry (a JSON object)";

    fn map<A: MapAccess<'de>>(mut map: A) -> Result<Option<Self>, A::Error> {
        let mut entry = RawEntry::default();
        while let Some(key) = map.next_key::<String>()? {
            let (slot, name) = match key.as_str() {
                "name" => (&mut entry.name, "name"),
                "type" => (&mut entry.kind, "type"),
                "description" => (&mut entry.description, "description"),
                "url" => (&mut entry.url, "url"),
                "digest" => (&mut entry.digest, "digest"),
                "version" => (&mut entry.version, "version"),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            once(slot, name, map.next_value()?)?;
        }
        Ok(Some(entry))
    }
}

/// Fills `slot`, refusing a field given twice (JSON readers disagree on
/// which of the two wins).
fn once<T, E: de::Error>(slot: &mut Option<T>, name: &'static str, value: T) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(name));
    }
    *slot = Some(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn entry(i: usize) -> String {
        format!(
            r#"{{"name": "s-{i}", "type": "skill-md", "description": "d", "url": "u", "digest": "{D}"}}"#
        )
    }

    fn index(entries: &str) -> String {
        format!(r#"{{"$schema": "{SCHEMA}", "skills": [{entries}]}}"#)
    }

    fn error(text: &str) -> IndexError {
        match parse(text.as_bytes()) {
            Ok(i) => panic!("parsed {} entries", i.skills.len()),
            Err(e) => e,
        }
    }

    #[test]
    fn the_size_is_checked_before_any_parsing() {
        let big = vec![b' '; MAX_INDEX_BYTES as usize + 1];
        assert!(matches!(
            parse(&big),
            Err(IndexError::TooLarge { limit }) if limit == MAX_INDEX_BYTES
        ));
    }

    #[test]
    fn entries_are_counted_up_to_the_limit() {
        let all: Vec<String> = (0..=MAX_ENTRIES).map(entry).collect();
        let e = error(&index(&all.join(",")));
        assert!(
            matches!(e, IndexError::TooManyEntries { limit } if limit == MAX_ENTRIES),
            "{e}"
        );
        assert!(e.to_string().contains("10000"), "{e}");
        // Whatever comes after the limit is skipped, not read as entries.
        let over = format!("{},{}", all[..MAX_ENTRIES].join(","), "{\"deep\": [[[]]]}");
        assert!(matches!(
            error(&index(&over)),
            IndexError::TooManyEntries { .. }
        ));
        let read = parse(index(&all[1..].join(",")).as_bytes()).map(|i| i.skills.len());
        assert_eq!(read.ok(), Some(MAX_ENTRIES));
    }

    #[test]
    fn long_urls_and_versions_are_refused_naming_the_entry() {
        let long_url = entry(1).replace(
            r#""url": "u""#,
            &format!(r#""url": "{}""#, "u".repeat(5000)),
        );
        let e = error(&index(&long_url)).to_string();
        assert!(e.contains("`s-1`") && e.contains("4096"), "{e}");
        let long_version =
            entry(2).replace('}', &format!(r#", "version": "{}"}}"#, "1".repeat(200)));
        let e = error(&index(&long_version)).to_string();
        assert!(e.contains("`s-2`") && e.contains("128"), "{e}");
        let null_version = entry(3).replace('}', r#", "version": null}"#);
        assert!(parse(index(&null_version).as_bytes()).is_ok());
    }

    #[test]
    fn a_field_given_twice_is_refused() {
        let twice = entry(1).replace('}', r#", "name": "other"}"#);
        let e = error(&index(&twice)).to_string();
        assert!(e.contains("duplicate field `name`"), "{e}");
        let text = format!(r#"{{"$schema": "{SCHEMA}", "skills": [], "skills": []}}"#);
        assert!(
            error(&text)
                .to_string()
                .contains("duplicate field `skills`")
        );
    }

    #[test]
    fn values_of_another_kind_are_named() {
        let e = error(r#"{"$schema": [1, 2]}"#).to_string();
        assert!(e.contains("a list"), "{e}");
        let e = error(&format!(r#"{{"$schema": "{SCHEMA}", "skills": "x"}}"#)).to_string();
        assert!(e.contains("not a list"), "{e}");
        let e = error(&index(r#"[1]"#)).to_string();
        assert!(e.contains("not an object"), "{e}");
        let e = error(&index(&entry(1).replace(r#""s-1""#, "{}"))).to_string();
        assert!(e.contains("`name` is not a string"), "{e}");
    }
}
