//! SpecialFunctions' functions (`gamma`, `loggamma`, `digamma`, `polygamma`, `erf`, `erfinv`,
//! `besselj`, `airyai`, `ellipk`, `expint`, `sinint`, `beta`, …) and NaNMath's (`NaNMath.log`,
//! `NaNMath.sqrt`, `NaNMath.pow`, …, NaN outside the domain instead of a `DomainError`).
//!
//! The functions of one number are `ad::ops::Special` primitives, so every backend
//! differentiates them; `beta`, `logbeta`, `erf(x, y)`, `expint(ν, x)` and the spherical
//! Bessel functions are formulas of those. Orders and parameters (`besselj(ν, x)`,
//! `gamma(a, x)`) are real and have a NaN derivative, as DiffRules gives them in Julia;
//! `polygamma(m, x)` takes an integer `m`.

use super::math::unary;
use super::{call_named, plain_number, to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand};
use crate::value::Value;
use difflab_ad::ops::special::{BesselKind, Order};
use difflab_ad::ops::{self, BinaryFn, Special, UnaryFn};
use difflab_ad::Tensor;
use difflab_syntax::BinOp;

macro_rules! special_builtins {
    ($($fname:ident => $f:expr),* $(,)?) => {
        $(fn $fname(_: &mut Interp, args: Args) -> EvalResult {
            unary(UnaryFn::Special($f), &args)
        })*
    };
}

special_builtins!(
    digamma_ => Special::Polygamma(0),
    trigamma_ => Special::Polygamma(1), invdigamma_ => Special::InvDigamma,
    erfc_ => Special::Erfc, erfcx_ => Special::Erfcx, logerfc_ => Special::LogErfc,
    erfinv_ => Special::ErfInv, erfcinv_ => Special::ErfcInv,
    besselj0_ => Special::bessel(BesselKind::J, 0.0),
    besselj1_ => Special::bessel(BesselKind::J, 1.0),
    bessely0_ => Special::bessel(BesselKind::Y, 0.0),
    bessely1_ => Special::bessel(BesselKind::Y, 1.0),
    airyai_ => Special::AiryAi, airyaiprime_ => Special::AiryAiPrime,
    airybi_ => Special::AiryBi, airybiprime_ => Special::AiryBiPrime,
    airyaix_ => Special::AiryAix, airyaiprimex_ => Special::AiryAiPrimex,
    airybix_ => Special::AiryBix, airybiprimex_ => Special::AiryBiPrimex,
    ellipk_ => Special::EllipK, ellipe_ => Special::EllipE,
    expinti_ => Special::ExpIntI,
    sinint_ => Special::SinInt, cosint_ => Special::CosInt,
);

/// `f(x)` for the argument at `index`, keeping whether the call was dotted.
fn unary_of(f: Special, args: &Args, index: usize) -> EvalResult {
    let mut one = Args::positional(vec![args.pos[index].clone()]);
    one.dotted = args.dotted;
    unary(UnaryFn::Special(f), &one)
}

/// `gamma(x)`, and the upper incomplete `gamma(a, x)`.
fn gamma_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("gamma", 1, 2)?;
    if args.pos.len() == 1 {
        return unary(UnaryFn::Special(Special::Gamma), &args);
    }
    of_parameter(interp, &args, |_, a| upper_gamma(a, &args))
}

/// `Γ(a, x)` of the second argument.
fn upper_gamma(a: f64, args: &Args) -> EvalResult {
    unary_of(Special::UpperGamma(Order::new(a)), args, 1)
}

/// `loggamma(x)`, and `loggamma(a, x) = log(Γ(a, x))`.
fn loggamma_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("loggamma", 1, 2)?;
    if args.pos.len() == 1 {
        return unary(UnaryFn::Special(Special::LogGamma), &args);
    }
    let upper = of_parameter(interp, &args, |_, a| upper_gamma(a, &args))?;
    call_named(interp, "log", vec![upper])
}

