//! Every file of every skill as an MCP resource: URIs, MIME types, the
//! resource template, and `resources/read`.
//!
//! A skill's files are `skill://<name>/<path>`, the same virtual base
//! directory that its activation names. A plugin skill (`plugin:skill` in
//! the bundle) is `skill://<plugin>/<skill>/<path>` here: SEP-2640 wants the
//! URI segment before `SKILL.md` to equal the frontmatter name (`skill`),
//! and MCP clients read a `:` as a scheme or port separator. Reads accept
//! both forms. Path bytes outside RFC 3986's unreserved set are
//! percent-encoded; reads decode them, then resolve the path with
//! [`Skill::read`](skills_bundle::Skill::read)'s rules, so a path that leaves the
//! skill, or a skill that does not exist, is a `resource_not_found` error
//! and never a panic.
//!
//! The MIME type comes from the extension when it is known (`text/markdown`,
//! `text/x-python`, `text/x-shellscript`, ...); otherwise a read decides from
//! the bytes: UTF-8 is `text/plain` and sent as text, anything else is
//! `application/octet-stream` and sent as a base64 `blob`. The listing does
//! not inflate files to decide, so an unknown extension is listed without a
//! MIME type.

use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate};

use skills_bundle::{Bundle, File, Skill};

/// The URI scheme.
pub const SCHEME: &str = "skill://";

/// The resource template for a skill's files.
pub const TEMPLATE: &str = "skill://{name}/{+path}";

/// The URI of the skill directory, with a trailing `/`: `skill://<name>/`,
/// or `skill://<plugin>/<skill>/` for a plugin skill.
pub fn skill_root(name: &str) -> String {
    let mut uri = String::from(SCHEME);
    for segment in name.split(':') {
        encode_into(&mut uri, segment);
        uri.push('/');
    }
    uri
}

/// The URI of one file of a skill.
pub fn file_uri(name: &str, path: &str) -> String {
    let mut uri = skill_root(name);
    encode_into(&mut uri, path);
    uri
}

/// Appends `text` with every byte outside RFC 3986's unreserved set (and
/// `/`) percent-encoded.
fn encode_into(out: &mut String, text: &str) {
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
}

/// `%XX` sequences decoded; `None` when the result is not UTF-8 or an
/// escape is malformed.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The skill and the path inside it that `uri` names, if the skill exists;
/// the path is as written (not yet checked).
pub fn resolve<'b>(bundle: &'b Bundle, uri: &str) -> Option<(Skill<'b>, String)> {
    let rest = uri.strip_prefix(SCHEME)?;
    if rest.contains(['?', '#']) {
        return None;
    }
    let rest = decode(rest)?;
    let (first, after) = rest.split_once('/')?;
    // `skill://plugin:skill/...`, the bundle's own spelling.
    if first.contains(':') {
        return bundle.get(first).map(|s| (s, after.to_string()));
    }
    // `skill://plugin/skill/...`, the spelling this server lists.
    if let Some((second, path)) = after.split_once('/')
        && let Some(skill) = bundle.get(&format!("{first}:{second}"))
    {
        return Some((skill, path.to_string()));
    }
    bundle.get(first).map(|s| (s, after.to_string()))
}

/// The MIME type known from the file name's extension.
pub fn mime_by_extension(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let extension = name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match extension.as_str() {
        "md" | "markdown" => "text/markdown",
        "py" => "text/x-python",
        "sh" | "bash" => "text/x-shellscript",
        "txt" => "text/plain",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "js" | "mjs" | "cjs" => "text/javascript",
        "ts" => "text/x-typescript",
        "rs" => "text/x-rust",
        "json" => "application/json",
        "xml" | "xsd" => "application/xml",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        _ => return None,
    })
}

/// Whether a MIME type names text, so UTF-8 bytes of it are sent as text.
fn is_textual(mime: &str) -> bool {
    mime.starts_with("text/")
        || matches!(
            mime,
            "application/json" | "application/xml" | "application/yaml" | "application/toml"
        )
        || mime.ends_with("+xml")
}

