//! Collections: membership, `push!`, `append!`, `keys`, `haskey`, tuples and vectors of values.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::value::equality::values_equal;
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_syntax::Name;

/// `item in collection`.
pub fn contains(interp: &mut Interp, collection: &Value, item: &Value) -> EvalResult {
    if let (Value::Range(r), Some(x)) = (collection, super::to_float(item, "in").ok()) {
        let k = (x - r.start) / r.step;
        return Ok(Value::Bool(
            k >= 0.0 && k.fract() == 0.0 && (k as usize) < r.len,
        ));
    }
    if let Some(set) = super::set::as_set(collection) {
        return Ok(Value::Bool(set.contains(item)));
    }
    let items = elements(collection)?;
    let mut poll = interp.poll();
    for v in &items {
        poll.tick()?;
        if values_equal(v, item) {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

/// `f(x)` of a function of two arguments that Julia curries: `Base.Fix2(f, x)`.
fn curried(name: &str, x: &Value) -> EvalResult {
    let f = super::lookup(Name::new(name)).expect("a builtin");
    super::partial::fix2(Value::Builtin(f), x.clone())
}

fn in_(interp: &mut Interp, args: Args) -> EvalResult {
    if args.pos.len() == 1 {
        return curried("in", &args.pos[0]);
    }
    args.arity("in", 2, 2)?;
    contains(interp, &args.pos[1], &args.pos[0])
}

/// `ismissing(x)`: whether `x` is `missing` (which difflab represents by `nothing`).
fn ismissing_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("ismissing", 1, 1)?;
    Ok(Value::Bool(matches!(args.pos[0], Value::Nothing)))
}

/// `coalesce(xs...)`: the first argument that is not `missing`, else `missing`.
fn coalesce_(_: &mut Interp, args: Args) -> EvalResult {
    Ok(args
        .pos
        .iter()
        .find(|v| !matches!(v, Value::Nothing))
        .cloned()
        .unwrap_or(Value::Nothing))
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
        Value::NamedTuple(items) => Ok(Value::tuple(
            items.iter().map(|(k, _)| Value::Symbol(*k)).collect(),
        )),
        // The keys of a matrix are its cartesian indices, as in Julia.
        other if super::cartesian::shape_of(other).is_some_and(|s| s.len() > 1) => {
            super::call_named(interp, "CartesianIndices", vec![other.clone()])
        }
        other => super::arrays::eachindex_of(other),
    }
}

fn values_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("values", 1, 1)?;
    if let Some(d) = super::dict::as_dict(&args.pos[0]) {
        return super::dict::values_of(interp, d);
    }
    match &args.pos[0] {
        Value::NamedTuple(items) => {
            Ok(Value::tuple(items.iter().map(|(_, v)| v.clone()).collect()))
        }
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
    Ok(Value::tuple(args.pos))
}

/// `unique(x)`: the distinct elements in order of first appearance (numbers compared as
/// `isequal` does: `NaN` equals `NaN`, `-0.0` differs from `0.0`).
/// `unique(f, xs)`: the first element of `xs` for each distinct value of `f`.
fn unique_by(interp: &mut Interp, f: &Value, xs: &Value) -> EvalResult {
    let mut poll = interp.poll();
    let (mut kept, mut keys): (Vec<Value>, Vec<Value>) = (Vec::new(), Vec::new());
    let mut number_keys = std::collections::HashSet::new();
    for item in interp.elements_of(xs)? {
        poll.tick()?;
        let key = interp.call(f, vec![item.clone()])?;
        let new = match super::plain_number(&key) {
            // Numbers by value (`1 == 1.0`), in constant time.
            Some(x) => number_keys.insert(if x == 0.0 { 0 } else { x.to_bits() }),
            None => !keys.iter().any(|k| values_equal(k, &key)),
        };
        if new {
            keys.push(key);
            kept.push(item);
        }
    }
    let n = kept.len();
    crate::eval::collections::collect_values(interp, kept, &[n])
}

fn unique_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("unique", 1, 2)?;
    if let [f, xs] = &args.pos[..] {
        return unique_by(interp, f, xs);
    }
    if let Value::Array(a) = &args.pos[0] {
        let a = a.borrow();
        if a.data.is_plain() && a.data.shape().len() <= 1 {
            let mut seen = std::collections::HashSet::new();
            let kept: Vec<f64> = a
                .data
                .to_col_major()
                .into_iter()
                .filter(|x| {
                    seen.insert(if x.is_nan() {
                        f64::NAN.to_bits()
                    } else {
                        x.to_bits()
                    })
                })
                .collect();
            return Ok(super::array(a.eltype, &[kept.len()], kept));
        }
    }
    let mut kept: Vec<Value> = Vec::new();
    for item in elements(&args.pos[0])? {
        if !kept.iter().any(|k| values_equal(k, &item)) {
            kept.push(item);
        }
    }
    Ok(Value::list(kept))
}

