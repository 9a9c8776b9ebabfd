//! Implicit functions: `ImplicitFunction(forward, conditions; representation, linear_solver,
//! backends, conditions_backend)`, differentiated with the implicit function theorem instead of through
//! `forward` (which may use loops, mutation, anything).
//!
//! When `x` carries partials `ẋ` (forward mode around it), the output's partials solve
//! `A ẏ = −B ẋ` with `A = ∂c/∂y` and `B = ∂c/∂x` at `(x, y(x))`, all partials of a chunk from one
//! set-up: `B ẋ` are pushforwards of the conditions in `x`; `A` is applied matrix-free by
//! pushforwards in `y` inside GMRES (`IterativeLinearSolver`), or materialized and factorized
//! once (`DirectLinearSolver`, and GMRES under `MatrixRepresentation()`), solved by least
//! squares (`IterativeLeastSquaresSolver`, more conditions than unknowns allowed), or handed to
//! the user's `presolve`/`solve` functions.

use super::backends::as_backend;
use super::custom_rule::{record_plain_pullback, transpose_times};
use super::implicit_prep::{as_implicit_preparation, ImplicitPreparation};
use super::implicit_solvers::{abstract_linear_solver, IterativeSettings, LinearSolver};
use crate::builtins::linalg::factorize::DenseLu;
use crate::builtins::linalg::LinearMap;
use crate::builtins::markers::is_marker;
use crate::builtins::sparse::SparseLu;
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::types::Type;
use crate::value::convert::operand;
use crate::value::{Array, Value};
use difflab_ad::di::{operators as di, primitives, sparse, Backend};
use difflab_ad::error::Result as AdResult;
use difflab_ad::{solve, tracer, Tensor};
use difflab_coloring::GreedyColoringAlgorithm;
use difflab_syntax::Name;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

/// The smallest `y` for which `DirectLinearSolver` colors and factorizes a sparse `∂c/∂y`.
const SPARSE_FROM: usize = 64;

/// The point the implicit function theorem is applied at: `x`, `y(x)`, the byproduct `z` and
/// the extra arguments the conditions take.
#[derive(Clone, Copy)]
pub(super) struct Point<'a> {
    pub(super) x0: &'a Tensor,
    pub(super) y0: &'a Tensor,
    pub(super) z: &'a Option<Value>,
    pub(super) extra: &'a [Value],
    kw: &'a [(Name, Value)],
    /// The preparation of a prepared call (`implicit(prep, x, args...)`).
    prepared: Option<&'a ImplicitPreparation>,
}

impl<'a> Point<'a> {
    fn at(
        x0: &'a Tensor,
        out: &'a Output,
        extra: &'a [Value],
        kw: &'a [(Name, Value)],
        prepared: Option<&'a ImplicitPreparation>,
    ) -> Self {
        Point {
            x0,
            y0: &out.y,
            z: &out.z,
            extra,
            kw,
            prepared,
        }
    }

    /// The point as values, as a preparation's operators take it.
    pub(super) fn values(&self) -> (Value, Value) {
        (array_value(self.x0.clone()), array_value(self.y0.clone()))
    }
}

/// `A = ∂c/∂y` factorized once per point, by the factorization its traced pattern chose.
enum Factors {
    Sparse(Box<SparseLu>),
    Dense(DenseLu),
}

impl Factors {
    fn lu(&self) -> &dyn LinearMap {
        match self {
            Factors::Sparse(lu) => lu.as_ref(),
            Factors::Dense(lu) => lu,
        }
    }
}

impl LinearMap for Factors {
    fn size(&self) -> (usize, usize) {
        self.lu().size()
    }

    fn apply_plain(&self, x: &[f64], k: usize, transpose: bool) -> AdResult<Vec<f64>> {
        self.lu().apply_plain(x, k, transpose)
    }
}

/// `u = A⁻ᵀ ȳ` for the backward sweep of reverse mode.
enum TransposedSolve {
    /// A factorization of `A` (`None` when `A` is singular).
    Factors(Option<Box<Factors>>),
    /// The columns of `A⁻ᵀ` (from the user's solver), or of `A⁺ᵀ` (least squares).
    Inverse(Vec<Vec<f64>>),
}

