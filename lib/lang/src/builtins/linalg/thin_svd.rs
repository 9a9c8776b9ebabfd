//! The thin singular value decomposition `A = U Diagonal(S) Vᵀ` for every number kind, with
//! its derivative rules (as in Townsend, "Differentiating the singular value decomposition").
//! For `m ≥ n`, with `dP = UᵀȦV` and `Fᵢⱼ = 1/(sⱼ² − sᵢ²)` off the diagonal: forward,
//! `Ṡ = diag(dP)`, `U̇ = U(F ∘ (dP S + S dPᵀ)) + (ȦV − U dP)S⁻¹` and
//! `V̇ = V(F ∘ (S dP + dPᵀS))`; reverse,
//! `Ā = (U(J S + Diagonal(S̄) + S K) + (Ū − UUᵀŪ)S⁻¹)Vᵀ` with `J = F ∘ (UᵀŪ − ŪᵀU)` and
//! `K = F ∘ (VᵀV̄ − V̄ᵀV)`. A wide matrix is the transpose of a tall one. The rules are written
//! with differentiable operations, so derivatives of derivatives follow; repeated or zero
//! singular values make them infinite, as in ChainRules.

use super::decompositions::numbers;
use super::symmetric_eigen::{diagonal, diagonal_matrix, inverse_gaps};
use super::*;
use difflab_ad::reverse::{tracked_with, value_below};

/// `U`, `S` and `V` of a plain `m × n` matrix (column-major), `S` decreasing.
pub(super) fn plain_parts(
    m: usize,
    n: usize,
    a: &[f64],
) -> AdResult<(Vec<f64>, Vec<f64>, Vec<f64>)> {
    let r = m.min(n);
    interruptible(a, move |a| {
        faer::MatRef::from_column_major_slice(a, m, n)
            .thin_svd()
            .map(|f| {
                let s = f.S().column_vector();
                (
                    numbers(f.U()),
                    (0..r).map(|k| s[k]).collect(),
                    numbers(f.V()),
                )
            })
    })?
    .map_err(|_| AdError::Argument("svd: the SVD did not converge".into()))
}

/// `(U, S, V)` of a matrix of plain numbers or numbers carrying derivatives (duals and tape
/// numbers, nested in any order).
pub(super) fn thin_svd(a: &Tensor) -> AdResult<(Tensor, Tensor, Tensor)> {
    let (m, n) = matrix_size(a)?;
    if m < n && !a.is_plain() {
        let (u, s, v) = thin_svd(&ops::transpose(a)?)?;
        return Ok((v, s, u));
    }
    let Some(tag) = a.tag() else {
        plain_only_rule(a, "svd")?;
        let (u, s, v) = plain_parts(m, n, &a.to_col_major())?;
        let r = m.min(n);
        return Ok((
            Tensor::from_col_major(&[m, r], u),
            Tensor::from_col_major(&[r], s),
            Tensor::from_col_major(&[n, r], v),
        ));
    };
    if tracked_with(a, tag).is_some() {
        let (u, s, v) = thin_svd(value_below(a, tag))?;
        let stacked = stack(&u, &s, &v, n)?;
        let rule: Rule = Box::new(move |ct| gradient(&u, &s, &v, ct, m, n));
        let node = record_op(tag, stacked, vec![(a, rule)], &[a], move |x| {
            let (u, s, v) = thin_svd(&x[0])?;
            stack(&u, &s, &v, n)
        });
        return unstack(&node, m, n);
    }
    let (value, partials) = a.split(tag);
    let (u, s, v) = thin_svd(value)?;
    let gaps = inverse_gaps(&ops::binary(BinaryFn::Mul, &s, &s)?, n)?;
    let (s_row, s_column) = (ops::reshape(&s, &[1, n])?, ops::reshape(&s, &[n, 1])?);
    let ut = ops::transpose(&u)?;
    let (mut u_partials, mut s_partials, mut v_partials) = (Vec::new(), Vec::new(), Vec::new());
    for tangent in partials.unwrap_or_default() {
        let tangent_v = ops::matmul(tangent, &v)?;
        let dp = ops::matmul(&ut, &tangent_v)?;
        s_partials.push(diagonal(&dp, n)?);
        let dp_s = ops::binary(BinaryFn::Mul, &dp, &s_row)?;
        let s_dp = ops::binary(BinaryFn::Mul, &s_column, &dp)?;
        let rotate = |basis: &Tensor, x: &Tensor| -> AdResult<Tensor> {
            let symmetric = ops::binary(BinaryFn::Add, x, &ops::transpose(x)?)?;
            ops::matmul(basis, &ops::binary(BinaryFn::Mul, &gaps, &symmetric)?)
        };
        let outside = ops::binary(
            BinaryFn::Div,
            &ops::binary(BinaryFn::Sub, &tangent_v, &ops::matmul(&u, &dp)?)?,
            &s_row,
        )?;
        u_partials.push(ops::binary(BinaryFn::Add, &rotate(&u, &dp_s)?, &outside)?);
        v_partials.push(rotate(&v, &s_dp)?);
    }
    Ok((
        Tensor::dual(tag, u, u_partials),
        Tensor::dual(tag, s, s_partials),
        Tensor::dual(tag, v, v_partials),
    ))
}

