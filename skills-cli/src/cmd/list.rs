//! `skb list`: the skills `skb.lock` records, their pins and folders.

use std::io;

use serde_json::json;

use crate::Outcome;
use crate::args::ListArgs;
use crate::installing as session;

/// Runs `skb list`.
pub fn run(args: &ListArgs) -> io::Result<Outcome> {
    let project = session::project(&args.project)?;
    let lock = project.read().map_err(crate::installing::into_io)?;
    let mut lines = Vec::new();
    for s in &lock.skills {
        let trust = match (&s.signer, &s.unsigned) {
            (Some(k), _) => format!(
                "signed by {}{}",
                k.key,
                k.version
                    .as_ref()
                    .map(|v| format!(" (version {v})"))
                    .unwrap_or_default()
            ),
            (None, Some(why)) => format!("unsigned ({why})"),
            (None, None) => "local".to_string(),
        };
        lines.push(format!(
            "{}\t{}\t{}\t{}",
            s.name,
            s.resolved.describe(),
            trust,
            s.installed.join(", ")
        ));
    }
    let json = json!({
        "lock": project.lock_path,
        "skills": lock.skills.iter().map(|s| json!({
            "name": s.name,
            "source": s.source,
            "resolved": s.resolved.describe(),
            "digest": s.digest,
            "signer": s.signer.as_ref().map(|k| json!({"key": k.key, "version": k.version, "timestamp": k.timestamp})),
            "unsigned": s.unsigned,
            "installed": s.installed,
        })).collect::<Vec<_>>(),
    });
    session::print(args.format, &lines, &json)?;
    Ok(Outcome::Success)
}
