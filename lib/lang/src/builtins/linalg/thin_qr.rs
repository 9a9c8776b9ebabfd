//! The thin QR factorization `A = QR` (`A` is `m × n` with `m ≥ n` and full column rank,
//! `Q` is `m × n` with orthonormal columns, `R` is `n × n` upper triangular) for every number
//! kind, with its derivative rules. Forward: with `X = QᵀȦR⁻¹` and the antisymmetric
//! `Ω = tril(X, -1) − tril(X, -1)ᵀ`, `Ṙ = (X − Ω)R` and `Q̇ = QΩ + (Ȧ − QQᵀȦ)R⁻¹`. Reverse:
//! `Ā = (Q̄ + Q copyltu(M))R⁻ᵀ` with `M = RR̄ᵀ − Q̄ᵀQ`, where `copyltu` mirrors the lower
//! triangle onto the upper one. The rules are written with differentiable operations, so
//! derivatives of derivatives follow.

use super::cholesky::masked;
use super::decompositions::numbers;
use super::solve::solve_tensor;
use super::*;
use difflab_ad::reverse::{tracked_with, value_below};

/// `(Q, R)` of a plain `m × n` matrix (column-major).
pub(super) fn plain_factors(m: usize, n: usize, a: &[f64]) -> AdResult<(Vec<f64>, Vec<f64>)> {
    interruptible(a, move |a| {
        let f = faer::MatRef::from_column_major_slice(a, m, n).qr();
        (numbers(f.compute_thin_Q().as_ref()), numbers(f.thin_R()))
    })
}

/// `(Q, R)` of a matrix of plain numbers or numbers carrying derivatives (duals and tape
/// numbers, nested in any order).
pub(super) fn thin_qr(a: &Tensor) -> AdResult<(Tensor, Tensor)> {
    let (m, n) = matrix_size(a)?;
    let Some(tag) = a.tag() else {
        plain_only_rule(a, "qr")?;
        let (q, r) = plain_factors(m, n, &a.to_col_major())?;
        let k = m.min(n);
        return Ok((
            Tensor::from_col_major(&[m, k], q),
            Tensor::from_col_major(&[k, n], r),
        ));
    };
    if m < n {
        return Err(AdError::Argument(
            "the derivative of qr is available for matrices with at least as many rows as columns"
                .into(),
        ));
    }
    if tracked_with(a, tag).is_some() {
        let (q, r) = thin_qr(value_below(a, tag))?;
        let stacked = ops::concat(&[q.clone(), r.clone()], 0)?;
        let rule: Rule = Box::new(move |ct| gradient(&q, &r, ct, m, n));
        let node = record_op(tag, stacked, vec![(a, rule)], &[a], move |x| {
            let (q, r) = thin_qr(&x[0])?;
            ops::concat(&[q, r], 0)
        });
        return split_stacked(&node, m, n);
    }
    let (value, partials) = a.split(tag);
    let (q, r) = thin_qr(value)?;
    let qt = ops::transpose(&q)?;
    let mut q_partials = Vec::new();
    let mut r_partials = Vec::new();
    for tangent in partials.unwrap_or_default() {
        // Ȧ R⁻¹, as (R⁻ᵀ Ȧᵀ)ᵀ.
        let right = right_divide(tangent, &r)?;
        let x = ops::matmul(&qt, &right)?;
        let lower = masked(&x, n, |i, j| i > j)?;
        let omega = ops::binary(BinaryFn::Sub, &lower, &ops::transpose(&lower)?)?;
        let upper = ops::binary(BinaryFn::Sub, &x, &omega)?;
        r_partials.push(ops::matmul(&upper, &r)?);
        let outside = ops::binary(BinaryFn::Sub, &right, &ops::matmul(&q, &x)?)?;
        q_partials.push(ops::binary(
            BinaryFn::Add,
            &ops::matmul(&q, &omega)?,
            &outside,
        )?);
    }
    Ok((
        Tensor::dual(tag, q, q_partials),
        Tensor::dual(tag, r, r_partials),
    ))
}

/// `B R⁻¹` for an upper triangular `R`.
fn right_divide(b: &Tensor, r: &Tensor) -> AdResult<Tensor> {
    ops::transpose(&solve_tensor(&ops::transpose(r)?, &ops::transpose(b)?)?)
}

/// `(Q, R)` from `[Q; R]`, `(m + n) × n`.
fn split_stacked(node: &Tensor, m: usize, n: usize) -> AdResult<(Tensor, Tensor)> {
    let rows = |range: std::ops::Range<usize>| -> Vec<usize> {
        (0..n)
            .flat_map(|j| range.clone().map(move |i| i + j * (m + n)))
            .collect()
    };
    Ok((
        ops::gather(node, &rows(0..m), &[m, n])?,
        ops::gather(node, &rows(m..m + n), &[n, n])?,
    ))
}

/// `Ā` from the cotangent `[Q̄; R̄]` of `[Q; R]`.
fn gradient(q: &Tensor, r: &Tensor, ct: &Tensor, m: usize, n: usize) -> AdResult<Tensor> {
    let (q_bar, r_bar) = split_stacked(ct, m, n)?;
    let m_matrix = ops::binary(
        BinaryFn::Sub,
        &ops::matmul(r, &ops::transpose(&r_bar)?)?,
        &ops::matmul(&ops::transpose(&q_bar)?, q)?,
    )?;
    // copyltu(M): the lower triangle with its mirror above the diagonal.
    let lower = masked(&m_matrix, n, |i, j| i >= j)?;
    let strict_lower = masked(&m_matrix, n, |i, j| i > j)?;
    let mirrored = ops::binary(BinaryFn::Add, &lower, &ops::transpose(&strict_lower)?)?;
    let inner = ops::binary(BinaryFn::Add, &q_bar, &ops::matmul(q, &mirrored)?)?;
    // (Q̄ + Q copyltu(M)) R⁻ᵀ, as (R⁻¹ (…)ᵀ)ᵀ.
    ops::transpose(&solve_tensor(r, &ops::transpose(&inner)?)?)
}
