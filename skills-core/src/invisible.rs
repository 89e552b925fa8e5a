//! Characters that take no space and show nothing, yet change what a model
//! reads: one table for every tool of the workspace that shows, lints or
//! scans skill text (the terminal renderer, the compiler's lint, the
//! scanner), so that they agree on what is hidden.

/// Whether `c` is invisible: zero-width characters and joiners, the soft
/// hyphen, bidirectional controls and marks (Arabic letter mark and
/// Mongolian vowel separator included), the byte-order mark, and Unicode
/// tag characters. Variation selectors are not: they are part of ordinary
/// emoji.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{3164}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{E0000}'..='\u{E007F}')
}

/// Whether `b` can be the first byte of the UTF-8 encoding of a character
/// [`is_invisible`] flags: a scan over bytes decodes only the characters
/// that start with one (the test below checks every character).
pub fn may_start_invisible(b: u8) -> bool {
    matches!(b, 0xC2 | 0xCD | 0xD8 | 0xE1 | 0xE2 | 0xE3 | 0xEF | 0xF3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_and_visible() {
        for c in [
            '\u{200B}',
            '\u{00AD}',
            '\u{061C}',
            '\u{180E}',
            '\u{2066}',
            '\u{E0041}',
        ] {
            assert!(is_invisible(c), "U+{:04X}", c as u32);
        }
        for c in ['a', ' ', '\u{FE0F}', '\u{00A0}', 'é', '中'] {
            assert!(!is_invisible(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn every_invisible_character_starts_with_a_candidate_byte() {
        let mut buf = [0; 4];
        for c in (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| is_invisible(c))
        {
            let lead = c.encode_utf8(&mut buf).as_bytes()[0];
            assert!(
                may_start_invisible(lead),
                "U+{:04X} starts with {lead:#04X}",
                c as u32
            );
        }
    }
}
