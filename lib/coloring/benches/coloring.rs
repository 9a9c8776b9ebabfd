//! Coloring time on the ColPack test matrices, printed beside ColPack's own time.
//!
//! `cargo bench -p difflab-coloring` colors every matrix of `tests/fixtures/matrices` for each
//! (problem, order) row of `colpack_counts.tsv` that maps onto difflab (see `tests/colpack.rs`)
//! and prints the colors and milliseconds of both. difflab's time covers what ColPack's
//! `seconds` column covers (ordering plus coloring) and also building the graph and the
//! decompression plan. `decompress_into`, the step automatic differentiation repeats, is timed
//! for the natural order. Star bicoloring rows are printed as a quality reference (ColPack's
//! counts include up to two neutral colors). Without `--bench` (as under `cargo test
//! --benches`) only the first matrix runs, as a smoke test.

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::{colpack_order, colpack_rows, matrices_dir, Mtx};

use difflab_coloring::{
    coloring, decompress_bidirectional_into, decompress_into, ColoringProblem, ColoringResult,
    Decompression, GreedyColoringAlgorithm, SparsityPattern,
};

/// Best of a few runs, stopping after about a quarter of a second.
fn time<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..5 {
        let t = Instant::now();
        last = Some(f());
        best = best.min(t.elapsed());
        if start.elapsed() > Duration::from_millis(250) {
            break;
        }
    }
    (best, last.expect("at least one run"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Time of one `decompress_into` from an all-ones compressed matrix, in milliseconds.
fn decompression_ms(result: &ColoringResult) -> Option<f64> {
    let mut values = vec![0.0; result.pattern().nnz()];
    if let Some((mut br, mut bc)) = result.bidirectional_compressed_zeros() {
        br.fill(1.0);
        bc.fill(1.0);
        let (d, _) =
            time(|| decompress_bidirectional_into(&mut values, br.view(), bc.view(), result));
        return Some(ms(d));
    }
    let shape = result.compressed_shape()?;
    // A compressed matrix has one dense column per color; skip the ones too big to allocate.
    if shape.0 * shape.1 > 1 << 26 {
        return None;
    }
    let mut b = result.compressed_zeros()?;
    b.fill(1.0);
    let (d, _) = time(|| decompress_into(&mut values, b.view(), result));
    Some(ms(d))
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let dir = matrices_dir();
    let rows = colpack_rows();
    let mut matrices: Vec<&str> = rows.iter().map(|r| r.matrix.as_str()).collect();
    matrices.dedup();
    if !full {
        matrices.truncate(1);
    }
    println!(
        "{:<20} {:<16} {:<22} {:>7} {:>7} {:>10} {:>10} {:>9} {:>13}",
        "matrix",
        "problem",
        "order",
        "colors",
        "ColPack",
        "ms",
        "ColPack ms",
        "ratio",
        "decompress ms"
    );
    let (mut ours_total, mut colpack_total) = (0.0, 0.0);
    let mut patterns: HashMap<&str, (SparsityPattern, SparsityPattern)> = HashMap::new();
    for row in rows
        .iter()
        .filter(|r| matrices.contains(&r.matrix.as_str()))
    {
        let (stored, nonzero) = patterns.entry(row.matrix.as_str()).or_insert_with(|| {
            let mtx = Mtx::read(&dir.join(format!("{}.mtx", row.matrix)));
            (mtx.stored_pattern(), mtx.nonzero_pattern())
        });
        let base = GreedyColoringAlgorithm::new(colpack_order(&row.order));
        let (pattern, problem, algorithm) = match row.problem.as_str() {
            "column_pd2" => (&*nonzero, ColoringProblem::COLUMN, base),
            "row_pd2" => (&*nonzero, ColoringProblem::ROW, base),
            "star" => (&*stored, ColoringProblem::SYMMETRIC, base),
            "acyclic" => (
                &*stored,
                ColoringProblem::SYMMETRIC,
                base.decompression(Decompression::Substitution),
            ),
            "star_bicoloring" => (
                &*nonzero,
                ColoringProblem::BIDIRECTIONAL,
                base.postprocessing(true),
            ),
            _ => continue, // acyclic_indirect repeats acyclic; explicit bicoloring has no counterpart
        };
        let (elapsed, result) = time(|| coloring(pattern, problem, &algorithm).expect("coloring"));
        let colpack_ms = row.seconds * 1e3;
        let compared = row.problem != "star_bicoloring";
        if compared {
            ours_total += ms(elapsed);
            colpack_total += colpack_ms;
        }
        let ratio = if colpack_ms > 0.0 {
            format!("{:.2}", ms(elapsed) / colpack_ms)
        } else {
            "-".into()
        };
        let decompress = if row.order == "NATURAL" {
            decompression_ms(&result).map_or("-".into(), |d| format!("{d:.3}"))
        } else {
            String::new()
        };
        println!(
            "{:<20} {:<16} {:<22} {:>7} {:>7} {:>10.2} {:>10.0} {:>9} {:>13}",
            row.matrix,
            row.problem,
            row.order,
            result.ncolors(),
            row.colors,
            ms(elapsed),
            colpack_ms,
            ratio,
            decompress
        );
    }
    println!(
        "total over compared rows: difflab {ours_total:.0} ms, ColPack {colpack_total:.0} ms (ColPack times have 10 ms steps)"
    );
}
