//! Which tool calls the active skills allow: the run-time side of `allowed-tools`.
//!
//! [`tools`](skills_core::tools) only splits the field into rules; this module owns
//! what the rules *mean* while an agent runs. A host creates one
//! [`ToolPolicy`], adds deny rules of its own, [grants](ToolPolicy::grant) a
//! skill's rules when the skill is activated and [revokes](ToolPolicy::revoke)
//! them when it is deactivated, and asks [`ToolPolicy::check`] before each
//! tool call. It lives here, beside the bundle, so that every host reads
//! `Bash(git:*)` the same way.
//!
//! # Evaluation order
//!
//! 1. Deny rules ([`ToolPolicy::deny`]): a match is [`Decision::Denied`].
//!    No skill and not even the development override can lift them (the
//!    `deny` / `finalDeny` guarantee of SwiftAgent's `SkillPermissions`).
//! 2. Rules of active skills, most recently activated skill first: a match is
//!    [`Decision::Allow`] naming that skill.
//! 3. The development override ([`ToolPolicy::allow_all`]): when on, every
//!    call not denied is allowed (Python agents' `enforce_tool_restrictions=False`).
//! 4. The [`Mode`]'s default: [`Decision::Ask`] in [`Mode::PreApprove`]; in
//!    [`Mode::Restrict`], [`Decision::Restricted`] if some active skill
//!    declares rules, otherwise [`Decision::Ask`] (a skill whose
//!    `allowed-tools` is missing or empty restricts nothing).
//!
//! # Matching
//!
//! * Tool names are compared exactly (case-sensitive); a `*` in a rule's tool
//!   name matches any run of characters, so `*` matches every tool and
//!   `mcp__github__*` every tool of that server.
//! * A rule without a pattern (`Read`) matches any argument, and a call
//!   without one.
//! * A pattern ending in `:*` is a prefix: `git:*` matches `git` and
//!   `git status`, not `gitx`. Any other pattern is a glob where `*` matches
//!   any run of characters: `ls *` matches `ls -la`, not `lsof` nor `ls`.
//!   For `Bash`, both compare *words* ([`shell::split`] of the pattern and
//!   of the command): `git:*` is "the first word is `git`", a glob matches
//!   the words with the boundaries between them kept (a `*` may span
//!   them), so `'/a b/x.sh':*` matches `"/a b/x.sh" -v` and not `/a b/x.sh`
//!   (the program `/a`).
//! * A pattern is a comma-separated list of alternatives (`Agent(a, b)`),
//!   except for `Bash`, whose patterns are command lines where a comma is an
//!   ordinary character.
//! * A call whose argument is unknown (`None`) is not matched by an allow rule
//!   that has a pattern, but is matched by such a deny rule: in doubt, deny.
//! * `Bash` commands get two guards, since a prefix says nothing about what
//!   follows a shell operator. An allow rule with a pattern matches only a
//!   command that needs no shell: one [`shell::split`] accepts, so never a
//!   command holding an operator (`;`, `&`, `|`, `<`, `>`, `(`, `)`), a `$`
//!   or a backquote outside single quotes, a `#` starting a word, or a line
//!   break (such calls fall through to the mode's default). Whatever a
//!   command's arguments hold, a line that needs a shell needs a rule
//!   without a pattern. A deny rule with a pattern matches the whole command
//!   or any piece of it between operators or brackets
//!   ([`shell::SEGMENT_BREAKS`]), as text and as words, so `Bash(rm:*)` also
//!   denies `ls && rm -rf x` and `'rm' -rf x`. This is a guard, not a shell
//!   parser: `sudo rm` is not `rm:*`.
//!
//! `${CLAUDE_PLUGIN_ROOT}` in a pattern stays literal under
//! [`ToolPolicy::grant`]; [`ToolPolicy::grant_with_root`] replaces it with the
//! skill's plugin directory before the rules are stored (in a `Bash`
//! pattern quoted as one word, [`shell::Line`]).

use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::shell::{self, Line};
use skills_core::pyrepr;
use skills_core::tools::ToolRule;

/// The variable a plugin skill's patterns may use for its plugin directory.
pub const PLUGIN_ROOT_VAR: &str = "${CLAUDE_PLUGIN_ROOT}";

