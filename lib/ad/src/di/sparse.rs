//! Automatic sparse differentiation: sparsity detection with tracers, then one pushforward,
//! pullback or HVP per color of the pattern's coloring, decompressed into a sparse matrix.
//!
//! [`jacobian_sparsity`] runs the function once on tracers; [`hessian_sparsity`] takes forward
//! derivatives on tracers, so the gradient's entries carry the Hessian's rows. A [`SparsePlan`]
//! (pattern and coloring) is made once at preparation; [`sparse_jacobian`] and
//! [`sparse_hessian`] reuse it for every input.

use super::backend::{Backend, Mode};
use super::operators::gradient_and_hvp;
use super::primitives::{pullback, pushforward};
use crate::error::AdError;
use crate::shared_sparse::{SharedCsMat, SharedPattern};
use crate::symbolic::{EntryPrograms, Outputs, Program};
use crate::tensor::Tensor;
use crate::tracer::{self, sets_of, IndexSet};
use difflab_coloring::{
    coloring, decompress_bidirectional_into, decompress_lines_into, ColoringProblem,
    ColoringResult, GreedyColoringAlgorithm, SparsityPattern,
};
use sprs::CsMat;
use std::rc::Rc;

fn pattern_error(e: difflab_coloring::ColoringError) -> AdError {
    AdError::Argument(e.to_string())
}

/// The Jacobian pattern of `f` at (or, when `local` is false, for every) `x`: `(length(y),
/// length(x))`.
pub fn jacobian_sparsity<E, F>(f: &mut F, x: &Tensor, local: bool) -> Result<SparsityPattern, E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let y = f(&tracer::input(x, local))?;
    Ok(pattern_of_rows(&sets_of(&y), x.len())?)
}

/// The pattern whose row `i` holds the columns of `rows[i]` (sorted sets): they are the
/// columns of its transpose, so no sort is needed.
fn pattern_of_rows(rows: &[IndexSet], ncols: usize) -> Result<SparsityPattern, AdError> {
    let mut colptr = Vec::with_capacity(rows.len() + 1);
    colptr.push(0);
    let mut rowval = Vec::with_capacity(rows.iter().map(|s| s.len()).sum());
    for set in rows {
        rowval.extend(set.iter().map(|&j| j as usize));
        colptr.push(rowval.len());
    }
    let transposed =
        SparsityPattern::new(ncols, rows.len(), colptr, rowval).map_err(pattern_error)?;
    Ok(transposed.transpose())
}

/// The Hessian pattern of a scalar `f` (symmetric, `(length(x), length(x))`): the Jacobian
/// pattern of its gradient, computed by one reverse sweep on tracers (a slope that depends on
/// no input, as for linear maps, adds nothing).
pub fn hessian_sparsity<E, F>(f: &mut F, x: &Tensor, local: bool) -> Result<SparsityPattern, E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let (_, g) = super::operators::value_and_gradient(
        f,
        &Backend::Reverse { compile: false },
        &tracer::input(x, local),
    )?;
    let mut entries = Vec::new();
    for (i, set) in sets_of(&g).iter().enumerate() {
        for &j in set.iter() {
            entries.push((i, j as usize));
            entries.push((j as usize, i));
        }
    }
    Ok(SparsityPattern::from_entries(x.len(), x.len(), &entries).map_err(pattern_error)?)
}

/// What preparation computes once for sparse Jacobians and Hessians: the coloring, the seeds
/// of its groups, and the result's structure (each call only fills in the values).
#[derive(Debug, Clone)]
pub struct SparsePlan {
    /// The pattern and its coloring.
    pub coloring: ColoringResult,
    /// One seed per column group, of the input's shape (forward mode, HVPs).
    column_seeds: Vec<Tensor>,
    /// One seed per row group, of the output's shape (reverse mode).
    row_seeds: Vec<Tensor>,
    /// The pattern, shared by every matrix computed with the plan.
    structure: SharedPattern,
    /// For a (nonsymmetric) column coloring: each row's stored entries, to write a row of
    /// compressed lanes straight into the matrix.
    rows: Option<RowEntries>,
    /// For a traced program: programs computing the matrix's values, in storage order.
    nonzeros: Option<Rc<EntryPrograms>>,
}

