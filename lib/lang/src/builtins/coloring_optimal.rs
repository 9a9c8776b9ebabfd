//! SparseMatrixColorings' `OptimalColoringAlgorithm`: a column or row coloring with the fewest
//! colors, for comparing greedy orders against the optimum on small matrices. SMC hands the
//! problem to a mathematical-programming solver through JuMP; difflab searches it itself
//! (branch and bound over DSATUR, `difflab_coloring::optimal_distance2_colors`), within a time
//! limit. With `assert_solved=true` (the default) a search stopped by the limit is an
//! `AssertionError`, as an unsolved model is in SMC; otherwise the best coloring found is used.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_coloring::{
    coloring_with_colors, optimal_distance2_colors, BipartiteGraph, ColoringProblem,
    ColoringResult, Partition, Side, SparsityPattern, Structure,
};
use std::any::Any;
use std::time::{Duration, Instant};

/// The algorithm's settings.
pub struct OptimalAlgorithm {
    time_limit: Duration,
    assert_solved: bool,
}

impl Object for OptimalAlgorithm {
    fn type_name(&self) -> String {
        "OptimalColoringAlgorithm".into()
    }

    fn show(&self) -> String {
        format!(
            "OptimalColoringAlgorithm(; time_limit={}, assert_solved={})",
            self.time_limit.as_secs_f64(),
            self.assert_solved
        )
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The optimal algorithm `v` is, if it is one.
pub fn as_optimal(v: &Value) -> Option<&OptimalAlgorithm> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<OptimalAlgorithm>(),
        _ => None,
    }
}

/// `coloring(A, problem, algorithm)` with the optimal algorithm: nonsymmetric column or row
/// problems only, as in SMC.
pub fn colored(
    pattern: &SparsityPattern,
    problem: ColoringProblem,
    algorithm: &OptimalAlgorithm,
) -> Result<ColoringResult, Flow> {
    let side = match (problem.structure, problem.partition) {
        (Structure::Nonsymmetric, Partition::Column) => Side::Columns,
        (Structure::Nonsymmetric, Partition::Row) => Side::Rows,
        _ => return Err(fail(
            ErrorKind::MethodError,
            "OptimalColoringAlgorithm solves nonsymmetric column and row coloring problems only",
        )),
    };
    let started = Instant::now();
    let mut stopped_by = None;
    let found = optimal_distance2_colors(&BipartiteGraph::new(pattern), side, &mut || {
        if let Err(e) = difflab_ad::limits::check() {
            stopped_by = Some(e);
            return false;
        }
        started.elapsed() < algorithm.time_limit
    });
    if let Some(interrupt) = stopped_by {
        return Err(interrupt.into());
    }
    if !found.proven && algorithm.assert_solved {
        return Err(fail(
            ErrorKind::AssertionError,
            format!(
                "the search for an optimal coloring reached its time limit ({} s) before proving its best coloring ({} colors) optimal; pass assert_solved=false to use it",
                algorithm.time_limit.as_secs_f64(),
                found.colors.iter().copied().max().unwrap_or(0)
            ),
        ));
    }
    coloring_with_colors(pattern, problem, &found.colors)
        .map_err(|e| fail(ErrorKind::ArgumentError, e.to_string()))
}

fn optimal_coloring_algorithm_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("OptimalColoringAlgorithm", 0, 0)?;
    args.keywords(
        "OptimalColoringAlgorithm",
        &["time_limit", "assert_solved", "silent"],
    )?;
    let time_limit = match args.kw("time_limit") {
        None => 10.0,
        Some(v) => super::to_float(v, "time_limit")?,
    };
    if !(0.0..=1e6).contains(&time_limit) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("time_limit must be between 0 and 10^6 seconds, got {time_limit}"),
        ));
    }
    // `silent` is accepted for SMC's signature: the search prints nothing either way.
    args.flag("silent", true)?;
    Ok(Value::object(OptimalAlgorithm {
        time_limit: Duration::from_secs_f64(time_limit),
        assert_solved: args.flag("assert_solved", true)?,
    }))
}

crate::builtins! {
    "OptimalColoringAlgorithm" => optimal_coloring_algorithm_, false, "    OptimalColoringAlgorithm(; time_limit=10.0, assert_solved=true)\n\nA coloring algorithm that finds a column or row coloring with the fewest colors (nonsymmetric problems), to compare greedy orders with the optimum on small matrices. SparseMatrixColorings solves it with a JuMP optimizer; difflab searches it itself (branch and bound over DSATUR), for at most `time_limit` seconds. The problem is NP-hard: when the limit stops the search, `assert_solved=true` raises an `AssertionError`, and `assert_solved=false` uses the best coloring found.\n\n```\njulia> pairs = [(i, j) for i in 1:4 for j in 1:4 if i != j];\n\njulia> A = sparse(repeat(1:12, inner=2), vcat([[2i - 1, 2j] for (i, j) in pairs]...), ones(24));\n\njulia> ncolors(coloring(A, ColoringProblem(), OptimalColoringAlgorithm())), ncolors(coloring(A, ColoringProblem(), GreedyColoringAlgorithm()))\n(2, 4)\n```";
}
