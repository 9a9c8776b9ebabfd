//! The lexer: source text to [`Token`]s, each with its byte [`Span`].
//!
//! Tokens remember whether whitespace came right before them ([`Token::space_before`]) because
//! the language is whitespace-sensitive inside brackets and macro calls (`[1 -2]` has two
//! elements, `[1 - 2]` one). Newlines are tokens ([`TokenKind::Newline`]): they end statements
//! and separate matrix rows. A string literal is lexed whole, its `$(…)` interpolations already
//! turned into tokens ([`StrPiece`]), so the parser never reads source text again. The entry
//! point is [`lex`]; the parser that consumes the tokens is [`crate::parser`].

use crate::ast::BinOp;
use crate::names::Name;
use crate::parser::{stack_position, ParseError, ParseErrorKind, STACK_BUDGET};
use crate::span::Span;

/// How deeply string interpolations may nest (`"$("$(…)")"`) before lexing gives up.
const MAX_STRING_NESTING: usize = 50;

/// A token with the byte range of its source.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Where it is.
    pub span: Span,
    /// True when whitespace, a comment or the start of input comes right before it.
    pub space_before: bool,
}

/// The kinds of token.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    /// `42`, `1_000`, `0xff`
    Int(i64),
    /// `1.5`, `1e-3`, `.5`, `1f0`
    Float(f64),
    /// `"text $x $(f(x))"` or `"""…"""`, escapes decoded, triple-quoted ones dedented.
    Str(Vec<StrPiece>),
    /// `x`, `push!`, `∇f`, `x₁`
    Ident(Name),
    /// A reserved word such as `function` or `end`.
    Keyword(Keyword),
    /// `@time` (the name without `@`).
    Macro(Name),
    /// An operator that is not an assignment: `+`, `.*`, `==`, `!`, `√`, `|>`, `=>`.
    Op {
        /// Which operator.
        op: Op,
        /// True for the broadcasting form `.op`.
        dotted: bool,
    },
    /// `=`, `+=`, `.=`, `.+=` ...
    Assign {
        /// The operator of a compound assignment.
        op: Option<BinOp>,
        /// True for `.=` and `.op=`.
        dotted: bool,
    },
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `->`
    Arrow,
    /// `?`
    Question,
    /// `:`
    Colon,
    /// `::` (type annotations, which the language does not have)
    ColonColon,
    /// `.` (field access, dotted calls `f.(x)`)
    Dot,
    /// `...`
    Ellipsis,
    /// `'` right after a value: the adjoint.
    Quote,
    /// `$` outside a string (interpolation into a macro argument).
    Dollar,
    /// `,`
    Comma,
    /// `;`
    Semicolon,
    /// A line break.
    Newline,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// The end of input (or the place where lexing stopped at an error).
    Eof,
}

/// A piece of a string literal token.
#[derive(Debug, Clone, PartialEq)]
pub enum StrPiece {
    /// Literal text, escapes decoded.
    Text(String),
    /// `$name`: the name and its span (without the `$`).
    Name(Name, Span),
    /// `$( … )`: the tokens from `(` to the matching `)`, both included.
    Expr(Vec<Token>),
}

/// Operators other than assignments.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Plus,
    Minus,
    Star,
    Slash,
    Backslash,
    Caret,
    /// `÷`
    IntDiv,
    Percent,
    Amp,
    Bar,
    /// `==`
    Eq,
    /// `!=`, `≠`
    Ne,
    Lt,
    /// `<=`, `≤`
    Le,
    Gt,
    /// `>=`, `≥`
    Ge,
    /// `≈`
    Approx,
    /// `≉`
    NotApprox,
    /// `===`, `≡`
    Identical,
    /// `!==`, `≢`
    NotIdentical,
    /// `∈` (the keyword `in` is [`Keyword::In`])
    In,
    /// `∉`
    NotIn,
    /// `!`
    Not,
    /// `√`
    Sqrt,
    /// `∘`
    Compose,
    /// `⋅` (the dot product)
    CDot,
    /// `|>`
    Pipe,
    /// `=>`
    Pair,
}

