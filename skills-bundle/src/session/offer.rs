//! Which skills a session offers the model: every skill the model may
//! invoke ([`Invocation::model`]), the `paths`-scoped ones only once the
//! session has been told of a matching path.
//!
//! The invocation record of every skill is read once, when the session is
//! made; [`Offer::touch`] unlocks the `paths`-scoped skills a path
//! concerns. The catalog of the offered skills is cut from the bundle's
//! precomputed block (each entry's span), so hiding skills renders nothing
//! again, and a budget applies to what is offered.

use std::borrow::Cow;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::Bundle;
use crate::invocation::Invocation;
use skills_core::catalog::{self, Span};

/// What the model is offered; see the module documentation.
#[derive(Debug)]
pub(super) struct Offer {
    /// Per skill, in bundle order.
    invocations: Vec<Invocation>,
    /// Per skill: a `paths`-scoped skill a touched path matched.
    unlocked: Mutex<Vec<bool>>,
}

impl Offer {
    pub(super) fn new(bundle: &Bundle) -> Offer {
        let invocations: Vec<Invocation> = bundle.skills().map(|s| s.invocation()).collect();
        let unlocked = Mutex::new(vec![false; invocations.len()]);
        Offer {
            invocations,
            unlocked,
        }
    }

    fn unlocked(&self) -> MutexGuard<'_, Vec<bool>> {
        self.unlocked.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The invocation record of the skill at `index`.
    pub(super) fn invocation(&self, index: usize) -> Option<&Invocation> {
        self.invocations.get(index)
    }

    /// Per skill, whether the model is offered it now.
    pub(super) fn mask(&self) -> Vec<bool> {
        let unlocked = self.unlocked();
        self.invocations
            .iter()
            .zip(unlocked.iter())
            .map(|(i, open)| i.model && (i.paths.is_empty() || *open))
            .collect()
    }

    /// Unlocks the `paths`-scoped skills `path` concerns: the indexes of
    /// those offered from now on (model-invocable, not unlocked before).
    pub(super) fn touch(&self, path: &str) -> Vec<usize> {
        let mut unlocked = self.unlocked();
        let mut opened = Vec::new();
        for (index, (invocation, open)) in
            self.invocations.iter().zip(unlocked.iter_mut()).enumerate()
        {
            if !*open && !invocation.paths.is_empty() && invocation.concerns(path) {
                *open = true;
                if invocation.model {
                    opened.push(index);
                }
            }
        }
        opened
    }
}

/// The catalog of the skills `mask` keeps, within `budget` characters when
/// one is given ([`catalog::within`]): the bundle's own block, borrowed,
/// when every skill is kept and it fits.
pub(super) fn catalog<'b>(
    bundle: &'b Bundle,
    mask: &[bool],
    budget: Option<usize>,
) -> Cow<'b, str> {
    let (block, chars, spans) = bundle.catalog_parts();
    let budget = budget.unwrap_or(usize::MAX);
    if mask.iter().all(|keep| *keep) {
        return catalog::within(block, chars, spans, budget);
    }
    let (Some(first), Some(last)) = (spans.first(), spans.last()) else {
        return catalog::within(block, chars, spans, budget);
    };
    let head = block.get(..first.start).unwrap_or_default();
    let tail = block.get(last.end..).unwrap_or_default();
    let mut out = String::with_capacity(block.len());
    let mut kept = Vec::new();
    let mut kept_chars = head.chars().count() + tail.chars().count();
    out.push_str(head);
    for (span, _) in spans.iter().zip(mask).filter(|(_, keep)| **keep) {
        let shift = |at: usize| at.saturating_sub(span.start) + out.len();
        kept.push(Span {
            start: out.len(),
            description: shift(span.description),
            description_end: shift(span.description_end),
            end: shift(span.end),
            ..*span
        });
        kept_chars += span.chars;
        out.push_str(block.get(span.start..span.end).unwrap_or_default());
    }
    out.push_str(tail);
    Cow::Owned(catalog::within(&out, kept_chars, &kept, budget).into_owned())
}
