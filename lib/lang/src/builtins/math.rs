//! Scalar math, applied elementwise with `f.(x)`: `sin`, `exp`, `max`, `clamp`, `isapprox`, ...
//!
//! Every function here delegates to an `ad::ops` primitive ([`UnaryFn`], [`BinaryFn`]), which
//! carries its derivative rules, so everything in this file is differentiable where the
//! mathematics is. Called without a dot on an array, these functions raise Julia's `MethodError`
//! with the hint to broadcast.

use super::{to_float, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand};
use crate::value::Value;
use difflab_ad::ops::{self, BinaryFn, UnaryFn};
use difflab_ad::Tensor;

/// The elementwise primitive behind a builtin name (`sin` → `UnaryFn::Sin`), for fusion.
pub fn unary_fn_of(name: &str) -> Option<UnaryFn> {
    use UnaryFn::*;
    Some(match name {
        "abs" => Abs,
        "abs2" => Abs2,
        "sqrt" => Sqrt,
        "cbrt" => Cbrt,
        "exp" => Exp,
        "exp2" => Exp2,
        "log" => Log,
        "log2" => Log2,
        "log10" => Log10,
        "log1p" => Log1p,
        "expm1" => Expm1,
        "sin" => Sin,
        "cos" => Cos,
        "tan" => Tan,
        "asin" => Asin,
        "acos" => Acos,
        "sinh" => Sinh,
        "cosh" => Cosh,
        "tanh" => Tanh,
        "sigmoid" => Sigmoid,
        "relu" => Relu,
        "softplus" => Softplus,
        _ => return None,
    })
}

/// Applies a unary primitive to a number, or elementwise to an array when broadcast.
pub(crate) fn unary(f: UnaryFn, args: &Args) -> EvalResult {
    args.arity(f.name(), 1, 1)?;
    let v = &args.pos[0];
    if let Some(result) = number_unary(f, v) {
        return result;
    }
    let Some(x) = operand(v)? else {
        return Err(no_method(f.name(), v));
    };
    if f == UnaryFn::Exp && !args.dotted && matches!(x.tensor().shape(), [m, n] if m == n) {
        if let Some(d) = super::linalg::diagonal::traced_diagonal(v) {
            return super::linalg::diagonal::entrywise(&d, UnaryFn::Exp);
        }
        let t = super::linalg::matrix_functions::matrix_exp(x.tensor())?;
        return Ok(from_tensor(t, ElType::Float64, false));
    }
    if !x.scalar && !args.dotted {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {}(::{}); to apply it elementwise, broadcast: {}.(x)",
                f.name(),
                v.type_name(),
                f.name()
            ),
        ));
    }
    let eltype = if x.eltype != ElType::Float64 && keeps_int(f) {
        ElType::Int64
    } else {
        ElType::Float64
    };
    let t = ops::unary(f, x.tensor())?;
    Ok(from_tensor(t, eltype, x.scalar))
}

/// `f(x)` on a plain number (`Float64`, `Int`, `Bool`), or `None` for any other value.
pub(crate) fn number_unary(f: UnaryFn, v: &Value) -> Option<EvalResult> {
    Some(match v {
        Value::Float(x) => scalar_unary(f, *x).map(Value::Float),
        Value::Int(i) if keeps_int(f) => Ok(Value::Int(int_unary(f, *i))),
        Value::Int(i) => scalar_unary(f, *i as f64).map(Value::Float),
        Value::Bool(b) => scalar_unary(f, f64::from(u8::from(*b))).map(Value::Float),
        _ => return None,
    })
}

/// `f(x)` on a number: outside the domain (the same check as on arrays, so `sqrt(-1.0)` and
/// `sqrt.([-1.0])` raise the same error), or where it would give NaN from a number, a
/// `DomainError`.
fn scalar_unary(f: UnaryFn, x: f64) -> Result<f64, Flow> {
    let y = f.apply(x);
    if !f.in_domain(x) || (y.is_nan() && !x.is_nan()) {
        return Err(difflab_ad::AdError::Domain {
            function: f.name(),
            value: x,
        }
        .into());
    }
    Ok(y)
}

/// Functions whose value on an `Int` is an `Int` in Julia.
fn keeps_int(f: UnaryFn) -> bool {
    matches!(
        f,
        UnaryFn::Abs | UnaryFn::Abs2 | UnaryFn::Sign | UnaryFn::Neg
    )
}

fn int_unary(f: UnaryFn, i: i64) -> i64 {
    match f {
        UnaryFn::Abs => i.wrapping_abs(),
        UnaryFn::Abs2 => i.wrapping_mul(i),
        UnaryFn::Sign => i.signum(),
        _ => i.wrapping_neg(),
    }
}

