//! Dense linear algebra: `\` (LU, least squares), `inv`, `det`, `lu`, matrix powers, `I`,
//! `diag`, `diagm`, `tr`, `kron`, `triu`, `tril`, `issymmetric`, `cond` and `eigvals`.
//!
//! The numbers come from faer (LU with partial pivoting, SVD, eigenvalues) on column-major data.
//! `\`, `inv` and `det` carry closed-form derivative rules for every number kind
//! ([`solve_tensor`], [`det_tensor`]): forward (`ẋ = A \ (ḃ − Ȧx)`,
//! `(det A)˙ = det(A)·tr(A⁻¹Ȧ)`), reverse (`b̄ = A⁻ᵀx̄`, `Ā = −b̄xᵀ`, `Ā = det(A)·A⁻ᵀ`) and
//! sparsity (each output depends on all of `A`). `diag`, `diagm`, `tr`, `triu`, `tril`, `kron`
//! and powers are built from `ad::ops` primitives, so they differentiate like any other code;
//! `lu`, `cond` and `eigvals` refuse numbers carrying derivatives with a `MethodError`.
//!
//! A matrix that stays constant while the right-hand side varies (a factorization, a sparse
//! matrix) is a [`LinearMap`], applied to a tensor of any kind by [`apply_linear`]; `sparse.rs`
//! uses it for `A * x` and `A \ b` with a sparse `A`.

use super::Args;
use crate::error::ErrorKind;
use crate::eval::operators::{from_tensor, operand};
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::show::ElType;
use crate::value::{SparseMatrix, Value};
use difflab_ad::error::Result as AdResult;
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::reverse::{is_tape_tag, record_op, tracked_with, value_below, Rule};
use difflab_ad::tensor::{col_major_data, top_tag};
use difflab_ad::tracer::{self, IndexSet, Tracer};
use difflab_ad::{AdError, Tag, Tensor};
use faer::linalg::solvers::Solve;
use std::rc::Rc;

// ---------------------------------------------------------------------------------------------
// Linear maps with a constant matrix, applied to tensors of any kind.

/// A linear map `x ↦ M x` whose matrix `M` holds plain numbers: a factorized matrix (`M = A⁻¹`
/// or `M = A⁺`) or a sparse matrix. It acts on column-major blocks of vectors.
pub(crate) trait LinearMap {
    /// `(rows, columns)` of `M`.
    fn size(&self) -> (usize, usize);
    /// `M X` (or `Mᵀ X` when `transpose`) for `X` given column-major with `k` columns.
    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>>;
    /// The stored entries of `M` when it is sparse; `None` when every output depends on every
    /// input (the sparsity rule then unites all of a column's index sets).
    fn pattern(&self) -> Option<&sprs::CsMat<f64>> {
        None
    }
}

