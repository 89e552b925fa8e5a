//! Diagnostics: what every rule reports, and the table of stable codes.
//!
//! A [`Diagnostic`] is plain data (code, severity, message, file, position,
//! the source line, an optional help note, and the exact text the reference
//! validator `skills-ref` prints for the same problem, where it has one). The
//! CLI renders it as human, JSON, SARIF or GitHub output; the proc-macro turns
//! it into `compile_error!` or a warning. Nothing here formats for a terminal.
//!
//! Codes are stable: a code is never reused for another meaning. The guide's (GUIDE.md)
//! table of codes is checked against [`Code::ALL`] by a test.

pub mod render;
pub mod source;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::source::{LineCol, Source};

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Does not make the skill invalid.
    Warning,
    /// Makes the skill invalid.
    Error,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $slug:literal, $summary:literal; )*) => {
        /// Every problem the compiler can report, with a stable code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The stable code, for example `SK205`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// A short kebab-case name, for example `name-not-lowercase`.
            pub fn slug(self) -> &'static str {
                match self { $(Code::$variant => $slug,)* }
            }

            /// One sentence saying what the code means.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }
        }
    };
}

codes! {
    /// The path given does not exist.
    PathNotFound = "SK001", "path-not-found", "a path given to the validator does not exist";
    /// The path is not a directory.
    NotADirectory = "SK002", "not-a-directory", "a skill path is a file, not a directory";
    /// The skill directory holds no `SKILL.md`.
    MissingSkillMd = "SK003", "missing-skill-md", "the skill directory has no `SKILL.md`";
    /// `SKILL.md` exists but is a directory or another non-file.
    SkillMdNotFile = "SK004", "skill-md-not-a-file", "`SKILL.md` is a directory or special file";
    /// A file could not be read.
    Io = "SK005", "io-error", "a file or directory could not be read";
    /// Two skills share a name; the first one found is kept.
    DuplicateSkill = "SK006", "duplicate-skill", "two skills have the same name; the first is kept";
    /// Discovery reached its depth or directory-count limit, or a skill's
    /// files their count, size or depth limit; the message names the flag
    /// that raises it.
    DiscoveryLimit = "SK007", "discovery-limit", "discovery or a skill's file listing reached a limit (the message names the flag that raises it)";
    /// A symbolic link points outside the root it was found under.
    SymlinkEscape = "SK008", "symlink-escape", "a symbolic link leads outside its root and was not followed";
    /// A symbolic link leads back to a directory already being walked.
    SymlinkCycle = "SK009", "symlink-cycle", "a symbolic link forms a cycle and was not followed";
    /// A plugin or marketplace manifest is malformed.
    BadManifest = "SK010", "bad-manifest", "a `.claude-plugin` manifest is not valid JSON of the expected shape";
    /// The file is named `skill.md` (lowercase).
    LowercaseSkillMd = "SK011", "lowercase-skill-md", "the file is named `skill.md`; the specification names it `SKILL.md`";

    /// `SKILL.md` is not valid UTF-8.
    NotUtf8 = "SK101", "not-utf8", "`SKILL.md` is not valid UTF-8";
    /// `SKILL.md` starts with a byte-order mark.
    Bom = "SK102", "byte-order-mark", "`SKILL.md` starts with a UTF-8 byte-order mark";
    /// `SKILL.md` is empty.
    EmptyFile = "SK103", "empty-file", "`SKILL.md` is empty";
    /// No `---` line opens the file.
    MissingFrontmatter = "SK104", "missing-frontmatter", "`SKILL.md` does not start with a `---` line";
    /// No `---` line closes the frontmatter.
    UnclosedFrontmatter = "SK105", "unclosed-frontmatter", "no `---` line closes the frontmatter";
    /// The frontmatter is not valid YAML.
    InvalidYaml = "SK106", "invalid-yaml", "the frontmatter is not valid YAML";
    /// Flow-style YAML (`[a, b]`, `{a: b}`), which strict YAML rejects.
    YamlFlowStyle = "SK107", "yaml-flow-style", "flow-style YAML (`[a, b]` or `{a: b}`), which the reference rejects";
    /// A YAML anchor or alias, which strict YAML rejects.
    YamlAnchor = "SK108", "yaml-anchor", "a YAML anchor or alias, which the reference rejects";
    /// A YAML tag, which strict YAML rejects.
    YamlTag = "SK109", "yaml-tag", "a YAML tag such as `!!str`, which the reference rejects";
    /// The same key twice in one mapping.
    YamlDuplicateKey = "SK110", "yaml-duplicate-key", "a key appears twice in one mapping";
    /// The frontmatter is a list or a scalar, not a mapping.
    FrontmatterNotMapping = "SK111", "frontmatter-not-mapping", "the frontmatter is not a YAML mapping";
    /// A YAML 1.1 reader (PyYAML) would read this value as a non-string.
    Yaml11Type = "SK112", "yaml11-type", "PyYAML (YAML 1.1) reads this unquoted value as a boolean, number, null or date";

    /// A top-level key the profile does not allow.
    UnexpectedField = "SK201", "unexpected-field", "a frontmatter key the profile does not allow";
    /// No `name` key.
    MissingName = "SK202", "missing-name", "the frontmatter has no `name`";
    /// `name` is empty or not a string.
    NameNotString = "SK203", "name-not-string", "`name` is empty, blank, or not a string";
    /// `name` is longer than 64 characters.
    NameTooLong = "SK204", "name-too-long", "`name` is longer than 64 characters";
    /// `name` has uppercase characters.
    NameNotLowercase = "SK205", "name-not-lowercase", "`name` is not lowercase";
    /// `name` starts or ends with a hyphen.
    NameHyphenEdge = "SK206", "name-hyphen-edge", "`name` starts or ends with a hyphen";
    /// `name` has two hyphens in a row.
    NameConsecutiveHyphens = "SK207", "name-consecutive-hyphens", "`name` contains `--`";
    /// `name` has characters other than letters, digits and hyphens.
    NameInvalidChars = "SK208", "name-invalid-characters", "`name` has characters other than letters, digits and hyphens";
    /// `name` differs from the directory name.
    NameDirMismatch = "SK209", "name-directory-mismatch", "`name` differs from the skill directory's name";
    /// No `description` key.
    MissingDescription = "SK210", "missing-description", "the frontmatter has no `description`";
    /// `description` is empty or not a string.
    DescriptionNotString = "SK211", "description-not-string", "`description` is empty, blank, or not a string";
    /// `description` is longer than 1,024 characters.
    DescriptionTooLong = "SK212", "description-too-long", "`description` is longer than 1,024 characters";
    /// `compatibility` is not a string.
    CompatibilityNotString = "SK213", "compatibility-not-string", "`compatibility` is not a string";
    /// `compatibility` is longer than 500 characters.
    CompatibilityTooLong = "SK214", "compatibility-too-long", "`compatibility` is longer than 500 characters";
    /// A field other than the ones the reference checks has the wrong type.
    FieldType = "SK215", "field-type", "`license`, `metadata`, `allowed-tools` or an extension key has a value of the wrong shape";
    /// `allowed-tools` is written in a form the specification does not define.
    AllowedToolsForm = "SK216", "allowed-tools-form", "`allowed-tools` is a YAML list or comma-separated; the specification wants a space-separated string";

    /// `SKILL.md` is longer than the specification recommends.
    SkillMdTooLong = "SK301", "skill-md-too-long", "`SKILL.md` is over 500 lines or about 5,000 tokens";
    /// The body refers to a file the skill does not have.
    MissingReferencedFile = "SK302", "missing-referenced-file", "the body links to or names a relative file that does not exist";
    /// A script has no `#!` line.
    ScriptNoShebang = "SK303", "script-no-shebang", "a file under `scripts/` has no `#!` line";
    /// A script is not executable.
    ScriptNotExecutable = "SK304", "script-not-executable", "a file under `scripts/` lacks the executable bit";
    /// Invisible or bidirectional-control characters.
    InvisibleUnicode = "SK305", "invisible-unicode", "zero-width, bidirectional-control or tag characters in a field or the body";
    /// `<` or `>` in the description.
    DescriptionAngleBrackets = "SK306", "description-angle-brackets", "`<` or `>` in `description` (Anthropic's validator rejects it)";
    /// The description never says when to use the skill.
    DescriptionNoTrigger = "SK307", "description-no-trigger", "`description` gives no hint of when to use the skill";
    /// A file that skill packaging leaves out.
    PackagingDrops = "SK308", "packaging-drops-file", "a file that packaging leaves out (`__pycache__`, `.DS_Store`, `node_modules`, ...)";
    /// An `allowed-tools` rule that lets any program run.
    AllowedToolsAnyProgram = "SK309", "allowed-tools-any-program", "an `allowed-tools` rule with a wildcard lets a shell, an interpreter or a launcher run any program (`Bash(python3:*)`, `Bash(env:*)`, `Bash(git:*)`)";

    /// The client of the profile would not load the skill.
    ClientRejected = "SK401", "client-rejected", "the profile's client would not load this skill (Claude Code: `SKILL.md` over 1,000,000 bytes, a folder named `synced`; Codex: its load errors)";
    /// The client loads the skill but does not list it to the model.
    ClientNotListed = "SK402", "client-not-listed", "the profile's client loads the skill but does not list it to the model (`disable-model-invocation: true`, `paths`); Gemini CLI lists all it loads, so under its profile this is a skill it skips, an error";
    /// The client does not show the frontmatter name.
    ClientNameNotShown = "SK403", "client-name-not-shown", "the profile's client lists the skill under another name than the frontmatter's";
    /// The client shows another description than the frontmatter's.
    ClientDescriptionReplaced = "SK404", "client-description-replaced", "`description` is missing, empty or not text, and the client shows another text (the first body line, `Skill`)";
    /// The client cuts the description.
    ClientDescriptionCut = "SK405", "client-description-cut", "the client cuts the description (Claude Code: 1,536 UTF-16 units with `when_to_use`)";
    /// The client escapes characters of the description.
    ClientDescriptionEscaped = "SK406", "client-description-escaped", "the client shows `<` and `>` of the description as `&lt;` and `&gt;`";
    /// The client could not read the YAML as written.
    ClientYamlUnread = "SK407", "client-yaml-unread", "the client could not read the YAML as written (read it with values quoted, or dropped the frontmatter)";
    /// The client does not read a flag as the author wrote it.
    ClientFlagNotRead = "SK408", "client-flag-not-read", "a flag written `yes`/`on`/`1`, which the client does not read as `true`";
    /// The client lists a loose `NAME.md` file as a skill.
    ClientLooseFile = "SK409", "client-loose-file", "the client lists a loose `NAME.md` at the top of a skills folder (a `README.md` too) to its model as a skill (Kimi Code)";

    /// A key another client acts on that the profile's client does not read.
    ClientKeyIgnored = "SK451", "client-key-ignored", "a key that changes Claude Code's listing which Codex does not read (`when_to_use`, `disable-model-invocation`, `paths`): Codex lists the skill regardless";
    /// Something in `agents/openai.yaml` that Codex ignores.
    CodexOpenAiYaml = "SK452", "codex-openai-yaml", "`agents/openai.yaml` has YAML or a field Codex ignores (wrong type, empty, too long, icon outside `assets/`, unknown key)";

    /// A key the profile's client reads whose effect this tool does not model.
    ClientKeyNotModelled = "SK480", "client-key-not-modelled", "a key Claude Code reads whose effect is not modelled here (`context`, `agent`, `model`, `effort`, `shell`, `hooks`, `disallowed-tools`, `background`, `fallback`): the listing and activation shown may differ where it applies";
    /// One client lists the skill to its model, another does not.
    ClientsDifferListing = "SK491", "clients-differ-listing", "one client lists the skill to its model and another does not, or does not load it";
    /// The clients list the skill under different names.
    ClientsDifferName = "SK492", "clients-differ-name", "the clients that list the skill list it under different names";
    /// A control one client obeys and another ignores.
    ClientIgnoresControl = "SK493", "client-ignores-control", "the skill sets a control that keeps it out of one client's list (`disable-model-invocation: true`, `paths`, `policy.allow_implicit_invocation: false` in `agents/openai.yaml`) and another client ignores it";
}