fn no_method(name: &str, v: &Value) -> Flow {
    fail(
        ErrorKind::MethodError,
        format!("no method matching {name}(::{})", v.type_name()),
    )
}

/// The `MethodError` of `name(a, b)`.
pub(crate) fn no_binary_method(name: &str, a: &Value, b: &Value) -> Flow {
    fail(
        ErrorKind::MethodError,
        format!(
            "no method matching {name}(::{}, ::{})",
            a.type_name(),
            b.type_name()
        ),
    )
}

/// Applies a binary primitive with broadcasting (scalars, or arrays when dotted).
fn binary(f: BinaryFn, name: &str, a: &Value, b: &Value, dotted: bool) -> EvalResult {
    if let (Some(x), Some(y)) = (plain_number(a), plain_number(b)) {
        if f != BinaryFn::Pow {
            return scalar_binary(f, x, y);
        }
    }
    let (Some(x), Some(y)) = (operand(a)?, operand(b)?) else {
        return Err(no_binary_method(name, a, b));
    };
    let elementwise = dotted || (x.scalar && y.scalar);
    if !elementwise {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(::{}, ::{}); to apply it elementwise, broadcast: {name}.(x, y)",
                a.type_name(),
                b.type_name()
            ),
        ));
    }
    let int = integer_result(f, x.eltype, y.eltype);
    if int
        && matches!(f, BinaryFn::Mod | BinaryFn::Rem)
        && y.tensor().primal().iter().any(|&d| d == 0.0)
    {
        return Err(fail(ErrorKind::DivideError, "integer division error"));
    }
    let t = ops::binary(f, x.tensor(), y.tensor())?;
    let eltype = if int { ElType::Int64 } else { ElType::Float64 };
    Ok(from_tensor(t, eltype, x.scalar && y.scalar))
}

/// Whether `f` of operands of these element types gives an integer: `max`, `min`, `mod` and
/// `rem` of integers (or `Bool`s); every other function gives a `Float64`.
fn integer_result(f: BinaryFn, a: ElType, b: ElType) -> bool {
    a != ElType::Float64
        && b != ElType::Float64
        && matches!(
            f,
            BinaryFn::Max | BinaryFn::Min | BinaryFn::Mod | BinaryFn::Rem
        )
}

/// A number the evaluator holds unboxed, with its element type.
fn plain_number(v: &Value) -> Option<(f64, ElType)> {
    match v {
        Value::Int(i) => Some((*i as f64, ElType::Int64)),
        Value::Float(x) => Some((*x, ElType::Float64)),
        Value::Bool(b) => Some((f64::from(u8::from(*b)), ElType::Bool)),
        _ => None,
    }
}

/// [`binary`] of two plain numbers without making arrays of them: the same value and element
/// type as the elementwise kernel gives (powers, with their domain check, take that path).
fn scalar_binary(f: BinaryFn, (x, ex): (f64, ElType), (y, ey): (f64, ElType)) -> EvalResult {
    let int = integer_result(f, ex, ey);
    if int && matches!(f, BinaryFn::Mod | BinaryFn::Rem) && y == 0.0 {
        return Err(fail(ErrorKind::DivideError, "integer division error"));
    }
    let r = f.apply(x, y);
    Ok(if int {
        Value::Int(r as i64)
    } else {
        Value::Float(r)
    })
}

macro_rules! unary_builtins {
    ($($fname:ident => $op:ident),* $(,)?) => {
        $(fn $fname(_: &mut Interp, args: Args) -> EvalResult { unary(UnaryFn::$op, &args) })*
    };
}

unary_builtins!(
    abs_ => Abs, abs2_ => Abs2, sqrt_ => Sqrt, cbrt_ => Cbrt, exp_ => Exp, exp2_ => Exp2,
    natural_log => Log, log2_ => Log2, log10_ => Log10, log1p_ => Log1p, expm1_ => Expm1,
    sin_ => Sin, cos_ => Cos, tan_ => Tan, asin_ => Asin, acos_ => Acos,
    sinh_ => Sinh, cosh_ => Cosh, tanh_ => Tanh, sec_ => Sec, csc_ => Csc, cot_ => Cot,
    sign_ => Sign, sigmoid_ => Sigmoid, relu_ => Relu, softplus_ => Softplus,
);

/// `log(x)`, and `log(b, x)`: the logarithm of `x` in base `b`, `log(x) / log(b)`.
fn log_(interp: &mut Interp, args: Args) -> EvalResult {
    let [base, x] = args.pos.as_slice() else {
        return natural_log(interp, args);
    };
    let dotted = args.dotted;
    let of = |v: &Value| {
        let mut one = Args::positional(vec![v.clone()]);
        one.dotted = dotted;
        unary(UnaryFn::Log, &one)
    };
    let (log_x, log_base) = (of(x)?, of(base)?);
    binary(BinaryFn::Div, "log", &log_x, &log_base, dotted)
}

