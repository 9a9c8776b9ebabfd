//! Higher-order functions: composition `f ∘ g`, `map`, `reduce`, `mapreduce`, `foreach`,
//! `filter`.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::{collections::collect_values, Interp};
use crate::object::Object;
use crate::value::iterate::{elements, iterate};
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;
use std::rc::Rc;

/// `f ∘ g`: calls `g`, then `f` on its result.
pub struct Composed {
    outer: Value,
    inner: Value,
}

impl Drop for Composed {
    fn drop(&mut self) {
        crate::value::release([self.outer.take(), self.inner.take()]);
    }
}

impl Object for Composed {
    fn type_name(&self) -> String {
        "ComposedFunction".into()
    }

    fn show(&self) -> String {
        format!(
            "{} ∘ {}",
            crate::display::repr(&self.outer),
            crate::display::repr(&self.inner)
        )
    }

    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        kwargs: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        Some(
            interp
                .call_value(&self.inner, args, kwargs)
                .and_then(|v| interp.call(&self.outer, vec![v])),
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `a ∘ b`.
pub fn compose(a: &Value, b: &Value) -> EvalResult {
    Ok(Value::Object(Rc::new(Box::new(Composed {
        outer: a.clone(),
        inner: b.clone(),
    }))))
}

/// `broadcast(f, xs...)`: the same as `f.(xs...)`.
fn broadcast_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("broadcast", 2, usize::MAX)?;
    let f = args.pos[0].clone();
    interp.broadcast_call(&f, args.pos[1..].to_vec(), Vec::new())
}

/// `broadcast!(f, dest, xs...)`: the same as `dest .= f.(xs...)`, returning `dest`.
fn broadcast_in_place(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("broadcast!", 3, usize::MAX)?;
    let f = args.pos[0].clone();
    let result = interp.broadcast_call(&f, args.pos[2..].to_vec(), Vec::new())?;
    interp.fill_all(&args.pos[1], &result)?;
    Ok(args.pos[1].clone())
}

fn map_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("map", 2, usize::MAX)?;
    let f = args.pos[0].clone();
    if let [_, sparse @ Value::Sparse(_)] = args.pos.as_slice() {
        // As Julia's: the map of a sparse array is a sparse array.
        return super::sparse::arith::broadcast_over_sparse(
            interp,
            &f,
            std::slice::from_ref(sparse),
            Vec::new(),
        );
    }
    // Arrays of one shape, or one range: the broadcast, which runs a compiled function in
    // one loop.
    let arrays = &args.pos[1..];
    let same_shape = match arrays {
        [Value::Range(_)] => true,
        _ => arrays.iter().all(|a| match (a, &arrays[0]) {
            (Value::Array(a), Value::Array(b)) => {
                a.borrow().data.shape() == b.borrow().data.shape()
            }
            _ => false,
        }),
    };
    if same_shape {
        if let Some(result) = interp.broadcast_compiled(&f, arrays) {
            return result;
        }
    }
    // Walked in step and lazily: a range is never built, and the shortest collection ends it.
    let mut columns = args.pos[1..]
        .iter()
        .map(iterate)
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::new();
    while let Some(call_args) = columns.iter_mut().map(Iterator::next).collect() {
        interp.check_interrupt()?;
        out.push(interp.call(&f, call_args)?);
    }
    if let [_, Value::Str(_)] = args.pos.as_slice() {
        return string_of_chars(out).ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                "map(f, s::AbstractString) requires f to return AbstractChar; try map(f, collect(s)) or a comprehension instead",
            )
        });
    }
    // Over tuples alone, a tuple (named tuples keep their names), as in Julia.
    if args.pos[1..].iter().all(|c| matches!(c, Value::Tuple(_))) {
        return Ok(Value::tuple(out));
    }
    if let [_, Value::NamedTuple(fields)] = args.pos.as_slice() {
        let names = fields.iter().map(|(k, _)| *k);
        return Ok(Value::named_tuple(names.zip(out).collect()));
    }
    let n = out.len();
    let shape = match &args.pos[1] {
        Value::Array(a) if args.pos.len() == 2 => a.borrow().data.shape().to_vec(),
        _ => vec![n],
    };
    collect_values(interp, out, &shape)
}

