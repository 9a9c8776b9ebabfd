//! Compression (summing the columns or rows of each color) and decompression (recovering the
//! nonzeros from the compressed matrix) with a [`ColoringResult`].
//!
//! Automatic differentiation computes the compressed matrix directly, one directional
//! derivative per color, and then calls [`decompress_into`] (or
//! [`decompress_bidirectional_into`]) to fill the values of a preallocated CSC matrix: that
//! path only reads the plan built in `result.rs`. [`compress`] is the reference the tests use
//! to check `decompress(compress(A)) == A`.

use ndarray::{Array2, ArrayView2, ShapeBuilder};
use sprs::{CsMat, CsMatBase};
use std::ops::Deref;

use crate::error::ColoringError;
use crate::result::{ColoringResult, Plan, Source, MAIN};

/// Sums the columns (column and symmetric problems) or rows (row problems) of `a` that share
/// a color. The result has one column per color (`nrows × k`, column-major), or one row per
/// color (`k × ncols`, row-major), as [`ColoringResult::compressed_zeros`]. `a` must have the pattern's shape; entries outside the pattern are summed
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
pub fn compress<Iptr, Ind, Data>(
    a: &CsMatBase<f64, usize, Iptr, Ind, Data>,
    result: &ColoringResult,
) -> Result<Array2<f64>, ColoringError>
where
    Iptr: Deref<Target = [usize]>,
    Ind: Deref<Target = [usize]>,
    Data: Deref<Target = [f64]>,
{
    check_matrix_shape(result, (a.rows(), a.cols()))?;
    let mut b = single_zeros(result)?;
    accumulate(result, triplets(a), &mut b, None);
    Ok(b)
}

/// [`compress`] for a dense matrix.
pub fn compress_dense(
    a: ArrayView2<'_, f64>,
    result: &ColoringResult,
) -> Result<Array2<f64>, ColoringError> {
    check_matrix_shape(result, a.dim())?;
    let mut b = single_zeros(result)?;
    accumulate(result, dense_triplets(a), &mut b, None);
    Ok(b)
}

/// Compression for a bidirectional result: `(Br, Bc)`, the rows of `a` summed by row color
/// (`row colors × ncols`) and its columns summed by column color (`nrows × column colors`).
/// Rows or columns with the neutral color 0 are left out.
pub fn compress_bidirectional<Iptr, Ind, Data>(
    a: &CsMatBase<f64, usize, Iptr, Ind, Data>,
    result: &ColoringResult,
) -> Result<(Array2<f64>, Array2<f64>), ColoringError>
where
    Iptr: Deref<Target = [usize]>,
    Ind: Deref<Target = [usize]>,
    Data: Deref<Target = [f64]>,
{
    check_matrix_shape(result, (a.rows(), a.cols()))?;
    let (mut br, mut bc) = pair_zeros(result)?;
    accumulate(result, triplets(a), &mut bc, Some(&mut br));
    Ok((br, bc))
}

/// [`compress_bidirectional`] for a dense matrix.
pub fn compress_bidirectional_dense(
    a: ArrayView2<'_, f64>,
    result: &ColoringResult,
) -> Result<(Array2<f64>, Array2<f64>), ColoringError> {
    check_matrix_shape(result, a.dim())?;
    let (mut br, mut bc) = pair_zeros(result)?;
    accumulate(result, dense_triplets(a), &mut bc, Some(&mut br));
    Ok((br, bc))
}

/// Recovers the matrix from its compressed form `b` (as returned by [`compress`], or computed
/// one directional derivative per color). The result is a CSC matrix with exactly the colored
/// pattern, explicit zeros included.
pub fn decompress(
    b: ArrayView2<'_, f64>,
    result: &ColoringResult,
) -> Result<CsMat<f64>, ColoringError> {
    let mut values = vec![0.0; result.pattern.nnz()];
    decompress_into(&mut values, b, result)?;
    result.pattern.to_csmat(values)
}

/// Writes the recovered nonzeros into `values`, the value array of a CSC matrix with the
/// colored pattern (see [`crate::SparsityPattern::colptr`]). This is the fast path:
/// no allocation except for substitution's per-vertex buffer, no search.
///
/// ```
/// use difflab_coloring::{coloring, decompress_into, ColoringProblem, GreedyColoringAlgorithm, SparsityPattern};
/// use ndarray::Array2;
///
/// // f(x) = (x0 * x1, x1 + x2, x2^2): the Jacobian at x = (1, 2, 3) has this pattern.
/// let pattern = SparsityPattern::from_entries(3, 3, &[(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)])?;
/// let result = coloring(&pattern, ColoringProblem::COLUMN, &GreedyColoringAlgorithm::default())?;
/// assert_eq!(result.column_groups().unwrap(), &[vec![0, 2], vec![1]]);
/// // One Jacobian-vector product per group: J·(e0 + e2) and J·e1.
/// let mut b = result.compressed_zeros().unwrap(); // 3×2, column-major
/// assert_eq!(b.dim(), (3, 2));
/// b.column_mut(0).assign(&ndarray::arr1(&[2.0, 1.0, 6.0]));
/// b.column_mut(1).assign(&ndarray::arr1(&[1.0, 1.0, 0.0]));
/// let mut values = vec![0.0; pattern.nnz()]; // CSC order: (0,0) (0,1) (1,1) (1,2) (2,2)
/// decompress_into(&mut values, b.view(), &result)?;
/// assert_eq!(values, [2.0, 1.0, 1.0, 1.0, 6.0]);
/// # Ok::<(), difflab_coloring::ColoringError>(())
/// ```
pub fn decompress_into(
    values: &mut [f64],
    b: ArrayView2<'_, f64>,
    result: &ColoringResult,
) -> Result<(), ColoringError> {
    let expected = single_shape(result)?;
    check_compressed(b, expected, "compressed matrix")?;
    check_values(values, result)?;
    run_single_plan(&result.plan, values, b);
    Ok(())
}

