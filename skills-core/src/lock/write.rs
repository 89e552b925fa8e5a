//! The lock's one layout (see the module above).

use std::fmt::Write as _;

use super::model::{Lock, LockedSkill, Resolved, VERSION};
use crate::json::quote;

pub(super) fn to_json(lock: &Lock) -> String {
    let mut o = String::new();
    o.push_str("{\n");
    let _ = writeln!(o, "  \"version\": {VERSION},");
    if lock.skills.is_empty() {
        o.push_str("  \"skills\": {}");
    } else {
        o.push_str("  \"skills\": {\n");
        for (i, skill) in lock.skills.iter().enumerate() {
            skill_json(&mut o, skill);
            o.push_str(if i + 1 < lock.skills.len() {
                ",\n"
            } else {
                "\n"
            });
        }
        o.push_str("  }");
    }
    if !lock.listings.is_empty() {
        o.push_str(",\n  \"listings\": {\n");
        for (i, (digest, lines)) in lock.listings.iter().enumerate() {
            let _ = writeln!(o, "    {}: [", quote(digest));
            for (j, line) in lines.iter().enumerate() {
                let _ = write!(o, "      {}", quote(line));
                o.push_str(if j + 1 < lines.len() { ",\n" } else { "\n" });
            }
            o.push_str("    ]");
            o.push_str(if i + 1 < lock.listings.len() {
                ",\n"
            } else {
                "\n"
            });
        }
        o.push_str("  }");
    }
    o.push_str("\n}\n");
    o
}

fn skill_json(o: &mut String, s: &LockedSkill) {
    let _ = writeln!(o, "    {}: {{", quote(&s.name));
    let _ = writeln!(o, "      \"source\": {},", quote(&s.source));
    if let Some(origin) = &s.origin {
        let _ = writeln!(o, "      \"origin\": {},", quote(origin));
    }
    let _ = writeln!(o, "      \"resolved\": {},", resolved_json(&s.resolved));
    let _ = writeln!(o, "      \"digest\": {},", quote(&s.digest));
    if let Some(signer) = &s.signer {
        let mut fields = vec![format!("\"key\": {}", quote(&signer.key))];
        if let Some(d) = &signer.digest {
            fields.push(format!("\"digest\": {}", quote(d)));
        }
        if let Some(v) = &signer.version {
            fields.push(format!("\"version\": {}", quote(v)));
        }
        if let Some(t) = signer.timestamp {
            fields.push(format!("\"timestamp\": {t}"));
        }
        if let Some(git) = &signer.git {
            let mut inner = vec![
                format!("\"kind\": {}", quote(&git.kind)),
                format!("\"commit\": {}", quote(&git.commit)),
            ];
            if let (Some(tag), Some(object)) = (&git.tag, &git.tag_object) {
                inner.push(format!("\"tag\": {}", quote(tag)));
                inner.push(format!("\"tag_object\": {}", quote(object)));
            }
            fields.push(format!("\"git\": {{ {} }}", inner.join(", ")));
        }
        if let Some(s) = &signer.sigstore {
            fields.push(format!(
                "\"sigstore\": {{ \"identity\": {}, \"issuer\": {}, \"log_index\": {}, \"integrated_time\": {}, \"bundle\": {} }}",
                quote(&s.identity),
                quote(&s.issuer),
                s.log_index,
                s.integrated_time,
                quote(&s.bundle)
            ));
        }
        match &signer.signature {
            None => {
                let _ = writeln!(o, "      \"signer\": {{ {} }},", fields.join(", "));
            }
            Some(sig) => {
                let _ = writeln!(o, "      \"signer\": {{ {},", fields.join(", "));
                let _ = writeln!(
                    o,
                    "        \"signature\": {{ \"line\": {}, \"comment\": {}, \"global\": {} }} }},",
                    quote(&sig.line),
                    quote(&sig.comment),
                    quote(&sig.global)
                );
            }
        }
    }
    if let Some(why) = &s.unsigned {
        let _ = writeln!(o, "      \"unsigned\": {},", quote(why));
    }
    if let Some(profile) = &s.profile {
        let _ = writeln!(o, "      \"profile\": {},", quote(profile));
    }
    if let Some(scan) = &s.scan {
        let counts: Vec<String> = scan
            .findings
            .by_name()
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(severity, n)| format!("\"{severity}\": {n}"))
            .collect();
        let counts = if counts.is_empty() {
            "{}".to_string()
        } else {
            format!("{{ {} }}", counts.join(", "))
        };
        let allowed: Vec<String> = scan.allowed.iter().map(|a| quote(a)).collect();
        let _ = writeln!(
            o,
            "      \"scan\": {{ \"engine\": {}, \"fail_on\": {}, \"findings\": {counts}, \"allowed\": [{}] }},",
            quote(&scan.engine),
            quote(&scan.fail_on),
            allowed.join(", ")
        );
    }
    if !s.accepted.is_empty() {
        let accepted: Vec<String> = s.accepted.iter().map(|a| quote(a)).collect();
        let _ = writeln!(o, "      \"accepted\": [{}],", accepted.join(", "));
    }
    let installed: Vec<String> = s.installed.iter().map(|p| quote(p)).collect();
    let _ = writeln!(o, "      \"installed\": [{}],", installed.join(", "));
    if s.files.is_empty() {
        o.push_str("      \"files\": {}\n");
    } else {
        o.push_str("      \"files\": {\n");
        for (i, f) in s.files.iter().enumerate() {
            let exec = if f.executable {
                ", \"executable\": true"
            } else {
                ""
            };
            let _ = write!(
                o,
                "        {}: {{ \"size\": {}, \"sha256\": {}{exec} }}",
                quote(&f.path),
                f.size,
                quote(&f.sha256)
            );
            o.push_str(if i + 1 < s.files.len() { ",\n" } else { "\n" });
        }
        o.push_str("      }\n");
    }
    o.push_str("    }");
}

fn resolved_json(r: &Resolved) -> String {
    let mut fields = vec![("type", quote(r.kind()))];
    let opt = |v: &Option<String>| v.as_deref().map(quote);
    match r {
        Resolved::Folder { path } => fields.push(("path", quote(path))),
        Resolved::File { path, sha256 } => {
            fields.push(("path", quote(path)));
            fields.push(("sha256", quote(sha256)));
        }
        Resolved::Url { url, sha256 } => {
            fields.push(("url", quote(url)));
            fields.push(("sha256", quote(sha256)));
        }
        Resolved::Git { url, commit, path } => {
            fields.push(("url", quote(url)));
            fields.push(("commit", quote(commit)));
            if let Some(p) = opt(path) {
                fields.push(("path", p));
            }
        }
        Resolved::Index {
            url,
            entry,
            version,
            sha256,
        } => {
            fields.push(("url", quote(url)));
            fields.push(("entry", quote(entry)));
            if let Some(v) = opt(version) {
                fields.push(("version", v));
            }
            fields.push(("sha256", quote(sha256)));
        }
        Resolved::Oci {
            reference,
            tag,
            digest,
        } => {
            fields.push(("reference", quote(reference)));
            if let Some(t) = opt(tag) {
                fields.push(("tag", t));
            }
            fields.push(("digest", quote(digest)));
        }
    }
    let inner: Vec<String> = fields
        .into_iter()
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    format!("{{ {} }}", inner.join(", "))
}
