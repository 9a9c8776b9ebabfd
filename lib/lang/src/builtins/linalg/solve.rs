//! `\`, `inv` and `det` on tensors of any kind, with their forward, reverse and sparsity
//! rules, and the evaluator's entry points `A \ b`, `A ^ k`, `inv(A)` and `det`.

use super::*;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::Value;
use difflab_ad::error::Result as AdResult;
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::reverse::{is_tape_tag, record_op, tracked_with, value_below, Rule};
use difflab_ad::tensor::{col_major_slice, top_tag};
use difflab_ad::tracer::{self, Tracer};
use difflab_ad::{AdError, Tag, Tensor};
use std::rc::Rc;

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
        let x = solve_tensor(&a.primal_tensor(), &b.primal_tensor())?;
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
    solve_tensor(a, &identity(n)?)
}

/// The determinant of a plain square matrix (column-major) from its LU factorization; 0 when
/// a pivot is zero.
fn det_plain(n: usize, a: &[f64]) -> AdResult<f64> {
    if n == 0 {
        return Ok(1.0);
    }
    let lu = interruptible(a, move |a| {
        faer::MatRef::from_column_major_slice(a, n, n).partial_piv_lu()
    })?;
    let u = lu.U();
    if (0..n).any(|k| u[(k, k)] == 0.0) {
        return Ok(0.0);
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
    Ok(sign * (0..n).map(|k| u[(k, k)]).product::<f64>())
}

/// The adjugate of a plain n×n matrix (column-major), `adj(A) = det(A)·A⁻¹` also where `A` is
/// singular: from the SVD `A = UΣVᵀ`, `adj(A) = det(U)·det(V)·V·adj(Σ)·Uᵀ` with
/// `adj(Σ)ᵢᵢ = Πⱼ≠ᵢ σⱼ`.
fn adjugate_plain(n: usize, a: &[f64]) -> AdResult<Vec<f64>> {
    if n == 1 {
        return Ok(vec![1.0]);
    }
    let svd = interruptible(a, move |a| {
        faer::MatRef::from_column_major_slice(a, n, n).svd()
    })?
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
    let sign = det_plain(n, &ud)?.signum() * det_plain(n, &vd)?.signum();
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
        let data = col_major_slice(p);
        let adjugate = match DenseLu::new(n, &data) {
            Ok(lu) => {
                let d = det_plain(n, &data)?;
                let mut inverse = lu.apply_plain(&identity(n)?.to_col_major(), n, false)?;
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
        return Ok(Tensor::scalar(det_plain(n, &col_major_slice(p))?));
    }
    let Some(tag) = a.tag() else {
        let sets = vec![union_all(&tracer::sets_of(a))];
        let primal = if a.is_global_tracer() {
            None
        } else {
            Some(vec![det_plain(n, &a.to_col_major())?])
        };
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
            let map: Rc<dyn LinearMap> =
                Rc::new(crate::builtins::sparse::SparseLu::new(s.matrix.view())?);
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
    let out = match out {
        Some(out) => out,
        None => identity(n)?,
    };
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
    if let Some(d) = super::diagonal::traced_diagonal(a) {
        return super::diagonal::entrywise(&d, difflab_ad::ops::UnaryFn::Inv);
    }
    let (t, _) = matrix_tensor(interp, a, "inv")?;
    Ok(from_tensor(inv_tensor(&t)?, ElType::Float64, false))
}

fn det_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("det", 1, 1)?;
    if let Some(f) = super::decompositions::as_factorization(&args.pos[0]) {
        if let Some(log_determinant) = f.logdet(interp) {
            return crate::builtins::call_named(interp, "exp", vec![log_determinant?]);
        }
    }
    if let Some(d) = super::diagonal::traced_diagonal(&args.pos[0]) {
        return super::diagonal::det(&d);
    }
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

crate::builtins! {
    "det" => det_, false, "    det(A)\n\nThe determinant of a square matrix (from its LU factorization); differentiable: `det(A)·tr(A⁻¹Ȧ)`.\n\n```\njulia> det([1.0 2.0; 3.0 4.0])\n-2.0\n```";
}
