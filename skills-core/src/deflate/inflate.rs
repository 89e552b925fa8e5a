//! The raw-deflate decoder (RFC 1951) behind [`super::inflate`].
//!
//! Every reader knows the exact size of what it inflates (the writer
//! recorded it), so this decoder writes into one buffer of that size and
//! never grows it: a stream that would write past the end stops with
//! [`InflateError::TooMuch`], whatever it claims. Knowing the size is also
//! what makes it fast: no output window to wrap, no growing `Vec`, and a
//! match is copied eight bytes at a time when the buffer has room to
//! overshoot (the bytes past the match are written again later, or the
//! stream is short and the buffer is dropped). The bit reader holds up to
//! 63 bits and refills with one 8-byte load, enough for a whole
//! length/distance pair; Huffman codes decode through a 10-bit table (9 for
//! distances) with second-level tables for longer codes, and an entry
//! carries its code's length plus the extra bits that follow, so a length
//! or a distance is consumed with one shift. Safe Rust only: a malformed
//! stream is an error, never a panic or an out-of-bounds write.

use super::error::InflateError;

/// Bits of the first-level literal/length table.
const LITLEN_BITS: u32 = 10;
/// Bits of the first-level distance table.
const DIST_BITS: u32 = 9;
/// Bits of the code-length code table (its codes are at most 7 bits).
const PRECODE_BITS: u32 = 7;

/// The order in which code-length code lengths are sent.
const PRECODE_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

// A table entry, one `u32`:
// - bits 0..5: the bits to consume, the code's and its extra bits (a link:
//   the first level's), so that `buf >> (e & 63)` consumes them;
// - bit 6: exceptional (a link to a second-level table, the end of the
//   block, or a code that may not appear), bit 7: a literal;
// - bits 8..12: the code's own length, so the extra bits are the consumed
//   bits above it (a link: the second level's bits);
// - bits 12..14: which exception;
// - bits 16..32: the value: a literal, a length or distance base, a
//   code-length symbol, where a second-level table starts.
const COUNT: u32 = 0x3f;
const EXCEPTIONAL: u32 = 1 << 6;
const LITERAL: u32 = 1 << 7;
const LINK: u32 = EXCEPTIONAL;
const END: u32 = EXCEPTIONAL | 1 << 12;
const INVALID: u32 = EXCEPTIONAL | 2 << 12;
const EXCEPTION: u32 = EXCEPTIONAL | 3 << 12;

/// An entry for a code of `len` bits followed by `extra` bits.
fn entry(flags: u32, value: u32, len: u32, extra: u32) -> u32 {
    value << 16 | len << 8 | flags | (len + extra)
}

fn precode_entry(symbol: usize, len: u32) -> u32 {
    entry(0, symbol as u32, len, 0)
}

fn litlen_entry(symbol: usize, len: u32) -> u32 {
    match symbol {
        0..=255 => entry(LITERAL, symbol as u32, len, 0),
        256 => entry(END, 0, len, 0),
        257..=285 => {
            let i = symbol - 257;
            entry(
                0,
                u32::from(LENGTH_BASE[i]),
                len,
                u32::from(LENGTH_EXTRA[i]),
            )
        }
        _ => entry(INVALID, 0, len, 0),
    }
}

fn dist_entry(symbol: usize, len: u32) -> u32 {
    match symbol {
        0..=29 => entry(
            0,
            u32::from(DIST_BASE[symbol]),
            len,
            u32::from(DIST_EXTRA[symbol]),
        ),
        _ => entry(INVALID, 0, len, 0),
    }
}

/// The value an entry decodes to: its base plus its extra bits, taken from
/// `saved`, the buffer before the entry's bits were consumed.
#[inline(always)]
fn value(e: u32, saved: u64) -> usize {
    let extra = (saved & ((1u64 << (e & COUNT)) - 1)) >> ((e >> 8) & 0xf);
    (e >> 16) as usize + extra as usize
}

/// The bit reader: `buf` holds `n` unread bits, low bits first; `pos` is
/// the next input byte to load; `past` counts the zero bytes loaded past
/// the end (a stream that reads them is truncated). `Copy`, so that the
/// decoding loop works on a local copy that lives in registers.
#[derive(Clone, Copy)]
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
    buf: u64,
    n: u32,
    past: usize,
}

