//! Union–find over edge indices, used by acyclic coloring to track two-colored trees.
//!
//! Union by rank with path compression; `ntrees` counts the disjoint sets. See
//! [`crate::acyclic`] for how the trees are grown and merged.

#[derive(Debug, Clone)]
pub(crate) struct Forest {
    parent: Vec<usize>,
    rank: Vec<u8>,
    ntrees: usize,
}

impl Forest {
    /// `n` singleton trees, one per edge.
    pub(crate) fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
            rank: vec![0; n],
            ntrees: n,
        }
    }

    pub(crate) fn ntrees(&self) -> usize {
        self.ntrees
    }

    /// The root of the tree containing `e`, compressing the path on the way.
    pub(crate) fn find(&mut self, e: usize) -> usize {
        let mut root = e;
        while self.parent[root] != root {
            root = self.parent[root];
        }
        let mut x = e;
        while self.parent[x] != root {
            let next = self.parent[x];
            self.parent[x] = root;
            x = next;
        }
        root
    }

    /// Merges the trees of roots `a` and `b` (which must differ).
    pub(crate) fn union_roots(&mut self, a: usize, b: usize) {
        debug_assert!(a != b && self.parent[a] == a && self.parent[b] == b);
        let (high, low) = if self.rank[a] < self.rank[b] {
            (b, a)
        } else {
            (a, b)
        };
        if self.rank[high] == self.rank[low] {
            self.rank[high] = self.rank[high].saturating_add(1);
        }
        self.parent[low] = high;
        self.ntrees -= 1;
    }

    /// Merges the trees containing `a` and `b`, if they differ.
    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.union_roots(ra, rb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Forest;

    #[test]
    fn unions_count_trees() {
        let mut f = Forest::new(6);
        f.union(0, 1);
        f.union(2, 3);
        f.union(1, 3);
        f.union(0, 2);
        assert_eq!(f.ntrees(), 3);
        assert_eq!(f.find(3), f.find(0));
        assert_ne!(f.find(4), f.find(5));
    }
}
