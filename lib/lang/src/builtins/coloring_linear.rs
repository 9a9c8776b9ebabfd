//! SparseMatrixColorings' `LinearSystemColoringResult(A, ag, color, T)`: a symmetric matrix
//! recovered from its compression under any symmetric coloring of its columns by solving the
//! linear system the compression defines. Each stored entry `A[i, j]` adds to `B[i, color[j]]`;
//! the unknowns are the entries of the lower triangle (the upper one mirrors them), and the
//! system is solved in the least-squares sense by faer's sparse QR, as upstream does with
//! Julia's sparse `\`. Star and acyclic colorings recover the same matrix by reading or by
//! substitution; this is the general fallback they are checked against.

use super::coloring::pattern_and_matrix;
use super::sparse::sparse_value;
use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::show::ElType;
use crate::value::Value;
use difflab_coloring::SparsityPattern;
use faer::linalg::solvers::SolveLstsq;
use ndarray::Array2;
use std::any::Any;

/// A symmetric pattern with column colors, ready to recover values from compressions.
pub struct LinearSystemResult {
    pattern: SparsityPattern,
    /// 1-based colors; 0 leaves a column out of every compressed column.
    colors: Vec<usize>,
    /// Whether the colored matrix was dense: the recovered one is then dense too.
    dense: bool,
}

/// The linear-system result `v` is, if it is one.
pub fn as_linear_system(v: &Value) -> Option<&LinearSystemResult> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<LinearSystemResult>(),
        _ => None,
    }
}

impl LinearSystemResult {
    fn ncolors(&self) -> usize {
        self.colors.iter().copied().max().unwrap_or(0)
    }

    /// The matrix whose compression is `b` (`n × ncolors`), with the colored pattern.
    pub fn recover(&self, b: &Array2<f64>) -> Result<sprs::CsMat<f64>, Flow> {
        let n = self.pattern.ncols();
        let k = self.ncolors();
        if b.dim() != (n, k) {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!(
                    "decompress: the compressed matrix has size {:?}, expected ({n}, {k})",
                    b.dim()
                ),
            ));
        }
        // Unknown u stands for the lower entry (max(i, j), min(i, j)).
        let entries: Vec<(usize, usize)> = self.pattern.entries().collect();
        let lower: Vec<(usize, usize)> = entries.iter().copied().filter(|&(i, j)| i >= j).collect();
        let unknown = |i: usize, j: usize| {
            let key = (i.max(j), i.min(j));
            lower
                .binary_search_by(|&(p, q)| (q, p).cmp(&(key.1, key.0)))
                .expect("a symmetric pattern holds the mirror of every entry")
        };
        let rows = n.checked_mul(k).ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                format!("decompress: {k} colors of {n} columns make too many equations"),
            )
        })?;
        if rows < lower.len() {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "decompress: {k} colors give {rows} equations for {} unknowns",
                    lower.len()
                ),
            ));
        }
        let mut system = sprs::TriMat::new((rows, lower.len()));
        for &(i, j) in &entries {
            if self.colors[j] > 0 {
                system.add_triplet(i + n * (self.colors[j] - 1), unknown(i, j), 1.0);
            }
        }
        let system: sprs::CsMat<f64> = system.to_csc();
        let rhs: Vec<f64> = b.t().iter().copied().collect();
        // Large systems are solved off the session's thread, which keeps answering interrupts;
        // the indices travel as numbers (exact far beyond any size the memory limit allows).
        let as_numbers = |v: &[usize]| v.iter().map(|&k| k as f64).collect::<Vec<f64>>();
        let (indptr, indices) = (
            as_numbers(&system.indptr().to_proper()),
            as_numbers(system.indices()),
        );
        let unknowns = lower.len();
        let solve = move |inputs: &[&[f64]]| least_squares(rows, unknowns, inputs);
        let solution = if system.nnz() < OFF_THREAD_ENTRIES {
            solve(&[&indptr, &indices, &rhs])
        } else {
            difflab_ad::background::run(&[&indptr, &indices, &rhs], move |inputs, _| solve(inputs))
                .map_err(Flow::from)?
        }
        .map_err(|message| fail(ErrorKind::ArgumentError, message))?;
        let values = entries
            .iter()
            .map(|&(i, j)| solution[unknown(i, j)])
            .collect();
        self.pattern
            .to_csmat(values)
            .map_err(|e| fail(ErrorKind::ArgumentError, e.to_string()))
    }

    /// `decompress(B, result)`: the recovered matrix, dense when the colored one was.
    pub fn decompress(&self, b: &Array2<f64>) -> EvalResult {
        let m = self.recover(b)?;
        if !self.dense {
            return Ok(sparse_value(m, ElType::Float64));
        }
        let (rows, cols) = m.shape();
        let mut data = vec![0.0; rows * cols];
        for (v, (i, j)) in m.iter() {
            data[i + j * rows] = *v;
        }
        Ok(super::array(ElType::Float64, &[rows, cols], data))
    }
}

