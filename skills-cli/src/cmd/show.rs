//! `skb show`: a skill's activation, as this crate's runtime gives it or,
//! with `--style claude-code|codex`, exactly as that client gives it to its
//! model (`skills_bundle::activation`).
//!
//! - Default: the runtime's text, `Base directory for this skill:
//!   skill://<name>`, a blank line and the body with Claude Code's
//!   placeholders filled (followed by a line break when it lacks one).
//! - `--style claude-code`: the text block Claude Code sends after a
//!   `Skill` call, byte for byte: the base directory is the skill's
//!   absolute directory on disk; the skill is found by folder name first,
//!   then by frontmatter name, as Claude Code resolves both; of two folders
//!   with one name the first wins (give the user's folder first, as Claude
//!   Code does), and a frontmatter name never wins over a folder of that
//!   name; a skill with `disable-model-invocation: true` is refused, as
//!   Claude Code refuses it to the model. Claude Code's settings
//!   (`claude_settings`) apply: `skillOverrides` (`off`: unknown;
//!   `user-invocable-only`: refused) and `disableSkillShellExecution`.
//!   The name is trimmed and one leading `/` dropped (`/name` is `name`),
//!   as Claude Code reads it. With `--run-commands`, a command Claude
//!   Code's read-only rule lets run (`echo`, `ls`, `cat`, ...;
//!   `activation::read_only`) runs without a rule, as it does there.
//!   Claude Code sends the text after a tool result `Launching skill: <name
//!   as read>`; `--json` prints both, and the skill's commands with
//!   whether Claude Code would run each without asking
//!   (`activation::read_only`), which stderr says otherwise.
//! - `--style gemini-cli`: the `<activated_skill>` answer to Gemini CLI's
//!   `activate_skill` ([`gemini_cli`]), from the skills as Gemini CLI lists
//!   them, before any validation.
//! - `--style copilot`: the `<skill-context>` user message Copilot CLI's
//!   `skill` tool adds ([`copilot`]), from the skills as Copilot lists them.
//! - `--style qwen-code`: the answer to Qwen Code's `skill` tool
//!   ([`qwen_code`]), from the skills as Qwen Code lists them.
//! - `--style kimi-code`: the `<skill-loaded>` message Kimi Code's `Skill`
//!   tool adds ([`kimi_code`]), its argument placeholders filled.
//! - `--style codex`: the `<skill>` message Codex adds for `$name`: found by
//!   frontmatter name only; a name two skills share, or one with a blank
//!   (which a `$` mention cannot hold), injects nothing in Codex and is an
//!   error here.
//!
//! With `--style`, the skills are read from their folders as the client
//! reads them: checked with that client's profile (unless another than
//! `spec` is given) for Claude Code and Codex, read by the client's own
//! reader for Gemini CLI and OpenCode. Only the skill asked for must load:
//! another one in the same folders that the client refuses does not stop
//! the command. A skill found where the client does not look (another
//! client's folder, a level or depth it does not read) is not the client's
//! to show, and the error says why.
//!
//! `` !`cmd` `` is replaced by a marker unless `--run-commands` is given;
//! then each command is checked as a `Bash` call against the skill's
//! `allowed-tools` (placeholders filled) and the `--allow` rules, and runs
//! through the script executor (the skill's files materialised in the
//! private cache as its working directory, reduced environment, 60 s, capped
//! output); a command with shell syntax needs a rule without a pattern
//! (`Bash`), whatever the arguments hold: they reach a command as quoted
//! data, and only the skill's own text holds commands. A program in the
//! skill's folder (`${CLAUDE_SKILL_DIR}/scripts/x.sh`) runs as the same file
//! of the materialised copy. Nobody is asked: a command no rule allows fails
//! the activation, as a failing command does.

mod copilot;
mod gemini_cli;
mod kimi_code;
mod opencode;
mod qwen_code;

use std::cell::RefCell;
use std::collections::HashSet;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use skills_bundle::Bundle;
use skills_bundle::activation::claude_code::Vars;
use skills_bundle::activation::commands;
use skills_bundle::activation::read_only::{self, Basis, Prediction};
use skills_bundle::activation::{CommandError, Options, PolicyRunner, Rule, RunCommand};
use skills_bundle::exec::LocalExecutor;
use skills_bundle::pack::{Pack, Trust};
use skills_bundle::{Mode, Skill, ToolPolicy};
use skills_compiler::client::{self, Client};
use skills_compiler::embed::{self, Plan};
use skills_compiler::pack::write_pack;
use skills_core::catalog::claude_code::is_js_whitespace;
use skills_core::tools;
use skills_core::zip::write::DosTime;

