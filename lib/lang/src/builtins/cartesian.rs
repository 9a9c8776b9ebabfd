//! Cartesian indices as Julia's: `CartesianIndex(i, j, …)` (one position of an array of any
//! rank), `CartesianIndices` (every position of an array or of a box of ranges, in memory
//! order) and `LinearIndices` (the linear position of each). Arrays are read and written with
//! them (`A[I]`, `A[I] = v`, `A[findall(A .> 0)]`); they add, subtract, scale and compare
//! (`I + CartesianIndex(1, 0)`, `isless` in Julia's order: last dimension first), take `min`
//! and `max` entry by entry, and `findall`, `findfirst`, `findlast`, `argmax`, `argmin`,
//! `findmax`, `findmin` and `keys` of arrays of two or more dimensions return them.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::show::ElType;
use crate::value::Value;
use difflab_syntax::BinOp;
use std::any::Any;

/// A position in an array: one 1-based index per dimension.
#[derive(Clone, PartialEq)]
pub struct CartesianIndex(Vec<i64>);

impl Object for CartesianIndex {
    fn type_name(&self) -> String {
        format!("CartesianIndex{{{}}}", self.0.len())
    }

    fn show(&self) -> String {
        let parts: Vec<String> = self.0.iter().map(i64::to_string).collect();
        format!("CartesianIndex({})", parts.join(", "))
    }

    fn field(&self, name: &str) -> Option<Value> {
        (name == "I").then(|| Value::tuple(self.ints()))
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["I"]
    }

    /// Its indices, so that `Tuple(I)`, `I[k]` and `length(I)` read them.
    fn elements(&self) -> Option<Vec<Value>> {
        Some(self.ints())
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl CartesianIndex {
    fn ints(&self) -> Vec<Value> {
        self.0.iter().map(|&i| Value::Int(i)).collect()
    }

    fn value(indices: Vec<i64>) -> Value {
        Value::object(CartesianIndex(indices))
    }
}

fn as_cartesian(v: &Value) -> Option<&CartesianIndex> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<CartesianIndex>(),
        _ => None,
    }
}

/// The position of the 0-based linear index `k` in an array of `shape`: an `Int` (1-based)
/// for vectors, a `CartesianIndex` for arrays of two or more dimensions, as Julia's `findall`
/// and `argmax` give them.
pub fn position(shape: &[usize], k: usize) -> Value {
    if shape.len() < 2 {
        return Value::Int(k as i64 + 1);
    }
    let mut rest = k;
    let indices = shape
        .iter()
        .map(|&extent| {
            let i = rest % extent.max(1);
            rest /= extent.max(1);
            i as i64 + 1
        })
        .collect();
    CartesianIndex::value(indices)
}

/// The shape of an array value (dense or sparse), for [`position`].
pub fn shape_of(v: &Value) -> Option<Vec<usize>> {
    match v {
        Value::Array(a) => Some(a.borrow().data.shape().to_vec()),
        Value::Sparse(s) => {
            let s = s.borrow();
            Some(vec![s.matrix.rows(), s.matrix.cols()])
        }
        _ => None,
    }
}

