//! Keyword forms: `if`, `for`, `while`, `try`, `begin`, `let`, `function`, `return`,
//! `global`/`local`, `using`/`import`, `const`, `struct` and `abstract type`, and function
//! heads and parameter lists.
//!
//! Every block construct pushes its keyword on the opener stack while it is parsed, so that an
//! input ending inside it is reported as `incomplete: "for" at 2:1 requires end`.

use std::rc::Rc;

use super::{Opener, PResult, ParseError, ParseErrorKind, Parser};
use crate::ast::{Arg, Expr, ExprKind, FunctionDef, Param, Pattern, StructDef};
use crate::lexer::{Keyword, Op, TokenKind};
use crate::names::Name;
use crate::span::Span;

/// What a definition names before its parameters.
#[derive(Default)]
pub(super) struct FunctionHead {
    /// The function's name (`None` for methods of a callable type).
    pub name: Option<Name>,
    /// The module in `Base.show`.
    pub module: Option<Name>,
    /// The object parameter of `(l::Layer)(x)`.
    pub callable: Option<Box<Param>>,
}

impl<'s> Parser<'s> {
    /// Consumes the block keyword and parses the rest with `rest` (given the keyword's span),
    /// in block context with the keyword on the opener stack.
    pub(super) fn parse_block_construct(
        &mut self,
        keyword: &'static str,
        rest: impl FnOnce(&mut Self, Span) -> PResult<Expr>,
    ) -> PResult<Expr> {
        let token = self.bump();
        let saved = self.open(self.ctx.block(), Opener::Block(keyword), token.span);
        let result = rest(self, token.span);
        self.close(saved);
        result
    }

    /// `if c … elseif d … else … end`.
    pub(super) fn parse_if(&mut self) -> PResult<Expr> {
        self.parse_block_construct("if", |p, keyword: Span| {
            let branch_end = [Keyword::Elseif, Keyword::Else, Keyword::End];
            let cond = p.parse_no_assign()?;
            let body = p.parse_block(&branch_end)?;
            let mut branches = vec![(cond, body)];
            let mut otherwise = None;
            let end = loop {
                let token = p.bump();
                match token.kind {
                    TokenKind::Keyword(Keyword::Elseif) => {
                        let cond = p.parse_no_assign()?;
                        let body = p.parse_block(&branch_end)?;
                        branches.push((cond, body));
                    }
                    TokenKind::Keyword(Keyword::Else) => {
                        otherwise = Some(p.parse_block(&[Keyword::End])?);
                        break p.bump();
                    }
                    _ => break token,
                }
            };
            Ok(Expr {
                kind: ExprKind::If {
                    branches,
                    otherwise,
                },
                span: keyword.to(end.span),
            })
        })
    }

    /// `for i in 1:n, j in 1:m … end` (also `=` and `∈`, and tuple patterns).
    pub(super) fn parse_for(&mut self) -> PResult<Expr> {
        self.parse_block_construct("for", |p, keyword: Span| {
            let generators = p.parse_generators()?;
            let body = p.parse_block(&[Keyword::End])?;
            let end = p.bump();
            Ok(Expr {
                kind: ExprKind::For { generators, body },
                span: keyword.to(end.span),
            })
        })
    }

    /// `while c … end`.
    pub(super) fn parse_while(&mut self) -> PResult<Expr> {
        self.parse_block_construct("while", |p, keyword: Span| {
            let cond = p.parse_no_assign()?;
            let body = p.parse_block(&[Keyword::End])?;
            let end = p.bump();
            Ok(Expr {
                kind: ExprKind::While {
                    cond: Box::new(cond),
                    body,
                },
                span: keyword.to(end.span),
            })
        })
    }

