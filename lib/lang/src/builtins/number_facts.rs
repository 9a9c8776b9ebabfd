//! Facts about numbers and small compositions of the elementwise functions: the limits of the
//! number types (`typemax`, `typemin`, `floatmax`, `floatmin`), value tests (`isinteger`,
//! `isone`, `isreal`, `isless`), their bits (`bitstring`), and `fma`, `copysign`, `sincos`,
//! built from the operators so they differentiate like the expressions they stand for.

use super::{call_named, to_float, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::types::{Prim, Type};
use crate::value::convert::operand;
use crate::value::Value;
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_syntax::BinOp;
use std::rc::Rc;

/// `Int64` or `Float64` (the default) named by a type argument, if one is given.
fn number_type(args: &Args, name: &str) -> Result<bool, Flow> {
    args.arity(name, 0, 1)?;
    match args.pos.first() {
        None => Ok(false),
        Some(Value::Builtin(b)) if matches!(b.name, "Float64") => Ok(false),
        Some(Value::Builtin(b)) if matches!(b.name, "Int" | "Int64") => Ok(true),
        // A number stands for its type, as in Julia (`typemax(1)` is `typemax(Int)`); numbers
        // carrying derivatives are `Real`s over Float64 or Int, and the limit is a constant.
        Some(Value::Int(_)) => Ok(true),
        Some(Value::Float(_)) => Ok(false),
        Some(Value::Real(_)) => Ok(false),
        Some(t) if crate::types::is_derivative_number_type(t) => Ok(false),
        Some(other) => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(::{})",
                crate::display::repr(other)
            ),
        )),
    }
}

fn typemax_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("typemax", 1, 1)?;
    Ok(match number_type(&args, "typemax")? {
        true => Value::Int(i64::MAX),
        false => Value::Float(f64::INFINITY),
    })
}

fn typemin_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("typemin", 1, 1)?;
    Ok(match number_type(&args, "typemin")? {
        true => Value::Int(i64::MIN),
        false => Value::Float(f64::NEG_INFINITY),
    })
}

/// `floatmax`/`floatmin` of `Float64` (the only float type).
fn float_limit(args: &Args, name: &str, limit: f64) -> EvalResult {
    match number_type(args, name)? {
        false => Ok(Value::Float(limit)),
        true => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::Type{{Int64}})"),
        )),
    }
}

fn floatmax_(_: &mut Interp, args: Args) -> EvalResult {
    float_limit(&args, "floatmax", f64::MAX)
}

fn floatmin_(_: &mut Interp, args: Args) -> EvalResult {
    float_limit(&args, "floatmin", f64::MIN_POSITIVE)
}

/// `maxintfloat()`: the largest float below which every integer is exact, 2⁵³.
fn maxintfloat_(_: &mut Interp, args: Args) -> EvalResult {
    float_limit(&args, "maxintfloat", 9_007_199_254_740_992.0)
}

/// A test of one number's value.
fn value_test(args: &Args, name: &str, test: fn(f64) -> bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    Ok(Value::Bool(test(to_float(&args.pos[0], name)?)))
}

fn isinteger_(_: &mut Interp, args: Args) -> EvalResult {
    value_test(&args, "isinteger", |x| x.is_finite() && x.fract() == 0.0)
}

fn isone_(_: &mut Interp, args: Args) -> EvalResult {
    value_test(&args, "isone", |x| x == 1.0)
}

fn isreal_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isreal", 1, 1)?;
    super::math::needs_value(&args.pos[0], "isreal")?;
    Ok(Value::Bool(args.pos[0].is_number()))
}

/// `fma(x, y, z)`: `x * y + z` (differentiated as that expression).
fn fma_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("fma", 3, 3)?;
    let product = interp.binary(BinOp::Mul, false, &args.pos[0], &args.pos[1])?;
    interp.binary(BinOp::Add, false, &product, &args.pos[2])
}

