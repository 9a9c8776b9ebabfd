//! Test helpers: a compact S-expression rendering of the syntax tree (spans left out), so
//! that a test states the shape of a parse in one line, as `(+ a (* 2 b))`.
//!
//! Full `Debug` trees, spans included, are snapshotted in `tests/snapshots.rs`.

#![allow(dead_code)]

use difflab_syntax::ast::{Arg, Expr, ExprKind, FunctionDef, Generator, Param, Pattern, StrPart};
use difflab_syntax::{parse, BinOp, UnaryOp};

/// The statements of `src` as S-expressions, one per line; panics with the message on error.
pub fn sexpr(src: &str) -> String {
    match parse(src) {
        Ok(block) => block.iter().map(expr).collect::<Vec<_>>().join("\n"),
        Err(e) => panic!("{src:?} failed to parse: {} ({:?})", e.message(), e.span),
    }
}

/// The error message for `src`, which must fail to parse.
pub fn error(src: &str) -> String {
    match parse(src) {
        Ok(block) => panic!(
            "{src:?} parsed: {}",
            block.iter().map(expr).collect::<Vec<_>>().join("\n")
        ),
        Err(e) => e.message(),
    }
}

fn list(head: &str, items: impl IntoIterator<Item = String>) -> String {
    let mut out = format!("({head}");
    for item in items {
        out.push(' ');
        out.push_str(&item);
    }
    out.push(')');
    out
}

fn arg(a: &Arg) -> String {
    if a.splat {
        list("...", [expr(&a.value)])
    } else {
        expr(&a.value)
    }
}

fn block(head: &str, b: &[Expr]) -> String {
    list(head, b.iter().map(expr))
}

fn pattern(p: &Pattern) -> String {
    match p {
        Pattern::Name(n) => n.to_string(),
        Pattern::Tuple(items) => list("tuple", items.iter().map(pattern)),
    }
}

fn param(p: &Param) -> String {
    let mut s = pattern(&p.pattern);
    if let Some(t) = &p.annotation {
        s = list("::", [s, expr(t)]);
    }
    if p.vararg {
        s = list("...", [s]);
    }
    match &p.default {
        Some(d) => list("=", [s, expr(d)]),
        None => s,
    }
}

fn generator(g: &Generator) -> String {
    list("=", [pattern(&g.pattern), expr(&g.iter)])
}

fn function(head: &str, f: &FunctionDef) -> String {
    let mut items = Vec::new();
    if let Some(doc) = &f.doc {
        items.push(format!("(doc {doc:?})"));
    }
    if let Some(module) = f.module {
        items.push(format!("(module {module})"));
    }
    if let Some(name) = f.name {
        items.push(name.to_string());
    }
    if let Some(object) = &f.callable {
        items.push(list("callable", [param(object)]));
    }
    let mut params = list("params", f.params.iter().map(param));
    if !f.kwparams.is_empty() {
        params = list(
            "params",
            f.params
                .iter()
                .map(param)
                .chain([list(";", f.kwparams.iter().map(param))]),
        );
    }
    items.push(params);
    items.push(block("block", &f.body));
    list(head, items)
}

fn binop(op: BinOp, dotted: bool) -> String {
    format!("{}{}", if dotted { "." } else { "" }, op.symbol())
}

