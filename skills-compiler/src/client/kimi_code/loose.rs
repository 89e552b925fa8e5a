//! The loose `NAME.md` files under the `kimi-code` profile: Kimi Code
//! loads each `.md` file at the top of a skills folder it reads as a
//! skill, so `validate` says what it makes of each, as it does of a skill
//! folder: `SK401` where it skips the file, `SK402` where it loads but does
//! not list it (a name taken first), the reading's notes (a description
//! cut), and `SK409` where it lists the file, so that an author learns
//! that a `README.md` kept beside the skills reaches the model.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use skills_core::client::Client;

use super::listing::{folders_read, listing, loose_files, shown};
use crate::client::reading::Outcome;
use crate::diag::{Code, Diagnostic};
use crate::discover::FoundSkill;
use crate::profile::Profile;

/// The diagnostics of the loose files in the folders Kimi Code reads among
/// those `found` came from, each with its folder (problems that belong to
/// a root rather than a skill), under `profile`. Empty when there is no
/// loose file; otherwise the listing is computed once, the found skills
/// with it, since a skill folder read first holds its name.
pub fn diagnostics(found: &[FoundSkill], profile: Profile) -> Vec<(PathBuf, Vec<Diagnostic>)> {
    let loose = loose_files(&folders_read(found));
    if loose.is_empty() {
        return Vec::new();
    }
    let listed = listing(found, &loose);
    let by_file: HashMap<&Path, &super::Found> =
        listed.found.iter().map(|f| (f.file.as_path(), f)).collect();
    let who = Client::KimiCode.title();
    let mut out: Vec<(PathBuf, Vec<Diagnostic>)> = Vec::new();
    for l in &loose {
        let name = shown(&l.file, Some(&l.origin));
        let Some(f) = by_file.get(name.as_path()) else {
            continue;
        };
        let mut diags = Vec::new();
        let mut push = |code: Code, message: String| {
            diags.push(Diagnostic::new(
                code,
                profile.severity(code),
                &l.file,
                message,
            ));
        };
        match &f.reading.outcome {
            Outcome::Rejected { why } => push(
                Code::ClientRejected,
                format!("this loose file is a skill to {who}, which does not load it: {why}"),
            ),
            Outcome::NotListed { why } => push(
                Code::ClientNotListed,
                format!(
                    "this loose file is a skill to {who}, which loads it but does not list it: {why}"
                ),
            ),
            Outcome::Unknown { why } => push(
                Code::Io,
                format!("what {who} makes of this loose file is not known: {why}"),
            ),
            Outcome::Listed(entry) => push(
                Code::ClientLooseFile,
                format!(
                    "{who} lists this loose file to its model as the skill `{}`: every `.md` file at the top of a skills folder is one (move it into a skill folder, or out of the skills folder, if it is not)",
                    entry.name
                ),
            ),
        }
        for note in &f.reading.notes {
            push(note.code, note.message.clone());
        }
        match out
            .iter_mut()
            .find(|(folder, _)| *folder == l.origin.folder)
        {
            Some((_, all)) => all.extend(diags),
            None => out.push((l.origin.folder.clone(), diags)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;
    use crate::discover::{DiscoveryOptions, discover_all_with};
    use std::path::Path;

    fn found_in(project: &Path) -> Vec<FoundSkill> {
        discover_all_with(
            &[project.to_path_buf()],
            &DiscoveryOptions::default(),
            &mut |_| {},
        )
        .0
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn each_loose_file_is_judged_as_kimi_code_reads_it() {
        let tmp = tempfile::tempdir().unwrap();
        let skills = tmp.path().join(".kimi-code/skills");
        write(
            &skills.join("foo/SKILL.md"),
            "---\nname: foo\ndescription: Does foo. Use when foo.\n---\nBody\n",
        );
        write(&skills.join("README.md"), "# Notes\n\nThese are skills.\n");
        write(
            &skills.join("bad.md"),
            "---\nname: bad\ndescription: [x\n---\nx\n",
        );
        write(
            &skills.join("FOO.md"),
            "---\nname: Foo\ndescription: A second foo.\n---\nx\n",
        );
        // A skill folder of the same name hides the loose file.
        write(&skills.join("foo.md"), "# Hidden by the folder foo\n");
        let found = found_in(tmp.path());
        assert_eq!(found.len(), 1);
        let got = diagnostics(&found, Profile::KimiCode);
        assert_eq!(got.len(), 1);
        let (folder, diags) = &got[0];
        assert_eq!(folder, &skills);
        let codes: Vec<(String, Code, Severity)> = diags
            .iter()
            .map(|d| {
                let file = d.path.file_name().unwrap().to_string_lossy().into_owned();
                (file, d.code, d.severity)
            })
            .collect();
        assert_eq!(
            codes,
            [
                ("FOO.md".into(), Code::ClientNotListed, Severity::Warning),
                ("README.md".into(), Code::ClientLooseFile, Severity::Warning),
                ("bad.md".into(), Code::ClientRejected, Severity::Error),
            ]
        );
        assert!(
            diags[1].message.contains("as the skill `README`"),
            "{}",
            diags[1].message
        );
    }

    #[test]
    fn no_loose_file_no_listing() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            &tmp.path().join(".kimi-code/skills/foo/SKILL.md"),
            "---\nname: foo\ndescription: Does foo. Use when foo.\n---\nBody\n",
        );
        // Loose files in a folder Kimi Code does not read are not its.
        write(&tmp.path().join(".claude/skills/README.md"), "# Notes\n");
        write(
            &tmp.path().join(".claude/skills/bar/SKILL.md"),
            "---\nname: bar\ndescription: Does bar. Use when bar.\n---\nBody\n",
        );
        let found = found_in(tmp.path());
        assert_eq!(found.len(), 2);
        assert!(diagnostics(&found, Profile::KimiCode).is_empty());
    }
}
