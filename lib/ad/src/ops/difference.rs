//! Differences of neighbours along a dimension (Julia's `diff`) as one primitive.
//!
//! `diff` is linear, so a dual's partials and a cotangent each take one pass over contiguous
//! memory, where two gathers and a subtraction took three passes and two temporaries per
//! partial. Tracers (and tapes of tapes) go through that composition, which every kind
//! already supports.

use super::structure::{gather, structural};
use super::taping::{linear_map, scatter_add};
use super::{binary, BinaryFn};
use crate::error::{AdError, Result};
use crate::tensor::{col_major, col_major_slice, Tensor};
use ndarray::ArrayD;

/// A vector or matrix seen as `outer` independent sequences of `len` blocks of `block`
/// elements (column-major), differenced block by block.
#[derive(Clone, Copy)]
struct Sequences {
    outer: usize,
    len: usize,
    block: usize,
}

impl Sequences {
    /// The sequences of `diff` along the 0-based `dim` of an array of `shape`.
    fn of(shape: &[usize], dim: usize) -> Result<Sequences> {
        match (shape, dim) {
            ([m], 0) => Ok(Sequences {
                outer: 1,
                len: *m,
                block: 1,
            }),
            ([m, n], 0) => Ok(Sequences {
                outer: *n,
                len: *m,
                block: 1,
            }),
            ([m, n], 1) => Ok(Sequences {
                outer: 1,
                len: *n,
                block: *m,
            }),
            _ => Err(AdError::Argument(
                "diff supports vectors and matrices (dims = 1 or 2)".into(),
            )),
        }
    }

    fn span(&self) -> usize {
        self.len * self.block
    }

    fn out_shape(&self, shape: &[usize], dim: usize) -> Vec<usize> {
        let mut out = shape.to_vec();
        out[dim] = out[dim].saturating_sub(1);
        out
    }

    /// `out[k] = x[k + block] - x[k]` within each sequence.
    fn apply(&self, x: &[f64]) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.outer * self.span().saturating_sub(self.block));
        if self.span() > 0 {
            for seq in x.chunks_exact(self.span()) {
                out.extend(seq[self.block..].iter().zip(seq).map(|(b, a)| b - a));
            }
        }
        out
    }

    /// The adjoint: `x̄[k] = ct[k - block] - ct[k]`, a missing term counting as `0.0` (so an
    /// untouched end is `0.0`, not `-0.0`).
    fn adjoint(&self, ct: &[f64]) -> Vec<f64> {
        let (block, inner) = (self.block, self.span().saturating_sub(self.block));
        let mut out = Vec::with_capacity(self.outer * self.span());
        if inner == 0 {
            out.resize(self.outer * self.span(), 0.0);
            return out;
        }
        // Here len ≥ 2, so inner ≥ block.
        for seq in ct.chunks_exact(inner) {
            out.extend(seq[..block].iter().map(|lo| 0.0 - lo));
            out.extend(seq[block..].iter().zip(seq).map(|(lo, up)| up - lo));
            out.extend(seq[inner - block..].iter().map(|up| up - 0.0));
        }
        out
    }

    /// Column-major positions of the upper and lower neighbour of each output element.
    fn pairs(&self) -> (Vec<usize>, Vec<usize>) {
        let inner = self.span().saturating_sub(self.block);
        (0..self.outer)
            .flat_map(|o| (0..inner).map(move |k| o * self.span() + k))
            .map(|lower| (lower + self.block, lower))
            .unzip()
    }
}

