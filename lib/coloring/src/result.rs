//! [`ColoringResult`]: the colors and groups of a solved problem, and the precomputed plan that
//! makes [`crate::decompress_into`] a straight gather (or a triangular solve per tree).
//!
//! The plan maps every stored entry of the pattern (in CSC order) to the entry of the
//! compressed matrix it is read from. It is built once here, in the `build_*` functions called
//! by [`crate::coloring`], so that decompression, which automatic differentiation repeats at
//! every evaluation, does no searching. The reading side lives in `decompress.rs`.

use ndarray::{Array2, ShapeBuilder};

use crate::acyclic::TreeSet;
use crate::graph::AdjacencyGraph;
use crate::order::Order;
use crate::pattern::SparsityPattern;
use crate::problem::{ColoringProblem, GreedyColoringAlgorithm};
use crate::star::StarSet;

/// The outcome of [`crate::coloring`]: colors, color groups, and what is needed to compress
/// and decompress matrices with this pattern.
///
/// Colors are 1-based; 0 is the neutral color produced by post-processing (a neutral row or
/// column is never seeded). Groups list, for each color `c = 1..=k`, the indices colored `c`
/// (group `c` is at index `c - 1`).
#[derive(Debug, Clone)]
pub struct ColoringResult {
    pub(crate) pattern: SparsityPattern,
    pub(crate) problem: ColoringProblem,
    pub(crate) algorithm: GreedyColoringAlgorithm,
    pub(crate) order: Order,
    pub(crate) column_colors: Option<Vec<usize>>,
    pub(crate) row_colors: Option<Vec<usize>>,
    pub(crate) column_groups: Option<Vec<Vec<usize>>>,
    pub(crate) row_groups: Option<Vec<Vec<usize>>>,
    pub(crate) plan: Plan,
    /// For a direct plan of one compressed matrix, where each stored entry is in its lines
    /// laid end to end (`line * lane + position`): made by the first decompression from lines
    /// (`crate::decompress_lines_into`), which then gathers from one buffer.
    pub(crate) line_offsets: std::sync::OnceLock<Option<Vec<u32>>>,
}

impl ColoringResult {
    /// Number of nonzero colors; for a bidirectional problem, row colors plus column colors.
    /// This is the number of directional derivatives needed to fill the compressed matrices.
    pub fn ncolors(&self) -> usize {
        self.column_groups.as_ref().map_or(0, Vec::len)
            + self.row_groups.as_ref().map_or(0, Vec::len)
    }

    /// Color of every column (column, symmetric and bidirectional problems).
    pub fn column_colors(&self) -> Option<&[usize]> {
        self.column_colors.as_deref()
    }

    /// Color of every row (row and bidirectional problems).
    pub fn row_colors(&self) -> Option<&[usize]> {
        self.row_colors.as_deref()
    }

    /// Columns of each nonzero color, in increasing order (column, symmetric and
    /// bidirectional problems).
    pub fn column_groups(&self) -> Option<&[Vec<usize>]> {
        self.column_groups.as_deref()
    }

    /// Rows of each nonzero color, in increasing order (row and bidirectional problems).
    pub fn row_groups(&self) -> Option<&[Vec<usize>]> {
        self.row_groups.as_deref()
    }

    /// The pattern that was colored; decompression produces exactly this pattern.
    pub fn pattern(&self) -> &SparsityPattern {
        &self.pattern
    }

    /// The problem that was solved.
    pub fn problem(&self) -> ColoringProblem {
        self.problem
    }

    /// The algorithm that was run.
    pub fn algorithm(&self) -> &GreedyColoringAlgorithm {
        &self.algorithm
    }

    /// The stored entries that color `color` (1-based) recovers directly, as `(position in
    /// CSC order, index along the compressed line of that color)`: the row of a compressed
    /// column (column and symmetric results) or the column of a compressed row (row results).
    /// `None` for bidirectional results and decompression by substitution, where entries
    /// depend on several colors.
    pub fn entries_of_color(&self, color: usize) -> Option<Vec<(usize, usize)>> {
        let Plan::Direct { sources } = &self.plan else {
            return None;
        };
        let by_row = match (&self.row_groups, &self.column_groups) {
            (Some(_), None) => true,
            (None, Some(_)) => false,
            _ => return None,
        };
        Some(
            sources
                .iter()
                .enumerate()
                .filter_map(|(k, s)| {
                    let (_, row, col) = s.at();
                    let (line, index) = if by_row { (row, col) } else { (col, row) };
                    (line + 1 == color).then_some((k, index))
                })
                .collect(),
        )
    }

    /// The vertex order, among the algorithm's, that gave the fewest colors.
    pub fn order(&self) -> Order {
        self.order
    }

