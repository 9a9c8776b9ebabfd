//! The types a collection holds: `eltype`, `keytype` and `valtype`, of values and of types
//! (`eltype(Vector{Int})`), as Julia answers them.

use super::Args;
use crate::error::EvalResult;
use crate::eval::Interp;
use crate::show::ElType;
use crate::types::{pair_def, Prim, Type};
use crate::value::Value;

/// The type of the values `x` iterates over.
fn element_type(x: &Value) -> Type {
    match x {
        Value::Str(_) => Type::Prim(Prim::Char),
        // A number iterates over itself.
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Real(_) => Type::of(x),
        Value::Tuple(items) => Type::union(items.iter().map(Type::of).collect()),
        Value::NamedTuple(fields) => Type::union(fields.iter().map(|(_, v)| Type::of(v)).collect()),
        Value::Struct(s) if s.is_pair() => Type::union(s.params.to_vec()),
        _ => match Type::from_value(x) {
            Some(t) if !matches!(x, Value::Struct(_)) => element_type_of_type(&t),
            _ => element_type_of_type(&Type::of(x)),
        },
    }
}

/// The element type of values of type `t`: the parameter of a container type, a dictionary's
/// `Pair{K, V}`, a number type itself.
fn element_type_of_type(t: &Type) -> Type {
    match t {
        Type::Applied(Prim::Dict, params) => Type::UserApplied(pair_def(), params.clone()),
        Type::Applied(Prim::Tuple, params) => Type::union(params.to_vec()),
        Type::Applied(_, params) if !params.is_empty() => params[0].clone(),
        Type::Prim(p) if p.is_subtype(Prim::Number) => t.clone(),
        Type::Prim(Prim::String) => Type::Prim(Prim::Char),
        _ => Type::Prim(Prim::Any),
    }
}

/// `items` collected into a vector whose element type, when there are none, is `eltype`
/// (`collect(Set{Int}())` is `Int64[]`, not `Float64[]`).
pub fn collect_as(interp: &Interp, items: Vec<Value>, eltype: &Type) -> EvalResult {
    if !items.is_empty() {
        let n = items.len();
        return crate::eval::collections::collect_values(interp, items, &[n]);
    }
    let numbers = |elt| Value::array(elt, &[0], Vec::new());
    Ok(match eltype {
        Type::Prim(Prim::Int64) => numbers(ElType::Int64),
        Type::Prim(Prim::Float64) => numbers(ElType::Float64),
        Type::Prim(Prim::Bool) => numbers(ElType::Bool),
        other => Value::declared_list(other.clone(), Vec::new()),
    })
}

/// `collect(x)` of an iterable that is not an array or a range.
pub fn collect_iterable(interp: &Interp, x: &Value) -> EvalResult {
    let items = crate::value::iterate::elements(x)?;
    collect_as(interp, items, &element_type(x))
}

/// A type as the value `typeof` would give.
fn as_value(t: Type) -> Value {
    let name = t.to_string();
    super::io::type_as_value(t, &name)
}

fn eltype_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("eltype", 1, 1)?;
    Ok(as_value(element_type(&args.pos[0])))
}

/// The key (`0`) or value (`1`) parameter of a dictionary or its type; for other
/// collections, the type of `keys(x)` or `values(x)` elements.
fn dict_part(interp: &mut Interp, x: &Value, part: usize) -> EvalResult {
    let t = Type::from_value(x)
        .filter(|_| !matches!(x, Value::Struct(_)))
        .unwrap_or_else(|| Type::of(x));
    if let Type::Applied(Prim::Dict, params) = t {
        return Ok(as_value(params[part].clone()));
    }
    let listing = if part == 0 { "keys" } else { "values" };
    let items = super::call_named(interp, listing, vec![x.clone()])?;
    Ok(as_value(element_type(&items)))
}

fn keytype_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("keytype", 1, 1)?;
    dict_part(interp, &args.pos[0], 0)
}

fn valtype_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("valtype", 1, 1)?;
    dict_part(interp, &args.pos[0], 1)
}

crate::builtins! {
    "eltype" => eltype_, false, "    eltype(x)\n\nThe type of the elements `x` holds or iterates over: an array's element type, `Pair{K, V}` for a `Dict{K, V}`, `Char` for a string, the union of a tuple's types. A type works too (`eltype(Vector{Int})`).\n\n```\njulia> eltype([1, 2]), eltype(Dict(\"a\" => 1.0)), eltype(\"abc\"), eltype((1, 2.0))\n(Int64, Pair{String, Float64}, Char, Union{Float64, Int64})\n```";
    "keytype" => keytype_, false, "    keytype(d)\n\nThe type of the keys of the dictionary `d` (or of its type); for an array, the type of its indices.\n\n```\njulia> keytype(Dict(\"a\" => 1.0)), keytype([1.0, 2.0])\n(String, Int64)\n```";
    "valtype" => valtype_, false, "    valtype(d)\n\nThe type of the values of the dictionary `d` (or of its type); for an array, its element type.\n\n```\njulia> valtype(Dict(\"a\" => 1.0)), valtype([1, 2])\n(Float64, Int64)\n```";
}
