//! Seeded random patterns for every problem, decompression mode, post-processing setting and
//! vertex order: every coloring must be valid and `decompress(compress(A)) == A`.
//!
//! The grid follows SparseMatrixColorings' `test/random.jl`. Acyclic colorings are also checked
//! here for the property that defines them (no two-colored cycle), which the library's
//! checkers do not cover.

mod common;

use std::collections::HashMap;

use common::{
    check_result, random_pattern, random_symmetric_pattern, symmetric_values_for, values_for, Rng,
};
use difflab_coloring::{
    coloring, ColoringProblem, ColoringResult, Decompression, GreedyColoringAlgorithm, Order,
    SparsityPattern,
};

const ORDERS: [Order; 6] = [
    Order::Natural,
    Order::LargestFirst,
    Order::SMALLEST_LAST,
    Order::INCIDENCE_DEGREE,
    Order::DYNAMIC_LARGEST_FIRST,
    Order::Random(42),
];

fn algorithms(problem: ColoringProblem) -> Vec<GreedyColoringAlgorithm> {
    let modes: &[(Decompression, bool)] =
        if problem == ColoringProblem::COLUMN || problem == ColoringProblem::ROW {
            // Substitution and post-processing do not apply; they must still be accepted.
            &[
                (Decompression::Direct, false),
                (Decompression::Substitution, true),
            ]
        } else {
            &[
                (Decompression::Direct, false),
                (Decompression::Direct, true),
                (Decompression::Substitution, false),
                (Decompression::Substitution, true),
            ]
        };
    let mut all = Vec::new();
    for &(decompression, postprocessing) in modes {
        for order in ORDERS {
            all.push(
                GreedyColoringAlgorithm::new(order)
                    .decompression(decompression)
                    .postprocessing(postprocessing),
            );
        }
        // All orders at once keep the best one.
        all.push(
            GreedyColoringAlgorithm::with_orders(ORDERS)
                .decompression(decompression)
                .postprocessing(postprocessing),
        );
    }
    all
}

/// A vertex-indexed union–find, for finding cycles.
fn find(parent: &mut HashMap<usize, usize>, v: usize) -> usize {
    let p = *parent.entry(v).or_insert(v);
    if p == v {
        v
    } else {
        let root = find(parent, p);
        parent.insert(v, root);
        root
    }
}

/// Checks that the subgraph spanned by every pair of colors is a forest. `edges` lists each
/// undirected edge once, with the colors of its ends (0 means neutral: no constraint).
fn assert_two_colored_forests(edges: impl Iterator<Item = ((usize, usize), (usize, usize))>) {
    let mut forests: HashMap<(usize, usize), HashMap<usize, usize>> = HashMap::new();
    for ((a, b), (ca, cb)) in edges {
        if ca == 0 || cb == 0 {
            continue;
        }
        assert_ne!(ca, cb, "adjacent vertices {a} and {b} share color {ca}");
        let parent = forests.entry((ca.min(cb), ca.max(cb))).or_default();
        let (ra, rb) = (find(parent, a), find(parent, b));
        assert_ne!(
            ra, rb,
            "two-colored cycle through edge ({a}, {b}) with colors {ca}, {cb}"
        );
        parent.insert(ra, rb);
    }
}

fn assert_acyclic(result: &ColoringResult) {
    let pattern = result.pattern();
    if result.problem() == ColoringProblem::SYMMETRIC {
        let colors = result.column_colors().unwrap();
        assert_two_colored_forests(
            pattern
                .entries()
                .filter(|(i, j)| i > j)
                .map(|(i, j)| ((i, j), (colors[i], colors[j]))),
        );
    } else {
        // In the graph of [0 Aᵀ; A 0], rows and columns are distinct vertices whose colors are
        // numbered separately: offset the row colors to keep them apart.
        let (rows, columns) = (
            result.row_colors().unwrap(),
            result.column_colors().unwrap(),
        );
        let offset = columns.iter().copied().max().unwrap_or(0);
        let n = pattern.ncols();
        assert_two_colored_forests(pattern.entries().map(|(i, j)| {
            let ci = if rows[i] == 0 { 0 } else { rows[i] + offset };
            ((n + i, j), (ci, columns[j]))
        }));
    }
}

fn check_all(pattern: &SparsityPattern, problem: ColoringProblem, values: &[f64]) {
    for algorithm in algorithms(problem) {
        let result = coloring(pattern, problem, &algorithm).unwrap();
        check_result(&result, values);
        let substitution = algorithm.decompression == Decompression::Substitution;
        if substitution
            && !algorithm.postprocessing
            && problem != ColoringProblem::COLUMN
            && problem != ColoringProblem::ROW
        {
            assert_acyclic(&result);
        }
    }
}

#[test]
fn random_nonsymmetric_patterns() {
    let mut rng = Rng::new(2024);
    let small = [(10, 20), (20, 10)].map(|s| (s, vec![0.0, 0.1, 0.2, 0.3, 0.4, 0.5]));
    let large = [(100, 200), (200, 100)].map(|s| (s, vec![0.01, 0.02, 0.03, 0.04, 0.05]));
    for ((m, n), densities) in small.into_iter().chain(large) {
        for p in densities {
            for _ in 0..3 {
                let pattern = random_pattern(m, n, p, &mut rng);
                let values = values_for(&pattern, &mut rng);
                for problem in [
                    ColoringProblem::COLUMN,
                    ColoringProblem::ROW,
                    ColoringProblem::BIDIRECTIONAL,
                ] {
                    check_all(&pattern, problem, &values);
                }
            }
        }
    }
}

#[test]
fn random_symmetric_patterns() {
    let mut rng = Rng::new(7);
    for (n, densities) in [(10, [0.1, 0.2, 0.3, 0.5]), (100, [0.01, 0.02, 0.05, 0.1])] {
        for p in densities {
            for _ in 0..3 {
                let pattern = random_symmetric_pattern(n, p, &mut rng);
                let values = symmetric_values_for(&pattern, &mut rng);
                check_all(&pattern, ColoringProblem::SYMMETRIC, &values);
                // A symmetric matrix is also a Jacobian.
                for problem in [
                    ColoringProblem::COLUMN,
                    ColoringProblem::ROW,
                    ColoringProblem::BIDIRECTIONAL,
                ] {
                    check_all(&pattern, problem, &values);
                }
            }
        }
    }
}

#[test]
fn random_orders_depend_only_on_the_seed() {
    let mut rng = Rng::new(3);
    let pattern = random_symmetric_pattern(60, 0.1, &mut rng);
    let run = |seed| {
        let algorithm = GreedyColoringAlgorithm::new(Order::Random(seed));
        coloring(&pattern, ColoringProblem::SYMMETRIC, &algorithm)
            .unwrap()
            .column_colors()
            .unwrap()
            .to_vec()
    };
    assert_eq!(run(5), run(5));
    assert!((0..10).any(|seed| run(seed) != run(5)));
}