/// The indices of an indexing with every `CartesianIndex` spread into its integers, and a
/// vector of them (the only index, as `findall` returns them) turned into linear positions of
/// an array of `shape`; `None` when there is none.
pub fn spread(shape: &[usize], indices: &[Value]) -> Result<Option<Vec<Value>>, Flow> {
    let listed = |v: &Value| match v {
        Value::List(items) => {
            let items = items.borrow();
            (!items.is_empty() && items.iter().all(|i| as_cartesian(i).is_some()))
                .then(|| items.clone())
        }
        _ => None,
    };
    if let [only] = indices {
        if let Some(items) = listed(only) {
            let linear = items
                .iter()
                .map(|i| linear_position(shape, as_cartesian(i).expect("checked")))
                .collect::<Result<Vec<_>, _>>()?;
            let n = linear.len();
            return Ok(Some(vec![super::array(ElType::Int64, &[n], linear)]));
        }
    }
    if !indices.iter().any(|v| as_cartesian(v).is_some()) {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(indices.len() + 2);
    for v in indices {
        match as_cartesian(v) {
            Some(c) => out.extend(c.ints()),
            None => out.push(v.clone()),
        }
    }
    Ok(Some(out))
}

/// The 1-based linear position of `index` in an array of `shape` (as a float, for an index
/// vector).
fn linear_position(shape: &[usize], index: &CartesianIndex) -> Result<f64, Flow> {
    let mut position = 0i64;
    let mut stride = 1i64;
    for (d, &i) in index.0.iter().enumerate() {
        let extent = shape.get(d).copied().unwrap_or(1) as i64;
        if i < 1 || i > extent {
            return Err(fail(
                ErrorKind::BoundsError,
                format!(
                    "attempt to access array of size {shape:?} at index {}",
                    index.show()
                ),
            ));
        }
        position += (i - 1) * stride;
        stride *= extent;
    }
    Ok(position as f64 + 1.0)
}

/// Arithmetic and comparison of cartesian indices (`None` when neither operand is one):
/// `I ± J`, `k * I`, `I * k`, `<`, `<=`, `>`, `>=` in Julia's order.
pub fn binary(op: BinOp, dotted: bool, a: &Value, b: &Value) -> Option<EvalResult> {
    let (x, y) = (as_cartesian(a), as_cartesian(b));
    if dotted || (x.is_none() && y.is_none()) {
        return None;
    }
    let scaled =
        |c: &CartesianIndex, k: i64| CartesianIndex::value(c.0.iter().map(|i| i * k).collect());
    Some(match (op, x, y) {
        (BinOp::Add | BinOp::Sub, Some(x), Some(y)) => same_rank(x, y).map(|()| {
            let sign = if op == BinOp::Add { 1 } else { -1 };
            CartesianIndex::value(x.0.iter().zip(&y.0).map(|(i, j)| i + sign * j).collect())
        }),
        (BinOp::Mul, Some(x), None) => match b {
            Value::Int(k) => Ok(scaled(x, *k)),
            _ => return None,
        },
        (BinOp::Mul, None, Some(y)) => match a {
            Value::Int(k) => Ok(scaled(y, *k)),
            _ => return None,
        },
        (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Some(x), Some(y)) => {
            same_rank(x, y).map(|()| {
                let order = x.0.iter().rev().cmp(y.0.iter().rev());
                Value::Bool(match op {
                    BinOp::Lt => order.is_lt(),
                    BinOp::Le => order.is_le(),
                    BinOp::Gt => order.is_gt(),
                    _ => order.is_ge(),
                })
            })
        }
        _ => return None,
    })
}

/// `min(I, J)` / `max(I, J)` of cartesian indices, entry by entry as in Julia; `None` when the
/// arguments are not two of them.
pub fn extremum(args: &[Value], largest: bool) -> Option<EvalResult> {
    let [a, b] = args else { return None };
    let (x, y) = (as_cartesian(a)?, as_cartesian(b)?);
    Some(same_rank(x, y).map(|()| {
        let pick = |(i, j): (&i64, &i64)| if largest { *i.max(j) } else { *i.min(j) };
        CartesianIndex::value(x.0.iter().zip(&y.0).map(pick).collect())
    }))
}

fn same_rank(x: &CartesianIndex, y: &CartesianIndex) -> Result<(), Flow> {
    if x.0.len() == y.0.len() {
        return Ok(());
    }
    Err(fail(
        ErrorKind::MethodError,
        format!(
            "no method matching combining {} and {}",
            x.type_name(),
            y.type_name()
        ),
    ))
}

/// `oneunit(I)`: the index of ones of the same dimension.
pub fn oneunit(v: &Value) -> Option<Value> {
    as_cartesian(v).map(|c| CartesianIndex::value(vec![1; c.0.len()]))
}

/// Every position of a box of integer ranges, first dimension fastest.
struct CartesianIndices {
    ranges: Vec<(i64, i64)>,
}

impl CartesianIndices {
    fn len(&self) -> usize {
        self.ranges
            .iter()
            .map(|&(lo, hi)| usize::try_from(hi - lo + 1).unwrap_or(0))
            .product()
    }
}

impl Object for CartesianIndices {
    fn type_name(&self) -> String {
        format!("CartesianIndices{{{}}}", self.ranges.len())
    }

    fn show(&self) -> String {
        let one_based = self.ranges.iter().all(|&(lo, _)| lo == 1);
        let parts: Vec<String> = self
            .ranges
            .iter()
            .map(|&(lo, hi)| {
                if one_based {
                    hi.to_string()
                } else {
                    format!("{lo}:{hi}")
                }
            })
            .collect();
        let trailing = if parts.len() == 1 { "," } else { "" };
        format!("CartesianIndices(({}{trailing}))", parts.join(", "))
    }

    fn elements(&self) -> Option<Vec<Value>> {
        let mut out = Vec::with_capacity(self.len());
        let mut current: Vec<i64> = self.ranges.iter().map(|&(lo, _)| lo).collect();
        for _ in 0..self.len() {
            out.push(CartesianIndex::value(current.clone()));
            for (d, &(lo, hi)) in self.ranges.iter().enumerate() {
                if current[d] < hi {
                    current[d] += 1;
                    break;
                }
                current[d] = lo;
            }
        }
        Some(out)
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The ranges an argument of `CartesianIndices` or `LinearIndices` describes: an array's
/// axes, a tuple of extents or of ranges.
fn box_of(v: &Value, name: &str) -> Result<Vec<(i64, i64)>, Flow> {
    if let Some(shape) = shape_of(v) {
        return Ok(shape.iter().map(|&n| (1, n as i64)).collect());
    }
    let Value::Tuple(items) = v else {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        ));
    };
    items
        .iter()
        .map(|item| match item {
            Value::Int(n) => Ok((1, *n)),
            Value::Range(r) if r.is_int && r.step == 1.0 => {
                Ok((r.start as i64, r.start as i64 + r.len as i64 - 1))
            }
            other => Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching {name}(::Tuple{{{}}})",
                    other.type_name()
                ),
            )),
        })
        .collect()
}