/// [`decompress_into`] from the compressed matrix given line by line: its columns (one per
/// color, each of the matrix's height) for a column or symmetric result, its rows (each of
/// the matrix's width) for a row result. AD computes them one color at a time, and a direct
/// decompression reads them where they are instead of a matrix they are first copied into.
///
/// ```
/// use difflab_coloring::{coloring, decompress_lines_into, ColoringProblem, GreedyColoringAlgorithm, SparsityPattern};
/// use sprs::TriMat;
/// let mut a = TriMat::new((2, 2));
/// a.add_triplet(0, 0, 2.0);
/// a.add_triplet(1, 1, 3.0);
/// let pattern = SparsityPattern::from_csmat(&a.to_csc::<usize>());
/// let result = coloring(&pattern, ColoringProblem::COLUMN, &GreedyColoringAlgorithm::default())?;
/// // One color: the product with the sum of both columns.
/// let mut values = vec![0.0; 2];
/// decompress_lines_into(&mut values, &[&[2.0, 3.0]], &result)?;
/// assert_eq!(values, [2.0, 3.0]);
/// // A line of another length than the matrix's height, or another number of lines: an error.
/// assert!(decompress_lines_into(&mut values, &[&[2.0]], &result).is_err());
/// assert!(decompress_lines_into(&mut values, &[&[2.0, 3.0], &[1.0, 1.0]], &result).is_err());
/// # Ok::<(), difflab_coloring::ColoringError>(())
/// ```
pub fn decompress_lines_into(
    values: &mut [f64],
    lines: &[&[f64]],
    result: &ColoringResult,
) -> Result<(), ColoringError> {
    let (rows, cols) = single_shape(result)?;
    let (by_rows, lane) = check_lines(lines, result)?;
    check_values(values, result)?;
    let joined: Vec<f64> = lines.concat();
    if let Some(offsets) = line_offsets(result, by_rows, lane) {
        for (value, &offset) in values.iter_mut().zip(offsets) {
            *value = joined[offset as usize];
        }
        return Ok(());
    }
    let b = if by_rows {
        ArrayView2::from_shape((rows, cols), &joined)
    } else {
        ArrayView2::from_shape((rows, cols).f(), &joined)
    }
    .expect("the lengths were checked");
    run_plan(&result.plan, values, [b, b]);
    Ok(())
}

/// Checks that `lines` are the compressed matrix's columns (or rows, for a row result):
/// whether they are rows, and their length.
fn check_lines(lines: &[&[f64]], result: &ColoringResult) -> Result<(bool, usize), ColoringError> {
    let (rows, cols) = single_shape(result)?;
    let by_rows = result.row_groups().is_some();
    let (count, lane) = if by_rows { (rows, cols) } else { (cols, rows) };
    let found = (lines.len(), lines.first().map_or(lane, |l| l.len()));
    if found.0 != count || lines.iter().any(|l| l.len() != lane) {
        let shape = |(n, len): (usize, usize)| if by_rows { (n, len) } else { (len, n) };
        return Err(ColoringError::ShapeMismatch {
            what: "compressed matrix",
            expected: shape((count, lane)),
            found: shape(found),
        });
    }
    Ok((by_rows, lane))
}

/// [`decompress`] for a bidirectional result, from `Br` (row-compressed) and `Bc`
/// (column-compressed).
///
/// ```
/// use difflab_coloring::{
///     coloring, compress_bidirectional, decompress_bidirectional, ColoringProblem, Decompression,
///     GreedyColoringAlgorithm, SparsityPattern,
/// };
/// use sprs::TriMat;
///
/// // An arrowhead: a dense row and a dense column defeat both column and row coloring, while
/// // bicoloring needs a handful of products in total.
/// let n = 8;
/// let mut a = TriMat::new((n, n));
/// for i in 0..n {
///     a.add_triplet(i, i, 1.0 + i as f64);
///     if i > 0 {
///         a.add_triplet(0, i, 10.0 + i as f64);
///         a.add_triplet(i, 0, 20.0 + i as f64);
///     }
/// }
/// let a = a.to_csc();
/// let pattern = SparsityPattern::from_csmat(&a);
/// let algorithm = GreedyColoringAlgorithm::default()
///     .decompression(Decompression::Substitution)
///     .postprocessing(true);
/// let result = coloring(&pattern, ColoringProblem::BIDIRECTIONAL, &algorithm)?;
/// assert!(result.ncolors() <= 3);
/// let (br, bc) = compress_bidirectional(&a, &result)?;
/// let recovered = decompress_bidirectional(br.view(), bc.view(), &result)?;
/// assert!(recovered.iter().zip(a.iter()).all(|(x, y)| (x.0 - y.0).abs() < 1e-12));
/// # Ok::<(), difflab_coloring::ColoringError>(())
/// ```
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

