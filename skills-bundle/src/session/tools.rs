//! The names of the three function-calling tools a session offers.

/// The tool that activates a skill (loads its instructions).
pub const ACTIVATE: &str = "activate_skill";
/// The tool that reads a file of an activated skill.
pub const READ: &str = "read_skill_resource";
/// The tool that runs a script of an activated skill.
pub const RUN: &str = "run_skill_script";
