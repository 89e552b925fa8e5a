//! A minimal DER reader and writer: tag-length-value items read from a
//! borrowed slice (lengths bounded by what is left, no indefinite lengths,
//! no tags above 30), and the one encoding a verifier writes back, a
//! length, for the precertificate an SCT signs (`sct.rs`).
//!
//! Certificates are verified by `rustls-webpki` (`chain.rs`); this reader
//! only finds the fields webpki does not expose: extensions by OID and the
//! public key.

use super::error::{SigstoreError, malformed};

/// Universal tags this verifier reads.
pub(crate) const BOOLEAN: u8 = 0x01;
pub(crate) const BIT_STRING: u8 = 0x03;
pub(crate) const OCTET_STRING: u8 = 0x04;
pub(crate) const OID: u8 = 0x06;
pub(crate) const UTF8_STRING: u8 = 0x0c;
pub(crate) const SEQUENCE: u8 = 0x30;

/// One item: its tag, its content, and the whole encoding.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item<'a> {
    pub(crate) tag: u8,
    pub(crate) content: &'a [u8],
    pub(crate) whole: &'a [u8],
}

/// Items read one after another from a slice.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { rest: data }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next item, whatever its tag.
    pub(crate) fn item(&mut self) -> Result<Item<'a>, SigstoreError> {
        let data = self.rest;
        let (&tag, after_tag) = data.split_first().ok_or_else(truncated)?;
        if tag & 0x1f == 0x1f {
            return malformed("DER: a tag number above 30");
        }
        let (&first, mut after_len) = after_tag.split_first().ok_or_else(truncated)?;
        let len = if first < 0x80 {
            usize::from(first)
        } else {
            let count = usize::from(first & 0x7f);
            if count == 0 || count > 4 {
                return malformed("DER: an indefinite or oversized length");
            }
            let (bytes, rest) = after_len.split_at_checked(count).ok_or_else(truncated)?;
            after_len = rest;
            let len = bytes.iter().fold(0usize, |n, &b| n << 8 | usize::from(b));
            if len < 0x80 || bytes.first() == Some(&0) {
                return malformed("DER: a length not in its shortest form");
            }
            len
        };
        let (content, rest) = after_len.split_at_checked(len).ok_or_else(truncated)?;
        let header = data.len() - after_len.len();
        let whole = data.get(..header + len).ok_or_else(truncated)?;
        self.rest = rest;
        Ok(Item {
            tag,
            content,
            whole,
        })
    }

    /// The next item, which must have tag `tag`.
    pub(crate) fn expect(&mut self, tag: u8) -> Result<Item<'a>, SigstoreError> {
        let item = self.item()?;
        if item.tag != tag {
            return malformed(format!(
                "DER: tag 0x{:02x} where 0x{tag:02x} was expected",
                item.tag
            ));
        }
        Ok(item)
    }

    /// The next item if it has tag `tag`, else nothing (the reader unmoved).
    pub(crate) fn optional(&mut self, tag: u8) -> Result<Option<Item<'a>>, SigstoreError> {
        match self.rest.first() {
            Some(&t) if t == tag => self.item().map(Some),
            _ => Ok(None),
        }
    }
}

fn truncated() -> SigstoreError {
    SigstoreError::new(super::ErrorKind::Malformed, "DER: truncated")
}

/// The content of a BIT STRING with no unused bits.
pub(crate) fn bit_string_bytes(item: Item<'_>) -> Result<&[u8], SigstoreError> {
    match item.content.split_first() {
        Some((0, bytes)) if item.tag == BIT_STRING => Ok(bytes),
        _ => malformed("DER: a bit string with unused bits"),
    }
}

/// Appends the DER length `len`.
pub(crate) fn push_length(out: &mut Vec<u8>, len: usize) {
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        let significant = bytes.get(skip..).unwrap_or_default();
        out.push(0x80 | significant.len() as u8);
        out.extend_from_slice(significant);
    }
}

/// The DER encoding of an item with tag `tag` and `content`.
pub(crate) fn encode(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(content.len() + 6);
    out.push(tag);
    push_length(&mut out, content.len());
    out.extend_from_slice(content);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_short_and_long_lengths() {
        let mut long = vec![OCTET_STRING, 0x81, 0x80];
        long.extend([7u8; 0x80]);
        let item = Reader::new(&long).expect(OCTET_STRING).unwrap();
        assert_eq!(item.content.len(), 0x80);
        assert_eq!(item.whole, &long[..]);
        let item = Reader::new(&[0x02, 1, 5]).expect(0x02).unwrap();
        assert_eq!(item.content, &[5]);
    }

    #[test]
    fn refuses_bad_encodings() {
        for bad in [
            &[SEQUENCE, 0x80][..],                // indefinite
            &[SEQUENCE, 0x81, 0x05, 0, 0][..],    // long form for a short length
            &[SEQUENCE, 0x03, 0][..],             // truncated
            &[SEQUENCE, 0x85, 1, 0, 0, 0, 0][..], // five length bytes
            &[0x1f, 0x01, 0][..],                 // high tag number
            &[][..],
        ] {
            assert!(Reader::new(bad).item().is_err(), "{bad:?}");
        }
        assert!(Reader::new(&[0x02, 1, 0]).expect(SEQUENCE).is_err());
    }

    #[test]
    fn encodes_what_it_reads() {
        for len in [0usize, 1, 0x7f, 0x80, 0xff, 0x100, 0x1_0000] {
            let content = vec![1u8; len];
            let encoded = encode(SEQUENCE, &content);
            let item = Reader::new(&encoded).expect(SEQUENCE).unwrap();
            assert_eq!(item.content, &content[..]);
            assert_eq!(item.whole, &encoded[..]);
        }
    }
}
