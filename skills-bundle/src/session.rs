//! One conversation's use of a bundle: which skills are active, what the
//! policy allows, and the answer to each instruction or tool call.
//!
//! A [`Session`] serves both protocol styles over the same rules: the XML
//! instructions of [`protocol`] ([`Session::xml_prompt`] and
//! [`Session::handle_xml`]) and function calling
//! ([`Session::function_calling_prompt`], [`Session::tool_definitions`] and
//! [`Session::call_tool`], with `activate_skill`, `read_skill_resource` and
//! `run_skill_script`). Activating a skill grants its `allowed-tools` in the
//! session's [`ToolPolicy`]; a skill is injected once (activating it again
//! says so instead of repeating its body) and can be unloaded, which revokes
//! its grants. A script runs in the directory of the skill the call names,
//! and only if that skill's own `allowed-tools` (its grant while active,
//! else the rules it lists) allow `Bash` with that command line, after the
//! policy's deny rules: another skill's grant never widens them, and no
//! activation is needed first (clients that open a session per call can
//! run scripts). `Ask` counts as no, because there is nobody to ask in an
//! unattended loop (a host that can ask wraps the session).
//!
//! Invocation control ([`invocation`](crate::invocation)): the model is
//! offered, in the catalog and the tools' `enum`, the skills it may invoke
//! ([`Session::offered`]); `paths`-scoped ones join once
//! [`Session::touch`] reports a matching path. The model's requests for
//! another skill are refused ([`SessionError::UserOnly`],
//! [`SessionError::OutOfScope`]) unless the host or the user activated it. Every failure is
//! a [`SessionError`], whose text is the answer for the model; never a
//! panic.
//!
//! This is also the framework-neutral layer that other integrations sit on
//! (the MCP server, the rig adapter, any function-calling API): the
//! [`tool_definitions`](Session::tool_definitions) as JSON Schema, and
//! [`call_tool`](Session::call_tool) by name with JSON arguments.
//! Its methods take `&self` (the active set sits behind a lock, the policy
//! has its own), so one session can be shared, in an `Arc`, by every tool
//! object of a framework and by concurrent requests; a script runs without
//! any lock held. The session owns a clone of its [`Bundle`] (a pointer
//! copy, or an `Arc` for a loaded pack), so it is `'static`.
//!
//! Every rule is written once, as `async` code over a `Runs` executor:
//! a blocking [`ScriptExecutor`] gives a future that is ready at once, so
//! the blocking methods ([`Session::call_tool`], [`Session::handle_xml`]) poll
//! that code once (`ready_now`), and the `_async` methods await it with
//! an [`AsyncScriptExecutor`]. The two APIs cannot drift apart.

use std::future::Future;
use std::pin::pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

use crate::activation::claude_code::Vars;
use crate::activation::{self, Rule};
use crate::exec::{AsyncScriptExecutor, Command, ExecError, Output, ScriptExecutor};
use crate::policy::{Decision, Mode, ToolPolicy};
use crate::protocol::{self, Instruction};
use crate::{Bundle, Skill};
use skills_core::json::{self, Value};

mod error;
mod offer;
mod tools;

pub use error::SessionError;
pub use tools::{ACTIVATE, READ, RUN};

/// A function-calling tool: what a model API needs to offer it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolDefinition {
    /// The tool's name ([`ACTIVATE`], [`READ`] or [`RUN`]).
    pub name: &'static str,
    /// What it does, for the model.
    pub description: &'static str,
    /// Its arguments: a JSON Schema object, as JSON text.
    pub parameters: String,
}

impl ToolDefinition {
    /// `{"name": …, "description": …, "parameters": …}`, the shape most
    /// model APIs wrap (OpenAI inside `{"type": "function", "function": …}`,
    /// Anthropic with `input_schema` for `parameters`).
    pub fn to_json(&self) -> String {
        format!(
            "{{\"name\": {}, \"description\": {}, \"parameters\": {}}}",
            json::quote(self.name),
            json::quote(self.description),
            self.parameters
        )
    }

    /// A JSON array of [`ToolDefinition::to_json`].
    pub fn array_json(tools: &[ToolDefinition]) -> String {
        let items: Vec<String> = tools.iter().map(ToolDefinition::to_json).collect();
        format!("[{}]", items.join(", "))
    }
}

/// A conversation's skills; see the module documentation.
#[derive(Debug)]
pub struct Session<E> {
    bundle: Bundle,
    executor: E,
    policy: ToolPolicy,
    active: Mutex<Vec<String>>,
    budget: Option<usize>,
    offer: offer::Offer,
}

