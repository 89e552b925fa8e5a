//! Skill packs as OCI artifacts: pushed to and pulled from any registry that
//! speaks the OCI distribution API (Docker Hub, GHCR, ECR, ACR, Harbor, the
//! CNCF `distribution` server), with the credentials Docker and ORAS users
//! already have.
//!
//! # The artifact
//!
//! A pack pushed to `oci://registry/repository:tag` is one OCI image manifest
//! (`application/vnd.oci.image.manifest.v1+json`, schema version 2):
//!
//! | field | value |
//! |---|---|
//! | `artifactType` | `application/vnd.skills.pack.v1` |
//! | `config` | the OCI empty descriptor: `application/vnd.oci.empty.v1+json`, the 2 bytes `{}` |
//! | `layers[0]` | the `.skillpack` file's bytes, `application/vnd.skills.pack.v1+zip`, annotated `org.opencontainers.image.title: pack.skillpack` |
//! | `layers[1]` | when signed, its minisign signature (the `.minisig` file's text), `application/vnd.skills.pack.signature.v1.minisig`, titled `pack.skillpack.minisig` |
//!
//! The manifest is compact JSON in a fixed field order, with fixed titles
//! and no timestamp, so the same pack and signature give the same manifest
//! digest on every push to any repository, and a lock can pin it. The signature is a layer of the artifact, not a separate "referrer",
//! so it travels with every copy (`distribution` 2.8 and several hosted
//! registries have no referrers API), and a pull by digest pins the pack and
//! its signature together. Pulling does not decide trust: it returns the
//! pack and signature for the installer to check against its key store.
//!
//! ORAS reads the artifact as two files (`oras pull` saves each layer under
//! its title), and an artifact ORAS pushes is accepted when it has exactly
//! one layer of the pack media type (and at most one signature layer):
//! `oras push host/repo:tag p.skillpack:application/vnd.skills.pack.v1+zip
//! p.skillpack.minisig:application/vnd.skills.pack.signature.v1.minisig`.
//! Azure Container Registry documents another skill artifact
//! (`application/vnd.agent.skill.v1+json`, one skill folder as a
//! `tar+gzip` layer, a creation timestamp in the manifest); a pack holds
//! many skills, signed and byte-reproducible, so it has its own types.
//!
//! # Pulling safely
//!
//! A pull by digest checks the manifest's bytes against that digest; a pull
//! by tag checks them against the registry's `Docker-Content-Digest` and
//! returns the digest it computed, for the lock. Every blob is checked
//! against its descriptor's size and digest before it is returned; sizes are
//! bounded before anything is allocated (manifests at 4 MiB, signatures at
//! 16 KiB like `.minisig` files, packs at [`OciOptions::max_pack_bytes`]).
//!
//! # Credentials
//!
//! Each for the one registry host it was configured for (compared in one
//! canonical form: see `auth.rs`). In order: for the registry
//! `SKB_REGISTRY_HOST` names (`host[:port]`), `SKB_REGISTRY_TOKEN` (a
//! bearer token sent as is), else `SKB_REGISTRY_USERNAME` with
//! `SKB_REGISTRY_PASSWORD` (without `SKB_REGISTRY_HOST` they are sent
//! nowhere, and a `401` says so); then skb's own `SKB_AUTH` and
//! `credentials.json` for the registry's origin ([`crate::credentials`]);
//! then `$DOCKER_CONFIG/config.json`, else
//! `~/.docker/config.json`, as Docker reads it: the credential helper its
//! `credHelpers` names for the registry, else its `credsStore`, run as
//! Docker runs them (`docker-credential-<name> get`, bounded in output and
//! time; its "not found" is anonymous, any other failure an error naming
//! it), else the `auths` entry whose key is the registry's host (`auth`,
//! the base64 of `user:password` that `docker login` and `oras login`
//! write, or `identitytoken`); otherwise anonymous. Passwords and tokens
//! are held in [`crate::credentials::Secret`], which never prints.
//! A registry's `401` challenge is answered once: `Basic` with the
//! credentials, `Bearer` by fetching a token from the challenge's realm (with
//! the credentials, if any) for `repository:<repo>:pull` (and `push`).
//!
//! The `Authorization` header (credentials, or the token earned with them)
//! goes only to the registry's own origin (scheme, host and port): not to a
//! server a redirect or an upload `Location` names, and a challenge from
//! such a server is not answered. A token realm may be on another host
//! (Docker Hub's is `auth.docker.io`, GitLab's `gitlab.com` for
//! `registry.gitlab.com`): the `Basic` credentials go there because the
//! registry they were configured for named it, in a challenge received over
//! `https://` (or from a loopback or `insecure` registry); the realm itself
//! must be `https://`, or `http://` to a loopback host (any host when
//! `insecure`), never a step down from an `https://` registry.
//!
//! # Transport
//!
//! `https://`, except for loopback registries (`localhost`, `127.0.0.0/8`,
//! `[::1]`, as [`crate::http`] judges a host) and when
//! [`OciOptions::insecure`] is set, which use `http://`. Every request
//! (manifest, blob, upload, token) follows the scheme rule of
//! [`crate::http`]: redirects of `GET` and `HEAD` are followed here, hop by
//! hop (at most 10), each hop checked before it is contacted (`https://`;
//! `http://` only to a loopback host unless `insecure`; never from
//! `https://` to `http://`); an upload `Location` is checked the same way.
//! Connection failures, `5xx` and `429` are retried with backoff (honouring
//! `Retry-After` up to 30 s); other `4xx` answers are final.
//!
//! # Why hand-written over `ureq`
//!
//! The issue prefers a client library from the OCI ecosystem. `oci-client`
//! 0.18 (formerly `oci-distribution`, async on `reqwest`) was measured on this
//! project's 2-core build machine in a scratch crate: a clean `cargo build`
//! took 1 min 42 s (machine shared with other builds) and added 75 crate versions the workspace does not have,
//! among them `aws-lc-sys` (a C library built with `cmake`), `quinn` and
//! `tower`; the same scratch crate over `ureq` 3 with `rustls`, `serde_json`,
//! `sha2` and `tokio` (all already in the workspace) built in 17 s. It would
//! also need a `tokio` runtime behind a sync facade. The distribution API a
//! pack needs is six requests (check, start and finish an upload; put, head
//! and get a manifest; get a blob) and one token exchange, so this module
//! speaks it directly over `ureq`, which the crate already uses.

