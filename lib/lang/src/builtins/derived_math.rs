//! Julia's math functions that are other functions in disguise: degrees (`sind`, `asind`,
//! `deg2rad`), multiples of π (`sinpi`, `cospi`, `mod2pi`), the reciprocal and inverse
//! hyperbolic functions (`sech`, `asinh`, `acoth`, ...), `exp10`, `flipsign`, `fld1`, and the
//! real-number views of complex functions (`real`, `imag`, `conj`).
//!
//! On a plain number each is computed directly (degrees and multiples of π reduced exactly, so
//! `sind(30) == 0.5` and `sinpi(1) == 0.0` as in Julia). On anything else (numbers carrying
//! derivatives, tracers, tape values, symbolic nodes) each is the composition of primitives that
//! defines it, so its derivatives and sparsity patterns are those of the formula, without rules
//! of its own.

use super::{call_named, plain_number as plain, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::Value;
use difflab_syntax::BinOp;
use std::f64::consts::PI;

/// One degree in radians.
const DEGREE: f64 = PI / 180.0;

/// One function of one number: `direct` on a plain number, `composed` on anything else.
fn derived(
    interp: &mut Interp,
    args: &Args,
    name: &str,
    direct: fn(f64) -> f64,
    composed: impl FnOnce(&mut Interp, &Value) -> EvalResult,
) -> EvalResult {
    args.arity(name, 1, 1)?;
    match plain(&args.pos[0]) {
        Some(x) => Ok(Value::Float(direct(x))),
        None => composed(interp, &args.pos[0]),
    }
}

/// Julia's `DomainError` for a plain argument outside the function's domain.
fn domain(args: &Args, name: &str, inside: fn(f64) -> bool) -> Result<(), Flow> {
    match args.pos.first().and_then(plain) {
        Some(x) if !x.is_nan() && !inside(x) => Err(fail(
            ErrorKind::DomainError,
            format!(
                "{name} was called with {}, outside its domain",
                crate::show::float(x)
            ),
        )),
        _ => Ok(()),
    }
}

fn times(interp: &mut Interp, x: &Value, c: f64) -> EvalResult {
    interp.binary(BinOp::Mul, false, x, &Value::Float(c))
}

fn reciprocal(interp: &mut Interp, x: &Value) -> EvalResult {
    interp.binary(BinOp::Div, false, &Value::Float(1.0), x)
}

fn of(interp: &mut Interp, name: &str, x: Value) -> EvalResult {
    call_named(interp, name, vec![x])
}

/// `sin` and `cos` of `x` degrees: reduced to within 45° of an axis in exact degree
/// arithmetic, then converted with π/180 in two parts so the product carries no rounding
/// error of its own.
fn degrees_sin_cos(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    let r = x % 360.0;
    let quadrant = (r / 90.0).round();
    let rest = r - 90.0 * quadrant;
    let (hi, lo) = (DEGREE, 2.9486522708701687e-19);
    let y = rest * hi;
    let y_lo = rest.mul_add(hi, -y) + rest * lo;
    let (s, c) = if rest.abs() == 45.0 {
        (0.5f64.sqrt().copysign(rest), 0.5f64.sqrt())
    } else {
        (y.sin() + y.cos() * y_lo, y.cos() - y.sin() * y_lo)
    };
    let (s, c) = match (quadrant as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    };
    // Exact zeros have the signs Julia gives them (`sind(-180.0) == -0.0`, `cosd(90) == 0.0`).
    match (rest == 0.0, quadrant as i64 % 2 == 0) {
        (true, true) => (0.0f64.copysign(x), c),
        (true, false) => (s, 0.0),
        _ => (s, c),
    }
}

/// `sin(πx)` and `cos(πx)`, reduced exactly so integers and halves give exact values.
fn pi_sin_cos(x: f64) -> (f64, f64) {
    let (s, c) = degrees_sin_cos(x * 180.0);
    if (x * 180.0).is_finite() {
        return (s, c);
    }
    // Beyond `f64::MAX / 180` every float is an even integer.
    if x.is_finite() {
        return (0.0f64.copysign(x), 1.0);
    }
    (f64::NAN, f64::NAN)
}

/// `f(factor * x)` for the trigonometric function `f`: degrees (`factor = π/180`) and multiples
/// of π; `direct` computes it on a plain number.
fn scaled(
    interp: &mut Interp,
    args: Args,
    name: &str,
    direct: fn(f64) -> f64,
    (f, factor): (&str, f64),
) -> EvalResult {
    derived(interp, &args, name, direct, |interp, x| {
        let scaled = times(interp, x, factor)?;
        of(interp, f, scaled)
    })
}

/// `tand(x)` on a plain number.
fn tangent_of_degrees(x: f64) -> f64 {
    let (s, c) = degrees_sin_cos(x);
    s / c
}

/// Builtins computed by [`scaled`]: name, the plain computation, the function and the factor.
macro_rules! scaled_trigonometry {
    ($($fname:ident => ($name:literal, $direct:expr, $f:literal, $factor:expr)),* $(,)?) => {
        $(fn $fname(interp: &mut Interp, args: Args) -> EvalResult {
            scaled(interp, args, $name, $direct, ($f, $factor))
        })*
    };
}

scaled_trigonometry!(
    sind_ => ("sind", |x| degrees_sin_cos(x).0, "sin", DEGREE),
    cosd_ => ("cosd", |x| degrees_sin_cos(x).1, "cos", DEGREE),
    tand_ => ("tand", tangent_of_degrees, "tan", DEGREE),
    sinpi_ => ("sinpi", |x| pi_sin_cos(x).0, "sin", PI),
    cospi_ => ("cospi", |x| pi_sin_cos(x).1, "cos", PI),
);

/// `asind`, `acosd`, `atand`: the inverse `f` in degrees.
fn in_degrees(interp: &mut Interp, args: Args, name: &str, f: &str) -> EvalResult {
    args.arity(name, 1, 1)?;
    let radians = of(interp, f, args.pos[0].clone())?;
    times(interp, &radians, 180.0 / PI)
}

/// `1 / f(x)`: `sech`, `csch`, `coth`, `secd`, `cscd`, `cotd`.
fn reciprocal_of(interp: &mut Interp, args: Args, name: &str, f: &str) -> EvalResult {
    args.arity(name, 1, 1)?;
    let y = of(interp, f, args.pos[0].clone())?;
    reciprocal(interp, &y)
}

/// `f(1 / x)`: `asec`, `acsc`, `acot`, `asech`, `acsch`, `acoth`.
fn of_reciprocal(interp: &mut Interp, args: Args, name: &str, f: &str) -> EvalResult {
    args.arity(name, 1, 1)?;
    let inverse = reciprocal(interp, &args.pos[0])?;
    of(interp, f, inverse)
}

/// Builtins that are one helper applied to their name and the function they are built on.
macro_rules! built_on {
    ($($fname:ident => $helper:ident($name:literal, $inner:literal)),* $(,)?) => {
        $(fn $fname(interp: &mut Interp, args: Args) -> EvalResult {
            $helper(interp, args, $name, $inner)
        })*
    };
}

built_on!(
    asind_ => in_degrees("asind", "asin"), acosd_ => in_degrees("acosd", "acos"),
    atand_ => in_degrees("atand", "atan"),
    sech_ => reciprocal_of("sech", "cosh"), csch_ => reciprocal_of("csch", "sinh"),
    coth_ => reciprocal_of("coth", "tanh"), secd_ => reciprocal_of("secd", "cosd"),
    cscd_ => reciprocal_of("cscd", "sind"), cotd_ => reciprocal_of("cotd", "tand"),
    asec_ => of_reciprocal("asec", "acos"), acsc_ => of_reciprocal("acsc", "asin"),
    acot_ => of_reciprocal("acot", "atan"), asech_ => of_reciprocal("asech", "acosh"),
    acsch_ => of_reciprocal("acsch", "asinh"), acoth_ => of_reciprocal("acoth", "atanh"),
);

/// `log(x + sqrt(x² + s))`: `asinh` (`s = 1`) and `acosh` (`s = -1`) on values that are not
/// plain numbers.
fn log_of_hypot(interp: &mut Interp, x: &Value, s: f64) -> EvalResult {
    let square = interp.binary(BinOp::Mul, false, x, x)?;
    let shifted = interp.binary(BinOp::Add, false, &square, &Value::Float(s))?;
    let root = of(interp, "sqrt", shifted)?;
    let sum = interp.binary(BinOp::Add, false, x, &root)?;
    of(interp, "log", sum)
}

fn asinh_(interp: &mut Interp, args: Args) -> EvalResult {
    derived(interp, &args, "asinh", f64::asinh, |interp, x| {
        log_of_hypot(interp, x, 1.0)
    })
}

fn acosh_(interp: &mut Interp, args: Args) -> EvalResult {
    domain(&args, "acosh", |x| x >= 1.0)?;
    derived(interp, &args, "acosh", f64::acosh, |interp, x| {
        log_of_hypot(interp, x, -1.0)
    })
}

fn atanh_(interp: &mut Interp, args: Args) -> EvalResult {
    domain(&args, "atanh", |x| (-1.0..=1.0).contains(&x))?;
    derived(interp, &args, "atanh", f64::atanh, |interp, x| {
        // (log1p(x) - log1p(-x)) / 2
        let minus = times(interp, x, -1.0)?;
        let (up, down) = (of(interp, "log1p", x.clone())?, of(interp, "log1p", minus)?);
        let difference = interp.binary(BinOp::Sub, false, &up, &down)?;
        times(interp, &difference, 0.5)
    })
}

fn exp10_(interp: &mut Interp, args: Args) -> EvalResult {
    derived(
        interp,
        &args,
        "exp10",
        |x| 10f64.powf(x),
        |interp, x| interp.binary(BinOp::Pow, false, &Value::Float(10.0), x),
    )
}

fn deg2rad_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("deg2rad", 1, 1)?;
    times(interp, &args.pos[0], DEGREE)
}

