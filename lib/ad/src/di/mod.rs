//! The differentiation interface: backends and operators over functions `Tensor → Tensor`.
//!
//! - [`backend`]: the backends and their settings.
//! - [`primitives`]: batched pushforward and pullback, native or by fallback.
//! - [`operators`]: derivative, gradient, Jacobian, HVP, Hessian and second derivative.
//!
//! Functions are Rust closures `FnMut(&Tensor) -> Result<Tensor, E>` with `E: From<AdError>`, so
//! the language can pass its interpreted functions (and get its own errors back) while Rust
//! users pass plain closures.
//!
//! ```
//! use difflab_ad::di::{operators::value_and_gradient, Backend};
//! use difflab_ad::{ops, AdError, Tensor};
//! let mut f = |x: &Tensor| -> Result<Tensor, AdError> {
//!     ops::sum_all(&ops::binary(ops::BinaryFn::Mul, x, x)?)
//! };
//! let x = Tensor::from_col_major(&[3], vec![1.0, 2.0, 3.0]);
//! let (y, g) = value_and_gradient(&mut f, &Backend::Forward { chunk: None }, &x).unwrap();
//! assert_eq!(y.primal()[[]], 14.0);
//! assert_eq!(g.to_col_major(), vec![2.0, 4.0, 6.0]);
//! ```

pub mod backend;
pub mod operators;
pub mod primitives;
mod reverse;
pub mod sparse;

pub use backend::{default_chunk, Backend, FdType, Mode, SymbolicPackage};