mod auth;
mod client;
mod env;
mod error;
mod helper;
mod manifest;
mod options;
mod reference;

use ureq::http::{Method, StatusCode};

pub use auth::Credentials;
pub use env::{ENV_HOST, ENV_PASSWORD, ENV_TOKEN, ENV_USERNAME};
pub use error::OciError;
pub use manifest::{
    ARTIFACT_TYPE, EMPTY_MEDIA_TYPE, MANIFEST_MEDIA_TYPE, PACK_MEDIA_TYPE, SIGNATURE_MEDIA_TYPE,
    TITLE_ANNOTATION,
};
pub use options::{DEFAULT_MAX_PACK, OciOptions};
pub use reference::Reference;

use client::{Session, explain, header, read_bounded};
use manifest::{Descriptor, Manifest, digest_of};
use skills_core::pack::signature::MAX_SIGNATURE_FILE;

/// The largest manifest read: 4 MiB (a pack's is under 1 KiB; registries
/// refuse manifests over 4 MiB).
pub const MAX_MANIFEST: u64 = 4 << 20;
/// The pack layer's title (the signature's adds `.minisig`): fixed, so the
/// manifest does not depend on the repository it is pushed to.
const PACK_TITLE: &str = "pack.skillpack";

/// A pulled pack, verified against its manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pulled {
    /// The manifest's digest (`sha256:…`), for the lock.
    pub manifest_digest: String,
    /// The `.skillpack` bytes.
    pub pack: Vec<u8>,
    /// The minisign signature's text, when the artifact carries one.
    pub signature: Option<String>,
}

/// Pushes `pack` (a `.skillpack` file's bytes) and its minisign `signature`
/// to `reference` (to its tag, or, for a digest-only reference, by that
/// digest, which must be the manifest's); returns the manifest digest.
pub fn push(
    reference: &Reference,
    pack: &[u8],
    signature: Option<&str>,
    options: &OciOptions,
) -> Result<String, OciError> {
    reference.check()?;
    let (blobs, manifest) = manifest::build(pack, signature, PACK_TITLE);
    let digest = digest_of(&manifest);
    let reference_text = reference.to_string();
    if let Some(pinned) = &reference.digest
        && *pinned != digest
    {
        return Err(OciError::DigestMismatch {
            reference: reference_text,
            what: "the manifest of this pack".to_owned(),
            expected: pinned.clone(),
            actual: digest,
        });
    }
    let mut session = Session::new(reference, options, true)?;
    for blob in &blobs {
        upload(&mut session, &blob.descriptor, blob.bytes)?;
    }
    let key = reference.tag.as_deref().unwrap_or(&digest);
    let url = session.url(&format!("manifests/{key}"))?;
    let mut response = session.send(
        Method::PUT,
        &url,
        &[("Content-Type", MANIFEST_MEDIA_TYPE)],
        &manifest,
    )?;
    if !response.status().is_success() {
        return Err(OciError::Registry {
            reference: reference_text,
            action: "putting the manifest".to_owned(),
            detail: explain(&mut response),
        });
    }
    if let Some(answered) = header(&response, "docker-content-digest")
        && answered != digest
    {
        return Err(OciError::DigestMismatch {
            reference: reference_text,
            what: "the digest the registry stored the manifest under".to_owned(),
            expected: digest,
            actual: answered.to_owned(),
        });
    }
    Ok(digest)
}