fn inv_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("inv", 1, 1)?;
    match &args.pos[0] {
        Value::Array(a) if a.borrow().data.shape().len() == 2 => {
            let inverse = super::linalg::inv_matrix(interp, &args.pos[0])?;
            Ok(super::linalg::diagonal::keep_unary(&args.pos[0], inverse))
        }
        _ => unary(UnaryFn::Inv, &args),
    }
}

fn atan_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("atan", 1, 2)?;
    if args.pos.len() == 2 {
        return binary(
            BinaryFn::Atan2,
            "atan",
            &args.pos[0],
            &args.pos[1],
            args.dotted,
        );
    }
    unary(UnaryFn::Atan, &args)
}

fn max_(interp: &mut Interp, args: Args) -> EvalResult {
    if let Some(result) = super::cartesian::extremum(&args.pos, true) {
        return result;
    }
    fold_binary(interp, BinaryFn::Max, "max", args)
}

fn min_(interp: &mut Interp, args: Args) -> EvalResult {
    if let Some(result) = super::cartesian::extremum(&args.pos, false) {
        return result;
    }
    fold_binary(interp, BinaryFn::Min, "min", args)
}

fn fold_binary(interp: &mut Interp, f: BinaryFn, name: &str, args: Args) -> EvalResult {
    args.arity(name, 2, usize::MAX)?;
    // Strings, characters, tuples compare by `isless`: their own order, not a number's.
    if !args.dotted {
        if let Some(result) = super::ordering::extreme(interp, &args.pos, f == BinaryFn::Max) {
            return result;
        }
    }
    let mut acc = args.pos[0].clone();
    for v in &args.pos[1..] {
        acc = extremum(f, name, &acc, v, args.dotted)?;
    }
    Ok(acc)
}

/// `max(a, b)` or `min(a, b)` (`f` is `Max` or `Min`).
pub(crate) fn extremum(f: BinaryFn, name: &str, a: &Value, b: &Value, dotted: bool) -> EvalResult {
    if let (Value::Int(p), Value::Int(q)) = (a, b) {
        return Ok(Value::Int(if f == BinaryFn::Max {
            *p.max(q)
        } else {
            *p.min(q)
        }));
    }
    binary(f, name, a, b, dotted)
}

fn hypot_(interp: &mut Interp, args: Args) -> EvalResult {
    if args.pos.len() == 1 {
        return abs_(interp, args);
    }
    args.arity("hypot", 1, 2)?;
    binary(
        BinaryFn::Hypot,
        "hypot",
        &args.pos[0],
        &args.pos[1],
        args.dotted,
    )
}

fn mod_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("mod", 2, 2)?;
    if let (Value::Int(a), Value::Int(b)) = (&args.pos[0], &args.pos[1]) {
        if *b == 0 {
            return Err(fail(ErrorKind::DivideError, "integer division error"));
        }
        return Ok(Value::Int(
            a.rem_euclid(*b)
                + if *b < 0 && a.rem_euclid(*b) != 0 {
                    *b
                } else {
                    0
                },
        ));
    }
    binary(
        BinaryFn::Mod,
        "mod",
        &args.pos[0],
        &args.pos[1],
        args.dotted,
    )
}

fn rem_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("rem", 2, 2)?;
    binary(
        BinaryFn::Rem,
        "rem",
        &args.pos[0],
        &args.pos[1],
        args.dotted,
    )
}

/// `clamp!(A, lo, hi)`: every element of `A` clamped in place; returns `A`.
fn clamp_in_place(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("clamp!", 3, 3)?;
    let clamp = super::lookup(difflab_syntax::name!("clamp")).expect("clamp is a builtin");
    let clamped = interp.broadcast_call(&Value::Builtin(clamp), args.pos.clone(), vec![])?;
    interp.fill_all(&args.pos[0], &clamped)?;
    Ok(args.pos[0].clone())
}

fn clamp_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("clamp", 3, 3)?;
    let lower = binary(
        BinaryFn::Max,
        "clamp",
        &args.pos[0],
        &args.pos[1],
        args.dotted,
    )?;
    binary(BinaryFn::Min, "clamp", &lower, &args.pos[2], args.dotted)
}

