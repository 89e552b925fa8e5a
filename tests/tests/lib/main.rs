//! The workspace's library-level integration tests, one module per topic,
//! linked into one test binary (`cargo test -p skills-tests --test lib`):
//! the compiler, the runtime and the macro through their public APIs,
//! without the `skb` binary. The tests that run the binary are
//! `skills-cli`'s test binary `cli` (`tests/cli/`), where Cargo builds the
//! binary for them.
//!
//! `ui` (a renamed dependency) and `rebuild` run Cargo on scratch crates:
//! what they test is what Cargo makes of a user's crate. The trybuild cases
//! are the `skills-ui-tests` crate's (`tests/ui-tests`).

mod activation;
mod agent;
mod amp;
mod architecture;
mod corpus;
mod embed;
skills_tests::acceptance_mod!("embeds ../shared/corpus at compile time", mod embed_corpus;);
mod invocation;
mod openai;
mod pack_props;
mod props;
mod rebuild;
mod runtime_deps;
mod ui;
mod upstream;