/// One expression as an S-expression.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Float(v) => format!("{v:?}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Char(c) => format!("{c:?}"),
        ExprKind::PrefixedStr {
            prefix,
            text,
            flags,
        } => format!("(macrocall @{prefix}_str {text:?} {flags:?})"),
        ExprKind::Str(parts) => {
            if let [StrPart::Text(t)] = parts.as_slice() {
                format!("{t:?}")
            } else {
                list(
                    "string",
                    parts.iter().map(|p| match p {
                        StrPart::Text(t) => format!("{t:?}"),
                        StrPart::Interp(e) => expr(e),
                    }),
                )
            }
        }
        ExprKind::Symbol(n) => format!(":{n}"),
        ExprKind::Ident(n) => n.to_string(),
        ExprKind::Colon => ":".into(),
        ExprKind::End => "end".into(),
        ExprKind::Tuple(items) => list("tuple", items.iter().map(arg)),
        ExprKind::Vector(items) => list("vect", items.iter().map(arg)),
        ExprKind::Concat(rows) => {
            list("vcat", rows.iter().map(|r| list("row", r.iter().map(expr))))
        }
        ExprKind::TypedVector { eltype, elements } => list(
            "typed",
            std::iter::once(eltype.to_string()).chain(elements.iter().map(expr)),
        ),
        ExprKind::TypedLiteral { eltype, literal } => {
            list("typed", [eltype.to_string(), expr(literal)])
        }
        ExprKind::Comprehension {
            body,
            generators,
            filter,
            flat,
            generator: lazy,
            ..
        } => {
            let mut items = vec![expr(body)];
            if *flat {
                items.push("flat".into());
            }
            items.extend(generators.iter().map(generator));
            if let Some(f) = filter {
                items.push(list("if", [expr(f)]));
            }
            // Julia's heads: `(f(x) for x in xs)` is a generator, `[…]` a comprehension.
            list(if *lazy { "generator" } else { "comprehension" }, items)
        }
        ExprKind::Range { start, step, stop } => {
            let mut items = vec![expr(start)];
            if let Some(s) = step {
                items.push(expr(s));
            }
            items.push(expr(stop));
            list("range", items)
        }
        ExprKind::Binary {
            op,
            dotted,
            lhs,
            rhs,
        } => list(&binop(*op, *dotted), [expr(lhs), expr(rhs)]),
        ExprKind::Unary {
            op,
            dotted,
            operand,
        } => {
            let name = match op {
                UnaryOp::Neg => "neg",
                UnaryOp::Plus => "plus",
                UnaryOp::Not => "not",
                UnaryOp::Sqrt => "sqrt",
            };
            list(
                &format!("{}{name}", if *dotted { "." } else { "" }),
                [expr(operand)],
            )
        }
        ExprKind::And(a, b) => list("&&", [expr(a), expr(b)]),
        ExprKind::Or(a, b) => list("||", [expr(a), expr(b)]),
        ExprKind::Ternary {
            cond,
            then,
            otherwise,
        } => list("?", [expr(cond), expr(then), expr(otherwise)]),
        ExprKind::Call {
            callee,
            args,
            kwargs,
            dotted,
        } => {
            let mut items = vec![expr(callee)];
            items.extend(args.iter().map(arg));
            items.extend(
                kwargs
                    .iter()
                    .map(|k| list("kw", [k.name.to_string(), expr(&k.value)])),
            );
            list(if *dotted { ".call" } else { "call" }, items)
        }
        ExprKind::Curly { name, params } => list(
            "curly",
            std::iter::once(name.to_string()).chain(params.iter().map(expr)),
        ),
        ExprKind::Index { target, indices } => list(
            "ref",
            std::iter::once(expr(target)).chain(indices.iter().map(expr)),
        ),
        ExprKind::Field { target, field } => list(".", [expr(target), field.to_string()]),
        ExprKind::Adjoint(x) => list("'", [expr(x)]),
        ExprKind::Splat(x) => list("...", [expr(x)]),
        ExprKind::Lambda(f) => function("->", f),
        ExprKind::Function(f) => function("function", f),
        ExprKind::Block(b) => block("block", b),
        ExprKind::Let { bindings, body } => {
            let bs = bindings.iter().map(|(n, v)| match v {
                Some(v) => list("=", [n.to_string(), expr(v)]),
                None => n.to_string(),
            });
            list("let", [list("bindings", bs), block("block", body)])
        }
        ExprKind::If {
            branches,
            otherwise,
        } => {
            let mut items = Vec::new();
            for (i, (c, b)) in branches.iter().enumerate() {
                if i == 0 {
                    items.push(expr(c));
                    items.push(block("block", b));
                } else {
                    items.push(list("elseif", [expr(c), block("block", b)]));
                }
            }
            if let Some(o) = otherwise {
                items.push(block("else", o));
            }
            list("if", items)
        }
        ExprKind::For { generators, body } => list(
            "for",
            [
                list("iter", generators.iter().map(generator)),
                block("block", body),
            ],
        ),
        ExprKind::While { cond, body } => list("while", [expr(cond), block("block", body)]),
        ExprKind::Break => "break".into(),
        ExprKind::Continue => "continue".into(),
        ExprKind::Return(v) => list("return", v.iter().map(|v| expr(v))),
        ExprKind::Try {
            body,
            catch_var,
            catch_body,
            finally,
        } => {
            let mut items = vec![block("block", body)];
            if let Some(c) = catch_body {
                let var = catch_var.map_or("_".to_string(), |n| n.to_string());
                items.push(list("catch", [var, block("block", c)]));
            }
            if let Some(f) = finally {
                items.push(block("finally", f));
            }
            list("try", items)
        }
        ExprKind::Assign {
            target,
            op,
            dotted,
            value,
        } => {
            let head = format!(
                "{}{}=",
                if *dotted { "." } else { "" },
                op.map_or("", |o| o.symbol())
            );
            list(&head, [expr(target), expr(value)])
        }
        ExprKind::Declare { global, bindings } => {
            let bs = bindings.iter().map(|(n, v)| match v {
                Some(v) => list("=", [n.to_string(), expr(v)]),
                None => n.to_string(),
            });
            list(if *global { "global" } else { "local" }, bs)
        }
        ExprKind::Macro { name, args } => list(&format!("@{name}"), args.iter().map(expr)),
        ExprKind::Interpolate(x) => list("$", [expr(x)]),
        ExprKind::Using => "using".into(),
        ExprKind::Import {
            module,
            names,
            renamed,
        } => list(
            &format!("import {module}"),
            names
                .iter()
                .map(|n| n.to_string())
                .chain(renamed.iter().map(|(a, b)| format!("{a} as {b}"))),
        ),
        ExprKind::ModuleAlias(aliases) => list(
            "import",
            aliases
                .iter()
                .map(|(module, alias)| format!("{module} as {alias}")),
        ),
        ExprKind::TypeAssert { value, ty } => list("::", [expr(value), expr(ty)]),
        ExprKind::Struct(d) => {
            let mut items = vec![d.name.to_string()];
            if d.mutable {
                items.insert(0, "mutable".into());
            }
            if !d.params.is_empty() {
                items.push(list("params", d.params.iter().map(|p| p.to_string())));
            }
            if let Some(s) = &d.supertype {
                items.push(list("<:", [expr(s)]));
            }
            items.extend(d.fields.iter().map(|(f, t)| match t {
                Some(t) => list("::", [f.to_string(), expr(t)]),
                None => f.to_string(),
            }));
            items.extend(d.constructors.iter().map(|c| function("function", c)));
            list("struct", items)
        }
        ExprKind::AbstractType {
            name,
            params,
            supertype,
        } => {
            let mut items = vec![name.to_string()];
            items.extend(params.iter().map(|p| p.to_string()));
            if let Some(s) = supertype {
                items.push(list("<:", [expr(s)]));
            }
            list("abstract", items)
        }
        ExprKind::Nothing => "nothing".into(),
    }
}