/// What an active skill's `allowed-tools` does to calls it does not list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The specification's and Claude Code's meaning: listed tools need no
    /// confirmation; anything else falls back to [`Decision::Ask`].
    PreApprove,
    /// `allowed-tools` as a restriction: while a skill with `allowed-tools`
    /// is active, anything its rules do not allow is [`Decision::Restricted`].
    Restrict,
}

/// The answer to one [`ToolPolicy::check`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Run without asking.
    Allow {
        /// The skill whose rule matched, or `None` when the development
        /// override allowed the call.
        by: Option<String>,
    },
    /// Nothing decided: the host's usual confirmation applies.
    Ask,
    /// A deny rule matched.
    Denied {
        /// The rule as written (`Bash(rm:*)`).
        rule: String,
    },
    /// [`Mode::Restrict`] and no active skill allows the call.
    Restricted(ToolRestrictionError),
}

/// A call outside the rules of the active skills, in [`Mode::Restrict`].
///
/// Displays as Python agents' `ToolRestrictionError` does, with the list in Python's repr
/// style: `Tool 'Bash' not allowed for skill 'pdf'. Allowed tools: ['Read']`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolRestrictionError {
    /// The tool that was called.
    pub tool: String,
    /// The most recently activated skill that declares rules.
    pub skill: String,
    /// Every rule of every active skill, that skill's first, then the others
    /// from most to least recently activated, without repeats: the calls that
    /// would have passed.
    pub allowed: Vec<String>,
}

impl fmt::Display for ToolRestrictionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tool '{}' not allowed for skill '{}'. Allowed tools: [",
            self.tool, self.skill
        )?;
        for (i, rule) in self.allowed.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&pyrepr::repr(rule))?;
        }
        f.write_str("]")
    }
}

impl std::error::Error for ToolRestrictionError {}

/// The tool rules in force for one agent session.
///
/// Methods take `&self` and lock an inner [`Mutex`], so one policy can be
/// shared (`Arc<ToolPolicy>`) between the code that activates skills and the
/// code that runs tools. A panic elsewhere while the lock was held does not
/// disable the policy: every update leaves the state consistent, so a
/// poisoned lock is simply taken over.
#[derive(Debug)]
pub struct ToolPolicy {
    mode: Mode,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    allow_all: bool,
    deny: Vec<Rule>,
    /// Active skills, least recently activated first.
    grants: Vec<Grant>,
}

#[derive(Debug)]
struct Grant {
    skill: String,
    activations: usize,
    rules: Vec<Rule>,
}

/// An owned [`ToolRule`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    tool: String,
    pattern: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Allow,
    Deny,
}

impl ToolPolicy {
    /// An empty policy: no deny rules, no active skill, override off.
    pub fn new(mode: Mode) -> Self {
        Self {
            mode,
            state: Mutex::new(State::default()),
        }
    }

    /// The mode chosen at construction.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Adds a deny rule, checked before everything else.
    pub fn deny(&self, rule: ToolRule<'_>) {
        let rule = Rule::new(rule, None);
        let mut state = self.state();
        if !state.deny.contains(&rule) {
            state.deny.push(rule);
        }
    }

    /// Turns the development override on or off. While on, every call that no
    /// deny rule matches is allowed, in both modes.
    pub fn allow_all(&self, on: bool) {
        self.state().allow_all = on;
    }

