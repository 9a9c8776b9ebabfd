//! Sparse matrices (`SparseMatrixCSC{Float64, Int64}`, sprs underneath): construction
//! (`sparse`, `spzeros`, `spdiagm`, `sprand`), inspection (`nnz`, `findnz`, `nonzeros`,
//! `rowvals`, `issparse`), `dropzeros`, conversion to dense, indexing, transposition,
//! concatenation and arithmetic ([`sparse_binary`], [`sparse_broadcast`], [`sparse_unary`]).
//!
//! A sparse matrix holds plain numbers. Products `A * x` and solves `A \ b` (sparse LU from faer)
//! are [`LinearMap`]s, so `x` and `b` may carry derivatives of every kind; a constructor given
//! numbers carrying derivatives refuses them rather than dropping the derivatives.

use super::linalg::{apply_linear, dense_tensor, singular, LinearMap};
use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::eval::index::{resolve, IndexSpec};
use crate::eval::iterate::{elements, number};
use crate::eval::operators::{from_tensor, operand};
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::show::ElType;
use crate::value::{Array, SparseMatrix, Value};
use difflab_ad::error::Result as AdResult;
use difflab_ad::{ops, AdError, Tensor};
use difflab_syntax::{BinOp, UnaryOp};
use faer::linalg::solvers::Solve;
use rand::Rng;
use sprs::{CsMat, TriMat};
use std::cell::RefCell;
use std::rc::Rc;

/// A sparse matrix value (stored by columns).
pub fn sparse_value(matrix: CsMat<f64>, eltype: ElType) -> Value {
    let matrix = if matrix.is_csc() {
        matrix
    } else {
        matrix.to_csc()
    };
    Value::Sparse(Rc::new(RefCell::new(SparseMatrix { matrix, eltype })))
}

/// The same matrix without its stored zeros.
fn without_zeros(m: &CsMat<f64>) -> CsMat<f64> {
    let m = if m.is_csc() { m.clone() } else { m.to_csc() };
    let mut indptr = Vec::with_capacity(m.cols() + 1);
    let (mut indices, mut data) = (Vec::new(), Vec::new());
    indptr.push(0);
    for col in m.outer_iterator() {
        for (i, &x) in col.iter() {
            if x != 0.0 {
                indices.push(i);
                data.push(x);
            }
        }
        indptr.push(indices.len());
    }
    CsMat::new_csc((m.rows(), m.cols()), indptr, indices, data)
}

/// The refusal of numbers carrying derivatives where a sparse matrix would store them.
fn refuse_derivatives(t: &Tensor, name: &str) -> Result<(), Flow> {
    if t.is_plain() {
        return Ok(());
    }
    Err(fail(
        ErrorKind::MethodError,
        format!("`{name}`: a sparse matrix holds plain numbers, and these carry derivatives (or sparsity tracers); build a dense matrix instead"),
    ))
}

fn ints(v: &Value, name: &str) -> Result<Vec<i64>, Flow> {
    elements(v)?
        .iter()
        .map(|x| super::to_int(x, name))
        .collect()
}

fn numbers(v: &Value, name: &str) -> Result<(Vec<f64>, ElType), Flow> {
    let o = operand(v).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("{name}: expected numbers, got a {}", v.type_name()),
        )
    })?;
    refuse_derivatives(o.tensor(), name)?;
    let eltype = if o.eltype == ElType::Bool {
        ElType::Bool
    } else {
        ElType::Float64
    };
    Ok((o.tensor().to_col_major(), eltype))
}

/// `A.field`: `m`, `n`, `colptr`, `rowval`, `nzval` (1-based, as Julia's fields).
pub fn field(s: &SparseMatrix, name: &str) -> EvalResult {
    let m = &s.matrix;
    let as_ints = |v: Vec<usize>| {
        let n = v.len();
        super::array(
            ElType::Int64,
            &[n],
            v.into_iter().map(|k| (k + 1) as f64).collect(),
        )
    };
    match name {
        "m" => Ok(Value::Int(m.rows() as i64)),
        "n" => Ok(Value::Int(m.cols() as i64)),
        "colptr" => Ok(as_ints(m.indptr().to_proper().to_vec())),
        "rowval" => Ok(as_ints(m.indices().to_vec())),
        "nzval" => Ok(super::array(s.eltype, &[m.nnz()], m.data().to_vec())),
        _ => Err(fail(ErrorKind::ArgumentError, format!("type SparseMatrixCSC has no field {name}; its fields are m, n, colptr, rowval, nzval"))),
    }
}

fn entry(s: &SparseMatrix, i: usize, j: usize) -> f64 {
    s.matrix.get(i, j).copied().unwrap_or(0.0)
}

/// `A[i, j]` (a number), `A[k]` (linear), `A[i, :]`, `A[:, j]` and other single-row or
/// single-column selections (dense vectors), `A[rows, cols]` (a sparse matrix).
pub fn index(interp: &mut Interp, s: &SparseMatrix, indices: &[Value]) -> EvalResult {
    let (rows, cols) = (s.matrix.rows(), s.matrix.cols());
    match indices {
        [k] => match resolve(k, rows * cols)? {
            IndexSpec::Scalar(p) => Ok(number(s.eltype, entry(s, p % rows, p / rows))),
            IndexSpec::List(ps, shape) => {
                interp.check_alloc(ps.len())?;
                let values = ps.iter().map(|&p| entry(s, p % rows, p / rows)).collect();
                Ok(super::array(s.eltype, &shape, values))
            }
        },
        [i, j] => match (resolve(i, rows)?, resolve(j, cols)?) {
            (IndexSpec::Scalar(i), IndexSpec::Scalar(j)) => Ok(number(s.eltype, entry(s, i, j))),
            (IndexSpec::Scalar(i), IndexSpec::List(js, _)) => {
                interp.check_alloc(js.len())?;
                let values: Vec<f64> = js.iter().map(|&j| entry(s, i, j)).collect();
                Ok(super::array(s.eltype, &[values.len()], values))
            }
            (IndexSpec::List(is, _), IndexSpec::Scalar(j)) => {
                interp.check_alloc(rows + is.len())?;
                let mut column = vec![0.0; rows];
                if let Some(col) = s.matrix.outer_view(j) {
                    for (r, &x) in col.iter() {
                        column[r] = x;
                    }
                }
                let values: Vec<f64> = is.iter().map(|&r| column[r]).collect();
                Ok(super::array(s.eltype, &[values.len()], values))
            }
            (IndexSpec::List(is, _), IndexSpec::List(js, _)) => {
                // Each source row may appear at several places of the selection.
                let mut targets: Vec<Vec<usize>> = vec![Vec::new(); rows];
                for (r, &i) in is.iter().enumerate() {
                    targets[i].push(r);
                }
                let mut tri = TriMat::new((is.len(), js.len()));
                for (c, &j) in js.iter().enumerate() {
                    if let Some(col) = s.matrix.outer_view(j) {
                        for (i, &x) in col.iter() {
                            for &r in &targets[i] {
                                tri.add_triplet(r, c, x);
                            }
                        }
                    }
                }
                Ok(sparse_value(tri.to_csc(), s.eltype))
            }
        },
        _ => Err(fail(
            ErrorKind::BoundsError,
            format!(
                "a {rows}×{cols} SparseMatrixCSC takes one or two indices, got {}",
                indices.len()
            ),
        )),
    }
}

fn position(v: &Value, extent: usize) -> Result<usize, Flow> {
    match resolve(v, extent)? {
        IndexSpec::Scalar(i) => Ok(i),
        IndexSpec::List(..) => Err(fail(
            ErrorKind::ArgumentError,
            "a sparse matrix is assigned one entry at a time: A[i, j] = x",
        )),
    }
}