impl TransposedSolve {
    /// `A⁻ᵀ ct`, or `None` when `A` was singular.
    fn apply(&self, ct: &[f64]) -> Option<Vec<f64>> {
        match self {
            TransposedSolve::Factors(factors) => factors.as_ref()?.apply_plain(ct, 1, true).ok(),
            TransposedSolve::Inverse(columns) => {
                let mut u = vec![0.0; columns.first().map_or(0, Vec::len)];
                for (column, &c) in columns.iter().zip(ct) {
                    for (ui, &a) in u.iter_mut().zip(column) {
                        *ui += a * c;
                    }
                }
                Some(u)
            }
        }
    }
}

/// A function defined by `forward` and the `conditions` its output satisfies.
pub struct ImplicitFunction {
    forward: Value,
    conditions: Value,
    solver: LinearSolver,
    /// `representation=MatrixRepresentation()`: `A` is materialized, also for GMRES.
    matrix_representation: bool,
    /// Differentiates the conditions in `x` (`B`).
    backend_x: Backend,
    /// Differentiates the conditions in `y` (`A`).
    backend_y: Backend,
    /// The `backends` keyword as given (`nothing`: `conditions_backend` or forward mode).
    backends: Value,
}

/// The numbers of `v`, an argument or a result of the implicit function (`what` names it).
pub(super) fn numbers(v: &Value, what: &str) -> Result<Tensor, Flow> {
    operand(v)?.map(|o| o.tensor().clone()).ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            format!(
                "ImplicitFunction: {what} must be an array of numbers, got a {}",
                v.type_name()
            ),
        )
    })
}

/// `M v` for a column-major `M` with `rows` rows.
fn matrix_times(matrix: &[f64], rows: usize, v: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; rows];
    for (column, &x) in matrix.chunks(rows.max(1)).zip(v) {
        for (o, &a) in out.iter_mut().zip(column) {
            *o += a * x;
        }
    }
    out
}

/// A `Float64` array holding `t`.
pub(super) fn array_value(t: Tensor) -> Value {
    Value::Array(Rc::new(RefCell::new(Array::new(
        crate::show::ElType::Float64,
        t,
    ))))
}

/// One evaluation: `y` and the byproduct `z` (when `forward` returns a tuple).
struct Output {
    y: Tensor,
    z: Option<Value>,
}

impl ImplicitFunction {
    fn run_forward(
        &self,
        interp: &mut Interp,
        x: &Tensor,
        extra: &[Value],
        kw: &[(Name, Value)],
    ) -> Result<Output, Flow> {
        let args = std::iter::once(array_value(x.clone()))
            .chain(extra.iter().cloned())
            .collect();
        match interp.call_value(&self.forward, args, kw.to_vec())? {
            Value::Tuple(items) if items.len() == 2 => Ok(Output {
                y: numbers(&items[0], "y")?,
                z: Some(items[1].clone()),
            }),
            y => Ok(Output {
                y: numbers(&y, "y")?,
                z: None,
            }),
        }
    }

    /// `c(x, y[, z], args...)` as numbers.
    fn conditions(
        &self,
        interp: &mut Interp,
        x: &Tensor,
        y: &Tensor,
        z: &Option<Value>,
        extra: &[Value],
        kw: &[(Name, Value)],
    ) -> Result<Tensor, Flow> {
        let mut args = vec![array_value(x.clone()), array_value(y.clone())];
        args.extend(z.iter().cloned());
        args.extend(extra.iter().cloned());
        numbers(
            &interp.call_value(&self.conditions, args, kw.to_vec())?,
            "c",
        )
    }