    /// `try … catch e … finally … end`; `catch` followed by a newline or `;` binds nothing.
    pub(super) fn parse_try(&mut self) -> PResult<Expr> {
        self.parse_block_construct("try", |p, keyword: Span| {
            let body = p.parse_block(&[Keyword::Catch, Keyword::Finally, Keyword::End])?;
            let mut catch_var = None;
            let mut catch_body = None;
            let mut finally = None;
            let mut token = p.bump();
            if token.kind == TokenKind::Keyword(Keyword::Catch) {
                if let TokenKind::Ident(name) = p.peek_raw().kind {
                    p.bump();
                    catch_var = Some(name);
                }
                catch_body = Some(p.parse_block(&[Keyword::Finally, Keyword::End])?);
                token = p.bump();
            }
            if token.kind == TokenKind::Keyword(Keyword::Finally) {
                finally = Some(p.parse_block(&[Keyword::End])?);
                token = p.bump();
            }
            Ok(Expr {
                kind: ExprKind::Try {
                    body,
                    catch_var,
                    catch_body,
                    finally,
                },
                span: keyword.to(token.span),
            })
        })
    }

    /// `begin … end`.
    pub(super) fn parse_begin(&mut self) -> PResult<Expr> {
        self.parse_block_construct("begin", |p, keyword: Span| {
            let body = p.parse_block(&[Keyword::End])?;
            let end = p.bump();
            Ok(Expr {
                kind: ExprKind::Block(body),
                span: keyword.to(end.span),
            })
        })
    }

    /// `let a = 1, b … end`.
    pub(super) fn parse_let(&mut self) -> PResult<Expr> {
        self.parse_block_construct("let", |p, keyword: Span| {
            let bindings = match p.peek_raw().kind {
                TokenKind::Newline | TokenKind::Semicolon | TokenKind::Keyword(Keyword::End) => {
                    Vec::new()
                }
                _ => p.parse_bindings()?,
            };
            let body = p.parse_block(&[Keyword::End])?;
            let end = p.bump();
            Ok(Expr {
                kind: ExprKind::Let { bindings, body },
                span: keyword.to(end.span),
            })
        })
    }

    /// `name` or `name = value`, comma-separated (of `let`, `global`, `local`).
    fn parse_bindings(&mut self) -> PResult<Vec<(Name, Option<Expr>)>> {
        let mut bindings = Vec::new();
        loop {
            let expr = self.parse_expr()?;
            let span = expr.span;
            let binding = match expr.kind {
                ExprKind::Ident(name) => (name, None),
                ExprKind::Assign {
                    target,
                    op,
                    dotted: false,
                    value,
                } => match target.kind {
                    ExprKind::Ident(name) => {
                        // `global c += 1` is `global c = c + 1`.
                        let value = match op {
                            None => *value,
                            Some(op) => Expr {
                                span,
                                kind: ExprKind::Binary {
                                    op,
                                    dotted: false,
                                    lhs: target,
                                    rhs: value,
                                },
                            },
                        };
                        (name, Some(value))
                    }
                    _ => return Err(self.invalid_binding(target.span)),
                },
                _ => return Err(self.invalid_binding(span)),
            };
            bindings.push(binding);
            if self.eat(|k| *k == TokenKind::Comma).is_none() {
                return Ok(bindings);
            }
            self.skip_newlines();
        }
    }

    fn invalid_binding(&self, span: Span) -> ParseError {
        ParseError {
            kind: ParseErrorKind::InvalidAssignment {
                target: self.text(span),
            },
            span,
        }
    }

    /// `global x`, `local x = 1, y`.
    pub(super) fn parse_declaration(&mut self, global: bool) -> PResult<Expr> {
        let keyword = self.bump();
        let bindings = self.parse_bindings()?;
        let end = bindings
            .last()
            .and_then(|(_, value)| value.as_ref().map(|v| v.span))
            .unwrap_or(self.tokens[self.pos.saturating_sub(1)].span);
        Ok(Expr {
            kind: ExprKind::Declare { global, bindings },
            span: keyword.span.to(end),
        })
    }

