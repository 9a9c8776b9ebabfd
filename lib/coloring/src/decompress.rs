//! Compression (summing the columns or rows of each color) and decompression (recovering the
//! nonzeros from the compressed matrix) with a [`ColoringResult`].
//!
//! Automatic differentiation computes the compressed matrix directly, one directional
//! derivative per color, and then calls [`decompress_into`] (or
//! [`decompress_bidirectional_into`]) to fill the values of a preallocated CSC matrix: that
//! path only reads the plan built in `result.rs`. [`compress`] is the reference the tests use
//! to check `decompress(compress(A)) == A`.

use ndarray::{Array2, ArrayView2};
use sprs::CsMat;

use crate::error::ColoringError;
use crate::result::{ColoringResult, Plan, Source};

/// Sums the columns (column and symmetric problems) or rows (row problems) of `a` that share
/// a color. The result has one column per color (`nrows × k`), or one row per color
/// (`k × ncols`). `a` must have the pattern's shape; entries outside the pattern are summed
/// too, as a Jacobian-vector product would.
///
/// ```
/// use difflab_coloring::{coloring, compress, decompress, ColoringProblem, GreedyColoringAlgorithm, SparsityPattern};
/// use sprs::TriMat;
///
/// let mut a = TriMat::new((2, 3));
/// a.add_triplet(0, 0, 1.0);
/// a.add_triplet(1, 1, 2.0);
/// a.add_triplet(1, 2, 3.0);
/// let a = a.to_csc();
/// let pattern = SparsityPattern::from_csmat(&a);
/// let result = coloring(&pattern, ColoringProblem::COLUMN, &GreedyColoringAlgorithm::default())?;
/// let b = compress(&a, &result)?;
/// assert_eq!(b.shape(), &[2, 2]); // columns 0 and 1 share a color
/// assert_eq!(decompress(b.view(), &result)?, a);
/// # Ok::<(), difflab_coloring::ColoringError>(())
/// ```
pub fn compress(a: &CsMat<f64>, result: &ColoringResult) -> Result<Array2<f64>, ColoringError> {
    check_matrix_shape(result, (a.rows(), a.cols()))?;
    let mut b = Array2::zeros(single_shape(result)?);
    accumulate(result, triplets(a), &mut b, None);
    Ok(b)
}

/// [`compress`] for a dense matrix.
pub fn compress_dense(a: ArrayView2<'_, f64>, result: &ColoringResult) -> Result<Array2<f64>, ColoringError> {
    check_matrix_shape(result, a.dim())?;
    let mut b = Array2::zeros(single_shape(result)?);
    accumulate(result, dense_triplets(a), &mut b, None);
    Ok(b)
}

/// Compression for a bidirectional result: `(Br, Bc)`, the rows of `a` summed by row color
/// (`row colors × ncols`) and its columns summed by column color (`nrows × column colors`).
/// Rows or columns with the neutral color 0 are left out.
pub fn compress_bidirectional(
    a: &CsMat<f64>,
    result: &ColoringResult,
) -> Result<(Array2<f64>, Array2<f64>), ColoringError> {
    check_matrix_shape(result, (a.rows(), a.cols()))?;
    let (rows_shape, columns_shape) = pair_shapes(result)?;
    let (mut br, mut bc) = (Array2::zeros(rows_shape), Array2::zeros(columns_shape));
    accumulate(result, triplets(a), &mut bc, Some(&mut br));
    Ok((br, bc))
}

/// [`compress_bidirectional`] for a dense matrix.
pub fn compress_bidirectional_dense(
    a: ArrayView2<'_, f64>,
    result: &ColoringResult,
) -> Result<(Array2<f64>, Array2<f64>), ColoringError> {
    check_matrix_shape(result, a.dim())?;
    let (rows_shape, columns_shape) = pair_shapes(result)?;
    let (mut br, mut bc) = (Array2::zeros(rows_shape), Array2::zeros(columns_shape));
    accumulate(result, dense_triplets(a), &mut bc, Some(&mut br));
    Ok((br, bc))
}

/// Recovers the matrix from its compressed form `b` (as returned by [`compress`], or computed
/// one directional derivative per color). The result is a CSC matrix with exactly the colored
/// pattern, explicit zeros included.
pub fn decompress(b: ArrayView2<'_, f64>, result: &ColoringResult) -> Result<CsMat<f64>, ColoringError> {
    let mut values = vec![0.0; result.pattern.nnz()];
    decompress_into(&mut values, b, result)?;
    result.pattern.to_csmat(values)
}

/// Writes the recovered nonzeros into `values`, the value array of a CSC matrix with the
/// colored pattern (see [`crate::SparsityPattern::colptr`]). This is the fast path:
/// no allocation except for substitution's per-vertex buffer, no search.
pub fn decompress_into(
    values: &mut [f64],
    b: ArrayView2<'_, f64>,
    result: &ColoringResult,
) -> Result<(), ColoringError> {
    let expected = single_shape(result)?;
    check_compressed(b, expected, "compressed matrix")?;
    check_values(values, result)?;
    run_plan(&result.plan, values, [b, b]);
    Ok(())
}

