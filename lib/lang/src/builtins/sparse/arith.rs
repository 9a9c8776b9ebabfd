//! Arithmetic with sparse matrices: sparse matrices as [`LinearMap`]s (products, and solves
//! by sparse LU from faer, so the other operand may carry derivatives), and the operators
//! ([`sparse_binary`], [`sparse_broadcast`], [`sparse_unary`]) with Julia's rules for when a
//! result stays sparse.

use super::*;
use crate::builtins::linalg::{apply_linear, singular, LinearMap};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::{Interp, Poll};
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand};
use crate::value::{Array, SparseMatrix, Value};
use difflab_ad::error::Result as AdResult;
use difflab_ad::shared_sparse::SharedCsMat;
use difflab_ad::{ops, AdError, Tensor};
use difflab_syntax::{BinOp, UnaryOp};
use faer::linalg::solvers::Solve;
use sprs::{CsMat, CsMatView};
use std::cell::RefCell;
use std::rc::Rc;

/// `a * b` for two CSC matrices of matching sizes, column by column (Gustavson's algorithm:
/// column j of the product gathers the columns of `a` that `b[:, j]` selects), looking at the
/// interrupt flag and the memory limit as it goes, since products can take seconds and fill
/// the memory.
fn sparse_product(
    a: CsMatView<f64>,
    b: CsMatView<f64>,
    poll: &mut Poll,
) -> Result<CsMat<f64>, Flow> {
    let (m, n) = (a.rows(), b.cols());
    let mut indptr = Vec::with_capacity(n + 1);
    let mut indices = Blocks::default();
    let mut data = Blocks::default();
    // `sums[i]` accumulates row i of the current column; `seen[i]` is the column that last
    // touched it, so neither is cleared between columns.
    let mut sums = vec![0.0; m];
    let mut seen = vec![usize::MAX; m];
    let mut rows = Vec::new();
    indptr.push(0);
    for (j, column) in b.outer_iterator().enumerate() {
        for (k, &bkj) in column.iter() {
            let Some(a_column) = a.outer_view(k) else {
                continue;
            };
            for (i, &aik) in a_column.iter() {
                poll.tick()?;
                if seen[i] != j {
                    seen[i] = j;
                    sums[i] = 0.0;
                    rows.push(i);
                }
                sums[i] += aik * bkj;
            }
        }
        rows.sort_unstable();
        for &i in &rows {
            indices.push(i);
            data.push(sums[i]);
        }
        rows.clear();
        indptr.push(indices.len);
    }
    let (indices, data) = (indices.joined(poll)?, data.joined(poll)?);
    Ok(CsMat::new_csc((m, n), indptr, indices, data))
}

