//! Array construction and structure: `zeros`, `fill`, `reshape`, `collect`,
//! `push!`, `reverse`, `diff`, `cumsum`, ... (concatenation is in `concat`, searching and sorting in `search`).
//!
//! Operations that move numbers (reshape, reverse, diff, concatenation, sorting) are built from
//! `ad::ops` primitives, so they work on arrays carrying derivatives too.

use super::{dims_from, to_int, to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand, range_tensor};
use crate::value::iterate::elements;
use crate::value::{Array, Range, Value};
use difflab_ad::ops;
use difflab_ad::Tensor;
use std::cell::RefCell;
use std::rc::Rc;

/// The element type named by a leading type argument (`zeros(Int, 3)`), removing it.
fn take_eltype(args: &mut Args, default: ElType) -> ElType {
    // `zeros(typeof(x[1]), n)` inside a differentiated function: a Float64 array holds them.
    if args
        .pos
        .first()
        .is_some_and(crate::types::is_derivative_number_type)
    {
        args.pos.remove(0);
        return ElType::Float64;
    }
    if let Some(Value::Builtin(b)) = args.pos.first() {
        let elt = match b.name {
            "Float64" | "float" => Some(ElType::Float64),
            "Int" | "Int64" => Some(ElType::Int64),
            "Bool" => Some(ElType::Bool),
            _ => None,
        };
        if let Some(e) = elt {
            args.pos.remove(0);
            return e;
        }
    }
    default
}

/// Arrays of zeros up to this length (16 MiB) come zeroed from the allocator, which skips the
/// work for fresh memory; longer ones are written in interruptible blocks, because clearing a
/// reused block is one pass the allocator does not interrupt (0.07-0.6 s for 392 MB).
const LAZY_ZEROS_MAX: usize = 1 << 21;

fn filled(interp: &Interp, eltype: ElType, shape: &[usize], x: f64) -> EvalResult {
    let n = shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    let n = n.ok_or_else(|| fail(ErrorKind::OutOfMemoryError, "array dimensions overflow"))?;
    interp.check_alloc(n)?;
    let data = if x == 0.0 && n <= LAZY_ZEROS_MAX {
        vec![0.0; n]
    } else {
        difflab_ad::limits::filled(x, n)?
    };
    Ok(super::array(eltype, shape, data))
}

fn zeros_(interp: &mut Interp, mut args: Args) -> EvalResult {
    let elt = take_eltype(&mut args, ElType::Float64);
    let shape = dims_from(&args.pos, "zeros")?;
    filled(interp, elt, &shape, 0.0)
}

fn ones_(interp: &mut Interp, mut args: Args) -> EvalResult {
    let elt = take_eltype(&mut args, ElType::Float64);
    let shape = dims_from(&args.pos, "ones")?;
    filled(interp, elt, &shape, 1.0)
}

fn trues_(interp: &mut Interp, args: Args) -> EvalResult {
    filled(interp, ElType::Bool, &dims_from(&args.pos, "trues")?, 1.0)
}

fn falses_(interp: &mut Interp, args: Args) -> EvalResult {
    filled(interp, ElType::Bool, &dims_from(&args.pos, "falses")?, 0.0)
}

fn fill_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("fill", 1, usize::MAX)?;
    let shape = dims_from(&args.pos[1..], "fill")?;
    let (elt, x) = match &args.pos[0] {
        Value::Int(i) => (ElType::Int64, *i as f64),
        Value::Bool(b) => (ElType::Bool, f64::from(u8::from(*b))),
        Value::Float(x) => (ElType::Float64, *x),
        Value::Real(t) => {
            let n: usize = shape.iter().product();
            interp.check_alloc(n)?;
            let data = difflab_ad::ops::elementwise::broadcast_tensor(t, &shape)?;
            return Ok(Value::float_array(data));
        }
        other => {
            let n: usize = shape.iter().product();
            interp.check_alloc(n)?;
            if shape.len() != 1 {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    "fill of non-numbers supports vectors only",
                ));
            }
            return Ok(Value::list(vec![other.clone(); n]));
        }
    };
    filled(interp, elt, &shape, x)
}

fn fill_bang(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("fill!", 2, 2)?;
    interp.fill_all(&args.pos[0], &args.pos[1])?;
    Ok(args.pos[0].clone())
}

fn similar_(interp: &mut Interp, mut args: Args) -> EvalResult {
    args.arity("similar", 1, usize::MAX)?;
    // `similar(x, Float64, dims...)`: an element type after the array.
    let eltype = match args.pos.get(1) {
        Some(t) if matches!(t, Value::Builtin(_)) || crate::types::is_derivative_number_type(t) => {
            let first = args.pos.remove(0);
            let elt = take_eltype(&mut args, ElType::Float64);
            args.pos.insert(0, first);
            Some(elt)
        }
        _ => None,
    };
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let similar = s.like(s.matrix.clone(), eltype.unwrap_or(s.eltype));
        return similar_sparse(interp, &similar, &args.pos[1..]);
    }
    let Some(x) = operand(&args.pos[0])? else {
        return Err(fail(ErrorKind::MethodError, "similar expects an array"));
    };
    let shape = if args.pos.len() > 1 {
        dims_from(&args.pos[1..], "similar")?
    } else {
        x.tensor().shape().to_vec()
    };
    let elt = eltype.unwrap_or(x.eltype);
    drop(x);
    filled(interp, elt, &shape, 0.0)
}

