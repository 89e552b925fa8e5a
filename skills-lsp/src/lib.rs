//! A language server for Agent Skills: `SKILL.md` and the files around it
//! (`agents/openai.yaml`, `.claude-plugin/plugin.json`), served by `skb
//! lsp` on stdio.
//!
//! - **Diagnostics as you type**: the same check as `skb validate` (codes,
//!   messages, spans and severities under the chosen profile, and where the
//!   clients differ, `SK491`-`SK493`) and the scanner's findings as `skb
//!   scan` reports them, from the editor's text of `SKILL.md` and the rest
//!   of the folder from the disk; debounced, checked on a worker thread,
//!   and bounded as the validator bounds a `SKILL.md` ([`analysis`]).
//! - **Hover** on every frontmatter key: what each modelled client does
//!   with it in this skill, from the clients' own readings with and without
//!   the key; on the `name` value, each client's catalog entry ([`hover`]).
//! - **Completion** of keys, known values and `allowed-tools` rule shapes
//!   ([`completion`]).
//! - **Code actions**: every rewrite `skb fix` makes, and the quick-fixes
//!   the diagnostics name ([`actions`]).
//! - **`skb.preview`** (`workspace/executeCommand`, the `SKILL.md`'s URI as
//!   argument): each client's catalog entry and activation text
//!   ([`preview`]).
//!
//! Positions are UTF-16 columns unless the client offers `utf-8`
//! ([`position`]). The client's `initializationOptions` may set the
//! profile, the scan and the debounce ([`Settings`]).
//!
//! # Why `lsp-server`
//!
//! The protocol's types are `lsp-types` and the connection `lsp-server`,
//! rust-analyzer's own (maintained with it, synchronous, 20 crates in all).
//! `tower-lsp` (last release 2023) and its maintained fork
//! `tower-lsp-server` bring an async runtime (tokio, tower, futures: 54
//! crates with the fork, 82 with `tower-lsp`) to a server whose work is
//! CPU-bound checks of one folder; a clean debug build of each alone,
//! measured with `cargo build --timings` on the same machine, took 49 s
//! (`lsp-server` + `lsp-types`), 66 s (`tower-lsp-server` 0.23 + tokio)
//! and 120 s (`tower-lsp` 0.20 + tokio). The framing on stdio is this
//! crate's ([`transport`]): `lsp-server`'s allocates whatever
//! `Content-Length` announces and stops at the first body that is not JSON.
//!
//! ```no_run
//! // What `skb lsp` runs.
//! skills_lsp::run_stdio(skills_lsp::Settings::default())?;
//! # Ok::<(), std::io::Error>(())
//! ```

#![deny(missing_docs)]
#![deny(unreachable_pub)]

pub mod actions;
pub mod analysis;
pub mod completion;
pub mod document;
pub mod frontmatter;
pub mod hover;
pub mod position;
pub mod preview;
pub mod server;
pub mod settings;
pub mod transport;
pub mod uri;

pub use server::{Ended, serve};
pub use settings::Settings;

/// Serves on stdin and stdout until the client exits or goes away, and
/// says how the session ended ([`Ended::Clean`] after `shutdown` and
/// `exit`; else the protocol asks for exit code 1); an error when the input
/// could not be framed any more (a broken header) or the output failed.
pub fn run_stdio(settings: Settings) -> std::io::Result<Ended> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    let (connection, threads) = transport::connection(stdin, std::io::stdout())?;
    let ended = serve(&connection, settings);
    drop(connection);
    // The server returns at `exit`, which ends the reader, or when the
    // reader ended: both threads are done once every message is written.
    threads.join()?;
    Ok(ended)
}
