//! Partial distance-2 coloring of one side of a bipartite graph (column or row coloring of a
//! Jacobian): two columns sharing a row get different colors.
//!
//! Greedy first-fit in a given vertex order ("What Color Is Your Jacobian?", Gebremedhin,
//! Manne and Pothen 2005, Algorithm 3.2). Colors are `1..=ncolors`. Dense middle vertices
//! (a row touching thousands of columns) would make the textbook loop quadratic, so they are
//! handled through the list of colors already present in them; the colors produced are the same.

use crate::graph::Adjacency;

/// Middle vertices with more neighbors than this keep a list of their colors instead of being
/// scanned for every vertex that touches them.
const DENSE_THRESHOLD: usize = 256;

/// Colors the vertices of `adjacency` in `order`; two vertices that share a middle vertex (a
/// neighbor in `back`) never share a color. Returns 1-based colors.
pub(crate) fn partial_distance2_coloring(
    adjacency: &Adjacency,
    back: &Adjacency,
    order: &[usize],
) -> Vec<usize> {
    let n = adjacency.len();
    let mut color = vec![0; n];
    // forbidden[c] == v means color c is taken by a distance-2 neighbor of v.
    let mut forbidden = vec![usize::MAX; n + 2];
    let mut dense: Vec<Option<DenseMiddle>> = (0..back.len())
        .map(|w| (back.degree(w) > DENSE_THRESHOLD).then(DenseMiddle::default))
        .collect();

    for &v in order {
        // Every color below a dense middle vertex's smallest missing color is taken, so the
        // search starts above the largest of those.
        let mut lowest = 1;
        for &w in adjacency.neighbors(v) {
            if let Some(d) = &dense[w] {
                lowest = lowest.max(d.smallest_missing);
            }
        }
        for &w in adjacency.neighbors(v) {
            match &dense[w] {
                Some(d) => {
                    for &c in d.colors_from(lowest) {
                        forbidden[c] = v;
                    }
                }
                None => {
                    for &x in back.neighbors(w) {
                        let cx = color[x];
                        if cx != 0 {
                            forbidden[cx] = v;
                        }
                    }
                }
            }
        }
        let mut c = lowest;
        while forbidden[c] == v {
            c += 1;
        }
        color[v] = c;
        for &w in adjacency.neighbors(v) {
            if let Some(d) = &mut dense[w] {
                d.insert(c);
            }
        }
    }
    color
}

/// The colors present among the neighbors of a dense middle vertex, which are pairwise
/// distinct since those neighbors are all distance-2 neighbors of each other: the smallest
/// missing color, and the colors above it in decreasing order (often none: greedy coloring
/// tends to fill a dense vertex's colors from 1 up).
#[derive(Debug)]
struct DenseMiddle {
    smallest_missing: usize,
    above: Vec<usize>,
}

impl Default for DenseMiddle {
    fn default() -> Self {
        Self {
            smallest_missing: 1,
            above: Vec::new(),
        }
    }
}

impl DenseMiddle {
    /// The colors at least `lowest` (which is at least `smallest_missing`).
    fn colors_from(&self, lowest: usize) -> &[usize] {
        &self.above[..self.above.partition_point(|&c| c >= lowest)]
    }

    /// Adds a color, which is not present and not below `smallest_missing`.
    fn insert(&mut self, c: usize) {
        if c == self.smallest_missing {
            self.smallest_missing += 1;
            while self.above.last() == Some(&self.smallest_missing) {
                self.above.pop();
                self.smallest_missing += 1;
            }
        } else {
            let at = self.above.partition_point(|&x| x > c);
            self.above.insert(at, c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{BipartiteGraph, Side};
    use crate::pattern::SparsityPattern;

    /// The textbook loop, scanning every middle vertex.
    fn reference(adjacency: &Adjacency, back: &Adjacency, order: &[usize]) -> Vec<usize> {
        let mut color = vec![0; adjacency.len()];
        for &v in order {
            let mut taken = vec![false; adjacency.len() + 2];
            for &w in adjacency.neighbors(v) {
                for &x in back.neighbors(w) {
                    taken[color[x]] = true;
                }
            }
            color[v] = (1..).find(|&c| !taken[c]).unwrap_or(1);
        }
        color
    }

    #[test]
    fn dense_rows_give_textbook_colors() {
        // An arrowhead with a second dense row, colored in a scrambled order.
        let n = 700;
        let mut entries = Vec::new();
        for i in 0..n {
            entries.extend([(0, i), (i, 0), (i, i), (3, (i * 7) % n)]);
            if i % 3 == 0 {
                entries.push((i, (i + 5) % n));
            }
        }
        let pattern = SparsityPattern::from_entries(n, n, &entries).unwrap();
        let graph = BipartiteGraph::new(&pattern);
        let order: Vec<usize> = (0..n).map(|i| (i * 337) % n).collect();
        for side in [Side::Columns, Side::Rows] {
            let (adjacency, back) = graph.sides(side);
            assert_eq!(
                partial_distance2_coloring(adjacency, back, &order),
                reference(adjacency, back, &order)
            );
        }
    }
}