/// `M x` (or `Mᵀ x`) for `x` a vector or a matrix of any number kind: plain numbers run the
/// kernel; a dual maps its value and each partial (the map is linear); a tracked value records
/// the transposed map as its reverse rule; tracers follow the pattern of `M`.
pub(crate) fn apply_linear(
    map: &Rc<dyn LinearMap>,
    x: &Tensor,
    transpose: bool,
) -> AdResult<Tensor> {
    let (rows, cols) = map.size();
    let (out_rows, in_rows) = if transpose {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let (n, k, vector) = match *x.shape() {
        [n] => (n, 1, true),
        [n, k] => (n, k, false),
        ref shape => {
            return Err(AdError::DimensionMismatch(format!(
                "expected a vector or a matrix, got an array of size {shape:?}"
            )))
        }
    };
    if n != in_rows {
        return Err(AdError::DimensionMismatch(format!(
            "matrix has dimensions ({out_rows},{in_rows}), vector has length {n}"
        )));
    }
    let out_shape = if vector {
        vec![out_rows]
    } else {
        vec![out_rows, k]
    };
    match x {
        Tensor::Plain(a) => Ok(Tensor::from_col_major(
            &out_shape,
            map.apply_plain(&col_major_data(a), k, transpose)?,
        )),
        Tensor::Dual(d) => Ok(Tensor::dual(
            d.tag,
            apply_linear(map, &d.value, transpose)?,
            d.partials
                .iter()
                .map(|p| apply_linear(map, p, transpose))
                .collect::<AdResult<_>>()?,
        )),
        Tensor::Tracked(tr) => {
            let value = apply_linear(map, &tr.value, transpose)?;
            let (back, again) = (map.clone(), map.clone());
            let rule: Rule = Box::new(move |ct| apply_linear(&back, ct, !transpose));
            Ok(record_op(tr.tag, value, vec![(x, rule)], &[x], move |x| {
                apply_linear(&again, &x[0], transpose)
            }))
        }
        Tensor::Tracer(tr) => {
            let primal = if tr.global {
                None
            } else {
                Some(map.apply_plain(&col_major_data(&tr.primal), k, transpose)?)
            };
            let mut sets = vec![tracer::empty(); out_rows * k];
            for c in 0..k {
                let input = &tr.sets[c * in_rows..(c + 1) * in_rows];
                let output = &mut sets[c * out_rows..(c + 1) * out_rows];
                match map.pattern() {
                    Some(m) => {
                        for (j, col) in m.outer_iterator().enumerate() {
                            for (i, _) in col.iter() {
                                let (to, from) = if transpose { (j, i) } else { (i, j) };
                                output[to] = tracer::union(&output[to], &input[from]);
                            }
                        }
                    }
                    None => {
                        let all = union_all(input);
                        output.iter_mut().for_each(|s| *s = all.clone());
                    }
                }
            }
            Ok(Tensor::Tracer(Rc::new(Tracer::new(
                &out_shape, sets, primal,
            ))))
        }
    }
}

fn union_all(sets: &[IndexSet]) -> IndexSet {
    sets.iter()
        .fold(tracer::empty(), |acc, s| tracer::union(&acc, s))
}

/// `SingularException(k)`: the `k`-th pivot of a factorization is zero (0 when unknown).
pub(crate) fn singular(k: usize) -> AdError {
    AdError::Argument(format!("SingularException({k})"))
}

/// `A⁻¹` of a square matrix, as its LU factorization with partial pivoting.
struct DenseLu {
    n: usize,
    lu: faer::linalg::solvers::PartialPivLu<f64>,
}

impl DenseLu {
    fn new(n: usize, a: &[f64]) -> AdResult<DenseLu> {
        let lu = faer::MatRef::from_column_major_slice(a, n, n).partial_piv_lu();
        // faer divides by a zero pivot (filling the rest with NaN) where LAPACK reports it:
        // the first exact zero on the diagonal of U is the pivot Julia names.
        let u = lu.U();
        if let Some(k) = (0..n).find(|&k| u[(k, k)] == 0.0) {
            return Err(singular(k + 1));
        }
        Ok(DenseLu { n, lu })
    }
}

impl LinearMap for DenseLu {
    fn size(&self) -> (usize, usize) {
        (self.n, self.n)
    }

    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>> {
        let mut out = x.to_vec();
        if self.n > 0 && k > 0 {
            let rhs = faer::MatMut::from_column_major_slice_mut(&mut out, self.n, k);
            if transpose {
                self.lu.solve_transpose_in_place(rhs);
            } else {
                self.lu.solve_in_place(rhs);
            }
        }
        Ok(out)
    }
}

/// `A⁺` of a rectangular m×n matrix from its thin SVD, singular values below
/// `σ₁·max(m, n)·eps` dropped: the minimum-norm least-squares solution, as Julia's `\` gives.
struct DenseLstsq {
    m: usize,
    n: usize,
    /// The kept left singular vectors (m×r), column-major.
    u: Vec<f64>,
    /// The kept singular values.
    s: Vec<f64>,
    /// The kept right singular vectors (n×r), column-major.
    v: Vec<f64>,
}

impl DenseLstsq {
    fn new(m: usize, n: usize, a: &[f64]) -> AdResult<DenseLstsq> {
        let svd = faer::MatRef::from_column_major_slice(a, m, n)
            .thin_svd()
            .map_err(|_| AdError::Argument("the SVD did not converge".into()))?;
        let sv = svd.S().column_vector();
        let all: Vec<f64> = (0..m.min(n)).map(|i| sv[i]).collect();
        let tol = all.first().copied().unwrap_or(0.0) * (m.max(n) as f64) * f64::EPSILON;
        let r = all.iter().take_while(|&&s| s > tol).count();
        let (u, v) = (svd.U(), svd.V());
        Ok(DenseLstsq {
            m,
            n,
            u: (0..r)
                .flat_map(|j| (0..m).map(move |i| u[(i, j)]))
                .collect(),
            s: all[..r].to_vec(),
            v: (0..r)
                .flat_map(|j| (0..n).map(move |i| v[(i, j)]))
                .collect(),
        })
    }

    fn full_rank(&self) -> bool {
        self.s.len() == self.m.min(self.n)
    }
}

impl LinearMap for DenseLstsq {
    fn size(&self) -> (usize, usize) {
        (self.n, self.m)
    }

    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>> {
        // A⁺ = V Σ⁻¹ Uᵀ and (A⁺)ᵀ = U Σ⁻¹ Vᵀ.
        let (left, right, out_rows, in_rows) = if transpose {
            (&self.u, &self.v, self.m, self.n)
        } else {
            (&self.v, &self.u, self.n, self.m)
        };
        let mut out = vec![0.0; out_rows * k];
        for c in 0..k {
            let xc = &x[c * in_rows..(c + 1) * in_rows];
            for (j, s) in self.s.iter().enumerate() {
                let coefficient = right[j * in_rows..(j + 1) * in_rows]
                    .iter()
                    .zip(xc)
                    .map(|(p, q)| p * q)
                    .sum::<f64>()
                    / s;
                let column = &left[j * out_rows..(j + 1) * out_rows];
                for (o, l) in out[c * out_rows..(c + 1) * out_rows].iter_mut().zip(column) {
                    *o += coefficient * l;
                }
            }
        }
        Ok(out)
    }
}

/// The map `b ↦ A \ b` of a plain matrix: LU when square, least squares otherwise.
fn dense_inverse(a: &Tensor) -> AdResult<Rc<dyn LinearMap>> {
    let (m, n) = matrix_size(a)?;
    let data = a.to_col_major();
    if m == n {
        Ok(Rc::new(DenseLu::new(n, &data)?))
    } else {
        Ok(Rc::new(DenseLstsq::new(m, n, &data)?))
    }
}

// ---------------------------------------------------------------------------------------------
// `\`, `inv` and `det` on tensors of any kind.

fn matrix_size(a: &Tensor) -> AdResult<(usize, usize)> {
    match *a.shape() {
        [m, n] => Ok((m, n)),
        ref shape => Err(AdError::DimensionMismatch(format!(
            "expected a matrix, got an array of size {shape:?}"
        ))),
    }
}

fn square_size(a: &Tensor) -> AdResult<usize> {
    match matrix_size(a)? {
        (m, n) if m == n => Ok(n),
        (m, n) => Err(AdError::DimensionMismatch(format!(
            "matrix is not square: dimensions are ({m}, {n})"
        ))),
    }
}

fn identity(n: usize) -> Tensor {
    Tensor::from_col_major(
        &[n, n],
        (0..n * n)
            .map(|k| f64::from(u8::from(k % (n + 1) == 0)))
            .collect(),
    )
}

/// A vector as an n×1 matrix (matrices unchanged).
fn as_matrix(t: &Tensor) -> AdResult<Tensor> {
    match *t.shape() {
        [n] => ops::reshape(t, &[n, 1]),
        _ => Ok(t.clone()),
    }
}

/// `u vᵀ` for vectors, `U Vᵀ` for matrices with as many columns.
fn outer(u: &Tensor, v: &Tensor) -> AdResult<Tensor> {
    ops::matmul(&as_matrix(u)?, &ops::transpose(&as_matrix(v)?)?)
}

fn add(a: &Tensor, b: &Tensor) -> AdResult<Tensor> {
    ops::binary(BinaryFn::Add, a, b)
}

fn sub(a: &Tensor, b: &Tensor) -> AdResult<Tensor> {
    ops::binary(BinaryFn::Sub, a, b)
}

fn trace(a: &Tensor) -> AdResult<Tensor> {
    let n = square_size(a)?;
    ops::sum_all(&ops::gather(a, &diagonal_positions(n, n, 0), &[n])?)
}

/// `A \ ·` and `Aᵀ \ ·` for one matrix, factorized once when its numbers are plain.
#[derive(Clone)]
struct Inverse {
    a: Tensor,
    map: Option<Rc<dyn LinearMap>>,
}

impl Inverse {
    fn new(a: &Tensor) -> AdResult<Inverse> {
        let map = match a {
            Tensor::Plain(_) => Some(dense_inverse(a)?),
            _ => None,
        };
        Ok(Inverse { a: a.clone(), map })
    }

    /// `A⁺ rhs` (or `(Aᵀ)⁺ rhs`).
    fn apply(&self, rhs: &Tensor, transpose: bool) -> AdResult<Tensor> {
        match &self.map {
            Some(map) => apply_linear(map, rhs, transpose),
            None if transpose => solve_tensor(&ops::transpose(&self.a)?, rhs),
            None => solve_tensor(&self.a, rhs),
        }
    }
}

/// Refuses the derivative of a least-squares solve where `A` loses rank (it does not exist).
fn check_full_rank(a: &Tensor) -> AdResult<()> {
    let (m, n) = matrix_size(a)?;
    if m != n && !DenseLstsq::new(m, n, &a.to_col_major())?.full_rank() {
        return Err(AdError::Argument(
            "the least-squares solution A \\ b has no derivative with respect to a rank-deficient A"
                .into(),
        ));
    }
    Ok(())
}

/// `A \ B` for tensors of any kind: `A` square (LU) or rectangular (minimum-norm least squares),
/// `B` a vector or a matrix with as many rows as `A`.
pub(crate) fn solve_tensor(a: &Tensor, b: &Tensor) -> AdResult<Tensor> {
    let (m, _) = matrix_size(a)?;
    let rows = b.shape().first().copied().unwrap_or(1);
    if rows != m || b.shape().len() > 2 || b.shape().is_empty() {
        return Err(AdError::DimensionMismatch(format!(
            "A has {m} rows but b has size {:?}",
            b.shape()
        )));
    }
    if let Tensor::Plain(_) = a {
        return apply_linear(&dense_inverse(a)?, b, false);
    }
    let Some(tag) = top_tag([a, b]) else {
        return solve_tracer(a, b);
    };
    if is_tape_tag([a, b], tag) {
        solve_reverse(a, b, tag)
    } else {
        solve_forward(a, b, tag)
    }
}

/// The forward rule of `x = A \ b`: `ẋ = A⁺(ḃ − Ȧx)`, plus, for a rectangular `A` of full rank,
/// `A⁺A⁺ᵀȦᵀr + (I − A⁺A)Ȧᵀ A⁺ᵀx` with the residual `r = b − Ax` (Golub and Pereyra).
fn solve_forward(a: &Tensor, b: &Tensor, tag: Tag) -> AdResult<Tensor> {
    let (va, pa) = a.split(tag);
    let (vb, pb) = b.split(tag);
    let (m, n) = matrix_size(va)?;
    let inv = Inverse::new(va)?;
    let x = inv.apply(vb, false)?;
    let count = pa.or(pb).map_or(0, <[Tensor]>::len);
    let rectangular = match pa {
        Some(_) if m != n => {
            check_full_rank(va)?;
            Some((sub(vb, &ops::matmul(va, &x)?)?, inv.apply(&x, true)?))
        }
        _ => None,
    };
    let partials = (0..count)
        .map(|k| {
            let mut rhs = match pb {
                Some(p) => p[k].clone(),
                None => Tensor::filled(vb.shape(), 0.0),
            };
            if let Some(pa) = pa {
                rhs = sub(&rhs, &ops::matmul(&pa[k], &x)?)?;
            }
            let mut dx = inv.apply(&rhs, false)?;
            if let (Some(pa), Some((r, y))) = (pa, &rectangular) {
                let da_t = ops::transpose(&pa[k])?;
                let normal = inv.apply(&inv.apply(&ops::matmul(&da_t, r)?, true)?, false)?;
                let z = ops::matmul(&da_t, y)?;
                let projected = sub(&z, &inv.apply(&ops::matmul(va, &z)?, false)?)?;
                dx = add(&add(&dx, &normal)?, &projected)?;
            }
            Ok(dx)
        })
        .collect::<AdResult<_>>()?;
    Ok(Tensor::dual(tag, x, partials))
}

/// The reverse rule of `x = A \ b`: `b̄ = g = A⁺ᵀx̄` and `Ā = −g xᵀ`, plus, for a rectangular
/// `A`, `r hᵀ + y qᵀ` with `h = A⁺g`, `y = A⁺ᵀx` and `q = (I − A⁺A)x̄`.
fn solve_reverse(a: &Tensor, b: &Tensor, tag: Tag) -> AdResult<Tensor> {
    let va = value_below(a, tag).clone();
    let vb = value_below(b, tag).clone();
    let (m, n) = matrix_size(&va)?;
    let inv = Inverse::new(&va)?;
    let x = inv.apply(&vb, false)?;
    let mut operands: Vec<(&Tensor, Rule)> = Vec::new();
    if tracked_with(b, tag).is_some() {
        let inv = inv.clone();
        operands.push((b, Box::new(move |ct| inv.apply(ct, true))));
    }
    if tracked_with(a, tag).is_some() {
        if m != n {
            check_full_rank(&va)?;
        }
        let x = x.clone();
        operands.push((
            a,
            Box::new(move |ct| {
                let g = inv.apply(ct, true)?;
                let mut abar = ops::unary(UnaryFn::Neg, &outer(&g, &x)?)?;
                if m != n {
                    let r = sub(&vb, &ops::matmul(&va, &x)?)?;
                    let h = inv.apply(&g, false)?;
                    let y = inv.apply(&x, true)?;
                    let q = sub(ct, &inv.apply(&ops::matmul(&va, ct)?, false)?)?;
                    abar = add(&add(&abar, &outer(&r, &h)?)?, &outer(&y, &q)?)?;
                }
                Ok(abar)
            }),
        ));
    }
    Ok(record_op(tag, x, operands, &[a, b], |x| {
        solve_tensor(&x[0], &x[1])
    }))
}

/// The sparsity rule of `x = A \ b`: column `j` of `x` depends on all of `A` and on column `j`
/// of `b` (the inverse of a matrix is dense in general).
fn solve_tracer(a: &Tensor, b: &Tensor) -> AdResult<Tensor> {
    let (m, n) = matrix_size(a)?;
    let k = b.shape().get(1).copied().unwrap_or(1);
    let all_a = union_all(&tracer::sets_of(a));
    let sets_b = tracer::sets_of(b);
    let mut sets = Vec::with_capacity(n * k);
    for c in 0..k {
        let column = tracer::union(&all_a, &union_all(&sets_b[c * m..(c + 1) * m]));
        sets.extend(std::iter::repeat_n(column, n));
    }
    let primal = if a.is_global_tracer() || b.is_global_tracer() {
        None
    } else {
        let x = solve_tensor(
            &Tensor::Plain(a.primal().clone()),
            &Tensor::Plain(b.primal().clone()),
        )?;
        Some(x.to_col_major())
    };
    let shape: Vec<usize> = match b.shape() {
        [_] => vec![n],
        _ => vec![n, k],
    };
    Ok(Tensor::Tracer(Rc::new(Tracer::new(&shape, sets, primal))))
}

/// `inv(A)` for a square matrix of any number kind (its rules are those of `A \ I`).
pub(crate) fn inv_tensor(a: &Tensor) -> AdResult<Tensor> {
    let n = square_size(a)?;
    solve_tensor(a, &identity(n))
}

/// The determinant of a plain square matrix (column-major) from its LU factorization; 0 when
/// a pivot is zero.
fn det_plain(n: usize, a: &[f64]) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let lu = faer::MatRef::from_column_major_slice(a, n, n).partial_piv_lu();
    let u = lu.U();
    if (0..n).any(|k| u[(k, k)] == 0.0) {
        return 0.0;
    }
    let (forward, _) = lu.P().arrays();
    // The sign of the row permutation: its parity is n minus its number of cycles.
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for i in 0..n {
        if !seen[i] {
            cycles += 1;
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                j = forward[j];
            }
        }
    }
    let sign = if (n - cycles).is_multiple_of(2) {
        1.0
    } else {
        -1.0
    };
    sign * (0..n).map(|k| u[(k, k)]).product::<f64>()
}

