//! Where the tests find the shared test material: the corpus of real
//! skills and the reference validator's golden cases.

use std::path::{Path, PathBuf};

/// The shared material beside the repository (`../shared`: the corpus of
/// real skills, the reference's golden cases), which the tests read. CI
/// checks it out; a test that needs it fails without it rather than pass
/// having checked nothing.
pub(crate) fn shared(rel: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(rel);
    assert!(
        path.exists(),
        "{} is missing: check out the shared material beside the repository",
        path.display()
    );
    path
}
