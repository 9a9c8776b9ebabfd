//! The parser: [`crate::lexer`] tokens to the [`crate::ast`], by recursive descent with
//! precedence climbing for operators.
//!
//! [`parse`] is the entry point. This module holds the parser state (`Parser`), the token
//! helpers, nesting limits and the statement level (blocks, statement separators,
//! docstrings); the submodules hold the rest, one `parse_<construct>` function per construct:
//! `expr` (assignment and every operator), `postfix` (calls, indexing, fields, `'`),
//! `primary` (literals, strings, parentheses and tuples, arrays and comprehensions, macros)
//! and `control` (`if`, loops, `try`, `let`, functions and other keyword forms). Errors and
//! their messages are in `error`.

mod control;
mod error;
mod expr;
mod postfix;
mod primary;

use std::rc::Rc;

pub use error::{ParseError, ParseErrorKind};

use crate::ast::{Arg, Block, Expr, ExprKind, StrPart};
use crate::lexer::{self, Keyword, Token, TokenKind};
use crate::names::Name;
use crate::span::{line_col, Span};

/// How many nested levels (parentheses, blocks, operators folded into one chain) the parser
/// accepts before it stops with [`ParseErrorKind::TooDeep`]; this bounds its own stack and the
/// depth of the tree the evaluator walks.
const MAX_DEPTH: usize = 500;

/// How much stack (in bytes) one parse may use, whatever the nesting: checked with the depth,
/// so that deeply nested input is an error and never a stack overflow, even on a thread with
/// a small stack (2 MiB is Rust's default for spawned threads) or in an unoptimized build,
/// where each level of parentheses costs several kilobytes.
pub(crate) const STACK_BUDGET: usize = 1 << 20;

/// The address of a local variable of the caller: a measure of how deep the stack is.
#[inline(always)]
pub(crate) fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Parses a whole cell, script or REPL line: top-level expressions separated by newlines or `;`.
pub fn parse(source: &str) -> Result<Block, ParseError> {
    if source.len() >= u32::MAX as usize {
        return Err(ParseError {
            kind: ParseErrorKind::Unsupported {
                what: "sources of 4 GiB or more".into(),
            },
            span: Span::default(),
        });
    }
    let (tokens, lex_error) = lexer::lex(source);
    let mut parser = Parser::new(source, tokens, lex_error, Ctx::BLOCK, 0);
    parser.stack_top = stack_position();
    let block = parser.parse_block(&[])?;
    // Lexing stopped at an error, and everything before it parsed: report the lexing error.
    match parser.lex_error {
        Some(error) => Err(error),
        None => Ok(block),
    }
}

type PResult<T> = Result<T, ParseError>;

/// What the surrounding construct makes of newlines and spaces.
#[derive(Debug, Clone, Copy)]
struct Ctx {
    /// Newlines are whitespace (inside parentheses, argument lists, index brackets).
    skip_newlines: bool,
    /// Spaces separate elements (inside `[ ]` array literals and space-separated macro
    /// arguments): `[1 -2]` has two elements.
    space_sensitive: bool,
    /// Parsing the middle of `c ? a : b`, where a `:` with a space before it ends the branch.
    ternary_then: bool,
    /// Inside `x[ … ]`, where `end` is the last index.
    in_index: bool,
    /// Inside a macro call, where `$x` is allowed.
    in_macro: bool,
}

impl Ctx {
    /// Statements in a block: newlines end them, spaces mean nothing.
    const BLOCK: Ctx = Ctx {
        skip_newlines: false,
        space_sensitive: false,
        ternary_then: false,
        in_index: false,
        in_macro: false,
    };

    /// The context inside a block nested in this one (keeps `end`-in-index and `$`).
    fn block(self) -> Ctx {
        Ctx {
            skip_newlines: false,
            space_sensitive: false,
            ternary_then: false,
            ..self
        }
    }

    /// The context inside parentheses, argument lists and braces.
    fn paren(self) -> Ctx {
        Ctx {
            skip_newlines: true,
            space_sensitive: false,
            ternary_then: false,
            ..self
        }
    }

    /// The context inside an array literal `[ … ]`.
    fn array(self) -> Ctx {
        Ctx {
            skip_newlines: false,
            space_sensitive: true,
            ternary_then: false,
            ..self
        }
    }
}

