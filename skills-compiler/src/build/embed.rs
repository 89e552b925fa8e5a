//! Preparing checked skills for embedding: plain data for the code generator.
//!
//! [`plan`] reads every file of every valid skill, compresses it (raw deflate
//! at one fixed level, [`skills_core::deflate::LEVEL`], so the output is deterministic,
//! kept only when it is smaller than the file), hashes it, splits `allowed-tools`,
//! renders and lays out the catalog, builds the lookup tables and computes
//! the bundle digest. The code generator (`codegen`) prints the [`Plan`] as
//! statics; the pack writer turns the same plan into a zip; [`from_pack`]
//! plans the skills of a pack instead.
//!
//! Files are compressed one by one rather than as one solid block per skill:
//! on the shared corpus (454 skills, 22.2 MB) per-file deflate keeps 32.8 %
//! and a solid block 28.5 %, but a solid block must be inflated whole to read
//! one file, and per-file entries can be copied into zip archives unchanged.

use std::path::{Path, PathBuf};

use crate::files::SkillFile;
use crate::profile::SPEC_FIELDS;
use crate::properties::py_str;
use crate::skill::CheckedSkill;
use crate::yaml::{Node, Value};
use crate::yaml_json;
use crate::{Checked, Diagnostic};
use skills_core::digest;
use skills_core::fsread::{Dir, FileError, Reason, read_open};
use skills_core::glob;
use skills_core::listing::EntryMeta;
use skills_core::meta::{self, FileMeta, SkillMeta, Str};
use skills_core::pack::write::StoredFile;
pub use skills_core::pack::write::compress;
use skills_core::{catalog, phf, tools};

pub mod from_pack;

/// What to embed: the skills, and every table the runtime reads them
/// through, so that the code generator only prints.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Skills, sorted by name.
    pub skills: Vec<PlanSkill>,
    /// The `<available_skills>` block.
    pub catalog: String,
    /// Its length in characters.
    pub catalog_chars: usize,
    /// Where each skill's entry sits in it, in `skills` order.
    pub catalog_spans: Vec<catalog::Span>,
    /// Name → index into `skills` ([`phf::build`]); `None`: binary search.
    pub names: Option<phf::Tables>,
    /// For each skill, path → index into its files; `None`: binary search.
    pub paths: Vec<Option<phf::Tables>>,
    /// The bundle digest (hex).
    pub digest: String,
}

impl Plan {
    /// The plan of `skills` (sorted by name, each one's files by path) whose
    /// bundle digest is `digest`: the catalog, its layout and the lookup
    /// tables are computed here, by the functions of `skills_core` a pack
    /// loaded at run time is read with.
    pub fn new(skills: Vec<PlanSkill>, digest: String) -> Plan {
        let catalog::Embedded { text, chars, spans } =
            catalog::embedded(skills.iter().map(|s| (&*s.meta.name, &*s.meta.description)));
        let names: Vec<&str> = skills.iter().map(|s| &*s.meta.name).collect();
        let names = phf::build(&names);
        let paths = skills
            .iter()
            .map(|s| {
                let paths: Vec<&str> = s.files.iter().map(|f| &*f.meta.path).collect();
                phf::build(&paths)
            })
            .collect();
        Plan {
            skills,
            catalog: text,
            catalog_chars: chars,
            catalog_spans: spans,
            names,
            paths,
            digest,
        }
    }
}

/// One skill to embed: its metadata (the one record the manifest, the
/// generated tables and the digest share), where it came from, its files.
#[derive(Debug, Clone, Default)]
pub struct PlanSkill {
    /// Every field the runtime obeys.
    pub meta: SkillMeta,
    /// The skill directory, `/`-separated, as reached from the root.
    pub source_dir: String,
    /// Files, sorted by path.
    pub files: Vec<PlanFile>,
}

impl PlanSkill {
    /// Index of `SKILL.md` in `files`.
    pub fn skill_md_index(&self) -> u32 {
        self.files
            .iter()
            .position(|f| f.meta.path == self.meta.skill_md)
            .unwrap_or(0) as u32
    }

    /// The skill as the bundle digest sees it.
    pub fn digested(&self) -> (&SkillMeta, Vec<&FileMeta>) {
        (&self.meta, self.files.iter().map(|f| &f.meta).collect())
    }
}

/// One file to embed: its identity and its stored bytes (what a pack
/// stores, [`skills_core::pack::write`]).
pub type PlanFile = StoredFile;

/// Why a plan could not be made.
#[derive(Debug)]
pub struct PlanError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

