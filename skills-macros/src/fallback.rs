//! Diagnostics as compiler output, and the typed empty bundle a failed
//! expansion still produces (so `SKILLS.get("x")` causes no second error).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// `compile_error!(message)` at `span`.
pub(crate) fn error(span: Span, message: &str) -> TokenStream {
    quote_spanned! {span=> ::core::compile_error!{ #message } }
}

/// A warning at `span`, on stable Rust: the use of a deprecated item whose
/// note is the message.
pub(crate) fn warning(span: Span, index: usize, message: &str) -> TokenStream {
    let name = quote::format_ident!("skills_bundle_warning_{}", index, span = span);
    quote_spanned! {span=>
        const _: () = {
            #[deprecated(note = #message)]
            #[allow(non_camel_case_types)]
            struct #name;
            let _ = #name;
        };
    }
}

/// An empty bundle of the right type, after `errors`.
pub(crate) fn empty(
    krate: &TokenStream,
    errors: TokenStream,
    tracking: TokenStream,
) -> TokenStream {
    quote! {
        {
            #errors
            #tracking
            #krate::Bundle::empty()
        }
    }
}