/// Runs a command for the session's rules, blocking or not.
pub(crate) trait Runs {
    /// The command's output.
    fn run_command(
        &self,
        skill: &Skill<'_>,
        command: &Command,
    ) -> impl Future<Output = Result<Output, ExecError>> + Send;
}

/// A blocking executor: the run happens in `run_command`, whose future is
/// ready at once.
pub(crate) struct Blocking<'e, E>(pub(crate) &'e E);

impl<E: ScriptExecutor> Runs for Blocking<'_, E> {
    fn run_command(
        &self,
        skill: &Skill<'_>,
        command: &Command,
    ) -> impl Future<Output = Result<Output, ExecError>> + Send {
        std::future::ready(self.0.run(skill, command))
    }
}

/// An async executor: the run is its future.
pub(crate) struct NonBlocking<'e, E>(pub(crate) &'e E);

impl<E: AsyncScriptExecutor> Runs for NonBlocking<'_, E> {
    fn run_command(
        &self,
        skill: &Skill<'_>,
        command: &Command,
    ) -> impl Future<Output = Result<Output, ExecError>> + Send {
        self.0.run_async(skill, command)
    }
}

/// The value of a future built only from futures that are ready at once
/// (the blocking adapters above and in [`agent`](crate::agent)): one poll.
pub(crate) fn ready_now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        // Ready at the first poll by construction; looping (rather than
        // panicking) keeps this total should a pending future slip in.
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return value;
        }
        std::thread::yield_now();
    }
}

impl<E> Session<E> {
    /// A session over `bundle` (cloned: a pointer copy, or an `Arc` for a
    /// loaded pack), running scripts with `executor` (a [`ScriptExecutor`]
    /// for the blocking methods, an [`AsyncScriptExecutor`] for the
    /// `_async` ones), reading `allowed-tools` as `mode` says.
    pub fn new(bundle: &Bundle, executor: E, mode: Mode) -> Self {
        Session {
            bundle: bundle.clone(),
            executor,
            policy: ToolPolicy::new(mode),
            active: Mutex::new(Vec::new()),
            budget: None,
            offer: offer::Offer::new(bundle),
        }
    }

    /// Keeps the catalog in the system prompt within `chars` characters
    /// (descriptions are dropped before names, [`Bundle::catalog_within`]).
    pub fn with_catalog_budget(mut self, chars: usize) -> Self {
        self.budget = Some(chars);
        self
    }

    /// The bundle.
    pub fn bundle(&self) -> &Bundle {
        &self.bundle
    }

