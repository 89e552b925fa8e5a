//! `skills_bundle!` where `skills-bundle` is the dependency `bundle` and no
//! prelude is in scope: the generated code must name everything by absolute
//! paths through the crate path the macro is given. Compiling this crate is
//! most of the test; `tests` below reads the bundle back.

#![no_implicit_prelude]

/// The one skill of `skills/`, embedded.
pub static SKILLS: ::bundle::Bundle = ::bundle::skills_bundle!("skills", warnings = "deny");

#[cfg(test)]
mod tests {
    use super::SKILLS;
    use ::std::assert_eq;
    use ::std::iter::Iterator;
    use ::std::option::Option::{None, Some};
    use ::std::string::ToString;
    use ::std::vec::Vec;

    #[test]
    fn the_bundle_reads_back_through_the_renamed_crate() {
        assert_eq!(SKILLS.len(), 1);
        assert_eq!(SKILLS.get("nobody").map(|s| s.name().to_string()), None);
        let Some(hello) = SKILLS.get("hello") else {
            ::std::panic!("`hello` is embedded");
        };
        assert_eq!(
            hello.description(),
            "Says hello. Use when greeting someone."
        );
        assert_eq!(hello.license(), Some("MIT"));
        let paths: Vec<&str> = hello.files().map(|f| f.path()).collect();
        assert_eq!(
            paths,
            ["SKILL.md", "agents/openai.yaml", "scripts/hello.sh"]
        );
        assert_eq!(
            hello.read("scripts/hello.sh").map_err(|e| e.to_string()),
            ::std::result::Result::Ok(
                &b"#!/bin/sh\necho hello hello hello hello hello hello hello hello\n"[..]
            )
        );
        assert_eq!(
            hello.body().map_err(|e| e.to_string()).as_deref(),
            ::std::result::Result::Ok("Greet $ARGUMENTS.\n")
        );
        let catalog = SKILLS.catalog();
        assert_eq!(catalog.matches("skill://hello/SKILL.md").count(), 1);
    }
}