/// `isequal(a, b)`: `==`, except that `NaN` equals `NaN` and `-0.0` differs from `0.0`.
fn isequal_(_: &mut Interp, args: Args) -> EvalResult {
    if args.pos.len() == 1 {
        return curried("isequal", &args.pos[0]);
    }
    args.arity("isequal", 2, 2)?;
    let numbers = |v: &Value| {
        crate::value::convert::operand(v)
            .ok()?
            .filter(|o| o.tensor().is_plain())
            .map(|o| (o.tensor().shape().to_vec(), o.tensor().to_col_major()))
    };
    Ok(Value::Bool(
        match (numbers(&args.pos[0]), numbers(&args.pos[1])) {
            (Some((sa, a)), Some((sb, b))) => {
                let same = |x: &f64, y: &f64| {
                    (x.is_nan() && y.is_nan())
                        || x.to_bits() == y.to_bits()
                        || (x == y && x != &0.0)
                };
                sa == sb && a.iter().zip(&b).all(|(x, y)| same(x, y))
            }
            _ => values_equal(&args.pos[0], &args.pos[1]),
        },
    ))
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

/// `Base.front(t)` (`first` is `false`) or `Base.tail(t)`: a tuple without its last or its
/// first element.
fn tuple_without_end(args: &Args, name: &str, last: bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    let Value::Tuple(items) = &args.pos[0] else {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", args.pos[0].type_name()),
        ));
    };
    if items.is_empty() {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("Cannot call {name} on an empty tuple."),
        ));
    }
    let kept = if last {
        &items[..items.len() - 1]
    } else {
        &items[1..]
    };
    Ok(Value::tuple(kept.to_vec()))
}

fn front_(_: &mut Interp, args: Args) -> EvalResult {
    tuple_without_end(&args, "front", true)
}

fn tail_(_: &mut Interp, args: Args) -> EvalResult {
    tuple_without_end(&args, "tail", false)
}

fn isnothing_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isnothing", 1, 1)?;
    Ok(Value::Bool(matches!(args.pos[0], Value::Nothing)))
}

fn something_(_: &mut Interp, args: Args) -> EvalResult {
    args.pos
        .iter()
        .find(|v| !matches!(v, Value::Nothing))
        .cloned()
        .ok_or_else(|| fail(ErrorKind::ArgumentError, "No value arguments present"))
}

crate::builtins! {
    "Base.front" => front_, false, "    Base.front(t)\n\nThe tuple `t` without its last element.\n\n```\njulia> Base.front((1, 2, 3))\n(1, 2)\n```";
    "Base.tail" => tail_, false, "    Base.tail(t)\n\nThe tuple `t` without its first element.\n\n```\njulia> Base.tail((1, 2, 3))\n(2, 3)\n```";
    "isnothing" => isnothing_, false, "    isnothing(x)\n\nWhether `x` is `nothing`.\n\n```\njulia> isnothing(findfirst(==(5), [1, 2])), isnothing(0)\n(true, false)\n```";
    "something" => something_, false, "    something(xs...)\n\nThe first argument that is not `nothing`; an `ArgumentError` when all are.\n\n```\njulia> something(findfirst(==(5), [1, 2]), 0)\n0\n```";
    "issorted" => issorted_, false, "    issorted(x; rev=false)\n\nWhether the numbers of `x` are in increasing order (decreasing with `rev=true`).\n\n```\njulia> issorted([1, 2, 2, 5]), issorted([3, 1]; rev=true)\n(true, true)\n```";
    "unique" => unique_, false, "    unique(x)\n    unique(f, x)\n\nThe distinct elements of `x` in order of first appearance; with `f`, the first element for each distinct value of `f`.\n\n```\njulia> unique([3, 1, 3, 2, 1])\n3-element Vector{Int64}:\n 3\n 1\n 2\n\njulia> unique(x -> x % 3, 1:6)\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "isequal" => isequal_, false, "    isequal(a, b)\n\nEquality as `Dict` keys and `unique` use it: like `==`, but `NaN` is equal to `NaN` and `-0.0` is not equal to `0.0`.\n\n```\njulia> isequal(NaN, NaN), NaN == NaN, isequal(-0.0, 0.0)\n(true, false, false)\n\njulia> isequal([1.0, NaN], [1, NaN])\ntrue\n```";
    "only" => only_, false, "    only(x)\n\nThe one element of the collection `x`; an `ArgumentError` when it has none or several.\n\n```\njulia> only([7])\n7\n\njulia> only(filter(iseven, 1:3))\n2\n```";
    "ismissing" => ismissing_, false, "    ismissing(x)\n\nWhether `x` is `missing`. difflab has no separate missing value: `missing` is `nothing`, so `ismissing(nothing)` is true too.\n\n```\njulia> ismissing(missing), ismissing(1)\n(true, false)\n```";
    "coalesce" => coalesce_, false, "    coalesce(xs...)\n\nThe first argument that is not `missing` (or `nothing`, the same value in difflab).\n\n```\njulia> coalesce(missing, 2, 3)\n2\n```";
    "in" => in_, false, "    in(x, collection)\n    x ∈ collection\n\nWhether `x` is an element of the collection.\n\n```\njulia> 2 in [1, 2, 3]\ntrue\n```";
    "haskey" => haskey_, false, "    haskey(d, key)\n    haskey(nt, :key)\n\nWhether a `Dict` has an entry for `key`, or a named tuple a field.\n\n```\njulia> haskey((a = 1,), :a)\ntrue\n```";
    "keys" => keys_, false, "    keys(x)\n\nThe keys of a `Dict` (a vector, in the `Dict`'s insertion order), of a named tuple, or the indices of an array.\n\n```\njulia> keys((a = 1, b = 2))\n(:a, :b)\n```";
    "values" => values_, false, "    values(x)\n\nThe values of a `Dict` (a vector, in its insertion order) or of a named tuple.\n\n```\njulia> values((a = 1, b = 2))\n(1, 2)\n```";
    "isa" => isa_, false, "    isa(x, T)\n    x isa T\n\nWhether `x` is of type `T` (`Float64`, `Int`, `Number`, `AbstractVector`, `Function`, ...).\n\n```\njulia> [1.0, 2.0] isa AbstractVector\ntrue\n```";
    "tuple" => tuple_, false, "    tuple(xs...)\n\nA tuple of the arguments.\n\n```\njulia> tuple(1, 2)\n(1, 2)\n```";
}
