//! The sparsity rules of every primitive, for [`Tracer`] arrays: which input sets flow into
//! each output element. A global tracer (no values) drops an operand's set only where the
//! derivative is structurally zero (`sign`, `round`); anything else keeps it — never a false
//! zero. A local tracer also drops a set where the derivative is zero at its values, as
//! SparseConnectivityTracer's local tracers do ([`local_keeps`]: a product with a factor equal
//! to zero, the branch `max`/`min` do not take, the divisor of a zero numerator); Hessian
//! patterns, the reverse sweep of these rules, inherit them.

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
        UnaryFn::Sign
            | UnaryFn::Floor
            | UnaryFn::Ceil
            | UnaryFn::Round
            | UnaryFn::Trunc
            | UnaryFn::IgnoreDerivatives
    )
}

/// Unary functions: zero-derivative functions forget dependencies, and a local tracer forgets
/// them where `relu` is flat (left of zero, as SparseConnectivityTracer's local rule).
pub fn unary(f: UnaryFn, t: &Tracer) -> Result<Tensor> {
    let sets = if zero_slope(f) {
        smallvec![empty(); t.sets.len()]
    } else if matches!(f, UnaryFn::Relu) && !t.global {
        t.sets
            .iter()
            .zip(col_major_data(&t.primal))
            .map(|(set, x)| if x < 0.0 { empty() } else { set.clone() })
            .collect()
    } else {
        t.sets.clone()
    };
    let primal = f.map(&t.primal)?;
    Ok(tracer(t.primal.shape(), sets, primal, t.global))
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

/// Whether each operand's set flows into `f(x, y)` at the values `(x, y)` of a local tracing:
/// false where that partial derivative is zero at this point (SparseConnectivityTracer's local
/// rules). A plain operand counts too: `0.0 * x` depends on nothing there. Ties of `max`/`min`
/// keep both operands; NaN never drops anything.
pub(crate) fn local_keeps(f: BinaryFn, x: f64, y: f64) -> (bool, bool) {
    use std::cmp::Ordering::{Greater, Less};
    let order = x.partial_cmp(&y);
    match f {
        // ∂(xy) = (y, x).
        BinaryFn::Mul => (y != 0.0, x != 0.0),
        // ∂(x/y) = (1/y, -x/y²).
        BinaryFn::Div => (true, x != 0.0),
        // An operand is dropped only when it is strictly on the losing side (NaN compares as
        // neither).
        BinaryFn::Max => (order != Some(Less), order != Some(Greater)),
        BinaryFn::Min => (order != Some(Greater), order != Some(Less)),
        // ∂mod(x, y)/∂y = -fld(x, y), zero where 0 ≤ x/y < 1. (SparseConnectivityTracer tests
        // only `y > x` for positive `y`, which misses the slope of a negative `x`.)
        BinaryFn::Mod => (true, (x - f.apply(x, y)) / y != 0.0),
        _ => (true, true),
    }
}

/// The set of `f(a, b)` from the operands' sets (`None` for a plain number) and values.
fn combined_set(
    f: BinaryFn,
    (sa, x): (Option<&IndexSet>, f64),
    (sb, y): (Option<&IndexSet>, f64),
    global: bool,
) -> IndexSet {
    let (keep_a, keep_b) = if global {
        (true, true)
    } else {
        local_keeps(f, x, y)
    };
    match (sa.filter(|_| keep_a), sb.filter(|_| keep_b)) {
        (Some(s), Some(t)) => union(s, t),
        (Some(s), None) | (None, Some(s)) => s.clone(),
        (None, None) => empty(),
    }
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
    // Under a global tracer constants never remove a dependency, whatever their value: `0.0 * x`
    // keeps the pattern of `x`, as SparseConnectivityTracer's global tracers do, so that a
    // pattern detected with one value of a `Constant` context holds for every other.
    let (ta, tb) = (traced(a), traced(b));
    let (pa, pb) = (a.value(), b.value());
    let global = ta.is_some_and(|t| t.global) || tb.is_some_and(|t| t.global);
    let set = combined_set(
        f,
        (ta.map(|t| &t.sets[0]), pa),
        (tb.map(|t| &t.sets[0]), pb),
        global,
    );
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
    let global = is_global(&[a, b]);
    let n: usize = out_shape.iter().product();
    let sets = if global {
        (0..n)
            .map(|k| union(&sa[at(&ia, k)], &sb[at(&ib, k)]))
            .collect()
    } else {
        let (va, vb) = (col_major_data(a.primal()), col_major_data(b.primal()));
        (0..n)
            .map(|k| {
                let (i, j) = (at(&ia, k), at(&ib, k));
                combined_set(f, (Some(&sa[i]), va[i]), (Some(&sb[j]), vb[j]), false)
            })
            .collect()
    };
    let primal = f.zip_map(a.primal(), b.primal())?;
    Ok(tracer(&out_shape, sets, primal, global))
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
    let global = is_global(&[a, b]);
    let mut sets = Vec::with_capacity(m * n);
    let mut primal = Vec::with_capacity(m * n);
    for j in 0..n {
        for i in 0..m {
            let mut parts = Vec::with_capacity(2 * k);
            let mut v = 0.0;
            for l in 0..k {
                let (x, y) = (pa[i + l * m], pb[l + j * k]);
                v += x * y;
                // Each term is a product: a local tracing drops a factor whose partner is zero.
                let (keep_a, keep_b) = if global {
                    (true, true)
                } else {
                    local_keeps(BinaryFn::Mul, x, y)
                };
                if keep_b {
                    parts.push(&sb[l + j * k]);
                }
                if keep_a {
                    parts.push(&sa[i + l * m]);
                }
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
        global,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::di::sparse::{hessian_sparsity, jacobian_sparsity};
    use crate::ops::{gather, reshape};

    type F = fn(&Tensor) -> Result<Tensor>;

    fn vector(x: &[f64]) -> Tensor {
        Tensor::from_col_major(&[x.len()], x.to_vec())
    }

    fn at(x: &Tensor, k: usize) -> Tensor {
        gather(x, &[k], &[]).unwrap()
    }

    /// The Jacobian pattern of `f` at `x` as dense rows of 0/1.
    fn jacobian(f: impl Fn(&Tensor) -> Result<Tensor>, x: &[f64], local: bool) -> Vec<Vec<u8>> {
        let p = jacobian_sparsity(&mut |t: &Tensor| f(t), &vector(x), local).unwrap();
        dense(p.nrows(), p.ncols(), |i, j| p.contains(i, j))
    }

    /// The Hessian pattern of the scalar `f` at `x` as dense rows of 0/1.
    fn hessian(f: F, x: &[f64], local: bool) -> Vec<Vec<u8>> {
        let p = hessian_sparsity(&mut |t: &Tensor| f(t), &vector(x), local).unwrap();
        dense(p.nrows(), p.ncols(), |i, j| p.contains(i, j))
    }

    /// A dense 0/1 matrix written as rows separated by `;`.
    fn rows(text: &str) -> Vec<Vec<u8>> {
        text.split(';')
            .map(|row| row.split_whitespace().map(|v| v.parse().unwrap()).collect())
            .collect()
    }

    fn dense(m: usize, n: usize, has: impl Fn(usize, usize) -> bool) -> Vec<Vec<u8>> {
        (0..m)
            .map(|i| (0..n).map(|j| u8::from(has(i, j))).collect())
            .collect()
    }

    /// The one row of the Jacobian pattern of `f(x₁, x₂)` at `x`.
    fn of_two(f: BinaryFn, x: [f64; 2], local: bool) -> Vec<u8> {
        let pair = move |x: &Tensor| super::super::binary(f, &at(x, 0), &at(x, 1));
        let mut rows = jacobian(pair, &x, local);
        rows.pop().expect("one output")
    }

    #[test]
    fn local_rules_drop_what_is_zero_at_the_values() {
        use BinaryFn::*;
        // Each case: the function, the point, and the local pattern there.
        let cases = [
            // ∂(x₁x₂) = (x₂, x₁).
            (Mul, [1.0, 1.0], [1, 1]),
            (Mul, [0.0, 1.0], [1, 0]),
            (Mul, [1.0, 0.0], [0, 1]),
            (Mul, [0.0, 0.0], [0, 0]),
            // ∂(x₁/x₂) = (1/x₂, -x₁/x₂²).
            (Div, [1.0, 1.0], [1, 1]),
            (Div, [0.0, 0.0], [1, 0]),
            (Div, [0.0, 2.0], [1, 0]),
            // The branch taken, both at a tie or a NaN.
            (Max, [1.0, 2.0], [0, 1]),
            (Max, [2.0, 1.0], [1, 0]),
            (Max, [1.0, 1.0], [1, 1]),
            (Min, [1.0, 2.0], [1, 0]),
            (Min, [2.0, 1.0], [0, 1]),
            (Min, [1.0, 1.0], [1, 1]),
            (Max, [f64::NAN, 1.0], [1, 1]),
            // mod(x, y) = x - y·fld(x, y): ∂/∂y = -fld(x, y).
            (Mod, [1.0, 3.0], [1, 0]),
            (Mod, [7.0, 3.0], [1, 1]),
            (Mod, [-1.0, 3.0], [1, 1]),
            (Mod, [-1.0, -3.0], [1, 0]),
        ];
        for (f, x, expected) in cases {
            assert_eq!(of_two(f, x, true), expected, "{} at {x:?}", f.name());
        }
        // A constant zero factor too, at this point.
        let by_zero: F = |x| super::super::binary(BinaryFn::Mul, &Tensor::scalar(0.0), x);
        assert_eq!(jacobian(by_zero, &[2.0, 3.0], true), [[0, 0], [0, 0]]);
    }

    #[test]
    fn global_rules_keep_both_operands_whatever_the_values() {
        use BinaryFn::*;
        for f in [Mul, Div, Max, Min, Mod] {
            for x in [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 3.0]] {
                assert_eq!(of_two(f, x, false), [1, 1], "{} at {x:?}", f.name());
            }
        }
        let by_zero: F = |x| super::super::binary(BinaryFn::Mul, &Tensor::scalar(0.0), x);
        assert_eq!(jacobian(by_zero, &[2.0, 3.0], false), [[1, 0], [0, 1]]);
    }

    #[test]
    fn broadcasts_and_matrix_products_use_each_elements_values() {
        // x .* [x₃, 0, x₃] at x = (1, 2, 0): x₁x₃ keeps x₃ alone (its partner x₁ is 1, x₃ is
        // 0); x₂·0 and x₃² at zero depend on nothing there.
        let f: F = |x| {
            let w = concat(&[at(x, 2), Tensor::scalar(0.0), at(x, 2)], &[3]);
            super::super::binary(BinaryFn::Mul, x, &w)
        };
        fn concat(parts: &[Tensor], shape: &[usize]) -> Tensor {
            let parts: Vec<Tensor> = parts.iter().map(|p| reshape(p, &[1]).unwrap()).collect();
            let out = crate::ops::concat(&parts, 0).unwrap();
            reshape(&out, shape).unwrap()
        }
        assert_eq!(
            jacobian(f, &[1.0, 2.0, 0.0], true),
            [[0, 0, 1], [0, 0, 0], [0, 0, 0]]
        );
        assert_eq!(
            jacobian(f, &[1.0, 2.0, 0.0], false),
            [[1, 0, 1], [0, 1, 0], [0, 0, 1]]
        );
        // [x₁ x₂] · [x₃, x₄] = x₁x₃ + x₂x₄ at (0, 1, 1, 0): the slopes x₃ and x₂ are nonzero,
        // x₁ and x₄ are zero.
        let g: F = |x| {
            let row = reshape(&gather(x, &[0, 1], &[2])?, &[1, 2])?;
            crate::ops::matmul(&row, &gather(x, &[2, 3], &[2])?)
        };
        assert_eq!(jacobian(g, &[0.0, 1.0, 1.0, 0.0], true), [[1, 0, 0, 1]]);
        assert_eq!(jacobian(g, &[0.0, 1.0, 1.0, 0.0], false), [[1, 1, 1, 1]]);
    }

    #[test]
    fn local_hessians_follow_the_values_as_sparse_connectivity_tracer() {
        // x₁x₂ keeps its cross term at zero: the second derivative does not depend on values.
        let product: F = |x| super::super::binary(BinaryFn::Mul, &at(x, 0), &at(x, 1));
        for x in [[0.0, 0.0], [0.0, 1.0], [1.0, 1.0]] {
            assert_eq!(hessian(product, &x, true), [[0, 1], [1, 0]]);
        }
        // x₃·(x₁x₂) at x₃ = 0: the inner product's Hessian is multiplied by zero.
        let triple: F = |x| {
            let inner = super::super::binary(BinaryFn::Mul, &at(x, 0), &at(x, 1))?;
            super::super::binary(BinaryFn::Mul, &at(x, 2), &inner)
        };
        let expected = [[0, 0, 1], [0, 0, 1], [1, 1, 0]];
        assert_eq!(hessian(triple, &[1.0, 1.0, 0.0], true), expected);
        assert_eq!(hessian(triple, &[0.0, 0.0, 0.0], true), [[0; 3]; 3]);
        assert_eq!(
            hessian(triple, &[0.0, 0.0, 0.0], false),
            [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
        );
        // SparseConnectivityTracer's own case: x₁ + x₂x₃ + 1/x₄ + x₂·max(x₁, x₅).
        let f1: F = |x| {
            let add = |a: &Tensor, b: &Tensor| super::super::binary(BinaryFn::Add, a, b);
            let m = super::super::binary(BinaryFn::Max, &at(x, 0), &at(x, 4))?;
            let terms = [
                super::super::binary(BinaryFn::Mul, &at(x, 1), &at(x, 2))?,
                super::super::binary(BinaryFn::Div, &Tensor::scalar(1.0), &at(x, 3))?,
                super::super::binary(BinaryFn::Mul, &at(x, 1), &m)?,
            ];
            terms.iter().try_fold(at(x, 0), |s, t| add(&s, t))
        };
        let cases = [
            (
                [1.0, 3.0, 5.0, 1.0, 2.0],
                true,
                "0 0 0 0 0; 0 0 1 0 1; 0 1 0 0 0; 0 0 0 1 0; 0 1 0 0 0",
            ),
            (
                [4.0, 3.0, 5.0, 1.0, 2.0],
                true,
                "0 1 0 0 0; 1 0 1 0 0; 0 1 0 0 0; 0 0 0 1 0; 0 0 0 0 0",
            ),
            (
                [4.0, 3.0, 5.0, 1.0, 2.0],
                false,
                "0 1 0 0 0; 1 0 1 0 1; 0 1 0 0 0; 0 0 0 1 0; 0 1 0 0 0",
            ),
        ];
        for (x, local, expected) in cases {
            assert_eq!(
                hessian(f1, &x, local),
                rows(expected),
                "at {x:?}, local: {local}"
            );
        }
    }
}
