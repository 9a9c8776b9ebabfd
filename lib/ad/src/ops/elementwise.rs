//! Elementwise functions: each [`UnaryFn`] and [`BinaryFn`] with its value and derivative.
//!
//! The plain kernel runs one pass over the array. The forward rule of a unary function `f` is
//! `ṫ = f'(v) .* v̇` with `f'` written in terms of primitives (so it is itself differentiable);
//! binary rules are the usual sum, product and quotient rules, with broadcasting.

use super::special::Special;
use crate::broadcast;
use crate::error::{AdError, Result};
use crate::ops::chunk_len;
use crate::tensor::{scalar_number, top_tag, Tag, Tensor};
use ndarray::ArrayD;

/// Unary elementwise functions of the language's math library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum UnaryFn {
    Neg,
    Abs,
    Abs2,
    Sqrt,
    Cbrt,
    Exp,
    Exp2,
    Log,
    Log2,
    Log10,
    Log1p,
    Expm1,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Sec,
    Csc,
    Cot,
    Sign,
    Floor,
    Ceil,
    Round,
    Trunc,
    Sigmoid,
    Relu,
    Softplus,
    Inv,
    /// The value with a zero derivative (ChainRulesCore's `ignore_derivatives`): recorded
    /// like any operation, so replays compute it anew.
    IgnoreDerivatives,
    /// A special function of SpecialFunctions.jl ([`Special`]).
    Special(Special),
}

impl UnaryFn {
    /// Every function but the special ones.
    #[rustfmt::skip]
    pub const ELEMENTARY: [UnaryFn; 34] = {
        use UnaryFn::*;
        [
            Neg, Abs, Abs2, Sqrt, Cbrt, Exp, Exp2, Log, Log2, Log10, Log1p, Expm1, Sin, Cos, Tan,
            Asin, Acos, Atan, Sinh, Cosh, Tanh, Sec, Csc, Cot, Sign, Floor, Ceil, Round, Trunc,
            Sigmoid, Relu, Softplus, Inv, IgnoreDerivatives,
        ]
    };