/// Julia's `similar` of a sparse matrix or vector: its structure with zero values (what
/// `decompress!` fills), or with new dimensions an empty sparse matrix or vector.
fn similar_sparse(interp: &Interp, s: &crate::value::SparseMatrix, dims: &[Value]) -> EvalResult {
    if dims.is_empty() {
        return Ok(Value::Sparse(Rc::new(RefCell::new(
            s.like(s.matrix.map(|_| 0.0), s.eltype),
        ))));
    }
    match dims_from(dims, "similar")?.as_slice() {
        [m, n] => {
            interp.check_alloc(n.saturating_add(1))?;
            Ok(super::sparse::sparse_value(
                super::sparse::empty_csc(*m, *n),
                s.eltype,
            ))
        }
        [n] => Ok(super::sparse::sparse_vector_value(
            super::sparse::empty_csc(*n, 1),
            s.eltype,
        )),
        _ => Err(fail(
            ErrorKind::DimensionMismatch,
            "a sparse array is similar only to vectors and matrices: use similar(A, n) or similar(A, m, n)",
        )),
    }
}

fn copy_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("copy", 1, 1)?;
    if let Value::Sparse(s) = &args.pos[0] {
        // A large sparse matrix is copied number by number (its arrays are not shared).
        let s = s.borrow();
        let copy = s.like(super::sparse::copied(&s.matrix)?, s.eltype);
        return Ok(Value::Sparse(Rc::new(RefCell::new(copy))));
    }
    Ok(deep_copy(&args.pos[0]))
}

/// A copy of a mutable container (one level deep, as Julia's `copy`).
pub fn deep_copy(v: &Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(Rc::new(RefCell::new(a.borrow().clone()))),
        Value::List(items) => match &items.declared {
            Some(eltype) => Value::declared_list(eltype.clone(), items.borrow().clone()),
            None => Value::list(items.borrow().clone()),
        },
        Value::Sparse(s) => Value::Sparse(Rc::new(RefCell::new(s.borrow().clone()))),
        Value::Object(o) => o.copy().unwrap_or_else(|| v.clone()),
        other => other.clone(),
    }
}

/// The number of elements of a collection or array; `None` for other values.
pub(crate) fn length_of(v: &Value) -> Option<usize> {
    shape_of(v, "length")
        .ok()
        .map(|shape| shape.iter().product())
}

/// The shape of a collection (`[]` for a number), `None` for a value without one.
pub(crate) fn shape_of_value(v: &Value) -> Option<Vec<usize>> {
    shape_of(v, "size").ok()
}

pub(crate) fn shape_of(v: &Value, name: &str) -> Result<Vec<usize>, Flow> {
    if let Some(shape) = super::iterators::generator_shape(v) {
        return Ok(shape);
    }
    match v {
        Value::Array(a) => Ok(a.borrow().data.shape().to_vec()),
        Value::Range(r) => Ok(vec![r.len]),
        Value::List(items) => Ok(vec![items.borrow().len()]),
        Value::Tuple(items) => Ok(vec![items.len()]),
        Value::Sparse(s) => Ok(s.borrow().dims()),
        Value::Str(s) => Ok(vec![s.chars().count()]),
        Value::NamedTuple(items) => Ok(vec![items.len()]),
        Value::Object(o) if o.element_count().is_some() => Ok(vec![o.element_count().unwrap_or(0)]),
        v if v.is_number() => Ok(vec![]),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", other.type_name()),
        )),
    }
}

fn length_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("length", 1, 1)?;
    Ok(Value::Int(
        shape_of(&args.pos[0], "length")?.iter().product::<usize>() as i64,
    ))
}

fn size_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("size", 1, 2)?;
    let shape = shape_of(&args.pos[0], "size")?;
    if let Some(d) = args.pos.get(1) {
        let d = to_int(d, "size")?;
        if d < 1 {
            return Err(fail(ErrorKind::ArgumentError, "dimension out of range"));
        }
        return Ok(Value::Int(
            shape.get(d as usize - 1).copied().unwrap_or(1) as i64
        ));
    }
    Ok(Value::tuple(
        shape.into_iter().map(|n| Value::Int(n as i64)).collect(),
    ))
}

fn isempty_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isempty", 1, 1)?;
    Ok(Value::Bool(shape_of(&args.pos[0], "isempty")?.contains(&0)))
}

fn ndims_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("ndims", 1, 1)?;
    Ok(Value::Int(shape_of(&args.pos[0], "ndims")?.len() as i64))
}

fn reshape_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("reshape", 2, usize::MAX)?;
    let Some(x) = operand(&args.pos[0])? else {
        return Err(fail(ErrorKind::MethodError, "reshape expects an array"));
    };
    let len = x.tensor().len();
    let mut shape = Vec::new();
    let mut free = None;
    let dims: Vec<Value> = match &args.pos[1..] {
        [Value::Tuple(items)] => items.to_vec(),
        rest => rest.to_vec(),
    };
    for (k, d) in dims.iter().enumerate() {
        match d {
            Value::Builtin(b) if b.name == ":" => {
                free = Some(k);
                shape.push(1);
            }
            other => shape.push(to_size(other, "reshape")?),
        }
    }
    if let Some(k) = free {
        let known: usize = shape.iter().product();
        if known == 0 || len % known != 0 {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("array size {len} must be divisible by the product of the new dimensions"),
            ));
        }
        shape[k] = len / known;
    }
    let _ = interp;
    let t = ops::reshape(x.tensor(), &shape)?;
    Ok(from_tensor(t, x.eltype, false))
}

fn vec_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("vec", 1, 1)?;
    let n = shape_of(&args.pos[0], "vec")?.iter().product::<usize>();
    reshape_(
        interp,
        Args::positional(vec![args.pos[0].clone(), Value::Int(n as i64)]),
    )
}

