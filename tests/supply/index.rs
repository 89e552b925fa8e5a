//! The well-known index end to end: published into a folder, served by a
//! real HTTP server on 127.0.0.1, read back and verified; and an index
//! whose digest lies.

use std::collections::BTreeMap;
use std::path::Path;

use skills_core::zip::write::{DosTime, ZipWriter};
use skills_core::zip::{Archive, Limits};
use skills_supply::http::HttpOptions;
use skills_supply::index::{
    self, EntryKind, IndexError, Publication, SCHEMA, digest_of, entry_url, fetch_entry,
    fetch_index, index_url, publish,
};

use crate::http_server::Server;

/// A `.skill`-style zip: the skill's folder, `SKILL.md` at the root.
fn skill_zip(name: &str, body: &str) -> Vec<u8> {
    let mut zip = ZipWriter::new(DosTime::EPOCH);
    let md = format!("---\nname: {name}\ndescription: The {name} skill.\n---\n{body}\n");
    zip.add("SKILL.md", md.as_bytes(), false).expect("SKILL.md");
    zip.add("scripts/run.sh", b"#!/bin/sh\necho hi\n", true)
        .expect("script");
    zip.finish()
}

fn publication(name: &str, version: &str, body: &str) -> Publication {
    Publication {
        name: name.into(),
        description: format!("The {name} skill."),
        version: version.into(),
        archive: skill_zip(name, body),
        signature: Some(format!("untrusted comment: {name} {version}\nRWQ...\n")),
    }
}

/// Every file under `root` with its bytes, by relative path.
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(root).expect("under root");
                let bytes = std::fs::read(&path).expect("read");
                files.insert(rel.to_string_lossy().replace('\\', "/"), bytes);
            }
        }
    }
    files
}

fn opts() -> HttpOptions {
    HttpOptions {
        retries: 0,
        ..HttpOptions::default()
    }
}

fn no_progress() -> impl FnMut(u64, Option<u64>) {
    |_, _| {}
}

#[test]
fn a_published_index_is_served_read_and_verified() {
    let site = tempfile::tempdir().expect("temp dir");
    let items = [
        publication("pdf", "1.0.0", "v1"),
        publication("csv-tools", "0.3.1", "c"),
    ];
    let report = publish(site.path(), None, &items).map_err(|e| e.to_string());
    let report = report.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.written.len(), 7, "{:?}", report.written);
    let server = Server::files(site.path());
    let url = index_url(&server.url(""));
    assert_eq!(url, server.url("/.well-known/agent-skills/index.json"));
    let index = fetch_index(&url, &opts(), &mut no_progress()).map_err(|e| e.to_string());
    let index = index.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(index.schema, SCHEMA);
    assert_eq!(index, report.index);
    let names: Vec<&str> = index.skills.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["csv-tools", "pdf"], "sorted by name");
    for (entry, item) in index.skills.iter().zip([&items[1], &items[0]]) {
        assert_eq!(entry.kind, EntryKind::Archive);
        assert_eq!(entry.version.as_deref(), Some(item.version.as_str()));
        assert_eq!(entry.digest, digest_of(&item.archive));
        let bytes =
            fetch_entry(&url, entry, &opts(), &mut no_progress()).map_err(|e| e.to_string());
        assert_eq!(bytes.as_ref(), Ok(&item.archive));
        let archive = Archive::parse(&item.archive, &Limits::default()).expect("zip");
        assert!(archive.find("SKILL.md").is_some());
        // The signature sits beside the archive.
        let artifact = entry_url(&url, entry)
            .map_err(|e| e.to_string())
            .expect("url");
        let sig = skills_supply::http::get(
            &format!("{artifact}{}", index::SIGNATURE_SUFFIX),
            &opts(),
            &mut no_progress(),
        );
        assert_eq!(
            sig.ok(),
            item.signature.as_ref().map(|s| s.as_bytes().to_vec())
        );
    }
    // The JSON is laid out for diffs: schema order, two spaces, a newline.
    let text = std::fs::read_to_string(site.path().join(".well-known/agent-skills/index.json"))
        .expect("index");
    assert!(text.starts_with("{\n  \"$schema\": "), "{text}");
    assert!(text.ends_with("}\n"));
    assert!(text.find("\"name\"") < text.find("\"type\""));
}