use crate::Outcome;
use crate::args::{CheckArgs, ClientArg, ProfileArg, ShowArgs};
use crate::cmd::claude_settings::{Override, SHELL_DISABLED, Settings};
use crate::cmd::pack::checked_plan_with;
use crate::output::{fail, print_text as print};

/// One skill as found on disk (`--style claude-code|codex`).
struct Located {
    /// Its name in a bundle (the frontmatter name, `plugin:skill` in a
    /// plugin), or its folder's name when it has none.
    name: String,
    /// Its folder, absolute.
    dir: PathBuf,
    /// Why the client shown (`--style`) never reads it: it sits where that
    /// client does not look.
    unread: Option<String>,
    /// The errors the client's profile finds in it: why the client would
    /// not load it (empty when it would).
    errors: Vec<String>,
}

impl Located {
    fn folder(&self) -> &str {
        self.dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
    }

    /// Fails with the skill's errors, when it has any: under the client's
    /// profile, each says why the client would not load it.
    fn refused(&self) -> Option<io::Result<Outcome>> {
        (!self.errors.is_empty()).then(|| {
            fail(&format!(
                "`{}`: {}",
                self.dir.display(),
                self.errors.join("; ")
            ))
        })
    }
}

/// Runs `skb show`.
pub fn run(mut args: ShowArgs) -> io::Result<Outcome> {
    let Some(style) = args.style else {
        return runtime(&args);
    };
    let client = style.client();
    // The client's profile, so that what the client loads is shown.
    if args.check.profile == ProfileArg::SPEC {
        args.check.profile = ProfileArg::from(style);
    }
    // Every client's activation is read from the folders as that client
    // reads them, not from skills that all validate: a skill the client
    // loads is shown even where another in the same folder is refused.
    match client {
        Client::ClaudeCode => claude_code(&args, &locate(&args)?),
        Client::Codex => codex(&args, &locate(&args)?),
        Client::GeminiCli => gemini_cli::run(&args),
        Client::OpenCode => opencode::run(&args),
        Client::Copilot => copilot::run(&args),
        Client::QwenCode => qwen_code::run(&args),
        Client::KimiCode => kimi_code::run(&args, new_session_id),
    }
}

/// `skb show NAME` without `--style`: the runtime's activation, from the
/// skills (or the archive) given, all of which must validate.
fn runtime(args: &ShowArgs) -> io::Result<Outcome> {
    let name = args.name.as_str();
    let bundle = if let [one] = args.from.as_slice()
        && skills_install::input::is_archive(one)
    {
        crate::bundle::bundle_of(&args.from, &args.check)?
    } else {
        match checked_plan_with(&args.from, &args.check)? {
            Some((plan, _)) => Some(bundle_of_plan(&plan, &args.check)?),
            None => None,
        }
    };
    let Some(bundle) = bundle else {
        return Ok(Outcome::Invalid);
    };
    let Some(skill) = bundle.get(name) else {
        return fail(&format!("no skill `{name}`; available: {}", names(&bundle)));
    };
    match activate(args, &skill, None)? {
        Ok(mut text) => {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            print(&text)
        }
        Err(e) => fail(&e),
    }
}

/// Every skill under the paths given, checked with the client's profile,
/// each with its folder, what keeps the client from reading it, and its
/// errors. Nothing is refused here: the skill asked for is judged alone.
fn locate(args: &ShowArgs) -> io::Result<Vec<Located>> {
    super::found::folders_only(&args.from)?;
    let inputs = skills_install::input::prepare(&args.from, &args.check.limits.limits())?;
    let checked = skills_compiler::check(&inputs.roots, &args.check.options());
    for d in checked
        .roots
        .iter()
        .flat_map(|(_, d)| d)
        .filter(|d| d.is_error())
    {
        eprintln!("{}", skills_compiler::render::shown(&d.to_string()));
    }
    let client = args.style.map(ClientArg::client);
    Ok(checked
        .skills
        .iter()
        .map(|s| {
            let dir = std::path::absolute(&s.dir).unwrap_or_else(|_| s.dir.clone());
            let folder = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Located {
                name: s.qualified_name().unwrap_or(folder),
                unread: client.and_then(|c| client::other_clients_folder(c, s)),
                errors: s
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| format!("{} [{}]", d.message, d.code.as_str()))
                    .collect(),
                dir,
            }
        })
        .collect())
}