    /// `y(x)` for any number kind of `x`, with derivatives from the implicit function theorem.
    fn apply(
        &self,
        interp: &mut Interp,
        x: &Tensor,
        extra: &[Value],
        kw: &[(Name, Value)],
        prepared: Option<&ImplicitPreparation>,
    ) -> Result<Output, Flow> {
        let d = match x {
            Tensor::Plain(_) => return self.run_forward(interp, x, extra, kw),
            Tensor::Dual(d) if d.value.is_plain() => d,
            Tensor::Tracked(tr) if tr.value.is_plain() => return self.apply_reverse(interp, x, &tr.value, extra, kw, prepared),
            Tensor::Tracer(tr) => return self.apply_tracer(interp, tr, extra, kw),
            _ => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    "ImplicitFunction: second-order derivatives with two AD backends (such as SecondOrder(AutoForwardDiff(), AutoReverseDiff())) are not available through an implicit function; use finite differences for one of the two orders, e.g. SecondOrder(AutoFiniteDiff(), AutoForwardDiff()) or SecondOrder(AutoForwardDiff(), AutoFiniteDiff())",
                ))
            }
        };
        let x0 = &d.value;
        let out = self.run_forward(interp, x0, extra, kw)?;
        let y0 = out.y.clone();
        let c = self.conditions(interp, x0, &y0, &out.z, extra, kw)?;
        let least_squares = matches!(self.solver, LinearSolver::LeastSquares);
        if y0.shape() != c.shape() && !(least_squares && c.len() >= y0.len()) {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                "ImplicitFunction: the conditions c must have the size of y",
            ));
        }
        let at = Point::at(x0, &out, extra, kw, prepared);
        let tangents = d.partials.iter().map(|p| array_value(p.clone())).collect();
        let bx = match prepared.and_then(|p| p.b_applied(interp, self, &at, tangents, false)) {
            Some(bx) => bx?
                .iter()
                .map(|b| numbers(b, "B ẋ"))
                .collect::<Result<Vec<_>, _>>()?,
            None => {
                let mut in_x = |u: &Tensor| self.conditions(interp, u, &y0, &out.z, extra, kw);
                primitives::pushforward(&mut in_x, &self.backend_x, x0, &d.partials)?.1
            }
        };
        let rhs: Vec<Vec<f64>> = bx
            .iter()
            .map(|b| b.to_col_major().iter().map(|v| -v).collect())
            .collect();
        let solutions = self.solve(interp, &at, &rhs)?;
        let partials = solutions
            .into_iter()
            .map(|s| Tensor::from_col_major(y0.shape(), s))
            .collect();
        Ok(Output {
            y: Tensor::dual(d.tag, y0, partials),
            z: out.z,
        })
    }

    fn solve(
        &self,
        interp: &mut Interp,
        at: &Point,
        rhs: &[Vec<f64>],
    ) -> Result<Vec<Vec<f64>>, Flow> {
        let (x0, y0) = (at.x0, at.y0);
        let m = y0.len();
        let nan = || vec![f64::NAN; m];
        match &self.solver {
            LinearSolver::Iterative(settings) => {
                let matrix = match self.matrix_representation {
                    true => Some(self.materialize(interp, at)?),
                    false => None,
                };
                let mut out = Vec::with_capacity(rhs.len());
                for b in rhs {
                    let mut product = |v: &[f64]| -> Result<Vec<f64>, Flow> {
                        if let Some(a) = &matrix {
                            return Ok(matrix_times(a, m, v));
                        }
                        let direction = array_value(Tensor::from_col_major(y0.shape(), v.to_vec()));
                        if let Some(av) = at
                            .prepared
                            .and_then(|p| p.a_times(interp, self, at, direction))
                        {
                            return Ok(numbers(&av?, "A v")?.to_col_major());
                        }
                        let mut in_y =
                            |w: &Tensor| self.conditions(interp, x0, w, at.z, at.extra, at.kw);
                        let (_, av) = primitives::pushforward(
                            &mut in_y,
                            &self.backend_y,
                            y0,
                            &[Tensor::from_col_major(y0.shape(), v.to_vec())],
                        )?;
                        Ok(av[0].to_col_major())
                    };
                    let (solution, info) = solve::gmres(
                        &mut product,
                        b,
                        settings.relative_tolerance(b),
                        settings.memory.unwrap_or(m.min(50)),
                        settings.itmax.unwrap_or(20 * m + 100),
                    )?;
                    if info.converged || settings.accept_inconsistent {
                        out.push(solution);
                    } else {
                        if settings.verbose {
                            interp.warn("ImplicitDifferentiation", format!("IterativeLinearSolver failed (relative residual {:.2e}); returning NaN", info.relative_residual));
                        }
                        out.push(nan());
                    }
                }
                Ok(out)
            }
            LinearSolver::Direct { verbose } => {
                let stacked: Vec<f64> = rhs.iter().flatten().copied().collect();
                let factors = self.factorize(interp, at)?;
                match factors.map(|f| f.apply_plain(&stacked, rhs.len(), false)) {
                    Some(x) => Ok(x?.chunks(m.max(1)).map(<[f64]>::to_vec).collect()),
                    None => {
                        if *verbose {
                            interp.warn(
                                "ImplicitDifferentiation",
                                "DirectLinearSolver: ∂c/∂y is singular; returning NaN",
                            );
                        }
                        Ok(rhs.iter().map(|_| nan()).collect())
                    }
                }
            }
            LinearSolver::User {
                presolve,
                solve,
                object,
            } => {
                let a = self.materialize(interp, at)?;
                LinearSolver::solve_user(interp, (presolve, solve, object), a, y0, rhs)
            }
            LinearSolver::LeastSquares => {
                let pseudo_inverse = self.pseudo_inverse(interp, at)?;
                Ok(rhs
                    .iter()
                    .map(|b| matrix_times(&pseudo_inverse, m, b))
                    .collect())
            }
        }
    }

    /// `A⁺` (column-major, `len(y) × len(c)`).
    fn pseudo_inverse(&self, interp: &mut Interp, at: &Point) -> Result<Vec<f64>, Flow> {
        let m = at.y0.len();
        let a = self.materialize(interp, at)?;
        let conditions = a.len() / m.max(1);
        let a = Tensor::from_col_major(&[conditions, m], a);
        Ok(crate::builtins::linalg::matrix_functions::pinv_tensor(&a)?.to_col_major())
    }

    /// Sparsity detection: `y` depends on the inputs `x` reaches through the conditions, within
    /// the blocks of `A = ∂c/∂y` (see `tracer::solution_sets`). The pattern of `A` and `B` comes
    /// from tracing the conditions at `(x, y(x))`; a global tracer has no values, so `y` is
    /// computed at `x = 1` only to know the point's shape and a valid `y`.
    fn apply_tracer(
        &self,
        interp: &mut Interp,
        x: &Rc<tracer::Tracer>,
        extra: &[Value],
        kw: &[(Name, Value)],
    ) -> Result<Output, Flow> {
        let shape = x.primal.shape().to_vec();
        let x0 = if x.global {
            Tensor::filled(&shape, 1.0)
        } else {
            Tensor::Plain(x.primal.clone())
        };
        let out = self.run_forward(interp, &x0, extra, kw)?;
        let y0 = out.y.clone();
        let traced_x = Tensor::Tracer(x.clone());
        let b = tracer::sets_of(&self.conditions(interp, &traced_x, &y0, &out.z, extra, kw)?);
        let traced_y = tracer::input(&y0, !x.global);
        let a = tracer::sets_of(&self.conditions(interp, &x0, &traced_y, &out.z, extra, kw)?);
        let square = a.len() == y0.len();
        let least_squares = matches!(self.solver, LinearSolver::LeastSquares);
        if a.len() != b.len() || !(square || least_squares && a.len() > y0.len()) {
            return Err(fail(
                ErrorKind::DimensionMismatch,
                "ImplicitFunction: the conditions c must have the size of y",
            ));
        }
        let sets = if square {
            let columns: Vec<Vec<usize>> = a
                .iter()
                .map(|s| s.iter().map(|&k| k as usize).collect())
                .collect();
            tracer::solution_sets(&columns, &b)
        } else {
            // A least-squares solution mixes every condition: each y may depend on all inputs
            // the conditions reach.
            vec![tracer::union_all(&b); y0.len()]
        };
        let primal = (!x.global).then(|| y0.to_col_major());
        let y = Tensor::Tracer(Rc::new(tracer::Tracer::new(y0.shape(), sets, primal)));
        Ok(Output { y, z: out.z })
    }

    /// Reverse mode: records `y(x)` on the tape with the rule `ȳ ↦ -Bᵀ A⁻ᵀ ȳ`, with `A` and `B`
    /// materialized at this point (the backward sweep cannot call back into the interpreter).
    fn apply_reverse(
        &self,
        interp: &mut Interp,
        x: &Tensor,
        x0: &Tensor,
        extra: &[Value],
        kw: &[(Name, Value)],
        prepared: Option<&ImplicitPreparation>,
    ) -> Result<Output, Flow> {
        let out = self.run_forward(interp, x0, extra, kw)?;
        let y0 = out.y.clone();
        let n = x0.len();
        let at = Point::at(x0, &out, extra, kw, prepared);
        let transposed_solve = self.transposed_solve(interp, &at)?;
        let (conditions, b) = self.b_matrix(interp, &at)?;
        let y = record_plain_pullback(x, y0, move |ct| match transposed_solve.apply(ct) {
            Some(u) => transpose_times(&b, conditions, &u)
                .into_iter()
                .map(|g| -g)
                .collect(),
            None => vec![f64::NAN; n],
        });
        Ok(Output { y, z: out.z })
    }

    /// `B = ∂c/∂x` at the point as (its number of rows, its column-major numbers): a Jacobian,
    /// or with a prepared call's `prep_Bᵀ`, one pullback per condition.
    fn b_matrix(&self, interp: &mut Interp, at: &Point) -> Result<(usize, Vec<f64>), Flow> {
        let (x0, y0) = (at.x0, at.y0);
        let c = self.conditions(interp, x0, y0, at.z, at.extra, at.kw)?;
        let rows = c.len();
        let units = (0..rows)
            .map(|i| {
                let unit = (0..rows).map(|k| f64::from(u8::from(k == i))).collect();
                array_value(Tensor::from_col_major(c.shape(), unit))
            })
            .collect();
        if let Some(b_rows) = at
            .prepared
            .and_then(|p| p.b_applied(interp, self, at, units, true))
        {
            let b_rows = b_rows?
                .iter()
                .map(|r| Ok(numbers(r, "Bᵀ w")?.to_col_major()))
                .collect::<Result<Vec<_>, Flow>>()?;
            let n = x0.len();
            let b = (0..rows * n).map(|k| b_rows[k % rows][k / rows]).collect();
            return Ok((rows, b));
        }
        let mut in_x = |u: &Tensor| self.conditions(interp, u, y0, at.z, at.extra, at.kw);
        let (_, b) = di::value_and_jacobian(&mut in_x, &self.backend_x, x0)?;
        Ok((b.shape().first().copied().unwrap_or(rows), b.to_col_major()))
    }

    /// How the backward sweep solves `Aᵀu = ȳ`: with a factorization of `A`, or, for the
    /// user's solver (which the sweep cannot call), with `A⁻ᵀ` computed now by the user's
    /// `presolve` and `solve` applied to `Aᵀ` and each unit vector.
    fn transposed_solve(&self, interp: &mut Interp, at: &Point) -> Result<TransposedSolve, Flow> {
        if let LinearSolver::LeastSquares = self.solver {
            // The columns of A⁺ᵀ are the rows of A⁺.
            let pseudo_inverse = self.pseudo_inverse(interp, at)?;
            let m = at.y0.len();
            let conditions = pseudo_inverse.len() / m.max(1);
            let rows = (0..m)
                .map(|i| (0..conditions).map(|j| pseudo_inverse[i + j * m]).collect())
                .collect();
            return Ok(TransposedSolve::Inverse(rows));
        }
        let LinearSolver::User {
            presolve,
            solve,
            object,
        } = &self.solver
        else {
            return Ok(TransposedSolve::Factors(
                self.factorize(interp, at)?.map(Box::new),
            ));
        };
        let m = at.y0.len();
        let a = self.materialize(interp, at)?;
        let a_t: Vec<f64> = (0..m * m).map(|k| a[(k % m) * m + k / m]).collect();
        let units: Vec<Vec<f64>> = (0..m)
            .map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect())
            .collect();
        let columns =
            LinearSolver::solve_user(interp, (presolve, solve, object), a_t, at.y0, &units)?;
        Ok(TransposedSolve::Inverse(columns))
    }

    /// `A⁻¹` for `A = ∂c/∂y` at the point, factorized once with faer: a sparse LU when the
    /// conditions' pattern in `y` (traced at the point) is sparse and large enough to pay for
    /// coloring, a dense LU otherwise; `None` when `A` is singular.
    fn factorize(&self, interp: &mut Interp, at: &Point) -> Result<Option<Factors>, Flow> {
        let (x0, y0) = (at.x0, at.y0);
        let m = y0.len();
        let mut in_y = |w: &Tensor| self.conditions(interp, x0, w, at.z, at.extra, at.kw);
        // Small systems go straight to a dense LU: tracing would cost more than it saves.
        let traced = (m >= SPARSE_FROM).then(|| sparse::jacobian_sparsity(&mut in_y, y0, true));
        let pattern = match traced.transpose() {
            Ok(p) => p,
            Err(Flow::Error(e)) if e.kind == ErrorKind::InterruptException => {
                return Err(Flow::Error(e))
            }
            // Conditions the tracer cannot follow are materialized densely.
            Err(_) => None,
        };
        let factors = match pattern {
            Some(p) if p.nnz() * 4 <= m * m => {
                let plan = sparse::plan_jacobian(
                    p,
                    &self.backend_y,
                    &GreedyColoringAlgorithm::default(),
                    y0.shape(),
                    y0.shape(),
                )?;
                let (_, a) = sparse::sparse_jacobian(&mut in_y, &self.backend_y, &plan, y0)?;
                SparseLu::new(a.view()).map(|lu| Factors::Sparse(Box::new(lu)))
            }
            _ => DenseLu::new(m, &self.materialize(interp, at)?).map(Factors::Dense),
        };
        // The factorizations fail only for a singular (or structurally singular) A.
        Ok(factors.ok())
    }

    /// `A = ∂c/∂y` as a dense column-major matrix.
    fn materialize(&self, interp: &mut Interp, at: &Point) -> Result<Vec<f64>, Flow> {
        if let Some(a) = at.prepared.and_then(|p| p.a_matrix(interp, self, at)) {
            return Ok(numbers(&a?, "A")?.to_col_major());
        }
        let (x0, y0) = (at.x0, at.y0);
        let mut in_y = |w: &Tensor| self.conditions(interp, x0, w, at.z, at.extra, at.kw);
        let (_, a) = di::value_and_jacobian(&mut in_y, &self.backend_y, y0)?;
        Ok(a.to_col_major())
    }
}