#[test]
fn a_new_version_leaves_the_old_one_served_unchanged() {
    let site = tempfile::tempdir().expect("temp dir");
    let v1 = publication("pdf", "1.0.0", "first");
    publish(site.path(), None, std::slice::from_ref(&v1)).expect("publish v1");
    let before = tree(site.path());
    let v2 = publication("pdf", "1.10.0", "second");
    let report = publish(site.path(), None, std::slice::from_ref(&v2)).expect("publish v2");
    let after = tree(site.path());
    for (path, bytes) in &before {
        if !path.ends_with("agent-skills/index.json") {
            assert_eq!(after.get(path), Some(bytes), "{path} changed");
        }
    }
    let server = Server::files(site.path());
    let url = index_url(&server.url("/"));
    let index = fetch_index(&url, &opts(), &mut no_progress()).expect("index");
    assert_eq!(index.skills.len(), 1);
    let latest = &index.skills[0];
    assert_eq!(latest.version.as_deref(), Some("1.10.0"));
    assert_eq!(latest.url, "pdf/1.10.0/pdf.zip");
    assert_eq!(index, report.index);
    let got = fetch_entry(&url, latest, &opts(), &mut no_progress()).expect("v2");
    assert_eq!(got, v2.archive);
    // The immutable index of version 1 still names version 1.
    let v1_url = server.url("/.well-known/agent-skills/pdf/1.0.0/index.json");
    let old = fetch_index(&v1_url, &opts(), &mut no_progress()).expect("v1 index");
    assert_eq!(old.skills[0].version.as_deref(), Some("1.0.0"));
    let got = fetch_entry(&v1_url, &old.skills[0], &opts(), &mut no_progress()).expect("v1");
    assert_eq!(got, v1.archive);
    // Publishing an older version later does not make it the latest.
    let v0 = publication("pdf", "0.9.0", "older");
    let report = publish(site.path(), None, &[v0]).expect("publish v0");
    assert_eq!(report.index.skills[0].version.as_deref(), Some("1.10.0"));
    assert!(
        site.path()
            .join(".well-known/agent-skills/pdf/0.9.0/pdf.zip")
            .is_file()
    );
}

#[test]
fn a_published_version_never_changes() {
    let site = tempfile::tempdir().expect("temp dir");
    let v1 = publication("pdf", "1.0.0", "first");
    publish(site.path(), None, std::slice::from_ref(&v1)).expect("publish");
    let before = tree(site.path());
    // The same bytes again: nothing written.
    let again = publish(site.path(), None, std::slice::from_ref(&v1)).expect("again");
    assert!(again.written.is_empty(), "{:?}", again.written);
    assert_eq!(again.unchanged.len(), 4, "{:?}", again.unchanged);
    // Other bytes, another description, another signature: refused, and
    // nothing on disk changes, the other skill of the call included.
    let other = publication("other", "1.0.0", "x");
    let changes = [
        Publication {
            archive: skill_zip("pdf", "edited"),
            ..v1.clone()
        },
        Publication {
            description: "Edited.".into(),
            ..v1.clone()
        },
        Publication {
            signature: Some("untrusted comment: another\n".into()),
            ..v1.clone()
        },
    ];
    for changed in changes {
        let e = publish(site.path(), None, &[other.clone(), changed]);
        assert!(matches!(e, Err(IndexError::Immutable { .. })), "{e:?}");
        let text = e.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            text.contains("`pdf` 1.0.0") && text.contains("new version"),
            "{text}"
        );
        assert_eq!(tree(site.path()), before);
    }
    // The same version twice in one call with different bytes (two skills
    // of one name): refused too, saying so, with nothing written.
    let twice = [
        v1.clone(),
        Publication {
            archive: skill_zip("pdf", "y"),
            ..v1
        },
    ];
    let fresh = tempfile::tempdir().expect("temp dir");
    let e = publish(fresh.path(), None, &twice);
    assert!(matches!(e, Err(IndexError::Publication { .. })), "{e:?}");
    let text = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        text.contains("two skills of this publication are version 1.0.0"),
        "{text}"
    );
    assert!(tree(fresh.path()).is_empty());
}

