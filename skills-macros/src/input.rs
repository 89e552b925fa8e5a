//! The macro's arguments, parsed by hand (no `syn`): `$crate;` first (added
//! by the `macro_rules!` wrapper), then string literals (paths) and
//! `key = value` options, separated by commas.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

use skills_compiler::{DiscoveryOptions, FileLimits, Knobs, Profile};

/// What to do with warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Warnings {
    /// Compiler warnings.
    Warn,
    /// Compile errors.
    Deny,
    /// Nothing.
    Allow,
}

/// The parsed arguments.
#[derive(Debug)]
pub(crate) struct Args {
    /// The path tokens naming `skills-bundle` (`$crate`).
    pub(crate) krate: TokenStream,
    /// Paths relative to `CARGO_MANIFEST_DIR`, with their spans.
    pub(crate) paths: Vec<(String, Span)>,
    /// `profile = "..."`.
    pub(crate) profile: Profile,
    /// `exclude = [...]`.
    pub(crate) exclude: Vec<String>,
    /// `warnings = "..."`.
    pub(crate) warnings: Warnings,
    /// `lints = bool`.
    pub(crate) lints: bool,
    /// `pack = "..."`: embed this pack instead of directories.
    pub(crate) pack: Option<(String, Span)>,
    /// `pubkey = "..."`: the minisign public key the pack must be signed by
    /// (base64, or a `.pub` file relative to the crate).
    pub(crate) pubkey: Option<(String, Span)>,
    /// `unsigned = true`: embed a pack without checking a signature.
    pub(crate) unsigned: bool,
    /// `lock = "..."`: embed the installed skills `skb.lock` names, each
    /// checked against it.
    pub(crate) lock: Option<(String, Span)>,
    /// `max_depth = N`, `max_dirs = N`.
    pub(crate) discovery: DiscoveryOptions,
    /// `max_files = N`, `max_skill_size = BYTES`, `max_skill_depth = N`.
    pub(crate) files: FileLimits,
}

/// A mistake in the arguments, with where it is.
#[derive(Debug)]
pub(crate) struct InputError {
    /// Where.
    pub(crate) span: Span,
    /// What.
    pub(crate) message: String,
}

fn err<T>(span: Span, message: impl Into<String>) -> Result<T, InputError> {
    Err(InputError {
        span,
        message: message.into(),
    })
}

/// Parses the macro input.
pub(crate) fn parse(input: TokenStream) -> Result<Args, InputError> {
    let tokens: Vec<TokenTree> = input.into_iter().collect();
    let semi = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
        .ok_or_else(|| InputError {
            span: Span::call_site(),
            message:
                "use `skills_bundle::skills_bundle!`, not `skills_macros::skills_bundle!` directly"
                    .into(),
        })?;
    let krate: TokenStream = tokens[..semi].iter().cloned().collect();
    let mut args = Args {
        krate,
        paths: Vec::new(),
        profile: Profile::Spec,
        exclude: Vec::new(),
        warnings: Warnings::Warn,
        lints: true,
        pack: None,
        pubkey: None,
        lock: None,
        unsigned: false,
        discovery: DiscoveryOptions {
            knobs: Knobs::MacroOptions,
            ..DiscoveryOptions::default()
        },
        files: FileLimits {
            knobs: Knobs::MacroOptions,
            ..FileLimits::default()
        },
    };
    let rest = &tokens[semi + 1..];
    for item in rest.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
        match item {
            [] => {}
            [TokenTree::Literal(lit)] => {
                let Some(path) = string(lit) else {
                    return err(
                        lit.span(),
                        "expected a path as a string literal, for example `\"skills\"`",
                    );
                };
                if path.is_empty() {
                    return err(
                        lit.span(),
                        "the path is empty: name a directory relative to the crate root, for example `\"skills\"`",
                    );
                }
                args.paths.push((path, lit.span()));
            }
            [TokenTree::Ident(key), TokenTree::Punct(eq), value @ ..] if eq.as_char() == '=' => {
                option(&mut args, &key.to_string(), key.span(), value)?;
            }
            [TokenTree::Ident(id)] => {
                return err(
                    id.span(),
                    format!(
                        "`{id}` is not a string literal: the macro reads its paths when the crate is compiled, before constants exist; write the path itself, for example `\"skills\"`"
                    ),
                );
            }
            [first, ..] => {
                return err(
                    first.span(),
                    "expected a path (`\"skills\"`) or an option (`profile = \"claude-code\"`, `exclude = [..]`, `warnings = \"deny\"`, `lints = false`)",
                );
            }
        }
    }
    if let Some((_, span)) = &args.lock {
        if args.pack.is_some() || !args.paths.is_empty() {
            return err(
                *span,
                "`lock` names the skills to embed: give either `lock` or directories or `pack`, not several",
            );
        }
        return Ok(args);
    }
    match (&args.pack, args.paths.first(), &args.pubkey, args.unsigned) {
        (None, None, _, _) => err(
            Span::call_site(),
            "name at least one skills directory, for example `skills_bundle!(\"skills\")`, or a pack: `skills_bundle!(pack = \"tools.skillpack\", pubkey = \"RW...\")`",
        ),
        (Some(_), Some((_, span)), _, _) => err(
            *span,
            "a `pack` is embedded as it is: give either directories or `pack`, not both",
        ),
        (Some((_, span)), None, None, false) => err(
            *span,
            "a pack must be verified: add `pubkey = \"<minisign public key or .pub file>\"`, or `unsigned = true` to embed it without a signature check",
        ),
        (Some(_), None, Some((_, span)), true) => err(
            *span,
            "`pubkey` and `unsigned = true` contradict each other",
        ),
        (None, Some(_), Some((_, span)), _) => {
            err(*span, "`pubkey` applies to `pack = \"...\"` only")
        }
        _ => Ok(args),
    }
}

