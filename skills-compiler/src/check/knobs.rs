//! How an error at a limit says to raise it: the `skb` CLI's flag, or
//! the `skills_bundle!` option, whichever the caller offers. Every limit of
//! discovery and of a skill's files is an error naming its knob, so that a
//! limit never drops data without saying how to take it back.

/// Who reads the errors, and so how a limit is raised.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Knobs {
    /// The `skb` command: `--max-files`.
    #[default]
    Flags,
    /// `skills_bundle!`: `max_files = …`.
    MacroOptions,
}

/// Each limit that has a knob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Levels below a root that discovery descends.
    Depth,
    /// Directories discovery reads under one root.
    Dirs,
    /// Files in one skill.
    Files,
    /// Bytes of one skill's files.
    SkillSize,
    /// Directory levels in one skill.
    SkillDepth,
}

impl Knobs {
    /// The knob for `limit`, in backquotes: `` `--max-files` `` or
    /// `` `max_files = …` in `skills_bundle!` ``.
    pub fn name(self, limit: Limit) -> &'static str {
        use Limit::*;
        match (self, limit) {
            (Knobs::Flags, Depth) => "`--max-depth`",
            (Knobs::Flags, Dirs) => "`--max-dirs`",
            (Knobs::Flags, Files) => "`--max-files`",
            (Knobs::Flags, SkillSize) => "`--max-skill-size`",
            (Knobs::Flags, SkillDepth) => "`--max-skill-depth`",
            (Knobs::MacroOptions, Depth) => "`max_depth = …` in `skills_bundle!`",
            (Knobs::MacroOptions, Dirs) => "`max_dirs = …` in `skills_bundle!`",
            (Knobs::MacroOptions, Files) => "`max_files = …` in `skills_bundle!`",
            (Knobs::MacroOptions, SkillSize) => "`max_skill_size = …` in `skills_bundle!`",
            (Knobs::MacroOptions, SkillDepth) => "`max_skill_depth = …` in `skills_bundle!`",
        }
    }
}
