//! Raw deflate, the one codec of bundles, packs and `.skill` archives.
//!
//! One level and one storing rule for every writer (`skills_bundle!`,
//! `skb pack`), so a pack's entries are the bundle's compressed bytes,
//! reused unchanged; one bounded inflater for every reader (a compiled
//! bundle's first read, a pack's, a zip entry's), so none of them can be
//! made to allocate more than the size the writer recorded. Compression is
//! `miniz_oxide`'s; decompression is our own (`deflate/inflate.rs`), written
//! for that bound: it fills a buffer of exactly the recorded size, and is
//! measured against `miniz_oxide` by `cargo bench -p skills-core --bench
//! inflate`.

mod error;
mod inflate;

pub use error::InflateError;

/// The compression level: fixed, so the output is the same on every
/// machine; 6, zlib's default (higher levels gain under 0.1 % on the
/// corpus).
pub const LEVEL: u8 = 6;

/// `bytes` deflated at [`LEVEL`], or `None` when deflate does not make them
/// smaller (the file is then stored as it is).
#[cfg(any(test, feature = "write"))]
pub fn compress(bytes: &[u8]) -> Option<Vec<u8>> {
    let deflated = miniz_oxide::deflate::compress_to_vec(bytes, LEVEL);
    (deflated.len() < bytes.len()).then_some(deflated)
}