    /// The language name of the function.
    pub fn name(self) -> &'static str {
        use UnaryFn::*;
        match self {
            Neg => "-",
            Abs => "abs",
            Abs2 => "abs2",
            Sqrt => "sqrt",
            Cbrt => "cbrt",
            Exp => "exp",
            Exp2 => "exp2",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Expm1 => "expm1",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Sec => "sec",
            Csc => "csc",
            Cot => "cot",
            Sign => "sign",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Trunc => "trunc",
            Sigmoid => "sigmoid",
            Relu => "relu",
            Softplus => "softplus",
            Inv => "inv",
            IgnoreDerivatives => "ignore_derivatives",
            Special(f) => f.name(),
        }
    }

    /// The function over a plain array. Cheap functions get a loop of their own (the compiler
    /// vectorizes it); a `match` per element would cost more than their arithmetic.
    pub fn map(self, a: &ArrayD<f64>) -> Result<ArrayD<f64>> {
        macro_rules! own_loop {
            ($($f:ident),*) => {
                match self {
                    $(UnaryFn::$f => broadcast::map(a, |x| UnaryFn::$f.apply(x)),)*
                    other => broadcast::map(a, |x| other.apply(x)),
                }
            };
        }
        own_loop!(Neg, Abs, Abs2, Sqrt, Sign, Floor, Ceil, Round, Trunc, Inv, Relu)
    }

    /// The function on one plain number.
    #[inline(always)]
    pub fn apply(self, x: f64) -> f64 {
        use UnaryFn::*;
        match self {
            Neg => -x,
            Abs => x.abs(),
            Abs2 => x * x,
            Sqrt => x.sqrt(),
            Cbrt => x.cbrt(),
            Exp => x.exp(),
            Exp2 => x.exp2(),
            Log => x.ln(),
            Log2 => x.log2(),
            Log10 => x.log10(),
            Log1p => x.ln_1p(),
            Expm1 => x.exp_m1(),
            Sin => x.sin(),
            Cos => x.cos(),
            Tan => x.tan(),
            Asin => x.asin(),
            Acos => x.acos(),
            Atan => x.atan(),
            Sinh => x.sinh(),
            Cosh => x.cosh(),
            Tanh => x.tanh(),
            Sec => 1.0 / x.cos(),
            Csc => 1.0 / x.sin(),
            Cot => 1.0 / x.tan(),
            Sign => {
                if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    x
                }
            }
            Floor => x.floor(),
            IgnoreDerivatives => x,
            Ceil => x.ceil(),
            Round => x.round_ties_even(),
            Trunc => x.trunc(),
            Sigmoid => 1.0 / (1.0 + (-x).exp()),
            Relu => x.max(0.0),
            Softplus => {
                // log(1 + eˣ) without overflow for large x.
                if x > 0.0 {
                    x + (-x).exp().ln_1p()
                } else {
                    x.exp().ln_1p()
                }
            }
            Inv => 1.0 / x,
            Special(f) => f.apply(x),
        }
    }

    /// Whether `x` is in the function's real domain (NaN always is: it propagates).
    pub fn in_domain(self, x: f64) -> bool {
        use UnaryFn::*;
        match self {
            // NaN is in every domain: it propagates rather than raising an error.
            Sqrt | Log | Log2 | Log10 => x >= 0.0 || x.is_nan(),
            Log1p => x >= -1.0 || x.is_nan(),
            Asin | Acos => x.abs() <= 1.0 || x.is_nan(),
            // As Julia: `sin(Inf)` is a DomainError, not NaN.
            Sin | Cos | Tan | Sec | Csc | Cot => !x.is_infinite(),
            Special(f) => f.in_domain(x),
            _ => true,
        }
    }

    /// The derivative `f'(v)`, written with primitives so that it can itself be differentiated.
    pub(crate) fn derivative(self, v: &Tensor) -> Result<Tensor> {
        use UnaryFn::*;
        let c = Tensor::scalar;
        let u = |f: UnaryFn, t: &Tensor| unary(f, t);
        let b = |f: BinaryFn, x: &Tensor, y: &Tensor| binary(f, x, y);
        Ok(match self {
            Neg => c(-1.0),
            Abs => u(Sign, v)?,
            Abs2 => b(BinaryFn::Mul, &c(2.0), v)?,
            Sqrt => b(BinaryFn::Div, &c(0.5), &u(Sqrt, v)?)?,
            Cbrt => {
                let r = u(Cbrt, v)?;
                b(BinaryFn::Div, &c(1.0 / 3.0), &b(BinaryFn::Mul, &r, &r)?)?
            }
            Exp => u(Exp, v)?,
            Exp2 => b(BinaryFn::Mul, &c(std::f64::consts::LN_2), &u(Exp2, v)?)?,
            Log => u(Inv, v)?,
            Log2 => u(Inv, &b(BinaryFn::Mul, &c(std::f64::consts::LN_2), v)?)?,
            Log10 => u(Inv, &b(BinaryFn::Mul, &c(std::f64::consts::LN_10), v)?)?,
            Log1p => u(Inv, &b(BinaryFn::Add, &c(1.0), v)?)?,
            Expm1 => u(Exp, v)?,
            Sin => u(Cos, v)?,
            Cos => u(Neg, &u(Sin, v)?)?,
            Tan => b(BinaryFn::Add, &c(1.0), &u(Abs2, &u(Tan, v)?)?)?,
            Asin => u(Inv, &u(Sqrt, &b(BinaryFn::Sub, &c(1.0), &u(Abs2, v)?)?)?)?,
            Acos => u(
                Neg,
                &u(Inv, &u(Sqrt, &b(BinaryFn::Sub, &c(1.0), &u(Abs2, v)?)?)?)?,
            )?,
            Atan => u(Inv, &b(BinaryFn::Add, &c(1.0), &u(Abs2, v)?)?)?,
            Sinh => u(Cosh, v)?,
            Cosh => u(Sinh, v)?,
            Tanh => b(BinaryFn::Sub, &c(1.0), &u(Abs2, &u(Tanh, v)?)?)?,
            Sec => b(BinaryFn::Mul, &u(Sec, v)?, &u(Tan, v)?)?,
            Csc => u(Neg, &b(BinaryFn::Mul, &u(Csc, v)?, &u(Cot, v)?)?)?,
            Cot => u(Neg, &b(BinaryFn::Add, &c(1.0), &u(Abs2, &u(Cot, v)?)?)?)?,
            Sign | Floor | Ceil | Round | Trunc | IgnoreDerivatives => {
                Tensor::filled(v.shape(), 0.0)
            }
            Sigmoid => {
                let s = u(Sigmoid, v)?;
                b(BinaryFn::Mul, &s, &b(BinaryFn::Sub, &c(1.0), &s)?)?
            }
            Relu if v.is_symbolic() => return Err(no_symbolic_rule("relu")),
            // A global tracer has no values to choose the branch: keep the dependency.
            Relu if v.is_global_tracer() => Tensor::filled(v.shape(), 1.0),
            Relu => {
                let step = v.primal().mapv(|x| if x > 0.0 { 1.0 } else { 0.0 });
                Tensor::plain(step)
            }
            Softplus => u(Sigmoid, v)?,
            Inv => u(Neg, &u(Inv, &u(Abs2, v)?)?)?,
            Special(f) => f.derivative(v)?,
        })
    }
}

