//! String literals: `"…"` and triple-quoted `"""…"""` (dedented as Julia does), with escapes
//! decoded and interpolations `$name` and `$( … )` turned into [`StrPiece`]s, and the raw text
//! of string macros (`r"…"i`, `raw"…"`); the tokens of a
//! `$( … )` are lexed here, so nested strings work. Lexing tolerantly, an unterminated string
//! runs to the end of the input, and an invalid escape or `$` is text of the string.

use super::{error, is_ident_start, Inside, LexResult, Lexer, StrPiece, TokenKind};
use crate::names::Name;
use crate::parser::{stack_position, ParseErrorKind, STACK_BUDGET};
use crate::span::Span;

/// How deeply string interpolations may nest (`"$("$(…)")"`) before lexing gives up.
const MAX_STRING_NESTING: usize = 50;

impl<'s> Lexer<'s> {
    pub(super) fn lex_string(&mut self, start: usize) -> LexResult<TokenKind> {
        let stack_used = self.stack_top.abs_diff(stack_position());
        if self.nesting >= MAX_STRING_NESTING || stack_used > STACK_BUDGET {
            return Err(error(ParseErrorKind::TooDeep, start, start + 1));
        }
        self.nesting += 1;
        let lexed = self.lex_string_nested(start);
        self.nesting -= 1;
        lexed
    }

    /// [`Lexer::lex_string`] once the nesting is counted.
    fn lex_string_nested(&mut self, start: usize) -> LexResult<TokenKind> {
        let triple = self.src[start..].starts_with("\"\"\"");
        let content_start = start + if triple { 3 } else { 1 };
        let mut pos = content_start;
        let mut pieces = Vec::new();
        let mut text = String::new();
        while let Some(c) = self.string_char(pos, start, content_start, start + 1)? {
            match c {
                '"' if !triple => {
                    pos += 1;
                    break;
                }
                '"' if self.src[pos..].starts_with("\"\"\"") => {
                    pos += 3;
                    break;
                }
                '\\' => match self.lex_escape(pos, &mut text) {
                    Ok(after) => pos = after,
                    Err(invalid) if self.tolerance.is_some() => {
                        let end = invalid.span.end as usize;
                        text.push_str(&self.src[pos..end]);
                        pos = end;
                    }
                    Err(invalid) => return Err(invalid),
                },
                '$' => {
                    let mut interpolated = Vec::new();
                    match self.lex_interpolation(start, pos, &mut interpolated) {
                        Ok(after) => {
                            if !text.is_empty() {
                                pieces.push(StrPiece::Text(std::mem::take(&mut text)));
                            }
                            pieces.append(&mut interpolated);
                            pos = after;
                        }
                        Err(_) if self.tolerance.is_some() => {
                            text.push('$');
                            pos += 1;
                        }
                        Err(invalid) => return Err(invalid),
                    }
                }
                _ => {
                    text.push(c);
                    pos += c.len_utf8();
                }
            }
        }
        if !text.is_empty() {
            pieces.push(StrPiece::Text(text));
        }
        if triple {
            dedent(&mut pieces);
        }
        self.pos = pos;
        Ok(TokenKind::Str(pieces))
    }

    /// The character at `pos` of a string that starts at `start`: `None` when a tolerant
    /// lexing reaches the end (the string runs to it), an unterminated-string error (spanning
    /// up to `quote_end`) when a strict one does.
    fn string_char(
        &mut self,
        pos: usize,
        start: usize,
        content_start: usize,
        quote_end: usize,
    ) -> LexResult<Option<char>> {
        match self.char_at(pos) {
            Some(c) => Ok(Some(c)),
            None if self.reached_end(Inside::String {
                start,
                content_start,
            }) =>
            {
                Ok(None)
            }
            None => Err(error(ParseErrorKind::UnterminatedString, start, quote_end)),
        }
    }

