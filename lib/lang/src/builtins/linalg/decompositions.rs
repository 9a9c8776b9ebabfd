//! LinearAlgebra's factorization objects beside `lu`: `cholesky`, `qr`, `svd` and `eigen`,
//! computed with faer on plain matrices. Their fields are Julia's (`F.L`, `F.U`, `F.factors`;
//! `F.Q`, `F.R`; `F.U`, `F.S`, `F.V`, `F.Vt`; `F.values`, `F.vectors`), they destructure as
//! Julia's do (`Q, R = qr(A)`), and a Cholesky factorization solves (`F \ b`) and gives
//! `logdet(F)` and `det(F)`. Under sparsity detection every entry of a factor depends on every
//! entry of `A` (SparseConnectivityTracer's conservative rule). `cholesky` differentiates (its
//! rules are in `cholesky.rs`), and so do `qr` of a tall matrix (`thin_qr.rs`), `svd`
//! (`thin_svd.rs`) and `eigen` of a symmetric matrix (`symmetric_eigen.rs`); `eigen` of
//! another matrix refuses numbers carrying derivatives, naming the operations that
//! differentiate instead.

use super::*;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::Value;

/// A factorization: its Julia type name, its fields in the order it destructures, and the
/// fields its display shows.
pub struct Factorization {
    type_name: &'static str,
    fields: Vec<(&'static str, Value)>,
    destructured: &'static [&'static str],
    shown: &'static [(&'static str, &'static str)],
}

impl Factorization {
    fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// `logdet(F)` of a Cholesky factorization: `2 Σ log Uᵢᵢ`.
    pub fn logdet(&self, interp: &mut Interp) -> Option<EvalResult> {
        let u = self
            .get("U")
            .filter(|_| self.type_name.starts_with("Cholesky"))?;
        let call = |interp: &mut Interp, name: &str, v: Value, dotted: bool| {
            crate::builtins::call_builtin(interp, name, vec![v], Vec::new(), dotted)
        };
        Some((|| {
            let diagonal = call(interp, "diag", u.clone(), false)?;
            let logs = call(interp, "log", diagonal, true)?;
            let total = call(interp, "sum", logs, false)?;
            interp.binary(
                difflab_syntax::BinOp::Mul,
                false,
                &Value::Float(2.0),
                &total,
            )
        })())
    }

    /// `F \ b` for a Cholesky factorization: `U \ (L \ b)`.
    pub fn solve(&self, interp: &mut Interp, b: &Value) -> Option<EvalResult> {
        let (l, u) = (self.get("L")?, self.get("U")?);
        Some(super::solve::solve(interp, l, b).and_then(|y| super::solve::solve(interp, u, &y)))
    }
}

impl crate::object::Object for Factorization {
    fn type_name(&self) -> String {
        self.type_name.into()
    }

    fn show(&self) -> String {
        let mut out = self.type_name.to_string();
        for (label, field) in self.shown {
            if let Some(v) = self.get(field) {
                out.push_str(&format!("\n{label}:\n{}", crate::display::plain(v)));
            }
        }
        out
    }

    fn field(&self, name: &str) -> Option<Value> {
        self.get(name).cloned()
    }

    fn field_names(&self) -> Vec<&'static str> {
        self.fields.iter().map(|(n, _)| *n).collect()
    }

    fn elements(&self) -> Option<Vec<Value>> {
        self.destructured
            .iter()
            .map(|name| self.get(name).cloned())
            .collect()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The factorization `v` is, if it is one.
pub fn as_factorization(v: &Value) -> Option<&Factorization> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Factorization>(),
        _ => None,
    }
}

/// A plain matrix value from column-major numbers.
fn matrix(m: usize, n: usize, data: Vec<f64>) -> Value {
    crate::builtins::array(ElType::Float64, &[m, n], data)
}

fn vector(data: Vec<f64>) -> Value {
    crate::builtins::array(ElType::Float64, &[data.len()], data)
}

/// The numbers of a faer matrix, column-major.
pub(super) fn numbers(a: faer::MatRef<'_, f64>) -> Vec<f64> {
    let (m, n) = (a.nrows(), a.ncols());
    (0..m * n).map(|k| a[(k % m, k / m)]).collect()
}

