//! The prompt's lexical view of its line: token classes for syntax highlighting, bracket
//! matching, and the nesting depth that drives indentation ([`crate::indent`]).
//!
//! Tokens come from the language's own lexer (`difflab_syntax::lexer::lex_tolerant`), so the
//! prompt reads identifiers, numbers, strings and comments exactly as the parser does. The line
//! being edited is usually unfinished; tolerant lexing runs an unterminated string or comment
//! to the end. Whether an input is complete is decided by the session
//! (`Session::is_complete`), never here.

use difflab_syntax::lexer::{lex_tolerant, Inside, Keyword, Token as Lexeme, TokenKind};
use difflab_syntax::ParseErrorKind;
use std::ops::Range;

/// What a token is, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// `function`, `end`, `if`, …
    Keyword,
    /// `"…"` or `"""…"""`, interpolations included.
    String,
    /// `42`, `1.5e-3`, `0xff`.
    Number,
    /// `# …` or `#= … =#`.
    Comment,
    /// `:name`.
    Symbol,
    /// `(`, `[` or `{` in code.
    Open,
    /// `)`, `]` or `}` in code.
    Close,
}

/// A classified piece of the input (identifiers and operators are not reported).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Its byte range.
    pub range: Range<usize>,
    /// What it is.
    pub class: Class,
}

/// The byte range of a lexer token.
fn range(token: &Lexeme) -> Range<usize> {
    token.span.start as usize..token.span.end as usize
}

/// True when the keyword `tokens[i]` is a field name (`x.end`).
fn is_field(tokens: &[Lexeme], i: usize) -> bool {
    i > 0 && tokens[i - 1].kind == TokenKind::Dot && tokens[i - 1].span.end == tokens[i].span.start
}

/// The class of `tokens[i]` and the range it colours, if it is coloured or matched.
fn classify(tokens: &[Lexeme], i: usize) -> Option<(Range<usize>, Class)> {
    let token = &tokens[i];
    let before = i.checked_sub(1).map(|b| &tokens[b]);
    let class = match &token.kind {
        TokenKind::Keyword(_) if is_field(tokens, i) => return None,
        TokenKind::Keyword(_) => Class::Keyword,
        TokenKind::Str(_) | TokenKind::Char(_) | TokenKind::PrefixedStr { .. } => Class::String,
        TokenKind::Int(_) | TokenKind::Float(_) => Class::Number,
        TokenKind::Invalid(error)
            if matches!(
                **error,
                ParseErrorKind::IntegerTooLarge { .. } | ParseErrorKind::FloatTooLarge { .. }
            ) =>
        {
            Class::Number
        }
        TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => Class::Open,
        TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => Class::Close,
        // `:name` right after a non-value (`f(:central)`, `x = :a`, `c ? :a : :b`).
        TokenKind::Colon => {
            let name = tokens.get(i + 1)?;
            let named = matches!(name.kind, TokenKind::Ident(_) | TokenKind::Keyword(_));
            if !named
                || name.span.start != token.span.end
                || before.is_some_and(|b| b.kind.ends_value())
            {
                return None;
            }
            return Some((
                token.span.start as usize..name.span.end as usize,
                Class::Symbol,
            ));
        }
        _ => return None,
    };
    Some((range(token), class))
}

/// The pieces of `code` worth colouring or matching, in order and disjoint.
pub fn scan(code: &str) -> Vec<Token> {
    let lexed = lex_tolerant(code);
    let mut pieces: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < lexed.tokens.len() {
        if let Some((range, class)) = classify(&lexed.tokens, i) {
            // A symbol takes its name along.
            if class == Class::Symbol {
                i += 1;
            }
            pieces.push(Token { range, class });
        }
        i += 1;
    }
    pieces.extend(lexed.comments.iter().map(|c| Token {
        range: c.start as usize..c.end as usize,
        class: Class::Comment,
    }));
    pieces.sort_by_key(|p| p.range.start);
    // Comments inside a string's interpolation are coloured as the string.
    let mut end = 0;
    pieces.retain(|p| {
        let keep = p.range.start >= end;
        end = end.max(p.range.end);
        keep
    });
    pieces
}

/// The SGR colour of a class, if it is coloured.
fn colour(class: Class) -> Option<&'static str> {
    match class {
        Class::Keyword => Some("\x1b[35m"),
        Class::String => Some("\x1b[32m"),
        Class::Number => Some("\x1b[36m"),
        Class::Comment => Some("\x1b[90m"),
        Class::Symbol => Some("\x1b[33m"),
        Class::Open | Class::Close => None,
    }
}

/// How the bracket matching the one at the cursor is shown.
const MATCHING_BRACKET: &str = "\x1b[1;4m";
const RESET: &str = "\x1b[0m";

