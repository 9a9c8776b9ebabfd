//! Union–find over edge indices, used by acyclic coloring to track two-colored trees.
//!
//! Union by rank with path compression; `ntrees` counts the disjoint sets. See
//! [`crate::acyclic`] for how the trees are grown and merged. Public as SparseMatrixColorings'
//! `Forest` is, for users who study the algorithm.

/// Disjoint sets of `0..n` as a forest of parent links.
#[derive(Debug, Clone)]
pub struct Forest {
    parent: Vec<usize>,
    rank: Vec<u8>,
    ntrees: usize,
}

impl Forest {
    /// `n` singleton trees, one per edge.
    pub fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
            rank: vec![0; n],
            ntrees: n,
        }
    }

    /// The number of trees (disjoint sets).
    pub fn ntrees(&self) -> usize {
        self.ntrees
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The parent of each element (a root is its own parent).
    pub fn parents(&self) -> &[usize] {
        &self.parent
    }

    /// The rank of each element (an upper bound on the height of its subtree).
    pub fn ranks(&self) -> &[u8] {
        &self.rank
    }

    /// The root of the tree containing `e` (`e < len()`), compressing the path on the way.
    pub fn find(&mut self, e: usize) -> usize {
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

    /// Merges the trees of roots `a` and `b`: the root of higher rank (`a` on a tie) becomes
    /// the parent of the other. Returns false, changing nothing, unless `a` and `b` are two
    /// different roots.
    pub fn union_roots(&mut self, a: usize, b: usize) -> bool {
        let is_root = |x: usize| self.parent.get(x) == Some(&x);
        if a == b || !is_root(a) || !is_root(b) {
            return false;
        }
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
        true
    }

    /// Merges the trees containing `a` and `b`, if they differ.
    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.union_roots(ra, rb);
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

    #[test]
    fn union_of_non_roots_changes_nothing() {
        let mut f = Forest::new(4);
        assert!(f.union_roots(2, 3));
        assert_eq!(
            (f.parents(), f.ranks(), f.ntrees()),
            (&[0, 1, 2, 2][..], &[0, 0, 1, 0][..], 3)
        );
        // 3 is no longer a root, 1 == 1, 9 is out of range.
        assert!(!f.union_roots(1, 3));
        assert!(!f.union_roots(1, 1));
        assert!(!f.union_roots(1, 9));
        assert_eq!(f.ntrees(), 3);
    }
}
