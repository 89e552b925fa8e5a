//! Amp (0.0.1790142911-g7618fb), listing only: the rules its `amp skill
//! list` shows for a skill's name, as recorded. Amp runs its agent on its
//! own service, so what it sends its model (a catalog, an activation) is
//! not known, and Amp is no [`Client`](super::Client): `skb add --client
//! amp` writes where it reads and reports these rules.
//!
//! Recorded: a frontmatter `name` must be lowercase ASCII letters and
//! digits in words joined by single hyphens (`ns:thing`, `unicode-名前`,
//! `-leading-hyphen`, `under_score`, `double--hyphen`, `Upper-Dir`,
//! `My Skill Name` are refused with `Invalid skill name`), and at most 64
//! characters (80 `a`s: `must be 64 characters or less`). Which of the two
//! messages a name both too long and malformed gets was not recorded: the
//! pattern's is given. A skill without `name` or `description`, or with an
//! empty one, is refused too (`Missing required fields in frontmatter`);
//! a `name` that is a number makes `amp skill list` hang (recorded).

/// The longest name Amp lists.
pub const MAX_NAME: usize = 64;

/// Amp's error and hint for `name`, or `None` when it lists the name.
pub fn name_problem(name: &str) -> Option<String> {
    let words_ok = !name.is_empty()
        && name.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if !words_ok {
        return Some(format!(
            "Invalid skill name: Frontmatter name \"{name}\" is invalid. Skill name must be lowercase alphanumeric with hyphens, no trailing hyphen (e.g., \"my-skill\")"
        ));
    }
    (name.chars().count() > MAX_NAME).then(|| {
        format!(
            "Invalid skill name: Frontmatter name \"{name}\" must be {MAX_NAME} characters or less"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_names() {
        for refused in [
            "ns:thing",
            "unicode-名前",
            "-leading-hyphen",
            "under_score",
            "double--hyphen",
            "Upper-Dir",
            "My Skill Name",
            "trail-",
            "",
        ] {
            assert!(name_problem(refused).is_some(), "{refused}");
        }
        for listed in ["ok-basic", "args-demo", "inner3", "9lives", &"a".repeat(64)] {
            assert_eq!(name_problem(listed), None, "{listed}");
        }
        assert!(name_problem(&"a".repeat(80)).is_some_and(|p| p.contains("64 characters")));
    }
}
