//! From arguments to tokens: check the skills, report, and emit the tables.
//!
//! Generated code names only `$crate::__private::…` and `$crate::Bundle`,
//! sits in a block of its own, and keeps bytes as byte-string literals (an
//! array literal of a megabyte costs seconds and gigabytes in rustc).

use std::path::{Path, PathBuf};

use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;

use skills_compiler::embed::{self, Plan, PlanSkill};
use skills_compiler::{self as compiler, Diagnostic, Options, Severity};
use skills_core::meta::{FileMeta, SkillMeta, Str};
use skills_core::pack::{self, Trust, signature};
use skills_core::{catalog, fsread, phf, zip};

use crate::fallback;
use crate::input::{self, Args, Warnings};

/// Expands one `skills_bundle!` call.
pub fn expand(input: TokenStream) -> TokenStream {
    let args = match input::parse(input) {
        Ok(a) => a,
        Err(e) => return fallback::error(e.span, &e.message),
    };
    let manifest = match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            return fallback::error(
                Span::call_site(),
                "`CARGO_MANIFEST_DIR` is not set; build with Cargo",
            );
        }
    };
    expand_in(&manifest, &args)
}

/// Expands with paths relative to `manifest`.
pub fn expand_in(manifest: &Path, args: &Args) -> TokenStream {
    let krate = &args.krate;
    if let Some((pack, span)) = &args.pack {
        return match embed_pack(manifest, args, pack) {
            Ok((plan, tracked)) => {
                let tracking = track(&tracked);
                let data = tables(krate, &plan);
                quote! {
                    {
                        #tracking
                        #data
                    }
                }
            }
            Err((message, mut tracked)) => {
                // A missing file cannot be tracked (`include_bytes!` would
                // add a second error); the message already names it.
                tracked.retain(|p| p.is_file());
                fallback::empty(krate, fallback::error(*span, &message), track(&tracked))
            }
        };
    }
    let roots: Vec<PathBuf> = args.paths.iter().map(|(p, _)| manifest.join(p)).collect();
    let options = Options {
        profile: args.profile,
        lints: args.lints,
        discovery: args.discovery.clone(),
        files: args.files,
        ..Options::default()
    };
    let checked = compiler::check(&roots, &options);
    // Paths relative to the crate, in the location and in the text.
    let prefix = format!("{}{}", manifest.display(), std::path::MAIN_SEPARATOR);
    let shown = |d: &Diagnostic| {
        let mut d = d.clone();
        if let Ok(rel) = d.path.strip_prefix(manifest) {
            d.path = rel.to_path_buf();
        }
        d.message = d.message.replace(&prefix, "");
        d.help = d.help.map(|h| h.replace(&prefix, ""));
        d
    };
    // Each diagnostic is reported at the path literal its root came from.
    let span_of = |d: &Diagnostic| {
        roots
            .iter()
            .zip(&args.paths)
            .find(|(root, _)| d.path.starts_with(root))
            .map_or(Span::call_site(), |(_, (_, span))| *span)
    };
    let mut errors = TokenStream::new();
    let mut warnings = TokenStream::new();
    for (i, d) in checked.diagnostics().enumerate() {
        let text = message(&shown(d));
        let is_error = d.severity == Severity::Error || args.warnings == Warnings::Deny;
        if is_error {
            errors.extend(fallback::error(span_of(d), &text));
        } else if args.warnings == Warnings::Warn {
            warnings.extend(fallback::warning(span_of(d), i, &text));
        }
    }
    let tracked: Vec<PathBuf> = checked
        .skills
        .iter()
        .flat_map(|s| s.files.iter().map(|f| f.path.clone()))
        .collect();
    let tracking = track(&tracked);
    if !errors.is_empty() {
        return fallback::empty(krate, errors, tracking);
    }
    let plan = match embed::plan(&checked, &roots, &args.exclude) {
        Ok(plan) => plan,
        Err(e) => {
            let span = args.paths.first().map_or(Span::call_site(), |(_, s)| *s);
            return fallback::empty(krate, fallback::error(span, &e.message), tracking);
        }
    };
    let data = tables(krate, &plan);
    quote! {
        {
            #warnings
            #tracking
            #data
        }
    }
}