/// A growing sequence kept in blocks of fixed capacity: pushing never moves what is stored,
/// where a growing `Vec` copies everything at each doubling — hundreds of megabytes for a large
/// product, during which no interrupt is looked at.
struct Blocks<T> {
    blocks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Blocks<T> {
    fn default() -> Self {
        Blocks {
            blocks: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Copy> Blocks<T> {
    /// Elements per block (a few megabytes).
    const BLOCK: usize = 1 << 19;

    fn push(&mut self, x: T) {
        match self.blocks.last_mut() {
            Some(block) if block.len() < Self::BLOCK => block.push(x),
            _ => {
                let mut block = Vec::with_capacity(Self::BLOCK);
                block.push(x);
                self.blocks.push(block);
            }
        }
        self.len += 1;
    }

    /// The elements in one vector, copied a block at a time with a look at the interrupt flag
    /// between blocks; each block is freed once copied.
    fn joined(self, poll: &Poll) -> Result<Vec<T>, Flow> {
        let mut out = Vec::with_capacity(self.len);
        for block in self.blocks {
            poll.check()?;
            out.extend_from_slice(&block);
        }
        Ok(out)
    }
}

/// `x ↦ A x` for a sparse `A`.
struct SparseProduct {
    a: SharedCsMat,
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

    fn pattern(&self) -> Option<&SharedCsMat> {
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
    pub(crate) fn new(a: CsMatView<f64>) -> AdResult<SparseLu> {
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
            converted.view()
        };
        let indptr = a.indptr().to_proper().to_vec();
        // faer's factorization cannot be stopped: a large one runs off the session's thread.
        let factorized = crate::builtins::linalg::interruptible_sparse(
            (&indptr, a.indices(), a.data()),
            move |indptr, indices, values| {
                let symbolic =
                    faer::sparse::SymbolicSparseColMatRef::new_checked(n, n, indptr, None, indices);
                faer::sparse::SparseColMatRef::new(symbolic, values).sp_lu()
            },
        )?;
        let lu = factorized.map_err(|e| match e {
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
pub(super) fn sparse_times(a: &SharedCsMat, x: &Tensor) -> AdResult<Tensor> {
    let map: Rc<dyn LinearMap> = Rc::new(SparseProduct { a: a.clone() });
    apply_linear(&map, x, false)
}

/// `X * A` for a dense `X` (a matrix or a row) and a sparse `A`: `(Aᵀ Xᵀ)ᵀ`.
fn times_sparse(x: &Tensor, a: &SharedCsMat) -> AdResult<Tensor> {
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

/// Julia's `DimensionMismatch` for elementwise operations on matrices of different sizes.
fn same_shape(a: &SharedCsMat, b: &SharedCsMat) -> Result<(), Flow> {
    if a.shape() == b.shape() {
        return Ok(());
    }
    Err(fail(
        ErrorKind::DimensionMismatch,
        format!(
            "dimensions must match: a has dims {:?}, b has dims {:?}",
            a.shape(),
            b.shape()
        ),
    ))
}

fn scaled(s: &SparseMatrix, factor: f64) -> Value {
    sparse_like(s, s.matrix.map(|&x| x * factor), ElType::Float64)
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
fn sparse_equal(x: &SharedCsMat, y: &SharedCsMat) -> bool {
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

fn frobenius(m: CsMatView<f64>) -> f64 {
    m.data().iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// A sparse matrix as the dense matrix of its entries; other values as they are.
pub(crate) fn densify(interp: &Interp, v: &Value) -> EvalResult {
    match v {
        Value::Sparse(s) => {
            let s = s.borrow();
            interp.check_alloc(s.matrix.rows().saturating_mul(s.matrix.cols()))?;
            dense_of(&s)
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
        if let Some(f) = o.as_any().downcast_ref::<crate::builtins::linalg::Lu>() {
            return Some(f.solve(interp, b));
        }
        if let Some(f) = crate::builtins::linalg::decompositions::as_factorization(a) {
            if let Some(x) = f.solve(interp, b) {
                return Some(x);
            }
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
            same_shape(&x.matrix, &y.matrix)?;
            if x.vector != y.vector {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!(
                        "dimensions must match: a has dims {:?}, b has dims {:?}",
                        x.dims(),
                        y.dims()
                    ),
                ));
            }
            let out = if op == BinOp::Add {
                &x.matrix + &y.matrix
            } else {
                &x.matrix - &y.matrix
            };
            Ok(sparse_like(&x, without_zeros(out.view()), ElType::Float64))
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
            let product = sparse_product(x.matrix.view(), y.matrix.view(), &mut interp.poll())?;
            // A matrix times a sparse vector is a sparse vector.
            Ok(sparse_like(
                &y,
                without_zeros(product.view()),
                ElType::Float64,
            ))
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
            let o = operand(other)?.ok_or_else(|| no_method(op, a, b, ""))?;
            let y = sparse_times(&x.borrow().matrix, o.tensor())?;
            Ok(from_tensor(y, ElType::Float64, false))
        }
        (BinOp::Mul, other, Sparse(x)) if x.borrow().vector => {
            // A dense matrix times a sparse vector is a dense vector; a row times it, a number.
            let dense = densify(interp, b)?;
            interp.binary(op, false, other, &dense)
        }
        (BinOp::Mul, other, Sparse(x)) => {
            let o = operand(other)?.ok_or_else(|| no_method(op, a, b, ""))?;
            let row = o.row_adjoint() || o.tensor().shape().len() == 1;
            let y = times_sparse(o.tensor(), &x.borrow().matrix)?;
            let mut out = Array::new(ElType::Float64, y);
            out.row_adjoint = row && out.data.shape().first() == Some(&1);
            Ok(Value::Array(Rc::new(RefCell::new(out))))
        }
        (BinOp::LeftDiv, Sparse(_), _) => crate::builtins::linalg::solve(interp, a, b),
        (BinOp::LeftDiv, _, Sparse(_)) => {
            let db = densify(interp, b)?;
            crate::builtins::linalg::solve(interp, a, &db)
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
            let mut base = x.matrix.to_csc();
            let mut e = k;
            let mut poll = interp.poll();
            while e > 0 {
                if e & 1 == 1 {
                    out = sparse_product(out.view(), base.view(), &mut poll)?;
                }
                e >>= 1;
                if e > 0 {
                    base = sparse_product(base.view(), base.view(), &mut poll)?;
                }
            }
            Ok(sparse_value(without_zeros(out.view()), ElType::Float64))
        }
        (BinOp::Eq | BinOp::Ne, _, _) => {
            let equal = match (a, b) {
                (Sparse(x), Sparse(y)) => sparse_equal(&x.borrow().matrix, &y.borrow().matrix),
                _ => {
                    let (da, db) = (densify(interp, a)?, densify(interp, b)?);
                    crate::value::equality::values_equal(&da, &db)
                }
            };
            Ok(Value::Bool(equal == (op == BinOp::Eq)))
        }
        (BinOp::Approx, Sparse(x), Sparse(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            same_shape(&x.matrix, &y.matrix)?;
            let diff = frobenius((&x.matrix - &y.matrix).view());
            let scale = frobenius(x.matrix.view()).max(frobenius(y.matrix.view()));
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

/// `a .op b` when an operand is a sparse matrix or vector; `None` otherwise. Scaling by a
/// number stays sparse; other operations are computed densely and stored back as a sparse
/// matrix or vector of their nonzeros (as Julia's sparse broadcasting returns one), unless the
/// result carries derivatives.
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
        resparsified(interp.binary(op, true, &da, &db)?)
    })())
}

/// `f.(args…)` with a sparse array among the arguments (`abs.(A)`, `sum(abs, x)`): computed
/// on the dense copies and stored back as [`sparse_broadcast`] does.
pub fn broadcast_over_sparse(
    interp: &mut Interp,
    f: &Value,
    args: &[Value],
    kw: Vec<(difflab_syntax::Name, Value)>,
) -> EvalResult {
    let dense = args
        .iter()
        .map(|a| densify(interp, a))
        .collect::<Result<Vec<_>, _>>()?;
    resparsified(interp.broadcast_call(f, dense, kw)?)
}

/// A broadcast's result as Julia's sparse broadcasting gives it: plain numbers of rank 1 or 2
/// as a sparse vector or matrix of their nonzeros; numbers carrying derivatives and other
/// values as they are.
fn resparsified(out: Value) -> EvalResult {
    {
        let plain_rank = match &out {
            Value::Array(arr) => {
                let arr = arr.borrow();
                Some(arr.data.shape().len()).filter(|_| arr.data.is_plain())
            }
            _ => None,
        };
        match plain_rank {
            Some(2) => {
                let (m, eltype) = sparse_of_dense(&out, "broadcast")?;
                Ok(sparse_value(m, eltype))
            }
            Some(1) => {
                let (m, eltype) = sparse_of_dense(&out, "broadcast")?;
                Ok(sparse_vector_value(m, eltype))
            }
            _ => Ok(out),
        }
    }
}

/// `-A` and `+A` for a sparse matrix; `None` for other values.
pub fn sparse_unary(op: UnaryOp, v: &Value) -> Option<EvalResult> {
    let Value::Sparse(s) = v else {
        return None;
    };
    Some(match op {
        UnaryOp::Plus => Ok(crate::builtins::arrays::deep_copy(v)),
        UnaryOp::Neg => Ok(scaled(&s.borrow(), -1.0)),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {op:?}(::{})", v.type_name()),
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_join_in_order_across_blocks() {
        let n = 2 * Blocks::<usize>::BLOCK + 3;
        let mut blocks = Blocks::default();
        (0..n).for_each(|i| blocks.push(i));
        assert_eq!(blocks.len, n);
        let joined = blocks
            .joined(&Poll::unraised())
            .ok()
            .expect("not interrupted");
        assert!(joined.iter().copied().eq(0..n));
    }

    #[test]
    fn a_product_of_several_blocks_is_the_dense_product() {
        // A 1000 × 1000 product of a scattered pattern (one entry in 16) has nearly every entry
        // nonzero, more than a block; integer entries keep both sums exact whatever their order.
        let n = 1000;
        let pattern = |i: usize, j: usize| {
            let h = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (j as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
            h.wrapping_mul(0x1656_67B1_9E37_79F9) >> 60 == 0
        };
        let mut a = sprs::TriMat::new((n, n));
        for i in 0..n {
            for j in (0..n).filter(|&j| pattern(i, j)) {
                a.add_triplet(i, j, ((i + 2 * j) % 7 + 1) as f64);
            }
        }
        let a: CsMat<f64> = a.to_csc();
        let product = sparse_product(a.view(), a.view(), &mut Poll::unraised())
            .ok()
            .expect("not interrupted");
        assert!(product.nnz() > Blocks::<usize>::BLOCK);
        let dense = a.to_dense();
        let expected = dense.dot(&dense);
        assert_eq!(product.to_dense(), expected);
    }
}