fn single_zeros(result: &ColoringResult) -> Result<Array2<f64>, ColoringError> {
    result
        .compressed_zeros()
        .ok_or(ColoringError::WrongPartition {
            needs_bidirectional: false,
        })
}

fn pair_zeros(result: &ColoringResult) -> Result<(Array2<f64>, Array2<f64>), ColoringError> {
    result
        .bidirectional_compressed_zeros()
        .ok_or(ColoringError::WrongPartition {
            needs_bidirectional: true,
        })
}

fn single_shape(result: &ColoringResult) -> Result<(usize, usize), ColoringError> {
    result
        .compressed_shape()
        .ok_or(ColoringError::WrongPartition {
            needs_bidirectional: false,
        })
}

/// `(rows, cols)` of a matrix.
type Shape = (usize, usize);

fn pair_shapes(result: &ColoringResult) -> Result<(Shape, Shape), ColoringError> {
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

fn check_compressed(
    b: ArrayView2<'_, f64>,
    expected: (usize, usize),
    what: &'static str,
) -> Result<(), ColoringError> {
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

fn triplets<Iptr, Ind, Data>(
    a: &CsMatBase<f64, usize, Iptr, Ind, Data>,
) -> impl Iterator<Item = (usize, usize, f64)> + '_
where
    Iptr: Deref<Target = [usize]>,
    Ind: Deref<Target = [usize]>,
    Data: Deref<Target = [f64]>,
{
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

/// A compressed matrix being read: a flat slice with non-negative strides when its memory
/// is contiguous (row- or column-major, the layouts AD produces), else the view itself.
enum Block<'a> {
    Flat {
        data: &'a [f64],
        strides: [usize; 2],
    },
    Strided(ArrayView2<'a, f64>),
}

impl<'a> Block<'a> {
    fn new(b: ArrayView2<'a, f64>) -> Self {
        let strides = b.strides();
        if let (Ok(s0), Ok(s1)) = (usize::try_from(strides[0]), usize::try_from(strides[1])) {
            if let Some(data) = b.to_slice_memory_order() {
                return Self::Flat {
                    data,
                    strides: [s0, s1],
                };
            }
        }
        Self::Strided(b)
    }

    fn get(&self, row: usize, col: usize) -> f64 {
        match self {
            Self::Flat { data, strides } => data[row * strides[0] + col * strides[1]],
            Self::Strided(b) => b[[row, col]],
        }
    }
}

fn read(blocks: &[Block<'_>; 2], s: Source) -> f64 {
    let (block, row, col) = s.at();
    blocks[block].get(row, col)
}

/// Where each stored entry of a direct plan of one compressed matrix is in its lines laid end
/// to end, each `lane` long (`line * lane + position`; a line is a row of the compressed
/// matrix when `by_rows`, else a column), computed once per result: the decompression is then
/// one gather from one buffer instead of a lookup of line and position per entry. `None` for
/// other plans and for lines of more than `u32::MAX` numbers in all.
fn line_offsets(result: &ColoringResult, by_rows: bool, lane: usize) -> Option<&[u32]> {
    let offsets = result.line_offsets.get_or_init(|| {
        let Plan::Direct { sources } = &result.plan else {
            return None;
        };
        sources
            .iter()
            .map(|s| {
                let (block, row, col) = s.at();
                let (line, position) = if by_rows { (row, col) } else { (col, row) };
                let offset = line.checked_mul(lane)?.checked_add(position)?;
                (block == MAIN).then(|| u32::try_from(offset).ok())?
            })
            .collect()
    });
    offsets.as_deref()
}

/// [`run_plan`] for a result with one compressed matrix. A direct plan reading a contiguous
/// matrix (the layouts AD produces) is a gather with fixed strides, without choosing a block
/// and a layout per entry: that choice was most of a sparse Hessian's decompression.
fn run_single_plan(plan: &Plan, values: &mut [f64], b: ArrayView2<'_, f64>) {
    if let (Plan::Direct { sources }, Block::Flat { data, strides }) = (plan, Block::new(b)) {
        for (value, s) in values.iter_mut().zip(sources) {
            let (_, row, col) = s.at();
            *value = data[row * strides[0] + col * strides[1]];
        }
        return;
    }
    run_plan(plan, values, [b, b]);
}

fn run_plan(plan: &Plan, values: &mut [f64], blocks: [ArrayView2<'_, f64>; 2]) {
    let blocks = blocks.map(Block::new);
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