/// `A[i, j] = v` (or `A[k] = v`), inserting a structural entry when needed (assigning zero to
/// an entry that is not stored leaves it unstored, as Julia does).
pub fn set_index(s: &mut SparseMatrix, indices: &[Value], v: &Value) -> Result<(), Flow> {
    let (rows, cols) = (s.matrix.rows(), s.matrix.cols());
    let (i, j) = match indices {
        [k] => {
            let p = position(k, rows * cols)?;
            (p % rows, p / rows)
        }
        [i, j] => (position(i, rows)?, position(j, cols)?),
        _ => {
            return Err(fail(
                ErrorKind::ArgumentError,
                "sparse assignment takes A[i, j] = x",
            ))
        }
    };
    if let Value::Real(_) = v {
        return Err(fail(
            ErrorKind::MethodError,
            "setindex!: a sparse matrix holds plain numbers, and this one carries derivatives",
        ));
    }
    let x = super::to_float(v, "setindex!")?;
    if s.eltype == ElType::Bool && x != 0.0 && x != 1.0 {
        return Err(fail(
            ErrorKind::InexactError,
            format!("Bool({})", crate::show::float(x)),
        ));
    }
    if let Some(slot) = s.matrix.get_mut(i, j) {
        *slot = x;
    } else if x != 0.0 {
        s.matrix.insert(i, j, x);
    }
    Ok(())
}

fn dense_of(s: &SparseMatrix) -> Value {
    from_tensor(dense_tensor(s), s.eltype, false)
}

/// `Matrix(A)`.
pub fn to_dense(v: &Value) -> EvalResult {
    match v {
        Value::Sparse(s) => Ok(dense_of(&s.borrow())),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching Matrix(::{})", other.type_name()),
        )),
    }
}

/// `A'`.
pub fn transpose_value(v: &Value) -> EvalResult {
    match v {
        Value::Sparse(s) => {
            let s = s.borrow();
            Ok(sparse_value(s.matrix.transpose_view().to_csc(), s.eltype))
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching adjoint(::{})", other.type_name()),
        )),
    }
}

/// The plain numbers of a dense matrix or vector (a column) as a sparse matrix.
fn sparse_of_dense(v: &Value, name: &str) -> Result<(CsMat<f64>, ElType), Flow> {
    let o = operand(v).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )
    })?;
    let t = o.tensor();
    refuse_derivatives(t, name)?;
    let (m, n) = match *t.shape() {
        [] => (1, 1),
        [m] => (m, 1),
        [m, n] => (m, n),
        _ => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("{name} needs a vector or a matrix"),
            ))
        }
    };
    let data = t.to_col_major();
    let mut tri = TriMat::new((m, n));
    for (k, &x) in data.iter().enumerate() {
        if x != 0.0 {
            tri.add_triplet(k % m, k / m, x);
        }
    }
    let eltype = if o.eltype == ElType::Bool {
        ElType::Bool
    } else {
        ElType::Float64
    };
    Ok((tri.to_csc(), eltype))
}

/// `[A; B]` (`dim` 0) and `[A B]` (`dim` 1) of sparse matrices, dense ones joining them as
/// sparse matrices (the result is sparse, as in Julia).
pub fn cat(values: &[Value], dim: usize) -> EvalResult {
    let mut mats = Vec::with_capacity(values.len());
    let mut all_bool = true;
    for v in values {
        let (m, eltype) = match v {
            Value::Sparse(s) => {
                let s = s.borrow();
                (s.matrix.clone(), s.eltype)
            }
            other => sparse_of_dense(other, if dim == 0 { "vcat" } else { "hcat" })?,
        };
        all_bool &= eltype == ElType::Bool;
        mats.push(m);
    }
    if mats.is_empty() {
        return Ok(sparse_value(CsMat::zero((0, 0)), ElType::Float64));
    }
    let views: Vec<_> = mats.iter().map(|m| m.view()).collect();
    let out = match dim {
        0 if mats.iter().all(|m| m.cols() == mats[0].cols()) => sprs::vstack(&views),
        1 if mats.iter().all(|m| m.rows() == mats[0].rows()) => sprs::hstack(&views),
        _ => {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!(
                    "number of {} of each array must match",
                    if dim == 0 { "columns" } else { "rows" }
                ),
            ))
        }
    };
    let eltype = if all_bool {
        ElType::Bool
    } else {
        ElType::Float64
    };
    Ok(sparse_value(out, eltype))
}

// ---------------------------------------------------------------------------------------------
// Sparse matrices as linear maps: products and solves.

/// `x ↦ A x` for a sparse `A`.
struct SparseProduct {
    a: CsMat<f64>,
}

impl LinearMap for SparseProduct {
    fn size(&self) -> (usize, usize) {
        (self.a.rows(), self.a.cols())
    }

    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>> {
        let (m, n) = (self.a.rows(), self.a.cols());
        let (out_rows, in_rows) = if transpose { (n, m) } else { (m, n) };
        let mut out = vec![0.0; out_rows * k];
        for c in 0..k {
            let (xc, oc) = (
                &x[c * in_rows..(c + 1) * in_rows],
                &mut out[c * out_rows..(c + 1) * out_rows],
            );
            for (j, col) in self.a.outer_iterator().enumerate() {
                for (i, &v) in col.iter() {
                    if transpose {
                        oc[j] += v * xc[i];
                    } else {
                        oc[i] += v * xc[j];
                    }
                }
            }
        }
        Ok(out)
    }

    fn pattern(&self) -> Option<&CsMat<f64>> {
        Some(&self.a)
    }
}

/// `b ↦ A \ b` for a square sparse `A`: faer's sparse LU with partial pivoting.
pub(crate) struct SparseLu {
    n: usize,
    lu: Option<faer::sparse::linalg::solvers::Lu<usize, f64>>,
}

impl SparseLu {
    /// Factorizes a square sparse matrix (`SingularException(0)` when it is structurally
    /// singular).
    pub(crate) fn new(a: &CsMat<f64>) -> AdResult<SparseLu> {
        let n = a.rows();
        if a.cols() != n {
            return Err(AdError::DimensionMismatch(format!(
                "matrix is not square: dimensions are ({n}, {})",
                a.cols()
            )));
        }
        if n == 0 {
            return Ok(SparseLu { n, lu: None });
        }
        let converted;
        let a = if a.is_csc() {
            a
        } else {
            converted = a.to_csc();
            &converted
        };
        let indptr = a.indptr().to_proper().to_vec();
        let symbolic =
            faer::sparse::SymbolicSparseColMatRef::new_checked(n, n, &indptr, None, a.indices());
        let lu = faer::sparse::SparseColMatRef::new(symbolic, a.data())
            .sp_lu()
            .map_err(|e| match e {
                faer::sparse::linalg::LuError::SymbolicSingular { .. } => singular(0),
                other => AdError::Argument(format!("the sparse LU factorization failed: {other}")),
            })?;
        Ok(SparseLu { n, lu: Some(lu) })
    }
}

impl LinearMap for SparseLu {
    fn size(&self) -> (usize, usize) {
        (self.n, self.n)
    }

    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>> {
        let mut out = x.to_vec();
        let Some(lu) = &self.lu else {
            return Ok(out);
        };
        if k > 0 {
            let rhs = faer::MatMut::from_column_major_slice_mut(&mut out, self.n, k);
            if transpose {
                lu.solve_transpose_in_place(rhs);
            } else {
                lu.solve_in_place(rhs);
            }
        }
        // A numerically zero pivot shows as infinities or NaNs from a finite right-hand side.
        if x.iter().all(|v| v.is_finite()) && !out.iter().all(|v| v.is_finite()) {
            return Err(singular(0));
        }
        Ok(out)
    }
}

/// `A * x` for a sparse `A` and a dense `x` of any number kind (a dense result).
fn sparse_times(a: &CsMat<f64>, x: &Tensor) -> AdResult<Tensor> {
    let map: Rc<dyn LinearMap> = Rc::new(SparseProduct { a: a.clone() });
    apply_linear(&map, x, false)
}

/// `X * A` for a dense `X` (a matrix or a row) and a sparse `A`: `(Aᵀ Xᵀ)ᵀ`.
fn times_sparse(x: &Tensor, a: &CsMat<f64>) -> AdResult<Tensor> {
    let map: Rc<dyn LinearMap> = Rc::new(SparseProduct { a: a.clone() });
    let xt = match *x.shape() {
        [m] => ops::reshape(x, &[1, m])?,
        [_, _] => ops::transpose(x)?,
        ref shape => {
            return Err(AdError::DimensionMismatch(format!(
                "cannot multiply an array of size {shape:?} by a matrix"
            )))
        }
    };
    ops::transpose(&apply_linear(&map, &xt, true)?)
}

