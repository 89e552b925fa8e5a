//! Vercel's `skills-lock.json`: reading it, reproducing its `computedHash`,
//! and checking the folders Vercel's CLI (`npx skills`) installed against it.
//!
//! Vercel's CLI keeps this file at the project's root (global installs go to
//! another file, `~/.agents/.skill-lock.json`, which has no hashes and is not
//! read here). Its shape, as the CLI writes it:
//!
//! ```json
//! { "version": 1,
//!   "skills": { "NAME": { "source": "…", "sourceType": "local", "computedHash": "<sha256 hex>" } } }
//! ```
//!
//! with `sourceUrl`, `ref`, `skillPath` and `subagents` present for some
//! sources, the skills sorted by name, two-space indentation and a final
//! newline. Every `add` rewrites the file with only `version` and `skills`:
//! a top-level key of anyone else's is dropped, and a skill added again
//! loses every field the CLI did not write. So our own lock sits beside this
//! file rather than inside it, and this module only reads it.
//!
//! Fields of a skill that this module does not know are kept in
//! [`VercelSkill::other`], so an import loses nothing.

mod error;
mod hash;
mod lock;
mod strict;
mod verify;

use std::cell::RefCell;
use std::path::Path;

use skills_core::fsread::Dir;

use serde_json::{Map, Value};

pub use error::VercelError;
pub use hash::{MAX_DEPTH, MAX_FILES, MAX_TOTAL_BYTES, computed_hash};
pub use lock::{LOCK_FILE, VercelLock, VercelSkill};
pub use verify::{AGENT_FOLDERS, Finding, State, install_name, verify};

/// The largest `skills-lock.json` [`read`] accepts.
pub const MAX_LOCK_BYTES: u64 = 16 << 20;

/// Reads and parses the `skills-lock.json` at `path`, at most
/// [`MAX_LOCK_BYTES`].
pub fn read(path: &Path) -> Result<VercelLock, VercelError> {
    let bytes = skills_core::fsread::read_file(path, MAX_LOCK_BYTES).map_err(VercelError::Read)?;
    parse(&bytes)
}

/// Reads and parses the `skills-lock.json` of the project at `project`,
/// without following a link (the file is the project's, committed with it).
pub fn read_in(project: &Path) -> Result<VercelLock, VercelError> {
    let dir = Dir::open(project).map_err(|source| VercelError::List {
        path: project.to_path_buf(),
        source,
    })?;
    let bytes = dir
        .read(Path::new(LOCK_FILE), MAX_LOCK_BYTES)
        .map_err(VercelError::Read)?;
    parse(&bytes)
}

/// Parses the bytes of a `skills-lock.json`.
///
/// Stricter than the CLI, which treats a file it cannot read as empty (and
/// then overwrites it): here every departure from the shape is an error
/// naming the key, so an import never silently drops skills, and a key
/// repeated in any object ([`VercelError::Repeated`]) is an error too,
/// where the CLI keeps the last.
pub fn parse(bytes: &[u8]) -> Result<VercelLock, VercelError> {
    let repeated = RefCell::new(None);
    let root = strict::from_slice(bytes, &repeated).map_err(|e| match repeated.take() {
        Some(key) => VercelError::Repeated {
            key,
            line: e.line(),
            column: e.column(),
        },
        None => VercelError::Json(e),
    })?;
    let Value::Object(mut root) = root else {
        return Err(shape("the top level is not an object"));
    };
    let version = match root.get("version") {
        Some(Value::Number(n)) => n.as_u64().filter(|v| *v >= 1).ok_or_else(|| {
            shape(format!(
                "`version` is {n}; a whole number from 1 is expected"
            ))
        })?,
        Some(_) => return Err(shape("`version` is not a number")),
        None => return Err(shape("`version` is missing")),
    };
    let skills = match root.remove("skills") {
        Some(Value::Object(skills)) => skills,
        Some(_) => return Err(shape("`skills` is not an object")),
        None => return Err(shape("`skills` is missing")),
    };
    let mut out = Vec::with_capacity(skills.len());
    for (name, entry) in skills {
        out.push(skill(name, entry)?);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(VercelLock {
        version,
        skills: out,
    })
}

/// One entry of `skills`.
fn skill(name: String, entry: Value) -> Result<VercelSkill, VercelError> {
    let Value::Object(mut fields) = entry else {
        return Err(shape(format!("skill `{name}` is not an object")));
    };
    if name.is_empty() {
        return Err(shape("a skill has an empty name"));
    }
    let required = |fields: &mut Map<String, Value>, key: &str| match fields.remove(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(shape(format!("skill `{name}`: `{key}` is not a string"))),
        None => Err(shape(format!("skill `{name}`: `{key}` is missing"))),
    };
    let source = required(&mut fields, "source")?;
    let source_type = required(&mut fields, "sourceType")?;
    let computed_hash = required(&mut fields, "computedHash")?;
    let optional = |fields: &mut Map<String, Value>, key: &str| match fields.remove(key) {
        Some(Value::String(s)) => Ok(Some(s)),
        None | Some(Value::Null) => Ok(None),
        Some(_) => Err(shape(format!("skill `{name}`: `{key}` is not a string"))),
    };
    let source_url = optional(&mut fields, "sourceUrl")?;
    let git_ref = optional(&mut fields, "ref")?;
    let skill_path = optional(&mut fields, "skillPath")?;
    let subagents = match fields.remove("subagents") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => Some(
            items
                .into_iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s),
                    _ => Err(shape(format!(
                        "skill `{name}`: `subagents` holds something other than a string"
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(_) => {
            return Err(shape(format!(
                "skill `{name}`: `subagents` is not an array"
            )));
        }
    };
    Ok(VercelSkill {
        name,
        source,
        source_type,
        computed_hash,
        source_url,
        git_ref,
        skill_path,
        subagents,
        other: fields,
    })
}

fn shape(what: impl Into<String>) -> VercelError {
    VercelError::Shape(what.into())
}

#[cfg(test)]
mod tests;
