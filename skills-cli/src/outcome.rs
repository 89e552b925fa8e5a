//! What a subcommand found, and so the exit status.

/// What a subcommand found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything checked is valid.
    Success,
    /// The input has errors (exit 1).
    Invalid,
    /// A usage error already reported in its own words (exit 2).
    Usage,
    /// A status of its own (`skb run` passes its command's through).
    Code(u8),
}