fn scaled(s: &SparseMatrix, factor: f64) -> Value {
    sparse_value(s.matrix.map(|&x| x * factor), ElType::Float64)
}

/// A plain scalar operand (`Int`, `Float64`, `Bool`).
fn plain_scalar(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(x) => Some(*x),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

/// Whether two sparse matrices hold equal numbers (unstored entries are zeros).
fn sparse_equal(x: &CsMat<f64>, y: &CsMat<f64>) -> bool {
    if x.shape() != y.shape() {
        return false;
    }
    x.outer_iterator().zip(y.outer_iterator()).all(|(cx, cy)| {
        let (mut a, mut b) = (cx.iter().peekable(), cy.iter().peekable());
        loop {
            match (a.peek().copied(), b.peek().copied()) {
                (None, None) => return true,
                (Some((i, &u)), Some((j, &v))) if i == j => {
                    if u != v {
                        return false;
                    }
                    a.next();
                    b.next();
                }
                (Some((i, &u)), Some((j, _))) if i < j => {
                    if u != 0.0 {
                        return false;
                    }
                    a.next();
                }
                (Some((_, &u)), None) => {
                    if u != 0.0 {
                        return false;
                    }
                    a.next();
                }
                (_, Some((_, &v))) => {
                    if v != 0.0 {
                        return false;
                    }
                    b.next();
                }
            }
        }
    })
}

fn frobenius(m: &CsMat<f64>) -> f64 {
    m.data().iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn densify(interp: &Interp, v: &Value) -> EvalResult {
    match v {
        Value::Sparse(s) => {
            let s = s.borrow();
            interp.check_alloc(s.matrix.rows().saturating_mul(s.matrix.cols()))?;
            Ok(dense_of(&s))
        }
        other => Ok(other.clone()),
    }
}

fn no_method(op: BinOp, a: &Value, b: &Value, hint: &str) -> Flow {
    fail(
        ErrorKind::MethodError,
        format!(
            "no method matching {}(::{}, ::{}){hint}",
            op.symbol(),
            a.type_name(),
            b.type_name()
        ),
    )
}

/// `a op b` when an operand is a sparse matrix (or `F \ b` with an `lu` factorization `F`);
/// `None` otherwise, and for the operators that do not look at numbers (`=>`, `|>`, `∘`, `in`,
/// `===`, `!==`). Sums and differences of sparse matrices, products with numbers and with
/// sparse matrices, `/` by a number and `A^k` stay sparse; products with dense arrays and sums
/// with them are dense; `A \ b` solves with a sparse LU; `==` and `≈` compare numbers.
pub fn sparse_binary(interp: &mut Interp, op: BinOp, a: &Value, b: &Value) -> Option<EvalResult> {
    if let (BinOp::LeftDiv, Value::Object(o)) = (op, a) {
        if let Some(f) = o.as_any().downcast_ref::<super::linalg::Lu>() {
            return Some(f.solve(interp, b));
        }
    }
    if !matches!(a, Value::Sparse(_)) && !matches!(b, Value::Sparse(_)) {
        return None;
    }
    if matches!(
        op,
        BinOp::Pair
            | BinOp::Pipe
            | BinOp::In
            | BinOp::Identical
            | BinOp::NotIdentical
            | BinOp::Compose
    ) {
        return None;
    }
    Some(sparse_binary_op(interp, op, a, b))
}

fn sparse_binary_op(interp: &mut Interp, op: BinOp, a: &Value, b: &Value) -> EvalResult {
    use Value::Sparse;
    match (op, a, b) {
        (BinOp::Add | BinOp::Sub, Sparse(x), Sparse(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            if x.matrix.shape() != y.matrix.shape() {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "dimensions must match: a has dims {:?}, b has dims {:?}",
                        x.matrix.shape(),
                        y.matrix.shape()
                    ),
                ));
            }
            let out = if op == BinOp::Add {
                &x.matrix + &y.matrix
            } else {
                &x.matrix - &y.matrix
            };
            Ok(sparse_value(without_zeros(&out), ElType::Float64))
        }
        (BinOp::Add | BinOp::Sub, _, _) if a.is_number() || b.is_number() => Err(no_method(
            op,
            a,
            b,
            &format!(
                "; for elementwise {} with a number use broadcasting: A .{} x",
                if op == BinOp::Add {
                    "addition"
                } else {
                    "subtraction"
                },
                op.symbol()
            ),
        )),
        (BinOp::Add | BinOp::Sub, _, _) => {
            let (da, db) = (densify(interp, a)?, densify(interp, b)?);
            interp.binary(op, false, &da, &db)
        }
        (BinOp::Mul, Sparse(x), Sparse(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            if x.matrix.cols() != y.matrix.rows() {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "matrix A has dimensions {:?}, matrix B has dimensions {:?}",
                        x.matrix.shape(),
                        y.matrix.shape()
                    ),
                ));
            }
            let product: CsMat<f64> = &x.matrix * &y.matrix;
            Ok(sparse_value(without_zeros(&product), ElType::Float64))
        }
        (BinOp::Mul, Sparse(x), s) | (BinOp::Mul, s, Sparse(x)) if plain_scalar(s).is_some() => {
            Ok(scaled(&x.borrow(), plain_scalar(s).unwrap_or(1.0)))
        }
        (BinOp::Div, Sparse(x), s) if plain_scalar(s).is_some() => {
            Ok(scaled(&x.borrow(), 1.0 / plain_scalar(s).unwrap_or(1.0)))
        }
        (BinOp::LeftDiv, s, Sparse(x)) if plain_scalar(s).is_some() => {
            Ok(scaled(&x.borrow(), 1.0 / plain_scalar(s).unwrap_or(1.0)))
        }
        (BinOp::Mul | BinOp::Div, _, _) if a.is_number() || b.is_number() => {
            // A number carrying derivatives: the product is dense, so the derivatives survive.
            let (da, db) = (densify(interp, a)?, densify(interp, b)?);
            interp.binary(op, false, &da, &db)
        }
        (BinOp::Mul, Sparse(x), other) => {
            let o = operand(other).ok_or_else(|| no_method(op, a, b, ""))?;
            let y = sparse_times(&x.borrow().matrix, o.tensor())?;
            Ok(from_tensor(y, ElType::Float64, false))
        }
        (BinOp::Mul, other, Sparse(x)) => {
            let o = operand(other).ok_or_else(|| no_method(op, a, b, ""))?;
            let row = o.row_adjoint() || o.tensor().shape().len() == 1;
            let y = times_sparse(o.tensor(), &x.borrow().matrix)?;
            let mut out = Array::new(ElType::Float64, y);
            out.row_adjoint = row && out.data.shape().first() == Some(&1);
            Ok(Value::Array(Rc::new(RefCell::new(out))))
        }
        (BinOp::LeftDiv, Sparse(_), _) => super::linalg::solve(interp, a, b),
        (BinOp::LeftDiv, _, Sparse(_)) => {
            let db = densify(interp, b)?;
            super::linalg::solve(interp, a, &db)
        }
        (BinOp::Pow, Sparse(x), k) => {
            let k = match k {
                Value::Int(k) if *k >= 0 => *k as u64,
                _ => {
                    return Err(no_method(
                        op,
                        a,
                        b,
                        "; sparse matrices take non-negative integer powers (for elementwise powers use `A .^ p`)",
                    ))
                }
            };
            let x = x.borrow();
            let n = x.matrix.rows();
            if x.matrix.cols() != n {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "matrix is not square: dimensions are {:?}",
                        x.matrix.shape()
                    ),
                ));
            }
            let mut out: CsMat<f64> = CsMat::eye_csc(n);
            let mut base = x.matrix.clone();
            let mut e = k;
            while e > 0 {
                interp.check_interrupt()?;
                if e & 1 == 1 {
                    out = &out * &base;
                }
                e >>= 1;
                if e > 0 {
                    base = &base * &base;
                }
            }
            Ok(sparse_value(without_zeros(&out), ElType::Float64))
        }
        (BinOp::Eq | BinOp::Ne, _, _) => {
            let equal = match (a, b) {
                (Sparse(x), Sparse(y)) => sparse_equal(&x.borrow().matrix, &y.borrow().matrix),
                _ => {
                    let (da, db) = (densify(interp, a)?, densify(interp, b)?);
                    crate::eval::operators::values_equal(&da, &db)
                }
            };
            Ok(Value::Bool(equal == (op == BinOp::Eq)))
        }
        (BinOp::Approx, Sparse(x), Sparse(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            if x.matrix.shape() != y.matrix.shape() {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "dimensions must match: a has dims {:?}, b has dims {:?}",
                        x.matrix.shape(),
                        y.matrix.shape()
                    ),
                ));
            }
            let diff = frobenius(&(&x.matrix - &y.matrix));
            let scale = frobenius(&x.matrix).max(frobenius(&y.matrix));
            Ok(Value::Bool(
                sparse_equal(&x.matrix, &y.matrix) || diff <= f64::EPSILON.sqrt() * scale,
            ))
        }
        (BinOp::Approx, _, _) => {
            let (da, db) = (densify(interp, a)?, densify(interp, b)?);
            crate::builtins::math::isapprox(interp, &da, &db, None, None)
        }
        _ => Err(no_method(
            op,
            a,
            b,
            &format!("; for elementwise operations use `.{}`", op.symbol()),
        )),
    }
}

