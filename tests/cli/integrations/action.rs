//! `action.yml` run the way GitHub's runner runs a composite action, for
//! the tests to check what it does rather than how it is written: the file
//! is read with the compiler's YAML reader, each step's `if:` and `${{ }}`
//! expressions are evaluated against the inputs, and each `run:` step runs
//! under `bash --noprofile --norc -eo pipefail` (what `shell: bash` means)
//! with `GITHUB_OUTPUT`, `GITHUB_PATH` and `GITHUB_STEP_SUMMARY` files,
//! whose outputs and paths later steps see. The one `uses:` step,
//! `actions/cache`, is played by the test: a hit restores the binary
//! there, a miss restores nothing.
//!
//! Only what `action.yml` uses is understood; anything else (another
//! shell, another action, an unknown expression) fails the test, so the
//! emulation cannot silently skip a step it does not know.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use skills_compiler::yaml::{self, Node, Value};
use skills_tests::{tool, workspace};

/// The text of a YAML scalar, or `None`.
fn text(node: Option<&Node>) -> Option<String> {
    node.and_then(Node::as_str).map(str::to_string)
}

/// A mapping of scalars, as `env:` and `with:` are.
fn pairs(node: Option<&Node>) -> Vec<(String, String)> {
    node.and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| {
            let key = k.as_str().unwrap().to_string();
            let value = v
                .as_str()
                .unwrap_or_else(|| panic!("`{key}` is not a string"));
            (key, value.to_string())
        })
        .collect()
}

/// Reads the YAML file at `path`, which must be strict YAML without a
/// problem.
pub fn read_yaml(path: &Path) -> Node {
    let text = std::fs::read_to_string(path).unwrap();
    let parsed = yaml::parse(&text, 0, text.len());
    assert!(
        parsed.problems.is_empty(),
        "{}: {:?}",
        path.display(),
        parsed.problems
    );
    parsed.root.unwrap()
}

/// One step of the action.
#[derive(Debug, Clone)]
pub struct Step {
    pub name: String,
    pub id: Option<String>,
    condition: Option<String>,
    env: Vec<(String, String)>,
    run: Option<String>,
    uses: Option<String>,
    with: Vec<(String, String)>,
}

/// `action.yml`: its inputs (with their defaults) and its steps.
#[derive(Debug)]
pub struct Action {
    pub defaults: BTreeMap<String, String>,
    pub steps: Vec<Step>,
}

impl Action {
    /// The workspace's `action.yml`.
    pub fn load() -> Action {
        let doc = read_yaml(&workspace().join("action.yml"));
        let runs = doc.get("runs").unwrap();
        assert_eq!(
            text(runs.get("using")).as_deref(),
            Some("composite"),
            "only a composite action can be run here"
        );
        let defaults = doc
            .get("inputs")
            .and_then(Node::as_map)
            .unwrap()
            .iter()
            .map(|(k, v)| {
                let default = text(v.get("default")).unwrap_or_default();
                (k.as_str().unwrap().to_string(), default)
            })
            .collect();
        let Some(Value::Seq(steps)) = runs.get("steps").map(|s| &s.value) else {
            panic!("runs.steps is not a list");
        };
        let steps = steps
            .iter()
            .map(|s| {
                let run = text(s.get("run"));
                // A composite action's `run` step must name its shell; this
                // emulation knows bash.
                if run.is_some() {
                    assert_eq!(text(s.get("shell")).as_deref(), Some("bash"), "{s:?}");
                }
                Step {
                    name: text(s.get("name")).unwrap(),
                    id: text(s.get("id")),
                    condition: text(s.get("if")),
                    env: pairs(s.get("env")),
                    run,
                    uses: text(s.get("uses")),
                    with: pairs(s.get("with")),
                }
            })
            .collect();
        Action { defaults, steps }
    }

    /// The step whose `id` is `id`.
    pub fn step(&self, id: &str) -> &Step {
        self.steps
            .iter()
            .find(|s| s.id.as_deref() == Some(id))
            .unwrap_or_else(|| panic!("no step with id `{id}`"))
    }
}

/// A value of a GitHub expression.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Bool(bool),
    Str(String),
}

impl Val {
    fn truthy(&self) -> bool {
        match self {
            Val::Bool(b) => *b,
            Val::Str(s) => !s.is_empty(),
        }
    }

    fn into_string(self) -> String {
        match self {
            Val::Bool(b) => b.to_string(),
            Val::Str(s) => s,
        }
    }
}