/// How many derivative nodes a program of nonzeros may take in any case.
const SMALL_DERIVATIVES: usize = 1 << 12;

/// Each row's stored entries as (position among the matrix's values, color group), row by row:
/// in a column coloring, entry `(i, j)` is lane `color(j)` of row `i` of the compressed matrix.
#[derive(Debug, Clone)]
struct RowEntries {
    starts: Vec<usize>,
    entries: Vec<(usize, usize)>,
}

impl RowEntries {
    fn of(structure: &CsMat<f64>, colors: &[usize]) -> Option<RowEntries> {
        let mut by_row: Vec<Vec<(usize, usize)>> = vec![Vec::new(); structure.rows()];
        let indptr = structure.indptr();
        let starts = indptr.to_proper();
        for (j, column) in structure.outer_iterator().enumerate() {
            // Colors are 1-based; a neutral column (0) is not seeded.
            let group = colors.get(j)?.checked_sub(1)?;
            for (k, (i, _)) in column.iter().enumerate() {
                by_row[i].push((starts[j] + k, group));
            }
        }
        let mut starts = Vec::with_capacity(by_row.len() + 1);
        starts.push(0);
        for row in &by_row {
            starts.push(starts.last().copied().unwrap_or(0) + row.len());
        }
        Some(RowEntries {
            starts,
            entries: by_row.concat(),
        })
    }

    fn row(&self, i: usize) -> &[(usize, usize)] {
        &self.entries[self.starts[i]..self.starts[i + 1]]
    }
}

impl SparsePlan {
    /// The plan of a coloring made elsewhere (colors given in advance), for inputs of
    /// `input_shape` and outputs of `output_shape` (`[]` for a Hessian).
    pub fn new(
        coloring: ColoringResult,
        input_shape: &[usize],
        output_shape: &[usize],
    ) -> Result<SparsePlan, AdError> {
        let seeds_of = |groups: Option<&[Vec<usize>]>, shape| {
            groups.map_or_else(Vec::new, |g| seeds(g, shape))
        };
        let structure = coloring
            .pattern()
            .to_csmat(vec![0.0; coloring.pattern().nnz()])
            .map_err(pattern_error)?;
        let rows = match (coloring.problem(), coloring.column_colors()) {
            (ColoringProblem::COLUMN, Some(colors)) => RowEntries::of(&structure, colors),
            _ => None,
        };
        let structure = SharedPattern::of(structure);
        Ok(SparsePlan {
            column_seeds: seeds_of(coloring.column_groups(), input_shape),
            row_seeds: seeds_of(coloring.row_groups(), output_shape),
            structure,
            rows,
            nonzeros: None,
            coloring,
        })
    }

    /// The plan with programs computing the Jacobian's (or, for a `hessian` plan, the
    /// Hessian's) values from `program`'s derivative graph ([`Program::jacobian_programs`],
    /// [`Program::hessian_programs`]), when that takes fewer operations than carrying a lane per
    /// color through every instruction (forward over reverse for Hessians, about three passes).
    pub fn with_nonzeros_of(mut self, program: &Program, hessian: bool) -> SparsePlan {
        let passes = if hessian { 3 } else { 1 };
        // Small programs always get one: it is cheap to make, and its constants fold.
        let lanes = program
            .len()
            .saturating_mul(self.ncolors().max(1) * passes)
            .max(SMALL_DERIVATIVES);
        let entries: Vec<(usize, usize)> = self.zeros().iter().map(|(_, ij)| ij).collect();
        let programs = if hessian {
            program.hessian_programs(&entries, lanes)
        } else {
            program.jacobian_programs(&entries, lanes)
        };
        self.nonzeros = programs.map(Rc::new);
        self
    }

    /// The number of instructions of the program computing the nonzeros, if there is one.
    pub fn nonzeros_program_len(&self) -> Option<usize> {
        self.nonzeros.as_deref().map(|p| p.entries.len())
    }

    /// True when [`sparse_jacobian_of_program`] can compute this plan's Jacobians: from a
    /// program of its nonzeros, or by a column coloring whose rows are written straight from
    /// compressed lanes.
    pub fn fits_program(&self) -> bool {
        self.nonzeros.is_some() || self.rows.is_some()
    }

