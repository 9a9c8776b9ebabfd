//! Reductions: sums over all elements or along dimensions (linear, so their rule is themselves).

use crate::error::{AdError, Result};
use crate::tensor::Tensor;
use ndarray::{Axis, IxDyn};

/// The sum of all elements, as a rank-0 tensor.
pub fn sum_all(t: &Tensor) -> Result<Tensor> {
    match t {
        Tensor::Plain(a) => Ok(Tensor::scalar(a.sum())),
        Tensor::Tracer(t) => Ok(super::tracing::sum_all(t)),
        Tensor::Symbolic(s) => crate::symbolic::sum_all(s),
        Tensor::Tracked(tr) => super::taping::sum(tr, sum_all),
        Tensor::Dual(d) => d.map_layers(sum_all),
    }
}

/// The sum along the (0-based) dimensions `dims`, keeping them as length-1 dimensions (Julia's
/// `sum(x; dims)`).
pub fn sum_dims(t: &Tensor, dims: &[usize]) -> Result<Tensor> {
    match t {
        Tensor::Tracer(tr) => Ok(super::tracing::sum_dims(tr, dims)),
        Tensor::Symbolic(s) => crate::symbolic::sum_dims(s, dims),
        Tensor::Tracked(tr) => {
            let dims = dims.to_vec();
            super::taping::sum(tr, move |v| sum_dims(v, &dims))
        }
        Tensor::Plain(a) => {
            let mut out = (**a).clone();
            for &k in dims {
                if k >= out.ndim() {
                    continue;
                }
                out = out.sum_axis(Axis(k)).insert_axis(Axis(k));
            }
            if out.ndim() != a.ndim() {
                return Err(AdError::Argument("invalid dimensions".into()));
            }
            Ok(Tensor::plain(
                out.into_dimensionality::<IxDyn>()
                    .map_err(|e| AdError::Argument(e.to_string()))?,
            ))
        }
        Tensor::Dual(d) => d.map_layers(|p| sum_dims(p, dims)),
    }
}

/// The shape of a sum over `dims` (kept with length 1) of an array of `shape`, and for each
/// element (column-major) the position of the output element it adds into.
pub(crate) fn reduction_targets(shape: &[usize], dims: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let mut out_shape = shape.to_vec();
    for &d in dims {
        if d < out_shape.len() {
            out_shape[d] = 1;
        }
    }
    let n: usize = shape.iter().product();
    let targets = (0..n)
        .map(|k| {
            // Column-major multi-index of k, projected onto the output.
            let (mut rest, mut target, mut stride) = (k, 0, 1);
            for (dim, &extent) in shape.iter().enumerate() {
                let i = rest % extent.max(1);
                rest /= extent.max(1);
                if out_shape[dim] != 1 {
                    target += i * stride;
                }
                stride *= out_shape[dim];
            }
            target
        })
        .collect();
    (out_shape, targets)
}

/// Running sums of a vector (`cumsum`): linear, with the reversed running sum as adjoint.
pub fn cumsum(t: &Tensor) -> Result<Tensor> {
    let plain = |a: &ndarray::ArrayD<f64>| -> Result<ndarray::ArrayD<f64>> {
        let mut acc = 0.0;
        let data = crate::tensor::col_major_data(a).into_iter().map(|v| {
            acc += v;
            acc
        });
        Ok(crate::tensor::col_major(a.shape(), data.collect()))
    };
    super::structure::structural(
        t,
        &plain,
        &|tr| {
            let out = plain(&tr.primal)?;
            Ok(super::tracing::linear(tr, out))
        },
        &|tr| {
            let n = tr.value.len();
            let shape = tr.value.shape().to_vec();
            super::taping::linear_map(
                tr,
                cumsum,
                Box::new(move |ct| {
                    let flip: Vec<usize> = (0..n).rev().collect();
                    let reversed = super::structure::gather(ct, &flip, &shape)?;
                    super::structure::gather(&cumsum(&reversed)?, &flip, &shape)
                }),
            )
        },
        &crate::symbolic::cumsum,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_along_columns_keep_the_dimension() {
        let t = Tensor::from_col_major(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]);
        let s = sum_dims(&t, &[0]).unwrap();
        assert_eq!(s.shape(), &[1, 2]);
        assert_eq!(s.to_col_major(), vec![3.0, 7.0]);
        assert_eq!(sum_all(&t).unwrap().primal()[[]], 10.0);
    }
}
