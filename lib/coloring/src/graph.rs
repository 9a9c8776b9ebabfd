//! The graphs the coloring algorithms walk, built from a [`SparsityPattern`].
//!
//! - [`BipartiteGraph`]: rows and columns as two vertex sets, an edge per stored entry
//!   (partial distance-2 coloring of a Jacobian).
//! - [`AdjacencyGraph`]: one vertex per row/column of a square matrix, an undirected edge per
//!   off-diagonal pair `{i, j}`, each edge with an index shared by both directions (star and
//!   acyclic coloring). It is built either from a symmetric pattern or as the graph of the
//!   block matrix `[0 Aᵀ; A 0]` (bicoloring), where the columns of `A` are vertices `0..n`
//!   and its rows are vertices `n..n + m`.
//!
//! - [`PatternGraph`]: SparseMatrixColorings' `AdjacencyGraph` as users inspect it: the
//!   columns of a square pattern as neighbor lists, the diagonal kept in the lists but not
//!   counted in degrees when `has_diagonal` says it is there.
//!
//! Neighbor lists are sorted, which is also the order ColPack uses on sorted input; the dynamic
//! vertex orders in [`crate::order`] depend on it to reproduce ColPack exactly.

use crate::error::ColoringError;
use crate::order::{bipartite_order, distance2_degrees, valid_dynamic_order, DynamicOrder, Order};
use crate::pattern::SparsityPattern;

/// Compressed adjacency lists: the neighbors of vertex `v` are
/// `targets[offsets[v]..offsets[v + 1]]`.
#[derive(Debug, Clone)]
pub(crate) struct Adjacency {
    offsets: Vec<usize>,
    targets: Vec<usize>,
}