/// `f.(t)` for any number kind.
pub fn unary(f: UnaryFn, t: &Tensor) -> Result<Tensor> {
    match t {
        Tensor::Plain(a) => {
            if let Some(&bad) = a.iter().find(|&&x| !f.in_domain(x)) {
                return Err(AdError::Domain {
                    function: f.name(),
                    value: bad,
                });
            }
            let y = f.map(a)?;
            // A special function is NaN where it has no real value (a pole of `gamma`): the
            // same `DomainError` as on one number.
            if let UnaryFn::Special(_) = f {
                let bad = a.iter().zip(&y).find(|(x, y)| y.is_nan() && !x.is_nan());
                if let Some((&value, _)) = bad {
                    return Err(AdError::Domain {
                        function: f.name(),
                        value,
                    });
                }
            }
            Ok(Tensor::plain(y))
        }
        Tensor::Tracer(t) => super::tracing::unary(f, t),
        Tensor::Symbolic(s) => crate::symbolic::unary(f, s),
        Tensor::Tracked(tr) => super::taping::unary(f, tr),
        Tensor::Dual(d) => {
            let value = unary(f, &d.value)?;
            let slope = f.derivative(&d.value)?;
            let partials = match scalar_partials(
                &[(Some(&slope), Some(d.partials.as_slice()))],
                d.partials.len(),
            ) {
                Some(partials) => partials,
                None => d
                    .partials
                    .iter()
                    .map(|p| binary(BinaryFn::Mul, &slope, p))
                    .collect::<Result<_>>()?,
            };
            Ok(Tensor::dual(d.tag, value, partials))
        }
    }
}

/// Binary elementwise functions (broadcasting, as the language's dotted operators).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinaryFn {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Max,
    Min,
    Atan2,
    Hypot,
    Mod,
    Rem,
}

impl BinaryFn {
    /// The language name of the function.
    pub fn name(self) -> &'static str {
        use BinaryFn::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Pow => "^",
            Max => "max",
            Min => "min",
            Atan2 => "atan",
            Hypot => "hypot",
            Mod => "mod",
            Rem => "rem",
        }
    }

    /// The function over two plain arrays broadcast together. Cheap functions get a loop of
    /// their own (the compiler vectorizes it); a `match` per element would cost more than their
    /// arithmetic.
    pub fn zip_map(self, a: &ArrayD<f64>, b: &ArrayD<f64>) -> Result<ArrayD<f64>> {
        macro_rules! own_loop {
            ($($f:ident),*) => {
                match self {
                    $(BinaryFn::$f => broadcast::zip_map(a, b, |x, y| BinaryFn::$f.apply(x, y)),)*
                    other => broadcast::zip_map(a, b, |x, y| other.apply(x, y)),
                }
            };
        }
        own_loop!(Add, Sub, Mul, Div, Pow, Max, Min)
    }

    /// The function on two plain numbers.
    #[inline(always)]
    pub fn apply(self, x: f64, y: f64) -> f64 {
        use BinaryFn::*;
        match self {
            Add => x + y,
            Sub => x - y,
            Mul => x * y,
            Div => x / y,
            Pow => pow(x, y),
            Max => julia_max(x, y),
            Min => julia_min(x, y),
            Atan2 => x.atan2(y),
            Hypot => x.hypot(y),
            Mod => {
                let r = x % y;
                if r != 0.0 && (r < 0.0) != (y < 0.0) {
                    r + y
                } else {
                    r
                }
            }
            Rem => x % y,
        }
    }
}

/// `x^y` with an exact fast path for small integer powers.
fn pow(x: f64, y: f64) -> f64 {
    if y == 2.0 {
        x * x
    } else if y.fract() == 0.0 && y.abs() <= 64.0 {
        x.powi(y as i32)
    } else {
        x.powf(y)
    }
}