/// Plans the valid, non-duplicate skills of `checked`. `roots` are the paths
/// the skills were discovered from (for `exclude` patterns, which match paths
/// relative to a root).
pub fn plan(checked: &Checked, roots: &[PathBuf], exclude: &[String]) -> Result<Plan, PlanError> {
    plan_with(checked, roots, exclude, Stored::Deflated)
}

/// [`plan`] for an installer, which writes each file out whole rather than
/// packing it: every file is kept as read (`deflated: false`), so no time
/// goes into compressing bytes only to inflate them again. The same skills,
/// hashes and digest as [`plan`].
pub fn plan_uncompressed(
    checked: &Checked,
    roots: &[PathBuf],
    exclude: &[String],
) -> Result<Plan, PlanError> {
    plan_with(checked, roots, exclude, Stored::AsRead)
}

/// How a plan keeps its files' bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stored {
    /// Raw deflate where it helps, as a pack stores them.
    Deflated,
    /// As read.
    AsRead,
}

fn plan_with(
    checked: &Checked,
    roots: &[PathBuf],
    exclude: &[String],
    stored: Stored,
) -> Result<Plan, PlanError> {
    let mut skills = Vec::new();
    // Every kept file of every skill, compressed in one parallel pass below
    // (most skills have one to three files: splitting per skill would leave
    // the cores idle).
    let mut kept: Vec<Vec<Job<'_>>> = Vec::new();
    let mut md_names = Vec::new();
    for skill in &checked.skills {
        if skill.duplicate_of.is_some() || !skill.is_valid() {
            continue;
        }
        let prefix = roots
            .iter()
            .find_map(|r| skill.dir.strip_prefix(r).ok())
            .map(slash)
            .unwrap_or_default();
        let excluded = |rel: &str| {
            let full = if prefix.is_empty() {
                rel.to_string()
            } else {
                format!("{prefix}/{rel}")
            };
            exclude.iter().any(|g| glob::matches(g, &full))
        };
        let Some(skill_md) = skill.skill_md.as_ref() else {
            continue;
        };
        let md_rel = skill_md
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if excluded(&md_rel) {
            continue;
        }
        // A client profile accepts skills without these (Claude Code shows
        // the folder name and the first body line); a bundle is looked up
        // by the name and lists the description, and checks both against
        // `SKILL.md` when it is opened.
        if skill.fields.name.is_none() || skill.fields.description.is_none() {
            let over = skill
                .frontmatter
                .as_ref()
                .and_then(|f| f.get("name")?.as_str())
                .is_some_and(|s| {
                    crate::pyunicode::nfkc_chars(crate::pyunicode::strip(s))
                        .nth(crate::rules::MAX_NAME_READ)
                        .is_some()
                });
            let too_long = if over {
                format!(
                    " (a `name` longer than {} characters after NFKC is not read as one)",
                    crate::render::thousands(crate::rules::MAX_NAME_READ as u64)
                )
            } else {
                String::new()
            };
            return Err(PlanError {
                path: skill_md.clone(),
                message: format!(
                    "a bundle or pack needs a `name` and a `description` read from the \
                     frontmatter's YAML{too_long}; this profile accepts the skill without them \
                     (as its client does), packing does not"
                ),
            });
        }
        skills.push(describe(skill, &prefix));
        kept.push(
            skill
                .files
                .iter()
                .filter(|f| !excluded(&f.rel))
                .map(|file| Job {
                    skill,
                    file,
                    is_skill_md: file.rel == md_rel,
                })
                .collect(),
        );
        md_names.push(md_rel);
    }
    let flat: Vec<&Job<'_>> = kept.iter().flatten().collect();
    let mut compressed = compress_all(&flat, stored)?.into_iter();
    for ((planned, files), md_rel) in skills.iter_mut().zip(&kept).zip(md_names) {
        planned.files = compressed.by_ref().take(files.len()).collect();
        planned.meta.skill_md = md_rel.into();
    }
    skills.sort_by(|a, b| a.meta.name.cmp(&b.meta.name));
    let digest = digest::bundle_digest(skills.iter().map(PlanSkill::digested));
    Ok(Plan::new(skills, digest))
}

/// `d` with paths under `from` shown under `to`: its path, and every
/// occurrence of `from` in its message and help. An empty `to` shows them
/// relative (the separator after `from` goes too): how `skills_bundle!`
/// reports paths inside the crate, and how `skb` names the archive a
/// temporary copy was extracted from. The one rewriting of both.
pub fn relabel(d: &mut Diagnostic, from: &Path, to: &Path) {
    if let Ok(rest) = d.path.strip_prefix(from) {
        d.path = if rest.as_os_str().is_empty() {
            to.to_path_buf()
        } else {
            to.join(rest)
        };
    }
    let (from, to) = if to.as_os_str().is_empty() {
        (
            format!("{}{}", from.display(), std::path::MAIN_SEPARATOR),
            String::new(),
        )
    } else {
        (from.display().to_string(), to.display().to_string())
    };
    d.message = d.message.replace(&from, &to);
    if let Some(help) = &mut d.help {
        *help = help.replace(&from, &to);
    }
}

