//! The code generator of `skills_bundle!`, as an ordinary library: an
//! [`embed::Plan`](crate::embed::Plan) in, `proc_macro2` tokens out.
//!
//! The plan already holds every table the runtime reads (catalog, its
//! layout, the perfect-hash tables of names and paths), so this module only
//! prints: [`bundle`] the statics behind a `Bundle`, [`track`] the
//! `include_bytes!` that make Cargo rebuild when a read file changes, and
//! [`error_text`] a diagnostic as the text of a compile error. Generated
//! code names only `<krate>::__private::…` and `<krate>::Bundle` (`krate`
//! is the path the caller's `$crate` gave, so `skills-bundle` may be
//! renamed), sits in the block the caller opens, and keeps bytes as
//! byte-string literals (an array literal of a megabyte costs seconds and
//! gigabytes in rustc).
//!
//! Behind the `codegen` feature, which only `skills-macros` enables.

mod tables;

use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::quote;

use crate::Diagnostic;

pub use tables::bundle;

/// `const _: &[u8] = include_bytes!(..)` for every file: the compiler then
/// rebuilds the crate when one changes, and no byte reaches the binary.
/// Paths that are not UTF-8 cannot be written as literals and are skipped.
pub fn track(paths: &[PathBuf]) -> TokenStream {
    paths
        .iter()
        .filter_map(|p| p.to_str())
        .map(|p| quote! { const _: &[u8] = ::core::include_bytes!(#p); })
        .collect()
}

/// `d` as the embedding crate shows it: paths relative to `base`
/// ([`embed::relabel`](crate::embed::relabel)).
pub fn relative(d: &Diagnostic, base: &Path) -> Diagnostic {
    let mut d = d.clone();
    crate::embed::relabel(&mut d, base, Path::new(""));
    d
}

/// The compile-error text of a diagnostic: the message and code, then the
/// location and source snippet as `skb validate` prints them.
pub fn error_text(d: &Diagnostic) -> String {
    let rendered = crate::render::diagnostic(d, false);
    let rest: Vec<&str> = rendered.lines().skip(1).collect();
    format!(
        "{} [{} {}]\n{}",
        d.message,
        d.code,
        d.code.slug(),
        rest.join("\n").trim_end()
    )
}

#[cfg(test)]
mod tests;
