//! The `skills_bundle!` procedural macro.
//!
//! Use it through `skills-bundle`, which wraps it so that generated code can
//! name `skills-bundle` by `$crate` (the crate may be renamed). This crate is
//! glue: [`input`] reads the arguments, [`expand`] runs the compiler core and
//! turns its plan into tokens, [`fallback`] turns diagnostics into
//! `compile_error!`s and warnings.
//!
//! The compiler core is `skills-bundle`'s own `compiler` module, compiled in
//! from its source files below: a proc-macro cannot depend on the crate that
//! re-exports it (Cargo rejects the cycle), and two implementations of a rule
//! are not an option. The CLI links the same files through the `compiler`
//! feature of `skills-bundle`.

mod expand;
mod fallback;
mod input;

// The macro uses part of the compiler's API; the rest is exercised by
// `skills-bundle`'s own tests and by the CLI.
#[allow(dead_code, unused_imports)]
#[path = "../../skills-bundle/src/compiler/mod.rs"]
mod compiler;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/catalog.rs"]
mod catalog;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/digest.rs"]
mod digest;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/tools.rs"]
mod tools;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/fsread.rs"]
mod fsread;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/json.rs"]
mod json;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/path.rs"]
mod path;

#[path = "../../skills-bundle/src/pyrepr.rs"]
mod pyrepr;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/zip.rs"]
mod zip;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/pack/manifest.rs"]
mod pack_manifest;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/pack/signature.rs"]
mod pack_signature;

#[allow(dead_code)]
#[path = "../../skills-bundle/src/pack/open.rs"]
mod pack_open;

/// The parts of `skills-bundle`'s `pack` module that check a pack without
/// building a runtime `Bundle`: manifest, signature, and the opening checks.
mod pack {
    pub use crate::pack_manifest::*;
    pub(crate) use crate::pack_open::open_with;
    pub use crate::pack_open::{MAX_PACK_FILE, Trust};
    pub(crate) use crate::pack_signature as signature;
}

/// See `skills_bundle::skills_bundle!`.
#[proc_macro]
pub fn skills_bundle(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand::expand(input.into()).into()
}