fn ifelse_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("ifelse", 3, 3)?;
    match &args.pos[0] {
        Value::Bool(c) => Ok(if *c {
            args.pos[1].clone()
        } else {
            args.pos[2].clone()
        }),
        // Under TracerSparsityDetector() both branches may be taken: their union, which
        // also carries the condition's unknown value.
        cond if crate::value::convert::is_global_traced(cond) => {
            let both = binary(BinaryFn::Add, "ifelse", &args.pos[1], &args.pos[2], true)?;
            binary(BinaryFn::Add, "ifelse", &both, cond, true)
        }
        other => Err(fail(
            ErrorKind::TypeError,
            format!(
                "ifelse: non-boolean ({}) used in boolean context",
                other.type_name()
            ),
        )),
    }
}

fn identity_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("identity", 1, 1)?;
    Ok(args.pos[0].clone())
}

/// `zero(x)` (`x = 0.0`) or `one(x)` (`x = 1.0`) of a number, a number type or an array, in
/// its type: `zero(true) === false`, `zero([1, 2]) == [0, 0]`, and `one(A)` of a square matrix
/// is the identity (the multiplicative one), as in Julia.
fn zero_one(args: &Args, name: &str, x: f64) -> EvalResult {
    args.arity(name, 1, 1)?;
    let in_type = |eltype: ElType| match eltype {
        ElType::Int64 => Value::Int(x as i64),
        ElType::Bool => Value::Bool(x != 0.0),
        ElType::Float64 => Value::Float(x),
    };
    match &args.pos[0] {
        Value::Int(_) => Ok(in_type(ElType::Int64)),
        Value::Bool(_) => Ok(in_type(ElType::Bool)),
        Value::Float(_) | Value::Real(_) => Ok(in_type(ElType::Float64)),
        Value::Builtin(b) => match crate::types::Prim::from_name(b.name) {
            Some(crate::types::Prim::Int64) => Ok(in_type(ElType::Int64)),
            Some(crate::types::Prim::Bool) => Ok(in_type(ElType::Bool)),
            Some(
                crate::types::Prim::Float64
                | crate::types::Prim::AbstractFloat
                | crate::types::Prim::Real
                | crate::types::Prim::Number,
            ) => Ok(in_type(ElType::Float64)),
            _ => Err(no_method(name, &args.pos[0])),
        },
        // The number types carrying derivatives (`typeof` of a dual or a tracer).
        ty if crate::types::Type::from_value(ty).is_some_and(|t| {
            t.is_subtype(&crate::types::Type::Prim(crate::types::Prim::Number))
        }) =>
        {
            Ok(in_type(ElType::Float64))
        }
        // A sparse matrix's zero stores nothing; its one is the sparse identity.
        Value::Sparse(s) => {
            let s = s.borrow();
            let (m, n) = (s.matrix.rows(), s.matrix.cols());
            if x == 0.0 {
                return Ok(super::sparse::sparse_value(
                    sprs::CsMat::zero((m, n)),
                    s.eltype,
                ));
            }
            if m != n {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    "multiplicative identity defined only for square matrices",
                ));
            }
            Ok(super::sparse::sparse_value(sprs::CsMat::eye(n), s.eltype))
        }
        Value::Array(a) => {
            let a = a.borrow();
            let shape = a.data.shape().to_vec();
            if x == 0.0 {
                return Ok(super::array(a.eltype, &shape, vec![0.0; a.data.len()]));
            }
            match shape[..] {
                [m, n] if m == n => {
                    let identity = (0..m * m)
                        .map(|k| if k % (m + 1) == 0 { 1.0 } else { 0.0 })
                        .collect();
                    Ok(super::array(a.eltype, &shape, identity))
                }
                _ => Err(fail(
                    ErrorKind::DimensionMismatch,
                    "multiplicative identity defined only for square matrices",
                )),
            }
        }
        other => Err(no_method(name, other)),
    }
}

fn zero_(interp: &mut Interp, args: Args) -> EvalResult {
    if let [scenario] = &args.pos[..] {
        if super::ad::scenarios::as_scenario(scenario).is_some() {
            return super::ad::scenarios::zero_scenario(interp, scenario);
        }
    }
    zero_one(&args, "zero", 0.0)
}

fn one_(_: &mut Interp, args: Args) -> EvalResult {
    zero_one(&args, "one", 1.0)
}

/// Julia's default `isapprox` on numbers: relative tolerance √eps.
pub fn approx_scalar(x: f64, y: f64) -> bool {
    x == y || (x - y).abs() <= f64::EPSILON.sqrt() * x.abs().max(y.abs())
}