    /// True when the plan holds a program of its nonzeros (what
    /// [`sparse_hessian_of_program`] needs).
    pub fn has_nonzeros_program(&self) -> bool {
        self.nonzeros.is_some()
    }

    /// The number of colors (directional derivatives per evaluation).
    pub fn ncolors(&self) -> usize {
        self.coloring.ncolors()
    }

    /// The sparse matrix of the pattern holding `values` (computed into it by `fill`).
    fn matrix(
        &self,
        fill: impl FnOnce(&mut [f64]) -> Result<(), difflab_coloring::ColoringError>,
    ) -> Result<SharedCsMat, AdError> {
        let mut values = self.zero_values();
        fill(&mut values).map_err(pattern_error)?;
        Ok(self.structure.with_values(values))
    }

    /// One zero per stored entry of the pattern.
    fn zero_values(&self) -> Vec<f64> {
        vec![0.0; self.structure.nnz()]
    }

    /// The pattern as a matrix of zeros.
    fn zeros(&self) -> SharedCsMat {
        self.structure.with_values(self.zero_values())
    }
}

/// Colors a Jacobian pattern by columns (forward mode, finite differences) or rows (reverse),
/// for inputs of `input_shape` and outputs of `output_shape`.
pub fn plan_jacobian(
    pattern: SparsityPattern,
    dense: &Backend,
    algorithm: &GreedyColoringAlgorithm,
    input_shape: &[usize],
    output_shape: &[usize],
) -> Result<SparsePlan, AdError> {
    let problem = jacobian_problem(dense);
    plan_coloring(pattern, problem, algorithm, input_shape, output_shape)
}

/// The coloring problem of a sparse Jacobian computed with `dense`: rows for reverse mode
/// (one pullback per row color), columns otherwise.
pub fn jacobian_problem(dense: &Backend) -> ColoringProblem {
    match dense.first_order().mode() {
        Mode::Reverse => ColoringProblem::ROW,
        _ => ColoringProblem::COLUMN,
    }
}

/// Colors a Jacobian pattern for a one-sided `problem` (column or row).
pub fn plan_coloring(
    pattern: SparsityPattern,
    problem: ColoringProblem,
    algorithm: &GreedyColoringAlgorithm,
    input_shape: &[usize],
    output_shape: &[usize],
) -> Result<SparsePlan, AdError> {
    let coloring = coloring(&pattern, problem, algorithm).map_err(pattern_error)?;
    SparsePlan::new(coloring, input_shape, output_shape)
}

/// Colors a (symmetric) Hessian pattern: star coloring for direct, acyclic for substitution.
pub fn plan_hessian(
    pattern: SparsityPattern,
    algorithm: &GreedyColoringAlgorithm,
    input_shape: &[usize],
) -> Result<SparsePlan, AdError> {
    let coloring =
        coloring(&pattern, ColoringProblem::SYMMETRIC, algorithm).map_err(pattern_error)?;
    SparsePlan::new(coloring, input_shape, &[])
}

fn seeds(groups: &[Vec<usize>], shape: &[usize]) -> Vec<Tensor> {
    let n: usize = shape.iter().product();
    groups
        .iter()
        .map(|g| {
            let mut data = vec![0.0; n];
            for &k in g {
                data[k] = 1.0;
            }
            Tensor::from_col_major(shape, data)
        })
        .collect()
}

/// The compressed matrix of `shape` whose columns (or rows, `by_rows`) are `lines`: built
/// from their numbers in its memory order (column-major for columns, row-major for rows), so
/// nothing is zero-filled first and each line is one copy.
fn compressed(
    shape: (usize, usize),
    lines: &[Tensor],
    by_rows: bool,
) -> Result<ndarray::Array2<f64>, AdError> {
    use ndarray::ShapeBuilder;
    let lane = if by_rows { shape.1 } else { shape.0 };
    let mut data = Vec::with_capacity(shape.0 * shape.1);
    for line in lines {
        let values = crate::tensor::col_major_slice(line.primal());
        if values.len() != lane {
            return Err(returned_values_error(values.len(), lane));
        }
        data.extend_from_slice(&values);
    }
    let built = if by_rows {
        ndarray::Array2::from_shape_vec(shape, data)
    } else {
        ndarray::Array2::from_shape_vec(shape.f(), data)
    };
    built.map_err(|e| AdError::DimensionMismatch(e.to_string()))
}

