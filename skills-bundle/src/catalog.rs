//! The dialects the `<available_skills>` catalog is rendered in
//! ([`Bundle::catalog_style`](crate::Bundle::catalog_style)).

pub use skills_core::catalog::Style;

// What `skills_bundle!`'s tables and `Bundle::from_pack` lay the catalog out
// with; not part of the API.
#[doc(hidden)]
pub use skills_core::catalog::Span;
pub(crate) use skills_core::catalog::{
    Entry, layout_embedded, location, render_embedded, render_style, within,
};
