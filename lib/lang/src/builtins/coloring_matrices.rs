//! SparseMatrixColorings' helpers on matrices (`matrix_versions`, `respectful_similar`),
//! written in the language (`coloring_matrices.dl`). Transposes, adjoints and symmetric views
//! are plain matrices in difflab, so the versions differ in storage (dense or sparse) and in
//! how they were made, and `respectful_similar` is `similar`.

use super::{call_library, Args};
use crate::error::EvalResult;
use crate::eval::Interp;

const LIBRARY: &str = include_str!("coloring_matrices.dl");

/// Calls `name` of the library with `min..=max` arguments.
fn library(interp: &mut Interp, args: Args, name: &str, (min, max): (usize, usize)) -> EvalResult {
    args.arity(name, min, max)?;
    call_library(interp, "the matrix helpers", LIBRARY, name, args)
}

fn matrix_versions_(interp: &mut Interp, args: Args) -> EvalResult {
    library(interp, args, "matrix_versions", (1, 1))
}

fn respectful_similar_(interp: &mut Interp, args: Args) -> EvalResult {
    library(interp, args, "respectful_similar", (1, 2))
}

crate::builtins! {
    "matrix_versions" => matrix_versions_, false, "    matrix_versions(A)\n\nThe versions of one matrix that SparseMatrixColorings' tests color and decompress alike: dense and sparse, each also made through a transpose and an adjoint, and for a symmetric `A` the `Symmetric` and `Hermitian` forms and those built from one triangle.\n\n```\njulia> vs = matrix_versions([1.0 2.0; 2.0 1.0]);\n\njulia> length(vs), all(==(vs[1]), vs)\n(22, true)\n```";
    "respectful_similar" => respectful_similar_, false, "    respectful_similar(A, [T])\n\n`similar` that keeps the kind of matrix (dense or sparse), as SparseMatrixColorings uses it for decompression targets (transposes and adjoints are plain matrices in difflab, so it is `similar`).\n\n```\njulia> typeof(respectful_similar(sparse([1.0 0.0; 0.0 1.0]), Bool))\nSparseMatrixCSC{Bool, Int64}\n```";
}