/// `copysign(x, y)`: `|x|` with the sign of `y` (the sign is read from `y`'s value, so its
/// derivative in `y` is zero).
fn copysign_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("copysign", 2, 2)?;
    let magnitude = call_named(interp, "abs", vec![args.pos[0].clone()])?;
    // Under a tracing without values the sign is unknown but depends on nothing: `sign(y)`
    // there is a number without value or dependencies.
    let sign = if crate::value::convert::is_global_traced(&args.pos[1]) {
        call_named(interp, "sign", vec![args.pos[1].clone()])?
    } else {
        let negative = to_float(&args.pos[1], "copysign")?.is_sign_negative();
        Value::Float(if negative { -1.0 } else { 1.0 })
    };
    interp.binary(BinOp::Mul, false, &sign, &magnitude)
}

/// `signbit(x)`: whether the sign bit of `x` is set (true for `-0.0`).
fn signbit_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("signbit", 1, 1)?;
    Ok(Value::Bool(
        to_float(&args.pos[0], "signbit")?.is_sign_negative(),
    ))
}

/// `minmax(a, b)`: `(min(a, b), max(a, b))`, each with its derivatives.
fn minmax_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("minmax", 2, 2)?;
    let lo = call_named(interp, "min", args.pos.clone())?;
    let hi = call_named(interp, "max", args.pos.clone())?;
    Ok(Value::tuple(vec![lo, hi]))
}

/// `muladd(x, y, z)`: `x * y + z` (differentiated as that expression), as `fma` is here.
fn muladd_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("muladd", 3, 3)?;
    let product = interp.binary(BinOp::Mul, false, &args.pos[0], &args.pos[1])?;
    interp.binary(BinOp::Add, false, &product, &args.pos[2])
}

/// The number types `promote` and `promote_type` combine, in promotion order.
fn promotion_rank(t: &Type) -> Option<u8> {
    match t {
        Type::Prim(Prim::Bool) => Some(0),
        Type::Prim(Prim::Int64) => Some(1),
        Type::Prim(Prim::Float64) => Some(2),
        Type::Prim(Prim::Dual) => Some(3),
        _ => None,
    }
}

/// The type Julia promotes `a` and `b` to: the wider number type, else their join.
pub(crate) fn promoted(a: &Type, b: &Type) -> Type {
    match (promotion_rank(a), promotion_rank(b)) {
        (Some(x), Some(y)) if x >= y => a.clone(),
        (Some(_), Some(_)) => b.clone(),
        _ if a == b => a.clone(),
        _ => Type::Prim(Prim::Any),
    }
}

/// The type `a` and `b` promote to: by the user's `promote_rule` methods when one applies,
/// else by the builtin numbers' order.
fn promoted_by_any_rule(interp: &mut Interp, a: &Type, b: &Type) -> Result<Type, Flow> {
    match interp.promote_by_rules(a, b) {
        Some(result) => result,
        None => Ok(promoted(a, b)),
    }
}

/// `promote_rule(T, S)`: `Union{}` (no rule) unless the user defines one
/// (`Base.promote_rule(::Type{Dual}, ::Type{<:Real}) = Dual`).
fn promote_rule_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("promote_rule", 2, 2)?;
    Ok(Value::Type(Rc::new(Type::union(Vec::new()))))
}

