//! Every differentiable builtin of the registry, at random points of its domain: forward
//! mode, reverse mode, a compiled tape, the symbolic backend and central finite differences
//! agree on its first derivatives (and the first four on its second derivatives); the gradient
//! and Hessian patterns of both sparsity detectors contain every nonzero of the dense result;
//! and calling it on a number and broadcasting it over an array raise the same domain errors.
//!
//! The registry is enumerated, not listed by hand: a builtin is numeric in `k` arguments when
//! it maps `k` ordinary floats to a float. A numeric builtin that cannot be differentiated is
//! listed in [`NOT_DIFFERENTIABLE`] with the reason, and the test checks that differentiating
//! it raises an error rather than a number.

use difflab_lang::{Capture, Config, Interp, Source, Value};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::rc::Rc;

/// Builtins that return floats from floats but draw random numbers or read the clock, or
/// return a limit of their argument's type (`typemax(0.5)` is `Inf`, so differences of it are
/// NaN; its derivative, zero, is checked by tests/conformance/sct_*.dl).
const NOT_FUNCTIONS: &[&str] = &[
    "rand", "randn", "time", "sleep", "rand!", "randn!", "typemax", "typemin",
];

/// Statistics of observations, which on one number (one observation) are NaN, as in Julia
/// (`var(1.0)`); tests/scripts/statistics.dl checks their derivatives on vectors.
const NAN_ON_ONE_OBSERVATION: &[&str] = &["var", "std", "cov", "cor"];

/// Numeric builtins without derivatives, and why.
const NOT_DIFFERENTIABLE: &[(&str, &str)] = &[(
    "cond",
    "the condition number needs the derivatives of singular values, which have no rule",
)];

/// Builtins whose derivative is zero by definition while their value follows the argument
/// (finite differences see a slope of one): every backend must give zero and both detectors
/// an empty pattern.
const ZERO_BY_DEFINITION: &[&str] = &["ignore_derivatives", "Zygote.dropgrad"];

/// Two-argument builtins whose first argument is an order or parameter without a derivative:
/// its derivative is NaN, as DiffRules defines it for ForwardDiff. The test checks that, and
/// checks the function of the second argument with the first fixed.
const PARAMETER_FIRST: &[&str] = &[
    "besselj",
    "bessely",
    "besseli",
    "besselk",
    "besseljx",
    "besselyx",
    "besselix",
    "besselkx",
    "sphericalbesselj",
    "sphericalbessely",
    "gamma",
    "loggamma",
    "expint",
    "expintx",
];

/// Numeric builtins whose pattern a tracing without values cannot find, as in
/// SparseConnectivityTracer, and why.
const NEEDS_VALUES: &[(&str, &str)] = &[
    (
        "norm",
        "norm(x, p) compares p with 0 and ∞ to choose the norm, as Julia's does",
    ),
    (
        "median",
        "the middle element is chosen by sorting the values",
    ),
    (
        "normalize",
        "normalize(x, p) divides by norm(x, p), which compares p",
    ),
];

/// Conversions to a plain number type: the local detector's traced numbers refuse them with an
/// `InexactError`, as SparseConnectivityTracer's do (the conversion would drop the dependency).
const REFUSES_LOCAL_TRACERS: &[&str] = &["Float64"];

