//! The build stage: checked skills become what a program carries. [`embed`]
//! plans it (every file read, compressed and hashed, the catalog and the
//! lookup tables), `codegen` prints the plan as the statics `skills_bundle!`
//! expands to, [`pack`] writes it as a skill pack, [`locked`] builds only
//! what `skb.lock` pinned, and [`rederive`] checks a pack's manifest
//! against the `SKILL.md` files it holds.

#[cfg(feature = "codegen")]
pub mod codegen;
pub mod embed;
pub mod locked;
pub mod pack;
pub mod rederive;
