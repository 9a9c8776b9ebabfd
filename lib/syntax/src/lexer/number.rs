//! Numeric literals: `42`, `1_000`, `0xff`, `1.5`, `.5`, `1.`, `1e-3`, `1f0` (read as
//! `Float64`). A `.` after digits is a decimal point unless it starts `..` or a dotted operator
//! (`1.+x` is `1 .+ x`); a letter after a number is left for the parser (`2x`).

use super::{dotted, error, is_ident_start, operator_at, shorten, LexResult, Lexer, TokenKind};
use crate::parser::ParseErrorKind;

impl<'s> Lexer<'s> {
    pub(super) fn lex_number(&mut self, start: usize) -> LexResult<TokenKind> {
        let bytes = self.src.as_bytes();
        let radix = match (bytes.get(start), bytes.get(start + 1)) {
            (Some(b'0'), Some(b'x')) => 16,
            (Some(b'0'), Some(b'b')) => 2,
            (Some(b'0'), Some(b'o')) => 8,
            _ => 10,
        };
        if radix != 10 {
            return self.lex_radix_integer(start, radix);
        }
        let mut pos = self.scan_digits(start);
        let mut float = false;
        if bytes.get(pos) == Some(&b'.') && self.fraction_follows(pos) {
            float = true;
            pos = self.scan_digits(pos + 1);
        }
        if let Some(after) = exponent_length(&self.src[pos..]) {
            float = true;
            pos += after;
        }
        self.pos = pos;
        let text = &self.src[start..pos];
        let digits: String = text.chars().filter(|&c| c != '_').collect();
        if !float {
            return digits.parse::<i64>().map(TokenKind::Int).map_err(|_| {
                error(
                    ParseErrorKind::IntegerTooLarge {
                        text: shorten(text),
                    },
                    start,
                    pos,
                )
            });
        }
        let mut normal = digits.replace(['f', 'E'], "e");
        if normal.starts_with('.') {
            normal.insert(0, '0');
        }
        if let Some(dot) = normal.find('.') {
            let after = normal[dot + 1..].chars().next();
            if !after.is_some_and(|c| c.is_ascii_digit()) {
                normal.insert(dot + 1, '0');
            }
        }
        match normal.parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(TokenKind::Float(value)),
            Ok(_) => Err(error(
                ParseErrorKind::FloatTooLarge {
                    text: shorten(text),
                },
                start,
                pos,
            )),
            Err(_) => Err(error(
                ParseErrorKind::InvalidNumber {
                    text: shorten(text),
                },
                start,
                pos,
            )),
        }
    }

    /// Digits with `_` between them, from `pos`; returns the end.
    fn scan_digits(&self, mut pos: usize) -> usize {
        let bytes = self.src.as_bytes();
        while let Some(&b) = bytes.get(pos) {
            let underscore = b == b'_' && bytes.get(pos + 1).is_some_and(u8::is_ascii_digit);
            if b.is_ascii_digit() || (underscore && pos > 0 && bytes[pos - 1].is_ascii_digit()) {
                pos += 1;
            } else {
                break;
            }
        }
        pos
    }

    /// Whether the `.` at `dot` (after digits) is a decimal point. It is not when it starts
    /// `...` or `..`, or a dotted operator as in `1.+x`; `1.` alone is a float, as in Julia.
    fn fraction_follows(&self, dot: usize) -> bool {
        let rest = &self.src[dot + 1..];
        match rest.chars().next() {
            Some('.') => false,
            Some(c) if c.is_ascii_digit() => true,
            Some(c) if is_ident_start(c) => true,
            Some(_) => operator_at(rest).and_then(|(k, _)| dotted(k)).is_none(),
            None => true,
        }
    }

    fn lex_radix_integer(&mut self, start: usize, radix: u32) -> LexResult<TokenKind> {
        let mut pos = start + 2;
        let bytes = self.src.as_bytes();
        while bytes
            .get(pos)
            .is_some_and(|&b| (b as char).is_digit(radix) || b == b'_')
        {
            pos += 1;
        }
        self.pos = pos;
        let text = &self.src[start..pos];
        let digits: String = text[2..].chars().filter(|&c| c != '_').collect();
        if digits.is_empty() {
            return Err(error(
                ParseErrorKind::InvalidNumber {
                    text: shorten(text),
                },
                start,
                pos,
            ));
        }
        u64::from_str_radix(&digits, radix)
            .ok()
            .and_then(|v| i64::try_from(v).ok())
            .map(TokenKind::Int)
            .ok_or_else(|| {
                error(
                    ParseErrorKind::IntegerTooLarge {
                        text: shorten(text),
                    },
                    start,
                    pos,
                )
            })
    }
}

/// The length of an exponent (`e-3`, `E10`, `f0`) at the start of `rest`, if there is one.
fn exponent_length(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    if !matches!(bytes.first(), Some(b'e' | b'E' | b'f')) {
        return None;
    }
    let sign = usize::from(matches!(bytes.get(1), Some(b'+' | b'-')));
    let digits = bytes[1 + sign..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (digits > 0).then_some(1 + sign + digits)
}
