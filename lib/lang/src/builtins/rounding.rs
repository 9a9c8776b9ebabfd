//! Rounding: `floor`, `ceil`, `round`, `trunc` with Julia's forms (`round(Int, x)`,
//! `round(x, RoundUp)`, `round(x; digits, sigdigits, base)`), the rounding modes as values,
//! and their zero derivative for every number kind.

use super::math::unary;
use super::{to_float, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::from_tensor;
use crate::value::Value;
use difflab_ad::ops::UnaryFn;
use difflab_ad::Tensor;
use difflab_syntax::BinOp;

/// `floor`, `ceil`, `round`, `trunc`: `round(x)` keeps the type, `round(Int, x)` converts, and
/// `round(x; digits=k)` rounds to `k` decimals (`sigdigits=k`: to `k` significant digits).
fn rounding(f: UnaryFn, interp: &mut Interp, mut args: Args) -> EvalResult {
    let to_int =
        matches!(args.pos.first(), Some(Value::Builtin(b)) if matches!(b.name, "Int" | "Int64"));
    let to_bool = matches!(args.pos.first(), Some(Value::Builtin(b)) if b.name == "Bool");
    if to_int
        || to_bool
        || matches!(args.pos.first(), Some(Value::Builtin(b)) if b.name == "Float64")
    {
        args.pos.remove(0);
    }
    // `round(x, RoundUp)`: the rounding mode names the function.
    let mut f = f;
    let mut ties = None;
    if f == UnaryFn::Round && args.pos.len() == 2 {
        if let Some((function, tie)) = rounding_mode(&args.pos[1]).map(RoundingMode::function) {
            args.pos.pop();
            (f, ties) = (function, tie);
        }
    }
    args.arity(f.name(), 1, 1)?;
    let digits = args
        .kw("digits")
        .map(|d| super::to_int(d, f.name()))
        .transpose()?;
    let sigdigits = args
        .kw("sigdigits")
        .map(|d| super::to_int(d, f.name()))
        .transpose()?;
    if digits.is_some() && sigdigits.is_some() {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!(
                "`{}` cannot use both `digits` and `sigdigits` arguments.",
                f.name()
            ),
        ));
    }
    let base = match args.kw("base") {
        Some(b) => super::to_int(b, f.name())?,
        None => 10,
    };
    if base < 2 {
        return Err(fail(
            ErrorKind::DomainError,
            format!("with {base}:\nbase must be at least 2"),
        ));
    }
    let v = if digits.is_some() || sigdigits.is_some() {
        let places = Places {
            digits,
            sigdigits,
            base: base as f64,
        };
        match &args.pos[0] {
            // A number carrying derivatives: its value rounded, with the zero derivative of
            // `f` (so a tracer needs no value, as SparseConnectivityTracer's does not).
            Value::Real(t) => {
                let value = t.primal().first().copied().unwrap_or(f64::NAN);
                let rounded = round_digits(f, &Value::Float(value), places)?;
                let flat = unary(f, &Args::positional(vec![args.pos[0].clone()]))?;
                let zero = interp.binary(BinOp::Sub, false, &flat, &flat)?;
                interp.binary(BinOp::Add, false, &rounded, &zero)?
            }
            x => round_digits(f, x, places)?,
        }
    } else {
        match (ties, &args.pos[0]) {
            // Ties rounded otherwise than to even, on a plain number.
            (Some(tie), Value::Float(x)) => Value::Float(tie(*x)),
            _ => unary(f, &args)?,
        }
    };
    if to_bool {
        return match v {
            Value::Float(x) if x == 0.0 || x == 1.0 => Ok(Value::Bool(x == 1.0)),
            Value::Float(x) => Err(fail(
                ErrorKind::InexactError,
                format!("Bool({})", crate::show::float(x)),
            )),
            other => Ok(other),
        };
    }
    if !to_int {
        return Ok(v);
    }
    let int = |x: f64| -> Result<f64, Flow> {
        // Every Int64 is below 2^63, and the nearest Float64 to typemax(Int64) is 2^63.
        if x.is_finite() && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&x) {
            Ok(x)
        } else {
            Err(fail(
                ErrorKind::InexactError,
                format!("Int64({})", crate::show::float(x)),
            ))
        }
    };
    match v {
        Value::Float(x) => Ok(Value::Int(int(x)? as i64)),
        Value::Array(a) => {
            let a = a.borrow();
            let t = a.data.primal_tensor();
            t.primal().iter().try_for_each(|&x| int(x).map(drop))?;
            Ok(from_tensor(t, ElType::Int64, false))
        }
        other => Ok(other),
    }
}