fn finish(plan: &SparsePlan, lines: &[Tensor]) -> Result<SharedCsMat, AdError> {
    let (rows, cols) = plan
        .coloring
        .compressed_shape()
        .ok_or_else(|| AdError::Argument("bidirectional colorings need MixedMode".into()))?;
    let lane = if plan.coloring.row_groups().is_some() {
        cols
    } else {
        rows
    };
    let lines: Vec<_> = lines
        .iter()
        .map(|line| crate::tensor::col_major_slice(line.primal()))
        .collect();
    if let Some(line) = lines.iter().find(|line| line.len() != lane) {
        return Err(returned_values_error(line.len(), lane));
    }
    let lines: Vec<&[f64]> = lines.iter().map(|line| &**line).collect();
    plan.matrix(|values| decompress_lines_into(values, &lines, &plan.coloring))
}

fn returned_values_error(found: usize, lane: usize) -> AdError {
    AdError::DimensionMismatch(format!(
        "the function returned {found} values where the sparsity pattern has {lane}"
    ))
}

/// `f(x)` and the sparse Jacobian, one pushforward (or pullback) per color.
pub fn sparse_jacobian<E, F>(
    f: &mut F,
    dense: &Backend,
    plan: &SparsePlan,
    x: &Tensor,
) -> Result<(Tensor, SharedCsMat), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let (y, lines) = match (plan.coloring.column_groups(), plan.coloring.row_groups()) {
        (Some(_), None) => pushforward(f, dense, x, &plan.column_seeds)?,
        (None, Some(_)) => pullback(f, dense, x, &plan.row_seeds)?,
        _ => return Err(AdError::Argument("bidirectional colorings need MixedMode".into()).into()),
    };
    Ok((y, finish(plan, &lines)?))
}

/// [`sparse_jacobian`] of a traced program at a plain `x` (`f(x)` only `with_value`): the plan's
/// program of nonzeros when it has one, else one pass over the instructions with a lane per
/// color of a column coloring, each row of the compressed matrix written straight into the
/// result.
pub fn sparse_jacobian_of_program(
    program: &Program,
    plan: &SparsePlan,
    x: &Tensor,
    with_value: bool,
) -> Result<(Option<Tensor>, SharedCsMat), AdError> {
    let m: usize = program.output_shape().iter().product();
    let rows = plan.structure.shape().0;
    if m != rows {
        return Err(AdError::DimensionMismatch(format!(
            "the function returned {m} values where the sparsity pattern has {rows}"
        )));
    }
    let output = |y: Vec<f64>| Tensor::from_col_major(program.output_shape(), y);
    let x = x.to_col_major();
    let mut values = plan.zero_values();
    if let Some(nonzeros) = &plan.nonzeros {
        let y = run_nonzeros(nonzeros, &x, &mut values, with_value, |out, nnz| {
            let mut y = vec![0.0; m];
            out.copy_into(nnz..nnz + m, &mut y);
            y
        })?;
        return Ok((y.map(output), plan.structure.with_values(values)));
    }
    let (Some(groups), Some(rows)) = (plan.coloring.column_groups(), &plan.rows) else {
        return Err(AdError::Argument(
            "a traced program's Jacobian needs a column coloring".into(),
        ));
    };
    let y = program.compressed_jacobian(&x, groups, &mut |i, first, lanes| {
        for &(k, group) in rows.row(i) {
            if let Some(&d) = group.checked_sub(first).and_then(|l| lanes.get(l)) {
                values[k] = d;
            }
        }
    })?;
    Ok((Some(output(y)), plan.structure.with_values(values)))
}