/// `code` with ANSI colours: keywords, strings, numbers, comments and symbols, and the bracket
/// at byte `matching` (if any) emphasized. Only escape sequences are added, so the display width
/// is unchanged, as the line editor requires.
pub fn paint(code: &str, matching: Option<usize>) -> String {
    let tokens = scan(code);
    let mut out = String::with_capacity(code.len() * 2);
    let mut at = 0;
    for token in tokens {
        let style = if matching == Some(token.range.start) {
            Some(MATCHING_BRACKET)
        } else {
            colour(token.class)
        };
        let Some(style) = style else { continue };
        out.push_str(&code[at..token.range.start]);
        out.push_str(style);
        out.push_str(&code[token.range.clone()]);
        out.push_str(RESET);
        at = token.range.end;
    }
    out.push_str(&code[at..]);
    out
}

/// The byte offset of the bracket matching the one under the cursor (or just before it, as
/// after typing a closing bracket), ignoring brackets in strings and comments.
pub fn matching_bracket(code: &str, cursor: usize) -> Option<usize> {
    let tokens = scan(code);
    let brackets: Vec<&Token> = tokens
        .iter()
        .filter(|t| matches!(t.class, Class::Open | Class::Close))
        .collect();
    let here = brackets
        .iter()
        .position(|t| t.range.start == cursor)
        .or_else(|| {
            brackets
                .iter()
                .position(|t| cursor > 0 && t.range.start == cursor - 1)
        })?;
    let mut depth = 0i64;
    if brackets[here].class == Class::Open {
        for t in &brackets[here..] {
            depth += if t.class == Class::Open { 1 } else { -1 };
            if depth == 0 {
                return Some(t.range.start);
            }
        }
    } else {
        for t in brackets[..=here].iter().rev() {
            depth += if t.class == Class::Close { 1 } else { -1 };
            if depth == 0 {
                return Some(t.range.start);
            }
        }
    }
    None
}

/// True for keywords that open a block closed by `end`.
fn opens_block(keyword: Keyword) -> bool {
    matches!(
        keyword,
        Keyword::Function
            | Keyword::If
            | Keyword::For
            | Keyword::While
            | Keyword::Begin
            | Keyword::Let
            | Keyword::Try
            | Keyword::Struct
            | Keyword::Do
            | Keyword::Reserved("macro" | "quote" | "module" | "baremodule")
    )
}

/// How many blocks and brackets are open at the end of `code`. Keywords inside brackets do not
/// count (`[x for x in v]` is a comprehension, `v[end]` an index).
pub fn depth(code: &str) -> usize {
    let tokens = lex_tolerant(code).tokens;
    let mut brackets = 0usize;
    let mut blocks = 0usize;
    for (i, token) in tokens.iter().enumerate() {
        match token.kind {
            TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => brackets += 1,
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                brackets = brackets.saturating_sub(1)
            }
            TokenKind::Keyword(keyword) if brackets == 0 && !is_field(&tokens, i) => {
                if opens_block(keyword) {
                    blocks += 1;
                } else if keyword == Keyword::End {
                    blocks = blocks.saturating_sub(1);
                }
            }
            _ => {}
        }
    }
    blocks + brackets
}

