//! Primary expressions: literals, names, strings with interpolation, `:sym` and `:`,
//! parentheses (grouping, tuples, `(a; b)` blocks, generators), array literals (vectors,
//! matrices, comprehensions) and macro calls.
//!
//! Array literals are whitespace-sensitive, as in Julia: spaces separate the elements of a row
//! (`[1 -2]` has two, `[1 - 2]` one), `;` and newlines separate rows. Keyword forms (`if`,
//! `function`, ...) are in [`super::control`].

use super::{Ctx, Opener, PResult, ParseError, ParseErrorKind, Parser};
use crate::ast::{Arg, Expr, ExprKind, Generator, Pattern, StrPart};
use crate::lexer::{Keyword, StrPiece, Token, TokenKind};
use crate::names::Name;
use crate::span::Span;

impl<'s> Parser<'s> {
    /// A primary expression: the operand that operators and postfix forms apply to.
    pub(super) fn parse_primary(&mut self) -> PResult<Expr> {
        let token = self.peek();
        let span = token.span;
        let kind = match token.kind {
            TokenKind::Int(v) => ExprKind::Int(v),
            TokenKind::Float(v) => ExprKind::Float(v),
            TokenKind::Char(c) => ExprKind::Char(c),
            TokenKind::PrefixedStr {
                prefix,
                ref text,
                ref flags,
            } => ExprKind::PrefixedStr {
                prefix,
                text: text.clone(),
                flags: flags.clone(),
            },
            TokenKind::Ident(name) => ExprKind::Ident(name),
            TokenKind::Str(_) => return self.parse_string(),
            // `in(x, s)`, `in.(x, Ref(s))` and `(in)`, `f(in, x)`: the function `in`, as Julia
            // reads it.
            TokenKind::Keyword(Keyword::In)
                if self.keyword_called() || self.operator_is_value() =>
            {
                ExprKind::Ident(Name::new("in"))
            }
            TokenKind::Keyword(keyword) => return self.parse_keyword(keyword),
            TokenKind::Macro(name) => return self.parse_macro(name),
            TokenKind::LParen => return self.parse_paren(),
            TokenKind::LBracket => return self.parse_array(),
            TokenKind::Colon => return self.parse_colon(),
            TokenKind::Dollar => return self.parse_interpolate(),
            TokenKind::Op { dotted: false, .. }
                if self.operator_is_value() || self.operator_is_called() =>
            {
                ExprKind::Ident(Name::new(&self.text(span)))
            }
            TokenKind::ColonColon => {
                return Err(ParseError {
                    kind: ParseErrorKind::Unsupported {
                        what: "type annotations (\"::\")".into(),
                    },
                    span,
                })
            }
            _ => {
                let token = token.clone();
                return Err(self.unexpected(&token));
            }
        };
        self.bump();
        Ok(Expr { kind, span })
    }

    /// `"text $x $(f(x))"`: the string's pieces, interpolations parsed as expressions.
    fn parse_string(&mut self) -> PResult<Expr> {
        let token = self.bump();
        let TokenKind::Str(pieces) = token.kind else {
            return Err(self.unexpected(&token));
        };
        let mut parts: Vec<StrPart> = Vec::with_capacity(pieces.len());
        for piece in pieces {
            match piece {
                StrPiece::Text(text) => match parts.last_mut() {
                    Some(StrPart::Text(previous)) => previous.push_str(&text),
                    _ => parts.push(StrPart::Text(text)),
                },
                StrPiece::Name(name, span) => parts.push(StrPart::Interp(Expr {
                    kind: ExprKind::Ident(name),
                    span,
                })),
                StrPiece::Expr(tokens) => {
                    parts.push(StrPart::Interp(self.parse_interpolated(&tokens)?))
                }
            }
        }
        Ok(Expr {
            kind: ExprKind::Str(parts),
            span: token.span,
        })
    }

