mod common;
use common::*;
use difflab_coloring::*;
use std::time::Instant;
#[test]
fn profile() {
    let mtx = Mtx::read(&matrices_dir().join("delaunay_n16.mtx"));
    let t = Instant::now();
    let p = mtx.stored_pattern();
    eprintln!("pattern {:?}", t.elapsed());
    for (name, prob, dec) in [("star", ColoringProblem::SYMMETRIC, Decompression::Direct), ("acyc", ColoringProblem::SYMMETRIC, Decompression::Substitution), ("col", ColoringProblem::COLUMN, Decompression::Direct)] {
        for o in [Order::Natural, Order::SmallestLast] {
            let t = Instant::now();
            let r = coloring(&p, prob, &GreedyColoringAlgorithm::new(o).decompression(dec)).unwrap();
            let tc = t.elapsed();
            let t = Instant::now();
            if name == "star" { symmetrically_orthogonal_columns(&p, r.column_colors().unwrap()).unwrap(); }
            if name == "col" { structurally_orthogonal_columns(&p, r.column_colors().unwrap()).unwrap(); }
            eprintln!("{name} {o:?} coloring {tc:?} check {:?}", t.elapsed());
        }
    }
    let t = Instant::now();
    let _ = p.transpose();
    eprintln!("transpose {:?}", t.elapsed());
    let t = Instant::now();
    let _ = p.first_asymmetry();
    eprintln!("asym {:?}", t.elapsed());
}
