//! One module per subcommand, each with a `run` returning the exit status.

pub mod activation;
pub mod client_catalog;
pub mod completions;
pub mod diff;
pub mod inspect;
pub mod keygen;
pub mod levels;
pub mod man;
pub mod pack;
pub mod properties;
pub mod run;
pub mod serve;
pub mod unpack;
pub mod validate;
pub mod verify;