/// The sparse Hessian of a traced program at a plain `x` from the plan's program of its
/// nonzeros, with `f(x)` and `∇f(x)` only `with_value`.
pub fn sparse_hessian_of_program(
    program: &Program,
    plan: &SparsePlan,
    x: &Tensor,
    with_value: bool,
) -> Result<(Option<ValueAndGradient>, SharedCsMat), AdError> {
    let Some(nonzeros) = &plan.nonzeros else {
        return Err(AdError::Argument(
            "this Hessian plan has no program of its nonzeros".into(),
        ));
    };
    let x_data = x.to_col_major();
    let mut values = plan.zero_values();
    let n = x_data.len();
    let value_and_gradient =
        run_nonzeros(nonzeros, &x_data, &mut values, with_value, |out, nnz| {
            let mut g = vec![0.0; n];
            out.copy_into(nnz + 1..nnz + 1 + n, &mut g);
            (
                Tensor::from_col_major(program.output_shape(), vec![out.get(nnz)]),
                Tensor::from_col_major(x.shape(), g),
            )
        })?;
    Ok((value_and_gradient, plan.structure.with_values(values)))
}

/// `f(x)` and `∇f(x)`.
pub type ValueAndGradient = (Tensor, Tensor);

/// Runs a plan's program of nonzeros at `x`, writing the entries into `values`; with the value,
/// `rest(outputs, nnz)` reads the outputs after the entries.
fn run_nonzeros<T>(
    nonzeros: &EntryPrograms,
    x: &[f64],
    values: &mut [f64],
    with_value: bool,
    rest: impl FnOnce(Outputs<'_>, usize) -> T,
) -> Result<Option<T>, AdError> {
    let nnz = values.len();
    if !with_value {
        nonzeros
            .entries
            .with_values(x, |out| out.copy_into(0..nnz, values))?;
        return Ok(None);
    }
    let rest = nonzeros.with_value.with_values(x, |out| {
        out.copy_into(0..nnz, values);
        rest(out, nnz)
    })?;
    Ok(Some(rest))
}

/// `f(x)`, `∇f(x)` and the sparse Hessian, one HVP per color.
pub fn sparse_hessian<E, F>(
    f: &mut F,
    backend: &Backend,
    plan: &SparsePlan,
    x: &Tensor,
) -> Result<(Tensor, Tensor, SharedCsMat), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    if plan.coloring.column_groups().is_none() {
        return Err(AdError::Argument("a Hessian coloring has column groups".into()).into());
    }
    let (y, g, hvps) = gradient_and_hvp(f, backend, x, &plan.column_seeds)?;
    Ok((y, g, finish(plan, &hvps)?))
}

/// Colors a Jacobian pattern from both sides (rows and columns), for mixed mode.
pub fn plan_bidirectional(
    pattern: SparsityPattern,
    algorithm: &GreedyColoringAlgorithm,
    input_shape: &[usize],
    output_shape: &[usize],
) -> Result<SparsePlan, AdError> {
    let coloring =
        coloring(&pattern, ColoringProblem::BIDIRECTIONAL, algorithm).map_err(pattern_error)?;
    SparsePlan::new(coloring, input_shape, output_shape)
}

/// `f(x)` and the sparse Jacobian in mixed mode: one pushforward (with `forward`) per column
/// color and one pullback (with `reverse`) per row color, combined by bidirectional
/// decompression.
pub fn sparse_jacobian_mixed<E, F>(
    f: &mut F,
    forward: &Backend,
    reverse: &Backend,
    plan: &SparsePlan,
    x: &Tensor,
) -> Result<(Tensor, SharedCsMat), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let result = &plan.coloring;
    let (Some(_), Some(_)) = (result.column_groups(), result.row_groups()) else {
        return Err(AdError::Argument("mixed mode needs a bidirectional coloring".into()).into());
    };
    let (y, jvps) = pushforward(f, forward, x, &plan.column_seeds)?;
    let (_, vjps) = pullback(f, reverse, x, &plan.row_seeds)?;
    let (rows, columns) = result
        .bidirectional_shapes()
        .ok_or_else(|| AdError::Argument("mixed mode needs a bidirectional coloring".into()))?;
    let (br, bc) = (
        compressed(rows, &vjps, true)?,
        compressed(columns, &jvps, false)?,
    );
    let matrix =
        plan.matrix(|values| decompress_bidirectional_into(values, br.view(), bc.view(), result))?;
    Ok((y, matrix))
}
