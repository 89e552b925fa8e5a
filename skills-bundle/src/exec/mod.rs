//! Running a skill's scripts (level 3 execution), Unix only.
//!
//! A skill's files live in memory; a script needs them on disk. This module
//! owns that step and the run itself:
//!
//! - [`materialise`] writes a skill's files into a private, content-addressed
//!   cache directory (checked, written under a temporary name and renamed,
//!   verified again before each reuse);
//! - [`ScriptExecutor`] is what an agent calls, and [`LocalExecutor`] its
//!   default implementation: no shell unless the caller allows one, a
//!   reduced environment, no descriptor but stdin, stdout and stderr,
//!   stdout and stderr captured separately and capped,
//!   and the whole process group killed at a timeout and after the run;
//! - [`split_args`] ([`shell::split`](crate::shell::split), re-exported)
//!   turns a command line into arguments without a shell and refuses shell
//!   syntax it would silently get wrong.
//!
//! Both APIs: [`ScriptExecutor`] blocks the calling thread;
//! [`AsyncScriptExecutor`] returns a future, and [`LocalExecutor`]
//! implements it on tokio (feature `tokio`) with the same materialisation,
//! environment, caps and process-group handling.

#[cfg(feature = "tokio")]
mod async_run;
mod command;
mod defaults;
mod error;
mod materialise;
mod run;

pub use crate::shell::{SplitError, split as split_args};
pub use command::{AsyncScriptExecutor, Command, Invocation, Output, ScriptExecutor};
pub use defaults::{DEFAULT_ENV_ALLOW, DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT, MAX_TIMEOUT};
pub use error::ExecError;
pub use materialise::{Materialised, Rebuilt, cache_dir_name, default_cache_root, materialise};
pub use run::LocalExecutor;

#[cfg(test)]
// Test helpers with `pub` items, on their way out of the crate.
#[allow(unreachable_pub)]
pub(crate) mod testing;