/// `diff(t; dims = dim + 1)`: differences of neighbours along the 0-based `dim` of a vector
/// or matrix, for any number kind (any other rank or `dim` is an `ArgumentError`).
///
/// ```
/// use difflab_ad::{ops, Tensor};
/// let x = Tensor::from_col_major(&[2, 2], vec![1.0, 4.0, 9.0, 16.0]);
/// assert_eq!(ops::diff(&x, 0).unwrap().to_col_major(), vec![3.0, 7.0]);
/// assert_eq!(ops::diff(&x, 1).unwrap().to_col_major(), vec![8.0, 12.0]);
/// ```
pub fn diff(t: &Tensor, dim: usize) -> Result<Tensor> {
    let shape = t.shape().to_vec();
    let seqs = Sequences::of(&shape, dim)?;
    let out_shape = seqs.out_shape(&shape, dim);
    let composed = |t: &Tensor| {
        let (upper, lower) = seqs.pairs();
        binary(
            BinaryFn::Sub,
            &gather(t, &upper, &out_shape)?,
            &gather(t, &lower, &out_shape)?,
        )
    };
    if let Tensor::Tracer(_) | Tensor::Symbolic(_) = t {
        return composed(t);
    }
    structural(
        t,
        &|a: &ArrayD<f64>| Ok(col_major(&out_shape, seqs.apply(&col_major_slice(a)))),
        // Tracers inside duals are rare (sparsity of forward-mode rules); they pay a copy.
        &|tr| composed(&Tensor::Tracer(tr.clone().into())),
        &|tr| {
            let shape = shape.clone();
            linear_map(
                tr,
                move |v| diff(v, dim),
                Box::new(move |ct| diff_adjoint(ct, seqs, &shape)),
            )
        },
        &|s| composed(&Tensor::Symbolic(s.clone().into())),
    )
}

/// The cotangent of `diff`'s input (of `shape`) from the cotangent `ct` of its output.
fn diff_adjoint(ct: &Tensor, seqs: Sequences, shape: &[usize]) -> Result<Tensor> {
    let composed = |ct: &Tensor| {
        let (upper, lower) = seqs.pairs();
        binary(
            BinaryFn::Sub,
            &scatter_add(ct, &upper, shape)?,
            &scatter_add(ct, &lower, shape)?,
        )
    };
    if let Tensor::Tracer(_) | Tensor::Symbolic(_) = ct {
        return composed(ct);
    }
    structural(
        ct,
        &|a: &ArrayD<f64>| Ok(col_major(shape, seqs.adjoint(&col_major_slice(a)))),
        &|tr| composed(&Tensor::Tracer(tr.clone().into())),
        &|tr| composed(&Tensor::Tracked(tr.clone())),
        &|s| composed(&Tensor::Symbolic(s.clone().into())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reverse;

    #[test]
    fn the_adjoint_is_the_transpose_of_the_map() {
        // ⟨diff(x), c⟩ = ⟨x, diffᵀ(c)⟩ for both dimensions of a 3 × 4 matrix and a vector.
        let x: Vec<f64> = (0..12).map(|k| (k * k) as f64 * 0.5 - 3.0).collect();
        for (shape, dim) in [(vec![3, 4], 0), (vec![3, 4], 1), (vec![12], 0)] {
            let xt = Tensor::from_col_major(&shape, x.clone());
            let seqs = Sequences::of(&shape, dim).unwrap();
            let y = diff(&xt, dim).unwrap();
            let c: Vec<f64> = (0..y.len()).map(|k| 1.0 + k as f64).collect();
            let ct = Tensor::from_col_major(y.shape(), c.clone());
            let back = diff_adjoint(&ct, seqs, &shape).unwrap().to_col_major();
            let lhs: f64 = y.to_col_major().iter().zip(&c).map(|(a, b)| a * b).sum();
            let rhs: f64 = x.iter().zip(&back).map(|(a, b)| a * b).sum();
            assert_eq!(lhs, rhs, "shape {shape:?}, dim {dim}");
        }
    }

    #[test]
    fn gradients_through_diff_match_the_closed_form() {
        // ∇ sum(diff(x) .^ 2) = 2 (d[k-1] - d[k]) with d = diff(x).
        let x = Tensor::from_col_major(&[4], vec![1.0, 4.0, 2.0, 8.0]);
        let f = |x: &Tensor| {
            let d = diff(x, 0)?;
            crate::ops::sum_all(&binary(BinaryFn::Mul, &d, &d)?)
        };
        let (_, g) = reverse::gradient(f, &x).unwrap();
        assert_eq!(g.to_col_major(), vec![-6.0, 10.0, -16.0, 12.0]);
    }

    #[test]
    fn empty_and_single_rows_give_empty_differences() {
        let one = Tensor::from_col_major(&[1, 3], vec![1.0, 2.0, 3.0]);
        assert_eq!(diff(&one, 0).unwrap().shape(), &[0, 3]);
        let empty = Tensor::from_col_major(&[0], vec![]);
        assert_eq!(diff(&empty, 0).unwrap().shape(), &[0]);
        assert!(diff(&Tensor::scalar(1.0), 0).is_err());
    }
}