/// Every file of the skills `listed` keeps (one flag per skill, in bundle
/// order: those offered to the model), in bundle order then path order.
pub fn list(bundle: &Bundle, listed: &[bool]) -> Vec<Resource> {
    let mut out = Vec::new();
    for (skill, _) in bundle.skills().zip(listed).filter(|(_, keep)| **keep) {
        for file in skill.files() {
            out.push(entry(&skill, &file));
        }
    }
    out
}

/// One file's resource: its URI, name, size, MIME type when the extension
/// tells it, and for `SKILL.md` the skill's description.
pub fn entry(skill: &Skill<'_>, file: &File<'_>) -> Resource {
    let uri = file_uri(skill.name(), file.path());
    let mut resource =
        Resource::new(uri, format!("{}/{}", skill.name(), file.path())).with_size(file.size());
    if let Some(mime) = mime_by_extension(file.path()) {
        resource = resource.with_mime_type(mime);
    }
    if file.path() == "SKILL.md" {
        resource = resource.with_description(skill.description());
    }
    resource
}

/// The resource template (RFC 6570 level 2: `{+path}` keeps its `/`).
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(TEMPLATE, "skill-file")
            .with_title("A file of a skill")
            .with_description(
                "A file of a skill, by the skill's name (a plugin skill as plugin/skill) and its path relative to the skill directory, for example skill://calculator/scripts/calc.py.",
            ),
    ]
}

/// `resources/read`.
pub fn read(bundle: &Bundle, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let not_found = |why: String| ErrorData::resource_not_found(why, None);
    let Some((skill, path)) = resolve(bundle, uri) else {
        return Err(not_found(format!("no skill file at `{uri}`")));
    };
    let bytes = skill
        .read(&path)
        .map_err(|e| not_found(format!("`{uri}`: {e}")))?;
    let known = mime_by_extension(&path);
    let text = std::str::from_utf8(bytes)
        .ok()
        .filter(|_| known.is_none_or(is_textual));
    let contents = match text {
        Some(text) => {
            ResourceContents::text(text, uri).with_mime_type(known.unwrap_or("text/plain"))
        }
        None => ResourceContents::blob(base64(bytes), uri)
            .with_mime_type(known.unwrap_or("application/octet-stream")),
    };
    Ok(ReadResourceResult::new(vec![contents]))
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sym = |v: u32| char::from(ALPHABET[(v & 63) as usize]);
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (b(0) << 16) | (b(1) << 8) | b(2);
        out.push(sym(n >> 18));
        out.push(sym(n >> 12));
        out.push(if chunk.len() > 1 { sym(n >> 6) } else { '=' });
        out.push(if chunk.len() > 2 { sym(n) } else { '=' });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_encode_plugins_as_two_segments() {
        assert_eq!(
            file_uri("calc", "scripts/a b.py"),
            "skill://calc/scripts/a%20b.py"
        );
        assert_eq!(file_uri("p:s", "SKILL.md"), "skill://p/s/SKILL.md");
        assert_eq!(skill_root("p:s"), "skill://p/s/");
    }

    #[test]
    fn decoding_refuses_bad_escapes() {
        assert_eq!(decode("a%20b").as_deref(), Some("a b"));
        assert_eq!(decode("a%2"), None);
        assert_eq!(decode("a%zz"), None);
        assert_eq!(decode("%ff"), None);
    }

    #[test]
    fn base64_matches_rfc_4648() {
        for (input, output) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), output);
        }
    }

    #[test]
    fn mime_types_by_extension() {
        assert_eq!(mime_by_extension("SKILL.md"), Some("text/markdown"));
        assert_eq!(mime_by_extension("scripts/calc.py"), Some("text/x-python"));
        assert_eq!(mime_by_extension("run.SH"), Some("text/x-shellscript"));
        assert_eq!(mime_by_extension("LICENSE"), None);
    }
}
