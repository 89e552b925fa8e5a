//! Bounded reads of files on disk, for a pack and its signature: a read
//! refuses a fifo, a device, a directory or a file over its limit, and
//! opens the path once so it cannot be swapped between the check and the
//! read.

pub use skills_core::fsread::{FileError, Kind, Reason, read_file};
