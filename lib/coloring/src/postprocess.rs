//! Post-processing of star and acyclic colorings: colors that decompression never reads are
//! replaced by the neutral color 0, and the others are renumbered without gaps.
//!
//! Decompression reads the compressed column of a star's hub, or of the parent of each edge
//! of a two-colored tree, plus the diagonal from every vertex with a stored diagonal entry.
//! Single-edge stars and trees may be read from either end; the end is chosen greedily so
//! that it reuses a color already needed. Fewer colors means fewer seeds, so fewer
//! directional derivatives. Called from [`crate::interface`] after coloring.

use crate::acyclic::TreeSet;
use crate::graph::AdjacencyGraph;
use crate::star::StarSet;

/// Post-processes a star coloring; `forced[c]` marks colors that must stay (those of vertices
/// with a stored diagonal entry). May re-choose the hub of single-edge stars.
pub(crate) fn postprocess_star(
    graph: &AdjacencyGraph,
    color: &mut [usize],
    stars: &mut StarSet,
    mut used: Vec<bool>,
) {
    let mut has_trivial = false;
    for (s, &hub) in stars.hub.iter().enumerate() {
        if stars.trivial[s] {
            has_trivial = true;
        } else {
            used[color[hub]] = true;
        }
    }
    if has_trivial {
        for v in 0..graph.nvertices() {
            for (w, e) in graph.neighbors_with_edges(v) {
                let s = stars.star[e];
                if w < v || !stars.trivial[s] {
                    continue;
                }
                let hub = stars.hub[s];
                let spoke = if hub == v { w } else { v };
                if used[color[spoke]] {
                    stars.hub[s] = spoke;
                } else {
                    used[color[hub]] = true;
                }
            }
        }
    }
    neutralize(color, &used);
}

/// Post-processes an acyclic coloring; `used` starts as in [`postprocess_star`]. May turn
/// single-edge trees around so that their root has a color that is needed anyway.
pub(crate) fn postprocess_tree(color: &mut [usize], trees: &mut TreeSet, mut used: Vec<bool>) {
    let mut has_trivial = false;
    for t in 0..trees.ntrees() {
        let edges = trees.edges(t);
        match edges {
            [] => {}
            [_] => has_trivial = true,
            [(leaf, parent, _), ..] => {
                // A star needs only its hub's color; any other tree needs both of its colors.
                used[color[*parent]] = true;
                if !trees.is_star[t] {
                    used[color[*leaf]] = true;
                }
            }
        }
    }
    if has_trivial {
        for t in 0..trees.ntrees() {
            let range = trees.start[t]..trees.start[t + 1];
            if range.len() != 1 {
                continue;
            }
            let (leaf, parent, e) = trees.order[range.start];
            if used[color[leaf]] {
                trees.order[range.start] = (parent, leaf, e);
            } else {
                used[color[parent]] = true;
            }
        }
    }
    neutralize(color, &used);
}

/// Colors of vertices with a stored diagonal entry, which decompression always reads.
pub(crate) fn diagonal_colors(color: &[usize], has_diagonal: &[bool]) -> Vec<bool> {
    let ncolors = color.iter().copied().max().unwrap_or(0);
    let mut used = vec![false; ncolors + 1];
    for (v, &d) in has_diagonal.iter().enumerate() {
        if d {
            used[color[v]] = true;
        }
    }
    used
}

/// Replaces unused colors by 0 and renumbers the others `1..`.
fn neutralize(color: &mut [usize], used: &[bool]) {
    let mut new_color = vec![0; used.len()];
    let mut next = 0;
    for (c, &u) in used.iter().enumerate().skip(1) {
        if u {
            next += 1;
            new_color[c] = next;
        }
    }
    for c in color.iter_mut() {
        *c = new_color[*c];
    }
}
