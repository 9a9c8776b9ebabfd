//! [`coloring`], the entry point: picks the graph and algorithm for a [`ColoringProblem`], runs
//! it in every order of the [`GreedyColoringAlgorithm`], keeps the best coloring, and builds
//! the [`ColoringResult`] with its decompression plan (`result.rs`).

use crate::acyclic::{acyclic_coloring, TreeSet};
use crate::distance2::partial_distance2_coloring;
use crate::error::ColoringError;
use crate::graph::{AdjacencyGraph, BipartiteGraph, Side};
use crate::order::{adjacency_order, bipartite_order, Order};
use crate::pattern::SparsityPattern;
use crate::postprocess::{diagonal_colors, postprocess_star, postprocess_tree};
use crate::problem::{
    ColoringProblem, Decompression, GreedyColoringAlgorithm, Partition, Structure,
};
use crate::result::{self, group_by_color, ColoringResult, Plan};
use crate::star::{star_coloring, StarSet};

/// Solves a coloring problem on a sparsity pattern.
///
/// | problem | algorithm |
/// |---|---|
/// | [`ColoringProblem::COLUMN`] / [`ColoringProblem::ROW`] | partial distance-2 coloring of the columns / rows |
/// | [`ColoringProblem::SYMMETRIC`] | star coloring (direct) or acyclic coloring (substitution) of the adjacency graph, diagonal ignored |
/// | [`ColoringProblem::BIDIRECTIONAL`] | star or acyclic coloring of the graph of `[0 Aᵀ; A 0]` |
///
/// Every order of `algorithm` is tried and the one with the fewest colors is kept (the first on
/// ties). Symmetric problems need a square, structurally symmetric pattern.
///
/// ```
/// use difflab_coloring::{coloring, ColoringProblem, GreedyColoringAlgorithm, SparsityPattern};
///
/// // The 4×6 example of SparseMatrixColorings' documentation.
/// let rows = [[0, 0, 1, 1, 0, 1], [1, 0, 0, 0, 1, 0], [0, 1, 0, 0, 1, 0], [0, 1, 1, 0, 0, 0]];
/// let entries: Vec<_> = (0..4)
///     .flat_map(|i| (0..6).map(move |j| (i, j)))
///     .filter(|&(i, j)| rows[i][j] == 1)
///     .collect();
/// let pattern = SparsityPattern::from_entries(4, 6, &entries)?;
/// let result = coloring(&pattern, ColoringProblem::COLUMN, &GreedyColoringAlgorithm::default())?;
/// assert_eq!(result.column_colors(), Some(&[1, 1, 2, 1, 2, 3][..]));
/// assert_eq!(result.column_groups().unwrap(), &[vec![0, 1, 3], vec![2, 4], vec![5]]);
/// assert_eq!(result.ncolors(), 3);
/// # Ok::<(), difflab_coloring::ColoringError>(())
/// ```
pub fn coloring(
    pattern: &SparsityPattern,
    problem: ColoringProblem,
    algorithm: &GreedyColoringAlgorithm,
) -> Result<ColoringResult, ColoringError> {
    problem.validate()?;
    if algorithm.orders.is_empty() {
        return Err(ColoringError::NoOrders);
    }
    let substitution = algorithm.decompression == Decompression::Substitution;
    let post = algorithm.postprocessing;
    let solved = match (problem.structure, problem.partition) {
        (Structure::Nonsymmetric, Partition::Column) => {
            color_side(pattern, Side::Columns, &algorithm.orders)?
        }
        (Structure::Nonsymmetric, Partition::Row) => {
            color_side(pattern, Side::Rows, &algorithm.orders)?
        }
        (Structure::Symmetric, _) => {
            color_symmetric(pattern, &algorithm.orders, substitution, post)?
        }
        (Structure::Nonsymmetric, Partition::Bidirectional) => {
            color_bidirectional(pattern, &algorithm.orders, substitution, post)?
        }
    };
    let column_groups = solved.column_colors.as_deref().map(group_by_color);
    let row_groups = solved.row_colors.as_deref().map(group_by_color);
    Ok(ColoringResult {
        pattern: pattern.clone(),
        problem,
        algorithm: algorithm.clone(),
        order: solved.order,
        column_colors: solved.column_colors,
        row_colors: solved.row_colors,
        column_groups,
        row_groups,
        plan: solved.plan,
        line_offsets: std::sync::OnceLock::new(),
    })
}

struct Solved {
    order: Order,
    column_colors: Option<Vec<usize>>,
    row_colors: Option<Vec<usize>>,
    plan: Plan,
}

