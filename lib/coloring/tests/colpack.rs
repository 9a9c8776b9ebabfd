//! Color counts against ColPack on the Matrix Market files of `shared/data/matrices`.
//!
//! `colpack_counts.tsv` holds ColPack's count for every (matrix, problem, order); the rows
//! that map onto difflab's problems are compared here (see `SOURCES.md` there): column and row
//! partial distance-2 coloring on the pattern without explicit zeros, star and acyclic
//! coloring on the stored pattern (diagonal ignored, no post-processing). difflab must never
//! use more colors than ColPack, and its dynamic orders reproduce ColPack's bucket handling,
//! so every row is expected to match exactly. Every result is also checked for validity.

mod common;

use std::collections::HashMap;
use std::fmt::Write;

use common::{matrices_dir, Mtx};
use difflab_coloring::{
    coloring, structurally_orthogonal_columns, structurally_orthogonal_rows, symmetrically_orthogonal_columns,
    ColoringProblem, Decompression, GreedyColoringAlgorithm, Order, SparsityPattern,
};

struct Row {
    matrix: String,
    problem: String,
    order: String,
    colors: usize,
}

fn read_counts() -> Vec<Row> {
    let text = std::fs::read_to_string(matrices_dir().join("colpack_counts.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Row {
                matrix: f[0].to_string(),
                problem: f[4].to_string(),
                order: f[5].to_string(),
                colors: f[6].parse().unwrap(),
            }
        })
        .collect()
}

fn order(name: &str) -> Order {
    match name {
        "NATURAL" => Order::Natural,
        "LARGEST_FIRST" => Order::LargestFirst,
        "SMALLEST_LAST" => Order::SmallestLast,
        "INCIDENCE_DEGREE" => Order::IncidenceDegree,
        "DYNAMIC_LARGEST_FIRST" => Order::DynamicLargestFirst,
        other => panic!("unknown order {other}"),
    }
}

/// Colors difflab uses for one ColPack row, or `None` for rows outside difflab's problems.
fn difflab_colors(row: &Row, nonzero: &SparsityPattern, stored: &SparsityPattern) -> Option<usize> {
    let algorithm = GreedyColoringAlgorithm::new(order(&row.order));
    let result = match row.problem.as_str() {
        "column_pd2" => {
            let r = coloring(nonzero, ColoringProblem::COLUMN, &algorithm).unwrap();
            structurally_orthogonal_columns(nonzero, r.column_colors().unwrap()).unwrap();
            r
        }
        "row_pd2" => {
            let r = coloring(nonzero, ColoringProblem::ROW, &algorithm).unwrap();
            structurally_orthogonal_rows(nonzero, r.row_colors().unwrap()).unwrap();
            r
        }
        "star" => {
            let r = coloring(stored, ColoringProblem::SYMMETRIC, &algorithm).unwrap();
            symmetrically_orthogonal_columns(stored, r.column_colors().unwrap()).unwrap();
            r
        }
        "acyclic" | "acyclic_indirect" => {
            let algorithm = algorithm.decompression(Decompression::Substitution);
            coloring(stored, ColoringProblem::SYMMETRIC, &algorithm).unwrap()
        }
        _ => return None,
    };
    Some(result.ncolors())
}

#[test]
fn colpack_color_counts() {
    let rows = read_counts();
    let mut patterns: HashMap<String, (SparsityPattern, SparsityPattern)> = HashMap::new();
    let mut report = String::new();
    let (mut compared, mut worse, mut better) = (0, 0, 0);
    for row in &rows {
        let (nonzero, stored) = patterns.entry(row.matrix.clone()).or_insert_with(|| {
            let mtx = Mtx::read(&matrices_dir().join(format!("{}.mtx", row.matrix)));
            (mtx.nonzero_pattern(), mtx.stored_pattern())
        });
        let t0 = std::time::Instant::now();
        let got = difflab_colors(row, nonzero, stored);
        eprintln!("TIME {:.3} {} {} {}", t0.elapsed().as_secs_f64(), row.matrix, row.problem, row.order);
        let Some(ours) = got else {
            continue;
        };
        compared += 1;
        if ours != row.colors {
            let _ = writeln!(report, "{} {} {}: difflab {} ColPack {}", row.matrix, row.problem, row.order, ours, row.colors);
            if ours > row.colors {
                worse += 1;
            } else {
                better += 1;
            }
        }
    }
    println!("{compared} rows compared, {worse} worse, {better} better\n{report}");
    assert_eq!(worse + better, 0, "rows differing from ColPack:\n{report}");
}