impl Bits<'_> {
    /// Tops the buffer up to at least 56 bits.
    #[inline(always)]
    fn refill(&mut self) -> Result<(), InflateError> {
        if let Some(word) = self.data.get(self.pos..).and_then(<[u8]>::first_chunk::<8>) {
            self.buf |= u64::from_le_bytes(*word) << self.n;
            self.pos += (63 - self.n as usize) >> 3;
            self.n |= 56;
            return Ok(());
        }
        *self = self.refilled_slowly()?;
        Ok(())
    }

    /// Near the end: byte by byte, then zeros. More zeros than the buffer
    /// can hold means the stream read past its end. By value, so that no
    /// pointer to the hot loop's copy escapes.
    #[cold]
    #[inline(never)]
    fn refilled_slowly(mut self) -> Result<Self, InflateError> {
        while self.n <= 56 {
            let byte = match self.data.get(self.pos) {
                Some(&b) => {
                    self.pos += 1;
                    b
                }
                None => {
                    self.past += 1;
                    0
                }
            };
            self.buf |= u64::from(byte) << self.n;
            self.n += 8;
        }
        if self.past > 8 {
            return Err(InflateError::Corrupt);
        }
        Ok(self)
    }

    #[inline(always)]
    fn peek(&self, bits: u32) -> usize {
        (self.buf & ((1u64 << bits) - 1)) as usize
    }

    #[inline(always)]
    fn consume(&mut self, bits: u32) {
        self.buf >>= bits;
        self.n -= bits;
    }

    /// Reads `bits` (at most 32) after a refill if needed.
    fn take(&mut self, bits: u32) -> Result<u32, InflateError> {
        if self.n < bits {
            self.refill()?;
        }
        let v = self.peek(bits) as u32;
        self.consume(bits);
        Ok(v)
    }

    /// Whether bits past the end of the input were used.
    fn overran(&self) -> bool {
        self.past * 8 > self.n as usize
    }

    /// The input bytes used so far, the partial last byte included.
    fn consumed(&self) -> usize {
        (self.pos + self.past).saturating_sub(self.n as usize / 8)
    }

    /// Drops the bits up to the next byte boundary and empties the buffer,
    /// so the next read starts at a byte of the input (a stored block).
    fn align(&mut self) -> Result<(), InflateError> {
        self.consume(self.n % 8);
        let at = self.consumed();
        if at > self.data.len() {
            return Err(InflateError::Corrupt);
        }
        self.pos = at;
        self.buf = 0;
        self.n = 0;
        self.past = 0;
        Ok(())
    }
}

/// A Huffman table: `N` first-level entries, then second-level tables.
struct Table<const N: usize> {
    first: [u32; N],
    second: Vec<u32>,
}

impl<const N: usize> Table<N> {
    fn new() -> Self {
        Table {
            first: [INVALID; N],
            second: Vec::new(),
        }
    }

    /// The entry for the bits at the bottom of `bits`, following a link to
    /// the second level (consuming the first level's bits). The buffer must
    /// hold the longest code.
    #[inline(always)]
    fn decode(&self, bits: &mut Bits<'_>) -> u32 {
        let e = self.first[bits.peek(N.trailing_zeros()) & (N - 1)];
        if e & EXCEPTION != LINK {
            return e;
        }
        self.link(bits, e)
    }

    #[inline(always)]
    fn link(&self, bits: &mut Bits<'_>, e: u32) -> u32 {
        bits.consume(e & COUNT);
        let at = (e >> 16) as usize + bits.peek((e >> 8) & 0xf);
        self.second.get(at).copied().unwrap_or(INVALID)
    }
}

