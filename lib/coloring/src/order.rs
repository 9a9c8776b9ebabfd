//! Vertex orders for greedy coloring: [`Order`] and the functions computing them.
//!
//! Static orders sort by degree once; dynamic orders ([`DynamicOrder`], SparseMatrixColorings'
//! `DynamicDegreeBasedOrder`) repeatedly pick a vertex by a degree that changes as vertices are
//! ordered: smallest-last, incidence-degree, dynamic largest-first and the fourth combination.
//! The degree is the ordinary degree on an adjacency graph and the distance-2 degree on one
//! side of a bipartite graph. With `reproduce_colpack`, vertices sit in degree buckets exactly
//! as ColPack keeps them (append at the back, take from the back, move a vertex by swapping it
//! with the back of its bucket), so on the same sorted graph they give ColPack's order and
//! colors (`tests/colpack.rs` relies on it); without it, buckets share one array and a moving
//! vertex enters its new bucket at the near end, as SparseMatrixColorings does by default.

use crate::graph::{Adjacency, AdjacencyGraph, PatternGraph};

/// Which degree a dynamic order tracks, relative to the final order: `Back` counts the
/// neighbors placed before a vertex, `Forward` those placed after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DynamicDegree {
    /// Neighbors placed before.
    Back,
    /// Neighbors placed after.
    Forward,
}

/// Which end of the order a dynamic order fills first: `LowToHigh` places vertices at
/// positions 1, 2, … and picks the largest degree; `HighToLow` places them at n, n − 1, … and
/// picks the smallest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Fill positions 1 to n.
    LowToHigh,
    /// Fill positions n to 1.
    HighToLow,
}

/// A dynamic degree-based order (SparseMatrixColorings' `DynamicDegreeBasedOrder{degtype,
/// direction}(; reproduce_colpack)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DynamicOrder {
    /// The degree tracked.
    pub degree: DynamicDegree,
    /// The end filled first.
    pub direction: Direction,
    /// Keep degree buckets as ColPack does (see the module documentation).
    pub reproduce_colpack: bool,
}

impl DynamicOrder {
    /// Whether the tracked degree of unordered vertices grows as vertices are placed.
    fn increasing(self) -> bool {
        matches!(
            (self.degree, self.direction),
            (DynamicDegree::Back, Direction::LowToHigh)
                | (DynamicDegree::Forward, Direction::HighToLow)
        )
    }
}

/// The order in which greedy coloring visits vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// Increasing index.
    Natural,
    /// Decreasing degree, ties by increasing index.
    LargestFirst,
    /// A dynamic degree-based order.
    Dynamic(DynamicOrder),
    /// Maximum cardinality search (repeatedly the vertex with the most ordered neighbors): on
    /// a chordal graph, the reverse of a perfect elimination order, with which greedy coloring
    /// uses as many colors as the largest clique.
    PerfectElimination,
    /// A uniformly random permutation drawn from the given seed (the same seed always gives
    /// the same order).
    Random(u64),
}

impl Order {
    /// The dynamic order this is, if it is one.
    pub fn dynamic_spec(self) -> Option<DynamicOrder> {
        match self {
            Order::Dynamic(spec) => Some(spec),
            _ => None,
        }
    }

    /// Smallest-last: repeatedly remove a vertex of smallest degree in the remaining graph and
    /// place it last (back degree, high to low), with ColPack's buckets.
    pub const SMALLEST_LAST: Order = Order::dynamic(DynamicDegree::Back, Direction::HighToLow);
    /// Incidence degree: repeatedly the vertex with the most already-ordered neighbors (back
    /// degree, low to high), with ColPack's buckets; on adjacency graphs the first pick is the
    /// lowest-index vertex of maximum degree, as in ColPack.
    pub const INCIDENCE_DEGREE: Order = Order::dynamic(DynamicDegree::Back, Direction::LowToHigh);
    /// Dynamic largest-first: repeatedly the vertex with the most not-yet-ordered neighbors
    /// (forward degree, low to high), with ColPack's buckets.
    pub const DYNAMIC_LARGEST_FIRST: Order =
        Order::dynamic(DynamicDegree::Forward, Direction::LowToHigh);

