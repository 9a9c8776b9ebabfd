//! SparseMatrixColorings' `ConstantColoringAlgorithm`: a coloring known in advance (for a
//! matrix whose structure is fixed), which `coloring`, ADTypes' `column_coloring`,
//! `row_coloring` and `symmetric_coloring`, and `AutoSparse` use in place of a greedy
//! algorithm. The colors are
//! checked against the matrix (`InvalidColoringError` when they do not allow decompression),
//! the matrix must have the algorithm's size (`DimensionMismatch`) and the problem must be the
//! algorithm's own (`MethodError`), as in SMC.

use super::coloring::{pattern_and_matrix, symbol_or};
use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_coloring::{
    coloring_with_colors, ColoringError, ColoringProblem, ColoringResult, Partition,
    SparsityPattern, Structure,
};
use std::any::Any;

/// A given coloring: the problem it solves, the size of the matrix and one color per column
/// (or row).
pub struct ConstantAlgorithm {
    problem: ColoringProblem,
    shape: (usize, usize),
    colors: Vec<usize>,
}

fn partition_name(p: Partition) -> &'static str {
    match p {
        Partition::Column => "column",
        Partition::Row => "row",
        Partition::Bidirectional => "bidirectional",
    }
}

fn structure_name(s: Structure) -> &'static str {
    match s {
        Structure::Nonsymmetric => "nonsymmetric",
        Structure::Symmetric => "symmetric",
    }
}

impl Object for ConstantAlgorithm {
    fn type_name(&self) -> String {
        format!(
            "ConstantColoringAlgorithm{{:{}, :{}}}",
            partition_name(self.problem.partition),
            structure_name(self.problem.structure)
        )
    }

    fn show(&self) -> String {
        let colors: Vec<String> = self.colors.iter().map(usize::to_string).collect();
        format!(
            "{}({}×{} matrix, colors [{}])",
            self.type_name(),
            self.shape.0,
            self.shape.1,
            colors.join(", ")
        )
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The constant algorithm `v` is, if it is one.
pub fn as_constant(v: &Value) -> Option<&ConstantAlgorithm> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<ConstantAlgorithm>(),
        _ => None,
    }
}

/// `coloring(A, problem, algorithm)` with a constant algorithm.
pub fn colored(
    pattern: &SparsityPattern,
    problem: ColoringProblem,
    algorithm: &ConstantAlgorithm,
) -> Result<ColoringResult, Flow> {
    if pattern.shape() != algorithm.shape {
        let ((m, n), (p, q)) = (pattern.shape(), algorithm.shape);
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("the matrix is {m}×{n} but the coloring was given for a {p}×{q} matrix"),
        ));
    }
    if problem != algorithm.problem {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching coloring(::SparseMatrixCSC, ::ColoringProblem{{:{}, :{}}}, ::{})",
                structure_name(problem.structure),
                partition_name(problem.partition),
                algorithm.type_name()
            ),
        ));
    }
    coloring_with_colors(pattern, problem, &algorithm.colors).map_err(|e| match e {
        ColoringError::InvalidColoring(violation) => fail(
            ErrorKind::InvalidColoringError,
            super::coloring_checks::one_based(&violation),
        ),
        other => fail(ErrorKind::ArgumentError, other.to_string()),
    })
}

fn constant_coloring_algorithm_(_: &mut Interp, args: Args) -> EvalResult {
    args.keywords(
        "ConstantColoringAlgorithm",
        &["partition", "structure", "decompression"],
    )?;
    // `ConstantColoringAlgorithm{:column, :symmetric}(A, color)` passes its parameters first.
    let parameters = args
        .pos
        .iter()
        .take_while(|v| matches!(v, Value::Symbol(_)))
        .count();
    let [matrix, colors] = &args.pos[parameters..] else {
        return Err(fail(
            ErrorKind::MethodError,
            "ConstantColoringAlgorithm takes a matrix and a vector of colors",
        ));
    };
    let given = |k: usize, keyword: &str| args.pos[..parameters].get(k).or(args.kw(keyword));
    let partition = match symbol_or(given(0, "partition"), "partition", "column")? {
        "column" => Partition::Column,
        "row" => Partition::Row,
        other => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("partition must be :column or :row, got :{other}"),
            ))
        }
    };
    let structure = match symbol_or(given(1, "structure"), "structure", "nonsymmetric")? {
        "nonsymmetric" => Structure::Nonsymmetric,
        "symmetric" if partition == Partition::Column => Structure::Symmetric,
        other => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("structure must be :nonsymmetric, or :symmetric with partition :column, got :{other}"),
            ))
        }
    };
    let decompression = symbol_or(args.kw("decompression"), "decompression", "direct")?;
    if decompression != "direct" {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("a constant coloring decompresses directly; decompression=:{decompression} is not available"),
        ));
    }
    let (pattern, _) = pattern_and_matrix(matrix)?;
    let colors = elements(colors)?
        .iter()
        .map(|c| to_size(c, "ConstantColoringAlgorithm"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::object(ConstantAlgorithm {
        problem: ColoringProblem {
            structure,
            partition,
        },
        shape: pattern.shape(),
        colors,
    }))
}

crate::builtins! {
    "ConstantColoringAlgorithm" => constant_coloring_algorithm_, false, "    ConstantColoringAlgorithm(A, color; partition=:column, structure=:nonsymmetric, decompression=:direct)\n    ConstantColoringAlgorithm{partition}(A, color)\n    ConstantColoringAlgorithm{partition, structure}(A, color)\n\nA coloring known in advance for matrices with the structure of `A`: `coloring(A, problem, algorithm)` (and ADTypes' `column_coloring`, `row_coloring`, `symmetric_coloring`) returns a result with these colors, after checking that they allow direct decompression (`InvalidColoringError` otherwise), that the matrix has `A`'s size and that the problem is the algorithm's. `AutoSparse(backend; coloring_algorithm=ConstantColoringAlgorithm(P, colors))` colors with it (columns for forward mode, `{:row}` for reverse mode, `structure=:symmetric` for Hessians).\n\n```\njulia> A = sparse([1.0 0.0 2.0; 0.0 3.0 0.0]);\n\njulia> r = coloring(A, ColoringProblem(), ConstantColoringAlgorithm(A, [1, 1, 2]));\n\njulia> decompress(compress(A, r), r) == A\ntrue\n```";
}
