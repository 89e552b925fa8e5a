//! What each client makes of each skill, for the JSON and human reports:
//! listed (with the entry line its model sees), not listed, or rejected,
//! and why, from `skills_compiler::client`.
//!
//! JSON: every skill gets `"clients": {"claude-code": {...}, "codex":
//! {...}}`, each `{"outcome": "listed" | "not-listed" | "rejected" |
//! "unknown", "entry":
//! line or null, "why": text or null, "notes": [{"code", "slug",
//! "message"}]}`, and `"differences": [...]`, where the clients that see it
//! differ ([`differences_json`]). Human: a `note:` line where what a client
//! makes of a skill is not known, and one for each client that does not
//! read the folder the skill is in.

use skills_compiler::client::differences::{Control, Difference, Differences};
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

/// The `note:` lines of one skill: what a client makes of it that is not
/// known (past a bound of this tool), and each client that does not read
/// the folder the skill is in. Where the clients that see it differ is
/// said by warnings (`SK491`-`SK493`), not here.
pub fn notes(
    dir: &std::path::Path,
    clients: &[(Client, Reading)],
    differences: Option<&Differences>,
) -> Vec<String> {
    let mut lines = Vec::new();
    let unknown: Vec<String> = clients
        .iter()
        .filter(|(_, r)| matches!(r.outcome, Outcome::Unknown { .. }))
        .map(|(c, r)| says(*c, r))
        .collect();
    if !unknown.is_empty() {
        lines.push(format!(
            "note: on `{}`: {}",
            path_string(dir),
            unknown.join("; ")
        ));
    }
    // One line per reason, naming every client it keeps away.
    let unseen = differences.map_or(&[][..], |d| &d.unseen);
    let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
    for (client, why) in unseen {
        match reasons.iter_mut().find(|(w, _)| w == why) {
            Some((_, clients)) => clients.push(client.title()),
            None => reasons.push((why, vec![client.title()])),
        }
    }
    for (why, clients) in reasons {
        let who = match clients.as_slice() {
            [rest @ .., last] if !rest.is_empty() => format!("{} and {last} do", rest.join(", ")),
            _ => format!("{} does", clients.join("")),
        };
        lines.push(format!(
            "note: on `{}`: {who} not read it: {why}",
            path_string(dir)
        ));
    }
    lines
}

/// The `differences` array of one skill: each difference with its code,
/// kind, message and help, and the clients it is about.
pub(super) fn differences_json(differences: Option<&Differences>) -> Ordered {
    let items = differences.map_or(&[][..], |d| &d.differences);
    Ordered::Array(items.iter().map(difference_json).collect())
}

fn clients_json(clients: &[Client]) -> Ordered {
    Ordered::Array(clients.iter().map(|c| val(c.as_str())).collect())
}

fn controls_json(controls: &[(Client, Control)]) -> Ordered {
    Ordered::Array(
        controls
            .iter()
            .map(|(c, k)| object([("client", val(c.as_str())), ("control", val(k.key()))]))
            .collect(),
    )
}

fn difference_json(d: &Difference) -> Ordered {
    let code = d.code();
    let mut fields = vec![
        ("code", val(code.as_str())),
        ("slug", val(code.slug())),
        ("kind", val(d.kind())),
        ("message", val(d.message())),
        ("help", val(d.help())),
    ];
    match d {
        Difference::Listing { listed, not_listed } => {
            fields.push(("listed", clients_json(listed)));
            let not = not_listed
                .iter()
                .map(|n| {
                    object([
                        ("client", val(n.client.as_str())),
                        (
                            "outcome",
                            val(if n.rejected { "rejected" } else { "not-listed" }),
                        ),
                        ("why", val(n.why.as_str())),
                    ])
                })
                .collect();
            fields.push(("not_listed", Ordered::Array(not)));
        }
        Difference::Name { names } => {
            let names = names
                .iter()
                .map(|n| {
                    object([
                        ("client", val(n.client.as_str())),
                        ("name", val(n.name.as_str())),
                        ("alias", val(n.alias.as_deref())),
                    ])
                })
                .collect();
            fields.push(("names", Ordered::Array(names)));
        }
        Difference::Control { obeyed, ignored_by } => {
            fields.push(("obeyed", controls_json(obeyed)));
            fields.push(("ignored_by", clients_json(ignored_by)));
            fields.push(("fixes", controls_json(&d.fixes())));
        }
    }
    Ordered::Object(fields)
}
