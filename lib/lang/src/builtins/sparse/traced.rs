//! Sparse matrices and vectors of numbers carrying derivatives (duals, tape numbers, sparsity
//! tracers, symbolic nodes). A [`SparseMatrix`](crate::value::SparseMatrix) stores plain
//! numbers; inside a differentiated function `sparse`, `sparsevec` and `spdiagm` of such numbers
//! give a dense array of them marked [`Structure::Sparse`]. Every operation reads all its
//! entries, so values and derivatives are those of the dense array of the same numbers, while
//! `typeof`, `issparse`, `nnz`, `nonzeros`, `findnz`, `rowvals`, `nonzeroinds` and the fields
//! (`nzval`, `rowval`, `colptr`, `m`, `n`, `nzind`) see the stored entries, as Julia's
//! `SparseMatrixCSC{<:Dual}` has them: the places stored explicitly (`sparse(I, J, V)` with a
//! zero in `V`), and every place whose number is not zero as those packages define it for
//! their numbers (see [`nonzero_places`]).

use super::arith::sparse_times;
use crate::builtins::arrays::deep_copy;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand};
use crate::value::{Array, Structure, Value};
use difflab_ad::tracer::sets_of;
use difflab_ad::{ops, Tensor};
use sprs::TriMat;
use std::rc::Rc;

/// The stored places (column-major, sorted) of an array marked sparse; `None` for others.
fn stored_places(a: &Array) -> Option<Vec<usize>> {
    let Structure::Sparse(explicit) = &a.structure else {
        return None;
    };
    let nonzero = nonzero_places(&a.data);
    let mut explicit = explicit.iter().copied().peekable();
    let mut places = Vec::new();
    for (k, &nonzero) in nonzero.iter().enumerate() {
        let stored_explicitly = explicit.next_if_eq(&k).is_some();
        if nonzero || stored_explicitly {
            places.push(k);
        }
    }
    Some(places)
}

/// For each number, whether it is not zero (Julia's `!iszero` of a ForwardDiff dual, and
/// SparseConnectivityTracer's `_isnotzero`): its value or one of its partials (of any tag),
/// its local tracer's value or index set, its global tracer's index set. Symbolic nodes
/// carry no values and count as nonzero.
fn nonzero_places(t: &Tensor) -> Vec<bool> {
    match t {
        Tensor::Plain(_) => t.to_col_major().iter().map(|&x| x != 0.0).collect(),
        Tensor::Dual(d) => {
            let mut nonzero = nonzero_places(&d.value);
            for partial in &d.partials {
                for (flag, p) in nonzero.iter_mut().zip(nonzero_places(partial)) {
                    *flag |= p;
                }
            }
            nonzero
        }
        // A global tracer has no value: only its index set tells.
        Tensor::Tracer(tracer) if tracer.global => {
            sets_of(t).iter().map(|set| !set.is_empty()).collect()
        }
        Tensor::Tracer(_) => sets_of(t)
            .iter()
            .zip(t.to_col_major())
            .map(|(set, x)| !set.is_empty() || x != 0.0)
            .collect(),
        Tensor::Tracked(tracked) => nonzero_places(&tracked.value),
        Tensor::Symbolic(_) => vec![true; t.len()],
    }
}

/// Marks a fresh dense array as sparse with `explicit` places stored.
fn marked(value: Value, explicit: Vec<usize>) -> Value {
    if let Value::Array(a) = &value {
        a.borrow_mut().structure = Structure::Sparse(Rc::from(explicit));
    }
    value
}

/// Whether `v` is an array marked sparse.
pub fn is_traced_sparse(v: &Value) -> bool {
    matches!(v, Value::Array(a) if matches!(a.borrow().structure, Structure::Sparse(_)))
}

/// `sparse(A)` (and `sparsevec(x)`) of an array of numbers carrying derivatives: a copy
/// storing its nonzero numbers (and, for an `A` that is sparse already, what it stores).
pub fn from_dense(a: &Value) -> EvalResult {
    let copy = deep_copy(a);
    let explicit = match a {
        Value::Array(a) => stored_places(&a.borrow()).unwrap_or_default(),
        _ => Vec::new(),
    };
    let shape = crate::builtins::arrays::shape_of_value(&copy).unwrap_or_default();
    if shape.len() > 2 || shape.is_empty() {
        return Err(fail(
            ErrorKind::ArgumentError,
            "sparse needs a vector or a matrix",
        ));
    }
    Ok(marked(copy, explicit))
}

/// `sparse(I, J, V, m, n)` (or, with `vector`, `sparsevec(I, V, m)`) for values carrying
/// derivatives: the dense array of the sums of the values at each place (a product of the
/// plain matrix that places them with `V`), storing every place named in `I`, `J`.
#[allow(clippy::too_many_arguments)]
pub fn from_triplets(
    interp: &Interp,
    is: &[i64],
    js: &[i64],
    values: &Value,
    m: usize,
    n: usize,
    vector: bool,
) -> EvalResult {
    let v = operand(values)?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("sparse: expected numbers, got a {}", values.type_name()),
        )
    })?;
    let count = v.tensor().len();
    if is.len() != js.len() || (count != is.len() && count != 1) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "sparse(I, J, V): I, J and V must have the same length, got {}, {} and {count}",
                is.len(),
                js.len()
            ),
        ));
    }
    let size = m.saturating_mul(n);
    interp.check_alloc(size)?;
    let mut placing = TriMat::with_capacity((size, count), is.len());
    let mut explicit = Vec::with_capacity(is.len());
    for (k, (&r, &c)) in is.iter().zip(js).enumerate() {
        if r < 1 || c < 1 || r as usize > m || c as usize > n {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("sparse: index ({r}, {c}) is outside a {m}×{n} matrix"),
            ));
        }
        let place = (r as usize - 1) + (c as usize - 1) * m;
        placing.add_triplet(place, if count == 1 { 0 } else { k }, 1.0);
        explicit.push(place);
    }
    explicit.sort_unstable();
    explicit.dedup();
    let flat = ops::reshape(v.tensor(), &[count])?;
    let dense = sparse_times(&difflab_ad::shared_sparse::share(placing.to_csc()), &flat)?;
    let shape: &[usize] = if vector { &[m] } else { &[m, n] };
    let dense = ops::reshape(&dense, shape)?;
    Ok(marked(from_tensor(dense, ElType::Float64, false), explicit))
}

