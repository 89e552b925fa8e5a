//! The Rekor v1 transparency log entry's own proofs: the signed entry
//! timestamp (the log's promise, over the entry's body, integrated time,
//! log ID and index), the RFC 6962 inclusion proof from the entry's leaf
//! hash to a root, and the signed checkpoint (a signed note) that commits
//! the log to that root at that tree size. Whether the entry's body is
//! about this bundle is `body.rs`'s question.

use sha2::{Digest as _, Sha256};

use super::bundle::{Entry, Proof, base64};
use super::error::{SigstoreError, malformed, mismatch, untrusted};
use super::root::LogKey;

/// Verifies the entry's signed entry timestamp with the log's key.
pub(crate) fn verify_promise(entry: &Entry, log: &LogKey) -> Result<(), SigstoreError> {
    // The canonical JSON Rekor signs: keys sorted, no spaces (the body is
    // base64, checked when the bundle was read, so it needs no escaping).
    let payload = format!(
        "{{\"body\":\"{}\",\"integratedTime\":{},\"logID\":\"{}\",\"logIndex\":{}}}",
        entry.body_base64,
        entry.integrated_time,
        hex(&log.key_id),
        entry.log_index
    );
    if !log
        .key
        .verifies(payload.as_bytes(), &entry.signed_entry_timestamp)
    {
        return untrusted(
            "log entry: the signed entry timestamp does not verify with the log's key",
        );
    }
    Ok(())
}

/// Verifies the inclusion proof of the entry's body and the checkpoint it
/// leads to, signed by the log's key.
pub(crate) fn verify_inclusion(entry: &Entry, log: &LogKey) -> Result<(), SigstoreError> {
    let proof = &entry.proof;
    let leaf = leaf_hash(&entry.body);
    match root_from_proof(proof.log_index, proof.tree_size, &leaf, &proof.hashes) {
        Some(root) if root == proof.root_hash => {}
        _ => return untrusted("log entry: the inclusion proof does not lead to its root hash"),
    }
    let note = Checkpoint::parse(&proof.checkpoint)?;
    if !note.signed_by(log) {
        return untrusted("log entry: the checkpoint is not signed by the log's key");
    }
    check_checkpoint(&note, proof)
}

fn check_checkpoint(note: &Checkpoint<'_>, proof: &Proof) -> Result<(), SigstoreError> {
    if note.tree_size != proof.tree_size || note.root_hash != proof.root_hash {
        return mismatch(
            "log entry: the checkpoint is for another tree than the inclusion proof's",
        );
    }
    Ok(())
}

/// RFC 6962's leaf hash.
pub(crate) fn leaf_hash(data: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update([0u8]);
    h.update(data);
    h.finalize().into()
}

fn node_hash(left: &[u8; 32], right: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update([1u8]);
    h.update(left);
    h.update(right);
    h.finalize().into()
}

/// The root an inclusion proof leads to (RFC 9162, section 2.1.3.2), or
/// nothing when the proof's shape does not fit the index and size.
fn root_from_proof(index: u64, size: u64, leaf: &[u8; 32], path: &[[u8; 32]]) -> Option<[u8; 32]> {
    if index >= size {
        return None;
    }
    let (mut f, mut s) = (index, size - 1);
    let mut r = *leaf;
    for p in path {
        if s == 0 {
            return None;
        }
        if f & 1 == 1 || f == s {
            r = node_hash(p, &r);
            while f & 1 == 0 && f != 0 {
                f >>= 1;
                s >>= 1;
            }
        } else {
            r = node_hash(&r, p);
        }
        f >>= 1;
        s >>= 1;
    }
    (s == 0).then_some(r)
}

/// A checkpoint: the signed note `origin`, tree size, root hash (and
/// other lines), a blank line, then signature lines `— name base64`.
struct Checkpoint<'a> {
    /// The signed text: everything up to and including the blank line's
    /// preceding newline.
    body: &'a str,
    tree_size: u64,
    root_hash: [u8; 32],
    signatures: Vec<(&'a str, Vec<u8>)>,
}

/// The most signature lines read.
const MAX_NOTE_SIGNATURES: usize = 16;