/// [`decompress`] for a bidirectional result, from `Br` (row-compressed) and `Bc`
/// (column-compressed).
pub fn decompress_bidirectional(
    br: ArrayView2<'_, f64>,
    bc: ArrayView2<'_, f64>,
    result: &ColoringResult,
) -> Result<CsMat<f64>, ColoringError> {
    let mut values = vec![0.0; result.pattern.nnz()];
    decompress_bidirectional_into(&mut values, br, bc, result)?;
    result.pattern.to_csmat(values)
}

/// [`decompress_into`] for a bidirectional result.
pub fn decompress_bidirectional_into(
    values: &mut [f64],
    br: ArrayView2<'_, f64>,
    bc: ArrayView2<'_, f64>,
    result: &ColoringResult,
) -> Result<(), ColoringError> {
    let (rows_shape, columns_shape) = pair_shapes(result)?;
    check_compressed(br, rows_shape, "row-compressed matrix")?;
    check_compressed(bc, columns_shape, "column-compressed matrix")?;
    check_values(values, result)?;
    run_plan(&result.plan, values, [br, bc]);
    Ok(())
}

fn single_shape(result: &ColoringResult) -> Result<(usize, usize), ColoringError> {
    result
        .compressed_shape()
        .ok_or(ColoringError::WrongPartition {
            needs_bidirectional: false,
        })
}

fn pair_shapes(result: &ColoringResult) -> Result<((usize, usize), (usize, usize)), ColoringError> {
    result
        .bidirectional_shapes()
        .ok_or(ColoringError::WrongPartition {
            needs_bidirectional: true,
        })
}

fn check_matrix_shape(result: &ColoringResult, found: (usize, usize)) -> Result<(), ColoringError> {
    let expected = result.pattern.shape();
    if found != expected {
        return Err(ColoringError::ShapeMismatch {
            what: "matrix",
            expected,
            found,
        });
    }
    Ok(())
}

fn check_compressed(b: ArrayView2<'_, f64>, expected: (usize, usize), what: &'static str) -> Result<(), ColoringError> {
    if b.dim() != expected {
        return Err(ColoringError::ShapeMismatch {
            what,
            expected,
            found: b.dim(),
        });
    }
    Ok(())
}

fn check_values(values: &[f64], result: &ColoringResult) -> Result<(), ColoringError> {
    if values.len() != result.pattern.nnz() {
        return Err(ColoringError::LengthMismatch {
            what: "nonzero values",
            expected: result.pattern.nnz(),
            found: values.len(),
        });
    }
    Ok(())
}

fn triplets(a: &CsMat<f64>) -> impl Iterator<Item = (usize, usize, f64)> + '_ {
    a.iter().map(|(&v, (i, j))| (i, j, v))
}

fn dense_triplets(a: ArrayView2<'_, f64>) -> impl Iterator<Item = (usize, usize, f64)> + '_ {
    a.into_indexed_iter().map(|((i, j), &v)| (i, j, v))
}

/// Adds every value of `a` into the compressed matrices. Column colors sum columns into
/// `main`; row colors sum rows into `rows` for a bidirectional result, else into `main`.
fn accumulate(
    result: &ColoringResult,
    a: impl Iterator<Item = (usize, usize, f64)>,
    main: &mut Array2<f64>,
    mut rows: Option<&mut Array2<f64>>,
) {
    let column_colors = result.column_colors.as_deref();
    let row_colors = result.row_colors.as_deref();
    for (i, j, v) in a {
        if let Some(colors) = column_colors {
            if colors[j] > 0 {
                main[[i, colors[j] - 1]] += v;
            }
        }
        if let Some(colors) = row_colors {
            if colors[i] > 0 {
                let target = match rows.as_deref_mut() {
                    Some(br) => br,
                    None => &mut *main,
                };
                target[[colors[i] - 1, j]] += v;
            }
        }
    }
}

fn read(blocks: &[ArrayView2<'_, f64>; 2], s: Source) -> f64 {
    blocks[s.block][[s.row, s.col]]
}

fn run_plan(plan: &Plan, values: &mut [f64], blocks: [ArrayView2<'_, f64>; 2]) {
    match plan {
        Plan::Direct { sources } => {
            for (value, &s) in values.iter_mut().zip(sources) {
                *value = read(&blocks, s);
            }
        }
        Plan::Substitution {
            direct,
            steps,
            tree_start,
            nvertices,
        } => {
            for &(k, s) in direct {
                values[k] = read(&blocks, s);
            }
            // below[v]: sum of the entries already recovered between v and its children.
            let mut below = vec![0.0; *nvertices];
            for tree in tree_start.windows(2) {
                let tree_steps = &steps[tree[0]..tree[1]];
                for step in tree_steps {
                    below[step.leaf] = 0.0;
                    below[step.parent] = 0.0;
                }
                for step in tree_steps {
                    let value = read(&blocks, step.source) - below[step.leaf];
                    below[step.parent] += value;
                    values[step.positions[0]] = value;
                    values[step.positions[1]] = value;
                }
            }
        }
    }
}
