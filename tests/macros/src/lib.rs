//! The switch between the workspace's two tiers of tests, one home for it.
//!
//! * The default tier is what `cargo test --workspace` runs on a fresh
//!   clone with nothing but a Rust toolchain: every test that needs no more
//!   than the repository.
//! * The acceptance tier adds the tests that need what the repository does
//!   not hold: the shared material checked out beside it (`../shared`: the
//!   corpus, the golden cases, the client recordings, the labelled scan
//!   sets) and peer tools (Node and Vercel's CLI, the ORAS SDK, the Python
//!   agent frameworks, every platform's crates in Cargo's cache). It runs
//!   with `SKILLS_ACCEPTANCE=1` in the environment of `cargo test`, which
//!   `.ci/run` sets; `CONTRIBUTING.md` lists what each test needs.
//!
//! The switch is read when this crate is built (`build.rs` sets
//! `cfg(skills_acceptance)`), because one test embeds `../shared` at compile
//! time and cannot be compiled without it. `skills-tests` re-exports both
//! macros; every crate's tests use them from there.
//!
//! Without the switch an acceptance test is `#[ignore]`d with the reason
//! (`cargo test -- --ignored` lists them): it is neither run nor passed.
//! With it, the test runs, and what it needs is required through
//! `skills_tests::tier`, which fails naming the missing prerequisite and
//! how to get it.

use proc_macro::{Delimiter, TokenStream, TokenTree};

/// The name of the switch, in the reasons the macros write.
const SWITCH: &str = "SKILLS_ACCEPTANCE=1";

/// Marks a test of the acceptance tier: `#[acceptance("needs ../shared/golden")]`
/// above `#[test]`. Without the switch the test is ignored with that reason;
/// with it, the test is left as written.
#[proc_macro_attribute]
pub fn acceptance(attr: TokenStream, item: TokenStream) -> TokenStream {
    let reason = match reason(attr.into_iter().collect()) {
        Ok(reason) => reason,
        Err(message) => return error(&message),
    };
    if cfg!(skills_acceptance) {
        return item;
    }
    let mut out = ignore(&reason);
    out.extend(item);
    out
}

/// Declares a test module of the acceptance tier that cannot even be
/// compiled without what it needs (it embeds `../shared` at compile time):
/// `acceptance_mod!("embeds ../shared/corpus", mod embed;)`. Without the
/// switch the module is replaced by one ignored test that says why, and
/// fails if run anyway (`--include-ignored`); with it, the declaration is
/// left as written.
#[proc_macro]
pub fn acceptance_mod(input: TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = input.into_iter().collect();
    let Some(comma) = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
    else {
        return error("acceptance_mod!(\"what it needs\", mod name;)");
    };
    let reason = match reason(tokens[..comma].to_vec()) {
        Ok(reason) => reason,
        Err(message) => return error(&message),
    };
    let item = &tokens[comma + 1..];
    let name = item.windows(2).find_map(|pair| match pair {
        [TokenTree::Ident(kw), TokenTree::Ident(name)] if kw.to_string() == "mod" => {
            Some(name.to_string())
        }
        _ => None,
    });
    let Some(name) = name else {
        return error("acceptance_mod!: the second argument is a module declaration, `mod name;`");
    };
    if item
        .iter()
        .any(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
    {
        return error("acceptance_mod!: declare the module as `mod name;`, in its own file");
    }
    if cfg!(skills_acceptance) {
        return item.iter().cloned().collect();
    }
    let mut test = ignore(&format!("{reason} (not compiled)"));
    let said = reason.replace('{', "{{").replace('}', "}}");
    test.extend(parse(&format!(
        "#[test] fn not_compiled_without_the_switch() {{ \
         panic!(\"this module is compiled only with {SWITCH} in the environment of `cargo test`: \
         {said}\") }}"
    )));
    parse(&format!("mod {name} {{ {test} }}"))
}

/// The text of the one string literal in `tokens`, still escaped as in the
/// source, which is how it is written back into the `ignore` reason.
fn reason(tokens: Vec<TokenTree>) -> Result<String, String> {
    match tokens.as_slice() {
        [TokenTree::Literal(lit)] => {
            let text = lit.to_string();
            text.strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .ok_or_else(|| {
                    format!(
                        "expected a non-empty \"string\" saying what the test needs, found {text}"
                    )
                })
        }
        _ => Err("expected one \"string\" saying what the test needs".to_string()),
    }
}

/// `#[ignore = "acceptance tier (SKILLS_ACCEPTANCE=1): <reason>"]`.
fn ignore(reason: &str) -> TokenStream {
    parse(&format!(
        "#[ignore = \"acceptance tier ({SWITCH}): {reason}\"]"
    ))
}

fn error(message: &str) -> TokenStream {
    parse(&format!("compile_error!({message:?});"))
}

/// Source text this crate wrote itself, as tokens.
fn parse(source: &str) -> TokenStream {
    source
        .parse()
        .unwrap_or_else(|e| panic!("skills-tests-macros wrote invalid tokens ({e}): {source}"))
}
