//! Vertex orders for greedy coloring: [`Order`] and the functions computing them.
//!
//! Static orders sort by degree once; dynamic orders (smallest-last, incidence-degree, dynamic
//! largest-first) repeatedly pick a vertex by a degree that changes as vertices are ordered.
//! The degree is the ordinary degree on an [`AdjacencyGraph`] and the distance-2 degree on one
//! side of a bipartite graph. Dynamic orders keep vertices in degree buckets exactly as ColPack
//! does (append at the back, take from the back, move a vertex by swapping it with the back of
//! its bucket), so on the same sorted graph they give the same order and the same colors; the
//! ColPack comparison in `tests/colpack.rs` relies on it.

use crate::graph::{Adjacency, AdjacencyGraph};

/// The order in which greedy coloring visits vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// Increasing index.
    Natural,
    /// Decreasing degree, ties by increasing index.
    LargestFirst,
    /// Repeatedly remove a vertex of smallest degree in the remaining graph; color in reverse
    /// removal order.
    SmallestLast,
    /// Repeatedly pick the vertex with the most already-ordered neighbors (on adjacency graphs
    /// the first pick is the lowest-index vertex of maximum degree, as in ColPack).
    IncidenceDegree,
    /// Repeatedly pick the vertex with the most not-yet-ordered neighbors.
    DynamicLargestFirst,
    /// A uniformly random permutation drawn from the given seed (the same seed always gives
    /// the same order).
    Random(u64),
}

/// Vertex order on an adjacency graph (star, acyclic and bicoloring).
pub(crate) fn adjacency_order(graph: &AdjacencyGraph, order: Order) -> Vec<usize> {
    let n = graph.nvertices();
    let degrees = || (0..n).map(|v| graph.degree(v)).collect::<Vec<_>>();
    let mut neighbors = Direct(graph);
    match order {
        Order::Natural => (0..n).collect(),
        Order::Random(seed) => random_permutation(n, seed),
        Order::LargestFirst => largest_first(&degrees()),
        Order::SmallestLast => smallest_last(degrees(), &mut neighbors),
        Order::IncidenceDegree => incidence_degree(&degrees(), true, &mut neighbors),
        Order::DynamicLargestFirst => dynamic_largest_first(degrees(), &mut neighbors),
    }
}

/// Vertex order on one side of a bipartite graph (partial distance-2 coloring): `adjacency`
/// maps the colored vertices to the middle vertices, `back` maps middle vertices back.
pub(crate) fn bipartite_order(adjacency: &Adjacency, back: &Adjacency, order: Order) -> Vec<usize> {
    let n = adjacency.len();
    let mut neighbors = Distance2 {
        adjacency,
        back,
        stamp: vec![usize::MAX; n],
    };
    match order {
        Order::Natural => (0..n).collect(),
        Order::Random(seed) => random_permutation(n, seed),
        Order::LargestFirst => largest_first(&distance2_degrees(adjacency, back)),
        Order::SmallestLast => smallest_last(distance2_degrees(adjacency, back), &mut neighbors),
        Order::IncidenceDegree => {
            incidence_degree(&distance2_degrees(adjacency, back), false, &mut neighbors)
        }
        Order::DynamicLargestFirst => {
            dynamic_largest_first(distance2_degrees(adjacency, back), &mut neighbors)
        }
    }
}

/// The neighborhoods a dynamic order walks.
trait Neighborhoods {
    /// Replaces the content of `out` by the distinct neighbors of `v` (without `v`), in the
    /// order ColPack visits them.
    fn collect(&mut self, v: usize, out: &mut Vec<usize>);
}

/// Neighbors in an adjacency graph.
struct Direct<'a>(&'a AdjacencyGraph);

impl Neighborhoods for Direct<'_> {
    fn collect(&mut self, v: usize, out: &mut Vec<usize>) {
        out.clear();
        out.extend_from_slice(self.0.neighbors(v));
    }
}

/// Distance-2 neighbors on one side of a bipartite graph, each reported at its first
/// occurrence (ColPack's `vi_Visited` stamps).
struct Distance2<'a> {
    adjacency: &'a Adjacency,
    back: &'a Adjacency,
    stamp: Vec<usize>,
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

/// Degree buckets managed as ColPack manages them: a vertex enters at the back of its bucket,
/// selection pops the back, and a vertex leaves by swapping with the back.
struct Buckets {
    buckets: Vec<Vec<usize>>,
    position: Vec<usize>,
    degree: Vec<usize>,
    ordered: Vec<bool>,
}

impl Buckets {
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

    /// Pops the back of bucket `d`, if any, and marks it ordered.
    fn pop(&mut self, d: usize) -> Option<usize> {
        let v = self.buckets[d].pop()?;
        self.ordered[v] = true;
        Some(v)
    }