/// `f(x)` for a function of `x` with a real parameter or order (the first argument), which
/// has no derivative in that parameter: where the parameter carries derivatives (or tracers),
/// the result depends on it with a NaN derivative, as ForwardDiff's rules from DiffRules give.
fn of_parameter(
    interp: &mut Interp,
    args: &Args,
    value: impl FnOnce(&mut Interp, f64) -> EvalResult,
) -> EvalResult {
    let parameter = &args.pos[0];
    if let Some(p) = plain_number(parameter) {
        return value(interp, p);
    }
    if operand(parameter)?.is_none_or(|o| !o.scalar) {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "the first argument must be a number, got {}",
                parameter.type_name()
            ),
        ));
    }
    // A tracer without values stands for any parameter: 1 serves for its pattern.
    let value = value(interp, value_of(parameter).unwrap_or(1.0))?;
    // Of the parameter and `x` together: the mixed second derivative is not zero either.
    let both = interp.binary(BinOp::Add, args.dotted, parameter, &args.pos[1])?;
    let mut unknown_args = Args::positional(vec![both]);
    unknown_args.dotted = args.dotted;
    let unknown = unary(UnaryFn::Special(Special::UnknownSlope), &unknown_args)?;
    interp.binary(BinOp::Add, args.dotted, &value, &unknown)
}

/// `expint(x) = E₁(x)`, and `expint(ν, x) = Eᵥ(x) = x^(ν−1)·Γ(1 − ν, x)`.
fn expint_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("expint", 1, 2)?;
    if args.pos.len() == 1 {
        return unary(UnaryFn::Special(Special::ExpInt), &args);
    }
    of_parameter(interp, &args, |interp, nu| {
        expint_of_order(interp, nu, &args)
    })
}

fn expint_of_order(interp: &mut Interp, nu: f64, args: &Args) -> EvalResult {
    let gamma = upper_gamma(1.0 - nu, args)?;
    let power = interp.binary(BinOp::Pow, false, &args.pos[1], &Value::Float(nu - 1.0))?;
    interp.binary(BinOp::Mul, false, &power, &gamma)
}

/// `expintx(x) = eˣ·E₁(x)`, and `expintx(ν, x) = eˣ·Eᵥ(x)`.
fn expintx_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("expintx", 1, 2)?;
    if args.pos.len() == 1 {
        return unary(UnaryFn::Special(Special::ExpIntx), &args);
    }
    let e = of_parameter(interp, &args, |interp, nu| {
        expint_of_order(interp, nu, &args)
    })?;
    let scale = call_named(interp, "exp", vec![args.pos[1].clone()])?;
    interp.binary(BinOp::Mul, false, &scale, &e)
}

/// `erf(x)`, and `erf(x, y) = erf(y) − erf(x)`.
fn erf_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("erf", 1, 2)?;
    if args.pos.len() == 1 {
        return unary(UnaryFn::Special(Special::Erf), &args);
    }
    let (low, high) = (
        unary_of(Special::Erf, &args, 0)?,
        unary_of(Special::Erf, &args, 1)?,
    );
    interp.binary(BinOp::Sub, args.dotted, &high, &low)
}

/// The integer order of `polygamma(m, x)`, within `range`.
fn order(v: &Value, name: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, Flow> {
    let integral = plain_number(v).is_some_and(|x| x.fract() == 0.0);
    if !integral {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "{name} takes an integer order here, got {}",
                plain_number(v).map_or_else(|| v.type_name(), crate::show::float)
            ),
        ));
    }
    let n = to_int(v, name)?;
    if !range.contains(&n) {
        return Err(fail(
            ErrorKind::DomainError,
            format!(
                "{name} is available for orders {}:{}, got {n}",
                range.start(),
                range.end()
            ),
        ));
    }
    Ok(n)
}

fn polygamma_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("polygamma", 2, 2)?;
    let m = order(&args.pos[0], "polygamma", 0..=200)?;
    unary_of(Special::Polygamma(m as u8), &args, 1)
}

/// `besselj(ν, x)`, `bessely`, `besseli`, `besselk` of a real order, and the Bessel
/// functions scaled as SpecialFunctions scales them: `besselix = Iᵥ(x)·e^(−|x|)`,
/// `besselkx = Kᵥ(x)·eˣ`, and for real `x` no scaling of `besseljx` and `besselyx`.
fn bessel_of_order(interp: &mut Interp, args: &Args, name: &str) -> EvalResult {
    args.arity(name, 2, 2)?;
    let kind = match name {
        "besselj" | "besseljx" => BesselKind::J,
        "bessely" | "besselyx" => BesselKind::Y,
        "besseli" | "besselix" => BesselKind::I,
        _ => BesselKind::K,
    };
    let value = of_parameter(interp, args, |_, nu| {
        unary_of(Special::bessel(kind, nu), args, 1)
    })?;
    let x = args.pos[1].clone();
    let exponent = match name {
        "besselix" => {
            let magnitude = call_named(interp, "abs", vec![x])?;
            interp.binary(BinOp::Mul, false, &magnitude, &Value::Float(-1.0))?
        }
        "besselkx" => x,
        _ => return Ok(value),
    };
    let scale = call_named(interp, "exp", vec![exponent])?;
    interp.binary(BinOp::Mul, false, &value, &scale)
}