/// The points (first arguments in `[0.15, 0.85]`, others in `[1.1, 1.9]`, so that `log`,
/// `sqrt`, `asin`, `atan(y, x)`, `x ^ y` and `mod` are all inside their domains and away from
/// kinks such as `max(x, y)` with `x == y`; [`inside_domain`] moves a point that is not).
fn points(arity: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Vec<f64>> {
    (0..4)
        .map(|_| {
            (0..arity)
                .map(|k| {
                    if k == 0 {
                        rng.random_range(0.15..0.85)
                    } else {
                        rng.random_range(1.1..1.9)
                    }
                })
                .collect()
        })
        .collect()
}

struct Lab {
    interp: Interp,
}

impl Lab {
    fn new() -> Lab {
        Lab {
            interp: Interp::new(Config::default(), Box::new(Capture::default())),
        }
    }

    fn eval(&mut self, code: &str) -> Result<Value, String> {
        let program = difflab_syntax::parse(code).map_err(|e| e.message())?;
        let source = Rc::new(Source {
            name: "derivatives_agree".into(),
            text: code.into(),
        });
        self.interp
            .run(&program, source)
            .map_err(|e| format!("{}: {}", e.kind.name(), e.message))
    }

    fn numbers(&mut self, code: &str) -> Result<Vec<f64>, String> {
        match self.eval(code)? {
            Value::Float(x) => Ok(vec![x]),
            Value::Int(i) => Ok(vec![i as f64]),
            Value::Array(a) => Ok(a.borrow().data.to_col_major()),
            other => Err(format!("not numbers: {}", other.type_name())),
        }
    }
}

/// The arities in which `name` maps floats to a float.
fn numeric_arities(lab: &mut Lab, name: &str) -> Vec<usize> {
    (1..=3)
        .filter(|&k| {
            let args: Vec<String> = [0.61, 1.32, 1.77][..k]
                .iter()
                .map(|v| v.to_string())
                .collect();
            matches!(
                lab.eval(&format!("{name}({})", args.join(", "))),
                Ok(Value::Float(_))
            )
        })
        .collect()
}

/// `x`, or `x` with its first coordinate moved from `[0.15, 0.85]` to `[1.15, 1.85]`
/// (`acosh` starts at 1, `log2mexp` ends at log 2), whichever is in the domain of `name`: where
/// its value is a number, not a `DomainError` or NaN. `None` when neither is.
fn inside_domain(
    lab: &mut Lab,
    name: &str,
    parameter: Option<f64>,
    mut x: Vec<f64>,
) -> Option<Vec<f64>> {
    for _ in 0..2 {
        let args: Vec<String> = parameter
            .iter()
            .chain(&x)
            .map(|v| format!("{v:?}"))
            .collect();
        if let Ok(Value::Float(y)) = lab.eval(&format!("{name}({})", args.join(", "))) {
            if !y.is_nan() {
                return Some(x);
            }
        }
        x[0] += 1.0;
    }
    None
}

fn close(a: &[f64], b: &[f64], rtol: f64, atol: f64) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= atol + rtol * x.abs().max(y.abs()))
}

/// The call of `name` on the elements of `v`, as source (after a fixed first argument when
/// `parameter` is given).
fn applied(name: &str, arity: usize, parameter: Option<f64>) -> String {
    let mut args: Vec<String> = (1..=arity).map(|k| format!("v[{k}]")).collect();
    if let Some(p) = parameter {
        args.insert(0, format!("{p:?}"));
    }
    format!("v -> {name}({})", args.join(", "))
}

/// The fixed first argument of a builtin of [`PARAMETER_FIRST`].
const PARAMETER: f64 = 0.7;