impl ImplicitFunction {
    /// The conditions function.
    pub(super) fn conditions_value(&self) -> Value {
        self.conditions.clone()
    }

    /// The `backends` keyword as given (`nothing` when absent).
    pub(super) fn backends_value(&self) -> &Value {
        &self.backends
    }

    /// The backend differentiating the conditions in `x`.
    pub(super) fn backend_for_x(&self) -> &Backend {
        &self.backend_x
    }

    /// The backend differentiating the conditions in `y`.
    pub(super) fn backend_for_y(&self) -> &Backend {
        &self.backend_y
    }

    /// Whether `A` is materialized (`representation=MatrixRepresentation()`).
    pub(super) fn is_matrix_representation(&self) -> bool {
        self.matrix_representation
    }

    /// `forward(x, args...)` as values: `y` and the byproduct `z` (`None` when `forward`
    /// returns `y` alone).
    pub(super) fn forward_at(
        &self,
        interp: &mut Interp,
        x: &Value,
        extra: &[Value],
    ) -> Result<(Value, Option<Value>), Flow> {
        let out = self.run_forward(interp, &numbers(x, "x")?, extra, &[])?;
        Ok((array_value(out.y), out.z))
    }

    /// `conditions(x, y[, z], args...)` as a value.
    pub(super) fn conditions_at(
        &self,
        interp: &mut Interp,
        x: &Value,
        y: &Value,
        z: Option<&Value>,
        extra: &[Value],
    ) -> EvalResult {
        let (x, y) = (numbers(x, "x")?, numbers(y, "y")?);
        let c = self.conditions(interp, &x, &y, &z.cloned(), extra, &[])?;
        Ok(array_value(c))
    }