fn julia_max(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.max(y)
    }
}

fn julia_min(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.min(y)
    }
}

/// One operand of scalar code: a plain number, or a rank-0 tensor carrying derivatives.
#[derive(Clone, Copy)]
pub enum Scalar<'a> {
    /// A plain number.
    Plain(f64),
    /// A rank-0 tensor of any kind.
    Carrying(&'a Tensor),
}

impl Scalar<'_> {
    /// The operand a rank-0 tensor is.
    pub fn of(t: &Tensor) -> Scalar<'_> {
        match t {
            Tensor::Plain(p) => Scalar::Plain(p.first().copied().unwrap_or(f64::NAN)),
            carrying => Scalar::Carrying(carrying),
        }
    }

    /// The primal value.
    pub fn value(self) -> f64 {
        match self {
            Scalar::Plain(x) => x,
            Scalar::Carrying(t) => t.primal().first().copied().unwrap_or(f64::NAN),
        }
    }

    fn is_tracer(self) -> bool {
        matches!(self, Scalar::Carrying(Tensor::Tracer(_)))
    }

    fn tensor(self) -> Tensor {
        match self {
            Scalar::Plain(x) => Tensor::scalar(x),
            Scalar::Carrying(t) => t.clone(),
        }
    }
}

/// `f(a, b)` for two numbers of scalar code, which gives the same result as [`binary`] on
/// rank-0 tensors; sparsity tracers take a path with no array in between (detection runs
/// scalar loops through it).
pub fn scalar_binary(f: BinaryFn, a: Scalar, b: Scalar) -> Result<Tensor> {
    let plain = |s: Scalar| matches!(s, Scalar::Plain(_));
    if (a.is_tracer() || b.is_tracer())
        && (a.is_tracer() || plain(a))
        && (b.is_tracer() || plain(b))
    {
        return Ok(super::tracing::scalar_binary(f, a, b));
    }
    if let Some(dual) = scalar_dual_binary(f, a, b)? {
        return Ok(dual);
    }
    if let Some(symbolic) = crate::symbolic::scalar_binary(f, a, b) {
        return symbolic;
    }
    binary(f, &a.tensor(), &b.tensor())
}

/// A scalar dual of one tag over plain numbers: its value and partials.
struct FirstOrder<'a> {
    value: f64,
    tag: Tag,
    partials: &'a [Tensor],
}

