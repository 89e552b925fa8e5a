//! Helpers for a crate's build script.
//!
//! `skills_bundle!` makes the compiler rebuild the crate when a bundled file
//! changes (each file is `include_bytes!`ed into an unused constant), but
//! Rust cannot watch a directory from a macro, so adding or deleting a file
//! would go unnoticed. One line in `build.rs` fixes that. A build script
//! links only the crate's build-dependencies, so skills-bundle is listed
//! there as well (`cargo add --build skills-bundle`):
//!
//! ```toml
//! [dependencies]
//! skills-bundle = "0.1"
//!
//! [build-dependencies]
//! skills-bundle = "0.1"
//! ```
//!
//! ```text
//! // build.rs
//! fn main() {
//!     skills_bundle::build::watch("skills");
//! }
//! ```

/// Tells Cargo to rerun the build script, and so rebuild the crate, when
/// anything under `path` (relative to the crate root) is added, removed or
/// changed.
pub fn watch(path: &str) {
    println!("cargo::rerun-if-changed={path}");
}
