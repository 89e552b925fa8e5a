//! Fuzzes the `SKILL.md` reader: the frontmatter split, the YAML builder,
//! every rule and lint under both profiles, the rendering of every
//! diagnostic, and `read-properties`, as `skb validate` runs them on a
//! file anyone may have written.
//!
//! Any input must give diagnostics, never a panic, a hang or unbounded
//! memory; every label must lie inside the file on character boundaries,
//! with its line and column agreeing with its byte offset.

#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use skills_compiler::{self as compiler, Options, Profile, properties, render};

/// One skill directory reused by every run (a fresh one per input would
/// make the file system the bottleneck).
fn skill_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir()
            .join(format!("skills-fuzz-{}", std::process::id()))
            .join("fuzz-skill");
        std::fs::create_dir_all(&dir).expect("create the fuzz skill directory");
        dir
    })
}

fuzz_target!(|bytes: &[u8]| {
    let dir = skill_dir();
    std::fs::write(dir.join("SKILL.md"), bytes).expect("write SKILL.md");
    for profile in Profile::ALL {
        let options = Options {
            profile,
            threads: 1,
            ..Options::default()
        };
        let checked = compiler::check_dir(dir, &options);
        for d in &checked.diagnostics {
            let _ = render::diagnostic(d, false);
            let Some(label) = &d.label else { continue };
            assert!(
                label.bytes.start <= label.bytes.end && label.bytes.end <= bytes.len(),
                "{d}: {:?} outside 0..{}",
                label.bytes,
                bytes.len()
            );
            if let (Ok(text), Some(source)) = (std::str::from_utf8(bytes), &checked.source) {
                assert!(
                    text.is_char_boundary(label.bytes.start)
                        && text.is_char_boundary(label.bytes.end),
                    "{d}: {:?} splits a character",
                    label.bytes
                );
                assert_eq!(source.line_col(label.bytes.start), label.start, "{d}");
            }
        }
    }
    if let Ok(props) = properties::read_properties(dir) {
        let _ = props.to_json();
    }
});