    /// Moves every not-yet-ordered vertex of `vertices` one bucket up or down.
    fn shift_unordered(&mut self, vertices: &[usize], increase: bool) {
        for &v in vertices {
            if !self.ordered[v] {
                self.shift(v, increase);
            }
        }
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

fn smallest_last(degree: Vec<usize>, neighbors: &mut impl Neighborhoods) -> Vec<usize> {
    let n = degree.len();
    let nbuckets = degree.iter().max().map_or(1, |&d| d + 1);
    let mut buckets = Buckets::new(degree, nbuckets);
    let mut order = vec![0; n];
    let mut buffer = Vec::new();
    let mut low = 0;
    for slot in (0..n).rev() {
        // Removing a vertex of degree d leaves every degree at least d - 1.
        let v = loop {
            match buckets.pop(low) {
                Some(v) => break v,
                None => low += 1,
            }
        };
        order[slot] = v;
        neighbors.collect(v, &mut buffer);
        buckets.shift_unordered(&buffer, false);
        low = low.saturating_sub(1);
    }
    order
}

fn incidence_degree(
    degree: &[usize],
    start_at_max_degree: bool,
    neighbors: &mut impl Neighborhoods,
) -> Vec<usize> {
    let n = degree.len();
    let max_degree = degree.iter().copied().max().unwrap_or(0);
    let mut buckets = Buckets::new(vec![0; n], max_degree + 1);
    if start_at_max_degree && n > 0 {
        // ColPack starts from the first vertex of maximum degree by swapping it to the back
        // of bucket 0.
        let first_max = degree.iter().position(|&d| d == max_degree).unwrap_or(0);
        let bucket = &mut buckets.buckets[0];
        let (p, last) = (buckets.position[first_max], bucket.len() - 1);
        bucket.swap(p, last);
        buckets.position[bucket[p]] = p;
        buckets.position[first_max] = last;
    }
    let mut order = Vec::with_capacity(n);
    let mut buffer = Vec::new();
    let mut high = 0;
    for _ in 0..n {
        let v = loop {
            match buckets.pop(high) {
                Some(v) => break v,
                None => high -= 1,
            }
        };
        order.push(v);
        neighbors.collect(v, &mut buffer);
        buckets.shift_unordered(&buffer, true);
        // Ordering a vertex of incidence degree d raises others to at most d + 1.
        high = (high + 1).min(max_degree);
    }
    order
}

fn dynamic_largest_first(degree: Vec<usize>, neighbors: &mut impl Neighborhoods) -> Vec<usize> {
    let n = degree.len();
    let max_degree = degree.iter().copied().max().unwrap_or(0);
    let mut buckets = Buckets::new(degree, max_degree + 1);
    let mut order = Vec::with_capacity(n);
    let mut buffer = Vec::new();
    let mut high = max_degree;
    for _ in 0..n {
        let v = loop {
            match buckets.pop(high) {
                Some(v) => break v,
                None => high -= 1,
            }
        };
        order.push(v);
        neighbors.collect(v, &mut buffer);
        buckets.shift_unordered(&buffer, false);
    }
    order
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
    use crate::graph::BipartiteGraph;
    use crate::graph::Side;
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

    /// Checks the defining property of each dynamic order by brute force: `neighbors(v)`
    /// lists the neighbors of `v` in the graph being ordered.
    fn assert_valid(order: Order, pi: &[usize], neighbors: &dyn Fn(usize) -> Vec<usize>) {
        let n = pi.len();
        let mut sorted = pi.to_vec();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            (0..n).collect::<Vec<_>>(),
            "{order:?} is not a permutation"
        );
        let count_in =
            |v: usize, set: &[usize]| neighbors(v).iter().filter(|w| set.contains(w)).count();
        for i in 0..n {
            let (before, rest) = pi.split_at(i);
            match order {
                // pi[i] has the fewest neighbors among pi[..=i], in the graph they induce.
                Order::SmallestLast => {
                    let remaining = &pi[..=i];
                    let d = count_in(pi[i], remaining);
                    assert!(
                        remaining.iter().all(|&v| count_in(v, remaining) >= d),
                        "{order:?} at {i}"
                    );
                }
                // pi[i] has the most already-ordered neighbors among the unordered vertices.
                Order::IncidenceDegree => {
                    let d = count_in(pi[i], before);
                    assert!(
                        rest.iter().all(|&v| count_in(v, before) <= d),
                        "{order:?} at {i}"
                    );
                }
                // pi[i] has the most unordered neighbors among the unordered vertices.
                Order::DynamicLargestFirst => {
                    let d = count_in(pi[i], rest);
                    assert!(
                        rest.iter().all(|&v| count_in(v, rest) <= d),
                        "{order:?} at {i}"
                    );
                }
                _ => unreachable!(),
            }
        }
    }

    #[test]
    fn dynamic_orders_follow_their_definitions() {
        let dynamic = [
            Order::SmallestLast,
            Order::IncidenceDegree,
            Order::DynamicLargestFirst,
        ];
        for seed in 0..6 {
            let pattern = random_pattern(30, 15, seed);
            let graph = AdjacencyGraph::symmetric(&pattern).unwrap();
            for order in dynamic {
                let pi = adjacency_order(&graph, order);
                assert_valid(order, &pi, &|v| graph.neighbors(v).to_vec());
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
                }
                for order in dynamic {
                    let pi = bipartite_order(adjacency, back, order);
                    assert_valid(order, &pi, &distance2);
                }
            }
        }
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