impl Adjacency {
    pub(crate) fn from_pattern(pattern: &SparsityPattern) -> Self {
        Self {
            offsets: pattern.colptr().to_vec(),
            targets: pattern.rowval().to_vec(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub(crate) fn neighbors(&self, v: usize) -> &[usize] {
        &self.targets[self.offsets[v]..self.offsets[v + 1]]
    }

    pub(crate) fn degree(&self, v: usize) -> usize {
        self.offsets[v + 1] - self.offsets[v]
    }
}

/// Which vertex set of a bipartite graph is meant (SparseMatrixColorings' `Val(1)` for rows,
/// `Val(2)` for columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The rows (`Val(1)`).
    Rows,
    /// The columns (`Val(2)`).
    Columns,
}

/// The bipartite graph of an `m × n` pattern: column `j` is adjacent to row `i` when `(i, j)`
/// is stored.
#[derive(Debug, Clone)]
pub struct BipartiteGraph {
    /// Column → rows.
    by_column: Adjacency,
    /// Row → columns.
    by_row: Adjacency,
}

impl BipartiteGraph {
    /// The bipartite graph of `pattern`.
    pub fn new(pattern: &SparsityPattern) -> Self {
        Self {
            by_column: Adjacency::from_pattern(pattern),
            by_row: Adjacency::from_pattern(&pattern.transpose()),
        }
    }

    /// `(vertex → middle vertices, middle vertex → vertices)` for coloring `side`: two
    /// vertices of `side` are distance-2 neighbors when they share a middle vertex.
    pub(crate) fn sides(&self, side: Side) -> (&Adjacency, &Adjacency) {
        match side {
            Side::Columns => (&self.by_column, &self.by_row),
            Side::Rows => (&self.by_row, &self.by_column),
        }
    }

    /// The number of vertices on `side`.
    pub fn nvertices(&self, side: Side) -> usize {
        self.sides(side).0.len()
    }

    /// The number of edges (stored entries).
    pub fn nedges(&self) -> usize {
        self.by_column.targets.len()
    }

    /// The vertices of the other side adjacent to vertex `v` of `side`, in increasing order.
    pub fn neighbors(&self, side: Side, v: usize) -> &[usize] {
        self.sides(side).0.neighbors(v)
    }

    /// The distinct vertices of `side` sharing a neighbor with `v` (`v` excluded), sorted.
    pub(crate) fn distance2_neighbors(&self, side: Side, v: usize) -> Vec<usize> {
        let (adjacency, back) = self.sides(side);
        let mut seen: Vec<usize> = adjacency
            .neighbors(v)
            .iter()
            .flat_map(|&w| back.neighbors(w).iter().copied())
            .filter(|&x| x != v)
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    }

    /// The number of distinct vertices of `side` sharing a neighbor with `v` (`v` excluded).
    pub fn degree_dist2(&self, side: Side, v: usize) -> usize {
        self.distance2_neighbors(side, v).len()
    }

    /// The static distance-2 degrees of every vertex of `side`.
    pub fn distance2_degrees(&self, side: Side) -> Vec<usize> {
        let (adjacency, back) = self.sides(side);
        distance2_degrees(adjacency, back)
    }

    /// The vertices of `side` in `order` (0-based).
    pub fn vertices(&self, side: Side, order: Order) -> Vec<usize> {
        let (adjacency, back) = self.sides(side);
        bipartite_order(adjacency, back, order)
    }

    /// Whether `pi` is an order of the vertices of `side` that `spec` may give (see
    /// [`valid_dynamic_order`]), on the distance-2 graph of that side.
    pub fn valid_dynamic_order(&self, side: Side, pi: &[usize], spec: DynamicOrder) -> bool {
        let (adjacency, back) = self.sides(side);
        valid_dynamic_order(adjacency.len(), pi, spec, |v| {
            adjacency
                .neighbors(v)
                .iter()
                .flat_map(|&w| back.neighbors(w).iter().copied())
                .collect()
        })
    }
}

/// The graph of a square pattern whose neighbor lists are its columns (SparseMatrixColorings'
/// `AdjacencyGraph(A; has_diagonal)`): with `has_diagonal`, a stored diagonal entry stays in
/// its column's list but is not counted in the degree.
#[derive(Debug, Clone)]
pub struct PatternGraph {
    lists: Adjacency,
    has_diagonal: bool,
    /// A stored entry whose mirror is not stored, if any.
    asymmetry: Option<(usize, usize)>,
}

impl PatternGraph {
    /// The graph of square `pattern`; [`ColoringError::NotSquare`] otherwise.
    pub fn new(pattern: &SparsityPattern, has_diagonal: bool) -> Result<Self, ColoringError> {
        let (nrows, ncols) = pattern.shape();
        if nrows != ncols {
            return Err(ColoringError::NotSquare { nrows, ncols });
        }
        Ok(Self {
            lists: Adjacency::from_pattern(pattern),
            has_diagonal,
            asymmetry: pattern.first_asymmetry(),
        })
    }

    /// The number of vertices (columns).
    pub fn nvertices(&self) -> usize {
        self.lists.len()
    }

    /// The number of edges: stored entries off the diagonal (all of them without
    /// `has_diagonal`), each pair `{i, j}` once.
    pub fn nedges(&self) -> usize {
        let loops = (0..self.nvertices())
            .filter(|&v| self.has_diagonal && self.lists.neighbors(v).contains(&v))
            .count();
        (self.lists.targets.len() - loops) / 2
    }

    /// Column `v` of the pattern (with `v` itself when its diagonal entry is stored).
    pub fn neighbors(&self, v: usize) -> &[usize] {
        self.lists.neighbors(v)
    }

    /// The number of neighbors of `v`, itself excluded when `has_diagonal`.
    pub fn degree(&self, v: usize) -> usize {
        let loops = self.has_diagonal && self.lists.neighbors(v).binary_search(&v).is_ok();
        self.lists.degree(v) - usize::from(loops)
    }

    /// The vertices in `order` (0-based). Degree-based dynamic orders and the perfect
    /// elimination order need a symmetric pattern (their degree updates count each edge from
    /// both ends).
    pub fn vertices(&self, order: Order) -> Result<Vec<usize>, ColoringError> {
        if let (Order::Dynamic(_) | Order::PerfectElimination, Some((row, col))) =
            (order, self.asymmetry)
        {
            return Err(ColoringError::NotSymmetric { row, col });
        }
        Ok(crate::order::adjacency_order(self, order))
    }

    /// Whether `pi` is an order of the vertices that `spec` may give (see
    /// [`valid_dynamic_order`]); never for a pattern that is not symmetric.
    pub fn valid_dynamic_order(&self, pi: &[usize], spec: DynamicOrder) -> bool {
        self.asymmetry.is_none()
            && valid_dynamic_order(self.nvertices(), pi, spec, |v| self.neighbors(v).to_vec())
    }
}

/// An undirected graph without self-loops whose edges carry indices `0..nedges`.
#[derive(Debug, Clone)]
pub(crate) struct AdjacencyGraph {
    offsets: Vec<usize>,
    neighbors: Vec<usize>,
    /// Edge index of each slot of `neighbors`; both directions of an edge share it.
    edges: Vec<usize>,
    nedges: usize,
}

impl AdjacencyGraph {
    /// The adjacency graph of a square, structurally symmetric pattern; the diagonal is
    /// ignored. Edge `{i, j}` is numbered by the position of its lower entry in column-major
    /// order of the strict lower triangle.
    pub(crate) fn symmetric(pattern: &SparsityPattern) -> Result<Self, ColoringError> {
        let (nrows, ncols) = pattern.shape();
        if nrows != ncols {
            return Err(ColoringError::NotSquare { nrows, ncols });
        }
        if let Some((row, col)) = pattern.first_asymmetry() {
            return Err(ColoringError::NotSymmetric { row, col });
        }
        let n = ncols;
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        let mut neighbors = Vec::with_capacity(pattern.nnz());
        for j in 0..n {
            neighbors.extend(pattern.column(j).iter().copied().filter(|&i| i != j));
            offsets.push(neighbors.len());
        }
        // Column j lists its smaller neighbors first, in increasing order, and those are
        // exactly the vertices that reach j while the outer loop below runs over j' < j; so
        // the k-th lower edge arriving at j goes into slot `offsets[j] + k`.
        let mut edges = vec![usize::MAX; neighbors.len()];
        let mut lower_seen = vec![0; n];
        let mut nedges = 0;
        for j in 0..n {
            for slot in offsets[j]..offsets[j + 1] {
                let i = neighbors[slot];
                if i > j {
                    edges[slot] = nedges;
                    edges[offsets[i] + lower_seen[i]] = nedges;
                    lower_seen[i] += 1;
                    nedges += 1;
                }
            }
        }
        Ok(Self {
            offsets,
            neighbors,
            edges,
            nedges,
        })
    }

    /// The adjacency graph of `[0 Aᵀ; A 0]` for an `m × n` pattern `A`: columns are vertices
    /// `0..n`, rows are vertices `n..n + m`, and the edge of entry `(i, j)` has the index of
    /// that entry's CSC position in `A`.
    pub(crate) fn bipartite_block(pattern: &SparsityPattern) -> Self {
        let (m, n) = pattern.shape();
        let nnz = pattern.nnz();
        let mut offsets = Vec::with_capacity(n + m + 1);
        let mut neighbors = Vec::with_capacity(2 * nnz);
        let mut edges = Vec::with_capacity(2 * nnz);
        offsets.push(0);
        for j in 0..n {
            let start = pattern.colptr()[j];
            for (k, &i) in pattern.column(j).iter().enumerate() {
                neighbors.push(n + i);
                edges.push(start + k);
            }
            offsets.push(neighbors.len());
        }
        // Row lists, filled by visiting columns in increasing order so they come out sorted.
        let mut row_count = vec![0; m + 1];
        for &i in pattern.rowval() {
            row_count[i + 1] += 1;
        }
        for i in 0..m {
            row_count[i + 1] += row_count[i];
        }
        let base = neighbors.len();
        neighbors.resize(base + nnz, 0);
        edges.resize(base + nnz, 0);
        let mut next: Vec<usize> = row_count[..m].iter().map(|&c| base + c).collect();
        for j in 0..n {
            let start = pattern.colptr()[j];
            for (k, &i) in pattern.column(j).iter().enumerate() {
                neighbors[next[i]] = j;
                edges[next[i]] = start + k;
                next[i] += 1;
            }
        }
        offsets.extend(row_count[1..].iter().map(|&c| base + c));
        Self {
            offsets,
            neighbors,
            edges,
            nedges: nnz,
        }
    }

    /// For a graph built by [`AdjacencyGraph::symmetric`] from `pattern`: the edge index of
    /// every stored entry in CSC order, `None` on the diagonal.
    pub(crate) fn symmetric_entry_edges(&self, pattern: &SparsityPattern) -> Vec<Option<usize>> {
        let mut entry_edges = Vec::with_capacity(pattern.nnz());
        for j in 0..pattern.ncols() {
            // The neighbors of j are column j without its diagonal entry, in the same order.
            let mut slot = self.offsets[j];
            for &i in pattern.column(j) {
                if i == j {
                    entry_edges.push(None);
                } else {
                    entry_edges.push(Some(self.edges[slot]));
                    slot += 1;
                }
            }
        }
        entry_edges
    }

    pub(crate) fn nvertices(&self) -> usize {
        self.offsets.len() - 1
    }

    pub(crate) fn nedges(&self) -> usize {
        self.nedges
    }

    pub(crate) fn degree(&self, v: usize) -> usize {
        self.offsets[v + 1] - self.offsets[v]
    }

    pub(crate) fn neighbors(&self, v: usize) -> &[usize] {
        &self.neighbors[self.offsets[v]..self.offsets[v + 1]]
    }

    /// `(neighbor, edge index)` pairs of `v`.
    pub(crate) fn neighbors_with_edges(
        &self,
        v: usize,
    ) -> impl Iterator<Item = (usize, usize)> + '_ {
        let range = self.offsets[v]..self.offsets[v + 1];
        self.neighbors[range.clone()]
            .iter()
            .copied()
            .zip(self.edges[range].iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_edges_are_shared() {
        let s = SparsityPattern::from_entries(
            3,
            3,
            &[
                (0, 0),
                (1, 0),
                (0, 1),
                (2, 0),
                (0, 2),
                (2, 1),
                (1, 2),
                (2, 2),
            ],
        )
        .unwrap();
        let g = AdjacencyGraph::symmetric(&s).unwrap();
        assert_eq!(g.nedges(), 3);
        assert_eq!(g.neighbors(0), &[1, 2]);
        for v in 0..3 {
            for (w, e) in g.neighbors_with_edges(v) {
                let back: Vec<_> = g.neighbors_with_edges(w).filter(|&(x, _)| x == v).collect();
                assert_eq!(back, vec![(v, e)]);
            }
        }
    }

    #[test]
    fn block_graph_of_rectangular_pattern() {
        let a = SparsityPattern::from_entries(2, 3, &[(0, 0), (1, 0), (1, 2)]).unwrap();
        let g = AdjacencyGraph::bipartite_block(&a);
        assert_eq!(g.nvertices(), 5);
        assert_eq!(g.neighbors(0), &[3, 4]);
        assert_eq!(g.neighbors(1), &[] as &[usize]);
        assert_eq!(g.neighbors(4), &[0, 2]);
        let row1: Vec<_> = g.neighbors_with_edges(4).collect();
        assert_eq!(row1, vec![(0, 1), (2, 2)]);
    }
}
