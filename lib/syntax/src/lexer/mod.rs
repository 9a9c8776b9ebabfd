//! The lexer: source text to [`Token`]s, each with its byte [`Span`].
//!
//! Tokens remember whether whitespace came right before them ([`Token::space_before`]) because
//! the language is whitespace-sensitive inside brackets and macro calls (`[1 -2]` has two
//! elements, `[1 - 2]` one). Newlines are tokens ([`TokenKind::Newline`]): they end statements
//! and separate matrix rows. A string literal is lexed whole, its `$(…)` interpolations already
//! turned into tokens ([`StrPiece`]), so the parser never reads source text again. The entry
//! point is [`lex`]; the parser that consumes the tokens is [`crate::parser`]. Editors (the
//! REPL's highlighter and indentation, completion) lex unfinished input with the same rules
//! through [`lex_tolerant`]. Submodules: `number` (numeric literals), `string` (string literals,
//! escapes, interpolation), `operator` (operator tokens) and `tolerant` (lexing that never
//! stops, for editors).

use crate::ast::BinOp;
use crate::names::Name;
use crate::parser::{stack_position, ParseError, ParseErrorKind};
use crate::span::Span;

mod number;
mod operator;
mod string;
#[cfg(test)]
mod tests;
mod tolerant;

use operator::{dotted, operator_at};
use tolerant::Tolerance;
pub use tolerant::{lex_tolerant, Inside, Lexed};

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
    /// `'a'`, `'\n'`, `'\u00e9'`
    Char(char),
    /// `r"a+b"i`, `raw"C:\dir"`, `s"\1"`: a non-standard string literal (Julia's string
    /// macros): the text as written (no escapes but `\"`, no interpolation) and the letters
    /// right after the closing quote.
    PrefixedStr {
        /// The name before the opening quote (`r`, `raw`, `s`).
        prefix: Name,
        /// The text between the quotes.
        text: String,
        /// The flags after the closing quote (`i` in `r"a"i`).
        flags: String,
    },
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
    /// Text that is not a token (an invalid character, `'a'`, a number too large): only
    /// [`lex_tolerant`] makes these, with the error [`lex`] would have stopped at.
    Invalid(Box<ParseErrorKind>),
    /// The end of input (or the place where lexing stopped at an error).
    Eof,
}

impl TokenKind {
    /// True for tokens that end a value (a name, a number, a closing bracket, `'`, `end` in an
    /// index): a `'` right after one is an adjoint, a `.` before a digit is field access, and
    /// a `:` after one makes a range rather than a symbol.
    pub fn ends_value(&self) -> bool {
        matches!(
            self,
            TokenKind::Ident(_)
                | TokenKind::Int(_)
                | TokenKind::Float(_)
                | TokenKind::Char(_)
                | TokenKind::RParen
                | TokenKind::RBracket
                | TokenKind::RBrace
                | TokenKind::Quote
                | TokenKind::Keyword(Keyword::End)
        )
    }
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
    /// `<:` (subtype)
    Subtype,
    /// `∪` (a call of `union`)
    Union,
    /// `∩` (a call of `intersect`)
    Intersect,
    /// `⋅` (the dot product)
    CDot,
    /// `⊆` (a call of `issubset`), `⊇`, `⊊`, `⊋`, `⊈`, `⊉` (calls of the function of that name)
    SetRelation(char),
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
    /// `struct` (also after the contextual word `mutable`).
    Struct,
    /// `do` (a `do` block after a call).
    Do,
    /// Julia keywords the language does not support (`struct`, `module`, `do`, ...).
    Reserved(&'static str),
}

impl Keyword {
    /// The keywords the language supports (not the [`Keyword::Reserved`] ones), for completion.
    pub const SUPPORTED: [Keyword; 25] = [
        Keyword::Function,
        Keyword::End,
        Keyword::If,
        Keyword::Elseif,
        Keyword::Else,
        Keyword::For,
        Keyword::While,
        Keyword::Break,
        Keyword::Continue,
        Keyword::Return,
        Keyword::Try,
        Keyword::Catch,
        Keyword::Finally,
        Keyword::Begin,
        Keyword::Let,
        Keyword::Global,
        Keyword::Local,
        Keyword::Using,
        Keyword::Import,
        Keyword::True,
        Keyword::False,
        Keyword::In,
        Keyword::Const,
        Keyword::Struct,
        Keyword::Do,
    ];

