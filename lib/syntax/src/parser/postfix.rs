//! Postfix forms after a primary expression: calls `f(x; k = 1)`, dotted calls `f.(x)`,
//! indexing `x[i, end]`, typed vector literals `Float64[1, 2]`, fields `a.b`, curly braces
//! `Scenario{:gradient}` and adjoints `x'`.
//!
//! They bind tighter than every operator and chain left to right (`a.b(c)[d]'`).

use super::{Ctx, Opener, PResult, ParseError, ParseErrorKind, Parser};
use crate::ast::{Arg, Expr, ExprKind, FunctionDef, Kwarg};
use crate::lexer::{Keyword, TokenKind};
use crate::names::Name;
use crate::span::Span;

/// Element types that make `T[a, b]` a typed vector literal rather than indexing.
const ELEMENT_TYPES: &[&str] = &[
    "Float64",
    "Float32",
    "Float16",
    "Int",
    "Int64",
    "Int32",
    "Int16",
    "Int8",
    "UInt",
    "UInt64",
    "UInt32",
    "UInt16",
    "UInt8",
    "Bool",
    "Any",
    "String",
    "AbstractString",
    "Char",
    "AbstractChar",
    "Symbol",
    "Number",
    "Real",
    "Integer",
    "AbstractFloat",
    "Char",
];

impl<'s> Parser<'s> {
    /// Calls, dotted calls, indexing, fields, curly braces and adjoints after `expr`.
    pub(super) fn parse_postfix(&mut self, mut expr: Expr) -> PResult<Expr> {
        let base = self.depth;
        let result = loop {
            let token = self.peek_raw();
            let attached = !token.space_before;
            let step = match token.kind {
                TokenKind::LParen if attached => self.parse_call(expr, false),
                TokenKind::LParen if !self.ctx.space_sensitive => {
                    break Err(ParseError {
                        kind: ParseErrorKind::SpaceBeforeParen {
                            callee: self.text(expr.span),
                        },
                        span: token.span,
                    });
                }
                TokenKind::LBracket if attached || !self.ctx.space_sensitive => {
                    self.parse_index(expr)
                }
                TokenKind::LBrace if attached => self.parse_curly(expr),
                TokenKind::Dot if attached => self.parse_field(expr),
                TokenKind::Quote => {
                    let quote = self.bump();
                    Ok(Expr {
                        span: expr.span.to(quote.span),
                        kind: ExprKind::Adjoint(Box::new(expr)),
                    })
                }
                TokenKind::ColonColon => {
                    self.bump();
                    self.parse_type().map(|ty| Expr {
                        span: expr.span.to(ty.span),
                        kind: ExprKind::TypeAssert {
                            value: Box::new(expr),
                            ty: Box::new(ty),
                        },
                    })
                }
                TokenKind::Keyword(Keyword::Do) if matches!(expr.kind, ExprKind::Call { .. }) => {
                    self.parse_do(expr)
                }
                _ => break Ok(expr),
            };
            expr = match step {
                Ok(expr) => expr,
                Err(error) => break Err(error),
            };
            if let Err(error) = self.deeper() {
                break Err(error);
            }
        };
        self.depth = base;
        result
    }

    /// `callee( … )` with the `(` next: positional, keyword (`k = v` anywhere, or after `;`,
    /// where a bare `k` means `k = k`) and splatted arguments, or one generator
    /// (`sum(x^2 for x in xs)`, a comprehension argument).
    #[inline(never)]
    fn parse_call(&mut self, callee: Expr, dotted: bool) -> PResult<Expr> {
        let open = self.bump();
        let saved = self.open(self.ctx.paren(), Opener::Bracket('('), open.span);
        let result = self.parse_call_args();
        self.close(saved);
        let (args, kwargs, close) = result?;
        Ok(Expr {
            span: callee.span.to(close),
            kind: ExprKind::Call {
                callee: Box::new(callee),
                args,
                kwargs,
                dotted,
            },
        })
    }

