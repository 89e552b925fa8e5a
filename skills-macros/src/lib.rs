//! The `skills_bundle!` procedural macro.
//!
//! Use it through `skills-bundle`, which wraps it so that generated code can
//! name `skills-bundle` by `$crate` (the crate may be renamed). This crate is
//! glue: `input` reads the arguments, `expand` runs the compiler and puts
//! each diagnostic on the literal it came from, `fallback` turns
//! diagnostics into `compile_error!`s and warnings.
//!
//! The work is done by `skills-compiler` (the same library the `skb` CLI
//! links, so both report the same diagnostics): checking, planning, the
//! pack path (`embed::from_pack`), and printing the plan as tokens
//! (`codegen`, an ordinary library tested on its whole output).

#![deny(missing_docs)]
#![deny(unreachable_pub)]

mod expand;
mod fallback;
mod input;

/// See `skills_bundle::skills_bundle!`.
#[proc_macro]
pub fn skills_bundle(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand::expand(input.into()).into()
}