impl<'a> FirstOrder<'a> {
    fn of(t: &'a Tensor) -> Option<FirstOrder<'a>> {
        match t {
            Tensor::Dual(d) => Some(FirstOrder {
                value: constant_scalar(&d.value)?,
                tag: d.tag,
                partials: &d.partials,
            }),
            _ => None,
        }
    }

    /// `slope ×` partial `k`, or `None` when that partial is not a plain number.
    fn scaled(&self, slope: f64, k: usize) -> Option<f64> {
        constant_scalar(&self.partials[k]).map(|p| slope * p)
    }
}

/// [`binary`] on numbers of forward mode through scalar code (first-order duals with plain
/// partials, or plain numbers): the chain rule on the numbers themselves, with no arrays for
/// the value and slopes. `None` for any other kinds (nested duals, tapes), which take the
/// general path.
fn scalar_dual_binary(f: BinaryFn, a: Scalar, b: Scalar) -> Result<Option<Tensor>> {
    fn operand(s: Scalar<'_>) -> Option<(f64, Option<FirstOrder<'_>>)> {
        match s {
            Scalar::Plain(x) => Some((x, None)),
            Scalar::Carrying(t) => FirstOrder::of(t).map(|d| (d.value, Some(d))),
        }
    }
    let (Some((x, da)), Some((z, db))) = (operand(a), operand(b)) else {
        return Ok(None);
    };
    let (tag, n) = match (&da, &db) {
        (Some(p), Some(q)) if p.tag != q.tag || p.partials.len() != q.partials.len() => {
            return Ok(None)
        }
        (Some(d), _) | (None, Some(d)) => (d.tag, d.partials.len()),
        (None, None) => return Ok(None),
    };
    if f == BinaryFn::Pow && z.fract() != 0.0 && x < 0.0 {
        return Err(AdError::Domain {
            function: "^",
            value: x,
        });
    }
    let y = f.apply(x, z);
    let (sa, sb) = f.slopes(x, z, y, db.is_some());
    let mut partials = Vec::with_capacity(n);
    for k in 0..n {
        let sum = match (&da, &db) {
            (Some(p), Some(q)) => p.scaled(sa, k).zip(q.scaled(sb, k)).map(|(s, t)| s + t),
            (Some(p), None) => p.scaled(sa, k),
            (None, Some(q)) => q.scaled(sb, k),
            (None, None) => unreachable!("one operand is a dual"),
        };
        let Some(sum) = sum else {
            return Ok(None);
        };
        partials.push(scalar_number(sum));
    }
    Ok(Some(Tensor::dual(tag, Tensor::scalar(y), partials)))
}

/// `f.(a, b)` for any number kinds, broadcasting.
pub fn binary(f: BinaryFn, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let Some(tag) = top_tag([a, b]) else {
        let (Tensor::Plain(x), Tensor::Plain(y)) = (a, b) else {
            if crate::symbolic::graph_of([a, b]).is_some() {
                return crate::symbolic::binary(f, a, b);
            }
            return super::tracing::binary(f, a, b);
        };
        if f == BinaryFn::Pow {
            check_pow_domain(x, y)?;
        }
        return Ok(Tensor::plain(f.zip_map(x, y)?));
    };
    if crate::reverse::is_tape_tag([a, b], tag) {
        return super::taping::binary(f, a, b, tag);
    }
    let n = chunk_len([a, b], tag);
    let (va, pa) = a.split(tag);
    let (vb, pb) = b.split(tag);
    let value = binary(f, va, vb)?;
    let out_shape = value.shape().to_vec();
    let mut partials = Vec::with_capacity(n);
    let (da, db) = slopes(f, va, vb, &value, pa.is_some(), pb.is_some())?;
    if let Some(partials) = scalar_partials(&[(da.as_ref(), pa), (db.as_ref(), pb)], n) {
        return Ok(Tensor::dual(tag, value, partials));
    }
    if let (Some(sa), Some(pa), Some(sb), Some(pb)) = (&da, pa, &db, pb) {
        if let Some(partials) = combined_partials(sa, pa, sb, pb, &out_shape) {
            return Ok(Tensor::dual(tag, value, partials));
        }
    }
    for k in 0..n {
        let term_a = match (&da, pa) {
            (Some(s), Some(p)) => Some(scale(s, &p[k])?),
            _ => None,
        };
        let term_b = match (&db, pb) {
            (Some(s), Some(p)) => Some(scale(s, &p[k])?),
            _ => None,
        };
        let partial = match (term_a, term_b) {
            (Some(x), Some(y)) => binary(BinaryFn::Add, &x, &y)?,
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => Tensor::filled(&out_shape, 0.0),
        };
        partials.push(if partial.shape() == out_shape.as_slice() {
            partial
        } else {
            broadcast_tensor(&partial, &out_shape)?
        });
    }
    Ok(Tensor::dual(tag, value, partials))
}

/// The partials `Σ slope · partial` over the operands when every slope and partial is a plain
/// rank-0 number (scalar code such as loops over `x[i]`): plain arithmetic, instead of array
/// kernels for each of the chunk's partials. `None` when anything is an array or nested.
fn scalar_partials(
    operands: &[(Option<&Tensor>, Option<&[Tensor]>)],
    n: usize,
) -> Option<Vec<Tensor>> {
    let mut sums: Vec<Option<f64>> = vec![None; n];
    for &(slope, partials) in operands {
        let (Some(slope), Some(partials)) = (slope, partials) else {
            continue;
        };
        let s = constant_scalar(slope)?;
        for (sum, p) in sums.iter_mut().zip(partials) {
            let term = s * constant_scalar(p)?;
            *sum = Some(sum.map_or(term, |acc| acc + term));
        }
    }
    Some(
        sums.into_iter()
            .map(|sum| scalar_number(sum.unwrap_or(0.0)))
            .collect(),
    )
}

/// A slope in [`combined_partials`]: one number for every element, or one per element in
/// column-major order.
enum Coefficient<'a> {
    Uniform(f64),
    PerElement(std::borrow::Cow<'a, [f64]>),
}

/// The partials `sa·pa[k] + sb·pb[k]` in one pass each, when both operands carry plain
/// partials of the result's shape and the slopes are plain (a product of two duals otherwise
/// takes three passes and two temporaries per partial). `None` for anything else.
fn combined_partials(
    sa: &Tensor,
    pa: &[Tensor],
    sb: &Tensor,
    pb: &[Tensor],
    shape: &[usize],
) -> Option<Vec<Tensor>> {
    fn coefficient<'t>(s: &'t Tensor, shape: &[usize]) -> Option<Coefficient<'t>> {
        match s {
            Tensor::Plain(a) if a.ndim() == 0 => a.iter().next().map(|&c| Coefficient::Uniform(c)),
            Tensor::Plain(a) if a.shape() == shape => {
                Some(Coefficient::PerElement(crate::tensor::col_major_slice(a)))
            }
            _ => None,
        }
    }
    fn plain<'t>(t: &'t Tensor, shape: &[usize]) -> Option<std::borrow::Cow<'t, [f64]>> {
        match t {
            Tensor::Plain(a) if a.shape() == shape => Some(crate::tensor::col_major_slice(a)),
            _ => None,
        }
    }
    let (ca, cb) = (coefficient(sa, shape)?, coefficient(sb, shape)?);
    pa.iter()
        .zip(pb)
        .map(|(p, q)| {
            let (p, q) = (plain(p, shape)?, plain(q, shape)?);
            use std::iter::repeat;
            use Coefficient::{PerElement, Uniform};
            let data = match (&ca, &cb) {
                (Uniform(a), Uniform(b)) => combine(repeat(*a), &p, repeat(*b), &q),
                (Uniform(a), PerElement(b)) => combine(repeat(*a), &p, b.iter().copied(), &q),
                (PerElement(a), Uniform(b)) => combine(a.iter().copied(), &p, repeat(*b), &q),
                (PerElement(a), PerElement(b)) => {
                    combine(a.iter().copied(), &p, b.iter().copied(), &q)
                }
            };
            Some(Tensor::from_col_major(shape, data))
        })
        .collect()
}