/// Where and with what one run of the action happens.
#[derive(Debug)]
pub struct Runner {
    /// The inputs given (`with:` of the workflow); the others default.
    pub inputs: BTreeMap<String, String>,
    /// `$GITHUB_ACTION_PATH`: the action's checkout.
    pub action_path: PathBuf,
    /// The repository checked out by the workflow: each step's directory.
    pub repository: PathBuf,
    /// `$HOME`.
    pub home: PathBuf,
    /// `$PATH` at the start.
    pub path: String,
    /// Extra variables of the runner's environment.
    pub env: Vec<(String, String)>,
    /// What `actions/cache` finds: `Some(binary)` restores `binary` at each
    /// path it is given that names the `skb` binary; `None` is a miss.
    pub cache: Option<PathBuf>,
    /// Where the step files live.
    pub scratch: PathBuf,
}

/// What one run did.
#[derive(Debug, Default)]
pub struct Report {
    /// Each step that ran, by name, with its output (`uses` steps have
    /// none).
    pub ran: Vec<(String, Option<Output>)>,
    /// `actions/cache`'s `path` and `key` inputs, when it ran.
    pub cache: Option<(Vec<PathBuf>, String)>,
    /// Whether every step that ran succeeded.
    pub success: bool,
}

impl Report {
    /// The output of the step named `name`, which must have run.
    pub fn output(&self, name: &str) -> &Output {
        self.ran
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, out)| out.as_ref())
            .unwrap_or_else(|| panic!("`{name}` did not run: {:?}", self.names()))
    }

    /// The names of the steps that ran.
    pub fn names(&self) -> Vec<&str> {
        self.ran.iter().map(|(n, _)| n.as_str()).collect()
    }
}