    /// The arguments of a call, after `(`, through the closing `)` (returns its span).
    fn parse_call_args(&mut self) -> PResult<(Vec<Arg>, Vec<Kwarg>, Span)> {
        let mut args = Vec::new();
        let mut kwargs = Vec::new();
        let mut after_semicolon = false;
        loop {
            if let Some(close) = self.eat(|k| *k == TokenKind::RParen) {
                return Ok((args, kwargs, close.span));
            }
            if self.at(&TokenKind::Semicolon) && !after_semicolon {
                self.bump();
                after_semicolon = true;
                continue;
            }
            let first = args.is_empty() && kwargs.is_empty();
            let expr = self.parse_expr()?;
            if first && self.at_keyword(Keyword::For) {
                args.push(Arg {
                    value: self.parse_generator_tail(expr, true)?,
                    splat: false,
                });
                // `sum(x^2 for x in v; init=0.0)`: keywords may follow the generator.
                if self.at(&TokenKind::Semicolon) {
                    continue;
                }
                let close = self.expect(&TokenKind::RParen, "\")\"")?;
                return Ok((args, kwargs, close.span));
            }
            let expr = self.parse_splat(expr);
            if after_semicolon {
                kwargs.push(self.keyword_after_semicolon(expr)?);
            } else {
                match keyword_argument(expr) {
                    Ok(kwarg) => kwargs.push(kwarg),
                    Err(expr) => args.push(Self::into_arg(expr)),
                }
            }
            match self.peek().kind {
                TokenKind::Comma => {
                    self.bump();
                }
                TokenKind::RParen => {}
                TokenKind::Semicolon if !after_semicolon => {}
                _ => {
                    let found = self.peek().clone();
                    return Err(self.expected("\",\" or \")\"", &found));
                }
            }
        }
    }

    /// A keyword argument after `;`: `k = v`, or `k` meaning `k = k`, or `x.k` meaning
    /// `k = x.k`.
    fn keyword_after_semicolon(&self, expr: Expr) -> PResult<Kwarg> {
        match expr.kind {
            ExprKind::Ident(name) | ExprKind::Field { field: name, .. } => {
                return Ok(Kwarg {
                    name,
                    value: expr,
                    splat: false,
                })
            }
            ExprKind::Splat(inner) => {
                return Ok(Kwarg {
                    name: Name::new("..."),
                    value: *inner,
                    splat: true,
                })
            }
            _ => {}
        }
        let span = expr.span;
        keyword_argument(expr).map_err(|_| ParseError {
            kind: ParseErrorKind::InvalidKeyword {
                text: self.text(span),
            },
            span,
        })
    }

    /// `target[ … ]` with the `[` next, where `end` is the last index and a lone `:` every
    /// index; `Float64[ … ]` (a known element type) is a typed vector literal instead.
    #[inline(never)]
    fn parse_index(&mut self, target: Expr) -> PResult<Expr> {
        if let ExprKind::Ident(name) = target.kind {
            if ELEMENT_TYPES.contains(&name.as_str()) {
                return self.parse_typed_vector(name, target.span);
            }
        }
        let open = self.bump();
        let ctx = Ctx {
            in_index: true,
            ..self.ctx.paren()
        };
        let saved = self.open(ctx, Opener::Bracket('['), open.span);
        let result = self.parse_indices();
        self.close(saved);
        let (indices, close) = result?;
        Ok(Expr {
            span: target.span.to(close),
            kind: ExprKind::Index {
                target: Box::new(target),
                indices,
            },
        })
    }

    /// The indices after `[`, through the closing `]` (returns its span).
    fn parse_indices(&mut self) -> PResult<(Vec<Expr>, Span)> {
        let mut indices = Vec::new();
        loop {
            if let Some(close) = self.eat(|k| *k == TokenKind::RBracket) {
                return Ok((indices, close.span));
            }
            let index = self.parse_no_assign()?;
            indices.push(self.parse_splat(index));
            if self.eat(|k| *k == TokenKind::Comma).is_none() && !self.at(&TokenKind::RBracket) {
                let found = self.peek().clone();
                return Err(self.expected("\",\" or \"]\"", &found));
            }
        }
    }