    /// `return` or `return x` (at statement level `return a, b` returns a tuple).
    pub(super) fn parse_return(&mut self) -> PResult<Expr> {
        let keyword = self.bump();
        let ends = matches!(
            self.peek_raw().kind,
            TokenKind::Newline
                | TokenKind::Semicolon
                | TokenKind::Eof
                | TokenKind::RParen
                | TokenKind::RBracket
                | TokenKind::RBrace
                | TokenKind::Comma
                | TokenKind::Keyword(
                    Keyword::End
                        | Keyword::Else
                        | Keyword::Elseif
                        | Keyword::Catch
                        | Keyword::Finally
                )
        );
        if ends {
            return Ok(Expr {
                kind: ExprKind::Return(None),
                span: keyword.span,
            });
        }
        let statement_level = !self.ctx.skip_newlines && !self.ctx.space_sensitive;
        let value = self.parse_assignment(statement_level)?;
        Ok(Expr {
            span: keyword.span.to(value.span),
            kind: ExprKind::Return(Some(Box::new(value))),
        })
    }

    /// `using A, B.C` (accepted and ignored by the evaluator), `import A: x, y, +`,
    /// `using A: x` and `import A.x` (an [`ExprKind::Import`] of the names), `import A: x as y`
    /// (renamed) and `import A as B` (an [`ExprKind::ModuleAlias`]).
    pub(super) fn parse_using(&mut self) -> PResult<Expr> {
        let keyword = self.bump();
        let mut end = keyword.span;
        let mut want_name = true;
        let mut path: Vec<Name> = Vec::new();
        let mut names: Vec<Name> = Vec::new();
        let mut renamed: Vec<(Name, Name)> = Vec::new();
        // `import M as A` and `import M.f as g`: the path before `as`, and the new name.
        let mut path_aliases: Vec<(Vec<Name>, Name)> = Vec::new();
        let mut current: Vec<Name> = Vec::new();
        let mut after_colon = false;
        let mut modules = 1;
        loop {
            let token = self.peek_raw().clone();
            match token.kind {
                TokenKind::Ident(_) if !want_name && self.text(token.span) == "as" => {
                    self.bump();
                    let target = self.peek_raw().clone();
                    if !matches!(target.kind, TokenKind::Ident(_)) {
                        return Err(self.expected("a name after \"as\"", &target));
                    }
                    let new_name = Name::new(&self.text(target.span));
                    match (after_colon, names.pop()) {
                        (true, Some(name)) => renamed.push((name, new_name)),
                        (false, _) if !current.is_empty() => {
                            path_aliases.push((std::mem::take(&mut current), new_name));
                        }
                        _ => return Err(self.expected("a module or name before \"as\"", &token)),
                    }
                    self.bump();
                    end = target.span;
                    continue;
                }
                TokenKind::Ident(_) | TokenKind::Op { .. } if want_name => {
                    want_name = false;
                    let name = Name::new(&self.text(token.span));
                    if after_colon {
                        names.push(name);
                    } else {
                        path.push(name);
                        current.push(name);
                    }
                }
                TokenKind::Dot if !after_colon => want_name = true,
                TokenKind::Colon if !want_name && !after_colon => {
                    want_name = true;
                    after_colon = true;
                }
                TokenKind::Comma if !want_name => {
                    want_name = true;
                    modules += usize::from(!after_colon);
                    if !after_colon {
                        current.clear();
                    }
                }
                _ if want_name => return Err(self.expected("a module or name", &token)),
                _ => break,
            }
            self.bump();
            end = token.span;
            if want_name {
                self.skip_newlines();
            }
        }
        let is_import = keyword.kind == TokenKind::Keyword(Keyword::Import);
        let kind = match (after_colon, path.as_slice(), path_aliases.as_slice()) {
            // `import M.f as g` binds `g` to `M.f`.
            (false, _, [(member, alias)]) if member.len() >= 2 && modules == 1 => {
                ExprKind::Import {
                    module: member[member.len() - 2],
                    names: Vec::new(),
                    renamed: vec![(member[member.len() - 1], *alias)],
                }
            }
            (false, _, [_, ..]) => ExprKind::ModuleAlias(
                path_aliases
                    .iter()
                    .filter_map(|(module, alias)| Some((*module.last()?, *alias)))
                    .collect(),
            ),
            (true, [.., module], _) => ExprKind::Import {
                module: *module,
                names,
                renamed,
            },
            (false, [.., module, name], _) if is_import && modules == 1 => ExprKind::Import {
                module: *module,
                names: vec![*name],
                renamed,
            },
            _ => ExprKind::Using,
        };
        Ok(Expr {
            kind,
            span: keyword.span.to(end),
        })
    }

