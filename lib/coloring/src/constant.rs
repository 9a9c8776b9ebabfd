//! Colorings that are given rather than computed, as SparseMatrixColorings'
//! `ConstantColoringAlgorithm`: the colors are checked against the pattern (structurally
//! orthogonal columns or rows; symmetrically orthogonal columns for a symmetric matrix) and
//! turned into the direct decompression plan a greedy coloring with those colors has.

use crate::check::{
    structurally_orthogonal_columns, structurally_orthogonal_rows, symmetrically_orthogonal_columns,
};
use crate::error::ColoringError;
use crate::order::Order;
use crate::pattern::SparsityPattern;
use crate::problem::{ColoringProblem, GreedyColoringAlgorithm, Partition, Structure};
use crate::result::{self, group_by_color, ColoringResult};

/// The coloring result of `colors` (1-based, one per column, or per row for a row problem)
/// for `pattern`; `ColoringError::InvalidColoring` when they do not allow direct
/// decompression. Bidirectional problems take no given colors. The result's algorithm and
/// order are the defaults, since no algorithm ran.
///
/// ```
/// use difflab_coloring::{coloring_with_colors, ColoringProblem, SparsityPattern};
///
/// // Two columns of a diagonal share a color; a full row forbids it.
/// let diagonal = SparsityPattern::new(2, 2, vec![0, 1, 2], vec![0, 1])?;
/// let result = coloring_with_colors(&diagonal, ColoringProblem::COLUMN, &[1, 1])?;
/// assert_eq!(result.ncolors(), 1);
/// let full_row = SparsityPattern::new(1, 2, vec![0, 1, 2], vec![0, 0])?;
/// assert!(coloring_with_colors(&full_row, ColoringProblem::COLUMN, &[1, 1]).is_err());
/// # Ok::<(), difflab_coloring::ColoringError>(())
/// ```
pub fn coloring_with_colors(
    pattern: &SparsityPattern,
    problem: ColoringProblem,
    colors: &[usize],
) -> Result<ColoringResult, ColoringError> {
    problem.validate()?;
    let (column_colors, row_colors, plan) = match (problem.structure, problem.partition) {
        (Structure::Nonsymmetric, Partition::Column) => {
            structurally_orthogonal_columns(pattern, colors)?;
            let plan = result::build_column_plan(pattern, colors);
            (Some(colors.to_vec()), None, plan)
        }
        (Structure::Nonsymmetric, Partition::Row) => {
            structurally_orthogonal_rows(pattern, colors)?;
            let plan = result::build_row_plan(pattern, colors);
            (None, Some(colors.to_vec()), plan)
        }
        (Structure::Symmetric, Partition::Column) => {
            symmetrically_orthogonal_columns(pattern, colors)?;
            let plan = result::build_symmetric_direct_plan(pattern, colors);
            (Some(colors.to_vec()), None, plan)
        }
        (structure, partition) => {
            return Err(ColoringError::InvalidProblem {
                structure,
                partition,
            })
        }
    };
    Ok(ColoringResult {
        pattern: pattern.clone(),
        problem,
        algorithm: GreedyColoringAlgorithm::default(),
        order: Order::Natural,
        column_groups: column_colors.as_deref().map(group_by_color),
        row_groups: row_colors.as_deref().map(group_by_color),
        column_colors,
        row_colors,
        plan,
        line_offsets: std::sync::OnceLock::new(),
    })
}
