//! What an operation tells its caller while it works: transfers' progress,
//! the validator's diagnostics, and notes a person should read (what a
//! client would do differently, a finding accepted, a backup kept). The
//! library prints nothing; the caller's [`Observer`] decides.

use std::fmt;
use std::path::Path;

use skills_compiler::Checked;

use crate::input::Inputs;

/// Receives an operation's [`Event`]s, in order, on the calling thread.
pub trait Observer {
    /// One event.
    fn event(&self, event: Event<'_>);
}

/// An observer that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl Observer for Quiet {
    fn event(&self, _: Event<'_>) {}
}

/// Something an operation reports while it works.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// Another process holds the project's guard; this one waits for it.
    Waiting {
        /// The project.
        project: &'a Path,
    },
    /// `done` bytes of `total` (when known) of `url` have arrived.
    Transfer {
        /// What is downloaded.
        url: &'a str,
        /// Bytes so far (a new try starts again from 0).
        done: u64,
        /// The announced size.
        total: Option<u64>,
    },
    /// A transfer ended.
    TransferDone {
        /// What was downloaded.
        url: &'a str,
    },
    /// The validator's verdict on fetched skills, with the inputs that say
    /// how to label temporary paths ([`Inputs::relabel`]): render its
    /// diagnostics. `failed` says whether it stops the operation.
    Checked {
        /// The verdict.
        checked: &'a Checked,
        /// Where the checked folders came from.
        inputs: &'a Inputs,
        /// Whether it has errors (or warnings refused as errors).
        failed: bool,
        /// How long the check took.
        elapsed: std::time::Duration,
    },
    /// A note for the person running the operation.
    Note(Note),
}

/// A note for the person running an operation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// What a client would do differently with a skill
    /// ([`crate::clients::notes`]).
    Client {
        /// The client's id.
        client: &'static str,
        /// The skill.
        skill: String,
        /// What it would do.
        note: String,
    },
    /// A security finding at or above the gate was accepted.
    Accepted {
        /// The skill.
        skill: String,
        /// The finding, as a refusal would name it.
        finding: String,
    },
    /// Findings below the gate, not refusing.
    BelowGate {
        /// The skill.
        skill: String,
        /// How many.
        count: usize,
        /// The gate.
        gate: &'static str,
    },
    /// A marker in the skill tried to silence findings; the gate ignored it.
    Marker {
        /// The skill.
        skill: String,
        /// What the marker said, and where.
        marker: String,
    },
    /// A replaced or removed folder with local edits was kept.
    Kept {
        /// The folder.
        folder: String,
        /// Where it was kept.
        backup: String,
    },
    /// An interrupted operation was finished or undone before this one.
    Recovered {
        /// What was done.
        what: String,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Client {
                client,
                skill,
                note,
            } => write!(f, "{client}: skill `{skill}` {note}"),
            Note::Accepted { skill, finding } => {
                write!(f, "skill `{skill}`: accepted {finding}")
            }
            Note::BelowGate { skill, count, gate } => write!(
                f,
                "skill `{skill}`: the security scan reported {count} finding{} below the gate ({gate}); `skb scan` lists them",
                if *count == 1 { "" } else { "s" }
            ),
            Note::Marker { skill, marker } => write!(
                f,
                "skill `{skill}`: {marker}: a marker in the skill being installed does not lower the gate"
            ),
            Note::Kept { folder, backup } => write!(f, "kept the replaced {folder} in {backup}"),
            Note::Recovered { what } => f.write_str(what),
        }
    }
}
