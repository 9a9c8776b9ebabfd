//! Operator expressions, from assignment down to postfix calls, indexing and field access.
//!
//! Precedence, loosest first, as in Julia: assignment (`=`, `+=`, `.=`, right-associative),
//! `=>`, `?:`, `->`, `||`, `&&`, comparisons (chained: `a < b < c` is `a < b && b < c`), `|>`,
//! `:` ranges, `+ - |`, `* / ÷ % \ & ∘ ⋅`, unary `- + ! √`, `^` (right-associative, with a
//! unary operand allowed: `2^-1`), numeric literal coefficients (`2x^2` is `2 * x^2`), then
//! postfix `'`, calls, indexing, `.field`, `{…}`. The binary levels between `||` and `* /`
//! are one precedence-climbing loop ([`Parser::parse_binary`]).

use std::rc::Rc;

use super::{Opener, PResult, ParseError, ParseErrorKind, Parser};
use crate::ast::{Arg, BinOp, Expr, ExprKind, FunctionDef, Kwarg, UnaryOp};
use crate::lexer::{Keyword, Op, Token, TokenKind};
use crate::names::Name;
use crate::span::Span;

const PREC_OR: u8 = 1;
const PREC_AND: u8 = 2;
const PREC_COMPARISON: u8 = 3;
const PREC_PIPE: u8 = 4;
const PREC_RANGE: u8 = 5;
const PREC_PLUS: u8 = 6;
const PREC_TIMES: u8 = 7;

/// Element types that make `T[a, b]` a typed vector literal rather than indexing.
const ELEMENT_TYPES: &[&str] = &[
    "Float64", "Float32", "Float16", "Int", "Int64", "Int32", "Int16", "Int8", "UInt", "UInt64",
    "UInt32", "UInt16", "UInt8", "Bool", "Any", "String", "Symbol", "Number", "Real", "Integer",
    "AbstractFloat", "Char",
];

/// What a binary operator token builds.
#[derive(Debug, Clone, Copy)]
enum Binary {
    Op(BinOp),
    Or,
    And,
    Range,
    /// A comparison; chains of them become `&&`.
    Compare(Comparison),
    /// `a ⋅ b`: `dot(a, b)`.
    Dot,
}

#[derive(Debug, Clone, Copy)]
enum Comparison {
    Op(BinOp),
    /// `a isa T`: `isa(a, T)`.
    Isa,
    /// `a ∉ b`: `!(a in b)`.
    NotIn,
    /// `a ≉ b`: `!(a ≈ b)`.
    NotApprox,
}

impl<'s> Parser<'s> {
    /// A full expression without a bare tuple: assignment level.
    pub(super) fn parse_expr(&mut self) -> PResult<Expr> {
        self.parse_assignment(false)
    }

    /// `target = value`, `x += v`, `y .= f.(x)`, `f(x) = body` (a definition). With
    /// `allow_tuple` (statement level), `a, b = t` and `x = 1, 2` have bare tuples.
    pub(super) fn parse_assignment(&mut self, allow_tuple: bool) -> PResult<Expr> {
        let base = self.enter()?;
        let result = self.parse_assignment_inner(allow_tuple);
        self.depth = base;
        result
    }

    fn parse_assignment_inner(&mut self, allow_tuple: bool) -> PResult<Expr> {
        let start = self.peek_index();
        // At statement level a definition is recognized before its left side is parsed as a
        // call, which would reject parameter-only forms such as `f(x; kw...)`.
        if allow_tuple && self.short_definition_ahead(start) {
            return self.parse_short_function(allow_tuple);
        }
        let target = if allow_tuple {
            self.parse_bare_tuple()?
        } else {
            self.parse_pair()?
        };
        let TokenKind::Assign { op, dotted } = self.peek().kind else {
            return Ok(target);
        };
        if op.is_none() && !dotted && self.is_short_definition(&target, start) {
            self.pos = start;
            return self.parse_short_function(allow_tuple);
        }
        self.check_target(&target, op.is_none() && !dotted)?;
        self.bump();
        self.skip_newlines();
        let value = self.parse_assignment(allow_tuple)?;
        Ok(Expr {
            span: target.span.to(value.span),
            kind: ExprKind::Assign {
                target: Box::new(target),
                op,
                dotted,
                value: Box::new(value),
            },
        })
    }

