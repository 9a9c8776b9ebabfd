//! Collections: membership, `push!`, `append!`, `keys`, `haskey`, tuples and vectors of values.

use super::Args;
use crate::error::ErrorKind;
use crate::eval::iterate::elements;
use crate::eval::operators::values_equal;
use crate::eval::{fail, EvalResult, Interp};
use crate::value::Value;

/// `item in collection`.
pub fn contains(_: &mut Interp, collection: &Value, item: &Value) -> EvalResult {
    if let (Value::Range(r), Some(x)) = (collection, super::to_float(item, "in").ok()) {
        let k = (x - r.start) / r.step;
        return Ok(Value::Bool(
            k >= 0.0 && k.fract() == 0.0 && (k as usize) < r.len,
        ));
    }
    let items = elements(collection)?;
    Ok(Value::Bool(items.iter().any(|v| values_equal(v, item))))
}

fn in_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("in", 2, 2)?;
    contains(interp, &args.pos[1], &args.pos[0])
}

fn haskey_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("haskey", 2, 2)?;
    match (&args.pos[0], &args.pos[1]) {
        (Value::NamedTuple(items), Value::Symbol(s)) => {
            Ok(Value::Bool(items.iter().any(|(k, _)| k == s)))
        }
        (d, key) if super::dict::as_dict(d).is_some() => Ok(Value::Bool(
            super::dict::as_dict(d).is_some_and(|d| d.get(key).is_some()),
        )),
        (other, _) => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching haskey(::{}, ...)", other.type_name()),
        )),
    }
}

fn keys_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("keys", 1, 1)?;
    if let Some(d) = super::dict::as_dict(&args.pos[0]) {
        return super::dict::keys_of(interp, d);
    }
    match &args.pos[0] {
        Value::NamedTuple(items) => Ok(Value::Tuple(std::rc::Rc::new(
            items.iter().map(|(k, _)| Value::Symbol(*k)).collect(),
        ))),
        other => super::arrays::eachindex_of(other),
    }
}

fn values_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("values", 1, 1)?;
    if let Some(d) = super::dict::as_dict(&args.pos[0]) {
        return super::dict::values_of(interp, d);
    }
    match &args.pos[0] {
        Value::NamedTuple(items) => Ok(Value::Tuple(std::rc::Rc::new(
            items.iter().map(|(_, v)| v.clone()).collect(),
        ))),
        other => Ok(other.clone()),
    }
}

fn isa_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isa", 2, 2)?;
    let Some(ty) = crate::types::Type::from_value(&args.pos[1]) else {
        return Err(fail(
            ErrorKind::TypeError,
            format!("isa: {} is not a type", crate::display::repr(&args.pos[1])),
        ));
    };
    Ok(Value::Bool(ty.contains(&args.pos[0])))
}

fn tuple_(_: &mut Interp, args: Args) -> EvalResult {
    Ok(Value::Tuple(std::rc::Rc::new(args.pos)))
}

/// `only(x)`: the one element of a collection.
fn only_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("only", 1, 1)?;
    let mut items = elements(&args.pos[0])?;
    match items.len() {
        1 => Ok(items.pop().expect("one element")),
        0 => Err(fail(
            ErrorKind::ArgumentError,
            "Collection is empty, must contain exactly 1 element",
        )),
        _ => Err(fail(
            ErrorKind::ArgumentError,
            "Collection has multiple elements, must contain exactly 1 element",
        )),
    }
}

/// `issorted(x; rev=false)`: whether the numbers of `x` are in order.
fn issorted_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("issorted", 1, 1)?;
    let rev = matches!(args.kw("rev"), Some(Value::Bool(true)));
    let items = elements(&args.pos[0])?;
    let mut numbers = Vec::with_capacity(items.len());
    for item in &items {
        numbers.push(super::to_float(item, "issorted")?);
    }
    let sorted = numbers.windows(2).all(|w| {
        let (a, b) = if rev { (w[1], w[0]) } else { (w[0], w[1]) };
        a.total_cmp(&b) != std::cmp::Ordering::Greater
    });
    Ok(Value::Bool(sorted))
}

crate::builtins! {
    "issorted" => issorted_, false, "    issorted(x; rev=false)\n\nWhether the numbers of `x` are in increasing order (decreasing with `rev=true`).\n\n```\njulia> issorted([1, 2, 2, 5]), issorted([3, 1]; rev=true)\n(true, true)\n```";
    "only" => only_, false, "    only(x)\n\nThe one element of the collection `x`; an `ArgumentError` when it has none or several.\n\n```\njulia> only([7])\n7\n\njulia> only(filter(iseven, 1:3))\n2\n```";
    "in" => in_, false, "    in(x, collection)\n    x ∈ collection\n\nWhether `x` is an element of the collection.\n\n```\njulia> 2 in [1, 2, 3]\ntrue\n```";
    "haskey" => haskey_, false, "    haskey(d, key)\n    haskey(nt, :key)\n\nWhether a `Dict` has an entry for `key`, or a named tuple a field.\n\n```\njulia> haskey((a = 1,), :a)\ntrue\n```";
    "keys" => keys_, false, "    keys(x)\n\nThe keys of a `Dict` (a vector, in the `Dict`'s insertion order), of a named tuple, or the indices of an array.\n\n```\njulia> keys((a = 1, b = 2))\n(:a, :b)\n```";
    "values" => values_, false, "    values(x)\n\nThe values of a `Dict` (a vector, in its insertion order) or of a named tuple.\n\n```\njulia> values((a = 1, b = 2))\n(1, 2)\n```";
    "isa" => isa_, false, "    isa(x, T)\n    x isa T\n\nWhether `x` is of type `T` (`Float64`, `Int`, `Number`, `AbstractVector`, `Function`, ...).\n\n```\njulia> [1.0, 2.0] isa AbstractVector\ntrue\n```";
    "tuple" => tuple_, false, "    tuple(xs...)\n\nA tuple of the arguments.\n\n```\njulia> tuple(1, 2)\n(1, 2)\n```";
}