/// `promote_type(T, S, …)`: the type values of those types promote to.
fn promote_type_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("promote_type", 1, usize::MAX)?;
    let types = args
        .pos
        .iter()
        .map(|v| {
            Type::from_value(v).ok_or_else(|| {
                fail(
                    ErrorKind::MethodError,
                    format!("no method matching promote_type(::{})", v.type_name()),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut joined = types[0].clone();
    for t in &types[1..] {
        joined = promoted_by_any_rule(interp, &joined, t)?;
    }
    let name = joined.to_string();
    Ok(super::io::type_as_value(joined, &name))
}

/// `Base.promote_eltype(xs...)`: the type the element types of the collections promote to.
fn promote_eltype_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("promote_eltype", 1, usize::MAX)?;
    let eltypes = args
        .pos
        .iter()
        .map(|x| call_named(interp, "eltype", vec![x.clone()]))
        .collect::<Result<Vec<_>, _>>()?;
    promote_type_(interp, Args::positional(eltypes))
}

/// `promote(x, y, …)`: the numbers converted to their common type, as a tuple; by the user's
/// `promote_rule` and `convert` methods when their types have them.
fn promote_(interp: &mut Interp, args: Args) -> EvalResult {
    let mut joined: Option<Type> = None;
    for t in args.pos.iter().map(Type::of) {
        joined = Some(match joined {
            None => t,
            Some(acc) => promoted_by_any_rule(interp, &acc, &t)?,
        });
    }
    let joined = joined.unwrap_or(Type::Prim(Prim::Any));
    let converted = args
        .pos
        .iter()
        .map(|v| match (&joined, v) {
            (Type::Prim(Prim::Float64), Value::Int(_) | Value::Bool(_)) => {
                to_float(v, "promote").map(Value::Float)
            }
            (Type::Prim(Prim::Int64), Value::Bool(b)) => Ok(Value::Int(i64::from(*b))),
            (Type::Prim(Prim::Dual), _) if v.is_number() => {
                call_named(interp, "float", vec![v.clone()])
            }
            (Type::User(_) | Type::UserApplied(..), _) if Type::of(v) != joined => call_named(
                interp,
                "convert",
                vec![crate::eval::methods::type_value(&joined), v.clone()],
            ),
            _ => Ok(v.clone()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::tuple(converted))
}

/// The value of a number, `None` under a tracing without values.
fn value_of(x: &Value, name: &str) -> Result<Option<f64>, Flow> {
    if crate::value::convert::is_global_traced(x) {
        return Ok(None);
    }
    to_float(x, name).map(Some)
}

/// Below this `|πx|`, `sinc` and `cosc` are their Taylor series (exact to rounding there),
/// which also gives their derivatives at zero where the quotients are `0/0`.
const SINC_SERIES_BELOW: f64 = 1e-3;

/// `sinc(x)`: `sin(πx)/(πx)`, and 1 at zero; differentiated as that expression.
fn sinc_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sinc", 1, 1)?;
    let x = &args.pos[0];
    let pi_x = interp.binary(BinOp::Mul, false, x, &Value::Float(std::f64::consts::PI))?;
    if value_of(x, "sinc")?.is_some_and(|v| (std::f64::consts::PI * v).abs() < SINC_SERIES_BELOW) {
        // 1 - y²/6 + y⁴/120 with y = πx.
        return polynomial(
            interp,
            &pi_x,
            &constants(&[1.0, 0.0, -1.0 / 6.0, 0.0, 1.0 / 120.0]),
        );
    }
    let sine = call_named(interp, "sin", vec![pi_x.clone()])?;
    interp.binary(BinOp::Div, false, &sine, &pi_x)
}

/// `cosc(x)`: the derivative of `sinc`, `(cos(πx) - sinc(x))/x`, and 0 at zero.
fn cosc_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("cosc", 1, 1)?;
    let x = &args.pos[0];
    let pi = std::f64::consts::PI;
    if value_of(x, "cosc")?.is_some_and(|v| (pi * v).abs() < SINC_SERIES_BELOW) {
        // The derivative of sinc's series: -π²x/3 + π⁴x³/30 - π⁶x⁵/840.
        let coefficients = [
            0.0,
            -pi.powi(2) / 3.0,
            0.0,
            pi.powi(4) / 30.0,
            0.0,
            -pi.powi(6) / 840.0,
        ];
        return polynomial(interp, x, &constants(&coefficients));
    }
    let pi_x = interp.binary(BinOp::Mul, false, x, &Value::Float(pi))?;
    let cosine = call_named(interp, "cos", vec![pi_x])?;
    let sinc = call_named(interp, "sinc", vec![x.clone()])?;
    let difference = interp.binary(BinOp::Sub, false, &cosine, &sinc)?;
    interp.binary(BinOp::Div, false, &difference, x)
}

/// `Σ cₖ yᵏ` by Horner's rule, differentiated as that expression (in `y` and in the
/// coefficients).
fn polynomial(interp: &mut Interp, y: &Value, coefficients: &[Value]) -> EvalResult {
    let mut terms = coefficients.iter().rev();
    let mut acc = terms.next().cloned().unwrap_or(Value::Float(0.0));
    for c in terms {
        let scaled = interp.binary(BinOp::Mul, false, &acc, y)?;
        acc = interp.binary(BinOp::Add, false, &scaled, c)?;
    }
    Ok(acc)
}

/// Plain coefficients as values.
fn constants(coefficients: &[f64]) -> Vec<Value> {
    coefficients.iter().map(|&c| Value::Float(c)).collect()
}

/// `evalpoly(x, p)`: `p[1] + p[2] x + p[3] x² + …` by Horner's rule.
fn evalpoly_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("evalpoly", 2, 2)?;
    let coefficients = crate::value::iterate::elements(&args.pos[1])?;
    if coefficients.is_empty() {
        return Ok(Value::Int(0));
    }
    polynomial(interp, &args.pos[0], &coefficients)
}

/// The float after `x` (`up`) or before it.
fn adjacent_float(x: f64, up: bool) -> f64 {
    if x.is_nan() || x == if up { f64::INFINITY } else { f64::NEG_INFINITY } {
        return x;
    }
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let away_from_zero = up == (x > 0.0);
    f64::from_bits(if away_from_zero {
        x.to_bits() + 1
    } else {
        x.to_bits() - 1
    })
}

/// `nextfloat(x)` and `prevfloat(x)`: the neighbouring float; a number carrying derivatives
/// is shifted by the same constant (its derivative is 1, as in Julia's AD packages).
fn neighbour(interp: &mut Interp, args: &Args, name: &str, up: bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    let x = &args.pos[0];
    match (x, value_of(x, name)?) {
        (Value::Int(_) | Value::Bool(_), _) => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", x.type_name()),
        )),
        (Value::Float(v), _) => Ok(Value::Float(adjacent_float(*v, up))),
        (_, value) => {
            let shift = value.map_or(0.0, |v| adjacent_float(v, up) - v);
            interp.binary(BinOp::Add, false, x, &Value::Float(shift))
        }
    }
}