    /// `:sym` (a `:` right before a name, in prefix position) or a bare `:` in an index
    /// (`A[:, j]`).
    fn parse_colon(&mut self) -> PResult<Expr> {
        let colon = self.bump();
        let next = self.peek_raw().clone();
        if !next.space_before {
            let name = match next.kind {
                TokenKind::Ident(name) => Some(name),
                TokenKind::Keyword(keyword) => Some(Name::new(keyword.as_str())),
                TokenKind::LParen => {
                    return Err(ParseError {
                        kind: ParseErrorKind::Unsupported {
                            what: "quoted expressions (\":(…)\")".into(),
                        },
                        span: colon.span.to(next.span),
                    })
                }
                _ => None,
            };
            if let Some(name) = name {
                self.bump();
                return Ok(Expr {
                    kind: ExprKind::Symbol(name),
                    span: colon.span.to(next.span),
                });
            }
        }
        match self.peek().kind {
            TokenKind::Comma | TokenKind::RParen | TokenKind::RBracket => Ok(Expr {
                kind: ExprKind::Colon,
                span: colon.span,
            }),
            _ => Err(self.unexpected(&colon)),
        }
    }

    /// `$x` or `$(expr)` in a macro argument (`@b f($x)`).
    fn parse_interpolate(&mut self) -> PResult<Expr> {
        let dollar = self.bump();
        if !self.ctx.in_macro {
            return Err(ParseError {
                kind: ParseErrorKind::InterpolationOutsideMacro,
                span: dollar.span,
            });
        }
        let base = self.enter()?;
        let inner = self.parse_primary();
        self.depth = base;
        let inner = inner?;
        Ok(Expr {
            span: dollar.span.to(inner.span),
            kind: ExprKind::Interpolate(Box::new(inner)),
        })
    }

    /// `( … )`: `()`, grouping `(x)`, tuples `(a, b)`, `(a,)`, `(x = 1, y = 2)`, blocks
    /// `(a; b)` and generators `(f(x) for x in xs)`.
    fn parse_paren(&mut self) -> PResult<Expr> {
        let open = self.bump();
        let saved = self.open(self.ctx.paren(), Opener::Bracket('('), open.span);
        let result = self.parse_paren_contents(open.span);
        self.close(saved);
        result
    }

    fn parse_paren_contents(&mut self, open: Span) -> PResult<Expr> {
        if let Some(close) = self.eat(|k| *k == TokenKind::RParen) {
            return Ok(Expr {
                kind: ExprKind::Tuple(Vec::new()),
                span: open.to(close.span),
            });
        }
        if self.at(&TokenKind::Semicolon) {
            return self.parse_named_tuple(open);
        }
        let first = self.parse_expr()?;
        if self.at_keyword(Keyword::For) {
            let generator = self.parse_generator_tail(first, true)?;
            let close = self.expect(&TokenKind::RParen, "\")\"")?;
            return Ok(Expr {
                kind: generator.kind,
                span: open.to(close.span),
            });
        }
        let first = self.parse_splat(first);
        match self.peek().kind {
            TokenKind::RParen => {
                let close = self.bump();
                let span = open.to(close.span);
                let kind = match first.kind {
                    ExprKind::Splat(_) => ExprKind::Tuple(vec![Self::into_arg(first)]),
                    kind => kind,
                };
                Ok(Expr { kind, span })
            }
            TokenKind::Comma => self.parse_tuple(first, open),
            TokenKind::Semicolon => self.parse_paren_block(vec![first], open),
            _ => {
                let found = self.peek().clone();
                Err(self.expected("\",\" or \")\"", &found))
            }
        }
    }

