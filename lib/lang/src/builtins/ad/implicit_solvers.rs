//! The linear solvers of `ImplicitFunction`, as ImplicitDifferentiation names them:
//! `IterativeLinearSolver` (GMRES on products, the default), `DirectLinearSolver` (a
//! factorization), `IterativeLeastSquaresSolver` (least squares, more conditions than unknowns
//! allowed) and the user's own, a subtype of `AbstractLinearSolver` with `presolve` and `solve`
//! methods or a named tuple of two functions. `implicit.rs` applies them.

use super::implicit::{array_value, numbers};
use crate::builtins::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::types::Type;
use crate::value::Value;
use difflab_ad::Tensor;
use std::any::Any;
use std::rc::Rc;

/// How the linear systems of the implicit function theorem are solved.
#[derive(Clone)]
pub enum LinearSolver {
    /// GMRES on matrix-free products with `A` (the default).
    Iterative(IterativeSettings),
    /// `A` materialized and factorized once per point.
    Direct {
        /// Warn when the solve fails.
        verbose: bool,
    },
    /// Least squares on the materialized `A`, which may have more conditions than unknowns.
    LeastSquares,
    /// The user's `presolve(A, y)` and `solve(Afact, b)` functions, or, for a value `object`
    /// of a subtype of `AbstractLinearSolver`, the methods `presolve(object, A, y)` and
    /// `solve(object, Afact, b)`.
    User {
        /// `presolve`.
        presolve: Value,
        /// `solve`.
        solve: Value,
        /// The user's solver value, passed first to its methods.
        object: Option<Value>,
    },
}

/// The settings of [`LinearSolver::Iterative`], named as Krylov's keywords are.
#[derive(Clone)]
pub struct IterativeSettings {
    /// Warn when the solve fails (the result is then NaN).
    pub verbose: bool,
    /// Accept a least-squares solution of an inconsistent system.
    pub accept_inconsistent: bool,
    /// GMRES stops when the residual is at most `atol + rtol·‖b‖`.
    pub rtol: f64,
    /// See `rtol`.
    pub atol: f64,
    /// The most products with `A` (by default `20m + 100` for `m` unknowns).
    pub itmax: Option<usize>,
    /// The restart length (by default `min(m, 50)`).
    pub memory: Option<usize>,
}

impl Default for IterativeSettings {
    fn default() -> Self {
        IterativeSettings {
            verbose: true,
            accept_inconsistent: false,
            rtol: DEFAULT_RTOL,
            atol: 0.0,
            itmax: None,
            memory: None,
        }
    }
}

impl IterativeSettings {
    /// The residual relative to `‖b‖` at which GMRES stops for this right-hand side.
    pub fn relative_tolerance(&self, b: &[f64]) -> f64 {
        let norm = b.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm == 0.0 {
            return self.rtol;
        }
        self.rtol + self.atol / norm
    }
}

impl LinearSolver {
    /// Calls the user's `presolve` or `solve` with the solver value first when there is one.
    fn call_user(
        interp: &mut Interp,
        function: &Value,
        object: &Option<Value>,
        args: [Value; 2],
    ) -> EvalResult {
        let mut all: Vec<Value> = object.iter().cloned().collect();
        all.extend(args);
        interp.call(function, all)
    }

    /// `A⁻¹ b` for every `b` of `rhs` with the user's `presolve` and `solve` (`A` is `m×m`).
    pub(super) fn solve_user(
        interp: &mut Interp,
        (presolve, solve, object): (&Value, &Value, &Option<Value>),
        a: Vec<f64>,
        y0: &Tensor,
        rhs: &[Vec<f64>],
    ) -> Result<Vec<Vec<f64>>, Flow> {
        let m = y0.len();
        let a = crate::builtins::array(crate::show::ElType::Float64, &[m, m], a);
        let factor = Self::call_user(interp, presolve, object, [a, array_value(y0.clone())])?;
        let mut out = Vec::with_capacity(rhs.len());
        for b in rhs {
            let b = crate::builtins::array(crate::show::ElType::Float64, &[m], b.clone());
            let x = Self::call_user(interp, solve, object, [factor.clone(), b])?;
            out.push(numbers(&x, "the solution returned by solve")?.to_col_major());
        }
        Ok(out)
    }
}

