//! Factorizations of plain matrices: the LU and least-squares maps behind `\` (as
//! [`LinearMap`]s), the `Inverse` that applies them to tensors of any kind, and `lu(A)` with its
//! `Lu` object.

use super::*;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::Value;
use difflab_ad::error::Result as AdResult;
use difflab_ad::ops::{self};
use difflab_ad::{AdError, Tensor};
use faer::linalg::solvers::Solve;
use std::rc::Rc;

/// `A⁻¹` of a square matrix, as its LU factorization with partial pivoting.
pub(crate) struct DenseLu {
    n: usize,
    /// Shared with the thread that solves for many right-hand sides (see [`interruptible`]).
    lu: std::sync::Arc<faer::linalg::solvers::PartialPivLu<f64>>,
}

impl DenseLu {
    pub(crate) fn new(n: usize, a: &[f64]) -> AdResult<DenseLu> {
        let lu = interruptible(a, move |a| {
            faer::MatRef::from_column_major_slice(a, n, n).partial_piv_lu()
        })?;
        // faer divides by a zero pivot (filling the rest with NaN) where LAPACK reports it:
        // the first exact zero on the diagonal of U is the pivot Julia names.
        let u = lu.U();
        if let Some(k) = (0..n).find(|&k| u[(k, k)] == 0.0) {
            return Err(singular(k + 1));
        }
        Ok(DenseLu {
            n,
            lu: std::sync::Arc::new(lu),
        })
    }
}

impl LinearMap for DenseLu {
    fn size(&self) -> (usize, usize) {
        (self.n, self.n)
    }

    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>> {
        if self.n == 0 || k == 0 {
            return Ok(x.to_vec());
        }
        // Many right-hand sides (an inverse) cost as much as the factorization: they are
        // solved where an interrupt can be answered too.
        let (lu, n) = (self.lu.clone(), self.n);
        interruptible(x, move |x| {
            let mut out = x.to_vec();
            let rhs = faer::MatMut::from_column_major_slice_mut(&mut out, n, k);
            if transpose {
                lu.solve_transpose_in_place(rhs);
            } else {
                lu.solve_in_place(rhs);
            }
            out
        })
    }
}

/// `A⁺` of a plain m×n matrix (column-major), from its SVD.
pub(super) fn least_squares(m: usize, n: usize, a: &[f64]) -> AdResult<Rc<dyn LinearMap>> {
    Ok(Rc::new(DenseLstsq::new(m, n, a)?))
}

/// `A⁺` of a rectangular m×n matrix from its thin SVD, singular values below
/// `σ₁·max(m, n)·eps` dropped: the minimum-norm least-squares solution, as Julia's `\` gives.
struct DenseLstsq {
    m: usize,
    n: usize,
    /// The kept left singular vectors (m×r), column-major.
    u: Vec<f64>,
    /// The kept singular values.
    s: Vec<f64>,
    /// The kept right singular vectors (n×r), column-major.
    v: Vec<f64>,
}

impl DenseLstsq {
    fn new(m: usize, n: usize, a: &[f64]) -> AdResult<DenseLstsq> {
        let svd = interruptible(a, move |a| {
            faer::MatRef::from_column_major_slice(a, m, n).thin_svd()
        })?
        .map_err(|_| AdError::Argument("the SVD did not converge".into()))?;
        let sv = svd.S().column_vector();
        let all: Vec<f64> = (0..m.min(n)).map(|i| sv[i]).collect();
        let tol = all.first().copied().unwrap_or(0.0) * (m.max(n) as f64) * f64::EPSILON;
        let r = all.iter().take_while(|&&s| s > tol).count();
        let (u, v) = (svd.U(), svd.V());
        Ok(DenseLstsq {
            m,
            n,
            u: (0..r)
                .flat_map(|j| (0..m).map(move |i| u[(i, j)]))
                .collect(),
            s: all[..r].to_vec(),
            v: (0..r)
                .flat_map(|j| (0..n).map(move |i| v[(i, j)]))
                .collect(),
        })
    }

    fn full_rank(&self) -> bool {
        self.s.len() == self.m.min(self.n)
    }
}

impl LinearMap for DenseLstsq {
    fn size(&self) -> (usize, usize) {
        (self.n, self.m)
    }

    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>> {
        // A⁺ = V Σ⁻¹ Uᵀ and (A⁺)ᵀ = U Σ⁻¹ Vᵀ.
        let (left, right, out_rows, in_rows) = if transpose {
            (&self.u, &self.v, self.m, self.n)
        } else {
            (&self.v, &self.u, self.n, self.m)
        };
        let mut out = vec![0.0; out_rows * k];
        for c in 0..k {
            let xc = &x[c * in_rows..(c + 1) * in_rows];
            for (j, s) in self.s.iter().enumerate() {
                let coefficient = right[j * in_rows..(j + 1) * in_rows]
                    .iter()
                    .zip(xc)
                    .map(|(p, q)| p * q)
                    .sum::<f64>()
                    / s;
                let column = &left[j * out_rows..(j + 1) * out_rows];
                for (o, l) in out[c * out_rows..(c + 1) * out_rows].iter_mut().zip(column) {
                    *o += coefficient * l;
                }
            }
        }
        Ok(out)
    }
}