/// Inflates raw deflate `data` that must produce exactly `size` bytes: the
/// output buffer is allocated once, at `size`, and never grows.
pub fn inflate(data: &[u8], size: usize) -> Result<Vec<u8>, InflateError> {
    let mut out = vec![0; size];
    inflate::inflate_into(data, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_wrong_size_is_refused() {
        let text = b"the same line again and again\n".repeat(40);
        let packed = compress(&text).expect("repetitive text shrinks");
        assert_eq!(inflate(&packed, text.len()).as_deref(), Ok(&text[..]));
        assert_eq!(
            inflate(&packed, text.len() + 1),
            Err(InflateError::Short(text.len()))
        );
        assert_eq!(inflate(&packed, text.len() - 1), Err(InflateError::TooMuch));
        let mut trailing = packed.clone();
        trailing.push(0);
        assert_eq!(inflate(&trailing, text.len()), Err(InflateError::Trailing));
        assert_eq!(inflate(b"\xff\xff\xff", 10), Err(InflateError::Corrupt));
    }

    #[test]
    fn incompressible_bytes_are_stored() {
        assert_eq!(compress(b"ab"), None);
        assert_eq!(compress(b""), None);
    }

    /// `miniz_oxide`'s inflater, the peer: the stream's output if it is a
    /// complete stream with nothing after it.
    fn peer(data: &[u8], size: usize) -> Option<Vec<u8>> {
        use miniz_oxide::inflate::TINFLStatus;
        use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};
        let mut out = vec![0; size];
        let mut state = Box::<DecompressorOxide>::default();
        let flags = inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
        let (status, consumed, written) = decompress(&mut state, data, &mut out, 0, flags);
        (status == TINFLStatus::Done && written == size && consumed == data.len()).then_some(out)
    }

    /// Every block type and code shape the compressors make: stored
    /// (level 0), fixed codes (short inputs), dynamic codes, long matches,
    /// runs (distance 1), and a stored block after a compressed one.
    #[test]
    fn every_block_type_inflates() {
        use miniz_oxide::deflate::compress_to_vec;
        let mut inputs: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"a".to_vec(),
            b"abcabcabcabcabcabcabc".to_vec(),
            vec![7; 100_000],
            (0..=255u8).cycle().take(70_000).collect(),
        ];
        let mut noise = Vec::new();
        let mut x = 1u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            noise.push((x >> 24) as u8);
        }
        inputs.push(noise.clone());
        let mut mixed = b"the same line again and again\n".repeat(500);
        mixed.extend_from_slice(&noise);
        inputs.push(mixed);
        for input in &inputs {
            for level in [0, 1, 6, 9, 10] {
                let packed = compress_to_vec(input, level);
                assert_eq!(
                    inflate(&packed, input.len()).as_deref(),
                    Ok(&input[..]),
                    "{} bytes at level {level}",
                    input.len()
                );
            }
        }
    }

    /// The exact-size bound holds for a stream that expands a
    /// thousandfold: asked for less, it stops at the bound.
    #[test]
    fn a_bomb_stops_at_the_recorded_size() {
        let zeros = vec![0u8; 10 << 20];
        let packed = compress(&zeros).expect("zeros shrink");
        assert!(packed.len() < 20_000, "{}", packed.len());
        assert_eq!(inflate(&packed, 4096), Err(InflateError::TooMuch));
        assert_eq!(inflate(&packed, 0), Err(InflateError::TooMuch));
        assert_eq!(
            inflate(&packed, zeros.len()).map(|v| v.len()),
            Ok(zeros.len())
        );
    }

    /// A bit writer for hand-made streams: `bits` sends a value least
    /// significant bit first, `code` a Huffman code most significant first.
    #[derive(Default)]
    struct Stream {
        bytes: Vec<u8>,
        used: u32,
    }

    impl Stream {
        fn bits(mut self, value: u32, n: u32) -> Self {
            for i in 0..n {
                if self.used.is_multiple_of(8) {
                    self.bytes.push(0);
                }
                let last = self.bytes.len() - 1;
                self.bytes[last] |= (((value >> i) & 1) as u8) << (self.used % 8);
                self.used += 1;
            }
            self
        }

        fn code(self, code: u32, n: u32) -> Self {
            self.bits(code.reverse_bits() >> (32 - n), n)
        }
    }

    /// Streams that RFC 1951 forbids: a reserved block type, a stored
    /// block whose length check fails, too many codes, a distance before
    /// the start, a fixed-code distance symbol over 29, an over-subscribed
    /// code-length code, a repeat with nothing to repeat, no end-of-block
    /// code. The peer refuses each too.
    #[test]
    fn invalid_streams_are_corrupt() {
        let fixed = || Stream::default().bits(1, 1).bits(1, 2);
        let dynamic = |nlit: u32, ndist: u32, nprecode: u32| {
            Stream::default()
                .bits(1, 1)
                .bits(2, 2)
                .bits(nlit - 257, 5)
                .bits(ndist - 1, 5)
                .bits(nprecode - 4, 4)
        };
        // Code-length code: symbols 0 and 18 one bit each (a complete code).
        let precode = |s: Stream| {
            let mut s = s.bits(0, 3).bits(0, 3).bits(1, 3).bits(1, 3);
            for _ in 4..19 {
                s = s.bits(0, 3);
            }
            s
        };
        let cases: Vec<(&str, Vec<u8>, usize)> = vec![
            (
                "reserved block type",
                Stream::default().bits(1, 1).bits(3, 2).bytes,
                1,
            ),
            ("stored NLEN", vec![0x01, 0x01, 0x00, 0x00, 0x00, b'a'], 1),
            (
                "288 literal/length codes",
                dynamic(288, 1, 4).bits(0, 12).bytes,
                1,
            ),
            (
                "31 distance codes",
                dynamic(257, 31, 4).bits(0, 12).bytes,
                1,
            ),
            (
                "distance before the start",
                fixed()
                    .code(0x30 + b'a' as u32, 8)
                    .code(1, 7)
                    .code(2, 5)
                    .code(0, 7)
                    .bytes,
                4,
            ),
            (
                "distance symbol 30",
                fixed()
                    .code(0x30 + b'a' as u32, 8)
                    .code(1, 7)
                    .code(30, 5)
                    .code(0, 7)
                    .bytes,
                4,
            ),
            (
                "literal/length symbol 286",
                fixed().code(0xc0 + 6, 8).code(0, 7).bytes,
                1,
            ),
            (
                "over-subscribed code-length code",
                dynamic(257, 1, 4)
                    .bits(1, 3)
                    .bits(1, 3)
                    .bits(1, 3)
                    .bits(0, 3)
                    .bytes,
                1,
            ),
            // Code-length symbols 16, 17, 18 and 0 with two bits each;
            // the first symbol sent (16, code 01) repeats nothing.
            (
                "repeat of nothing",
                dynamic(257, 1, 4)
                    .bits(2, 3)
                    .bits(2, 3)
                    .bits(2, 3)
                    .bits(2, 3)
                    .code(1, 2)
                    .bits(0, 2)
                    .bytes,
                1,
            ),
            // Every code length zero (18 with 127 + 11, then 18 with 108 + 11):
            // no end-of-block code.
            (
                "no end-of-block code",
                precode(dynamic(257, 1, 19))
                    .code(1, 1)
                    .bits(127, 7)
                    .code(1, 1)
                    .bits(108, 7)
                    .bytes,
                1,
            ),
        ];
        for (what, stream, size) in cases {
            assert_eq!(
                inflate(&stream, size),
                Err(InflateError::Corrupt),
                "{what}: {stream:02x?}"
            );
            assert_eq!(peer(&stream, size), None, "{what}: {stream:02x?}");
        }
        // The hand-made writer itself: a valid fixed-code stream.
        let abc = fixed()
            .code(0x30 + b'a' as u32, 8)
            .code(0x30 + b'b' as u32, 8)
            .code(1, 7)
            .code(1, 5)
            .code(0, 7)
            .bytes;
        assert_eq!(inflate(&abc, 5).as_deref(), Ok(&b"ababa"[..]));
        assert_eq!(peer(&abc, 5).as_deref(), Some(&b"ababa"[..]));
    }

    proptest::proptest! {
        /// Whatever the compressor makes of any bytes inflates back
        /// exactly, and only to its own size.
        #[test]
        fn compressor_output_inflates_back(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4000),
            repeat in 1usize..8,
            level in 0u8..=10,
        ) {
            let input: Vec<u8> = bytes.iter().flat_map(|&b| std::iter::repeat_n(b, repeat)).collect();
            let packed = miniz_oxide::deflate::compress_to_vec(&input, level);
            proptest::prop_assert_eq!(inflate(&packed, input.len()), Ok(input.clone()));
            proptest::prop_assert_eq!(
                inflate(&packed, input.len() + 1),
                Err(InflateError::Short(input.len()))
            );
            if let Some(less) = input.len().checked_sub(1) {
                proptest::prop_assert_eq!(inflate(&packed, less), Err(InflateError::TooMuch));
            }
        }

        /// A truncated stream is an error, never a panic.
        #[test]
        fn truncated_streams_are_errors(
            bytes in proptest::collection::vec(0u8..4, 1..3000),
            cut in 0.0f64..1.0,
        ) {
            let packed = miniz_oxide::deflate::compress_to_vec(&bytes, 6);
            let keep = ((packed.len() as f64) * cut) as usize;
            proptest::prop_assert!(keep < packed.len());
            proptest::prop_assert!(inflate(&packed[..keep], bytes.len()).is_err());
        }

        /// A garbled stream never panics, and agrees with `miniz_oxide`:
        /// the same bytes when both accept it, an error when it refuses.
        #[test]
        fn garbled_streams_agree_with_the_peer(
            bytes in proptest::collection::vec(0u8..8, 1..3000),
            flips in proptest::collection::vec((proptest::prelude::any::<usize>(), 0u8..8), 1..4),
            size_delta in -2isize..=2,
        ) {
            let mut packed = miniz_oxide::deflate::compress_to_vec(&bytes, 6);
            for (at, bit) in flips {
                let n = packed.len();
                packed[at % n] ^= 1 << bit;
            }
            let size = bytes.len().saturating_add_signed(size_delta);
            let ours = inflate(&packed, size).ok();
            proptest::prop_assert_eq!(ours, peer(&packed, size));
        }

        /// Random bytes as a stream: never a panic, the same verdict as
        /// the peer.
        #[test]
        fn random_streams_agree_with_the_peer(
            stream in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
            size in 0usize..2000,
        ) {
            proptest::prop_assert_eq!(inflate(&stream, size).ok(), peer(&stream, size));
        }
    }
}
