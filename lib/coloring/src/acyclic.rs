//! Acyclic coloring of an adjacency graph (symmetric decompression by substitution, acyclic
//! bicoloring).
//!
//! An acyclic coloring is a distance-1 coloring in which every cycle uses at least three
//! colors, so every two-colored subgraph is a forest. Algorithm 3.1 of Gebremedhin, Tarafdar,
//! Manne and Pothen (SIAM J. Sci. Comput., 2007) keeps those two-colored trees in a
//! union–find [`Forest`] over edges while coloring. Afterwards [`TreeSet`] lists each tree's
//! edges leaf-first: decompression walks them in that order, each entry being a compressed
//! value minus the entries already recovered below it (a triangular solve per tree).

use crate::forest::Forest;
use crate::graph::AdjacencyGraph;

/// Colors `graph` in `order` so that every two-colored subgraph is a forest. Returns 1-based
/// colors and the trees.
pub(crate) fn acyclic_coloring(graph: &AdjacencyGraph, order: &[usize]) -> (Vec<usize>, TreeSet) {
    let n = graph.nvertices();
    let ne = graph.nedges();
    let mut color = vec![0; n];
    let mut forbidden = vec![usize::MAX; n + 2];
    // first_neighbor[c] = (v, w, edge vw): while coloring v, w was its first neighbor of color c.
    let mut first_neighbor = vec![(usize::MAX, usize::MAX, usize::MAX); n + 2];
    // first_visit[root] = (v, w): tree `root` was first reached from v through its neighbor w.
    let mut first_visit = vec![(usize::MAX, usize::MAX); ne];
    let mut forest = Forest::new(ne);

    for &v in order {
        for &w in graph.neighbors(v) {
            if color[w] != 0 {
                forbidden[color[w]] = v;
            }
        }
        for &w in graph.neighbors(v) {
            if color[w] == 0 {
                continue;
            }
            for (x, wx) in graph.neighbors_with_edges(w) {
                let cx = color[x];
                if cx == 0 || forbidden[cx] == v {
                    continue;
                }
                // Reaching the same two-colored tree from v through two different neighbors
                // would close a two-colored cycle if v took color cx.
                let root = forest.find(wx);
                let (p, q) = first_visit[root];
                if p != v {
                    first_visit[root] = (v, w);
                } else if q != w {
                    forbidden[cx] = v;
                }
            }
        }
        let cv = (1..).find(|&c| forbidden[c] != v).unwrap_or(1);
        color[v] = cv;
        // Edges from v to neighbors of one color form a star centered at v: one tree.
        for (w, vw) in graph.neighbors_with_edges(v) {
            let cw = color[w];
            if cw == 0 {
                continue;
            }
            let (p, _, vq) = first_neighbor[cw];
            if p != v {
                first_neighbor[cw] = (v, w, vw);
            } else {
                forest.union(vw, vq);
            }
        }
        // An edge vw joins the tree of every edge wx with color[x] == color[v].
        for (w, vw) in graph.neighbors_with_edges(v) {
            if color[w] == 0 {
                continue;
            }
            for (x, wx) in graph.neighbors_with_edges(w) {
                if x != v && color[x] == cv {
                    forest.union(vw, wx);
                }
            }
        }
    }
    let trees = TreeSet::new(graph, &mut forest);
    (color, trees)
}

/// The two-colored trees of an acyclic coloring, each with its edges in leaf-first order.
#[derive(Debug, Clone)]
pub(crate) struct TreeSet {
    /// `(leaf, parent, edge)` triples; tree `t` owns `order[start[t]..start[t + 1]]`. Every
    /// leaf appears once per tree; the parent of the last edge is the tree's root.
    pub(crate) order: Vec<(usize, usize, usize)>,
    pub(crate) start: Vec<usize>,
    /// Whether the tree is a star (at most one vertex of degree above one).
    pub(crate) is_star: Vec<bool>,
}

impl TreeSet {
    pub(crate) fn ntrees(&self) -> usize {
        self.is_star.len()
    }

    pub(crate) fn edges(&self, tree: usize) -> &[(usize, usize, usize)] {
        &self.order[self.start[tree]..self.start[tree + 1]]
    }

    fn new(graph: &AdjacencyGraph, forest: &mut Forest) -> Self {
        let n = graph.nvertices();
        let ne = graph.nedges();
        let ntrees = forest.ntrees();
        let mut endpoints = vec![(0, 0); ne];
        for v in 0..n {
            for (w, e) in graph.neighbors_with_edges(v) {
                if v < w {
                    endpoints[e] = (v, w);
                }
            }
        }
        // Number the trees by their smallest edge and bucket the edges by tree.
        let mut tree_of_root = vec![usize::MAX; ne];
        let mut tree_of_edge = vec![0; ne];
        let mut start = vec![0; ntrees + 1];
        let mut seen = 0;
        for (e, tree) in tree_of_edge.iter_mut().enumerate() {
            let root = forest.find(e);
            if tree_of_root[root] == usize::MAX {
                tree_of_root[root] = seen;
                seen += 1;
            }
            *tree = tree_of_root[root];
            start[*tree + 1] += 1;
        }
        for t in 0..ntrees {
            start[t + 1] += start[t];
        }
        let mut edges_by_tree = vec![0; ne];
        let mut next = start.clone();
        for (e, &t) in tree_of_edge.iter().enumerate() {
            edges_by_tree[next[t]] = e;
            next[t] += 1;
        }

        // Prune each tree from its leaves, recording (leaf, parent) in pruning order.
        let mut order = Vec::with_capacity(ne);
        let mut is_star = Vec::with_capacity(ntrees);
        let mut degree = vec![0usize; n];
        let mut incident: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        let mut vertices = Vec::new();
        let mut queue = Vec::new();
        for t in 0..ntrees {
            let tree_edges = &edges_by_tree[start[t]..start[t + 1]];
            vertices.clear();
            for &e in tree_edges {
                let (a, b) = endpoints[e];
                for (x, y) in [(a, b), (b, a)] {
                    if degree[x] == 0 {
                        vertices.push(x);
                    }
                    degree[x] += 1;
                    incident[x].push((y, e));
                }
            }
            vertices.sort_unstable();
            queue.clear();
            queue.extend(vertices.iter().copied().filter(|&x| degree[x] == 1));
            is_star.push(queue.len() + 1 >= vertices.len());
            let mut head = 0;
            while head < queue.len() {
                let leaf = queue[head];
                head += 1;
                degree[leaf] = 0;
                for &(neighbor, e) in &incident[leaf] {
                    if degree[neighbor] != 0 {
                        order.push((leaf, neighbor, e));
                        degree[neighbor] -= 1;
                        if degree[neighbor] == 1 {
                            queue.push(neighbor);
                        }
                    }
                }
            }
            for &x in &vertices {
                degree[x] = 0;
                incident[x].clear();
            }
        }
        Self {
            order,
            start,
            is_star,
        }
    }
}
