//! Reading a minisign signature found beside fetched bytes: its key id,
//! and, when the trust store has that key, the signature checked over the
//! bytes and the claims of its trusted comment. Whether that key may sign
//! the source is the policy's decision ([`crate::policy::decide`]).

use std::io;
use std::path::Path;

use skills_core::pack::signature;
use skills_supply::trust::TrustStore;

use crate::fetched::Signed;

use crate::ioerr::invalid;

/// Reads the signature at `sig_path`, if there is one, over `bytes`.
pub(crate) fn check_signature(
    bytes: &[u8],
    sig_path: &Path,
    source: &str,
    trust: &TrustStore,
) -> io::Result<Option<Signed>> {
    let text = match skills_core::fsread::read_file(sig_path, signature::MAX_SIGNATURE_FILE) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(invalid(e.to_string())),
    };
    check_signature_text(bytes, &text, source, trust).map(Some)
}

/// Reads the minisign signature `text` over `bytes`: an error when it is
/// not a signature, or when it is made with a trusted key and does not
/// check (the bytes or the signature were changed).
pub(crate) fn check_signature_text(
    bytes: &[u8],
    text: &str,
    source: &str,
    trust: &TrustStore,
) -> io::Result<Signed> {
    let signer = trust.signer(bytes, text).map_err(|e| {
        let key = signature::signature_key_id(text).unwrap_or_else(|| "(unreadable)".into());
        invalid(format!(
            "`{source}`: the signature by key {key} does not check ({e}); nothing was installed"
        ))
    })?;
    Ok(Signed {
        signer,
        text: text.to_string(),
        git: None,
    })
}
