//! The installer: Agent Skills carried from their publisher into every
//! client's folders, signed, pinned, scanned, and kept as `skb.lock` says.
//! `skb add`, `install`, `update`, `remove`, `import` and `verify
//! --installed` parse their arguments, call this crate, and render what it
//! returns.
//!
//! Every operation runs the same stages, each with its own errors
//! ([`Stage`]):
//!
//! 1. **resolve** ([`source`]): what the source argument names (a folder, a
//!    download, a well-known index, a git repository, an OCI artifact);
//! 2. **fetch** (`fetch`): the source brought onto the disk, against its
//!    pin, bounded, into private temporary folders;
//! 3. **verify** ([`validate`], `policy`): the skills validated under a
//!    profile and planned as a pack would hold them; each signature checked
//!    against the trust store's policy and the lock's record;
//! 4. **scan** ([`gate`]): the security scan of the very bytes to be
//!    written;
//! 5. **stage** (`install`, `place`): each target folder compared with the
//!    lock (local edits refused unless forced), the new copies written into
//!    a transaction outside every folder a client reads;
//! 6. **commit** (`commit`): the copies and the new lock put in place
//!    together; a `kill -9` or a full disk at any point leaves all old or
//!    (after the next command) all new.
//!
//! Everything below the project's root is reached without following a
//! symbolic link (`root`). One project is changed by one process at a
//! time (a guard in the state folder).
//!
//! ```no_run
//! use skills_install::{AddRequest, Installer, Project, Quiet};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let project = Project::at(&std::env::current_dir()?);
//! let installer = Installer::new(project, &Quiet)?;
//! let added = installer.add(&AddRequest::new("./vendor/skills"))?;
//! for skill in &added.skills {
//!     println!("{} {}", skill.action.verb(), skill.name);
//! }
//! // Later, on a fresh clone: exactly what the lock says, or an error.
//! use skills_install::{Gate, InstallRequest};
//! installer.install(&InstallRequest {
//!     frozen: true,
//!     force: false,
//!     gate: Gate::new(None, Vec::new()),
//! })?;
//! # Ok(())
//! # }
//! ```

#![deny(missing_docs)]

pub mod accept;
mod add;
mod adopt;
pub mod attestation;
mod cache_dir;
pub mod clients;
mod commit;
pub mod error;
pub mod extract;
mod failpoint;
mod fetch;
mod fetched;
pub mod gate;
mod git;
mod import;
pub mod input;
mod install;
mod installer;
mod ioerr;
pub mod observe;
pub mod oci;
mod origin;
mod outdated;
mod place;
pub mod policy;
mod project;
mod refetch;
mod remote;
mod remove;
mod restore;
pub mod root;
mod signature;
pub mod source;
pub mod startup;
pub mod targets;
mod update;
pub mod validate;
mod verify;

pub use add::{AddRequest, Added, AddedSkill, Listed};
pub use cache_dir::git_cache_dir;
pub use error::{Error, ErrorKind, Result, Stage};
pub use gate::Gate;
pub use import::{ImportRequest, Imported};
pub use install::{Action, folder_name, skill_digest};
pub use installer::Installer;
pub use observe::{Event, Note, Observer, Quiet};
pub use outdated::{Outdated, OutdatedRequest, OutdatedSkill, Status as OutdatedStatus};
pub use policy::PolicyFlags;
pub use project::Project;
pub use remove::{RemoveRequest, Removed};
pub use restore::{InstallRequest, Restored};
pub use startup::{StartAnswer, StartCheck, outdated_at_start};
pub use targets::Dest;
pub use update::{UpdateRequest, Updated, UpdatedSkill};
pub use validate::Validation;
pub use verify::Verified;