/// What an entry of the opener stack is, for "incomplete" messages at end of input.
#[derive(Debug, Clone, Copy)]
enum Opener {
    Block(&'static str),
    Bracket(char),
}

/// The parser state: the tokens, a cursor, the context and the stack of open constructs.
pub(crate) struct Parser<'s> {
    src: &'s str,
    tokens: Vec<Token>,
    pos: usize,
    lex_error: Option<ParseError>,
    ctx: Ctx,
    depth: usize,
    openers: Vec<(Opener, Span)>,
    names: KnownNames,
    /// [`stack_position`] where the parse started, for the [`STACK_BUDGET`].
    stack_top: usize,
    /// For each opening bracket token, the index of its closing bracket (`u32::MAX` for the
    /// others), so that looking ahead past a bracket costs nothing.
    closing: Vec<u32>,
    /// How many struct bodies are being parsed, where `const` may declare a field.
    struct_bodies: usize,
    /// The spans of the field declarations written after `const` in those bodies.
    const_fields: Vec<Span>,
}

/// Names the parser produces itself.
struct KnownNames {
    isa: Name,
    dot: Name,
}

impl<'s> Parser<'s> {
    fn new(
        src: &'s str,
        tokens: Vec<Token>,
        lex_error: Option<ParseError>,
        ctx: Ctx,
        depth: usize,
    ) -> Parser<'s> {
        Parser {
            src,
            pos: 0,
            lex_error,
            ctx,
            depth,
            openers: Vec::new(),
            names: KnownNames {
                isa: Name::new("isa"),
                dot: Name::new("dot"),
            },
            stack_top: stack_position(),
            closing: match_brackets(&tokens),
            tokens,
            struct_bodies: 0,
            const_fields: Vec::new(),
        }
    }

    // ----- Tokens -----

    /// The index of the next token, past newlines when the context skips them.
    fn peek_index(&self) -> usize {
        let mut i = self.pos;
        if self.ctx.skip_newlines {
            while self.tokens[i].kind == TokenKind::Newline {
                i += 1;
            }
        }
        i
    }

    /// The next token (past newlines when the context skips them).
    fn peek(&self) -> &Token {
        &self.tokens[self.peek_index()]
    }

    /// The next token, newlines included whatever the context.
    fn peek_raw(&self) -> &Token {
        &self.tokens[self.pos]
    }

    /// The token after the next one.
    fn peek_second(&self) -> &Token {
        let i = self.peek_index();
        self.tokens.get(i + 1).unwrap_or(&self.tokens[i])
    }

    /// Consumes the next token and returns it; at end of input, stays there.
    fn bump(&mut self) -> Token {
        let i = self.peek_index();
        let token = self.tokens[i].clone();
        if token.kind != TokenKind::Eof {
            self.pos = i + 1;
        }
        token
    }

    /// Consumes the next token when `pred` accepts it.
    fn eat(&mut self, pred: impl Fn(&TokenKind) -> bool) -> Option<Token> {
        pred(&self.peek().kind).then(|| self.bump())
    }

    fn at(&self, kind: &TokenKind) -> bool {
        &self.peek().kind == kind
    }

    fn at_keyword(&self, keyword: Keyword) -> bool {
        self.peek().kind == TokenKind::Keyword(keyword)
    }

    fn skip_newlines(&mut self) {
        while self.tokens[self.pos].kind == TokenKind::Newline {
            self.pos += 1;
        }
    }

    /// Consumes the token `kind` or fails with "expected `expected`".
    fn expect(&mut self, kind: &TokenKind, expected: &'static str) -> PResult<Token> {
        if self.at(kind) {
            Ok(self.bump())
        } else {
            let found = self.peek().clone();
            Err(self.expected(expected, &found))
        }
    }

    /// The source text of `span`, shortened for messages.
    fn text(&self, span: Span) -> String {
        let text = self
            .src
            .get(span.start as usize..span.end as usize)
            .unwrap_or("");
        if text.chars().count() > 40 {
            let short: String = text.chars().take(37).collect();
            format!("{short}...")
        } else {
            text.to_owned()
        }
    }

    // ----- Errors -----

    /// An error of `kind` at `token`; at end of input, the "incomplete" error instead.
    fn error_at(&self, token: &Token, kind: ParseErrorKind) -> ParseError {
        if token.kind == TokenKind::Eof {
            return self.eof_error();
        }
        ParseError {
            kind,
            span: token.span,
        }
    }

    fn unexpected(&self, token: &Token) -> ParseError {
        let found = self.text(token.span);
        let found = if token.kind == TokenKind::Newline {
            "newline".into()
        } else {
            found
        };
        self.error_at(token, ParseErrorKind::Unexpected { found })
    }

    fn expected(&self, expected: &'static str, found: &Token) -> ParseError {
        let text = match found.kind {
            TokenKind::Newline => "newline".into(),
            _ => self.text(found.span),
        };
        self.error_at(
            found,
            ParseErrorKind::Expected {
                expected,
                found: text,
            },
        )
    }

    /// The error for input that ended too early: the lexing error that ended it, or the
    /// innermost unclosed block or bracket, or a plain "unexpected end of input".
    fn eof_error(&self) -> ParseError {
        if let Some(error) = &self.lex_error {
            return error.clone();
        }
        let eof = self.tokens.last().map_or(Span::default(), |t| t.span);
        let Some(&(opener, span)) = self.openers.last() else {
            return ParseError {
                kind: ParseErrorKind::UnexpectedEof,
                span: eof,
            };
        };
        let (line, column) = line_col(self.src, span.start as usize);
        let (line, column) = (line as u32, column as u32);
        let kind = match opener {
            Opener::Block(keyword) => ParseErrorKind::UnclosedBlock {
                keyword,
                line,
                column,
            },
            Opener::Bracket(open) => ParseErrorKind::UnclosedBracket { open, line, column },
        };
        ParseError { kind, span }
    }

    // ----- Nesting -----

    /// Enters one nesting level; returns the depth to restore on the way out.
    fn enter(&mut self) -> PResult<usize> {
        let saved = self.depth;
        self.deeper()?;
        Ok(saved)
    }

    /// Counts one more level of nesting (also used when a loop folds another operator into a
    /// left-deep chain, which deepens the tree without recursing).
    fn deeper(&mut self) -> PResult<()> {
        self.depth += 1;
        let stack_used = self.stack_top.abs_diff(stack_position());
        if self.depth > MAX_DEPTH || stack_used > STACK_BUDGET {
            let span = self.peek().span;
            return Err(ParseError {
                kind: ParseErrorKind::TooDeep,
                span,
            });
        }
        Ok(())
    }

    /// Enters a nested construct: context `ctx`, with `opener` on the stack of open
    /// constructs; returns the context for [`Parser::close`] to restore.
    fn open(&mut self, ctx: Ctx, opener: Opener, span: Span) -> Ctx {
        self.openers.push((opener, span));
        std::mem::replace(&mut self.ctx, ctx)
    }

    /// Leaves the construct entered by [`Parser::open`].
    fn close(&mut self, saved: Ctx) {
        self.openers.pop();
        self.ctx = saved;
    }

    // ----- Blocks and statements -----

    /// Statements up to one of `terminators` (not consumed), or to the end of input when
    /// `terminators` is empty (the top level).
    fn parse_block(&mut self, terminators: &[Keyword]) -> PResult<Block> {
        let block_ctx = self.ctx.block();
        let saved = std::mem::replace(&mut self.ctx, block_ctx);
        let result = self.parse_statements(terminators);
        self.ctx = saved;
        result
    }

    fn parse_statements(&mut self, terminators: &[Keyword]) -> PResult<Block> {
        let mut block = Vec::new();
        loop {
            self.skip_separators();
            if self.at_block_end(terminators)? {
                return Ok(block);
            }
            let statement = self.parse_statement()?;
            match self.parse_docstring_target(&statement)? {
                Some(next) if is_documented(&next) => block.push(next),
                Some(next) => block.extend([statement, next]),
                None => block.push(statement),
            }
            self.check_statement_end(terminators)?;
        }
    }

    fn skip_separators(&mut self) {
        while matches!(
            self.tokens[self.pos].kind,
            TokenKind::Newline | TokenKind::Semicolon
        ) {
            self.pos += 1;
        }
    }

    /// Whether the block ends here; fails on the wrong closing keyword or an early end of input.
    fn at_block_end(&self, terminators: &[Keyword]) -> PResult<bool> {
        let token = self.peek_raw();
        match token.kind {
            TokenKind::Eof if terminators.is_empty() => Ok(true),
            TokenKind::Eof => Err(self.eof_error()),
            TokenKind::Keyword(k) if terminators.contains(&k) => Ok(true),
            TokenKind::Keyword(
                Keyword::End | Keyword::Else | Keyword::Elseif | Keyword::Catch | Keyword::Finally,
            ) => Err(self.unexpected(token)),
            _ => Ok(false),
        }
    }

    /// After a statement: a newline, `;`, the end of input or the end of the block.
    fn check_statement_end(&self, terminators: &[Keyword]) -> PResult<()> {
        let token = self.peek_raw();
        match token.kind {
            TokenKind::Newline | TokenKind::Semicolon | TokenKind::Eof => Ok(()),
            TokenKind::Keyword(k) if terminators.contains(&k) => Ok(()),
            TokenKind::Keyword(
                Keyword::End | Keyword::Else | Keyword::Elseif | Keyword::Catch | Keyword::Finally,
            )
            | TokenKind::RParen
            | TokenKind::RBracket
            | TokenKind::RBrace => Err(self.unexpected(token)),
            TokenKind::Keyword(Keyword::Reserved(word)) => Err(ParseError {
                kind: ParseErrorKind::Unsupported {
                    what: format!("\"{word}\""),
                },
                span: token.span,
            }),
            _ => Err(self.error_at(
                token,
                ParseErrorKind::ExtraToken {
                    found: self.text(token.span),
                },
            )),
        }
    }

    /// One statement: an expression, possibly a bare tuple (`a, b = t`) or a splat.
    fn parse_statement(&mut self) -> PResult<Expr> {
        if let Some(definition) = self.parse_contextual_definition() {
            return definition;
        }
        let expr = self.parse_assignment(true)?;
        Ok(self.parse_splat(expr))
    }

    /// `mutable struct …` or `abstract type …`, which start with contextual words (statements,
    /// or the argument of a macro such as `@kwdef`); `None` when the next tokens are neither.
    pub(super) fn parse_contextual_definition(&mut self) -> Option<PResult<Expr>> {
        let token = self.peek_raw().clone();
        let TokenKind::Ident(word) = token.kind else {
            return None;
        };
        let next = self.tokens.get(self.pos + 1).map(|t| &t.kind);
        match (word.as_str(), next) {
            ("mutable", Some(TokenKind::Keyword(Keyword::Struct))) => {
                self.bump();
                Some(self.parse_struct(true, token.span))
            }
            ("abstract", Some(TokenKind::Ident(t))) if t.as_str() == "type" => {
                self.bump();
                Some(self.parse_abstract_type(token.span))
            }
            _ => None,
        }
    }

    /// `"doc"` then, on the next line, a statement starting like a definition: parses that
    /// statement and returns it, with the docstring attached when it is a function definition.
    /// Returns `None` (consuming nothing) when `statement` is no docstring or no such line
    /// follows.
    fn parse_docstring_target(&mut self, statement: &Expr) -> PResult<Option<Expr>> {
        let ExprKind::Str(parts) = &statement.kind else {
            return Ok(None);
        };
        let Some(doc) = plain_text(parts) else {
            return Ok(None);
        };
        // Exactly one line break between the docstring and the definition.
        let next = self.tokens.get(self.pos + 1);
        let is_definition_start = next.is_some_and(|t| {
            matches!(
                t.kind,
                TokenKind::Keyword(Keyword::Function) | TokenKind::Ident(_)
            )
        });
        if self.peek_raw().kind != TokenKind::Newline || !is_definition_start {
            return Ok(None);
        }
        self.pos += 1;
        let mut next = self.parse_statement()?;
        if let ExprKind::Function(def) = &mut next.kind {
            if let Some(def) = Rc::get_mut(def) {
                def.doc = Some(doc);
            }
        }
        Ok(Some(next))
    }

    /// `x...` after an expression: a [`ExprKind::Splat`].
    fn parse_splat(&mut self, expr: Expr) -> Expr {
        match self.eat(|k| *k == TokenKind::Ellipsis) {
            Some(dots) => Expr {
                span: expr.span.to(dots.span),
                kind: ExprKind::Splat(Box::new(expr)),
            },
            None => expr,
        }
    }

    /// A splat expression as an argument: `xs...` is `Arg { splat: true }`.
    fn into_arg(expr: Expr) -> Arg {
        match expr.kind {
            ExprKind::Splat(inner) => Arg {
                value: *inner,
                splat: true,
            },
            _ => Arg {
                value: expr,
                splat: false,
            },
        }
    }

    /// Parses the tokens of a `$( … )` interpolation (from `(` to `)`) as one expression.
    fn parse_interpolated(&mut self, tokens: &[Token]) -> PResult<Expr> {
        let end = tokens.last().map_or(Span::default(), |t| t.span);
        let mut tokens = tokens.to_vec();
        tokens.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(end.end as usize, end.end as usize),
            space_before: false,
        });
        let mut inner = Parser::new(self.src, tokens, None, self.ctx.paren(), self.depth);
        inner.stack_top = self.stack_top;
        inner.ctx.in_macro = false;
        inner.bump();
        let expr = inner.parse_expr()?;
        inner.expect(&TokenKind::RParen, "\")\"")?;
        Ok(expr)
    }
}

/// For each opening bracket in `tokens`, the index of the closing bracket that matches it
/// (whatever its kind); `u32::MAX` for unmatched brackets and other tokens.
fn match_brackets(tokens: &[Token]) -> Vec<u32> {
    let mut closing = vec![u32::MAX; tokens.len()];
    let mut open = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match token.kind {
            TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => open.push(i),
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                if let Some(opener) = open.pop() {
                    closing[opener] = i as u32;
                }
            }
            _ => {}
        }
    }
    closing
}

/// Whether `expr` is a function definition carrying a docstring.
fn is_documented(expr: &Expr) -> bool {
    matches!(&expr.kind, ExprKind::Function(def) if def.doc.is_some())
}

/// The text of a string literal without interpolations.
fn plain_text(parts: &[StrPart]) -> Option<String> {
    let mut text = String::new();
    for part in parts {
        match part {
            StrPart::Text(t) => text.push_str(t),
            StrPart::Interp(_) => return None,
        }
    }
    Some(text)
}
