//! Reductions: `sum`, `prod`, `maximum`, `minimum`, `mean`, `dot`, `norm`, `argmax`, ...
//!
//! Sums go through `ad::ops::sum_all`/`sum_dims` and extrema gather the selected element, so
//! every reduction here is differentiable.

use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::range_element;
use crate::value::convert::{from_tensor, operand, Operand};
use crate::value::iterate::elements;
use crate::value::{Range, Value};
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::Tensor;

fn numeric<'a>(v: &'a Value, name: &str) -> Result<Operand<'a>, Flow> {
    if let Value::Sparse(s) = v {
        // A reduction sees a sparse array as the dense array of its entries.
        let s = s.borrow();
        return Ok(Operand::owning(super::linalg::dense_tensor(&s)?, s.eltype));
    }
    operand(v)?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )
    })
}

/// The 0-based dimensions of a `dims` keyword (an Int or a tuple).
fn dims_kw(args: &Args, name: &str) -> Result<Option<Vec<usize>>, Flow> {
    let Some(d) = args.kw("dims") else {
        return Ok(None);
    };
    let list = match d {
        Value::Tuple(items) => items.to_vec(),
        other => vec![other.clone()],
    };
    list.iter()
        .map(|v| {
            let k = to_size(v, name)?;
            if k == 0 {
                return Err(fail(ErrorKind::ArgumentError, "dimensions must be ≥ 1"));
            }
            Ok(k - 1)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The shared front of `sum`, `prod`, `maximum` and `minimum`: `f(g, x)` reduces `g.(x)`, and
/// `init` is combined with the reduction by `combine` (`+`, `*`, `max`, `min`) or, for an
/// empty collection without `dims`, is the result.
fn reduction(
    interp: &mut Interp,
    args: Args,
    name: &str,
    combine: &str,
    reduce: impl Fn(&mut Interp, Args) -> EvalResult,
) -> EvalResult {
    args.arity(name, 1, 2)?;
    if let [f, Value::Range(r)] = args.pos.as_slice() {
        if r.len > RANGE_BLOCK && !args.has_keywords() {
            let (f, r) = (f.clone(), r.clone());
            return reduce_range_in_blocks(interp, &f, &r, combine, reduce);
        }
    }
    let args = if args.pos.len() == 2 {
        let mapped = interp.broadcast_call(&args.pos[0], vec![args.pos[1].clone()], vec![])?;
        args.with_positional(vec![mapped])
    } else {
        args
    };
    let combine = super::lookup(difflab_syntax::Name::new(combine))
        .map(Value::Builtin)
        .expect("combining functions are builtins");
    if let (Value::List(_) | Value::Tuple(_), None) = (&args.pos[0], args.kw("dims")) {
        return fold_elements(interp, &args.pos[0], &combine, args.kw("init"), name);
    }
    let Some(init) = args.kw("init").cloned() else {
        return reduce(interp, args);
    };
    let empty = super::arrays::length_of(&args.pos[0]) == Some(0);
    if empty && args.kw("dims").is_none() {
        return Ok(init);
    }
    let reduced = reduce(interp, args)?;
    interp.broadcast_call(&combine, vec![init, reduced], vec![])
}

/// `f(x)` for a tuple or a vector of anything: its elements folded with `combine` from the
/// first (or from `init`), as Julia's reductions do, so user number types need no method
/// taking an integer zero. Empty, only `sum` (0) and `prod` (1) have a value.
fn fold_elements(
    interp: &mut Interp,
    collection: &Value,
    combine: &Value,
    init: Option<&Value>,
    name: &str,
) -> EvalResult {
    let items = elements(collection)?;
    match (items.is_empty(), init, name) {
        (true, Some(init), _) => Ok(init.clone()),
        (true, None, "sum") => Ok(Value::Int(0)),
        (true, None, "prod") => Ok(Value::Int(1)),
        (true, None, _) => Err(fail(
            ErrorKind::ArgumentError,
            format!("reducing over an empty collection is not allowed ({name})"),
        )),
        (false, init, _) => super::functional::fold(interp, combine, items, init.cloned()),
    }
}

/// How many elements of a range `sum(f, r)` and its kin map at once: the range is never
/// built, as in Julia, whatever its length.
const RANGE_BLOCK: usize = 1 << 16;

/// `f(g, r)` for a long range `r`: `g` is broadcast over one block of elements at a time,
/// each block reduced, and the partial results combined with `combine`.
fn reduce_range_in_blocks(
    interp: &mut Interp,
    g: &Value,
    r: &Range,
    combine: &str,
    reduce: impl Fn(&mut Interp, Args) -> EvalResult,
) -> EvalResult {
    let combine = super::lookup(difflab_syntax::Name::new(combine))
        .map(Value::Builtin)
        .expect("combining functions are builtins");
    let eltype = r.eltype();
    let mut total: Option<Value> = None;
    for start in (0..r.len).step_by(RANGE_BLOCK) {
        interp.check_interrupt()?;
        // The elements as `range_tensor` makes them.
        let block: Vec<f64> = (start..(start + RANGE_BLOCK).min(r.len))
            .map(|k| r.get(k))
            .collect();
        let elements = super::array(eltype, &[block.len()], block);
        let mapped = interp.broadcast_call(g, vec![elements], vec![])?;
        let partial = reduce(interp, Args::positional(vec![mapped]))?;
        total = Some(match total {
            Some(acc) => interp.call(&combine, vec![acc, partial])?,
            None => partial,
        });
    }
    Ok(total.expect("a long range has a block"))
}

/// `sum(x)`, `sum(f, x)`, `sum(x; dims, init)`.
fn sum_(interp: &mut Interp, args: Args) -> EvalResult {
    reduction(interp, args, "sum", "+", sum_values)
}

fn sum_values(_: &mut Interp, args: Args) -> EvalResult {
    if let (Value::Range(r), None) = (&args.pos[0], args.kw("dims")) {
        return Ok(range_sum(r));
    }
    if let (Value::Sparse(m), None) = (&args.pos[0], args.kw("dims")) {
        // The stored entries only: a sparse Jacobian need not be densified to be summed.
        let m = m.borrow();
        let total: f64 = m.matrix.data().iter().sum();
        return Ok(match m.eltype {
            ElType::Float64 => Value::Float(total),
            _ => Value::Int(total as i64),
        });
    }
    let x = numeric(&args.pos[0], "sum")?;
    let eltype = if x.eltype == ElType::Float64 {
        ElType::Float64
    } else {
        ElType::Int64
    };
    if let Some(dims) = dims_kw(&args, "sum")? {
        return Ok(from_tensor(
            ops::sum_dims(x.tensor(), &dims)?,
            eltype,
            false,
        ));
    }
    Ok(from_tensor(ops::sum_all(x.tensor())?, eltype, true))
}

/// The sum of a range by Julia's formula, without building it: `l * first + step * l(l-1)/2`,
/// the halving done on whichever factor is even so the product stays within `Int`, and
/// integer ranges wrapping on overflow as Julia's `Int` arithmetic does.
fn range_sum(r: &Range) -> Value {
    if r.is_int {
        let (l, first, step) = (r.len as i64, r.start as i64, r.step as i64);
        let steps = if l % 2 == 0 {
            step.wrapping_mul(l - 1).wrapping_mul(l >> 1)
        } else {
            step.wrapping_mul(l).wrapping_mul((l - 1) >> 1)
        };
        return Value::Int(l.wrapping_mul(first).wrapping_add(steps));
    }
    let l = r.len as f64;
    Value::Float(l * r.start + r.step * (l * (l - 1.0) / 2.0))
}

/// `prod(x)`, `prod(f, x)`, `prod(x; dims, init)`.
fn prod_(interp: &mut Interp, args: Args) -> EvalResult {
    reduction(interp, args, "prod", "*", |_, args| prod_values(&args))
}

fn prod_values(args: &Args) -> EvalResult {
    let x = numeric(&args.pos[0], "prod")?;
    if let Some(dims) = dims_kw(args, "prod")? {
        return reduce_dims(&x, &dims, BinaryFn::Mul);
    }
    let eltype = if x.eltype == ElType::Float64 {
        ElType::Float64
    } else {
        ElType::Int64
    };
    let t = x.tensor();
    if t.is_plain() {
        return Ok(from_tensor(
            Tensor::scalar(t.primal().iter().product()),
            eltype,
            true,
        ));
    }
    let mut acc = Tensor::scalar(1.0);
    for k in 0..t.len() {
        acc = ops::binary(BinaryFn::Mul, &acc, &ops::gather(t, &[k], &[])?)?;
    }
    Ok(from_tensor(acc, eltype, true))
}

/// The position of the largest (or smallest) element by primal value; NaN wins, as in Julia.
fn extremum_position(x: &Tensor, largest: bool) -> Option<usize> {
    let data = x.to_col_major();
    let mut best: Option<usize> = None;
    for (k, &v) in data.iter().enumerate() {
        if v.is_nan() {
            return Some(k);
        }
        let better = match best {
            None => true,
            Some(b) => {
                if largest {
                    v > data[b]
                } else {
                    v < data[b]
                }
            }
        };
        if better {
            best = Some(k);
        }
    }
    best
}

fn extremum(args: &Args, largest: bool, name: &str) -> EvalResult {
    if let (Value::Range(r), None) = (&args.pos[0], args.kw("dims")) {
        // A range is monotone: its extrema are its ends.
        if r.len == 0 {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("reducing over an empty collection is not allowed ({name})"),
            ));
        }
        let at_end = largest == (r.step > 0.0);
        return Ok(range_element(r, if at_end { r.len - 1 } else { 0 }));
    }
    let x = numeric(&args.pos[0], name)?;
    if let Some(dims) = dims_kw(args, name)? {
        let f = if largest {
            BinaryFn::Max
        } else {
            BinaryFn::Min
        };
        return reduce_dims(&x, &dims, f);
    }
    let empty = || {
        fail(
            ErrorKind::ArgumentError,
            format!("reducing over an empty collection is not allowed ({name})"),
        )
    };
    let best = extreme_element(x.tensor(), largest)?.ok_or_else(empty)?;
    Ok(from_tensor(best, x.eltype, true))
}

/// The largest (or smallest) element of `t`, carrying its derivatives; `None` when `t` is
/// empty.
fn extreme_element(t: &Tensor, largest: bool) -> Result<Option<Tensor>, Flow> {
    if t.is_empty() {
        return Ok(None);
    }
    if crate::value::convert::without_values(t).is_some() {
        // A tracing without values has no position to pick: the extremum is a chain of `max`
        // (or `min`), which a traced program evaluates at every call and whose pattern is the
        // union of all elements'.
        let f = if largest {
            BinaryFn::Max
        } else {
            BinaryFn::Min
        };
        let mut best = ops::gather(t, &[0], &[])?;
        for k in 1..t.len() {
            best = ops::binary(f, &best, &ops::gather(t, &[k], &[])?)?;
        }
        return Ok(Some(best));
    }
    match extremum_position(t, largest) {
        Some(k) => Ok(Some(ops::gather(t, &[k], &[])?)),
        None => Ok(None),
    }
}

/// `maximum(x; dims)`, `minimum(x; dims)`, `prod(x; dims)`: plain arrays fold in place; others
/// combine their slices along each dimension with `f` (`max`, `min` or `*`), whose rules carry
/// the derivatives.
fn reduce_dims(x: &Operand, dims: &[usize], f: BinaryFn) -> EvalResult {
    if !x.tensor().is_plain() {
        let mut t = x.tensor().clone();
        for &d in dims {
            t = fold_slices(&t, d, f)?;
        }
        return Ok(from_tensor(t, x.eltype, false));
    }
    let identity = match f {
        BinaryFn::Max => f64::NEG_INFINITY,
        BinaryFn::Min => f64::INFINITY,
        _ => 1.0,
    };
    let mut a = x.tensor().primal().clone();
    for &d in dims {
        if d < a.ndim() {
            a = a
                .fold_axis(ndarray::Axis(d), identity, |&acc, &v| f.apply(acc, v))
                .insert_axis(ndarray::Axis(d));
        }
    }
    Ok(from_tensor(Tensor::plain(a), x.eltype, false))
}

/// `maximum(x)`, `maximum(f, x)`, `maximum(x; dims, init)`.
fn maximum_(interp: &mut Interp, args: Args) -> EvalResult {
    reduction(interp, args, "maximum", "max", |_, args| {
        extremum(&args, true, "maximum")
    })
}

/// `minimum(x)`, `minimum(f, x)`, `minimum(x; dims, init)`.
fn minimum_(interp: &mut Interp, args: Args) -> EvalResult {
    reduction(interp, args, "minimum", "min", |_, args| {
        extremum(&args, false, "minimum")
    })
}

/// `f` over the slices of `t` along dimension `d` (kept with length 1).
fn fold_slices(t: &Tensor, d: usize, f: BinaryFn) -> Result<Tensor, Flow> {
    if d >= t.shape().len() {
        return Ok(t.clone());
    }
    let mut slices = slices_along(t, d)?.into_iter();
    let first = slices.next().ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            "reducing over an empty collection is not allowed",
        )
    })?;
    slices.try_fold(first, |folded, slice| Ok(ops::binary(f, &folded, &slice)?))
}

