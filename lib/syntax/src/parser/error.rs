//! Syntax errors: [`ParseError`] is a [`ParseErrorKind`] and the span it points at.
//!
//! Messages read like Julia's (`unexpected "end"`, `incomplete: "function" at 1:1 requires
//! end`). [`ParseError::is_incomplete`] tells the REPL and the notebook kernel whether more
//! input could complete the source, so they can ask for another line instead of failing.

use std::fmt;

use crate::span::Span;

/// A syntax error in the source given to [`crate::parse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    /// What went wrong.
    pub kind: ParseErrorKind,
    /// The offending token; for an unclosed block or bracket, its opening keyword or bracket.
    pub span: Span,
}

/// The kinds of syntax error.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseErrorKind {
    /// A token that cannot appear where it is, such as `end` at top level or `)` after `=`.
    Unexpected {
        /// The token as written.
        found: String,
    },
    /// The input ended where more was needed: after a binary operator, `=` or a comma.
    UnexpectedEof,
    /// A block (`function`, `if`, `for`, ...) whose `end` never came.
    UnclosedBlock {
        /// The opening keyword.
        keyword: &'static str,
        /// The 1-based line of the keyword, kept for the message.
        line: u32,
        /// The 1-based column of the keyword, kept for the message.
        column: u32,
    },
    /// An opening bracket whose closing bracket never came.
    UnclosedBracket {
        /// The opening bracket: `(`, `[` or `{`.
        open: char,
        /// The 1-based line of the bracket, kept for the message.
        line: u32,
        /// The 1-based column of the bracket, kept for the message.
        column: u32,
    },
    /// A string literal without its closing quote.
    UnterminatedString,
    /// A `#= … =#` comment without its closing `=#`.
    UnterminatedComment,
    /// A character the language does not use.
    InvalidChar(char),
    /// A malformed numeric literal such as `0x`.
    InvalidNumber {
        /// The literal as written.
        text: String,
    },
    /// An integer literal outside the range of `Int` (64 bits).
    IntegerTooLarge {
        /// The literal as written.
        text: String,
    },
    /// A floating-point literal too large for `Float64`.
    FloatTooLarge {
        /// The literal as written.
        text: String,
    },
    /// A backslash escape in a string literal that the language does not know.
    InvalidEscape {
        /// The escape as written.
        text: String,
    },
    /// A character literal that is empty, unterminated or holds several characters.
    InvalidCharLiteral {
        /// Julia's message for it.
        problem: &'static str,
    },
    /// A `$` in a string literal followed by neither a name nor `(`.
    InvalidInterpolation,
    /// A `$x` outside a string literal or a macro call.
    InterpolationOutsideMacro,
    /// A complete expression followed by something that cannot continue it, as in `1 2`.
    ExtraToken {
        /// The extra token as written.
        found: String,
    },
    /// A particular token was required, as the `)` closing an argument list.
    Expected {
        /// What was required, quoted as in the message.
        expected: &'static str,
        /// What was there instead.
        found: String,
    },
    /// A call written with a space before its parenthesis: `f (x)`.
    SpaceBeforeParen {
        /// The source text before the parenthesis.
        callee: String,
    },
    /// The left side of `=` is not something that can be assigned to: `1 = x`.
    InvalidAssignment {
        /// The left side as written.
        target: String,
    },
    /// A function parameter that is not `x`, `x = default`, `args...` or a tuple of names.
    InvalidParameter {
        /// The parameter as written.
        text: String,
    },
    /// A keyword argument after `;` that is neither `name` nor `name = value`.
    InvalidKeyword {
        /// The argument as written.
        text: String,
    },
    /// Julia syntax outside the language: `struct`, `::` annotations, `do` blocks, ...
    Unsupported {
        /// What is not supported, as a noun phrase for the message.
        what: String,
    },
    /// Nesting deeper than the parser allows (it guards its stack).
    TooDeep,
}

impl ParseError {
    /// The error as a sentence, in the style of Julia's parser messages.
    pub fn message(&self) -> String {
        use ParseErrorKind as K;
        match &self.kind {
            K::Unexpected { found } => format!("unexpected \"{found}\""),
            K::UnexpectedEof => "unexpected end of input".into(),
            K::UnclosedBlock {
                keyword,
                line,
                column,
            } => format!("incomplete: \"{keyword}\" at {line}:{column} requires end"),
            K::UnclosedBracket { open, line, column } => {
                let close = match open {
                    '(' => ')',
                    '[' => ']',
                    _ => '}',
                };
                format!("incomplete: \"{open}\" at {line}:{column} requires \"{close}\"")
            }
            K::UnterminatedString => "unterminated string literal".into(),
            K::UnterminatedComment => "unterminated multi-line comment #= ... =#".into(),
            K::InvalidChar(c) => format!("invalid character \"{c}\""),
            K::InvalidNumber { text } => format!("invalid numeric constant \"{text}\""),
            K::IntegerTooLarge { text } => format!("integer literal too large: \"{text}\""),
            K::FloatTooLarge { text } => format!("overflow in numeric constant \"{text}\""),
            K::InvalidEscape { text } => format!("invalid escape sequence \"{text}\""),
            K::InvalidCharLiteral { problem } => (*problem).into(),
            K::InvalidInterpolation => {
                "invalid interpolation syntax: \"$\" must be followed by a name or \"(\"".into()
            }
            K::InterpolationOutsideMacro => {
                "\"$\" expression outside a string or a macro call".into()
            }
            K::ExtraToken { found } => {
                format!("extra token \"{found}\" after end of expression")
            }
            K::Expected { expected, found } => format!("expected {expected}, found \"{found}\""),
            K::SpaceBeforeParen { callee } => {
                format!("space before \"(\" not allowed in \"{callee} (\"")
            }
            K::InvalidAssignment { target } => format!("invalid assignment location \"{target}\""),
            K::InvalidParameter { text } => {
                format!("\"{text}\" is not a valid function parameter")
            }
            K::InvalidKeyword { text } => format!("invalid keyword argument \"{text}\""),
            K::Unsupported { what } => format!("{what} not supported"),
            K::TooDeep => "expression too deeply nested".into(),
        }
    }

    /// True exactly when more input could complete the source: an unclosed block or bracket,
    /// an unterminated string or `#=` comment, or an operator or comma at the very end.
    pub fn is_incomplete(&self) -> bool {
        matches!(
            self.kind,
            ParseErrorKind::UnexpectedEof
                | ParseErrorKind::UnclosedBlock { .. }
                | ParseErrorKind::UnclosedBracket { .. }
                | ParseErrorKind::UnterminatedString
                | ParseErrorKind::UnterminatedComment
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for ParseError {}
