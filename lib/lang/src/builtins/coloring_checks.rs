//! The coloring validity checkers of SparseMatrixColorings, in the language: whether given
//! colors let a matrix be compressed and recovered. Each returns a `Bool` (colors of the wrong
//! length are `false`, as in SMC); with `verbose=true`, a failed check also logs SMC's warning
//! saying why (`coloring_explain`). `group_by_color` lists the columns (or rows) of each color.

use super::coloring::pattern_and_matrix;
use super::coloring_explain::{explain, Check};
use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_coloring::{SparsityPattern, Violation};

/// A vector of colors (1-based, 0 for neutral).
fn colors(v: &Value, name: &str) -> Result<Vec<usize>, Flow> {
    elements(v)?.iter().map(|c| to_size(c, name)).collect()
}

/// The check's answer, `true` or `false`; with `verbose`, a failure is explained in warnings
/// as SparseMatrixColorings words them (the crate's own description for matrices too large
/// to explain that way).
fn answer(
    interp: &mut Interp,
    outcome: Result<(), Violation>,
    verbose: Option<Explained>,
) -> EvalResult {
    let Err(violation) = outcome else {
        return Ok(Value::Bool(true));
    };
    if let Some(Explained {
        check,
        matrix,
        integers,
        colors,
    }) = verbose
    {
        let warnings = explain(check, &matrix, integers, &colors)
            .unwrap_or_else(|| vec![one_based(&violation)]);
        for warning in warnings {
            interp.warn("SparseMatrixColorings", warning);
        }
    }
    Ok(Value::Bool(false))
}

/// What a verbose failure is explained from.
struct Explained {
    check: Check,
    matrix: difflab_ad::shared_sparse::SharedCsMat,
    integers: bool,
    colors: Vec<Vec<usize>>,
}