/// What is wrong with `name`'s derivatives at `x`, if anything.
fn check_point(
    lab: &mut Lab,
    name: &str,
    arity: usize,
    parameter: Option<f64>,
    x: &[f64],
) -> Vec<String> {
    let mut problems = Vec::new();
    let xs: Vec<String> = x.iter().map(|v| format!("{v:?}")).collect();
    let g = applied(name, arity, parameter);
    let setup = format!("g = {g}; x = [{}];", xs.join(", "));
    if let Err(e) = lab.eval(&setup) {
        return vec![format!("setting up: {e}")];
    }
    let first = [
        ("forward", "gradient(g, AutoForwardDiff(), x)"),
        ("reverse", "gradient(g, AutoReverseDiff(), x)"),
        (
            "compiled tape",
            "b = AutoReverseDiff(compile=true); gradient(g, prepare_gradient(g, b, x), b, x)",
        ),
        (
            "symbolic",
            "b = AutoFastDifferentiation(); gradient(g, prepare_gradient(g, b, x), b, x)",
        ),
    ];
    let reference = match lab.numbers("gradient(g, AutoFiniteDiff(fdtype=:central), x)") {
        Ok(r) => r,
        Err(e) => return vec![format!("finite differences: {e}")],
    };
    for (what, code) in first {
        match lab.numbers(code) {
            Ok(g) if close(&g, &reference, 1e-5, 1e-6) => {}
            Ok(g) => problems.push(format!(
                "{what} gradient {g:?}, finite differences {reference:?}"
            )),
            Err(e) => problems.push(format!("{what} gradient: {e}")),
        }
    }
    let hessians = [
        ("forward over forward", "hessian(g, AutoForwardDiff(), x)"),
        (
            "forward over reverse",
            "hessian(g, SecondOrder(AutoForwardDiff(), AutoReverseDiff()), x)",
        ),
        (
            "symbolic",
            "b = AutoFastDifferentiation(); hessian(g, prepare_hessian(g, b, x), b, x)",
        ),
    ];
    let mut dense_hessian = None;
    for (what, code) in hessians {
        match (lab.numbers(code), &dense_hessian) {
            (Ok(h), None) => dense_hessian = Some(h),
            (Ok(h), Some(r)) if close(&h, r, 1e-9, 1e-10) => {}
            (Ok(h), Some(r)) => {
                problems.push(format!("{what} Hessian {h:?}, forward over forward {r:?}"))
            }
            (Err(e), _) => problems.push(format!("{what} Hessian: {e}")),
        }
    }
    let global_fits = !NEEDS_VALUES.iter().any(|(n, _)| *n == name);
    let detectors: &[&str] = if global_fits {
        &["TracerSparsityDetector()", "TracerLocalSparsityDetector()"]
    } else {
        &["TracerLocalSparsityDetector()"]
    };
    for detector in detectors {
        if *detector == "TracerLocalSparsityDetector()" && REFUSES_LOCAL_TRACERS.contains(&name) {
            match lab.eval(&format!("jacobian_sparsity(v -> [g(v)], x, {detector})")) {
                Err(e) if e.contains("InexactError") => {}
                other => problems.push(format!(
                    "{detector}: expected an InexactError, got {other:?}"
                )),
            }
            continue;
        }
        let pattern = lab.numbers(&format!(
            "Matrix(jacobian_sparsity(v -> [g(v)], x, {detector}))"
        ));
        match pattern {
            Ok(p) => {
                for (k, (&g, &seen)) in reference.iter().zip(&p).enumerate() {
                    if g.abs() > 1e-6 && seen == 0.0 {
                        problems.push(format!("{detector} misses ∂/∂x{} = {g}", k + 1));
                    }
                }
            }
            Err(e) => problems.push(format!("{detector} gradient pattern: {e}")),
        }
        let pattern = lab.numbers(&format!("Matrix(hessian_sparsity(g, x, {detector}))"));
        match (pattern, &dense_hessian) {
            (Ok(p), Some(h)) => {
                for (k, (&hk, &seen)) in h.iter().zip(&p).enumerate() {
                    if hk.abs() > 1e-8 && seen == 0.0 {
                        problems.push(format!("{detector} misses Hessian entry {k} = {hk}"));
                    }
                }
            }
            (Err(e), _) => problems.push(format!("{detector} Hessian pattern: {e}")),
            (Ok(_), None) => {}
        }
    }
    problems
}

/// Special arguments whose scalar call and broadcast must agree (both a value, or both the
/// same error).
const SPECIAL: &[&str] = &["Inf", "-Inf", "-1.0", "0.0", "-0.5", "2.0", "NaN"];

fn check_broadcast(lab: &mut Lab, name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for special in SPECIAL {
        let scalar = lab.eval(&format!("{name}({special})"));
        let broadcast = lab.eval(&format!("({name}).([{special}])[1]"));
        let same = match (&scalar, &broadcast) {
            (Ok(Value::Float(a)), Ok(Value::Float(b))) => {
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
            }
            (Ok(a), Ok(b)) => difflab_lang::display::repr(a) == difflab_lang::display::repr(b),
            (Err(a), Err(b)) => a.split(':').next() == b.split(':').next(),
            _ => false,
        };
        if !same {
            let show = |r: &Result<Value, String>| match r {
                Ok(v) => difflab_lang::display::repr(v),
                Err(e) => e.clone(),
            };
            problems.push(format!(
                "{name}({special}) gives {} but {name}.([{special}]) gives {}",
                show(&scalar),
                show(&broadcast)
            ));
        }
    }
    problems
}