fn combine(
    a: impl Iterator<Item = f64>,
    p: &[f64],
    b: impl Iterator<Item = f64>,
    q: &[f64],
) -> Vec<f64> {
    a.zip(p)
        .zip(b.zip(q))
        .map(|((a, x), (b, y))| a * x + b * y)
        .collect()
}

/// Julia raises a `DomainError` for a negative base with a non-integer exponent.
fn check_pow_domain(x: &ndarray::ArrayD<f64>, y: &ndarray::ArrayD<f64>) -> Result<()> {
    if y.iter().all(|e| e.fract() == 0.0) {
        return Ok(());
    }
    match x.iter().find(|&&v| v < 0.0) {
        Some(&bad) => Err(AdError::Domain {
            function: "^",
            value: bad,
        }),
        None => Ok(()),
    }
}

/// The partial derivatives `(∂f/∂a, ∂f/∂b)` at `(a, b)`, computed only for operands that carry
/// partials.
pub(crate) fn slopes(
    f: BinaryFn,
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
    need_a: bool,
    need_b: bool,
) -> Result<(Option<Tensor>, Option<Tensor>)> {
    use BinaryFn::*;
    let c = Tensor::scalar;
    Ok(match f {
        Add => (when(need_a, || Ok(c(1.0)))?, when(need_b, || Ok(c(1.0)))?),
        Sub => (when(need_a, || Ok(c(1.0)))?, when(need_b, || Ok(c(-1.0)))?),
        Mul => (
            when(need_a, || Ok(b.clone()))?,
            when(need_b, || Ok(a.clone()))?,
        ),
        Div => (
            when(need_a, || unary(UnaryFn::Inv, b))?,
            when(need_b, || {
                binary(Div, out, b).and_then(|q| unary(UnaryFn::Neg, &q))
            })?,
        ),
        Pow => (
            // d/da a^b = b a^(b-1); d/db a^b = a^b log(a), needed only for a varying exponent.
            // The common constant exponents take one pass: 2a for squares, 1 for identities.
            when(need_a, || match constant_scalar(b) {
                Some(2.0) => binary(Mul, &c(2.0), a),
                Some(1.0) => Ok(c(1.0)),
                _ => binary(Sub, b, &c(1.0))
                    .and_then(|e| binary(Pow, a, &e))
                    .and_then(|p| binary(Mul, b, &p)),
            })?,
            when(need_b, || {
                unary(UnaryFn::Log, a).and_then(|l| binary(Mul, out, &l))
            })?,
        ),
        // A symbolic tracing has no values to choose a branch, and its program cannot keep one.
        Max | Min | Mod | Rem if a.is_symbolic() || b.is_symbolic() => {
            return Err(no_symbolic_rule(f.name()))
        }
        // Without values (global tracers) either branch may be taken: both slopes are kept.
        Max | Min if a.is_global_tracer() || b.is_global_tracer() => {
            (when(need_a, || Ok(c(1.0)))?, when(need_b, || Ok(c(1.0)))?)
        }
        Max | Min => {
            let pick_a = selector(f, a, b)?;
            let pick_b = binary(Sub, &c(1.0), &pick_a)?;
            (when(need_a, || Ok(pick_a))?, when(need_b, || Ok(pick_b))?)
        }
        Atan2 => {
            let r2 = binary(Add, &unary(UnaryFn::Abs2, a)?, &unary(UnaryFn::Abs2, b)?)?;
            (
                when(need_a, || binary(Div, b, &r2))?,
                when(need_b, || {
                    binary(Div, a, &r2).and_then(|q| unary(UnaryFn::Neg, &q))
                })?,
            )
        }
        Hypot => (
            when(need_a, || binary(Div, a, out))?,
            when(need_b, || binary(Div, b, out))?,
        ),
        Mod | Rem => {
            // a - b·q with q piecewise constant.
            let q = broadcast::zip_map(a.primal(), b.primal(), |x, y| {
                let r = f.apply(x, y);
                (x - r) / y
            })?;
            (
                when(need_a, || Ok(c(1.0)))?,
                when(need_b, || unary(UnaryFn::Neg, &Tensor::plain(q)))?,
            )
        }
    })
}