/// Reserved words.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Keyword {
    Function,
    End,
    If,
    Elseif,
    Else,
    For,
    While,
    Break,
    Continue,
    Return,
    Try,
    Catch,
    Finally,
    Begin,
    Let,
    Global,
    Local,
    Using,
    Import,
    True,
    False,
    In,
    Const,
    /// Julia keywords the language does not support (`struct`, `module`, `do`, ...).
    Reserved(&'static str),
}

impl Keyword {
    /// The keyword for `word`, if it is one.
    pub fn from_word(word: &str) -> Option<Keyword> {
        Some(match word {
            "function" => Keyword::Function,
            "end" => Keyword::End,
            "if" => Keyword::If,
            "elseif" => Keyword::Elseif,
            "else" => Keyword::Else,
            "for" => Keyword::For,
            "while" => Keyword::While,
            "break" => Keyword::Break,
            "continue" => Keyword::Continue,
            "return" => Keyword::Return,
            "try" => Keyword::Try,
            "catch" => Keyword::Catch,
            "finally" => Keyword::Finally,
            "begin" => Keyword::Begin,
            "let" => Keyword::Let,
            "global" => Keyword::Global,
            "local" => Keyword::Local,
            "using" => Keyword::Using,
            "import" => Keyword::Import,
            "true" => Keyword::True,
            "false" => Keyword::False,
            "in" => Keyword::In,
            "const" => Keyword::Const,
            "struct" => Keyword::Reserved("struct"),
            "module" => Keyword::Reserved("module"),
            "baremodule" => Keyword::Reserved("baremodule"),
            "macro" => Keyword::Reserved("macro"),
            "quote" => Keyword::Reserved("quote"),
            "do" => Keyword::Reserved("do"),
            "export" => Keyword::Reserved("export"),
            _ => return None,
        })
    }

    /// The keyword as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Function => "function",
            Keyword::End => "end",
            Keyword::If => "if",
            Keyword::Elseif => "elseif",
            Keyword::Else => "else",
            Keyword::For => "for",
            Keyword::While => "while",
            Keyword::Break => "break",
            Keyword::Continue => "continue",
            Keyword::Return => "return",
            Keyword::Try => "try",
            Keyword::Catch => "catch",
            Keyword::Finally => "finally",
            Keyword::Begin => "begin",
            Keyword::Let => "let",
            Keyword::Global => "global",
            Keyword::Local => "local",
            Keyword::Using => "using",
            Keyword::Import => "import",
            Keyword::True => "true",
            Keyword::False => "false",
            Keyword::In => "in",
            Keyword::Const => "const",
            Keyword::Reserved(word) => word,
        }
    }
}

/// Lexes all of `source`. Lexing stops at the first error: the tokens before it are returned,
/// closed by an [`TokenKind::Eof`] at the error, together with the error, so that the parser
/// can report an earlier syntax error first.
pub fn lex(source: &str) -> (Vec<Token>, Option<ParseError>) {
    let mut lexer = Lexer {
        src: source,
        pos: 0,
        nesting: 0,
        value_end: None,
        stack_top: stack_position(),
    };
    let mut tokens = Vec::with_capacity(source.len() / 3 + 1);
    loop {
        match lexer.next_token() {
            Ok(token) => {
                let done = token.kind == TokenKind::Eof;
                tokens.push(token);
                if done {
                    return (tokens, None);
                }
            }
            Err(error) => {
                let at = error.span.start as usize;
                tokens.push(Token {
                    kind: TokenKind::Eof,
                    span: Span::new(at, at),
                    space_before: true,
                });
                return (tokens, Some(error));
            }
        }
    }
}

/// True for characters that may start an identifier.
pub fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic() || matches!(c, '∇' | '∂' | '∞')
}