fn collect_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("collect", 1, 1)?;
    match &args.pos[0] {
        sparse @ Value::Sparse(_) => super::sparse::to_dense(sparse),
        Value::Range(r) => {
            interp.check_alloc(r.len)?;
            Ok(from_tensor(range_tensor(r)?, r.eltype(), false))
        }
        Value::Array(_) => Ok(deep_copy(&args.pos[0])),
        other => super::element_types::collect_iterable(interp, other),
    }
}

fn range_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("range", 1, 3)?;
    let start = super::to_float(&args.pos[0], "range")?;
    // `range(start, stop, length)`, positional since Julia 1.7.
    let length = match (args.pos.get(2), args.kw("length")) {
        (Some(v), _) | (None, Some(v)) => Some(to_size(v, "range")?),
        _ => None,
    };
    let stop = match (args.pos.get(1), args.kw("stop")) {
        (Some(v), _) | (None, Some(v)) => Some(super::to_float(v, "range")?),
        _ => None,
    };
    let step = args
        .kw("step")
        .map(|v| super::to_float(v, "range"))
        .transpose()?;
    // Integer bounds count their elements in integers (`range(1, 10^18)` has exactly 10^18).
    let int_len = |b: &Value, s: i64| -> Option<usize> {
        let (Value::Int(a), Value::Int(b)) = (&args.pos[0], b) else {
            return None;
        };
        Some(Range::int_len(*a, s, *b))
    };
    let stop_value = args.pos.get(1).or(args.kw("stop"));
    let (step, len) = match (stop, step, length) {
        (Some(b), None, None) => (
            1.0,
            stop_value
                .and_then(|v| int_len(v, 1))
                .unwrap_or(((b - start).floor().max(-1.0) + 1.0) as usize),
        ),
        (Some(b), Some(s), None) if s != 0.0 && s.fract() == 0.0 => (
            s,
            stop_value
                .and_then(|v| int_len(v, s as i64))
                .unwrap_or_else(|| ((b - start) / s + 1e-10).floor().max(-1.0) as usize + 1),
        ),
        (Some(b), None, Some(n)) => (
            if n > 1 {
                (b - start) / (n - 1) as f64
            } else {
                0.0
            },
            n,
        ),
        (Some(b), Some(s), None) => (s, ((b - start) / s + 1e-10).floor().max(-1.0) as usize + 1),
        (None, Some(s), Some(n)) => (s, n),
        _ => {
            return Err(fail(
                ErrorKind::ArgumentError,
                "range needs two of stop, step and length",
            ))
        }
    };
    let all_int = args.pos.iter().all(|v| matches!(v, Value::Int(_)))
        && step.fract() == 0.0
        && args.kw("step").is_none_or(|v| matches!(v, Value::Int(_)));
    Ok(Value::Range(Rc::new(Range::new(
        start,
        if step == 0.0 { 1.0 } else { step },
        len,
        all_int && length.is_none(),
        all_int && length.is_none() && args.kw("step").is_none(),
    ))))
}

/// `LinRange(start, stop, n)`: `n` evenly spaced `Float64`s from `start` to `stop`.
fn linrange_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("LinRange", 3, 3)?;
    let start = super::to_float(&args.pos[0], "LinRange")?;
    let stop = super::to_float(&args.pos[1], "LinRange")?;
    let len = to_size(&args.pos[2], "LinRange")?;
    let step = if len > 1 {
        (stop - start) / (len - 1) as f64
    } else {
        1.0
    };
    Ok(Value::Range(Rc::new(Range::new(
        start, step, len, false, false,
    ))))
}

fn step_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("step", 1, 1)?;
    match &args.pos[0] {
        Value::Range(r) if r.is_int => Ok(Value::Int(r.step as i64)),
        Value::Range(r) => Ok(Value::Float(r.step)),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching step(::{})", other.type_name()),
        )),
    }
}

fn first_last(interp: &mut Interp, args: Args, last: bool) -> EvalResult {
    let name = if last { "last" } else { "first" };
    args.arity(name, 1, 2)?;
    if let Value::Str(s) = &args.pos[0] {
        return first_last_chars(s, args.pos.get(1), last, name);
    }
    // A dictionary's first entry, not its key 1.
    if let Some(entries) =
        super::dict::as_dict(&args.pos[0]).and_then(crate::object::Object::elements)
    {
        let mut args = args;
        args.pos[0] = Value::list(entries);
        return first_last(interp, args, last);
    }
    let n = shape_of(&args.pos[0], name)?.iter().product::<usize>();
    if let Some(k) = args.pos.get(1) {
        let k = to_size(k, name)?.min(n);
        let idx = if last {
            Value::Range(Rc::new(Range::new((n - k + 1) as f64, 1.0, k, true, true)))
        } else {
            Value::Range(Rc::new(Range::new(1.0, 1.0, k, true, true)))
        };
        return interp.index_value(&args.pos[0], &[idx]);
    }
    if n == 0 {
        // An empty range still has its ends, as Julia's does: `first(1:0) == 1`, `last(5:3) == 4`.
        if let Value::Range(r) = &args.pos[0] {
            let end = if last { r.last() } else { r.start };
            return Ok(crate::value::convert::number(r.eltype(), end));
        }
        return Err(fail(
            ErrorKind::BoundsError,
            format!("attempt to access 0-element collection with {name}"),
        ));
    }
    interp.index_value(&args.pos[0], &[Value::Int(if last { n as i64 } else { 1 })])
}