/// `a .op b` when an operand is a sparse matrix; `None` otherwise. Scaling by a number stays
/// sparse; other operations are computed densely and stored back as a sparse matrix of their
/// nonzeros (as Julia's sparse broadcasting returns a sparse matrix), unless the result carries
/// derivatives.
pub fn sparse_broadcast(
    interp: &mut Interp,
    op: BinOp,
    a: &Value,
    b: &Value,
) -> Option<EvalResult> {
    if !matches!(a, Value::Sparse(_)) && !matches!(b, Value::Sparse(_)) {
        return None;
    }
    Some((|| {
        match (op, a, b) {
            (BinOp::Mul, Value::Sparse(x), s) | (BinOp::Mul, s, Value::Sparse(x))
                if plain_scalar(s).is_some() =>
            {
                return Ok(scaled(&x.borrow(), plain_scalar(s).unwrap_or(1.0)));
            }
            (BinOp::Div, Value::Sparse(x), s) if plain_scalar(s).is_some() => {
                return Ok(scaled(&x.borrow(), 1.0 / plain_scalar(s).unwrap_or(1.0)));
            }
            _ => {}
        }
        let (da, db) = (densify(interp, a)?, densify(interp, b)?);
        let out = interp.binary(op, true, &da, &db)?;
        let plain_matrix = match &out {
            Value::Array(arr) => {
                let arr = arr.borrow();
                arr.data.is_plain() && arr.data.shape().len() == 2
            }
            _ => false,
        };
        if plain_matrix {
            let (m, eltype) = sparse_of_dense(&out, "broadcast")?;
            return Ok(sparse_value(m, eltype));
        }
        Ok(out)
    })())
}

/// `-A` and `+A` for a sparse matrix; `None` for other values.
pub fn sparse_unary(op: UnaryOp, v: &Value) -> Option<EvalResult> {
    let Value::Sparse(s) = v else {
        return None;
    };
    Some(match op {
        UnaryOp::Plus => Ok(super::arrays::deep_copy(v)),
        UnaryOp::Neg => Ok(scaled(&s.borrow(), -1.0)),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {op:?}(::{})", v.type_name()),
        )),
    })
}

// ---------------------------------------------------------------------------------------------
// Builtins.

/// A sparse matrix from triplets (1-based), duplicates summed (or'ed for `Bool` values).
fn from_triplets(
    interp: &Interp,
    is: &[i64],
    js: &[i64],
    vs: &[f64],
    eltype: ElType,
    m: usize,
    n: usize,
) -> EvalResult {
    if is.len() != js.len() || (vs.len() != is.len() && vs.len() != 1) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "sparse(I, J, V): I, J and V must have the same length, got {}, {} and {}",
                is.len(),
                js.len(),
                vs.len()
            ),
        ));
    }
    interp.check_alloc(is.len().saturating_mul(3))?;
    let mut tri = TriMat::with_capacity((m, n), is.len());
    for k in 0..is.len() {
        let (r, c) = (is[k], js[k]);
        if r < 1 || c < 1 || r as usize > m || c as usize > n {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("sparse: index ({r}, {c}) is outside a {m}×{n} matrix"),
            ));
        }
        tri.add_triplet(
            r as usize - 1,
            c as usize - 1,
            vs[if vs.len() == 1 { 0 } else { k }],
        );
    }
    // Converting the triplets sums duplicates, as Julia's `sparse` does; stored zeros stay.
    let mut matrix: CsMat<f64> = tri.to_csc();
    if eltype == ElType::Bool {
        matrix.map_inplace(|&x| f64::from(u8::from(x != 0.0)));
    }
    Ok(sparse_value(matrix, eltype))
}

fn sparse_(interp: &mut Interp, args: Args) -> EvalResult {
    match args.pos.as_slice() {
        [Value::Builtin(b), rest @ ..] if b.name == "I" && !rest.is_empty() && rest.len() <= 2 => {
            // `sparse(I, n)` and `sparse(I, m, n)`: the sparse identity.
            let m = to_size(&rest[0], "sparse")?;
            let n = rest.get(1).map(|v| to_size(v, "sparse")).transpose()?.unwrap_or(m);
            let k = m.min(n);
            interp.check_alloc(k + n)?;
            let diagonal: Vec<i64> = (1..=k as i64).collect();
            from_triplets(interp, &diagonal, &diagonal, &[1.0], ElType::Float64, m, n)
        }
        [a] => {
            if let Value::Sparse(_) = a {
                return Ok(super::arrays::deep_copy(a));
            }
            let (m, eltype) = sparse_of_dense(a, "sparse")?;
            Ok(sparse_value(m, eltype))
        }
        [i, j, v, rest @ ..] => {
            let (is, js) = (ints(i, "sparse")?, ints(j, "sparse")?);
            let (vs, eltype) = numbers(v, "sparse")?;
            let (m, n) = match rest {
                [m, n] => (to_size(m, "sparse")?, to_size(n, "sparse")?),
                [] => (
                    is.iter().copied().max().unwrap_or(0).max(0) as usize,
                    js.iter().copied().max().unwrap_or(0).max(0) as usize,
                ),
                _ => {
                    return Err(fail(
                        ErrorKind::MethodError,
                        "sparse(I, J, V, m, n) takes no combining function here (duplicates are summed)",
                    ))
                }
            };
            from_triplets(interp, &is, &js, &vs, eltype, m, n)
        }
        _ => Err(fail(
            ErrorKind::MethodError,
            "no method matching sparse with these arguments: use sparse(A), sparse(I, J, V[, m, n]) or sparse(I, m, n)",
        )),
    }
}

/// Skips a leading element type (`spzeros(Float64, m, n)`), returning the rest and the type.
fn with_eltype(pos: &[Value]) -> (&[Value], ElType) {
    match pos.first() {
        Some(Value::Builtin(b)) if b.name == "Bool" => (&pos[1..], ElType::Bool),
        Some(Value::Builtin(b)) if b.name == "Float64" => (&pos[1..], ElType::Float64),
        _ => (pos, ElType::Float64),
    }
}

fn spzeros_(interp: &mut Interp, args: Args) -> EvalResult {
    let (pos, eltype) = with_eltype(&args.pos);
    let dims = super::dims_from(pos, "spzeros")?;
    let (m, n) = match dims.as_slice() {
        [m, n] => (*m, *n),
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                "no method matching spzeros with these arguments: use spzeros(m, n)",
            ))
        }
    };
    interp.check_alloc(n + 1)?;
    Ok(sparse_value(CsMat::zero((m, n)).to_csc(), eltype))
}