    fn representation_name(&self) -> &'static str {
        match self.matrix_representation {
            true => "MatrixRepresentation",
            false => "OperatorRepresentation",
        }
    }
}

impl Object for ImplicitFunction {
    fn type_name(&self) -> String {
        "ImplicitFunction".into()
    }

    fn show(&self) -> String {
        let backends = match &self.backends {
            Value::Nothing => format!("conditions_backend={}", self.backend_y),
            given => format!("backends={}", crate::display::repr(given)),
        };
        format!(
            "ImplicitFunction({}, {}; representation={}(), linear_solver={}, {backends})",
            crate::display::repr(&self.forward),
            crate::display::repr(&self.conditions),
            self.representation_name(),
            self.solver.show(),
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        match name {
            "forward" | "solver" => Some(self.forward.clone()),
            "conditions" => Some(self.conditions.clone()),
            "linear_solver" => Some(Value::object(self.solver.clone())),
            "representation" => Some(crate::builtins::markers::marker(self.representation_name())),
            "backends" => Some(self.backends.clone()),
            "conditions_backend" => Some(super::backends::backend_value(self.backend_y.clone())),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec![
            "forward",
            "solver",
            "conditions",
            "linear_solver",
            "representation",
            "backends",
            "conditions_backend",
        ]
    }

    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        kwargs: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        Some((|| {
            let prepared = args.first().and_then(as_implicit_preparation);
            let args = &args[usize::from(prepared.is_some())..];
            let Some((x, extra)) = args.split_first() else {
                return Err(fail(
                    ErrorKind::MethodError,
                    "an ImplicitFunction takes the input x first (after its preparation)",
                ));
            };
            if prepared.is_some() && !kwargs.is_empty() {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    "a prepared call of an ImplicitFunction takes positional arguments only, as its preparation does",
                ));
            }
            let t = numbers(x, "x")?;
            let out = self.apply(interp, &t, extra, &kwargs, prepared)?;
            let y = array_value(out.y);
            Ok(match out.z {
                Some(z) => Value::tuple(vec![y, z]),
                None => y,
            })
        })())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn implicit_function_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("ImplicitFunction", 2, 2)?;
    let solver = match args.kw("linear_solver") {
        None => LinearSolver::Iterative(IterativeSettings::default()),
        Some(Value::Object(o)) if o.as_any().is::<LinearSolver>() => o.as_any().downcast_ref::<LinearSolver>().expect("checked").clone(),
        Some(Value::NamedTuple(fields)) => {
            let get = |k: &str| fields.iter().find(|(n, _)| n.as_str() == k).map(|(_, v)| v.clone());
            match (get("presolve"), get("solve")) {
                (Some(presolve), Some(solve)) => LinearSolver::User { presolve, solve, object: None },
                _ => return Err(fail(ErrorKind::ArgumentError, "a custom linear_solver is a named tuple (presolve=..., solve=...)")),
            }
        }
        Some(object @ Value::Struct(_)) if Type::of(object).is_subtype(&abstract_linear_solver()) => {
            let function = |name: &str| Value::Builtin(crate::builtins::lookup(Name::new(name)).expect("presolve and solve are builtins"));
            LinearSolver::User { presolve: function("presolve"), solve: function("solve"), object: Some(object.clone()) }
        }
        Some(other) => return Err(fail(ErrorKind::ArgumentError, format!("linear_solver must be IterativeLinearSolver(), DirectLinearSolver(), a value of a subtype of AbstractLinearSolver with presolve and solve methods, or (presolve=f, solve=g); got a {}", other.type_name()))),
    };
    let backend = match args.kw("conditions_backend") {
        None | Some(Value::Nothing) => Backend::Forward { chunk: None },
        Some(v) => as_backend(v)
            .ok_or_else(|| {
                fail(
                    ErrorKind::ArgumentError,
                    "conditions_backend must be a backend or nothing",
                )
            })?
            .clone(),
    };
    let backends = args.kw("backends").cloned().unwrap_or(Value::Nothing);
    let (backend_x, backend_y) = match &backends {
        Value::Nothing => (backend.clone(), backend),
        given => (
            per_argument_backend(given, "x")?,
            per_argument_backend(given, "y")?,
        ),
    };
    let matrix_representation = match args.kw("representation") {
        None => false,
        Some(v) if is_marker(v, "OperatorRepresentation") => false,
        Some(v) if is_marker(v, "MatrixRepresentation") => true,
        Some(other) => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                "representation must be MatrixRepresentation() or OperatorRepresentation(), got {}",
                crate::display::repr(other)
            ),
            ))
        }
    };
    crate::builtins::markers::strict_keyword(&args, "ImplicitFunction")?;
    Ok(Value::Object(Rc::new(Box::new(ImplicitFunction {
        forward: args.pos[0].clone(),
        conditions: args.pos[1].clone(),
        solver,
        matrix_representation,
        backend_x,
        backend_y,
        backends,
    }))))
}