/// Uploads one blob unless the registry already has it (monolithic upload:
/// `POST` then `PUT ?digest=`).
fn upload(
    session: &mut Session<'_>,
    descriptor: &Descriptor,
    bytes: &[u8],
) -> Result<(), OciError> {
    let reference = session.reference.to_string();
    let url = session.url(&format!("blobs/{}", descriptor.digest))?;
    let response = session.send(Method::HEAD, &url, &[], &[])?;
    if response.status() == StatusCode::OK {
        return Ok(());
    }
    let url = session.url("blobs/uploads/")?;
    let mut response = session.send(Method::POST, &url, &[("Content-Length", "0")], &[])?;
    let location = header(&response, "location").map(str::to_owned);
    let mut url = match (response.status(), location) {
        (StatusCode::ACCEPTED, Some(location)) => session.location(&url, &location)?,
        _ => {
            return Err(OciError::Registry {
                reference,
                action: format!("starting the upload of {}", descriptor.digest),
                detail: explain(&mut response),
            });
        }
    };
    url.query_pairs_mut()
        .append_pair("digest", &descriptor.digest);
    let mut response = session.send(
        Method::PUT,
        &url,
        &[("Content-Type", "application/octet-stream")],
        bytes,
    )?;
    if response.status() != StatusCode::CREATED {
        return Err(OciError::Registry {
            reference,
            action: format!(
                "uploading {} ({} bytes)",
                descriptor.digest, descriptor.size
            ),
            detail: explain(&mut response),
        });
    }
    Ok(())
}

/// Pulls the pack (and signature) `reference` names, each verified against
/// its descriptor, the manifest against the reference's digest if it has one.
pub fn pull(reference: &Reference, options: &OciOptions) -> Result<Pulled, OciError> {
    let mut session = Session::new(reference, options, false)?;
    let (manifest_digest, manifest) = fetch_manifest(&mut session)?;
    let invalid = |why: String| OciError::Invalid {
        reference: reference.to_string(),
        why,
    };
    let (pack, signature) = manifest::pick(&manifest).map_err(invalid)?;
    let pack = fetch_blob(&mut session, pack, options.max_pack_bytes, "the pack layer")?;
    let signature = match signature {
        Some(descriptor) => {
            let bytes = fetch_blob(
                &mut session,
                descriptor,
                MAX_SIGNATURE_FILE,
                "the signature layer",
            )?;
            Some(
                String::from_utf8(bytes)
                    .map_err(|_| invalid("the signature layer is not UTF-8 text".to_owned()))?,
            )
        }
        None => None,
    };
    Ok(Pulled {
        manifest_digest,
        pack,
        signature,
    })
}

/// The manifest digest `reference`'s tag (or digest) names now, from a
/// `HEAD` (a `GET`, hashed here, when the registry sends no digest header).
pub fn resolve(reference: &Reference, options: &OciOptions) -> Result<String, OciError> {
    let mut session = Session::new(reference, options, false)?;
    let url = session.url(&format!("manifests/{}", reference.manifest_key()))?;
    let mut response = session.send(Method::HEAD, &url, &[("Accept", MANIFEST_MEDIA_TYPE)], &[])?;
    check_found(reference, &mut response, "resolving the manifest", || {
        manifest_missing(reference)
    })?;
    match header(&response, "docker-content-digest") {
        Some(digest) if reference::check_digest(digest).is_ok() => {
            if let Some(pinned) = &reference.digest
                && pinned != digest
            {
                return Err(OciError::DigestMismatch {
                    reference: reference.to_string(),
                    what: "the manifest's digest".to_owned(),
                    expected: pinned.clone(),
                    actual: digest.to_owned(),
                });
            }
            Ok(digest.to_owned())
        }
        _ => fetch_manifest(&mut session).map(|(digest, _)| digest),
    }
}

