//! Planning the skills of a pack instead of a folder: what
//! `skills_bundle!(pack = "...", pubkey = "..." | unsigned = true)` embeds.
//!
//! [`embed_pack`] reads the pack (bounded), its public key (bare or a `.pub`
//! file) and the `.minisig` beside it, applies the signature policy, and
//! hands the bytes to [`plan_pack`], which checks the pack as
//! `Bundle::from_pack` would and reads it through the same tables
//! ([`skills_core::pack::tables`]), then re-checks every file and every
//! skill's metadata against its `SKILL.md`.

use std::path::{Path, PathBuf};

use super::{Plan, PlanFile, PlanSkill};
use crate::client::codex::OPENAI_YAML;
use crate::rederive;
use skills_core::digest;
use skills_core::fsread;
use skills_core::pack::signature::{self, KeyError, MAX_SIGNATURE_FILE};
use skills_core::pack::{self, PackError, Trust, minisig_path, open, tables};
use skills_core::zip::Limits;

/// Why a pack cannot be planned.
#[derive(Debug)]
pub enum PackPlanError {
    /// Its signature, structure or manifest is refused.
    Refused(PackError),
    /// A file does not read back as the manifest records it.
    Damaged(String),
    /// The manifest's metadata is not what a `SKILL.md` gives.
    Disagrees(rederive::Disagreement),
}

impl std::fmt::Display for PackPlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PackPlanError::Refused(e) => write!(f, "refused: {e}"),
            PackPlanError::Damaged(e) => write!(f, "damaged: {e}"),
            PackPlanError::Disagrees(d) => write!(f, "refused: manifest: {d}"),
        }
    }
}

impl std::error::Error for PackPlanError {}

/// A pack as a plan, or why not, with the files read (to track for
/// rebuilds) either way.
#[derive(Debug)]
pub struct Embedded {
    /// The plan, or the message to report.
    pub plan: Result<Plan, String>,
    /// Every file read or looked for: the pack, the key file, the signature.
    pub read: Vec<PathBuf>,
}

/// Plans the pack at `pack` (relative to `base`) as `skills_bundle!` embeds
/// it: signed by `pubkey` (a bare base64 key or a `.pub` file relative to
/// `base`; the signature is `<pack>.minisig`), or, with `None`, unsigned.
pub fn embed_pack(base: &Path, pack: &str, pubkey: Option<&str>) -> Embedded {
    let mut read = Vec::new();
    let plan = embed_pack_into(base, pack, pubkey, &mut read);
    Embedded { plan, read }
}

fn embed_pack_into(
    base: &Path,
    pack: &str,
    pubkey: Option<&str>,
    read: &mut Vec<PathBuf>,
) -> Result<Plan, String> {
    let path = base.join(pack);
    read.push(path.clone());
    let bytes = fsread::read_file(&path, pack::MAX_PACK_FILE)
        .map_err(|e| format!("cannot read the pack `{pack}`: {}", e.reason))?;
    let key_and_sig = match pubkey {
        Some(arg) => {
            let key = match signature::load_public_key(arg, base) {
                Ok(loaded) => {
                    read.extend(loaded.file);
                    loaded.key
                }
                Err(e) => {
                    read.push(base.join(arg));
                    return Err(match e {
                        KeyError::File(e) => {
                            format!("cannot read the public key `{arg}`: {}", e.reason)
                        }
                        e => format!("`{arg}` is not a minisign public key: {e}"),
                    });
                }
            };
            let sig_path = minisig_path(&path);
            read.push(sig_path.clone());
            let sig = fsread::read_file(&sig_path, MAX_SIGNATURE_FILE).map_err(|e| {
                format!(
                    "the pack must be signed: cannot read `{pack}.minisig`: {} (sign it with `skb pack --sign`, or embed it with `unsigned = true`)",
                    e.reason
                )
            })?;
            Some((key, String::from_utf8_lossy(&sig).into_owned()))
        }
        None => None,
    };
    let trust = match &key_and_sig {
        Some((public_key, signature)) => Trust::Signed {
            public_key,
            signature: Some(signature),
        },
        None => Trust::Unsigned,
    };
    plan_pack(&bytes, trust, &Limits::default()).map_err(|e| format!("the pack `{pack}` is {e}"))
}