impl Code {
    /// Whether the code is found while locating or reading `SKILL.md` and its
    /// YAML (`SK0xx`, `SK1xx`), before any frontmatter rule can run.
    pub fn stops_reading(self) -> bool {
        self.as_str() < "SK200" && self != Code::Yaml11Type
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a diagnostic points: a byte range in a file and what a person sees there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Byte range into the file's original bytes.
    pub bytes: std::ops::Range<usize>,
    /// Start position.
    pub start: LineCol,
    /// End position (exclusive).
    pub end: LineCol,
    /// The text of the start line, without its terminator.
    pub line_text: String,
}

impl Label {
    /// A label for `bytes` in `source`.
    pub fn new(source: &Source, bytes: std::ops::Range<usize>) -> Label {
        let start = source.line_col(bytes.start);
        let end = source.line_col(bytes.end.max(bytes.start));
        let line_text = source.line_text(start.line).unwrap_or_default();
        Label {
            bytes,
            start,
            end,
            line_text,
        }
    }
}

/// One problem found in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error or warning, as the profile decided.
    pub severity: Severity,
    /// What is wrong, lowercase, names in backticks.
    pub message: String,
    /// The file (or directory) the problem is in, as the user named it.
    pub path: PathBuf,
    /// The place in the file, when there is one.
    pub label: Option<Label>,
    /// What to do about it.
    pub help: Option<String>,
    /// The exact message `skills-ref validate` prints for this problem, if it reports it.
    pub reference: Option<String>,
}

