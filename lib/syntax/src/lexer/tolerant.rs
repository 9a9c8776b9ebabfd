//! Tolerant lexing, for editors: the prompt's highlighter and indentation, and completion, read
//! the text being typed with the parser's own token rules ([`lex_tolerant`]).
//!
//! The text is usually unfinished, so lexing never stops: an unterminated string or block
//! comment runs to the end of the input (and [`Lexed::inside`] says so), an invalid escape or a
//! `$` not followed by a name is text of its string, and anything else the strict lexer stops at
//! becomes a [`TokenKind::Invalid`] token, after which lexing goes on. Comments, which the parser
//! never sees, are reported too ([`Lexed::comments`]).

use super::{Lexer, Token, TokenKind};
use crate::parser::ParseError;
use crate::span::Span;

/// The tokens of an unfinished input.
#[derive(Debug, Clone, PartialEq)]
pub struct Lexed {
    /// The tokens, closed by [`TokenKind::Eof`]; a string literal unterminated at the end of the
    /// input is a [`TokenKind::Str`] running to the end.
    pub tokens: Vec<Token>,
    /// The comments (`# …` and `#= … =#`), in order, including those inside string
    /// interpolations.
    pub comments: Vec<Span>,
    /// What the end of the input is inside.
    pub inside: Inside,
}

/// Where the end of an input is, lexically.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inside {
    /// In code, outside any literal.
    Code,
    /// In the text of a string literal that is not closed.
    String {
        /// Its opening quote.
        start: usize,
        /// The first byte of its text (after `"` or `"""`).
        content_start: usize,
    },
    /// In the code of a `$( … )` interpolation of a string literal that is not closed.
    Interpolation {
        /// The string's opening quote.
        string_start: usize,
    },
    /// In a comment: a line comment running to the end, or a `#=` comment not closed.
    Comment {
        /// Its `#`.
        start: usize,
        /// True for `#= … =#`.
        block: bool,
    },
}

/// What a tolerant [`Lexer`] keeps besides tokens.
#[derive(Default)]
pub(super) struct Tolerance {
    comments: Vec<Span>,
    /// Set by the innermost construct that met the end of the input.
    inside: Option<Inside>,
}

/// Lexes all of `source` without stopping at errors (see the module documentation).
pub fn lex_tolerant(source: &str) -> Lexed {
    let mut lexer = Lexer::new(source, Some(Tolerance::default()));
    let mut tokens = Vec::with_capacity(source.len() / 3 + 1);
    loop {
        let token = lexer
            .next_token()
            .expect("tolerant lexing turns every error into a token");
        let done = token.kind == TokenKind::Eof;
        tokens.push(token);
        if done {
            break;
        }
    }
    let tolerance = lexer.tolerance.unwrap_or_default();
    Lexed {
        tokens,
        comments: tolerance.comments,
        inside: tolerance.inside.unwrap_or(Inside::Code),
    }
}

impl Lexer<'_> {
    /// Notes that a construct ran into the end of the input, `inside` it. Returns whether lexing
    /// is tolerant (and so goes on); the innermost construct is the one kept.
    pub(super) fn reached_end(&mut self, inside: Inside) -> bool {
        match &mut self.tolerance {
            Some(tolerance) => {
                tolerance.inside.get_or_insert(inside);
                true
            }
            None => false,
        }
    }

    /// Notes the comment from `start` to the current position.
    pub(super) fn note_comment(&mut self, start: usize) {
        if let Some(tolerance) = &mut self.tolerance {
            tolerance.comments.push(Span::new(start, self.pos));
        }
    }

    /// The invalid token for `error`, met lexing the token that starts at `start` with `c`;
    /// lexing resumes after the error's text (at least one character).
    pub(super) fn invalid(&mut self, start: usize, c: char, error: ParseError) -> TokenKind {
        let end = (error.span.end as usize).max(start + c.len_utf8());
        self.pos = (end..=self.src.len())
            .find(|&e| self.src.is_char_boundary(e))
            .unwrap_or(self.src.len());
        TokenKind::Invalid(Box::new(error.kind))
    }
}