    /// `a, b` at statement level (a tuple without parentheses), or a single expression.
    fn parse_bare_tuple(&mut self) -> PResult<Expr> {
        let first = self.parse_pair()?;
        let first = self.parse_splat(first);
        if !self.at(&TokenKind::Comma) {
            return Ok(first);
        }
        let mut items = vec![Self::into_arg(first)];
        while self.eat(|k| *k == TokenKind::Comma).is_some() {
            self.skip_newlines();
            if matches!(self.peek().kind, TokenKind::Assign { .. }) {
                break;
            }
            if self.peek().kind == TokenKind::Eof {
                return Err(self.eof_error());
            }
            let item = self.parse_pair()?;
            items.push(Self::into_arg(self.parse_splat(item)));
        }
        let span = items[0].value.span.to(items[items.len() - 1].value.span);
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }

    /// Whether the tokens from `start` read `name( … ) =`: a short function definition.
    fn short_definition_ahead(&self, start: usize) -> bool {
        let (Some(name), Some(open)) = (self.tokens.get(start), self.tokens.get(start + 1)) else {
            return false;
        };
        if !matches!(name.kind, TokenKind::Ident(_))
            || open.kind != TokenKind::LParen
            || open.space_before
        {
            return false;
        }
        let mut depth = 0usize;
        for (i, token) in self.tokens.iter().enumerate().skip(start + 1) {
            match token.kind {
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth += 1,
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return self.tokens.get(i + 1).is_some_and(|t| {
                            t.kind
                                == TokenKind::Assign {
                                    op: None,
                                    dotted: false,
                                }
                        });
                    }
                }
                TokenKind::Eof => return false,
                _ => {}
            }
        }
        false
    }

    /// A call on the left of `=` whose source starts `name(`: the short form of a definition.
    fn is_short_definition(&self, target: &Expr, start: usize) -> bool {
        let ExprKind::Call {
            callee,
            dotted: false,
            ..
        } = &target.kind
        else {
            return false;
        };
        matches!(callee.kind, ExprKind::Ident(_))
            && matches!(self.tokens[start].kind, TokenKind::Ident(_))
            && self.tokens[start + 1].kind == TokenKind::LParen
            && !self.tokens[start + 1].space_before
    }

    /// Fails unless `target` can be assigned to: a name, `x[i]`, `x.f`, or (for plain `=`) a
    /// tuple of those.
    fn check_target(&self, target: &Expr, plain: bool) -> PResult<()> {
        let ok = match &target.kind {
            ExprKind::Ident(_) | ExprKind::Index { .. } | ExprKind::Field { .. } => true,
            ExprKind::Tuple(items) if plain && !items.is_empty() => {
                for item in items {
                    if item.splat {
                        return Err(self.invalid_target(&item.value));
                    }
                    self.check_target(&item.value, true)?;
                }
                true
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.invalid_target(target))
        }
    }

    fn invalid_target(&self, target: &Expr) -> ParseError {
        ParseError {
            kind: ParseErrorKind::InvalidAssignment {
                target: self.text(target.span),
            },
            span: target.span,
        }
    }

    /// `f(x, y = 2; k = 1) = body`, parsed again from its name once `=` showed it is one.
    fn parse_short_function(&mut self, allow_tuple: bool) -> PResult<Expr> {
        let name_token = self.bump();
        let TokenKind::Ident(name) = name_token.kind else {
            return Err(self.unexpected(&name_token));
        };
        let (params, kwparams) = self.parse_params()?;
        self.expect(
            &TokenKind::Assign {
                op: None,
                dotted: false,
            },
            "\"=\"",
        )?;
        self.skip_newlines();
        let body = self.parse_assignment(allow_tuple)?;
        let span = name_token.span.to(body.span);
        Ok(Expr {
            kind: ExprKind::Function(Rc::new(FunctionDef {
                name: Some(name),
                params,
                kwparams,
                body: vec![body],
                doc: None,
                span,
            })),
            span,
        })
    }

    /// `a => b` (right-associative).
    pub(super) fn parse_pair(&mut self) -> PResult<Expr> {
        let base = self.enter()?;
        let result = self.parse_pair_inner();
        self.depth = base;
        result
    }

    fn parse_pair_inner(&mut self) -> PResult<Expr> {
        let lhs = self.parse_ternary()?;
        if self
            .eat(|k| {
                matches!(
                    k,
                    TokenKind::Op {
                        op: Op::Pair,
                        dotted: false
                    }
                )
            })
            .is_none()
        {
            return Ok(lhs);
        }
        self.skip_newlines();
        let rhs = self.parse_pair()?;
        Ok(binary_expr(BinOp::Pair, false, lhs, rhs))
    }

    /// `cond ? a : b` (right-associative: `a ? b : c ? d : e`).
    fn parse_ternary(&mut self) -> PResult<Expr> {
        let base = self.enter()?;
        let result = self.parse_ternary_inner();
        self.depth = base;
        result
    }

    fn parse_ternary_inner(&mut self) -> PResult<Expr> {
        let cond = self.parse_arrow()?;
        if self.eat(|k| *k == TokenKind::Question).is_none() {
            return Ok(cond);
        }
        self.skip_newlines();
        let ctx = super::Ctx {
            ternary_then: true,
            ..self.ctx
        };
        let then = self.with_ctx(ctx, |p| p.parse_ternary())?;
        self.expect(&TokenKind::Colon, "\":\" in a \"?\" expression")?;
        self.skip_newlines();
        let otherwise = self.parse_ternary()?;
        Ok(Expr {
            span: cond.span.to(otherwise.span),
            kind: ExprKind::Ternary {
                cond: Box::new(cond),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            },
        })
    }

    /// `x -> body`, `(x, y) -> body`, `() -> body`.
    fn parse_arrow(&mut self) -> PResult<Expr> {
        let lhs = self.parse_binary(PREC_OR)?;
        if self.eat(|k| *k == TokenKind::Arrow).is_none() {
            return Ok(lhs);
        }
        self.skip_newlines();
        let params = self.lambda_params(&lhs)?;
        let body = self.parse_expr()?;
        let span = lhs.span.to(body.span);
        Ok(Expr {
            kind: ExprKind::Lambda(Rc::new(FunctionDef {
                name: None,
                params,
                kwparams: Vec::new(),
                body: vec![body],
                doc: None,
                span,
            })),
            span,
        })
    }

    /// Binary operators of precedence `min` and above, by precedence climbing.
    fn parse_binary(&mut self, min: u8) -> PResult<Expr> {
        let base = self.enter()?;
        let result = self.parse_binary_inner(min);
        self.depth = base;
        result
    }

    fn parse_binary_inner(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.parse_unary()?;
        // The right operand of the last comparison, for chains such as `a < b < c`.
        let mut chain: Option<Expr> = None;
        loop {
            let i = self.peek_index();
            let Some((binary, prec, dotted)) = self.binary_operator(&self.tokens[i]) else {
                break;
            };
            if prec < min || self.operator_ends_element(i) {
                break;
            }
            let op_token = self.bump();
            self.skip_newlines();
            self.deeper()?;
            lhs = match binary {
                Binary::Range => self.parse_range(lhs)?,
                Binary::Compare(comparison) => {
                    let rhs = self.parse_binary(PREC_COMPARISON + 1)?;
                    let (left, and_lhs) = match chain.take() {
                        Some(middle) => (middle, Some(lhs)),
                        None => (lhs, None),
                    };
                    chain = Some(rhs.clone());
                    let compare = self.comparison(comparison, dotted, left, rhs, op_token.span);
                    match and_lhs {
                        Some(previous) => Expr {
                            span: previous.span.to(compare.span),
                            kind: ExprKind::And(Box::new(previous), Box::new(compare)),
                        },
                        None => compare,
                    }
                }
                Binary::Or | Binary::And => {
                    let rhs = self.parse_binary(prec)?;
                    let span = lhs.span.to(rhs.span);
                    let kind = if matches!(binary, Binary::Or) {
                        ExprKind::Or(Box::new(lhs), Box::new(rhs))
                    } else {
                        ExprKind::And(Box::new(lhs), Box::new(rhs))
                    };
                    Expr { kind, span }
                }
                Binary::Op(op) => {
                    let rhs = self.parse_binary(prec + 1)?;
                    binary_expr(op, dotted, lhs, rhs)
                }
                Binary::Dot => {
                    let rhs = self.parse_binary(prec + 1)?;
                    self.call2(self.names.dot, op_token.span, lhs, rhs)
                }
            };
            if !matches!(binary, Binary::Compare(_)) {
                chain = None;
            }
        }
        Ok(lhs)
    }

    /// The binary operator `token` stands for: what it builds, its precedence, and whether it
    /// is dotted.
    fn binary_operator(&self, token: &Token) -> Option<(Binary, u8, bool)> {
        let compare = |c| Some((Binary::Compare(c), PREC_COMPARISON, false));
        match token.kind {
            TokenKind::OrOr => Some((Binary::Or, PREC_OR, false)),
            TokenKind::AndAnd => Some((Binary::And, PREC_AND, false)),
            TokenKind::Colon => Some((Binary::Range, PREC_RANGE, false)),
            TokenKind::Keyword(Keyword::In) => compare(Comparison::Op(BinOp::In)),
            TokenKind::Ident(name) if name == self.names.isa => compare(Comparison::Isa),
            TokenKind::Op { op, dotted } => {
                let (binary, prec) = match op {
                    Op::Plus => (Binary::Op(BinOp::Add), PREC_PLUS),
                    Op::Minus => (Binary::Op(BinOp::Sub), PREC_PLUS),
                    Op::Bar => (Binary::Op(BinOp::BitOr), PREC_PLUS),
                    Op::Star => (Binary::Op(BinOp::Mul), PREC_TIMES),
                    Op::Slash => (Binary::Op(BinOp::Div), PREC_TIMES),
                    Op::Backslash => (Binary::Op(BinOp::LeftDiv), PREC_TIMES),
                    Op::IntDiv => (Binary::Op(BinOp::IntDiv), PREC_TIMES),
                    Op::Percent => (Binary::Op(BinOp::Rem), PREC_TIMES),
                    Op::Amp => (Binary::Op(BinOp::BitAnd), PREC_TIMES),
                    Op::Compose => (Binary::Op(BinOp::Compose), PREC_TIMES),
                    Op::CDot => (Binary::Dot, PREC_TIMES),
                    Op::Pipe => (Binary::Op(BinOp::Pipe), PREC_PIPE),
                    Op::Eq => (Binary::Compare(Comparison::Op(BinOp::Eq)), PREC_COMPARISON),
                    Op::Ne => (Binary::Compare(Comparison::Op(BinOp::Ne)), PREC_COMPARISON),
                    Op::Lt => (Binary::Compare(Comparison::Op(BinOp::Lt)), PREC_COMPARISON),
                    Op::Le => (Binary::Compare(Comparison::Op(BinOp::Le)), PREC_COMPARISON),
                    Op::Gt => (Binary::Compare(Comparison::Op(BinOp::Gt)), PREC_COMPARISON),
                    Op::Ge => (Binary::Compare(Comparison::Op(BinOp::Ge)), PREC_COMPARISON),
                    Op::Approx => (
                        Binary::Compare(Comparison::Op(BinOp::Approx)),
                        PREC_COMPARISON,
                    ),
                    Op::Identical => (
                        Binary::Compare(Comparison::Op(BinOp::Identical)),
                        PREC_COMPARISON,
                    ),
                    Op::NotIdentical => (
                        Binary::Compare(Comparison::Op(BinOp::NotIdentical)),
                        PREC_COMPARISON,
                    ),
                    Op::In => (Binary::Compare(Comparison::Op(BinOp::In)), PREC_COMPARISON),
                    Op::NotIn => (Binary::Compare(Comparison::NotIn), PREC_COMPARISON),
                    Op::NotApprox => (Binary::Compare(Comparison::NotApprox), PREC_COMPARISON),
                    Op::Caret | Op::Not | Op::Sqrt | Op::Pair => return None,
                };
                Some((binary, prec, dotted))
            }
            _ => None,
        }
    }

    /// Whether the operator at token `i` starts a new element instead of continuing this one:
    /// in `[1 -2]` and `@show x -1`, a `-` (or `+`, or `:`) with a space before and none after
    /// is a prefix; in the middle of `c ? a : b`, a `:` with a space before ends the branch.
    fn operator_ends_element(&self, i: usize) -> bool {
        let token = &self.tokens[i];
        let next_space = self.tokens.get(i + 1).is_none_or(|t| t.space_before);
        let prefix_like = matches!(
            token.kind,
            TokenKind::Op {
                op: Op::Plus | Op::Minus,
                ..
            } | TokenKind::Colon
        );
        if self.ctx.space_sensitive && token.space_before && !next_space && prefix_like {
            return true;
        }
        self.ctx.ternary_then && token.kind == TokenKind::Colon && token.space_before
    }

    /// After `start:`: the stop, or the step and the stop (`a:s:b`).
    fn parse_range(&mut self, start: Expr) -> PResult<Expr> {
        let second = self.parse_binary(PREC_PLUS)?;
        let i = self.peek_index();
        let (step, stop) = if self.tokens[i].kind == TokenKind::Colon
            && !self.operator_ends_element(i)
        {
            self.bump();
            self.skip_newlines();
            let stop = self.parse_binary(PREC_PLUS)?;
            (Some(Box::new(second)), stop)
        } else {
            (None, second)
        };
        Ok(Expr {
            span: start.span.to(stop.span),
            kind: ExprKind::Range {
                start: Box::new(start),
                step,
                stop: Box::new(stop),
            },
        })
    }

    /// One comparison `lhs op rhs`, with `isa`, `∉`, `≉` spelled with calls and negations.
    fn comparison(
        &self,
        comparison: Comparison,
        dotted: bool,
        lhs: Expr,
        rhs: Expr,
        op_span: Span,
    ) -> Expr {
        match comparison {
            Comparison::Op(op) => binary_expr(op, dotted, lhs, rhs),
            Comparison::Isa => self.call2(self.names.isa, op_span, lhs, rhs),
            Comparison::NotIn | Comparison::NotApprox => {
                let op = if matches!(comparison, Comparison::NotIn) {
                    BinOp::In
                } else {
                    BinOp::Approx
                };
                let inner = binary_expr(op, dotted, lhs, rhs);
                Expr {
                    span: inner.span,
                    kind: ExprKind::Unary {
                        op: UnaryOp::Not,
                        dotted,
                        operand: Box::new(inner),
                    },
                }
            }
        }
    }

    /// `name(lhs, rhs)`, for operators spelled as calls (`isa`, `⋅`).
    fn call2(&self, name: Name, op_span: Span, lhs: Expr, rhs: Expr) -> Expr {
        let span = lhs.span.to(rhs.span);
        Expr {
            kind: ExprKind::Call {
                callee: Box::new(Expr {
                    kind: ExprKind::Ident(name),
                    span: op_span,
                }),
                args: vec![
                    Arg {
                        value: lhs,
                        splat: false,
                    },
                    Arg {
                        value: rhs,
                        splat: false,
                    },
                ],
                kwargs: Vec::new(),
                dotted: false,
            },
            span,
        }
    }

    /// `-x`, `+x`, `!x`, `√x`, `.-x`: binds looser than `^` (`-x^2` is `-(x^2)`).
    fn parse_unary(&mut self) -> PResult<Expr> {
        let Some((op, dotted)) = self.prefix_operator() else {
            return self.parse_power();
        };
        let base = self.enter()?;
        let op_token = self.bump();
        let operand = self.parse_unary();
        self.depth = base;
        let operand = operand?;
        Ok(Expr {
            span: op_token.span.to(operand.span),
            kind: ExprKind::Unary {
                op,
                dotted,
                operand: Box::new(operand),
            },
        })
    }

    /// The unary operator at the next token, unless it is an operator used as a value
    /// (`reduce(+, x)`).
    fn prefix_operator(&self) -> Option<(UnaryOp, bool)> {
        let TokenKind::Op { op, dotted } = self.peek().kind else {
            return None;
        };
        let unary = match op {
            Op::Minus => UnaryOp::Neg,
            Op::Plus => UnaryOp::Plus,
            Op::Not => UnaryOp::Not,
            Op::Sqrt => UnaryOp::Sqrt,
            _ => return None,
        };
        (!self.operator_is_value()).then_some((unary, dotted))
    }

    /// Whether the operator at the next token stands alone as a function value: followed by
    /// `,` or `)` as in `reduce(+, x)` or `map(-, v)`.
    pub(super) fn operator_is_value(&self) -> bool {
        matches!(
            self.peek_second().kind,
            TokenKind::Comma | TokenKind::RParen
        )
    }

    /// `a ^ b`, right-associative, with a unary operator allowed in the exponent: `10^-3`.
    fn parse_power(&mut self) -> PResult<Expr> {
        let base = self.parse_juxtapose()?;
        let Some(TokenKind::Op {
            op: Op::Caret,
            dotted,
        }) = self
            .eat(|k| matches!(k, TokenKind::Op { op: Op::Caret, .. }))
            .map(|t| t.kind)
        else {
            return Ok(base);
        };
        self.skip_newlines();
        let exponent = self.parse_power_operand()?;
        Ok(binary_expr(BinOp::Pow, dotted, base, exponent))
    }

    fn parse_power_operand(&mut self) -> PResult<Expr> {
        let depth = self.enter()?;
        let result = match self.prefix_operator() {
            Some((op, dotted)) => {
                let op_token = self.bump();
                self.parse_power_operand().map(|operand| Expr {
                    span: op_token.span.to(operand.span),
                    kind: ExprKind::Unary {
                        op,
                        dotted,
                        operand: Box::new(operand),
                    },
                })
            }
            None => self.parse_power(),
        };
        self.depth = depth;
        result
    }

    /// A numeric literal right before a name or `(`: `2x`, `3(x + 1)`, `2x^2` (which is
    /// `2 * x^2`, the coefficient binding looser than `^`); otherwise a postfix expression.
    fn parse_juxtapose(&mut self) -> PResult<Expr> {
        let kind = match self.peek().kind {
            TokenKind::Int(v) => ExprKind::Int(v),
            TokenKind::Float(v) => ExprKind::Float(v),
            _ => {
                let primary = self.parse_primary()?;
                return self.parse_postfix(primary);
            }
        };
        let literal = Expr {
            kind,
            span: self.bump().span,
        };
        let next = self.peek_raw();
        if next.space_before || !matches!(next.kind, TokenKind::Ident(_) | TokenKind::LParen) {
            return self.parse_postfix(literal);
        }
        let coefficient = self.parse_power()?;
        Ok(binary_expr(BinOp::Mul, false, literal, coefficient))
    }

    /// Calls `f(x)`, dotted calls `f.(x)`, indexing `x[i]`, fields `a.b`, curly braces
    /// `T{P}`, adjoints `x'`, after a primary expression.
    fn parse_postfix(&mut self, mut expr: Expr) -> PResult<Expr> {
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
                    break Err(ParseError {
                        kind: ParseErrorKind::Unsupported {
                            what: "type annotations (\"::\")".into(),
                        },
                        span: token.span,
                    });
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
    fn parse_call(&mut self, callee: Expr, dotted: bool) -> PResult<Expr> {
        let open = self.bump();
        let ctx = self.ctx.paren();
        let (args, kwargs, close) = self.with_ctx(ctx, |p| {
            p.with_opener(Opener::Bracket('('), open.span, |p| p.parse_call_args())
        })?;
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
                    value: self.parse_generator_tail(expr)?,
                    splat: false,
                });
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

    /// A keyword argument after `;`: `k = v`, or `k` meaning `k = k`.
    fn keyword_after_semicolon(&self, expr: Expr) -> PResult<Kwarg> {
        if let ExprKind::Ident(name) = expr.kind {
            return Ok(Kwarg { name, value: expr });
        }
        let span = expr.span;
        keyword_argument(expr).map_err(|_| ParseError {
            kind: ParseErrorKind::InvalidKeyword {
                text: self.text(span),
            },
            span,
        })
    }

    /// `target[ … ]` with the `[` next; `Float64[ … ]` (a known element type) is a typed
    /// vector literal instead.
    fn parse_index(&mut self, target: Expr) -> PResult<Expr> {
        if let ExprKind::Ident(name) = target.kind {
            if ELEMENT_TYPES.contains(&name.as_str()) {
                return self.parse_typed_vector(name, target.span);
            }
        }
        let open = self.bump();
        let ctx = super::Ctx {
            in_index: true,
            ..self.ctx.paren()
        };
        let (indices, close) = self.with_ctx(ctx, |p| {
            p.with_opener(Opener::Bracket('['), open.span, |p| {
                let mut indices = Vec::new();
                loop {
                    if let Some(close) = p.eat(|k| *k == TokenKind::RBracket) {
                        return Ok((indices, close.span));
                    }
                    let index = p.parse_pair()?;
                    indices.push(p.parse_splat(index));
                    if p.eat(|k| *k == TokenKind::Comma).is_none() && !p.at(&TokenKind::RBracket)
                    {
                        let found = p.peek().clone();
                        return Err(p.expected("\",\" or \"]\"", &found));
                    }
                }
            })
        })?;
        Ok(Expr {
            span: target.span.to(close),
            kind: ExprKind::Index {
                target: Box::new(target),
                indices,
            },
        })
    }

    /// `T[a, b]`, `T[]` for an element type `T`.
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
            ExprKind::Comprehension { .. } => Err(unsupported("typed comprehensions")),
            _ => Err(unsupported("typed matrix literals")),
        }
    }

    /// `Name{P, Q}` with the `{` next.
    fn parse_curly(&mut self, target: Expr) -> PResult<Expr> {
        let open = self.bump();
        let ExprKind::Ident(name) = target.kind else {
            return Err(self.unexpected(&open));
        };
        let ctx = self.ctx.paren();
        let (params, close) = self.with_ctx(ctx, |p| {
            p.with_opener(Opener::Bracket('{'), open.span, |p| {
                let mut params = Vec::new();
                loop {
                    if let Some(close) = p.eat(|k| *k == TokenKind::RBrace) {
                        return Ok((params, close.span));
                    }
                    params.push(p.parse_pair()?);
                    if p.eat(|k| *k == TokenKind::Comma).is_none() && !p.at(&TokenKind::RBrace) {
                        let found = p.peek().clone();
                        return Err(p.expected("\",\" or \"}\"", &found));
                    }
                }
            })
        })?;
        Ok(Expr {
            span: target.span.to(close),
            kind: ExprKind::Curly { name, params },
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
            _ => Err(self.expected("a field name after \".\"", &next)),
        }
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

fn binary_expr(op: BinOp, dotted: bool, lhs: Expr, rhs: Expr) -> Expr {
    Expr {
        span: lhs.span.to(rhs.span),
        kind: ExprKind::Binary {
            op,
            dotted,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
    }
}