fn rad2deg_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("rad2deg", 1, 1)?;
    times(interp, &args.pos[0], 180.0 / PI)
}

fn mod2pi_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("mod2pi", 1, 1)?;
    call_named(
        interp,
        "mod",
        vec![args.pos[0].clone(), Value::Float(2.0 * PI)],
    )
}

/// `real(x)` and `conj(x)`: a real number is its own real part and conjugate.
fn real_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("real", 1, 1)?;
    Ok(args.pos[0].clone())
}

fn conj_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("conj", 1, 1)?;
    Ok(args.pos[0].clone())
}

/// `imag(x)`: zero, of `x`'s kind of number (a constant: it depends on nothing).
fn imag_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("imag", 1, 1)?;
    Ok(match args.pos[0] {
        Value::Int(_) | Value::Bool(_) => Value::Int(0),
        _ => Value::Float(0.0),
    })
}

/// `flipsign(x, y)`: `-x` when `y`'s sign bit is set, else `x`.
fn flipsign_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("flipsign", 2, 2)?;
    let (x, y) = (&args.pos[0], &args.pos[1]);
    let sign = match plain(y) {
        Some(y) => Value::Float(1f64.copysign(y)),
        None => call_named(interp, "copysign", vec![Value::Float(1.0), y.clone()])?,
    };
    let flipped = interp.binary(BinOp::Mul, false, x, &sign)?;
    // An integer `x` stays an integer.
    match (x, flipped) {
        (Value::Int(_), Value::Float(f)) => Ok(Value::Int(f as i64)),
        (_, flipped) => Ok(flipped),
    }
}