fn option(args: &mut Args, key: &str, span: Span, value: &[TokenTree]) -> Result<(), InputError> {
    let value_span = value.first().map_or(span, TokenTree::span);
    let text = || match value {
        [TokenTree::Literal(l)] => string(l),
        _ => None,
    };
    match key {
        "profile" => {
            let Some(name) = text() else {
                return err(
                    value_span,
                    "`profile` takes a string: \"spec\" or \"claude-code\"",
                );
            };
            // Checked by name, not by what this build of the compiler has:
            // a crate in the same build enabling `codex-yaml` must not change
            // what the macro accepts.
            if name == "codex" {
                return err(
                    value_span,
                    "the `codex` profile is checked by the `skb` CLI (`skb validate --profile codex <path>`): Codex reads `SKILL.md` with libyaml, which `skills_bundle!` does not build; use \"spec\" or \"claude-code\" here",
                );
            }
            let Some(p) = Profile::from_name(&name) else {
                return err(
                    value_span,
                    format!("unknown profile `{name}`; use \"spec\" or \"claude-code\""),
                );
            };
            args.profile = p;
        }
        "warnings" => {
            args.warnings = match text().as_deref() {
                Some("warn") => Warnings::Warn,
                Some("deny") => Warnings::Deny,
                Some("allow") => Warnings::Allow,
                _ => {
                    return err(
                        value_span,
                        "`warnings` takes \"warn\", \"deny\" or \"allow\"",
                    );
                }
            };
        }
        "pack" | "pubkey" | "lock" => {
            let Some(text) = text().filter(|t| !t.is_empty()) else {
                return err(value_span, format!("`{key}` takes a non-empty string"));
            };
            let slot = match key {
                "pack" => &mut args.pack,
                "lock" => &mut args.lock,
                _ => &mut args.pubkey,
            };
            *slot = Some((text, value_span));
        }
        "unsigned" => {
            args.unsigned = match value {
                [TokenTree::Ident(b)] if b == "true" => true,
                [TokenTree::Ident(b)] if b == "false" => false,
                _ => return err(value_span, "`unsigned` takes `true` or `false`"),
            };
        }
        "lints" => {
            args.lints = match value {
                [TokenTree::Ident(b)] if b == "true" => true,
                [TokenTree::Ident(b)] if b == "false" => false,
                _ => return err(value_span, "`lints` takes `true` or `false`"),
            };
        }
        "exclude" => {
            let [TokenTree::Group(g)] = value else {
                return err(
                    value_span,
                    "`exclude` takes a list of glob strings, for example `[\"**/evals/**\"]`",
                );
            };
            if g.delimiter() != Delimiter::Bracket {
                return err(g.span(), "`exclude` takes a list in `[...]`");
            }
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            for item in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
                match item {
                    [] => {}
                    [TokenTree::Literal(l)] => match string(l) {
                        Some(s) => args.exclude.push(s),
                        None => return err(l.span(), "expected a glob string"),
                    },
                    [t, ..] => return err(t.span(), "expected a glob string"),
                }
            }
        }
        "max_depth" | "max_dirs" | "max_files" | "max_skill_size" | "max_skill_depth" => {
            let n = match value {
                [TokenTree::Literal(l)] => integer(l),
                _ => None,
            };
            let Some(n) = n.filter(|&n| n > 0) else {
                return err(
                    value_span,
                    format!("`{key}` takes a positive integer, for example `{key} = 20_000`"),
                );
            };
            let size = usize::try_from(n).unwrap_or(usize::MAX);
            match key {
                "max_depth" => args.discovery.max_depth = size,
                "max_dirs" => args.discovery.max_dirs = size,
                "max_files" => args.files.max_files = size,
                "max_skill_size" => args.files.max_total_bytes = n,
                _ => args.files.max_depth = size,
            }
        }
        other => {
            return err(
                span,
                format!(
                    "unknown option `{other}`; the options are `profile`, `exclude`, `warnings`, `lints`, `pack`, `pubkey`, `unsigned`, `lock`, `max_depth`, `max_dirs`, `max_files`, `max_skill_size` and `max_skill_depth`"
                ),
            );
        }
    }
    Ok(())
}