    const fn dynamic(degree: DynamicDegree, direction: Direction) -> Order {
        Order::Dynamic(DynamicOrder {
            degree,
            direction,
            reproduce_colpack: true,
        })
    }
}

/// A graph whose vertices an order ranks: vertex `v` has `degree(v)` and the neighbor list
/// `neighbors(v)`, which may hold `v` itself (a stored diagonal entry, never a neighbor).
pub(crate) trait Ranked {
    fn nvertices(&self) -> usize;
    fn degree(&self, v: usize) -> usize;
    fn neighbors(&self, v: usize) -> &[usize];
}

impl Ranked for AdjacencyGraph {
    fn nvertices(&self) -> usize {
        AdjacencyGraph::nvertices(self)
    }
    fn degree(&self, v: usize) -> usize {
        AdjacencyGraph::degree(self, v)
    }
    fn neighbors(&self, v: usize) -> &[usize] {
        AdjacencyGraph::neighbors(self, v)
    }
}

impl Ranked for PatternGraph {
    fn nvertices(&self) -> usize {
        PatternGraph::nvertices(self)
    }
    fn degree(&self, v: usize) -> usize {
        PatternGraph::degree(self, v)
    }
    fn neighbors(&self, v: usize) -> &[usize] {
        PatternGraph::neighbors(self, v)
    }
}

/// Vertex order on an adjacency graph (star, acyclic and bicoloring).
pub(crate) fn adjacency_order(graph: &impl Ranked, order: Order) -> Vec<usize> {
    let n = graph.nvertices();
    let degrees = || (0..n).map(|v| graph.degree(v)).collect::<Vec<_>>();
    let mut neighbors = Direct(graph);
    match order {
        Order::Natural => (0..n).collect(),
        Order::Random(seed) => random_permutation(n, seed),
        Order::LargestFirst => largest_first(&degrees()),
        Order::Dynamic(spec) => dynamic_order(spec, degrees(), true, &mut neighbors),
        Order::PerfectElimination => maximum_cardinality_search(degrees(), &mut neighbors),
    }
}

/// Vertex order on one side of a bipartite graph (partial distance-2 coloring): `adjacency`
/// maps the colored vertices to the middle vertices, `back` maps middle vertices back.
pub(crate) fn bipartite_order(adjacency: &Adjacency, back: &Adjacency, order: Order) -> Vec<usize> {
    let n = adjacency.len();
    let mut neighbors = Distance2::new(adjacency, back);
    let degrees = || distance2_degrees(adjacency, back);
    match order {
        Order::Natural => (0..n).collect(),
        Order::Random(seed) => random_permutation(n, seed),
        Order::LargestFirst => largest_first(&degrees()),
        Order::Dynamic(spec) => dynamic_order(spec, degrees(), false, &mut neighbors),
        // On the distance-2 graph of the side, which greedy coloring colors.
        Order::PerfectElimination => maximum_cardinality_search(degrees(), &mut neighbors),
    }
}

/// The neighborhoods a dynamic order walks.
trait Neighborhoods {
    /// Replaces the content of `out` by the distinct neighbors of `v` (without `v`), in the
    /// order ColPack visits them.
    fn collect(&mut self, v: usize, out: &mut Vec<usize>);
}

/// Neighbors in an adjacency graph.
struct Direct<'a, G>(&'a G);

impl<G: Ranked> Neighborhoods for Direct<'_, G> {
    fn collect(&mut self, v: usize, out: &mut Vec<usize>) {
        out.clear();
        out.extend(self.0.neighbors(v).iter().copied().filter(|&w| w != v));
    }
}

/// Distance-2 neighbors on one side of a bipartite graph, each reported at its first
/// occurrence (ColPack's `vi_Visited` stamps).
struct Distance2<'a> {
    adjacency: &'a Adjacency,
    back: &'a Adjacency,
    stamp: Vec<usize>,
}

impl<'a> Distance2<'a> {
    fn new(adjacency: &'a Adjacency, back: &'a Adjacency) -> Self {
        Distance2 {
            adjacency,
            back,
            stamp: vec![usize::MAX; adjacency.len()],
        }
    }
}