    /// `T[a, b]`, `T[]`, `T[1 2; 3 4]`, `T[f(i) for i in 1:n]` for an element type `T`.
    fn parse_typed_vector(&mut self, eltype: Name, start: Span) -> PResult<Expr> {
        let literal = self.parse_array()?;
        let span = start.to(literal.span);
        let unsupported = |what: &str| ParseError {
            kind: ParseErrorKind::Unsupported { what: what.into() },
            span,
        };
        match literal.kind {
            ExprKind::Vector(items) => {
                let mut elements = Vec::with_capacity(items.len());
                for item in items {
                    if item.splat {
                        return Err(unsupported("splatting in a typed array literal"));
                    }
                    elements.push(item.value);
                }
                Ok(Expr {
                    kind: ExprKind::TypedVector { eltype, elements },
                    span,
                })
            }
            ExprKind::Concat(_) | ExprKind::Comprehension { .. } => Ok(Expr {
                kind: ExprKind::TypedLiteral {
                    eltype,
                    literal: Box::new(literal),
                },
                span,
            }),
            _ => Err(unsupported("this typed array literal")),
        }
    }

    /// `Name{P, Q}` with the `{` next.
    #[inline(never)]
    fn parse_curly(&mut self, target: Expr) -> PResult<Expr> {
        let open = self.bump();
        let ExprKind::Ident(name) = target.kind else {
            return Err(self.unexpected(&open));
        };
        let saved = self.open(self.ctx.paren(), Opener::Bracket('{'), open.span);
        let result = self.parse_curly_params();
        self.close(saved);
        let (params, close) = result?;
        Ok(Expr {
            span: target.span.to(close),
            kind: ExprKind::Curly { name, params },
        })
    }

    /// The parameters after `{`, through the closing `}` (returns its span).
    fn parse_curly_params(&mut self) -> PResult<(Vec<Expr>, Span)> {
        let mut params = Vec::new();
        loop {
            if let Some(close) = self.eat(|k| *k == TokenKind::RBrace) {
                return Ok((params, close.span));
            }
            params.push(self.parse_curly_param()?);
            if self.eat(|k| *k == TokenKind::Comma).is_none() && !self.at(&TokenKind::RBrace) {
                let found = self.peek().clone();
                return Err(self.expected("\",\" or \"}\"", &found));
            }
        }
    }

    /// One parameter of `Name{…}`; `<:Real` (any subtype of `Real`, Julia's shorthand for
    /// `Name{T} where T <: Real`) is a subtype test with `nothing` on the left.
    fn parse_curly_param(&mut self) -> PResult<Expr> {
        let next = self.peek_raw().clone();
        if !matches!(
            next.kind,
            TokenKind::Op {
                op: crate::lexer::Op::Subtype,
                ..
            }
        ) {
            return self.parse_no_assign();
        }
        self.bump();
        let bound = self.parse_type()?;
        Ok(Expr {
            span: next.span.to(bound.span),
            kind: ExprKind::Binary {
                op: crate::ast::BinOp::Subtype,
                dotted: false,
                lhs: Box::new(Expr {
                    kind: ExprKind::Nothing,
                    span: next.span,
                }),
                rhs: Box::new(bound),
            },
        })
    }

    /// `.name` (field access) or `.( … )` (a dotted call) with the `.` next.
    fn parse_field(&mut self, target: Expr) -> PResult<Expr> {
        self.bump();
        let next = self.peek_raw().clone();
        match next.kind {
            TokenKind::Ident(field) if !next.space_before => {
                self.bump();
                Ok(Expr {
                    span: target.span.to(next.span),
                    kind: ExprKind::Field {
                        target: Box::new(target),
                        field,
                    },
                })
            }
            TokenKind::LParen if !next.space_before => self.parse_call(target, true),
            // `Base.@kwdef`: a macro named through its module.
            TokenKind::Macro(name)
                if !next.space_before && matches!(target.kind, ExprKind::Ident(_)) =>
            {
                self.parse_macro(name)
            }
            // `Base.:+`, `Base.:(==)`: an operator of a module.
            TokenKind::Colon if !next.space_before => {
                self.bump();
                let (field, end) = self.quoted_operator()?;
                Ok(Expr {
                    span: target.span.to(end),
                    kind: ExprKind::Field {
                        target: Box::new(target),
                        field,
                    },
                })
            }
            _ => Err(self.expected("a field name after \".\"", &next)),
        }
    }

