//! Star coloring of an adjacency graph (symmetric direct decompression, star bicoloring).
//!
//! A star coloring is a distance-1 coloring in which every path on four vertices uses at least
//! three colors; equivalently every two-colored subgraph is a disjoint union of stars. Each
//! off-diagonal entry `A[i, j]` is then read directly from the compressed column of its star's
//! hub. The algorithm is Algorithm 4.1 of Gebremedhin, Tarafdar, Manne and Pothen, "New
//! acyclic and star coloring algorithms with application to computing Hessians" (SIAM J. Sci.
//! Comput., 2007): while coloring, it keeps the two-colored stars in [`StarSet`] so that the
//! forbidden colors of a vertex are found by looking at distance 2 only.

use crate::graph::AdjacencyGraph;

/// The two-colored stars found by [`star_coloring`]: every edge belongs to one star, and every
/// star has a hub, the vertex whose compressed column holds the star's entries.
#[derive(Debug, Clone)]
pub(crate) struct StarSet {
    /// Star index of every edge.
    pub(crate) star: Vec<usize>,
    /// Hub of every star. For a single-edge star either end can serve; `trivial` marks those,
    /// and `hub` then holds the end chosen so far.
    pub(crate) hub: Vec<usize>,
    pub(crate) trivial: Vec<bool>,
}

impl StarSet {
    /// The hub of the star containing `edge`.
    pub(crate) fn hub_of(&self, edge: usize) -> usize {
        self.hub[self.star[edge]]
    }

    /// Whether `x` is the established hub of the star containing `edge`.
    fn is_hub(&self, edge: usize, x: usize) -> bool {
        let s = self.star[edge];
        !self.trivial[s] && self.hub[s] == x
    }

    fn set_hub(&mut self, star: usize, hub: usize) {
        self.hub[star] = hub;
        self.trivial[star] = false;
    }
}

/// Colors `graph` in `order` so that every two-colored subgraph is a union of stars. Returns
/// 1-based colors and the stars.
pub(crate) fn star_coloring(graph: &AdjacencyGraph, order: &[usize]) -> (Vec<usize>, StarSet) {
    let n = graph.nvertices();
    let mut color = vec![0; n];
    let mut forbidden = vec![usize::MAX; n + 2];
    // first_neighbor[c] = (v, w, edge vw): while coloring v, w was its first neighbor of color c.
    let mut first_neighbor = vec![(usize::MAX, usize::MAX, usize::MAX); n + 2];
    let mut treated = vec![usize::MAX; n];
    let mut stars = StarSet {
        star: vec![usize::MAX; graph.nedges()],
        hub: Vec::new(),
        trivial: Vec::new(),
    };

    for &v in order {
        for (w, vw) in graph.neighbors_with_edges(v) {
            let cw = color[w];
            if cw == 0 {
                continue;
            }
            forbidden[cw] = v;
            let (p, q, _) = first_neighbor[cw];
            if p == v {
                // Two neighbors q and w share a color: v must become the hub of their star,
                // so no neighbor of q or w may share v's color.
                if treated[q] != v {
                    forbid_neighbor_colors(graph, &color, &mut forbidden, &mut treated, v, q);
                }
                forbid_neighbor_colors(graph, &color, &mut forbidden, &mut treated, v, w);
            } else {
                first_neighbor[cw] = (v, w, vw);
                // If w is a spoke of a star whose hub is x, v may not take x's color: the path
                // v, w, x, (another spoke) would be two-colored.
                for (x, wx) in graph.neighbors_with_edges(w) {
                    if x != v && color[x] != 0 && stars.is_hub(wx, x) {
                        forbidden[color[x]] = v;
                    }
                }
            }
        }
        color[v] = (1..).find(|&c| forbidden[c] != v).unwrap_or(1);
        update_stars(graph, &color, &first_neighbor, &mut stars, v);
    }
    (color, stars)
}

fn forbid_neighbor_colors(
    graph: &AdjacencyGraph,
    color: &[usize],
    forbidden: &mut [usize],
    treated: &mut [usize],
    v: usize,
    w: usize,
) {
    for &x in graph.neighbors(w) {
        if color[x] != 0 {
            forbidden[color[x]] = v;
        }
    }
    treated[w] = v;
}

/// Puts every edge between the freshly colored `v` and its colored neighbors into a star.
fn update_stars(
    graph: &AdjacencyGraph,
    color: &[usize],
    first_neighbor: &[(usize, usize, usize)],
    stars: &mut StarSet,
    v: usize,
) {
    let cv = color[v];
    for (w, vw) in graph.neighbors_with_edges(v) {
        let cw = color[w];
        if cw == 0 {
            continue;
        }
        // A neighbor x of w with v's color makes w the hub of the star of edge wx.
        let spoke_edge = graph
            .neighbors_with_edges(w)
            .find(|&(x, _)| x != v && color[x] == cv)
            .map(|(_, wx)| wx);
        if let Some(wx) = spoke_edge {
            let s = stars.star[wx];
            stars.set_hub(s, w);
            stars.star[vw] = s;
            continue;
        }
        let (p, q, vq) = first_neighbor[cw];
        if p == v && q != w {
            // v has two neighbors q and w of the same color: v is the hub.
            let s = stars.star[vq];
            stars.set_hub(s, v);
            stars.star[vw] = s;
        } else {
            stars.star[vw] = stars.hub.len();
            stars.hub.push(v.max(w));
            stars.trivial.push(true);
        }
    }
}