/// `spdiagm(k => v, …)` for values carrying derivatives: `diagm` of them, storing the places
/// of the diagonals given.
pub fn diagonals(interp: &mut Interp, args: &[Value]) -> EvalResult {
    let dense = crate::builtins::call_named(interp, "diagm", args.to_vec())?;
    let rows = crate::builtins::arrays::shape_of_value(&dense)
        .and_then(|s| s.first().copied())
        .unwrap_or(0);
    let (_, pairs) = crate::builtins::diagonal_pairs(args, "spdiagm")?;
    let mut explicit = Vec::new();
    for (k, v) in pairs {
        let length = crate::builtins::arrays::length_of(&v).unwrap_or(0);
        let (i0, j0) = if k >= 0 {
            (0, k as usize)
        } else {
            (k.unsigned_abs() as usize, 0)
        };
        explicit.extend((0..length).map(|t| (i0 + t) + (j0 + t) * rows));
    }
    explicit.sort_unstable();
    explicit.dedup();
    Ok(marked(dense, explicit))
}

/// The stored places of `v` if it is an array marked sparse, with its shape.
fn stored_of(v: &Value) -> Option<(Vec<usize>, Vec<usize>)> {
    let Value::Array(a) = v else { return None };
    let a = a.borrow();
    let places = stored_places(&a)?;
    Some((places, a.data.shape().to_vec()))
}

/// The numbers of `v` at `places`, as a vector.
fn gathered(v: &Value, places: &[usize]) -> EvalResult {
    let Value::Array(a) = v else {
        unreachable!("stored places come from an array")
    };
    let a = a.borrow();
    let flat = ops::reshape(&a.data, &[a.data.len()])?;
    let picked = ops::gather(&flat, places, &[places.len()])?;
    Ok(from_tensor(picked, a.eltype, false))
}

/// 0-based positions as Julia's 1-based `Vector{Int64}`.
fn ints(positions: impl Iterator<Item = usize>) -> Value {
    let values: Vec<f64> = positions.map(|p| (p + 1) as f64).collect();
    crate::builtins::array(ElType::Int64, &[values.len()], values)
}

/// The column offsets (`colptr`, 1-based) of stored places in an m×n matrix.
fn column_offsets(places: &[usize], m: usize, n: usize) -> Value {
    let mut offsets = vec![0usize; n + 1];
    for &p in places {
        offsets[p / m.max(1) + 1] += 1;
    }
    for j in 0..n {
        offsets[j + 1] += offsets[j];
    }
    ints(offsets.into_iter())
}

/// `nnz`, `nonzeros`, `findnz`, `rowvals` and `nonzeroinds` of an array marked sparse;
/// `None` when `v` is not one.
pub fn inspect(v: &Value, name: &str) -> Option<EvalResult> {
    let (places, shape) = stored_of(v)?;
    let rows = shape.first().copied().unwrap_or(0).max(1);
    let vector = shape.len() == 1;
    Some(match name {
        "nnz" => Ok(Value::Int(places.len() as i64)),
        "nonzeros" => gathered(v, &places),
        "findnz" if vector => gathered(v, &places)
            .map(|values| Value::tuple(vec![ints(places.iter().copied()), values])),
        "findnz" => gathered(v, &places).map(|values| {
            Value::tuple(vec![
                ints(places.iter().map(|p| p % rows)),
                ints(places.iter().map(|p| p / rows)),
                values,
            ])
        }),
        "rowvals" if !vector => Ok(ints(places.iter().map(|p| p % rows))),
        "nonzeroinds" if vector => Ok(ints(places.iter().copied())),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )),
    })
}

/// The fields of an array marked sparse (`m`, `n`, `colptr`, `rowval`, `nzval`; for a vector
/// `n`, `nzind`, `nzval`); `None` when `v` is not one.
pub fn field(v: &Value, name: &str) -> Option<EvalResult> {
    let (places, shape) = stored_of(v)?;
    Some(match (shape.as_slice(), name) {
        ([n], "n") => Ok(Value::Int(*n as i64)),
        ([_], "nzind") => Ok(ints(places.into_iter())),
        ([m, _], "m") => Ok(Value::Int(*m as i64)),
        ([_, n], "n") => Ok(Value::Int(*n as i64)),
        ([m, n], "colptr") => Ok(column_offsets(&places, *m, *n)),
        ([m, _], "rowval") => Ok(ints(places.iter().map(|p| p % (*m).max(1)))),
        (_, "nzval") => gathered(v, &places),
        _ => Err(fail(
            ErrorKind::ArgumentError,
            format!("type {} has no field {name}", v.type_name()),
        )),
    })
}
