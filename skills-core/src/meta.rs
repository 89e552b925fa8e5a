//! Strings and lists that are either borrowed from the binary or owned.
//!
//! `skills_bundle!` builds its tables as statics (every string a literal,
//! every list a static slice); a pack loaded at run time builds the same
//! tables from its manifest (every string and list owned). [`Str`] and
//! [`List`] hold either, so one set of types, and one implementation of
//! every accessor, serves both.

use std::borrow::Cow;

/// A string: borrowed from a literal, or owned.
pub type Str = Cow<'static, str>;

/// A list: a static slice, or owned.
#[derive(Debug)]
pub enum List<T: 'static> {
    /// Built by `skills_bundle!`.
    Static(&'static [T]),
    /// Built at run time.
    Owned(Box<[T]>),
}

impl<T> std::ops::Deref for List<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            List::Static(items) => items,
            List::Owned(items) => items,
        }
    }
}

impl<T> From<Vec<T>> for List<T> {
    fn from(items: Vec<T>) -> Self {
        List::Owned(items.into_boxed_slice())
    }
}