    /// Shape of the compressed matrix for a column, row or symmetric result: `(nrows, k)` for
    /// columns (one column per color), `(k, ncols)` for rows. `None` for a bidirectional
    /// result, see [`ColoringResult::bidirectional_shapes`].
    pub fn compressed_shape(&self) -> Option<(usize, usize)> {
        let (m, n) = self.pattern.shape();
        match (&self.row_groups, &self.column_groups) {
            (None, Some(columns)) => Some((m, columns.len())),
            (Some(rows), None) => Some((rows.len(), n)),
            _ => None,
        }
    }

    /// Shapes `(rows-compressed, columns-compressed)` of the two compressed matrices of a
    /// bidirectional result: `Br` is `(row colors, ncols)`, `Bc` is `(nrows, column colors)`.
    pub fn bidirectional_shapes(&self) -> Option<((usize, usize), (usize, usize))> {
        let (m, n) = self.pattern.shape();
        match (&self.row_groups, &self.column_groups) {
            (Some(rows), Some(columns)) => Some(((rows.len(), n), (m, columns.len()))),
            _ => None,
        }
    }
}

impl ColoringResult {
    /// A zero compressed matrix for a column, row or symmetric result, laid out so that each
    /// color's line is contiguous: column-major for columns (a Jacobian-vector product fills
    /// one column), row-major for rows (a vector-Jacobian product fills one row).
    /// Decompression accepts any layout, but this one keeps its reads local. `None` for a
    /// bidirectional result.
    pub fn compressed_zeros(&self) -> Option<Array2<f64>> {
        let shape = self.compressed_shape()?;
        Some(if self.row_groups.is_some() {
            Array2::zeros(shape)
        } else {
            Array2::zeros(shape.f())
        })
    }

    /// The zero `(Br, Bc)` pair of a bidirectional result: `Br` row-major, `Bc` column-major.
    pub fn bidirectional_compressed_zeros(&self) -> Option<(Array2<f64>, Array2<f64>)> {
        let (rows, columns) = self.bidirectional_shapes()?;
        Some((Array2::zeros(rows), Array2::zeros(columns.f())))
    }
}

/// Which compressed matrix a value is read from: the single one, or for bidirectional
/// results the row-compressed `Br` (index 0) or the column-compressed `Bc` (index 1).
pub(crate) const MAIN: usize = 0;
pub(crate) const ROWS: usize = 0;
pub(crate) const COLUMNS: usize = 1;

/// An entry of a compressed matrix: `(block, row, col)`, packed in 12 bytes because a
/// decompression streams through one per nonzero (with `usize` fields the plan was twice the
/// size of the matrix it fills, and reading it was the cost of decompressing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Source {
    block: u32,
    row: u32,
    col: u32,
}

impl Source {
    /// Entry `(row, col)` of compressed matrix `block`. A compressed matrix with more than
    /// `u32::MAX` rows or colors would need more memory than any limit allows.
    pub(crate) fn new(block: usize, row: usize, col: usize) -> Self {
        let narrow = |k: usize| u32::try_from(k).unwrap_or(u32::MAX);
        Self {
            block: narrow(block),
            row: narrow(row),
            col: narrow(col),
        }
    }

    /// `(block, row, col)`.
    #[inline]
    pub(crate) fn at(self) -> (usize, usize, usize) {
        (self.block as usize, self.row as usize, self.col as usize)
    }
}

/// One step of substitution: the entry between `leaf` and `parent` equals `source` minus the
/// entries already recovered below `leaf` in its tree; it is written at both `positions`
/// (the two mirror entries of a symmetric matrix, or twice the same entry).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    pub(crate) leaf: usize,
    pub(crate) parent: usize,
    pub(crate) source: Source,
    pub(crate) positions: [usize; 2],
}

/// How every stored entry is recovered.
#[derive(Debug, Clone)]
pub(crate) enum Plan {
    /// Entry `k` (CSC order) is `sources[k]`.
    Direct { sources: Vec<Source> },
    /// Entries in `direct` are read as is; then each tree `t` is solved by
    /// `steps[tree_start[t]..tree_start[t + 1]]`, with a buffer over `nvertices` vertices.
    Substitution {
        direct: Vec<(usize, Source)>,
        steps: Vec<Step>,
        tree_start: Vec<usize>,
        nvertices: usize,
    },
}

/// Colors `1..=k` grouped: group `c - 1` lists the indices of color `c`. Neutral indices
/// (color 0) belong to no group.
pub(crate) fn group_by_color(colors: &[usize]) -> Vec<Vec<usize>> {
    let ncolors = colors.iter().copied().max().unwrap_or(0);
    let mut groups = vec![Vec::new(); ncolors];
    for (v, &c) in colors.iter().enumerate() {
        if c > 0 {
            groups[c - 1].push(v);
        }
    }
    groups
}

fn main_source(row: usize, color: usize) -> Source {
    Source::new(MAIN, row, color - 1)
}

/// Column coloring: `A[i, j]` is `B[i, color[j]]`.
pub(crate) fn build_column_plan(pattern: &SparsityPattern, colors: &[usize]) -> Plan {
    let sources = pattern
        .entries()
        .map(|(i, j)| main_source(i, colors[j]))
        .collect();
    Plan::Direct { sources }
}