impl Object for LinearSolver {
    fn type_name(&self) -> String {
        match self {
            LinearSolver::Iterative(_) => "IterativeLinearSolver".into(),
            LinearSolver::Direct { .. } => "DirectLinearSolver".into(),
            LinearSolver::LeastSquares => "IterativeLeastSquaresSolver".into(),
            LinearSolver::User { .. } => "LinearSolver".into(),
        }
    }

    fn show(&self) -> String {
        match self {
            LinearSolver::Iterative(settings) => {
                let IterativeSettings {
                    verbose,
                    accept_inconsistent,
                    ..
                } = settings;
                let mut shown = format!(
                    "IterativeLinearSolver(verbose={verbose}, accept_inconsistent={accept_inconsistent}, rtol={}",
                    crate::show::float(settings.rtol)
                );
                // Settings left at their defaults are not shown.
                if settings.atol != 0.0 {
                    shown += &format!(", atol={}", crate::show::float(settings.atol));
                }
                if let Some(itmax) = settings.itmax {
                    shown += &format!(", itmax={itmax}");
                }
                if let Some(memory) = settings.memory {
                    shown += &format!(", memory={memory}");
                }
                shown + ")"
            }
            LinearSolver::Direct { verbose } => format!("DirectLinearSolver(verbose={verbose})"),
            LinearSolver::LeastSquares => "IterativeLeastSquaresSolver()".into(),
            LinearSolver::User { .. } => "LinearSolver(presolve, solve)".into(),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// GMRES's default relative residual.
pub(super) const DEFAULT_RTOL: f64 = 1e-12;

fn iterative_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("IterativeLinearSolver", 0, 0)?;
    let tolerance = |name: &str, default: f64, valid: fn(f64) -> bool, range: &str| {
        let Some(v) = args.kw(name) else {
            return Ok(default);
        };
        match crate::builtins::to_float(v, "IterativeLinearSolver")? {
            t if valid(t) => Ok(t),
            _ => Err(fail(
                ErrorKind::ArgumentError,
                format!("IterativeLinearSolver: {name} must be {range}"),
            )),
        }
    };
    let count = |name: &str| -> Result<Option<usize>, Flow> {
        match args.kw(name) {
            None => Ok(None),
            Some(v) => match crate::builtins::to_size(v, "IterativeLinearSolver")? {
                0 => Err(fail(
                    ErrorKind::ArgumentError,
                    format!("IterativeLinearSolver: {name} must be positive"),
                )),
                n => Ok(Some(n)),
            },
        }
    };
    let solver = LinearSolver::Iterative(IterativeSettings {
        verbose: args.flag("verbose", true)?,
        accept_inconsistent: args.flag("accept_inconsistent", false)?,
        rtol: tolerance("rtol", DEFAULT_RTOL, |t| t > 0.0 && t < 1.0, "in (0, 1)")?,
        atol: tolerance("atol", 0.0, |t| t >= 0.0 && t.is_finite(), "finite and ≥ 0")?,
        itmax: count("itmax")?,
        memory: count("memory")?,
    });
    Ok(Value::Object(Rc::new(Box::new(solver))))
}

fn least_squares_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("IterativeLeastSquaresSolver", 0, 0)?;
    Ok(Value::object(LinearSolver::LeastSquares))
}

fn direct_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("DirectLinearSolver", 0, 0)?;
    Ok(Value::Object(Rc::new(Box::new(LinearSolver::Direct {
        verbose: args.flag("verbose", true)?,
    }))))
}

/// ImplicitDifferentiation's `AbstractLinearSolver`, the supertype of user solvers.
pub fn abstract_linear_solver() -> Type {
    crate::types::library_abstract_type("AbstractLinearSolver").expect("a library type")
}

/// `presolve(solver, A, y)` of the builtin solvers: `A` itself (each `solve` uses `\`).
fn presolve_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("presolve", 3, 3)?;
    require_solver(&args.pos[0], "presolve")?;
    Ok(args.pos[1].clone())
}

/// `solve(solver, A, b)` of the builtin solvers: `A \ b`.
fn solve_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("solve", 3, 3)?;
    require_solver(&args.pos[0], "solve")?;
    interp.binary(
        difflab_syntax::BinOp::LeftDiv,
        false,
        &args.pos[1],
        &args.pos[2],
    )
}