/// True when `code` ends inside a string (its text or an interpolation) or a block comment,
/// where indentation is content.
pub fn ends_in_literal(code: &str) -> bool {
    !matches!(
        lex_tolerant(code).inside,
        Inside::Code | Inside::Comment { block: false, .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(code: &str) -> Vec<(&str, Class)> {
        scan(code)
            .into_iter()
            .map(|t| (&code[t.range], t.class))
            .collect()
    }

    #[test]
    fn keywords_strings_numbers_comments_and_symbols() {
        assert_eq!(
            classes(r#"function f(x) return "a\"b" * 2.5e-3 end # done"#),
            vec![
                ("function", Class::Keyword),
                ("(", Class::Open),
                (")", Class::Close),
                ("return", Class::Keyword),
                (r#""a\"b""#, Class::String),
                ("2.5e-3", Class::Number),
                ("end", Class::Keyword),
                ("# done", Class::Comment),
            ]
        );
        assert_eq!(
            classes("AutoFiniteDiff(fdtype=:central); 1:n; x ? :a : :b"),
            vec![
                ("(", Class::Open),
                (":central", Class::Symbol),
                (")", Class::Close),
                ("1", Class::Number),
                (":a", Class::Symbol),
                (":b", Class::Symbol),
            ]
        );
        // A juxtaposed coefficient stops before the name; `x1` is a name.
        assert_eq!(
            classes("2x + x1 + 0xff"),
            vec![("2", Class::Number), ("0xff", Class::Number)]
        );
        // Every keyword of the language, numbers too large for Int, text the lexer rejects,
        // characters.
        assert_eq!(
            classes("mutable struct P end; 99999999999999999999 ~ 'a'"),
            vec![
                ("struct", Class::Keyword),
                ("end", Class::Keyword),
                ("99999999999999999999", Class::Number),
                ("'a'", Class::String),
            ]
        );
    }

    #[test]
    fn unterminated_literals_run_to_the_end() {
        assert!(ends_in_literal("s = \"abc"));
        assert!(ends_in_literal("s = \"\"\"\nab\"\n"));
        assert!(ends_in_literal("#= a #= b =# c"));
        assert!(!ends_in_literal("s = \"abc\" # note"));
        assert!(!ends_in_literal("x = 1"));
    }

    #[test]
    fn painting_only_adds_escape_sequences() {
        let code = "for i in 1:3 println(\"α\", i) end";
        let painted = paint(code, None);
        let mut plain = String::new();
        let mut in_escape = false;
        for c in painted.chars() {
            match c {
                '\x1b' => in_escape = true,
                'm' if in_escape => in_escape = false,
                _ if in_escape => {}
                c => plain.push(c),
            }
        }
        assert_eq!(plain, code);
        assert!(painted.starts_with("\x1b[35mfor\x1b[0m"), "{painted:?}");
    }

    #[test]
    fn brackets_match_outside_strings() {
        let code = "f(a[1], \")\", (b))";
        assert_eq!(matching_bracket(code, 1), Some(code.len() - 1));
        assert_eq!(matching_bracket(code, code.len()), Some(1));
        assert_eq!(matching_bracket(code, 4), Some(5));
        assert_eq!(matching_bracket(code, 9), None, "inside the string");
        assert_eq!(matching_bracket("f(", 1), None, "unmatched");
    }

    /// The highlighter, completion and the parser's lexer read the same identifiers: every
    /// identifier, keyword and macro name the lexer finds is the word completion sees at each
    /// cursor inside it, no coloured piece cuts one, and keywords and symbols are coloured
    /// exactly where the lexer has them.
    #[test]
    fn identifier_rules_agree_with_the_lexer_and_completion() {
        use difflab_session::complete::word_around;
        let inputs = [
            "push!(x₁, ∇f) .+ a!b != c′",
            "x≈y; end≈x; ∂y∂x = 2x",
            "d = :∇f₁ => α′ ? :end : x.end",
            "println(\"$n! $(g(x))\") # x₁ end",
            "#= ∇f =# @time f!(x) do y end",
            "s = \"unterminated $(h(y₂",
        ];
        for code in inputs {
            let lexed = lex_tolerant(code);
            let pieces = scan(code);
            for (i, token) in lexed.tokens.iter().enumerate() {
                let word = range(token);
                let is_word = matches!(
                    token.kind,
                    TokenKind::Ident(_) | TokenKind::Keyword(_) | TokenKind::Macro(_)
                );
                if !is_word {
                    continue;
                }
                for cursor in (word.start + 1..=word.end).filter(|&c| code.is_char_boundary(c)) {
                    assert_eq!(
                        word_around(code, cursor),
                        (word.start, word.end),
                        "{code:?} at {cursor}"
                    );
                }
                for piece in &pieces {
                    let cuts = |at: usize| word.start < at && at < word.end;
                    assert!(
                        !cuts(piece.range.start) && !cuts(piece.range.end),
                        "{code:?}: {piece:?} cuts {:?}",
                        &code[word.clone()]
                    );
                }
                // A symbol's name comes right after its `:`.
                let symbol = pieces
                    .iter()
                    .find(|p| p.class == Class::Symbol && p.range.end == word.end);
                assert!(symbol.is_none_or(|p| p.range.start + 1 == word.start));
                let keyword = matches!(token.kind, TokenKind::Keyword(_))
                    && !is_field(&lexed.tokens, i)
                    && symbol.is_none();
                let coloured = pieces.contains(&Token {
                    range: word.clone(),
                    class: Class::Keyword,
                });
                assert_eq!(coloured, keyword, "{code:?}: {:?}", &code[word]);
            }
            let symbols: Vec<&str> = pieces
                .iter()
                .filter(|p| p.class == Class::Symbol)
                .map(|p| &code[p.range.clone()])
                .collect();
            let expected: &[&str] = match code {
                c if c.starts_with("d = ") => &[":∇f₁", ":end"],
                _ => &[],
            };
            assert_eq!(symbols, expected, "{code:?}");
        }
    }

    #[test]
    fn depth_counts_blocks_and_brackets() {
        assert_eq!(depth("function f(x)"), 1);
        assert_eq!(depth("function f(x)\n    for i in 1:3"), 2);
        assert_eq!(depth("function f(x)\n    for i in 1:3\n    end"), 1);
        assert_eq!(depth("v = [x for x in 1:3]"), 0);
        assert_eq!(depth("y = v[end] + g(1,"), 1);
        assert_eq!(depth("s = \"function\""), 0);
        assert_eq!(depth("x.end"), 0);
    }
}