fn the_sparse<'a>(args: &'a Args, name: &str) -> Result<std::cell::Ref<'a, SparseMatrix>, Flow> {
    match args.pos.first() {
        Some(Value::Sparse(s)) => Ok(s.borrow()),
        Some(other) => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", other.type_name()),
        )),
        None => Err(fail(
            ErrorKind::MethodError,
            format!("{name} needs a sparse matrix"),
        )),
    }
}

fn nnz_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("nnz", 1, 1)?;
    Ok(Value::Int(the_sparse(&args, "nnz")?.matrix.nnz() as i64))
}

fn findnz_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("findnz", 1, 1)?;
    let s = the_sparse(&args, "findnz")?;
    let nnz = s.matrix.nnz();
    let (mut is, mut js, mut vs) = (
        Vec::with_capacity(nnz),
        Vec::with_capacity(nnz),
        Vec::with_capacity(nnz),
    );
    for (j, col) in s.matrix.outer_iterator().enumerate() {
        for (i, x) in col.iter() {
            is.push((i + 1) as f64);
            js.push((j + 1) as f64);
            vs.push(*x);
        }
    }
    Ok(Value::Tuple(Rc::new(vec![
        super::array(ElType::Int64, &[nnz], is),
        super::array(ElType::Int64, &[nnz], js),
        super::array(s.eltype, &[nnz], vs),
    ])))
}

fn nonzeros_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("nonzeros", 1, 1)?;
    let s = the_sparse(&args, "nonzeros")?;
    Ok(super::array(
        s.eltype,
        &[s.matrix.nnz()],
        s.matrix.data().to_vec(),
    ))
}

fn rowvals_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("rowvals", 1, 1)?;
    let s = the_sparse(&args, "rowvals")?;
    Ok(super::array(
        ElType::Int64,
        &[s.matrix.nnz()],
        s.matrix.indices().iter().map(|i| (i + 1) as f64).collect(),
    ))
}

fn issparse_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("issparse", 1, 1)?;
    Ok(Value::Bool(matches!(args.pos[0], Value::Sparse(_))))
}

fn dropzeros_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dropzeros", 1, 1)?;
    let s = the_sparse(&args, "dropzeros")?;
    Ok(sparse_value(without_zeros(&s.matrix), s.eltype))
}

fn dropzeros_in_place(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("dropzeros!", 1, 1)?;
    let Value::Sparse(cell) = &args.pos[0] else {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching dropzeros!(::{})",
                args.pos[0].type_name()
            ),
        ));
    };
    let pruned = without_zeros(&cell.borrow().matrix);
    cell.borrow_mut().matrix = pruned;
    Ok(args.pos[0].clone())
}

fn sprand_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sprand", 3, 3)?;
    let (m, n) = (
        to_size(&args.pos[0], "sprand")?,
        to_size(&args.pos[1], "sprand")?,
    );
    let p = super::to_float(&args.pos[2], "sprand")?;
    if !(0.0..=1.0).contains(&p) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "sprand: the density p must lie in [0, 1], got {}",
                crate::show::float(p)
            ),
        ));
    }
    let expected = (m as f64 * n as f64 * p).ceil() as usize;
    interp.check_alloc(expected.saturating_mul(2).saturating_add(n + 1))?;
    // Each entry is stored with probability p: the gaps between stored rows of a column are
    // geometric, so the cost is proportional to the number of entries, not to m·n.
    let mut indptr = Vec::with_capacity(n + 1);
    let (mut indices, mut data) = (Vec::new(), Vec::new());
    indptr.push(0);
    let log_q = (1.0 - p).ln();
    for _ in 0..n {
        if p > 0.0 {
            let mut i = 0usize;
            loop {
                if p < 1.0 {
                    let u: f64 = 1.0 - interp.rng.random::<f64>();
                    let skip = (u.ln() / log_q).floor();
                    if !skip.is_finite() || skip >= (m - i.min(m)) as f64 {
                        break;
                    }
                    i += skip as usize;
                }
                if i >= m {
                    break;
                }
                indices.push(i);
                data.push(interp.rng.random::<f64>());
                i += 1;
            }
        }
        indptr.push(indices.len());
    }
    Ok(sparse_value(
        CsMat::new_csc((m, n), indptr, indices, data),
        ElType::Float64,
    ))
}

fn spdiagm_(interp: &mut Interp, args: Args) -> EvalResult {
    let (size, pairs) = match args.pos.as_slice() {
        [m, n, rest @ ..] if m.is_number() && n.is_number() && !rest.is_empty() => {
            (Some((to_size(m, "spdiagm")?, to_size(n, "spdiagm")?)), rest)
        }
        [] => return Err(fail(ErrorKind::MethodError, "no method matching spdiagm()")),
        all => (None, all),
    };
    let mut diagonals = Vec::with_capacity(pairs.len());
    let mut all_bool = true;
    for pair in pairs {
        let (k, v) = match pair {
            Value::Tuple(pair) if pair.len() == 2 => {
                (super::to_int(&pair[0], "spdiagm")?, pair[1].clone())
            }
            other if pairs.len() == 1 => (0, other.clone()),
            other => {
                return Err(fail(
                    ErrorKind::MethodError,
                    format!("spdiagm takes pairs k => v, got a {}", other.type_name()),
                ))
            }
        };
        let (values, eltype) = numbers(&v, "spdiagm")?;
        all_bool &= eltype == ElType::Bool;
        diagonals.push((k, values));
    }
    let (m, n) = size.unwrap_or_else(|| {
        let n = diagonals
            .iter()
            .map(|(k, v)| v.len() + k.unsigned_abs() as usize)
            .max()
            .unwrap_or(0);
        (n, n)
    });
    let total: usize = diagonals.iter().map(|(_, v)| v.len()).sum();
    interp.check_alloc(total.saturating_mul(3).saturating_add(n))?;
    let mut tri = TriMat::with_capacity((m, n), total);
    for (k, values) in &diagonals {
        let (i0, j0) = if *k >= 0 {
            (0, *k as usize)
        } else {
            (k.unsigned_abs() as usize, 0)
        };
        for (t, &x) in values.iter().enumerate() {
            let (i, j) = (i0 + t, j0 + t);
            if i >= m || j >= n {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "diagonal {k} of a {m}×{n} matrix is shorter than the {} values given",
                        values.len()
                    ),
                ));
            }
            tri.add_triplet(i, j, x);
        }
    }
    let eltype = if all_bool {
        ElType::Bool
    } else {
        ElType::Float64
    };
    Ok(sparse_value(tri.to_csc(), eltype))
}

