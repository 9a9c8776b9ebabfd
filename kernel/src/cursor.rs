//! Cursor positions: Jupyter counts Unicode code points (protocol 5.2+), the session counts
//! bytes of UTF-8. Both conversions clamp to the text, so a client's bad position is harmless.

/// The byte offset of the code point at index `code_points` (the end if past it).
pub fn to_byte(text: &str, code_points: usize) -> usize {
    text.char_indices()
        .nth(code_points)
        .map_or(text.len(), |(byte, _)| byte)
}

/// The number of code points before byte offset `byte` (rounded down to a character boundary).
pub fn to_code_points(text: &str, byte: usize) -> usize {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    text[..byte].chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_is_the_identity() {
        assert_eq!(to_byte("sin(x)", 3), 3);
        assert_eq!(to_code_points("sin(x)", 3), 3);
    }

    #[test]
    fn multibyte_characters() {
        // `α` is 2 bytes, `∇` 3, `𝑓` 4.
        let text = "α = ∇𝑓(x)";
        assert_eq!(to_byte(text, 1), 2);
        assert_eq!(to_byte(text, 4), 5);
        assert_eq!(to_byte(text, 5), 8);
        assert_eq!(to_byte(text, 6), 12);
        for cp in 0..=text.chars().count() {
            assert_eq!(to_code_points(text, to_byte(text, cp)), cp);
        }
    }

    #[test]
    fn clamps_out_of_range_positions() {
        assert_eq!(to_byte("αβ", 10), 4);
        assert_eq!(to_code_points("αβ", 10), 2);
        // Inside `β` (bytes 2..4): rounds down to its start.
        assert_eq!(to_code_points("αβ", 3), 1);
        assert_eq!(to_byte("", 0), 0);
    }
}