fn cartesian_index_(_: &mut Interp, args: Args) -> EvalResult {
    let indices = match args.pos.as_slice() {
        [Value::Tuple(items)] => items.to_vec(),
        other => other.to_vec(),
    };
    let ints = indices
        .iter()
        .map(|v| super::to_int(v, "CartesianIndex"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CartesianIndex::value(ints))
}

fn cartesian_indices_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("CartesianIndices", 1, 1)?;
    let indices = CartesianIndices {
        ranges: box_of(&args.pos[0], "CartesianIndices")?,
    };
    // Iterating builds every index.
    interp.check_alloc(indices.len().saturating_mul(4))?;
    Ok(Value::object(indices))
}

fn linear_indices_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("LinearIndices", 1, 1)?;
    let ranges = box_of(&args.pos[0], "LinearIndices")?;
    let shape: Vec<usize> = ranges
        .iter()
        .map(|&(lo, hi)| usize::try_from(hi - lo + 1).unwrap_or(0))
        .collect();
    let n: usize = shape.iter().product();
    interp.check_alloc(n)?;
    Ok(super::array(
        ElType::Int64,
        &shape,
        (1..=n).map(|k| k as f64).collect(),
    ))
}

crate::builtins! {
    "CartesianIndex" => cartesian_index_, false, "    CartesianIndex(i, j, ...)\n    CartesianIndex((i, j, ...))\n\nOne position of an array of any number of dimensions. `A[I]` reads and `A[I] = v` writes the entry there; `I + J`, `I - J`, `k * I`, `min(I, J)` and `max(I, J)` act entry by entry, `<` compares in Julia's order (last dimension first), `Tuple(I)` and `I[k]` give the integers. `findall`, `argmax` and `findmax` of a matrix return them.\n\n```\njulia> A = [1 5; 7 2];\n\njulia> I = argmax(A)\nCartesianIndex(2, 1)\n\njulia> A[I], Tuple(I), A[I + CartesianIndex(-1, 1)]\n(7, (2, 1), 5)\n```";
    "CartesianIndices" => cartesian_indices_, false, "    CartesianIndices(A)\n    CartesianIndices((m, n, ...))\n    CartesianIndices((1:m, 0:n, ...))\n\nEvery position of an array (or of a box of ranges) as a `CartesianIndex`, the first dimension fastest, as Julia iterates them. It is a vector of indices here (`length`, `collect`, indexing by position); Julia's is an array of the box's shape.\n\n```\njulia> [Tuple(I) for I in CartesianIndices((2, 2))]\n4-element Vector{Tuple{Int64, Int64}}:\n (1, 1)\n (2, 1)\n (1, 2)\n (2, 2)\n```";
    "LinearIndices" => linear_indices_, false, "    LinearIndices(A)\n    LinearIndices((m, n, ...))\n\nThe linear position of every entry of an array of that shape, as a matrix of integers (Julia's is a lazy array with the same entries).\n\n```\njulia> LinearIndices((2, 3))[2, 2]\n4\n```";
}
