//! Dense linear algebra: `\\` (LU with partial pivoting), `inv`, `det`, `lu`, matrix powers,
//! `I`, `diag`, `diagm`, `tr`, `kron`. `diag`, `diagm`, `tr` and powers are built from `ad::ops`
//! primitives (differentiable); the factorizations work on plain numbers and raise a clear
//! error on numbers carrying derivatives.

use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Interp};
use crate::value::Value;

/// `A \ b`: dense square systems by LU with partial pivoting (plain numbers).
pub fn solve(_: &mut Interp, a: &Value, b: &Value) -> EvalResult {
    use crate::eval::operators::{from_tensor, operand};
    let (Some(ao), Some(bo)) = (operand(a), operand(b)) else {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching \\(::{}, ::{})",
                a.type_name(),
                b.type_name()
            ),
        ));
    };
    let (at, bt) = (ao.tensor(), bo.tensor());
    let n = match at.shape() {
        [m, n] if m == n => *n,
        shape => {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("A \\ b needs a square matrix A, got size {shape:?}"),
            ))
        }
    };
    if bt.shape().first().copied().unwrap_or(1) != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "A has {n} rows but b has {}",
                bt.shape().first().copied().unwrap_or(1)
            ),
        ));
    }
    if !(at.is_plain() && bt.is_plain()) {
        return Err(fail(
            ErrorKind::MethodError,
            "`\\` has no derivative rule yet for numbers carrying derivatives",
        ));
    }
    let x = difflab_ad::solve::dense_solve(&at.to_col_major(), n, &bt.to_col_major()).ok_or_else(
        || {
            fail(
                ErrorKind::ArgumentError,
                "SingularException: the matrix is singular",
            )
        },
    )?;
    Ok(from_tensor(
        difflab_ad::Tensor::from_col_major(bt.shape(), x),
        crate::show::ElType::Float64,
        false,
    ))
}

/// The numbers of a square matrix: `(n, column-major data)`; plain numbers only.
fn square(v: &Value, name: &str) -> Result<(usize, Vec<f64>), crate::eval::Flow> {
    let o = crate::eval::operators::operand(v).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )
    })?;
    let t = o.tensor();
    let n = match t.shape() {
        [m, n] if m == n => *n,
        [] => 1,
        shape => {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("{name} needs a square matrix, got size {shape:?}"),
            ))
        }
    };
    if !t.is_plain() {
        return Err(fail(ErrorKind::MethodError, format!("`{name}` has no derivative rule yet; differentiate a formulation with `\\` replaced by an iterative method, or use AutoFiniteDiff()")));
    }
    Ok((n, t.to_col_major()))
}

fn matrix(n: usize, data: Vec<f64>) -> Value {
    crate::builtins::array(crate::show::ElType::Float64, &[n, n], data)
}

/// `A ^ k` for a square matrix and an integer `k` (repeated products, so it is differentiable;
/// negative powers go through the inverse).
pub fn matrix_power(interp: &mut Interp, a: &Value, b: &Value) -> EvalResult {
    let k = crate::builtins::to_int(b, "^")?;
    let base = if k < 0 {
        inv_matrix(interp, a)?
    } else {
        a.clone()
    };
    let o = crate::eval::operators::operand(&base)
        .ok_or_else(|| fail(ErrorKind::MethodError, "^ needs a square matrix"))?;
    let t = o.tensor().clone();
    let n = match t.shape() {
        [m, n] if m == n => *n,
        shape => {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                format!("A^k needs a square matrix, got size {shape:?}"),
            ))
        }
    };
    let eltype = o.eltype;
    drop(o);
    let mut out = difflab_ad::Tensor::from_col_major(
        &[n, n],
        (0..n * n)
            .map(|k| f64::from(u8::from(k % (n + 1) == 0)))
            .collect(),
    );
    for _ in 0..k.unsigned_abs() {
        out = difflab_ad::ops::matmul(&out, &t)?;
    }
    Ok(crate::eval::operators::from_tensor(out, eltype, false))
}

/// `inv(A)` for a square matrix.
pub fn inv_matrix(_: &mut Interp, a: &Value) -> EvalResult {
    let (n, data) = square(a, "inv")?;
    let identity: Vec<f64> = (0..n * n)
        .map(|k| f64::from(u8::from(k % (n + 1) == 0)))
        .collect();
    let x = difflab_ad::solve::dense_solve(&data, n, &identity).ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            "SingularException: the matrix is singular",
        )
    })?;
    Ok(matrix(n, x))
}

