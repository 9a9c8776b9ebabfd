//! The type parameters a struct's default constructor infers from its arguments: each
//! field's declared type (`v::T`, `W::Matrix{T}`, `t::Tuple{A, B}`, `b::Box{T}`) is matched
//! against the type of the value given for it.

use super::dispatch::arg_types;
use crate::error::{fail, ErrorKind, Flow};
use crate::types::{Prim, Type, TypeDef};
use crate::value::Value;
use difflab_syntax::Name;
use std::rc::Rc;

/// The type parameters of a struct from the arguments of its default constructor.
pub(super) fn infer_params(def: &TypeDef, args: &[Value]) -> Result<Rc<[Type]>, Flow> {
    let mut bound: Vec<Option<Type>> = vec![None; def.params.len()];
    let mut found = Vec::new();
    for ((_, ty), v) in def.fields.iter().zip(args) {
        if let Some(ty) = ty {
            bind_vars(ty, &Type::of(v), &mut found);
        }
    }
    for (var, actual) in found {
        let Some(k) = def.params.iter().position(|p| *p == var) else {
            continue;
        };
        match &bound[k] {
            None => bound[k] = Some(actual),
            Some(previous) if *previous == actual => {}
            // A number carrying derivatives next to a plain one (`D(x, one(x))` while `x` is
            // differentiated, where `one(x)` is a plain 1.0): both are that kind of number.
            Some(previous) if carries_derivatives(previous, &actual) => {
                bound[k] = Some(Type::Prim(Prim::Dual));
            }
            Some(_) => {
                return Err(fail(
                    ErrorKind::MethodError,
                    format!("no method matching {}({})", def.name, arg_types(args)),
                ))
            }
        }
    }
    bound
        .into_iter()
        .zip(&def.params)
        .map(|(t, p)| {
            t.ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!(
                        "no method matching {}({}): the parameter {p} cannot be inferred",
                        def.name,
                        arg_types(args)
                    ),
                )
            })
        })
        .collect()
}

/// The type parameters a field's declared type binds when a value of type `actual` fills it:
/// `T` in `T`, `Vector{T}`, `AbstractMatrix{T}`, `Tuple{T, S}` or `Box{T}`.
fn bind_vars(declared: &Type, actual: &Type, found: &mut Vec<(Name, Type)>) {
    let pairwise = |ps: &[Type], qs: &[Type], found: &mut Vec<(Name, Type)>| {
        for (p, q) in ps.iter().zip(qs) {
            bind_vars(p, q, found);
        }
    };
    match (declared, actual) {
        (Type::Var(var), _) => found.push((*var, actual.clone())),
        (Type::Applied(p, ps), Type::Applied(q, qs)) if ps.len() == qs.len() => {
            let within =
                p == q || Type::Applied(*q, qs.clone()).is_subtype(&Type::Applied(*p, qs.clone()));
            if within {
                pairwise(ps, qs, found);
            }
        }
        (Type::UserApplied(d, ps), Type::UserApplied(e, qs))
            if Rc::ptr_eq(d, e) && ps.len() == qs.len() =>
        {
            pairwise(ps, qs, found)
        }
        _ => {}
    }
}

/// Whether two numeric types are a number carrying derivatives and a plain real.
fn carries_derivatives(a: &Type, b: &Type) -> bool {
    let dual = Type::Prim(Prim::Dual);
    let real = Type::Prim(Prim::Real);
    (*a == dual && b.is_subtype(&real)) || (*b == dual && a.is_subtype(&real))
}