/// The adjugate of a plain n×n matrix (column-major), `adj(A) = det(A)·A⁻¹` also where `A` is
/// singular: from the SVD `A = UΣVᵀ`, `adj(A) = det(U)·det(V)·V·adj(Σ)·Uᵀ` with
/// `adj(Σ)ᵢᵢ = Πⱼ≠ᵢ σⱼ`.
fn adjugate_plain(n: usize, a: &[f64]) -> AdResult<Vec<f64>> {
    if n == 1 {
        return Ok(vec![1.0]);
    }
    let svd = faer::MatRef::from_column_major_slice(a, n, n)
        .svd()
        .map_err(|_| AdError::Argument("the SVD did not converge".into()))?;
    let (u, v, s) = (svd.U(), svd.V(), svd.S().column_vector());
    let sigma: Vec<f64> = (0..n).map(|i| s[i]).collect();
    let adj_sigma: Vec<f64> = (0..n)
        .map(|i| {
            sigma
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, x)| x)
                .product()
        })
        .collect();
    let ud: Vec<f64> = (0..n)
        .flat_map(|j| (0..n).map(move |i| u[(i, j)]))
        .collect();
    let vd: Vec<f64> = (0..n)
        .flat_map(|j| (0..n).map(move |i| v[(i, j)]))
        .collect();
    let sign = det_plain(n, &ud).signum() * det_plain(n, &vd).signum();
    let mut out = vec![0.0; n * n];
    for j in 0..n {
        for i in 0..n {
            out[i + j * n] = sign
                * (0..n)
                    .map(|k| vd[i + k * n] * adj_sigma[k] * ud[j + k * n])
                    .sum::<f64>();
        }
    }
    Ok(out)
}

/// The gradient of `det` at `A`: `adj(A)ᵀ = det(A)·A⁻ᵀ`. For plain numbers the adjugate is
/// used where `A` is singular; for nested derivatives it is `det(A)·inv(A)ᵀ` (an error at a
/// singular matrix, never a wrong number).
fn det_gradient(a: &Tensor) -> AdResult<Tensor> {
    let n = square_size(a)?;
    if let Tensor::Plain(p) = a {
        let data = col_major_data(p);
        let adjugate = match DenseLu::new(n, &data) {
            Ok(lu) => {
                let d = det_plain(n, &data);
                let mut inverse = lu.apply_plain(&identity(n).to_col_major(), n, false)?;
                inverse.iter_mut().for_each(|x| *x *= d);
                inverse
            }
            Err(_) => adjugate_plain(n, &data)?,
        };
        return ops::transpose(&Tensor::from_col_major(&[n, n], adjugate));
    }
    let inverse = inv_tensor(a).map_err(|e| match e {
        AdError::Argument(msg) if msg.starts_with("SingularException") => AdError::Argument(
            format!("{msg}: the second derivative of det at a singular matrix is not computed"),
        ),
        other => other,
    })?;
    ops::binary(BinaryFn::Mul, &det_tensor(a)?, &ops::transpose(&inverse)?)
}

/// `det(A)` for a square matrix of any number kind, with the gradient `G = adj(A)ᵀ`: forward
/// `ḋ = Σ G .* Ȧ`, reverse `Ā = d̄·G`, sparsity: depends on every entry.
pub(crate) fn det_tensor(a: &Tensor) -> AdResult<Tensor> {
    let n = square_size(a)?;
    if let Tensor::Plain(p) = a {
        return Ok(Tensor::scalar(det_plain(n, &col_major_data(p))));
    }
    let Some(tag) = a.tag() else {
        let sets = vec![union_all(&tracer::sets_of(a))];
        let primal = (!a.is_global_tracer()).then(|| vec![det_plain(n, &a.to_col_major())]);
        return Ok(Tensor::Tracer(Rc::new(Tracer::new(&[], sets, primal))));
    };
    if tracked_with(a, tag).is_some() {
        let va = value_below(a, tag).clone();
        let d = det_tensor(&va)?;
        let rule: Rule = Box::new(move |ct| ops::binary(BinaryFn::Mul, ct, &det_gradient(&va)?));
        return Ok(record_op(tag, d, vec![(a, rule)], &[a], |x| {
            det_tensor(&x[0])
        }));
    }
    let (va, pa) = a.split(tag);
    let d = det_tensor(va)?;
    let partials = match pa {
        Some(pa) if !pa.is_empty() => {
            let g = det_gradient(va)?;
            pa.iter()
                .map(|p| ops::sum_all(&ops::binary(BinaryFn::Mul, &g, p)?))
                .collect::<AdResult<_>>()?
        }
        _ => Vec::new(),
    };
    Ok(Tensor::dual(tag, d, partials))
}

// ---------------------------------------------------------------------------------------------
// The evaluator's entry points: `A \ b`, `A ^ k`, `inv(A)`.

/// The numbers of a matrix-like value as a tensor (a sparse matrix becomes dense), with the
/// element type the language sees.
fn matrix_tensor(interp: &Interp, v: &Value, name: &str) -> Result<(Tensor, ElType), Flow> {
    if let Value::Sparse(s) = v {
        let s = s.borrow();
        interp.check_alloc(s.matrix.rows().saturating_mul(s.matrix.cols()))?;
        return Ok((dense_tensor(&s), ElType::Float64));
    }
    let o = operand(v).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )
    })?;
    Ok((o.tensor().clone(), o.eltype))
}

/// The dense numbers of a sparse matrix.
pub(crate) fn dense_tensor(s: &SparseMatrix) -> Tensor {
    let (m, n) = (s.matrix.rows(), s.matrix.cols());
    let mut data = vec![0.0; m * n];
    for (x, (i, j)) in s.matrix.iter() {
        data[i + j * m] += *x;
    }
    Tensor::from_col_major(&[m, n], data)
}

/// `A \ b`: square systems by LU with partial pivoting (sparse `A`: sparse LU), rectangular ones
/// by minimum-norm least squares; `b` a vector or a matrix. Numbers carrying derivatives follow
/// the rules of [`solve_tensor`].
pub fn solve(interp: &mut Interp, a: &Value, b: &Value) -> EvalResult {
    let (bt, _) = matrix_tensor(interp, b, "\\").map_err(|_| {
        fail(
            ErrorKind::MethodError,
            format!(
                "no method matching \\(::{}, ::{})",
                a.type_name(),
                b.type_name()
            ),
        )
    })?;
    if bt.shape().is_empty() || bt.shape().len() > 2 {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "A \\ b needs a vector or a matrix b, got size {:?}",
                bt.shape()
            ),
        ));
    }
    if let Value::Sparse(s) = a {
        let s = s.borrow();
        if s.matrix.rows() == s.matrix.cols() {
            if bt.shape()[0] != s.matrix.rows() {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "A has {} rows but b has size {:?}",
                        s.matrix.rows(),
                        bt.shape()
                    ),
                ));
            }
            let map: Rc<dyn LinearMap> = Rc::new(super::sparse::SparseLu::new(&s.matrix)?);
            return Ok(from_tensor(
                apply_linear(&map, &bt, false)?,
                ElType::Float64,
                false,
            ));
        }
    }
    let (at, _) = matrix_tensor(interp, a, "\\")?;
    // A vector on the left is an n×1 matrix; Julia then returns a number (or a row).
    let vector_a = at.shape().len() == 1;
    let at = if vector_a { as_matrix(&at)? } else { at };
    if at.shape().len() != 2 {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching \\(::{}, ::{})",
                a.type_name(),
                b.type_name()
            ),
        ));
    }
    let x = solve_tensor(&at, &bt)?;
    if vector_a && bt.shape().len() == 1 {
        return Ok(Value::from_scalar(ops::reshape(&x, &[])?));
    }
    Ok(from_tensor(x, ElType::Float64, false))
}

/// `A ^ k` for a square matrix and an integer `k` (products by repeated squaring, so it is
/// differentiable; negative powers go through the inverse).
pub fn matrix_power(interp: &mut Interp, a: &Value, b: &Value) -> EvalResult {
    let k = match b {
        Value::Int(k) => *k,
        Value::Bool(k) => i64::from(*k),
        Value::Float(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => *x as i64,
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "A ^ p is defined here for integer powers only, got p::{}; for elementwise powers use `A .^ p`",
                    other.type_name()
                ),
            ))
        }
    };
    let (t, eltype) = matrix_tensor(interp, a, "^")?;
    let n = square_size(&t).map_err(Flow::from)?;
    let (mut base, eltype) = if k < 0 {
        (inv_tensor(&t)?, ElType::Float64)
    } else {
        (t, eltype)
    };
    let mut out: Option<Tensor> = None;
    let mut e = k.unsigned_abs();
    while e > 0 {
        interp.check_interrupt()?;
        if e & 1 == 1 {
            out = Some(match out {
                Some(acc) => ops::matmul(&acc, &base)?,
                None => base.clone(),
            });
        }
        e >>= 1;
        if e > 0 {
            base = ops::matmul(&base, &base)?;
        }
    }
    let out = out.unwrap_or_else(|| identity(n));
    Ok(from_tensor(out, eltype, false))
}

/// `inv(A)` for a square matrix (`SingularException(k)` when a pivot is zero).
pub fn inv_matrix(interp: &mut Interp, a: &Value) -> EvalResult {
    if let Value::Sparse(_) = a {
        return Err(fail(
            ErrorKind::MethodError,
            "the inverse of a sparse matrix is usually dense: use inv(Matrix(A)), or A \\ b to solve a system",
        ));
    }
    let (t, _) = matrix_tensor(interp, a, "inv")?;
    Ok(from_tensor(inv_tensor(&t)?, ElType::Float64, false))
}

// ---------------------------------------------------------------------------------------------
// Builtins.