/// The map `b ↦ A \ b` of a plain matrix: LU when square, least squares otherwise.
pub(super) fn dense_inverse(a: &Tensor) -> AdResult<Rc<dyn LinearMap>> {
    let (m, n) = matrix_size(a)?;
    // Borrowed when already column-major: a copy of a large matrix is time no interrupt reaches.
    let data = difflab_ad::tensor::col_major_slice(a.primal());
    if m == n {
        Ok(Rc::new(DenseLu::new(n, &data)?))
    } else {
        Ok(Rc::new(DenseLstsq::new(m, n, &data)?))
    }
}

/// `A \ ·` and `Aᵀ \ ·` for one matrix, factorized once when its numbers are plain.
#[derive(Clone)]
pub(super) struct Inverse {
    a: Tensor,
    map: Option<Rc<dyn LinearMap>>,
}

impl Inverse {
    pub(super) fn new(a: &Tensor) -> AdResult<Inverse> {
        let map = match a {
            Tensor::Plain(_) => Some(dense_inverse(a)?),
            _ => None,
        };
        Ok(Inverse { a: a.clone(), map })
    }

    /// `A⁺ rhs` (or `(Aᵀ)⁺ rhs`).
    pub(super) fn apply(&self, rhs: &Tensor, transpose: bool) -> AdResult<Tensor> {
        match &self.map {
            Some(map) => apply_linear(map, rhs, transpose),
            None if transpose => solve_tensor(&ops::transpose(&self.a)?, rhs),
            None => solve_tensor(&self.a, rhs),
        }
    }
}

/// Refuses the derivative of a least-squares solve where `A` loses rank (it does not exist).
pub(super) fn check_full_rank(a: &Tensor) -> AdResult<()> {
    let (m, n) = matrix_size(a)?;
    if m != n && !DenseLstsq::new(m, n, &a.to_col_major())?.full_rank() {
        return Err(AdError::Argument(
            "the least-squares solution A \\ b has no derivative with respect to a rank-deficient A"
                .into(),
        ));
    }
    Ok(())
}

/// The factors `(L, U, p, first zero pivot)` of `lu(A)`, with `A[p, :] = L * U` for an m×n
/// matrix (L is m×min(m, n), U is min(m, n)×n). A large nonsingular square matrix is
/// factorized by faer's blocked kernel (off this thread, see [`interruptible`]); others, and
/// singular ones, by [`lu_factors`].
type LuFactors = (Vec<f64>, Vec<f64>, Vec<usize>, Option<usize>);

fn lu_of(m: usize, n: usize, a: &[f64]) -> AdResult<LuFactors> {
    if m == n && a.len() >= super::OFF_THREAD_ENTRIES {
        let lu = interruptible(a, move |a| {
            faer::MatRef::from_column_major_slice(a, n, n).partial_piv_lu()
        })?;
        let (l, u) = (lu.L(), lu.U());
        if (0..n).all(|k| u[(k, k)] != 0.0) {
            let l = (0..n * n).map(|k| l[(k % n, k / n)]).collect();
            let u = (0..n * n).map(|k| u[(k % n, k / n)]).collect();
            let (forward, _) = lu.P().arrays();
            return Ok((l, u, forward.to_vec(), None));
        }
    }
    lu_factors(m, n, a)
}

/// The LU factorization with partial pivoting in LAPACK's convention (the first largest pivot;
/// a zero pivot leaves its column unscaled), column by column, answering interrupts between
/// columns.
fn lu_factors(m: usize, n: usize, a: &[f64]) -> AdResult<LuFactors> {
    let mut w = a.to_vec();
    let mut p: Vec<usize> = (0..m).collect();
    let mut zero_pivot = None;
    let r = m.min(n);
    for col in 0..r {
        difflab_ad::limits::check()?;
        let mut pivot = col;
        for i in col + 1..m {
            if w[i + col * m].abs() > w[pivot + col * m].abs() {
                pivot = i;
            }
        }
        if pivot != col {
            for j in 0..n {
                w.swap(col + j * m, pivot + j * m);
            }
            p.swap(col, pivot);
        }
        let d = w[col + col * m];
        if d == 0.0 {
            zero_pivot.get_or_insert(col + 1);
            continue;
        }
        for i in col + 1..m {
            w[i + col * m] /= d;
        }
        for j in col + 1..n {
            let f = w[col + j * m];
            if f != 0.0 {
                for i in col + 1..m {
                    w[i + j * m] -= w[i + col * m] * f;
                }
            }
        }
    }
    let mut l = vec![0.0; m * r];
    let mut u = vec![0.0; r * n];
    for j in 0..r {
        l[j + j * m] = 1.0;
        for i in j + 1..m {
            l[i + j * m] = w[i + j * m];
        }
    }
    for j in 0..n {
        for i in 0..r.min(j + 1) {
            u[i + j * r] = w[i + j * m];
        }
    }
    Ok((l, u, p, zero_pivot))
}

