//! The example skills (`skills/`) compiled into this test binary: the
//! bundle digest equals the one computed here by an independent walk of
//! the same tree, lookups and the three disclosure levels, reads outside a
//! skill refused, and a pack's round trip. `embed_corpus` does the same
//! with the whole shared corpus (the acceptance tier).

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use skills_bundle::{Bundle, Skill, skills_bundle};

static EXAMPLES: Bundle = skills_bundle!("../skills", warnings = "deny");

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A text as the digest's listing writes it: a JSON string literal with
/// `"`, `\`, newline, return and tab escaped as `\"`, `\\`, `\n`, `\r`,
/// `\t`, other control characters as `\u00xx`, and nothing else.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The digest's canonical listing, written again from its documentation:
/// the metadata as the bundle reports it, the files from an independent
/// walk of the skill directories.
pub(crate) fn independent_digest(bundle: &Bundle, root: &Path) -> String {
    let skills: BTreeMap<&str, Skill<'_>> = bundle.skills().map(|s| (s.name(), s)).collect();
    let mut h = Sha256::new();
    let mut line = |text: String| h.update(format!("{text}\n").as_bytes());
    line("skills-digest-v2".into());
    for (name, skill) in skills {
        let or_null = |v: Option<&str>| v.map_or_else(|| "null".to_string(), quoted);
        line(format!("skill {}", quoted(name)));
        line(format!("description {}", quoted(skill.description())));
        line(format!("license {}", or_null(skill.license())));
        line(format!("compatibility {}", or_null(skill.compatibility())));
        for (k, v) in skill.metadata() {
            line(format!("metadata {} {}", quoted(k), quoted(v)));
        }
        for rule in skill.allowed_tools() {
            line(format!(
                "allowed-tool {} {}",
                quoted(rule.tool),
                or_null(rule.pattern)
            ));
        }
        for (k, v) in skill.extensions() {
            line(format!("extension {} {}", quoted(k), quoted(v)));
        }
        let dir = root.join(skill.source_dir());
        let md = ["SKILL.md", "skill.md"]
            .into_iter()
            .find(|n| dir.join(n).is_file())
            .unwrap();
        let text = std::fs::read_to_string(dir.join(md)).unwrap();
        let body = skill.body().unwrap();
        assert!(text.ends_with(body), "{name}: the body ends `{md}`");
        line(format!(
            "skill-md {} {} {}",
            quoted(md),
            text.len() - body.len(),
            text.len()
        ));
        if let Some(frontmatter) = skill.frontmatter() {
            line(format!("frontmatter {}", quoted(frontmatter)));
        }
        let mut files = Vec::new();
        walk(&dir, &dir, &mut files);
        files.sort();
        for (rel, path) in files {
            let bytes = std::fs::read(&path).unwrap();
            let mode = if is_executable(&path) { 755 } else { 644 };
            line(format!(
                "file {} {mode} {} {}",
                hex(&Sha256::digest(&bytes)),
                bytes.len(),
                quoted(&rel)
            ));
        }
    }
    hex(&h.finalize())
}

/// Every regular file, minus what packaging drops (the same list as
/// Anthropic's `package_skill.py`) and `.git`.
fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let top_evals = rel == "evals";
        if path.is_dir() {
            if !["__pycache__", "node_modules", ".git"].contains(&name.as_str()) && !top_evals {
                walk(root, &path, out);
            }
        } else if !(name.ends_with(".pyc") || name == ".DS_Store" || name == ".git") {
            out.push((rel, path));
        }
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    false
}

#[test]
fn digest_equals_an_independent_walk() {
    let root = skills_tests::workspace().join("skills");
    assert_eq!(EXAMPLES.digest(), independent_digest(&EXAMPLES, &root));
}

#[test]
fn lookups_and_disclosure_levels() {
    let calc = EXAMPLES.get("calculator").unwrap();
    assert!(EXAMPLES.get("no-such-skill").is_none());
    assert!(EXAMPLES.get("review-plugin:code-review").is_some());
    let act = calc.activate("15 * 23").unwrap();
    assert!(
        act.content
            .starts_with("Base directory for this skill: skill://calculator\n\n# Calculator")
    );
    assert!(act.content.contains("15 * 23"));
    assert!(!act.content.contains("$ARGUMENTS"));
    let tools: Vec<String> = act.allowed_tools.iter().map(ToString::to_string).collect();
    assert_eq!(tools, ["Bash(python3 scripts/calc.py:*)", "Read"]);
    assert!(
        calc.read("scripts/calc.py")
            .unwrap()
            .starts_with(b"#!/usr/bin/env python3")
    );
    assert!(calc.file("scripts/calc.py").unwrap().is_executable());
    assert_eq!(calc.metadata_value("version"), Some("1.0"));
    let catalog = EXAMPLES.catalog();
    assert!(catalog.starts_with("<available_skills>\n<skill>\n<name>\ncalculator\n</name>"));
    assert_eq!(catalog.matches("<skill>").count(), EXAMPLES.len());
}