/// Checks a pack as `Bundle::from_pack` would (signature, structure,
/// manifest), then every file's CRC-32 and SHA-256 and the manifest's
/// metadata against each `SKILL.md`, and plans it. Returns
/// the files to track for rebuilds with the plan, or with the error.
fn embed_pack(
    manifest: &Path,
    args: &Args,
    pack: &str,
) -> Result<(Plan, Vec<PathBuf>), (String, Vec<PathBuf>)> {
    let path = manifest.join(pack);
    let mut tracked = vec![path.clone()];
    let fail = |m: String, t: &Vec<PathBuf>| (m, t.clone());
    let bytes = fsread::read_file(&path, pack::MAX_PACK_FILE).map_err(|e| {
        fail(
            format!("cannot read the pack `{pack}`: {}", e.reason),
            &tracked,
        )
    })?;
    let key_and_sig = match &args.pubkey {
        Some((key, _)) => {
            let key_file = manifest.join(key);
            let key = if std::fs::symlink_metadata(&key_file).is_ok() {
                tracked.push(key_file.clone());
                let bytes = fsread::read_file(&key_file, signature::MAX_KEY_FILE).map_err(|e| {
                    fail(
                        format!("cannot read the public key `{key}`: {}", e.reason),
                        &tracked,
                    )
                })?;
                String::from_utf8_lossy(&bytes).into_owned()
            } else {
                key.clone()
            };
            let mut sig_path = path.clone().into_os_string();
            sig_path.push(".minisig");
            let sig_path = PathBuf::from(sig_path);
            tracked.push(sig_path.clone());
            let sig = fsread::read_file(&sig_path, signature::MAX_SIGNATURE_FILE).map_err(|e| {
                fail(
                    format!(
                        "the pack must be signed: cannot read `{pack}.minisig`: {} (sign it with `skb pack --sign`, or embed it with `unsigned = true`)",
                        e.reason
                    ),
                    &tracked,
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
    let plan = embed::plan_pack(&bytes, trust, &zip::Limits::default())
        .map_err(|e| fail(format!("the pack `{pack}` is {e}"), &tracked))?;
    Ok((plan, tracked))
}

/// The compile-error text of a diagnostic: the message and code, then the
/// location and source snippet as `skb validate` prints them.
fn message(d: &Diagnostic) -> String {
    let rendered = compiler::render::diagnostic(d, false);
    let rest: Vec<&str> = rendered.lines().skip(1).collect();
    format!(
        "{} [{} {}]\n{}",
        d.message,
        d.code,
        d.code.slug(),
        rest.join("\n").trim_end()
    )
}

/// `const _: &[u8] = include_bytes!(..)` for every file: the compiler then
/// rebuilds the crate when one changes, and no byte reaches the binary.
fn track(paths: &[PathBuf]) -> TokenStream {
    paths
        .iter()
        .filter_map(|p| p.to_str())
        .map(|p| quote! { const _: &[u8] = ::core::include_bytes!(#p); })
        .collect()
}

fn opt(s: &Option<Str>) -> TokenStream {
    match s.as_deref() {
        Some(s) => quote!(::core::option::Option::Some(__skills::Borrowed(#s))),
        None => quote!(::core::option::Option::None),
    }
}

/// The statics behind the bundle.
pub fn tables(krate: &TokenStream, plan: &Plan) -> TokenStream {
    let mut slot = 0u32;
    let skills: Vec<TokenStream> = plan
        .skills
        .iter()
        .map(|s| skill(krate, s, &mut slot))
        .collect();
    let names: Vec<&str> = plan.skills.iter().map(|s| &*s.meta.name).collect();
    let index = index(&names);
    let slots = slot as usize;
    let catalog = &plan.catalog;
    let (catalog_chars, spans) = catalog::layout_embedded(
        plan.skills
            .iter()
            .map(|s| (&*s.meta.name, &*s.meta.description)),
    );
    let spans = spans.iter().map(|s| {
        let catalog::Span {
            start,
            description,
            description_end,
            end,
            chars,
            description_chars,
        } = *s;
        quote! {
            __skills::Span {
                start: #start,
                description: #description,
                description_end: #description_end,
                end: #end,
                chars: #chars,
                description_chars: #description_chars,
            }
        }
    });
    let digest = &plan.digest;
    quote! {
        use #krate::__private as __skills;
        static __SKILLS_CACHE: [__skills::OnceLock<__skills::Cached>; #slots] =
            [const { __skills::OnceLock::new() }; #slots];
        static __SKILLS_DATA: __skills::BundleData = __skills::BundleData {
            skills: __skills::List::Static(&[#(#skills),*]),
            index: #index,
            catalog: __skills::Borrowed(#catalog),
            catalog_chars: #catalog_chars,
            catalog_spans: __skills::List::Static(&[#(#spans),*]),
            digest: __skills::Borrowed(#digest),
            cache: __skills::List::Static(&__SKILLS_CACHE),
        };
        #krate::Bundle::__from_static(&__SKILLS_DATA)
    }
}

/// The perfect-hash tables of `keys` (sorted, in the order of the list they
/// index) as static slices; binary search in the rare case that no seed
/// the builder tries separates them.
fn index(keys: &[&str]) -> TokenStream {
    match phf::build(keys) {
        Some(tables) => {
            let seed = tables.seed;
            let pilots = tables.pilots.iter().map(|&p| Literal::u16_unsuffixed(p));
            let slots = tables.slots.iter().map(|&s| Literal::u32_unsuffixed(s));
            quote! {
                __skills::Index::Hash {
                    seed: #seed,
                    pilots: __skills::List::Static(&[#(#pilots),*]),
                    slots: __skills::List::Static(&[#(#slots),*]),
                }
            }
        }
        None => quote!(__skills::Index::Sorted),
    }
}

/// A skill's record as a static: every string a literal.
fn skill_meta(m: &SkillMeta) -> TokenStream {
    let SkillMeta {
        name,
        description,
        license,
        compatibility,
        metadata,
        allowed_tools,
        extensions,
        skill_md,
        body: (body_start, body_end),
        allow_implicit_invocation,
        frontmatter,
    } = m;
    let (name, description, skill_md, frontmatter) =
        (&**name, &**description, &**skill_md, &**frontmatter);
    let (license, compatibility) = (opt(license), opt(compatibility));
    let allow_implicit_invocation = match allow_implicit_invocation {
        Some(allow) => quote!(Some(#allow)),
        None => quote!(None),
    };
    let pair = |(k, v): &(Str, Str)| {
        let (k, v) = (&**k, &**v);
        quote!((__skills::Borrowed(#k), __skills::Borrowed(#v)))
    };
    let metadata = metadata.iter().map(pair);
    let extensions = extensions.iter().map(pair);
    let tools = allowed_tools.iter().map(|(t, p)| {
        let (t, p) = (&**t, opt(p));
        quote!((__skills::Borrowed(#t), #p))
    });
    quote! {
        __skills::SkillMeta {
            name: __skills::Borrowed(#name),
            description: __skills::Borrowed(#description),
            license: #license,
            compatibility: #compatibility,
            metadata: __skills::List::Static(&[#(#metadata),*]),
            allowed_tools: __skills::List::Static(&[#(#tools),*]),
            extensions: __skills::List::Static(&[#(#extensions),*]),
            skill_md: __skills::Borrowed(#skill_md),
            body: (#body_start, #body_end),
            allow_implicit_invocation: #allow_implicit_invocation,
            frontmatter: __skills::Borrowed(#frontmatter),
        }
    }
}

/// A file's record as a static.
fn file_meta(m: &FileMeta) -> TokenStream {
    let path = &*m.path;
    let size = m.size;
    let sha = m.sha256.iter().map(|b| Literal::u8_suffixed(*b));
    let executable = m.executable;
    quote! {
        __skills::FileMeta {
            path: __skills::Borrowed(#path),
            size: #size,
            sha256: [#(#sha),*],
            executable: #executable,
        }
    }
}

fn skill(_krate: &TokenStream, s: &PlanSkill, slot: &mut u32) -> TokenStream {
    let meta = skill_meta(&s.meta);
    let source_dir = &s.source_dir;
    let files = s.files.iter().map(|f| {
        let meta = file_meta(&f.meta);
        let stored = Literal::byte_string(&f.stored);
        let deflated = f.deflated;
        let this = if f.deflated {
            *slot += 1;
            *slot - 1
        } else {
            u32::MAX
        };
        quote! {
            __skills::FileData {
                meta: #meta,
                stored: __skills::List::Static(#stored),
                deflated: #deflated,
                slot: #this,
            }
        }
    });
    let paths: Vec<&str> = s.files.iter().map(|f| &*f.meta.path).collect();
    let paths = index(&paths);
    let skill_md = s.skill_md_index();
    quote! {
        __skills::SkillData {
            meta: #meta,
            source_dir: __skills::Borrowed(#source_dir),
            files: __skills::List::Static(&[#(#files),*]),
            paths: #paths,
            skill_md: #skill_md,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_compiler::embed::PlanFile;

    /// An unsigned pack whose manifest widens `Bash(python3:*)` to `Bash`
    /// and carries the digest of what it says: the digest checks, the
    /// `SKILL.md` it holds does not.
    #[test]
    fn a_pack_whose_manifest_disagrees_with_skill_md_is_refused() {
        use skills_compiler::pack::{manifest, write_pack};
        use skills_core::zip::write::DosTime;

        let tmp = tempfile::tempdir().expect("a temporary directory");
        let root = tmp.path().join("skills");
        let dir = root.join("calc");
        std::fs::create_dir_all(&dir).expect("creates the skill");
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: calc\ndescription: Adds numbers. Use when adding.\nallowed-tools: Bash(python3:*)\n---\nAdd.\n",
        )
        .expect("writes SKILL.md");
        let checked = compiler::check(std::slice::from_ref(&root), &Options::default());
        let mut plan = embed::plan(&checked, &[root], &[]).expect("plans");
        plan.skills[0].meta.allowed_tools = vec![("Bash".into(), None)].into();
        plan.digest = manifest(&plan).digest;
        let bytes = write_pack(&plan, DosTime::EPOCH).expect("packs");
        std::fs::write(tmp.path().join("edited.skillpack"), bytes).expect("writes the pack");
        let args =
            input::parse(quote!(::skills_bundle; pack = "edited.skillpack", unsigned = true))
                .expect("parses");
        let Err((message, _)) = embed_pack(tmp.path(), &args, "edited.skillpack") else {
            panic!("the pack was embedded");
        };
        assert_eq!(
            message,
            "the pack `edited.skillpack` is refused: manifest: skill `calc`: `allowed_tools` is [[\"Bash\", null]] in the manifest but [[\"Bash\", \"python3:*\"]] in `SKILL.md`"
        );
    }

    #[test]
    fn tables_use_byte_strings_and_the_given_crate_path() {
        let plan = Plan {
            skills: vec![PlanSkill {
                meta: SkillMeta {
                    name: "demo".into(),
                    description: "Use when testing.".into(),
                    skill_md: "SKILL.md".into(),
                    ..SkillMeta::default()
                },
                files: vec![PlanFile {
                    meta: FileMeta {
                        path: "SKILL.md".into(),
                        size: 19,
                        ..FileMeta::default()
                    },
                    stored: b"---\nname: demo\n---\n".to_vec(),
                    ..PlanFile::default()
                }],
                ..PlanSkill::default()
            }],
            catalog: "<available_skills>".into(),
            digest: "abc".into(),
        };
        let krate: TokenStream = quote!(::renamed_bundle);
        let out = tables(&krate, &plan).to_string();
        assert!(
            out.contains("use :: renamed_bundle :: __private as __skills"),
            "{out}"
        );
        assert!(out.contains(r#"b"---\nname: demo\n---\n""#), "{out}");
        assert!(out.contains("Index :: Hash { seed :"), "{out}");
        assert!(!out.contains("phf"), "{out}");
        assert!(!out.contains("skills_bundle ::"), "{out}");
    }
}