/// `first(s)`, `last(s, n)`, … of a string: characters, counted as characters.
fn first_last_chars(s: &str, n: Option<&Value>, last: bool, name: &str) -> EvalResult {
    let count = s.chars().count();
    match n {
        None => {
            let c = if last {
                s.chars().next_back()
            } else {
                s.chars().next()
            };
            c.map(Value::Char).ok_or_else(|| {
                fail(
                    ErrorKind::BoundsError,
                    format!("attempt to access 0-element collection with {name}"),
                )
            })
        }
        Some(n) => {
            let n = to_size(n, name)?.min(count);
            let skip = if last { count - n } else { 0 };
            Ok(Value::str(s.chars().skip(skip).take(n).collect::<String>()))
        }
    }
}

fn first_(interp: &mut Interp, args: Args) -> EvalResult {
    first_last(interp, args, false)
}

fn last_(interp: &mut Interp, args: Args) -> EvalResult {
    first_last(interp, args, true)
}

/// The indices of a collection as a range.
pub fn eachindex_of(v: &Value) -> EvalResult {
    if let Value::Str(s) = v {
        return Ok(super::string_index::eachindex(s));
    }
    let n = shape_of(v, "eachindex")?.iter().product::<usize>();
    Ok(Value::Range(Rc::new(Range::new(1.0, 1.0, n, true, true))))
}

fn eachindex_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("eachindex", 1, usize::MAX)?;
    eachindex_of(&args.pos[0])
}

fn axes_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("axes", 1, 2)?;
    let shape = shape_of(&args.pos[0], "axes")?;
    let axis = |n: usize| Value::Range(Rc::new(Range::new(1.0, 1.0, n, true, true)));
    if let Some(d) = args.pos.get(1) {
        let d = to_size(d, "axes")?;
        return Ok(axis(shape.get(d.saturating_sub(1)).copied().unwrap_or(1)));
    }
    Ok(Value::tuple(shape.into_iter().map(axis).collect()))
}

fn enumerate_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("enumerate", 1, 1)?;
    if super::iterators::as_lazy(&args.pos[0]).is_some() {
        return Ok(super::iterators::lazy_enumerate(args.pos[0].clone()));
    }
    let items = elements(&args.pos[0])?;
    tuples(interp, items.len(), |k| {
        vec![Value::Int(k as i64 + 1), items[k].clone()]
    })
}

fn zip_(interp: &mut Interp, args: Args) -> EvalResult {
    if args
        .pos
        .iter()
        .any(|a| super::iterators::as_lazy(a).is_some())
    {
        return Ok(super::iterators::lazy_zip(args.pos));
    }
    let columns: Vec<Vec<Value>> = args.pos.iter().map(elements).collect::<Result<_, _>>()?;
    let n = columns.iter().map(Vec::len).min().unwrap_or(0);
    tuples(interp, n, |k| {
        columns.iter().map(|c| c[k].clone()).collect()
    })
}

/// The vector of the `n` tuples `tuple(0)`, `tuple(1)`, …, made with a look at the interrupt
/// flag every few thousand (one tuple per element of 10⁷ numbers takes seconds).
fn tuples(interp: &Interp, n: usize, tuple: impl Fn(usize) -> Vec<Value>) -> EvalResult {
    let mut poll = interp.poll();
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        poll.tick()?;
        out.push(Value::tuple(tuple(k)));
    }
    Ok(Value::list(out))
}

/// Gathers positions of a vector-like value, keeping its element type.
pub(super) fn regather(v: &Value, positions: &[usize], name: &str) -> EvalResult {
    match v {
        Value::List(items) => {
            let items = items.borrow();
            Ok(Value::list(
                positions.iter().map(|&k| items[k].clone()).collect(),
            ))
        }
        _ => {
            let x = operand(v)?.ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!("no method matching {name}(::{})", v.type_name()),
                )
            })?;
            let t = ops::gather(x.tensor(), positions, &[positions.len()])?;
            Ok(from_tensor(t, x.eltype, false))
        }
    }
}

/// `reverse(v)`, `reverse(A; dims)`: a matrix keeps its shape (all dimensions reversed, or
/// those in `dims`).
fn reverse_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("reverse", 1, 1)?;
    if let Value::Str(s) = &args.pos[0] {
        return Ok(Value::str(s.chars().rev().collect::<String>()));
    }
    if let Some((first, second)) = args.pos[0].pair_parts() {
        return Ok(Value::pair(second, first));
    }
    if let (Value::Range(r), None) = (&args.pos[0], args.kw("dims")) {
        // The reverse of a range is a range: `reverse(1:10^18)` builds nothing.
        return Ok(Value::Range(Rc::new(Range::new(
            r.last(),
            -r.step,
            r.len,
            r.is_int,
            false,
        ))));
    }
    let shape = shape_of(&args.pos[0], "reverse")?;
    let dims: Vec<usize> = match args.kw("dims") {
        None => (0..shape.len()).collect(),
        Some(Value::Tuple(items)) => items
            .iter()
            .map(|d| dimension(d, "reverse"))
            .collect::<Result<_, _>>()?,
        Some(d) => vec![dimension(d, "reverse")?],
    };
    if shape.len() <= 1 || matches!(args.pos[0], Value::List(_)) {
        let n = shape.iter().product::<usize>();
        let positions: Vec<usize> = if dims.contains(&0) {
            (0..n).rev().collect()
        } else {
            (0..n).collect()
        };
        return regather(&args.pos[0], &positions, "reverse");
    }
    let x = operand(&args.pos[0])?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching reverse(::{})", args.pos[0].type_name()),
        )
    })?;
    let positions = positions_by_dimension(&shape, |d, i| {
        if dims.contains(&d) {
            shape[d] - 1 - i
        } else {
            i
        }
    });
    let t = ops::gather(x.tensor(), &positions, &shape)?;
    Ok(from_tensor(t, x.eltype, x.scalar))
}

