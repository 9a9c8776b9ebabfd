//! What to color and how: [`ColoringProblem`] and [`GreedyColoringAlgorithm`].
//!
//! A problem names the matrix structure and the partition (columns, rows or both); an
//! algorithm names the vertex orders to try, the decompression mode and whether to
//! post-process. [`crate::coloring`] (in `interface.rs`) turns the pair into an algorithm:
//!
//! | structure | partition | direct | substitution |
//! |---|---|---|---|
//! | nonsymmetric | column | partial distance-2 coloring of columns | (same as direct) |
//! | nonsymmetric | row | partial distance-2 coloring of rows | (same as direct) |
//! | nonsymmetric | bidirectional | star bicoloring | acyclic bicoloring |
//! | symmetric | column | star coloring | acyclic coloring |

use crate::error::ColoringError;
use crate::order::Order;

/// Whether the matrix is known to be symmetric (a Hessian) or not (a Jacobian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Structure {
    /// Any matrix; Jacobians.
    Nonsymmetric,
    /// A symmetric matrix whose pattern is structurally symmetric; Hessians.
    Symmetric,
}

/// Which lines of the matrix are grouped by color.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Partition {
    /// Columns are colored; the compressed matrix sums columns (forward mode, JVPs).
    Column,
    /// Rows are colored; the compressed matrix sums rows (reverse mode, VJPs).
    Row,
    /// Both rows and columns are colored (mixed mode).
    Bidirectional,
}

/// How the nonzeros are recovered from the compressed matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decompression {
    /// Every nonzero is read off one entry of the compressed matrix.
    Direct,
    /// Some nonzeros are obtained by solving a triangular system; usually fewer colors.
    /// Nonsymmetric column and row problems fall back to direct decompression.
    Substitution,
}

/// A coloring problem: the structure of the matrix and the partition to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColoringProblem {
    /// Structure of the matrix.
    pub structure: Structure,
    /// Lines to color.
    pub partition: Partition,
}

impl ColoringProblem {
    /// Column coloring of a Jacobian (the default, as in SparseMatrixColorings).
    pub const COLUMN: Self = Self {
        structure: Structure::Nonsymmetric,
        partition: Partition::Column,
    };
    /// Row coloring of a Jacobian.
    pub const ROW: Self = Self {
        structure: Structure::Nonsymmetric,
        partition: Partition::Row,
    };
    /// Bidirectional coloring of a Jacobian.
    pub const BIDIRECTIONAL: Self = Self {
        structure: Structure::Nonsymmetric,
        partition: Partition::Bidirectional,
    };
    /// Symmetric coloring of a Hessian.
    pub const SYMMETRIC: Self = Self {
        structure: Structure::Symmetric,
        partition: Partition::Column,
    };

    /// A problem, refusing the pairs that have no algorithm (symmetric with a row or
    /// bidirectional partition).
    pub fn new(structure: Structure, partition: Partition) -> Result<Self, ColoringError> {
        let problem = Self {
            structure,
            partition,
        };
        problem.validate()?;
        Ok(problem)
    }

    /// Checks that the pair has an algorithm; [`crate::coloring`] calls it too, since the
    /// fields are public.
    pub fn validate(&self) -> Result<(), ColoringError> {
        match (self.structure, self.partition) {
            (Structure::Symmetric, Partition::Row | Partition::Bidirectional) => {
                Err(ColoringError::InvalidProblem {
                    structure: self.structure,
                    partition: self.partition,
                })
            }
            _ => Ok(()),
        }
    }
}

impl Default for ColoringProblem {
    fn default() -> Self {
        Self::COLUMN
    }
}

/// Greedy coloring: vertices are colored one after the other with the smallest color that
/// keeps the coloring valid, in each of the given orders; the order giving the fewest colors
/// wins (the first one on ties).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GreedyColoringAlgorithm {
    /// Vertex orders to try; must not be empty.
    pub orders: Vec<Order>,
    /// Decompression mode.
    pub decompression: Decompression,
    /// Replace colors that decompression never reads by the neutral color 0 (symmetric and
    /// bidirectional problems only; ignored for column and row problems).
    pub postprocessing: bool,
}

impl GreedyColoringAlgorithm {
    /// One order, direct decompression, no post-processing.
    pub fn new(order: Order) -> Self {
        Self {
            orders: vec![order],
            decompression: Decompression::Direct,
            postprocessing: false,
        }
    }

    /// Several orders, keeping the coloring with the fewest colors.
    pub fn with_orders(orders: impl IntoIterator<Item = Order>) -> Self {
        Self {
            orders: orders.into_iter().collect(),
            ..Self::default()
        }
    }

    /// The same algorithm with another decompression mode.
    pub fn decompression(mut self, decompression: Decompression) -> Self {
        self.decompression = decompression;
        self
    }

    /// The same algorithm with post-processing switched on or off.
    pub fn postprocessing(mut self, postprocessing: bool) -> Self {
        self.postprocessing = postprocessing;
        self
    }
}

impl Default for GreedyColoringAlgorithm {
    fn default() -> Self {
        Self::new(Order::Natural)
    }
}
