//! The Cholesky factor `L` (`A = LLᵀ`) of a matrix of any number kind, with its derivative
//! rules: forward `L̇ = L·Φ(L⁻¹ȦL⁻ᵀ)` and reverse `Ā = triu(C) + triu(Cᵀ, 1)` with
//! `C = L⁻ᵀΦ(LᵀL̄)L⁻¹`, where `Φ` keeps the lower triangle and halves the diagonal. Julia's
//! `cholesky` reads the upper triangle of `A`, so a tangent `Ȧ` enters as
//! `triu(Ȧ) + triu(Ȧ, 1)ᵀ` and a gradient lies in the upper triangle, as ForwardDiff and
//! ChainRules give it. The rules are written with differentiable operations (`\`, products,
//! transposes), so derivatives of derivatives follow.

use super::construct::weighted;
use super::*;
use difflab_ad::reverse::{tracked_with, value_below};

/// `L` of a plain positive definite matrix (column-major), or `None` when it is not one.
pub(super) fn plain_factor(n: usize, a: &[f64]) -> AdResult<Option<Vec<f64>>> {
    interruptible(a, move |a| {
        faer::MatRef::from_column_major_slice(a, n, n)
            .llt(faer::Side::Lower)
            .ok()
            .map(|f| {
                let l = f.L();
                (0..n * n).map(|k| l[(k % n, k / n)]).collect()
            })
    })
}

/// The factor `L` of `a`: plain numbers, or numbers carrying derivatives (duals and tape
/// numbers, nested in any order). `Err(NotPositiveDefinite)` when the values are not positive
/// definite.
pub(super) fn factor(a: &Tensor) -> AdResult<Tensor> {
    let n = square_size(a)?;
    let Some(tag) = a.tag() else {
        plain_only_rule(a, "cholesky")?;
        return plain_factor(n, &a.to_col_major())?
            .map(|l| Tensor::from_col_major(&[n, n], l))
            .ok_or(AdError::Argument(NOT_POSITIVE_DEFINITE.into()));
    };
    if tracked_with(a, tag).is_some() {
        let l = factor(value_below(a, tag))?;
        let factor_of_value = l.clone();
        let rule: Rule = Box::new(move |l_bar| gradient(&factor_of_value, l_bar, n));
        return Ok(record_op(tag, l, vec![(a, rule)], &[a], |x| factor(&x[0])));
    }
    let (value, partials) = a.split(tag);
    let l = factor(value)?;
    let partials = partials
        .unwrap_or_default()
        .iter()
        .map(|tangent| {
            // X = L⁻¹ȦL⁻ᵀ for the symmetric Ȧ read from the upper triangle.
            let tangent = symmetric_from_upper(tangent, n)?;
            let left = solve_tensor(&l, &tangent)?;
            let x = solve_tensor(&l, &ops::transpose(&left)?)?;
            ops::matmul(&l, &phi(&x, n)?)
        })
        .collect::<AdResult<_>>()?;
    Ok(Tensor::dual(tag, l, partials))
}

/// The message of Julia's `PosDefException` for a matrix that is not positive definite.
pub(super) const NOT_POSITIVE_DEFINITE: &str =
    "matrix is not positive definite; Cholesky factorization failed.";

/// `Ā` from `L̄`: `C = L⁻ᵀΦ(LᵀL̄)L⁻¹`, folded onto the upper triangle that `cholesky` reads.
fn gradient(l: &Tensor, l_bar: &Tensor, n: usize) -> AdResult<Tensor> {
    let lt = ops::transpose(l)?;
    let s = phi(&ops::matmul(&lt, l_bar)?, n)?;
    let left = solve_tensor(&lt, &s)?;
    let c = ops::transpose(&solve_tensor(&lt, &ops::transpose(&left)?)?)?;
    fold_onto_upper(&c, n)
}

/// `triu(C) + triu(Cᵀ, 1)`: the gradient `C` with respect to a symmetric matrix, moved onto
/// the upper triangle that the function reads (each off-diagonal entry counts twice).
pub(super) fn fold_onto_upper(c: &Tensor, n: usize) -> AdResult<Tensor> {
    let upper = masked(c, n, |i, j| i <= j)?;
    let strict_upper_of_transpose = masked(&ops::transpose(c)?, n, |i, j| i < j)?;
    ops::binary(BinaryFn::Add, &upper, &strict_upper_of_transpose)
}

/// `Φ(X)`: the lower triangle of `X` with its diagonal halved.
fn phi(x: &Tensor, n: usize) -> AdResult<Tensor> {
    weighted(x, (n, n), |i, j| match i.cmp(&j) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    })
}

/// The entries `(i, j)` of the `n × n` matrix `x` where `keep(i, j)`, zeros elsewhere.
pub(super) fn masked(
    x: &Tensor,
    n: usize,
    keep: impl Fn(usize, usize) -> bool,
) -> AdResult<Tensor> {
    weighted(x, (n, n), |i, j| f64::from(u8::from(keep(i, j))))
}

/// `triu(X) + triu(X, 1)ᵀ`: the symmetric matrix whose upper triangle is that of `X`.
pub(super) fn symmetric_from_upper(x: &Tensor, n: usize) -> AdResult<Tensor> {
    let strict = masked(x, n, |i, j| i < j)?;
    let upper = masked(x, n, |i, j| i <= j)?;
    ops::binary(BinaryFn::Add, &upper, &ops::transpose(&strict)?)
}

/// `U + tril(A, -1)`: Julia's `F.factors`, the upper factor over `A`'s strict lower triangle.
pub(super) fn factors_field(u: &Tensor, a: &Tensor, n: usize) -> AdResult<Tensor> {
    ops::binary(BinaryFn::Add, u, &masked(a, n, |i, j| i > j)?)
}
