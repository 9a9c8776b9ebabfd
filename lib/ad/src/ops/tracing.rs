//! The sparsity rules of every primitive, for [`Tracer`] arrays: which input sets flow into
//! each output element. A derivative that is structurally zero (`sign`, `round`, a product with
//! a constant zero) drops its operand's set; anything else keeps it — never a false zero.

use super::elementwise::{BinaryFn, Scalar, UnaryFn};
use crate::broadcast;
use crate::error::{AdError, Result};
use crate::tensor::{col_major, col_major_data, Tensor};
use crate::tracer::{empty, sets_of, union, union_all, IndexSet, Sets, Tracer};
use ndarray::ArrayD;
use smallvec::smallvec;
use std::rc::Rc;

fn tracer(shape: &[usize], sets: Sets, primal: ArrayD<f64>, global: bool) -> Tensor {
    let primal = if primal.shape() == shape {
        primal
    } else {
        col_major(shape, col_major_data(&primal))
    };
    Tensor::Tracer(Rc::new(Tracer {
        primal: Rc::new(primal),
        sets,
        global,
    }))
}

thread_local! {
    /// The value of every global scalar tracer (it has none).
    static NO_VALUE: Rc<ArrayD<f64>> = Rc::new(crate::tensor::rank0(f64::NAN));
}

/// A scalar tracer depending on `set`, with `value` for a local tracer.
fn scalar_tracer(set: IndexSet, value: f64, global: bool) -> Tensor {
    let primal = if global {
        NO_VALUE.with(Rc::clone)
    } else {
        Rc::new(crate::tensor::rank0(value))
    };
    Tensor::Tracer(Rc::new(Tracer {
        primal,
        sets: smallvec![set],
        global,
    }))
}

fn is_global(ts: &[&Tensor]) -> bool {
    ts.iter().any(|t| t.is_global_tracer())
}

/// True for functions whose derivative is zero everywhere it exists.
pub(crate) fn zero_slope(f: UnaryFn) -> bool {
    matches!(
        f,
        UnaryFn::Sign | UnaryFn::Floor | UnaryFn::Ceil | UnaryFn::Round | UnaryFn::Trunc
    )
}

/// Unary functions: zero-derivative functions forget dependencies.
pub fn unary(f: UnaryFn, t: &Tracer) -> Tensor {
    let sets = if zero_slope(f) {
        smallvec![empty(); t.sets.len()]
    } else {
        t.sets.clone()
    };
    let primal = f.map(&t.primal);
    tracer(t.primal.shape(), sets, primal, t.global)
}

/// Positions of `shape`'s elements (column-major) feeding each element of `out` when
/// broadcast.
fn broadcast_index(shape: &[usize], out: &[usize]) -> Result<Vec<usize>> {
    let n: usize = shape.iter().product();
    let ids = col_major(shape, (0..n).map(|k| k as f64).collect());
    Ok(col_major_data(&broadcast::to_shape(&ids, out)?)
        .into_iter()
        .map(|k| k as usize)
        .collect())
}

/// [`binary`] of two numbers (scalar code), each a scalar tracer or a plain number: the same
/// rule without index maps or array kernels.
pub(crate) fn scalar_binary(f: BinaryFn, a: Scalar, b: Scalar) -> Tensor {
    fn traced(s: Scalar<'_>) -> Option<&Tracer> {
        match s {
            Scalar::Carrying(Tensor::Tracer(tr)) => Some(tr),
            _ => None,
        }
    }
    // Constants never remove a dependency, whatever their value: `0.0 * x` keeps the pattern
    // of `x`, as SparseConnectivityTracer's tracers do, so that a pattern detected with one
    // value of a `Constant` context holds for every other.
    let (ta, tb) = (traced(a), traced(b));
    let (pa, pb) = (a.value(), b.value());
    let set = match (ta.map(|t| &t.sets[0]), tb.map(|t| &t.sets[0])) {
        (Some(x), Some(y)) => union(x, y),
        (Some(x), None) | (None, Some(x)) => x.clone(),
        (None, None) => empty(),
    };
    let global = ta.is_some_and(|t| t.global) || tb.is_some_and(|t| t.global);
    scalar_tracer(set, f.apply(pa, pb), global)
}