/// The LU factorization with partial pivoting: `(L, U, p)` with `A[p, :] = L * U`.
fn lu_factors(n: usize, a: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<usize>) {
    let mut u = a.to_vec();
    let mut l = vec![0.0; n * n];
    let mut p: Vec<usize> = (0..n).collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| u[i + col * n].abs().total_cmp(&u[j + col * n].abs()))
            .unwrap_or(col);
        if pivot != col {
            for j in 0..n {
                u.swap(col + j * n, pivot + j * n);
                l.swap(col + j * n, pivot + j * n);
            }
            p.swap(col, pivot);
        }
        l[col + col * n] = 1.0;
        let d = u[col + col * n];
        for i in col + 1..n {
            let factor = if d == 0.0 { 0.0 } else { u[i + col * n] / d };
            l[i + col * n] = factor;
            for j in col..n {
                u[i + j * n] -= factor * u[col + j * n];
            }
        }
    }
    (l, u, p)
}

fn det_(_: &mut Interp, args: crate::builtins::Args) -> EvalResult {
    args.arity("det", 1, 1)?;
    let (n, data) = square(&args.pos[0], "det")?;
    let (_, u, p) = lu_factors(n, &data);
    // The sign of the row permutation: its parity is n minus its number of cycles.
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for i in 0..n {
        if !seen[i] {
            cycles += 1;
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                j = p[j];
            }
        }
    }
    let sign = if (n - cycles) % 2 == 0 { 1.0 } else { -1.0 };
    Ok(Value::Float(
        sign * (0..n).map(|i| u[i + i * n]).product::<f64>(),
    ))
}

/// `lu(A)`: the factors as an object with fields `L`, `U` and `p`.
pub struct Lu {
    l: Value,
    u: Value,
    p: Value,
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
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["L", "U", "p"]
    }

    fn elements(&self) -> Option<Vec<Value>> {
        Some(vec![self.l.clone(), self.u.clone(), self.p.clone()])
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn lu_(_: &mut Interp, args: crate::builtins::Args) -> EvalResult {
    args.arity("lu", 1, 1)?;
    let (n, data) = square(&args.pos[0], "lu")?;
    let (l, u, p) = lu_factors(n, &data);
    let p = crate::builtins::array(
        crate::show::ElType::Int64,
        &[n],
        p.iter().map(|&k| (k + 1) as f64).collect(),
    );
    Ok(Value::Object(std::rc::Rc::new(Box::new(Lu {
        l: matrix(n, l),
        u: matrix(n, u),
        p,
    }))))
}

/// Positions of the `k`-th diagonal of an m×n matrix (column-major).
fn diagonal_positions(m: usize, n: usize, k: i64) -> Vec<usize> {
    let (i0, j0) = if k >= 0 {
        (0, k as usize)
    } else {
        ((-k) as usize, 0)
    };
    (0..)
        .map(|t| (i0 + t, j0 + t))
        .take_while(|&(i, j)| i < m && j < n)
        .map(|(i, j)| i + j * m)
        .collect()
}

fn diag_(_: &mut Interp, args: crate::builtins::Args) -> EvalResult {
    args.arity("diag", 1, 2)?;
    let k = args
        .pos
        .get(1)
        .map(|v| crate::builtins::to_int(v, "diag"))
        .transpose()?
        .unwrap_or(0);
    let o = crate::eval::operators::operand(&args.pos[0])
        .ok_or_else(|| fail(ErrorKind::MethodError, "diag needs a matrix"))?;
    let [m, n] = *o.tensor().shape() else {
        return Err(fail(ErrorKind::ArgumentError, "diag needs a matrix"));
    };
    let pos = diagonal_positions(m, n, k);
    let t = difflab_ad::ops::gather(o.tensor(), &pos, &[pos.len()])?;
    Ok(crate::eval::operators::from_tensor(t, o.eltype, false))
}

fn tr_(_: &mut Interp, args: crate::builtins::Args) -> EvalResult {
    args.arity("tr", 1, 1)?;
    let o = crate::eval::operators::operand(&args.pos[0])
        .ok_or_else(|| fail(ErrorKind::MethodError, "tr needs a matrix"))?;
    let [m, n] = *o.tensor().shape() else {
        return Err(fail(ErrorKind::ArgumentError, "tr needs a square matrix"));
    };
    if m != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("tr needs a square matrix, got {m}×{n}"),
        ));
    }
    let pos = diagonal_positions(n, n, 0);
    let t = difflab_ad::ops::sum_all(&difflab_ad::ops::gather(o.tensor(), &pos, &[n])?)?;
    Ok(crate::eval::operators::from_tensor(t, o.eltype, true))
}