/// The error of a derivative that depends on values, asked of a symbolic tracing.
fn no_symbolic_rule(function: &'static str) -> AdError {
    AdError::NoRule {
        function,
        kind: "symbolic (value-dependent) derivative",
    }
}

/// `slope()` when `need`: each slope is computed only for an operand that carries partials
/// (`log(a)` for a constant exponent would cost more than the power itself).
fn when(need: bool, slope: impl FnOnce() -> Result<Tensor>) -> Result<Option<Tensor>> {
    if need {
        slope().map(Some)
    } else {
        Ok(None)
    }
}

/// The number held by a plain rank-0 tensor.
/// `slope .* t`; a slope of constant 1 (sums and differences) shares `t` instead of copying it.
pub(crate) fn scale(slope: &Tensor, t: &Tensor) -> Result<Tensor> {
    if constant_scalar(slope) == Some(1.0) {
        Ok(t.clone())
    } else {
        binary(BinaryFn::Mul, slope, t)
    }
}

fn constant_scalar(t: &Tensor) -> Option<f64> {
    match t {
        Tensor::Plain(a) if a.ndim() == 0 => a.first().copied(),
        _ => None,
    }
}

/// 1 where `max`/`min` picks `a`, else 0 (ties go to `a`).
fn selector(f: BinaryFn, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let mask = broadcast::zip_map(a.primal(), b.primal(), |x, y| {
        let picks_a = if f == BinaryFn::Max { x >= y } else { x <= y };
        if picks_a {
            1.0
        } else {
            0.0
        }
    })?;
    Ok(Tensor::plain(mask))
}