/// The slices of `t` along dimension `d` (each keeps `d` with length 1), in order.
pub(crate) fn slices_along(t: &Tensor, d: usize) -> Result<Vec<Tensor>, Flow> {
    let shape = t.shape();
    let n = shape[d];
    let mut kept = shape.to_vec();
    kept[d] = 1;
    // Column-major: dimension d has stride `inner`; slice k starts k * inner past `first`.
    let inner: usize = shape[..d].iter().product();
    let first: Vec<usize> = (0..kept.iter().product::<usize>())
        .map(|p| p % inner + p / inner * inner * n)
        .collect();
    (0..n)
        .map(|k| {
            let positions: Vec<usize> = first.iter().map(|&p| p + k * inner).collect();
            Ok(ops::gather(t, &positions, &kept)?)
        })
        .collect()
}

/// The extremum of `x` (keeping its derivatives) and its 0-based position.
fn extremum_and_position(args: &Args, largest: bool, name: &str) -> Result<(Value, usize), Flow> {
    args.arity(name, 1, 1)?;
    let x = numeric(&args.pos[0], name)?;
    crate::value::convert::require_values(x.tensor(), name)?;
    let k = extremum_position(x.tensor(), largest)
        .ok_or_else(|| fail(ErrorKind::ArgumentError, "collection must be non-empty"))?;
    let element = from_tensor(ops::gather(x.tensor(), &[k], &[])?, x.eltype, true);
    Ok((element, k))
}