fn nextfloat_(interp: &mut Interp, args: Args) -> EvalResult {
    neighbour(interp, &args, "nextfloat", true)
}

fn prevfloat_(interp: &mut Interp, args: Args) -> EvalResult {
    neighbour(interp, &args, "prevfloat", false)
}

/// `fld(x, y)` and `cld(x, y)`: the quotient rounded down or up (`Int` for integers).
fn rounded_quotient(args: &Args, name: &str, up: bool) -> EvalResult {
    args.arity(name, 2, 2)?;
    match (&args.pos[0], &args.pos[1]) {
        (Value::Int(_), Value::Int(0)) => {
            Err(fail(ErrorKind::DivideError, "integer division error"))
        }
        (Value::Int(x), Value::Int(y)) => {
            let (q, r) = (x.wrapping_div(*y), x.wrapping_rem(*y));
            let inexact = r != 0;
            let same_sign = (*x < 0) == (*y < 0);
            Ok(Value::Int(match (inexact, up, same_sign) {
                (true, true, true) => q + 1,
                (true, false, false) => q - 1,
                _ => q,
            }))
        }
        (a, b) => {
            let (Some(x), Some(y)) = (
                operand(a)?.filter(|o| o.scalar),
                operand(b)?.filter(|o| o.scalar),
            ) else {
                return Err(super::math::no_binary_method(name, a, b));
            };
            // Through the primitives, so numbers carrying derivatives and tracers get a
            // rounding's zero derivative (and no dependency).
            let quotient = ops::binary(BinaryFn::Div, x.tensor(), y.tensor())?;
            let rounding = if up { UnaryFn::Ceil } else { UnaryFn::Floor };
            Ok(Value::from_scalar(ops::unary(rounding, &quotient)?))
        }
    }
}

