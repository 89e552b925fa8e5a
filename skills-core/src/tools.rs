//! `allowed-tools`, split into rules.
//!
//! Real skills write the field in several forms, and all of them are read
//! here, once: the specification's space-separated string with parenthesised
//! arguments (`Bash(git:*) Bash(jq:*) Read`, `Bash(ls *)`, `Agent(a, b)` with
//! commas and spaces inside the parentheses), a comma-separated string (`Read,
//! Write`), a YAML list (one rule per item), `mcp__server__tool` names and `*`.
//! Each rule is a tool name and an optional argument pattern: the text between
//! the outermost parentheses. The compiler splits bundled skills' rules at
//! build time; packs loaded at run time use the same function.

pub mod any_program;

/// One rule: a tool and, optionally, the argument pattern it is limited to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ToolRule<'a> {
    /// The tool's name, for example `Bash`, `Read`, `mcp__github__get_issue` or `*`.
    pub tool: &'a str,
    /// The argument pattern between the parentheses, for example `git:*`.
    pub pattern: Option<&'a str>,
}

impl std::fmt::Display for ToolRule<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.pattern {
            Some(p) => write!(f, "{}({p})", self.tool),
            None => f.write_str(self.tool),
        }
    }
}

/// Splits one `allowed-tools` string into rules: separators are spaces and
/// commas outside parentheses.
pub fn split(text: &str) -> Vec<ToolRule<'_>> {
    let mut rules = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                start.get_or_insert(i);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                start.get_or_insert(i);
            }
            c if depth == 0 && (c.is_whitespace() || c == ',') => {
                if let Some(s) = start.take() {
                    rules.push(rule(&text[s..i]));
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = start {
        rules.push(rule(&text[s..]));
    }
    rules
}

/// One rule from one item (of a YAML list, or of a split string).
pub fn rule(item: &str) -> ToolRule<'_> {
    let item = item.trim();
    match (item.find('('), item.ends_with(')')) {
        (Some(open), true) if open > 0 => ToolRule {
            tool: item[..open].trim(),
            pattern: Some(item[open + 1..item.len() - 1].trim()),
        },
        _ => ToolRule {
            tool: item,
            pattern: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> Vec<String> {
        split(text).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn every_form_seen_in_real_skills() {
        assert_eq!(
            show("Bash(git:*) Bash(jq:*) Read"),
            ["Bash(git:*)", "Bash(jq:*)", "Read"]
        );
        assert_eq!(show("Bash(ls *)  Grep"), ["Bash(ls *)", "Grep"]);
        assert_eq!(show("Agent(a, b, c) Read"), ["Agent(a, b, c)", "Read"]);
        assert_eq!(show("Read, Write,Edit"), ["Read", "Write", "Edit"]);
        assert_eq!(
            show("mcp__github__get_issue *"),
            ["mcp__github__get_issue", "*"]
        );
        assert_eq!(
            show("Bash(${CLAUDE_PLUGIN_ROOT}/scripts/run.sh:*)"),
            ["Bash(${CLAUDE_PLUGIN_ROOT}/scripts/run.sh:*)"]
        );
        assert_eq!(show(""), Vec::<String>::new());
    }

    #[test]
    fn rule_parts() {
        assert_eq!(
            rule("Bash(git:*)"),
            ToolRule {
                tool: "Bash",
                pattern: Some("git:*")
            }
        );
        assert_eq!(
            rule(" Read "),
            ToolRule {
                tool: "Read",
                pattern: None
            }
        );
        assert_eq!(
            rule("(odd)"),
            ToolRule {
                tool: "(odd)",
                pattern: None
            }
        );
        assert_eq!(
            rule("Bash(unclosed"),
            ToolRule {
                tool: "Bash(unclosed",
                pattern: None
            }
        );
    }
}