/// The value of an unsuffixed (or `u64`/`usize`) integer literal, with
/// `_` separators; `None` for other literals or past `u64`.
fn integer(lit: &proc_macro2::Literal) -> Option<u64> {
    let text = lit.to_string();
    let digits = text
        .strip_suffix("u64")
        .or_else(|| text.strip_suffix("usize"))
        .unwrap_or(&text);
    if !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    digits.replace('_', "").parse().ok()
}

/// The value of a string literal (plain or raw), or `None` for other literals.
pub(crate) fn string(lit: &proc_macro2::Literal) -> Option<String> {
    let text = lit.to_string();
    if let Some(raw) = text.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let inner = raw.get(hashes..raw.len().checked_sub(hashes)?)?;
        return inner.strip_prefix('"')?.strip_suffix('"').map(String::from);
    }
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '\'' => out.push('\''),
            '\n' => {
                // A line continuation skips the newline and leading whitespace.
                let rest: String = chars.clone().collect();
                let trimmed = rest.trim_start();
                let skip = rest.chars().count() - trimmed.chars().count();
                for _ in 0..skip {
                    chars.next();
                }
            }
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).ok()?));
            }
            'u' => {
                let body: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let hex = body.strip_prefix('{')?;
                out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn parse_str(s: &str) -> Result<Args, InputError> {
        parse(TokenStream::from_str(s).expect("tokens"))
    }

    #[test]
    fn paths_and_options() {
        let a = parse_str(
            r#"::skills_bundle; "skills", r"plugins/x", profile = "claude-code", exclude = ["**/evals/**", "*.tmp"], warnings = "deny", lints = false"#,
        )
        .expect("parses");
        let paths: Vec<&str> = a.paths.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["skills", "plugins/x"]);
        assert_eq!(a.profile, Profile::ClaudeCode);
        assert_eq!(a.exclude, ["**/evals/**", "*.tmp"]);
        assert_eq!(a.warnings, Warnings::Deny);
        assert!(!a.lints);
        assert_eq!(a.krate.to_string(), ":: skills_bundle");
    }

    #[test]
    fn mistakes_are_named() {
        for (input, needle) in [
            ("k;", "at least one"),
            ("k; 12", "string literal"),
            ("k; \"s\", profile = \"strict\"", "unknown profile"),
            (
                "k; \"s\", profile = \"codex\"",
                "`skb validate --profile codex",
            ),
            ("k; \"s\", colour = \"x\"", "unknown option"),
            ("k; \"s\", lints = 1", "`lints` takes"),
            ("k; \"s\", exclude = \"x\"", "list"),
            ("\"s\"", "skills_bundle::skills_bundle!"),
        ] {
            let e = parse_str(input).expect_err(input);
            assert!(e.message.contains(needle), "{input}: {}", e.message);
        }
    }

    #[test]
    fn string_escapes() {
        let lit = |s: &str| string(&proc_macro2::Literal::from_str(s).expect("literal"));
        assert_eq!(lit(r#""a\"b\\c\n\u{e9}""#).as_deref(), Some("a\"b\\c\né"));
        assert_eq!(lit(r##"r#"x"y"#"##).as_deref(), Some("x\"y"));
        assert_eq!(lit("12"), None);
    }
}