/// Row coloring: `A[i, j]` is `B[color[i], j]`.
pub(crate) fn build_row_plan(pattern: &SparsityPattern, colors: &[usize]) -> Plan {
    let sources = pattern
        .entries()
        .map(|(i, j)| Source::new(MAIN, colors[i] - 1, j))
        .collect();
    Plan::Direct { sources }
}

/// Given symmetrically orthogonal colors: `A[i, j]` is read in the column of `j`'s color at
/// row `i` when `j` is alone in its color there, else (the symmetric entry) in the column of
/// `i`'s color at row `j`.
pub(crate) fn build_symmetric_direct_plan(pattern: &SparsityPattern, colors: &[usize]) -> Plan {
    let unique = crate::check::unique_in_row(pattern, colors);
    let sources = pattern
        .entries()
        .zip(unique)
        .map(|((i, j), alone)| match alone {
            true => main_source(i, colors[j]),
            false => main_source(j, colors[i]),
        })
        .collect();
    Plan::Direct { sources }
}

/// Star coloring: the diagonal is read in its own column; `A[i, j]` is read in the column of
/// the hub of its star, at the row of the other end.
pub(crate) fn build_star_plan(
    pattern: &SparsityPattern,
    graph: &AdjacencyGraph,
    colors: &[usize],
    stars: &StarSet,
) -> Plan {
    let entry_edges = graph.symmetric_entry_edges(pattern);
    let sources = pattern
        .entries()
        .zip(entry_edges)
        .map(|((i, j), edge)| match edge {
            None => main_source(i, colors[i]),
            Some(e) => {
                let hub = stars.hub_of(e);
                let spoke = if hub == i { j } else { i };
                main_source(spoke, colors[hub])
            }
        })
        .collect();
    Plan::Direct { sources }
}

/// Acyclic coloring: the diagonal is read directly, every tree is solved leaf-first.
pub(crate) fn build_tree_plan(
    pattern: &SparsityPattern,
    graph: &AdjacencyGraph,
    colors: &[usize],
    trees: &TreeSet,
) -> Plan {
    let mut direct = Vec::new();
    let mut edge_positions = vec![[0; 2]; graph.nedges()];
    for (k, ((i, j), edge)) in pattern
        .entries()
        .zip(graph.symmetric_entry_edges(pattern))
        .enumerate()
    {
        match edge {
            None => direct.push((k, main_source(i, colors[i]))),
            Some(e) => edge_positions[e][usize::from(i < j)] = k,
        }
    }
    let steps = trees
        .order
        .iter()
        .map(|&(leaf, parent, e)| Step {
            leaf,
            parent,
            source: main_source(leaf, colors[parent]),
            positions: edge_positions[e],
        })
        .collect();
    Plan::Substitution {
        direct,
        steps,
        tree_start: trees.start.clone(),
        nvertices: graph.nvertices(),
    }
}

/// The entry of `Br` or `Bc` holding the value of edge `{leaf, parent}` of the block graph
/// `[0 Aᵀ; A 0]` as seen from `parent`: a column parent is read in `Bc` at the leaf's row, a
/// row parent in `Br` at the leaf's column. Vertices below `n` are columns.
fn block_source(
    n: usize,
    leaf: usize,
    parent: usize,
    row_colors: &[usize],
    column_colors: &[usize],
) -> Source {
    if parent < n {
        Source::new(COLUMNS, leaf - n, column_colors[parent] - 1)
    } else {
        Source::new(ROWS, row_colors[parent - n] - 1, leaf)
    }
}

/// Star bicoloring: every entry is read from the compressed matrix of its star's hub.
pub(crate) fn build_bicoloring_star_plan(
    pattern: &SparsityPattern,
    stars: &StarSet,
    row_colors: &[usize],
    column_colors: &[usize],
) -> Plan {
    let n = pattern.ncols();
    let sources = pattern
        .entries()
        .enumerate()
        .map(|(k, (i, j))| {
            // The edge of entry k is k itself (see `AdjacencyGraph::bipartite_block`).
            let hub = stars.hub_of(k);
            let spoke = if hub == j { n + i } else { j };
            block_source(n, spoke, hub, row_colors, column_colors)
        })
        .collect();
    Plan::Direct { sources }
}

/// Acyclic bicoloring: every tree of the block graph is solved leaf-first.
pub(crate) fn build_bicoloring_tree_plan(
    pattern: &SparsityPattern,
    trees: &TreeSet,
    row_colors: &[usize],
    column_colors: &[usize],
) -> Plan {
    let (m, n) = pattern.shape();
    let steps = trees
        .order
        .iter()
        .map(|&(leaf, parent, e)| Step {
            leaf,
            parent,
            source: block_source(n, leaf, parent, row_colors, column_colors),
            positions: [e, e],
        })
        .collect();
    Plan::Substitution {
        direct: Vec::new(),
        steps,
        tree_start: trees.start.clone(),
        nvertices: m + n,
    }
}