#[test]
fn what_cannot_be_read_as_a_skill_is_not_published() {
    let site = tempfile::tempdir().expect("temp dir");
    let mut nested = ZipWriter::new(DosTime::EPOCH);
    nested
        .add("pdf/SKILL.md", b"---\nname: pdf\n---\n", false)
        .expect("add");
    let good = publication("pdf", "1.0.0", "x");
    let bad = [
        Publication {
            archive: b"not a zip".to_vec(),
            ..good.clone()
        },
        Publication {
            archive: nested.finish(),
            ..good.clone()
        },
        Publication {
            name: "PDF".into(),
            ..good.clone()
        },
        Publication {
            description: String::new(),
            ..good.clone()
        },
        Publication {
            version: "../1".into(),
            ..good.clone()
        },
        Publication {
            version: "..".into(),
            ..good.clone()
        },
    ];
    for item in bad {
        let e = publish(site.path(), None, &[good.clone(), item]);
        assert!(matches!(e, Err(IndexError::Publication { .. })), "{e:?}");
        assert!(tree(site.path()).is_empty());
    }
    let e = publish(
        site.path(),
        Some("ftp://example.com"),
        std::slice::from_ref(&good),
    );
    assert!(e.is_err());
    assert!(tree(site.path()).is_empty());
}

#[test]
fn publishing_is_deterministic_and_a_base_url_makes_urls_absolute() {
    let items = [publication("pdf", "1.0.0", "a"), publication("b", "2", "b")];
    let one = tempfile::tempdir().expect("temp dir");
    let two = tempfile::tempdir().expect("temp dir");
    publish(one.path(), None, &items).expect("one");
    publish(two.path(), None, &[items[1].clone(), items[0].clone()]).expect("two");
    assert_eq!(tree(one.path()), tree(two.path()));

    let site = tempfile::tempdir().expect("temp dir");
    let server = Server::files(site.path());
    let base = server.url("");
    let report = publish(site.path(), Some(&format!("{base}/")), &items).expect("publish");
    let pdf = &report.index.skills[1];
    assert_eq!(
        pdf.url,
        format!("{base}/.well-known/agent-skills/pdf/1.0.0/pdf.zip")
    );
    let url = index_url(&base);
    let index = fetch_index(&url, &opts(), &mut no_progress()).expect("index");
    for entry in &index.skills {
        fetch_entry(&url, entry, &opts(), &mut no_progress()).expect("entry");
    }
}

#[test]
fn an_entry_whose_digest_lies_is_refused_and_nothing_returned() {
    let site = tempfile::tempdir().expect("temp dir");
    publish(site.path(), None, &[publication("pdf", "1.0.0", "x")]).expect("publish");
    let path = site.path().join(".well-known/agent-skills/index.json");
    let text = std::fs::read_to_string(&path).expect("index");
    let right = digest_of(&skill_zip("pdf", "x"));
    let wrong = format!("sha256:{}", "0".repeat(64));
    std::fs::write(&path, text.replace(&right, &wrong)).expect("write");
    let server = Server::files(site.path());
    let url = index_url(&server.url(""));
    let index = fetch_index(&url, &opts(), &mut no_progress()).expect("index");
    let entry = &index.skills[0];
    let e = fetch_entry(&url, entry, &opts(), &mut no_progress());
    let artifact = server.url("/.well-known/agent-skills/pdf/1.0.0/pdf.zip");
    match e {
        Err(IndexError::DigestMismatch {
            name,
            url,
            expected,
            actual,
        }) => {
            assert_eq!((name.as_str(), url.as_str()), ("pdf", artifact.as_str()));
            assert_eq!((expected, actual), (wrong.clone(), right.clone()));
        }
        other => panic!("{other:?}"),
    }
    let text = fetch_entry(&url, entry, &opts(), &mut no_progress())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    for part in ["`pdf`", &artifact, &wrong, &right] {
        assert!(text.contains(part), "{part} not in {text}");
    }
}

