//! Operator expressions: assignment, then every binary, ternary and unary operator.
//!
//! Precedence, loosest first, as in Julia: assignment (`=`, `+=`, `.=`, right-associative),
//! `=>` (right), `?:` (right), `->`, `||`, `&&`, comparisons (chained: `a < b < c` is
//! `a < b && b < c`), `|>`, `:` ranges, `+ - |`, `* / ÷ % \ & ∘ ⋅`, unary `- + ! √`, `^`
//! (right, with a unary operand allowed: `2^-1`), numeric literal coefficients (`2x^2` is
//! `2 * x^2`). Everything from `=>` to `* /` is one precedence-climbing loop
//! ([`Parser::parse_binary`]), which keeps the parser's stack shallow per nesting level.
//! Postfix forms (calls, indexing, fields) are in [`super::postfix`].

use std::rc::Rc;

use super::{PResult, ParseError, ParseErrorKind, Parser};
use crate::ast::{Arg, BinOp, Expr, ExprKind, FunctionDef, TypeVar, UnaryOp};
use crate::lexer::{Keyword, Op, Token, TokenKind};
use crate::names::Name;
use crate::span::Span;

const PREC_LOWEST: u8 = 0;
const PREC_PAIR: u8 = 1;
const PREC_TERNARY: u8 = 2;
const PREC_ARROW: u8 = 3;
const PREC_OR: u8 = 4;
const PREC_AND: u8 = 5;
const PREC_COMPARISON: u8 = 6;
const PREC_PIPE: u8 = 7;
const PREC_RANGE: u8 = 8;
const PREC_PLUS: u8 = 9;
const PREC_TIMES: u8 = 10;

/// What a binary operator token builds.
#[derive(Debug, Clone, Copy)]
enum Binary {
    Op(BinOp),
    Or,
    And,
    Range,
    /// A comparison; chains of them become `&&`.
    Compare(Comparison),
    /// An operator that calls a function: `a ⋅ b` is `dot(a, b)`, `a ∪ b` is `union(a, b)`.
    Call(Name),
    /// `c ? a : b`.
    Ternary,
    /// `params -> body`.
    Arrow,
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

