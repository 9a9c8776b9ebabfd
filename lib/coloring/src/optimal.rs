//! Minimum partial distance-2 coloring of one side of a bipartite graph (an optimal column or
//! row coloring), by branch and bound over DSATUR: vertices are colored in order of saturation
//! (the number of colors among their distance-2 neighbors, ties to the larger degree), each
//! trying the colors in use and one new color while that stays below the best coloring found.
//! The first bound is the greedy coloring in natural order; a greedy clique bounds from below,
//! so the search stops as soon as it reaches the clique size. SparseMatrixColorings'
//! `OptimalColoringAlgorithm` solves the same problem with a mathematical-programming solver.
//!
//! The problem is NP-hard: `keep_going` is asked every few thousand search nodes and, when it
//! answers `false`, the search stops with the best coloring found, not proven minimal.

use crate::graph::{BipartiteGraph, Side};

/// A coloring found by [`optimal_distance2_colors`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptimalColors {
    /// One color (`1..`) per vertex of the side.
    pub colors: Vec<usize>,
    /// Whether the search finished, so no coloring uses fewer colors.
    pub proven: bool,
}

/// Search nodes between two calls of `keep_going`.
const NODES_PER_CHECK: usize = 4096;

/// The distance-2 neighbors of every vertex of `side` (sorted, without the vertex itself).
fn conflicts(graph: &BipartiteGraph, side: Side) -> Vec<Vec<usize>> {
    (0..graph.nvertices(side))
        .map(|v| graph.distance2_neighbors(side, v))
        .collect()
}

/// A clique of the conflict graph, grown greedily from the vertices of largest degree.
fn greedy_clique(near: &[Vec<usize>]) -> usize {
    let mut by_degree: Vec<usize> = (0..near.len()).collect();
    by_degree.sort_by_key(|&v| std::cmp::Reverse(near[v].len()));
    let mut clique: Vec<usize> = Vec::new();
    for v in by_degree {
        if clique.iter().all(|&u| near[v].binary_search(&u).is_ok()) {
            clique.push(v);
        }
    }
    clique.len()
}

/// The partial coloring of the search, with each vertex's count of neighbors per color.
struct Search<'a> {
    near: &'a [Vec<usize>],
    colors: Vec<usize>,
    /// `seen[v * (limit + 1) + c]`: neighbors of `v` colored `c`.
    seen: Vec<u32>,
    /// Distinct colors among the neighbors of each vertex.
    saturation: Vec<usize>,
    limit: usize,
}

impl Search<'_> {
    fn seen(&mut self, v: usize, c: usize) -> &mut u32 {
        &mut self.seen[v * (self.limit + 1) + c]
    }

    fn assign(&mut self, v: usize, c: usize) {
        self.colors[v] = c;
        for k in 0..self.near[v].len() {
            let u = self.near[v][k];
            let count = self.seen(u, c);
            *count += 1;
            if *count == 1 {
                self.saturation[u] += 1;
            }
        }
    }

    fn unassign(&mut self, v: usize) {
        let c = std::mem::take(&mut self.colors[v]);
        for k in 0..self.near[v].len() {
            let u = self.near[v][k];
            let count = self.seen(u, c);
            *count -= 1;
            if *count == 0 {
                self.saturation[u] -= 1;
            }
        }
    }

    /// The uncolored vertex of largest saturation, ties to the larger degree.
    fn next_vertex(&self) -> Option<usize> {
        (0..self.colors.len())
            .filter(|&v| self.colors[v] == 0)
            .max_by_key(|&v| (self.saturation[v], self.near[v].len(), std::cmp::Reverse(v)))
    }

    /// The smallest color above `after` and at most `up_to` that no neighbor of `v` has.
    fn free_color(&mut self, v: usize, after: usize, up_to: usize) -> Option<usize> {
        (after + 1..=up_to).find(|&c| *self.seen(v, c) == 0)
    }
}

/// One level of the search: the vertex colored there and the number of colors in use before.
struct Level {
    vertex: usize,
    used_before: usize,
}