/// Binary functions with broadcasting.
pub fn binary(f: BinaryFn, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.shape().is_empty() && b.shape().is_empty() {
        return Ok(scalar_binary(f, Scalar::of(a), Scalar::of(b)));
    }
    let out_shape = broadcast::shape(a.shape(), b.shape())?;
    // Operands already of the result's shape (all scalar code) need no index map.
    let positions = |shape: &[usize]| -> Result<Option<Vec<usize>>> {
        if shape == out_shape.as_slice() {
            Ok(None)
        } else {
            broadcast_index(shape, &out_shape).map(Some)
        }
    };
    let (ia, ib) = (positions(a.shape())?, positions(b.shape())?);
    let at = |map: &Option<Vec<usize>>, k: usize| map.as_ref().map_or(k, |m| m[k]);
    let (sa, sb) = (sets_of(a), sets_of(b));
    let sets = (0..out_shape.iter().product())
        .map(|k| union(&sa[at(&ia, k)], &sb[at(&ib, k)]))
        .collect();
    let primal = f.zip_map(a.primal(), b.primal())?;
    Ok(tracer(&out_shape, sets, primal, is_global(&[a, b])))
}

/// The sum of all elements.
pub fn sum_all(t: &Tracer) -> Tensor {
    scalar_tracer(union_all(&t.sets), t.primal.sum(), t.global)
}

/// Sums along dimensions (kept with length 1).
pub fn sum_dims(t: &Tracer, dims: &[usize]) -> Tensor {
    let (out_shape, targets) = super::reduce::reduction_targets(t.primal.shape(), dims);
    let mut parts: Vec<Vec<&IndexSet>> = vec![Vec::new(); out_shape.iter().product()];
    for (s, &target) in t.sets.iter().zip(&targets) {
        parts[target].push(s);
    }
    let sets: Sets = parts.into_iter().map(union_all).collect();
    let mut primal = (*t.primal).clone();
    for &d in dims {
        if d < primal.ndim() {
            primal = primal
                .sum_axis(ndarray::Axis(d))
                .insert_axis(ndarray::Axis(d));
        }
    }
    tracer(&out_shape, sets, primal, t.global)
}

/// Elements at positions `indices`, arranged in `shape`.
pub fn gather(t: &Tracer, indices: &[usize], shape: &[usize]) -> Tensor {
    if let ([i], []) = (indices, shape) {
        // One element (scalar code): no column-major copy of the primal values (a global
        // tracer has none to read).
        let value = if t.global {
            f64::NAN
        } else {
            crate::tensor::col_major_slice(&t.primal)[*i]
        };
        return scalar_tracer(t.sets[*i].clone(), value, t.global);
    }
    let p = crate::tensor::col_major_slice(&t.primal);
    let sets: Sets = indices.iter().map(|&i| t.sets[i].clone()).collect();
    tracer(
        shape,
        sets,
        col_major(shape, indices.iter().map(|&i| p[i]).collect()),
        t.global,
    )
}

/// Zeros of `shape` with `t`'s elements added at positions `indices` (the adjoint of a gather):
/// each position depends on everything added into it.
pub fn scatter_add(t: &Tracer, indices: &[usize], shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    let p = crate::tensor::col_major_slice(&t.primal);
    let mut parts: Vec<Vec<&IndexSet>> = vec![Vec::new(); n];
    let mut primal = vec![0.0; n];
    for (k, &i) in indices.iter().enumerate() {
        parts[i].push(&t.sets[k]);
        primal[i] += p[k];
    }
    let sets: Sets = parts.into_iter().map(union_all).collect();
    tracer(shape, sets, col_major(shape, primal), t.global)
}

/// `target` with positions `indices` replaced by `values`.
pub fn scatter(target: &Tensor, indices: &[usize], values: &Tensor) -> Result<Tensor> {
    let mut sets = sets_of(target);
    let mut primal = col_major_data(target.primal());
    let (vs, vp) = (sets_of(values), col_major_data(values.primal()));
    for (k, &i) in indices.iter().enumerate() {
        let j = if vs.len() == 1 { 0 } else { k };
        sets[i] = vs[j].clone();
        primal[i] = vp[j];
    }
    let shape = target.shape().to_vec();
    Ok(tracer(
        &shape,
        sets.into(),
        col_major(&shape, primal),
        is_global(&[target, values]),
    ))
}