fn fld_(_: &mut Interp, args: Args) -> EvalResult {
    rounded_quotient(&args, "fld", false)
}

fn cld_(_: &mut Interp, args: Args) -> EvalResult {
    rounded_quotient(&args, "cld", true)
}

/// `mod1(x, y)`: the modulus in `(0, y]` rather than `[0, y)`, for 1-based cyclic indices.
/// Plain numbers take Julia's definition (`mod(x, y)`, or `y` when that is zero); numbers
/// carrying derivatives and tracers take `y - mod(-x, y)`, which does not look at the value.
fn mod1_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("mod1", 2, 2)?;
    if args.pos.iter().all(|v| super::plain_number(v).is_some()) {
        let m = call_named(interp, "mod", args.pos.clone())?;
        if to_float(&m, "mod1")? == 0.0 {
            return interp.binary(BinOp::Add, false, &m, &args.pos[1]);
        }
        return Ok(m);
    }
    let negated =
        crate::builtins::value_operators::unary(difflab_syntax::UnaryOp::Neg, false, &args.pos[0])?;
    let m = call_named(interp, "mod", vec![negated, args.pos[1].clone()])?;
    interp.binary(BinOp::Sub, false, &args.pos[1], &m)
}

/// `sincos(x)`: `(sin(x), cos(x))`.
fn sincos_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sincos", 1, 1)?;
    let sine = call_named(interp, "sin", vec![args.pos[0].clone()])?;
    let cosine = call_named(interp, "cos", vec![args.pos[0].clone()])?;
    Ok(Value::tuple(vec![sine, cosine]))
}

/// `sincosd(x)`: `(sind(x), cosd(x))`, the angle in degrees.
fn sincosd_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sincosd", 1, 1)?;
    scaled_sincos(interp, &args.pos[0], std::f64::consts::PI / 180.0)
}

/// `sincospi(x)`: `(sin(πx), cos(πx))`.
fn sincospi_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sincospi", 1, 1)?;
    scaled_sincos(interp, &args.pos[0], std::f64::consts::PI)
}

/// `(sin(scale·x), cos(scale·x))`, differentiated as that expression.
fn scaled_sincos(interp: &mut Interp, x: &Value, scale: f64) -> EvalResult {
    let radians = interp.binary(BinOp::Mul, false, x, &Value::Float(scale))?;
    sine_and_cosine(interp, radians)
}

fn sine_and_cosine(interp: &mut Interp, x: Value) -> EvalResult {
    let sine = call_named(interp, "sin", vec![x.clone()])?;
    let cosine = call_named(interp, "cos", vec![x])?;
    Ok(Value::tuple(vec![sine, cosine]))
}

/// `oneunit(x)`: `one(x)` (difflab's numbers carry no units).
fn oneunit_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("oneunit", 1, 1)?;
    if let Some(unit) = super::cartesian::oneunit(&args.pos[0]) {
        return Ok(unit);
    }
    call_named(interp, "one", vec![args.pos[0].clone()])
}

