//! `skb serve`: the skills as an MCP server, over stdio or loopback HTTP.
//!
//! The skills are loaded as `skb show` and `skb run` load them
//! ([`bundle_of`]): directories and archives validated and compiled into an
//! in-memory pack, a pack opened as it is. A pack is served only after its
//! signature checks against `--pubkey` (the same `Pack::open` that `verify`
//! and `unpack` use), or with `--unsigned`; a pack that fails is refused
//! with exit status 1 before anything is served. Scripts run as `skb run`
//! runs them: `LocalExecutor` with the time limit, the policy mode and the
//! private cache. `--request-timeout` bounds every request (longer than
//! `--timeout`, so that it never cuts a run short); over stdio
//! `--max-in-flight` sets the `StdioConfig`, over HTTP `--max-sessions`,
//! `--idle-timeout`, `--allow-origin`, `--max-connections`,
//! `--header-timeout`, `--body-timeout` and `--connection-idle-timeout`
//! the `HttpConfig`. The protocol itself is `skills_bundle_mcp`.
//!
//! stdout is the protocol's channel on stdio; every message of ours goes to
//! stderr. The server exits 0 when the client closes stdin.

use std::io;
use std::path::Path;
use std::time::Duration;

use skills_bundle::Bundle;
use skills_bundle::Mode;
use skills_bundle::exec::LocalExecutor;
use skills_bundle::pack::Trust;
use skills_bundle::session::Session;
use skills_bundle_mcp::{self as mcp, HttpConfig, ServeError, SkillsServer, StdioConfig};
use skills_compiler::render;

use crate::Outcome;
use crate::args::{PolicyArg, ServeArgs};
use crate::bundle::bundle_of;
use crate::trust::Signed;
use skills_install::extract::{self, Opened};
use skills_install::input;

/// Runs `skb serve`.
pub fn run(args: &ServeArgs) -> io::Result<Outcome> {
    if let Some(addr) = args.http
        && !addr.ip().is_loopback()
    {
        eprintln!("skb: {}", ServeError::NotLoopback(addr));
        return Ok(Outcome::Usage);
    }
    let request_timeout = match args.request_timeout() {
        Ok(timeout) => timeout,
        Err(why) => {
            eprintln!("skb: {why}");
            return Ok(Outcome::Usage);
        }
    };
    let Some(bundle) = load(args)? else {
        return Ok(Outcome::Invalid);
    };
    let mut executor = match &args.cache {
        Some(dir) => LocalExecutor::new(dir),
        None => LocalExecutor::with_default_cache().map_err(io::Error::other)?,
    };
    executor.timeout = Duration::from_secs(args.timeout);
    executor.max_output = usize::try_from(args.max_output).unwrap_or(usize::MAX);
    let mode = match args.mode {
        PolicyArg::Restrict => Mode::Restrict,
        PolicyArg::PreApprove => Mode::PreApprove,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let count = bundle.len();
    let result = runtime.block_on(async move {
        match args.http {
            Some(addr) => {
                let config = HttpConfig::default()
                    .with_max_sessions(args.max_sessions)
                    .with_idle_timeout(Duration::from_secs(args.idle_timeout))
                    .with_allowed_origins(args.allow_origin.clone())
                    .with_max_connections(args.max_connections)
                    .with_header_timeout(Duration::from_secs(args.header_timeout))
                    .with_body_timeout(Duration::from_secs(args.body_timeout))
                    .with_connection_idle_timeout(Duration::from_secs(args.connection_idle_timeout))
                    .with_request_timeout(request_timeout);
                let make = move || Session::new(&bundle, executor.clone(), mode);
                let server = mcp::bind_http(make, addr, config).await?;
                eprintln!(
                    "skb: serving {} at {}",
                    render::count(count as u64, "skill"),
                    server.url()?
                );
                server.run().await
            }
            None => {
                eprintln!(
                    "skb: serving {} over stdio",
                    render::count(count as u64, "skill")
                );
                let config = StdioConfig::default()
                    .with_max_in_flight(args.max_in_flight)
                    .with_request_timeout(request_timeout);
                SkillsServer::new(&bundle, executor, mode)
                    .serve_stdio_with(config)
                    .await
            }
        }
    });
    // Nothing is left to wait for once the client has gone (stdin's reader
    // thread has seen EOF, or is blocked on a stdin nobody writes to).
    runtime.shutdown_timeout(Duration::from_millis(100));
    match result {
        Ok(()) => Ok(Outcome::Success),
        Err(ServeError::NotLoopback(addr)) => {
            eprintln!("skb: {}", ServeError::NotLoopback(addr));
            Ok(Outcome::Usage)
        }
        Err(ServeError::Io(e)) => Err(e),
        Err(e) => Err(io::Error::other(e.to_string())),
    }
}

/// The bundle to serve, its signature checked first when a key is given;
/// `None` when validation failed (already reported).
fn load(args: &ServeArgs) -> io::Result<Option<Bundle>> {
    let single = match args.source.as_slice() {
        [one] if input::is_archive(one) => Some(one.as_path()),
        _ => None,
    };
    let Some(path) = single else {
        if args.pubkey.is_some() {
            return Err(usage(
                "--pubkey checks a pack or archive: give exactly one as SOURCE",
            ));
        }
        return bundle_of(&args.source, &args.check);
    };
    let bytes = extract::read_archive(path)?;
    let Some(arg) = &args.pubkey else {
        if !args.unsigned && is_pack(path, &bytes, args)? {
            return Err(usage(&format!(
                "`{}` is a pack: pass --pubkey KEY to check its signature, or --unsigned to serve it without",
                path.display()
            )));
        }
        return bundle_of(&args.source, &args.check);
    };
    let signed = Signed::load(arg, args.signature.as_deref(), path)?;
    match extract::open(path, &bytes, signed.trust(), &args.check.limits.limits())? {
        Opened::Pack(pack) => Ok(Some(pack.into_bundle())),
        Opened::Zip(_) => bundle_of(&args.source, &args.check),
    }
}

fn is_pack(path: &Path, bytes: &[u8], args: &ServeArgs) -> io::Result<bool> {
    Ok(matches!(
        extract::open(path, bytes, Trust::Unsigned, &args.check.limits.limits())?,
        Opened::Pack(_)
    ))
}

fn usage(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_string())
}