/// Julia's rounding modes (`RoundNearest`, `RoundUp`, …), as values.
pub struct RoundingMode(pub &'static str);

/// The rounding modes by name.
pub const ROUNDING_MODES: &[(&str, &str)] = &[
    ("RoundNearest", "Nearest"),
    ("RoundNearestTiesAway", "NearestTiesAway"),
    ("RoundNearestTiesUp", "NearestTiesUp"),
    ("RoundToZero", "ToZero"),
    ("RoundFromZero", "FromZero"),
    ("RoundUp", "Up"),
    ("RoundDown", "Down"),
];

/// The exact rounding of a plain number, for modes whose ties differ from `round`'s.
type PlainRounding = fn(f64) -> f64;

impl RoundingMode {
    /// The rounding function of this mode, and for modes whose ties differ from `round`'s
    /// (to even), the exact rule for a plain number (numbers carrying derivatives take the
    /// function: its derivative is zero either way).
    fn function(&self) -> (UnaryFn, Option<PlainRounding>) {
        match self.0 {
            "ToZero" => (UnaryFn::Trunc, None),
            "Up" => (UnaryFn::Ceil, None),
            "Down" => (UnaryFn::Floor, None),
            "NearestTiesAway" => (UnaryFn::Round, Some(f64::round)),
            "NearestTiesUp" => (UnaryFn::Round, Some(|x: f64| (x + 0.5).floor())),
            "FromZero" => (
                UnaryFn::Round,
                Some(|x: f64| if x < 0.0 { x.floor() } else { x.ceil() }),
            ),
            _ => (UnaryFn::Round, None),
        }
    }
}

impl crate::object::Object for RoundingMode {
    fn type_name(&self) -> String {
        "RoundingMode".into()
    }

    fn show(&self) -> String {
        format!("RoundingMode{{:{}}}()", self.0)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn rounding_mode(v: &Value) -> Option<&RoundingMode> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<RoundingMode>(),
        _ => None,
    }
}

/// Where `round(x; digits, sigdigits, base)` rounds.
#[derive(Clone, Copy)]
struct Places {
    digits: Option<i64>,
    sigdigits: Option<i64>,
    base: f64,
}

/// `round(x; digits)` and `round(x; sigdigits)` of a number or, elementwise, of an array
/// (`round.(x; digits=2)`), as Julia's `_round_digits` computes them: through a power of the
/// base, giving `x` back when that power or the result overflows (`digits=400`), and zero (or
/// an infinity, rounding away from it) when a negative `digits` leaves nothing.
fn round_digits(f: UnaryFn, x: &Value, places: Places) -> EvalResult {
    let Places {
        digits,
        sigdigits,
        base,
    } = places;
    let round = |x: f64| -> f64 {
        if !x.is_finite() {
            return x;
        }
        // Digits after the point: given, or as many as leave `sigdigits` significant ones.
        let k = match (digits, sigdigits) {
            (Some(k), _) => k,
            (None, Some(_)) if x == 0.0 => return x,
            (None, Some(sig)) => sig.saturating_sub(1 + x.abs().log(base).floor() as i64),
            (None, None) => return x,
        };
        // Beyond ±1100 the power of the base is infinite either way.
        let k = k.clamp(-1100, 1100) as i32;
        if k >= 0 {
            // Dividing by an exact power of ten is exact where multiplying by 0.001 is not.
            let invstep = base.powi(k);
            let y = f.apply(x * invstep) / invstep;
            if y.is_finite() {
                y
            } else {
                x
            }
        } else {
            let step = base.powi(-k);
            let y = f.apply(x / step) * step;
            match (y.is_finite(), f) {
                (true, _) => y,
                (false, UnaryFn::Ceil) if x > 0.0 => f64::INFINITY,
                (false, UnaryFn::Floor) if x < 0.0 => f64::NEG_INFINITY,
                (false, _) => 0.0f64.copysign(x),
            }
        }
    };
    match x {
        // Integers stay integers: `round(12345; digits=-2)` is `12300`.
        Value::Int(i) => {
            let magnitude = i
                .unsigned_abs()
                .checked_ilog10()
                .map_or(1, |d| i64::from(d) + 1);
            let unchanged = match (digits, sigdigits) {
                (Some(k), _) => k >= 0,
                (None, Some(sig)) => magnitude <= sig,
                (None, None) => true,
            };
            let y = round(*i as f64);
            Ok(Value::Int(if unchanged || y.abs() >= 9.2e18 {
                *i
            } else {
                y as i64
            }))
        }
        Value::Array(a) => {
            let a = a.borrow();
            let t = Tensor::plain(a.data.primal().mapv(round));
            Ok(from_tensor(t, ElType::Float64, false))
        }
        other => Ok(Value::Float(round(to_float(other, f.name())?))),
    }
}

fn floor_(i: &mut Interp, a: Args) -> EvalResult {
    rounding(UnaryFn::Floor, i, a)
}
fn ceil_(i: &mut Interp, a: Args) -> EvalResult {
    rounding(UnaryFn::Ceil, i, a)
}
fn round_(i: &mut Interp, a: Args) -> EvalResult {
    rounding(UnaryFn::Round, i, a)
}
fn trunc_(i: &mut Interp, a: Args) -> EvalResult {
    rounding(UnaryFn::Trunc, i, a)
}

crate::builtins! {
    "floor" => floor_, true, "    floor(x)\n    floor(Int, x)\n\nThe largest integer not above `x` (as a Float64, or an Int with `Int`).\n\n```\njulia> floor(Int, 2.7)\n2\n```";
    "ceil" => ceil_, true, "    ceil(x)\n    ceil(Int, x)\n\nThe smallest integer not below `x`.\n\n```\njulia> ceil(2.1)\n3.0\n```";
    "round" => round_, true, "    round(x)\n    round(x, mode)\n    round(Int, x)\n    round(Bool, x)\n    round(x; digits=k, base=10)\n    round(x; sigdigits=k, base=10)\n\nRounds to the nearest integer (ties to even; a rounding mode `RoundNearestTiesAway`, `RoundNearestTiesUp`, `RoundToZero`, `RoundFromZero`, `RoundUp` or `RoundDown` chooses otherwise), to `k` decimals (negative `k` rounds to tens, hundreds, …; digits in another `base`), or to `k` significant digits. Its derivative is zero.\n\n```\njulia> round(2.5), round(2.5, RoundNearestTiesAway), round(2.1, RoundUp), round(Bool, 0.7)\n(2.0, 3.0, 3.0, true)\n```\n\n```\njulia> round(3.14159; digits=2)\n3.14\n\njulia> round(123456.0; sigdigits=2)\n120000.0\n\njulia> round(1.1; digits=3, base=2)\n1.125\n```";
    "trunc" => trunc_, true, "    trunc(x)\n    trunc(Int, x)\n\nRounds toward zero.\n\n```\njulia> trunc(-2.7)\n-2.0\n```";
}