    /// `const x = v`: an ordinary assignment (the language has no constants); in a struct
    /// body, `const name::T` declares a field that assignment cannot change.
    pub(super) fn parse_const(&mut self) -> PResult<Expr> {
        let keyword = self.bump();
        let expr = self.parse_assignment(true)?;
        if self.struct_bodies > 0 {
            let declared = match &expr.kind {
                ExprKind::Assign { target, .. } => target.span,
                _ => expr.span,
            };
            self.const_fields.push(declared);
            return Ok(expr);
        }
        if !matches!(expr.kind, ExprKind::Assign { .. }) {
            return Err(ParseError {
                kind: ParseErrorKind::Expected {
                    expected: "an assignment after \"const\"",
                    found: self.text(expr.span),
                },
                span: expr.span,
            });
        }
        Ok(Expr {
            span: keyword.span.to(expr.span),
            kind: expr.kind,
        })
    }

    /// `function f(x, y = 2; k = 1) … end`, `function Base.show(io, x) … end`,
    /// `function (l::Layer)(x) … end`, or anonymous `function (x) … end`.
    pub(super) fn parse_function(&mut self) -> PResult<Expr> {
        self.parse_block_construct("function", |p, keyword: Span| {
            let next = p.peek_raw().clone();
            let head = if next.kind == TokenKind::LParen && p.callable_head_ahead(p.peek_index()) {
                p.parse_function_head()?
            } else if next.kind == TokenKind::LParen {
                FunctionHead::default()
            } else {
                let head = p.parse_function_head()?;
                let paren = p.peek_raw().clone();
                if paren.kind == TokenKind::Keyword(Keyword::End) {
                    return Err(ParseError {
                        kind: ParseErrorKind::Unsupported {
                            what: "functions without methods (\"function f end\")".into(),
                        },
                        span: keyword.to(paren.span),
                    });
                }
                if paren.kind != TokenKind::LParen || paren.space_before {
                    return Err(p.expected("\"(\" right after the function name", &paren));
                }
                head
            };
            let (params, kwparams) = p.parse_params()?;
            let return_type = p.parse_return_type()?;
            let type_vars = p.parse_where()?;
            let body = p.parse_block(&[Keyword::End])?;
            let end = p.bump();
            let span = keyword.to(end.span);
            let named = head.name.is_some() || head.callable.is_some();
            let def = Rc::new(FunctionDef {
                name: head.name,
                module: head.module,
                callable: head.callable,
                params,
                kwparams,
                type_vars,
                return_type,
                body,
                doc: None,
                span,
            });
            let kind = if named {
                ExprKind::Function(def)
            } else {
                ExprKind::Lambda(def)
            };
            Ok(Expr { kind, span })
        })
    }

    /// Whether the tokens from `start` read `(x::T)(`: the head of a method of a callable type.
    pub(super) fn callable_head_ahead(&self, start: usize) -> bool {
        if self.tokens.get(start).map(|t| &t.kind) != Some(&TokenKind::LParen) {
            return false;
        }
        let close = self.closing[start] as usize;
        let Some(inside) = self.tokens.get(start..close) else {
            return false;
        };
        let has_annotation = inside.iter().any(|t| t.kind == TokenKind::ColonColon);
        has_annotation
            && self
                .tokens
                .get(close + 1)
                .is_some_and(|t| t.kind == TokenKind::LParen && !t.space_before)
    }