/// The matrix argument of a factorization: its plain numbers, or the factors already made
/// (for numbers carrying derivatives, by the factorization's rule; for sparsity tracers,
/// their dense patterns, given their shapes by `shapes(m, n)`).
enum Input {
    Plain(usize, usize, Vec<f64>),
    Factors(Vec<Value>),
}

/// A factorization of a matrix carrying derivatives, with derivative rules: its factors in the
/// order of the factorization's fields.
type DifferentiatedFactors = fn(&Tensor) -> AdResult<Vec<Tensor>>;

fn input(
    interp: &Interp,
    v: &Value,
    name: &str,
    shapes: impl Fn(usize, usize) -> Vec<Vec<usize>>,
    rule: Option<DifferentiatedFactors>,
) -> Result<Input, crate::error::Flow> {
    let (t, _) = matrix_tensor(interp, v, name)?;
    let (m, n) = matrix_size(&t)?;
    if t.is_plain() {
        return Ok(Input::Plain(m, n, t.to_col_major()));
    }
    if let Some(rule) = rule.filter(|_| t.tag().is_some()) {
        let factors = rule(&t)?.into_iter();
        return Ok(Input::Factors(
            factors
                .map(|f| from_tensor(f, ElType::Float64, false))
                .collect(),
        ));
    }
    if let Some(factors) = traced_factors(&t, shapes)? {
        return Ok(Input::Factors(factors));
    }
    Err(fail(
        ErrorKind::MethodError,
        format!(
            "`{name}` has no derivative rule; differentiate through `A \\ b`, `det`, `logdet`, `inv`, `cholesky`, `qr`, `svd` or (for a symmetric matrix) `eigen` and `eigvals`, which have rules"
        ),
    ))
}

/// For sparsity tracers, the dense patterns of the factors of `t`, given their shapes by
/// `shapes(m, n)`: with no values (global) or values that only choose branches (local), every
/// entry of a factor depends on every entry of `A`.
fn traced_factors(
    t: &Tensor,
    shapes: impl Fn(usize, usize) -> Vec<Vec<usize>>,
) -> Result<Option<Vec<Value>>, crate::error::Flow> {
    if !t.has_tracer() || t.tag().is_some() {
        return Ok(None);
    }
    let (m, n) = matrix_size(t)?;
    let set = union_all(&tracer::sets_of(t));
    let factors = shapes(m, n)
        .into_iter()
        .map(|shape| {
            let count = shape.iter().product();
            let tracer = Tracer::new(&shape, vec![set.clone(); count], None);
            from_tensor(Tensor::Tracer(Rc::new(tracer)), ElType::Float64, false)
        })
        .collect();
    Ok(Some(factors))
}

/// Julia's `PosDefException`.
fn not_positive_definite(what: &str) -> crate::error::Flow {
    fail(
        ErrorKind::PosDefException,
        format!("matrix is not {what}; Cholesky factorization failed."),
    )
}

/// A pivoting strategy of LinearAlgebra (`NoPivot()`, `RowMaximum()`).
struct Pivoting(&'static str);

impl crate::object::Object for Pivoting {
    fn type_name(&self) -> String {
        self.0.into()
    }

    fn show(&self) -> String {
        format!("{}()", self.0)
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn no_pivot_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("NoPivot", 0, 0)?;
    Ok(Value::object(Pivoting("NoPivot")))
}

fn row_maximum_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("RowMaximum", 0, 0)?;
    Ok(Value::object(Pivoting("RowMaximum")))
}

/// `cholesky(A)` (also `cholesky(A, NoPivot())`): `A = UᵀU = LLᵀ` for a symmetric positive
/// definite `A`; `check = false` returns the factorization without raising.
fn cholesky_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("cholesky", 1, 2)?;
    args.keywords("cholesky", &["check"])?;
    let check = !matches!(args.kw("check"), Some(Value::Bool(false)));
    let pivoting = match args.pos.get(1) {
        None => "NoPivot",
        Some(Value::Object(o)) if o.as_any().is::<Pivoting>() => o
            .as_any()
            .downcast_ref::<Pivoting>()
            .map_or("NoPivot", |p| p.0),
        Some(other) => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching cholesky(::Matrix, ::{})",
                    other.type_name()
                ),
            ))
        }
    };
    let (t, _) = matrix_tensor(interp, &args.pos[0], "cholesky")?;
    let fields = match traced_factors(&t, |_, n| vec![vec![n, n]; 3])? {
        Some(traced) => traced,
        None if pivoting == "RowMaximum" => return Err(fail(
            ErrorKind::ArgumentError,
            "the pivoted Cholesky factorization (RowMaximum()) is not available; use cholesky(A)",
        )),
        None => cholesky_fields(&t, check)?,
    };
    Ok(Value::object(Factorization {
        type_name: "Cholesky{Float64, Matrix{Float64}}",
        fields: ["L", "U", "factors"].into_iter().zip(fields).collect(),
        destructured: &["L", "U"],
        shown: &[("U factor", "U")],
    }))
}