impl Neighborhoods for Distance2<'_> {
    fn collect(&mut self, v: usize, out: &mut Vec<usize>) {
        out.clear();
        let stamp = &mut self.stamp[..];
        for &w in self.adjacency.neighbors(v) {
            for &x in self.back.neighbors(w) {
                if x != v && stamp[x] != v {
                    stamp[x] = v;
                    out.push(x);
                }
            }
        }
    }
}

/// Number of distinct distance-2 neighbors of every vertex.
///
/// The plain count walks every middle vertex's list once per vertex, which is quadratic when
/// a middle vertex is dense (an arrowhead matrix, a row summing all inputs). Vertices are
/// therefore grouped by their largest middle vertex `w`: the members of `back(w)` are marked
/// once per group, and each vertex only walks its other middle vertices.
pub(crate) fn distance2_degrees(adjacency: &Adjacency, back: &Adjacency) -> Vec<usize> {
    let n = adjacency.len();
    let nmiddle = back.len();
    // Counting sort of the vertices by their largest middle vertex (`nmiddle` for none).
    let largest: Vec<usize> = (0..n)
        .map(|v| {
            adjacency
                .neighbors(v)
                .iter()
                .copied()
                .max_by_key(|&w| (back.degree(w), std::cmp::Reverse(w)))
                .unwrap_or(nmiddle)
        })
        .collect();
    let mut start = vec![0; nmiddle + 2];
    for &w in &largest {
        start[w + 1] += 1;
    }
    for w in 0..=nmiddle {
        start[w + 1] += start[w];
    }
    let mut grouped = vec![0; n];
    let mut next = start.clone();
    for (v, &w) in largest.iter().enumerate() {
        grouped[next[w]] = v;
        next[w] += 1;
    }

    let mut degrees = vec![0; n];
    let mut in_largest = vec![usize::MAX; n];
    let mut seen = vec![usize::MAX; n];
    for w in 0..nmiddle {
        let group = &grouped[start[w]..start[w + 1]];
        if group.is_empty() {
            continue;
        }
        for &x in back.neighbors(w) {
            in_largest[x] = w;
        }
        for &v in group {
            let mut count = back.degree(w) - 1; // `v` itself is in back(w)
            for &u in adjacency.neighbors(v) {
                if u == w {
                    continue;
                }
                for &x in back.neighbors(u) {
                    if in_largest[x] != w && seen[x] != v {
                        seen[x] = v;
                        count += 1;
                    }
                }
            }
            degrees[v] = count;
        }
    }
    degrees
}

/// Decreasing degree, ties by increasing index (ColPack's bucket walk, a stable sort).
fn largest_first(degrees: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..degrees.len()).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(degrees[v]));
    order
}

/// Vertices grouped by their current degree, from which a dynamic order picks.
trait Buckets {
    /// Takes a vertex of degree `d`, if any, and marks it ordered.
    fn pop(&mut self, d: usize) -> Option<usize>;
    /// Whether `v` is ordered.
    fn ordered(&self, v: usize) -> bool;
    /// Moves unordered `v` one degree up or down.
    fn shift(&mut self, v: usize, increase: bool);
}

/// Degree buckets as ColPack keeps them: a vertex enters at the back of its bucket, selection
/// pops the back, and a vertex leaves by swapping with the back.
struct ColPackBuckets {
    buckets: Vec<Vec<usize>>,
    position: Vec<usize>,
    degree: Vec<usize>,
    ordered: Vec<bool>,
}

impl ColPackBuckets {
    fn new(degree: Vec<usize>, nbuckets: usize) -> Self {
        let mut buckets = vec![Vec::new(); nbuckets];
        let mut position = vec![0; degree.len()];
        for (v, &d) in degree.iter().enumerate() {
            position[v] = buckets[d].len();
            buckets[d].push(v);
        }
        let ordered = vec![false; degree.len()];
        Self {
            buckets,
            position,
            degree,
            ordered,
        }
    }

    /// ColPack's incidence-degree order starts from `first`: it swaps it to the back of its
    /// bucket.
    fn move_to_back(&mut self, first: usize) {
        let bucket = &mut self.buckets[self.degree[first]];
        let (p, last) = (self.position[first], bucket.len() - 1);
        bucket.swap(p, last);
        self.position[bucket[p]] = p;
        self.position[first] = last;
    }
}