impl Runner {
    /// Evaluates a GitHub expression (the part inside `${{ }}`, or an
    /// `if:`) as far as `action.yml` uses them: `||`, `&&`, `==`, `!=`,
    /// quoted strings and the contexts `inputs`, `steps`, `github`,
    /// `runner`.
    fn eval(&self, action: &Action, outputs: &Outputs, expr: &str) -> Val {
        let expr = expr.trim();
        if let Some((a, b)) = expr.split_once("||") {
            let a = self.eval(action, outputs, a);
            return if a.truthy() {
                a
            } else {
                self.eval(action, outputs, b)
            };
        }
        if let Some((a, b)) = expr.split_once("&&") {
            let a = self.eval(action, outputs, a);
            return if a.truthy() {
                self.eval(action, outputs, b)
            } else {
                a
            };
        }
        for (op, equal) in [("==", true), ("!=", false)] {
            if let Some((a, b)) = expr.split_once(op) {
                let same = self.eval(action, outputs, a) == self.eval(action, outputs, b);
                return Val::Bool(same == equal);
            }
        }
        if let Some(s) = expr.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
            return Val::Str(s.to_string());
        }
        if let Some(name) = expr.strip_prefix("inputs.") {
            let value = self
                .inputs
                .get(name)
                .or_else(|| action.defaults.get(name))
                .unwrap_or_else(|| panic!("no input `{name}`"));
            return Val::Str(value.clone());
        }
        if let Some(rest) = expr.strip_prefix("steps.") {
            let (id, key) = rest
                .split_once(".outputs.")
                .unwrap_or_else(|| panic!("unknown expression `{expr}`"));
            let value = outputs.get(id).and_then(|o| o.get(key));
            return Val::Str(value.cloned().unwrap_or_default());
        }
        let value = match expr {
            "github.server_url" => "https://github.com",
            // Empty for an action used from a local path.
            "github.action_repository" => "",
            "runner.os" => "Linux",
            "runner.arch" => "X64",
            _ => panic!("the emulation does not know the expression `{expr}`"),
        };
        Val::Str(value.to_string())
    }

    /// `text` with each `${{ expr }}` replaced by its value.
    fn substitute(&self, action: &Action, outputs: &Outputs, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("${{") {
            out.push_str(&rest[..at]);
            let end = rest[at..]
                .find("}}")
                .unwrap_or_else(|| panic!("unclosed `${{{{` in {text:?}"));
            let expr = &rest[at + 3..at + end];
            out.push_str(&self.eval(action, outputs, expr).into_string());
            rest = &rest[at + end + 2..];
        }
        out.push_str(rest);
        out
    }

    /// Runs the steps of `action` in order, as the runner does: a step runs
    /// when its `if:` holds, and the first failing step ends the run.
    pub fn run(&self, action: &Action) -> Report {
        let mut report = Report {
            success: true,
            ..Report::default()
        };
        let mut outputs = Outputs::new();
        let mut added_paths: Vec<String> = Vec::new();
        for step in &action.steps {
            if let Some(condition) = &step.condition
                && !self.eval(action, &outputs, condition).truthy()
            {
                continue;
            }
            let output = self.step(action, step, &mut outputs, &mut added_paths, &mut report);
            let failed = output.as_ref().is_some_and(|o| !o.status.success());
            report.ran.push((step.name.clone(), output));
            if failed {
                report.success = false;
                break;
            }
        }
        report
    }

    /// Runs the step `id` alone, with no earlier outputs.
    pub fn run_step(&self, action: &Action, id: &str) -> (Output, BTreeMap<String, String>) {
        let mut outputs = Outputs::new();
        let mut report = Report::default();
        let output = self
            .step(
                action,
                action.step(id),
                &mut outputs,
                &mut Vec::new(),
                &mut report,
            )
            .unwrap();
        (output, outputs.remove(id).unwrap_or_default())
    }

    fn step(
        &self,
        action: &Action,
        step: &Step,
        outputs: &mut Outputs,
        added_paths: &mut Vec<String>,
        report: &mut Report,
    ) -> Option<Output> {
        if let Some(uses) = &step.uses {
            assert!(
                uses.starts_with("actions/cache@"),
                "the emulation does not know the action `{uses}`"
            );
            let with: BTreeMap<String, String> = step
                .with
                .iter()
                .map(|(k, v)| (k.clone(), self.substitute(action, outputs, v)))
                .collect();
            let paths: Vec<PathBuf> = with["path"]
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| match l.trim().strip_prefix("~/") {
                    Some(rel) => self.home.join(rel),
                    None => PathBuf::from(l.trim()),
                })
                .collect();
            let hit = if let Some(binary) = &self.cache {
                for path in paths.iter().filter(|p| p.ends_with("skb")) {
                    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                    std::os::unix::fs::symlink(binary, path).unwrap();
                }
                "true"
            } else {
                "false"
            };
            report.cache = Some((paths, with["key"].clone()));
            if let Some(id) = &step.id {
                outputs.insert(
                    id.clone(),
                    BTreeMap::from([("cache-hit".into(), hit.into())]),
                );
            }
            return None;
        }
        let script = step.run.as_ref().unwrap();
        let n = report.ran.len();
        let file = self.scratch.join(format!("step-{n}.sh"));
        let output_file = self.scratch.join(format!("output-{n}"));
        let path_file = self.scratch.join(format!("path-{n}"));
        std::fs::write(&file, script).unwrap();
        std::fs::write(&output_file, "").unwrap();
        std::fs::write(&path_file, "").unwrap();
        let path = added_paths
            .iter()
            .rev()
            .cloned()
            .chain([self.path.clone()])
            .collect::<Vec<_>>()
            .join(":");
        let mut command = tool("bash", "bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&file)
            .current_dir(&self.repository)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", path)
            .env("GITHUB_ACTION_PATH", &self.action_path)
            .env("GITHUB_WORKSPACE", &self.repository)
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_PATH", &path_file)
            .env("GITHUB_STEP_SUMMARY", self.scratch.join("summary.md"));
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        for (key, value) in &step.env {
            command.env(key, self.substitute(action, outputs, value));
        }
        let output = command.output().unwrap();
        if let Some(id) = &step.id {
            let written = std::fs::read_to_string(&output_file).unwrap();
            let values = written
                .lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            outputs.insert(id.clone(), values);
        }
        let paths = std::fs::read_to_string(&path_file).unwrap();
        added_paths.extend(paths.lines().map(str::to_string));
        Some(output)
    }
}

/// Each step's outputs, by step id.
type Outputs = BTreeMap<String, BTreeMap<String, String>>;

/// The system's `PATH` without any directory that holds a `skills` (so that
/// only what the action installs is found), behind `first`.
pub fn path_without_skills(first: &Path) -> String {
    let system = std::env::var("PATH").unwrap_or_default();
    std::iter::once(first.display().to_string())
        .chain(
            system
                .split(':')
                .filter(|d| !d.is_empty() && !Path::new(d).join("skb").exists())
                .map(str::to_string),
        )
        .collect::<Vec<_>>()
        .join(":")
}

/// A program at `dir/name` running `script` (`sh`).
pub fn stub(dir: &Path, name: &str, script: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{script}")).unwrap();
    skills_tests::set_mode(&path, 0o755);
}

/// The workspace as an action's checkout holds it: every file but build
/// output and Git's, copied under `to`.
pub fn copy_checkout(to: &Path) {
    fn walk(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if name == "target" || name == ".git" {
                continue;
            }
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                walk(&entry.path(), &to.join(&name));
            } else if kind.is_file() {
                std::fs::copy(entry.path(), to.join(&name)).unwrap();
            }
        }
    }
    walk(&workspace(), to);
}
