//! Benchmarks that link both the compiler and the runtime, kept in a crate
//! above both so that neither depends on the other for its benchmarks:
//! `benches/pack.rs` (packs written by the compiler, opened by the runtime)
//! and `benches/agent.rs` (the agent loop and the executor over a packed
//! tree). Run them with `cargo bench -p skills-benches --bench pack` or
//! `--bench agent`. The library is empty.