/// `argmax(f, xs)` and friends: the 0-based position of the first element whose `f` is the
/// largest (or smallest) by `isless`, with that `f` value.
fn extremum_of_function(
    interp: &mut Interp,
    args: &Args,
    largest: bool,
    name: &str,
) -> Result<(Value, Value, usize), Flow> {
    let items = crate::value::iterate::elements(&args.pos[1])?;
    let mut best: Option<(Value, Value, usize)> = None;
    for (k, x) in items.into_iter().enumerate() {
        let fx = interp.call(&args.pos[0], vec![x.clone()])?;
        let better = match &best {
            None => true,
            Some((_, fb, _)) => beats(interp, &fx, fb, largest)?,
        };
        if better {
            best = Some((x, fx, k));
        }
    }
    best.ok_or_else(|| non_empty(name))
}

/// Whether `candidate` is larger (or, for the minimum, smaller) than `best` under `isless`.
fn beats(
    interp: &mut Interp,
    candidate: &Value,
    best: &Value,
    largest: bool,
) -> Result<bool, Flow> {
    let (a, b) = if largest {
        (best, candidate)
    } else {
        (candidate, best)
    };
    Ok(matches!(
        super::call_named(interp, "isless", vec![a.clone(), b.clone()])?,
        Value::Bool(true)
    ))
}