/// Builds the canonical Huffman table for code lengths `lens` (each
/// 0..=15). An incomplete code is refused unless `single_ok` and it is one
/// code of one bit (what RFC 1951 allows for distances); no code at all
/// leaves every entry invalid.
fn build<const N: usize>(
    table: &mut Table<N>,
    lens: &[u8],
    single_ok: bool,
    entry_of: impl Fn(usize, u32) -> u32,
) -> Result<(), InflateError> {
    let first = N.trailing_zeros();
    let mut count = [0u16; 16];
    for &l in lens {
        count[usize::from(l & 0xf)] += 1;
    }
    count[0] = 0;
    table.second.clear();
    let Some(max) = (1..16u32).rev().find(|&l| count[l as usize] != 0) else {
        table.first.fill(INVALID);
        return Ok(());
    };
    let mut left: i32 = 1;
    for &c in &count[1..] {
        left = (left << 1) - i32::from(c);
        if left < 0 {
            return Err(InflateError::Corrupt);
        }
    }
    if left > 0 {
        if !(single_ok && max == 1) {
            return Err(InflateError::Corrupt);
        }
        table.first.fill(INVALID);
    }
    // Symbols sorted by code length, then symbol: canonical order.
    let mut offsets = [0u16; 16];
    for l in 1..15 {
        offsets[l + 1] = offsets[l] + count[l];
    }
    let mut sorted = [0u16; 288];
    for (symbol, &l) in lens.iter().enumerate() {
        if l != 0 {
            let o = &mut offsets[usize::from(l & 0xf)];
            sorted[usize::from(*o)] = symbol as u16;
            *o += 1;
        }
    }
    let total: usize = count.iter().map(|&c| usize::from(c)).sum();
    let mut remaining = count;
    let mut code: u32 = 0;
    let mut len: u32 = 1;
    // The second-level table being filled: its first-level prefix, start
    // and bits.
    let mut prefix = u32::MAX;
    let (mut sub_start, mut sub_bits) = (0usize, 0u32);
    for &symbol in &sorted[..total] {
        let symbol = usize::from(symbol);
        let l = u32::from(lens[symbol] & 0xf);
        code <<= l - len;
        len = l;
        if l <= first {
            let e = entry_of(symbol, l);
            let mut i = reverse(code, l) as usize;
            while i < N {
                table.first[i] = e;
                i += 1 << l;
            }
        } else {
            let head = reverse(code >> (l - first), first);
            if head != prefix {
                // A new second-level table, as wide as the longest codes
                // that share this prefix need.
                prefix = head;
                let mut bits = l - first;
                let mut room: i32 = 1 << bits;
                while bits + first < max {
                    room -= i32::from(remaining[(bits + first) as usize]);
                    if room <= 0 {
                        break;
                    }
                    bits += 1;
                    room <<= 1;
                }
                sub_start = table.second.len();
                sub_bits = bits;
                table.second.resize(sub_start + (1 << bits), INVALID);
                table.first[head as usize] = (sub_start as u32) << 16 | bits << 8 | LINK | first;
            }
            let rest = l - first;
            let e = entry_of(symbol, rest);
            let mut i = reverse(code & ((1 << rest) - 1), rest) as usize;
            while i < 1 << sub_bits {
                table.second[sub_start + i] = e;
                i += 1 << rest;
            }
        }
        remaining[l as usize] -= 1;
        code += 1;
    }
    Ok(())
}

/// The low `bits` bits of `code`, in reverse order (Huffman codes are
/// sent most significant bit first, the rest least significant first).
fn reverse(code: u32, bits: u32) -> u32 {
    code.reverse_bits() >> (32 - bits)
}

const LITLEN_SIZE: usize = 1 << LITLEN_BITS;
const DIST_SIZE: usize = 1 << DIST_BITS;
const PRECODE_SIZE: usize = 1 << PRECODE_BITS;

/// The tables of the block being decoded, kept across blocks to reuse
/// their allocations.
struct Tables {
    litlen: Table<LITLEN_SIZE>,
    dist: Table<DIST_SIZE>,
    precode: Table<PRECODE_SIZE>,
}