/// A minimum coloring of the vertices of `side` such that two vertices sharing a neighbor
/// differ, or the best one found before `keep_going` said stop.
pub fn optimal_distance2_colors(
    graph: &BipartiteGraph,
    side: Side,
    keep_going: &mut dyn FnMut() -> bool,
) -> OptimalColors {
    let near = conflicts(graph, side);
    let n = near.len();
    let lower = greedy_clique(&near);
    let (adjacency, back) = graph.sides(side);
    let natural: Vec<usize> = (0..n).collect();
    let mut best = crate::distance2::partial_distance2_coloring(adjacency, back, &natural);
    let mut best_count = best.iter().copied().max().unwrap_or(0);
    if best_count <= lower {
        return OptimalColors {
            colors: best,
            proven: true,
        };
    }
    // The search only looks for colorings with fewer colors than the incumbent.
    let mut search = Search {
        near: &near,
        colors: vec![0; n],
        seen: vec![0; n * best_count],
        saturation: vec![0; n],
        limit: best_count - 1,
    };
    let mut levels: Vec<Level> = Vec::new();
    let mut used = 0;
    let mut nodes = 0usize;
    let mut proven = true;
    // Descend from the current partial coloring; backtrack when no color fits.
    'search: loop {
        match search.next_vertex() {
            None => {
                if used < best_count {
                    best_count = used;
                    best.clone_from(&search.colors);
                    if best_count <= lower {
                        break 'search;
                    }
                }
            }
            Some(v) => {
                levels.push(Level {
                    vertex: v,
                    used_before: used,
                });
                if let Some(c) = search.free_color(v, 0, (used + 1).min(best_count - 1)) {
                    search.assign(v, c);
                    used = used.max(c);
                    continue 'search;
                }
            }
        }
        // Backtrack: give the deepest vertex its next color, or undo it and go up.
        loop {
            nodes += 1;
            if nodes.is_multiple_of(NODES_PER_CHECK) && !keep_going() {
                proven = false;
                break 'search;
            }
            let Some(level) = levels.last() else {
                break 'search;
            };
            let (v, before) = (level.vertex, level.used_before);
            let tried = search.colors[v];
            if tried > 0 {
                search.unassign(v);
            }
            let up_to = (before + 1).min(best_count.saturating_sub(1));
            if tried > 0 {
                if let Some(c) = search.free_color(v, tried, up_to) {
                    search.assign(v, c);
                    used = before.max(c);
                    continue 'search;
                }
            }
            levels.pop();
        }
    }
    OptimalColors {
        colors: best,
        proven,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SparsityPattern;

    fn colors_of(rows: &[&[usize]], ncols: usize) -> OptimalColors {
        let entries: Vec<(usize, usize)> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, cols)| cols.iter().map(move |&j| (i, j)))
            .collect();
        let pattern = SparsityPattern::from_entries(rows.len(), ncols, &entries).unwrap();
        optimal_distance2_colors(&BipartiteGraph::new(&pattern), Side::Columns, &mut || true)
    }

    fn count(colors: &[usize]) -> usize {
        colors.iter().copied().max().unwrap_or(0)
    }

    #[test]
    fn an_odd_cycle_needs_three_colors() {
        // Columns 0..5 in a 5-cycle: row k holds columns k and k+1.
        let rows: Vec<Vec<usize>> = (0..5).map(|k| vec![k, (k + 1) % 5]).collect();
        let rows: Vec<&[usize]> = rows.iter().map(Vec::as_slice).collect();
        let found = colors_of(&rows, 5);
        assert!(found.proven);
        assert_eq!(count(&found.colors), 3);
        for k in 0..5 {
            assert_ne!(found.colors[k], found.colors[(k + 1) % 5]);
        }
    }

    #[test]
    fn beats_a_bad_greedy_order() {
        // A crown graph (K_{4,4} minus a matching) as column conflicts, its sides interleaved
        // (a_i is column 2i, b_j column 2j + 1): bipartite, so two colors, where greedy in
        // natural order uses four.
        let mut rows: Vec<Vec<usize>> = Vec::new();
        for a in 0..4 {
            for b in 0..4 {
                if a != b {
                    rows.push(vec![2 * a, 2 * b + 1]);
                }
            }
        }
        let rows: Vec<&[usize]> = rows.iter().map(Vec::as_slice).collect();
        let found = colors_of(&rows, 8);
        let entries: Vec<(usize, usize)> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, cols)| cols.iter().map(move |&j| (i, j)))
            .collect();
        let pattern = SparsityPattern::from_entries(rows.len(), 8, &entries).unwrap();
        let graph = BipartiteGraph::new(&pattern);
        let natural: Vec<usize> = (0..8).collect();
        let greedy = crate::partial_distance2_colors(&graph, Side::Columns, &natural).unwrap();
        assert_eq!(count(&greedy), 4);
        assert!(found.proven);
        assert_eq!(count(&found.colors), 2);
    }

    #[test]
    fn a_stopped_search_still_colors_everything() {
        let rows: Vec<Vec<usize>> = (0..30)
            .map(|k| vec![k, (k + 7) % 30, (k + 11) % 30])
            .collect();
        let entries: Vec<(usize, usize)> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, cols)| cols.iter().map(move |&j| (i, j)))
            .collect();
        let pattern = SparsityPattern::from_entries(30, 30, &entries).unwrap();
        let found =
            optimal_distance2_colors(&BipartiteGraph::new(&pattern), Side::Columns, &mut || false);
        assert!(found.colors.iter().all(|&c| c > 0));
        crate::structurally_orthogonal_columns(&pattern, &found.colors).unwrap();
    }
}
