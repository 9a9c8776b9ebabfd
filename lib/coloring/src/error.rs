//! The crate's error type, [`ColoringError`].
//!
//! Every fallible public function returns `Result<_, ColoringError>`; nothing reachable from
//! user input panics. Variants carry the numbers needed to say what went wrong; `Display`
//! renders them as one sentence. Validity violations found by the checkers in [`crate::check`]
//! are a separate type, [`crate::Violation`], because they describe a coloring, not a misuse.

use std::fmt;

use crate::check::Violation;
use crate::problem::{Partition, Structure};

/// Everything that can go wrong when building a pattern, coloring it, or compressing and
/// decompressing values with a coloring result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColoringError {
    /// The structure/partition pair has no coloring algorithm (symmetric matrices can only be
    /// partitioned by column).
    InvalidProblem {
        /// Requested structure.
        structure: Structure,
        /// Requested partition.
        partition: Partition,
    },
    /// A [`crate::GreedyColoringAlgorithm`] was given an empty list of vertex orders.
    NoOrders,
    /// A symmetric problem was posed on a matrix that is not square.
    NotSquare {
        /// Number of rows of the pattern.
        nrows: usize,
        /// Number of columns of the pattern.
        ncols: usize,
    },
    /// A symmetric problem was posed on a pattern that is not structurally symmetric: entry
    /// `(row, col)` is stored but `(col, row)` is not.
    NotSymmetric {
        /// Row of the stored entry whose mirror is missing.
        row: usize,
        /// Column of the stored entry whose mirror is missing.
        col: usize,
    },
    /// Compressed column storage was given a column-pointer array of the wrong length
    /// (it must have `ncols + 1` entries).
    ColptrLength {
        /// `ncols + 1`.
        expected: usize,
        /// Length received.
        found: usize,
    },
    /// Column pointers must start at 0, never decrease, and end at the number of row indices.
    ColptrInvalid {
        /// First column whose pointer range is wrong.
        col: usize,
    },
    /// A row or column index lies outside the matrix.
    IndexOutOfBounds {
        /// Row index received.
        row: usize,
        /// Column index received.
        col: usize,
        /// Number of rows of the matrix.
        nrows: usize,
        /// Number of columns of the matrix.
        ncols: usize,
    },
    /// Row indices inside a column must be strictly increasing (sorted, no duplicates).
    UnsortedColumn {
        /// The offending column.
        col: usize,
    },
    /// A matrix, compressed matrix or dense mask has the wrong shape for this operation.
    ShapeMismatch {
        /// Which argument is wrong (for example `"compressed matrix"`).
        what: &'static str,
        /// Shape required, as `(rows, cols)`.
        expected: (usize, usize),
        /// Shape received.
        found: (usize, usize),
    },
    /// A flat buffer (dense mask or nonzero values) has the wrong length.
    LengthMismatch {
        /// Which argument is wrong (for example `"nonzero values"`).
        what: &'static str,
        /// Length required.
        expected: usize,
        /// Length received.
        found: usize,
    },
    /// A single-matrix operation was used with a bidirectional result or the other way round.
    WrongPartition {
        /// What the operation needs: `true` for a bidirectional result.
        needs_bidirectional: bool,
    },
    /// A vertex order does not list each of the `n` vertices exactly once.
    NotAPermutation {
        /// Number of vertices.
        n: usize,
    },
    /// Given colors do not allow decompression (see [`crate::coloring_with_colors`]).
    InvalidColoring(Violation),
}

impl From<Violation> for ColoringError {
    fn from(violation: Violation) -> Self {
        Self::InvalidColoring(violation)
    }
}

impl fmt::Display for ColoringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidProblem {
                structure,
                partition,
            } => write!(
                f,
                "no coloring for a {structure:?} structure with a {partition:?} partition \
                 (symmetric matrices are partitioned by column only)"
            ),
            Self::NotAPermutation { n } => write!(
                f,
                "the vertex order must list each of the {n} vertices exactly once"
            ),
            Self::NoOrders => write!(f, "the coloring algorithm needs at least one vertex order"),
            Self::NotSquare { nrows, ncols } => write!(
                f,
                "a symmetric coloring needs a square matrix, got {nrows}×{ncols}"
            ),
            Self::NotSymmetric { row, col } => write!(
                f,
                "the pattern is not symmetric: entry ({row}, {col}) is stored but ({col}, {row}) is not"
            ),
            Self::ColptrLength { expected, found } => write!(
                f,
                "column pointers must have {expected} entries, got {found}"
            ),
            Self::ColptrInvalid { col } => {
                write!(f, "column pointers are inconsistent at column {col}")
            }
            Self::IndexOutOfBounds {
                row,
                col,
                nrows,
                ncols,
            } => write!(
                f,
                "entry ({row}, {col}) lies outside the {nrows}×{ncols} matrix"
            ),
            Self::UnsortedColumn { col } => write!(
                f,
                "row indices of column {col} are not strictly increasing"
            ),
            Self::ShapeMismatch {
                what,
                expected,
                found,
            } => write!(
                f,
                "{what} must be {}×{}, got {}×{}",
                expected.0, expected.1, found.0, found.1
            ),
            Self::LengthMismatch {
                what,
                expected,
                found,
            } => write!(f, "{what} must have length {expected}, got {found}"),
            Self::WrongPartition {
                needs_bidirectional,
            } => {
                if *needs_bidirectional {
                    write!(f, "this operation needs a bidirectional coloring result")
                } else {
                    write!(
                        f,
                        "this result is bidirectional: use the functions taking two compressed matrices"
                    )
                }
            }
            Self::InvalidColoring(violation) => write!(f, "invalid coloring: {violation}"),
        }
    }
}

impl std::error::Error for ColoringError {}