macro_rules! bessel_builtins {
    ($($fname:ident => $name:literal),* $(,)?) => {
        $(fn $fname(interp: &mut Interp, args: Args) -> EvalResult {
            bessel_of_order(interp, &args, $name)
        })*
    };
}

bessel_builtins!(
    besselj_ => "besselj", bessely_ => "bessely", besseli_ => "besseli", besselk_ => "besselk", besselix_ => "besselix",
    besselkx_ => "besselkx", besseljx_ => "besseljx", besselyx_ => "besselyx",
);

/// `sphericalbesselj(ν, x) = √(π/2x)·Jᵥ₊½(x)` and `sphericalbessely` (1 and 0 at `x = 0`
/// for `j`).
fn spherical_bessel(interp: &mut Interp, args: &Args, kind: BesselKind) -> EvalResult {
    args.arity(
        if kind == BesselKind::J {
            "sphericalbesselj"
        } else {
            "sphericalbessely"
        },
        2,
        2,
    )?;
    let x = &args.pos[1];
    if kind == BesselKind::J && plain_number(x) == Some(0.0) {
        if let Some(nu) = plain_number(&args.pos[0]) {
            return Ok(Value::Float(f64::from(u8::from(nu == 0.0))));
        }
    }
    let cylinder = of_parameter(interp, args, |_, nu| {
        unary_of(Special::bessel(kind, nu + 0.5), args, 1)
    })?;
    let half_pi = Value::Float(std::f64::consts::FRAC_PI_2);
    let ratio = interp.binary(BinOp::Div, false, &half_pi, x)?;
    let scale = call_named(interp, "sqrt", vec![ratio])?;
    interp.binary(BinOp::Mul, false, &scale, &cylinder)
}

fn sphericalbesselj_(interp: &mut Interp, args: Args) -> EvalResult {
    spherical_bessel(interp, &args, BesselKind::J)
}

fn sphericalbessely_(interp: &mut Interp, args: Args) -> EvalResult {
    spherical_bessel(interp, &args, BesselKind::Y)
}

/// `jinc(x) = 2J₁(πx)/(πx)`, 1 at 0: on numbers with derivatives as `J₀(πx) + J₂(πx)`, the
/// same function without the removable singularity.
fn jinc_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("jinc", 1, 1)?;
    let x = &args.pos[0];
    if let Some(x) = plain_number(x) {
        let u = std::f64::consts::PI * x;
        let j1 = Special::bessel(BesselKind::J, 1.0).apply(u);
        return Ok(Value::Float(if x == 0.0 { 1.0 } else { 2.0 * j1 / u }));
    }
    let u = interp.binary(BinOp::Mul, false, &Value::Float(std::f64::consts::PI), x)?;
    let of = |order: f64| {
        unary(
            UnaryFn::Special(Special::bessel(BesselKind::J, order)),
            &Args::positional(vec![u.clone()]),
        )
    };
    let (j0, j2) = (of(0.0)?, of(2.0)?);
    interp.binary(BinOp::Add, false, &j0, &j2)
}

/// `log|B(a, b)| = log|Γ(a)| + log|Γ(b)| − log|Γ(a + b)|`.
fn log_abs_beta(interp: &mut Interp, args: &Args) -> EvalResult {
    let dotted = args.dotted;
    let (a, b) = (&args.pos[0], &args.pos[1]);
    let sum = interp.binary(BinOp::Add, dotted, a, b)?;
    let log_abs_gamma = |v: &Value| {
        let mut one = Args::positional(vec![v.clone()]);
        one.dotted = dotted;
        unary(UnaryFn::Special(Special::LogAbsGamma), &one)
    };
    let (la, lb, lab) = (log_abs_gamma(a)?, log_abs_gamma(b)?, log_abs_gamma(&sum)?);
    let partial = interp.binary(BinOp::Add, dotted, &la, &lb)?;
    interp.binary(BinOp::Sub, dotted, &partial, &lab)
}

fn logbeta_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("logbeta", 2, 2)?;
    log_abs_beta(interp, &args)
}