/// The reason `name` is unknown to the client when only skills in the
/// other client's folder have it (by folder or frontmatter name).
fn unread(located: &[Located], name: &str) -> Option<String> {
    located
        .iter()
        .find(|l| l.name == name || l.folder() == name)
        .and_then(|l| l.unread.clone())
}

fn claude_code(args: &ShowArgs, located: &[Located]) -> io::Result<Outcome> {
    // Claude Code trims the name the skill is called by and drops one
    // leading `/`, in the lookup and in `Launching skill:` (recorded on
    // 2.1.332: `/name` and ` /name` load `name`; `//name` is unknown).
    let called = args.name.trim_matches(is_js_whitespace);
    let name = called.strip_prefix('/').unwrap_or(called);
    // Claude Code's skills: none from another client's folder, and of two
    // folders with one name only the first (the user's, given first).
    let mut folders = HashSet::new();
    let visible: Vec<&Located> = located
        .iter()
        .filter(|l| l.unread.is_none() && folders.insert(l.folder()))
        .collect();
    let project = match &args.activation.project_dir {
        Some(dir) => std::path::absolute(dir)?,
        None => std::env::current_dir()?,
    };
    let settings = Settings::current(&project);
    let found = visible
        .iter()
        .find(|l| l.folder() == name)
        .or_else(|| visible.iter().find(|l| l.name == name));
    let hidden = found.filter(|l| settings.override_for(l.folder()) == Override::Off);
    let Some(found) = found.filter(|_| hidden.is_none()) else {
        if let Some(why) = unread(located, name) {
            return fail(&format!("Claude Code knows no skill `{name}`: {why}"));
        }
        if hidden.is_some() {
            return fail(&format!(
                "Claude Code knows no skill `{name}`: `skillOverrides` in its settings sets it to \"off\""
            ));
        }
        let names: Vec<&str> = visible.iter().map(|l| l.folder()).collect();
        return fail(&format!(
            "Claude Code knows no skill `{name}` (it looks up folder names, then frontmatter names); available: {}",
            names.join(", ")
        ));
    };
    if let Some(refused) = found.refused() {
        return refused;
    }
    // The folder alone: another skill with the same frontmatter name is
    // not the one Claude Code activates.
    let bundle = bundle_of_folder(&found.dir, &args.check)?;
    let Some(skill) = bundle.get(&found.name).or_else(|| bundle.skills().next()) else {
        return fail(&format!("no skill in {}", found.dir.display()));
    };
    if skill.disables_model_invocation() {
        return fail(&format!(
            "Claude Code refuses `{name}` to the model: it sets `disable-model-invocation: true`, so only the user can run /{name} (`skb show {name}` without --style prints its instructions)"
        ));
    }
    if settings.override_for(found.folder()) == Override::UserInvocableOnly {
        return fail(&format!(
            "Claude Code refuses `{name}` to the model: `skillOverrides` in its settings sets it to \"user-invocable-only\", so only the user can run /{name}"
        ));
    }
    let dir = found.dir.to_string_lossy().into_owned();
    let project = display(&project);
    let claude = ClaudeRun {
        disable_shell: settings.disable_shell,
        project: &project,
    };
    let (text, commands) = activate_seen(args, &skill, Some(&dir), Some(&claude))?;
    let predicted: Vec<(String, Prediction)> = commands
        .into_iter()
        .map(|c| {
            let p = read_only::predict(&c, &project);
            (c, p)
        })
        .collect();
    if !args.activation.json {
        for (command, prediction) in &predicted {
            eprintln!("skb: {}", prediction_line(command, prediction));
        }
    }
    match text {
        Ok(text) if args.activation.json => print(&format!(
            "{}\n",
            serde_json::json!({
                "tool_result": format!("Launching skill: {name}"),
                "text": text,
                "commands": predicted.iter().map(|(command, p)| serde_json::json!({
                    "command": command,
                    "runs_without_asking": matches!(p, Prediction::Runs(_)),
                    "why": prediction_reason(p),
                })).collect::<Vec<_>>(),
            })
        )),
        Ok(text) => print(&text),
        Err(e) => fail(&e),
    }
}