/// A `MethodError` unless `v` is one of the builtin linear solvers.
fn require_solver(v: &Value, name: &str) -> Result<(), Flow> {
    match v {
        Value::Object(o) if o.as_any().is::<LinearSolver>() => Ok(()),
        other => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(::{}, ::Matrix{{Float64}}, ::Vector{{Float64}}): define it for your solver type (after `import ImplicitDifferentiation: {name}`)",
                other.type_name()
            ),
        )),
    }
}

crate::builtins! {
    "presolve" => presolve_, false, "    presolve(solver, A, y)\n\nImplicitDifferentiation's first method of a linear solver: prepares `A = ∂c/∂y` (for example factorizes it) for several `solve`s with right-hand sides like `y`. Write your own for a subtype of `AbstractLinearSolver` after `import ImplicitDifferentiation: presolve, solve`; the builtin solvers return `A`.\n\n```\njulia> import ImplicitDifferentiation: presolve, solve, AbstractLinearSolver\n\njulia> struct LUSolver <: AbstractLinearSolver end\n\njulia> presolve(::LUSolver, A, y) = lu(A);\n\njulia> solve(::LUSolver, F, b) = F \\ b;\n\njulia> implicit = ImplicitFunction(x -> sqrt.(x), (x, y) -> y .^ 2 .- x; linear_solver=LUSolver());\n\njulia> jacobian(implicit, AutoReverseDiff(), [4.0])\n1×1 Matrix{Float64}:\n 0.25\n```";
    "solve" => solve_, false, "    solve(solver, Afact, b)\n\nImplicitDifferentiation's second method of a linear solver: `x` with `A x = b`, given what `presolve` returned (NaNs when it fails). The builtin solvers compute `Afact \\ b`; see `?presolve` for a solver of your own.\n\n```\njulia> solve(DirectLinearSolver(), [2.0 0.0; 0.0 4.0], [1.0, 1.0])\n2-element Vector{Float64}:\n 0.5\n 0.25\n```";
    "IterativeLinearSolver" => iterative_, false, "    IterativeLinearSolver(; verbose=true, accept_inconsistent=false, rtol=1e-12, atol=0, itmax, memory)\n\nThe default linear solver of `ImplicitFunction`: restarted GMRES on matrix-free products with `∂c/∂y`, stopping when the residual is at most `atol + rtol·‖b‖` or after `itmax` products (`20m + 100` for `m` unknowns), restarting every `memory` steps (`min(m, 50)`). When it does not converge the result is NaN, with a warning unless `verbose=false`; `accept_inconsistent=true` keeps the least-squares answer instead.\n\n```\njulia> implicit = ImplicitFunction(x -> sqrt.(x), (x, y) -> y .^ 2 .- x; linear_solver=IterativeLinearSolver(verbose=false));\n\njulia> jacobian(implicit, AutoForwardDiff(), [4.0, 16.0])\n2×2 Matrix{Float64}:\n 0.25  0.0\n 0.0   0.125\n```";
    "IterativeLeastSquaresSolver" => least_squares_, false, "    IterativeLeastSquaresSolver()\n\nA linear solver for `ImplicitFunction` that solves `A ẏ = −B ẋ` in the least-squares sense, so the conditions may outnumber the unknowns (an overdetermined but consistent system, such as optimality conditions written twice). `A` is materialized at each point and solved by least squares (a QR factorization); reverse mode applies `A⁺ᵀ`.\n\n```\njulia> implicit = ImplicitFunction(x -> sqrt.(x), (x, y) -> vcat(y .^ 2 .- x, 2 .* (y .^ 2 .- x)); linear_solver=IterativeLeastSquaresSolver());\n\njulia> jacobian(implicit, AutoForwardDiff(), [4.0])\n1×1 Matrix{Float64}:\n 0.25\n```";
    "DirectLinearSolver" => direct_, false, "    DirectLinearSolver(; verbose=true)\n\nA linear solver for `ImplicitFunction` that materializes `∂c/∂y` once per point and factorizes it with faer: a sparse LU when its pattern (traced through the conditions) is sparse and `y` has at least 64 entries, computed with one pushforward per color, a dense LU with partial pivoting otherwise; a singular matrix gives NaN with a warning unless `verbose=false`.\n\n```\njulia> implicit = ImplicitFunction(x -> sqrt.(x), (x, y) -> y .^ 2 .- x; linear_solver=DirectLinearSolver());\n\njulia> jacobian(implicit, AutoReverseDiff(), [4.0, 16.0])\n2×2 Matrix{Float64}:\n 0.25  0.0\n 0.0   0.125\n```";
}