crate::builtins! {
    "sparse" => sparse_, false, "    sparse(I, J, V, [m, n])\n    sparse(A)\n    sparse(I, n)\n\nA `SparseMatrixCSC{Float64, Int64}` with entries `V[k]` at `(I[k], J[k])` (1-based; duplicates are summed; a single value is repeated), or the nonzeros of a dense matrix, or the n×n identity (`I` is the identity function).\n\n```\njulia> sparse([1, 2, 1], [1, 2, 1], [1.0, 2.0, 3.0], 2, 2)\n2×2 SparseMatrixCSC{Float64, Int64} with 2 stored entries:\n 4.0   ⋅ \n  ⋅   2.0\n```";
    "spzeros" => spzeros_, false, "    spzeros(m, n)\n\nAn m×n sparse matrix with no stored entries.\n\n```\njulia> nnz(spzeros(3, 3))\n0\n```";
    "spdiagm" => spdiagm_, false, "    spdiagm(v)\n    spdiagm(k => v, ...)\n    spdiagm(m, n, k => v, ...)\n\nA sparse matrix with `v` on its `k`-th diagonal.\n\n```\njulia> spdiagm(0 => [2.0, 2.0], 1 => [-1.0])\n2×2 SparseMatrixCSC{Float64, Int64} with 3 stored entries:\n 2.0  -1.0\n  ⋅    2.0\n```";
    "sprand" => sprand_, false, "    sprand(m, n, p)\n\nA random m×n sparse matrix: each entry is stored with probability `p`, with a value uniform in [0, 1) (from the session's generator).\n\n```\njulia> size(sprand(100, 50, 0.1))\n(100, 50)\n```";
    "nnz" => nnz_, false, "    nnz(A)\n\nThe number of stored entries of a sparse matrix.\n\n```\njulia> nnz(sparse([1, 2], [1, 2], [1.0, 2.0]))\n2\n```";
    "findnz" => findnz_, false, "    findnz(A)\n\n`(I, J, V)`: the row indices, column indices and values of the stored entries, column by column.\n\n```\njulia> findnz(sparse([2, 1], [1, 2], [5.0, 6.0]))\n([2, 1], [1, 2], [5.0, 6.0])\n```";
    "nonzeros" => nonzeros_, false, "    nonzeros(A)\n\nThe stored values, column by column.\n\n```\njulia> nonzeros(sparse([1], [1], [3.0]))\n1-element Vector{Float64}:\n 3.0\n```";
    "rowvals" => rowvals_, false, "    rowvals(A)\n\nThe row index of each stored value.\n\n```\njulia> rowvals(sparse([2], [1], [3.0]))\n1-element Vector{Int64}:\n 2\n```";
    "issparse" => issparse_, false, "    issparse(A)\n\nWhether `A` is a sparse matrix.\n\n```\njulia> issparse(spzeros(2, 2))\ntrue\n```";
    "dropzeros" => dropzeros_, false, "    dropzeros(A)\n\nA copy without the stored entries equal to zero.\n\n```\njulia> nnz(dropzeros(sparse([1, 2], [1, 2], [0.0, 1.0])))\n1\n```";
    "dropzeros!" => dropzeros_in_place, false, "    dropzeros!(A)\n\nRemoves the stored entries equal to zero from `A` itself, and returns it.\n\n```\njulia> A = sparse([1, 2], [1, 2], [0.0, 1.0]); dropzeros!(A); nnz(A)\n1\n```";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::test_support::{call, interp};

    use difflab_ad::reverse::Tape;
    use difflab_ad::{tracer, Tag};
    use difflab_syntax::Name;

    fn ok(r: EvalResult) -> Value {
        match r {
            Ok(v) => v,
            Err(Flow::Error(e)) => panic!("{}: {}", e.kind.name(), e.message),
            Err(_) => panic!("unexpected control flow"),
        }
    }

    fn error_kind(r: EvalResult) -> ErrorKind {
        match r {
            Err(Flow::Error(e)) => e.kind,
            _ => panic!("an error was expected"),
        }
    }

    fn ints(v: &[i64]) -> Value {
        super::super::array(
            ElType::Int64,
            &[v.len()],
            v.iter().map(|&k| k as f64).collect(),
        )
    }

    fn floats(v: &[f64]) -> Value {
        super::super::array(ElType::Float64, &[v.len()], v.to_vec())
    }

    fn numbers(v: &Value) -> Vec<f64> {
        match crate::eval::operators::to_tensor(v) {
            Ok(t) => t.to_col_major(),
            Err(_) => panic!("numbers expected, got {v:?}"),
        }
    }

    fn matrix_of(v: &Value) -> CsMat<f64> {
        match v {
            Value::Sparse(s) => s.borrow().matrix.clone(),
            other => panic!("a sparse matrix expected, got {other:?}"),
        }
    }

    fn dense_numbers(v: &Value) -> Vec<f64> {
        numbers(&ok(to_dense(v)))
    }

    /// The n×n tridiagonal matrix with 2 on the diagonal and -1 beside it.
    fn tridiagonal(interp: &mut Interp, n: i64) -> Value {
        let (mut is, mut js, mut vs) = (Vec::new(), Vec::new(), Vec::new());
        for i in 1..=n {
            is.push(i);
            js.push(i);
            vs.push(2.0);
            if i < n {
                is.extend([i, i + 1]);
                js.extend([i + 1, i]);
                vs.extend([-1.0, -1.0]);
            }
        }
        ok(call(
            interp,
            "sparse",
            vec![
                ints(&is),
                ints(&js),
                floats(&vs),
                Value::Int(n),
                Value::Int(n),
            ],
        ))
    }

    #[test]
    fn constructors_sum_duplicates_and_keep_stored_zeros() {
        let mut it = interp();
        let a = ok(call(
            &mut it,
            "sparse",
            vec![
                ints(&[1, 2, 1]),
                ints(&[1, 2, 1]),
                floats(&[1.0, 2.0, 3.0]),
                Value::Int(2),
                Value::Int(3),
            ],
        ));
        assert_eq!(a.type_name(), "SparseMatrixCSC{Float64, Int64}");
        assert_eq!(matrix_of(&a).shape(), (2, 3));
        assert!(matches!(
            ok(call(&mut it, "nnz", vec![a.clone()])),
            Value::Int(2)
        ));
        assert_eq!(dense_numbers(&a), vec![4.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
        // Sizes from the largest indices; a stored zero counts as an entry.
        let z = ok(call(
            &mut it,
            "sparse",
            vec![ints(&[1, 3]), ints(&[2, 1]), floats(&[0.0, 5.0])],
        ));
        assert_eq!(matrix_of(&z).shape(), (3, 2));
        assert_eq!(matrix_of(&z).nnz(), 2);
        assert_eq!(
            matrix_of(&ok(call(&mut it, "dropzeros", vec![z.clone()]))).nnz(),
            1
        );
        assert_eq!(matrix_of(&z).nnz(), 2);
        ok(call(&mut it, "dropzeros!", vec![z.clone()]));
        assert_eq!(matrix_of(&z).nnz(), 1);
        // Bool values combine with `|`.
        let b = ok(call(
            &mut it,
            "sparse",
            vec![
                ints(&[1, 1]),
                ints(&[1, 1]),
                super::super::array(ElType::Bool, &[2], vec![1.0, 1.0]),
            ],
        ));
        assert_eq!(b.type_name(), "SparseMatrixCSC{Bool, Int64}");
        assert_eq!(matrix_of(&b).data(), &[1.0]);
        // From a dense matrix: the nonzeros.
        let d = super::super::array(ElType::Float64, &[2, 2], vec![1.0, 0.0, 0.0, 3.0]);
        let s = ok(call(&mut it, "sparse", vec![d]));
        assert_eq!(matrix_of(&s).nnz(), 2);
        // The sparse identity and the empty matrix.
        let id = ok(call(
            &mut it,
            "sparse",
            vec![
                Value::Builtin(crate::builtins::lookup(Name::new("I")).unwrap()),
                Value::Int(3),
            ],
        ));
        assert_eq!(
            dense_numbers(&id),
            vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
        );
        let e = ok(call(&mut it, "spzeros", vec![Value::Int(3), Value::Int(4)]));
        assert_eq!((matrix_of(&e).shape(), matrix_of(&e).nnz()), ((3, 4), 0));
        assert!(matches!(
            ok(call(&mut it, "issparse", vec![e])),
            Value::Bool(true)
        ));
        // Errors: an index outside the size, mismatched lengths, derivatives.
        let outside = call(
            &mut it,
            "sparse",
            vec![
                ints(&[3]),
                ints(&[1]),
                floats(&[1.0]),
                Value::Int(2),
                Value::Int(2),
            ],
        );
        assert_eq!(error_kind(outside), ErrorKind::ArgumentError);
        let lengths = call(
            &mut it,
            "sparse",
            vec![ints(&[1, 2]), ints(&[1]), floats(&[1.0, 2.0])],
        );
        assert_eq!(error_kind(lengths), ErrorKind::ArgumentError);
        let t = Tensor::from_col_major(&[1], vec![1.0]);
        let dual = from_tensor(
            Tensor::dual(Tag::fresh(), t.clone(), vec![t]),
            ElType::Float64,
            false,
        );
        let refused = call(&mut it, "sparse", vec![ints(&[1]), ints(&[1]), dual]);
        assert_eq!(error_kind(refused), ErrorKind::MethodError);
    }

    #[test]
    fn findnz_goes_column_by_column() {
        let mut it = interp();
        let a = ok(call(
            &mut it,
            "sparse",
            vec![ints(&[2, 1, 3]), ints(&[2, 1, 1]), floats(&[5.0, 6.0, 7.0])],
        ));
        let Value::Tuple(parts) = ok(call(&mut it, "findnz", vec![a.clone()])) else {
            panic!("findnz gives a tuple")
        };
        assert_eq!(numbers(&parts[0]), vec![1.0, 3.0, 2.0]);
        assert_eq!(numbers(&parts[1]), vec![1.0, 1.0, 2.0]);
        assert_eq!(numbers(&parts[2]), vec![6.0, 7.0, 5.0]);
        assert_eq!(parts[0].type_name(), "Vector{Int64}");
        assert_eq!(
            numbers(&ok(call(&mut it, "nonzeros", vec![a.clone()]))),
            vec![6.0, 7.0, 5.0]
        );
        assert_eq!(
            numbers(&ok(call(&mut it, "rowvals", vec![a.clone()]))),
            vec![1.0, 3.0, 2.0]
        );
        let Value::Sparse(s) = &a else { panic!() };
        let s = s.borrow();
        assert_eq!(numbers(&ok(field(&s, "colptr"))), vec![1.0, 3.0, 4.0]);
        assert!(matches!(ok(field(&s, "m")), Value::Int(3)));
        assert_eq!(error_kind(field(&s, "foo")), ErrorKind::ArgumentError);
    }

    #[test]
    fn indexing_and_assignment() {
        let mut it = interp();
        let a = ok(call(
            &mut it,
            "sparse",
            vec![ints(&[2, 1, 3]), ints(&[2, 1, 1]), floats(&[5.0, 6.0, 7.0])],
        ));
        let Value::Sparse(cell) = &a else { panic!() };
        let colon = Value::Builtin(crate::builtins::colon());
        let range = |a: i64, b: i64| {
            crate::eval::operators::make_range(&Value::Int(a), None, &Value::Int(b))
                .unwrap_or(Value::Nothing)
        };
        {
            let s = cell.borrow();
            assert!(
                matches!(ok(index(&mut it, &s, &[Value::Int(3), Value::Int(1)])), Value::Float(x) if x == 7.0)
            );
            assert!(
                matches!(ok(index(&mut it, &s, &[Value::Int(3), Value::Int(2)])), Value::Float(x) if x == 0.0)
            );
            assert!(
                matches!(ok(index(&mut it, &s, &[Value::Int(5)])), Value::Float(x) if x == 5.0)
            );
            assert_eq!(
                numbers(&ok(index(&mut it, &s, &[colon.clone(), Value::Int(1)]))),
                vec![6.0, 0.0, 7.0]
            );
            assert_eq!(
                numbers(&ok(index(&mut it, &s, &[Value::Int(2), colon.clone()]))),
                vec![0.0, 5.0]
            );
            let sub = ok(index(&mut it, &s, &[range(2, 3), colon.clone()]));
            assert_eq!(dense_numbers(&sub), vec![0.0, 7.0, 5.0, 0.0]);
            assert_eq!(
                error_kind(index(&mut it, &s, &[Value::Int(4), Value::Int(1)])),
                ErrorKind::BoundsError
            );
        }
        {
            let mut s = cell.borrow_mut();
            set_index(&mut s, &[Value::Int(1), Value::Int(2)], &Value::Float(9.0)).ok();
            set_index(&mut s, &[Value::Int(3), Value::Int(1)], &Value::Int(1)).ok();
            // Zero into an entry that is not stored leaves it unstored.
            set_index(&mut s, &[Value::Int(2), Value::Int(1)], &Value::Float(0.0)).ok();
            assert!(set_index(&mut s, &[colon, Value::Int(1)], &Value::Float(1.0)).is_err());
        }
        assert_eq!(dense_numbers(&a), vec![6.0, 0.0, 1.0, 9.0, 5.0, 0.0]);
        assert_eq!(matrix_of(&a).nnz(), 4);
    }

    #[test]
    fn arithmetic_with_sparse_matrices() {
        let mut it = interp();
        let a = ok(call(
            &mut it,
            "sparse",
            vec![ints(&[1, 2, 2]), ints(&[1, 1, 2]), floats(&[1.0, 2.0, 3.0])],
        ));
        let dense_a = ok(to_dense(&a));
        let x = floats(&[1.0, 10.0]);
        let bin = |it: &mut Interp, op: BinOp, p: &Value, q: &Value| {
            ok(sparse_binary(it, op, p, q).expect("a sparse operand"))
        };
        assert_eq!(numbers(&bin(&mut it, BinOp::Mul, &a, &x)), vec![1.0, 32.0]);
        // A row times a sparse matrix stays a row.
        let row = ok(crate::eval::operators::adjoint(&x));
        let r = bin(&mut it, BinOp::Mul, &row, &a);
        assert_eq!(numbers(&r), vec![21.0, 30.0]);
        assert_eq!(r.type_name(), dense_a.type_name());
        let dense_times = bin(&mut it, BinOp::Mul, &dense_a, &a);
        assert_eq!(numbers(&dense_times), vec![1.0, 8.0, 0.0, 9.0]);
        let sq = bin(&mut it, BinOp::Mul, &a, &a);
        assert!(matches!(sq, Value::Sparse(_)));
        assert_eq!(dense_numbers(&sq), vec![1.0, 8.0, 0.0, 9.0]);
        assert_eq!(
            dense_numbers(&bin(&mut it, BinOp::Pow, &a, &Value::Int(2))),
            vec![1.0, 8.0, 0.0, 9.0]
        );
        assert_eq!(
            dense_numbers(&bin(&mut it, BinOp::Pow, &a, &Value::Int(0))),
            vec![1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            dense_numbers(&bin(&mut it, BinOp::Add, &a, &a)),
            vec![2.0, 4.0, 0.0, 6.0]
        );
        let zero = bin(&mut it, BinOp::Sub, &a, &a);
        assert_eq!(matrix_of(&zero).nnz(), 0);
        assert_eq!(
            dense_numbers(&bin(&mut it, BinOp::Mul, &Value::Int(2), &a)),
            vec![2.0, 4.0, 0.0, 6.0]
        );
        assert_eq!(
            dense_numbers(&bin(&mut it, BinOp::Div, &a, &Value::Float(2.0))),
            vec![0.5, 1.0, 0.0, 1.5]
        );
        let mixed = bin(&mut it, BinOp::Add, &a, &dense_a);
        assert_eq!(mixed.type_name(), "Matrix{Float64}");
        assert_eq!(numbers(&mixed), vec![2.0, 4.0, 0.0, 6.0]);
        assert_eq!(
            error_kind(
                sparse_binary(&mut it, BinOp::Add, &a, &Value::Int(1))
                    .unwrap_or(Ok(Value::Nothing))
            ),
            ErrorKind::MethodError
        );
        assert!(matches!(
            bin(&mut it, BinOp::Eq, &a, &dense_a),
            Value::Bool(true)
        ));
        assert!(matches!(
            bin(&mut it, BinOp::Eq, &a, &ok(deep(&a))),
            Value::Bool(true)
        ));
        assert!(matches!(
            bin(&mut it, BinOp::Eq, &a, &sq),
            Value::Bool(false)
        ));
        let tiny = bin(&mut it, BinOp::Mul, &Value::Float(1e-12), &a);
        let nudged = bin(&mut it, BinOp::Add, &a, &tiny);
        assert!(matches!(
            bin(&mut it, BinOp::Approx, &a, &nudged),
            Value::Bool(true)
        ));
        assert!(matches!(
            bin(&mut it, BinOp::Approx, &nudged, &dense_a),
            Value::Bool(true)
        ));
        assert!(matches!(
            bin(&mut it, BinOp::Approx, &a, &sq),
            Value::Bool(false)
        ));
        let solved = bin(&mut it, BinOp::LeftDiv, &a, &floats(&[1.0, 32.0]));
        assert!(numbers(&solved)
            .iter()
            .zip([1.0, 10.0])
            .all(|(p, q)| (p - q).abs() < 1e-12));
        let neg = ok(sparse_unary(UnaryOp::Neg, &a).expect("sparse"));
        assert_eq!(dense_numbers(&neg), vec![-1.0, -2.0, 0.0, -3.0]);
        let t = ok(transpose_value(&a));
        assert_eq!(dense_numbers(&t), vec![1.0, 0.0, 2.0, 3.0]);
        // Broadcasting: scaling stays sparse, comparisons give a sparse Bool matrix.
        let half =
            ok(sparse_broadcast(&mut it, BinOp::Mul, &a, &Value::Float(0.5)).expect("sparse"));
        assert_eq!(dense_numbers(&half), vec![0.5, 1.0, 0.0, 1.5]);
        let big = ok(sparse_broadcast(&mut it, BinOp::Gt, &a, &Value::Float(1.5)).expect("sparse"));
        assert_eq!(big.type_name(), "SparseMatrixCSC{Bool, Int64}");
        assert_eq!(dense_numbers(&big), vec![0.0, 1.0, 0.0, 1.0]);
        assert!(sparse_binary(&mut it, BinOp::Add, &x, &x).is_none());
    }

    fn deep(v: &Value) -> EvalResult {
        Ok(super::super::arrays::deep_copy(v))
    }

    #[test]
    fn a_large_tridiagonal_system_solves_quickly() {
        let mut it = interp();
        let n = 1000;
        let a = tridiagonal(&mut it, n);
        let ones = floats(&vec![1.0; n as usize]);
        let b = ok(sparse_binary(&mut it, BinOp::Mul, &a, &ones).expect("sparse"));
        let start = std::time::Instant::now();
        let x = ok(super::super::linalg::solve(&mut it, &a, &b));
        let elapsed = start.elapsed();
        assert!(numbers(&x).iter().all(|v| (v - 1.0).abs() < 1e-9));
        assert!(elapsed.as_secs_f64() < 1.0, "took {elapsed:?}");
        // A structurally singular matrix is an error.
        let s = ok(call(
            &mut it,
            "sparse",
            vec![
                ints(&[1, 2]),
                ints(&[1, 1]),
                floats(&[1.0, 1.0]),
                Value::Int(2),
                Value::Int(2),
            ],
        ));
        let err = super::super::linalg::solve(&mut it, &s, &floats(&[1.0, 1.0]));
        assert_eq!(error_kind(err), ErrorKind::ArgumentError);
        // A numerically singular one too.
        let s = ok(call(
            &mut it,
            "sparse",
            vec![
                ints(&[1, 2, 1, 2]),
                ints(&[1, 1, 2, 2]),
                floats(&[1.0, 2.0, 2.0, 4.0]),
            ],
        ));
        let err = super::super::linalg::solve(&mut it, &s, &floats(&[1.0, 1.0]));
        assert_eq!(error_kind(err), ErrorKind::ArgumentError);
    }

    #[test]
    fn derivatives_flow_through_sparse_products_and_solves() {
        let mut it = interp();
        let a = tridiagonal(&mut it, 5);
        let dense = crate::eval::operators::to_tensor(&ok(to_dense(&a)))
            .unwrap_or_else(|_| Tensor::scalar(0.0));
        let x = Tensor::from_col_major(&[5], vec![1.0, -2.0, 3.0, 0.5, 2.0]);
        let dx = Tensor::from_col_major(&[5], vec![0.3, 0.1, -1.0, 2.0, 0.0]);
        let dual = from_tensor(
            Tensor::dual(Tag::fresh(), x.clone(), vec![dx.clone()]),
            ElType::Float64,
            false,
        );
        // A * x is linear: its tangent is A * dx.
        let y = ok(sparse_binary(&mut it, BinOp::Mul, &a, &dual).expect("sparse"));
        let Ok(Tensor::Dual(y)) = crate::eval::operators::to_tensor(&y) else {
            panic!("a dual result expected")
        };
        let want = ops::matmul(&dense, &dx).unwrap().to_col_major();
        assert_eq!(y.partials[0].to_col_major(), want);
        // A \ b: its tangent is A \ db.
        let z = ok(sparse_binary(&mut it, BinOp::LeftDiv, &a, &dual).expect("sparse"));
        let Ok(Tensor::Dual(z)) = crate::eval::operators::to_tensor(&z) else {
            panic!("a dual result expected")
        };
        let want = super::super::linalg::solve_tensor(&dense, &dx)
            .unwrap()
            .to_col_major();
        for (g, w) in z.partials[0].to_col_major().iter().zip(&want) {
            assert!((g - w).abs() < 1e-12);
        }
        // Reverse mode: the gradient of sum(w .* (A \ x)) is A⁻ᵀ w (A is symmetric here).
        let Value::Sparse(s) = &a else { panic!() };
        let map: Rc<dyn LinearMap> = Rc::new(SparseLu::new(&s.borrow().matrix).unwrap());
        let tape = Tape::new();
        let tx = tape.input(x.clone());
        let w = Tensor::from_col_major(&[5], vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        let out = apply_linear(&map, &tx, false).unwrap();
        let loss = ops::sum_all(&ops::binary(ops::BinaryFn::Mul, &out, &w).unwrap()).unwrap();
        let Tensor::Tracked(node) = &tx else { panic!() };
        let g = tape
            .gradient(&loss, &Tensor::scalar(1.0), &[(node.node, vec![5])])
            .unwrap();
        let want = super::super::linalg::solve_tensor(&dense, &w)
            .unwrap()
            .to_col_major();
        for (p, q) in g[0].to_col_major().iter().zip(&want) {
            assert!((p - q).abs() < 1e-12);
        }
        // Sparsity: row i of a tridiagonal product depends on x[i-1], x[i], x[i+1].
        let y = sparse_times(&s.borrow().matrix, &tracer::input(&x, false)).unwrap();
        let sets: Vec<Vec<u32>> = tracer::sets_of(&y).iter().map(|s| s.to_vec()).collect();
        assert_eq!(
            sets,
            vec![
                vec![0, 1],
                vec![0, 1, 2],
                vec![1, 2, 3],
                vec![2, 3, 4],
                vec![3, 4]
            ]
        );
    }

    #[test]
    fn sprand_spdiagm_and_concatenation() {
        let mut it = interp();
        let r = ok(call(
            &mut it,
            "sprand",
            vec![Value::Int(200), Value::Int(100), Value::Float(0.1)],
        ));
        let m = matrix_of(&r);
        assert_eq!(m.shape(), (200, 100));
        assert!((1500..2500).contains(&m.nnz()), "{}", m.nnz());
        assert!(m.data().iter().all(|v| (0.0..1.0).contains(v)));
        let full = ok(call(
            &mut it,
            "sprand",
            vec![Value::Int(3), Value::Int(2), Value::Float(1.0)],
        ));
        assert_eq!(matrix_of(&full).nnz(), 6);
        let none = ok(call(
            &mut it,
            "sprand",
            vec![Value::Int(3), Value::Int(2), Value::Float(0.0)],
        ));
        assert_eq!(matrix_of(&none).nnz(), 0);
        let pair = |k: i64, v: &[f64]| Value::Tuple(Rc::new(vec![Value::Int(k), floats(v)]));
        let d = ok(call(
            &mut it,
            "spdiagm",
            vec![pair(0, &[2.0, 2.0]), pair(1, &[-1.0])],
        ));
        assert_eq!(dense_numbers(&d), vec![2.0, 0.0, -1.0, 2.0]);
        let d = ok(call(&mut it, "spdiagm", vec![floats(&[1.0, 2.0, 3.0])]));
        assert_eq!(matrix_of(&d).nnz(), 3);
        let v = ok(cat(&[d.clone(), d.clone()], 0));
        assert_eq!(matrix_of(&v).shape(), (6, 3));
        let h = ok(cat(&[d.clone(), floats(&[7.0, 8.0, 9.0])], 1));
        assert_eq!(matrix_of(&h).shape(), (3, 4));
        assert_eq!(dense_numbers(&h)[9..], [7.0, 8.0, 9.0]);
        assert_eq!(
            error_kind(cat(&[d.clone(), floats(&[1.0])], 1)),
            ErrorKind::DimensionMismatch
        );
    }
}
