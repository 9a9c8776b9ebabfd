//! Sparse matrices (`SparseMatrixCSC{Float64, Int64}`, sprs underneath): construction
//! (`sparse`, `spzeros`, `spdiagm`, `sprand`), inspection (`nnz`, `findnz`, `nonzeros`,
//! `rowvals`, `issparse`), `dropzeros`, conversion to dense, indexing, transposition,
//! concatenation and arithmetic ([`sparse_binary`], [`sparse_broadcast`], [`sparse_unary`]).
//!
//! A sparse matrix holds plain numbers. Products `A * x` and solves `A \ b` (sparse LU from faer)
//! are [`LinearMap`](crate::builtins::linalg::LinearMap)s, so `x` and `b` may carry derivatives
//! of every kind; a constructor given numbers carrying derivatives refuses them rather than
//! dropping the derivatives.
//!
//! This module holds the value-level operations (conversion, indexing, concatenation) that the
//! evaluator calls; `arith` the linear maps and operators, `construct` the builtins.

use crate::builtins::linalg::dense_tensor;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::index::{resolve, IndexSpec};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::number;
use crate::value::convert::{from_tensor, operand};
use crate::value::iterate::elements;
use crate::value::{SparseMatrix, Value};
use difflab_ad::shared_sparse::{IntoShared, SharedCsMat};
use difflab_ad::Tensor;
use sprs::{CsMat, CsMatView, TriMat};
use std::cell::RefCell;
use std::rc::Rc;

pub(crate) mod arith;
pub(crate) mod construct;
pub(crate) mod traced;

pub(crate) use arith::SparseLu;
pub use arith::{sparse_binary, sparse_broadcast, sparse_unary};

/// The m×n matrix with no stored entries, stored by columns (its size is `n + 1` offsets,
/// whatever `m`: `spzeros(10^12, 2)` is three numbers).
pub fn empty_csc(m: usize, n: usize) -> CsMat<f64> {
    CsMat::new_csc((m, n), vec![0; n + 1], Vec::new(), Vec::new())
}

/// A sparse matrix value (stored by columns).
pub fn sparse_value(matrix: impl IntoShared, eltype: ElType) -> Value {
    let matrix = matrix.into_shared();
    let matrix = if matrix.is_csc() {
        matrix
    } else {
        matrix.to_csc().into_shared()
    };
    Value::Sparse(Rc::new(RefCell::new(SparseMatrix {
        matrix,
        eltype,
        vector: false,
    })))
}

/// A sparse vector value from its one column (an n×1 matrix).
pub fn sparse_vector_value(column: impl IntoShared, eltype: ElType) -> Value {
    let column = column.into_shared();
    let column = if column.is_csc() {
        column
    } else {
        column.to_csc().into_shared()
    };
    debug_assert_eq!(column.cols(), 1);
    Value::Sparse(Rc::new(RefCell::new(SparseMatrix {
        matrix: column,
        eltype,
        vector: true,
    })))
}

/// A sparse value of the kind `like` is (matrix or vector) holding `matrix`.
fn sparse_like(like: &SparseMatrix, matrix: impl IntoShared, eltype: ElType) -> Value {
    let matrix = matrix.into_shared();
    let matrix = if matrix.is_csc() {
        matrix
    } else {
        matrix.to_csc().into_shared()
    };
    Value::Sparse(Rc::new(RefCell::new(like.like(matrix, eltype))))
}

/// The same matrix without its stored zeros.
fn without_zeros(m: CsMatView<f64>) -> CsMat<f64> {
    keeping(m, |x| x != 0.0)
}