    /// Whether an element of an array row may begin with this keyword (`[true false]`,
    /// `[1 if c 2 else 3 end]`); the others end or continue a construct.
    pub fn starts_element(self) -> bool {
        matches!(
            self,
            Keyword::True
                | Keyword::False
                | Keyword::Function
                | Keyword::If
                | Keyword::Let
                | Keyword::Begin
                | Keyword::Try
        )
    }

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
            "struct" => Keyword::Struct,
            "module" => Keyword::Reserved("module"),
            "baremodule" => Keyword::Reserved("baremodule"),
            "macro" => Keyword::Reserved("macro"),
            "quote" => Keyword::Reserved("quote"),
            "do" => Keyword::Do,
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
            Keyword::Struct => "struct",
            Keyword::Do => "do",
            Keyword::Reserved(word) => word,
        }
    }
}

/// Lexes all of `source`. Lexing stops at the first error: the tokens before it are returned,
/// closed by an [`TokenKind::Eof`] at the error, together with the error, so that the parser
/// can report an earlier syntax error first.
pub fn lex(source: &str) -> (Vec<Token>, Option<ParseError>) {
    let mut lexer = Lexer::new(source, None);
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

/// The one token `text` is made of, if it is exactly one (`push!`, `∇f`, `@time`, `end`, `+`).
pub fn single_token(text: &str) -> Option<TokenKind> {
    match lex(text) {
        (tokens, None) if tokens.len() == 2 && tokens[0].span == Span::new(0, text.len()) => {
            tokens.into_iter().next().map(|token| token.kind)
        }
        _ => None,
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
    /// What tolerant lexing ([`lex_tolerant`]) keeps; `None` for [`lex`].
    tolerance: Option<Tolerance>,
}

type LexResult<T> = Result<T, ParseError>;

/// `text` for an error message, cut to its first 40 characters.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

fn error(kind: ParseErrorKind, start: usize, end: usize) -> ParseError {
    ParseError {
        kind,
        span: Span::new(start, end),
    }
}

impl<'s> Lexer<'s> {
    fn new(src: &'s str, tolerance: Option<Tolerance>) -> Lexer<'s> {
        Lexer {
            src,
            pos: 0,
            nesting: 0,
            value_end: None,
            stack_top: stack_position(),
            tolerance,
        }
    }

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
            Some(c) => match self.lex_token(c) {
                Err(error) if self.tolerance.is_some() => self.invalid(start, c, error),
                lexed => lexed?,
            },
        };
        let token = Token {
            kind,
            span: Span::new(start, self.pos),
            space_before: space_before || start == 0,
        };
        self.value_end = token.kind.ends_value().then_some(self.pos);
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
            match self.rest().find('\n') {
                Some(end) => self.pos += end,
                None => {
                    self.pos = self.src.len();
                    self.reached_end(Inside::Comment {
                        start,
                        block: false,
                    });
                }
            }
            self.note_comment(start);
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
                    self.note_comment(start);
                    return Ok(());
                }
            } else {
                self.pos += rest.chars().next().map_or(1, char::len_utf8);
            }
        }
        if self.reached_end(Inside::Comment { start, block: true }) {
            self.note_comment(start);
            return Ok(());
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
                    self.lex_char(start)
                }
            }
            '@' => self.lex_macro(start),
            '.' => self.lex_dot(start),
            '0'..='9' => self.lex_number(start),
            c if is_ident_start(c) => self.lex_identifier(start),
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

    fn lex_identifier(&mut self, start: usize) -> LexResult<TokenKind> {
        let word = self.scan_identifier(start, true);
        Ok(match Keyword::from_word(word) {
            Some(keyword) => TokenKind::Keyword(keyword),
            // A name right before a quote is a string macro: `r"…"`, `raw"…"`.
            None if self.rest().starts_with('"') => {
                return self.lex_prefixed_string(start, Name::new(word))
            }
            None => TokenKind::Ident(Name::new(word)),
        })
    }

    /// Scans identifier characters from `start` and returns them, with `!`s inside or at the
    /// end when `bang` is true.
    fn scan_identifier(&mut self, start: usize, bang: bool) -> &'s str {
        let mut end = start;
        for c in self.src[start..].chars() {
            if is_ident_continue(c) {
                end += c.len_utf8();
            } else {
                break;
            }
        }
        // `!` belongs to an identifier (`push!`, `a!b`) unless `=` follows (`a!=b` is `a != b`).
        while bang && self.src[end..].starts_with('!') && !self.src[end + 1..].starts_with('=') {
            end += 1;
            for c in self.src[end..].chars() {
                if is_ident_continue(c) {
                    end += c.len_utf8();
                } else {
                    break;
                }
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
}
