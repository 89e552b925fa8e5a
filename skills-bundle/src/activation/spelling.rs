//! The two spellings of a command whose program is in the skill's
//! directory (`<dir>/scripts/x.sh` and `scripts/x.sh`), and the policy
//! decision taken on both.

#[cfg(all(unix, feature = "exec"))]
use crate::policy::Decision;
use crate::shell;

/// The other spelling of a command line whose program is in the skill's
/// directory: `<base_dir>/scripts/x.sh a` is `scripts/x.sh a` run in that
/// directory, and the reverse. A policy check tries both, since a rule
/// written `Bash(${CLAUDE_SKILL_DIR}/scripts/x.sh *)` and a call written
/// relative to the skill (or the reverse) name the same file. The program
/// is the command's first word ([`shell::split`]), so a directory with a
/// space is one word however it is quoted, and the other spelling is
/// written back with every word [quoted](shell::quote). `None` when the
/// program is neither (no `/`, or an absolute path elsewhere) or the line
/// does not split.
pub fn other_spelling(command: &str, base_dir: &str) -> Option<String> {
    let words = shell::split(command).ok()?;
    let (program, args) = words.split_first()?;
    let prefix = format!("{}/", base_dir.trim_end_matches('/'));
    if let Some(rel) = program.strip_prefix(&prefix) {
        // Without a `/` the program would be looked up on `PATH`: another file.
        let inside = rel.contains('/') && !rel.starts_with('/');
        return inside.then(|| spelled(rel, args));
    }
    let relative = program.contains('/')
        && !program.starts_with('/')
        && !program.starts_with("./")
        && !program.split('/').any(|s| s == "..");
    relative.then(|| spelled(&format!("{prefix}{program}"), args))
}

/// `command` relative to the skill's directory, when its program is a
/// file inside `base_dir`: `<base_dir>/scripts/x.sh a` is `scripts/x.sh a`.
/// See [`other_spelling`].
pub fn relative_spelling(command: &str, base_dir: &str) -> Option<String> {
    let program = shell::split(command).ok()?.into_iter().next()?;
    let prefix = format!("{}/", base_dir.trim_end_matches('/'));
    if program.starts_with(&prefix) {
        other_spelling(command, base_dir)
    } else {
        None
    }
}

/// `program` and `args` as a command line.
fn spelled(program: &str, args: &[String]) -> String {
    shell::join(std::iter::once(program).chain(args.iter().map(String::as_str)))
}

/// The decision on `command` for a skill whose directory is `base_dir`:
/// `check` on both spellings ([`other_spelling`]); a denial of either
/// wins, then an allowance of either, then the decision on `command`.
/// Also the line to run: the relative spelling when the program is inside
/// the skill (the executor runs programs relative to the skill's
/// materialised directory), else `command`.
#[cfg(all(unix, feature = "exec"))]
pub(crate) fn decide<'c>(
    command: &'c str,
    base_dir: &str,
    check: impl Fn(&str) -> Decision,
) -> (Decision, std::borrow::Cow<'c, str>) {
    let other = other_spelling(command, base_dir);
    let decision = match (check(command), other.as_deref().map(&check)) {
        (_, Some(denied @ Decision::Denied { .. })) => denied,
        (Decision::Ask | Decision::Restricted(_), Some(allow @ Decision::Allow { .. })) => allow,
        (first, _) => first,
    };
    let line = match relative_spelling(command, base_dir) {
        Some(rel) => std::borrow::Cow::Owned(rel),
        None => std::borrow::Cow::Borrowed(command),
    };
    (decision, line)
}