/// The candidate with the fewest colors, the first one on ties.
fn best<T>(
    orders: &[Order],
    mut run: impl FnMut(Order) -> (usize, T),
) -> Result<(Order, T), ColoringError> {
    let mut best: Option<(usize, Order, T)> = None;
    for &order in orders {
        let (ncolors, candidate) = run(order);
        if best.as_ref().is_none_or(|(n, _, _)| ncolors < *n) {
            best = Some((ncolors, order, candidate));
        }
    }
    best.map(|(_, order, candidate)| (order, candidate))
        .ok_or(ColoringError::NoOrders)
}

fn max_color(colors: &[usize]) -> usize {
    colors.iter().copied().max().unwrap_or(0)
}

fn color_side(
    pattern: &SparsityPattern,
    side: Side,
    orders: &[Order],
) -> Result<Solved, ColoringError> {
    let graph = BipartiteGraph::new(pattern);
    let (adjacency, back) = graph.sides(side);
    let (order, colors) = best(orders, |order| {
        let vertices = bipartite_order(adjacency, back, order);
        let colors = partial_distance2_coloring(adjacency, back, &vertices);
        (max_color(&colors), colors)
    })?;
    Ok(match side {
        Side::Columns => Solved {
            order,
            plan: result::build_column_plan(pattern, &colors),
            column_colors: Some(colors),
            row_colors: None,
        },
        Side::Rows => Solved {
            order,
            plan: result::build_row_plan(pattern, &colors),
            column_colors: None,
            row_colors: Some(colors),
        },
    })
}

/// Star or acyclic coloring of `graph` in one order, post-processed if asked; `forced` marks
/// vertices whose color decompression always reads (those with a diagonal entry).
enum Symmetric {
    Star(Vec<usize>, StarSet),
    Tree(Vec<usize>, TreeSet),
}

impl Symmetric {
    fn run(
        graph: &AdjacencyGraph,
        vertices: &[usize],
        substitution: bool,
        post: bool,
        forced: &[bool],
    ) -> Self {
        if substitution {
            let (mut colors, mut trees) = acyclic_coloring(graph, vertices);
            if post {
                let used = diagonal_colors(&colors, forced);
                postprocess_tree(&mut colors, &mut trees, used);
            }
            Self::Tree(colors, trees)
        } else {
            let (mut colors, mut stars) = star_coloring(graph, vertices);
            if post {
                let used = diagonal_colors(&colors, forced);
                postprocess_star(graph, &mut colors, &mut stars, used);
            }
            Self::Star(colors, stars)
        }
    }

    fn colors(&self) -> &[usize] {
        match self {
            Self::Star(colors, _) | Self::Tree(colors, _) => colors,
        }
    }

    /// The number of stars or two-colored trees.
    fn nsets(&self) -> usize {
        match self {
            Self::Star(_, stars) => stars.hub.len(),
            Self::Tree(_, trees) => trees.ntrees(),
        }
    }
}

fn diagonal_of(pattern: &SparsityPattern) -> Vec<bool> {
    (0..pattern.ncols())
        .map(|j| pattern.contains(j, j))
        .collect()
}

/// Fails unless `vertices` lists each of `0..n` exactly once.
fn check_permutation(vertices: &[usize], n: usize) -> Result<(), ColoringError> {
    let mut seen = vec![false; n];
    for &v in vertices {
        match seen.get_mut(v) {
            Some(s) if !*s => *s = true,
            _ => return Err(ColoringError::NotAPermutation { n }),
        }
    }
    if vertices.len() == n {
        Ok(())
    } else {
        Err(ColoringError::NotAPermutation { n })
    }
}

/// The colors (`1..`) of greedy partial distance-2 coloring of one side of `graph`, visiting
/// `vertices` (0-based, a permutation of the side) in turn: one run of what column and row
/// coloring do for each of their orders (SparseMatrixColorings' `partial_distance2_coloring`).
pub fn partial_distance2_colors(
    graph: &BipartiteGraph,
    side: Side,
    vertices: &[usize],
) -> Result<Vec<usize>, ColoringError> {
    let (adjacency, back) = graph.sides(side);
    check_permutation(vertices, adjacency.len())?;
    Ok(partial_distance2_coloring(adjacency, back, vertices))
}

/// The colors of star coloring (acyclic coloring with `substitution`) of the structurally
/// symmetric `pattern`, visiting `vertices` (0-based, a permutation) in turn, post-processed if
/// asked (neutral color 0 for vertices decompression never reads), with the number of stars
/// (two-colored trees) found: one run of what symmetric coloring does for each of its orders
/// (SparseMatrixColorings' `star_coloring` and `acyclic_coloring`).
pub fn symmetric_colors(
    pattern: &SparsityPattern,
    vertices: &[usize],
    substitution: bool,
    postprocessing: bool,
) -> Result<(Vec<usize>, usize), ColoringError> {
    let graph = AdjacencyGraph::symmetric(pattern)?;
    check_permutation(vertices, graph.nvertices())?;
    let solution = Symmetric::run(
        &graph,
        vertices,
        substitution,
        postprocessing,
        &diagonal_of(pattern),
    );
    let nsets = solution.nsets();
    let colors = match solution {
        Symmetric::Star(colors, _) | Symmetric::Tree(colors, _) => colors,
    };
    Ok((colors, nsets))
}