fn non_empty(name: &str) -> Flow {
    fail(
        ErrorKind::ArgumentError,
        format!("{name}: collection must be non-empty"),
    )
}

/// The key and value of a dictionary's largest (or smallest) value: `findmax(d)` is
/// `(value, key)` and `argmax(d)` the key, as in Julia.
fn dict_extremum(
    interp: &mut Interp,
    collection: &Value,
    largest: bool,
    name: &str,
) -> Result<Option<(Value, Value)>, Flow> {
    let Some(dict) = super::dict::as_dict(collection) else {
        return Ok(None);
    };
    let mut best: Option<(Value, Value)> = None;
    for entry in crate::object::Object::elements(dict).unwrap_or_default() {
        let (key, value) = entry
            .pair_parts()
            .expect("a dictionary's entries are pairs");
        let better = match &best {
            None => true,
            Some((_, best_value)) => beats(interp, &value, best_value, largest)?,
        };
        if better {
            best = Some((key, value));
        }
    }
    best.map(Some).ok_or_else(|| non_empty(name))
}

/// Whether `args` are `(f, collection)`: the function forms of the extremum finders.
fn with_function(args: &Args) -> bool {
    args.pos.len() == 2
        && matches!(
            args.pos[0],
            Value::Function(_) | Value::Builtin(_) | Value::Object(_)
        )
}