    /// The name part of a definition, before its parameters: `f`, `+`, `Base.show`,
    /// `Base.:+`, or `(l::Layer)`.
    pub(super) fn parse_function_head(&mut self) -> PResult<FunctionHead> {
        let token = self.peek_raw().clone();
        match token.kind {
            TokenKind::LParen => {
                self.bump();
                let param = self.parse_param()?;
                self.expect(&TokenKind::RParen, "\")\"")?;
                Ok(FunctionHead {
                    callable: Some(Box::new(param)),
                    ..FunctionHead::default()
                })
            }
            TokenKind::Op { dotted: false, .. } => {
                self.bump();
                Ok(FunctionHead {
                    name: Some(Name::new(&self.text(token.span))),
                    ..FunctionHead::default()
                })
            }
            TokenKind::Ident(first) => {
                self.bump();
                if self.peek_raw().kind != TokenKind::Dot || self.peek_raw().space_before {
                    return Ok(FunctionHead {
                        name: Some(first),
                        ..FunctionHead::default()
                    });
                }
                self.bump();
                let member = self.peek_raw().clone();
                let name = match member.kind {
                    TokenKind::Ident(name) => {
                        self.bump();
                        name
                    }
                    TokenKind::Colon => {
                        self.bump();
                        self.quoted_operator()?.0
                    }
                    _ => return Err(self.expected("a function name after \".\"", &member)),
                };
                Ok(FunctionHead {
                    name: Some(name),
                    module: Some(first),
                    callable: None,
                })
            }
            _ => Err(self.expected("a function name or \"(\"", &token)),
        }
    }

    /// `struct Name{T} <: Super … end` (with `mutable` already consumed when `mutable`).
    pub(super) fn parse_struct(&mut self, mutable: bool, start: Span) -> PResult<Expr> {
        self.parse_block_construct("struct", |p, keyword: Span| {
            let (name, params, supertype) = p.parse_type_head()?;
            p.struct_bodies += 1;
            let body = p.parse_block(&[Keyword::End]);
            p.struct_bodies -= 1;
            let body = body?;
            let end = p.bump();
            let const_spans: Vec<Span> = std::mem::take(&mut p.const_fields);
            let mut const_fields = Vec::new();
            let mut fields = Vec::new();
            let mut defaults = Vec::new();
            let mut constructors = Vec::new();
            for statement in body {
                let statement = match statement.kind {
                    ExprKind::Assign {
                        target,
                        op: None,
                        dotted: false,
                        value,
                    } => {
                        let field = match &target.kind {
                            ExprKind::Ident(field) => *field,
                            ExprKind::TypeAssert { value, .. } => match value.kind {
                                ExprKind::Ident(field) => field,
                                _ => return Err(p.invalid_field(target.span)),
                            },
                            _ => return Err(p.invalid_field(target.span)),
                        };
                        defaults.push((field, *value));
                        *target
                    }
                    _ => statement,
                };
                let declared_const = const_spans.contains(&statement.span);
                match statement.kind {
                    ExprKind::Ident(field) => fields.push((field, None)),
                    ExprKind::TypeAssert { value, ty } => match value.kind {
                        ExprKind::Ident(field) => fields.push((field, Some(*ty))),
                        _ => return Err(p.invalid_field(value.span)),
                    },
                    _ if declared_const => return Err(p.invalid_field(statement.span)),
                    ExprKind::Function(def) => constructors.push(def),
                    ExprKind::Str(_) => {}
                    _ => return Err(p.invalid_field(statement.span)),
                }
                if declared_const {
                    const_fields.extend(fields.last().map(|(field, _)| *field));
                }
            }
            let span = keyword.to(end.span);
            Ok(Expr {
                kind: ExprKind::Struct(Rc::new(StructDef {
                    name,
                    params,
                    supertype,
                    fields,
                    defaults,
                    mutable,
                    const_fields,
                    constructors,
                    doc: None,
                    span,
                })),
                span,
            })
        })
        .map(|mut e| {
            e.span = start.to(e.span);
            e
        })
    }

