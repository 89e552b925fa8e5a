//! Claude Code's settings that change how it lists and activates skills,
//! read from its `settings.json` files: the user's
//! (`~/.claude/settings.json`), then the project's (`.claude/settings.json`),
//! then the project's local file (`.claude/settings.local.json`), a later
//! file winning (and `skillOverrides` merged skill by skill), as Claude Code
//! documents its precedence (managed settings are not read here).
//!
//! - `disableSkillShellExecution: true`: each `` !`cmd` `` of a skill is
//!   replaced by [`SHELL_DISABLED`] instead of run (Claude Code's documented
//!   text; not in the record).
//! - `skillOverrides: {"<name>": "on" | "name-only" | "user-invocable-only" |
//!   "off"}`: `off` hides the skill from the model and the user,
//!   `user-invocable-only` from the model only, `name-only` lists it without
//!   its description (not modelled: `skb catalog` warns and lists the
//!   description). The name is the one Claude Code lists the skill under
//!   (its folder name).
//! - `skillListingBudgetFraction`: the listing budget's share of the
//!   context, [`skills_core::catalog::claude_code::budget_for_fraction`].
//!
//! A file that is missing or not a JSON object is skipped, and so is a
//! setting of another type than documented (Claude Code reports invalid
//! settings; what it then uses is not recorded).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use skills_core::catalog::claude_code::budget_for_fraction;

/// What Claude Code puts in place of a `` !`cmd` `` when
/// `disableSkillShellExecution` is set.
pub const SHELL_DISABLED: &str = "[shell command execution disabled by policy]";

/// The largest settings file read, in bytes.
const MAX_SETTINGS: u64 = 1 << 20;

/// A `skillOverrides` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Override {
    /// Listed with its description, as without an override.
    On,
    /// Listed by name only.
    NameOnly,
    /// Not listed to the model, not callable by it; the user can run it.
    UserInvocableOnly,
    /// Hidden from the model and the user.
    Off,
}

impl Override {
    fn parse(value: &str) -> Option<Override> {
        Some(match value {
            "on" => Override::On,
            "name-only" => Override::NameOnly,
            "user-invocable-only" => Override::UserInvocableOnly,
            "off" => Override::Off,
            _ => return None,
        })
    }
}

/// The skill settings in effect.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// `disableSkillShellExecution`.
    pub disable_shell: bool,
    /// `skillOverrides`, by listed name.
    pub overrides: BTreeMap<String, Override>,
    /// `skillListingBudgetFraction`, when set to a number.
    pub budget_fraction: Option<f64>,
}

impl Settings {
    /// The settings for a session in `project`, with the user's folder
    /// `home` (`None`: no user settings).
    pub fn read(project: &Path, home: Option<&Path>) -> Settings {
        let mut settings = Settings::default();
        let files = home
            .map(|h| h.join(".claude/settings.json"))
            .into_iter()
            .chain([
                project.join(".claude/settings.json"),
                project.join(".claude/settings.local.json"),
            ]);
        for file in files {
            if let Some(Value::Object(map)) = read_json(&file) {
                settings.merge(&map);
            }
        }
        settings
    }

    /// The settings for the current directory and `$HOME`.
    pub fn current(project: &Path) -> Settings {
        let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
        Settings::read(project, home.as_deref())
    }

    fn merge(&mut self, map: &serde_json::Map<String, Value>) {
        if let Some(Value::Bool(b)) = map.get("disableSkillShellExecution") {
            self.disable_shell = *b;
        }
        if let Some(Value::Object(overrides)) = map.get("skillOverrides") {
            for (name, value) in overrides {
                if let Some(o) = value.as_str().and_then(Override::parse) {
                    self.overrides.insert(name.clone(), o);
                }
            }
        }
        if let Some(f) = map
            .get("skillListingBudgetFraction")
            .and_then(Value::as_f64)
        {
            self.budget_fraction = Some(f);
        }
    }

    /// The override for the skill listed as `name`.
    pub fn override_for(&self, name: &str) -> Override {
        self.overrides.get(name).copied().unwrap_or(Override::On)
    }

    /// The listing budget the fraction gives, if it is set and valid.
    pub fn budget(&self) -> Option<usize> {
        self.budget_fraction.and_then(budget_for_fraction)
    }
}

fn read_json(path: &Path) -> Option<Value> {
    let file = std::fs::File::open(path).ok()?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX_SETTINGS), &mut text).ok()?;
    serde_json::from_str(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_files_win_and_overrides_merge() -> std::io::Result<()> {
        let tmp = tempfile::tempdir()?;
        let home = tmp.path().join("home");
        let project = tmp.path().join("proj");
        std::fs::create_dir_all(home.join(".claude"))?;
        std::fs::create_dir_all(project.join(".claude"))?;
        std::fs::write(
            home.join(".claude/settings.json"),
            r#"{"disableSkillShellExecution": true, "skillOverrides": {"a": "off", "b": "name-only"}, "skillListingBudgetFraction": 0.02}"#,
        )?;
        std::fs::write(
            project.join(".claude/settings.json"),
            r#"{"skillOverrides": {"b": "user-invocable-only", "c": "bogus"}}"#,
        )?;
        std::fs::write(
            project.join(".claude/settings.local.json"),
            r#"{"disableSkillShellExecution": false, "skillListingBudgetFraction": "x"}"#,
        )?;
        let s = Settings::read(&project, Some(&home));
        assert!(!s.disable_shell);
        assert_eq!(s.override_for("a"), Override::Off);
        assert_eq!(s.override_for("b"), Override::UserInvocableOnly);
        assert_eq!(s.override_for("c"), Override::On);
        assert_eq!(s.budget(), Some(60_000));
        // No files, or files that are not objects: the defaults.
        std::fs::write(project.join(".claude/settings.local.json"), "[1]")?;
        std::fs::write(project.join(".claude/settings.json"), "{not json")?;
        let s = Settings::read(&project, None);
        assert_eq!(s, Settings::default());
        assert_eq!(s.budget(), None);
        Ok(())
    }
}
