//! The acceptance tier's one switch: `SKILLS_ACCEPTANCE=1` in the
//! environment of the build sets `cfg(skills_acceptance)` for this crate's
//! macros, and Cargo rebuilds them (and the test targets that use them,
//! nothing else: every user of this crate is a dev-dependent) when the
//! variable changes.

fn main() {
    println!("cargo::rerun-if-env-changed=SKILLS_ACCEPTANCE");
    println!("cargo::rustc-check-cfg=cfg(skills_acceptance)");
    match std::env::var("SKILLS_ACCEPTANCE").as_deref() {
        Ok("1") => println!("cargo::rustc-cfg=skills_acceptance"),
        Ok("" | "0") | Err(std::env::VarError::NotPresent) => {}
        Ok(other) => panic!(
            "SKILLS_ACCEPTANCE={other:?}: set it to 1 (the acceptance tier) or leave it unset"
        ),
        Err(std::env::VarError::NotUnicode(_)) => {
            panic!("SKILLS_ACCEPTANCE is not UTF-8: set it to 1 or leave it unset")
        }
    }
}