/// The backend for argument `name` (`x` or `y`) of ImplicitDifferentiation's
/// `backends=(x=..., y=...)`.
fn per_argument_backend(backends: &Value, name: &str) -> Result<Backend, Flow> {
    let found = match backends {
        Value::NamedTuple(fields) => fields
            .iter()
            .find(|(k, _)| k.as_str() == name)
            .and_then(|(_, v)| as_backend(v)),
        _ => None,
    };
    found.cloned().ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            "backends must be nothing or a named tuple of two backends, (x=..., y=...)",
        )
    })
}

crate::builtins! {
    "ImplicitFunction" => implicit_function_, false, "    ImplicitFunction(forward, conditions; representation=OperatorRepresentation(), linear_solver=IterativeLinearSolver(), backends=nothing, conditions_backend=nothing, strict=Val(true))\n\nA function `x -> y` computed by `forward(x, args...)` and characterized by `conditions(x, y, args...) = 0` (or, when `forward` returns `(y, z)`, by `conditions(x, y, z, args...)`). Calling it returns what `forward` returns; differentiating it uses the implicit function theorem `∂c/∂y · ∂y/∂x = -∂c/∂x` instead of differentiating `forward`, which may use loops, mutation or anything. Extra positional and keyword arguments go to both functions and are constants for differentiation. The linear systems are solved by GMRES on matrix-free products (`IterativeLinearSolver`, no Jacobian is materialized), by a factorization (`DirectLinearSolver`), or by your own `(presolve=(A, y) -> F, solve=(F, b) -> x)`; a failed solve gives NaNs with a warning. `conditions_backend` (default AutoForwardDiff()) differentiates the conditions; ImplicitDifferentiation's `backends=(x=..., y=...)` chooses one backend for `B = ∂c/∂x` and one for `A = ∂c/∂y`. `representation=MatrixRepresentation()` materializes `A` (GMRES then runs on the matrix); `IterativeLeastSquaresSolver()` accepts more conditions than unknowns. The fields `forward`, `conditions`, `linear_solver`, `representation`, `backends` and `conditions_backend` read the settings back.\n\nEvery backend works through it: forward mode solves `A·ẏ = -B·ẋ` for all partials of a chunk, reverse mode solves `Aᵀu = ȳ` and returns `-Bᵀu` (with `A` and `B` materialized at the point), finite differences call `forward`. The sparsity detectors trace the conditions: each `y` entry depends on the inputs that reach its block of `A = ∂c/∂y` (elementwise problems stay diagonal), so `AutoSparse` works around it. Second order works when finite differences take one of the two orders (`SecondOrder(AutoFiniteDiff(), AutoForwardDiff())`, `SecondOrder(AutoReverseDiff(), AutoFiniteDiff())`, …); two AD backends raise an `ArgumentError` saying so.\n\n```\njulia> forward(x) = sqrt.(x);              # any algorithm\n\njulia> conditions(x, y) = y .^ 2 .- x;     # what its output satisfies\n\njulia> implicit = ImplicitFunction(forward, conditions);\n\njulia> jacobian(implicit, AutoForwardDiff(), [4.0, 9.0])\n2×2 Matrix{Float64}:\n 0.25  0.0\n 0.0   0.166667\n```";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::test_support;

    /// The factorization `DirectLinearSolver` picks for the conditions of `system` at `x`.
    fn factors_at(system: &'static str, x: &'static str) -> Factors {
        let mut interp = test_support::interp();
        let (Ok(f), Ok(x0)) = (
            interp.eval_library("test", system),
            interp.eval_library("test", x),
        ) else {
            panic!("the test's code runs")
        };
        let Ok(x0) = numbers(&x0, "x") else {
            panic!("x is numbers")
        };
        let Value::Object(object) = f else {
            panic!("expected an ImplicitFunction")
        };
        let system = object
            .as_any()
            .downcast_ref::<ImplicitFunction>()
            .expect("an ImplicitFunction");
        let Ok(out) = system.run_forward(&mut interp, &x0, &[], &[]) else {
            panic!("forward runs")
        };
        let factors = system.factorize(&mut interp, &Point::at(&x0, &out, &[], &[], None));
        let Ok(Some(factors)) = factors else {
            panic!("A factorizes")
        };
        factors
    }

    #[test]
    fn sparse_conditions_get_a_sparse_lu_and_small_or_dense_ones_a_dense_lu() {
        let tridiagonal = "ImplicitFunction(x -> x ./ 2, (x, y) -> 2 .* y .+ 0.1 .* (circshift(y, 1) .+ circshift(y, -1)) .- x; linear_solver=DirectLinearSolver())";
        let dense = "ImplicitFunction(x -> x, (x, y) -> y .+ 0.01 .* sum(y) .- x; linear_solver=DirectLinearSolver())";
        let large = "collect(range(1.0, 2.0; length=100))";
        assert!(matches!(factors_at(tridiagonal, large), Factors::Sparse(_)));
        assert!(matches!(
            factors_at(tridiagonal, "[1.0, 2.0, 3.0]"),
            Factors::Dense(_)
        ));
        assert!(matches!(factors_at(dense, large), Factors::Dense(_)));
    }
}
