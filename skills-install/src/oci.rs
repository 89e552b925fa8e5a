//! OCI sources: a pack pulled from a registry (`skills_supply::oci`, with
//! the credentials Docker and ORAS users have), every blob checked against
//! its digest, then its signature layer checked like a `.minisig` beside a
//! file; pinned by the manifest digest.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use skills_core::lock::Resolved;
use skills_supply::oci::{self, OciError, OciOptions, Reference};

use crate::fetched::{FetchOptions, Fetched};
use crate::input::Inputs;
use crate::signature::check_signature_text;

/// `e` as an I/O error of the kind its exit status needs.
pub fn oci_error(e: OciError) -> io::Error {
    let kind = match e {
        OciError::NotFound { .. } => io::ErrorKind::NotFound,
        OciError::DigestMismatch { .. } | OciError::Invalid { .. } | OciError::TooLarge { .. } => {
            io::ErrorKind::InvalidData
        }
        OciError::Reference { .. } => io::ErrorKind::InvalidInput,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, e.to_string())
}

/// Pulls `text` (`oci://host/repo:tag` or `…@sha256:…`).
pub(crate) fn fetch(text: &str, opts: &FetchOptions<'_>) -> io::Result<Fetched> {
    let reference = Reference::parse(text).map_err(oci_error)?;
    pull(&reference, text, opts)
}

/// Pulls the artifact the lock pins: `reference` at `digest`.
pub(crate) fn fetch_pinned(
    reference: &str,
    digest: &str,
    text: &str,
    opts: &FetchOptions<'_>,
) -> io::Result<Fetched> {
    let mut r = Reference::parse(&format!("{reference}@{digest}")).map_err(oci_error)?;
    r.tag = None;
    pull(&r, text, opts)
}

fn pull(reference: &Reference, text: &str, opts: &FetchOptions<'_>) -> io::Result<Fetched> {
    let oci_opts = OciOptions {
        insecure: opts.allow_plain_text,
        ..OciOptions::default()
    };
    let pulled = oci::pull(reference, &oci_opts).map_err(oci_error)?;
    let signer = match &pulled.signature {
        Some(sig) => Some(check_signature_text(&pulled.pack, sig, text, opts.trust)?),
        None => None,
    };
    let name = reference
        .repository
        .rsplit('/')
        .next()
        .unwrap_or("pack")
        .to_string();
    let mut inputs = Inputs::default();
    inputs
        .add_archive(
            Path::new(&format!("{name}.skillpack")),
            &pulled.pack,
            &opts.limits,
        )
        .map_err(|e| crate::ioerr::named(e, text))?;
    Ok(Fetched {
        inputs,
        resolved: Resolved::Oci {
            reference: format!("oci://{}/{}", reference.registry, reference.repository),
            tag: reference.tag.clone(),
            digest: pulled.manifest_digest,
        },
        per_skill: BTreeMap::new(),
        signer,
        per_skill_signer: BTreeMap::new(),
        pinned: None,
        remote: true,
        locations: vec![format!(
            "oci://{}/{}",
            reference.registry, reference.repository
        )],
        per_skill_locations: BTreeMap::new(),
        checkout: None,
    })
}
