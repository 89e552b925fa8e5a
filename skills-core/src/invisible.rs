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
}