fn diagm_(interp: &mut Interp, args: crate::builtins::Args) -> EvalResult {
    args.arity("diagm", 1, 1)?;
    let (k, v) = match &args.pos[0] {
        Value::Tuple(pair) if pair.len() == 2 => {
            (crate::builtins::to_int(&pair[0], "diagm")?, pair[1].clone())
        }
        other => (0, other.clone()),
    };
    let o = crate::eval::operators::operand(&v)
        .ok_or_else(|| fail(ErrorKind::MethodError, "diagm needs a vector"))?;
    let len = o.tensor().len();
    let n = len + k.unsigned_abs() as usize;
    interp.check_alloc(n * n)?;
    let pos = diagonal_positions(n, n, k);
    let t = difflab_ad::ops::scatter(
        &difflab_ad::Tensor::filled(&[n, n], 0.0),
        &pos,
        &difflab_ad::ops::reshape(o.tensor(), &[len])?,
    )?;
    Ok(crate::eval::operators::from_tensor(t, o.eltype, false))
}

fn kron_(interp: &mut Interp, args: crate::builtins::Args) -> EvalResult {
    args.arity("kron", 2, 2)?;
    let dims = |v: &Value| -> Result<(usize, usize, Vec<f64>), crate::eval::Flow> {
        let o = crate::eval::operators::operand(v)
            .ok_or_else(|| fail(ErrorKind::MethodError, "kron needs matrices"))?;
        let t = o.tensor();
        let (m, n) = match t.shape() {
            [m] => (*m, 1),
            [m, n] => (*m, *n),
            _ => (1, 1),
        };
        Ok((m, n, t.to_col_major()))
    };
    let ((ma, na, a), (mb, nb, b)) = (dims(&args.pos[0])?, dims(&args.pos[1])?);
    let (m, n) = (ma * mb, na * nb);
    interp.check_alloc(m * n)?;
    let mut out = vec![0.0; m * n];
    for ja in 0..na {
        for ia in 0..ma {
            for jb in 0..nb {
                for ib in 0..mb {
                    out[(ia * mb + ib) + (ja * nb + jb) * m] = a[ia + ja * ma] * b[ib + jb * mb];
                }
            }
        }
    }
    Ok(crate::builtins::array(
        crate::show::ElType::Float64,
        &[m, n],
        out,
    ))
}

fn identity_(interp: &mut Interp, args: crate::builtins::Args) -> EvalResult {
    args.arity("I", 1, 1)?;
    let n = crate::builtins::to_size(&args.pos[0], "I")?;
    interp.check_alloc(n.saturating_mul(n))?;
    let data = (0..n * n)
        .map(|k| if k % (n + 1) == 0 { 1.0 } else { 0.0 })
        .collect();
    Ok(crate::builtins::array(
        crate::show::ElType::Float64,
        &[n, n],
        data,
    ))
}

crate::builtins! {
    "det" => det_, false, "    det(A)\n\nThe determinant of a square matrix (from its LU factorization).\n\n```\njulia> det([1.0 2.0; 3.0 4.0])\n-2.0\n```";
    "lu" => lu_, false, "    lu(A)\n\nThe LU factorization with partial pivoting: fields `L`, `U`, `p` with `A[p, :] == L * U`.\n\n```\njulia> F = lu([1.0 2.0; 3.0 4.0]); F.U\n2×2 Matrix{Float64}:\n 3.0  4.0\n 0.0  0.666667\n```";
    "diag" => diag_, false, "    diag(A, k=0)\n\nThe `k`-th diagonal of a matrix as a vector.\n\n```\njulia> diag([1 2; 3 4])\n2-element Vector{Int64}:\n 1\n 4\n```";
    "diagm" => diagm_, false, "    diagm(v)\n    diagm(k => v)\n\nA square matrix with `v` on its `k`-th diagonal.\n\n```\njulia> diagm([1.0, 2.0])\n2×2 Matrix{Float64}:\n 1.0  0.0\n 0.0  2.0\n```";
    "tr" => tr_, false, "    tr(A)\n\nThe trace (sum of the diagonal).\n\n```\njulia> tr([1 2; 3 4])\n5\n```";
    "kron" => kron_, false, "    kron(A, B)\n\nThe Kronecker product.\n\n```\njulia> kron([1 0; 0 1], [1 2])\n2×4 Matrix{Float64}:\n 1.0  2.0  0.0  0.0\n 0.0  0.0  1.0  2.0\n```";
    "I" => identity_, false, "    I(n)\n\nThe n×n identity matrix (dense).\n\n```\njulia> I(2)\n2×2 Matrix{Float64}:\n 1.0  0.0\n 0.0  1.0\n```";
}