/// `logdet(A)`: `log(det(A))`, differentiated as that expression (a `DomainError` when the
/// determinant is negative, as Julia's).
fn logdet_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("logdet", 1, 1)?;
    if let Some(f) = super::linalg::decompositions::as_factorization(&args.pos[0]) {
        if let Some(result) = f.logdet(interp) {
            return result;
        }
    }
    if let Some(d) = super::linalg::diagonal::traced_diagonal(&args.pos[0]) {
        return super::linalg::diagonal::logdet(&d);
    }
    let d = call_named(interp, "det", vec![args.pos[0].clone()])?;
    call_named(interp, "log", vec![d])
}

/// `convert(T, x)` for the number types: a plain number goes through `T`'s constructor
/// (`convert(Int, 1.5)` is an `InexactError`); a number carrying derivatives or a tracer
/// converts to itself, as ForwardDiff's and SparseConnectivityTracer's numbers do, so the
/// conversion keeps its dependency.
fn convert_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("convert", 2, 2)?;
    let target = match &args.pos[0] {
        Value::Builtin(b) if matches!(b.name, "Float64" | "Int" | "Int64" | "Bool") => b.name,
        Value::Builtin(b) if matches!(b.name, "Real" | "Number" | "Any") => {
            return Ok(args.pos[1].clone())
        }
        // The type of numbers carrying derivatives: as its constructor (`T(x)`) converts.
        t if crate::types::is_derivative_number_type(t) => {
            return interp.call(t, vec![args.pos[1].clone()])
        }
        // `Vector{Float64}`, `Matrix{Int}`: the array converted element by element, as the
        // type's constructor does.
        array @ Value::Type(ty) if matches!(**ty, crate::types::Type::Applied(..)) => {
            return interp.call(array, vec![args.pos[1].clone()]);
        }
        // `Pair{Float64, Float64}`, `Union{Nothing, Int}`, a user type: Julia's conversions.
        Value::Type(ty) => return crate::eval::methods::convert(ty, args.pos[1].clone()),
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching convert(::{}, ::{})",
                    crate::display::repr(other),
                    args.pos[1].type_name()
                ),
            ))
        }
    };
    match &args.pos[1] {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            let constructor = if target == "Int64" { "Int" } else { target };
            call_named(interp, constructor, vec![args.pos[1].clone()])
        }
        v @ Value::Real(_) => Ok(v.clone()),
        other => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching convert(::{target}, ::{})",
                other.type_name()
            ),
        )),
    }
}

/// `bitstring(x)`: the bits of a number as Julia stores it, most significant first.
fn bitstring_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("bitstring", 1, 1)?;
    Ok(Value::str(match &args.pos[0] {
        Value::Float(x) => format!("{:064b}", x.to_bits()),
        Value::Int(i) => format!("{:064b}", *i as u64),
        Value::Bool(b) => format!("{:08b}", u8::from(*b)),
        Value::Char(c) => format!("{:032b}", u32::from(*c)),
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching bitstring(::{})", other.type_name()),
            ))
        }
    }))
}