    fn invalid_field(&self, span: Span) -> ParseError {
        ParseError {
            kind: ParseErrorKind::Expected {
                expected: "a field (\"name\" or \"name::Type\") or a constructor",
                found: self.text(span),
            },
            span,
        }
    }

    /// `abstract type Name{T} <: Super end`, at `type` (after `abstract`).
    pub(super) fn parse_abstract_type(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        let (name, params, supertype) = self.parse_type_head()?;
        let end = self.expect(&TokenKind::Keyword(Keyword::End), "\"end\"")?;
        Ok(Expr {
            kind: ExprKind::AbstractType {
                name,
                params,
                supertype,
            },
            span: start.to(end.span),
        })
    }

    /// `Name`, `Name{T, S}`, then an optional `<: Super`.
    fn parse_type_head(&mut self) -> PResult<(Name, Vec<Name>, Option<Box<Expr>>)> {
        let token = self.peek_raw().clone();
        let TokenKind::Ident(name) = token.kind else {
            return Err(self.expected("a type name", &token));
        };
        self.bump();
        let mut params = Vec::new();
        if self.peek_raw().kind == TokenKind::LBrace && !self.peek_raw().space_before {
            self.bump();
            loop {
                let param = self.peek().clone();
                let TokenKind::Ident(p) = param.kind else {
                    return Err(self.expected("a type parameter name", &param));
                };
                self.bump();
                // A bound on a parameter (`T <: Real`) is accepted and not checked.
                if matches!(
                    self.peek().kind,
                    TokenKind::Op {
                        op: Op::Subtype,
                        ..
                    }
                ) {
                    self.bump();
                    self.parse_type()?;
                }
                params.push(p);
                if self.eat(|k| *k == TokenKind::Comma).is_none() {
                    break;
                }
            }
            self.expect(&TokenKind::RBrace, "\"}\"")?;
        }
        let supertype = if matches!(
            self.peek_raw().kind,
            TokenKind::Op {
                op: Op::Subtype,
                ..
            }
        ) {
            self.bump();
            Some(Box::new(self.parse_type()?))
        } else {
            None
        };
        Ok((name, params, supertype))
    }

    /// `(x, y = 2, args...; k = 1, kw...)` with the `(` next: positional and keyword
    /// parameters.
    pub(super) fn parse_params(&mut self) -> PResult<(Vec<Param>, Vec<Param>)> {
        let open = self.bump();
        let saved = self.open(self.ctx.paren(), Opener::Bracket('('), open.span);
        let result = self.parse_param_list();
        self.close(saved);
        result
    }

    /// The parameters after `(`, through the closing `)`.
    fn parse_param_list(&mut self) -> PResult<(Vec<Param>, Vec<Param>)> {
        let mut params = Vec::new();
        let mut kwparams = Vec::new();
        let mut keywords = false;
        loop {
            if self.eat(|k| *k == TokenKind::RParen).is_some() {
                return Ok((params, kwparams));
            }
            if self.at(&TokenKind::Semicolon) && !keywords {
                self.bump();
                keywords = true;
                continue;
            }
            let param = self.parse_param()?;
            if keywords {
                kwparams.push(param);
            } else {
                params.push(param);
            }
            match self.peek().kind {
                TokenKind::Comma => {
                    self.bump();
                }
                TokenKind::RParen => {}
                TokenKind::Semicolon if !keywords => {}
                _ => {
                    let found = self.peek().clone();
                    return Err(self.expected("\",\" or \")\"", &found));
                }
            }
        }
    }