fn color_symmetric(
    pattern: &SparsityPattern,
    orders: &[Order],
    substitution: bool,
    post: bool,
) -> Result<Solved, ColoringError> {
    let graph = AdjacencyGraph::symmetric(pattern)?;
    let has_diagonal = diagonal_of(pattern);
    let (order, solution) = best(orders, |order| {
        let vertices = adjacency_order(&graph, order);
        let solution = Symmetric::run(&graph, &vertices, substitution, post, &has_diagonal);
        (max_color(solution.colors()), solution)
    })?;
    let (colors, plan) = match solution {
        Symmetric::Star(colors, stars) => {
            let plan = result::build_star_plan(pattern, &graph, &colors, &stars);
            (colors, plan)
        }
        Symmetric::Tree(colors, trees) => {
            let plan = result::build_tree_plan(pattern, &graph, &colors, &trees);
            (colors, plan)
        }
    };
    Ok(Solved {
        order,
        column_colors: Some(colors),
        row_colors: None,
        plan,
    })
}

/// Splits the colors of the block graph into column colors (vertices `0..n`) and row colors
/// (vertices `n..`), each renumbered `1..` in order of first appearance; 0 stays neutral.
fn split_colors(colors: &[usize], n: usize) -> (Vec<usize>, Vec<usize>) {
    let renumber = |part: &[usize]| {
        let mut map = vec![0; max_color(colors) + 1];
        let mut next = 0;
        part.iter()
            .map(|&c| {
                if c > 0 && map[c] == 0 {
                    next += 1;
                    map[c] = next;
                }
                map[c]
            })
            .collect::<Vec<_>>()
    };
    (renumber(&colors[n..]), renumber(&colors[..n]))
}

fn color_bidirectional(
    pattern: &SparsityPattern,
    orders: &[Order],
    substitution: bool,
    post: bool,
) -> Result<Solved, ColoringError> {
    let n = pattern.ncols();
    let graph = AdjacencyGraph::bipartite_block(pattern);
    // The block matrix has an empty diagonal, so no color is forced.
    let no_diagonal = vec![false; graph.nvertices()];
    let (order, (solution, row_colors, column_colors)) = best(orders, |order| {
        let vertices = adjacency_order(&graph, order);
        let solution = Symmetric::run(&graph, &vertices, substitution, post, &no_diagonal);
        let (rows, columns) = split_colors(solution.colors(), n);
        (
            max_color(&rows) + max_color(&columns),
            (solution, rows, columns),
        )
    })?;
    let plan = match &solution {
        Symmetric::Star(_, stars) => {
            result::build_bicoloring_star_plan(pattern, stars, &row_colors, &column_colors)
        }
        Symmetric::Tree(_, trees) => {
            result::build_bicoloring_tree_plan(pattern, trees, &row_colors, &column_colors)
        }
    };
    Ok(Solved {
        order,
        column_colors: Some(column_colors),
        row_colors: Some(row_colors),
        plan,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(n: usize) -> SparsityPattern {
        let entries: Vec<(usize, usize)> = (0..n)
            .flat_map(|j| (j.saturating_sub(1)..(j + 2).min(n)).map(move |i| (i, j)))
            .collect();
        SparsityPattern::from_entries(n, n, &entries).expect("a valid pattern")
    }

    #[test]
    fn one_run_in_a_given_order_is_a_run_of_coloring() {
        let pattern = path(6);
        let natural: Vec<usize> = (0..6).collect();
        let (star, nstars) = symmetric_colors(&pattern, &natural, false, false).unwrap();
        let result = coloring(
            &pattern,
            ColoringProblem::new(Structure::Symmetric, Partition::Column).unwrap(),
            &GreedyColoringAlgorithm::new(Order::Natural),
        )
        .unwrap();
        assert_eq!(Some(&star[..]), result.column_colors());
        assert!(nstars > 0);
        let graph = BipartiteGraph::new(&pattern);
        let columns = partial_distance2_colors(&graph, Side::Columns, &natural).unwrap();
        assert_eq!(columns, [1, 2, 3, 1, 2, 3]);
    }

    #[test]
    fn orders_that_are_not_permutations_are_refused() {
        let pattern = path(3);
        let graph = BipartiteGraph::new(&pattern);
        for order in [&[0, 1][..], &[0, 1, 1], &[0, 1, 3], &[0, 1, 2, 0]] {
            assert_eq!(
                partial_distance2_colors(&graph, Side::Rows, order),
                Err(ColoringError::NotAPermutation { n: 3 })
            );
            assert!(symmetric_colors(&pattern, order, true, true).is_err());
        }
    }
}
