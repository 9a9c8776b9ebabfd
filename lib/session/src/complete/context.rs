//! Where the cursor is, lexically: in code (and inside which call), in a string, or in a
//! comment, and which identifier it touches. Both are read with the language's own lexer
//! (`difflab_syntax::lexer::lex_tolerant`), so completion and inspection see the identifiers,
//! strings and comments the parser sees (`push!`, `∇f`, `x₁`, `@time`, `"$(f(x"`, `#= … =#`).

use difflab_syntax::lexer::{lex_tolerant, Inside, StrPiece, Token, TokenKind};
use difflab_syntax::Span;

/// Where the end of some code is, lexically.
#[derive(Debug, PartialEq)]
pub(super) enum Lexical {
    /// In code (a string's `$( … )` included), possibly inside the argument list of a call.
    Code {
        /// The innermost open call, if the innermost open bracket is a call's `(`.
        call: Option<Call>,
    },
    /// Inside a string literal whose text starts at `content_start`.
    String {
        /// First byte of the string's text (after the opening quote).
        content_start: usize,
    },
    /// Inside a comment.
    Comment,
}

/// An open call `callee(arg, …` around the end of the code.
#[derive(Debug, PartialEq, Clone, Copy)]
pub(super) struct Call {
    /// The byte range of the called name.
    pub callee: (usize, usize),
    /// The byte after the last `(`, `,` or `;` of the argument list.
    pub argument_start: usize,
}

/// Where the end of `text` (the code before the cursor) is.
pub(super) fn context(text: &str) -> Lexical {
    let lexed = lex_tolerant(text);
    match lexed.inside {
        Inside::Comment { .. } => Lexical::Comment,
        Inside::String { content_start, .. } => Lexical::String { content_start },
        Inside::Code | Inside::Interpolation { .. } => {
            let mut open = Vec::new();
            open_brackets(&lexed.tokens, &mut open);
            let call = match open.last() {
                Some(Bracket {
                    call: Some(callee),
                    argument_start,
                }) => Some(Call {
                    callee: *callee,
                    argument_start: *argument_start,
                }),
                _ => None,
            };
            Lexical::Code { call }
        }
    }
}

/// A bracket still open at the end of the code.
struct Bracket {
    /// The called name, when the bracket is the `(` of a call.
    call: Option<(usize, usize)>,
    /// The byte after the bracket or the last `,` or `;` inside it.
    argument_start: usize,
}

/// Pushes onto `open` the brackets `tokens` open and pops those they close, descending into
/// string interpolations (whose brackets stay open only in an unterminated one at the end).
fn open_brackets(tokens: &[Token], open: &mut Vec<Bracket>) {
    for (i, token) in tokens.iter().enumerate() {
        let end = token.span.end as usize;
        match &token.kind {
            TokenKind::LParen => open.push(Bracket {
                call: callee(tokens, i),
                argument_start: end,
            }),
            TokenKind::LBracket | TokenKind::LBrace => open.push(Bracket {
                call: None,
                argument_start: end,
            }),
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                open.pop();
            }
            TokenKind::Comma | TokenKind::Semicolon => {
                if let Some(top) = open.last_mut() {
                    top.argument_start = end;
                }
            }
            TokenKind::Str(pieces) => {
                for piece in pieces {
                    if let StrPiece::Expr(inner) = piece {
                        open_brackets(inner, open);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The name called by the `(` at `tokens[paren]`: `f(` or the broadcast call `f.(`, written
/// without spaces; a bare `(` groups or makes a tuple.
fn callee(tokens: &[Token], paren: usize) -> Option<(usize, usize)> {
    let mut at = tokens[paren].span.start;
    let mut before = paren.checked_sub(1)?;
    if tokens[before].kind == TokenKind::Dot && tokens[before].span.end == at {
        at = tokens[before].span.start;
        before = before.checked_sub(1)?;
    }
    let name = &tokens[before];
    (matches!(name.kind, TokenKind::Ident(_)) && name.span.end == at)
        .then_some((name.span.start as usize, at as usize))
}

/// The byte range of the identifier, keyword or macro name (`@time`) touching `cursor` (the one
/// ending there first), or the empty range at `cursor`.
pub fn word_around(code: &str, cursor: usize) -> (usize, usize) {
    let cursor = cursor.min(code.len());
    let touches = |span: Span| span.start as usize <= cursor && cursor <= span.end as usize;
    word_in(&lex_tolerant(code).tokens, &touches).map_or((cursor, cursor), |span| {
        (span.start as usize, span.end as usize)
    })
}

/// The first word of `tokens` (interpolated names included) whose span `touches` the cursor.
fn word_in(tokens: &[Token], touches: &dyn Fn(Span) -> bool) -> Option<Span> {
    tokens.iter().find_map(|token| match &token.kind {
        TokenKind::Ident(_) | TokenKind::Keyword(_) | TokenKind::Macro(_) => {
            touches(token.span).then_some(token.span)
        }
        TokenKind::Str(pieces) if touches(token.span) => {
            pieces.iter().find_map(|piece| match piece {
                StrPiece::Name(_, span) => touches(*span).then_some(*span),
                StrPiece::Expr(inner) => word_in(inner, touches),
                StrPiece::Text(_) => None,
            })
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::{context, word_around, Call, Lexical};

    #[test]
    fn the_context_knows_strings_comments_and_calls() {
        assert_eq!(context("x = 1 # prin"), Lexical::Comment);
        assert_eq!(context("#= a #= b =# c"), Lexical::Comment);
        assert_eq!(
            context("#= a =# f(1, "),
            Lexical::Code {
                call: Some(Call {
                    callee: (8, 9),
                    argument_start: 12
                })
            }
        );
        assert_eq!(
            context(r#"s = "a \" b"#),
            Lexical::String { content_start: 5 }
        );
        assert_eq!(
            context("s = \"\"\"\nab"),
            Lexical::String { content_start: 7 }
        );
        assert_eq!(
            context("f.(x"),
            Lexical::Code {
                call: Some(Call {
                    callee: (0, 1),
                    argument_start: 3
                })
            }
        );
        assert_eq!(context("x[1, (2"), Lexical::Code { call: None });
        assert_eq!(context("f (x"), Lexical::Code { call: None });
        // Inside an interpolation, the calls there count; a closed string is code again.
        assert_eq!(
            context("\"a $(push!(v, "),
            Lexical::Code {
                call: Some(Call {
                    callee: (5, 10),
                    argument_start: 13
                })
            }
        );
        assert_eq!(
            context("g(\"$(f(1))\", "),
            Lexical::Code {
                call: Some(Call {
                    callee: (0, 1),
                    argument_start: 12
                })
            }
        );
    }

    #[test]
    fn words_are_the_lexer_identifiers() {
        fn word(code: &str, cursor: usize) -> &str {
            let (start, end) = word_around(code, cursor);
            &code[start..end]
        }
        assert_eq!(word("push!(x₁", 3), "push!");
        assert_eq!(word("a!=b", 1), "a");
        assert_eq!(word("∇f≈x₁", "∇f".len()), "∇f");
        assert_eq!(word("@time f(x)", 2), "@time");
        assert_eq!(word("\"$n! $(g(x))\"", 2), "n");
        assert_eq!(word("\"$n! $(g(x))\"", 8), "g");
        assert_eq!(word("2x", 2), "x");
        assert_eq!(word("x + ", 4), "");
    }
}
