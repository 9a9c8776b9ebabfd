//! difflab-ad: differentiation of functions written against array-level number kinds.
//!
//! A [`Tensor`] is an array of real numbers of any rank that may carry derivative information:
//! a plain array, or a [`Dual`] (a value with a chunk of tangent partials, tagged so that nested
//! differentiation never confuses perturbations). Every primitive operation in [`ops`] is written
//! once with its value and its derivative rules, so any function composed of primitives can be
//! run on plain numbers or differentiated. This crate knows nothing of the difflab language:
//! the evaluator in `difflab-lang` calls these primitives for every array operation.
//!
//! Start with [`tensor`] (the number kinds), then [`ops`] (the primitives and their rules).

pub mod broadcast;
pub mod compiled;
pub mod di;
pub mod error;
pub mod ops;
pub mod reverse;
pub mod solve;
pub mod symbolic;
pub mod tensor;
pub mod tracer;

pub use error::AdError;
pub use tensor::{Dual, Tag, Tensor};