/// A 1-based dimension argument as a 0-based index.
fn dimension(v: &Value, name: &str) -> Result<usize, Flow> {
    match to_size(v, name)? {
        0 => Err(fail(ErrorKind::ArgumentError, "dimensions must be ≥ 1")),
        d => Ok(d - 1),
    }
}

/// The column-major source positions of an array of `shape` whose element at multi-index `i`
/// is the source's element at `source(d, i[d])` in each dimension `d`.
fn positions_by_dimension(shape: &[usize], source: impl Fn(usize, usize) -> usize) -> Vec<usize> {
    let mut positions = vec![0];
    let mut stride = 1;
    for (d, &len) in shape.iter().enumerate() {
        let offsets: Vec<usize> = (0..len).map(|i| source(d, i) * stride).collect();
        positions = offsets
            .iter()
            .flat_map(|&o| positions.iter().map(move |&p| p + o))
            .collect();
        stride *= len;
    }
    positions
}

/// `dropdims(A; dims)`: the same elements without the listed dimensions, each of length 1.
fn dropdims_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dropdims", 1, 1)?;
    let x = operand(&args.pos[0])?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching dropdims(::{})", args.pos[0].type_name()),
        )
    })?;
    let dims: Vec<usize> = match args.kw("dims") {
        None => {
            return Err(fail(
                ErrorKind::UndefKeywordError,
                "keyword argument `dims` not assigned",
            ))
        }
        Some(Value::Tuple(items)) => items
            .iter()
            .map(|d| dimension(d, "dropdims"))
            .collect::<Result<_, _>>()?,
        Some(d) => vec![dimension(d, "dropdims")?],
    };
    let shape = x.tensor().shape().to_vec();
    if let Some(&d) = dims.iter().find(|&&d| shape.get(d) != Some(&1)) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "dropped dims must all be size 1 (dimension {} has size {})",
                d + 1,
                shape.get(d).map_or("none".to_string(), |n| n.to_string())
            ),
        ));
    }
    let kept: Vec<usize> = (0..shape.len())
        .filter(|d| !dims.contains(d))
        .map(|d| shape[d])
        .collect();
    let positions: Vec<usize> = (0..x.tensor().len()).collect();
    let t = ops::gather(x.tensor(), &positions, &kept)?;
    Ok(from_tensor(t, x.eltype, x.scalar && kept.is_empty()))
}

fn circshift_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("circshift", 2, 2)?;
    let x = operand(&args.pos[0])?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!(
                "no method matching circshift(::{}, …)",
                args.pos[0].type_name()
            ),
        )
    })?;
    let shape = x.tensor().shape().to_vec();
    let shifts: Vec<i64> = match &args.pos[1] {
        Value::Tuple(items) => items
            .iter()
            .map(|v| super::to_int(v, "circshift"))
            .collect::<Result<_, _>>()?,
        other => vec![super::to_int(other, "circshift")?],
    };
    // Output element at multi-index i comes from i - shift, modulo each dimension.
    let positions = positions_by_dimension(&shape, |d, i| {
        let shift = shifts.get(d).copied().unwrap_or(0);
        (i as i64 - shift).rem_euclid(shape[d] as i64) as usize
    });
    let t = ops::gather(x.tensor(), &positions, &shape)?;
    Ok(from_tensor(t, x.eltype, x.scalar))
}

fn diff_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("diff", 1, 1)?;
    let x = operand(&args.pos[0])?
        .ok_or_else(|| fail(ErrorKind::MethodError, "diff expects a vector"))?;
    let dims = args
        .kw("dims")
        .map(|d| to_size(d, "diff"))
        .transpose()?
        .unwrap_or(1);
    // `dims = 0` becomes a dimension no array has, which `ops::diff` rejects.
    let t = ops::diff(x.tensor(), dims.wrapping_sub(1))?;
    Ok(from_tensor(
        t,
        if x.eltype == ElType::Float64 {
            ElType::Float64
        } else {
            ElType::Int64
        },
        false,
    ))
}

/// `cumsum` and `cumprod`, of a vector or along `dims` of any array.
fn cumulative(args: &Args, name: &str, product: bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    let x = operand(&args.pos[0])?
        .ok_or_else(|| fail(ErrorKind::MethodError, format!("{name} expects a vector")))?;
    let rank = x.tensor().shape().len();
    let dim = match args.kw("dims") {
        Some(d) => to_size(d, name)?.wrapping_sub(1),
        None if rank == 1 => 0,
        None => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("{name} of a matrix needs dims, e.g. {name}(A; dims=1)"),
            ))
        }
    };
    if dim == usize::MAX {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("{name}: dimension must be ≥ 1, got 0"),
        ));
    }
    let eltype = if x.eltype == ElType::Float64 {
        ElType::Float64
    } else {
        ElType::Int64
    };
    if !product && rank == 1 && dim == 0 {
        let t = ops::cumsum(x.tensor())?;
        return Ok(from_tensor(t, eltype, false));
    }
    if dim >= rank {
        // Each element is a run of its own along a dimension the array does not have.
        return Ok(from_tensor(x.tensor().clone(), eltype, false));
    }
    let f = if product {
        ops::BinaryFn::Mul
    } else {
        ops::BinaryFn::Add
    };
    let mut parts: Vec<Tensor> = Vec::new();
    for slice in super::reductions::slices_along(x.tensor(), dim)? {
        let next = match parts.last() {
            None => slice,
            Some(prev) => ops::binary(f, prev, &slice)?,
        };
        parts.push(next);
    }
    let t = if parts.is_empty() {
        x.tensor().clone()
    } else {
        ops::concat(&parts, dim)?
    };
    Ok(from_tensor(t, eltype, false))
}