    /// The rest of `(a, b, …)` after its first element.
    fn parse_tuple(&mut self, first: Expr, open: Span) -> PResult<Expr> {
        let mut items = vec![Self::into_arg(first)];
        while self.eat(|k| *k == TokenKind::Comma).is_some() {
            if self.at(&TokenKind::RParen) {
                break;
            }
            let item = self.parse_expr()?;
            items.push(Self::into_arg(self.parse_splat(item)));
        }
        let close = self.expect(&TokenKind::RParen, "\",\" or \")\"")?;
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span: open.to(close.span),
        })
    }

    /// `(; a = 1, b)`, from its `;`: a named tuple, where a bare name `b` (or a field `x.b`)
    /// stands for `b = b` (`b = x.b`).
    fn parse_named_tuple(&mut self, open: Span) -> PResult<Expr> {
        self.bump();
        let mut items = Vec::new();
        while !self.at(&TokenKind::RParen) {
            let item = self.parse_expr()?;
            let span = item.span;
            let named = |name: Name| Expr {
                kind: ExprKind::Ident(name),
                span,
            };
            let value = match &item.kind {
                ExprKind::Assign {
                    op: None, target, ..
                } if matches!(target.kind, ExprKind::Ident(_)) => item,
                ExprKind::Ident(name) => Expr {
                    kind: ExprKind::Assign {
                        target: Box::new(named(*name)),
                        op: None,
                        dotted: false,
                        value: Box::new(item.clone()),
                    },
                    span,
                },
                ExprKind::Field { field, .. } => Expr {
                    kind: ExprKind::Assign {
                        target: Box::new(named(*field)),
                        op: None,
                        dotted: false,
                        value: Box::new(item.clone()),
                    },
                    span,
                },
                _ => {
                    return Err(ParseError {
                        kind: ParseErrorKind::Expected {
                            expected: "a named tuple field (\"name = value\" or \"name\")",
                            found: self.text(span),
                        },
                        span,
                    })
                }
            };
            items.push(Self::into_arg(value));
            if self.eat(|k| *k == TokenKind::Comma).is_none() && !self.at(&TokenKind::RParen) {
                let found = self.peek().clone();
                return Err(self.expected("\",\" or \")\"", &found));
            }
        }
        let close = self.bump();
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span: open.to(close.span),
        })
    }

    /// The rest of `(a; b; …)` after the expressions already read.
    fn parse_paren_block(&mut self, mut exprs: Vec<Expr>, open: Span) -> PResult<Expr> {
        while self.eat(|k| *k == TokenKind::Semicolon).is_some() {
            if self.at(&TokenKind::RParen) || self.at(&TokenKind::Semicolon) {
                continue;
            }
            exprs.push(self.parse_expr()?);
        }
        let close = self.expect(&TokenKind::RParen, "\";\" or \")\"")?;
        Ok(Expr {
            kind: ExprKind::Block(exprs),
            span: open.to(close.span),
        })
    }

    /// `[ … ]`: `[]`, `[a, b]`, `[a b; c d]`, `[a; b]`, `[f(x) for x in xs if c]`.
    pub(super) fn parse_array(&mut self) -> PResult<Expr> {
        let open = self.bump();
        let saved = self.open(self.ctx.array(), Opener::Bracket('['), open.span);
        let result = self.parse_array_contents(open.span);
        self.close(saved);
        result
    }

    fn parse_array_contents(&mut self, open: Span) -> PResult<Expr> {
        self.skip_newlines();
        if let Some(close) = self.eat(|k| *k == TokenKind::RBracket) {
            return Ok(Expr {
                kind: ExprKind::Vector(Vec::new()),
                span: open.to(close.span),
            });
        }
        let first = self.parse_element()?;
        if self.for_follows() {
            self.skip_newlines();
            let comprehension = self.parse_generator_tail(first, false)?;
            self.skip_newlines();
            let close = self.expect(&TokenKind::RBracket, "\"]\"")?;
            return Ok(Expr {
                kind: comprehension.kind,
                span: open.to(close.span),
            });
        }
        match self.peek_raw().kind {
            TokenKind::RBracket => {
                let close = self.bump();
                Ok(Expr {
                    kind: ExprKind::Vector(vec![Self::into_arg(first)]),
                    span: open.to(close.span),
                })
            }
            TokenKind::Comma => self.parse_vector(first, open),
            _ => self.parse_concat(first, open),
        }
    }

    /// One element of an array literal (possibly `xs...`).
    fn parse_element(&mut self) -> PResult<Expr> {
        let element = self.parse_no_assign()?;
        Ok(self.parse_splat(element))
    }

    /// Whether `for` comes next, newlines aside (a comprehension).
    fn for_follows(&self) -> bool {
        self.tokens[self.pos..]
            .iter()
            .find(|t| t.kind != TokenKind::Newline)
            .is_some_and(|t| t.kind == TokenKind::Keyword(Keyword::For))
    }

    /// The rest of `[a, b, …]` after its first element; newlines are insignificant.
    fn parse_vector(&mut self, first: Expr, open: Span) -> PResult<Expr> {
        self.ctx.skip_newlines = true;
        let mut items = vec![Self::into_arg(first)];
        while self.eat(|k| *k == TokenKind::Comma).is_some() {
            if self.at(&TokenKind::RBracket) {
                break;
            }
            items.push(Self::into_arg(self.parse_element()?));
        }
        let close = self.expect(&TokenKind::RBracket, "\",\" or \"]\"")?;
        Ok(Expr {
            kind: ExprKind::Vector(items),
            span: open.to(close.span),
        })
    }

    /// The rest of `[a b; c d]` after its first element: rows separated by `;` or newlines,
    /// elements by spaces.
    /// A trailing `;;` (`[1;;]`, `[x;;]`) makes the result a matrix, as `hcat` of it.
    fn parse_concat(&mut self, first: Expr, open: Span) -> PResult<Expr> {
        let mut rows = vec![vec![first]];
        let mut as_matrix = false;
        loop {
            let token = self.peek_raw().clone();
            match token.kind {
                TokenKind::RBracket => {
                    self.bump();
                    let span = open.to(token.span);
                    let concat = Expr {
                        kind: ExprKind::Concat(rows),
                        span,
                    };
                    if !as_matrix {
                        return Ok(concat);
                    }
                    let hcat = Expr {
                        kind: ExprKind::Ident(Name::new("hcat")),
                        span,
                    };
                    return Ok(Expr {
                        kind: ExprKind::Call {
                            callee: Box::new(hcat),
                            args: vec![Arg {
                                value: concat,
                                splat: false,
                            }],
                            kwargs: Vec::new(),
                            dotted: false,
                        },
                        span,
                    });
                }
                TokenKind::Semicolon | TokenKind::Newline => {
                    let next = &self.tokens[(self.pos + 1).min(self.tokens.len() - 1)];
                    let after = &self.tokens[(self.pos + 2).min(self.tokens.len() - 1)];
                    as_matrix = token.kind == TokenKind::Semicolon
                        && next.kind == TokenKind::Semicolon
                        && !next.space_before
                        && after.kind == TokenKind::RBracket;
                    self.skip_separators();
                    if !self.at(&TokenKind::RBracket) {
                        rows.push(vec![self.parse_element()?]);
                    }
                }
                TokenKind::Eof => return Err(self.eof_error()),
                TokenKind::Comma => return Err(self.unexpected(&token)),
                TokenKind::Keyword(k) if !k.starts_element() => return Err(self.unexpected(&token)),
                _ if token.space_before => {
                    let element = self.parse_element()?;
                    if let Some(row) = rows.last_mut() {
                        row.push(element);
                    }
                }
                _ => return Err(self.unexpected(&token)),
            }
        }
    }

    /// After the body of a comprehension or `generator`, at `for`: its clauses and `if` filter.
    pub(super) fn parse_generator_tail(&mut self, body: Expr, generator: bool) -> PResult<Expr> {
        self.bump();
        let saved = self.ctx;
        self.ctx = self.ctx.paren();
        let result = self.parse_generator_clauses(body, generator);
        self.ctx = saved;
        result
    }

    fn parse_generator_clauses(&mut self, body: Expr, generator: bool) -> PResult<Expr> {
        let saved = self.depth;
        let mut groups = vec![self.parse_filtered_generators()?];
        while self
            .eat(|k| *k == TokenKind::Keyword(Keyword::For))
            .is_some()
        {
            // Each nested `for` nests three levels of the tree it becomes (a call, its
            // argument, a generator: see `flattened`), which later passes walk recursively.
            for _ in 0..3 {
                self.deeper()?;
            }
            groups.push(self.parse_filtered_generators()?);
        }
        self.depth = saved;
        let end = groups.last().and_then(|(clauses, filter)| match filter {
            Some(filter) => Some(filter.span),
            None => clauses.last().map(|g| g.iter.span),
        });
        let span = body.span.to(end.unwrap_or(body.span));
        let nested = groups.len() > 1;
        let outer_filtered = groups[..groups.len() - 1].iter().any(|(_, f)| f.is_some());
        if nested && (generator || outer_filtered || groups.iter().any(|(g, _)| g.len() > 1)) {
            return Ok(flattened(body, groups, generator, span));
        }
        let filter = groups.last_mut().and_then(|(_, filter)| filter.take());
        let clauses = groups
            .into_iter()
            .flat_map(|(clauses, _)| clauses)
            .collect();
        Ok(Expr {
            span,
            kind: ExprKind::comprehension(body, clauses, filter, nested, generator),
        })
    }

    /// One group of a comprehension's clauses (`x in a, y in b`) and its `if` filter, if any.
    fn parse_filtered_generators(&mut self) -> PResult<FilteredGroup> {
        let clauses = self.parse_generators()?;
        let filter = match self.eat(|k| *k == TokenKind::Keyword(Keyword::If)) {
            Some(_) => Some(Box::new(self.parse_no_assign()?)),
            None => None,
        };
        Ok((clauses, filter))
    }

    /// `pattern in iter, pattern = iter, pattern ∈ iter, …` (of `for` loops and comprehensions).
    pub(super) fn parse_generators(&mut self) -> PResult<Vec<Generator>> {
        let mut generators = Vec::new();
        loop {
            let pattern = self.parse_pattern("a loop variable")?;
            let token = self.peek().clone();
            let is_in = matches!(
                token.kind,
                TokenKind::Keyword(Keyword::In)
                    | TokenKind::Assign {
                        op: None,
                        dotted: false
                    }
                    | TokenKind::Op {
                        op: crate::lexer::Op::In,
                        dotted: false
                    }
            );
            if !is_in {
                return Err(self.expected("\"in\", \"=\" or \"∈\"", &token));
            }
            self.bump();
            self.skip_newlines();
            let iter = self.parse_no_assign()?;
            generators.push(Generator { pattern, iter });
            if self.eat(|k| *k == TokenKind::Comma).is_none() {
                return Ok(generators);
            }
            self.skip_newlines();
        }
    }

    /// A name or a parenthesized tuple of patterns: `x`, `(i, x)`, `(a, (b, c))`.
    pub(super) fn parse_pattern(&mut self, what: &'static str) -> PResult<Pattern> {
        let token = self.peek().clone();
        match token.kind {
            TokenKind::Ident(name) => {
                self.bump();
                Ok(Pattern::Name(name))
            }
            TokenKind::LParen => {
                let base = self.enter()?;
                self.bump();
                let saved = self.open(self.ctx.paren(), Opener::Bracket('('), token.span);
                let result = self.parse_pattern_items(what);
                self.close(saved);
                self.depth = base;
                result
            }
            _ => Err(self.expected(what, &token)),
        }
    }

    /// The patterns after `(`, through the closing `)`.
    fn parse_pattern_items(&mut self, what: &'static str) -> PResult<Pattern> {
        let mut items = Vec::new();
        while self.eat(|k| *k == TokenKind::RParen).is_none() {
            items.push(self.parse_pattern(what)?);
            if self.eat(|k| *k == TokenKind::Comma).is_none() && !self.at(&TokenKind::RParen) {
                let found = self.peek().clone();
                return Err(self.expected("\",\" or \")\"", &found));
            }
        }
        Ok(Pattern::Tuple(items))
    }

    /// `@name args…` (space-separated to the end of the statement) or `@name(a, b)`.
    pub(super) fn parse_macro(&mut self, name: Name) -> PResult<Expr> {
        let at = self.bump();
        let next = self.peek_raw();
        let result = if next.kind == TokenKind::LParen && !next.space_before {
            let open = self.bump();
            let ctx = Ctx {
                in_macro: true,
                ..self.ctx.paren()
            };
            let saved = self.open(ctx, Opener::Bracket('('), open.span);
            let result = self.parse_macro_paren_args();
            self.close(saved);
            result
        } else {
            let saved = self.ctx;
            self.ctx = Ctx {
                skip_newlines: false,
                space_sensitive: true,
                ternary_then: false,
                in_macro: true,
                ..self.ctx
            };
            let result = self.parse_macro_spaced_args(at.span);
            self.ctx = saved;
            result
        };
        let (args, end) = result?;
        Ok(Expr {
            kind: ExprKind::Macro { name, args },
            span: at.span.to(end),
        })
    }

    /// `@m(a, b)` arguments after `(`, through the closing `)` (returns its span).
    fn parse_macro_paren_args(&mut self) -> PResult<(Vec<Expr>, Span)> {
        let mut args = Vec::new();
        loop {
            if let Some(close) = self.eat(|k| *k == TokenKind::RParen) {
                return Ok((args, close.span));
            }
            let arg = self.parse_expr()?;
            args.push(self.parse_splat(arg));
            if self.eat(|k| *k == TokenKind::Comma).is_none() && !self.at(&TokenKind::RParen) {
                let found = self.peek().clone();
                return Err(self.expected("\",\" or \")\"", &found));
            }
        }
    }

    /// `@m a b` arguments, to the end of the statement (returns the span of the last).
    fn parse_macro_spaced_args(&mut self, mut end: Span) -> PResult<(Vec<Expr>, Span)> {
        let mut args = Vec::new();
        while !is_macro_args_end(self.peek_raw()) {
            let arg = match self.parse_contextual_definition() {
                Some(definition) => definition?,
                None => self.parse_expr()?,
            };
            end = arg.span;
            args.push(arg);
        }
        Ok((args, end))
    }

    /// A keyword at the start of a primary expression.
    fn parse_keyword(&mut self, keyword: Keyword) -> PResult<Expr> {
        let simple = |p: &mut Self, kind| {
            let token = p.bump();
            Ok(Expr {
                kind,
                span: token.span,
            })
        };
        match keyword {
            Keyword::True => simple(self, ExprKind::Bool(true)),
            Keyword::False => simple(self, ExprKind::Bool(false)),
            Keyword::Break => simple(self, ExprKind::Break),
            Keyword::Continue => simple(self, ExprKind::Continue),
            Keyword::End if self.ctx.in_index => simple(self, ExprKind::End),
            // Arrays are 1-based, so `x[begin]` is `x[1]`.
            Keyword::Begin if self.ctx.in_index => simple(self, ExprKind::Int(1)),
            Keyword::Function => self.parse_function(),
            Keyword::If => self.parse_if(),
            Keyword::For => self.parse_for(),
            Keyword::While => self.parse_while(),
            Keyword::Try => self.parse_try(),
            Keyword::Begin => self.parse_begin(),
            Keyword::Let => self.parse_let(),
            Keyword::Return => self.parse_return(),
            Keyword::Global => self.parse_declaration(true),
            Keyword::Local => self.parse_declaration(false),
            Keyword::Using | Keyword::Import => self.parse_using(),
            Keyword::Const => self.parse_const(),
            Keyword::Struct => {
                let start = self.peek().span;
                self.parse_struct(false, start)
            }
            Keyword::Reserved(word) => {
                let span = self.peek().span;
                Err(ParseError {
                    kind: ParseErrorKind::Unsupported {
                        what: format!("\"{word}\""),
                    },
                    span,
                })
            }
            Keyword::End
            | Keyword::Else
            | Keyword::Elseif
            | Keyword::Catch
            | Keyword::Finally
            | Keyword::In
            | Keyword::Do => {
                let token = self.peek().clone();
                Err(self.unexpected(&token))
            }
        }
    }
}

