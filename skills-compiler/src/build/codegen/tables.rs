//! The statics behind a bundle: one `BundleData` whose skills, files,
//! lookup tables and catalog are literals, printed from a plan.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::embed::{Plan, PlanSkill};
use skills_core::catalog;
use skills_core::meta::{FileMeta, SkillMeta, Str};
use skills_core::phf;

/// An optional string as an `Option` of a literal.
fn opt(s: &Option<Str>) -> TokenStream {
    match s.as_deref() {
        Some(s) => quote!(::core::option::Option::Some(__skills::Borrowed(#s))),
        None => quote!(::core::option::Option::None),
    }
}

/// The statics behind the bundle of `plan`, then the `Bundle` expression
/// over them: the body of a block. `krate` is the path to `skills-bundle`.
pub fn bundle(krate: &TokenStream, plan: &Plan) -> TokenStream {
    let mut slot = 0u32;
    let skills: Vec<TokenStream> = plan
        .skills
        .iter()
        .enumerate()
        .map(|(i, s)| skill(s, plan.paths.get(i).and_then(Option::as_ref), &mut slot))
        .collect();
    let index = index(plan.names.as_ref());
    let slots = slot as usize;
    let catalog = &plan.catalog;
    let catalog_chars = plan.catalog_chars;
    let spans = plan.catalog_spans.iter().map(|s| {
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

/// Perfect-hash tables (the plan's, built by [`phf::build`]) as static
/// slices; binary search when no seed the builder tried separated the keys.
fn index(tables: Option<&phf::Tables>) -> TokenStream {
    match tables {
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
        arguments,
        when_to_use,
    } = m;
    let (name, description, skill_md, frontmatter) =
        (&**name, &**description, &**skill_md, &**frontmatter);
    let (license, compatibility, when_to_use) =
        (opt(license), opt(compatibility), opt(when_to_use));
    let arguments = arguments.iter().map(|a| {
        let a = &**a;
        quote!(__skills::Borrowed(#a))
    });
    let allow_implicit_invocation = match allow_implicit_invocation {
        Some(allow) => quote!(::core::option::Option::Some(#allow)),
        None => quote!(::core::option::Option::None),
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
            arguments: __skills::List::Static(&[#(#arguments),*]),
            when_to_use: #when_to_use,
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

/// A skill's record, its files and its path index as a static; `slot`
/// counts the cache slots of compressed files.
fn skill(s: &PlanSkill, paths: Option<&phf::Tables>, slot: &mut u32) -> TokenStream {
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
    let paths = index(paths);
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