/// `B(a, b) = Γ(a)Γ(b)/Γ(a + b)`, as `±exp(logbeta(a, b))` with the sign of the gammas.
fn beta_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("beta", 2, 2)?;
    let magnitude = log_abs_beta(interp, &args)?;
    let magnitude = call_named(interp, "exp", vec![magnitude])?;
    let gamma_sign = |x: f64| libm::lgamma_r(x).1 as f64;
    let sign = match (value_of(&args.pos[0]), value_of(&args.pos[1])) {
        (Some(a), Some(b)) => gamma_sign(a) * gamma_sign(b) * gamma_sign(a + b),
        _ => 1.0,
    };
    if sign > 0.0 {
        Ok(magnitude)
    } else {
        interp.binary(BinOp::Mul, false, &magnitude, &Value::Float(-1.0))
    }
}

/// The value of a number of any kind, `None` for arrays and tracers without values.
fn value_of(v: &Value) -> Option<f64> {
    if let Some(x) = plain_number(v) {
        return Some(x);
    }
    let o = operand(v).ok()??;
    let t = o.tensor();
    (o.scalar && !t.is_global_tracer()).then(|| t.primal().first().copied())?
}

/// `(log|Γ(x)|, sign(Γ(x)))`.
fn logabsgamma_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("logabsgamma", 1, 1)?;
    let log_abs = unary(UnaryFn::Special(Special::LogAbsGamma), &args)?;
    let sign = value_of(&args.pos[0]).map_or(1, |x| i64::from(libm::lgamma_r(x).1));
    Ok(Value::tuple(vec![log_abs, Value::Int(sign)]))
}

/// NaNMath's `f(x)`: `f` inside its domain, NaN (with NaN derivatives) outside it.
fn nan_outside(
    interp: &mut Interp,
    args: &Args,
    name: &str,
    inside: fn(f64) -> bool,
) -> EvalResult {
    args.arity(&format!("NaNMath.{name}"), 1, 1)?;
    let v = &args.pos[0];
    match value_of(v) {
        Some(x) if !x.is_nan() && !inside(x) => nan_like(v),
        _ => call_named(interp, name, vec![v.clone()]),
    }
}

