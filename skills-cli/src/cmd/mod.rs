//! One module per subcommand, each with a `run` returning the exit status.

pub mod add;
pub mod catalog;
pub mod catalog_client;
pub mod completions;
pub mod diff;
pub mod inspect;
pub mod install;
pub mod keygen;
pub mod list;
pub mod man;
pub mod pack;
pub mod publish;
pub mod read;
pub mod read_properties;
pub mod remove;
pub mod run;
pub mod serve;
pub mod show;
pub mod to_prompt;
pub mod unpack;
pub mod update;
pub mod validate;
pub mod verify;
pub mod verify_installed;
