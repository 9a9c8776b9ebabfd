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
//! [`di`] differentiates Rust closures `FnMut(&Tensor) -> Result<Tensor, E>` with any backend
//! (forward, reverse, finite differences, symbolic), and [`di::sparse`] computes sparse
//! Jacobians and Hessians: sparsity detection with [`tracer`]s, a coloring from
//! difflab-coloring, one directional derivative per color.
//!
//! A gradient, in forward and in reverse mode:
//!
//! ```
//! use difflab_ad::di::{operators::value_and_gradient, Backend};
//! use difflab_ad::ops::{self, BinaryFn, UnaryFn};
//! use difflab_ad::{AdError, Tensor};
//!
//! // f(x) = sum(sin.(x) .* x), so ∇f(x) = cos.(x) .* x .+ sin.(x).
//! let mut f = |x: &Tensor| -> Result<Tensor, AdError> {
//!     ops::sum_all(&ops::binary(BinaryFn::Mul, &ops::unary(UnaryFn::Sin, x)?, x)?)
//! };
//! let xs = vec![0.5, 1.0, 2.0];
//! let x = Tensor::from_col_major(&[3], xs.clone());
//! for backend in [Backend::Forward { chunk: None }, Backend::Reverse { compile: false }] {
//!     let (y, g) = value_and_gradient(&mut f, &backend, &x)?;
//!     let expected_y: f64 = xs.iter().map(|x| x.sin() * x).sum();
//!     assert!((y.primal()[[]] - expected_y).abs() < 1e-12);
//!     for (gi, xi) in g.to_col_major().into_iter().zip(&xs) {
//!         assert!((gi - (xi.cos() * xi + xi.sin())).abs() < 1e-12);
//!     }
//! }
//! # Ok::<(), AdError>(())
//! ```
//!
//! A sparse Jacobian: `y[i] = x[i] * x[i + 1]` has a bidiagonal Jacobian, whose columns need
//! two colors, so two pushforwards compute it whatever the length of `x`:
//!
//! ```
//! use difflab_ad::di::{sparse, Backend};
//! use difflab_ad::ops::{self, BinaryFn};
//! use difflab_ad::{AdError, Tensor};
//! use difflab_coloring::GreedyColoringAlgorithm;
//!
//! let n = 6;
//! let mut f = |x: &Tensor| -> Result<Tensor, AdError> {
//!     let head = ops::gather(x, &(0..n - 1).collect::<Vec<_>>(), &[n - 1])?;
//!     let tail = ops::gather(x, &(1..n).collect::<Vec<_>>(), &[n - 1])?;
//!     ops::binary(BinaryFn::Mul, &head, &tail)
//! };
//! let x = Tensor::from_col_major(&[n], (1..=n).map(|i| i as f64).collect());
//! let pattern = sparse::jacobian_sparsity(&mut f, &x, false)?;
//! assert_eq!((pattern.shape(), pattern.nnz()), ((n - 1, n), 2 * (n - 1)));
//!
//! let backend = Backend::Forward { chunk: None };
//! let algorithm = GreedyColoringAlgorithm::default();
//! let plan = sparse::plan_jacobian(pattern, &backend, &algorithm, &[n], &[n - 1])?;
//! assert_eq!(plan.ncolors(), 2);
//! let (y, jacobian) = sparse::sparse_jacobian(&mut f, &backend, &plan, &x)?;
//! assert_eq!(y.to_col_major(), vec![2.0, 6.0, 12.0, 20.0, 30.0]);
//! // ∂y[i]/∂x[i] = x[i + 1] and ∂y[i]/∂x[i + 1] = x[i]
//! assert_eq!(jacobian.get(0, 0), Some(&2.0));
//! assert_eq!(jacobian.get(0, 1), Some(&1.0));
//! assert_eq!(jacobian.get(4, 5), Some(&5.0));
//! assert_eq!(jacobian.get(0, 2), None);
//! # Ok::<(), AdError>(())
//! ```
//!
//! `plan.coloring` is the difflab-coloring result; `difflab_plot::Spy::coloring` draws it.

pub mod background;
pub mod broadcast;
pub mod compiled;
pub mod di;
pub mod error;
pub mod limits;
pub mod ops;
pub mod reverse;
pub mod shared_sparse;
pub mod solve;
pub mod symbolic;
pub mod tensor;
pub mod tracer;

pub use error::AdError;
pub use tensor::{Dual, Tag, Tensor};