#[test]
fn a_missing_entry_or_a_broken_index_names_the_url() {
    let site = tempfile::tempdir().expect("temp dir");
    let dir = site.path().join(".well-known/agent-skills");
    std::fs::create_dir_all(&dir).expect("dir");
    let server = Server::files(site.path());
    let url = index_url(&server.url(""));
    // No index at all: a 404 naming the URL.
    let e = fetch_index(&url, &opts(), &mut no_progress())
        .err()
        .map(|e| e.to_string());
    assert!(
        e.as_ref()
            .is_some_and(|e| e.contains(&url) && e.contains("404")),
        "{e:?}"
    );
    // An index that is not 0.2.0: refused, naming the URL.
    std::fs::write(
        dir.join("index.json"),
        br#"{"skills": [{"name": "a", "files": ["SKILL.md"]}]}"#,
    )
    .expect("write");
    let e = fetch_index(&url, &opts(), &mut no_progress())
        .err()
        .map(|e| e.to_string());
    assert!(
        e.as_ref()
            .is_some_and(|e| e.contains(&url) && e.contains("$schema")),
        "{e:?}"
    );
    // An entry whose file is gone.
    let entry = format!(
        r#"{{"$schema": "{SCHEMA}", "skills": [{{"name": "gone", "type": "skill-md", "description": "d", "url": "gone/SKILL.md", "digest": "{}"}}]}}"#,
        digest_of(b"x")
    );
    std::fs::write(dir.join("index.json"), entry).expect("write");
    let index = fetch_index(&url, &opts(), &mut no_progress()).expect("index");
    let e = fetch_entry(&url, &index.skills[0], &opts(), &mut no_progress());
    assert!(matches!(e, Err(IndexError::Http(_))), "{e:?}");
}

/// Vercel's `skills` CLI under Node 22, as `node.rs` finds it.
fn vercel_cli() -> std::process::Command {
    crate::node::vercel_cli().command()
}

/// Runs `command` to its end, killing it after two minutes.
fn run_bounded(mut command: std::process::Command) -> (bool, String) {
    use std::io::Read;
    let mut child = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn Vercel's CLI");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut text = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut text);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut text);
    }
    (status.is_some_and(|s| s.success()), text)
}

#[skills_tests::acceptance(
    "needs Node 22 and Vercel's CLI (SKILLS_VERCEL_CLI_PREFIX or target/vercel-cli)"
)]
#[test]
fn vercel_cli_installs_the_newest_version_from_a_published_index() {
    let site = tempfile::tempdir().expect("temp dir");
    publish(site.path(), None, &[publication("pdf", "1.0.0", "first")]).expect("v1");
    publish(site.path(), None, &[publication("pdf", "1.1.0", "second")]).expect("v2");
    let server = Server::files(site.path());
    let project = tempfile::tempdir().expect("temp dir");
    let home = tempfile::tempdir().expect("temp dir");
    let mut add = vercel_cli();
    add.args([
        "add",
        &server.url(""),
        "--skill",
        "pdf",
        "--agent",
        "claude-code",
        "-y",
    ])
    .current_dir(project.path())
    .env("HOME", home.path())
    .env("XDG_STATE_HOME", home.path())
    .env("DO_NOT_TRACK", "1")
    .env("DISABLE_TELEMETRY", "1");
    let (ok, text) = run_bounded(add);
    assert!(ok, "{text}");
    let installed = project.path().join(".claude/skills/pdf");
    let md = std::fs::read_to_string(installed.join("SKILL.md")).unwrap_or_default();
    assert!(md.contains("second"), "{md}\n{text}");
    let script = std::fs::read(installed.join("scripts/run.sh")).unwrap_or_default();
    assert_eq!(script, b"#!/bin/sh\necho hi\n");
}

#[test]
fn entries_written_by_others_are_kept_and_a_broken_index_is_not_overwritten() {
    let site = tempfile::tempdir().expect("temp dir");
    let dir = site.path().join(".well-known/agent-skills");
    std::fs::create_dir_all(&dir).expect("dir");
    let hand = format!(
        r#"{{"$schema": "{SCHEMA}", "skills": [{{"name": "notes", "type": "skill-md", "description": "By hand.", "url": "/notes/SKILL.md", "digest": "{}"}}]}}"#,
        digest_of(b"# Notes\n")
    );
    std::fs::write(dir.join("index.json"), &hand).expect("write");
    let report = publish(site.path(), None, &[publication("pdf", "1.0.0", "x")]).expect("publish");
    let names: Vec<&str> = report
        .index
        .skills
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names, ["notes", "pdf"]);
    assert_eq!(report.index.skills[0].url, "/notes/SKILL.md");
    assert_eq!(report.index.skills[0].kind, EntryKind::SkillMd);

    std::fs::write(dir.join("index.json"), b"{ not json").expect("write");
    let before = tree(site.path());
    let e = publish(site.path(), None, &[publication("pdf", "1.1.0", "y")]);
    let text = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        text.contains("index.json") && text.contains("not a skills index"),
        "{text}"
    );
    assert_eq!(tree(site.path()), before, "nothing written");
}

