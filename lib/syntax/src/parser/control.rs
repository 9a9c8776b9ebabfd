//! Keyword forms: `if`, `for`, `while`, `try`, `begin`, `let`, `function`, `return`,
//! `global`/`local`, `using`/`import`, `const`, and function parameter lists.
//!
//! Every block construct pushes its keyword on the opener stack while it is parsed, so that an
//! input ending inside it is reported as `incomplete: "for" at 2:1 requires end`.

use std::rc::Rc;

use super::{Opener, PResult, ParseError, ParseErrorKind, Parser};
use crate::ast::{Arg, Expr, ExprKind, FunctionDef, Param, Pattern};
use crate::lexer::{Keyword, TokenKind};
use crate::names::Name;
use crate::span::Span;

impl<'s> Parser<'s> {
    /// Consumes the block keyword and parses the rest with `rest` (given the keyword's span),
    /// in block context with the keyword on the opener stack.
    fn parse_block_construct(
        &mut self,
        keyword: &'static str,
        rest: fn(&mut Self, Span) -> PResult<Expr>,
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
                    op: None,
                    dotted: false,
                    value,
                } => match target.kind {
                    ExprKind::Ident(name) => (name, Some(*value)),
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

    /// `using A, B.C`, `import A: x, y, +` (accepted and ignored by the evaluator).
    pub(super) fn parse_using(&mut self) -> PResult<Expr> {
        let keyword = self.bump();
        let mut end = keyword.span;
        let mut want_name = true;
        loop {
            let token = self.peek_raw().clone();
            match token.kind {
                TokenKind::Ident(_) | TokenKind::Op { .. } if want_name => want_name = false,
                TokenKind::Dot => want_name = true,
                TokenKind::Colon | TokenKind::Comma if !want_name => want_name = true,
                _ if want_name => return Err(self.expected("a module or name", &token)),
                _ => break,
            }
            self.bump();
            end = token.span;
            if want_name {
                self.skip_newlines();
            }
        }
        Ok(Expr {
            kind: ExprKind::Using,
            span: keyword.span.to(end),
        })
    }

    /// `const x = v`: an ordinary assignment (the language has no constants).
    pub(super) fn parse_const(&mut self) -> PResult<Expr> {
        let keyword = self.bump();
        let expr = self.parse_assignment(true)?;
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

    /// `function f(x, y = 2; k = 1) … end`, or anonymous `function (x) … end`.
    pub(super) fn parse_function(&mut self) -> PResult<Expr> {
        self.parse_block_construct("function", |p, keyword: Span| {
            let next = p.peek_raw().clone();
            let name = match next.kind {
                TokenKind::Ident(name) => {
                    p.bump();
                    let paren = p.peek_raw().clone();
                    if paren.kind != TokenKind::LParen || paren.space_before {
                        if paren.kind == TokenKind::Keyword(Keyword::End) {
                            return Err(ParseError {
                                kind: ParseErrorKind::Unsupported {
                                    what: "functions without methods (\"function f end\")".into(),
                                },
                                span: keyword.to(paren.span),
                            });
                        }
                        return Err(p.expected("\"(\" right after the function name", &paren));
                    }
                    Some(name)
                }
                TokenKind::LParen => None,
                _ => return Err(p.expected("a function name or \"(\"", &next)),
            };
            let (params, kwparams) = p.parse_params()?;
            let after = p.peek_raw().clone();
            let unsupported = match after.kind {
                TokenKind::ColonColon => Some("return type annotations (\"::\")"),
                TokenKind::Ident(word) if word.as_str() == "where" => Some("\"where\" clauses"),
                _ => None,
            };
            if let Some(what) = unsupported {
                return Err(ParseError {
                    kind: ParseErrorKind::Unsupported { what: what.into() },
                    span: after.span,
                });
            }
            let body = p.parse_block(&[Keyword::End])?;
            let end = p.bump();
            let span = keyword.to(end.span);
            let def = Rc::new(FunctionDef {
                name,
                params,
                kwparams,
                body,
                doc: None,
                span,
            });
            let kind = if name.is_some() {
                ExprKind::Function(def)
            } else {
                ExprKind::Lambda(def)
            };
            Ok(Expr { kind, span })
        })
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
        let vararg = self.eat(|k| *k == TokenKind::Ellipsis).is_some();
        if self.at(&TokenKind::ColonColon) {
            return Err(ParseError {
                kind: ParseErrorKind::Unsupported {
                    what: "type annotations (\"::\")".into(),
                },
                span: self.peek().span,
            });
        }
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
        Ok(Param {
            pattern,
            default,
            vararg,
        })
    }

    /// The parameters of `lhs -> body`: a name, or a tuple of names, `name = default`,
    /// `args...` and nested tuples.
    pub(super) fn lambda_params(&self, lhs: &Expr) -> PResult<Vec<Param>> {
        match &lhs.kind {
            ExprKind::Ident(name) => Ok(vec![Param {
                pattern: Pattern::Name(*name),
                default: None,
                vararg: false,
            }]),
            ExprKind::Tuple(args) => args.iter().map(|arg| self.arg_param(arg)).collect(),
            _ => Err(self.invalid_param(lhs)),
        }
    }

    fn arg_param(&self, arg: &Arg) -> PResult<Param> {
        let param = |pattern, default| Param {
            pattern,
            default,
            vararg: arg.splat,
        };
        match &arg.value.kind {
            ExprKind::Ident(name) => Ok(param(Pattern::Name(*name), None)),
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