/// `L`, `U` and `factors` of `cholesky(A)` for plain numbers and numbers carrying derivatives
/// (their rules are in [`super::cholesky`]); with `check = false` a matrix that is not
/// positive definite gives factors of NaN, as Julia's unchecked factorization is unusable.
fn cholesky_fields(a: &Tensor, check: bool) -> Result<Vec<Value>, crate::error::Flow> {
    let (m, n) = matrix_size(a)?;
    if m != n {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!("matrix is not square: dimensions are ({m}, {n})"),
        ));
    }
    if check && !is_symmetric(n, &a.to_col_major()) {
        return Err(not_positive_definite("Hermitian"));
    }
    let l = match super::cholesky::factor(a) {
        Ok(l) => l,
        Err(AdError::Argument(message)) if message == super::cholesky::NOT_POSITIVE_DEFINITE => {
            if check {
                return Err(not_positive_definite("positive definite"));
            }
            Tensor::filled(&[n, n], f64::NAN)
        }
        Err(other) => return Err(other.into()),
    };
    let u = ops::transpose(&l)?;
    let factors = super::cholesky::factors_field(&u, a, n)?;
    Ok([l, u, factors]
        .into_iter()
        .map(|t| from_tensor(t, ElType::Float64, false))
        .collect())
}

/// `qr(A)`: `A = QR` with `Q` orthonormal columns (`m × min(m, n)`) and `R` upper triangular.
fn qr_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("qr", 1, 1)?;
    let shapes = |m: usize, n: usize| vec![vec![m, m.min(n)], vec![m.min(n), n]];
    let rule: Option<DifferentiatedFactors> =
        Some(|a| super::thin_qr::thin_qr(a).map(|(q, r)| vec![q, r]));
    let fields = match input(interp, &args.pos[0], "qr", shapes, rule)? {
        Input::Factors(f) => f,
        Input::Plain(m, n, a) => {
            let (q, upper) = super::thin_qr::plain_factors(m, n, &a)?;
            vec![matrix(m, m.min(n), q), matrix(m.min(n), n, upper)]
        }
    };
    Ok(Value::object(Factorization {
        type_name: "LinearAlgebra.QRCompactWY{Float64, Matrix{Float64}, Matrix{Float64}}",
        fields: ["Q", "R"].into_iter().zip(fields).collect(),
        destructured: &["Q", "R"],
        shown: &[("Q factor", "Q"), ("R factor", "R")],
    }))
}

/// `svd(A)`: the thin singular value decomposition `A = U Diagonal(S) Vt`, `S` decreasing.
fn svd_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("svd", 1, 1)?;
    let shapes = |m: usize, n: usize| {
        let r = m.min(n);
        vec![vec![m, r], vec![r], vec![n, r], vec![r, n]]
    };
    let rule: Option<DifferentiatedFactors> = Some(|a| {
        let (u, s, v) = super::thin_svd::thin_svd(a)?;
        let vt = ops::transpose(&v)?;
        Ok(vec![u, s, v, vt])
    });
    let fields = match input(interp, &args.pos[0], "svd", shapes, rule)? {
        Input::Factors(f) => f,
        Input::Plain(m, n, a) => {
            let r = m.min(n);
            let (u, s, v) = super::thin_svd::plain_parts(m, n, &a)?;
            let vt: Vec<f64> = (0..r * n).map(|k| v[k / r + (k % r) * n]).collect();
            vec![
                matrix(m, r, u),
                vector(s),
                matrix(n, r, v),
                matrix(r, n, vt),
            ]
        }
    };
    Ok(Value::object(Factorization {
        type_name: "SVD{Float64, Float64, Matrix{Float64}, Vector{Float64}}",
        fields: ["U", "S", "V", "Vt"].into_iter().zip(fields).collect(),
        destructured: &["U", "S", "V"],
        shown: &[
            ("U factor", "U"),
            ("singular values", "S"),
            ("Vt factor", "Vt"),
        ],
    }))
}