/// What Claude Code does with `command` in its default permission mode,
/// as a line for the user.
fn prediction_line(command: &str, prediction: &Prediction) -> String {
    match prediction {
        Prediction::Runs(_) => format!(
            "Claude Code (default permission mode) would run !`{command}` without asking: {}",
            prediction_reason(prediction)
        ),
        Prediction::Asks(_) => format!(
            "Claude Code (default permission mode) would ask before running !`{command}` unless a rule allows it: {}",
            prediction_reason(prediction)
        ),
    }
}

fn prediction_reason(prediction: &Prediction) -> String {
    match prediction {
        Prediction::Runs(program) => format!(
            "`{}` is read-only ({})",
            program.name,
            match program.basis {
                Basis::Recorded => "recorded",
                Basis::Listed => "in Claude Code's read-only list",
            }
        ),
        Prediction::Asks(why) => why.clone(),
    }
}

/// The skill in the folder `dir` alone, as a bundle (its problems were
/// reported when all the skills were checked).
fn bundle_of_folder(dir: &Path, check: &CheckArgs) -> io::Result<Bundle> {
    let inputs = skills_install::input::prepare(&[dir.to_path_buf()], &check.limits.limits())?;
    // The folder only: not the user's folders `--user` adds.
    let mut options = check.options();
    options.discovery.user = None;
    let checked = skills_compiler::check(&inputs.roots, &options);
    let plan = embed::plan(&checked, &inputs.roots, &check.exclude).map_err(|e| {
        io::Error::other(inputs.label(&e.path).display().to_string() + ": " + &e.message)
    })?;
    bundle_of_plan(&plan, check)
}

/// The bundle a plan packs into.
fn bundle_of_plan(plan: &Plan, check: &CheckArgs) -> io::Result<Bundle> {
    let bytes = write_pack(plan, DosTime::EPOCH).map_err(io::Error::other)?;
    Pack::open_with_limits(&bytes, Trust::Unsigned, &check.limits.limits())
        .map(Pack::into_bundle)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

/// Records each `` !`cmd` `` of an activation, then runs it with the
/// runner given, puts Claude Code's text for disabled commands in place,
/// or the marker.
struct Seen<'a> {
    runner: Option<&'a dyn RunCommand>,
    disabled: bool,
    /// Claude Code's read-only rule, with the policy it grants each
    /// read-only command in and the working directory it judges paths by
    /// (`--style claude-code --run-commands`).
    read_only: Option<(&'a ToolPolicy, &'a str)>,
    commands: RefCell<Vec<String>>,
}

/// Who the commands Claude Code runs without asking are granted to.
const READ_ONLY_RULE: &str = "Claude Code's read-only rule";

impl RunCommand for Seen<'_> {
    fn run(&self, skill: &Skill<'_>, command: &str) -> Result<String, CommandError> {
        self.commands.borrow_mut().push(command.to_string());
        if self.disabled {
            return Ok(SHELL_DISABLED.to_string());
        }
        // What Claude Code runs without asking runs here too: that very
        // command line is allowed.
        if let (Some(_), Some((policy, project))) = (self.runner, self.read_only)
            && let Prediction::Runs(_) = read_only::predict(command, project)
        {
            policy.grant(
                READ_ONLY_RULE,
                [tools::ToolRule {
                    tool: "Bash",
                    pattern: Some(command),
                }],
            );
        }
        match self.runner {
            Some(runner) => runner.run(skill, command),
            None => Ok(commands::marker(command)),
        }
    }
}

