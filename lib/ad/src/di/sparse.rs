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
use crate::tensor::Tensor;
use crate::tracer::{self, sets_of};
use difflab_coloring::{
    coloring, decompress_bidirectional_into, decompress_into, ColoringProblem, ColoringResult,
    GreedyColoringAlgorithm, SparsityPattern,
};
use sprs::CsMat;

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
    let entries: Vec<(usize, usize)> = sets_of(&y)
        .iter()
        .enumerate()
        .flat_map(|(i, set)| {
            set.iter()
                .map(move |&j| (i, j as usize))
                .collect::<Vec<_>>()
        })
        .collect();
    Ok(SparsityPattern::from_entries(y.len(), x.len(), &entries).map_err(pattern_error)?)
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

/// What preparation computes once for sparse Jacobians and Hessians.
#[derive(Debug, Clone)]
pub struct SparsePlan {
    /// The pattern and its coloring.
    pub coloring: ColoringResult,
    /// The shape of the function's output (Jacobians).
    pub output_shape: Vec<usize>,
}

impl SparsePlan {
    /// The number of colors (directional derivatives per evaluation).
    pub fn ncolors(&self) -> usize {
        self.coloring.ncolors()
    }
}

/// Colors a Jacobian pattern by columns (forward mode, finite differences) or rows (reverse).
pub fn plan_jacobian(
    pattern: SparsityPattern,
    dense: &Backend,
    algorithm: &GreedyColoringAlgorithm,
    output_shape: Vec<usize>,
) -> Result<SparsePlan, AdError> {
    let problem = match dense.first_order().mode() {
        Mode::Reverse => ColoringProblem::ROW,
        _ => ColoringProblem::COLUMN,
    };
    let coloring = coloring(&pattern, problem, algorithm).map_err(pattern_error)?;
    Ok(SparsePlan {
        coloring,
        output_shape,
    })
}

/// Colors a (symmetric) Hessian pattern: star coloring for direct, acyclic for substitution.
pub fn plan_hessian(
    pattern: SparsityPattern,
    algorithm: &GreedyColoringAlgorithm,
) -> Result<SparsePlan, AdError> {
    let coloring =
        coloring(&pattern, ColoringProblem::SYMMETRIC, algorithm).map_err(pattern_error)?;
    Ok(SparsePlan {
        coloring,
        output_shape: Vec::new(),
    })
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

fn finish(plan: &SparsePlan, lines: &[Tensor]) -> Result<CsMat<f64>, AdError> {
    let mut b = plan
        .coloring
        .compressed_zeros()
        .ok_or_else(|| AdError::Argument("bidirectional colorings need MixedMode".into()))?;
    let by_rows = plan.coloring.row_groups().is_some();
    for (c, line) in lines.iter().enumerate() {
        let values = line.to_col_major();
        for (k, v) in values.into_iter().enumerate() {
            if by_rows {
                b[[c, k]] = v;
            } else {
                b[[k, c]] = v;
            }
        }
    }
    let mut values = vec![0.0; plan.coloring.pattern().nnz()];
    decompress_into(&mut values, b.view(), &plan.coloring).map_err(pattern_error)?;
    plan.coloring
        .pattern()
        .to_csmat(values)
        .map_err(pattern_error)
}

/// `f(x)` and the sparse Jacobian, one pushforward (or pullback) per color.
pub fn sparse_jacobian<E, F>(
    f: &mut F,
    dense: &Backend,
    plan: &SparsePlan,
    x: &Tensor,
) -> Result<(Tensor, CsMat<f64>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let (y, lines) = match (plan.coloring.column_groups(), plan.coloring.row_groups()) {
        (Some(groups), None) => pushforward(f, dense, x, &seeds(groups, x.shape()))?,
        (None, Some(groups)) => pullback(f, dense, x, &seeds(groups, &plan.output_shape))?,
        _ => return Err(AdError::Argument("bidirectional colorings need MixedMode".into()).into()),
    };
    Ok((y, finish(plan, &lines)?))
}

/// `f(x)`, `∇f(x)` and the sparse Hessian, one HVP per color.
pub fn sparse_hessian<E, F>(
    f: &mut F,
    backend: &Backend,
    plan: &SparsePlan,
    x: &Tensor,
) -> Result<(Tensor, Tensor, CsMat<f64>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let groups = plan
        .coloring
        .column_groups()
        .ok_or_else(|| AdError::Argument("a Hessian coloring has column groups".into()))?;
    let (y, g, hvps) = gradient_and_hvp(f, backend, x, &seeds(groups, x.shape()))?;
    Ok((y, g, finish(plan, &hvps)?))
}

/// Colors a Jacobian pattern from both sides (rows and columns), for mixed mode.
pub fn plan_bidirectional(
    pattern: SparsityPattern,
    algorithm: &GreedyColoringAlgorithm,
    output_shape: Vec<usize>,
) -> Result<SparsePlan, AdError> {
    let coloring =
        coloring(&pattern, ColoringProblem::BIDIRECTIONAL, algorithm).map_err(pattern_error)?;
    Ok(SparsePlan {
        coloring,
        output_shape,
    })
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
) -> Result<(Tensor, CsMat<f64>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let result = &plan.coloring;
    let (columns, rows) = match (result.column_groups(), result.row_groups()) {
        (Some(c), Some(r)) => (c, r),
        _ => {
            return Err(
                AdError::Argument("mixed mode needs a bidirectional coloring".into()).into(),
            )
        }
    };
    let (y, jvps) = pushforward(f, forward, x, &seeds(columns, x.shape()))?;
    let (_, vjps) = pullback(f, reverse, x, &seeds(rows, &plan.output_shape))?;
    let (mut br, mut bc) = result
        .bidirectional_compressed_zeros()
        .ok_or_else(|| AdError::Argument("mixed mode needs a bidirectional coloring".into()))?;
    for (c, line) in vjps.iter().enumerate() {
        for (k, v) in line.to_col_major().into_iter().enumerate() {
            br[[c, k]] = v;
        }
    }
    for (c, line) in jvps.iter().enumerate() {
        for (k, v) in line.to_col_major().into_iter().enumerate() {
            bc[[k, c]] = v;
        }
    }
    let mut values = vec![0.0; result.pattern().nnz()];
    decompress_bidirectional_into(&mut values, br.view(), bc.view(), result)
        .map_err(pattern_error)?;
    Ok((y, result.pattern().to_csmat(values).map_err(pattern_error)?))
}
