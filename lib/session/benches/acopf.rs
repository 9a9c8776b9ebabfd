//! The sparsity talk's Hessian benchmark: the Lagrangian of AC optimal power flow on the six
//! PGLib-OPF cases of its table (`tests/fixtures/pglib`), built by `notebooks/acopf.dl`.
//! For each case: inputs, zeros, colors, and median wall times of the prepared dense Hessian
//! (`SecondOrder(AutoForwardDiff(), AutoReverseDiff())`, only up to case240: the dense Hessians
//! of the larger cases need 1.8–4.7 GB), the prepared sparse one (`AutoSparse` of the same
//! backend) and the unprepared sparse one (detection and coloring included), with the
//! dense/sparse ratios the talk reports in parentheses, all measured in this run.
//!
//! Run: `cargo bench -p difflab-session --bench acopf`.

mod support;

const SETUP: &str = r#"
include("../../notebooks/acopf.dl")
dir = joinpath("..", "..", "tests", "fixtures", "pglib")
median(ts) = sort(ts)[length(ts) ÷ 2 + 1]
dense = SecondOrder(AutoForwardDiff(), AutoReverseDiff())
sparse_backend = AutoSparse(dense)
function acopf_row(name, dense_too)
    L, x0 = acopf_lagrangian(readmatpower(joinpath(dir, "pglib_opf_" * name * ".m")))
    n = length(x0)
    zeros_percent = round(100 * (1 - nnz(hessian_sparsity(L, x0, TracerSparsityDetector())) / n^2); digits=2)
    unprepared = median([@elapsed(hessian(L, sparse_backend, x0)) for k in 1:3])
    prep = prepare_hessian(L, sparse_backend, x0)
    prepared = median([@elapsed(hessian(L, prep, sparse_backend, x0)) for k in 1:7])
    t_dense = NaN
    if dense_too
        dense_prep = prepare_hessian(L, dense, x0)
        t_dense = median([@elapsed(hessian(L, dense_prep, dense, x0)) for k in 1:3])
    end
    ratio(t) = dense_too ? string(" (", round(t_dense / t; digits=1), ")") : ""
    println(join([name, n, "$(zeros_percent)%", ncolors(prep), dense_too ? t_dense : "-",
                  string(prepared, ratio(prepared)), string(unprepared, ratio(unprepared))], "\t"))
end
"#;

fn main() {
    let mut bench = support::Bench::new();
    bench.run(SETUP);
    println!("case\tinputs\tzeros\tcolors\tdense prepared (s)\tsparse prepared (s)\tsparse unprepared (s)");
    for (case, dense) in [
        ("case3_lmbd", true),
        ("case60_c", true),
        ("case240_pserc", true),
        ("case1951_rte", false),
        ("case2746wp_k", false),
        ("case3375wp_k", false),
    ] {
        bench.print(&format!("acopf_row(\"{case}\", {dense})"));
    }
}