/// Checks that every node of `block` has a span inside `src`, on character boundaries.
pub fn check_spans(src: &str, block: &[Expr]) {
    let mut stack: Vec<&Expr> = block.iter().collect();
    while let Some(e) = stack.pop() {
        let (start, end) = (e.span.start as usize, e.span.end as usize);
        assert!(
            start <= end && end <= src.len(),
            "span {:?} outside {src:?}",
            e.span
        );
        assert!(
            src.is_char_boundary(start) && src.is_char_boundary(end),
            "span {:?} splits a character in {src:?}",
            e.span
        );
        children(e, &mut stack);
    }
}

/// Pushes the direct sub-expressions of `e`.
pub fn children<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    let args = |out: &mut Vec<&'a Expr>, args: &'a [Arg]| out.extend(args.iter().map(|a| &a.value));
    let func = |out: &mut Vec<&'a Expr>, f: &'a FunctionDef| {
        out.extend(f.body.iter());
        out.extend(
            f.params
                .iter()
                .chain(&f.kwparams)
                .filter_map(|p| p.default.as_ref()),
        );
    };
    match &e.kind {
        ExprKind::Str(parts) => out.extend(parts.iter().filter_map(|p| match p {
            StrPart::Interp(e) => Some(e),
            StrPart::Text(_) => None,
        })),
        ExprKind::Tuple(a) | ExprKind::Vector(a) => args(out, a),
        ExprKind::Concat(rows) => out.extend(rows.iter().flatten()),
        ExprKind::TypedVector { elements, .. } => out.extend(elements.iter()),
        ExprKind::TypedLiteral { literal, .. } => out.push(literal),
        ExprKind::Comprehension {
            body,
            generators,
            filter,
            ..
        } => {
            out.push(body);
            out.extend(generators.iter().map(|g| &g.iter));
            out.extend(filter.as_deref());
        }
        ExprKind::Range { start, step, stop } => {
            out.push(start);
            out.extend(step.as_deref());
            out.push(stop);
        }
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::And(lhs, rhs) | ExprKind::Or(lhs, rhs) => {
            out.push(lhs);
            out.push(rhs);
        }
        ExprKind::Unary { operand, .. } => out.push(operand),
        ExprKind::Ternary {
            cond,
            then,
            otherwise,
        } => out.extend([&**cond, then, otherwise]),
        ExprKind::Call {
            callee,
            args: a,
            kwargs,
            ..
        } => {
            out.push(callee);
            args(out, a);
            out.extend(kwargs.iter().map(|k| &k.value));
        }
        ExprKind::Curly { params, .. } => out.extend(params.iter()),
        ExprKind::Index { target, indices } => {
            out.push(target);
            out.extend(indices.iter());
        }
        ExprKind::Field { target, .. } => out.push(target),
        ExprKind::Adjoint(x) | ExprKind::Splat(x) | ExprKind::Interpolate(x) => out.push(x),
        ExprKind::Lambda(f) | ExprKind::Function(f) => func(out, f),
        ExprKind::Block(b) => out.extend(b.iter()),
        ExprKind::Let { bindings, body } => {
            out.extend(bindings.iter().filter_map(|(_, v)| v.as_ref()));
            out.extend(body.iter());
        }
        ExprKind::Declare { bindings, .. } => {
            out.extend(bindings.iter().filter_map(|(_, v)| v.as_ref()));
        }
        ExprKind::If {
            branches,
            otherwise,
        } => {
            for (c, b) in branches {
                out.push(c);
                out.extend(b.iter());
            }
            out.extend(otherwise.iter().flatten());
        }
        ExprKind::For { generators, body } => {
            out.extend(generators.iter().map(|g| &g.iter));
            out.extend(body.iter());
        }
        ExprKind::While { cond, body } => {
            out.push(cond);
            out.extend(body.iter());
        }
        ExprKind::Return(v) => out.extend(v.as_deref()),
        ExprKind::Try {
            body,
            catch_body,
            finally,
            ..
        } => {
            out.extend(body.iter());
            out.extend(catch_body.iter().flatten());
            out.extend(finally.iter().flatten());
        }
        ExprKind::Assign { target, value, .. } => {
            out.push(target);
            out.push(value);
        }
        ExprKind::Macro { args, .. } => out.extend(args.iter()),
        ExprKind::TypeAssert { value, ty } => {
            out.push(value);
            out.push(ty);
        }
        ExprKind::Struct(d) => {
            out.extend(d.supertype.as_deref());
            out.extend(d.fields.iter().filter_map(|(_, t)| t.as_ref()));
        }
        ExprKind::AbstractType { supertype, .. } => out.extend(supertype.as_deref()),
        _ => {}
    }
}