    /// The catalog of the skills offered to the model ([`Session::offered`]),
    /// within the budget if one is set.
    pub fn catalog(&self) -> std::borrow::Cow<'_, str> {
        offer::catalog(&self.bundle, &self.offer.mask(), self.budget)
    }

    /// The catalog of the skills offered to the model in a client's
    /// dialect ([`Bundle::catalog_style`]), within `budget` in the style's
    /// unit (`None`: the style's default).
    pub fn catalog_style(
        &self,
        style: skills_core::catalog::Style,
        budget: Option<usize>,
    ) -> String {
        self.bundle
            .catalog_style_of(style, budget, &self.offer.mask())
    }

    /// The skills offered to the model now, in bundle order: every skill
    /// but those with `disable-model-invocation: true`, and of the
    /// `paths`-scoped ones only those a [touched](Session::touch) path
    /// concerns ([`invocation`](crate::invocation)).
    pub fn offered(&self) -> Vec<String> {
        self.bundle
            .skills()
            .zip(self.offer.mask())
            .filter(|(_, offered)| *offered)
            .map(|(skill, _)| skill.name().to_string())
            .collect()
    }

    /// Tells the session that the conversation is about `path` (relative
    /// to the project root, `/`-separated: a file read, edited or named):
    /// every `paths`-scoped skill whose globs match it is offered to the
    /// model from now on, in the next [`Session::catalog`] and
    /// [`Session::tool_definitions`]. Returns the names of the skills this
    /// path brought in.
    pub fn touch(&self, path: &str) -> Vec<String> {
        let opened = self.offer.touch(path);
        let skills: Vec<Skill<'_>> = self.bundle.skills().collect();
        opened
            .into_iter()
            .filter_map(|i| skills.get(i).map(|s| s.name().to_string()))
            .collect()
    }

    /// The policy, to add deny rules or the development override.
    pub fn policy(&self) -> &ToolPolicy {
        &self.policy
    }

    /// The executor.
    pub fn executor(&self) -> &E {
        &self.executor
    }

    /// The active skills, in activation order.
    pub fn active(&self) -> Vec<String> {
        self.active_set().clone()
    }

    /// The system prompt for the XML protocol ([`Protocol::Xml`]): the catalog
    /// and the three instructions.
    ///
    /// [`Protocol::Xml`]: crate::agent::Protocol::Xml
    pub fn xml_prompt(&self) -> String {
        protocol::system_prompt(&self.catalog())
    }

    /// The system prompt for function calling ([`Protocol::FunctionCalling`]):
    /// the catalog and a line on the three tools of
    /// [`Session::tool_definitions`].
    ///
    /// [`Protocol::FunctionCalling`]: crate::agent::Protocol::FunctionCalling
    pub fn function_calling_prompt(&self) -> String {
        format!(
            "{}\n\nTo use a skill, call `{ACTIVATE}` with its name first, then follow its instructions with `{READ}` and `{RUN}`.",
            self.catalog()
        )
    }

    /// Activates a skill (level 2) for the host or the user: its
    /// instructions, or a note that it is already active. Grants its
    /// `allowed-tools`. Invocation control does not apply (the user may
    /// invoke a `disable-model-invocation` skill); the model's requests,
    /// [`Session::call_tool`] and [`Session::handle_xml`], are checked
    /// first.
    pub fn activate(&self, name: &str, arguments: &str) -> Result<String, SessionError> {
        let skill = self.skill(name)?;
        // Held from the check to the push: two concurrent activations of
        // one skill inject it once.
        let mut active = self.active_set();
        if active.iter().any(|a| a == name) {
            return Ok(format!(
                "The skill `{name}` is already active; its instructions are above."
            ));
        }
        let activation = skill.activate(arguments)?;
        self.policy.grant(
            name,
            activation.allowed_tools.iter().map(Rule::as_tool_rule),
        );
        active.push(name.to_string());
        Ok(activation.content)
    }

    /// Unloads an active skill, revoking its grants; whether it was active.
    pub fn unload(&self, name: &str) -> bool {
        let mut active = self.active_set();
        let Some(i) = active.iter().position(|a| a == name) else {
            return false;
        };
        active.remove(i);
        self.policy.revoke(name);
        true
    }

    /// Reads a file of a skill (level 3) as text.
    pub fn read(&self, name: &str, path: &str) -> Result<String, SessionError> {
        let bytes = self.skill(name)?.read(path)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| SessionError::NotText {
            path: path.to_string(),
            len: bytes.len(),
        })
    }

    /// The three function-calling tools, the skill names as a JSON Schema
    /// `enum`; [`ToolDefinition::array_json`] gives them as JSON. The
    /// `enum` of `activate_skill` holds the skills [offered](Session::offered);
    /// those of the other two also the active ones (a skill the user
    /// invoked).
    pub fn tool_definitions(&self) -> Vec<ToolDefinition> {
        let offered = self.offered();
        let mut usable = offered.clone();
        for name in self.active() {
            if !usable.contains(&name) {
                usable.push(name);
            }
        }
        let property = |names: &[String]| {
            let names: Vec<String> = names.iter().map(|n| json::quote(n)).collect();
            format!(
                "{{\"type\": \"string\", \"enum\": [{}], \"description\": \"The skill's name, from <available_skills>.\"}}",
                names.join(", ")
            )
        };
        let (activatable, skill) = (property(&offered), property(&usable));
        let object = |properties: String, required: &str| {
            format!(
                "{{\"type\": \"object\", \"properties\": {{{properties}}}, \"required\": [{required}], \"additionalProperties\": false}}"
            )
        };
        vec![
            ToolDefinition {
                name: ACTIVATE,
                description: "Load a skill's full instructions. Call it before using a skill.",
                parameters: object(
                    format!(
                        "\"name\": {activatable}, \"arguments\": {{\"type\": \"string\", \"description\": \"What $ARGUMENTS stands for in the instructions.\"}}"
                    ),
                    "\"name\"",
                ),
            },
            ToolDefinition {
                name: READ,
                description: "Read a file of a skill (a reference, template or script).",
                parameters: object(
                    format!(
                        "\"skill\": {skill}, \"path\": {{\"type\": \"string\", \"description\": \"Relative to the skill directory, for example references/REFERENCE.md.\"}}"
                    ),
                    "\"skill\", \"path\"",
                ),
            },
            ToolDefinition {
                name: RUN,
                description: "Run a command in a skill's directory, as its instructions say, under its allowed-tools.",
                parameters: object(
                    format!(
                        "\"skill\": {skill}, \"command\": {{\"type\": \"string\", \"description\": \"The command line, without shell operators, for example python3 scripts/calc.py '2 + 2'.\"}}"
                    ),
                    "\"skill\", \"command\"",
                ),
            },
        ]
    }

    fn active_set(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.active.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn run_with(
        &self,
        runs: &impl Runs,
        name: &str,
        command: &str,
    ) -> Result<(Option<i32>, String, String), SessionError> {
        let out = self.run_output_with(runs, name, command).await?;
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let mut stderr = text(&out.stderr);
        if out.timed_out {
            stderr.push_str("\n[killed: the time limit was reached]");
        }
        Ok((out.exit_code, text(&out.stdout), stderr))
    }

    async fn run_output_with(
        &self,
        runs: &impl Runs,
        name: &str,
        command: &str,
    ) -> Result<Output, SessionError> {
        let skill = self.for_model(name)?;
        // The skill's own rules decide: another skill's grant never runs
        // this one's files, and a skill the model may use needs no
        // activation first (clients that open a session per call). Its
        // rules have the activation's variables filled
        // (`${CLAUDE_SKILL_DIR}` is `skill://<name>`), and
        // `skill://<name>/scripts/x.sh` runs as `scripts/x.sh`: a rule may use
        // either spelling, and a deny rule matching either wins.
        let base = skill.base_dir();
        let vars = Vars {
            skill_dir: &base,
            ..Vars::default()
        };
        let rules: Vec<Rule> = skill
            .allowed_tools()
            .map(|r| Rule::expanded(r, &vars))
            .collect();
        let check = |line: &str| {
            self.policy.check_for(
                name,
                rules.iter().map(Rule::as_tool_rule),
                "Bash",
                Some(line),
            )
        };
        let (decision, command) = activation::decide(command, &base, check);
        let command = &*command;
        match decision {
            Decision::Allow { .. } => {}
            Decision::Restricted(e) => return Err(SessionError::Restricted(e)),
            Decision::Denied { rule } => {
                return Err(SessionError::Denied {
                    command: command.to_string(),
                    rule,
                });
            }
            Decision::Ask => {
                return Err(SessionError::NotApproved {
                    command: command.to_string(),
                });
            }
        }
        let command = Command::parse(command)?;
        Ok(runs.run_command(&skill, &command).await?)
    }

    pub(crate) async fn handle_xml_with(
        &self,
        runs: &impl Runs,
        instruction: &Instruction,
    ) -> String {
        let result = match instruction {
            Instruction::UseSkill { name } => self
                .for_model(name)
                .and_then(|_| self.activate(name, ""))
                .map(|c| protocol::wrap_skill_content(name, &c)),
            Instruction::ExecuteScript { skill, command } => self
                .run_with(runs, skill, command)
                .await
                .map(|(code, out, err)| protocol::wrap_script_result(code, &out, &err)),
            Instruction::ReadResource { skill, path } => self
                .for_model(skill)
                .and_then(|_| self.read(skill, path))
                .map(|text| protocol::wrap_resource_content(path, &text)),
            Instruction::Malformed { element, reason } => {
                let message = format!("`<{element}>` could not be read: {reason}");
                return protocol::wrap_error(instruction, &message);
            }
        };
        result.unwrap_or_else(|e| protocol::wrap_error(instruction, &e.to_string()))
    }

    pub(crate) async fn call_tool_with(
        &self,
        runs: &impl Runs,
        name: &str,
        arguments: &str,
    ) -> Result<String, SessionError> {
        // The name first: a call of no tool is that, whatever its arguments.
        if ![ACTIVATE, READ, RUN].contains(&name) {
            return Err(SessionError::UnknownTool {
                name: name.to_string(),
            });
        }
        let args = json::parse(arguments, 4)
            .map_err(|e| SessionError::ArgumentsNotJson { message: e.message })?;
        let field = |key: &'static str| -> Result<String, SessionError> {
            match args.get(key).map(|n| &n.value) {
                Some(Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(SessionError::ArgumentNotString { name: key }),
                None => Err(SessionError::MissingArgument { name: key }),
            }
        };
        match name {
            ACTIVATE => {
                // Optional: absent is none, anything but a string is refused.
                let arguments = match field("arguments") {
                    Err(SessionError::MissingArgument { .. }) => String::new(),
                    arguments => arguments?,
                };
                let name = field("name")?;
                self.for_model(&name)?;
                self.activate(&name, &arguments)
            }
            READ => {
                let skill = field("skill")?;
                self.for_model(&skill)?;
                self.read(&skill, &field("path")?)
            }
            // RUN, the one name left.
            _ => self
                .run_with(runs, &field("skill")?, &field("command")?)
                .await
                .map(|(code, out, err)| {
                    let mut text = format!("exit code: {}\n{out}", code.unwrap_or(-1));
                    if !err.is_empty() {
                        text.push_str("\nstderr:\n");
                        text.push_str(&err);
                    }
                    text
                }),
        }
    }

    /// The skill `name` for a request of the model: an active skill, or
    /// one [offered](Session::offered); else why not (a skill the model
    /// may not invoke, or whose `paths` no touched path matched, is
    /// refused as such; an unknown name lists the offered skills).
    fn for_model(&self, name: &str) -> Result<Skill<'_>, SessionError> {
        let index = self.bundle.skills().position(|s| s.name() == name);
        let (Some(index), Some(skill)) = (index, self.bundle.get(name)) else {
            return Err(SessionError::UnknownSkill {
                name: name.to_string(),
                available: self.offered(),
            });
        };
        if self.active_set().iter().any(|a| a == name) {
            return Ok(skill);
        }
        match self.offer.invocation(index) {
            Some(i) if !i.model => Err(SessionError::UserOnly {
                name: name.to_string(),
            }),
            Some(i)
                if !i.paths.is_empty()
                    && !self.offer.mask().get(index).copied().unwrap_or(false) =>
            {
                Err(SessionError::OutOfScope {
                    name: name.to_string(),
                    paths: i.paths.clone(),
                })
            }
            _ => Ok(skill),
        }
    }

    fn skill(&self, name: &str) -> Result<Skill<'_>, SessionError> {
        self.bundle
            .get(name)
            .ok_or_else(|| SessionError::UnknownSkill {
                name: name.to_string(),
                available: self.bundle.skills().map(|s| s.name().to_string()).collect(),
            })
    }
}