crate::builtins! {
    "bitstring" => bitstring_, false, "    bitstring(x)\n\nThe bits of `x` as Julia stores them, most significant first: 64 for a `Float64` (sign, 11 exponent bits, 52 fraction bits) or an `Int`, 8 for a `Bool`.\n\n```\njulia> bitstring(1.0)\n\"0011111111110000000000000000000000000000000000000000000000000000\"\n\njulia> bitstring(-1)[1:4], bitstring(true)\n(\"1111\", \"00000001\")\n```";
    "signbit" => signbit_, false, "    signbit(x)\n\nWhether the sign bit of `x` is set: true for negative numbers and `-0.0`.\n\n```\njulia> signbit(-1.0), signbit(-0.0), signbit(2)\n(true, true, false)\n```";
    "minmax" => minmax_, false, "    minmax(a, b)\n\n`(min(a, b), max(a, b))`.\n\n```\njulia> minmax(3, 1)\n(1, 3)\n```";
    "muladd" => muladd_, false, "    muladd(x, y, z)\n\n`x * y + z` (differentiated as that expression).\n\n```\njulia> muladd(2, 3, 1)\n7\n```";
    "promote_rule" => promote_rule_, false, "    promote_rule(T, S)\n\nThe type values of `T` and `S` promote to, as the user declares it for a number type of their own: `Base.promote_rule(::Type{Dual}, ::Type{<:Real}) = Dual` (with a `Base.convert` method) makes `2 * d` convert `2` and use the method for two `Dual`s, and `promote_type` read it. Without a rule, `Union{}`.\n\n```\njulia> struct Cents <: Real; n::Int; end\n\njulia> Base.promote_rule(::Type{Cents}, ::Type{Int}) = Cents;\n\njulia> Base.convert(::Type{Cents}, x::Int) = Cents(100x);\n\njulia> Base.:+(a::Cents, b::Cents) = Cents(a.n + b.n);\n\njulia> Cents(5) + 1\nCents(105)\n\njulia> promote_type(Int, Cents)\nCents\n```";
    "promote" => promote_, false, "    promote(xs...)\n\nThe numbers converted to their common type (`Bool` < `Int64` < `Float64`), as a tuple.\n\n```\njulia> promote(1, 2.5, true)\n(1.0, 2.5, 1.0)\n```";
    "promote_eltype" => promote_eltype_, false, "    Base.promote_eltype(xs...)\n\nThe type that the element types of the collections `xs` promote to.\n\n```\njulia> Base.promote_eltype([1, 2], [1.5])\nFloat64\n```";
    "promote_type" => promote_type_, false, "    promote_type(T, S, ...)\n\nThe type that values of these types are converted to when they meet in arithmetic.\n\n```\njulia> promote_type(Int, Float64), promote_type(Bool, Int)\n(Float64, Int64)\n```";
    "evalpoly" => evalpoly_, false, "    evalpoly(x, p)\n\nThe polynomial with coefficients `p` (a tuple or vector, constant term first) at `x`, by Horner's rule; differentiable in `x` and in the coefficients.\n\n```\njulia> evalpoly(2, (1, 2, 3))\n17\n```";
    "sinc" => sinc_, false, "    sinc(x)\n\nThe normalized sinc function `sin(πx)/(πx)`, 1 at zero (differentiable everywhere, zero included).\n\n```\njulia> sinc(0.0), sinc(0.5) ≈ 2 / π\n(1.0, true)\n```";
    "cosc" => cosc_, false, "    cosc(x)\n\nThe derivative of `sinc`: `(cos(πx) - sinc(x))/x`, 0 at zero.\n\n```\njulia> cosc(0.0), cosc(1.0)\n(0.0, -1.0)\n```";
    "nextfloat" => nextfloat_, false, "    nextfloat(x)\n\nThe smallest `Float64` greater than `x` (numbers carrying derivatives are shifted by the same amount, with derivative 1).\n\n```\njulia> nextfloat(1.0) - 1.0 == eps(1.0)\ntrue\n```";
    "prevfloat" => prevfloat_, false, "    prevfloat(x)\n\nThe largest `Float64` less than `x`.\n\n```\njulia> prevfloat(1.0) < 1.0 < nextfloat(1.0), prevfloat(0.0) < 0.0\n(true, true)\n```";
    "mod1" => mod1_, false, "    mod1(x, y)\n\nThe modulus after flooring division, in `(0, y]` instead of `[0, y)`: 1-based cyclic indexing, `v[mod1(i, n)]`.\n\n```\njulia> mod1(5, 3), mod1(6, 3), mod1(0, 3)\n(2, 3, 3)\n```";
    "fld" => fld_, false, "    fld(x, y)\n\nThe quotient `x / y` rounded down (an `Int` for integers).\n\n```\njulia> fld(7, 2), fld(-7, 2)\n(3, -4)\n```";
    "cld" => cld_, false, "    cld(x, y)\n\nThe quotient `x / y` rounded up (an `Int` for integers): the number of chunks of `y` covering `x`.\n\n```\njulia> cld(7, 2), cld(-7, 2), cld(8, 2)\n(4, -3, 4)\n```";
    "typemax" => typemax_, false, "    typemax(T)\n\nThe largest value of type `T`: `typemax(Int)` is 2⁶³ - 1 (integer arithmetic wraps around past it), `typemax(Float64)` is `Inf`.\n\n```\njulia> typemax(Int)\n9223372036854775807\n\njulia> typemax(Int) + 1 == typemin(Int)\ntrue\n```";
    "typemin" => typemin_, false, "    typemin(T)\n\nThe smallest value of type `T`: `-2⁶³` for `Int`, `-Inf` for `Float64`.\n\n```\njulia> typemin(Float64)\n-Inf\n```";
    "floatmax" => floatmax_, false, "    floatmax([Float64])\n\nThe largest finite `Float64`.\n\n```\njulia> floatmax()\n1.7976931348623157e308\n```";
    "maxintfloat" => maxintfloat_, false, "    maxintfloat([Float64])\n\nThe largest `Float64` up to which every integer is exactly representable, 2⁵³.\n\n```\njulia> maxintfloat()\n9.007199254740992e15\n\njulia> maxintfloat() + 1 == maxintfloat()\ntrue\n```";
    "floatmin" => floatmin_, false, "    floatmin([Float64])\n\nThe smallest positive normal `Float64`.\n\n```\njulia> floatmin(Float64)\n2.2250738585072014e-308\n```";
    "isinteger" => isinteger_, false, "    isinteger(x)\n\nWhether `x` has an integer value (`2.0` does).\n\n```\njulia> isinteger(2.0), isinteger(2.5)\n(true, false)\n```";
    "isone" => isone_, false, "    isone(x)\n\nWhether `x == 1`.\n\n```\njulia> isone(1.0)\ntrue\n```";
    "isreal" => isreal_, false, "    isreal(x)\n\nWhether `x` is a real number (every difflab number is).\n\n```\njulia> isreal(2)\ntrue\n```";
    "fma" => fma_, false, "    fma(x, y, z)\n\n`x * y + z` (differentiable in all three).\n\n```\njulia> fma(2.0, 3.0, 1.0)\n7.0\n```";
    "copysign" => copysign_, false, "    copysign(x, y)\n\n`|x|` with the sign of `y`.\n\n```\njulia> copysign(2.0, -1.0)\n-2.0\n```";
    "sincosd" => sincosd_, false, "    sincosd(x)\n\n`(sind(x), cosd(x))`: sine and cosine of an angle in degrees.\n\n```\njulia> sincosd(90.0)[1]\n1.0\n```";
    "sincospi" => sincospi_, false, "    sincospi(x)\n\n`(sin(πx), cos(πx))`.\n\n```\njulia> sincospi(0.5)[1]\n1.0\n```";
    "oneunit" => oneunit_, false, "    oneunit(x)\n\nThe one of `x`'s type (`one(x)`: difflab's numbers have no units).\n\n```\njulia> oneunit(2.5)\n1.0\n```";
    "logdet" => logdet_, false, "    logdet(A)\n\nThe logarithm of the determinant, differentiable; a `DomainError` when `det(A) < 0`.\n\n```\njulia> logdet([2.0 0.0; 0.0 3.0]) ≈ log(6)\ntrue\n```";
    "convert" => convert_, false, "    convert(T, x)\n\nConverts the number `x` to `Float64`, `Int` or `Bool` (an `InexactError` when it does not fit); a number carrying derivatives or a tracer stays itself, so the conversion keeps its derivative.\n\n```\njulia> convert(Int, 3.0)\n3\n```";
    "sincos" => sincos_, false, "    sincos(x)\n\n`(sin(x), cos(x))`.\n\n```\njulia> sincos(0.0)\n(0.0, 1.0)\n```";
}