    /// The operator after `Module.:`, bare (`+`) or in parentheses (`(==)`), with the span's
    /// end.
    pub(super) fn quoted_operator(&mut self) -> PResult<(Name, Span)> {
        let parenthesized =
            self.peek_raw().kind == TokenKind::LParen && !self.peek_raw().space_before;
        if parenthesized {
            self.bump();
        }
        let op = self.peek_raw().clone();
        if !matches!(op.kind, TokenKind::Op { dotted: false, .. }) || op.space_before {
            return Err(self.expected("an operator after \".:\"", &op));
        }
        self.bump();
        let name = Name::new(&self.text(op.span));
        if !parenthesized {
            return Ok((name, op.span));
        }
        let close = self.peek_raw().clone();
        if close.kind != TokenKind::RParen {
            return Err(self.expected("\")\" after the operator", &close));
        }
        self.bump();
        Ok((name, close.span))
    }

    /// A type after `::` or `<:`: a name, `Module.Name`, with `{parameters}`, or a string
    /// macro naming one (`::MIME"text/plain"`).
    pub(super) fn parse_type(&mut self) -> PResult<Expr> {
        let token = self.peek_raw().clone();
        if let TokenKind::PrefixedStr { .. } = token.kind {
            return self.parse_primary();
        }
        let TokenKind::Ident(name) = token.kind else {
            return Err(self.expected("a type name", &token));
        };
        self.bump();
        let mut ty = Expr {
            kind: ExprKind::Ident(name),
            span: token.span,
        };
        loop {
            let next = self.peek_raw().clone();
            ty = match next.kind {
                TokenKind::LBrace if !next.space_before => self.parse_curly(ty)?,
                TokenKind::Dot if !next.space_before => self.parse_field(ty)?,
                _ => return Ok(ty),
            };
        }
    }

    /// `call(args) do x, y … end`: the block is a function passed as the call's first argument.
    fn parse_do(&mut self, call: Expr) -> PResult<Expr> {
        let lambda = self.parse_block_construct("do", |p, keyword: Span| {
            let mut params = Vec::new();
            while !matches!(
                p.peek_raw().kind,
                TokenKind::Newline | TokenKind::Semicolon | TokenKind::Eof
            ) {
                let param = p.parse_no_assign()?;
                // `do (a, b)` is one argument taken apart, as `do x` is one taken whole;
                // `do a, b` is two.
                if let ExprKind::Tuple(_) = param.kind {
                    params.push(p.arg_param(&Arg {
                        value: param,
                        splat: false,
                    })?);
                } else {
                    params.extend(p.lambda_params(&param)?);
                }
                if p.eat(|k| *k == TokenKind::Comma).is_none() {
                    break;
                }
            }
            let body = p.parse_block(&[Keyword::End])?;
            let end = p.bump();
            Ok(FunctionDef::lambda(
                params,
                Vec::new(),
                body,
                keyword.to(end.span),
            ))
        })?;
        let span = call.span.to(lambda.span);
        let ExprKind::Call {
            callee,
            mut args,
            kwargs,
            dotted,
        } = call.kind
        else {
            unreachable!("parse_do is entered after a call")
        };
        args.insert(
            0,
            Arg {
                value: lambda,
                splat: false,
            },
        );
        Ok(Expr {
            span,
            kind: ExprKind::Call {
                callee,
                args,
                kwargs,
                dotted,
            },
        })
    }
}

/// `name = value` as a keyword argument; anything else is given back.
fn keyword_argument(expr: Expr) -> Result<Kwarg, Expr> {
    let span = expr.span;
    match expr.kind {
        ExprKind::Assign {
            target,
            op: None,
            dotted: false,
            value,
        } => match target.kind {
            ExprKind::Ident(name) => Ok(Kwarg {
                splat: false,
                name,
                value: *value,
            }),
            kind => Err(Expr {
                kind: ExprKind::Assign {
                    target: Box::new(Expr {
                        kind,
                        span: target.span,
                    }),
                    op: None,
                    dotted: false,
                    value,
                },
                span,
            }),
        },
        kind => Err(Expr { kind, span }),
    }
}