    /// One parameter: `x`, `x = default`, `args...`, `(a, b)`.
    fn parse_param(&mut self) -> PResult<Param> {
        let token = self.peek().clone();
        let pattern = match token.kind {
            TokenKind::Ident(name) => {
                self.bump();
                Pattern::Name(name)
            }
            // `::T` alone: an unnamed parameter that only dispatches.
            TokenKind::ColonColon => Pattern::Name(Name::new("_")),
            TokenKind::LParen => self.parse_pattern("a parameter name")?,
            _ => {
                return Err(self.error_at(
                    &token,
                    ParseErrorKind::InvalidParameter {
                        text: self.text(token.span),
                    },
                ))
            }
        };
        let annotation = match self.eat(|k| *k == TokenKind::ColonColon) {
            Some(_) => Some(Box::new(self.parse_type()?)),
            None => None,
        };
        let vararg = self.eat(|k| *k == TokenKind::Ellipsis).is_some();
        let plain_assign = TokenKind::Assign {
            op: None,
            dotted: false,
        };
        let default = match self.eat(|k| *k == plain_assign) {
            Some(_) => {
                self.skip_newlines();
                Some(self.parse_no_assign()?)
            }
            None => None,
        };
        Ok(vararg_type(Param {
            pattern,
            default,
            vararg,
            annotation,
        }))
    }

    /// The parameters of `lhs -> body`: a name, or a tuple of names, `name = default`,
    /// `args...` and nested tuples.
    pub(super) fn lambda_params(&self, lhs: &Expr) -> PResult<Vec<Param>> {
        match &lhs.kind {
            ExprKind::Ident(name) => Ok(vec![Param {
                pattern: Pattern::Name(*name),
                default: None,
                vararg: false,
                annotation: None,
            }]),
            ExprKind::TypeAssert { .. } => Ok(vec![self.arg_param(&Arg {
                value: lhs.clone(),
                splat: false,
            })?]),
            ExprKind::Tuple(args) => args.iter().map(|arg| self.arg_param(arg)).collect(),
            _ => Err(self.invalid_param(lhs)),
        }
    }

    pub(super) fn arg_param(&self, arg: &Arg) -> PResult<Param> {
        let param = |pattern, default| Param {
            pattern,
            default,
            vararg: arg.splat,
            annotation: None,
        };
        match &arg.value.kind {
            ExprKind::Ident(name) => Ok(param(Pattern::Name(*name), None)),
            ExprKind::TypeAssert { value, ty } => match value.kind {
                ExprKind::Ident(name) => Ok(vararg_type(Param {
                    annotation: Some(ty.clone()),
                    ..param(Pattern::Name(name), None)
                })),
                _ => Err(self.invalid_param(&arg.value)),
            },
            ExprKind::Assign {
                target,
                op: None,
                dotted: false,
                value,
            } if !arg.splat => match target.kind {
                ExprKind::Ident(name) => Ok(param(Pattern::Name(name), Some((**value).clone()))),
                _ => Err(self.invalid_param(&arg.value)),
            },
            ExprKind::Tuple(_) if !arg.splat => Ok(param(self.pattern_of(&arg.value)?, None)),
            _ => Err(self.invalid_param(&arg.value)),
        }
    }

    fn pattern_of(&self, expr: &Expr) -> PResult<Pattern> {
        match &expr.kind {
            ExprKind::Ident(name) => Ok(Pattern::Name(*name)),
            ExprKind::Tuple(args) => args
                .iter()
                .map(|arg| match arg.splat {
                    false => self.pattern_of(&arg.value),
                    true => Err(self.invalid_param(&arg.value)),
                })
                .collect::<PResult<Vec<_>>>()
                .map(Pattern::Tuple),
            _ => Err(self.invalid_param(expr)),
        }
    }

    fn invalid_param(&self, expr: &Expr) -> ParseError {
        ParseError {
            kind: ParseErrorKind::InvalidParameter {
                text: self.text(expr.span),
            },
            span: expr.span,
        }
    }
}

/// `x::Vararg{T}` (or `Vararg{T, N}`, or bare `Vararg`) is Julia's other spelling of `x::T...`.
fn vararg_type(param: Param) -> Param {
    let Some(annotation) = &param.annotation else {
        return param;
    };
    let element = match &annotation.kind {
        ExprKind::Curly { name, params } if name.as_str() == "Vararg" => params.first().cloned(),
        ExprKind::Ident(name) if name.as_str() == "Vararg" => None,
        _ => return param,
    };
    Param {
        vararg: true,
        annotation: element.map(Box::new),
        ..param
    }
}