/// `isapprox(a, b; rtol, atol)` on numbers or arrays (arrays compare by norm, as Julia does).
pub fn isapprox(
    interp: &mut Interp,
    a: &Value,
    b: &Value,
    rtol: Option<f64>,
    atol: Option<f64>,
) -> EvalResult {
    // `A ≈ I`: the uniform identity stands for the identity of `A`'s size.
    let sized_a = super::linalg::uniform::sized_like(interp, a, b)?;
    let sized_b = super::linalg::uniform::sized_like(interp, b, a)?;
    let (a, b) = (&sized_a, &sized_b);
    if matches!(a, Value::Sparse(_)) || matches!(b, Value::Sparse(_)) {
        // Julia compares any two arrays by the norm of their difference.
        let densify = crate::builtins::sparse::arith::densify;
        let (a, b) = (densify(interp, a)?, densify(interp, b)?);
        return isapprox(interp, &a, &b, rtol, atol);
    }
    let (Some(x), Some(y)) = (operand(a)?, operand(b)?) else {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching isapprox(::{}, ::{})",
                a.type_name(),
                b.type_name()
            ),
        ));
    };
    let (p, q) = (x.tensor().primal(), y.tensor().primal());
    if p.shape() != q.shape() && !(x.scalar && y.scalar) {
        return Err(fail(
            ErrorKind::DimensionMismatch,
            format!(
                "dimensions must match: a has dims {:?}, b has dims {:?}",
                p.shape(),
                q.shape()
            ),
        ));
    }
    let atol = atol.unwrap_or(0.0);
    let rtol = rtol.unwrap_or(if atol > 0.0 { 0.0 } else { f64::EPSILON.sqrt() });
    let norm = |it: &mut dyn Iterator<Item = f64>| it.map(|v| v * v).sum::<f64>().sqrt();
    let diff = norm(&mut p.iter().zip(q.iter()).map(|(u, v)| u - v));
    let scale = norm(&mut p.iter().copied()).max(norm(&mut q.iter().copied()));
    let equal = p.iter().zip(q.iter()).all(|(u, v)| u == v);
    Ok(Value::Bool(equal || diff <= atol.max(rtol * scale)))
}

fn isapprox_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("isapprox", 2, 2)?;
    let rtol = args
        .kw("rtol")
        .map(|v| to_float(v, "isapprox"))
        .transpose()?;
    let atol = args
        .kw("atol")
        .map(|v| to_float(v, "isapprox"))
        .transpose()?;
    isapprox(interp, &args.pos[0], &args.pos[1], rtol, atol)
}

/// `isnan`, `isfinite`, `isinf` on numbers or (broadcast) arrays.
fn predicate(args: &Args, name: &str, test: fn(f64) -> bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    let Some(x) = operand(&args.pos[0])? else {
        return Err(no_method(name, &args.pos[0]));
    };
    crate::value::convert::require_values(x.tensor(), name)?;
    let t = Tensor::plain(x.tensor().primal().mapv(|v| f64::from(u8::from(test(v)))));
    Ok(from_tensor(t, ElType::Bool, x.scalar))
}

fn isnan_(_: &mut Interp, args: Args) -> EvalResult {
    predicate(&args, "isnan", f64::is_nan)
}
fn isfinite_(_: &mut Interp, args: Args) -> EvalResult {
    predicate(&args, "isfinite", f64::is_finite)
}
fn isinf_(_: &mut Interp, args: Args) -> EvalResult {
    predicate(&args, "isinf", f64::is_infinite)
}

fn int_predicate(args: &Args, name: &str, test: fn(i64) -> bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    needs_value(&args.pos[0], name)?;
    Ok(Value::Bool(test(super::to_int(&args.pos[0], name)?)))
}

/// The error of a predicate on a number traced without a value (as SparseConnectivityTracer
/// raises for its global tracers).
pub(crate) fn needs_value(v: &Value, name: &str) -> Result<(), Flow> {
    if plain_number(v).is_some() {
        return Ok(());
    }
    match operand(v)? {
        Some(o) => crate::value::convert::require_values(o.tensor(), name),
        None => Ok(()),
    }
}

fn iseven_(_: &mut Interp, args: Args) -> EvalResult {
    int_predicate(&args, "iseven", |n| n % 2 == 0)
}

fn isodd_(_: &mut Interp, args: Args) -> EvalResult {
    int_predicate(&args, "isodd", |n| n % 2 != 0)
}

fn iszero_(_: &mut Interp, args: Args) -> EvalResult {
    predicate(&args, "iszero", |x| x == 0.0)
}

fn float_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Float64", 1, 1)?;
    match &args.pos[0] {
        v @ (Value::Array(_) | Value::Range(_)) => {
            let t = operand(v)?
                .expect("arrays and ranges are numeric")
                .tensor()
                .clone();
            Ok(from_tensor(t, ElType::Float64, false))
        }
        Value::Str(s) => s.trim().parse::<f64>().map(Value::Float).map_err(|_| {
            fail(
                ErrorKind::ArgumentError,
                format!("cannot parse \"{s}\" as Float64"),
            )
        }),
        v @ Value::Real(_) => match super::ad::tracers::local_tracer_value(v, "Float64") {
            Some(x) => x.map(Value::Float),
            None => Ok(v.clone()),
        },
        Value::Sparse(m) => Ok(crate::builtins::sparse::sparse_value(
            m.borrow().matrix.clone(),
            ElType::Float64,
        )),
        v => to_float(v, "Float64").map(Value::Float),
    }
}

