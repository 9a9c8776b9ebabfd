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
//! Neighbor lists are sorted, which is also the order ColPack uses on sorted input; the dynamic
//! vertex orders in [`crate::order`] depend on it to reproduce ColPack exactly.

use crate::error::ColoringError;
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

/// Which vertex set of a bipartite graph is being colored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Rows,
    Columns,
}

/// The bipartite graph of an `m × n` pattern: column `j` is adjacent to row `i` when `(i, j)`
/// is stored.
#[derive(Debug, Clone)]
pub(crate) struct BipartiteGraph {
    /// Column → rows.
    by_column: Adjacency,
    /// Row → columns.
    by_row: Adjacency,
}

impl BipartiteGraph {
    pub(crate) fn new(pattern: &SparsityPattern) -> Self {
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