/// One valid entry named `s-<i>`.
fn numbered_entry(i: usize) -> String {
    format!(
        r#"{{"name": "s-{i}", "type": "skill-md", "description": "Skill {i}.", "url": "s-{i}/SKILL.md", "digest": "sha256:{}"}}"#,
        "0".repeat(64)
    )
}

/// Attack: a site serves a huge `index.json` (200 MiB was parsed whole
/// into a generic JSON tree: 5 GiB of memory, then an abort). The index
/// has its own bound, far under the download limit, and the body is not
/// read past it. The server here streams 32 MiB of valid entries,
/// generated as it writes, so the test holds no large buffer itself.
#[test]
fn an_oversized_index_is_refused_before_parsing() {
    use std::io::Write;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let written = Arc::new(AtomicU64::new(0));
    let counter = written.clone();
    let server = Server::start(move |_, _, stream| {
        let mut send = |bytes: &[u8]| {
            counter.fetch_add(bytes.len() as u64, Ordering::SeqCst);
            stream.write_all(bytes).is_ok()
        };
        let head = format!(
            "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{{\"$schema\": \"{SCHEMA}\", \"skills\": ["
        );
        if !send(head.as_bytes()) {
            return;
        }
        let mut i = 0;
        while counter.load(Ordering::SeqCst) < 32 << 20 {
            let sep = if i == 0 { "" } else { ", " };
            if !send(format!("{sep}{}", numbered_entry(i)).as_bytes()) {
                return;
            }
            i += 1;
        }
        let _ = send(b"]}");
    });
    let url = server.url("/.well-known/agent-skills/index.json");
    let e = fetch_index(&url, &opts(), &mut no_progress());
    match &e {
        Err(IndexError::At { url: at, source }) => {
            assert_eq!(at, &url);
            assert!(
                matches!(**source, IndexError::TooLarge { limit } if limit == index::MAX_INDEX_BYTES),
                "{source}"
            );
        }
        Err(other) => panic!("{other}"),
        Ok(index) => panic!("read whole: {} entries", index.skills.len()),
    }
    let text = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains(&url) && text.contains("8388608"), "{text}");
    // The reader stopped at the bound: the server could not write its
    // 32 MiB (what it wrote beyond 8 MiB sits in the sockets' buffers).
    let sent = written.load(Ordering::SeqCst);
    assert!(sent < 24 << 20, "the server wrote {sent} bytes");
}

/// Attack: an index within the size bound that holds more entries than
/// any site publishes. Refused, naming the bound and the URL.
#[test]
fn an_index_with_too_many_entries_is_refused() {
    let site = tempfile::tempdir().expect("temp dir");
    let dir = site.path().join(".well-known/agent-skills");
    std::fs::create_dir_all(&dir).expect("dir");
    let entries: Vec<String> = (0..=index::MAX_ENTRIES).map(numbered_entry).collect();
    let text = format!(
        r#"{{"$schema": "{SCHEMA}", "skills": [{}]}}"#,
        entries.join(", ")
    );
    assert!(text.len() as u64 <= index::MAX_INDEX_BYTES);
    std::fs::write(dir.join("index.json"), &text).expect("write");
    let server = Server::files(site.path());
    let url = index_url(&server.url(""));
    let e = fetch_index(&url, &opts(), &mut no_progress());
    match &e {
        Err(IndexError::At { source, .. }) => assert!(
            matches!(**source, IndexError::TooManyEntries { limit } if limit == index::MAX_ENTRIES),
            "{source}"
        ),
        Err(other) => panic!("{other}"),
        Ok(index) => panic!("read: {} entries", index.skills.len()),
    }
    let text = e.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains(&url) && text.contains("10000"), "{text}");

    // One entry fewer is read.
    let text = format!(
        r#"{{"$schema": "{SCHEMA}", "skills": [{}]}}"#,
        entries[1..].join(", ")
    );
    std::fs::write(dir.join("index.json"), &text).expect("write");
    let index = fetch_index(&url, &opts(), &mut no_progress()).expect("index");
    assert_eq!(index.skills.len(), index::MAX_ENTRIES);
}