    /// `prefix"…"flags` from the opening quote at the current position (`start` is the
    /// prefix's): the text as written, `\"` standing for a quote, triple-quoted text dedented.
    pub(super) fn lex_prefixed_string(
        &mut self,
        start: usize,
        prefix: Name,
    ) -> LexResult<TokenKind> {
        let open = self.pos;
        let triple = self.src[open..].starts_with("\"\"\"");
        let content_start = open + if triple { 3 } else { 1 };
        let mut pos = content_start;
        let mut text = String::new();
        while let Some(c) = self.string_char(pos, start, content_start, open + 1)? {
            if triple && self.src[pos..].starts_with("\"\"\"") {
                pos += 3;
                break;
            }
            if !triple && c == '"' {
                pos += 1;
                break;
            }
            if c == '\\' && self.src[pos + 1..].starts_with('"') {
                text.push('"');
                pos += 2;
                continue;
            }
            text.push(c);
            pos += c.len_utf8();
        }
        if triple {
            let mut pieces = vec![StrPiece::Text(text)];
            dedent(&mut pieces);
            text = match pieces.pop() {
                Some(StrPiece::Text(t)) => t,
                _ => String::new(),
            };
        }
        let flags_start = pos;
        while self.char_at(pos).is_some_and(|c| c.is_ascii_alphanumeric()) {
            pos += 1;
        }
        let flags = self.src[flags_start..pos].to_string();
        self.pos = pos;
        Ok(TokenKind::PrefixedStr {
            prefix,
            text,
            flags,
        })
    }

    /// A character literal at `start` (its opening quote): exactly one character or escape
    /// before the closing quote, as Julia requires (`''` and `'ab'` are errors).
    pub(super) fn lex_char(&mut self, start: usize) -> LexResult<TokenKind> {
        let mut text = String::new();
        let mut pos = start + 1;
        match self.char_at(pos) {
            Some('\\') => pos = self.lex_escape(pos, &mut text)?,
            Some('\'' | '\n') | None => {}
            Some(c) => {
                text.push(c);
                pos += c.len_utf8();
            }
        }
        let mut chars = text.chars();
        match (chars.next(), chars.next(), self.char_at(pos)) {
            (Some(c), None, Some('\'')) => {
                self.pos = pos + 1;
                Ok(TokenKind::Char(c))
            }
            (None, _, Some('\'')) => Err(error(
                ParseErrorKind::InvalidCharLiteral {
                    problem: "invalid empty character literal",
                },
                start,
                pos + 1,
            )),
            _ => {
                let line_end = self.src[pos..]
                    .find('\n')
                    .map_or(self.src.len(), |k| pos + k);
                match self.src[pos..line_end].find('\'') {
                    Some(k) => Err(error(
                        ParseErrorKind::InvalidCharLiteral {
                            problem: "character literal contains multiple characters",
                        },
                        start,
                        pos + k + 1,
                    )),
                    None => Err(error(
                        ParseErrorKind::InvalidCharLiteral {
                            problem: "unterminated character literal",
                        },
                        start,
                        pos,
                    )),
                }
            }
        }
    }

    /// Decodes the escape at `pos` (a backslash) into `text`; returns the position after it.
    fn lex_escape(&self, pos: usize, text: &mut String) -> LexResult<usize> {
        let Some(c) = self.char_at(pos + 1) else {
            // A backslash at the very end: the string is unterminated.
            return Ok(pos + 1);
        };
        let simple = match c {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            '\\' => Some('\\'),
            '"' => Some('"'),
            '$' => Some('$'),
            '\'' => Some('\''),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            'e' => Some('\u{1b}'),
            _ => None,
        };
        if let Some(decoded) = simple {
            text.push(decoded);
            return Ok(pos + 2);
        }
        let invalid = |end: usize| {
            let end = end.min(self.src.len());
            let end = (end..=self.src.len())
                .find(|&e| self.src.is_char_boundary(e))
                .unwrap_or(self.src.len());
            error(
                ParseErrorKind::InvalidEscape {
                    text: self.src[pos..end].into(),
                },
                pos,
                end,
            )
        };
        match c {
            '\n' => {
                // A backslash before a newline joins the lines, dropping the next indentation.
                let mut next = pos + 2;
                while matches!(self.char_at(next), Some(' ' | '\t')) {
                    next += 1;
                }
                Ok(next)
            }
            'x' | 'u' | 'U' | '0'..='7' => {
                let (radix, max, digits_start) = match c {
                    'x' => (16, 2, pos + 2),
                    'u' => (16, 4, pos + 2),
                    'U' => (16, 8, pos + 2),
                    _ => (8, 3, pos + 1),
                };
                let braced = c == 'u' && self.char_at(digits_start) == Some('{');
                let digits_start = digits_start + usize::from(braced);
                let max = if braced { 6 } else { max };
                let mut end = digits_start;
                while end - digits_start < max
                    && self.char_at(end).is_some_and(|d| d.is_digit(radix))
                {
                    end += 1;
                }
                if end == digits_start {
                    return Err(invalid(pos + 2));
                }
                let value = u32::from_str_radix(&self.src[digits_start..end], radix)
                    .map_err(|_| invalid(end))?;
                let after = if braced {
                    if self.char_at(end) != Some('}') {
                        return Err(invalid(end));
                    }
                    end + 1
                } else {
                    end
                };
                let decoded = char::from_u32(value).ok_or_else(|| invalid(after))?;
                text.push(decoded);
                Ok(after)
            }
            other => Err(invalid(pos + 1 + other.len_utf8())),
        }
    }