/// The refusal of a function without derivative rules for numbers carrying derivatives.
fn plain_only(t: &Tensor, name: &str) -> Result<(), Flow> {
    if t.is_plain() {
        Ok(())
    } else {
        Err(fail(
            ErrorKind::MethodError,
            format!("`{name}` has no derivative rule (its argument carries derivatives or sparsity tracers)"),
        ))
    }
}

fn det_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("det", 1, 1)?;
    let (t, _) = matrix_tensor(interp, &args.pos[0], "det")?;
    if t.shape().is_empty() {
        return Ok(Value::from_scalar(ops::binary(
            BinaryFn::Mul,
            &t,
            &Tensor::scalar(1.0),
        )?));
    }
    Ok(Value::from_scalar(det_tensor(&t)?))
}

/// The LU factorization with partial pivoting in LAPACK's convention (the first largest pivot;
/// a zero pivot leaves its column unscaled): `(L, U, p, first zero pivot)` with
/// `A[p, :] = L * U` for an m×n matrix (L is m×min(m, n), U is min(m, n)×n).
fn lu_factors(m: usize, n: usize, a: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<usize>, Option<usize>) {
    let mut w = a.to_vec();
    let mut p: Vec<usize> = (0..m).collect();
    let mut zero_pivot = None;
    let r = m.min(n);
    for col in 0..r {
        let mut pivot = col;
        for i in col + 1..m {
            if w[i + col * m].abs() > w[pivot + col * m].abs() {
                pivot = i;
            }
        }
        if pivot != col {
            for j in 0..n {
                w.swap(col + j * m, pivot + j * m);
            }
            p.swap(col, pivot);
        }
        let d = w[col + col * m];
        if d == 0.0 {
            zero_pivot.get_or_insert(col + 1);
            continue;
        }
        for i in col + 1..m {
            w[i + col * m] /= d;
        }
        for j in col + 1..n {
            let f = w[col + j * m];
            if f != 0.0 {
                for i in col + 1..m {
                    w[i + j * m] -= w[i + col * m] * f;
                }
            }
        }
    }
    let mut l = vec![0.0; m * r];
    let mut u = vec![0.0; r * n];
    for j in 0..r {
        l[j + j * m] = 1.0;
        for i in j + 1..m {
            l[i + j * m] = w[i + j * m];
        }
    }
    for j in 0..n {
        for i in 0..r.min(j + 1) {
            u[i + j * r] = w[i + j * m];
        }
    }
    (l, u, p, zero_pivot)
}

/// `lu(A)`: the factors as an object with fields `L`, `U`, `p` (and `P`, the permutation matrix).
pub struct Lu {
    l: Value,
    u: Value,
    p: Value,
}

impl Lu {
    /// `F \ b`: `U \ (L \ b[p, :])`.
    pub fn solve(&self, interp: &mut Interp, b: &Value) -> EvalResult {
        let (bt, _) = matrix_tensor(interp, b, "\\")?;
        let (lt, ut) = (
            crate::eval::operators::to_tensor(&self.l)?,
            crate::eval::operators::to_tensor(&self.u)?,
        );
        let p: Vec<usize> = crate::eval::operators::to_tensor(&self.p)?
            .to_col_major()
            .iter()
            .map(|&k| k as usize - 1)
            .collect();
        if bt.shape().first() != Some(&p.len()) || bt.shape().len() > 2 {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!(
                    "the factorization has {} rows but b has size {:?}",
                    p.len(),
                    bt.shape()
                ),
            ));
        }
        let k = bt.shape().get(1).copied().unwrap_or(1);
        let rows = p.len();
        let positions: Vec<usize> = (0..k)
            .flat_map(|c| p.iter().map(move |&i| i + c * rows))
            .collect();
        let permuted = ops::gather(&bt, &positions, bt.shape())?;
        let x = solve_tensor(&ut, &solve_tensor(&lt, &permuted)?)?;
        Ok(from_tensor(x, ElType::Float64, false))
    }
}

impl crate::object::Object for Lu {
    fn type_name(&self) -> String {
        "LU{Float64, Matrix{Float64}, Vector{Int64}}".into()
    }

    fn show(&self) -> String {
        format!(
            "{}\nL factor:\n{}\nU factor:\n{}",
            self.type_name(),
            crate::display::plain(&self.l),
            crate::display::plain(&self.u)
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "L" => Some(self.l.clone()),
            "U" => Some(self.u.clone()),
            "p" => Some(self.p.clone()),
            "P" => {
                let p = crate::eval::operators::to_tensor(&self.p)
                    .ok()?
                    .to_col_major();
                let n = p.len();
                let mut data = vec![0.0; n * n];
                for (i, &k) in p.iter().enumerate() {
                    data[i + (k as usize - 1) * n] = 1.0;
                }
                Some(super::array(ElType::Float64, &[n, n], data))
            }
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["L", "U", "p", "P"]
    }

    fn elements(&self) -> Option<Vec<Value>> {
        Some(vec![self.l.clone(), self.u.clone(), self.p.clone()])
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn lu_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("lu", 1, 1)?;
    let check = match args.kw("check") {
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(fail(
                ErrorKind::TypeError,
                format!("lu: `check` must be a Bool, got a {}", other.type_name()),
            ))
        }
        None => true,
    };
    let (t, _) = matrix_tensor(interp, &args.pos[0], "lu")?;
    plain_only(&t, "lu")?;
    let (m, n) = matrix_size(&t)?;
    let (l, u, p, zero_pivot) = lu_factors(m, n, &t.to_col_major());
    if let (true, Some(k)) = (check, zero_pivot) {
        return Err(singular(k).into());
    }
    let r = m.min(n);
    let p = super::array(
        ElType::Int64,
        &[m],
        p.iter().map(|&k| (k + 1) as f64).collect(),
    );
    Ok(Value::Object(Rc::new(Box::new(Lu {
        l: super::array(ElType::Float64, &[m, r], l),
        u: super::array(ElType::Float64, &[r, n], u),
        p,
    }))))
}

/// Positions of the `k`-th diagonal of an m×n matrix (column-major).
fn diagonal_positions(m: usize, n: usize, k: i64) -> Vec<usize> {
    let (i0, j0) = if k >= 0 {
        (0, k as usize)
    } else {
        ((-k) as usize, 0)
    };
    (0..)
        .map(|t| (i0 + t, j0 + t))
        .take_while(|&(i, j)| i < m && j < n)
        .map(|(i, j)| i + j * m)
        .collect()
}

fn diag_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("diag", 1, 2)?;
    let k = args
        .pos
        .get(1)
        .map(|v| super::to_int(v, "diag"))
        .transpose()?
        .unwrap_or(0);
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let (m, n) = (s.matrix.rows(), s.matrix.cols());
        let values: Vec<f64> = diagonal_positions(m, n, k)
            .into_iter()
            .map(|p| s.matrix.get(p % m, p / m).copied().unwrap_or(0.0))
            .collect();
        return Ok(super::array(s.eltype, &[values.len()], values));
    }
    let (t, eltype) = matrix_tensor(interp, &args.pos[0], "diag")?;
    let [m, n] = *t.shape() else {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching diag(::{})", args.pos[0].type_name()),
        ));
    };
    let pos = diagonal_positions(m, n, k);
    let d = ops::gather(&t, &pos, &[pos.len()])?;
    Ok(from_tensor(d, eltype, false))
}

fn tr_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("tr", 1, 1)?;
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let (m, n) = (s.matrix.rows(), s.matrix.cols());
        if m != n {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("matrix is not square: dimensions are ({m}, {n})"),
            ));
        }
        let sum = (0..n).filter_map(|i| s.matrix.get(i, i)).sum::<f64>();
        return Ok(Value::Float(sum));
    }
    let (t, eltype) = matrix_tensor(interp, &args.pos[0], "tr")?;
    if t.shape().is_empty() {
        return Ok(from_tensor(t, eltype, true));
    }
    Ok(from_tensor(trace(&t)?, eltype, true))
}

fn diagm_(interp: &mut Interp, args: Args) -> EvalResult {
    // `diagm(v)`, `diagm(k => v, ...)`, `diagm(m, n, k => v, ...)`.
    let (size, pairs) = match args.pos.as_slice() {
        [m, n, rest @ ..] if m.is_number() && n.is_number() && !rest.is_empty() => (
            Some((super::to_size(m, "diagm")?, super::to_size(n, "diagm")?)),
            rest,
        ),
        [] => return Err(fail(ErrorKind::MethodError, "no method matching diagm()")),
        all => (None, all),
    };
    let mut diagonals = Vec::with_capacity(pairs.len());
    let mut eltype = ElType::Bool;
    for pair in pairs {
        let (k, v) = match pair {
            Value::Tuple(pair) if pair.len() == 2 => {
                (super::to_int(&pair[0], "diagm")?, pair[1].clone())
            }
            other if pairs.len() == 1 => (0, other.clone()),
            other => {
                return Err(fail(
                    ErrorKind::MethodError,
                    format!("diagm takes pairs k => v, got a {}", other.type_name()),
                ))
            }
        };
        let o = operand(&v).ok_or_else(|| {
            fail(
                ErrorKind::MethodError,
                format!("no method matching diagm(::{})", v.type_name()),
            )
        })?;
        let t = o.tensor().clone();
        eltype = match (eltype, o.eltype) {
            (ElType::Float64, _) | (_, ElType::Float64) => ElType::Float64,
            (ElType::Int64, _) | (_, ElType::Int64) => ElType::Int64,
            _ => ElType::Bool,
        };
        let len = t.len();
        diagonals.push((k, ops::reshape(&t, &[len])?));
    }
    let (m, n) = match size {
        Some(size) => size,
        None => {
            let n = diagonals
                .iter()
                .map(|(k, t)| t.len() + k.unsigned_abs() as usize)
                .max()
                .unwrap_or(0);
            (n, n)
        }
    };
    interp.check_alloc(m.saturating_mul(n))?;
    let mut out = Tensor::filled(&[m, n], 0.0);
    for (k, t) in &diagonals {
        let pos = diagonal_positions(m, n, *k);
        if pos.len() < t.len() {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!(
                    "diagonal {k} of a {m}×{n} matrix has {} entries, got {}",
                    pos.len(),
                    t.len()
                ),
            ));
        }
        out = ops::scatter(&out, &pos[..t.len()], t)?;
    }
    // Julia's `diagm` of a Bool vector is a Bool matrix; numbers stay Int or Float64.
    Ok(from_tensor(out, eltype, false))
}