/// `[U; V; Sᵀ]`, `(m + n + 1) × n`: the three outputs as one tape node.
fn stack(u: &Tensor, s: &Tensor, v: &Tensor, n: usize) -> AdResult<Tensor> {
    ops::concat(&[u.clone(), v.clone(), ops::reshape(s, &[1, n])?], 0)
}

/// `(U, S, V)` from `[U; V; Sᵀ]`.
fn unstack(node: &Tensor, m: usize, n: usize) -> AdResult<(Tensor, Tensor, Tensor)> {
    let height = m + n + 1;
    let rows = |range: std::ops::Range<usize>| -> Vec<usize> {
        (0..n)
            .flat_map(|j| range.clone().map(move |i| i + j * height))
            .collect()
    };
    Ok((
        ops::gather(node, &rows(0..m), &[m, n])?,
        ops::gather(node, &rows(m + n..height), &[n])?,
        ops::gather(node, &rows(m..m + n), &[n, n])?,
    ))
}

/// `Ā` from the cotangent `[Ū; V̄; S̄ᵀ]` of `[U; V; Sᵀ]`.
fn gradient(
    u: &Tensor,
    s: &Tensor,
    v: &Tensor,
    ct: &Tensor,
    m: usize,
    n: usize,
) -> AdResult<Tensor> {
    let (u_bar, s_bar, v_bar) = unstack(ct, m, n)?;
    let gaps = inverse_gaps(&ops::binary(BinaryFn::Mul, s, s)?, n)?;
    let (s_row, s_column) = (ops::reshape(s, &[1, n])?, ops::reshape(s, &[n, 1])?);
    let antisymmetric = |basis: &Tensor, bar: &Tensor| -> AdResult<Tensor> {
        let inner = ops::matmul(&ops::transpose(basis)?, bar)?;
        let difference = ops::binary(BinaryFn::Sub, &inner, &ops::transpose(&inner)?)?;
        ops::binary(BinaryFn::Mul, &gaps, &difference)
    };
    let j_s = ops::binary(BinaryFn::Mul, &antisymmetric(u, &u_bar)?, &s_row)?;
    let s_k = ops::binary(BinaryFn::Mul, &s_column, &antisymmetric(v, &v_bar)?)?;
    let middle = ops::binary(
        BinaryFn::Add,
        &ops::binary(BinaryFn::Add, &j_s, &diagonal_matrix(&s_bar, n)?)?,
        &s_k,
    )?;
    let projected = ops::matmul(u, &ops::matmul(&ops::transpose(u)?, &u_bar)?)?;
    let outside = ops::binary(
        BinaryFn::Div,
        &ops::binary(BinaryFn::Sub, &u_bar, &projected)?,
        &s_row,
    )?;
    let left = ops::binary(BinaryFn::Add, &ops::matmul(u, &middle)?, &outside)?;
    ops::matmul(&left, &ops::transpose(v)?)
}
