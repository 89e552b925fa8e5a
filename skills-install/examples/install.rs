//! A program that depends only on `skills-install`: it installs a folder of
//! skills into a project for two clients, verifies them against the lock,
//! updates them after the source changed, restores a deleted folder from
//! the lock, and verifies again. Offline, in a temporary folder.
//!
//! `cargo run -p skills-install --example install`

use std::path::Path;

use skills_install::{AddRequest, Gate, InstallRequest, Installer, Project, Quiet, UpdateRequest};

fn skill(dir: &Path, name: &str, body: &str) -> std::io::Result<()> {
    let d = dir.join(name);
    std::fs::create_dir_all(&d)?;
    std::fs::write(
        d.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: Says {name}. Use when greeting.\n---\n{body}\n"),
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let source = tmp.path().join("vendor");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project)?;
    skill(&source, "hello", "Say hello.")?;
    skill(&source, "bye", "Say goodbye.")?;

    let mut installer = Installer::new(Project::at(&project), &Quiet)?;
    installer.cwd = project.clone();
    let clients = ["claude-code", "codex"]
        .into_iter()
        .map(skills_install::targets::parse_target)
        .collect::<Result<Vec<_>, _>>()?;
    let added = installer.add(&AddRequest {
        clients,
        ..AddRequest::new("../vendor")
    })?;
    for s in &added.skills {
        println!(
            "{} {} -> {}",
            s.action.verb(),
            s.name,
            s.installed.join(", ")
        );
    }
    let verified = installer.verify()?;
    assert!(verified.is_clean(), "{verified:?}");
    println!(
        "verified {} skills in {} folders",
        verified.report.skills, verified.report.folders
    );

    // The source changes; update takes it, file by file.
    skill(&source, "hello", "Say hello, warmly.")?;
    let updated = installer.update(&UpdateRequest {
        names: Vec::new(),
        flags: Default::default(),
        force: false,
        gate: Gate::new(None, Vec::new()),
        profile: None,
    })?;
    for s in updated.skills.iter().filter(|s| s.updated) {
        println!("updated {}: {} file(s) changed", s.name, s.changes.len());
    }
    assert!(
        updated
            .skills
            .iter()
            .any(|s| s.name == "hello" && s.updated)
    );

    // A folder lost: install restores exactly what the lock says.
    std::fs::remove_dir_all(project.join(".claude/skills/bye"))?;
    assert!(!installer.verify()?.is_clean());
    let restored = installer.install(&InstallRequest {
        frozen: false,
        force: false,
        gate: Gate::new(None, Vec::new()),
    })?;
    println!("restored {} skill(s)", restored.restored.len());
    let verified = installer.verify()?;
    assert!(verified.is_clean(), "{verified:?}");
    println!(
        "verified {} skills in {} folders: as locked",
        verified.report.skills, verified.report.folders
    );
    Ok(())
}