/// `float(x)`: `Float64(x)`; of a type, the float type of its numbers (`float(Int)` is
/// `Float64`, the type of numbers carrying derivatives is its own).
fn float_of_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("float", 1, 1)?;
    match &args.pos[0] {
        // A number carrying derivatives or a tracer is already a float (`float(d) = d`).
        t if crate::types::is_derivative_number_type(t) => Ok(t.clone()),
        v @ Value::Real(_) => Ok(v.clone()),
        Value::Builtin(b)
            if matches!(
                crate::types::Prim::from_name(b.name),
                Some(
                    crate::types::Prim::Float64
                        | crate::types::Prim::Int64
                        | crate::types::Prim::Bool
                )
            ) =>
        {
            Ok(super::lookup(difflab_syntax::name!("Float64"))
                .map_or(Value::Nothing, Value::Builtin))
        }
        _ => float_(interp, args),
    }
}

fn int_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Int", 1, 1)?;
    match &args.pos[0] {
        Value::Char(c) => Ok(Value::Int(i64::from(u32::from(*c)))),
        Value::Str(s) => s.trim().parse::<i64>().map(Value::Int).map_err(|_| {
            fail(
                ErrorKind::ArgumentError,
                format!("cannot parse \"{s}\" as Int64"),
            )
        }),
        v @ (Value::Array(_) | Value::Range(_)) if args.dotted => {
            // `Int.(x)`: one conversion of the whole array, each element checked as `Int(xᵢ)`.
            let t = operand(v)?
                .expect("arrays and ranges are numeric")
                .tensor()
                .clone();
            crate::value::convert::require_values(&t, "Int")?;
            let values = t.primal();
            if let Some(x) = values
                .iter()
                .find(|x| x.fract() != 0.0 || x.abs() >= 2f64.powi(63))
            {
                return Err(fail(
                    ErrorKind::InexactError,
                    format!("Int64({})", crate::show::float(*x)),
                ));
            }
            Ok(from_tensor(
                Tensor::plain(values.clone()),
                ElType::Int64,
                false,
            ))
        }
        v => super::to_int(v, "Int").map(Value::Int),
    }
}

fn bool_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Bool", 1, 1)?;
    match super::to_int(&args.pos[0], "Bool")? {
        0 => Ok(Value::Bool(false)),
        1 => Ok(Value::Bool(true)),
        n => Err(fail(ErrorKind::InexactError, format!("Bool({n})"))),
    }
}

fn eps_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("eps", 0, 1)?;
    match args.pos.first() {
        None | Some(Value::Builtin(_)) => Ok(Value::Float(f64::EPSILON)),
        Some(t) if crate::types::is_derivative_number_type(t) => Ok(Value::Float(f64::EPSILON)),
        Some(v) if crate::value::convert::is_global_traced(v) => {
            // Piecewise constant: under a tracing without values, a number without value
            // or dependencies (as a comparison gives there).
            let t = operand(v)?.expect("traced").tensor().clone();
            Ok(Value::from_scalar(ops::unary(UnaryFn::Sign, &t)?))
        }
        Some(v) => {
            let x = to_float(v, "eps")?.abs();
            let next = f64::from_bits(x.to_bits() + 1);
            Ok(Value::Float(next - x))
        }
    }
}