fn foreach_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("foreach", 2, 2)?;
    for item in iterate(&args.pos[1])? {
        interp.call(&args.pos[0], vec![item])?;
    }
    Ok(Value::Nothing)
}

fn filter_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("filter", 2, 2)?;
    if let Some(set) = super::set::as_set(&args.pos[1]) {
        return super::set::filtered(set, |x| {
            predicate_holds(interp.call(&args.pos[0], vec![x.clone()])?)
        });
    }
    if let Some(dict) = super::dict::as_dict(&args.pos[1]) {
        return super::dict::filtered(dict, |entry| {
            predicate_holds(interp.call(&args.pos[0], vec![entry.clone()])?)
        });
    }
    let mut kept = Vec::new();
    if let Some(mask) = super::search::compiled_mask(interp, &args.pos[0], &args.pos[1])? {
        kept.extend(
            iterate(&args.pos[1])?
                .zip(mask)
                .filter_map(|(item, keep)| keep.then_some(item)),
        );
    } else {
        for item in iterate(&args.pos[1])? {
            if predicate_holds(interp.call(&args.pos[0], vec![item.clone()])?)? {
                kept.push(item);
            }
        }
    }
    if let Value::Str(_) = &args.pos[1] {
        return Ok(string_of_chars(kept).unwrap_or_else(|| Value::str("")));
    }
    let n = kept.len();
    collect_values(interp, kept, &[n])
}

/// The answer of `filter`'s predicate, which must be a `Bool`.
fn predicate_holds(answer: Value) -> Result<bool, crate::error::Flow> {
    match answer {
        Value::Bool(b) => Ok(b),
        other => Err(fail(
            ErrorKind::TypeError,
            format!("filter: predicate returned a {}", other.type_name()),
        )),
    }
}

/// The string of these characters (what `map` and `filter` of a string give); `None` if one is
/// not a character.
fn string_of_chars(items: Vec<Value>) -> Option<Value> {
    items
        .into_iter()
        .map(|v| match v {
            Value::Char(c) => Some(c),
            _ => None,
        })
        .collect::<Option<String>>()
        .map(Value::str)
}

fn empty_reduction() -> crate::error::Flow {
    fail(
        ErrorKind::ArgumentError,
        "reducing over an empty collection is not allowed; consider supplying `init`",
    )
}

/// Folds `op` over `items` from the left, starting from `init` or the first item.
pub fn fold(
    interp: &mut Interp,
    op: &Value,
    items: impl IntoIterator<Item = Value>,
    init: Option<Value>,
) -> EvalResult {
    let mut iter = items.into_iter();
    let Some(mut acc) = init.or_else(|| iter.next()) else {
        return Err(empty_reduction());
    };
    for item in iter {
        acc = interp.call(op, vec![acc, item])?;
    }
    Ok(acc)
}

/// `reduce(op, xs; init)` and `foldl(op, xs; init)`: the fold from the left.
fn reduce_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("reduce", 2, 2)?;
    let init = args.kw("init").cloned();
    let items = iterate(&args.pos[1])?;
    fold(interp, &args.pos[0], items, init)
}

/// `foldr(op, xs; init)`: `op(x₁, op(x₂, … op(xₙ, init)))`.
fn foldr_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("foldr", 2, 2)?;
    let init = args.kw("init").cloned();
    let mut items = elements(&args.pos[1])?.into_iter().rev();
    let Some(mut acc) = init.or_else(|| items.next()) else {
        return Err(empty_reduction());
    };
    for item in items {
        acc = interp.call(&args.pos[0], vec![item, acc])?;
    }
    Ok(acc)
}

/// `accumulate(op, xs; init)`: every partial fold from the left, as a vector.
fn accumulate_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("accumulate", 2, 2)?;
    let mut acc = args.kw("init").cloned();
    let items = elements(&args.pos[1])?;
    let mut partials = Vec::with_capacity(items.len());
    for item in items {
        let next = match acc {
            Some(acc) => interp.call(&args.pos[0], vec![acc, item])?,
            None => item,
        };
        partials.push(next.clone());
        acc = Some(next);
    }
    let n = partials.len();
    collect_values(interp, partials, &[n])
}

