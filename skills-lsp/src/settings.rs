//! [`Settings`]: what decides the server's checks, from `skb lsp`'s
//! arguments and the client's `initializationOptions` (`{"profile":
//! "codex", "scan": false, "debounceMs": 300}`), the latter winning.

use std::time::Duration;

use serde::Deserialize;
use skills_compiler::Profile;

/// What decides the server's checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The profile the diagnostics are graded by, as `skb validate
    /// --profile` grades them.
    pub profile: Profile,
    /// Whether the scanner's findings are reported too (`skb scan`).
    pub scan: bool,
    /// How long the document must rest after an edit before it is checked.
    pub debounce: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            profile: Profile::Spec,
            scan: true,
            debounce: Duration::from_millis(DEFAULT_DEBOUNCE_MS),
        }
    }
}

/// The default rest after an edit, in milliseconds.
pub const DEFAULT_DEBOUNCE_MS: u64 = 200;
/// The longest rest a client may ask for, in milliseconds.
const MAX_DEBOUNCE_MS: u64 = 10_000;

/// The client's `initializationOptions`, every key optional.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Given {
    profile: Option<String>,
    scan: Option<bool>,
    debounce_ms: Option<u64>,
}

impl Settings {
    /// These settings, with what the client's `initializationOptions`
    /// say; an unknown profile is an error naming the known ones.
    pub fn with_options(self, options: Option<&serde_json::Value>) -> Result<Settings, String> {
        let Some(options) = options.filter(|o| !o.is_null()) else {
            return Ok(self);
        };
        let given = Given::deserialize(options)
            .map_err(|e| format!("`initializationOptions` are not understood: {e}"))?;
        let mut settings = self;
        if let Some(name) = given.profile {
            settings.profile = Profile::from_name(&name).ok_or_else(|| {
                let known: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
                format!("unknown profile `{name}`; known: {}", known.join(", "))
            })?;
        }
        if let Some(scan) = given.scan {
            settings.scan = scan;
        }
        if let Some(ms) = given.debounce_ms {
            settings.debounce = Duration::from_millis(ms.min(MAX_DEBOUNCE_MS));
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_override_and_unknown_profiles_are_refused() {
        let s = Settings::default().with_options(Some(
            &serde_json::json!({"profile": "codex", "scan": false, "debounceMs": 99999}),
        ));
        assert_eq!(
            s,
            Ok(Settings {
                profile: Profile::Codex,
                scan: false,
                debounce: Duration::from_millis(MAX_DEBOUNCE_MS)
            })
        );
        let bad = Settings::default().with_options(Some(&serde_json::json!({"profile": "vim"})));
        assert!(bad.is_err_and(|e| e.contains("unknown profile `vim`")));
        assert_eq!(
            Settings::default().with_options(None),
            Ok(Settings::default())
        );
    }
}