fn cumsum_(_: &mut Interp, args: Args) -> EvalResult {
    cumulative(&args, "cumsum", false)
}

fn cumprod_(_: &mut Interp, args: Args) -> EvalResult {
    cumulative(&args, "cumprod", true)
}

fn colon_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity(":", 2, 3)?;
    match args.pos.as_slice() {
        [a, b] => crate::builtins::value_operators::make_range(a, None, b),
        [a, s, b] => crate::builtins::value_operators::make_range(a, Some(s), b),
        _ => unreachable!("arity checked"),
    }
}

fn transpose_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("transpose", 1, 1)?;
    crate::builtins::value_operators::adjoint(&args.pos[0])
}

fn array_from(interp: &mut Interp, mut args: Args) -> EvalResult {
    // `Matrix{Float64}(I, n, n)` arrives as `Matrix(Float64, I, n, n)`.
    let given = args.pos.len();
    let elt = take_eltype(&mut args, ElType::Float64);
    let explicit = args.pos.len() < given;
    // `Matrix{Float64}(undef, m, n)`, `Array{Int}(undef, (2, 3))`: zero-filled here.
    if let [Value::Nothing, dims @ ..] = args.pos.as_slice() {
        let shape = dims_from(dims, "Array")?;
        return filled(interp, elt, &shape, 0.0);
    }
    if let [scaling, m, n] = args.pos.as_slice() {
        let (m, n) = (to_size(m, "Matrix")?, to_size(n, "Matrix")?);
        if let Some(result) = super::linalg::uniform::materialize(interp, scaling, m, n) {
            // `Matrix(I, n, n)` holds `Bool`s, as the scaling does; `Matrix{T}(I, n, n)` `T`s.
            let matrix = result?;
            if let (true, Value::Array(a)) = (explicit, &matrix) {
                a.borrow_mut().eltype = elt;
            }
            return Ok(matrix);
        }
    }
    args.arity("Array", 1, 1)?;
    match &args.pos[0] {
        Value::Sparse(_) => super::sparse::to_dense(&args.pos[0]),
        Value::Array(_) => {
            let copy = deep_copy(&args.pos[0]);
            if let Value::Array(a) = &copy {
                // `Matrix(D)` of a `Diagonal` is a plain `Matrix`.
                a.borrow_mut().structure = crate::value::Structure::Dense;
            }
            Ok(copy)
        }
        other => collect_(interp, Args::positional(vec![other.clone()])),
    }
}

/// What an entry of a vector of values holds before it is assigned: `nothing` when the
/// element type is a union with `Nothing` (as Julia's `Vector{Union{Nothing, Int}}(undef, n)`),
/// else `#undef`.
pub(crate) fn unassigned(eltype: &crate::types::Type) -> Value {
    let admits_nothing = !matches!(eltype, crate::types::Type::Prim(crate::types::Prim::Any))
        && eltype.contains(&Value::Nothing);
    if admits_nothing {
        Value::Nothing
    } else {
        Value::undefined()
    }
}

fn undef_vector(interp: &mut Interp, mut args: Args) -> EvalResult {
    // `Vector{Float64}(undef, n)` arrives as `Vector(Float64, undef, n)`.
    let given = args.pos.len();
    let elt = take_eltype(&mut args, ElType::Float64);
    let explicit = args.pos.len() < given;
    if let [ty, Value::Nothing, n] = args.pos.as_slice() {
        if let Some(eltype) = crate::types::Type::from_value(ty) {
            // `Vector{String}(undef, n)`, `Vector{Any}(undef, n)`: `n` entries that are
            // `#undef` until assigned; `nothing` when the element type admits it, as Julia's
            // `Vector{Union{Nothing, Int}}(undef, n)` holds `nothing`s.
            let n = super::to_size(n, "Vector")?;
            interp.check_alloc(n)?;
            let unset = unassigned(&eltype);
            return Ok(Value::declared_list(eltype, vec![unset; n]));
        }
    }
    if let [ty, x] = args.pos.as_slice() {
        if let (Some(eltype), false) = (
            crate::types::Type::from_value(ty),
            matches!(x, Value::Int(_) | Value::Nothing),
        ) {
            // `Vector{Any}(xs)`, `Vector{Union{Int, Nothing}}(xs)`: the elements converted to
            // a declared element type that is not a number's.
            let items = interp
                .elements_of(x)?
                .into_iter()
                .map(|item| crate::eval::methods::convert(&eltype, item))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Value::declared_list(eltype, items));
        }
    }
    if explicit && args.pos.is_empty() {
        // `Vector{Float64}()`: an empty vector to push into.
        return Ok(super::array(elt, &[0], Vec::new()));
    }
    if let [ty] = args.pos.as_slice() {
        if let Some(eltype) = crate::types::Type::from_value(ty) {
            // `Vector{String}()`, `Vector{Point}()`: an empty vector of values.
            return Ok(Value::declared_list(eltype, Vec::new()));
        }
    }
    if let [x] = args.pos.as_slice() {
        if !matches!(x, Value::Int(_) | Value::Nothing) {
            // `Vector(1:3)`, `Vector{Float64}([1, 2])`: the elements as a vector.
            let collected = collect_(interp, Args::positional(vec![x.clone()]))?;
            let v = vec_(interp, Args::positional(vec![collected]))?;
            return match (&v, explicit) {
                (Value::Array(a), true) if a.borrow().data.is_plain() => {
                    let a = a.borrow();
                    let data = a.data.to_col_major();
                    if elt != ElType::Float64 && data.iter().any(|x| x.fract() != 0.0) {
                        return Err(fail(
                            ErrorKind::InexactError,
                            format!("{elt:?}: the elements are not all integers"),
                        ));
                    }
                    Ok(super::array(elt, a.data.shape(), data))
                }
                _ => Ok(v),
            };
        }
    }
    args.pos.retain(|v| !matches!(v, Value::Nothing));
    let shape = dims_from(&args.pos, "Vector")?;
    filled(interp, elt, &shape, 0.0)
}