/// `lu(A)`: the factors as an object with fields `L`, `U`, `p` (and `P`, the permutation matrix).
pub struct Lu {
    l: Value,
    u: Value,
    p: Value,
}

impl Lu {
    /// `F \ b`: `U \ (L \ b[p, :])`.
    pub fn solve(&self, interp: &mut Interp, b: &Value) -> EvalResult {
        let (bt, _) = matrix_tensor(interp, b, "\\")?;
        let (lt, ut) = (
            crate::value::convert::to_tensor(&self.l)?,
            crate::value::convert::to_tensor(&self.u)?,
        );
        let p: Vec<usize> = crate::value::convert::to_tensor(&self.p)?
            .to_col_major()
            .iter()
            .map(|&k| k as usize - 1)
            .collect();
        if bt.shape().first() != Some(&p.len()) || bt.shape().len() > 2 {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!(
                    "the factorization has {} rows but b has size {:?}",
                    p.len(),
                    bt.shape()
                ),
            ));
        }
        let k = bt.shape().get(1).copied().unwrap_or(1);
        let rows = p.len();
        let positions: Vec<usize> = (0..k)
            .flat_map(|c| p.iter().map(move |&i| i + c * rows))
            .collect();
        let permuted = ops::gather(&bt, &positions, bt.shape())?;
        let x = solve_tensor(&ut, &solve_tensor(&lt, &permuted)?)?;
        Ok(from_tensor(x, ElType::Float64, false))
    }
}

impl crate::object::Object for Lu {
    fn type_name(&self) -> String {
        "LU{Float64, Matrix{Float64}, Vector{Int64}}".into()
    }

    fn show(&self) -> String {
        format!(
            "{}\nL factor:\n{}\nU factor:\n{}",
            self.type_name(),
            crate::display::plain(&self.l),
            crate::display::plain(&self.u)
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "L" => Some(self.l.clone()),
            "U" => Some(self.u.clone()),
            "p" => Some(self.p.clone()),
            "P" => {
                let p = crate::value::convert::to_tensor(&self.p)
                    .ok()?
                    .to_col_major();
                let n = p.len();
                let mut data = vec![0.0; n * n];
                for (i, &k) in p.iter().enumerate() {
                    data[i + (k as usize - 1) * n] = 1.0;
                }
                Some(crate::builtins::array(ElType::Float64, &[n, n], data))
            }
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["L", "U", "p", "P"]
    }

    fn elements(&self) -> Option<Vec<Value>> {
        Some(vec![self.l.clone(), self.u.clone(), self.p.clone()])
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn lu_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("lu", 1, 1)?;
    let check = match args.kw("check") {
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(fail(
                ErrorKind::TypeError,
                format!("lu: `check` must be a Bool, got a {}", other.type_name()),
            ))
        }
        None => true,
    };
    let (t, _) = matrix_tensor(interp, &args.pos[0], "lu")?;
    plain_only(&t, "lu")?;
    let (m, n) = matrix_size(&t)?;
    let (l, u, p, zero_pivot) = lu_of(m, n, &t.to_col_major())?;
    if let (true, Some(k)) = (check, zero_pivot) {
        return Err(singular(k).into());
    }
    let r = m.min(n);
    let p = crate::builtins::array(
        ElType::Int64,
        &[m],
        p.iter().map(|&k| (k + 1) as f64).collect(),
    );
    Ok(Value::Object(Rc::new(Box::new(Lu {
        l: crate::builtins::array(ElType::Float64, &[m, r], l),
        u: crate::builtins::array(ElType::Float64, &[r, n], u),
        p,
    }))))
}

crate::builtins! {
    "lu" => lu_, false, "    lu(A; check=true)\n\nThe LU factorization with partial pivoting: fields `L`, `U`, `p` (and the permutation matrix `P`) with `A[p, :] == L * U`; `F \\ b` solves with it. A zero pivot raises `SingularException` unless `check=false`.\n\n```\njulia> F = lu([1.0 2.0; 3.0 4.0]); F.U\n2×2 Matrix{Float64}:\n 3.0  4.0\n 0.0  0.666667\n```";
}
