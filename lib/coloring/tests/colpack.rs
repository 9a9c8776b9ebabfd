//! Color counts against ColPack on the Matrix Market files of `tests/fixtures/matrices`.
//!
//! `colpack_counts.tsv` holds ColPack's count for every (matrix, problem, order); the rows
//! that map onto difflab's problems are compared here (see `SOURCES.md` there): column and row
//! partial distance-2 coloring on the pattern without explicit zeros, star and acyclic
//! coloring on the stored pattern (diagonal ignored, no post-processing). difflab must never
//! use more colors than ColPack, and its dynamic orders reproduce ColPack's bucket handling,
//! so every row is expected to match exactly. Every result is checked for validity, and the
//! natural-order ones are decompressed back to random values.

mod common;

use std::collections::HashMap;
use std::fmt::Write;

use common::{
    check_result, colpack_order, colpack_rows, matrices_dir, symmetric_values_for, values_for,
    ColPackRow as Row, Mtx, Rng,
};
use difflab_coloring::{
    coloring, structurally_orthogonal_columns, structurally_orthogonal_rows,
    symmetrically_orthogonal_columns, ColoringProblem, ColoringResult, Decompression,
    GreedyColoringAlgorithm, SparsityPattern,
};

/// difflab's coloring for one ColPack row, or `None` for rows outside difflab's problems.
fn difflab_result(
    row: &Row,
    nonzero: &SparsityPattern,
    stored: &SparsityPattern,
) -> Option<ColoringResult> {
    let algorithm = GreedyColoringAlgorithm::new(colpack_order(&row.order));
    let (pattern, problem, algorithm) = match row.problem.as_str() {
        "column_pd2" => (nonzero, ColoringProblem::COLUMN, algorithm),
        "row_pd2" => (nonzero, ColoringProblem::ROW, algorithm),
        "star" => (stored, ColoringProblem::SYMMETRIC, algorithm),
        "acyclic" | "acyclic_indirect" => (
            stored,
            ColoringProblem::SYMMETRIC,
            algorithm.decompression(Decompression::Substitution),
        ),
        _ => return None,
    };
    Some(coloring(pattern, problem, &algorithm).unwrap())
}

/// Validity of a result: the structural checkers for every order, and a full
/// compress/decompress round trip with random values for the natural order.
fn check(row: &Row, result: &ColoringResult) {
    let pattern = result.pattern();
    if row.order == "NATURAL" {
        let mut rng = Rng::new(7);
        let values = if result.problem() == ColoringProblem::SYMMETRIC {
            symmetric_values_for(pattern, &mut rng)
        } else {
            values_for(pattern, &mut rng)
        };
        check_result(result, &values);
    } else if let Some(colors) = result.row_colors() {
        structurally_orthogonal_rows(pattern, colors).unwrap();
    } else if result.problem() == ColoringProblem::COLUMN {
        structurally_orthogonal_columns(pattern, result.column_colors().unwrap()).unwrap();
    } else if result.algorithm().decompression == Decompression::Direct {
        symmetrically_orthogonal_columns(pattern, result.column_colors().unwrap()).unwrap();
    }
}

/// Compares every mapped row of one matrix and panics with the list of differing rows.
fn compare_matrix(matrix: &str) {
    let rows: Vec<Row> = colpack_rows()
        .into_iter()
        .filter(|r| r.matrix == matrix)
        .collect();
    assert!(!rows.is_empty(), "no ColPack rows for {matrix}");
    let mtx = Mtx::read(&matrices_dir().join(format!("{matrix}.mtx")));
    let (nonzero, stored) = (mtx.nonzero_pattern(), mtx.stored_pattern());
    let mut computed: HashMap<(String, String), Option<usize>> = HashMap::new();
    let mut report = String::new();
    let mut compared = 0;
    for row in &rows {
        // `acyclic_indirect` is ColPack's other acyclic variant: the same problem for difflab.
        let key = (
            row.problem.replace("acyclic_indirect", "acyclic"),
            row.order.clone(),
        );
        let ours = *computed.entry(key).or_insert_with(|| {
            difflab_result(row, &nonzero, &stored).map(|result| {
                check(row, &result);
                result.ncolors()
            })
        });
        let Some(ours) = ours else {
            continue;
        };
        compared += 1;
        if ours != row.colors {
            let verdict = if ours > row.colors { "more" } else { "fewer" };
            let _ = writeln!(
                report,
                "{} {} {}: difflab {ours} ColPack {} ({verdict})",
                row.matrix, row.problem, row.order, row.colors
            );
        }
    }
    assert!(compared > 0, "no comparable ColPack rows for {matrix}");
    assert!(report.is_empty(), "rows differing from ColPack:\n{report}");
}

/// One test per matrix, so that the test harness spreads them over the available cores.
macro_rules! colpack_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            #[allow(non_snake_case)] // named after the file
            fn $name() {
                compare_matrix(stringify!($name));
            }
        )*

        /// The table names exactly the matrices tested above.
        #[test]
        fn every_matrix_is_tested() {
            let mut listed: Vec<String> = colpack_rows().into_iter().map(|r| r.matrix).collect();
            listed.sort();
            listed.dedup();
            let mut tested = vec![$(stringify!($name).to_string()),*];
            tested.sort();
            assert_eq!(listed, tested);
        }
    };
}

colpack_tests!(
    west0067,
    lp_share1b,
    impcol_a,
    lp_e226,
    west0479,
    dwt_992,
    jagmesh7,
    nnc1374,
    bcsstk13,
    cryg2500,
    zenios,
    bcsstk15,
    Groebner_id2003_aug,
    rajat01,
    Franz6_id1959_aug,
    bayer10,
    lp_ken_11,
    arrow,
    delaunay_n16,
    luxembourg_osm,
);
