//! Integration tests of `skills_bundle::mcp` (with `skills serve`) and
//! `skills_bundle::rig`, in `tests/`. They live in a crate of their own so
//! that rmcp, hyper and rig are not dependencies of `skills-tests`: its
//! trybuild cases build that crate's dev-dependencies a second time.