    /// Records one activation of `skill` with its `allowed-tools` rules.
    ///
    /// Activating a skill again counts again (and adds any rule it did not
    /// have); it stays active until [revoked](Self::revoke) as many times.
    /// A skill granted with no rules is active but restricts nothing.
    pub fn grant<'a>(&self, skill: &str, rules: impl IntoIterator<Item = ToolRule<'a>>) {
        self.add(skill, rules, None);
    }

    /// [`grant`](Self::grant) for a plugin skill: `${CLAUDE_PLUGIN_ROOT}` in
    /// its patterns is replaced by `root` first.
    pub fn grant_with_root<'a>(
        &self,
        skill: &str,
        rules: impl IntoIterator<Item = ToolRule<'a>>,
        root: &str,
    ) {
        self.add(skill, rules, Some(root));
    }

    /// Undoes one activation of `skill`; its rules go with the last one.
    /// Another skill's identical rules are not affected. Returns whether the
    /// skill was active.
    pub fn revoke(&self, skill: &str) -> bool {
        let mut state = self.state();
        let Some(at) = state.grants.iter().position(|g| g.skill == skill) else {
            return false;
        };
        let grant = &mut state.grants[at];
        grant.activations -= 1;
        if grant.activations == 0 {
            state.grants.remove(at);
        }
        true
    }

    /// How many times `skill` is currently activated.
    pub fn activations(&self, skill: &str) -> usize {
        self.state()
            .grants
            .iter()
            .find(|g| g.skill == skill)
            .map_or(0, |g| g.activations)
    }

    /// Decides one call of `tool` with its argument (a `Bash` command, a
    /// path, an agent name), in the order described in the module docs.
    pub fn check(&self, tool: &str, argument: Option<&str>) -> Decision {
        let state = self.state();
        if let Some(denied) = state.denied(tool, argument) {
            return denied;
        }
        let by_recency = || state.grants.iter().rev();
        if let Some(grant) = by_recency().find(|g| {
            g.rules
                .iter()
                .any(|r| r.matches(tool, argument, Role::Allow))
        }) {
            return Decision::Allow {
                by: Some(grant.skill.clone()),
            };
        }
        if state.allow_all {
            return Decision::Allow { by: None };
        }
        let restricting = by_recency().find(|g| !g.rules.is_empty());
        match (self.mode, restricting) {
            (Mode::Restrict, Some(named)) => {
                let mut allowed: Vec<String> = Vec::new();
                let others = by_recency().filter(|g| g.skill != named.skill);
                for rule in std::iter::once(named).chain(others).flat_map(|g| &g.rules) {
                    let rule = rule.to_string();
                    if !allowed.contains(&rule) {
                        allowed.push(rule);
                    }
                }
                Decision::Restricted(ToolRestrictionError {
                    tool: tool.to_owned(),
                    skill: named.skill.clone(),
                    allowed,
                })
            }
            _ => Decision::Ask,
        }
    }

    /// Decides one call made *for* `skill` (a script run in its directory):
    /// deny rules first, then `skill`'s own rules only (its grant while it
    /// is active, else `rules`, its `allowed-tools`), then the development
    /// override, then the mode's default for that skill alone. Another
    /// skill's grant never allows it, active or not.
    pub fn check_for<'a>(
        &self,
        skill: &str,
        rules: impl IntoIterator<Item = ToolRule<'a>>,
        tool: &str,
        argument: Option<&str>,
    ) -> Decision {
        let state = self.state();
        if let Some(denied) = state.denied(tool, argument) {
            return denied;
        }
        let own: Vec<Rule> = match state.grants.iter().find(|g| g.skill == skill) {
            Some(grant) => grant.rules.clone(),
            None => rules.into_iter().map(|r| Rule::new(r, None)).collect(),
        };
        if own.iter().any(|r| r.matches(tool, argument, Role::Allow)) {
            return Decision::Allow {
                by: Some(skill.to_owned()),
            };
        }
        if state.allow_all {
            return Decision::Allow { by: None };
        }
        if self.mode == Mode::Restrict && !own.is_empty() {
            let mut allowed: Vec<String> = Vec::new();
            for rule in &own {
                let rule = rule.to_string();
                if !allowed.contains(&rule) {
                    allowed.push(rule);
                }
            }
            return Decision::Restricted(ToolRestrictionError {
                tool: tool.to_owned(),
                skill: skill.to_owned(),
                allowed,
            });
        }
        Decision::Ask
    }

    fn add<'a>(
        &self,
        skill: &str,
        rules: impl IntoIterator<Item = ToolRule<'a>>,
        root: Option<&str>,
    ) {
        let rules: Vec<Rule> = rules.into_iter().map(|r| Rule::new(r, root)).collect();
        let mut state = self.state();
        let mut grant = match state.grants.iter().position(|g| g.skill == skill) {
            Some(at) => state.grants.remove(at),
            None => Grant {
                skill: skill.to_owned(),
                activations: 0,
                rules: Vec::new(),
            },
        };
        grant.activations += 1;
        for rule in rules {
            if !grant.rules.contains(&rule) {
                grant.rules.push(rule);
            }
        }
        state.grants.push(grant);
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl State {
    /// [`Decision::Denied`] when a deny rule matches the call.
    fn denied(&self, tool: &str, argument: Option<&str>) -> Option<Decision> {
        self.deny
            .iter()
            .find(|r| r.matches(tool, argument, Role::Deny))
            .map(|rule| Decision::Denied {
                rule: rule.to_string(),
            })
    }
}

impl Rule {
    fn new(rule: ToolRule<'_>, root: Option<&str>) -> Self {
        let pattern = rule.pattern.map(|p| match root {
            Some(root) if rule.tool == "Bash" => with_root_in_command(p, root),
            Some(root) => p.replace(PLUGIN_ROOT_VAR, root),
            None => p.to_owned(),
        });
        Self {
            tool: rule.tool.to_owned(),
            pattern,
        }
    }

    fn matches(&self, tool: &str, argument: Option<&str>, role: Role) -> bool {
        if !glob(&self.tool, tool) {
            return false;
        }
        let Some(pattern) = &self.pattern else {
            return true;
        };
        let Some(argument) = argument else {
            return role == Role::Deny;
        };
        if tool != "Bash" {
            return pattern
                .split(',')
                .any(|p| pattern_matches(p.trim(), argument));
        }
        match role {
            Role::Allow => shell::split(argument).is_ok_and(|words| words_match(pattern, &words)),
            Role::Deny => {
                let by_words = |piece: &str| {
                    shell::split(piece).is_ok_and(|words| words_match(pattern, &words))
                };
                pattern_matches(pattern, argument)
                    || by_words(argument)
                    || argument
                        .split(|c| shell::SEGMENT_BREAKS.contains(&c))
                        .any(|piece| pattern_matches(pattern, piece.trim()) || by_words(piece))
            }
        }
    }
}

/// `pattern` (a `Bash` pattern) with each `${CLAUDE_PLUGIN_ROOT}` replaced
/// by `root` as data; left as written when a `root` could not be placed
/// (such a pattern allows nothing: [`shell::split`] refuses its `$`).
fn with_root_in_command(pattern: &str, root: &str) -> String {
    let mut line = Line::new();
    let mut pieces = pattern.split(PLUGIN_ROOT_VAR);
    line.text(pieces.next().unwrap_or_default());
    for piece in pieces {
        if line.value(root).is_err() {
            return pattern.to_owned();
        }
        line.text(piece);
    }
    line.into_string()
}

/// A `Bash` pattern against a command's words: `prefix:*` when the
/// pattern's words begin the command's (no words: only an empty command),
/// else a glob over the words with their boundaries kept. A pattern that
/// does not split matches no words.
fn words_match(pattern: &str, words: &[String]) -> bool {
    match pattern.strip_suffix(":*") {
        Some(prefix) => shell::split(prefix).is_ok_and(|prefix| {
            words.starts_with(&prefix) && (!prefix.is_empty() || words.is_empty())
        }),
        None => shell::split(pattern).is_ok_and(|pattern| {
            let pattern: Vec<Token<Option<char>>> = tokens(&pattern)
                .map(|t| match t {
                    Some('*') => Token::Star,
                    t => Token::Is(t),
                })
                .collect();
            let text: Vec<Option<char>> = tokens(words).collect();
            glob_tokens(&pattern, &text)
        }),
    }
}

/// The characters of `words`, with `None` between two words.
fn tokens(words: &[String]) -> impl Iterator<Item = Option<char>> + '_ {
    words.iter().enumerate().flat_map(|(i, w)| {
        let boundary = (i > 0).then_some(None);
        boundary.into_iter().chain(w.chars().map(Some))
    })
}