/// Writes `values` (tracers or plain numbers, one per position or one for all) at positions
/// `indices` of `target` in place; false (and nothing written) when `target`'s primal values
/// are not stored column-major.
pub fn scatter_into(target: &mut Tracer, indices: &[usize], values: &Tensor) -> bool {
    if let (Tensor::Tracer(v), [i], true) = (values, indices, target.global) {
        // One element into a global tracer (scalar code): it has no values to write, and the
        // value's set is shared, not copied.
        target.sets[*i] = v.sets[0].clone();
        return true;
    }
    if !target.primal.t().is_standard_layout() {
        return false;
    }
    if let (Tensor::Tracer(v), [i]) = (values, indices) {
        let data = Rc::make_mut(&mut target.primal)
            .as_slice_memory_order_mut()
            .expect("column-major contiguous");
        data[*i] = v.primal.first().copied().unwrap_or(f64::NAN);
        target.sets[*i] = v.sets[0].clone();
        target.global |= v.global;
        return true;
    }
    let (sets, primal) = (
        sets_of(values),
        crate::tensor::col_major_slice(values.primal()),
    );
    let data = Rc::make_mut(&mut target.primal)
        .as_slice_memory_order_mut()
        .expect("column-major contiguous");
    for (k, &i) in indices.iter().enumerate() {
        let j = if sets.len() == 1 { 0 } else { k };
        target.sets[i] = sets[j].clone();
        data[i] = primal[j];
    }
    target.global |= values.is_global_tracer();
    true
}

/// The same elements in a new shape.
pub fn reshape(t: &Tracer, shape: &[usize]) -> Tensor {
    tracer(
        shape,
        t.sets.clone(),
        col_major(shape, col_major_data(&t.primal)),
        t.global,
    )
}

/// Concatenation along `dim` of tracers and plain arrays.
pub fn concat(parts: &[Tensor], dim: usize, out_shape: &[usize], plain: ArrayD<f64>) -> Tensor {
    // The concatenated sets follow the same block layout as the numbers: build them by
    // concatenating arrays of set ids.
    let mut all_sets: Vec<IndexSet> = Vec::new();
    let id_parts: Vec<Tensor> = parts
        .iter()
        .map(|p| {
            let start = all_sets.len();
            all_sets.extend(sets_of(p));
            Tensor::from_col_major(
                p.shape(),
                (start..all_sets.len()).map(|k| k as f64).collect(),
            )
        })
        .collect();
    let ids = match super::structure::concat(&id_parts, dim) {
        Ok(t) => t.to_col_major(),
        Err(_) => Vec::new(),
    };
    let sets: Sets = ids
        .into_iter()
        .map(|k| all_sets[k as usize].clone())
        .collect();
    let global = parts.iter().any(Tensor::is_global_tracer);
    tracer(out_shape, sets, plain, global)
}

/// A linear map whose structure is unknown: every output depends on every input (conservative).
pub fn linear(t: &Tracer, out: ArrayD<f64>) -> Tensor {
    let all = union_all(&t.sets);
    let n = out.len();
    let shape = out.shape().to_vec();
    tracer(&shape, smallvec![all; n], out, t.global)
}

/// `A * B` for matrices and vectors, where one or both hold tracers.
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let dims = |t: &Tensor| match t.shape() {
        [m] => Ok((*m, 1)),
        [m, n] => Ok((*m, *n)),
        _ => Err(AdError::Argument(
            "matrix multiplication needs vectors or matrices".into(),
        )),
    };
    let ((m, k), (k2, n)) = (dims(a)?, dims(b)?);
    if k != k2 {
        return Err(AdError::DimensionMismatch(format!(
            "matrix A has dimensions ({m},{k}), matrix B has dimensions ({k2},{n})"
        )));
    }
    let (sa, sb) = (sets_of(a), sets_of(b));
    let (pa, pb) = (col_major_data(a.primal()), col_major_data(b.primal()));
    let mut sets = Vec::with_capacity(m * n);
    let mut primal = Vec::with_capacity(m * n);
    for j in 0..n {
        for i in 0..m {
            let mut parts = Vec::with_capacity(2 * k);
            let mut v = 0.0;
            for l in 0..k {
                let (x, y) = (pa[i + l * m], pb[l + j * k]);
                v += x * y;
                parts.push(&sb[l + j * k]);
                parts.push(&sa[i + l * m]);
            }
            sets.push(union_all(parts));
            primal.push(v);
        }
    }
    let shape: Vec<usize> = if b.shape().len() == 1 {
        vec![m]
    } else {
        vec![m, n]
    };
    Ok(tracer(
        &shape,
        sets.into(),
        col_major(&shape, primal),
        is_global(&[a, b]),
    ))
}