fn kron_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("kron", 2, 2)?;
    let (a, ea) = matrix_tensor(interp, &args.pos[0], "kron")?;
    let (b, eb) = matrix_tensor(interp, &args.pos[1], "kron")?;
    let dims = |t: &Tensor| match *t.shape() {
        [] => Ok((1, 1)),
        [m] => Ok((m, 1)),
        [m, n] => Ok((m, n)),
        _ => Err(fail(
            ErrorKind::MethodError,
            "kron needs vectors or matrices",
        )),
    };
    let ((ma, na), (mb, nb)) = (dims(&a)?, dims(&b)?);
    let (m, n) = (ma * mb, na * nb);
    interp.check_alloc(m.saturating_mul(n).saturating_mul(3))?;
    // Entry ((ia, ib), (ja, jb)) is A[ia, ja] * B[ib, jb]: gather each factor to the result's
    // shape and multiply elementwise, so every number kind differentiates through it.
    let mut from_a = Vec::with_capacity(m * n);
    let mut from_b = Vec::with_capacity(m * n);
    for ja in 0..na {
        for jb in 0..nb {
            for ia in 0..ma {
                for ib in 0..mb {
                    from_a.push(ia + ja * ma);
                    from_b.push(ib + jb * mb);
                }
            }
        }
    }
    let vectors = a.shape().len() <= 1 && b.shape().len() <= 1;
    let shape = if vectors { vec![m] } else { vec![m, n] };
    let out = ops::binary(
        BinaryFn::Mul,
        &ops::gather(&a, &from_a, &shape)?,
        &ops::gather(&b, &from_b, &shape)?,
    )?;
    let eltype = if ea == ElType::Float64 || eb == ElType::Float64 {
        ElType::Float64
    } else {
        ElType::Int64
    };
    Ok(from_tensor(out, eltype, false))
}

fn identity_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("I", 1, 1)?;
    let n = super::to_size(&args.pos[0], "I")?;
    interp.check_alloc(n.saturating_mul(n))?;
    Ok(from_tensor(identity(n), ElType::Float64, false))
}

/// `triu` and `tril`: keeps the entries with `j - i >= k` (upper) or `j - i <= k` (lower).
fn triangle(interp: &mut Interp, args: &Args, name: &str, upper: bool) -> EvalResult {
    args.arity(name, 1, 2)?;
    let k = args
        .pos
        .get(1)
        .map(|v| super::to_int(v, name))
        .transpose()?
        .unwrap_or(0);
    let keep = |i: usize, j: usize| {
        let d = j as i64 - i as i64;
        if upper {
            d >= k
        } else {
            d <= k
        }
    };
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let mut tri = sprs::TriMat::new((s.matrix.rows(), s.matrix.cols()));
        for (x, (i, j)) in s.matrix.iter() {
            if keep(i, j) {
                tri.add_triplet(i, j, *x);
            }
        }
        return Ok(super::sparse::sparse_value(tri.to_csc(), s.eltype));
    }
    let (t, eltype) = matrix_tensor(interp, &args.pos[0], name)?;
    let [m, n] = *t.shape() else {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", args.pos[0].type_name()),
        ));
    };
    let mask: Vec<f64> = (0..m * n)
        .map(|p| f64::from(u8::from(keep(p % m.max(1), p / m.max(1)))))
        .collect();
    let out = ops::binary(BinaryFn::Mul, &t, &Tensor::from_col_major(&[m, n], mask))?;
    Ok(from_tensor(out, eltype, false))
}

fn triu_(interp: &mut Interp, args: Args) -> EvalResult {
    triangle(interp, &args, "triu", true)
}

fn tril_(interp: &mut Interp, args: Args) -> EvalResult {
    triangle(interp, &args, "tril", false)
}

fn issymmetric_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("issymmetric", 1, 1)?;
    if let Value::Sparse(s) = &args.pos[0] {
        let s = s.borrow();
        let m = &s.matrix;
        let symmetric = m.rows() == m.cols()
            && m.iter()
                .all(|(x, (i, j))| m.get(j, i).copied().unwrap_or(0.0) == *x);
        return Ok(Value::Bool(symmetric));
    }
    let (t, _) = matrix_tensor(interp, &args.pos[0], "issymmetric")?;
    let symmetric = match *t.shape() {
        [] => true,
        [m, n] if m == n => {
            let a = t.to_col_major();
            (0..n).all(|j| (j + 1..n).all(|i| a[i + j * n] == a[j + i * n]))
        }
        [_, _] => false,
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching issymmetric(::{})",
                    args.pos[0].type_name()
                ),
            ))
        }
    };
    Ok(Value::Bool(symmetric))
}

/// The plain numbers of a matrix for a function without derivative rules.
fn plain_matrix(interp: &Interp, v: &Value, name: &str) -> Result<(usize, usize, Vec<f64>), Flow> {
    let (t, _) = matrix_tensor(interp, v, name)?;
    plain_only(&t, name)?;
    match *t.shape() {
        [] => Ok((1, 1, t.to_col_major())),
        [m, n] => Ok((m, n, t.to_col_major())),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )),
    }
}

fn cond_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("cond", 1, 2)?;
    let (m, n, a) = plain_matrix(interp, &args.pos[0], "cond")?;
    let p = args
        .pos
        .get(1)
        .map(|v| super::to_float(v, "cond"))
        .transpose()?
        .unwrap_or(2.0);
    if p == 2.0 {
        if m == 0 || n == 0 {
            return Ok(Value::Float(0.0));
        }
        let s = faer::MatRef::from_column_major_slice(&a, m, n)
            .singular_values()
            .map_err(|_| fail(ErrorKind::ArgumentError, "cond: the SVD did not converge"))?;
        let (max, min) = (s[0], s[s.len() - 1]);
        return Ok(Value::Float(if min == 0.0 {
            f64::INFINITY
        } else {
            max / min
        }));
    }
    if p != 1.0 && p != f64::INFINITY {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("cond: p must be 1, 2 or Inf, got {}", crate::show::float(p)),
        ));
    }
    if m != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("matrix is not square: dimensions are ({m}, {n})"),
        ));
    }
    // ‖A‖₁ is the largest column sum of |A|, ‖A‖∞ the largest row sum.
    let norm = |x: &[f64]| -> f64 {
        let sums = (0..n).map(|o| {
            (0..n)
                .map(|i| {
                    if p == 1.0 {
                        x[i + o * n].abs()
                    } else {
                        x[o + i * n].abs()
                    }
                })
                .sum::<f64>()
        });
        sums.fold(0.0, f64::max)
    };
    match DenseLu::new(n, &a) {
        Ok(lu) => {
            let inverse = lu.apply_plain(&identity(n).to_col_major(), n, false)?;
            Ok(Value::Float(norm(&a) * norm(&inverse)))
        }
        Err(_) => Ok(Value::Float(f64::INFINITY)),
    }
}

fn eigvals_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("eigvals", 1, 1)?;
    let (m, n, a) = plain_matrix(interp, &args.pos[0], "eigvals")?;
    if m != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("matrix is not square: dimensions are ({m}, {n})"),
        ));
    }
    let view = faer::MatRef::from_column_major_slice(&a, n, n);
    let symmetric = (0..n).all(|j| (j + 1..n).all(|i| a[i + j * n] == a[j + i * n]));
    let failed = |_| {
        fail(
            ErrorKind::ArgumentError,
            "eigvals: the eigenvalue iteration did not converge",
        )
    };
    let mut values: Vec<f64> = if n == 0 {
        Vec::new()
    } else if symmetric {
        view.self_adjoint_eigenvalues(faer::Side::Lower)
            .map_err(failed)?
    } else {
        let complex = view.eigenvalues().map_err(failed)?;
        if complex.iter().any(|z| z.im != 0.0) {
            return Err(fail(
                ErrorKind::DomainError,
                "eigvals: this matrix has complex eigenvalues, and difflab has no complex numbers",
            ));
        }
        complex.iter().map(|z| z.re).collect()
    };
    // Julia sorts eigenvalues in increasing order.
    values.sort_by(f64::total_cmp);
    Ok(super::array(ElType::Float64, &[n], values))
}

