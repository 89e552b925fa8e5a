//! Where shell text was found, which changes how it runs.

/// Where the shell text was found, which changes how it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A script file or a code block: run when the agent follows the skill.
    Code,
    /// An inline code span in prose.
    Inline,
    /// Claude Code's `` !`command` ``: run while the skill loads, before the
    /// model or the user reads it.
    Context,
}
