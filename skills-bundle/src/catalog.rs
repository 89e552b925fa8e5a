//! The dialects the `<available_skills>` catalog is rendered in
//! ([`Bundle::catalog_style`](crate::Bundle::catalog_style)).

pub use skills_core::catalog::Style;
/// The clients whose catalogs [`Style`] renders ([`Style::of`],
/// [`Style::client`]).
pub use skills_core::client::Client;

// What `skills_bundle!`'s tables lay the catalog out with; not part of the
// API.
#[doc(hidden)]
pub use skills_core::catalog::Span;
pub(crate) use skills_core::catalog::{Entry, location, render_style, within};