/// Plans the skills of a pack, as `skills_bundle!(pack = ...)` embeds them:
/// checks it as `Bundle::from_pack` would (signature when `trust` asks for
/// one, structure, manifest) and reads it through the same
/// [`tables`](tables::tables), then reads every file, checking its CRC-32
/// and SHA-256, and re-derives each skill's metadata from its `SKILL.md`
/// (the digest binds the manifest, but an unsigned pack's digest proves
/// nothing). The plan reuses the pack's compressed bytes.
pub fn plan_pack(bytes: &[u8], trust: Trust<'_>, limits: &Limits) -> Result<Plan, PackPlanError> {
    let (checked, ()) =
        open::open_with(bytes, trust, limits, |_| Ok(())).map_err(PackPlanError::Refused)?;
    let tables = tables::tables(&checked, bytes).map_err(PackPlanError::Refused)?;
    let mut skills = Vec::with_capacity(tables.skills.len());
    let mut paths = Vec::with_capacity(tables.skills.len());
    for s in tables.skills {
        let mut files = Vec::with_capacity(s.files.len());
        let (mut skill_md, mut openai_yaml) = (None, None);
        for f in s.files {
            let damaged = PackPlanError::Damaged;
            let content = f.entry.read(bytes).map_err(|e| damaged(e.to_string()))?;
            if digest::sha256(&content) != f.meta.sha256 {
                return Err(damaged(format!(
                    "`{}` does not match its SHA-256",
                    f.entry.name
                )));
            }
            files.push(PlanFile {
                meta: f.meta.clone(),
                stored: f.stored.to_vec(),
                deflated: f.deflated,
                crc32: f.entry.crc32,
            });
            if f.meta.path == s.skill.meta.skill_md {
                skill_md = Some(content);
            } else if f.meta.path == OPENAI_YAML {
                openai_yaml = Some(content);
            }
        }
        if let Some(d) = skill_md.and_then(|bytes| {
            rederive::disagreements(s.skill, &bytes, openai_yaml.as_deref())
                .into_iter()
                .next()
        }) {
            return Err(PackPlanError::Disagrees(d));
        }
        skills.push(PlanSkill {
            meta: s.skill.meta.clone(),
            source_dir: s.skill.dir.clone(),
            files,
        });
        paths.push(s.paths);
    }
    Ok(Plan {
        skills,
        catalog: tables.catalog.text,
        catalog_chars: tables.catalog.chars,
        catalog_spans: tables.catalog.spans,
        names: tables.index,
        paths,
        digest: checked.manifest.digest.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::{manifest, write_pack};
    use crate::{Options, check};
    use skills_core::zip::write::DosTime;

    /// An unsigned pack whose manifest widens `Bash(python3:*)` to `Bash`
    /// and carries the digest of what it says: the digest checks, the
    /// `SKILL.md` it holds does not.
    #[test]
    fn a_pack_whose_manifest_disagrees_with_skill_md_is_refused() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let root = tmp.path().join("skills");
        let dir = root.join("calc");
        std::fs::create_dir_all(&dir).expect("creates the skill");
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: calc\ndescription: Adds numbers. Use when adding.\nallowed-tools: Bash(python3:*)\n---\nAdd.\n",
        )
        .expect("writes SKILL.md");
        let checked = check(std::slice::from_ref(&root), &Options::default());
        let mut plan = super::super::plan(&checked, &[root], &[]).expect("plans");
        plan.skills[0].meta.allowed_tools = vec![("Bash".into(), None)].into();
        plan.digest = manifest(&plan).digest;
        let bytes = write_pack(&plan, DosTime::EPOCH).expect("packs");
        std::fs::write(tmp.path().join("edited.skillpack"), bytes).expect("writes the pack");
        let embedded = embed_pack(tmp.path(), "edited.skillpack", None);
        assert_eq!(
            embedded.plan.err().as_deref(),
            Some(
                "the pack `edited.skillpack` is refused: manifest: skill `calc`: `allowed_tools` is [[\"Bash\", null]] in the manifest but [[\"Bash\", \"python3:*\"]] in `SKILL.md`"
            )
        );
        assert_eq!(embedded.read, [tmp.path().join("edited.skillpack")]);
    }

    /// The key is read once, by the rule `skb` reads it with; the files
    /// read or looked for are reported for tracking, in order.
    #[test]
    fn keys_and_signatures_are_looked_for_beside_the_pack() {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        std::fs::write(tmp.path().join("p.skillpack"), b"PK").expect("writes");
        let unsigned = embed_pack(tmp.path(), "p.skillpack", Some("k.pub"));
        assert_eq!(
            unsigned.plan.err().as_deref(),
            Some("`k.pub` is not a minisign public key: no such file, and not a base64 key either")
        );
        assert_eq!(
            unsigned.read,
            [tmp.path().join("p.skillpack"), tmp.path().join("k.pub")]
        );
        let key = "RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3";
        std::fs::write(
            tmp.path().join("k.pub"),
            format!("untrusted comment: k\n{key}\n"),
        )
        .expect("writes the key");
        let no_sig = embed_pack(tmp.path(), "p.skillpack", Some("k.pub"));
        assert_eq!(
            no_sig.read,
            [
                tmp.path().join("p.skillpack"),
                tmp.path().join("k.pub"),
                tmp.path().join("p.skillpack.minisig")
            ]
        );
        let message = no_sig.plan.err().unwrap_or_default();
        assert!(
            message.starts_with("the pack must be signed: cannot read `p.skillpack.minisig`: "),
            "{message}"
        );
        let missing = embed_pack(tmp.path(), "none.skillpack", Some(key));
        assert!(
            missing
                .plan
                .err()
                .unwrap_or_default()
                .starts_with("cannot read the pack `none.skillpack`: "),
        );
    }
}