/// The violation's message with 1-based row and column numbers.
pub(super) fn one_based(violation: &Violation) -> String {
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

/// `check(A, colors...; verbose=false)` for a check taking `ncolors` color vectors.
fn checked(
    interp: &mut Interp,
    args: &Args,
    name: &str,
    ncolors: usize,
    which: Check,
    check: impl FnOnce(&SparsityPattern, &[f64], &[Vec<usize>]) -> Result<(), Violation>,
) -> EvalResult {
    args.arity(name, 1 + ncolors, 1 + ncolors)?;
    let verbose = match args.kw("verbose") {
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
    let outcome = check(&pattern, matrix.data(), &color_vectors);
    let integers = crate::display::eltype_of(&args.pos[0]) == Some(ElType::Int64);
    let explained = verbose.then_some(Explained {
        check: which,
        matrix,
        integers,
        colors: color_vectors,
    });
    answer(interp, outcome, explained)
}

fn structurally_orthogonal_columns_(interp: &mut Interp, args: Args) -> EvalResult {
    checked(
        interp,
        &args,
        "structurally_orthogonal_columns",
        1,
        Check::OrthogonalColumns,
        |p, _, c| difflab_coloring::structurally_orthogonal_columns(p, &c[0]),
    )
}

fn structurally_orthogonal_rows_(interp: &mut Interp, args: Args) -> EvalResult {
    checked(
        interp,
        &args,
        "structurally_orthogonal_rows",
        1,
        Check::OrthogonalRows,
        |p, _, c| difflab_coloring::structurally_orthogonal_rows(p, &c[0]),
    )
}

fn symmetrically_orthogonal_columns_(interp: &mut Interp, args: Args) -> EvalResult {
    checked(
        interp,
        &args,
        "symmetrically_orthogonal_columns",
        1,
        Check::SymmetricColumns,
        |p, _, c| difflab_coloring::symmetrically_orthogonal_columns(p, &c[0]),
    )
}

fn structurally_biorthogonal_(interp: &mut Interp, args: Args) -> EvalResult {
    checked(
        interp,
        &args,
        "structurally_biorthogonal",
        2,
        Check::Biorthogonal,
        |p, _, c| difflab_coloring::structurally_biorthogonal(p, &c[0], &c[1]),
    )
}

fn directly_recoverable_columns_(interp: &mut Interp, args: Args) -> EvalResult {
    checked(
        interp,
        &args,
        "directly_recoverable_columns",
        1,
        Check::DirectlyRecoverable,
        |p, values, c| difflab_coloring::directly_recoverable_columns(p, values, &c[0]),
    )
}

/// `group_by_color(colors)`: for each color `1:maximum(colors)`, the positions having it
/// (neutral positions, color 0, belong to no group).
fn group_by_color_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("group_by_color", 1, 1)?;
    let colors = colors(&args.pos[0], "group_by_color")?;
    let count = colors.iter().copied().max().unwrap_or(0);
    // Each group becomes a vector value of its own, a few hundred bytes even when empty.
    interp.check_bytes((count as u64).saturating_mul(256), "the groups")?;
    let mut groups = vec![Vec::new(); count];
    for (position, &color) in colors.iter().enumerate() {
        if color > 0 {
            groups[color - 1].push(Value::Int(position as i64 + 1));
        }
    }
    let groups = groups
        .into_iter()
        .map(|group| {
            interp.check_interrupt()?;
            let n = group.len();
            crate::eval::collections::collect_values(interp, group, &[n])
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::list(groups))
}

crate::builtins! {
    "group_by_color" => group_by_color_, false, "    group_by_color(colors)\n\nThe positions of each color, in order of color (`colors[k] == 0` marks a neutral position, in no group): the columns compressed together.\n\n```\njulia> group_by_color([2, 0, 1, 2])\n2-element Vector{Vector{Int64}}:\n [3]\n [1, 4]\n```";
    "structurally_orthogonal_columns" => structurally_orthogonal_columns_, false, "    structurally_orthogonal_columns(A, colors, ; verbose=false)\n\nWhether column compression with `colors` (one per column, 0 = neutral) lets every stored entry of `A` be read back directly: no two columns of one color share a row. Colors of the wrong length give `false`; with `verbose=true`, a failure also prints a warning naming the first entry lost.\n\n```\njulia> A = sparse([1 1 0; 0 0 1]);\n\njulia> structurally_orthogonal_columns(A, [1, 2, 1]), structurally_orthogonal_columns(A, [1, 1, 2])\n(true, false)\n```";
    "structurally_orthogonal_rows" => structurally_orthogonal_rows_, false, "    structurally_orthogonal_rows(A, colors, ; verbose=false)\n\nWhether row compression with `colors` (one per row) lets every stored entry be read back directly: no two rows of one color share a column.\n\n```\njulia> structurally_orthogonal_rows(sparse([1 0; 0 1; 1 1]), [1, 1, 2])\ntrue\n```";
    "symmetrically_orthogonal_columns" => symmetrically_orthogonal_columns_, false, "    symmetrically_orthogonal_columns(A, colors, ; verbose=false)\n\nWhether a symmetric `A` can be recovered directly from its columns compressed with `colors`: for every stored `(i, j)`, column `j` is alone in its color in row `i`, or column `i` in row `j` (what star coloring guarantees).\n\n```\njulia> A = sparse([1 1 0; 1 1 1; 0 1 1]);\n\njulia> symmetrically_orthogonal_columns(A, [1, 2, 1])\ntrue\n```";
    "structurally_biorthogonal" => structurally_biorthogonal_, false, "    structurally_biorthogonal(A, row_colors, column_colors, ; verbose=false)\n\nWhether a bicoloring recovers `A` directly: each stored `(i, j)` is alone in its column color within row `i`, or alone in its row color within column `j` (0 = neutral, carries nothing).\n\n```\njulia> A = sparse([1 1 1; 1 0 0; 1 0 0]);\n\njulia> structurally_biorthogonal(A, [1, 0, 0], [1, 0, 0])\ntrue\n```";
    "directly_recoverable_columns" => directly_recoverable_columns_, false, "    directly_recoverable_columns(A, colors, ; verbose=false)\n\nA check on numbers: whether every stored value of `A` appears in its column compression with `colors` (necessary for direct decompression; use values without coincidences).\n\n```\njulia> directly_recoverable_columns(sparse([1.0 2 0; 0 0 3]), [1, 2, 1])\ntrue\n```";
}