crate::builtins! {
    "zeros" => zeros_, false, "    zeros([T,] dims...)\n\nAn array of zeros (Float64 unless `T` is given).\n\n```\njulia> zeros(2, 3)\n2×3 Matrix{Float64}:\n 0.0  0.0  0.0\n 0.0  0.0  0.0\n```";
    "ones" => ones_, false, "    ones([T,] dims...)\n\nAn array of ones.\n\n```\njulia> ones(Int, 2)\n2-element Vector{Int64}:\n 1\n 1\n```";
    "trues" => trues_, false, "    trues(dims...)\n\nA Bool array of `true`.\n\n```\njulia> trues(2)\n2-element BitVector:\n 1\n 1\n```";
    "falses" => falses_, false, "    falses(dims...)\n\nA Bool array of `false`.\n\n```\njulia> count(falses(3))\n0\n```";
    "fill" => fill_, false, "    fill(x, dims...)\n\nAn array with every element equal to `x`.\n\n```\njulia> fill(2.5, 2)\n2-element Vector{Float64}:\n 2.5\n 2.5\n```";
    "fill!" => fill_bang, false, "    fill!(A, x)\n\nSets every element of the array `A` to `x`, in place, and returns `A`.\n\n```\njulia> y = zeros(3); fill!(y, 2.0)\n3-element Vector{Float64}:\n 2.0\n 2.0\n 2.0\n```";
    "similar" => similar_, false, "    similar(x, [T], [dims...])\n\nA new array with the element type `T` (by default that of `x`) and by default the shape of `x`; here it is zero-filled. A sparse `x` gives its sparsity structure with zero values.\n\n```\njulia> similar([1.0, 2.0])\n2-element Vector{Float64}:\n 0.0\n 0.0\n\njulia> nnz(similar(sparse([1.0 0.0; 0.0 2.0])))\n2\n```";
    "copy" => copy_, false, "    copy(x)\n\nA copy of an array (changing it leaves `x` alone).\n\n```\njulia> x = [1, 2]; y = copy(x); y[1] = 0; x\n2-element Vector{Int64}:\n 1\n 2\n```";
    "length" => length_, false, "    length(x)\n\nThe number of elements.\n\n```\njulia> length(zeros(2, 3))\n6\n```";
    "size" => size_, false, "    size(x, [dim])\n\nThe dimensions of an array as a tuple, or the length along `dim`.\n\n```\njulia> size(zeros(2, 3))\n(2, 3)\n```";
    "isempty" => isempty_, false, "    isempty(x)\n\nWhether a collection has no elements.\n\n```\njulia> isempty(Float64[])\ntrue\n```";
    "ndims" => ndims_, false, "    ndims(x)\n\nThe number of dimensions.\n\n```\njulia> ndims(zeros(2, 3))\n2\n```";
    "reshape" => reshape_, false, "    reshape(x, dims...)\n\nThe same elements (column-major) in a new shape; one dimension may be `:`.\n\n```\njulia> reshape(1:6, 2, 3)\n2×3 Matrix{Int64}:\n 1  3  5\n 2  4  6\n```";
    "vec" => vec_, false, "    vec(x)\n\nThe elements of an array as a vector, column by column.\n\n```\njulia> vec([1 2; 3 4])\n4-element Vector{Int64}:\n 1\n 3\n 2\n 4\n```";
    "collect" => collect_, false, "    collect(x)\n\nThe elements of a range or collection as an array.\n\n```\njulia> collect(1:3)\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "LinRange" => linrange_, false, "    LinRange(start, stop, n)\n\n`n` evenly spaced `Float64`s from `start` to `stop`, as a lazy range (shown as a range, where Julia shows a `LinRange`).\n\n```\njulia> collect(LinRange(0, 1, 5))\n5-element Vector{Float64}:\n 0.0\n 0.25\n 0.5\n 0.75\n 1.0\n```";
    "range" => range_, false, "    range(start, stop, length)\n    range(start, stop; length)\n    range(start; stop, step, length)\n\nAn evenly spaced range.\n\n```\njulia> collect(range(0, 1; length=3))\n3-element Vector{Float64}:\n 0.0\n 0.5\n 1.0\n```";
    "step" => step_, false, "    step(r)\n\nThe step of a range.\n\n```\njulia> step(1:2:9)\n2\n```";
    "first" => first_, false, "    first(x, [n])\n\nThe first element (or the first `n`). Of a generator, only the first element is computed.\n\n```\njulia> first([3, 4, 5])\n3\n\njulia> first(i^2 for i in 7:10^15)\n49\n```";
    "last" => last_, false, "    last(x, [n])\n\nThe last element (or the last `n`).\n\n```\njulia> last(1:10)\n10\n```";
    "eachindex" => eachindex_, false, "    eachindex(x)\n\nThe linear indices of `x`, as a range.\n\n```\njulia> eachindex([5, 6, 7])\n1:3\n```";
    "axes" => axes_, false, "    axes(x, [dim])\n\nThe index ranges of each dimension.\n\n```\njulia> axes(zeros(2, 3))\n(1:2, 1:3)\n```";
    "enumerate" => enumerate_, false, "    enumerate(xs)\n\nPairs `(i, x)` of index and element.\n\n```\njulia> for (i, x) in enumerate([10, 20]); println(i, \" \", x); end\n1 10\n2 20\n```";
    "zip" => zip_, false, "    zip(xs, ys...)\n\nTuples of corresponding elements.\n\n```\njulia> collect(zip([1, 2], [3, 4]))\n2-element Vector{Tuple{Int64, Int64}}:\n (1, 3)\n (2, 4)\n```";
    "circshift" => circshift_, false, "    circshift(A, shifts)\n\n`A` with its elements shifted circularly: by `shifts` along the first dimension, or by one shift per dimension given as a tuple (periodic boundaries in stencils). Differentiable and traced by the sparsity detectors.\n\n```\njulia> circshift([1, 2, 3, 4], 1)\n4-element Vector{Int64}:\n 4\n 1\n 2\n 3\n\njulia> circshift([1 2; 3 4], (0, 1))\n2×2 Matrix{Int64}:\n 2  1\n 4  3\n```";
    "dropdims" => dropdims_, false, "    dropdims(A; dims)\n\n`A` without the dimensions `dims`, which must have length 1.\n\n```\njulia> dropdims(sum([1 2; 3 4]; dims=1); dims=1)\n2-element Vector{Int64}:\n 4\n 6\n```";
    "reverse" => reverse_, false, "    reverse(v)\n    reverse(A; dims)\n\nThe elements in reverse order; an array keeps its shape, reversed along every dimension or along `dims`.\n\n```\njulia> reverse([1 2; 3 4]; dims=2)\n2×2 Matrix{Int64}:\n 2  1\n 4  3\n```\n\n```\njulia> reverse([1, 2, 3])\n3-element Vector{Int64}:\n 3\n 2\n 1\n```";
    "diff" => diff_, false, "    diff(x; dims=1)\n\nDifferences of neighbours, `x[2:end] - x[1:end-1]` for a vector; for a matrix, down each column (`dims=1`) or across each row (`dims=2`). Differentiable in every mode, in one pass per partial or cotangent.\n\n```\njulia> diff([1, 4, 9])\n2-element Vector{Int64}:\n 3\n 5\n\njulia> diff([1 2; 4 8], dims=2)\n2×1 Matrix{Int64}:\n 1\n 4\n```";
    "cumsum" => cumsum_, false, "    cumsum(x; dims)\n\nRunning sums of a vector, or along dimension `dims` of an array.\n\n```\njulia> cumsum([1, 2, 3])\n3-element Vector{Int64}:\n 1\n 3\n 6\n\njulia> cumsum([1 2; 3 4]; dims=2)\n2×2 Matrix{Int64}:\n 1  3\n 3  7\n```";
    "cumprod" => cumprod_, false, "    cumprod(x; dims)\n\nRunning products of a vector, or along dimension `dims` of an array.\n\n```\njulia> cumprod([1, 2, 3])\n3-element Vector{Int64}:\n 1\n 2\n 6\n```";
    ":" => colon_, false, "    (:)(a, b)\n    (:)(a, s, b)\n\nThe range `a:b` or `a:s:b`; a bare `:` in an index selects everything.\n\n```\njulia> 1:3\n1:3\n```";
    "transpose" => transpose_, false, "    transpose(A)\n\nThe transpose (same as `A'` for real matrices).\n\n```\njulia> transpose([1 2])\n2×1 Matrix{Int64}:\n 1\n 2\n```";
    "adjoint" => transpose_, false, "    adjoint(A)\n\nThe adjoint `A'` (the transpose, for real numbers).\n\n```\njulia> adjoint([1 2])\n2×1 Matrix{Int64}:\n 1\n 2\n```";
    "Array" => array_from, false, "    Array(x)\n\nA dense array with the elements of `x` (a sparse matrix, range, ...).\n\n```\njulia> Array(1:2)\n2-element Vector{Int64}:\n 1\n 2\n```";
    "Matrix" => array_from, false, "    Matrix(A)\n    Matrix(λI, m, n)\n\nA dense matrix from a sparse one, or the m×n matrix with λ on its diagonal from a uniform scaling.\n\n```\njulia> Matrix(sparse([1], [1], [2.0], 2, 2))\n2×2 Matrix{Float64}:\n 2.0  0.0\n 0.0  0.0\n\njulia> Matrix(1.0I, 2, 2)\n2×2 Matrix{Float64}:\n 1.0  0.0\n 0.0  1.0\n```";
    "Vector" => undef_vector, false, "    Vector{T}(undef, n)\n    Vector(xs)\n    Vector{T}(xs)\n\nA new vector of length `n` (zero-filled here), or the elements of the collection `xs` as a vector (converted to `T` when given: `Vector{Any}` holds any values).\n\n```\njulia> Vector{Float64}(undef, 2)\n2-element Vector{Float64}:\n 0.0\n 0.0\n\njulia> Vector{Float64}(1:3)\n3-element Vector{Float64}:\n 1.0\n 2.0\n 3.0\n```";
}

/// A numeric array value (for other families).
pub fn new_array(eltype: ElType, data: Tensor) -> Value {
    Value::Array(Rc::new(RefCell::new(Array::new(eltype, data))))
}