/// Where space-separated macro arguments stop: the end of the statement or of the enclosing
/// bracket or block.
fn is_macro_args_end(token: &Token) -> bool {
    matches!(
        token.kind,
        TokenKind::Newline
            | TokenKind::Semicolon
            | TokenKind::Eof
            | TokenKind::RParen
            | TokenKind::RBracket
            | TokenKind::RBrace
            | TokenKind::Comma
            | TokenKind::Keyword(
                Keyword::End | Keyword::Else | Keyword::Elseif | Keyword::Catch | Keyword::Finally
            )
    )
}

/// The clauses of one `for` of a comprehension and the filter after them.
type FilteredGroup = (Vec<Generator>, Option<Box<Expr>>);

/// `(body for A if p for B … if c)` as Julia lowers it: `Iterators.flatten` of a generator over
/// the first group of clauses (filtered by its own `if`) whose elements are the generators of
/// the others, so it is lazy like any generator and each group of several clauses is a product
/// (the first clause fastest). An array comprehension of such groups is `collect` of it; one
/// whose groups are single clauses, filtered on the last only, keeps the direct form, which
/// computes the same elements in the same order.
fn flattened(body: Expr, groups: Vec<FilteredGroup>, generator: bool, span: Span) -> Expr {
    let synthesized = |kind| Expr { span, kind };
    let call = |callee: Expr, arg: Expr| {
        synthesized(ExprKind::Call {
            callee: Box::new(callee),
            args: vec![Arg {
                value: arg,
                splat: false,
            }],
            kwargs: Vec::new(),
            dotted: false,
        })
    };
    let mut groups = groups.into_iter().rev();
    let (last, filter) = groups.next().unwrap_or_default();
    let mut inner = synthesized(ExprKind::comprehension(body, last, filter, false, true));
    for (group, filter) in groups {
        let outer = synthesized(ExprKind::comprehension(inner, group, filter, false, true));
        let flatten = synthesized(ExprKind::Field {
            target: Box::new(synthesized(ExprKind::Ident(crate::name!("Iterators")))),
            field: crate::name!("flatten"),
        });
        inner = call(flatten, outer);
    }
    match generator {
        true => inner,
        false => call(synthesized(ExprKind::Ident(crate::name!("collect"))), inner),
    }
}
