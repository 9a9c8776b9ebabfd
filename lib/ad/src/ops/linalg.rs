//! Matrix products with the product rule `d(AB) = dA·B + A·dB`.

use crate::error::{AdError, Result};
use crate::ops::{chunk_len, elementwise, partials_or_zero};
use crate::tensor::{top_tag, Tensor};
use ndarray::{Array2, ArrayView2, Ix2, ShapeBuilder};
use std::borrow::Cow;

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

/// The numbers of a vector (as one column) or a matrix, without copying them.
fn matrix_view(t: &Tensor) -> Result<ArrayView2<'_, f64>> {
    let a = t.primal();
    match a.ndim() {
        1 => Ok(a
            .view()
            .into_shape_with_order((a.len(), 1))
            .expect("a vector is contiguous")),
        2 => Ok(a.view().into_dimensionality::<Ix2>().expect("rank 2")),
        r => Err(AdError::Argument(format!(
            "matrix multiplication is not defined for arrays of rank {r}"
        ))),
    }
}

/// Products of more multiply-adds than this (a few milliseconds) run off the session's thread
/// ([`crate::background`]), so that an interrupt is answered while they run.
const OFF_THREAD_WORK: usize = 1 << 24;

/// The worker computes a long product in panels of the columns of `b` of about this many
/// multiply-adds (tens of milliseconds), and stops between panels once it is abandoned.
const PANEL_WORK: usize = 1 << 28;

/// The narrowest panel: narrower ones repack `a` too often (7 columns made a 3000² product
/// three times slower).
const MIN_PANEL: usize = 128;

/// The memory of a matrix view as one slice, with whether it is column-major (copied into row
/// order when the view is strided).
fn contiguous<'a>(a: ArrayView2<'a, f64>) -> (Cow<'a, [f64]>, bool) {
    if let Some(s) = a.to_slice() {
        return (Cow::Borrowed(s), false);
    }
    if let Some(s) = a.reversed_axes().to_slice() {
        return (Cow::Borrowed(s), true);
    }
    (Cow::Owned(a.iter().copied().collect()), false)
}

fn view_of(data: &[f64], shape: (usize, usize), col_major: bool) -> ArrayView2<'_, f64> {
    let view = if col_major {
        ArrayView2::from_shape(shape.f(), data)
    } else {
        ArrayView2::from_shape(shape, data)
    };
    view.expect("the shape matches the copied numbers")
}

/// `a · b`; a long product runs off the session's thread. The result is refused before it is
/// allocated if it would not fit in the memory limit.
fn product(a: ArrayView2<'_, f64>, b: ArrayView2<'_, f64>) -> Result<Array2<f64>> {
    let (m, k, n) = (a.nrows(), a.ncols(), b.ncols());
    crate::limits::reserve_numbers(m.saturating_mul(n))?;
    let column_work = m.saturating_mul(k).max(1);
    if column_work.saturating_mul(n) <= OFF_THREAD_WORK {
        return Ok(a.dot(&b));
    }
    let ((a_data, a_col_major), (b_data, b_col_major)) = (contiguous(a), contiguous(b));
    let width = (PANEL_WORK / column_work).max(MIN_PANEL);
    let out = crate::background::run(&[&a_data, &b_data], move |inputs, abandoned| {
        let a = view_of(inputs[0], (m, k), a_col_major);
        let b = view_of(inputs[1], (k, n), b_col_major);
        let mut out = Array2::zeros((m, n));
        for start in (0..n).step_by(width) {
            if abandoned.is_set() {
                return None;
            }
            let columns = ndarray::s![.., start..(start + width).min(n)];
            out.slice_mut(columns).assign(&a.dot(&b.slice(columns)));
        }
        Some(out)
    })?;
    out.ok_or(AdError::Interrupted)
}

fn matmul_plain(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (ma, mb) = (matrix_view(a)?, matrix_view(b)?);
    if ma.ncols() != mb.nrows() {
        return Err(AdError::DimensionMismatch(format!(
            "matrix A has dimensions ({},{}), matrix B has dimensions ({},{})",
            ma.nrows(),
            ma.ncols(),
            mb.nrows(),
            mb.ncols()
        )));
    }
    let rows = ma.nrows();
    let product = product(ma, mb)?;
    let out = if b.shape().len() == 1 {
        product.into_shape_with_order(rows).map(|v| v.into_dyn())
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
    fn a_long_product_off_the_thread_keeps_each_operand_layout() {
        let n = 300;
        let entry = |i: usize, j: usize| ((i * 7 + j * 3) % 11) as f64 - 5.0;
        let data: Vec<f64> = (0..n * n).map(|p| entry(p % n, p / n)).collect();
        let a = Tensor::from_col_major(&[n, n], data.clone());
        // The same numbers in row order: b holds the transpose of a.
        let b = Tensor::plain(
            ndarray::Array2::from_shape_vec((n, n), data)
                .unwrap()
                .into_dyn(),
        );
        let product = matmul(&a, &b).unwrap();
        for (i, j) in [(0, 0), (17, 250), (299, 1), (123, 299)] {
            let expected: f64 = (0..n).map(|k| entry(i, k) * entry(j, k)).sum();
            assert_eq!(product.primal()[[i, j]], expected, "({i}, {j})");
        }
    }

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