/// `t` broadcast to `shape`, for any number kind.
pub fn broadcast_tensor(t: &Tensor, shape: &[usize]) -> Result<Tensor> {
    if t.shape() == shape {
        return Ok(t.clone());
    }
    match t {
        Tensor::Plain(a) => Ok(Tensor::plain(broadcast::to_shape(a, shape)?)),
        Tensor::Tracer(_) => super::tracing::binary(BinaryFn::Add, t, &Tensor::filled(shape, 0.0)),
        Tensor::Symbolic(s) => crate::symbolic::broadcast(s, shape),
        Tensor::Tracked(tr) => super::taping::broadcast(tr, shape),
        Tensor::Dual(d) => d.map_layers(|p| broadcast_tensor(p, shape)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::Tag;

    fn seeded(x: f64) -> Tensor {
        Tensor::dual(Tag::fresh(), Tensor::scalar(x), vec![Tensor::scalar(1.0)])
    }

    fn parts(t: &Tensor) -> (f64, f64) {
        let Tensor::Dual(d) = t else {
            panic!("expected a dual")
        };
        (d.value.primal()[[]], d.partials[0].primal()[[]])
    }

    #[test]
    fn products_and_differences_of_array_duals_combine_partials_in_one_pass() {
        let tag = Tag::fresh();
        let v = |d: &[f64]| Tensor::from_col_major(&[3], d.to_vec());
        let a = Tensor::dual(
            tag,
            v(&[1.0, 2.0, 3.0]),
            vec![v(&[1.0, 0.0, 0.0]), v(&[0.0, 1.0, 1.0])],
        );
        let b = Tensor::dual(
            tag,
            v(&[4.0, 5.0, 6.0]),
            vec![v(&[2.0, 2.0, 2.0]), v(&[0.0, 0.0, 1.0])],
        );
        let partials = |t: &Tensor| -> Vec<Vec<f64>> {
            let (_, p) = t.split(tag);
            p.unwrap().iter().map(Tensor::to_col_major).collect()
        };
        // d(a·b) = b·da + a·db
        let product = binary(BinaryFn::Mul, &a, &b).unwrap();
        assert_eq!(product.to_col_major(), vec![4.0, 10.0, 18.0]);
        assert_eq!(
            partials(&product),
            vec![vec![6.0, 4.0, 6.0], vec![0.0, 5.0, 9.0]]
        );
        // d(a - b) = da - db
        let difference = binary(BinaryFn::Sub, &a, &b).unwrap();
        assert_eq!(
            partials(&difference),
            vec![vec![-1.0, -2.0, -2.0], vec![0.0, 1.0, 0.0]]
        );
    }

    #[test]
    fn unary_rules_match_central_differences() {
        let h = 1e-6;
        for f in [
            UnaryFn::Sin,
            UnaryFn::Tanh,
            UnaryFn::Sqrt,
            UnaryFn::Log,
            UnaryFn::Atan,
            UnaryFn::Sigmoid,
            UnaryFn::Softplus,
            UnaryFn::Cbrt,
            UnaryFn::Sec,
            UnaryFn::Cot,
            UnaryFn::Asin,
        ] {
            let x = 0.4;
            let (_, d) = parts(&unary(f, &seeded(x)).unwrap());
            let fd = (f.apply(x + h) - f.apply(x - h)) / (2.0 * h);
            assert!((d - fd).abs() < 1e-6, "{f:?}: {d} vs {fd}");
        }
    }

    #[test]
    fn scalar_code_on_duals_agrees_with_the_array_rules() {
        use BinaryFn::*;
        let tag = Tag::fresh();
        let dual = |x: f64, p: [f64; 3]| {
            Tensor::dual(tag, Tensor::scalar(x), p.map(Tensor::scalar).to_vec())
        };
        let numbers = |t: &Tensor| {
            let Tensor::Dual(d) = t else {
                panic!("expected a dual")
            };
            let partials: Vec<f64> = d.partials.iter().map(|p| p.primal()[[]]).collect();
            (d.value.primal()[[]], partials)
        };
        let (a, b) = (dual(2.5, [1.0, 0.0, -2.0]), dual(-1.5, [0.0, 0.0, 3.0]));
        for f in [Add, Sub, Mul, Div, Pow, Max, Min, Atan2, Hypot, Mod, Rem] {
            for (x, y) in [
                (&a, &b),
                (&b, &a),
                (&a, &Tensor::scalar(2.0)),
                (&Tensor::scalar(0.5), &b),
            ] {
                if f == Pow && (x.primal()[[]] < 0.0) {
                    continue;
                }
                let fast = scalar_binary(f, Scalar::of(x), Scalar::of(y)).unwrap();
                let general = binary(f, x, y).unwrap();
                assert_eq!(numbers(&fast), numbers(&general), "{f:?}");
            }
        }
        // The exponent's domain is checked as for arrays.
        let err = scalar_binary(Pow, Scalar::of(&b), Scalar::Plain(0.5)).unwrap_err();
        assert!(matches!(err, AdError::Domain { function: "^", .. }));
    }

    #[test]
    fn product_and_power_rules() {
        let x = seeded(3.0);
        let (v, d) = parts(&binary(BinaryFn::Mul, &x, &x).unwrap());
        assert_eq!((v, d), (9.0, 6.0));
        let (v, d) = parts(&binary(BinaryFn::Pow, &x, &Tensor::scalar(3.0)).unwrap());
        assert_eq!((v, d), (27.0, 27.0));
    }

    #[test]
    fn sqrt_of_negative_is_a_domain_error() {
        let err = unary(UnaryFn::Sqrt, &Tensor::scalar(-1.0)).unwrap_err();
        assert!(matches!(
            err,
            AdError::Domain {
                function: "sqrt",
                ..
            }
        ));
    }
}