/// NaN in place of the number `v`, of the same kind (a dual's partials become NaN too).
fn nan_like(v: &Value) -> EvalResult {
    match operand(v)? {
        Some(o) if !matches!(v, Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {
            let t = ops::binary(BinaryFn::Mul, o.tensor(), &Tensor::scalar(f64::NAN))?;
            Ok(from_tensor(t, ElType::Float64, true))
        }
        _ => Ok(Value::Float(f64::NAN)),
    }
}

macro_rules! nanmath_builtins {
    ($($fname:ident => $name:literal, $inside:expr);* $(;)?) => {
        $(fn $fname(interp: &mut Interp, args: Args) -> EvalResult {
            nan_outside(interp, &args, $name, $inside)
        })*
    };
}

nanmath_builtins!(
    nan_sqrt => "sqrt", |x| x >= 0.0;
    nan_log => "log", |x| x >= 0.0;
    nan_log2 => "log2", |x| x >= 0.0;
    nan_log10 => "log10", |x| x >= 0.0;
    nan_log1p => "log1p", |x| x >= -1.0;
    nan_sin => "sin", |x| x.is_finite();
    nan_cos => "cos", |x| x.is_finite();
    nan_tan => "tan", |x| x.is_finite();
    nan_asin => "asin", |x| x.abs() <= 1.0;
    nan_acos => "acos", |x| x.abs() <= 1.0;
    nan_acosh => "acosh", |x| x >= 1.0;
    nan_atanh => "atanh", |x| x.abs() <= 1.0;
    nan_lgamma => "lgamma", |_| true;
);

/// `NaNMath.pow(x, y)`: NaN for a negative base to a non-integer power.
fn nan_pow(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("NaNMath.pow", 2, 2)?;
    let (x, y) = (&args.pos[0], &args.pos[1]);
    match (value_of(x), value_of(y)) {
        (Some(b), Some(e)) if b < 0.0 && e.fract() != 0.0 => nan_like(x),
        _ => interp.binary(BinOp::Pow, false, x, y),
    }
}

/// `NaNMath.max`/`NaNMath.min`: a NaN argument is ignored.
fn nan_extremum(interp: &mut Interp, args: &Args, name: &str) -> EvalResult {
    args.arity(&format!("NaNMath.{name}"), 2, 2)?;
    let (x, y) = (&args.pos[0], &args.pos[1]);
    match (value_of(x), value_of(y)) {
        (Some(a), _) if a.is_nan() => Ok(y.clone()),
        (_, Some(b)) if b.is_nan() => Ok(x.clone()),
        _ => call_named(interp, name, vec![x.clone(), y.clone()]),
    }
}

fn nan_max(interp: &mut Interp, args: Args) -> EvalResult {
    nan_extremum(interp, &args, "max")
}

fn nan_min(interp: &mut Interp, args: Args) -> EvalResult {
    nan_extremum(interp, &args, "min")
}

/// `lgamma(x)`: `log|Γ(x)|` (SpecialFunctions' older name; `loggamma` refuses negative gammas).
fn lgamma_(_: &mut Interp, args: Args) -> EvalResult {
    unary(UnaryFn::Special(Special::LogAbsGamma), &args)
}

crate::builtins! {
    "gamma" => gamma_, true, "    gamma(x)\n    gamma(a, x)\n\nThe gamma function `Γ(x)` (`Γ(n) = (n − 1)!`), a `DomainError` at its poles, differentiable: `Γ′ = Γ·ψ`; and the upper incomplete gamma function `Γ(a, x) = ∫ₓ^∞ t^(a−1)e^(−t) dt` for `x ≥ 0`, differentiable in `x` (its derivative in `a` is NaN, as DiffRules gives it).\n\n```\njulia> gamma(5.0)\n24.0\n```";
    "loggamma" => loggamma_, true, "    loggamma(x)\n    loggamma(a, x)\n\n`log(Γ(x))`, or `log(Γ(a, x))`, without overflow for large `x`; a `DomainError` where `Γ(x) < 0` (use `logabsgamma`). Differentiable: its derivative is `digamma`.\n\n```\njulia> loggamma(100.0)\n359.13420536957545\n```";
    "lgamma" => lgamma_, true, "    lgamma(x)\n\n`log|Γ(x)|`, the older name kept by NaNMath and C.\n\n```\njulia> lgamma(-0.5)\n1.2655121234846454\n```";
    "logabsgamma" => logabsgamma_, false, "    logabsgamma(x)\n\nThe tuple `(log|Γ(x)|, sign(Γ(x)))`.\n\n```\njulia> logabsgamma(-0.5)\n(1.2655121234846454, -1)\n```";
    "digamma" => digamma_, true, "    digamma(x)\n\n`ψ(x) = Γ′(x)/Γ(x)`; its derivative is `trigamma`.\n\n```\njulia> digamma(1.0)\n-0.5772156649015328\n```";
    "trigamma" => trigamma_, true, "    trigamma(x)\n\n`ψ′(x)`, the derivative of `digamma`.\n\n```\njulia> trigamma(1.0)\n1.6449340668482264\n```";
    "polygamma" => polygamma_, false, "    polygamma(m, x)\n\n`ψ⁽ᵐ⁾(x)`, the `m`-th derivative of `digamma` (`m` an integer from 0 to 200).\n\n```\njulia> polygamma(2, 1.0)\n-2.404113806319187\n```";
    "invdigamma" => invdigamma_, true, "    invdigamma(y)\n\nThe `x` with `digamma(x) == y`.\n\n```\njulia> invdigamma(digamma(3.0)) ≈ 3.0\ntrue\n```";
    "erf" => erf_, true, "    erf(x)\n    erf(x, y)\n\nThe error function `2/√π ∫₀ˣ exp(−t²) dt`; `erf(x, y) = erf(y) − erf(x)`. Differentiable: `erf′(x) = 2/√π·exp(−x²)`.\n\n```\njulia> erf(1.0)\n0.8427007929497149\n```";
    "erfc" => erfc_, true, "    erfc(x)\n\n`1 − erf(x)`, accurate where it is tiny.\n\n```\njulia> erfc(10.0)\n2.088487583762545e-45\n```";
    "erfcx" => erfcx_, true, "    erfcx(x)\n\nThe scaled complementary error function `exp(x²)·erfc(x)`, finite for large `x`.\n\n```\njulia> erfcx(30.0)\n0.018795888861416758\n```";
    "logerfc" => logerfc_, true, "    logerfc(x)\n\n`log(erfc(x))` without underflow.\n\n```\njulia> logerfc(30.0)\n-903.9741171106439\n```";
    "erfinv" => erfinv_, true, "    erfinv(y)\n\nThe inverse of `erf` on `[−1, 1]`.\n\n```\njulia> erf(erfinv(0.3))\n0.3\n```";
    "erfcinv" => erfcinv_, true, "    erfcinv(y)\n\nThe inverse of `erfc` on `[0, 2]`, accurate for tiny `y`.\n\n```\njulia> erfcinv(1.0)\n0.0\n```";
    "besselj0" => besselj0_, true, "    besselj0(x)\n\nThe Bessel function of the first kind of order 0; its derivative is `−besselj1(x)`.\n\n```\njulia> besselj0(0.0)\n1.0\n```";
    "besselj1" => besselj1_, true, "    besselj1(x)\n\nThe Bessel function of the first kind of order 1.\n\n```\njulia> besselj1(1.0)\n0.4400505857449335\n```";
    "bessely0" => bessely0_, true, "    bessely0(x)\n\nThe Bessel function of the second kind of order 0 (`x ≥ 0`).\n\n```\njulia> bessely0(1.0)\n0.08825696421567697\n```";
    "bessely1" => bessely1_, true, "    bessely1(x)\n\nThe Bessel function of the second kind of order 1 (`x ≥ 0`).\n\n```\njulia> bessely1(1.0)\n-0.7812128213002887\n```";
    "besselj" => besselj_, false, "    besselj(ν, x)\n\nThe Bessel function of the first kind of real order `ν` (NaN, a `DomainError`, for `x < 0` and a non-integer order); differentiable in `x`: `J′ᵥ = (Jᵥ₋₁ − Jᵥ₊₁)/2`; its derivative in `ν` is NaN, as DiffRules gives it.\n\n```\njulia> besselj(2, 1.0)\n0.11490348493190049\n```";
    "bessely" => bessely_, false, "    bessely(ν, x)\n\nThe Bessel function of the second kind of real order `ν` (`x ≥ 0`).\n\n```\njulia> bessely(2, 1.0)\n-1.6506826068162543\n```";
    "besseli" => besseli_, false, "    besseli(ν, x)\n\nThe modified Bessel function of the first kind of real order `ν`; differentiable in `x`: `I′ᵥ = (Iᵥ₋₁ + Iᵥ₊₁)/2`.\n\n```\njulia> besseli(3, 2.5)\n0.47437040877803566\n```";
    "besselk" => besselk_, false, "    besselk(ν, x)\n\nThe modified Bessel function of the second kind of real order `ν` (`x ≥ 0`); `K′ᵥ = −(Kᵥ₋₁ + Kᵥ₊₁)/2`.\n\n```\njulia> besselk(3, 2.5)\n0.26822714639344925\n```";
    "besselix" => besselix_, false, "    besselix(n, x)\n\n`besseli(n, x)·exp(−|x|)`.\n\n```\njulia> besselix(0, 0.0)\n1.0\n```";
    "besselkx" => besselkx_, false, "    besselkx(n, x)\n\n`besselk(n, x)·exp(x)`.\n\n```\njulia> besselkx(1, 1.0) ≈ besselk(1, 1.0) * exp(1.0)\ntrue\n```";
    "besseljx" => besseljx_, false, "    besseljx(n, x)\n\n`besselj(n, x)`, scaled by `exp(−|imag(x)|)`: for real `x` the same function.\n\n```\njulia> besseljx(1, 1.0) == besselj(1, 1.0)\ntrue\n```";
    "besselyx" => besselyx_, false, "    besselyx(n, x)\n\n`bessely(n, x)`, scaled by `exp(−|imag(x)|)`: for real `x` the same function.\n\n```\njulia> besselyx(1, 1.0) == bessely(1, 1.0)\ntrue\n```";
    "sphericalbesselj" => sphericalbesselj_, false, "    sphericalbesselj(ν, x)\n\nThe spherical Bessel function of the first kind, `√(π/2x)·besselj(ν + 1/2, x)`.\n\n```\njulia> sphericalbesselj(0, 1.0) ≈ sin(1.0)\ntrue\n```";
    "sphericalbessely" => sphericalbessely_, false, "    sphericalbessely(ν, x)\n\nThe spherical Bessel function of the second kind, `√(π/2x)·bessely(ν + 1/2, x)`.\n\n```\njulia> sphericalbessely(0, 1.0) ≈ -cos(1.0)\ntrue\n```";
    "jinc" => jinc_, false, "    jinc(x)\n\n`2J₁(πx)/(πx)`, 1 at 0 (the Fourier transform of a disc); differentiable at 0 too.\n\n```\njulia> jinc(0.0)\n1.0\n```";
    "airyaix" => airyaix_, true, "    airyaix(x)\n\n`airyai(x)·exp(⅔x^{3/2})` for `x ≥ 0`, finite where `airyai` underflows.\n\n```\njulia> airyaix(100.0)\n0.08919692093633044\n```";
    "airyaiprimex" => airyaiprimex_, true, "    airyaiprimex(x)\n\n`airyaiprime(x)·exp(⅔x^{3/2})` for `x ≥ 0`.\n\n```\njulia> airyaiprimex(100.0)\n-0.8921920625040315\n```";
    "airybix" => airybix_, true, "    airybix(x)\n\n`airybi(x)·exp(−⅔x^{3/2})` (unscaled left of zero), finite where `airybi` overflows.\n\n```\njulia> airybix(100.0)\n0.1784310111708354\n```";
    "airybiprimex" => airybiprimex_, true, "    airybiprimex(x)\n\n`airybiprime(x)·exp(−⅔x^{3/2})` (unscaled left of zero).\n\n```\njulia> airybiprimex(100.0)\n1.7838637549628091\n```";
    "airyai" => airyai_, true, "    airyai(x)\n\nThe Airy function `Ai(x)`; its derivative is `airyaiprime`.\n\n```\njulia> airyai(0.0)\n0.3550280538878172\n```";
    "airyaiprime" => airyaiprime_, true, "    airyaiprime(x)\n\n`Ai′(x)`; its derivative is `x·Ai(x)`.\n\n```\njulia> airyaiprime(0.0)\n-0.2588194037928068\n```";
    "airybi" => airybi_, true, "    airybi(x)\n\nThe Airy function `Bi(x)`.\n\n```\njulia> airybi(0.0)\n0.6149266274460007\n```";
    "airybiprime" => airybiprime_, true, "    airybiprime(x)\n\n`Bi′(x)`; its derivative is `x·Bi(x)`.\n\n```\njulia> airybiprime(0.0)\n0.4482883573538264\n```";
    "ellipk" => ellipk_, true, "    ellipk(m)\n\nThe complete elliptic integral of the first kind, `K(m) = ∫₀^{π/2} dθ/√(1 − m sin²θ)` (`m ≤ 1`).\n\n```\njulia> ellipk(0.0)\n1.5707963267948966\n```";
    "ellipe" => ellipe_, true, "    ellipe(m)\n\nThe complete elliptic integral of the second kind, `E(m) = ∫₀^{π/2} √(1 − m sin²θ) dθ` (`m ≤ 1`).\n\n```\njulia> ellipe(1.0)\n1.0\n```";
    "expint" => expint_, true, "    expint(x)\n    expint(ν, x)\n\nThe exponential integral `E₁(x) = ∫₁^∞ exp(−xt)/t dt`, and `Eᵥ(x) = ∫₁^∞ exp(−xt)/tᵛ dt = x^(ν−1)·Γ(1 − ν, x)` (`x ≥ 0`).\n\n```\njulia> expint(1.0)\n0.2193839343955205\n```";
    "expintx" => expintx_, true, "    expintx(x)\n    expintx(ν, x)\n\n`exp(x)·E₁(x)`, finite for large `x`, and `exp(x)·Eᵥ(x)`.\n\n```\njulia> expintx(10.0)\n0.09156333393978812\n```";
    "expinti" => expinti_, true, "    expinti(x)\n\nThe exponential integral `Ei(x) = −∫₋ₓ^∞ exp(−t)/t dt`; its derivative is `exp(x)/x`.\n\n```\njulia> expinti(1.0)\n1.895117816355937\n```";
    "sinint" => sinint_, true, "    sinint(x)\n\nThe sine integral `Si(x) = ∫₀ˣ sin(t)/t dt`.\n\n```\njulia> sinint(1.0)\n0.946083070367183\n```";
    "cosint" => cosint_, true, "    cosint(x)\n\nThe cosine integral `Ci(x) = γ + log(x) + ∫₀ˣ (cos(t) − 1)/t dt` (`x > 0`).\n\n```\njulia> cosint(1.0)\n0.33740392290096816\n```";
    "beta" => beta_, false, "    beta(a, b)\n\nThe beta function `Γ(a)Γ(b)/Γ(a + b)`, differentiable in both arguments.\n\n```\njulia> beta(2.0, 3.0)\n0.08333333333333333\n```";
    "logbeta" => logbeta_, false, "    logbeta(a, b)\n\n`log|B(a, b)|`.\n\n```\njulia> logbeta(2.0, 3.0)\n-2.4849066497880004\n```";
    "NaNMath.sqrt" => nan_sqrt, false, "    NaNMath.sqrt(x)\n\n`sqrt(x)`, or NaN for `x < 0` where `sqrt` raises a `DomainError`. The other functions of NaNMath are the same: `NaNMath.log`, `log2`, `log10`, `log1p`, `sin`, `cos`, `tan`, `asin`, `acos`, `acosh`, `atanh`, `lgamma`, `pow`, `max`, `min` (the last two ignore a NaN argument).\n\n```\njulia> NaNMath.sqrt(-1.0)\nNaN\n```";
    "NaNMath.log" => nan_log, false, "    NaNMath.log(x)\n\n`log(x)`, or NaN for `x < 0`.\n\n```\njulia> NaNMath.log(-1.0)\nNaN\n```";
    "NaNMath.log2" => nan_log2, false, "    NaNMath.log2(x)\n\n`log2(x)`, or NaN for `x < 0`.\n\n```\njulia> NaNMath.log2(8.0)\n3.0\n```";
    "NaNMath.log10" => nan_log10, false, "    NaNMath.log10(x)\n\n`log10(x)`, or NaN for `x < 0`.\n\n```\njulia> NaNMath.log10(-1.0)\nNaN\n```";
    "NaNMath.log1p" => nan_log1p, false, "    NaNMath.log1p(x)\n\n`log1p(x)`, or NaN for `x < −1`.\n\n```\njulia> NaNMath.log1p(-2.0)\nNaN\n```";
    "NaNMath.sin" => nan_sin, false, "    NaNMath.sin(x)\n\n`sin(x)`, or NaN for infinite `x`.\n\n```\njulia> NaNMath.sin(Inf)\nNaN\n```";
    "NaNMath.cos" => nan_cos, false, "    NaNMath.cos(x)\n\n`cos(x)`, or NaN for infinite `x`.\n\n```\njulia> NaNMath.cos(Inf)\nNaN\n```";
    "NaNMath.tan" => nan_tan, false, "    NaNMath.tan(x)\n\n`tan(x)`, or NaN for infinite `x`.\n\n```\njulia> NaNMath.tan(-Inf)\nNaN\n```";
    "NaNMath.asin" => nan_asin, false, "    NaNMath.asin(x)\n\n`asin(x)`, or NaN for `|x| > 1`.\n\n```\njulia> NaNMath.asin(2.0)\nNaN\n```";
    "NaNMath.acos" => nan_acos, false, "    NaNMath.acos(x)\n\n`acos(x)`, or NaN for `|x| > 1`.\n\n```\njulia> NaNMath.acos(2.0)\nNaN\n```";
    "NaNMath.acosh" => nan_acosh, false, "    NaNMath.acosh(x)\n\n`acosh(x)`, or NaN for `x < 1`.\n\n```\njulia> NaNMath.acosh(0.5)\nNaN\n```";
    "NaNMath.atanh" => nan_atanh, false, "    NaNMath.atanh(x)\n\n`atanh(x)`, or NaN for `|x| > 1`.\n\n```\njulia> NaNMath.atanh(2.0)\nNaN\n```";
    "NaNMath.lgamma" => nan_lgamma, false, "    NaNMath.lgamma(x)\n\n`log|Γ(x)|`.\n\n```\njulia> NaNMath.lgamma(-0.5)\n1.2655121234846454\n```";
    "NaNMath.pow" => nan_pow, false, "    NaNMath.pow(x, y)\n\n`x^y`, or NaN for a negative `x` and a non-integer `y`.\n\n```\njulia> NaNMath.pow(-8.0, 1 / 3)\nNaN\n```";
    "NaNMath.max" => nan_max, false, "    NaNMath.max(x, y)\n\nThe larger of `x` and `y`, ignoring a NaN.\n\n```\njulia> NaNMath.max(NaN, 2.0)\n2.0\n```";
    "NaNMath.min" => nan_min, false, "    NaNMath.min(x, y)\n\nThe smaller of `x` and `y`, ignoring a NaN.\n\n```\njulia> NaNMath.min(1.0, NaN)\n1.0\n```";
}