/// `argmax(x)` / `argmin(x)`: the index of the extremum; `argmax(f, xs)`: the element whose
/// `f` is largest.
fn arg_extremum(interp: &mut Interp, args: &Args, largest: bool, name: &str) -> EvalResult {
    if with_function(args) {
        return Ok(extremum_of_function(interp, args, largest, name)?.0);
    }
    if let [collection] = &args.pos[..] {
        if let Some((key, _)) = dict_extremum(interp, collection, largest, name)? {
            return Ok(key);
        }
    }
    let (_, k) = extremum_and_position(args, largest, name)?;
    Ok(position_in(args, k))
}

/// `findmax(x)` / `findmin(x)`: `(x[k], k)` for the index `k` of the extremum;
/// `findmax(f, xs)`: `(f(xs[k]), k)`.
fn find_extremum(interp: &mut Interp, args: &Args, largest: bool, name: &str) -> EvalResult {
    if with_function(args) {
        let (_, fx, k) = extremum_of_function(interp, args, largest, name)?;
        return Ok(Value::tuple(vec![fx, position_in(args, k)]));
    }
    if let [collection] = &args.pos[..] {
        if let Some((key, value)) = dict_extremum(interp, collection, largest, name)? {
            return Ok(Value::tuple(vec![value, key]));
        }
    }
    let (element, k) = extremum_and_position(args, largest, name)?;
    Ok(Value::tuple(vec![element, position_in(args, k)]))
}

/// The index of the 0-based position `k` in the searched array (the last argument): an `Int`,
/// or a `CartesianIndex` in an array of two or more dimensions.
fn position_in(args: &Args, k: usize) -> Value {
    let shape = args.pos.last().and_then(super::cartesian::shape_of);
    super::cartesian::position(shape.as_deref().unwrap_or(&[]), k)
}

fn findmax_(interp: &mut Interp, args: Args) -> EvalResult {
    find_extremum(interp, &args, true, "findmax")
}

fn findmin_(interp: &mut Interp, args: Args) -> EvalResult {
    find_extremum(interp, &args, false, "findmin")
}

fn argmax_(interp: &mut Interp, args: Args) -> EvalResult {
    arg_extremum(interp, &args, true, "argmax")
}

fn argmin_(interp: &mut Interp, args: Args) -> EvalResult {
    arg_extremum(interp, &args, false, "argmin")
}