#[test]
fn reads_outside_the_skill_are_refused() {
    let calc = EXAMPLES.get("calculator").unwrap();
    for bad in [
        "../csv-insights/SKILL.md",
        "/etc/passwd",
        "scripts\\calc.py",
        "a\0b",
        "scripts//calc.py",
        "",
        "C:/x",
    ] {
        assert!(
            matches!(
                calc.read(bad),
                Err(skills_bundle::ReadError::BadPath { .. })
            ),
            "{bad:?}"
        );
    }
    match calc.read("scripts/nope.py") {
        Err(skills_bundle::ReadError::NotFound { available, .. }) => {
            assert_eq!(available, ["SKILL.md", "scripts/calc.py"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        calc.read("./scripts/./calc.py").unwrap(),
        calc.read("scripts/calc.py").unwrap()
    );
}

/// A plan written as a pack by the compiler reads back through the runtime
/// as that plan: the round trip, tested here, above both crates.
mod pack_round_trip {
    use skills_bundle::pack::{MANIFEST_NAME, Pack, Trust};
    use skills_bundle::zip::{Archive, Limits};
    use skills_compiler::embed::{Plan, PlanSkill, compress};
    use skills_compiler::pack::{manifest, write_pack, write_skill_zip};
    use skills_core::meta::{SkillMeta, pairs};
    use skills_core::zip::write::DosTime;

    fn plan() -> Plan {
        let md = "---\nname: demo\ndescription: Use when testing.\n---\nBody $ARGUMENTS\n";
        let mut skills = vec![
            PlanSkill {
                meta: SkillMeta {
                    name: "demo".into(),
                    description: "Use when testing.".into(),
                    license: Some("MIT".into()),
                    metadata: pairs(vec![("k".into(), "v \"quoted\"\n".into())]),
                    allowed_tools: vec![
                        ("Bash".into(), Some("git:*".into())),
                        ("Read".into(), None),
                    ]
                    .into(),
                    skill_md: "SKILL.md".into(),
                    body: (md.len() as u32 - 16, md.len() as u32),
                    ..SkillMeta::default()
                },
                files: vec![
                    compress("SKILL.md", md.as_bytes().to_vec(), false),
                    compress("scripts/run.sh", b"#!/bin/sh\necho hi\n".to_vec(), true),
                    compress(
                        "z.txt",
                        "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz".into(),
                        false,
                    ),
                ],
                ..PlanSkill::default()
            },
            PlanSkill {
                meta: SkillMeta {
                    name: "plug:inner".into(),
                    description: "Use when nested.".into(),
                    skill_md: "SKILL.md".into(),
                    body: (8, 8),
                    ..SkillMeta::default()
                },
                files: vec![compress("SKILL.md", b"---\n---\n".to_vec(), false)],
                ..PlanSkill::default()
            },
        ];
        skills.sort_by(|a, b| a.meta.name.cmp(&b.meta.name));
        let mut plan = Plan {
            skills,
            ..Plan::default()
        };
        plan.digest = manifest(&plan).digest;
        plan
    }

    #[test]
    fn a_pack_reads_back_as_the_plan() {
        let plan = plan();
        let bytes = write_pack(&plan, DosTime::EPOCH).expect("packs");
        let pack = Pack::open(&bytes, Trust::Unsigned).expect("opens");
        let bundle = pack.bundle();
        assert_eq!(bundle.digest(), plan.digest);
        assert_eq!(bundle.len(), 2);
        let demo = bundle.get("demo").expect("present");
        assert_eq!(demo.license(), Some("MIT"));
        assert_eq!(demo.metadata_value("k"), Some("v \"quoted\"\n"));
        assert_eq!(
            demo.read("scripts/run.sh").expect("reads"),
            b"#!/bin/sh\necho hi\n"
        );
        assert!(
            demo.file("scripts/run.sh")
                .expect("present")
                .is_executable()
        );
        assert_eq!(demo.body().expect("body"), "Body $ARGUMENTS\n");
        assert_eq!(
            demo.activate("x").expect("activates").content,
            "Base directory for this skill: skill://demo\n\nBody x\n"
        );
        let inner = bundle.get("plug:inner").expect("present");
        assert_eq!(inner.source_dir(), "plug/skills/inner");
        assert!(bundle.catalog().contains("skill://plug:inner/SKILL.md"));
        assert!(bundle.get("nope").is_none());
        // Entries: the manifest first, then sorted names.
        let archive = Archive::parse(&bytes, &Limits::default()).expect("parses");
        let names: Vec<&str> = archive.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                MANIFEST_NAME,
                "demo/SKILL.md",
                "demo/scripts/run.sh",
                "demo/z.txt",
                "plug/skills/inner/SKILL.md"
            ]
        );
    }

    #[test]
    fn packing_is_a_pure_function_of_plan_and_time() {
        let plan = plan();
        let a = write_pack(&plan, DosTime::EPOCH).expect("packs");
        assert_eq!(a, write_pack(&plan, DosTime::EPOCH).expect("packs"));
        let later = write_pack(&plan, DosTime::from_unix(1_700_000_000)).expect("packs");
        assert_ne!(a, later);
        assert_eq!(a.len(), later.len());
    }

    #[test]
    fn a_skill_archive_wraps_files_in_the_skill_directory() {
        let plan = plan();
        let (bytes, dir) = write_skill_zip(&plan.skills[1], DosTime::EPOCH).expect("zips");
        assert_eq!(dir, "inner");
        let archive = Archive::parse(&bytes, &Limits::default()).expect("parses");
        let names: Vec<&str> = archive.entries().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["inner/SKILL.md"]);
    }

    #[test]
    fn a_plan_whose_digest_disagrees_is_not_packed() {
        let mut plan = plan();
        plan.digest = "0".repeat(64);
        assert!(write_pack(&plan, DosTime::EPOCH).is_err());
    }
}