impl Diagnostic {
    /// A diagnostic about `path` with no position.
    pub fn new(code: Code, severity: Severity, path: &Path, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            path: path.to_path_buf(),
            label: None,
            help: None,
            reference: None,
        }
    }

    /// Points the diagnostic at a byte range of `source`.
    pub fn at(mut self, source: &Source, bytes: std::ops::Range<usize>) -> Self {
        self.label = Some(Label::new(source, bytes));
        self
    }

    /// Adds a help note.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Records the reference validator's message for the same problem.
    pub fn reference(mut self, text: impl Into<String>) -> Self {
        self.reference = Some(text.into());
        self
    }

    /// Sets the help note of a diagnostic already collected.
    pub fn set_help(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }

    /// `path:line:column`, or just the path when there is no position.
    pub fn location(&self) -> String {
        match &self.label {
            Some(l) => format!(
                "{}:{}:{}",
                self.path.display(),
                l.start.line,
                l.start.column
            ),
            None => self.path.display().to_string(),
        }
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// One line: `path:line:col: error[SK205]: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}[{}]: {}",
            self.location(),
            self.severity.as_str(),
            self.code,
            self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_sorted() {
        let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = codes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(codes, sorted);
        let mut slugs: Vec<&str> = Code::ALL.iter().map(|c| c.slug()).collect();
        slugs.sort_unstable();
        let n = slugs.len();
        slugs.dedup();
        assert_eq!(n, slugs.len());
    }

    #[test]
    fn display_is_one_line_with_position() {
        let src = Source::new("s/SKILL.md", b"---\nname: X\n---\n".to_vec());
        let d = Diagnostic::new(
            Code::NameNotLowercase,
            Severity::Error,
            src.path(),
            "`name` must be lowercase",
        )
        .at(&src, 10..11);
        assert_eq!(
            d.to_string(),
            "s/SKILL.md:2:7: error[SK205]: `name` must be lowercase"
        );
        assert_eq!(
            d.label.as_ref().map(|l| l.line_text.as_str()),
            Some("name: X")
        );
    }
}
