//! The artifact's manifest: written byte for byte the same for the same pack
//! and signature (fixed field order, no timestamps, compact JSON), so a pack
//! has one manifest digest wherever it is pushed; and read back from a
//! registry, where only the descriptors this crate needs are trusted, after
//! the manifest's own digest is checked.

use serde::{Deserialize, Serialize};

/// The manifest's `artifactType`: a skill pack.
pub const ARTIFACT_TYPE: &str = "application/vnd.skills.pack.v1";
/// The pack layer's media type: a `.skillpack` file's bytes (a zip).
pub const PACK_MEDIA_TYPE: &str = "application/vnd.skills.pack.v1+zip";
/// The signature layer's media type: a minisign `.minisig` file's text.
pub const SIGNATURE_MEDIA_TYPE: &str = "application/vnd.skills.pack.signature.v1.minisig";
/// The OCI image manifest media type.
pub const MANIFEST_MEDIA_TYPE: &str = "application/vnd.oci.image.manifest.v1+json";
/// The OCI empty descriptor's media type, used for the config.
pub const EMPTY_MEDIA_TYPE: &str = "application/vnd.oci.empty.v1+json";
/// The annotation that names a layer's file for ORAS.
pub const TITLE_ANNOTATION: &str = "org.opencontainers.image.title";
/// The empty config blob.
const EMPTY_CONFIG: &[u8] = b"{}";

/// `sha256:<hex>` of `bytes`.
pub(crate) fn digest_of(bytes: &[u8]) -> String {
    let hash = skills_core::digest::sha256(bytes);
    format!("sha256:{}", skills_core::digest::hex(&hash))
}

/// A content descriptor: what a manifest says about a blob.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Descriptor {
    pub(crate) media_type: String,
    pub(crate) digest: String,
    pub(crate) size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) annotations: Option<Annotations>,
}

/// The one annotation written: the file name ORAS uses when it saves a layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Annotations {
    #[serde(rename = "org.opencontainers.image.title", default)]
    pub(crate) title: Option<String>,
}

/// An OCI image manifest, in the field order written.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Manifest {
    pub(crate) schema_version: u32,
    #[serde(default)]
    pub(crate) media_type: Option<String>,
    #[serde(default)]
    pub(crate) artifact_type: Option<String>,
    pub(crate) config: Descriptor,
    #[serde(default)]
    pub(crate) layers: Vec<Descriptor>,
}

/// A blob to upload and the descriptor naming it.
pub(crate) struct Blob<'a> {
    pub(crate) descriptor: Descriptor,
    pub(crate) bytes: &'a [u8],
}

/// The blobs (config first) and the manifest's bytes for `pack` and its
/// optional minisign `signature`, titled `<title>` and `<title>.minisig`.
pub(crate) fn build<'a>(
    pack: &'a [u8],
    signature: Option<&'a str>,
    title: &str,
) -> (Vec<Blob<'a>>, Vec<u8>) {
    let blob = |media_type: &str, bytes: &'a [u8], title: Option<String>| Blob {
        descriptor: Descriptor {
            media_type: media_type.to_owned(),
            digest: digest_of(bytes),
            size: bytes.len() as u64,
            annotations: title.map(|title| Annotations { title: Some(title) }),
        },
        bytes,
    };
    let mut blobs = vec![
        blob(EMPTY_MEDIA_TYPE, EMPTY_CONFIG, None),
        blob(PACK_MEDIA_TYPE, pack, Some(title.to_owned())),
    ];
    if let Some(signature) = signature {
        blobs.push(blob(
            SIGNATURE_MEDIA_TYPE,
            signature.as_bytes(),
            Some(format!("{title}.minisig")),
        ));
    }
    let manifest = Manifest {
        schema_version: 2,
        media_type: Some(MANIFEST_MEDIA_TYPE.to_owned()),
        artifact_type: Some(ARTIFACT_TYPE.to_owned()),
        config: blobs[0].descriptor.clone(),
        layers: blobs[1..].iter().map(|b| b.descriptor.clone()).collect(),
    };
    // Serialising plain strings and integers cannot fail; an empty manifest
    // would be refused by the registry, never pushed silently.
    let bytes = serde_json::to_vec(&manifest).unwrap_or_default();
    (blobs, bytes)
}

/// The pack layer (exactly one) and the signature layer (at most one) of a
/// manifest, by media type; other layers are ignored.
pub(crate) fn pick(manifest: &Manifest) -> Result<(&Descriptor, Option<&Descriptor>), String> {
    if manifest.schema_version != 2 {
        return Err(format!(
            "schemaVersion is {}, not 2",
            manifest.schema_version
        ));
    }
    if let Some(media_type) = &manifest.media_type
        && media_type != MANIFEST_MEDIA_TYPE
    {
        return Err(format!(
            "the manifest is `{media_type}`, not an OCI image manifest (`{MANIFEST_MEDIA_TYPE}`)"
        ));
    }
    let of = |media_type: &str| {
        manifest
            .layers
            .iter()
            .filter(|layer| layer.media_type == media_type)
            .collect::<Vec<_>>()
    };
    let packs = of(PACK_MEDIA_TYPE);
    let signatures = of(SIGNATURE_MEDIA_TYPE);
    let pack = match packs.as_slice() {
        [pack] => *pack,
        [] => {
            return Err(format!(
                "no layer of media type `{PACK_MEDIA_TYPE}`: not a skill pack artifact"
            ));
        }
        _ => {
            return Err(format!(
                "{} layers of media type `{PACK_MEDIA_TYPE}`; a pack artifact has one",
                packs.len()
            ));
        }
    };
    let signature = match signatures.as_slice() {
        [] => None,
        [signature] => Some(*signature),
        _ => {
            return Err(format!(
                "{} layers of media type `{SIGNATURE_MEDIA_TYPE}`; a pack artifact has at most one",
                signatures.len()
            ));
        }
    };
    Ok((pack, signature))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_pack_gives_the_same_manifest() {
        let (blobs, a) = build(b"pack", Some("sig"), "p.skillpack");
        let (_, b) = build(b"pack", Some("sig"), "p.skillpack");
        assert_eq!(a, b);
        assert_eq!(blobs.len(), 3);
        let text = String::from_utf8(a.clone()).unwrap();
        assert!(text.starts_with(r#"{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"#), "{text}");
        let parsed: Manifest = serde_json::from_slice(&a).unwrap();
        let (pack, signature) = pick(&parsed).unwrap();
        assert_eq!(pack.digest, digest_of(b"pack"));
        assert_eq!(signature.map(|s| s.size), Some(3));
        let (_, unsigned) = build(b"pack", None, "p.skillpack");
        assert_ne!(unsigned, a);
    }

    #[test]
    fn digest_is_sha256_hex() {
        assert_eq!(
            digest_of(b"{}"),
            "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }
}
