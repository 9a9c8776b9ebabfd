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
    let (va, pa) = a.split(tag);
    let (vb, pb) = b.split(tag);
    let value = matmul(va, vb)?;
    // A constant operand contributes no term: `A·dB` alone, not `0·B + A·dB`.
    let partials = match (pa, pb) {
        (None, Some(pb)) => times_partials(va, pb, true)?,
        (Some(pa), None) => times_partials(vb, pa, false)?,
        _ => {
            let n = chunk_len([a, b], tag);
            let left = times_partials(vb, &partials_or_zero(a, tag, n), false)?;
            let right = times_partials(va, &partials_or_zero(b, tag, n), true)?;
            left.iter()
                .zip(&right)
                .map(|(l, r)| elementwise::binary(elementwise::BinaryFn::Add, l, r))
                .collect::<Result<_>>()?
        }
    };
    Ok(Tensor::dual(tag, value, partials))
}

/// `c·dᵢ` (with `constant_left`) or `dᵢ·c` for every partial `dᵢ`. Plain partials are placed
/// side by side (as the columns of one matrix right of `c`, as its rows left of it) and
/// multiplied in one product: a chunk of small products, each packing `c` again, costs several
/// times one wide product.
fn times_partials(
    constant: &Tensor,
    partials: &[Tensor],
    constant_left: bool,
) -> Result<Vec<Tensor>> {
    let one = |d: &Tensor| {
        if constant_left {
            matmul(constant, d)
        } else {
            matmul(d, constant)
        }
    };
    // Left of `c`, a vector is a column (the outer product), which does not stack as rows.
    let stackable = partials.len() > 1
        && constant.is_plain()
        && partials
            .iter()
            .all(|d| d.is_plain() && (constant_left || d.shape().len() == 2));
    if !stackable {
        return partials.iter().map(one).collect();
    }
    let axis = ndarray::Axis(if constant_left { 1 } else { 0 });
    let views = partials
        .iter()
        .map(matrix_view)
        .collect::<Result<Vec<_>>>()?;
    let stacked = ndarray::concatenate(axis, &views)
        .map_err(|e| AdError::DimensionMismatch(e.to_string()))?;
    let stacked = Tensor::plain(stacked.into_dyn());
    let product = if constant_left {
        matmul_plain(constant, &stacked)?
    } else {
        matmul_plain(&stacked, constant)?
    };
    let product = matrix_view(&product)?;
    let right_is_vector = |d: &Tensor| if constant_left { d } else { constant }.shape().len() == 1;
    let mut start = 0;
    partials
        .iter()
        .zip(&views)
        .map(|(d, view)| {
            let width = view.len_of(axis);
            let block = product.slice_axis(axis, ndarray::Slice::from(start..start + width));
            start += width;
            shaped_like_product(block.to_owned(), right_is_vector(d))
        })
        .collect()
}

/// A block of a stacked product as the tensor one product would have given: a vector when the
/// right operand was a vector.
fn shaped_like_product(block: Array2<f64>, vector: bool) -> Result<Tensor> {
    let rows = block.nrows();
    let out = if vector {
        block.into_shape_with_order(rows).map(|v| v.into_dyn())
    } else {
        Ok(block.into_dyn())
    };
    out.map(Tensor::plain)
        .map_err(|e| AdError::Argument(e.to_string()))
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
    shaped_like_product(product(ma, mb)?, b.shape().len() == 1)
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

    /// Every partial of a product, one plain product at a time: the rule the stacked products
    /// must reproduce.
    fn partial_by_partial(a: &Tensor, b: &Tensor, tag: Tag) -> Vec<Vec<f64>> {
        let n = chunk_len([a, b], tag);
        let (va, vb) = (a.split(tag).0, b.split(tag).0);
        partials_or_zero(a, tag, n)
            .iter()
            .zip(&partials_or_zero(b, tag, n))
            .map(|(da, db)| {
                let (l, r) = (matmul_plain(da, vb).unwrap(), matmul_plain(va, db).unwrap());
                let (l, r) = (l.to_col_major(), r.to_col_major());
                l.iter().zip(&r).map(|(x, y)| x + y).collect()
            })
            .collect()
    }

    #[test]
    fn a_chunk_of_partials_multiplies_as_one_product_with_each_partials_result() {
        let numbers = |shape: &[usize], seed: usize| {
            let len = shape.iter().product::<usize>();
            let data = (0..len)
                .map(|k| ((k * 7 + seed * 5) % 13) as f64 - 6.0)
                .collect();
            Tensor::from_col_major(shape, data)
        };
        let dual = |shape: &[usize], tag: Tag, seed: usize| {
            let partials = (1..=3).map(|k| numbers(shape, seed + k)).collect();
            Tensor::dual(tag, numbers(shape, seed), partials)
        };
        let tag = Tag::fresh();
        let cases = [
            (numbers(&[4, 3], 0), dual(&[3], tag, 1)),
            (numbers(&[4, 3], 0), dual(&[3, 2], tag, 1)),
            (dual(&[4, 3], tag, 2), numbers(&[3], 0)),
            (dual(&[4, 3], tag, 2), numbers(&[3, 2], 0)),
            (dual(&[4, 3], tag, 2), dual(&[3, 2], tag, 5)),
            (dual(&[4], tag, 2), numbers(&[1, 2], 0)),
        ];
        for (a, b) in cases {
            let Tensor::Dual(product) = matmul(&a, &b).unwrap() else {
                panic!("dual expected")
            };
            assert_eq!(
                product.value.to_col_major(),
                matmul_plain(a.split(tag).0, b.split(tag).0)
                    .unwrap()
                    .to_col_major()
            );
            let got: Vec<Vec<f64>> = product.partials.iter().map(Tensor::to_col_major).collect();
            assert_eq!(
                got,
                partial_by_partial(&a, &b, tag),
                "{:?} · {:?}",
                a.shape(),
                b.shape()
            );
            assert!(product
                .partials
                .iter()
                .all(|p| p.shape() == product.value.shape()));
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