crate::builtins! {
    "abs" => abs_, true, "    abs(x)\n\nThe absolute value of `x`. Broadcast with `abs.(x)` for arrays.\n\n```\njulia> abs(-2.5)\n2.5\n```";
    "abs2" => abs2_, true, "    abs2(x)\n\nThe squared absolute value `x^2`.\n\n```\njulia> abs2(-3)\n9\n```";
    "sqrt" => sqrt_, true, "    sqrt(x)\n\nThe square root of `x`; a `DomainError` for negative `x`.\n\n```\njulia> sqrt(16.0)\n4.0\n```";
    "cbrt" => cbrt_, true, "    cbrt(x)\n\nThe real cube root of `x`.\n\n```\njulia> cbrt(27.0)\n3.0\n```";
    "exp" => exp_, true, "    exp(x)\n    exp(A)\n\nThe natural exponential `eˣ`; of a square matrix, the matrix exponential `Σ Aᵏ/k!` (differentiable; a Taylor series with scaling and squaring).\n\n```\njulia> exp(0.0)\n1.0\n\njulia> exp([0.0 1.0; 0.0 0.0])\n2×2 Matrix{Float64}:\n 1.0  1.0\n 0.0  1.0\n```";
    "exp2" => exp2_, true, "    exp2(x)\n\n`2ˣ`.\n\n```\njulia> exp2(3)\n8.0\n```";
    "log" => log_, true, "    log(x)\n    log(b, x)\n\nThe natural logarithm, or the logarithm in base `b`; a `DomainError` for negative `x`.\n\n```\njulia> log(1.0)\n0.0\n\njulia> log(2, 8.0)\n3.0\n```";
    "log2" => log2_, true, "    log2(x)\n\nThe base-2 logarithm.\n\n```\njulia> log2(8)\n3.0\n```";
    "log10" => log10_, true, "    log10(x)\n\nThe base-10 logarithm.\n\n```\njulia> log10(1000)\n3.0\n```";
    "log1p" => log1p_, true, "    log1p(x)\n\n`log(1 + x)`, accurate for small `x`.\n\n```\njulia> log1p(0.0)\n0.0\n```";
    "expm1" => expm1_, true, "    expm1(x)\n\n`exp(x) - 1`, accurate for small `x`.\n\n```\njulia> expm1(0.0)\n0.0\n```";
    "sin" => sin_, true, "    sin(x)\n\nThe sine of `x` (radians).\n\n```\njulia> sin(0.0)\n0.0\n```";
    "cos" => cos_, true, "    cos(x)\n\nThe cosine of `x` (radians).\n\n```\njulia> cos(0.0)\n1.0\n```";
    "tan" => tan_, true, "    tan(x)\n\nThe tangent of `x` (radians).\n\n```\njulia> tan(0.0)\n0.0\n```";
    "asin" => asin_, true, "    asin(x)\n\nThe inverse sine, for `-1 ≤ x ≤ 1`.\n\n```\njulia> asin(1.0)\n1.5707963267948966\n```";
    "acos" => acos_, true, "    acos(x)\n\nThe inverse cosine, for `-1 ≤ x ≤ 1`.\n\n```\njulia> acos(1.0)\n0.0\n```";
    "atan" => atan_, true, "    atan(y)\n    atan(y, x)\n\nThe inverse tangent; with two arguments, the angle of the point `(x, y)`.\n\n```\njulia> atan(1.0, 1.0)\n0.7853981633974483\n```";
    "sinh" => sinh_, true, "    sinh(x)\n\nThe hyperbolic sine.\n\n```\njulia> sinh(0.0)\n0.0\n```";
    "cosh" => cosh_, true, "    cosh(x)\n\nThe hyperbolic cosine.\n\n```\njulia> cosh(0.0)\n1.0\n```";
    "tanh" => tanh_, true, "    tanh(x)\n\nThe hyperbolic tangent.\n\n```\njulia> tanh(0.0)\n0.0\n```";
    "sec" => sec_, true, "    sec(x)\n\nThe secant `1/cos(x)`.\n\n```\njulia> sec(0.0)\n1.0\n```";
    "csc" => csc_, true, "    csc(x)\n\nThe cosecant `1/sin(x)`.\n\n```\njulia> csc(pi/2)\n1.0\n```";
    "cot" => cot_, true, "    cot(x)\n\nThe cotangent `1/tan(x)`.\n\n```\njulia> cot(pi/4)\n1.0000000000000002\n```";
    "sign" => sign_, true, "    sign(x)\n\n`1`, `0` or `-1` by the sign of `x`; its derivative is zero.\n\n```\njulia> sign(-2.0)\n-1.0\n```";
    "sigmoid" => sigmoid_, true, "    sigmoid(x)\n\nThe logistic function `1 / (1 + exp(-x))`.\n\n```\njulia> sigmoid(0.0)\n0.5\n```";
    "relu" => relu_, true, "    relu(x)\n\n`max(x, 0)`.\n\n```\njulia> relu(-1.0)\n0.0\n```";
    "softplus" => softplus_, true, "    softplus(x)\n\n`log(1 + exp(x))`, computed without overflow.\n\n```\njulia> softplus(0.0)\n0.6931471805599453\n```";
    "inv" => inv_, true, "    inv(x)\n\n`1/x` for a number; the inverse of a square matrix.\n\n```\njulia> inv(4.0)\n0.25\n```";
    "max" => max_, true, "    max(x, y, ...)\n\nThe largest argument (NaN if any is NaN).\n\n```\njulia> max(1, 3, 2)\n3\n```";
    "min" => min_, true, "    min(x, y, ...)\n\nThe smallest argument.\n\n```\njulia> min(1.0, -2.0)\n-2.0\n```";
    "hypot" => hypot_, true, "    hypot(x, y)\n    hypot(x)\n\n`sqrt(x^2 + y^2)` without overflow (`abs(x)` for one argument).\n\n```\njulia> hypot(3, 4)\n5.0\n```";
    "mod" => mod_, true, "    mod(x, y)\n\nThe remainder of floored division (same sign as `y`).\n\n```\njulia> mod(-1, 3)\n2\n```";
    "rem" => rem_, true, "    rem(x, y)\n\nThe remainder of truncated division (same sign as `x`), also `x % y`.\n\n```\njulia> rem(-1, 3)\n-1\n```";
    "clamp!" => clamp_in_place, false, "    clamp!(A, lo, hi)\n\nClamps every element of the array `A` to `[lo, hi]`, in place, and returns `A`.\n\n```\njulia> A = [-1.0, 0.5, 2.0]; clamp!(A, 0.0, 1.0); A\n3-element Vector{Float64}:\n 0.0\n 0.5\n 1.0\n```";
    "clamp" => clamp_, true, "    clamp(x, lo, hi)\n\n`x` limited to `[lo, hi]`.\n\n```\njulia> clamp(5, 0, 3)\n3\n```";
    "ifelse" => ifelse_, false, "    ifelse(cond, a, b)\n\n`a` if `cond` else `b`, both evaluated (unlike `cond ? a : b`). Under `TracerSparsityDetector()`, where comparisons have no value, the result depends on both branches: its pattern is their union.\n\n```\njulia> ifelse(true, 1, 2)\n1\n\njulia> jacobian_sparsity(x -> [ifelse(x[1] > x[2], x[1], x[2])], [1.0, 2.0], TracerSparsityDetector())\n1×2 SparseMatrixCSC{Bool, Int64} with 2 stored entries:\n 1  1\n```";
    "identity" => identity_, false, "    identity(x)\n\nReturns `x`.\n\n```\njulia> identity(3)\n3\n```";
    "zero" => zero_, false, "    zero(x)\n\nThe additive identity of the type (or an array of zeros of the same shape).\n\n```\njulia> zero(2.5)\n0.0\n```";
    "one" => one_, false, "    one(x)\n\nThe multiplicative identity.\n\n```\njulia> one(3)\n1\n```";
    "isapprox" => isapprox_, false, "    isapprox(a, b; rtol=√eps, atol=0)\n\nApproximate equality, also written `a ≈ b`; arrays compare by norm.\n\n```\njulia> 0.1 + 0.2 ≈ 0.3\ntrue\n```";
    "isnan" => isnan_, true, "    isnan(x)\n\nWhether `x` is NaN.\n\n```\njulia> isnan(NaN)\ntrue\n```";
    "isfinite" => isfinite_, true, "    isfinite(x)\n\nWhether `x` is neither infinite nor NaN.\n\n```\njulia> isfinite(1/0)\nfalse\n```";
    "isinf" => isinf_, true, "    isinf(x)\n\nWhether `x` is infinite.\n\n```\njulia> isinf(-Inf)\ntrue\n```";
    "iseven" => iseven_, false, "    iseven(n)\n\nWhether the integer `n` is even.\n\n```\njulia> iseven(4)\ntrue\n```";
    "isodd" => isodd_, false, "    isodd(n)\n\nWhether the integer `n` is odd.\n\n```\njulia> isodd(4)\nfalse\n```";
    "iszero" => iszero_, true, "    iszero(x)\n\nWhether `x` is zero.\n\n```\njulia> iszero(0.0)\ntrue\n```";
    "Float64" => float_, true, "    Float64(x)\n\nConverts to a 64-bit float (also the element type in `zeros(Float64, n)`).\n\n```\njulia> Float64(3)\n3.0\n```";
    "float" => float_of_, true, "    float(x)\n    float(T)\n\nConverts to Float64; of a number type, its float type (`Float64`, or the type itself for numbers carrying derivatives).\n\n```\njulia> float(1)\n1.0\n\njulia> float(Int)\nFloat64\n```";
    "Int" => int_, true, "    Int(x)\n\nConverts to a 64-bit integer; an `InexactError` when `x` is not integral.\n\n```\njulia> Int(3.0)\n3\n```";
    "Int64" => int_, true, "    Int64(x)\n\nSame as `Int(x)`.\n\n```\njulia> Int64(2.0)\n2\n```";
    "Bool" => bool_, true, "    Bool(x)\n\nConverts 0 or 1 to a Bool.\n\n```\njulia> Bool(1)\ntrue\n```";
    "eps" => eps_, false, "    eps()\n    eps(x)\n\nMachine epsilon, or the spacing of floats at `x`.\n\n```\njulia> eps()\n2.220446049250313e-16\n```";
}