/// `m` (in CSC order) with only the stored entries that `keep` accepts.
fn keeping(m: CsMatView<f64>, keep: impl Fn(f64) -> bool) -> CsMat<f64> {
    let converted;
    let m = if m.is_csc() {
        m
    } else {
        converted = m.to_csc();
        converted.view()
    };
    let mut indptr = Vec::with_capacity(m.cols() + 1);
    let (mut indices, mut data) = (Vec::new(), Vec::new());
    indptr.push(0);
    for col in m.outer_iterator() {
        for (i, &x) in col.iter() {
            if keep(x) {
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
        .map(|x| crate::builtins::to_int(x, name))
        .collect()
}

fn numbers(v: &Value, name: &str) -> Result<(Vec<f64>, ElType), Flow> {
    let o = operand(v)?.ok_or_else(|| {
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

/// `A.field`: `m`, `n`, `colptr`, `rowval`, `nzval` (1-based, as Julia's fields); for a
/// vector `n`, `nzind`, `nzval`.
pub fn field(s: &SparseMatrix, name: &str) -> EvalResult {
    let m = &s.matrix;
    let as_ints = |v: Vec<usize>| {
        let n = v.len();
        crate::builtins::array(
            ElType::Int64,
            &[n],
            v.into_iter().map(|k| (k + 1) as f64).collect(),
        )
    };
    if s.vector {
        return match name {
            "n" => Ok(Value::Int(m.rows() as i64)),
            "nzind" => Ok(as_ints(m.indices().to_vec())),
            "nzval" => Ok(crate::builtins::array(
                s.eltype,
                &[m.nnz()],
                m.data().to_vec(),
            )),
            _ => Err(fail(
                ErrorKind::ArgumentError,
                format!("type SparseVector has no field {name}; its fields are n, nzind, nzval"),
            )),
        };
    }
    match name {
        "m" => Ok(Value::Int(m.rows() as i64)),
        "n" => Ok(Value::Int(m.cols() as i64)),
        "colptr" => Ok(as_ints(m.indptr().to_proper().to_vec())),
        "rowval" => Ok(as_ints(m.indices().to_vec())),
        "nzval" => Ok(crate::builtins::array(s.eltype, &[m.nnz()], m.data().to_vec())),
        _ => Err(fail(ErrorKind::ArgumentError, format!("type SparseMatrixCSC has no field {name}; its fields are m, n, colptr, rowval, nzval"))),
    }
}

fn entry(s: &SparseMatrix, i: usize, j: usize) -> f64 {
    s.matrix.get(i, j).copied().unwrap_or(0.0)
}

/// The sparse matrix `A[is, js]` (0-based positions; a source row may be selected several
/// times).
fn selection(s: &SparseMatrix, is: &[usize], js: &[usize]) -> CsMat<f64> {
    let mut targets: Vec<Vec<usize>> = vec![Vec::new(); s.matrix.rows()];
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
    tri.to_csc()
}

/// `A[i, j]` (a number), `A[k]` (linear), `A[i, :]`, `A[:, j]` and other single-row or
/// single-column selections (sparse vectors, as in Julia), `A[rows, cols]` (a sparse matrix).
/// A sparse vector takes one index: `x[i]` (a number), `x[ks]` (a sparse vector).
pub fn index(interp: &mut Interp, s: &SparseMatrix, indices: &[Value]) -> EvalResult {
    let (rows, cols) = (s.matrix.rows(), s.matrix.cols());
    match indices {
        [k] if !s.vector => check_selection(interp, k, rows.saturating_mul(cols))?,
        [k] => check_selection(interp, k, rows)?,
        [i, j] => {
            check_selection(interp, i, rows)?;
            check_selection(interp, j, cols)?;
        }
        _ => {}
    }
    match indices {
        [k] if s.vector => match resolve(k, rows)? {
            IndexSpec::Scalar(p) => Ok(number(s.eltype, entry(s, p, 0))),
            IndexSpec::List(ps, _) => {
                interp.check_alloc(ps.len())?;
                Ok(sparse_vector_value(selection(s, &ps, &[0]), s.eltype))
            }
        },
        [k] => match resolve(k, rows * cols)? {
            IndexSpec::Scalar(p) => Ok(number(s.eltype, entry(s, p % rows, p / rows))),
            IndexSpec::List(ps, shape) => {
                interp.check_alloc(ps.len())?;
                let values = ps.iter().map(|&p| entry(s, p % rows, p / rows)).collect();
                Ok(crate::builtins::array(s.eltype, &shape, values))
            }
        },
        [i, j] => match (resolve(i, rows)?, resolve(j, cols)?) {
            (IndexSpec::Scalar(i), IndexSpec::Scalar(j)) => Ok(number(s.eltype, entry(s, i, j))),
            (IndexSpec::Scalar(i), IndexSpec::List(js, _)) => {
                interp.check_alloc(js.len())?;
                let row = selection(s, &[i], &js);
                Ok(sparse_vector_value(transposed(row.view())?, s.eltype))
            }
            (IndexSpec::List(is, _), IndexSpec::Scalar(j)) => {
                interp.check_alloc(is.len())?;
                Ok(sparse_vector_value(selection(s, &is, &[j]), s.eltype))
            }
            (IndexSpec::List(is, _), IndexSpec::List(js, _)) if !s.vector => {
                Ok(sparse_value(selection(s, &is, &js), s.eltype))
            }
            (IndexSpec::List(..), IndexSpec::List(..)) => Err(fail(
                ErrorKind::BoundsError,
                "a SparseVector takes one index, or an index and 1",
            )),
        },
        _ => Err(fail(
            ErrorKind::BoundsError,
            format!(
                "a {} takes one or two indices, got {}",
                s.type_name(),
                indices.len()
            ),
        )),
    }
}

/// Refuses a selection too large to list before its positions are listed: a range or `:`
/// along a dimension of a sparse array may be longer than the memory holds
/// (`spzeros(10^15)[:]`).
fn check_selection(interp: &Interp, index: &Value, extent: usize) -> Result<(), Flow> {
    let count = match index {
        Value::Range(r) => r.len,
        Value::Builtin(b) if b.name == ":" => extent,
        _ => return Ok(()),
    };
    interp.check_alloc(count)
}

/// The positions an index selects along a dimension of `extent`.
fn positions(v: &Value, extent: usize) -> Result<Vec<usize>, Flow> {
    Ok(match resolve(v, extent)? {
        IndexSpec::Scalar(i) => vec![i],
        IndexSpec::List(ps, _) => ps,
    })
}

/// `A[i, j] = v` (or `A[k] = v`), and for ranges and colons (`A[:, 1] .= true`) every selected
/// entry from a number or from an array of the selection's length, in column-major order.
/// Stored entries are overwritten; a nonzero at an unstored position is inserted, and a zero
/// there leaves it unstored, as Julia does.
pub fn set_index(s: &mut SparseMatrix, indices: &[Value], v: &Value) -> Result<(), Flow> {
    let (rows, cols) = (s.matrix.rows(), s.matrix.cols());
    let targets: Vec<(usize, usize)> = match indices {
        [k] if s.vector => positions(k, rows)?.into_iter().map(|p| (p, 0)).collect(),
        [k] => positions(k, rows * cols)?
            .into_iter()
            .map(|p| (p % rows, p / rows))
            .collect(),
        [i, j] => {
            let (is, js) = (positions(i, rows)?, positions(j, cols)?);
            js.iter()
                .flat_map(|&j| is.iter().map(move |&i| (i, j)))
                .collect()
        }
        _ => {
            return Err(fail(
                ErrorKind::ArgumentError,
                "sparse assignment takes A[i, j] = x",
            ))
        }
    };
    let values =
        match v {
            Value::Real(_) => return Err(fail(
                ErrorKind::MethodError,
                "setindex!: a sparse matrix holds plain numbers, and this one carries derivatives",
            )),
            Value::Array(_) | Value::Range(_) => {
                let (values, _) = numbers(v, "setindex!")?;
                if values.len() != targets.len() {
                    return Err(fail(
                        ErrorKind::DimensionMismatch,
                        format!(
                            "tried to assign {} elements to {} destinations",
                            values.len(),
                            targets.len()
                        ),
                    ));
                }
                values
            }
            _ => vec![crate::builtins::to_float(v, "setindex!")?; targets.len()],
        };
    if s.eltype == ElType::Bool {
        if let Some(x) = values.iter().find(|&&x| x != 0.0 && x != 1.0) {
            return Err(fail(
                ErrorKind::InexactError,
                format!("Bool({})", crate::show::float(*x)),
            ));
        }
    }
    for (&(i, j), &x) in targets.iter().zip(&values) {
        if let Some(slot) = s.matrix.get_mut(i, j) {
            *slot = x;
        } else if x != 0.0 {
            s.restructure(|m| m.insert(i, j, x));
        }
    }
    Ok(())
}

fn dense_of(s: &SparseMatrix) -> EvalResult {
    Ok(from_tensor(dense_tensor(s)?, s.eltype, false))
}

/// `Matrix(A)`, `Vector(x)`, `collect`.
pub fn to_dense(v: &Value) -> EvalResult {
    match v {
        Value::Sparse(s) => dense_of(&s.borrow()),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching Matrix(::{})", other.type_name()),
        )),
    }
}

/// `A'`.
pub fn transpose_value(v: &Value) -> EvalResult {
    match v {
        Value::Sparse(s) if s.borrow().vector => {
            // `x'` of a sparse vector is the adjoint row of its dense copy, so that `x' * y`
            // is a number as in Julia.
            let dense = dense_of(&s.borrow())?;
            crate::builtins::value_operators::adjoint(&dense)
        }
        Value::Sparse(s) => {
            let s = s.borrow();
            Ok(sparse_value(transposed(s.matrix.view())?, s.eltype))
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching adjoint(::{})", other.type_name()),
        )),
    }
}

/// A copy of a sparse matrix, made in blocks with a look at the interrupt flag between them
/// (copying hundreds of megabytes into fresh pages takes a second).
pub fn copied(a: &SharedCsMat) -> Result<CsMat<f64>, Flow> {
    fn copy<T: Copy>(from: &[T]) -> Result<Vec<T>, Flow> {
        let mut to = Vec::with_capacity(from.len());
        for block in from.chunks(1 << 16) {
            difflab_ad::limits::check()?;
            to.extend_from_slice(block);
        }
        Ok(to)
    }
    let indptr = a.indptr();
    let (indptr, indices, data) = (
        copy(&indptr.to_proper())?,
        copy(a.indices())?,
        copy(a.data())?,
    );
    Ok(if a.is_csc() {
        CsMat::new_csc(a.shape(), indptr, indices, data)
    } else {
        CsMat::new(a.shape(), indptr, indices, data)
    })
}

/// Entries counted or placed between two looks at the interrupt flag while transposing: few,
/// because both passes write at random rows (cache misses), and the first writes into the
/// fresh result land on pages the system has not mapped yet (each costs microseconds), so a
/// block of 2^18 entries could take half a second.
const TRANSPOSE_CHECK_EVERY: usize = 1 << 12;

/// The transpose of a matrix stored by columns, stored by columns: its entries counted and
/// placed row by row, answering interrupts every [`TRANSPOSE_CHECK_EVERY`] entries.
fn transposed(a: CsMatView<f64>) -> Result<CsMat<f64>, Flow> {
    if !a.is_csc() {
        return Ok(a.transpose_view().to_csc());
    }
    let (m, n) = a.shape();
    let indptr = a.indptr();
    let indptr = indptr.to_proper();
    let (indices, data) = (a.indices(), a.data());
    let mut starts = difflab_ad::limits::filled(0_usize, m + 1)?;
    for block in indices.chunks(TRANSPOSE_CHECK_EVERY) {
        difflab_ad::limits::check()?;
        for &i in block {
            starts[i + 1] += 1;
        }
    }
    for i in 0..m {
        starts[i + 1] += starts[i];
    }
    let mut next = starts[..m].to_vec();
    let mut rows = difflab_ad::limits::filled(0_usize, indices.len())?;
    let mut values = difflab_ad::limits::filled(0.0, indices.len())?;
    let mut since_check = 0;
    for j in 0..n {
        let column = indptr[j]..indptr[j + 1];
        since_check += column.len() + 1;
        if since_check >= TRANSPOSE_CHECK_EVERY {
            difflab_ad::limits::check()?;
            since_check = 0;
        }
        for k in column {
            let slot = &mut next[indices[k]];
            rows[*slot] = j;
            values[*slot] = data[k];
            *slot += 1;
        }
    }
    Ok(CsMat::new_csc((n, m), starts, rows, values))
}

/// The symmetric matrix made of one triangle of the square CSC matrix `a` (with its diagonal:
/// the upper one when `upper`), mirrored: `Symmetric(S, uplo)`. Each column of the result is
/// the triangle's own entries of that column and the entries mirrored into it, the part with
/// the smaller rows first, so both are written in order without sorting.
pub fn mirrored_triangle(a: CsMatView<f64>, upper: bool) -> Result<CsMat<f64>, Flow> {
    let n = a.cols();
    let in_triangle = |i: usize, j: usize| if upper { i <= j } else { i >= j };
    let mut since_check = 0;
    let mut poll = |entries: usize| -> Result<(), Flow> {
        since_check += entries + 1;
        if since_check >= TRANSPOSE_CHECK_EVERY {
            difflab_ad::limits::check()?;
            since_check = 0;
        }
        Ok(())
    };
    let mut own = difflab_ad::limits::filled(0_usize, n)?;
    let mut mirrored = difflab_ad::limits::filled(0_usize, n)?;
    for (j, column) in a.outer_iterator().enumerate() {
        poll(column.nnz())?;
        for (i, _) in column.iter().filter(|&(i, _)| in_triangle(i, j)) {
            own[j] += 1;
            if i != j {
                mirrored[i] += 1;
            }
        }
    }
    let mut indptr = Vec::with_capacity(n + 1);
    indptr.push(0);
    for c in 0..n {
        indptr.push(indptr[c] + own[c] + mirrored[c]);
    }
    let (mut next_own, mut next_mirrored): (Vec<usize>, Vec<usize>) = (0..n)
        .map(|c| match upper {
            true => (indptr[c], indptr[c] + own[c]),
            false => (indptr[c] + mirrored[c], indptr[c]),
        })
        .unzip();
    let mut rows = difflab_ad::limits::filled(0_usize, indptr[n])?;
    let mut values = difflab_ad::limits::filled(0.0, indptr[n])?;
    for (j, column) in a.outer_iterator().enumerate() {
        poll(column.nnz())?;
        for (i, &x) in column.iter().filter(|&(i, _)| in_triangle(i, j)) {
            (rows[next_own[j]], values[next_own[j]]) = (i, x);
            next_own[j] += 1;
            if i != j {
                (rows[next_mirrored[i]], values[next_mirrored[i]]) = (j, x);
                next_mirrored[i] += 1;
            }
        }
    }
    Ok(CsMat::new_csc((n, n), indptr, rows, values))
}

/// The plain numbers of a dense matrix or vector (a column) as a sparse matrix.
pub fn sparse_of_dense(v: &Value, name: &str) -> Result<(CsMat<f64>, ElType), Flow> {
    let o = operand(v)?.ok_or_else(|| {
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

/// `dot(s, t)` of two sparse arrays of the same length: the products of the entries both
/// store (numbers only, without densifying either).
pub fn sparse_dot(s: &SparseMatrix, t: &SparseMatrix) -> EvalResult {
    let length = |m: &SharedCsMat| m.rows().saturating_mul(m.cols());
    let (a, b) = (&s.matrix, &t.matrix);
    if length(a) != length(b) {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "first array has length {} which does not match the length of the second, {}",
                length(a),
                length(b)
            ),
        ));
    }
    let rows = b.rows();
    let mut total = 0.0;
    for (&x, (i, j)) in a.iter() {
        let place = i + j * a.rows();
        if let Some(&y) = b.get(place % rows, place / rows) {
            total += x * y;
        }
    }
    Ok(if s.eltype == ElType::Bool && t.eltype == ElType::Bool {
        Value::Int(total as i64)
    } else {
        Value::Float(total)
    })
}

/// `[A; B; …]` of matrices stored by columns with the same number of columns: each column of
/// the result is the blocks' columns one after the other, their rows shifted, so the cost is
/// the number of entries whatever the number of rows (`[spzeros(10^15); spzeros(3)]`).
fn stacked_rows(mats: &[SharedCsMat]) -> CsMat<f64> {
    let cols = mats[0].cols();
    let rows = mats
        .iter()
        .fold(0usize, |total, m| total.saturating_add(m.rows()));
    let nnz = mats.iter().map(|m| m.nnz()).sum();
    let mut indptr = Vec::with_capacity(cols + 1);
    let (mut indices, mut data) = (Vec::with_capacity(nnz), Vec::with_capacity(nnz));
    indptr.push(0);
    for j in 0..cols {
        let mut offset = 0;
        for m in mats {
            if let Some(column) = m.outer_view(j) {
                for (i, &x) in column.iter() {
                    indices.push(i + offset);
                    data.push(x);
                }
            }
            offset += m.rows();
        }
        indptr.push(indices.len());
    }
    CsMat::new_csc((rows, cols), indptr, indices, data)
}

/// `dot(s, y)` of a sparse array and an array of the same length: the sum of the stored
/// entries times the entries of `y` at their places, so `y`'s other entries are not read (a
/// sparsity tracer sees only the stored places, as SparseConnectivityTracer does).
pub fn stored_dot(s: &SparseMatrix, y: &Value) -> EvalResult {
    let o = operand(y)?.ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!(
                "no method matching dot(::{}, ::{})",
                s.type_name(),
                y.type_name()
            ),
        )
    })?;
    let t = o.tensor();
    let rows = s.matrix.rows();
    let length = rows * s.matrix.cols();
    if t.len() != length {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "first array has length {length} which does not match the length of the second, {}",
                t.len()
            ),
        ));
    }
    let mut places = Vec::with_capacity(s.matrix.nnz());
    let mut values = Vec::with_capacity(s.matrix.nnz());
    for (&x, (i, j)) in s.matrix.iter() {
        places.push(i + j * rows);
        values.push(x);
    }
    let n = places.len();
    let picked = difflab_ad::ops::gather(&difflab_ad::ops::reshape(t, &[length])?, &places, &[n])?;
    let products = difflab_ad::ops::binary(
        difflab_ad::ops::BinaryFn::Mul,
        &picked,
        &Tensor::from_col_major(&[n], values),
    )?;
    let total = difflab_ad::ops::sum_all(&products)?;
    let eltype = if s.eltype == ElType::Bool && o.eltype != ElType::Float64 {
        ElType::Int64
    } else {
        ElType::Float64
    };
    Ok(from_tensor(total, eltype, true))
}

