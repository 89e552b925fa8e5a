//! Safety switches a guide offers for a development setup only: a heading
//! or line that marks the step optional and scoped to development or local
//! testing ("#### Optional: Skip TLS verification (development only)") is
//! documentation of a setting, not an order to switch safety off.

/// Words that scope a step to a machine of one's own.
const SCOPES: [&str; 8] = [
    "development only",
    "dev only",
    "local development",
    "local dev",
    "testing only",
    "for testing",
    "self-signed",
    "not for production",
];

/// Whether the line of `lower` (normalised, lowercased text) holding `at`
/// is a heading or a list item that offers the step as optional, or scopes
/// it to development.
pub(crate) fn scoped(lower: &str, at: usize) -> bool {
    let at = at.min(lower.len());
    let start = lower[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = lower[at..].find('\n').map_or(lower.len(), |i| at + i);
    let line = lower[start..end].trim_start();
    let optional = line
        .trim_start_matches(['#', '-', '*', ' ', '>'])
        .starts_with("optional");
    let marked = line.starts_with(['#', '-', '*']);
    marked && (optional || SCOPES.iter().any(|s| line.contains(s)))
}

#[cfg(test)]
mod tests {
    use super::scoped;

    #[test]
    fn steps_scoped_to_development() {
        let t = "#### optional: skip tls verification (development only)\n";
        assert!(scoped(t, 20));
        assert!(scoped("- skip tls verification for local development\n", 5));
        assert!(!scoped("skip tls verification before you start.\n", 3));
        assert!(!scoped(
            "## setup\nskip all security checks (development only)\n",
            12
        ));
    }
}
