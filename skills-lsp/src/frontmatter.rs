//! Where in a `SKILL.md`'s frontmatter a byte offset is: on a top-level
//! key, in its value, or on a line with no key yet; from the compiler's
//! own parse of the text (its split and YAML tree, with their spans).

use std::ops::Range;
use std::path::Path;

use skills_compiler::frontmatter::split_text;
use skills_compiler::{CheckedSkill, Profile};

/// A top-level entry of the frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The key.
    pub key: String,
    /// The key's bytes.
    pub key_span: Range<usize>,
    /// The value's bytes.
    pub value_span: Range<usize>,
    /// The value, when it is a scalar.
    pub value: Option<String>,
}

/// The parsed frontmatter of `text` (no disk read): its top-level entries,
/// and the byte range of the YAML between the `---` lines.
#[derive(Debug, Default)]
pub struct Frontmatter {
    /// The entries, in order.
    pub entries: Vec<Entry>,
    /// The YAML's bytes, when the text splits.
    pub yaml: Option<Range<usize>>,
}

impl Frontmatter {
    /// Parses `text`, the `SKILL.md` at `path` in `dir`.
    pub fn parse(dir: &Path, path: &Path, text: &str) -> Frontmatter {
        let yaml = split_text(text).ok().map(|s| s.yaml);
        let skill =
            CheckedSkill::from_skill_md(dir, None, path, text.as_bytes().to_vec(), Profile::Spec);
        let entries = skill
            .frontmatter
            .as_ref()
            .and_then(|root| root.as_map())
            .map(|map| {
                map.iter()
                    .filter_map(|(k, v)| {
                        Some(Entry {
                            key: k.as_str()?.to_string(),
                            key_span: k.span.clone(),
                            value_span: v.span.clone(),
                            value: v.as_str().map(str::to_string),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Frontmatter { entries, yaml }
    }

    /// The entry whose key holds `offset`.
    pub fn key_at(&self, offset: usize) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.key_span.start <= offset && offset <= e.key_span.end)
    }

    /// The entry whose value holds `offset`.
    pub fn value_at(&self, offset: usize) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.value_span.start <= offset && offset <= e.value_span.end)
    }

    /// Whether `offset` is inside the YAML between the `---` lines.
    pub fn contains(&self, offset: usize) -> bool {
        self.yaml
            .as_ref()
            .is_some_and(|y| y.start <= offset && offset <= y.end)
    }
}

/// `text` without the entry `entry` (its lines, from the key's line to the
/// end of the value's).
pub fn without(text: &str, entry: &Entry) -> String {
    let start = text[..entry.key_span.start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end = entry.value_span.end.max(entry.key_span.end).min(text.len());
    let end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..start]);
    out.push_str(&text[end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_and_removal() {
        let text = "---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\nallowed-tools: Read\n---\nbody\n";
        let fm = Frontmatter::parse(Path::new("/s/pdf"), Path::new("/s/pdf/SKILL.md"), text);
        let keys: Vec<&str> = fm.entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["name", "description", "allowed-tools"]);
        let at = text.find("description").unwrap_or_default() + 3;
        assert_eq!(fm.key_at(at).map(|e| e.key.as_str()), Some("description"));
        let pdf = text.find("pdf").unwrap_or_default() + 1;
        assert_eq!(
            fm.value_at(pdf).and_then(|e| e.value.as_deref()),
            Some("pdf")
        );
        assert!(fm.contains(pdf) && !fm.contains(text.len() - 2));
        let e = fm.key_at(at).cloned();
        assert_eq!(
            e.map(|e| without(text, &e)).as_deref(),
            Some("---\nname: pdf\nallowed-tools: Read\n---\nbody\n")
        );
    }
}
