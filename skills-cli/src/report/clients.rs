//! What each client makes of each skill, for the JSON and human reports:
//! listed (with the entry line its model sees), not listed, or rejected,
//! and why, from `skills_compiler::client`.
//!
//! JSON: every skill gets `"clients": {"claude-code": {...}, "codex":
//! {...}}`, each `{"outcome": "listed" | "not-listed" | "rejected" |
//! "unknown", "entry":
//! line or null, "why": text or null, "notes": [{"code", "slug",
//! "message"}]}`. Human: one `note:` line for each skill the clients treat
//! differently (listed by one, not by the other).

use skills_compiler::client::{self, Client, Outcome, Reading};
use skills_compiler::{self as compiler};

use super::human::path_string;
use super::json::{Ordered, object, val};

/// How each client reads one skill, in [`Client::ALL`] order.
pub type Clients = Vec<(Client, Reading)>;

/// Every client's reading of every skill of `result`, in order (each
/// client reads the skills as one listing), on up to `threads` threads.
pub fn readings(result: &compiler::Checked, threads: usize) -> Vec<Clients> {
    client::all_readings(&result.skills, threads)
}

fn outcome_name(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Listed(_) => "listed",
        Outcome::NotListed { .. } => "not-listed",
        Outcome::Rejected { .. } => "rejected",
        Outcome::Unknown { .. } => "unknown",
    }
}

/// The `clients` object of one skill.
pub(super) fn json(clients: &[(Client, Reading)]) -> Ordered {
    Ordered::Object(
        clients
            .iter()
            .map(|(c, r)| {
                let (entry, why) = match &r.outcome {
                    Outcome::Listed(l) => (Some(l.line()), None),
                    Outcome::NotListed { why }
                    | Outcome::Rejected { why }
                    | Outcome::Unknown { why } => (None, Some(why.as_str())),
                };
                let notes = r
                    .notes
                    .iter()
                    .map(|n| {
                        object([
                            ("code", val(n.code.as_str())),
                            ("slug", val(n.code.slug())),
                            ("message", val(n.message.as_str())),
                        ])
                    })
                    .collect();
                let view = object([
                    ("outcome", val(outcome_name(&r.outcome))),
                    ("entry", val(entry)),
                    ("why", val(why)),
                    ("notes", Ordered::Array(notes)),
                ]);
                (c.as_str(), view)
            })
            .collect(),
    )
}

fn says(c: Client, r: &Reading) -> String {
    let who = c.title();
    match &r.outcome {
        Outcome::Listed(l) => format!("{who} lists `{}`", l.line()),
        Outcome::NotListed { why } => format!("{who} does not list it ({why})"),
        Outcome::Rejected { why } => format!("{who} rejects it ({why})"),
        Outcome::Unknown { why } => format!("what {who} makes of it is not known ({why})"),
    }
}

/// A `note:` line when the clients disagree on whether `dir` is listed, or
/// when what one of them does is not known (past a bound of this tool).
pub fn difference(dir: &std::path::Path, clients: &[(Client, Reading)]) -> Option<String> {
    let listed = |r: &Reading| r.outcome.listed().is_some();
    let first = clients.first()?;
    let unknown: Vec<String> = clients
        .iter()
        .filter(|(_, r)| matches!(r.outcome, Outcome::Unknown { .. }))
        .map(|(c, r)| says(*c, r))
        .collect();
    if !unknown.is_empty() {
        return Some(format!(
            "note: on `{}`: {}",
            path_string(dir),
            unknown.join("; ")
        ));
    }
    if clients.iter().all(|(_, r)| listed(r) == listed(&first.1)) {
        return None;
    }
    let said: Vec<String> = clients.iter().map(|(c, r)| says(*c, r)).collect();
    Some(format!(
        "note: clients differ on `{}`: {}",
        path_string(dir),
        said.join("; ")
    ))
}