impl Buckets for ColPackBuckets {
    fn pop(&mut self, d: usize) -> Option<usize> {
        let v = self.buckets[d].pop()?;
        self.ordered[v] = true;
        Some(v)
    }

    fn ordered(&self, v: usize) -> bool {
        self.ordered[v]
    }

    fn shift(&mut self, v: usize, increase: bool) {
        let d = self.degree[v];
        let p = self.position[v];
        let bucket = &mut self.buckets[d];
        let last = bucket[bucket.len() - 1];
        bucket[p] = last;
        self.position[last] = p;
        bucket.pop();
        let d = if increase { d + 1 } else { d - 1 };
        self.degree[v] = d;
        self.position[v] = self.buckets[d].len();
        self.buckets[d].push(v);
    }
}

/// SparseMatrixColorings' buckets: one array holds every bucket, bucket `d` in
/// `slots[start[d]..end[d]]` (increasing `d`, vertices first in index order). Selection pops
/// the end of a bucket; a vertex whose degree grows enters the next bucket at its start, one
/// whose degree shrinks enters the previous bucket at its end, so buckets only grow into slots
/// their neighbors freed.
struct SharedBuckets {
    slots: Vec<usize>,
    start: Vec<usize>,
    end: Vec<usize>,
    position: Vec<usize>,
    degree: Vec<usize>,
    ordered: Vec<bool>,
}

impl SharedBuckets {
    fn new(degree: Vec<usize>, nbuckets: usize) -> Self {
        let mut start = vec![0; nbuckets + 1];
        for &d in &degree {
            start[d + 1] += 1;
        }
        for d in 0..nbuckets {
            start[d + 1] += start[d];
        }
        start.pop();
        let mut end = start.clone();
        let mut slots = vec![0; degree.len()];
        let mut position = vec![0; degree.len()];
        for (v, &d) in degree.iter().enumerate() {
            slots[end[d]] = v;
            position[v] = end[d];
            end[d] += 1;
        }
        let ordered = vec![false; degree.len()];
        Self {
            slots,
            start,
            end,
            position,
            degree,
            ordered,
        }
    }

    fn place(&mut self, v: usize, slot: usize) {
        self.slots[slot] = v;
        self.position[v] = slot;
    }
}

impl Buckets for SharedBuckets {
    fn pop(&mut self, d: usize) -> Option<usize> {
        if self.start[d] == self.end[d] {
            return None;
        }
        self.end[d] -= 1;
        let v = self.slots[self.end[d]];
        self.ordered[v] = true;
        Some(v)
    }

    fn ordered(&self, v: usize) -> bool {
        self.ordered[v]
    }

    fn shift(&mut self, v: usize, increase: bool) {
        let (d, p) = (self.degree[v], self.position[v]);
        if increase {
            // The back of bucket d fills v's slot; bucket d + 1 grows into the freed one.
            self.end[d] -= 1;
            self.place(self.slots[self.end[d]], p);
            self.start[d + 1] -= 1;
            self.place(v, self.start[d + 1]);
            self.degree[v] = d + 1;
        } else {
            // The front of bucket d fills v's slot; bucket d − 1 grows into the freed one.
            self.place(self.slots[self.start[d]], p);
            self.start[d] += 1;
            self.place(v, self.end[d - 1]);
            self.end[d - 1] += 1;
            self.degree[v] = d - 1;
        }
    }
}

/// A dynamic degree-based order from the static `degree` of every vertex. `adjacency` says
/// the graph is an adjacency graph, where ColPack starts incidence degree from the first
/// vertex of maximum degree.
fn dynamic_order(
    spec: DynamicOrder,
    degree: Vec<usize>,
    adjacency: bool,
    neighbors: &mut impl Neighborhoods,
) -> Vec<usize> {
    let n = degree.len();
    let max_degree = degree.iter().copied().max().unwrap_or(0);
    let first_of_max_degree = degree.iter().position(|&d| d == max_degree);
    let initial = if spec.increasing() {
        vec![0; n]
    } else {
        degree
    };
    if spec.reproduce_colpack {
        let mut buckets = ColPackBuckets::new(initial, max_degree + 1);
        if adjacency && Some(spec) == Order::INCIDENCE_DEGREE.dynamic_spec() {
            if let Some(first) = first_of_max_degree {
                buckets.move_to_back(first);
            }
        }
        place_dynamically(spec, n, max_degree, &mut buckets, neighbors)
    } else {
        let mut buckets = SharedBuckets::new(initial, max_degree + 1);
        place_dynamically(spec, n, max_degree, &mut buckets, neighbors)
    }
}