/// `eigen(A)`: eigenvalues (increasing) and unit eigenvectors (the columns of `vectors`); real
/// matrices with complex eigenvalues are a `DomainError` (difflab has no complex numbers).
fn eigen_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("eigen", 1, 1)?;
    let shapes = |_, n: usize| vec![vec![n], vec![n, n]];
    let rule: Option<DifferentiatedFactors> = Some(|a| {
        super::symmetric_eigen::symmetric_eigen(a).map(|(values, vectors)| vec![values, vectors])
    });
    let fields = match input(interp, &args.pos[0], "eigen", shapes, rule)? {
        Input::Factors(f) => f,
        Input::Plain(m, n, a) => {
            if m != n {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    format!("matrix is not square: dimensions are ({m}, {n})"),
                ));
            }
            let (values, vectors) = eigen_pairs(n, &a)?;
            vec![vector(values), matrix(n, n, vectors)]
        }
    };
    Ok(Value::object(Factorization {
        type_name: "Eigen{Float64, Float64, Matrix{Float64}, Vector{Float64}}",
        fields: ["values", "vectors"].into_iter().zip(fields).collect(),
        destructured: &["values", "vectors"],
        shown: &[("values", "values"), ("vectors", "vectors")],
    }))
}

/// The eigenvalues of a plain square matrix in increasing order with their unit eigenvectors
/// (column-major); symmetric matrices take the symmetric solver.
fn eigen_pairs(n: usize, a: &[f64]) -> Result<(Vec<f64>, Vec<f64>), crate::error::Flow> {
    let failed = |_| {
        fail(
            ErrorKind::ArgumentError,
            "eigen: the iteration did not converge",
        )
    };
    if n == 0 {
        return Ok((Vec::new(), Vec::new()));
    }
    let (values, vectors) = if is_symmetric(n, a) {
        super::symmetric_eigen::plain_pairs(n, a)?
    } else {
        let complex = interruptible(a, move |a| {
            faer::MatRef::from_column_major_slice(a, n, n)
                .eigen()
                .map(|f| {
                    let s = f.S().column_vector();
                    let values: Vec<faer::c64> = (0..n).map(|k| s[k]).collect();
                    let u = f.U();
                    let vectors: Vec<faer::c64> = (0..n * n).map(|k| u[(k % n, k / n)]).collect();
                    (values, vectors)
                })
        })?
        .map_err(failed)?;
        if complex.0.iter().any(|z| z.im != 0.0) {
            return Err(fail(
                ErrorKind::DomainError,
                "eigen: this matrix has complex eigenvalues, and difflab has no complex numbers",
            ));
        }
        let vectors = complex.1.chunks(n.max(1)).flat_map(real_vector).collect();
        (complex.0.iter().map(|z| z.re).collect(), vectors)
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let sorted_values = order.iter().map(|&k| values[k]).collect();
    let sorted_vectors = order
        .iter()
        .flat_map(|&k| vectors[k * n..(k + 1) * n].to_vec())
        .collect();
    Ok((sorted_values, sorted_vectors))
}

/// A complex eigenvector of a real eigenvalue, turned real: rotated so that its largest entry
/// is real (the vector is then real up to rounding) and scaled to unit length, as Julia's are.
fn real_vector(v: &[faer::c64]) -> Vec<f64> {
    let largest = v
        .iter()
        .copied()
        .max_by(|a, b| a.norm().total_cmp(&b.norm()))
        .unwrap_or(faer::c64::new(1.0, 0.0));
    let phase = if largest.norm() > 0.0 {
        largest.conj() / largest.norm()
    } else {
        faer::c64::new(1.0, 0.0)
    };
    let real: Vec<f64> = v.iter().map(|z| (z * phase).re).collect();
    let length = real.iter().map(|x| x * x).sum::<f64>().sqrt();
    real.iter()
        .map(|x| if length > 0.0 { x / length } else { *x })
        .collect()
}

crate::builtins! {
    "NoPivot" => no_pivot_, false, "    NoPivot()\n\nThe pivoting strategy \"none\" of LinearAlgebra's factorizations: `cholesky(A, NoPivot())` is `cholesky(A)`.\n\n```\njulia> cholesky([4.0 0.0; 0.0 1.0], NoPivot()).U[1, 1]\n2.0\n```";
    "RowMaximum" => row_maximum_, false, "    RowMaximum()\n\nThe pivoting strategy that picks the largest remaining entry; `cholesky(A, RowMaximum())` is accepted under sparsity detection (every factor entry depends on all of `A`) and refused for numbers, where the pivoted factorization is not available.\n\n```\njulia> RowMaximum()\nRowMaximum()\n```";
    "cholesky" => cholesky_, false, "    cholesky(A; check = true)\n\nThe Cholesky factorization of a symmetric positive definite matrix: fields `L` and `U` with `A == L * L' == U' * U` (and Julia's `factors`); `F \\ b` solves with it, and `logdet(F)`, `det(F)` read it. A matrix that is not symmetric or not positive definite is a `PosDefException` (with `check = false`, the factors are NaN instead). `cholesky(A, NoPivot())` is the same. It differentiates under every backend but the symbolic one; as Julia's, it reads the upper triangle of `A`, so a gradient with respect to `A` lies there.\n\n```\njulia> F = cholesky([4.0 2.0; 2.0 3.0]); F.L\n2×2 Matrix{Float64}:\n 2.0  0.0\n 1.0  1.41421\n\njulia> F \\ [2.0, 1.0]\n2-element Vector{Float64}:\n 0.5\n 0.0\n\njulia> g = gradient(s -> logdet(cholesky([4.0 s; s 3.0])), AutoForwardDiff(), 2.0);\n\njulia> g ≈ -2 * 2.0 / (12 - 2.0^2)  # d/ds log(12 - s²)\ntrue\n```";
    "qr" => qr_, false, "    qr(A)\n\nThe QR factorization `A = Q * R`: `Q` has orthonormal columns (`m × min(m, n)`; Julia's `Q` is an `m × m` operator whose first columns these are) and `R` is upper triangular. `Q, R = qr(A)` destructures it. For `m ≥ n` it differentiates under every backend but the symbolic one, to any order.\n\n```\njulia> Q, R = qr([3.0 1.0; 4.0 2.0]); Q * R ≈ [3.0 1.0; 4.0 2.0], abs.(R[1, 1])\n(true, 5.0)\n```";
    "svd" => svd_, false, "    svd(A)\n\nThe thin singular value decomposition `A = U * Diagonal(S) * Vt`, with the singular values `S` decreasing; fields `U`, `S`, `V`, `Vt`, and `U, S, V = svd(A)`. It differentiates under every backend but the symbolic one, to any order; repeated or zero singular values make the derivatives of `U` and `V` infinite.\n\n```\njulia> F = svd([3.0 0.0; 0.0 -2.0]); F.S\n2-element Vector{Float64}:\n 3.0\n 2.0\n```";
    "eigen" => eigen_, false, "    eigen(A)\n\nThe eigenvalues of a square matrix in increasing order (`F.values`) and its unit eigenvectors as the columns of `F.vectors`; `values, vectors = eigen(A)`. Symmetric matrices take the symmetric solver. Complex eigenvalues are a `DomainError` (difflab has no complex numbers). It differentiates for symmetric matrices under every backend but the symbolic one (reading the upper triangle, as Julia's symmetric solver does); repeated eigenvalues make the eigenvectors' derivatives infinite.\n\n```\njulia> values, vectors = eigen([2.0 1.0; 1.0 2.0]); values\n2-element Vector{Float64}:\n 1.0\n 3.0\n\njulia> gradient(s -> eigen([2.0 s; s 2.0]).values[2], AutoReverseDiff(), 1.0) ≈ 1.0  # λ₂ = 2 + s\ntrue\n```";
}