fn codex(args: &ShowArgs, located: &[Located]) -> io::Result<Outcome> {
    let name = args.name.as_str();
    if name.contains(char::is_whitespace) {
        return fail(&format!(
            "Codex cannot activate `{name}`: a `$` mention ends at the first blank, so `${name}` selects no skill"
        ));
    }
    let named: Vec<&Located> = located
        .iter()
        .filter(|l| l.name == name && l.unread.is_none())
        .collect();
    let found = match named.as_slice() {
        [one] => Some(*one),
        [] => None,
        several => {
            let dirs: Vec<String> = several
                .iter()
                .map(|l| l.dir.display().to_string())
                .collect();
            return fail(&format!(
                "{} skills are named `{name}` ({}): Codex lists them all and injects none for `${name}`",
                several.len(),
                dirs.join(", ")
            ));
        }
    };
    let Some(found) = found else {
        if let Some(why) = unread(located, name) {
            return fail(&format!("Codex knows no skill named `{name}`: {why}"));
        }
        let mut names: Vec<&str> = located
            .iter()
            .filter(|l| l.unread.is_none())
            .map(|l| l.name.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        return fail(&format!(
            "Codex knows no skill named `{name}` (it matches frontmatter names only); available: {}",
            names.join(", ")
        ));
    };
    if let Some(refused) = found.refused() {
        return refused;
    }
    let bundle = bundle_of_folder(&found.dir, &args.check)?;
    let Some(skill) = bundle.get(name) else {
        return fail(&format!("no skill `{name}` in {}", found.dir.display()));
    };
    match skill.activate_codex(&found.dir.to_string_lossy()) {
        Ok(text) if args.activation.json => {
            print(&format!("{}\n", serde_json::json!({ "message": text })))
        }
        Ok(text) => print(&text),
        Err(e) => fail(&e.to_string()),
    }
}

/// The activation text with the options of `args`, `base_dir` being the
/// skill's folder (`None`: `skill://<name>`). The inner error is the
/// activation's, for the user.
fn activate(
    args: &ShowArgs,
    skill: &Skill<'_>,
    base_dir: Option<&str>,
) -> io::Result<Result<String, String>> {
    Ok(activate_seen(args, skill, base_dir, None)?.0)
}

/// How Claude Code treats a skill's commands (`--style claude-code`).
struct ClaudeRun<'a> {
    /// `disableSkillShellExecution`: none runs, each is replaced by Claude
    /// Code's [`SHELL_DISABLED`] text.
    disable_shell: bool,
    /// The working directory its read-only rule judges paths by; with
    /// `--run-commands`, a command that rule lets run needs no other rule.
    project: &'a str,
}

/// [`activate`], and the commands the skill's text asked to run (its
/// placeholders filled), whether they ran or not.
fn activate_seen(
    args: &ShowArgs,
    skill: &Skill<'_>,
    base_dir: Option<&str>,
    claude: Option<&ClaudeRun<'_>>,
) -> io::Result<(Result<String, String>, Vec<String>)> {
    let opts = &args.activation;
    // The client's values; without --style, only what was given.
    let session_id = match (&opts.session_id, base_dir) {
        (Some(id), _) => Some(id.clone()),
        (None, Some(_)) => Some(new_session_id()?),
        (None, None) => None,
    };
    let project_dir = match (&opts.project_dir, base_dir) {
        (Some(dir), _) => Some(display(&std::path::absolute(dir)?)),
        (None, Some(_)) => Some(display(&std::env::current_dir()?)),
        (None, None) => None,
    };
    let virtual_dir = skill.base_dir();
    let vars = Vars {
        skill_dir: base_dir.unwrap_or(&virtual_dir),
        session_id: session_id.as_deref(),
        project_dir: project_dir.as_deref(),
    };
    let policy = ToolPolicy::new(Mode::PreApprove);
    let executor = if opts.run_commands {
        let mut executor = LocalExecutor::with_default_cache().map_err(io::Error::other)?;
        // The policy decides: only a rule without a pattern allows a line
        // with shell syntax.
        executor.allow_shell = true;
        let rules: Vec<Rule> = skill
            .allowed_tools()
            .map(|r| Rule::expanded(r, &vars))
            .collect();
        policy.grant(skill.name(), rules.iter().map(Rule::as_tool_rule));
        for rule in &opts.allow {
            policy.grant("--allow", tools::split(rule));
        }
        Some(executor)
    } else {
        None
    };
    let runner = executor.as_ref().map(|executor| PolicyRunner {
        policy: &policy,
        executor,
        base_dir: Some(vars.skill_dir),
    });
    let seen = Seen {
        runner: runner.as_ref().map(|r| r as _),
        disabled: claude.is_some_and(|c| c.disable_shell),
        read_only: claude.map(|c| (&policy, c.project)),
        commands: RefCell::new(Vec::new()),
    };
    let mut options = Options::default().with_arguments(&args.arguments);
    options.base_dir = base_dir;
    options.session_id = vars.session_id;
    options.project_dir = vars.project_dir;
    options.commands = Some(&seen);
    let text = skill
        .activate_with(&options)
        .map(|a| a.content)
        .map_err(|e| e.to_string());
    Ok((text, seen.commands.into_inner()))
}

/// A random UUID (version 4), as Claude Code's session ids are.
fn new_session_id() -> io::Result<String> {
    let mut b = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut b)?;
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    Ok(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn names(bundle: &Bundle) -> String {
    bundle
        .skills()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ")
}