/// `ntuple(f, n)`: the tuple `(f(1), …, f(n))`.
fn ntuple_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("ntuple", 2, 2)?;
    let n = super::to_size(&args.pos[1], "ntuple")?;
    interp.check_alloc(n)?;
    let items = (1..=n)
        .map(|i| interp.call(&args.pos[0], vec![Value::Int(i as i64)]))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::tuple(items))
}

fn mapreduce_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("mapreduce", 3, 3)?;
    let init = args.kw("init").cloned();
    let (f, op) = (&args.pos[0], &args.pos[1]);
    let mut acc = init;
    for item in iterate(&args.pos[2])? {
        let mapped = interp.call(f, vec![item])?;
        acc = Some(match acc {
            Some(acc) => interp.call(op, vec![acc, mapped])?,
            None => mapped,
        });
    }
    acc.ok_or_else(empty_reduction)
}

crate::builtins! {
    "broadcast!" => broadcast_in_place, false, "    broadcast!(f, dest, xs...)\n\nBroadcasts `f` over `xs` into the existing array `dest` and returns it, as `dest .= f.(xs...)` does.\n\n```\njulia> A = zeros(2, 2); broadcast!(+, A, [1 2; 3 4], 10); A\n2×2 Matrix{Float64}:\n 11.0  12.0\n 13.0  14.0\n\njulia> v = [1.0, 2.0]; broadcast!(x -> 0.0, v, v); v\n2-element Vector{Float64}:\n 0.0\n 0.0\n```";
    "broadcast" => broadcast_, false, "    broadcast(f, xs...)\n\nApplies `f` elementwise with broadcasting, as `f.(xs...)` does (scalars and singleton dimensions are extended).\n\n```\njulia> broadcast(+, [1, 2], 10)\n2-element Vector{Int64}:\n 11\n 12\n\njulia> broadcast(-, [1.0, 2.0])\n2-element Vector{Float64}:\n -1.0\n -2.0\n```";
    "map" => map_, false, "    map(f, xs...)\n\nApplies `f` to each element (or to elements of several collections in step).\n\n```\njulia> map(x -> x^2, [1, 2, 3])\n3-element Vector{Int64}:\n 1\n 4\n 9\n```";
    "foreach" => foreach_, false, "    foreach(f, xs)\n\nCalls `f` on each element for its effect.\n\n```\njulia> foreach(println, 1:2)\n1\n2\n```";
    "filter" => filter_, false, "    filter(pred, xs)\n\nThe elements for which `pred` is true.\n\n```\njulia> filter(iseven, 1:6)\n3-element Vector{Int64}:\n 2\n 4\n 6\n```";
    "reduce" => reduce_, false, "    reduce(op, xs; init)\n\nCombines the elements with `op` from the left.\n\n```\njulia> reduce(+, [1, 2, 3])\n6\n```";
    "foldl" => reduce_, false, "    foldl(op, xs; init)\n\nCombines the elements with `op` from the left: `op(op(op(init, x₁), x₂), x₃)`.\n\n```\njulia> foldl(-, [1, 2, 3]; init=10)\n4\n```";
    "foldr" => foldr_, false, "    foldr(op, xs; init)\n\nCombines the elements with `op` from the right: `op(x₁, op(x₂, op(x₃, init)))`.\n\n```\njulia> foldr(-, [1, 2, 3]; init=10)\n-8\n```";
    "accumulate" => accumulate_, false, "    accumulate(op, xs; init)\n\nThe partial folds of `op` from the left (`cumsum` is `accumulate(+, xs)`).\n\n```\njulia> accumulate(*, [1, 2, 3, 4])\n4-element Vector{Int64}:\n  1\n  2\n  6\n 24\n```";
    "ntuple" => ntuple_, false, "    ntuple(f, n)\n\nThe tuple `(f(1), f(2), …, f(n))`.\n\n```\njulia> ntuple(i -> i^2, 3)\n(1, 4, 9)\n```";
    "mapreduce" => mapreduce_, false, "    mapreduce(f, op, xs; init)\n\n`reduce(op, map(f, xs))` without the intermediate array.\n\n```\njulia> mapreduce(abs2, +, [1, 2])\n5\n```";
}
