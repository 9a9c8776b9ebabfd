//! Validity checkers for colorings, independent of the algorithms that produce them.
//!
//! Each checker states the property that makes decompression possible and reports the first
//! entry that breaks it as a [`Violation`]. They are linear in the number of stored entries
//! (SparseMatrixColorings' versions are dense and quadratic), so the tests run them on every
//! result, large matrices included. Neutral colors (0) are allowed where the property still
//! holds without them.

use std::collections::HashSet;
use std::fmt;

use crate::pattern::SparsityPattern;

/// Why a coloring cannot be decompressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// A color vector does not have one color per row or column.
    WrongLength {
        /// `"row colors"` or `"column colors"`.
        what: &'static str,
        /// Number of rows or columns.
        expected: usize,
        /// Length received.
        found: usize,
    },
    /// A symmetric check was asked of a pattern that is not square and structurally symmetric;
    /// `(row, col)` is stored but not its mirror (or is `(nrows, ncols)` for a non-square one).
    NotSymmetric {
        /// Row of the offending entry.
        row: usize,
        /// Column of the offending entry.
        col: usize,
    },
    /// Stored entry `(row, col)` cannot be recovered from the compressed matrices: every color
    /// that could carry it is neutral or shared with another entry of the same row/column.
    Unrecoverable {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
    },
    /// The value of stored entry `(row, col)` appears nowhere in the compressed matrix.
    ValueLost {
        /// Row of the entry.
        row: usize,
        /// Column of the entry.
        col: usize,
    },
    /// A color beyond the number of rows or columns colored: no coloring needs more colors
    /// than vertices, and compressing with it would need that many.
    ColorOutOfRange {
        /// `"row colors"` or `"column colors"`.
        what: &'static str,
        /// The color received.
        color: usize,
        /// The number of rows or columns.
        limit: usize,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WrongLength {
                what,
                expected,
                found,
            } => write!(f, "{what} must have length {expected}, got {found}"),
            Self::NotSymmetric { row, col } => {
                write!(f, "the pattern is not symmetric at ({row}, {col})")
            }
            Self::Unrecoverable { row, col } => {
                write!(
                    f,
                    "entry ({row}, {col}) cannot be recovered from the compressed matrix"
                )
            }
            Self::ValueLost { row, col } => write!(
                f,
                "the value of entry ({row}, {col}) does not appear in the compressed matrix"
            ),
            Self::ColorOutOfRange { what, color, limit } => write!(
                f,
                "{what} must lie between 0 and {limit} (one per vertex at most), got {color}"
            ),
        }
    }
}

impl std::error::Error for Violation {}

/// One color per vertex, none beyond the number of vertices.
fn check_length(what: &'static str, colors: &[usize], expected: usize) -> Result<(), Violation> {
    if colors.len() != expected {
        return Err(Violation::WrongLength {
            what,
            expected,
            found: colors.len(),
        });
    }
    match colors.iter().find(|&&c| c > expected) {
        Some(&color) => Err(Violation::ColorOutOfRange {
            what,
            color,
            limit: expected,
        }),
        None => Ok(()),
    }
}

/// For every stored entry (CSC order): whether the color of its column, `colors[j]`, is
/// nonzero and carried by no other column of row `i`. Then `B[i, colors[j]]` is exactly
/// `A[i, j]` after column compression.
pub(crate) fn unique_in_row(pattern: &SparsityPattern, colors: &[usize]) -> Vec<bool> {
    let transposed = pattern.transpose();
    let ncolors = colors.iter().copied().max().unwrap_or(0);
    let mut count = vec![0usize; ncolors + 1];
    let mut unique = vec![false; pattern.nnz()];
    // The k-th entry of row i in row-major order is found again by walking the columns.
    let mut row_unique = vec![false; pattern.nnz()];
    for i in 0..transposed.ncols() {
        let columns = transposed.column(i);
        for &j in columns {
            count[colors[j]] += 1;
        }
        let start = transposed.colptr()[i];
        for (k, &j) in columns.iter().enumerate() {
            row_unique[start + k] = colors[j] != 0 && count[colors[j]] == 1;
        }
        for &j in columns {
            count[colors[j]] = 0;
        }
    }
    // Map row-major positions back to CSC positions: rows of a column appear in increasing
    // order, and so do the row-major slots of each row visited column by column.
    let mut next: Vec<usize> = transposed.colptr()[..transposed.ncols()].to_vec();
    for (k, (i, _)) in pattern.entries().enumerate() {
        unique[k] = row_unique[next[i]];
        next[i] += 1;
    }
    unique
}

/// Whether column compression with `colors` keeps every stored entry alone in its row and
/// color: for every `(i, j)` stored, no other column of `j`'s color has an entry in row `i`
/// (and `j`'s color is not neutral). This makes direct column decompression possible.
pub fn structurally_orthogonal_columns(
    pattern: &SparsityPattern,
    colors: &[usize],
) -> Result<(), Violation> {
    check_length("column colors", colors, pattern.ncols())?;
    let unique = unique_in_row(pattern, colors);
    match pattern.entries().zip(unique).find(|(_, u)| !u) {
        Some(((row, col), _)) => Err(Violation::Unrecoverable { row, col }),
        None => Ok(()),
    }
}