/// Places the `n` vertices one by one, each time the one whose degree is the largest
/// (`LowToHigh`) or smallest (`HighToLow`), updating its unordered neighbors' degrees.
fn place_dynamically(
    spec: DynamicOrder,
    n: usize,
    max_degree: usize,
    buckets: &mut impl Buckets,
    neighbors: &mut impl Neighborhoods,
) -> Vec<usize> {
    let low_to_high = spec.direction == Direction::LowToHigh;
    let increase = spec.increasing();
    let mut order = vec![0; n];
    let mut buffer = Vec::new();
    // The bucket to search from: degrees move by one per placement, so the next pick is at
    // most one bucket beyond the last one.
    let mut cursor = if low_to_high { max_degree } else { 0 };
    for k in 0..n {
        let slot = if low_to_high { k } else { n - 1 - k };
        let v = loop {
            match buckets.pop(cursor) {
                Some(v) => break v,
                None if low_to_high => cursor -= 1,
                None => cursor += 1,
            }
        };
        order[slot] = v;
        neighbors.collect(v, &mut buffer);
        for &w in &buffer {
            if !buckets.ordered(w) {
                buckets.shift(w, increase);
            }
        }
        cursor = if low_to_high {
            (cursor + 1).min(max_degree)
        } else {
            cursor.saturating_sub(1)
        };
    }
    order
}

/// Maximum cardinality search: repeatedly the vertex with the most ordered neighbors.
fn maximum_cardinality_search(
    degree: Vec<usize>,
    neighbors: &mut impl Neighborhoods,
) -> Vec<usize> {
    let spec = DynamicOrder {
        degree: DynamicDegree::Back,
        direction: Direction::LowToHigh,
        reproduce_colpack: false,
    };
    let n = degree.len();
    let max_degree = degree.iter().copied().max().unwrap_or(0);
    let mut buckets = SharedBuckets::new(vec![0; n], max_degree + 1);
    place_dynamically(spec, n, max_degree, &mut buckets, neighbors)
}

/// Whether `pi` (vertices `0..n`, 0-based) is an order `spec` may give on the graph where
/// `neighbors(v)` lists the neighbors of `v` (symmetrically; `v` itself and repeats are
/// ignored): at every step, the placed vertex's tracked degree is the largest (`LowToHigh`) or
/// smallest (`HighToLow`) among the vertices still to place, each measured as if it were the
/// one placed there (SparseMatrixColorings' `valid_dynamic_order`).
pub fn valid_dynamic_order(
    n: usize,
    pi: &[usize],
    spec: DynamicOrder,
    neighbors: impl Fn(usize) -> Vec<usize>,
) -> bool {
    let mut position = vec![usize::MAX; n];
    for (i, &v) in pi.iter().enumerate() {
        if v >= n || position[v] != usize::MAX {
            return false;
        }
        position[v] = i;
    }
    if pi.len() != n {
        return false;
    }
    let lists: Vec<Vec<usize>> = (0..n)
        .map(|v| {
            let mut list = neighbors(v);
            list.retain(|&w| w != v);
            list.sort_unstable();
            list.dedup();
            list
        })
        .collect();
    let back = spec.degree == DynamicDegree::Back;
    // The degree is counted among the vertices placed before step i (back) or after it
    // (forward); `count[v]` is the number of neighbors of v in that set.
    let in_set = |u: usize, i: usize| {
        if back {
            position[u] < i
        } else {
            position[u] > i
        }
    };
    let mut count: Vec<usize> = (0..n)
        .map(|v| lists[v].iter().filter(|&&u| in_set(u, 0)).count())
        .collect();
    let mut stamp = vec![usize::MAX; n];
    for (i, &vi) in pi.iter().enumerate() {
        if !back && i > 0 {
            for &u in &lists[vi] {
                count[u] -= 1;
            }
        }
        for &u in &lists[vi] {
            stamp[u] = i;
        }
        let still_to_place = match spec.direction {
            Direction::LowToHigh => &pi[i..],
            Direction::HighToLow => &pi[..=i],
        };
        let di = count[vi];
        for &vj in still_to_place {
            // Placing vj at step i would swap it with vi in the counted set.
            let dj = count[vj] + usize::from(in_set(vj, i) && stamp[vj] == i);
            let worse = match spec.direction {
                Direction::LowToHigh => dj > di,
                Direction::HighToLow => dj < di,
            };
            if worse {
                return false;
            }
        }
        if back {
            for &u in &lists[vi] {
                count[u] += 1;
            }
        }
    }
    true
}

