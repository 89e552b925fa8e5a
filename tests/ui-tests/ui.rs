//! `skills_bundle!` as a user's compiler shows it: one trybuild case per
//! mistake in `ui/<mistake>.rs`, each with its `.stderr` snapshot (the
//! code, `file:line:col`, snippet and help are the product's interface), and
//! `ui/pass/*.rs` cases that must compile without a warning and run.
//! Each case embeds its own small skill tree under `ui/skills/<case>/`
//! (found through [`skills_ui_tests::link_fixtures`]).
//!
//! After changing the compiler's messages, regenerate the snapshots with
//! `TRYBUILD=overwrite cargo test -p skills-ui-tests --test ui` and read
//! every diff.
//!
//! A crate that depends on `skills-bundle` under another name cannot be a
//! trybuild case: trybuild's crate inherits this crate's `skills-bundle`
//! dev-dependency, and Cargo refuses one package under two names in one
//! crate. skills-tests' `ui::renamed_dependency_compiles` builds such a crate
//! with Cargo instead.

#[test]
fn ui() {
    skills_ui_tests::link_fixtures();
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