/// Whether row compression with `colors` keeps every stored entry alone in its column and
/// color (the transposed property of [`structurally_orthogonal_columns`]).
pub fn structurally_orthogonal_rows(
    pattern: &SparsityPattern,
    colors: &[usize],
) -> Result<(), Violation> {
    structurally_orthogonal_columns(&pattern.transpose(), colors).map_err(|v| match v {
        Violation::Unrecoverable { row, col } => Violation::Unrecoverable { row: col, col: row },
        Violation::WrongLength {
            expected, found, ..
        } => Violation::WrongLength {
            what: "row colors",
            expected,
            found,
        },
        other => other,
    })
}

/// Whether the column coloring of a symmetric pattern is symmetrically orthogonal: for every
/// stored `(i, j)`, either column `j` is the only one of its color in row `i`, or column `i`
/// is the only one of its color in row `j`. This is what star coloring guarantees and what
/// direct symmetric decompression needs. The diagonal is included.
pub fn symmetrically_orthogonal_columns(
    pattern: &SparsityPattern,
    colors: &[usize],
) -> Result<(), Violation> {
    let (nrows, ncols) = pattern.shape();
    if nrows != ncols {
        return Err(Violation::NotSymmetric {
            row: nrows,
            col: ncols,
        });
    }
    if let Some((row, col)) = pattern.first_asymmetry() {
        return Err(Violation::NotSymmetric { row, col });
    }
    check_length("column colors", colors, ncols)?;
    let unique = unique_in_row(pattern, colors);
    let mirror = pattern.mirror_positions();
    match (0..pattern.nnz()).find(|&k| !unique[k] && !unique[mirror[k]]) {
        Some(k) => {
            let (i, j) = pattern.entries().nth(k).unwrap_or_default();
            Err(Violation::Unrecoverable { row: i, col: j })
        }
        None => Ok(()),
    }
}

/// Whether a bicoloring is structurally biorthogonal: for every stored `(i, j)`, either
/// column `j` is the only one of its column color in row `i`, or row `i` is the only one of
/// its row color in column `j`. Neutral colors (0) carry nothing.
pub fn structurally_biorthogonal(
    pattern: &SparsityPattern,
    row_colors: &[usize],
    column_colors: &[usize],
) -> Result<(), Violation> {
    check_length("row colors", row_colors, pattern.nrows())?;
    check_length("column colors", column_colors, pattern.ncols())?;
    let by_columns = unique_in_row(pattern, column_colors);
    // Row uniqueness in each column: count row colors column by column.
    let ncolors = row_colors.iter().copied().max().unwrap_or(0);
    let mut count = vec![0usize; ncolors + 1];
    for j in 0..pattern.ncols() {
        let rows = pattern.column(j);
        for &i in rows {
            count[row_colors[i]] += 1;
        }
        let start = pattern.colptr()[j];
        for (k, &i) in rows.iter().enumerate() {
            let by_rows = row_colors[i] != 0 && count[row_colors[i]] == 1;
            if !by_rows && !by_columns[start + k] {
                return Err(Violation::Unrecoverable { row: i, col: j });
            }
        }
        for &i in rows {
            count[row_colors[i]] = 0;
        }
    }
    Ok(())
}

/// Whether every stored value of a matrix survives column compression with `colors`: each
/// value in `values` (CSC order, as in `pattern`) is zero or equal to some entry of the
/// compressed matrix. A necessary condition for direct recovery, checked on actual numbers
/// (use values without accidental coincidences).
pub fn directly_recoverable_columns(
    pattern: &SparsityPattern,
    values: &[f64],
    colors: &[usize],
) -> Result<(), Violation> {
    check_length("column colors", colors, pattern.ncols())?;
    if values.len() != pattern.nnz() {
        return Err(Violation::WrongLength {
            what: "nonzero values",
            expected: pattern.nnz(),
            found: values.len(),
        });
    }
    // Only the entries of the compressed matrix that some stored entry contributes to can be
    // nonzero: sum them row by row (over the transposed pattern) without a dense matrix.
    let ncolors = colors.iter().copied().max().unwrap_or(0);
    let transposed = pattern.transpose();
    let positions = pattern.mirror_in(&transposed);
    let mut row_values = vec![0.0; pattern.nnz()];
    for (k, &p) in positions.iter().enumerate() {
        row_values[p] = values[k];
    }
    // Compare bit patterns, with -0.0 folded into 0.0 by the addition.
    let key = |v: f64| (v + 0.0).to_bits();
    let mut present = HashSet::new();
    let mut sums = vec![0.0; ncolors + 1];
    for i in 0..transposed.ncols() {
        let start = transposed.colptr()[i];
        let columns = transposed.column(i);
        for (k, &j) in columns.iter().enumerate() {
            sums[colors[j]] += row_values[start + k];
        }
        for &j in columns {
            let c = colors[j];
            if c > 0 {
                present.insert(key(sums[c]));
            }
        }
        for &j in columns {
            sums[colors[j]] = 0.0;
        }
    }
    for ((row, col), &v) in pattern.entries().zip(values) {
        if v != 0.0 && !present.contains(&key(v)) {
            return Err(Violation::ValueLost { row, col });
        }
    }
    Ok(())
}