    /// An expression without assignment: `=>` level (arguments of `for`, `if`, indices).
    pub(super) fn parse_no_assign(&mut self) -> PResult<Expr> {
        self.parse_binary(PREC_LOWEST)
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
        // A definition is recognized from its tokens before its left side could be parsed as
        // a call: a call would reject parameter-only forms such as `f(x; kw...)`, and parsing
        // it twice (as a call, then as a signature) could take exponential time when nested.
        if self.short_definition_ahead(self.peek_index()) {
            return self.parse_short_function(allow_tuple);
        }
        let target = if allow_tuple {
            self.parse_bare_tuple()?
        } else {
            self.parse_no_assign()?
        };
        let TokenKind::Assign { op, dotted } = self.peek().kind else {
            return Ok(target);
        };
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
        let first = self.parse_no_assign()?;
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
            let item = self.parse_no_assign()?;
            items.push(Self::into_arg(self.parse_splat(item)));
        }
        let span = items[0].value.span.to(items[items.len() - 1].value.span);
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }

    /// Whether the tokens from `start` read `head( … ) =`: a short function definition, where
    /// the head is a name, an operator, `Module.name`, `Module.:op`, `Module.:(op)` or `(x::T)`.
    fn short_definition_ahead(&self, start: usize) -> bool {
        let Some(first) = self.tokens.get(start) else {
            return false;
        };
        let open = match first.kind {
            TokenKind::Ident(_) => {
                let dot = self.tokens.get(start + 1);
                if dot.is_some_and(|t| t.kind == TokenKind::Dot && !t.space_before) {
                    match self.tokens.get(start + 2).map(|t| &t.kind) {
                        Some(TokenKind::Ident(_)) => start + 3,
                        // `Module.:(op)`: the operator in parentheses.
                        Some(TokenKind::Colon)
                            if self.tokens.get(start + 3).map(|t| &t.kind)
                                == Some(&TokenKind::LParen) =>
                        {
                            self.closing[start + 3] as usize + 1
                        }
                        Some(TokenKind::Colon) => start + 4,
                        _ => return false,
                    }
                } else {
                    start + 1
                }
            }
            TokenKind::Op { dotted: false, .. } => start + 1,
            TokenKind::LParen if self.callable_head_ahead(start) => {
                self.closing[start] as usize + 1
            }
            _ => return false,
        };
        let Some(paren) = self.tokens.get(open) else {
            return false;
        };
        if paren.kind != TokenKind::LParen || paren.space_before {
            return false;
        }
        let close = self.closing[open] as usize;
        let assign = self.after_where(self.after_return_type(close + 1));
        self.tokens.get(assign).is_some_and(|t| {
            t.kind
                == TokenKind::Assign {
                    op: None,
                    dotted: false,
                }
        })
    }

    /// The index of the token after a return type annotation starting at `i` (`::T`,
    /// `::Module.T`, `::T{…}`; `i` itself when there is none).
    fn after_return_type(&self, i: usize) -> usize {
        if self.tokens.get(i).map(|t| &t.kind) != Some(&TokenKind::ColonColon) {
            return i;
        }
        let kind = |j: usize| self.tokens.get(j).map(|t| &t.kind);
        let mut j = i + 1;
        while matches!(kind(j), Some(TokenKind::Ident(_))) {
            j += 1;
            if kind(j) == Some(&TokenKind::LBrace) {
                j = self.closing[j] as usize + 1;
            }
            if kind(j) != Some(&TokenKind::Dot) {
                break;
            }
            j += 1;
        }
        j
    }

    /// `::T` after a function's parameters: its declared return type.
    pub(super) fn parse_return_type(&mut self) -> PResult<Option<Box<Expr>>> {
        if self.peek_raw().kind != TokenKind::ColonColon {
            return Ok(None);
        }
        self.bump();
        Ok(Some(Box::new(self.parse_type()?)))
    }

    /// The index of the token after a `where` clause starting at `i` (`i` itself when there is
    /// none): `where {…}`, or `where T` with an optional `<: Bound` on one line.
    fn after_where(&self, i: usize) -> usize {
        let is_where = |t: &Token| matches!(t.kind, TokenKind::Ident(w) if w.as_str() == "where");
        if !self.tokens.get(i).is_some_and(is_where) {
            return i;
        }
        let mut j = i + 1;
        if self
            .tokens
            .get(j)
            .is_some_and(|t| t.kind == TokenKind::LBrace)
        {
            return self.closing[j] as usize + 1;
        }
        while let Some(t) = self.tokens.get(j) {
            match t.kind {
                TokenKind::Ident(_)
                | TokenKind::Dot
                | TokenKind::Op {
                    op: Op::Subtype, ..
                } => j += 1,
                TokenKind::LBrace => j = self.closing[j] as usize + 1,
                _ => break,
            }
        }
        j
    }

    /// A `where` clause after a method's parameters, if any: `where T`, `where T <: Real`,
    /// `where {T, S <: AbstractVector{T}}`.
    pub(super) fn parse_where(&mut self) -> PResult<Vec<TypeVar>> {
        let next = self.peek_raw().clone();
        if !matches!(next.kind, TokenKind::Ident(w) if w.as_str() == "where") {
            return Ok(Vec::new());
        }
        self.bump();
        let braced = self.peek_raw().kind == TokenKind::LBrace;
        let items = if braced {
            let open = self.bump();
            let saved = self.open(self.ctx.paren(), super::Opener::Bracket('{'), open.span);
            let result = self.parse_where_list();
            self.close(saved);
            result?
        } else {
            vec![self.parse_binary(PREC_COMPARISON)?]
        };
        items.iter().map(|item| self.type_var(item)).collect()
    }

    fn parse_where_list(&mut self) -> PResult<Vec<Expr>> {
        let mut items = Vec::new();
        while self.eat(|k| *k == TokenKind::RBrace).is_none() {
            items.push(self.parse_no_assign()?);
            if self.eat(|k| *k == TokenKind::Comma).is_none() && !self.at(&TokenKind::RBrace) {
                let found = self.peek().clone();
                return Err(self.expected("\",\" or \"}\"", &found));
            }
        }
        Ok(items)
    }

    /// `T` or `T <: Bound` as a type variable.
    fn type_var(&self, item: &Expr) -> PResult<TypeVar> {
        match &item.kind {
            ExprKind::Ident(name) => Ok(TypeVar {
                name: *name,
                bound: None,
            }),
            ExprKind::Binary {
                op: BinOp::Subtype,
                lhs,
                rhs,
                ..
            } => match lhs.kind {
                ExprKind::Ident(name) => Ok(TypeVar {
                    name,
                    bound: Some((**rhs).clone()),
                }),
                _ => Err(self.not_a_type_var(item)),
            },
            _ => Err(self.not_a_type_var(item)),
        }
    }

    fn not_a_type_var(&self, item: &Expr) -> ParseError {
        ParseError {
            kind: ParseErrorKind::Unsupported {
                what: format!("\"{}\" as a type variable", self.text(item.span)),
            },
            span: item.span,
        }
    }

    /// Fails unless `target` can be assigned to: a name, `x[i]`, `x.f`, or (for plain `=`) a
    /// tuple of those whose last may be `name...`, or `(; a, b)`.
    fn check_target(&self, target: &Expr, plain: bool) -> PResult<()> {
        let ok = match &target.kind {
            ExprKind::Ident(_) | ExprKind::Index { .. } | ExprKind::Field { .. } => true,
            // `x::Float64 = 1`: a variable declared with a type (the value is converted).
            ExprKind::TypeAssert { value, .. } if plain => {
                matches!(value.kind, ExprKind::Ident(_))
            }
            // `(; a, b) = x`: each name from the property of the same name.
            ExprKind::Tuple(items) if plain && crate::ast::is_property_destructuring(items) => true,
            ExprKind::Tuple(items) if plain && !items.is_empty() => {
                let last = items.len() - 1;
                for (k, item) in items.iter().enumerate() {
                    // `a, rest... = xs` gathers the remaining values into the last name.
                    let slurps = k == last && matches!(item.value.kind, ExprKind::Ident(_));
                    if item.splat && !slurps {
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

    /// `f(x, y = 2; k = 1) = body`, from its head.
    fn parse_short_function(&mut self, allow_tuple: bool) -> PResult<Expr> {
        let start = self.peek_raw().span;
        let head = self.parse_function_head()?;
        let (params, kwparams) = self.parse_params()?;
        let return_type = self.parse_return_type()?;
        let type_vars = self.parse_where()?;
        self.expect(
            &TokenKind::Assign {
                op: None,
                dotted: false,
            },
            "\"=\"",
        )?;
        self.skip_newlines();
        let body = self.parse_assignment(allow_tuple)?;
        let span = start.to(body.span);
        Ok(Expr {
            kind: ExprKind::Function(Rc::new(FunctionDef {
                name: head.name,
                module: head.module,
                callable: head.callable,
                params,
                kwparams,
                type_vars,
                return_type,
                body: vec![body],
                doc: None,
                span,
            })),
            span,
        })
    }

    /// Operators of precedence `min` and above, by precedence climbing.
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
            let op_span = self.bump().span;
            self.skip_newlines();
            self.deeper()?;
            if let Binary::Compare(comparison) = binary {
                lhs = self.parse_comparison(lhs, &mut chain, comparison, dotted, op_span)?;
                continue;
            }
            chain = None;
            lhs = match binary {
                Binary::Range => self.parse_range(lhs)?,
                Binary::Ternary => self.parse_ternary(lhs)?,
                Binary::Arrow => self.parse_lambda(lhs)?,
                _ => self.parse_binary_rhs(lhs, binary, prec, dotted, op_span)?,
            };
        }
        Ok(lhs)
    }

    /// The right operand of an ordinary binary operator, and the node joining both.
    #[inline(never)]
    fn parse_binary_rhs(
        &mut self,
        lhs: Expr,
        binary: Binary,
        prec: u8,
        dotted: bool,
        op_span: Span,
    ) -> PResult<Expr> {
        let right_associative =
            matches!(binary, Binary::Or | Binary::And | Binary::Op(BinOp::Pair));
        let mut rhs = self.parse_binary(if right_associative { prec } else { prec + 1 })?;
        // As in Julia, `x |> v -> v + 1` pipes into the lambda: an arrow right after an
        // operand makes that operand its parameters, whatever operator came before.
        if self.peek_raw().kind == TokenKind::Arrow {
            self.bump();
            self.skip_newlines();
            rhs = self.parse_lambda(rhs)?;
        }
        let span = lhs.span.to(rhs.span);
        Ok(match binary {
            Binary::Or => Expr {
                kind: ExprKind::Or(Box::new(lhs), Box::new(rhs)),
                span,
            },
            Binary::And => Expr {
                kind: ExprKind::And(Box::new(lhs), Box::new(rhs)),
                span,
            },
            Binary::Call(name) => self.call2(name, op_span, lhs, rhs),
            Binary::Op(op) => binary_expr(op, dotted, lhs, rhs),
            _ => lhs,
        })
    }

    /// After `lhs op`: one comparison, joined by `&&` to the previous one of a chain.
    #[inline(never)]
    fn parse_comparison(
        &mut self,
        lhs: Expr,
        chain: &mut Option<Expr>,
        comparison: Comparison,
        dotted: bool,
        op_span: Span,
    ) -> PResult<Expr> {
        let rhs = self.parse_binary(PREC_COMPARISON + 1)?;
        let (left, previous) = match chain.take() {
            Some(middle) => (middle, Some(lhs)),
            None => (lhs, None),
        };
        *chain = Some(rhs.clone());
        let compare = self.comparison(comparison, dotted, left, rhs, op_span);
        Ok(match previous {
            Some(previous) => Expr {
                span: previous.span.to(compare.span),
                kind: ExprKind::And(Box::new(previous), Box::new(compare)),
            },
            None => compare,
        })
    }

    /// The binary operator `token` stands for: what it builds, its precedence, and whether it
    /// is dotted.
    fn binary_operator(&self, token: &Token) -> Option<(Binary, u8, bool)> {
        let compare = |c| Some((Binary::Compare(c), PREC_COMPARISON, false));
        match token.kind {
            TokenKind::Question => Some((Binary::Ternary, PREC_TERNARY, false)),
            TokenKind::Arrow => Some((Binary::Arrow, PREC_ARROW, false)),
            TokenKind::OrOr => Some((Binary::Or, PREC_OR, false)),
            TokenKind::AndAnd => Some((Binary::And, PREC_AND, false)),
            TokenKind::Colon => Some((Binary::Range, PREC_RANGE, false)),
            TokenKind::Keyword(Keyword::In) => compare(Comparison::Op(BinOp::In)),
            TokenKind::Ident(name) if name == self.names.isa => compare(Comparison::Isa),
            TokenKind::Op { op, dotted } => {
                let cmp = |op| (Binary::Compare(Comparison::Op(op)), PREC_COMPARISON);
                let (binary, prec) = match op {
                    Op::Pair => (Binary::Op(BinOp::Pair), PREC_PAIR),
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
                    Op::CDot => (Binary::Call(self.names.dot), PREC_TIMES),
                    Op::Union => (Binary::Call(Name::new("union")), PREC_PLUS),
                    Op::Intersect => (Binary::Call(Name::new("intersect")), PREC_TIMES),
                    Op::SetRelation('⊆') => {
                        (Binary::Call(Name::new("issubset")), PREC_COMPARISON)
                    }
                    Op::SetRelation(c) => (
                        Binary::Call(Name::new(c.encode_utf8(&mut [0; 4]))),
                        PREC_COMPARISON,
                    ),
                    Op::Pipe => (Binary::Op(BinOp::Pipe), PREC_PIPE),
                    Op::Eq => cmp(BinOp::Eq),
                    Op::Ne => cmp(BinOp::Ne),
                    Op::Lt => cmp(BinOp::Lt),
                    Op::Le => cmp(BinOp::Le),
                    Op::Gt => cmp(BinOp::Gt),
                    Op::Ge => cmp(BinOp::Ge),
                    Op::Approx => cmp(BinOp::Approx),
                    Op::Identical => cmp(BinOp::Identical),
                    Op::NotIdentical => cmp(BinOp::NotIdentical),
                    Op::In => cmp(BinOp::In),
                    Op::Subtype => cmp(BinOp::Subtype),
                    Op::NotIn => (Binary::Compare(Comparison::NotIn), PREC_COMPARISON),
                    Op::NotApprox => (Binary::Compare(Comparison::NotApprox), PREC_COMPARISON),
                    Op::Caret | Op::Not | Op::Sqrt => return None,
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
    #[inline(never)]
    fn parse_range(&mut self, start: Expr) -> PResult<Expr> {
        let second = self.parse_binary(PREC_PLUS)?;
        let i = self.peek_index();
        let (step, stop) =
            if self.tokens[i].kind == TokenKind::Colon && !self.operator_ends_element(i) {
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

    /// After `cond ?`: `then : otherwise` (right-associative: `a ? b : c ? d : e`). Inside
    /// `then`, a `:` with a space before it ends the branch, so `c ? 1:2 : 3` has a range.
    #[inline(never)]
    fn parse_ternary(&mut self, cond: Expr) -> PResult<Expr> {
        let saved = self.ctx;
        self.ctx.ternary_then = true;
        let then = self.parse_binary(PREC_TERNARY);
        self.ctx = saved;
        let then = then?;
        self.expect(&TokenKind::Colon, "\":\" in a \"?\" expression")?;
        self.skip_newlines();
        let otherwise = self.parse_binary(PREC_TERNARY)?;
        Ok(Expr {
            span: cond.span.to(otherwise.span),
            kind: ExprKind::Ternary {
                cond: Box::new(cond),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            },
        })
    }

    /// After `params ->`: the body of `x -> body`, `(x, y) -> body`, `() -> body`.
    #[inline(never)]
    fn parse_lambda(&mut self, lhs: Expr) -> PResult<Expr> {
        // `(x; s = 1.0) -> …` reads as a block of the positional part and the keywords.
        let (params, kwparams) = match &lhs.kind {
            ExprKind::Block(parts) if parts.len() >= 2 => {
                let mut kwparams = Vec::new();
                for kw in &parts[1..] {
                    kwparams.push(self.arg_param(&Arg {
                        value: kw.clone(),
                        splat: false,
                    })?);
                }
                (self.lambda_params(&parts[0])?, kwparams)
            }
            _ => (self.lambda_params(&lhs)?, Vec::new()),
        };
        let body = self.parse_expr()?;
        let span = lhs.span.to(body.span);
        Ok(FunctionDef::lambda(params, kwparams, vec![body], span))
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
        let arg = |value| Arg {
            value,
            splat: false,
        };
        Expr {
            kind: ExprKind::Call {
                callee: Box::new(Expr {
                    kind: ExprKind::Ident(name),
                    span: op_span,
                }),
                args: vec![arg(lhs), arg(rhs)],
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
        let op_span = self.bump().span;
        let paren = self.peek_raw();
        let call_like = paren.kind == TokenKind::LParen && !paren.space_before && !dotted;
        let operand = self.parse_unary();
        self.depth = base;
        let operand = operand?;
        let span = op_span.to(operand.span);
        // `-(a, b)` calls the operator, as in Julia; `-(x)` is still `-x`.
        if let (true, ExprKind::Tuple(args)) = (call_like, &operand.kind) {
            let callee = Expr {
                kind: ExprKind::Ident(Name::new(&self.text(op_span))),
                span: op_span,
            };
            return Ok(Expr {
                kind: ExprKind::Call {
                    callee: Box::new(callee),
                    args: args.clone(),
                    kwargs: Vec::new(),
                    dotted: false,
                },
                span,
            });
        }
        Ok(Expr {
            span,
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
    /// `,` or `)` as in `reduce(+, x)` or `map(-, v)`, or ending the expression (`op = *`).
    pub(super) fn operator_is_value(&self) -> bool {
        matches!(
            self.peek_second().kind,
            TokenKind::Comma
                | TokenKind::RParen
                | TokenKind::RBracket
                | TokenKind::Semicolon
                | TokenKind::Newline
                | TokenKind::Eof
        )
    }

    /// Whether the operator at the next token is called, as in `*(a, b)`: `(` right after it.
    pub(super) fn operator_is_called(&self) -> bool {
        let paren = self.peek_second();
        paren.kind == TokenKind::LParen && !paren.space_before
    }

    /// Whether the keyword at the cursor is called as a function: `(` or `.(` right after it.
    pub(super) fn keyword_called(&self) -> bool {
        let next = self.peek_second();
        matches!(next.kind, TokenKind::LParen | TokenKind::Dot) && !next.space_before
    }

    /// `a ^ b`, right-associative, with a unary operator allowed in the exponent: `10^-3`.
    fn parse_power(&mut self) -> PResult<Expr> {
        let base = self.parse_juxtapose()?;
        let TokenKind::Op {
            op: Op::Caret,
            dotted,
        } = self.peek().kind
        else {
            return Ok(base);
        };
        self.bump();
        self.skip_newlines();
        let exponent = self.parse_power_operand()?;
        Ok(binary_expr(BinOp::Pow, dotted, base, exponent))
    }

    fn parse_power_operand(&mut self) -> PResult<Expr> {
        let depth = self.enter()?;
        let result = match self.prefix_operator() {
            Some((op, dotted)) => {
                let op_span = self.bump().span;
                self.parse_power_operand().map(|operand| Expr {
                    span: op_span.to(operand.span),
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

    /// A numeric literal right before a name, `(` or `√`: `2x`, `3(x + 1)`, `2√x`, `2x^2`
    /// (which is `2 * x^2`, the coefficient binding looser than `^`); an adjoint right before a
    /// name: `x'y`, `x'A*x`; otherwise a postfix expression.
    fn parse_juxtapose(&mut self) -> PResult<Expr> {
        let kind = match self.peek().kind {
            TokenKind::Int(v) => ExprKind::Int(v),
            TokenKind::Float(v) => ExprKind::Float(v),
            _ => {
                let primary = self.parse_primary()?;
                let expr = self.parse_postfix(primary)?;
                let next = self.peek_raw();
                if !matches!(expr.kind, ExprKind::Adjoint(_))
                    || next.space_before
                    || !matches!(next.kind, TokenKind::Ident(_))
                {
                    return Ok(expr);
                }
                let base = self.enter()?;
                let factor = self.parse_power();
                self.depth = base;
                return Ok(binary_expr(BinOp::Mul, false, expr, factor?));
            }
        };
        let literal = Expr {
            kind,
            span: self.bump().span,
        };
        let next = self.peek_raw();
        if next.space_before {
            return self.parse_postfix(literal);
        }
        let sqrt = matches!(
            next.kind,
            TokenKind::Op {
                op: Op::Sqrt,
                dotted: false
            }
        );
        if !sqrt && !matches!(next.kind, TokenKind::Ident(_) | TokenKind::LParen) {
            return self.parse_postfix(literal);
        }
        let base = self.enter()?;
        let coefficient = if sqrt {
            self.parse_unary()
        } else {
            self.parse_power()
        };
        self.depth = base;
        Ok(binary_expr(BinOp::Mul, false, literal, coefficient?))
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