fn slash(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Everything but the files, as read from the skill's `SKILL.md`.
pub fn describe(skill: &CheckedSkill, source_dir: &str) -> PlanSkill {
    let fm = skill.frontmatter.as_ref();
    let text = |key: &str| {
        fm.and_then(|r| r.get(key))
            .and_then(Node::as_str)
            .map(String::from)
    };
    let metadata = match fm.and_then(|r| r.get("metadata")).map(|m| &m.value) {
        Some(Value::Map(entries)) => entries
            .iter()
            .map(|(k, v)| (py_str(k), py_str(v)))
            .collect(),
        _ => Vec::new(),
    };
    let allowed_tools = match fm.and_then(|r| r.get("allowed-tools")).map(|m| &m.value) {
        Some(Value::Str(s)) => tools::split(s).into_iter().map(owned_rule).collect(),
        Some(Value::Seq(items)) => items
            .iter()
            .filter_map(Node::as_str)
            .map(|i| owned_rule(tools::rule(i)))
            .collect(),
        _ => Vec::new(),
    };
    let extensions = fm
        .and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|(k, v)| k.as_str().map(|k| (k, v)))
        .filter(|(k, _)| !SPEC_FIELDS.contains(k))
        .map(|(k, v)| (k.to_string(), yaml_json::to_json(v)))
        .collect();
    let frontmatter = fm
        .filter(|root| root.as_map().is_some())
        .map(yaml_json::to_json)
        .unwrap_or_default();
    let body = skill
        .split
        .as_ref()
        .map_or((0, 0), |s| (s.body.start as u32, s.body.end as u32));
    let skill_md = skill
        .skill_md
        .as_ref()
        .and_then(|p| p.file_name())
        .map_or_else(
            || "SKILL.md".to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
    let mut meta = SkillMeta {
        name: skill.qualified_name().unwrap_or_default().into(),
        description: skill.fields.description.clone().unwrap_or_default().into(),
        license: text("license").map(Str::from),
        compatibility: text("compatibility").map(Str::from),
        metadata: meta::pairs(metadata),
        allowed_tools: allowed_tools.into(),
        extensions: meta::pairs(extensions),
        skill_md: skill_md.into(),
        body,
        allow_implicit_invocation: skill
            .openai_yaml
            .as_ref()
            .and_then(|o| o.allow_implicit_invocation),
        frontmatter: frontmatter.into(),
        ..SkillMeta::default()
    };
    meta.derive_from_extensions();
    PlanSkill {
        meta,
        source_dir: if source_dir.is_empty() {
            ".".into()
        } else {
            source_dir.into()
        },
        files: Vec::new(),
    }
}

fn owned_rule(r: tools::ToolRule<'_>) -> (Str, Option<Str>) {
    (
        r.tool.to_string().into(),
        r.pattern.map(|p| p.to_string().into()),
    )
}

/// One file to read and compress, with its skill.
struct Job<'a> {
    skill: &'a CheckedSkill,
    file: &'a SkillFile,
    /// Whether it is the skill's `SKILL.md`, whose bytes were read and
    /// checked already.
    is_skill_md: bool,
}

