//! DSSE envelopes over in-toto statements, the payload of a GitHub
//! artifact attestation: the pre-authentication encoding the signature is
//! over, and whether the statement names the artifact among its subjects.

use serde::Deserialize;

use super::error::{SigstoreError, malformed, mismatch, unsupported};

/// The payload type of an in-toto statement.
const IN_TOTO: &str = "application/vnd.in-toto+json";
/// The statement types read (`_type`).
const STATEMENTS: [&str; 2] = [
    "https://in-toto.io/Statement/v1",
    "https://in-toto.io/Statement/v0.1",
];

/// DSSE's pre-authentication encoding (PAE) of a payload: what is signed.
pub(crate) fn pae(payload_type: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload_type.len() + payload.len() + 32);
    out.extend_from_slice(b"DSSEv1 ");
    out.extend_from_slice(payload_type.len().to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(payload_type.as_bytes());
    out.push(b' ');
    out.extend_from_slice(payload.len().to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(payload);
    out
}

#[derive(Debug, Deserialize)]
struct Statement {
    #[serde(rename = "_type")]
    kind: String,
    #[serde(default)]
    subject: Vec<Subject>,
}

#[derive(Debug, Deserialize)]
struct Subject {
    #[serde(default)]
    digest: std::collections::BTreeMap<String, String>,
}

/// Checks that the payload is an in-toto statement with a subject whose
/// SHA-256 is `digest`.
pub(crate) fn check_subject(
    payload_type: &str,
    payload: &[u8],
    digest: &[u8; 32],
) -> Result<(), SigstoreError> {
    if payload_type != IN_TOTO {
        return unsupported(format!(
            "DSSE: payload type `{payload_type}` is not an in-toto statement"
        ));
    }
    let statement: Statement = serde_json::from_slice(payload).map_err(|e| {
        SigstoreError::new(
            super::ErrorKind::Malformed,
            format!("in-toto statement: {e}"),
        )
    })?;
    if !STATEMENTS.contains(&statement.kind.as_str()) {
        return malformed(format!(
            "in-toto statement: `_type` is `{}`",
            statement.kind
        ));
    }
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let named = statement.subject.iter().any(|s| {
        s.digest
            .get("sha256")
            .is_some_and(|d| d.eq_ignore_ascii_case(&hex))
    });
    if !named {
        return mismatch("in-toto statement: no subject has the artifact's SHA-256");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_as_the_dsse_specification_shows() {
        // The worked example of DSSE's protocol.md.
        assert_eq!(
            pae("http://example.com/HelloWorld", b"hello world"),
            b"DSSEv1 29 http://example.com/HelloWorld 11 hello world".to_vec()
        );
        assert_eq!(pae("", b""), b"DSSEv1 0  0 ".to_vec());
    }

    #[test]
    fn finds_the_artifact_among_the_subjects() {
        let digest = [0x11u8; 32];
        let statement = |hex: &str| {
            format!(
                r#"{{"_type":"https://in-toto.io/Statement/v1","subject":[{{"name":"x","digest":{{"sha512":"00"}}}},{{"name":"a","digest":{{"sha256":"{hex}"}}}}],"predicateType":"p","predicate":{{}}}}"#
            )
        };
        assert!(check_subject(IN_TOTO, statement(&"11".repeat(32)).as_bytes(), &digest).is_ok());
        assert!(check_subject(IN_TOTO, statement(&"12".repeat(32)).as_bytes(), &digest).is_err());
        assert!(
            check_subject(
                "text/plain",
                statement(&"11".repeat(32)).as_bytes(),
                &digest
            )
            .is_err()
        );
        assert!(check_subject(IN_TOTO, b"{", &digest).is_err());
    }
}
