//! The environment variables registry credentials are read from, named in
//! the errors that say how to give them.

/// Environment variable: the registry (`host[:port]`, read as a Docker
/// config key is) the other `SKB_REGISTRY_*` credentials are for; they are
/// sent to no other.
pub const ENV_HOST: &str = "SKB_REGISTRY_HOST";
/// Environment variable: user name for the registry `SKB_REGISTRY_HOST`
/// names (with the password).
pub const ENV_USERNAME: &str = "SKB_REGISTRY_USERNAME";
/// Environment variable: password or personal access token (with the user name).
pub const ENV_PASSWORD: &str = "SKB_REGISTRY_PASSWORD";
/// Environment variable: a bearer token sent as is, for CI systems that mint one.
pub const ENV_TOKEN: &str = "SKB_REGISTRY_TOKEN";