impl<E: ScriptExecutor> Session<E> {
    /// Runs a command line in a skill's directory, if the policy allows it:
    /// `(exit code, stdout, stderr)`, a time-out noted in stderr.
    pub fn run(
        &self,
        name: &str,
        command: &str,
    ) -> Result<(Option<i32>, String, String), SessionError> {
        ready_now(self.run_with(&Blocking(&self.executor), name, command))
    }

    /// [`Session::run`], with the executor's whole [`Output`].
    pub fn run_output(&self, name: &str, command: &str) -> Result<Output, SessionError> {
        ready_now(self.run_output_with(&Blocking(&self.executor), name, command))
    }

    /// The reply to one XML instruction (the protocol of
    /// [`Session::xml_prompt`]): the result, or the error, wrapped in its
    /// element for the model.
    pub fn handle_xml(&self, instruction: &Instruction) -> String {
        ready_now(self.handle_xml_with(&Blocking(&self.executor), instruction))
    }

    /// Calls one tool of [`Session::tool_definitions`] by name with its JSON
    /// arguments (function calling): the result's text, or the error, whose
    /// text is the model's answer too.
    pub fn call_tool(&self, name: &str, arguments: &str) -> Result<String, SessionError> {
        ready_now(self.call_tool_with(&Blocking(&self.executor), name, arguments))
    }
}

impl<E: AsyncScriptExecutor + Sync> Session<E> {
    /// [`Session::run`] with an async executor.
    pub async fn run_async(
        &self,
        name: &str,
        command: &str,
    ) -> Result<(Option<i32>, String, String), SessionError> {
        self.run_with(&NonBlocking(&self.executor), name, command)
            .await
    }

    /// [`Session::run_output`] with an async executor.
    pub async fn run_output_async(
        &self,
        name: &str,
        command: &str,
    ) -> Result<Output, SessionError> {
        self.run_output_with(&NonBlocking(&self.executor), name, command)
            .await
    }

    /// [`Session::handle_xml`] with an async executor.
    pub async fn handle_xml_async(&self, instruction: &Instruction) -> String {
        self.handle_xml_with(&NonBlocking(&self.executor), instruction)
            .await
    }

    /// [`Session::call_tool`] with an async executor.
    pub async fn call_tool_async(
        &self,
        name: &str,
        arguments: &str,
    ) -> Result<String, SessionError> {
        self.call_tool_with(&NonBlocking(&self.executor), name, arguments)
            .await
    }
}
