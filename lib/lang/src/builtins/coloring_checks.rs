//! The coloring validity checkers of SparseMatrixColorings, in the language: whether given
//! colors let a matrix be compressed and recovered. Each returns a `Bool`; with a final `true`
//! (`verbose`), a failed check is an `ArgumentError` naming the first entry that is lost.

use super::coloring::pattern_and_matrix;
use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::eval::iterate::elements;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::value::Value;
use difflab_coloring::{SparsityPattern, Violation};

/// A vector of colors (1-based, 0 for neutral).
fn colors(v: &Value, name: &str) -> Result<Vec<usize>, Flow> {
    elements(v)?.iter().map(|c| to_size(c, name)).collect()
}

/// The check's answer: `true`, `false`, or with `verbose` the violation as an error. Colors of
/// the wrong length are always an error: the question does not apply.
fn answer(outcome: Result<(), Violation>, verbose: bool) -> EvalResult {
    match outcome {
        Ok(()) => Ok(Value::Bool(true)),
        Err(violation @ Violation::WrongLength { .. }) => {
            Err(fail(ErrorKind::DimensionMismatch, violation.to_string()))
        }
        Err(violation) if verbose => Err(fail(ErrorKind::ArgumentError, one_based(&violation))),
        Err(_) => Ok(Value::Bool(false)),
    }
}

/// The violation's message with 1-based row and column numbers.
fn one_based(violation: &Violation) -> String {
    let shifted = match *violation {
        Violation::NotSymmetric { row, col } => Violation::NotSymmetric {
            row: row + 1,
            col: col + 1,
        },
        Violation::Unrecoverable { row, col } => Violation::Unrecoverable {
            row: row + 1,
            col: col + 1,
        },
        Violation::ValueLost { row, col } => Violation::ValueLost {
            row: row + 1,
            col: col + 1,
        },
        ref other => other.clone(),
    };
    shifted.to_string()
}

/// `check(A, colors..., [verbose])` for a check taking `ncolors` color vectors.
fn checked(
    args: &Args,
    name: &str,
    ncolors: usize,
    check: impl FnOnce(&SparsityPattern, &[f64], &[Vec<usize>]) -> Result<(), Violation>,
) -> EvalResult {
    args.arity(name, 1 + ncolors, 2 + ncolors)?;
    let verbose = match args.pos.get(1 + ncolors) {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(fail(
                ErrorKind::TypeError,
                format!(
                    "{name}: verbose must be a Bool, got a {}",
                    other.type_name()
                ),
            ))
        }
    };
    let (pattern, matrix) = pattern_and_matrix(&args.pos[0])?;
    let color_vectors = args.pos[1..=ncolors]
        .iter()
        .map(|v| colors(v, name))
        .collect::<Result<Vec<_>, _>>()?;
    answer(check(&pattern, matrix.data(), &color_vectors), verbose)
}

fn structurally_orthogonal_columns_(_: &mut Interp, args: Args) -> EvalResult {
    checked(&args, "structurally_orthogonal_columns", 1, |p, _, c| {
        difflab_coloring::structurally_orthogonal_columns(p, &c[0])
    })
}

fn structurally_orthogonal_rows_(_: &mut Interp, args: Args) -> EvalResult {
    checked(&args, "structurally_orthogonal_rows", 1, |p, _, c| {
        difflab_coloring::structurally_orthogonal_rows(p, &c[0])
    })
}

fn symmetrically_orthogonal_columns_(_: &mut Interp, args: Args) -> EvalResult {
    checked(&args, "symmetrically_orthogonal_columns", 1, |p, _, c| {
        difflab_coloring::symmetrically_orthogonal_columns(p, &c[0])
    })
}

fn structurally_biorthogonal_(_: &mut Interp, args: Args) -> EvalResult {
    checked(&args, "structurally_biorthogonal", 2, |p, _, c| {
        difflab_coloring::structurally_biorthogonal(p, &c[0], &c[1])
    })
}

fn directly_recoverable_columns_(_: &mut Interp, args: Args) -> EvalResult {
    checked(&args, "directly_recoverable_columns", 1, |p, values, c| {
        difflab_coloring::directly_recoverable_columns(p, values, &c[0])
    })
}

crate::builtins! {
    "structurally_orthogonal_columns" => structurally_orthogonal_columns_, false, "    structurally_orthogonal_columns(A, colors, [verbose=false])\n\nWhether column compression with `colors` (one per column, 0 = neutral) lets every stored entry of `A` be read back directly: no two columns of one color share a row. With `verbose=true`, a failure is an `ArgumentError` naming the first entry lost.\n\n```\njulia> A = sparse([1 1 0; 0 0 1]);\n\njulia> structurally_orthogonal_columns(A, [1, 2, 1]), structurally_orthogonal_columns(A, [1, 1, 2])\n(true, false)\n```";
    "structurally_orthogonal_rows" => structurally_orthogonal_rows_, false, "    structurally_orthogonal_rows(A, colors, [verbose=false])\n\nWhether row compression with `colors` (one per row) lets every stored entry be read back directly: no two rows of one color share a column.\n\n```\njulia> structurally_orthogonal_rows(sparse([1 0; 0 1; 1 1]), [1, 1, 2])\ntrue\n```";
    "symmetrically_orthogonal_columns" => symmetrically_orthogonal_columns_, false, "    symmetrically_orthogonal_columns(A, colors, [verbose=false])\n\nWhether a symmetric `A` can be recovered directly from its columns compressed with `colors`: for every stored `(i, j)`, column `j` is alone in its color in row `i`, or column `i` in row `j` (what star coloring guarantees).\n\n```\njulia> A = sparse([1 1 0; 1 1 1; 0 1 1]);\n\njulia> symmetrically_orthogonal_columns(A, [1, 2, 1])\ntrue\n```";
    "structurally_biorthogonal" => structurally_biorthogonal_, false, "    structurally_biorthogonal(A, row_colors, column_colors, [verbose=false])\n\nWhether a bicoloring recovers `A` directly: each stored `(i, j)` is alone in its column color within row `i`, or alone in its row color within column `j` (0 = neutral, carries nothing).\n\n```\njulia> A = sparse([1 1 1; 1 0 0; 1 0 0]);\n\njulia> structurally_biorthogonal(A, [1, 0, 0], [1, 0, 0])\ntrue\n```";
    "directly_recoverable_columns" => directly_recoverable_columns_, false, "    directly_recoverable_columns(A, colors, [verbose=false])\n\nA check on numbers: whether every stored value of `A` appears in its column compression with `colors` (necessary for direct decompression; use values without coincidences).\n\n```\njulia> directly_recoverable_columns(sparse([1.0 2 0; 0 0 3]), [1, 2, 1])\ntrue\n```";
}