/// The checks of a [`ZERO_BY_DEFINITION`] builtin: zero gradients and Hessians from every
/// backend, empty patterns from both detectors, and its value unchanged.
fn check_zero_by_definition(lab: &mut Lab, name: &str) -> Vec<String> {
    let f = format!("x -> x[1] * {name}(x[2])");
    let mut problems = Vec::new();
    for backend in [
        "AutoForwardDiff()",
        "AutoReverseDiff()",
        "AutoReverseDiff(compile=true)",
        "AutoSymbolics()",
    ] {
        let gradient = lab.numbers(&format!("gradient({f}, {backend}, [0.6, 1.3])"));
        if !matches!(gradient.as_deref(), Ok(&[a, b]) if close(&[a, b], &[1.3, 0.0], 1e-12, 0.0)) {
            problems.push(format!(
                "{name}: {backend} gradient {gradient:?}, not [1.3, 0.0]"
            ));
        }
    }
    let hessian = lab.numbers(&format!(
        "hessian(x -> {name}(x[1])^2 + x[2], SecondOrder(AutoForwardDiff(), AutoReverseDiff()), [0.6, 1.3])"
    ));
    if !matches!(hessian.as_deref(), Ok(h) if h.iter().all(|v| *v == 0.0)) {
        problems.push(format!("{name}: Hessian {hessian:?}, not zero"));
    }
    for detector in ["TracerSparsityDetector()", "TracerLocalSparsityDetector()"] {
        let pattern = lab.numbers(&format!(
            "Matrix(jacobian_sparsity(x -> [{name}(x[1])], [0.6], {detector}))"
        ));
        if !matches!(pattern.as_deref(), Ok([p]) if *p == 0.0) {
            problems.push(format!("{name}: {detector} pattern {pattern:?}, not empty"));
        }
    }
    problems
}

#[test]
fn every_numeric_builtin_has_agreeing_derivatives_and_patterns() {
    let mut lab = Lab::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(20261125);
    let mut failures = Vec::new();
    let mut checked = 0;
    let names: Vec<&str> = difflab_lang::builtins::all()
        .map(|b| b.name)
        .filter(|n| {
            !NOT_FUNCTIONS.contains(n) && !NAN_ON_ONE_OBSERVATION.contains(n) && !n.ends_with('!')
        })
        .collect();
    for name in names {
        for arity in numeric_arities(&mut lab, name) {
            checked += 1;
            let listed = NOT_DIFFERENTIABLE.iter().any(|(n, _)| *n == name);
            if listed {
                if lab
                    .eval(&format!(
                        "gradient({}, AutoForwardDiff(), [0.61, 1.32, 1.77][1:{arity}])",
                        applied(name, arity, None)
                    ))
                    .is_ok()
                {
                    failures.push(format!(
                        "{name}/{arity} is listed as not differentiable but differentiates"
                    ));
                }
                continue;
            }
            if ZERO_BY_DEFINITION.contains(&name) {
                failures.extend(check_zero_by_definition(&mut lab, name));
                continue;
            }
            let parameter = (arity == 2 && PARAMETER_FIRST.contains(&name)).then_some(PARAMETER);
            let arity = arity - usize::from(parameter.is_some());
            if parameter.is_some() {
                let slope = lab.numbers(&format!(
                    "derivative(p -> {name}(p, 1.3), AutoForwardDiff(), {PARAMETER:?})"
                ));
                if !matches!(slope.as_deref(), Ok([d]) if d.is_nan()) {
                    failures.push(format!(
                        "{name}: the derivative in its parameter is {slope:?}, not NaN"
                    ));
                }
            }
            let mut inside = 0;
            for x in points(arity, &mut rng) {
                let Some(x) = inside_domain(&mut lab, name, parameter, x) else {
                    continue;
                };
                inside += 1;
                for problem in check_point(&mut lab, name, arity, parameter, &x) {
                    failures.push(format!("{name}/{arity} at {x:?}: {problem}"));
                }
            }
            if inside == 0 {
                failures.push(format!("{name}/{arity}: no sampled point is in its domain"));
            }
            if arity == 1 {
                failures.extend(check_broadcast(&mut lab, name));
            }
        }
    }
    assert!(checked > 60, "only {checked} numeric builtins found");
    assert!(
        failures.is_empty(),
        "{} problems over {checked} numeric builtins:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