fn extrema_(interp: &mut Interp, args: Args) -> EvalResult {
    let lo = minimum_(interp, Args::positional(args.pos.clone()))?;
    let hi = maximum_(interp, args)?;
    Ok(Value::tuple(vec![lo, hi]))
}

fn mean_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("mean", 1, 2)?;
    let n = match args.pos.last() {
        Some(v) => numeric(v, "mean")?.tensor().len(),
        None => 0,
    };
    let dims = dims_kw(&args, "mean")?;
    let count = match (&dims, args.pos.last().map(operand).transpose()?.flatten()) {
        (Some(d), Some(x)) => d
            .iter()
            .map(|&k| x.tensor().shape().get(k).copied().unwrap_or(1))
            .product(),
        _ => n,
    };
    let total = sum_(interp, args)?;
    let total_t = numeric(&total, "mean")?.tensor().clone();
    let t = ops::binary(BinaryFn::Div, &total_t, &Tensor::scalar(count as f64))?;
    Ok(from_tensor(t, ElType::Float64, dims.is_none()))
}

fn dot_(interp: &mut Interp, args: Args) -> EvalResult {
    if let [x, a, y] = args.pos.as_slice() {
        // `dot(x, A, y)`: the inner product of `x` with `A * y`.
        let ay = interp.binary(difflab_syntax::BinOp::Mul, false, a, y)?;
        return dot_(interp, Args::positional(vec![x.clone(), ay]));
    }
    args.arity("dot", 2, 3)?;
    match (&args.pos[0], &args.pos[1]) {
        (Value::Sparse(s), Value::Sparse(t)) => {
            return super::sparse::sparse_dot(&s.borrow(), &t.borrow())
        }
        (Value::Sparse(s), other) | (other, Value::Sparse(s)) => {
            return super::sparse::stored_dot(&s.borrow(), other)
        }
        _ => {}
    }
    let (x, y) = (numeric(&args.pos[0], "dot")?, numeric(&args.pos[1], "dot")?);
    if x.tensor().len() != y.tensor().len() {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "first array has length {} which does not match the length of the second, {}",
                x.tensor().len(),
                y.tensor().len()
            ),
        ));
    }
    let n = x.tensor().len();
    let a = ops::reshape(x.tensor(), &[n])?;
    let b = ops::reshape(y.tensor(), &[n])?;
    let t = ops::sum_all(&ops::binary(BinaryFn::Mul, &a, &b)?)?;
    let eltype = if x.eltype == ElType::Float64 || y.eltype == ElType::Float64 {
        ElType::Float64
    } else {
        ElType::Int64
    };
    Ok(from_tensor(t, eltype, true))
}

fn norm_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("norm", 1, 2)?;
    let x = numeric(&args.pos[0], "norm")?;
    let p = match args.pos.get(1) {
        Some(v) => super::to_float(v, "norm")?,
        None => 2.0,
    };
    let t = x.tensor();
    let abs = ops::unary(UnaryFn::Abs, t)?;
    let result = if p == 2.0 {
        ops::unary(
            UnaryFn::Sqrt,
            &ops::sum_all(&ops::unary(UnaryFn::Abs2, t)?)?,
        )?
    } else if p == 1.0 {
        ops::sum_all(&abs)?
    } else if p.is_infinite() {
        extreme_element(&abs, p > 0.0)?.unwrap_or_else(|| Tensor::scalar(0.0))
    } else {
        let powered = ops::sum_all(&ops::binary(BinaryFn::Pow, &abs, &Tensor::scalar(p))?)?;
        ops::binary(BinaryFn::Pow, &powered, &Tensor::scalar(1.0 / p))?
    };
    Ok(from_tensor(result, ElType::Float64, true))
}