    /// Lexes the interpolation at `dollar` (`$name` or `$( … )`) of the string starting at
    /// `string_start`; returns the position after it.
    fn lex_interpolation(
        &mut self,
        string_start: usize,
        dollar: usize,
        pieces: &mut Vec<StrPiece>,
    ) -> LexResult<usize> {
        let after = dollar + 1;
        match self.char_at(after) {
            Some(c) if is_ident_start(c) => {
                let saved = self.pos;
                // `"$n!"` interpolates `n`: a `!` after an interpolated name is punctuation.
                let word = self.scan_identifier(after, false);
                let end = self.pos;
                self.pos = saved;
                pieces.push(StrPiece::Name(Name::new(word), Span::new(after, end)));
                Ok(end)
            }
            Some('(') => {
                let (saved_pos, saved_value) = (self.pos, self.value_end);
                self.pos = after;
                self.value_end = None;
                let mut tokens = Vec::new();
                let mut depth = 0usize;
                loop {
                    let token = self.next_token()?;
                    match token.kind {
                        TokenKind::LParen => depth += 1,
                        TokenKind::RParen => depth -= 1,
                        TokenKind::Eof
                            if self.reached_end(Inside::Interpolation { string_start }) =>
                        {
                            break;
                        }
                        TokenKind::Eof => {
                            return Err(error(
                                ParseErrorKind::UnterminatedString,
                                string_start,
                                string_start + 1,
                            ))
                        }
                        _ => {}
                    }
                    tokens.push(token);
                    if depth == 0 {
                        break;
                    }
                }
                let end = self.pos;
                self.pos = saved_pos;
                self.value_end = saved_value;
                pieces.push(StrPiece::Expr(tokens));
                Ok(end)
            }
            _ => Err(error(ParseErrorKind::InvalidInterpolation, dollar, after)),
        }
    }
}

/// Removes the common indentation of a triple-quoted string, as Julia does: a newline right
/// after the opening quotes is dropped, the line of the opening quotes does not count, lines of
/// only whitespace do not count except the last (the one with the closing quotes).
fn dedent(pieces: &mut Vec<StrPiece>) {
    let mut first_line_counts = false;
    if let Some(StrPiece::Text(text)) = pieces.first_mut() {
        if let Some(stripped) = text
            .strip_prefix("\r\n")
            .or_else(|| text.strip_prefix('\n'))
        {
            *text = stripped.to_owned();
            first_line_counts = true;
        }
    }
    // First pass: the smallest indentation of a counted line.
    let mut indent = usize::MAX;
    let mut in_indent = first_line_counts;
    let mut width = 0usize;
    for piece in pieces.iter() {
        match piece {
            StrPiece::Text(text) => {
                for c in text.chars() {
                    match c {
                        '\n' => {
                            in_indent = true;
                            width = 0;
                        }
                        ' ' | '\t' if in_indent => width += 1,
                        _ if in_indent => {
                            indent = indent.min(width);
                            in_indent = false;
                        }
                        _ => {}
                    }
                }
            }
            _ => {
                if in_indent {
                    indent = indent.min(width);
                    in_indent = false;
                }
            }
        }
    }
    if in_indent {
        indent = indent.min(width);
    }
    if indent == 0 || indent == usize::MAX {
        pieces.retain(|p| !matches!(p, StrPiece::Text(t) if t.is_empty()));
        return;
    }
    // Second pass: drop up to `indent` whitespace characters at the start of counted lines.
    let mut to_drop = if first_line_counts { indent } else { 0 };
    for piece in pieces.iter_mut() {
        match piece {
            StrPiece::Text(text) => {
                let mut out = String::with_capacity(text.len());
                for c in text.chars() {
                    if c == '\n' {
                        to_drop = indent;
                        out.push(c);
                    } else if to_drop > 0 && (c == ' ' || c == '\t') {
                        to_drop -= 1;
                    } else {
                        to_drop = 0;
                        out.push(c);
                    }
                }
                *text = out;
            }
            _ => to_drop = 0,
        }
    }
    pieces.retain(|p| !matches!(p, StrPiece::Text(t) if t.is_empty()));
}