crate::builtins! {
    "det" => det_, false, "    det(A)\n\nThe determinant of a square matrix (from its LU factorization); differentiable: `det(A)·tr(A⁻¹Ȧ)`.\n\n```\njulia> det([1.0 2.0; 3.0 4.0])\n-2.0\n```";
    "lu" => lu_, false, "    lu(A; check=true)\n\nThe LU factorization with partial pivoting: fields `L`, `U`, `p` (and the permutation matrix `P`) with `A[p, :] == L * U`; `F \\ b` solves with it. A zero pivot raises `SingularException` unless `check=false`.\n\n```\njulia> F = lu([1.0 2.0; 3.0 4.0]); F.U\n2×2 Matrix{Float64}:\n 3.0  4.0\n 0.0  0.666667\n```";
    "diag" => diag_, false, "    diag(A, k=0)\n\nThe `k`-th diagonal of a matrix as a vector.\n\n```\njulia> diag([1 2; 3 4])\n2-element Vector{Int64}:\n 1\n 4\n```";
    "diagm" => diagm_, false, "    diagm(v)\n    diagm(k => v, ...)\n    diagm(m, n, k => v, ...)\n\nA matrix with `v` on its `k`-th diagonal (square unless m×n is given).\n\n```\njulia> diagm([1.0, 2.0])\n2×2 Matrix{Float64}:\n 1.0  0.0\n 0.0  2.0\n```";
    "tr" => tr_, false, "    tr(A)\n\nThe trace (sum of the diagonal).\n\n```\njulia> tr([1 2; 3 4])\n5\n```";
    "kron" => kron_, false, "    kron(A, B)\n\nThe Kronecker product (of two vectors: a vector).\n\n```\njulia> kron([1 0; 0 1], [1 2])\n2×4 Matrix{Int64}:\n 1  2  0  0\n 0  0  1  2\n```";
    "I" => identity_, false, "    I(n)\n\nThe n×n identity matrix (dense `Float64`). Julia's bare `I` (as in `A + λ*I`) is not a value here: write `A + λ*I(n)`.\n\n```\njulia> I(2)\n2×2 Matrix{Float64}:\n 1.0  0.0\n 0.0  1.0\n```";
    "triu" => triu_, false, "    triu(A, k=0)\n\nThe upper triangle of a matrix: the entries on and above the `k`-th diagonal, the others zero.\n\n```\njulia> triu([1 2; 3 4])\n2×2 Matrix{Int64}:\n 1  2\n 0  4\n```";
    "tril" => tril_, false, "    tril(A, k=0)\n\nThe lower triangle of a matrix: the entries on and below the `k`-th diagonal, the others zero.\n\n```\njulia> tril([1 2; 3 4])\n2×2 Matrix{Int64}:\n 1  0\n 3  4\n```";
    "issymmetric" => issymmetric_, false, "    issymmetric(A)\n\nWhether a matrix equals its transpose exactly.\n\n```\njulia> issymmetric([1.0 2.0; 2.0 1.0])\ntrue\n```";
    "cond" => cond_, false, "    cond(A, p=2)\n\nThe condition number in the `p`-norm (`p` = 1, 2 or Inf): for p = 2 the ratio of the largest to the smallest singular value. Not differentiable.\n\n```\njulia> cond([1.0 0.0; 0.0 2.0])\n2.0\n```";
    "eigvals" => eigvals_, false, "    eigvals(A)\n\nThe eigenvalues of a square matrix in increasing order (symmetric matrices use the symmetric solver; complex eigenvalues are an error). Not differentiable.\n\n```\njulia> eigvals([2.0 1.0; 1.0 2.0])\n2-element Vector{Float64}:\n 1.0\n 3.0\n```";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Config;
    use difflab_ad::reverse::Tape;
    use difflab_syntax::Name;

    /// The value of a successful evaluation (`Flow` has no `Debug`, so no `unwrap`).
    trait Evaluated {
        fn value(self) -> Value;
    }

    impl Evaluated for EvalResult {
        fn value(self) -> Value {
            match self {
                Ok(v) => v,
                Err(Flow::Error(e)) => panic!("{}: {}", e.kind.name(), e.message),
                Err(_) => panic!("unexpected control flow"),
            }
        }
    }

    fn tensor_of(v: &Value) -> Tensor {
        match crate::eval::operators::to_tensor(v) {
            Ok(t) => t,
            Err(_) => panic!("numbers expected"),
        }
    }

    fn interp() -> Interp {
        Interp::new(
            Config::default(),
            Box::new(crate::output::Capture::default()),
        )
    }

    fn call(interp: &mut Interp, name: &str, args: Vec<Value>) -> EvalResult {
        let f = Value::Builtin(crate::builtins::lookup(Name::new(name)).expect("registered"));
        interp.call(&f, args)
    }

    /// A Float64 matrix from rows (as it is written).
    fn rows(rows: &[&[f64]]) -> Tensor {
        let (m, n) = (rows.len(), rows.first().map_or(0, |r| r.len()));
        Tensor::from_col_major(
            &[m, n],
            (0..n)
                .flat_map(|j| rows.iter().map(move |r| r[j]))
                .collect(),
        )
    }

    fn value(t: Tensor) -> Value {
        from_tensor(t, ElType::Float64, false)
    }

    fn vector(x: &[f64]) -> Tensor {
        Tensor::from_col_major(&[x.len()], x.to_vec())
    }

    fn numbers(v: &Value) -> Vec<f64> {
        tensor_of(v).to_col_major()
    }

    fn close(got: &[f64], want: &[f64], tol: f64) {
        assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).abs() <= tol * (1.0 + w.abs()),
                "{got:?} vs {want:?}"
            );
        }
    }

    fn error_of(r: EvalResult) -> (ErrorKind, String) {
        match r {
            Err(Flow::Error(e)) => (e.kind, e.message),
            Ok(v) => panic!("expected an error, got {v:?}"),
            Err(_) => panic!("expected an error"),
        }
    }

    /// A seeded pseudo-random tensor (a small linear congruential generator).
    fn pseudo_random(shape: &[usize], seed: u64) -> Tensor {
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let n = shape.iter().product();
        let data = (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 11) as f64 / (1u64 << 53) as f64) - 0.5
            })
            .collect();
        Tensor::from_col_major(shape, data)
    }

    /// A well-conditioned n×n matrix: random plus a dominant diagonal.
    fn well_conditioned(n: usize, seed: u64) -> Tensor {
        let r = pseudo_random(&[n, n], seed).to_col_major();
        Tensor::from_col_major(
            &[n, n],
            (0..n * n)
                .map(|k| r[k] + if k % (n + 1) == 0 { 3.0 } else { 0.0 })
                .collect(),
        )
    }

    fn axpy(t: &Tensor, h: f64, d: &Tensor) -> Tensor {
        ops::binary(
            BinaryFn::Add,
            t,
            &ops::binary(BinaryFn::Mul, &Tensor::scalar(h), d).unwrap(),
        )
        .unwrap()
    }

    /// The central difference of `f` along the directions `(da, db)` at `(a, b)`.
    fn central(
        f: &dyn Fn(&Tensor, &Tensor) -> Tensor,
        a: &Tensor,
        b: &Tensor,
        da: &Tensor,
        db: &Tensor,
    ) -> Vec<f64> {
        let h = 1e-6;
        let plus = f(&axpy(a, h, da), &axpy(b, h, db)).to_col_major();
        let minus = f(&axpy(a, -h, da), &axpy(b, -h, db)).to_col_major();
        plus.iter()
            .zip(&minus)
            .map(|(p, m)| (p - m) / (2.0 * h))
            .collect()
    }

    fn first_partial(t: &Tensor) -> Vec<f64> {
        match t {
            Tensor::Dual(d) => d.partials[0].to_col_major(),
            other => panic!("expected a dual, got {other:?}"),
        }
    }

    #[test]
    fn solves_square_systems_against_a_known_solution() {
        let mut it = interp();
        let a = value(rows(&[
            &[4.0, 1.0, 0.0],
            &[1.0, 3.0, 1.0],
            &[0.0, 1.0, 2.0],
        ]));
        let x = solve(&mut it, &a, &value(vector(&[6.0, 10.0, 8.0]))).value();
        close(&numbers(&x), &[1.0, 2.0, 3.0], 1e-12);
        assert_eq!(x.type_name(), "Vector{Float64}");
        // A matrix right-hand side: one solution per column.
        let b = value(rows(&[&[6.0, 4.0], &[10.0, 1.0], &[8.0, 0.0]]));
        let x = solve(&mut it, &a, &b).value();
        close(&numbers(&x), &[1.0, 2.0, 3.0, 1.0, 0.0, 0.0], 1e-12);
        // Integer matrices solve in Float64.
        let ai = from_tensor(rows(&[&[2.0, 0.0], &[0.0, 4.0]]), ElType::Int64, false);
        let x = solve(&mut it, &ai, &value(vector(&[2.0, 2.0]))).value();
        close(&numbers(&x), &[1.0, 0.5], 0.0);
    }

    #[test]
    fn singular_and_mismatched_systems_are_errors() {
        let mut it = interp();
        let singular = value(rows(&[&[1.0, 2.0], &[2.0, 4.0]]));
        let (kind, msg) = error_of(solve(&mut it, &singular, &value(vector(&[1.0, 2.0]))));
        assert_eq!(
            (kind, msg.as_str()),
            (ErrorKind::ArgumentError, "SingularException(2)")
        );
        let (kind, msg) = error_of(inv_matrix(&mut it, &singular));
        assert_eq!(
            (kind, msg.as_str()),
            (ErrorKind::ArgumentError, "SingularException(2)")
        );
        let zero_first = value(rows(&[&[0.0, 0.0], &[0.0, 1.0]]));
        let (_, msg) = error_of(solve(&mut it, &zero_first, &value(vector(&[1.0, 2.0]))));
        assert_eq!(msg, "SingularException(1)");
        let a = value(rows(&[&[1.0, 0.0], &[0.0, 1.0]]));
        let (kind, _) = error_of(solve(&mut it, &a, &value(vector(&[1.0, 2.0, 3.0]))));
        assert_eq!(kind, ErrorKind::DimensionMismatch);
        let (kind, _) = error_of(inv_matrix(&mut it, &value(rows(&[&[1.0, 2.0]]))));
        assert_eq!(kind, ErrorKind::DimensionMismatch);
    }

    #[test]
    fn rectangular_systems_are_least_squares() {
        let mut it = interp();
        // Overdetermined: the normal equations [2 1; 1 2] x = [5, 6].
        let a = value(rows(&[&[1.0, 0.0], &[0.0, 1.0], &[1.0, 1.0]]));
        let x = solve(&mut it, &a, &value(vector(&[1.0, 2.0, 4.0]))).value();
        close(&numbers(&x), &[4.0 / 3.0, 7.0 / 3.0], 1e-12);
        // Underdetermined: the minimum-norm solution.
        let a = value(rows(&[&[1.0, 1.0]]));
        let x = solve(&mut it, &a, &value(vector(&[2.0]))).value();
        close(&numbers(&x), &[1.0, 1.0], 1e-12);
        // Rank-deficient: still the minimum-norm least-squares solution.
        let a = value(rows(&[&[1.0, 1.0], &[1.0, 1.0], &[1.0, 1.0]]));
        let x = solve(&mut it, &a, &value(vector(&[1.0, 2.0, 3.0]))).value();
        close(&numbers(&x), &[1.0, 1.0], 1e-12);
    }

    #[test]
    fn det_and_inv_of_known_matrices() {
        let mut it = interp();
        let det = |it: &mut Interp, t: Tensor| match call(it, "det", vec![value(t)]).value() {
            Value::Float(x) => x,
            other => panic!("det gave {other:?}"),
        };
        assert_eq!(det(&mut it, rows(&[&[1.0, 2.0], &[3.0, 4.0]])), -2.0);
        assert_eq!(det(&mut it, rows(&[&[0.0, 1.0], &[1.0, 0.0]])), -1.0);
        assert_eq!(det(&mut it, rows(&[&[1.0, 2.0], &[2.0, 4.0]])), 0.0);
        let a = rows(&[&[2.0, 1.0, 0.0], &[1.0, 3.0, 1.0], &[0.0, 1.0, 4.0]]);
        assert!((det(&mut it, a) - 18.0).abs() < 1e-12);
        // A cyclic permutation of three rows is even.
        let p = rows(&[&[0.0, 1.0, 0.0], &[0.0, 0.0, 1.0], &[1.0, 0.0, 0.0]]);
        assert_eq!(det(&mut it, p), 1.0);
        assert_eq!(det(&mut it, Tensor::from_col_major(&[0, 0], vec![])), 1.0);
        let inv = inv_matrix(&mut it, &value(rows(&[&[2.0, 1.0], &[1.0, 1.0]]))).value();
        close(&numbers(&inv), &[1.0, -1.0, -1.0, 2.0], 1e-12);
        assert_eq!(inv.type_name(), "Matrix{Float64}");
    }

    #[test]
    fn lu_factors_reconstruct_the_permuted_matrix() {
        let mut it = interp();
        let a = rows(&[&[1.0, 2.0, 0.0], &[3.0, 4.0, 1.0], &[0.0, 5.0, 6.0]]);
        let f = call(&mut it, "lu", vec![value(a.clone())]).value();
        let Value::Object(o) = &f else {
            panic!("lu gives an object")
        };
        assert_eq!(o.type_name(), "LU{Float64, Matrix{Float64}, Vector{Int64}}");
        let (l, u, p) = (
            o.field("L").unwrap(),
            o.field("U").unwrap(),
            numbers(&o.field("p").unwrap()),
        );
        let lu = ops::matmul(&tensor_of(&l), &tensor_of(&u))
            .unwrap()
            .to_col_major();
        let data = a.to_col_major();
        for i in 0..3 {
            for j in 0..3 {
                let row = p[i] as usize - 1;
                assert!((lu[i + 3 * j] - data[row + 3 * j]).abs() < 1e-12);
            }
        }
        assert_eq!(p, vec![2.0, 3.0, 1.0]);
        assert!(o.show().starts_with(
            "LU{Float64, Matrix{Float64}, Vector{Int64}}\nL factor:\n3×3 Matrix{Float64}:"
        ));
        // `F \ b` solves with the factors.
        let x = crate::builtins::sparse::sparse_binary(
            &mut it,
            difflab_syntax::BinOp::LeftDiv,
            &f,
            &value(vector(&[5.0, 14.0, 28.0])),
        )
        .expect("F \\ b is handled")
        .value();
        close(&numbers(&x), &[1.0, 2.0, 3.0], 1e-12);
        // A zero pivot: an error unless check=false.
        let singular = value(rows(&[&[1.0, 2.0], &[2.0, 4.0]]));
        let (_, msg) = error_of(call(&mut it, "lu", vec![singular.clone()]));
        assert_eq!(msg, "SingularException(2)");
        let f = it
            .call_value(
                &Value::Builtin(crate::builtins::lookup(Name::new("lu")).unwrap()),
                vec![singular],
                vec![(Name::new("check"), Value::Bool(false))],
            )
            .value();
        let Value::Object(o) = f else { panic!() };
        close(&numbers(&o.field("U").unwrap()), &[2.0, 0.0, 4.0, 0.0], 0.0);
    }

    #[test]
    fn forward_rule_of_solve_matches_central_differences() {
        let n = 4;
        let (a, b) = (well_conditioned(n, 1), pseudo_random(&[n], 2));
        let (da, db) = (pseudo_random(&[n, n], 3), pseudo_random(&[n], 4));
        let f = |a: &Tensor, b: &Tensor| solve_tensor(a, b).unwrap();
        let want = central(&f, &a, &b, &da, &db);
        let tag = Tag::fresh();
        let x = solve_tensor(
            &Tensor::dual(tag, a.clone(), vec![da.clone()]),
            &Tensor::dual(tag, b.clone(), vec![db.clone()]),
        )
        .unwrap();
        close(&first_partial(&x), &want, 1e-6);
        close(&x.to_col_major(), &f(&a, &b).to_col_major(), 1e-14);
        // Only b, or only A, carrying the derivative.
        let zero_a = Tensor::filled(&[n, n], 0.0);
        let zero_b = Tensor::filled(&[n], 0.0);
        let x = solve_tensor(&a, &Tensor::dual(Tag::fresh(), b.clone(), vec![db.clone()])).unwrap();
        close(&first_partial(&x), &central(&f, &a, &b, &zero_a, &db), 1e-6);
        let x = solve_tensor(&Tensor::dual(Tag::fresh(), a.clone(), vec![da.clone()]), &b).unwrap();
        close(&first_partial(&x), &central(&f, &a, &b, &da, &zero_b), 1e-6);
        // A matrix right-hand side through the language's `\`.
        let bm = pseudo_random(&[n, 2], 5);
        let dbm = pseudo_random(&[n, 2], 6);
        let mut it = interp();
        let tag = Tag::fresh();
        let x = solve(
            &mut it,
            &value(Tensor::dual(tag, a.clone(), vec![da.clone()])),
            &value(Tensor::dual(tag, bm.clone(), vec![dbm.clone()])),
        )
        .value();
        let x = tensor_of(&x);
        close(&first_partial(&x), &central(&f, &a, &bm, &da, &dbm), 1e-6);
    }

    #[test]
    fn forward_rule_of_least_squares_matches_central_differences() {
        let f = |a: &Tensor, b: &Tensor| solve_tensor(a, b).unwrap();
        for (m, n) in [(5, 3), (2, 4)] {
            let (a, b) = (pseudo_random(&[m, n], 7), pseudo_random(&[m], 8));
            let (da, db) = (pseudo_random(&[m, n], 9), pseudo_random(&[m], 10));
            let tag = Tag::fresh();
            let x = solve_tensor(
                &Tensor::dual(tag, a.clone(), vec![da.clone()]),
                &Tensor::dual(tag, b.clone(), vec![db.clone()]),
            )
            .unwrap();
            close(&first_partial(&x), &central(&f, &a, &b, &da, &db), 1e-5);
        }
        // No derivative where A loses rank.
        let a = rows(&[&[1.0, 1.0], &[1.0, 1.0], &[1.0, 1.0]]);
        let err = solve_tensor(
            &Tensor::dual(Tag::fresh(), a.clone(), vec![a]),
            &vector(&[1.0, 2.0, 3.0]),
        )
        .unwrap_err();
        assert!(err.to_string().contains("rank-deficient"), "{err}");
    }

    #[test]
    fn forward_rules_of_inv_and_det_match_central_differences() {
        let n = 3;
        let (a, da) = (well_conditioned(n, 11), pseudo_random(&[n, n], 12));
        let none = Tensor::scalar(0.0);
        let inv = |a: &Tensor, _: &Tensor| inv_tensor(a).unwrap();
        let y = inv_tensor(&Tensor::dual(Tag::fresh(), a.clone(), vec![da.clone()])).unwrap();
        close(
            &first_partial(&y),
            &central(&inv, &a, &none, &da, &none),
            1e-6,
        );
        let det = |a: &Tensor, _: &Tensor| det_tensor(a).unwrap();
        let mut it = interp();
        let d = call(
            &mut it,
            "det",
            vec![value(Tensor::dual(
                Tag::fresh(),
                a.clone(),
                vec![da.clone()],
            ))],
        )
        .value();
        let Value::Real(d) = d else {
            panic!("a dual number expected")
        };
        close(
            &first_partial(&d),
            &central(&det, &a, &none, &da, &none),
            1e-6,
        );
        // Second order: d²/dt² det(A + tD) = 2 det(D) for 2×2 matrices.
        let (a2, d2) = (
            rows(&[&[1.0, 2.0], &[3.0, 5.0]]),
            rows(&[&[2.0, -1.0], &[1.0, 3.0]]),
        );
        let (inner, outer) = (Tag::fresh(), Tag::fresh());
        let x = Tensor::dual(
            outer,
            Tensor::dual(inner, a2.clone(), vec![d2.clone()]),
            vec![Tensor::dual(
                inner,
                d2.clone(),
                vec![Tensor::filled(&[2, 2], 0.0)],
            )],
        );
        let Tensor::Dual(out) = det_tensor(&x).unwrap() else {
            panic!()
        };
        let second = first_partial(&out.partials[0]);
        close(&second, &[2.0 * 7.0], 1e-12);
        // At a singular matrix the derivative is the adjugate: d/dt det([1 2; 2 4] + tD) at 0 is
        // tr(adj(A) D) = 4·D11 − 2·D12 − 2·D21 + 1·D22.
        let s = rows(&[&[1.0, 2.0], &[2.0, 4.0]]);
        let d = rows(&[&[1.0, 3.0], &[5.0, 7.0]]);
        let y = det_tensor(&Tensor::dual(Tag::fresh(), s.clone(), vec![d.clone()])).unwrap();
        close(
            &first_partial(&y),
            &[4.0 - 2.0 * 3.0 - 2.0 * 5.0 + 7.0],
            1e-12,
        );
        let s3 = rows(&[&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0], &[7.0, 8.0, 9.0]]);
        let d3 = pseudo_random(&[3, 3], 13);
        let y = det_tensor(&Tensor::dual(Tag::fresh(), s3.clone(), vec![d3.clone()])).unwrap();
        close(
            &first_partial(&y),
            &central(&det, &s3, &none, &d3, &none),
            1e-6,
        );
        // Its second derivative there (nested duals) is refused, not guessed.
        let x = Tensor::dual(
            outer,
            Tensor::dual(inner, s.clone(), vec![d.clone()]),
            vec![Tensor::dual(
                inner,
                d.clone(),
                vec![Tensor::filled(&[2, 2], 0.0)],
            )],
        );
        let err = det_tensor(&x).unwrap_err();
        assert!(err.to_string().contains("SingularException(2)"), "{err}");
    }

    /// The gradient of `sum(w .* f(A, b))` by the tape, against central differences.
    fn check_reverse(f: &dyn Fn(&Tensor, &Tensor) -> Tensor, a: &Tensor, b: &Tensor) {
        let tape = Tape::new();
        let (ta, tb) = (tape.input(a.clone()), tape.input(b.clone()));
        let out = f(&ta, &tb);
        let w = pseudo_random(out.shape(), 21);
        let loss = ops::sum_all(&ops::binary(BinaryFn::Mul, &out, &w).unwrap()).unwrap();
        let node = |t: &Tensor| match t {
            Tensor::Tracked(tr) => tr.node,
            _ => panic!("tracked input expected"),
        };
        let grads = tape
            .gradient(
                &loss,
                &Tensor::scalar(1.0),
                &[
                    (node(&ta), a.shape().to_vec()),
                    (node(&tb), b.shape().to_vec()),
                ],
            )
            .unwrap();
        let scalar_loss = |a: &Tensor, b: &Tensor| {
            ops::sum_all(&ops::binary(BinaryFn::Mul, &f(a, b), &w).unwrap()).unwrap()
        };
        for (k, input) in [a, b].into_iter().enumerate() {
            for e in 0..input.len() {
                let mut unit = vec![0.0; input.len()];
                unit[e] = 1.0;
                let unit = Tensor::from_col_major(input.shape(), unit);
                let (za, zb) = (
                    Tensor::filled(a.shape(), 0.0),
                    Tensor::filled(b.shape(), 0.0),
                );
                let (da, db) = if k == 0 { (unit, zb) } else { (za, unit) };
                let want = central(&scalar_loss, a, b, &da, &db)[0];
                let got = grads[k].to_col_major()[e];
                assert!(
                    (got - want).abs() < 1e-6 * (1.0 + want.abs()),
                    "input {k}, entry {e}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn reverse_rules_match_central_differences() {
        let solve = |a: &Tensor, b: &Tensor| solve_tensor(a, b).unwrap();
        check_reverse(&solve, &well_conditioned(3, 31), &pseudo_random(&[3], 32));
        check_reverse(
            &solve,
            &well_conditioned(3, 33),
            &pseudo_random(&[3, 2], 34),
        );
        check_reverse(
            &solve,
            &pseudo_random(&[5, 3], 35),
            &pseudo_random(&[5], 36),
        );
        check_reverse(
            &solve,
            &pseudo_random(&[2, 4], 37),
            &pseudo_random(&[2], 38),
        );
        let det = |a: &Tensor, b: &Tensor| {
            ops::binary(
                BinaryFn::Add,
                &det_tensor(a).unwrap(),
                &ops::sum_all(b).unwrap(),
            )
            .unwrap()
        };
        check_reverse(&det, &well_conditioned(3, 39), &vector(&[0.0]));
        let inv = |a: &Tensor, b: &Tensor| {
            ops::binary(
                BinaryFn::Mul,
                &inv_tensor(a).unwrap(),
                &ops::sum_all(b).unwrap(),
            )
            .unwrap()
        };
        check_reverse(&inv, &well_conditioned(3, 40), &vector(&[2.0]));
    }

    #[test]
    fn sparsity_of_solve_and_det_is_dense_in_a() {
        let a = well_conditioned(3, 41);
        let b = vector(&[1.0, 2.0, 3.0]);
        let x = solve_tensor(&tracer::input(&a, false), &b).unwrap();
        let sets = tracer::sets_of(&x);
        assert!(sets.iter().all(|s| s.len() == 9));
        let x = solve_tensor(&a, &tracer::input(&b, true)).unwrap();
        assert!(tracer::sets_of(&x).iter().all(|s| s.len() == 3));
        close(
            &x.to_col_major(),
            &solve_tensor(&a, &b).unwrap().to_col_major(),
            1e-14,
        );
        let d = det_tensor(&tracer::input(&a, false)).unwrap();
        assert_eq!(tracer::sets_of(&d)[0].len(), 9);
    }

    #[test]
    fn functions_without_rules_refuse_derivatives() {
        let mut it = interp();
        let a = rows(&[&[2.0, 1.0], &[1.0, 2.0]]);
        let dual = value(Tensor::dual(Tag::fresh(), a.clone(), vec![a]));
        for name in ["eigvals", "cond", "lu"] {
            let (kind, msg) = error_of(call(&mut it, name, vec![dual.clone()]));
            assert_eq!(kind, ErrorKind::MethodError);
            assert!(
                msg.starts_with(&format!("`{name}` has no derivative rule")),
                "{msg}"
            );
        }
    }

    #[test]
    fn matrix_powers() {
        let mut it = interp();
        let fib = from_tensor(rows(&[&[1.0, 1.0], &[1.0, 0.0]]), ElType::Int64, false);
        let p = matrix_power(&mut it, &fib, &Value::Int(10)).value();
        assert_eq!(p.type_name(), "Matrix{Int64}");
        assert_eq!(numbers(&p), vec![89.0, 55.0, 55.0, 34.0]);
        let p = matrix_power(&mut it, &fib, &Value::Int(0)).value();
        assert_eq!(numbers(&p), vec![1.0, 0.0, 0.0, 1.0]);
        let p = matrix_power(&mut it, &fib, &Value::Int(-2)).value();
        assert_eq!(p.type_name(), "Matrix{Float64}");
        close(&numbers(&p), &[1.0, -1.0, -1.0, 2.0], 1e-12);
        let (kind, _) = error_of(matrix_power(&mut it, &fib, &Value::Float(0.5)));
        assert_eq!(kind, ErrorKind::MethodError);
    }

    #[test]
    fn structural_functions() {
        let mut it = interp();
        let ints = |t: Tensor| from_tensor(t, ElType::Int64, false);
        let k = call(
            &mut it,
            "kron",
            vec![
                ints(rows(&[&[1.0, 0.0], &[0.0, 1.0]])),
                ints(rows(&[&[1.0, 2.0]])),
            ],
        )
        .value();
        assert_eq!(k.type_name(), "Matrix{Int64}");
        assert_eq!(numbers(&k), vec![1.0, 0.0, 2.0, 0.0, 0.0, 1.0, 0.0, 2.0]);
        let k = call(
            &mut it,
            "kron",
            vec![value(vector(&[1.0, 2.0])), value(vector(&[1.0, 10.0]))],
        )
        .value();
        assert_eq!(numbers(&k), vec![1.0, 10.0, 2.0, 20.0]);
        assert_eq!(k.type_name(), "Vector{Float64}");
        let a = ints(rows(&[
            &[1.0, 2.0, 3.0],
            &[4.0, 5.0, 6.0],
            &[7.0, 8.0, 9.0],
        ]));
        let u = call(&mut it, "triu", vec![a.clone()]).value();
        assert_eq!(
            numbers(&u),
            vec![1.0, 0.0, 0.0, 2.0, 5.0, 0.0, 3.0, 6.0, 9.0]
        );
        assert_eq!(u.type_name(), "Matrix{Int64}");
        let l = call(&mut it, "tril", vec![a.clone(), Value::Int(-1)]).value();
        assert_eq!(
            numbers(&l),
            vec![0.0, 4.0, 7.0, 0.0, 0.0, 8.0, 0.0, 0.0, 0.0]
        );
        let sym = |it: &mut Interp, v: Value| call(it, "issymmetric", vec![v]).value();
        assert!(matches!(sym(&mut it, a), Value::Bool(false)));
        assert!(matches!(
            sym(&mut it, value(rows(&[&[1.0, 2.0], &[2.0, 1.0]]))),
            Value::Bool(true)
        ));
        let d = call(
            &mut it,
            "diagm",
            vec![
                Value::Int(2),
                Value::Int(3),
                Value::Tuple(Rc::new(vec![Value::Int(1), value(vector(&[5.0, 6.0]))])),
            ],
        )
        .value();
        assert_eq!(numbers(&d), vec![0.0, 0.0, 5.0, 0.0, 0.0, 6.0]);
        assert!(matches!(
            call(&mut it, "tr", vec![ints(rows(&[&[1.0, 2.0], &[3.0, 4.0]]))]).value(),
            Value::Int(5)
        ));
        // triu is differentiable: it masks the partials too.
        let t = rows(&[&[1.0, 2.0], &[3.0, 4.0]]);
        let u = call(
            &mut it,
            "triu",
            vec![value(Tensor::dual(Tag::fresh(), t.clone(), vec![t]))],
        )
        .value();
        let u = tensor_of(&u);
        assert_eq!(first_partial(&u), vec![1.0, 0.0, 2.0, 4.0]);
    }

    #[test]
    fn spectral_functions() {
        let mut it = interp();
        let c = call(
            &mut it,
            "cond",
            vec![value(rows(&[&[1.0, 0.0], &[0.0, 2.0]]))],
        )
        .value();
        assert!(matches!(c, Value::Float(x) if (x - 2.0).abs() < 1e-12));
        let c = call(
            &mut it,
            "cond",
            vec![value(rows(&[&[1.0, 2.0], &[2.0, 4.0]]))],
        )
        .value();
        assert!(matches!(c, Value::Float(x) if x > 1e15));
        let c = call(
            &mut it,
            "cond",
            vec![value(rows(&[&[1.0, 2.0], &[3.0, 4.0]])), Value::Int(1)],
        )
        .value();
        assert!(matches!(c, Value::Float(x) if (x - 21.0).abs() < 1e-12));
        let e = call(
            &mut it,
            "eigvals",
            vec![value(rows(&[&[2.0, 1.0], &[1.0, 2.0]]))],
        )
        .value();
        close(&numbers(&e), &[1.0, 3.0], 1e-12);
        let e = call(
            &mut it,
            "eigvals",
            vec![value(rows(&[&[3.0, 2.0], &[0.0, 1.0]]))],
        )
        .value();
        close(&numbers(&e), &[1.0, 3.0], 1e-12);
        let (kind, _) = error_of(call(
            &mut it,
            "eigvals",
            vec![value(rows(&[&[0.0, -1.0], &[1.0, 0.0]]))],
        ));
        assert_eq!(kind, ErrorKind::DomainError);
    }
}