/// `GET`s the manifest, bounded, and checks its bytes against the pinned
/// digest and the registry's `Docker-Content-Digest`.
fn fetch_manifest(session: &mut Session<'_>) -> Result<(String, Manifest), OciError> {
    let reference = session.reference;
    let url = session.url(&format!("manifests/{}", reference.manifest_key()))?;
    let mut response = session.send(Method::GET, &url, &[("Accept", MANIFEST_MEDIA_TYPE)], &[])?;
    check_found(reference, &mut response, "getting the manifest", || {
        manifest_missing(reference)
    })?;
    let answered = header(&response, "docker-content-digest").map(str::to_owned);
    let bytes = read_bounded(&mut response, MAX_MANIFEST).map_err(|why| OciError::TooLarge {
        reference: reference.to_string(),
        what: format!("the manifest: {why}"),
    })?;
    let digest = digest_of(&bytes);
    for (expected, what) in [
        (
            reference.digest.as_ref(),
            "the manifest (pinned by the reference)",
        ),
        (
            answered.as_ref(),
            "the manifest (by the registry's `Docker-Content-Digest`)",
        ),
    ] {
        if let Some(expected) = expected
            && *expected != digest
        {
            return Err(OciError::DigestMismatch {
                reference: reference.to_string(),
                what: what.to_owned(),
                expected: expected.clone(),
                actual: digest,
            });
        }
    }
    let manifest = serde_json::from_slice(&bytes).map_err(|e| OciError::Invalid {
        reference: reference.to_string(),
        why: format!("the manifest is not an OCI image manifest: {e}"),
    })?;
    Ok((digest, manifest))
}

/// `GET`s one blob, refusing it before download if its descriptor is over
/// `max`, and returning it only if its size and digest match the descriptor.
fn fetch_blob(
    session: &mut Session<'_>,
    descriptor: &Descriptor,
    max: u64,
    what: &str,
) -> Result<Vec<u8>, OciError> {
    let reference = session.reference;
    reference::check_digest(&descriptor.digest).map_err(|why| OciError::Invalid {
        reference: reference.to_string(),
        why: format!("{what}: {why}"),
    })?;
    if descriptor.size > max {
        return Err(OciError::TooLarge {
            reference: reference.to_string(),
            what: format!("{what} is {} bytes; the limit is {max}", descriptor.size),
        });
    }
    let url = session.url(&format!("blobs/{}", descriptor.digest))?;
    let mut response = session.send(Method::GET, &url, &[], &[])?;
    check_found(reference, &mut response, &format!("getting {what}"), || {
        format!("{what} `{}`", descriptor.digest)
    })?;
    let mismatch = |expected: String, actual: String| OciError::DigestMismatch {
        reference: reference.to_string(),
        what: what.to_owned(),
        expected,
        actual,
    };
    let bytes = read_bounded(&mut response, descriptor.size)
        .map_err(|why| mismatch(format!("{} bytes", descriptor.size), why))?;
    if bytes.len() as u64 != descriptor.size {
        return Err(mismatch(
            format!("{} bytes", descriptor.size),
            format!("{} bytes", bytes.len()),
        ));
    }
    let digest = digest_of(&bytes);
    if digest != descriptor.digest {
        return Err(mismatch(descriptor.digest.clone(), digest));
    }
    Ok(bytes)
}

/// Turns a `404` into [`OciError::NotFound`] naming `missing`, and any
/// other failure into [`OciError::Registry`] naming `action`.
fn check_found(
    reference: &Reference,
    response: &mut ureq::http::Response<ureq::Body>,
    action: &str,
    missing: impl FnOnce() -> String,
) -> Result<(), OciError> {
    let status = response.status();
    if status.is_success() {
        return Ok(());
    }
    if status == StatusCode::NOT_FOUND {
        return Err(OciError::NotFound {
            reference: reference.to_string(),
            what: missing(),
        });
    }
    Err(OciError::Registry {
        reference: reference.to_string(),
        action: action.to_owned(),
        detail: explain(response),
    })
}

/// What a `404` for the manifest means: the tag, or the digest, is not there.
fn manifest_missing(reference: &Reference) -> String {
    match (&reference.digest, &reference.tag) {
        (Some(digest), _) => format!("manifest `{digest}`"),
        (None, Some(tag)) => format!("tag `{tag}`"),
        (None, None) => "the manifest".to_owned(),
    }
}
