//! The generator's whole output for a one-skill fixture, from a folder and
//! from a pack of it, compared with `fixture/folder.expected`.
//! `UPDATE_EXPECT=1 cargo test -p skills-compiler --features codegen`
//! writes them anew.

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::quote;

use super::bundle;
use crate::embed::{self, Plan, PlanFile, PlanSkill, from_pack};
use crate::pack::write_pack;
use crate::{Options, Profile, Severity, check};
use skills_core::meta::{FileMeta, SkillMeta};
use skills_core::zip::write::DosTime;

type Result = std::result::Result<(), Box<dyn std::error::Error>>;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/build/codegen/fixture")
}

/// The tokens as a pretty-printed function body.
fn pretty(tokens: TokenStream) -> std::result::Result<String, syn::Error> {
    let file: syn::File = syn::parse2(quote! {
        fn skills() -> ::skills_bundle::Bundle {
            #tokens
        }
    })?;
    Ok(prettyplease::unparse(&file))
}

/// Compares `actual` with the file `name` beside the fixture, or writes it
/// when `UPDATE_EXPECT` is set.
fn expect(name: &str, actual: &str) -> Result {
    let path = fixture().join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, actual)?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&path)?;
    assert!(
        expected == actual,
        "the generated code differs from `{}` (run with UPDATE_EXPECT=1 to accept it):\n{actual}",
        path.display()
    );
    Ok(())
}

fn folder_plan() -> std::result::Result<Plan, Box<dyn std::error::Error>> {
    let roots = vec![fixture().join("skills")];
    // Claude Code's profile: its `arguments` and `when_to_use` are read
    // into the record (the reference's profile refuses both keys).
    let options = Options {
        profile: Profile::ClaudeCode,
        ..Options::default()
    };
    let checked = check(&roots, &options);
    let errors: Vec<String> = checked
        .diagnostics()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    Ok(embed::plan(&checked, &roots, &[]).map_err(|e| e.message)?)
}

#[test]
fn a_folder_prints_as_expected() -> Result {
    let plan = folder_plan()?;
    expect(
        "folder.expected",
        &pretty(bundle(&quote!(::skills_bundle), &plan))?,
    )
}

/// The same skill packed, then embedded from the pack: the pack's stored
/// bytes, manifest and tables print as the folder's, to the byte.
#[test]
fn a_pack_prints_as_expected() -> Result {
    let tmp = tempfile::tempdir()?;
    let bytes = write_pack(&folder_plan()?, DosTime::EPOCH)?;
    std::fs::write(tmp.path().join("greet.skillpack"), bytes)?;
    let embedded = from_pack::embed_pack(tmp.path(), "greet.skillpack", None);
    assert_eq!(embedded.read, [tmp.path().join("greet.skillpack")]);
    let plan = embedded.plan?;
    expect(
        "folder.expected",
        &pretty(bundle(&quote!(::skills_bundle), &plan))?,
    )
}

/// The plan's tables are printed as they are: a plan built without
/// [`Plan::new`] has none, and is looked up by binary search.
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
        ..Plan::default()
    };
    let krate: TokenStream = quote!(::renamed_bundle);
    let out = bundle(&krate, &plan).to_string();
    assert!(
        out.contains("use :: renamed_bundle :: __private as __skills"),
        "{out}"
    );
    assert!(out.contains(r#"b"---\nname: demo\n---\n""#), "{out}");
    assert!(out.contains("index : __skills :: Index :: Sorted"), "{out}");
    assert!(!out.contains("skills_bundle ::"), "{out}");
    let hashed = Plan::new(plan.skills.clone(), plan.digest.clone());
    let out = bundle(&krate, &hashed).to_string();
    assert!(out.contains("Index :: Hash { seed :"), "{out}");
    assert!(!out.contains("phf"), "{out}");
}