crate::builtins! {
    "sum" => sum_, false, "    sum(x; dims, init)\n    sum(f, x; dims, init)\n\nThe sum of the elements (along `dims`, or of `f` applied to each), plus `init` when given (which is also the sum of an empty collection). A generator is summed as it runs, from the first element on as Julia sums it (its digits can differ from those of the collected array's sum), without building the array; `prod`, `maximum`, `minimum`, `any`, `all`, `count`, `mean` and `first` take generators, and the lazy iterators of `Iterators`, the same way.\n\n```\njulia> sum([1.0, 2.0, 3.0])\n6.0\n\njulia> sum(abs2, [1, 2])\n5\n\njulia> sum(1 / i^2 for i in 1:1000)\n1.6439345666815615\n```";
    "prod" => prod_, false, "    prod(x; dims, init)\n    prod(f, x; dims, init)\n\nThe product of the elements (along `dims`, or of `f` applied to each), times `init` when given.\n\n```\njulia> prod([1, 2, 3, 4])\n24\n\njulia> prod([1 2; 3 4]; dims=1)\n1×2 Matrix{Int64}:\n 3  8\n```";
    "maximum" => maximum_, false, "    maximum(x; dims, init)\n    maximum(f, x; dims, init)\n\nThe largest element (along `dims`, or of `f` applied to each); with `init`, the largest of it and the elements, so an empty collection gives `init`.\n\n```\njulia> maximum([3, 7, 2])\n7\n\njulia> maximum(Float64[]; init=0.0)\n0.0\n```";
    "minimum" => minimum_, false, "    minimum(x; dims, init)\n    minimum(f, x; dims, init)\n\nThe smallest element (along `dims`, or of `f` applied to each); with `init`, the smallest of it and the elements.\n\n```\njulia> minimum([3, 7, 2])\n2\n```";
    "findmax" => findmax_, false, "    findmax(x)\n    findmax(f, xs)\n\nThe largest element of `x` and its index, `(x[k], k)` (the first one on ties); with a function, the largest `f(xs[k])` and its index; of a `Dict`, its largest value and that value's key (`argmax`, `findmin`, `argmin` likewise).\n\n```\njulia> findmax([1, 5, 2])\n(5, 2)\n\njulia> findmax(x -> -(x - 2)^2, [0, 1, 2, 3])\n(0, 3)\n\njulia> findmax(Dict(\"a\" => 1, \"b\" => 5))\n(5, \"b\")\n```";
    "findmin" => findmin_, false, "    findmin(x)\n\nThe smallest element of `x` and its index, `(x[k], k)`.\n\n```\njulia> findmin([3.0, 1.0, 2.0])\n(1.0, 2)\n```";
    "argmax" => argmax_, false, "    argmax(x)\n    argmax(f, xs)\n\nThe index of the largest element; with a function, the element `x` of `xs` whose `f(x)` is largest.\n\n```\njulia> argmax([3, 7, 2])\n2\n\njulia> argmax(x -> -x^2, -2:2)\n0\n```";
    "argmin" => argmin_, false, "    argmin(x)\n\nThe index of the smallest element.\n\n```\njulia> argmin([3, 7, 2])\n3\n```";
    "extrema" => extrema_, false, "    extrema(x)\n\n`(minimum(x), maximum(x))`.\n\n```\njulia> extrema([3, 7, 2])\n(2, 7)\n```";
    "mean" => mean_, false, "    mean(x; dims)\n\nThe arithmetic mean. Of a generator, its elements are added up as they come and divided by their count, as Julia's `Statistics.mean` of an iterator does.\n\n```\njulia> mean([1.0, 2.0, 3.0])\n2.0\n\njulia> mean(i for i in 1:4)\n2.5\n```";
    "dot" => dot_, false, "    dot(x, y)\n    dot(x, A, y)\n\nThe inner product `sum(x .* y)`, also `x ⋅ y`; with a matrix, `dot(x, A * y)`.\n\n```\njulia> dot([1, 2], [3, 4])\n11\n\njulia> dot([1, 2], [1 0; 0 2], [3, 4])\n19\n```";
    "norm" => norm_, false, "    norm(x, p=2)\n\nThe p-norm of the elements (Frobenius for matrices).\n\n```\njulia> norm([3.0, 4.0])\n5.0\n```";
}