/// True for characters that may continue an identifier (besides a final `!`).
pub fn is_ident_continue(c: char) -> bool {
    is_ident_start(c)
        || c.is_numeric()
        || matches!(c, '′' | '″' | '‴')
        || matches!(c as u32,
            0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF
            | 0xFE20..=0xFE2F | 0x2070..=0x209F)
}

struct Lexer<'s> {
    src: &'s str,
    pos: usize,
    /// Depth of string interpolations being lexed.
    nesting: usize,
    /// End of the previous token when it was a value (identifier, literal, closing bracket):
    /// a `'` right there is an adjoint, a `.` followed by a digit is field access.
    value_end: Option<usize>,
    /// [`stack_position`] where lexing started, for the [`STACK_BUDGET`].
    stack_top: usize,
}

type LexResult<T> = Result<T, ParseError>;

fn error(kind: ParseErrorKind, start: usize, end: usize) -> ParseError {
    ParseError {
        kind,
        span: Span::new(start, end),
    }
}

impl<'s> Lexer<'s> {
    fn rest(&self) -> &'s str {
        &self.src[self.pos..]
    }

    fn char_at(&self, pos: usize) -> Option<char> {
        self.src.get(pos..).and_then(|s| s.chars().next())
    }

    fn next_token(&mut self) -> LexResult<Token> {
        let space_before = self.skip_space()?;
        let start = self.pos;
        let kind = match self.char_at(start) {
            None => TokenKind::Eof,
            Some(c) => self.lex_token(c)?,
        };
        let token = Token {
            kind,
            span: Span::new(start, self.pos),
            space_before: space_before || start == 0,
        };
        let is_value = matches!(
            token.kind,
            TokenKind::Ident(_)
                | TokenKind::Int(_)
                | TokenKind::Float(_)
                | TokenKind::RParen
                | TokenKind::RBracket
                | TokenKind::RBrace
                | TokenKind::Quote
                | TokenKind::Keyword(Keyword::End)
        );
        self.value_end = is_value.then_some(self.pos);
        Ok(token)
    }

    /// Skips spaces and comments (not newlines); returns whether anything was skipped.
    fn skip_space(&mut self) -> LexResult<bool> {
        let start = self.pos;
        loop {
            match self.char_at(self.pos) {
                Some(c @ (' ' | '\t' | '\r' | '\u{a0}' | '\u{feff}')) => self.pos += c.len_utf8(),
                Some('#') => self.skip_comment()?,
                _ => break,
            }
        }
        Ok(self.pos > start)
    }

    fn skip_comment(&mut self) -> LexResult<()> {
        let start = self.pos;
        if !self.rest().starts_with("#=") {
            self.pos += self.rest().find('\n').unwrap_or(self.rest().len());
            return Ok(());
        }
        // `#= … =#` nests, as in Julia.
        let mut depth = 0usize;
        while self.pos < self.src.len() {
            let rest = self.rest();
            if rest.starts_with("#=") {
                depth += 1;
                self.pos += 2;
            } else if rest.starts_with("=#") {
                depth -= 1;
                self.pos += 2;
                if depth == 0 {
                    return Ok(());
                }
            } else {
                self.pos += rest.chars().next().map_or(1, char::len_utf8);
            }
        }
        Err(error(ParseErrorKind::UnterminatedComment, start, start + 2))
    }

    fn lex_token(&mut self, c: char) -> LexResult<TokenKind> {
        let start = self.pos;
        let single = |lexer: &mut Lexer, kind| {
            lexer.pos += 1;
            Ok(kind)
        };
        match c {
            '\n' => single(self, TokenKind::Newline),
            '(' => single(self, TokenKind::LParen),
            ')' => single(self, TokenKind::RParen),
            '[' => single(self, TokenKind::LBracket),
            ']' => single(self, TokenKind::RBracket),
            '{' => single(self, TokenKind::LBrace),
            '}' => single(self, TokenKind::RBrace),
            ',' => single(self, TokenKind::Comma),
            ';' => single(self, TokenKind::Semicolon),
            '?' => single(self, TokenKind::Question),
            '$' => single(self, TokenKind::Dollar),
            '"' => self.lex_string(start),
            '\'' => {
                if self.value_end == Some(start) {
                    single(self, TokenKind::Quote)
                } else {
                    Err(error(
                        ParseErrorKind::Unsupported {
                            what: "character literals".into(),
                        },
                        start,
                        start + 1,
                    ))
                }
            }
            '@' => self.lex_macro(start),
            '.' => self.lex_dot(start),
            '0'..='9' => self.lex_number(start),
            c if is_ident_start(c) => Ok(self.lex_identifier(start)),
            _ => match operator_at(self.rest()) {
                Some((kind, len)) => {
                    if self.rest().starts_with("//") {
                        return Err(error(
                            ParseErrorKind::Unsupported {
                                what: "rational numbers (\"//\")".into(),
                            },
                            start,
                            start + 2,
                        ));
                    }
                    self.pos += len;
                    Ok(kind)
                }
                None => Err(error(
                    ParseErrorKind::InvalidChar(c),
                    start,
                    start + c.len_utf8(),
                )),
            },
        }
    }

    fn lex_identifier(&mut self, start: usize) -> TokenKind {
        let word = self.scan_identifier(start, true);
        match Keyword::from_word(word) {
            Some(keyword) => TokenKind::Keyword(keyword),
            None => TokenKind::Ident(Name::new(word)),
        }
    }

    /// Scans identifier characters from `start` and returns them. A final `!` belongs to the
    /// identifier (`push!`) unless `=` follows (`a!=b` is `a != b`) or `bang` is false.
    fn scan_identifier(&mut self, start: usize, bang: bool) -> &'s str {
        let mut end = start;
        for c in self.src[start..].chars() {
            if is_ident_continue(c) {
                end += c.len_utf8();
            } else {
                break;
            }
        }
        if bang {
            while self.src[end..].starts_with('!') && !self.src[end + 1..].starts_with('=') {
                end += 1;
            }
        }
        self.pos = end;
        &self.src[start..end]
    }

    fn lex_macro(&mut self, start: usize) -> LexResult<TokenKind> {
        match self.char_at(start + 1) {
            Some(c) if is_ident_start(c) => {
                let word = self.scan_identifier(start + 1, true);
                Ok(TokenKind::Macro(Name::new(word)))
            }
            Some('.') => {
                self.pos = start + 2;
                Ok(TokenKind::Macro(Name::new(".")))
            }
            _ => Err(error(ParseErrorKind::InvalidChar('@'), start, start + 1)),
        }
    }

    fn lex_dot(&mut self, start: usize) -> LexResult<TokenKind> {
        let rest = self.rest();
        if rest.starts_with("...") {
            self.pos += 3;
            return Ok(TokenKind::Ellipsis);
        }
        let next = self.char_at(start + 1);
        if next.is_some_and(|c| c.is_ascii_digit()) && self.value_end != Some(start) {
            return self.lex_number(start);
        }
        if let Some((kind, len)) = operator_at(&rest[1..]).and_then(|(k, l)| Some((dotted(k)?, l)))
        {
            self.pos += 1 + len;
            return Ok(kind);
        }
        self.pos += 1;
        Ok(TokenKind::Dot)
    }

    fn lex_number(&mut self, start: usize) -> LexResult<TokenKind> {
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
                    ParseErrorKind::IntegerTooLarge { text: text.into() },
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
                ParseErrorKind::FloatTooLarge { text: text.into() },
                start,
                pos,
            )),
            Err(_) => Err(error(
                ParseErrorKind::InvalidNumber { text: text.into() },
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
            Some(_) => operator_at(rest)
                .and_then(|(k, _)| dotted(k))
                .is_none(),
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
                ParseErrorKind::InvalidNumber { text: text.into() },
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
                    ParseErrorKind::IntegerTooLarge { text: text.into() },
                    start,
                    pos,
                )
            })
    }

    fn lex_string(&mut self, start: usize) -> LexResult<TokenKind> {
        self.nesting += 1;
        let stack_used = self.stack_top.abs_diff(stack_position());
        if self.nesting > MAX_STRING_NESTING || stack_used > STACK_BUDGET {
            return Err(error(ParseErrorKind::TooDeep, start, start + 1));
        }
        let triple = self.src[start..].starts_with("\"\"\"");
        let mut pos = start + if triple { 3 } else { 1 };
        let mut pieces = Vec::new();
        let mut text = String::new();
        let unterminated = || error(ParseErrorKind::UnterminatedString, start, start + 1);
        loop {
            let Some(c) = self.char_at(pos) else {
                return Err(unterminated());
            };
            match c {
                '"' if !triple => {
                    pos += 1;
                    break;
                }
                '"' if self.src[pos..].starts_with("\"\"\"") => {
                    pos += 3;
                    break;
                }
                '\\' => pos = self.lex_escape(pos, &mut text)?,
                '$' => {
                    if !text.is_empty() {
                        pieces.push(StrPiece::Text(std::mem::take(&mut text)));
                    }
                    pos = self.lex_interpolation(start, pos, &mut pieces)?;
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
        self.nesting -= 1;
        Ok(TokenKind::Str(pieces))
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
            _ => Err(error(
                ParseErrorKind::InvalidInterpolation,
                dollar,
                after,
            )),
        }
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

/// The dotted (broadcasting) form of an operator token, when it has one.
fn dotted(kind: TokenKind) -> Option<TokenKind> {
    match kind {
        TokenKind::Op { op, .. } => match op {
            Op::Pipe | Op::Pair | Op::Compose | Op::CDot => None,
            op => Some(TokenKind::Op { op, dotted: true }),
        },
        TokenKind::Assign { op, .. } => Some(TokenKind::Assign { op, dotted: true }),
        _ => None,
    }
}

/// The operator (or other punctuation made of symbols) at the start of `rest`, with its length
/// in bytes; the longest match wins.
fn operator_at(rest: &str) -> Option<(TokenKind, usize)> {
    use TokenKind as T;
    let op = |op| T::Op { op, dotted: false };
    let assign = |op| T::Assign {
        op: Some(op),
        dotted: false,
    };
    let bytes = rest.as_bytes();
    let second = bytes.get(1).copied();
    let third = bytes.get(2).copied();
    let with_eq = |plain: TokenKind, compound: BinOp| {
        if second == Some(b'=') {
            (assign(compound), 2)
        } else {
            (plain, 1)
        }
    };
    Some(match *bytes.first()? {
        b'+' => with_eq(op(Op::Plus), BinOp::Add),
        b'-' => match second {
            Some(b'>') => (T::Arrow, 2),
            _ => with_eq(op(Op::Minus), BinOp::Sub),
        },
        b'*' => with_eq(op(Op::Star), BinOp::Mul),
        b'/' => with_eq(op(Op::Slash), BinOp::Div),
        b'\\' => with_eq(op(Op::Backslash), BinOp::LeftDiv),
        b'^' => with_eq(op(Op::Caret), BinOp::Pow),
        b'%' => with_eq(op(Op::Percent), BinOp::Rem),
        b'=' => match (second, third) {
            (Some(b'='), Some(b'=')) => (op(Op::Identical), 3),
            (Some(b'='), _) => (op(Op::Eq), 2),
            (Some(b'>'), _) => (op(Op::Pair), 2),
            _ => (
                T::Assign {
                    op: None,
                    dotted: false,
                },
                1,
            ),
        },
        b'!' => match (second, third) {
            (Some(b'='), Some(b'=')) => (op(Op::NotIdentical), 3),
            (Some(b'='), _) => (op(Op::Ne), 2),
            _ => (op(Op::Not), 1),
        },
        b'<' => match second {
            Some(b'=') => (op(Op::Le), 2),
            _ => (op(Op::Lt), 1),
        },
        b'>' => match second {
            Some(b'=') => (op(Op::Ge), 2),
            _ => (op(Op::Gt), 1),
        },
        b'&' => match second {
            Some(b'&') => (T::AndAnd, 2),
            _ => with_eq(op(Op::Amp), BinOp::BitAnd),
        },
        b'|' => match second {
            Some(b'|') => (T::OrOr, 2),
            Some(b'>') => (op(Op::Pipe), 2),
            _ => with_eq(op(Op::Bar), BinOp::BitOr),
        },
        b':' => match second {
            Some(b':') => (T::ColonColon, 2),
            _ => (T::Colon, 1),
        },
        _ => {
            let c = rest.chars().next()?;
            let len = c.len_utf8();
            let kind = match c {
                '÷' => {
                    if rest[len..].starts_with('=') {
                        return Some((assign(BinOp::IntDiv), len + 1));
                    }
                    op(Op::IntDiv)
                }
                '≠' => op(Op::Ne),
                '≤' => op(Op::Le),
                '≥' => op(Op::Ge),
                '≈' => op(Op::Approx),
                '≉' => op(Op::NotApprox),
                '≡' => op(Op::Identical),
                '≢' => op(Op::NotIdentical),
                '∈' => op(Op::In),
                '∉' => op(Op::NotIn),
                '√' => op(Op::Sqrt),
                '∘' => op(Op::Compose),
                '⋅' => op(Op::CDot),
                _ => return None,
            };
            (kind, len)
        }
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        let (tokens, error) = lex(src);
        assert!(error.is_none(), "{src:?}: {error:?}");
        tokens.into_iter().map(|t| t.kind).collect()
    }

    fn op(op: Op, dotted: bool) -> TokenKind {
        TokenKind::Op { op, dotted }
    }

    #[test]
    fn numbers() {
        let cases: &[(&str, TokenKind)] = &[
            ("1_000", TokenKind::Int(1000)),
            ("1.5", TokenKind::Float(1.5)),
            ("1e-3", TokenKind::Float(1e-3)),
            (".5", TokenKind::Float(0.5)),
            ("1.", TokenKind::Float(1.0)),
            ("2.5e10", TokenKind::Float(2.5e10)),
            ("1f0", TokenKind::Float(1.0)),
            ("1E3", TokenKind::Float(1000.0)),
            ("0xff", TokenKind::Int(255)),
            ("0b101", TokenKind::Int(5)),
        ];
        for (src, expected) in cases {
            assert_eq!(kinds(src)[0], *expected, "{src}");
        }
    }

    #[test]
    fn numbers_next_to_operators() {
        assert_eq!(
            kinds("1.+x")[..2],
            [TokenKind::Int(1), op(Op::Plus, true)]
        );
        assert_eq!(kinds("1:3")[..3], [TokenKind::Int(1), TokenKind::Colon, TokenKind::Int(3)]);
        assert_eq!(kinds("xs...")[1], TokenKind::Ellipsis);
        assert_eq!(kinds("2x")[..2], [TokenKind::Int(2), TokenKind::Ident(Name::new("x"))]);
        assert_eq!(kinds("2e")[..2], [TokenKind::Int(2), TokenKind::Ident(Name::new("e"))]);
    }

    #[test]
    fn number_errors() {
        let (_, e) = lex("99999999999999999999");
        assert!(matches!(e.unwrap().kind, ParseErrorKind::IntegerTooLarge { .. }));
        let (_, e) = lex("1e400");
        assert!(matches!(e.unwrap().kind, ParseErrorKind::FloatTooLarge { .. }));
        let (_, e) = lex("0x");
        assert!(matches!(e.unwrap().kind, ParseErrorKind::InvalidNumber { .. }));
    }

    #[test]
    fn identifiers_and_bangs() {
        assert_eq!(kinds("push!(x)")[0], TokenKind::Ident(Name::new("push!")));
        assert_eq!(
            kinds("a!=b")[..3],
            [
                TokenKind::Ident(Name::new("a")),
                op(Op::Ne, false),
                TokenKind::Ident(Name::new("b"))
            ]
        );
        for name in ["α", "∇f", "x₁", "ŷ", "π", "ℯ", "x′", "x²"] {
            assert_eq!(kinds(name)[0], TokenKind::Ident(Name::new(name)), "{name}");
        }
    }

    #[test]
    fn dotted_operators() {
        assert_eq!(kinds("a .+ b")[1], op(Op::Plus, true));
        assert_eq!(kinds("a .== b")[1], op(Op::Eq, true));
        assert_eq!(
            kinds("a .= b")[1],
            TokenKind::Assign {
                op: None,
                dotted: true
            }
        );
        assert_eq!(
            kinds("a .+= b")[1],
            TokenKind::Assign {
                op: Some(BinOp::Add),
                dotted: true
            }
        );
        assert_eq!(kinds("f.(x)")[1], TokenKind::Dot);
        assert_eq!(kinds("a.b")[1], TokenKind::Dot);
    }

    #[test]
    fn adjoint_versus_character_literal() {
        assert_eq!(kinds("x'")[1], TokenKind::Quote);
        assert_eq!(kinds("x''")[2], TokenKind::Quote);
        assert_eq!(kinds("(x)'")[3], TokenKind::Quote);
        let (_, e) = lex("'a'");
        assert!(matches!(e.unwrap().kind, ParseErrorKind::Unsupported { .. }));
        let (_, e) = lex("x '");
        assert!(e.is_some());
    }

    #[test]
    fn comments_and_newlines() {
        assert_eq!(
            kinds("a # c\n#= x #= y =# z =# b"),
            [
                TokenKind::Ident(Name::new("a")),
                TokenKind::Newline,
                TokenKind::Ident(Name::new("b")),
                TokenKind::Eof
            ]
        );
        let (_, e) = lex("#= open");
        assert_eq!(e.unwrap().kind, ParseErrorKind::UnterminatedComment);
    }

    #[test]
    fn strings() {
        let text = |s: &str| StrPiece::Text(s.into());
        assert_eq!(kinds(r#""a\tb\n\$\u03b1""#)[0], TokenKind::Str(vec![text("a\tb\n$α")]));
        let TokenKind::Str(pieces) = &kinds(r#""x = $x, $(f(y))!""#)[0] else {
            panic!()
        };
        assert_eq!(pieces.len(), 5);
        assert!(matches!(pieces[1], StrPiece::Name(..)));
        let StrPiece::Expr(tokens) = &pieces[3] else {
            panic!()
        };
        assert_eq!(tokens.len(), 6);
        let (_, e) = lex("\"abc");
        assert_eq!(e.unwrap().kind, ParseErrorKind::UnterminatedString);
        let (_, e) = lex(r#""\q""#);
        assert!(matches!(e.unwrap().kind, ParseErrorKind::InvalidEscape { .. }));
        let (_, e) = lex(r#""$ x""#);
        assert_eq!(e.unwrap().kind, ParseErrorKind::InvalidInterpolation);
    }

    #[test]
    fn triple_quoted_strings_are_dedented() {
        let src = "\"\"\"\n    f(x)\n\n      Doc.\n    \"\"\"";
        assert_eq!(
            kinds(src)[0],
            TokenKind::Str(vec![StrPiece::Text("f(x)\n\n  Doc.\n".into())])
        );
        assert_eq!(
            kinds("\"\"\"say \"hi\" \"\"\"")[0],
            TokenKind::Str(vec![StrPiece::Text("say \"hi\" ".into())])
        );
    }

    #[test]
    fn spaces_are_recorded() {
        let (tokens, _) = lex("[1 -2]");
        assert!(tokens[2].space_before && !tokens[3].space_before);
    }
}