/// One item of a glob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<T> {
    /// `*`: any run of items, none included.
    Star,
    /// This item.
    Is(T),
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pattern {
            Some(p) => write!(f, "{}({p})", self.tool),
            None => f.write_str(&self.tool),
        }
    }
}

/// One alternative of a pattern against one argument: `prefix:*` or a glob.
fn pattern_matches(pattern: &str, argument: &str) -> bool {
    match pattern.strip_suffix(":*") {
        Some(prefix) => argument
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace)),
        None => glob(pattern, argument),
    }
}

/// `*` matches any run of characters (none included); everything else
/// matches itself.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<Token<char>> = pattern
        .chars()
        .map(|c| if c == '*' { Token::Star } else { Token::Is(c) })
        .collect();
    let t: Vec<char> = text.chars().collect();
    glob_tokens(&p, &t)
}

/// [`glob`] over any items.
fn glob_tokens<T: PartialEq>(p: &[Token<T>], t: &[T]) -> bool {
    let (mut pi, mut ti) = (0, 0);
    // Where the last `*` was, and how much text it has swallowed so far.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some(Token::Star) => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(Token::Is(item)) if *item == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    star = Some((sp, st + 1));
                    pi = sp + 1;
                    ti = st + 1;
                }
                None => return false,
            },
        }
    }
    p.iter().skip(pi).all(|t| *t == Token::Star)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skills_core::tools::{rule, split};

    fn allowed_by(policy: &ToolPolicy, tool: &str, arg: Option<&str>) -> Option<String> {
        match policy.check(tool, arg) {
            Decision::Allow { by } => by,
            _ => None,
        }
    }

    /// A PreApprove policy with one skill holding `allowed`.
    fn granted(allowed: &str) -> ToolPolicy {
        let policy = ToolPolicy::new(Mode::PreApprove);
        policy.grant("s", split(allowed));
        policy
    }

    fn allows(allowed: &str, tool: &str, arg: Option<&str>) -> bool {
        allowed_by(&granted(allowed), tool, arg).as_deref() == Some("s")
    }

    #[test]
    fn tool_names_are_exact_unless_globbed() {
        assert!(allows("Read", "Read", Some("/etc/hosts")));
        assert!(allows("Read", "Read", None));
        assert!(!allows("Read", "read", None));
        assert!(!allows("Read", "ReadFile", None));
        assert!(allows("*", "Anything", Some("x")));
        assert!(allows("mcp__github__*", "mcp__github__get_issue", None));
        assert!(!allows("mcp__github__*", "mcp__gitlab__get_issue", None));
        assert!(allows(
            "mcp__github__get_issue",
            "mcp__github__get_issue",
            None
        ));
    }

    #[test]
    fn prefix_patterns_stop_at_a_word_boundary() {
        assert!(allows("Bash(git:*)", "Bash", Some("git status")));
        assert!(allows("Bash(git:*)", "Bash", Some("git")));
        assert!(!allows("Bash(git:*)", "Bash", Some("gitx")));
        assert!(!allows("Bash(git:*)", "Bash", Some("sudo git")));
        assert!(allows("Bash(git log:*)", "Bash", Some("git log -3")));
        assert!(!allows("Bash(git log:*)", "Bash", Some("git push")));
        assert!(!allows("Bash(git:*)", "Read", Some("git")));
    }

    #[test]
    fn other_patterns_are_globs() {
        assert!(allows("Bash(ls *)", "Bash", Some("ls -la")));
        assert!(!allows("Bash(ls *)", "Bash", Some("lsof")));
        assert!(!allows("Bash(ls *)", "Bash", Some("ls")));
        assert!(allows("Bash(ls*)", "Bash", Some("lsof")));
        assert!(allows("Bash(npm test)", "Bash", Some("npm test")));
        assert!(!allows("Bash(npm test)", "Bash", Some("npm test -- x")));
        assert!(allows("Read(src/*.rs)", "Read", Some("src/lib.rs")));
        assert!(!allows("Read(src/*.rs)", "Read", Some("src/lib.py")));
        assert!(allows("Bash(*)", "Bash", Some("")));
    }

    #[test]
    fn glob_backtracks() {
        assert!(glob("a*b*c", "aXbYbZc"));
        assert!(glob("*.rs", ".rs"));
        assert!(glob("**", ""));
        assert!(!glob("a*b", "aXbc"));
        assert!(!glob("", "x"));
        assert!(glob("é*", "été"));
    }

    #[test]
    fn commas_separate_alternatives_except_in_bash() {
        assert!(allows("Agent(a, b, c)", "Agent", Some("b")));
        assert!(allows("Agent(a, b, c)", "Agent", Some("c")));
        assert!(!allows("Agent(a, b, c)", "Agent", Some("d")));
        assert!(!allows("Agent(a, b, c)", "Agent", Some("a, b")));
        assert!(allows("Bash(echo a,b)", "Bash", Some("echo a,b")));
        assert!(!allows("Bash(echo a,b)", "Bash", Some("b")));
    }

    #[test]
    fn a_pattern_needs_an_argument_to_allow_but_not_to_deny() {
        assert!(!allows("Bash(git:*)", "Bash", None));
        let policy = granted("Bash");
        policy.deny(rule("Bash(rm:*)"));
        assert!(matches!(
            policy.check("Bash", None),
            Decision::Denied { .. }
        ));
    }

    #[test]
    fn compound_commands_are_not_pre_approved_by_a_prefix() {
        for command in [
            "git status && rm -rf x",
            "git status; rm -rf x",
            "git log | sh",
            "git log > ~/.bashrc",
            "git log `rm x`",
            "git log $(rm x)",
            "git log\nrm x",
        ] {
            assert!(!allows("Bash(git:*)", "Bash", Some(command)), "{command}");
        }
        assert!(allows("Bash", "Bash", Some("git status && rm -rf x")));
        // Whatever needs a shell needs a rule without a pattern: a `$`,
        // `<`, `(`, `)` or `#` would be read by `sh`, not passed as data.
        for command in [
            "git log --format=$HOME",
            "git log $0 $$",
            "git log <(touch x)",
            "git log (x)",
            "git log # x",
            "git log\rx",
            "git log \"$(touch x)\"",
        ] {
            assert!(!allows("Bash(git:*)", "Bash", Some(command)), "{command}");
            assert!(allows("Bash", "Bash", Some(command)), "{command}");
        }
        // Quoted, the same characters are data.
        for command in [
            "git log '--format=$HOME'",
            "git log '<(touch x)' '#' \"\\$x\"",
        ] {
            assert!(allows("Bash(git:*)", "Bash", Some(command)), "{command}");
        }
    }

    #[test]
    fn bash_patterns_compare_words() {
        // The program is a word, however it is quoted.
        assert!(allows("Bash(git log:*)", "Bash", Some("'git' \"log\" -3")));
        assert!(allows("Bash(git log:*)", "Bash", Some("git  log")));
        assert!(!allows("Bash(git log:*)", "Bash", Some("'git log'")));
        assert!(allows(
            "Bash('/a b/x.sh':*)",
            "Bash",
            Some("\"/a b/x.sh\" -v")
        ));
        assert!(!allows("Bash('/a b/x.sh':*)", "Bash", Some("/a b/x.sh")));
        assert!(!allows("Bash(/a b/x.sh:*)", "Bash", Some("'/a b/x.sh'")));
        // A glob keeps the boundaries between words.
        assert!(allows("Bash(ls *)", "Bash", Some("ls 'a b' c")));
        assert!(!allows("Bash(npm test)", "Bash", Some("'npm test'")));
        assert!(allows("Bash(npm test)", "Bash", Some("npm 'test'")));
        assert!(!allows("Bash(ls *)", "Bash", Some("'ls x'")));
        // An empty prefix is an empty command, not every command.
        assert!(allows("Bash(:*)", "Bash", Some("")));
        assert!(!allows("Bash(:*)", "Bash", Some("rm x")));
        // A pattern that is shell syntax allows nothing.
        assert!(!allows("Bash(echo $HOME)", "Bash", Some("echo $HOME")));
    }

    #[test]
    fn deny_rules_see_quoted_words() {
        let policy = granted("Bash");
        policy.deny(rule("Bash(rm:*)"));
        for command in ["'rm' -rf x", "r\\m x", "ls; \"rm\" x", "ls && 'r'm x"] {
            assert_eq!(
                policy.check("Bash", Some(command)),
                Decision::Denied {
                    rule: "Bash(rm:*)".into()
                },
                "{command}"
            );
        }
    }

    #[test]
    fn deny_rules_see_every_piece_of_a_command() {
        let policy = granted("Bash");
        policy.deny(rule("Bash(rm:*)"));
        for command in [
            "rm -rf x",
            "ls && rm -rf x",
            "ls;rm x",
            "echo $(rm x)",
            "{ rm x; }",
        ] {
            assert_eq!(
                policy.check("Bash", Some(command)),
                Decision::Denied {
                    rule: "Bash(rm:*)".into()
                },
                "{command}"
            );
        }
        assert_eq!(
            allowed_by(&policy, "Bash", Some("ls -la")).as_deref(),
            Some("s")
        );
    }

    #[test]
    fn plugin_root_is_substituted_only_when_given() {
        let rules = split("Bash(${CLAUDE_PLUGIN_ROOT}/scripts/run.sh:*)");
        let policy = ToolPolicy::new(Mode::PreApprove);
        policy.grant_with_root("p", rules.clone(), "/opt/plug");
        assert_eq!(
            allowed_by(&policy, "Bash", Some("/opt/plug/scripts/run.sh --fast")).as_deref(),
            Some("p")
        );
        assert_eq!(
            policy.check("Bash", Some("/elsewhere/scripts/run.sh")),
            Decision::Ask
        );
        // Left literal, the variable is shell syntax (`sh` would expand it
        // from the environment): the pattern allows nothing.
        let literal = ToolPolicy::new(Mode::PreApprove);
        literal.grant("p", rules.clone());
        for command in [
            "${CLAUDE_PLUGIN_ROOT}/scripts/run.sh",
            "'${CLAUDE_PLUGIN_ROOT}/scripts/run.sh'",
            "/opt/plug/scripts/run.sh",
        ] {
            assert_eq!(
                literal.check("Bash", Some(command)),
                Decision::Ask,
                "{command}"
            );
        }
        // A root with a space is one word.
        let spaced = ToolPolicy::new(Mode::PreApprove);
        spaced.grant_with_root("p", rules, "/opt/my plug");
        for command in [
            "'/opt/my plug/scripts/run.sh' --fast",
            "\"/opt/my plug/scripts/run.sh\"",
            "/opt/my\\ plug/scripts/run.sh x",
        ] {
            assert_eq!(
                allowed_by(&spaced, "Bash", Some(command)).as_deref(),
                Some("p"),
                "{command}"
            );
        }
        for command in ["/opt/my plug/scripts/run.sh", "/opt/my"] {
            assert_eq!(
                spaced.check("Bash", Some(command)),
                Decision::Ask,
                "{command}"
            );
        }
    }

    #[test]
    fn grants_are_counted_per_activation() {
        let policy = ToolPolicy::new(Mode::PreApprove);
        policy.grant("git", split("Bash(git:*)"));
        policy.grant("git", split("Bash(git:*)"));
        assert_eq!(policy.activations("git"), 2);
        assert!(policy.revoke("git"));
        assert_eq!(
            allowed_by(&policy, "Bash", Some("git status")).as_deref(),
            Some("git")
        );
        assert!(policy.revoke("git"));
        assert_eq!(policy.activations("git"), 0);
        assert_eq!(policy.check("Bash", Some("git status")), Decision::Ask);
        assert!(!policy.revoke("git"));
        assert!(!policy.revoke("never"));
    }

    #[test]
    fn revoking_one_skill_keeps_another_skills_identical_rule() {
        let policy = ToolPolicy::new(Mode::PreApprove);
        policy.grant("a", split("Read"));
        policy.grant("b", split("Read"));
        assert_eq!(allowed_by(&policy, "Read", None).as_deref(), Some("b"));
        policy.revoke("b");
        assert_eq!(allowed_by(&policy, "Read", None).as_deref(), Some("a"));
        policy.revoke("a");
        assert_eq!(policy.check("Read", None), Decision::Ask);
    }

    #[test]
    fn deny_beats_grants_and_the_override() {
        for mode in [Mode::PreApprove, Mode::Restrict] {
            let policy = ToolPolicy::new(mode);
            policy.grant("git", split("Bash(git:*) Read"));
            policy.deny(rule("Bash(git push:*)"));
            policy.allow_all(true);
            assert_eq!(
                policy.check("Bash", Some("git push origin main")),
                Decision::Denied {
                    rule: "Bash(git push:*)".into()
                }
            );
            assert_eq!(
                allowed_by(&policy, "Bash", Some("git pull")).as_deref(),
                Some("git")
            );
        }
    }

    #[test]
    fn the_override_allows_everything_not_denied() {
        for mode in [Mode::PreApprove, Mode::Restrict] {
            let policy = ToolPolicy::new(mode);
            policy.grant("r", split("Read"));
            policy.allow_all(true);
            assert_eq!(policy.check("Write", None), Decision::Allow { by: None });
            policy.allow_all(false);
            assert_ne!(policy.check("Write", None), Decision::Allow { by: None });
        }
    }

    #[test]
    fn pre_approve_asks_for_unlisted_tools() {
        let policy = granted("Read Bash(git:*)");
        assert_eq!(policy.check("Write", None), Decision::Ask);
        assert_eq!(policy.check("Bash", Some("rm x")), Decision::Ask);
        assert_eq!(
            ToolPolicy::new(Mode::PreApprove).check("Read", None),
            Decision::Ask
        );
    }

    #[test]
    fn restrict_fails_unlisted_tools_while_a_restricting_skill_is_active() {
        let policy = ToolPolicy::new(Mode::Restrict);
        assert_eq!(policy.check("Bash", None), Decision::Ask);
        policy.grant("free", split(""));
        assert_eq!(policy.check("Bash", None), Decision::Ask);
        policy.grant("pdf-extractor", split("Read, Write, Grep"));
        assert_eq!(
            allowed_by(&policy, "Grep", Some("x")).as_deref(),
            Some("pdf-extractor")
        );
        let Decision::Restricted(error) = policy.check("Bash", Some("ls")) else {
            panic!(
                "expected a restriction: {:?}",
                policy.check("Bash", Some("ls"))
            );
        };
        assert_eq!(
            error.to_string(),
            "Tool 'Bash' not allowed for skill 'pdf-extractor'. \
             Allowed tools: ['Read', 'Write', 'Grep']"
        );
        policy.revoke("pdf-extractor");
        assert_eq!(policy.check("Bash", None), Decision::Ask);
    }

    #[test]
    fn the_error_names_the_latest_restricting_skill_and_lists_all_rules() {
        let policy = ToolPolicy::new(Mode::Restrict);
        policy.grant("git", split("Bash(git:*) Read"));
        policy.grant("docs", split("Read Write"));
        policy.grant("free", split(""));
        let Decision::Restricted(error) = policy.check("Edit", None) else {
            panic!("expected a restriction");
        };
        assert_eq!(
            error,
            ToolRestrictionError {
                tool: "Edit".into(),
                skill: "docs".into(),
                allowed: vec!["Read".into(), "Write".into(), "Bash(git:*)".into()],
            }
        );
        // Activating `git` again makes it the latest.
        policy.grant("git", split("Bash(git:*) Read"));
        let Decision::Restricted(error) = policy.check("Edit", None) else {
            panic!("expected a restriction");
        };
        assert_eq!(
            error.to_string(),
            "Tool 'Edit' not allowed for skill 'git'. \
             Allowed tools: ['Bash(git:*)', 'Read', 'Write']"
        );
    }

    #[test]
    fn the_list_is_written_like_python_repr() {
        assert_eq!(pyrepr::repr("Read"), "'Read'");
        assert_eq!(pyrepr::repr("Bash(echo 'hi')"), "\"Bash(echo 'hi')\"");
        assert_eq!(pyrepr::repr("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(pyrepr::repr("a\\b\n"), "'a\\\\b\\n'");
        let empty = ToolRestrictionError {
            tool: "X".into(),
            skill: "s".into(),
            allowed: Vec::new(),
        };
        assert_eq!(
            empty.to_string(),
            "Tool 'X' not allowed for skill 's'. Allowed tools: []"
        );
    }

    #[test]
    fn a_poisoned_lock_does_not_disable_the_policy() {
        let policy = std::sync::Arc::new(granted("Read"));
        policy.deny(rule("Write"));
        let shared = std::sync::Arc::clone(&policy);
        let panicked = std::thread::spawn(move || {
            let _guard = shared.state();
            panic!("poison the lock");
        })
        .join()
        .is_err();
        assert!(panicked && policy.state.is_poisoned());
        assert!(matches!(
            policy.check("Write", None),
            Decision::Denied { .. }
        ));
        assert_eq!(allowed_by(&policy, "Read", None).as_deref(), Some("s"));
    }

    #[test]
    fn the_policy_can_be_shared_between_threads() {
        fn shareable<T: Send + Sync>(_: &T) {}
        let policy = ToolPolicy::new(Mode::Restrict);
        shareable(&policy);
        std::thread::scope(|scope| {
            scope.spawn(|| policy.grant("s", split("Read")));
        });
        assert_eq!(allowed_by(&policy, "Read", None).as_deref(), Some("s"));
    }
}
