//! Matrix products with the product rule `d(AB) = dA·B + A·dB`.

use crate::error::{AdError, Result};
use crate::ops::{chunk_len, elementwise, partials_or_zero};
use crate::tensor::{col_major, top_tag, Tensor};
use ndarray::{Array2, Ix2};

/// `a * b` for matrices and vectors: (m×k)(k×n), (m×k)(k) → (m), (m)(1×n) → (m×n).
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let Some(tag) = top_tag([a, b]) else {
        if crate::symbolic::graph_of([a, b]).is_some() {
            return crate::symbolic::matmul(a, b);
        }
        if a.has_tracer() || b.has_tracer() {
            return super::tracing::matmul(a, b);
        }
        return matmul_plain(a, b);
    };
    if crate::reverse::is_tape_tag([a, b], tag) {
        return super::taping::matmul(a, b, tag);
    }
    let n = chunk_len([a, b], tag);
    let (va, _) = a.split(tag);
    let (vb, _) = b.split(tag);
    let pa = partials_or_zero(a, tag, n);
    let pb = partials_or_zero(b, tag, n);
    let partials = pa
        .iter()
        .zip(&pb)
        .map(|(da, db)| {
            let left = matmul(da, vb)?;
            let right = matmul(va, db)?;
            elementwise::binary(elementwise::BinaryFn::Add, &left, &right)
        })
        .collect::<Result<_>>()?;
    Ok(Tensor::dual(tag, matmul(va, vb)?, partials))
}

fn as_matrix(t: &Tensor) -> Result<Array2<f64>> {
    let a = t.primal();
    match a.ndim() {
        1 => Ok(col_major(&[a.len(), 1], a.iter().copied().collect())
            .into_dimensionality::<Ix2>()
            .expect("rank 2")),
        2 => Ok(a.clone().into_dimensionality::<Ix2>().expect("rank 2")),
        r => Err(AdError::Argument(format!(
            "matrix multiplication is not defined for arrays of rank {r}"
        ))),
    }
}

/// Products of more multiply-adds than this (tens of milliseconds) run in panels of columns,
/// with a look at the session's interrupt and memory limit between panels.
const PANEL_WORK: usize = 1 << 28;

/// The narrowest panel: narrower ones repack `a` too often (7 columns made a 3000² product
/// three times slower).
const MIN_PANEL: usize = 128;

/// `a · b`, by panels of the columns of `b` when it is long to compute; the result is
/// refused before it is allocated if it would not fit in the memory limit.
fn panel_product(a: &Array2<f64>, b: &Array2<f64>) -> Result<Array2<f64>> {
    let (m, k, n) = (a.nrows(), a.ncols(), b.ncols());
    crate::limits::reserve_numbers(m.saturating_mul(n))?;
    let column_work = m.saturating_mul(k).max(1);
    if column_work.saturating_mul(n) <= PANEL_WORK {
        return Ok(a.dot(b));
    }
    let width = (PANEL_WORK / column_work).max(MIN_PANEL);
    let mut out = Array2::zeros((m, n));
    for start in (0..n).step_by(width) {
        crate::limits::check()?;
        let columns = ndarray::s![.., start..(start + width).min(n)];
        out.slice_mut(columns).assign(&a.dot(&b.slice(columns)));
    }
    Ok(out)
}

fn matmul_plain(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (ma, mb) = (as_matrix(a)?, as_matrix(b)?);
    if ma.ncols() != mb.nrows() {
        return Err(AdError::DimensionMismatch(format!(
            "matrix A has dimensions ({},{}), matrix B has dimensions ({},{})",
            ma.nrows(),
            ma.ncols(),
            mb.nrows(),
            mb.ncols()
        )));
    }
    let product = panel_product(&ma, &mb)?;
    let vector_result = b.shape().len() == 1;
    let out = if vector_result {
        product
            .into_shape_with_order(ma.nrows())
            .map(|v| v.into_dyn())
    } else {
        Ok(product.into_dyn())
    };
    out.map(Tensor::plain)
        .map_err(|e| AdError::Argument(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::Tag;

    #[test]
    fn matrix_vector_product_and_its_rule() {
        let a = Tensor::from_col_major(&[2, 2], vec![1.0, 3.0, 2.0, 4.0]);
        let x = Tensor::from_col_major(&[2], vec![1.0, 1.0]);
        assert_eq!(matmul(&a, &x).unwrap().to_col_major(), vec![3.0, 7.0]);
        let dx = Tensor::from_col_major(&[2], vec![1.0, 0.0]);
        let xd = Tensor::dual(Tag::fresh(), x, vec![dx]);
        let Tensor::Dual(y) = matmul(&a, &xd).unwrap() else {
            panic!("dual expected")
        };
        assert_eq!(y.partials[0].to_col_major(), vec![1.0, 3.0]);
    }
}
