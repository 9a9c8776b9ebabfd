//! The primitive operations, each with its value and derivative rules in one place.
//!
//! - [`elementwise`]: unary and binary scalar functions applied elementwise (with broadcasting).
//! - [`reduce`]: sums and extrema over all elements or along dimensions.
//! - [`structure`]: gathering, scattering, reshaping, concatenating and transposing.
//! - [`special`]: the special functions of SpecialFunctions.jl, elementwise.
//! - [`difference`]: differences of neighbours (`diff`), a linear map of its own.
//! - [`linalg`]: matrix products.
//! - [`tracing`]: the sparsity rules of all of the above, for tracer arrays.
//! - [`taping`]: their reverse rules, for values recorded on a tape.
//!
//! Every function takes tensors of any kind. A plain input runs the plain kernel; a dual input
//! runs the kernel on its value and the forward rule on its partials, written with these same
//! primitives, so duals of duals (second order) need no extra code.

pub mod difference;
pub mod elementwise;
pub mod linalg;
pub mod reduce;
pub mod special;
pub mod structure;
pub mod taping;
pub mod tracing;

pub use difference::diff;
pub use elementwise::{binary, scalar_binary, unary, BinaryFn, Scalar, UnaryFn};
pub use linalg::matmul;
pub use reduce::{cumsum, sum_all, sum_dims};
pub use special::Special;
pub use structure::{concat, gather, reshape, scatter, scatter_into, transpose};

use crate::tensor::{Tag, Tensor};

/// The partials of `t` for `tag`, or `count` zero tangents of `t`'s shape when `t` is a
/// constant for that tag.
pub(crate) fn partials_or_zero(t: &Tensor, tag: Tag, count: usize) -> Vec<Tensor> {
    match t.split(tag) {
        (_, Some(p)) => p.to_vec(),
        (v, None) => vec![Tensor::filled(v.shape(), 0.0); count],
    }
}

/// The number of partials of the dual with `tag` among `operands`.
pub(crate) fn chunk_len<'a>(operands: impl IntoIterator<Item = &'a Tensor>, tag: Tag) -> usize {
    operands
        .into_iter()
        .find_map(|t| t.split(tag).1.map(<[Tensor]>::len))
        .unwrap_or(0)
}
