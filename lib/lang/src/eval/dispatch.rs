//! Method selection: which methods of a function apply to a call's arguments, the most
//! specific of them (Julia's rules, with the ambiguity when there is none), and how methods and
//! calls are written in errors and in `methods(f)`.

use crate::error::ErrorKind;
use crate::error::{fail, Flow};
use crate::types::{Prim, Type};
use crate::value::{Closure, Value};
use difflab_syntax::{ExprKind, FunctionDef};
use std::rc::Rc;

/// Every method of a user function.
pub fn all_methods(closure: &Rc<Closure>) -> impl DoubleEndedIterator<Item = &Rc<Closure>> {
    std::iter::once(closure).chain(closure.methods.iter())
}

/// Two methods with the same signature: the newer replaces the older.
pub(super) fn same_signature(a: &Closure, b: &Closure) -> bool {
    a.signature == b.signature
        && vararg(&a.def) == vararg(&b.def)
        && required(&a.def) == required(&b.def)
}

/// Whether the definition ends with a vararg `args...`.
pub(super) fn vararg(def: &FunctionDef) -> bool {
    def.params.iter().any(|p| p.vararg)
}

/// The number of arguments a call must give (with the object of a callable type).
pub(super) fn required(def: &FunctionDef) -> usize {
    def.params
        .iter()
        .filter(|p| p.default.is_none() && !p.vararg)
        .count()
        + usize::from(def.callable.is_some())
}

/// The declared type of the `i`-th argument of `m` (a vararg's type repeats).
pub(super) fn arg_type(m: &Closure, i: usize) -> &Type {
    let last = m.signature.len().saturating_sub(1);
    &m.signature[i.min(last)]
}

pub(super) fn accepts(m: &Closure, args: &[Value]) -> bool {
    let n = args.len();
    let max = m.signature.len();
    let ok_count = n >= required(&m.def) && (vararg(&m.def) || n <= max);
    ok_count
        && (m.signature.is_empty()
            || args
                .iter()
                .enumerate()
                .all(|(i, a)| arg_type(m, i).contains(a)))
        && diagonal_holds(&m.def, args)
}

/// The positions of each type variable that is the whole annotation of two or more
/// parameters (`f(x::T, y::T) where T`): the arguments there must have one type.
fn diagonal_positions(def: &FunctionDef) -> impl Iterator<Item = Vec<usize>> + '_ {
    def.type_vars.iter().filter_map(|var| {
        let positions: Vec<usize> = def
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                p.annotation
                    .as_deref()
                    .is_some_and(|a| matches!(a.kind, ExprKind::Ident(n) if n == var.name))
            })
            .map(|(i, _)| i)
            .collect();
        (positions.len() >= 2).then_some(positions)
    })
}

fn diagonal_holds(def: &FunctionDef, args: &[Value]) -> bool {
    diagonal_positions(def).all(|positions| {
        let mut types = positions.iter().filter_map(|&i| args.get(i)).map(Type::of);
        let first = types.next();
        types.all(|t| Some(t) == first)
    })
}

/// Whether `m` declares exactly the concrete types of `args` (no vararg, no defaults).
pub(super) fn exactly_for(m: &Closure, args: &[Value]) -> bool {
    m.signature.len() == args.len()
        && !vararg(&m.def)
        && m.signature
            .iter()
            .zip(args)
            .all(|(t, a)| *t != Type::Prim(Prim::Any) && *t == Type::of(a))
}

/// Whether `a` is at least as specific as `b` for a call with `n` arguments. Of two methods
/// with the same types, one that requires arguments of one type (`f(x::T, y::T) where T`) is
/// the more specific, as in Julia.
pub(super) fn at_least_as_specific(a: &Closure, b: &Closure, n: usize) -> bool {
    let narrower =
        |a: &Closure, b: &Closure| (0..n).all(|i| arg_type(a, i).is_subtype(arg_type(b, i)));
    narrower(a, b)
        && !(narrower(b, a)
            && diagonal_positions(&b.def).next().is_some()
            && diagonal_positions(&a.def).next().is_none())
}

/// Why no single method was chosen.
pub(crate) enum Selection {
    /// No method applies.
    NoMatch,
    /// Several applicable methods, none more specific than the others.
    Ambiguous(Vec<Rc<Closure>>),
}

/// The most specific method of `methods` applicable to `args`.
pub(crate) fn select<'a>(
    methods: impl Iterator<Item = &'a Rc<Closure>>,
    args: &[Value],
) -> Result<&'a Rc<Closure>, Selection> {
    let mut matching = methods.filter(|m| accepts(m, args));
    let first = matching.next().ok_or(Selection::NoMatch)?;
    // A method declared for exactly the arguments' types is the most specific one.
    if exactly_for(first, args) {
        return Ok(first);
    }
    let Some(second) = matching.next() else {
        return Ok(first);
    };
    let applicable: Vec<&Rc<Closure>> = [first, second].into_iter().chain(matching).collect();
    let n = args.len();
    let best: Vec<&Rc<Closure>> = applicable
        .iter()
        .copied()
        .filter(|m| {
            applicable
                .iter()
                .all(|other| Rc::ptr_eq(m, other) || at_least_as_specific(m, other, n))
        })
        .collect();
    match best.as_slice() {
        [one] => Ok(one),
        // Equally specific: a method without a vararg or defaults wins (`f(x)` over
        // `f(x, y = 1)`), as the narrower arity does in Julia.
        [_, ..] => Ok(best
            .iter()
            .copied()
            .min_by_key(|m| (vararg(&m.def), m.def.params.len()))
            .expect("best is not empty")),
        [] => Err(Selection::Ambiguous(
            applicable.into_iter().cloned().collect(),
        )),
    }
}

pub(super) fn ambiguity(name: &str, args: &[Value], candidates: &[Rc<Closure>]) -> Flow {
    let mut message = format!("{name}({}) is ambiguous.\n\nCandidates:", arg_types(args));
    for m in candidates {
        message.push_str("\n  ");
        message.push_str(&signature_text(name, m));
    }
    fail(ErrorKind::MethodError, message)
}

pub(super) fn arg_types(args: &[Value]) -> String {
    args.iter()
        .map(|a| format!("::{}", a.type_name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `f(x::Int64, y)` as `methods` and errors print a method.
pub fn signature_text(name: &str, m: &Closure) -> String {
    let mut parts = Vec::new();
    let offset = usize::from(m.def.callable.is_some());
    for (i, p) in m.def.params.iter().enumerate() {
        let pname = match &p.pattern {
            difflab_syntax::Pattern::Name(n) if n.as_str() != "_" => n.to_string(),
            difflab_syntax::Pattern::Name(_) => String::new(),
            difflab_syntax::Pattern::Tuple(_) => "(…)".to_string(),
        };
        let ty = &m.signature[i + offset];
        let mut text = if matches!(ty, Type::Prim(Prim::Any)) {
            pname
        } else {
            format!("{pname}::{ty}")
        };
        if p.vararg {
            text.push_str("...");
        }
        parts.push(text);
    }
    let head = match &m.def.callable {
        Some(_) => format!("(::{})", m.signature[0]),
        None => name.to_string(),
    };
    format!("{head}({})", parts.join(", "))
}