/// `[A; B]` (`dim` 0) and `[A B]` (`dim` 1) of sparse matrices, dense ones joining them as
/// sparse matrices (the result is sparse, as in Julia); `[x; y]` of vectors is a sparse vector.
pub fn cat(values: &[Value], dim: usize) -> EvalResult {
    let mut mats = Vec::with_capacity(values.len());
    let mut all_bool = true;
    let is_vector = |v: &Value| match v {
        Value::Sparse(s) => s.borrow().vector,
        other => crate::builtins::arrays::shape_of_value(other).is_some_and(|s| s.len() == 1),
    };
    let vector_result = dim == 0 && values.iter().all(is_vector);
    for v in values {
        let (m, eltype) = match v {
            Value::Sparse(s) => {
                let s = s.borrow();
                (s.matrix.clone(), s.eltype)
            }
            other => {
                let (m, eltype) = sparse_of_dense(other, if dim == 0 { "vcat" } else { "hcat" })?;
                (m.into_shared(), eltype)
            }
        };
        all_bool &= eltype == ElType::Bool;
        mats.push(m);
    }
    if mats.is_empty() {
        return Ok(sparse_value(empty_csc(0, 0), ElType::Float64));
    }
    let out = match dim {
        0 if mats.iter().all(|m| m.cols() == mats[0].cols()) => stacked_rows(&mats),
        1 if mats.iter().all(|m| m.rows() == mats[0].rows()) => {
            sprs::hstack(&mats.iter().map(|m| m.view()).collect::<Vec<_>>())
        }
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
    if vector_result {
        return Ok(sparse_vector_value(out, eltype));
    }
    Ok(sparse_value(out, eltype))
}

#[cfg(test)]
mod tests;
