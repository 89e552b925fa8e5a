//! One module per subcommand, each with a `run` returning the exit status.

pub mod validate;