/// `fld1(x, y)`: the flooring quotient that goes with `mod1`, `fld((x - mod1(x, y)) + y, y)`
/// (Julia's order of operations: `x - mod1(x, y)` is an exact multiple of `y`).
fn fld1_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("fld1", 2, 2)?;
    let (x, y) = (&args.pos[0], &args.pos[1]);
    let m = call_named(interp, "mod1", vec![x.clone(), y.clone()])?;
    let multiple = interp.binary(BinOp::Sub, false, x, &m)?;
    let shifted = interp.binary(BinOp::Add, false, &multiple, y)?;
    call_named(interp, "fld", vec![shifted, y.clone()])
}

crate::builtins! {
    "sind" => sind_, false, "    sind(x)\n\nThe sine of `x` degrees, exact at multiples of 30° and 45° where Julia's is.\n\n```\njulia> sind(30), sind(180)\n(0.5, 0.0)\n```";
    "cosd" => cosd_, false, "    cosd(x)\n\nThe cosine of `x` degrees.\n\n```\njulia> cosd(60), cosd(90)\n(0.5, 0.0)\n```";
    "tand" => tand_, false, "    tand(x)\n\nThe tangent of `x` degrees.\n\n```\njulia> tand(45)\n1.0\n```";
    "secd" => secd_, false, "    secd(x)\n\n`1 / cosd(x)`.\n\n```\njulia> secd(60)\n2.0\n```";
    "cscd" => cscd_, false, "    cscd(x)\n\n`1 / sind(x)`.\n\n```\njulia> cscd(30)\n2.0\n```";
    "cotd" => cotd_, false, "    cotd(x)\n\n`1 / tand(x)`.\n\n```\njulia> cotd(45)\n1.0\n```";
    "asind" => asind_, false, "    asind(x)\n\nThe inverse sine, in degrees.\n\n```\njulia> asind(1.0)\n90.0\n```";
    "acosd" => acosd_, false, "    acosd(x)\n\nThe inverse cosine, in degrees.\n\n```\njulia> acosd(0.0)\n90.0\n```";
    "atand" => atand_, false, "    atand(x)\n\nThe inverse tangent, in degrees.\n\n```\njulia> atand(1.0)\n45.0\n```";
    "sinpi" => sinpi_, false, "    sinpi(x)\n\n`sin(πx)`, exact at integers and halves.\n\n```\njulia> sinpi(1), sinpi(0.5)\n(0.0, 1.0)\n```";
    "cospi" => cospi_, false, "    cospi(x)\n\n`cos(πx)`, exact at integers and halves.\n\n```\njulia> cospi(1), cospi(0.5)\n(-1.0, 0.0)\n```";
    "sech" => sech_, false, "    sech(x)\n\nThe hyperbolic secant, `1 / cosh(x)`.\n\n```\njulia> sech(0.0)\n1.0\n```";
    "csch" => csch_, false, "    csch(x)\n\nThe hyperbolic cosecant, `1 / sinh(x)`.\n\n```\njulia> csch(1.0) ≈ 1 / sinh(1.0)\ntrue\n```";
    "coth" => coth_, false, "    coth(x)\n\nThe hyperbolic cotangent, `1 / tanh(x)`.\n\n```\njulia> coth(1.0) ≈ cosh(1.0) / sinh(1.0)\ntrue\n```";
    "asec" => asec_, false, "    asec(x)\n\nThe inverse secant, `acos(1 / x)`.\n\n```\njulia> asec(1.0)\n0.0\n```";
    "acsc" => acsc_, false, "    acsc(x)\n\nThe inverse cosecant, `asin(1 / x)`.\n\n```\njulia> acsc(1.0) ≈ π / 2\ntrue\n```";
    "acot" => acot_, false, "    acot(x)\n\nThe inverse cotangent, `atan(1 / x)`.\n\n```\njulia> acot(1.0) ≈ π / 4\ntrue\n```";
    "asinh" => asinh_, false, "    asinh(x)\n\nThe inverse hyperbolic sine.\n\n```\njulia> asinh(0.0)\n0.0\n```";
    "acosh" => acosh_, false, "    acosh(x)\n\nThe inverse hyperbolic cosine; a `DomainError` below 1.\n\n```\njulia> acosh(1.0)\n0.0\n```";
    "atanh" => atanh_, false, "    atanh(x)\n\nThe inverse hyperbolic tangent; a `DomainError` outside [-1, 1].\n\n```\njulia> atanh(0.0)\n0.0\n```";
    "asech" => asech_, false, "    asech(x)\n\nThe inverse hyperbolic secant, `acosh(1 / x)`.\n\n```\njulia> asech(1.0)\n0.0\n```";
    "acsch" => acsch_, false, "    acsch(x)\n\nThe inverse hyperbolic cosecant, `asinh(1 / x)`.\n\n```\njulia> acsch(1.0) ≈ asinh(1.0)\ntrue\n```";
    "acoth" => acoth_, false, "    acoth(x)\n\nThe inverse hyperbolic cotangent, `atanh(1 / x)`.\n\n```\njulia> acoth(2.0) ≈ atanh(0.5)\ntrue\n```";
    "exp10" => exp10_, false, "    exp10(x)\n\n`10^x`.\n\n```\njulia> exp10(2)\n100.0\n```";
    "deg2rad" => deg2rad_, false, "    deg2rad(x)\n\n`x` degrees in radians.\n\n```\njulia> deg2rad(180) ≈ π\ntrue\n```";
    "rad2deg" => rad2deg_, false, "    rad2deg(x)\n\n`x` radians in degrees.\n\n```\njulia> rad2deg(π)\n180.0\n```";
    "mod2pi" => mod2pi_, false, "    mod2pi(x)\n\n`x` modulo 2π, in [0, 2π).\n\n```\njulia> mod2pi(-π / 2) ≈ 3π / 2\ntrue\n```";
    "real" => real_, false, "    real(x)\n\nThe real part: a real number itself.\n\n```\njulia> real(2.5)\n2.5\n```";
    "imag" => imag_, false, "    imag(x)\n\nThe imaginary part: zero for a real number.\n\n```\njulia> imag(2.5), imag(3)\n(0.0, 0)\n```";
    "conj" => conj_, false, "    conj(x)\n\nThe complex conjugate: a real number itself.\n\n```\njulia> conj(2.5)\n2.5\n```";
    "flipsign" => flipsign_, false, "    flipsign(x, y)\n\n`x` with its sign flipped when `y` is negative (its sign bit set).\n\n```\njulia> flipsign(5, -3), flipsign(-5.0, 2.0)\n(-5, -5.0)\n```";
    "fld1" => fld1_, false, "    fld1(x, y)\n\nThe flooring quotient that goes with `mod1`: `x == (fld1(x, y) - 1) * y + mod1(x, y)`.\n\n```\njulia> fld1(5, 3), fld1(6, 3)\n(2, 2)\n```";
}