impl<'a> Checkpoint<'a> {
    fn parse(text: &'a str) -> Result<Checkpoint<'a>, SigstoreError> {
        let bad = |what: &str| malformed(format!("log entry: the checkpoint {what}"));
        let Some(split) = text.find("\n\n") else {
            return bad("has no signature");
        };
        let (body, signatures) = (&text[..=split], &text[split + 2..]);
        let mut lines = body.lines();
        let (Some(origin), Some(size), Some(root)) = (lines.next(), lines.next(), lines.next())
        else {
            return bad("lacks its origin, size or root hash");
        };
        if origin.is_empty() {
            return bad("has no origin");
        }
        let Ok(tree_size) = size.parse::<u64>() else {
            return bad("has no tree size");
        };
        let Ok(root_hash) = <[u8; 32]>::try_from(base64(root, "checkpoint root hash")?) else {
            return bad("has no root hash");
        };
        let mut parsed = Vec::new();
        for line in signatures.lines() {
            if parsed.len() == MAX_NOTE_SIGNATURES {
                return bad("has too many signatures");
            }
            let Some(rest) = line.strip_prefix("\u{2014} ") else {
                return bad("has a signature line not starting with `— `");
            };
            let Some((name, signature)) = rest.rsplit_once(' ') else {
                return bad("has a signature line without a signature");
            };
            parsed.push((name, base64(signature, "checkpoint signature")?));
        }
        if !signatures.ends_with('\n') || parsed.is_empty() {
            return bad("has no signature");
        }
        Ok(Checkpoint {
            body,
            tree_size,
            root_hash,
            signatures: parsed,
        })
    }

    /// Whether a signature whose key hint is the log's (the first four
    /// bytes of its key ID) verifies with the log's key.
    fn signed_by(&self, log: &LogKey) -> bool {
        let Some(hint) = log.key_id.get(..4) else {
            return false;
        };
        self.signatures.iter().any(|(_, sig)| {
            sig.get(..4) == Some(hint)
                && sig
                    .get(4..)
                    .is_some_and(|sig| log.key.verifies(self.body.as_bytes(), sig))
        })
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree of `n` leaves' root, by RFC 6962's definition.
    fn root(leaves: &[[u8; 32]]) -> [u8; 32] {
        if leaves.len() == 1 {
            return leaves[0];
        }
        let k = leaves.len().next_power_of_two() / 2;
        node_hash(&root(&leaves[..k]), &root(&leaves[k..]))
    }

    /// The audit path of leaf `m`, by RFC 6962's definition.
    fn path(m: usize, leaves: &[[u8; 32]]) -> Vec<[u8; 32]> {
        if leaves.len() == 1 {
            return Vec::new();
        }
        let k = leaves.len().next_power_of_two() / 2;
        if m < k {
            let mut p = path(m, &leaves[..k]);
            p.push(root(&leaves[k..]));
            p
        } else {
            let mut p = path(m - k, &leaves[k..]);
            p.push(root(&leaves[..k]));
            p
        }
    }

    #[test]
    fn inclusion_proofs_of_every_leaf_of_small_trees() {
        for n in 1..=17usize {
            let leaves: Vec<[u8; 32]> = (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect();
            let r = root(&leaves);
            for m in 0..n {
                let p = path(m, &leaves);
                assert_eq!(
                    root_from_proof(m as u64, n as u64, &leaves[m], &p),
                    Some(r),
                    "{m} of {n}"
                );
                // Another index, a short or long path, or another leaf fails.
                if n > 1 {
                    let other = (m + 1) % n;
                    assert_ne!(
                        root_from_proof(other as u64, n as u64, &leaves[m], &p),
                        Some(r)
                    );
                    assert_ne!(
                        root_from_proof(m as u64, n as u64, &leaves[other], &p),
                        Some(r)
                    );
                    assert_ne!(
                        root_from_proof(m as u64, n as u64, &leaves[m], &p[1..]),
                        Some(r)
                    );
                }
                let mut long = p.clone();
                long.push(r);
                assert_eq!(root_from_proof(m as u64, n as u64, &leaves[m], &long), None);
            }
            assert_eq!(root_from_proof(n as u64, n as u64, &leaves[0], &[]), None);
        }
    }

    #[test]
    fn reads_a_checkpoint() {
        let text = "rekor.sigstore.dev - 1193050959916656506\n33786589\nZrYR297TJTi0oux1PnfYzacxRVBAkp5eW5lpw/qFYWQ=\n\n\u{2014} rekor.sigstore.dev wNI9ajBEAiA+GpzJyWBj16seA8o0JUhK/i90XD5EBIgOd66RCqO0LgIgSEe3qlMyfS83e7qtpB5kCp5VycJ3GrHm7turTUMEI2g=\n";
        let note = Checkpoint::parse(text).unwrap();
        assert_eq!(note.tree_size, 33_786_589);
        assert_eq!(note.signatures.len(), 1);
        assert!(note.body.ends_with("=\n"));
        for bad in [
            "",
            "origin\n1\n",
            "origin\nx\nZrYR297TJTi0oux1PnfYzacxRVBAkp5eW5lpw/qFYWQ=\n\n\u{2014} a AAAA\n",
            "origin\n1\nZrYR297TJTi0oux1PnfYzacxRVBAkp5eW5lpw/qFYWQ=\n\n- a AAAA\n",
            "origin\n1\nZrYR297TJTi0oux1PnfYzacxRVBAkp5eW5lpw/qFYWQ=\n\n",
            "origin\n1\nAAAA\n\n\u{2014} a AAAA\n",
        ] {
            assert!(Checkpoint::parse(bad).is_err(), "{bad:?}");
        }
    }
}