/// Inflates `data` into `out`, which must be filled exactly.
pub(super) fn inflate_into(data: &[u8], out: &mut [u8]) -> Result<(), InflateError> {
    let mut bits = Bits {
        data,
        pos: 0,
        buf: 0,
        n: 0,
        past: 0,
    };
    let mut tables = Box::new(Tables {
        litlen: Table::new(),
        dist: Table::new(),
        precode: Table::new(),
    });
    let mut at = 0;
    let result = blocks(&mut bits, &mut tables, out, &mut at);
    // A stream that read past its end is corrupt, whatever else it did.
    if bits.overran() {
        return Err(InflateError::Corrupt);
    }
    result?;
    if at != out.len() {
        return Err(InflateError::Short(at));
    }
    if bits.consumed() != data.len() {
        return Err(InflateError::Trailing);
    }
    Ok(())
}

fn blocks(
    bits: &mut Bits<'_>,
    tables: &mut Tables,
    out: &mut [u8],
    at: &mut usize,
) -> Result<(), InflateError> {
    loop {
        let header = bits.take(3)?;
        match header >> 1 {
            0 => stored(bits, out, at)?,
            1 => {
                fixed(tables)?;
                codes(bits, tables, out, at)?;
            }
            2 => {
                dynamic(bits, tables)?;
                codes(bits, tables, out, at)?;
            }
            _ => return Err(InflateError::Corrupt),
        }
        if header & 1 == 1 {
            return Ok(());
        }
    }
}

/// A stored block: LEN, NLEN, then LEN bytes as they are.
fn stored(bits: &mut Bits<'_>, out: &mut [u8], at: &mut usize) -> Result<(), InflateError> {
    bits.align()?;
    let data = bits.data;
    let header = data
        .get(bits.pos..bits.pos + 4)
        .ok_or(InflateError::Corrupt)?;
    let len = usize::from(u16::from_le_bytes([header[0], header[1]]));
    let nlen = u16::from_le_bytes([header[2], header[3]]);
    if len != usize::from(!nlen) {
        return Err(InflateError::Corrupt);
    }
    let start = bits.pos + 4;
    let bytes = data.get(start..start + len).ok_or(InflateError::Corrupt)?;
    let dest = out.get_mut(*at..*at + len).ok_or(InflateError::TooMuch)?;
    dest.copy_from_slice(bytes);
    *at += len;
    bits.pos = start + len;
    Ok(())
}

/// The fixed codes of RFC 1951, 3.2.6.
fn fixed(tables: &mut Tables) -> Result<(), InflateError> {
    let mut lens = [0u8; 288];
    lens[..144].fill(8);
    lens[144..256].fill(9);
    lens[256..280].fill(7);
    lens[280..].fill(8);
    build(&mut tables.litlen, &lens, false, litlen_entry)?;
    build(&mut tables.dist, &[5; 32], false, dist_entry)
}

/// A dynamic block's header: the code-length code, then the literal/length
/// and distance code lengths through it.
fn dynamic(bits: &mut Bits<'_>, tables: &mut Tables) -> Result<(), InflateError> {
    let nlit = bits.take(5)? as usize + 257;
    let ndist = bits.take(5)? as usize + 1;
    let nprecode = bits.take(4)? as usize + 4;
    if nlit > 286 || ndist > 30 {
        return Err(InflateError::Corrupt);
    }
    let mut precode_lens = [0u8; 19];
    for &i in &PRECODE_ORDER[..nprecode] {
        precode_lens[i] = bits.take(3)? as u8;
    }
    build(&mut tables.precode, &precode_lens, false, precode_entry)?;
    let mut lens = [0u8; 286 + 30];
    let total = nlit + ndist;
    let mut i = 0;
    while i < total {
        if bits.n < 16 {
            bits.refill()?;
        }
        let e = tables.precode.decode(bits);
        if e & EXCEPTIONAL != 0 {
            return Err(InflateError::Corrupt);
        }
        bits.consume(e & COUNT);
        let symbol = (e >> 16) as u8;
        let (value, times) = match symbol {
            0..=15 => (symbol, 1),
            16 => {
                let previous = *lens.get(i.wrapping_sub(1)).ok_or(InflateError::Corrupt)?;
                (previous, 3 + bits.take(2)? as usize)
            }
            17 => (0, 3 + bits.take(3)? as usize),
            _ => (0, 11 + bits.take(7)? as usize),
        };
        // A repeat may not run past the last length the header announced.
        lens[..total]
            .get_mut(i..i + times)
            .ok_or(InflateError::Corrupt)?
            .fill(value);
        i += times;
    }
    if lens[256] == 0 {
        return Err(InflateError::Corrupt);
    }
    build(&mut tables.litlen, &lens[..nlit], true, litlen_entry)?;
    build(&mut tables.dist, &lens[nlit..total], true, dist_entry)
}