/// Reads and compresses files on all cores, keeping their order.
fn compress_all(jobs: &[&Job<'_>], stored: Stored) -> Result<Vec<PlanFile>, PlanError> {
    crate::parallel::map(jobs, 0, |job| compress_one(job, stored))
        .into_iter()
        .collect()
}

/// `bytes` as a plan keeps them: compressed, or as read (with the same
/// hashes).
fn store(path: &str, bytes: Vec<u8>, executable: bool, stored: Stored) -> PlanFile {
    match stored {
        Stored::Deflated => compress(path, bytes, executable),
        Stored::AsRead => PlanFile {
            meta: FileMeta {
                path: path.to_string().into(),
                size: bytes.len() as u64,
                sha256: digest::sha256(&bytes),
                executable,
            },
            crc32: crc32fast::hash(&bytes),
            stored: bytes,
            deflated: false,
        },
    }
}

/// Reads one file once, below its skill's directory and without following
/// links (see [`skills_core::fsread`]), and compresses those bytes. `SKILL.md`
/// is not read again: its bytes are those that were checked.
fn compress_one(job: &Job<'_>, stored: Stored) -> Result<PlanFile, PlanError> {
    let f = job.file;
    let fail = |message: String| PlanError {
        path: f.path.clone(),
        message,
    };
    if let (true, Some(source)) = (job.is_skill_md, &job.skill.source) {
        return Ok(store(&f.rel, source.bytes().to_vec(), f.executable, stored));
    }
    let dir = Dir::open(&job.skill.dir)
        .map_err(|e| fail(format!("cannot read `{}`: {e}", job.skill.dir.display())))?;
    if job.skill.dir_id != Some(dir.id()) {
        return Err(fail(format!(
            "`{}` was replaced while it was being read; run again",
            job.skill.dir.display()
        )));
    }
    let fail_read = |mut e: FileError| {
        e.path = f.path.clone();
        fail(match e.reason {
            Reason::TooLarge { .. } => format!(
                "`{}` grew after it was checked ({} bytes then); run again",
                f.path.display(),
                f.size
            ),
            _ => e.to_string(),
        })
    };
    let (mut file, meta) = dir.open_file(&f.physical).map_err(fail_read)?;
    // At most the size it had when it was listed and counted against the
    // limits: a file that grew since is refused, not read without bound.
    let bytes = read_open(&mut file, &meta, f.size)
        .map_err(|reason| fail_read(FileError::new(f.path.clone(), reason)))?;
    // The mode of the file read, not of what was listed.
    Ok(store(
        &f.rel,
        bytes,
        EntryMeta::of(&meta).executable,
        stored,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relabelled_paths_are_relative_or_under_the_new_prefix() {
        let base = Path::new("/crate");
        let d = Diagnostic::new(
            crate::Code::MissingFrontmatter,
            crate::Severity::Error,
            &base.join("skills/a/SKILL.md"),
            "no frontmatter in `/crate/skills/a/SKILL.md` (see /crate)",
        );
        let mut relative = d.clone();
        relabel(&mut relative, base, Path::new(""));
        assert_eq!(relative.path, Path::new("skills/a/SKILL.md"));
        assert_eq!(
            relative.message,
            "no frontmatter in `skills/a/SKILL.md` (see /crate)"
        );
        let mut archived = d;
        relabel(&mut archived, base, Path::new("x.zip"));
        assert_eq!(archived.path, Path::new("x.zip/skills/a/SKILL.md"));
        assert_eq!(
            archived.message,
            "no frontmatter in `x.zip/skills/a/SKILL.md` (see x.zip)"
        );
    }

    fn described(skill_md: &str) -> SkillMeta {
        let dir = Path::new("calc");
        let checked = CheckedSkill::from_skill_md(
            dir,
            None,
            &dir.join("SKILL.md"),
            skill_md.as_bytes().to_vec(),
            crate::Profile::ClaudeCode,
        );
        describe(&checked, "calc").meta
    }

    /// The whole mapping, in the order written, typed; the fields the rules
    /// read beside it, as the reference reads them.
    #[test]
    fn the_frontmatter_is_recorded_whole_and_typed() {
        let meta = described(
            "---\nname: calc\nmetadata:\n  version: 2\n  tags:\n    - a\n  q: \"2\"\nallowed-tools:\n  - Read\ndescription: Adds.\nuser-invocable: false\n---\nbody\n",
        );
        assert_eq!(
            meta.frontmatter,
            r#"{"name":"calc","metadata":{"version":2,"tags":["a"],"q":"2"},"allowed-tools":["Read"],"description":"Adds.","user-invocable":false}"#
        );
        assert_eq!(
            meta.metadata.to_vec(),
            [
                ("version".into(), "2".into()),
                ("tags".into(), "['a']".into()),
                ("q".into(), "2".into())
            ]
        );
        assert_eq!(
            meta.extensions.to_vec(),
            [("user-invocable".into(), "false".into())]
        );
        assert_eq!(described("no frontmatter\n").frontmatter, "");
    }
}

#[cfg(all(test, unix))]
mod read_once {
    use std::fs;
    use std::os::unix::fs::symlink;
    use std::path::PathBuf;

    use super::*;
    use crate::{Options, check};

    type Result = std::result::Result<(), Box<dyn std::error::Error>>;

    const VALID: &str = "---\nname: s\ndescription: d\n---\nbody\n";

    fn checked(root: &Path) -> (Checked, Vec<PathBuf>) {
        let roots = vec![root.to_path_buf()];
        (check(&roots, &Options::default()), roots)
    }

    #[test]
    fn a_plan_kept_as_read_has_the_same_skills_hashes_and_digest() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir_all(dir.join("references"))?;
        fs::write(dir.join("SKILL.md"), VALID)?;
        let text = "words that repeat, ".repeat(200);
        fs::write(dir.join("references/long.md"), &text)?;
        let (checked, roots) = checked(&dir);
        let packed = plan(&checked, &roots, &[]).map_err(|e| e.message)?;
        let kept = plan_uncompressed(&checked, &roots, &[]).map_err(|e| e.message)?;
        assert_eq!(kept.digest, packed.digest);
        let (p, k) = (&packed.skills[0].files, &kept.skills[0].files);
        assert_eq!(p.len(), 2);
        for (p, k) in p.iter().zip(k) {
            assert_eq!((&p.meta, p.crc32), (&k.meta, k.crc32));
            assert!(!k.deflated);
            assert_eq!(k.stored.len() as u64, k.meta.size);
        }
        // The long file is what the packed plan compressed, kept whole here.
        assert!(p[1].deflated && p[1].stored.len() < text.len());
        assert_eq!(k[1].stored, text.as_bytes());
        Ok(())
    }

    #[test]
    fn skill_md_is_packed_from_the_bytes_that_were_checked() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir(&dir)?;
        fs::write(dir.join("SKILL.md"), VALID)?;
        let (checked, roots) = checked(&dir);
        fs::write(
            dir.join("SKILL.md"),
            "---\nname: s\ndescription: changed\n---\n",
        )?;
        let plan = plan(&checked, &roots, &[]).map_err(|e| e.message)?;
        let md = &plan.skills[0].files[0];
        assert_eq!(md.meta.path, "SKILL.md");
        assert_eq!(md.meta.sha256, digest::sha256(VALID.as_bytes()));
        assert_eq!(plan.skills[0].meta.description, "d");
        Ok(())
    }

    #[test]
    fn a_file_swapped_for_a_link_after_the_check_is_refused() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir_all(dir.join("refs"))?;
        fs::write(dir.join("SKILL.md"), VALID)?;
        fs::write(dir.join("refs/a.txt"), "inside")?;
        fs::write(tmp.path().join("secret"), "outside")?;
        let (checked, roots) = checked(&dir);
        fs::remove_file(dir.join("refs/a.txt"))?;
        symlink(tmp.path().join("secret"), dir.join("refs/a.txt"))?;
        let e = plan(&checked, &roots, &[]).err().ok_or("planned")?;
        let path = dir.join("refs/a.txt");
        assert_eq!(e.path, path);
        assert_eq!(
            e.message,
            format!(
                "cannot read `{}`: it is reached through a symbolic link, which is not followed here",
                path.display()
            )
        );
        // A directory on the way swapped for a link: the same.
        fs::remove_file(dir.join("refs/a.txt"))?;
        fs::rename(dir.join("refs"), tmp.path().join("refs"))?;
        fs::write(tmp.path().join("refs/a.txt"), "outside")?;
        symlink(tmp.path().join("refs"), dir.join("refs"))?;
        let e = plan(&checked, &roots, &[]).err().ok_or("planned")?;
        assert!(
            e.message.ends_with("which is not followed here"),
            "{}",
            e.message
        );
        Ok(())
    }

    #[test]
    fn a_file_grown_after_the_check_is_refused() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir(&dir)?;
        fs::write(dir.join("SKILL.md"), VALID)?;
        fs::write(dir.join("a.txt"), "12")?;
        let (checked, roots) = checked(&dir);
        fs::write(dir.join("a.txt"), "123")?;
        let e = plan(&checked, &roots, &[]).err().ok_or("planned")?;
        assert_eq!(
            e.message,
            format!(
                "`{}` grew after it was checked (2 bytes then); run again",
                dir.join("a.txt").display()
            )
        );
        Ok(())
    }

    #[test]
    fn a_skill_directory_replaced_after_the_check_is_refused() -> Result {
        let tmp = tempfile::tempdir()?;
        let dir = tmp.path().join("s");
        fs::create_dir(&dir)?;
        fs::write(dir.join("SKILL.md"), VALID)?;
        fs::write(dir.join("a.txt"), "in")?;
        let (checked, roots) = checked(&dir);
        fs::rename(&dir, tmp.path().join("old"))?;
        fs::create_dir(&dir)?;
        fs::write(dir.join("a.txt"), "ou")?;
        let e = plan(&checked, &roots, &[]).err().ok_or("planned")?;
        assert_eq!(
            e.message,
            format!(
                "`{}` was replaced while it was being read; run again",
                dir.display()
            )
        );
        Ok(())
    }
}
