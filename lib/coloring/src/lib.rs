//! difflab-coloring: sparsity patterns, graph coloring, compression and decompression of sparse
//! Jacobians and Hessians — the Rust counterpart of Julia's SparseMatrixColorings.
//!
//! Pure graph and sparse-matrix code: it knows nothing of automatic differentiation. The AD
//! crate colors a pattern once ([`coloring`]), evaluates one directional derivative per color
//! (seeding the rows or columns of [`ColoringResult::column_groups`] /
//! [`ColoringResult::row_groups`]), and fills a sparse matrix with [`decompress_into`].
//!
//! Where to look:
//! - `pattern.rs` ([`SparsityPattern`]) and `graph.rs` (bipartite and adjacency graphs);
//! - `problem.rs` ([`ColoringProblem`], [`GreedyColoringAlgorithm`]) and `interface.rs`
//!   ([`coloring`], which dispatches to the algorithms) and `constant.rs`
//!   ([`coloring_with_colors`], a result from given colors);
//! - algorithms: `order.rs` ([`Order`]), `distance2.rs` (column/row coloring), `star.rs`,
//!   `acyclic.rs` with `forest.rs` (symmetric coloring and bicoloring), `postprocess.rs`;
//!   single greedy runs in a given vertex order ([`partial_distance2_colors`],
//!   [`symmetric_colors`]) and the exact minimum column or row coloring by branch and bound
//!   (`optimal.rs`, [`optimal_distance2_colors`]);
//! - `result.rs` ([`ColoringResult`] and its decompression plan), `decompress.rs`
//!   ([`compress`], [`decompress`], [`decompress_into`]), `check.rs` (validity checkers);
//! - `error.rs` ([`ColoringError`]).
//!
//! To look at a pattern or a coloring, `difflab_plot::Spy` draws it as a spy plot (inline in
//! evcxr notebooks); this crate stays free of plotting, since the AD core depends on it.
//!
//! ```
//! use difflab_coloring::{
//!     coloring, compress, decompress, ColoringProblem, Decompression, GreedyColoringAlgorithm,
//!     Order, SparsityPattern,
//! };
//! use sprs::TriMat;
//!
//! // A tridiagonal Hessian: acyclic coloring needs 2 colors, star coloring 3.
//! let n = 6;
//! let mut h = TriMat::new((n, n));
//! for i in 0..n {
//!     h.add_triplet(i, i, 2.0 + i as f64);
//!     if i + 1 < n {
//!         h.add_triplet(i, i + 1, -1.0 - i as f64);
//!         h.add_triplet(i + 1, i, -1.0 - i as f64);
//!     }
//! }
//! let h = h.to_csc();
//! let pattern = SparsityPattern::from_csmat(&h);
//! let algorithm = GreedyColoringAlgorithm::with_orders([Order::Natural, Order::SMALLEST_LAST])
//!     .decompression(Decompression::Substitution);
//! let result = coloring(&pattern, ColoringProblem::SYMMETRIC, &algorithm)?;
//! assert_eq!(result.ncolors(), 2);
//! let b = compress(&h, &result)?; // n × 2: two Hessian-vector products
//! assert_eq!(decompress(b.view(), &result)?, h);
//! # Ok::<(), difflab_coloring::ColoringError>(())
//! ```

mod acyclic;
mod check;
mod constant;
mod decompress;
mod distance2;
mod error;
mod forest;
mod graph;
mod interface;
mod optimal;
mod order;
mod pattern;
mod postprocess;
mod problem;
mod result;
mod star;

pub use check::{
    directly_recoverable_columns, structurally_biorthogonal, structurally_orthogonal_columns,
    structurally_orthogonal_rows, symmetrically_orthogonal_columns, Violation,
};
pub use constant::coloring_with_colors;
pub use decompress::{
    compress, compress_bidirectional, compress_bidirectional_dense, compress_dense, decompress,
    decompress_bidirectional, decompress_bidirectional_into, decompress_into,
    decompress_lines_into,
};
pub use error::ColoringError;
pub use forest::Forest;
pub use graph::{BipartiteGraph, PatternGraph, Side};
pub use interface::{coloring, partial_distance2_colors, symmetric_colors};
pub use optimal::{optimal_distance2_colors, OptimalColors};
pub use order::{valid_dynamic_order, Direction, DynamicDegree, DynamicOrder, Order};
pub use pattern::SparsityPattern;
pub use problem::{ColoringProblem, Decompression, GreedyColoringAlgorithm, Partition, Structure};
pub use result::ColoringResult;