/// Fisher–Yates shuffle driven by SplitMix64, so a seed gives the same order on every platform.
fn random_permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        // Multiply-shift maps 64 random bits onto 0..=i without a division.
        let j = ((u128::from(next()) * (i as u128 + 1)) >> 64) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{BipartiteGraph, PatternGraph, Side};
    use crate::pattern::SparsityPattern;

    /// Random symmetric pattern from a fixed linear congruential sequence.
    fn random_pattern(n: usize, percent: u64, seed: u64) -> SparsityPattern {
        let mut state = seed;
        let mut entries = Vec::new();
        for j in 0..n {
            for i in 0..j {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (state >> 33) % 100 < percent {
                    entries.extend([(i, j), (j, i)]);
                }
            }
        }
        SparsityPattern::from_entries(n, n, &entries).unwrap()
    }

    fn all_dynamic() -> Vec<DynamicOrder> {
        let mut specs = Vec::new();
        for degree in [DynamicDegree::Back, DynamicDegree::Forward] {
            for direction in [Direction::LowToHigh, Direction::HighToLow] {
                for reproduce_colpack in [true, false] {
                    specs.push(DynamicOrder {
                        degree,
                        direction,
                        reproduce_colpack,
                    });
                }
            }
        }
        specs
    }

    /// The defining property of each dynamic order, by brute force on the graph where
    /// `neighbors(v)` lists the neighbors of `v`.
    fn follows_definition(
        spec: DynamicOrder,
        pi: &[usize],
        neighbors: &dyn Fn(usize) -> Vec<usize>,
    ) -> bool {
        let count_in =
            |v: usize, set: &[usize]| neighbors(v).iter().filter(|w| set.contains(w)).count();
        (0..pi.len()).all(|i| {
            let (before, rest) = pi.split_at(i);
            let (upto, after) = pi.split_at(i + 1);
            match (spec.degree, spec.direction) {
                // The fewest neighbors in the graph of the vertices not yet placed (from the end).
                (DynamicDegree::Back, Direction::HighToLow) => {
                    let d = count_in(pi[i], upto);
                    upto.iter().all(|&v| count_in(v, upto) >= d)
                }
                // The most already-placed neighbors.
                (DynamicDegree::Back, Direction::LowToHigh) => {
                    let d = count_in(pi[i], before);
                    rest.iter().all(|&v| count_in(v, before) <= d)
                }
                // The most neighbors not yet placed.
                (DynamicDegree::Forward, Direction::LowToHigh) => {
                    let d = count_in(pi[i], rest);
                    rest.iter().all(|&v| count_in(v, rest) <= d)
                }
                // The fewest already-placed neighbors (placing from the end).
                (DynamicDegree::Forward, Direction::HighToLow) => {
                    let d = count_in(pi[i], after);
                    upto.iter().all(|&v| count_in(v, after) >= d)
                }
            }
        })
    }

    #[test]
    fn dynamic_orders_follow_their_definitions() {
        for seed in 0..6 {
            let pattern = random_pattern(30, 15, seed);
            let graph = AdjacencyGraph::symmetric(&pattern).unwrap();
            let neighbors = |v: usize| graph.neighbors(v).to_vec();
            for spec in all_dynamic() {
                let pi = adjacency_order(&graph, Order::Dynamic(spec));
                assert!(follows_definition(spec, &pi, &neighbors), "{spec:?}");
                assert!(valid_dynamic_order(30, &pi, spec, neighbors), "{spec:?}");
            }
            let rectangular = SparsityPattern::from_entries(
                20,
                30,
                &pattern
                    .entries()
                    .filter(|&(i, _)| i < 20)
                    .collect::<Vec<_>>(),
            )
            .unwrap();
            let bipartite = BipartiteGraph::new(&rectangular);
            for side in [Side::Columns, Side::Rows] {
                let (adjacency, back) = bipartite.sides(side);
                let distance2 = |v: usize| {
                    let mut out = Vec::new();
                    for &w in adjacency.neighbors(v) {
                        out.extend(back.neighbors(w).iter().copied().filter(|&x| x != v));
                    }
                    out.sort_unstable();
                    out.dedup();
                    out
                };
                let degrees = distance2_degrees(adjacency, back);
                for (v, &d) in degrees.iter().enumerate() {
                    assert_eq!(d, distance2(v).len());
                    assert_eq!(d, bipartite.degree_dist2(side, v));
                }
                for spec in all_dynamic() {
                    let pi = bipartite.vertices(side, Order::Dynamic(spec));
                    assert!(follows_definition(spec, &pi, &distance2), "{spec:?}");
                    assert!(bipartite.valid_dynamic_order(side, &pi, spec), "{spec:?}");
                }
            }
        }
    }

    #[test]
    fn the_order_checker_agrees_with_the_definitions_on_any_permutation() {
        let graph = AdjacencyGraph::symmetric(&random_pattern(6, 40, 3)).unwrap();
        let neighbors = |v: usize| graph.neighbors(v).to_vec();
        let mut accepted = 0;
        for seed in 0..400 {
            let pi = random_permutation(6, seed);
            for spec in all_dynamic() {
                let valid = valid_dynamic_order(6, &pi, spec, neighbors);
                assert_eq!(
                    valid,
                    follows_definition(spec, &pi, &neighbors),
                    "{spec:?} {pi:?}"
                );
                accepted += usize::from(valid);
            }
        }
        assert!(accepted > 0 && accepted < 400 * 8);
        assert!(!valid_dynamic_order(
            6,
            &[0, 1, 2],
            all_dynamic()[0],
            neighbors
        ));
        assert!(!valid_dynamic_order(
            6,
            &[0, 0, 1, 2, 3, 4],
            all_dynamic()[0],
            neighbors
        ));
    }

    #[test]
    fn maximum_cardinality_search_colors_a_chordal_band_with_its_clique() {
        // The band of half-width 2 is chordal, its largest clique has 3 vertices.
        let n: usize = 12;
        let entries: Vec<_> = (0..n)
            .flat_map(|j| (j.saturating_sub(2)..(j + 3).min(n)).map(move |i| (i, j)))
            .collect();
        let graph = PatternGraph::new(
            &SparsityPattern::from_entries(n, n, &entries).unwrap(),
            true,
        )
        .unwrap();
        let pi = graph.vertices(Order::PerfectElimination).unwrap();
        let spec = Order::INCIDENCE_DEGREE.dynamic_spec().unwrap();
        assert!(valid_dynamic_order(n, &pi, spec, |v| graph
            .neighbors(v)
            .to_vec()));
        assert_eq!(graph.degree(5), 4);
        assert_eq!(graph.nedges(), 2 * n - 3);
    }

    #[test]
    fn static_orders() {
        let pattern = random_pattern(25, 20, 9);
        let graph = AdjacencyGraph::symmetric(&pattern).unwrap();
        assert_eq!(
            adjacency_order(&graph, Order::Natural),
            (0..25).collect::<Vec<_>>()
        );
        let lf = adjacency_order(&graph, Order::LargestFirst);
        assert!(lf.windows(2).all(|w| {
            let (a, b) = (graph.degree(w[0]), graph.degree(w[1]));
            a > b || (a == b && w[0] < w[1])
        }));
        let mut random = adjacency_order(&graph, Order::Random(1));
        assert_ne!(random, adjacency_order(&graph, Order::Random(2)));
        random.sort_unstable();
        assert_eq!(random, (0..25).collect::<Vec<_>>());
    }
}