/// The symbols of a Huffman-coded block, up to its end code.
fn codes(
    state: &mut Bits<'_>,
    tables: &Tables,
    out: &mut [u8],
    at: &mut usize,
) -> Result<(), InflateError> {
    let litlen = &tables.litlen;
    let dist = &tables.dist;
    let mut o = *at;
    let mut local = *state;
    let bits = &mut local;
    let result = loop {
        // 56 bits: a length code, its extra bits, a distance code and its
        // extra bits take at most 15 + 5 + 15 + 13.
        if let Err(e) = bits.refill() {
            break Err(e);
        }
        let mut e = litlen.decode(bits);
        if e & LITERAL != 0 {
            // Up to three literals per refill: 3 x 15 bits.
            bits.consume(e & COUNT);
            let Some(slot) = out.get_mut(o) else {
                break Err(InflateError::TooMuch);
            };
            *slot = (e >> 16) as u8;
            o += 1;
            e = litlen.first[bits.peek(LITLEN_BITS)];
            if e & LITERAL == 0 {
                continue;
            }
            bits.consume(e & COUNT);
            let Some(slot) = out.get_mut(o) else {
                break Err(InflateError::TooMuch);
            };
            *slot = (e >> 16) as u8;
            o += 1;
            e = litlen.first[bits.peek(LITLEN_BITS)];
            if e & LITERAL == 0 {
                continue;
            }
            bits.consume(e & COUNT);
            let Some(slot) = out.get_mut(o) else {
                break Err(InflateError::TooMuch);
            };
            *slot = (e >> 16) as u8;
            o += 1;
            continue;
        }
        if e & EXCEPTIONAL != 0 {
            if e & EXCEPTION == END {
                bits.consume(e & COUNT);
                break Ok(());
            }
            break Err(InflateError::Corrupt);
        }
        let saved = bits.buf;
        bits.consume(e & COUNT);
        let len = value(e, saved);
        let d = dist.decode(bits);
        if d & EXCEPTIONAL != 0 {
            break Err(InflateError::Corrupt);
        }
        let saved = bits.buf;
        bits.consume(d & COUNT);
        let distance = value(d, saved);
        if distance > o {
            break Err(InflateError::Corrupt);
        }
        let end = o + len;
        if end > out.len() {
            break Err(InflateError::TooMuch);
        }
        copy_match(out, o, distance, len);
        o = end;
    };
    *state = local;
    *at = o;
    result
}

/// Copies `len` bytes from `distance` back to `at` (which may overlap, so
/// a short distance repeats a pattern). `at + len <= out.len()` and
/// `distance <= at`, `distance >= 1`.
#[inline(always)]
fn copy_match(out: &mut [u8], at: usize, distance: usize, len: usize) {
    let from = at - distance;
    if distance >= 8 && at + len + 8 <= out.len() {
        // Eight bytes at a time, overshooting by up to seven: those bytes
        // are written again by what follows, or the stream is short. Most
        // matches are 16 bytes or shorter: two words, no loop.
        copy8(out, from, at);
        if len > 8 {
            copy8(out, from + 8, at + 8);
            let mut i = 16;
            while i < len {
                copy8(out, from + i, at + i);
                i += 8;
            }
        }
    } else if distance == 1 {
        let byte = out[from];
        out[at..at + len].fill(byte);
    } else if distance >= len {
        out.copy_within(from..from + len, at);
    } else {
        for i in 0..len {
            out[at + i] = out[from + i];
        }
    }
}

/// Copies the 8 bytes at `from` to `to`; `from + 8 <= to` or `to + 8 <=
/// from`.
#[inline(always)]
fn copy8(out: &mut [u8], from: usize, to: usize) {
    let mut word = [0u8; 8];
    word.copy_from_slice(&out[from..from + 8]);
    out[to..to + 8].copy_from_slice(&word);
}