/// Systems with this many nonzeros or more are solved off the session's thread.
const OFF_THREAD_ENTRIES: usize = 250_000;

/// The least-squares solution of the `rows × cols` system whose matrix has ones at the CSC
/// positions `inputs[0]` (column pointers) and `inputs[1]` (row indices), for the right-hand
/// side `inputs[2]`.
fn least_squares(rows: usize, cols: usize, inputs: &[&[f64]]) -> Result<Vec<f64>, String> {
    let [indptr, indices, rhs] = inputs else {
        unreachable!("three inputs are passed")
    };
    let mut solution = rhs.to_vec();
    if cols == 0 {
        return Ok(solution);
    }
    let indptr: Vec<usize> = indptr.iter().map(|&k| k as usize).collect();
    let indices: Vec<usize> = indices.iter().map(|&k| k as usize).collect();
    let ones = vec![1.0; indices.len()];
    let symbolic =
        faer::sparse::SymbolicSparseColMatRef::new_checked(rows, cols, &indptr, None, &indices);
    let qr = faer::sparse::SparseColMatRef::new(symbolic, &ones)
        .sp_qr()
        .map_err(|e| format!("decompress: the sparse QR factorization failed: {e:?}"))?;
    qr.solve_lstsq_in_place(faer::MatMut::from_column_major_slice_mut(
        &mut solution,
        rows,
        1,
    ));
    solution.truncate(cols);
    Ok(solution)
}

impl Object for LinearSystemResult {
    fn type_name(&self) -> String {
        "LinearSystemColoringResult".into()
    }

    fn show(&self) -> String {
        let n = self.pattern.ncols();
        format!(
            "LinearSystemColoringResult with {} colors for a {n}×{n} matrix",
            self.ncolors()
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn linear_system_coloring_result_(_: &mut Interp, args: Args) -> EvalResult {
    const NAME: &str = "LinearSystemColoringResult";
    args.arity(NAME, 3, 4)?;
    let (pattern, _) = pattern_and_matrix(&args.pos[0])?;
    if !super::coloring_graphs::is_adjacency_graph(&args.pos[1]) {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "{NAME} takes the matrix, its AdjacencyGraph and the colors, got a {} second",
                args.pos[1].type_name()
            ),
        ));
    }
    let (m, n) = pattern.shape();
    if m != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("{NAME} needs a square matrix, got {m}×{n}"),
        ));
    }
    if let Some((row, col)) = pattern.first_asymmetry() {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "{NAME} needs a structurally symmetric matrix: entry ({}, {}) has no mirror",
                row + 1,
                col + 1
            ),
        ));
    }
    let colors: Vec<usize> = crate::value::iterate::elements(&args.pos[2])?
        .iter()
        .map(|c| match to_int(c, NAME)? {
            c if c >= 0 => Ok(c as usize),
            c => Err(fail(
                ErrorKind::ArgumentError,
                format!("{NAME}: colors are positive (0 for none), got {c}"),
            )),
        })
        .collect::<Result<_, Flow>>()?;
    if colors.len() != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("{NAME}: {} colors for {n} columns", colors.len()),
        ));
    }
    let dense = !matches!(args.pos[0], Value::Sparse(_));
    Ok(Value::object(LinearSystemResult {
        pattern,
        colors,
        dense,
    }))
}

crate::builtins! {
    "LinearSystemColoringResult" => linear_system_coloring_result_, false, "    LinearSystemColoringResult(A, ag, color, T=Float64)\n\nA coloring result for the symmetric matrix `A` (with its `AdjacencyGraph` `ag`) and any column coloring `color`, which `decompress(B, result)` and `decompress!(A, B, result)` recover by solving the linear system of the compression in the least-squares sense (sparse QR), as SparseMatrixColorings does. Star and acyclic colorings recover the same matrix directly; this is the general fallback.\n\n```\njulia> A = sparse([2.0 1.0 0.0; 1.0 3.0 4.0; 0.0 4.0 5.0]);\n\njulia> c = coloring(A, ColoringProblem(; structure=:symmetric), GreedyColoringAlgorithm());\n\njulia> r = LinearSystemColoringResult(A, AdjacencyGraph(A), column_colors(c), Float64);\n\njulia> decompress(compress(A, c), r) ≈ A\ntrue\n```";
}
