//! The activation functions of NNlib (`elu`, `gelu`, `swish`, `leakyrelu`, `hardtanh`, …) and
//! the log-exp functions of LogExpFunctions (`logistic`, `logit`, `xlogx`, `logaddexp`, …),
//! as those packages define them.
//!
//! Each is one formula written against [`Calc`]: evaluated directly on plain numbers
//! ([`Plain`]), and composed from the language's operators on anything else ([`Composed`]:
//! duals, tape values, tracers, symbolic nodes), so derivatives and sparsity patterns are those
//! of the formula, without rules of their own. Branches are `ifelse`, so a global tracer takes
//! the union of both sides, as SparseConnectivityTracer's overloads do.

use super::{call_named, plain_number, Args};
use crate::error::{EvalResult, Flow};
use crate::eval::Interp;
use crate::value::Value;
use difflab_syntax::BinOp;

/// The arithmetic a formula needs, on plain numbers or on values of the language.
trait Calc {
    type N: Clone;
    fn constant(&mut self, k: f64) -> Self::N;
    fn op(&mut self, op: BinOp, a: &Self::N, b: &Self::N) -> Result<Self::N, Flow>;
    /// A function of one number: `exp`, `log`, `log1p`, `expm1`, `tanh`, `abs`, `sigmoid`,
    /// `softplus`.
    fn apply(&mut self, f: &'static str, a: &Self::N) -> Result<Self::N, Flow>;
    /// `ifelse(l > r, then, otherwise)`.
    fn if_greater(
        &mut self,
        l: &Self::N,
        r: &Self::N,
        then: &Self::N,
        otherwise: &Self::N,
    ) -> Result<Self::N, Flow>;
}

/// Plain numbers, computed directly.
struct Plain;

impl Calc for Plain {
    type N = f64;
    fn constant(&mut self, k: f64) -> f64 {
        k
    }
    fn op(&mut self, op: BinOp, a: &f64, b: &f64) -> Result<f64, Flow> {
        Ok(match op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div => a / b,
            BinOp::Pow => a.powf(*b),
            _ => unreachable!("formulas use + - * / ^ only"),
        })
    }
    fn apply(&mut self, f: &'static str, a: &f64) -> Result<f64, Flow> {
        let x = *a;
        Ok(match f {
            "exp" => x.exp(),
            "log" if x < 0.0 => return Err(domain("log", x)),
            "log" => x.ln(),
            "log1p" if x < -1.0 => return Err(domain("log1p", x)),
            "log1p" => x.ln_1p(),
            "expm1" => x.exp_m1(),
            "tanh" => x.tanh(),
            "abs" => x.abs(),
            "sigmoid" => difflab_ad::ops::UnaryFn::Sigmoid.apply(x),
            "softplus" => difflab_ad::ops::UnaryFn::Softplus.apply(x),
            other => unreachable!("no plain form of {other}"),
        })
    }
    fn if_greater(&mut self, l: &f64, r: &f64, then: &f64, otherwise: &f64) -> Result<f64, Flow> {
        Ok(if l > r { *then } else { *otherwise })
    }
}

/// Julia's `DomainError` of a plain argument outside a function's domain.
fn domain(f: &str, x: f64) -> Flow {
    crate::error::fail(
        crate::error::ErrorKind::DomainError,
        format!(
            "{f} was called with {}, outside its domain",
            crate::show::float(x)
        ),
    )
}

/// Values of the language, through its operators and builtins.
struct Composed<'a>(&'a mut Interp);

impl Calc for Composed<'_> {
    type N = Value;
    fn constant(&mut self, k: f64) -> Value {
        Value::Float(k)
    }
    fn op(&mut self, op: BinOp, a: &Value, b: &Value) -> Result<Value, Flow> {
        self.0.binary(op, false, a, b)
    }
    fn apply(&mut self, f: &'static str, a: &Value) -> Result<Value, Flow> {
        call_named(self.0, f, vec![a.clone()])
    }
    fn if_greater(
        &mut self,
        l: &Value,
        r: &Value,
        then: &Value,
        otherwise: &Value,
    ) -> Result<Value, Flow> {
        let condition = self.0.binary(BinOp::Gt, false, l, r)?;
        call_named(
            self.0,
            "ifelse",
            vec![condition, then.clone(), otherwise.clone()],
        )
    }
}

/// Shorthands for writing formulas.
macro_rules! formula {
    ($c:ident; $a:expr, +, $b:expr) => {
        $c.op(BinOp::Add, &$a, &$b)?
    };
    ($c:ident; $a:expr, -, $b:expr) => {
        $c.op(BinOp::Sub, &$a, &$b)?
    };
    ($c:ident; $a:expr, *, $b:expr) => {
        $c.op(BinOp::Mul, &$a, &$b)?
    };
    ($c:ident; $a:expr, /, $b:expr) => {
        $c.op(BinOp::Div, &$a, &$b)?
    };
}

/// `x · f(x)`.
fn times_of<C: Calc>(c: &mut C, x: &C::N, f: &'static str) -> Result<C::N, Flow> {
    let fx = c.apply(f, x)?;
    Ok(formula!(c; *x, *, fx))
}

/// `max(lo, min(hi, x))` written with `ifelse` (both branches linear).
fn clamp<C: Calc>(c: &mut C, x: &C::N, lo: f64, hi: f64) -> Result<C::N, Flow> {
    let (lo, hi) = (c.constant(lo), c.constant(hi));
    let upper = c.if_greater(x, &hi, &hi, x)?;
    c.if_greater(&lo, &upper, &lo, &upper)
}

/// `x / 6 + 1/2` clamped to [0, 1]: NNlib's hard sigmoid.
fn hard_sigmoid<C: Calc>(c: &mut C, x: &C::N) -> Result<C::N, Flow> {
    let (six, half) = (c.constant(6.0), c.constant(0.5));
    let line = formula!(c; *x, /, six);
    let line = formula!(c; line, +, half);
    clamp(c, &line, 0.0, 1.0)
}

const SELU_SCALE: f64 = 1.050_700_987_355_480_5;
const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;

/// The formulas, by name: `x` and the parameter (NNlib's `α`, `a`, `λ`, `θ`; unused by most).
fn formula<C: Calc>(c: &mut C, name: &str, x: &C::N, p: &C::N) -> Result<C::N, Flow> {
    let (zero, one) = (c.constant(0.0), c.constant(1.0));
    Ok(match name {
        "elu" => {
            let e = c.apply("expm1", x)?;
            let negative = formula!(c; *p, *, e);
            c.if_greater(x, &zero, x, &negative)?
        }
        "celu" => {
            let scaled = formula!(c; *x, /, *p);
            let e = c.apply("expm1", &scaled)?;
            let negative = formula!(c; *p, *, e);
            c.if_greater(&zero, x, &negative, x)?
        }
        "selu" => {
            let alpha = c.constant(SELU_ALPHA);
            let inner = formula(c, "elu", x, &alpha)?;
            let scale = c.constant(SELU_SCALE);
            formula!(c; scale, *, inner)
        }
        "gelu" => {
            // NNlib's tanh approximation: x/2 · (1 + tanh(√(2/π) · (x + 0.044715 x³))).
            let (k, cubic, half) = (
                c.constant((2.0 / std::f64::consts::PI).sqrt()),
                c.constant(0.044715),
                c.constant(0.5),
            );
            let x2 = formula!(c; *x, *, *x);
            let x3 = formula!(c; x2, *, *x);
            let t = formula!(c; cubic, *, x3);
            let t = formula!(c; *x, +, t);
            let t = formula!(c; k, *, t);
            let t = c.apply("tanh", &t)?;
            let t = formula!(c; one, +, t);
            let hx = formula!(c; half, *, *x);
            formula!(c; hx, *, t)
        }
        "swish" => times_of(c, x, "sigmoid")?,
        "lisht" => times_of(c, x, "tanh")?,
        "mish" => {
            let s = c.apply("softplus", x)?;
            let t = c.apply("tanh", &s)?;
            formula!(c; *x, *, t)
        }
        "softsign" => {
            let a = c.apply("abs", x)?;
            let d = formula!(c; one, +, a);
            formula!(c; *x, /, d)
        }
        "tanhshrink" => {
            let t = c.apply("tanh", x)?;
            formula!(c; *x, -, t)
        }
        "logsigmoid" | "loglogistic" => {
            let minus = formula!(c; zero, -, *x);
            let s = c.apply("softplus", &minus)?;
            formula!(c; zero, -, s)
        }
        "log1mlogistic" => {
            let s = c.apply("softplus", x)?;
            formula!(c; zero, -, s)
        }
        "hardsigmoid" => hard_sigmoid(c, x)?,
        "hardswish" => {
            let h = hard_sigmoid(c, x)?;
            formula!(c; *x, *, h)
        }
        "hardtanh" => clamp(c, x, -1.0, 1.0)?,
        "relu6" => clamp(c, x, 0.0, 6.0)?,
        "leakyrelu" => {
            let negative = formula!(c; *p, *, *x);
            c.if_greater(x, &zero, x, &negative)?
        }
        "trelu" => c.if_greater(x, p, x, &zero)?,
        "softshrink" => {
            let above = formula!(c; *x, -, *p);
            let below = formula!(c; *x, +, *p);
            let minus_p = formula!(c; zero, -, *p);
            let inner = c.if_greater(&minus_p, x, &below, &zero)?;
            c.if_greater(x, p, &above, &inner)?
        }
        "logcosh" => {
            // |x| + log1p(exp(−2|x|)) − log 2, exact for large |x|.
            let a = c.apply("abs", x)?;
            let m2 = c.constant(-2.0);
            let t = formula!(c; m2, *, a);
            let e = c.apply("exp", &t)?;
            let l = c.apply("log1p", &e)?;
            let ln2 = c.constant(std::f64::consts::LN_2);
            let s = formula!(c; a, +, l);
            formula!(c; s, -, ln2)
        }
        "logit" => {
            let d = formula!(c; one, -, *x);
            let q = formula!(c; *x, /, d);
            c.apply("log", &q)?
        }
        "xlogx" => {
            let v = times_of(c, x, "log")?;
            // 0 · log 0 is 0 by convention; x > 0 or x < 0 (a domain error) take the formula.
            let away = c.apply("abs", x)?;
            c.if_greater(&away, &zero, &v, &zero)?
        }
        "xexpx" => times_of(c, x, "exp")?,
        "log1psq" => {
            let sq = formula!(c; *x, *, *x);
            c.apply("log1p", &sq)?
        }
        "logexpm1" | "invsoftplus" => {
            let e = c.apply("expm1", x)?;
            c.apply("log", &e)?
        }
        "log1pmx" => {
            let l = c.apply("log1p", x)?;
            formula!(c; l, -, *x)
        }
        "logmxp1" => {
            let l = c.apply("log", x)?;
            let d = formula!(c; l, -, *x);
            formula!(c; d, +, one)
        }
        "log1mexp" => {
            let e = c.apply("expm1", x)?;
            let minus = formula!(c; zero, -, e);
            c.apply("log", &minus)?
        }
        "logitexp" | "logit1mexp" => {
            // logit(exp(x)) = x − log1mexp(x); logit(1 − exp(x)) is its negative.
            let e = c.apply("expm1", x)?;
            let minus = formula!(c; zero, -, e);
            let l = c.apply("log", &minus)?;
            if name == "logitexp" {
                formula!(c; *x, -, l)
            } else {
                formula!(c; l, -, *x)
            }
        }
        "logabssinh" => {
            // log|sinh x| = |x| + log1mexp(−2|x|) − log 2.
            let a = c.apply("abs", x)?;
            let m2 = c.constant(-2.0);
            let t = formula!(c; m2, *, a);
            let e = c.apply("expm1", &t)?;
            let minus = formula!(c; zero, -, e);
            let l = c.apply("log", &minus)?;
            let ln2 = c.constant(std::f64::consts::LN_2);
            let s = formula!(c; a, +, l);
            formula!(c; s, -, ln2)
        }
        "log2mexp" => {
            // log(2 − exp(x)) = log1p(−expm1(x)).
            let e = c.apply("expm1", x)?;
            let minus = formula!(c; zero, -, e);
            c.apply("log1p", &minus)?
        }
        "cloglog" => {
            let minus = formula!(c; zero, -, *x);
            let l = c.apply("log1p", &minus)?;
            let minus = formula!(c; zero, -, l);
            c.apply("log", &minus)?
        }
        "cexpexp" => {
            let e = c.apply("exp", x)?;
            let minus = formula!(c; zero, -, e);
            let m = c.apply("expm1", &minus)?;
            formula!(c; zero, -, m)
        }
        other => unreachable!("no formula for {other}"),
    })
}

/// Runs formula `name` on the one argument and the optional parameter (default `p`).
fn run(interp: &mut Interp, args: &Args, name: &'static str, p: f64) -> EvalResult {
    args.arity(name, 1, 2)?;
    let x = &args.pos[0];
    let param = args.pos.get(1).cloned().unwrap_or(Value::Float(p));
    match (plain_number(x), plain_number(&param)) {
        (Some(x), Some(p)) => Ok(Value::Float(formula(&mut Plain, name, &x, &p)?)),
        _ => formula(&mut Composed(interp), name, x, &param),
    }
}

/// Two-argument functions of LogExpFunctions: `xlogy`, `xlog1py`, `xexpy`, `logaddexp`,
/// `logsubexp`.
fn run2(interp: &mut Interp, args: &Args, name: &'static str) -> EvalResult {
    args.arity(name, 2, 2)?;
    fn two<C: Calc>(c: &mut C, name: &str, x: &C::N, y: &C::N) -> Result<C::N, Flow> {
        let zero = c.constant(0.0);
        Ok(match name {
            "xlogy" | "xlog1py" | "xexpy" => {
                let f = match name {
                    "xlogy" => "log",
                    "xlog1py" => "log1p",
                    _ => "exp",
                };
                let fy = c.apply(f, y)?;
                let v = formula!(c; *x, *, fy);
                if name == "xexpy" {
                    v
                } else {
                    // x · log(y) is 0 where x is 0 (unless y is NaN, which the product keeps).
                    let away = c.apply("abs", x)?;
                    c.if_greater(&away, &zero, &v, &zero)?
                }
            }
            "logaddexp" | "logsubexp" => {
                // max(x, y) + log1p(±exp(min(x, y) − max(x, y))): at a tie each operand is
                // on one side, so the derivative is 1/2 each, as the function's.
                let top = c.if_greater(x, y, x, y)?;
                let low = c.if_greater(x, y, y, x)?;
                let m = formula!(c; low, -, top);
                let e = c.apply("exp", &m)?;
                let e = if name == "logsubexp" {
                    formula!(c; zero, -, e)
                } else {
                    e
                };
                let l = c.apply("log1p", &e)?;
                formula!(c; top, +, l)
            }
            other => unreachable!("no formula for {other}"),
        })
    }
    match (plain_number(&args.pos[0]), plain_number(&args.pos[1])) {
        (Some(x), Some(y)) => Ok(Value::Float(two(&mut Plain, name, &x, &y)?)),
        _ if matches!(name, "xlogy" | "xlog1py" | "xexpy") && args.pos.iter().any(traced) => {
            let primal = |v: &Value| traced_value(v).unwrap_or(f64::NAN);
            let value = two(
                &mut Plain,
                name,
                &primal(&args.pos[0]),
                &primal(&args.pos[1]),
            )?;
            opaque_pattern(interp, value, &args.pos[0], &args.pos[1])
        }
        _ => two(&mut Composed(interp), name, &args.pos[0], &args.pos[1]),
    }
}

/// Whether sparsity tracers are inside `v`.
fn traced(v: &Value) -> bool {
    matches!(v, Value::Real(t) if t.has_tracer())
}

/// The number a traced value stands for (NaN for a global tracer, which has none).
fn traced_value(v: &Value) -> Option<f64> {
    match v {
        Value::Real(t) => t.primal().first().copied(),
        other => plain_number(other),
    }
}

/// `value`, with the sparsity pattern SparseConnectivityTracer gives `xlogy`, `xlog1py` and
/// `xexpy`: it classifies them as functions of two arguments whose every first and second
/// derivative may be nonzero (at any point, for local tracers too), where their formulas are
/// linear in `x`. `sin(x + y)` has that pattern; the difference of two evaluations of it (two
/// nodes of a tape, so neither slope cancels before it is applied) is an exact zero that
/// carries the pattern onto `value`.
fn opaque_pattern(interp: &mut Interp, value: f64, x: &Value, y: &Value) -> EvalResult {
    let mut coupled = || -> EvalResult {
        let sum = interp.binary(BinOp::Add, false, x, y)?;
        call_named(interp, "sin", vec![sum])
    };
    let (a, b) = (coupled()?, coupled()?);
    let zero = interp.binary(BinOp::Sub, false, &a, &b)?;
    interp.binary(BinOp::Add, false, &Value::Float(value), &zero)
}

/// Defines the builtins of one-argument formulas with their default parameter.
macro_rules! activations {
    ($($fn_name:ident, $name:literal, $p:expr;)*) => {
        $(fn $fn_name(interp: &mut Interp, args: Args) -> EvalResult {
            run(interp, &args, $name, $p)
        })*
    };
}

activations! {
    elu_, "elu", 1.0;
    celu_, "celu", 1.0;
    selu_, "selu", 0.0;
    gelu_, "gelu", 0.0;
    swish_, "swish", 0.0;
    lisht_, "lisht", 0.0;
    mish_, "mish", 0.0;
    softsign_, "softsign", 0.0;
    tanhshrink_, "tanhshrink", 0.0;
    logsigmoid_, "logsigmoid", 0.0;
    loglogistic_, "loglogistic", 0.0;
    log1mlogistic_, "log1mlogistic", 0.0;
    hardsigmoid_, "hardsigmoid", 0.0;
    hardswish_, "hardswish", 0.0;
    hardtanh_, "hardtanh", 0.0;
    relu6_, "relu6", 0.0;
    leakyrelu_, "leakyrelu", 0.01;
    trelu_, "trelu", 1.0;
    softshrink_, "softshrink", 0.5;
    logcosh_, "logcosh", 0.0;
    logit_, "logit", 0.0;
    xlogx_, "xlogx", 0.0;
    xexpx_, "xexpx", 0.0;
    log1psq_, "log1psq", 0.0;
    logexpm1_, "logexpm1", 0.0;
    invsoftplus_, "invsoftplus", 0.0;
    log1pmx_, "log1pmx", 0.0;
    logmxp1_, "logmxp1", 0.0;
    log1mexp_, "log1mexp", 0.0;
    log2mexp_, "log2mexp", 0.0;
    logitexp_, "logitexp", 0.0;
    logit1mexp_, "logit1mexp", 0.0;
    logabssinh_, "logabssinh", 0.0;
    cloglog_, "cloglog", 0.0;
    cexpexp_, "cexpexp", 0.0;
}

/// Defines the builtins of two-argument formulas.
macro_rules! pairs {
    ($($fn_name:ident, $name:literal;)*) => {
        $(fn $fn_name(interp: &mut Interp, args: Args) -> EvalResult {
            run2(interp, &args, $name)
        })*
    };
}

pairs! {
    xlogy_, "xlogy";
    xlog1py_, "xlog1py";
    xexpy_, "xexpy";
    logaddexp_, "logaddexp";
    logsubexp_, "logsubexp";
}

/// Other packages' names of existing functions: `logistic` and `sigmoid_fast` are `sigmoid`,
/// `log1pexp` is `softplus`, `tanh_fast` is `tanh`.
macro_rules! aliases {
    ($($fn_name:ident, $name:literal, $same:literal;)*) => {
        $(fn $fn_name(interp: &mut Interp, args: Args) -> EvalResult {
            args.arity($name, 1, 1)?;
            call_named(interp, $same, args.pos)
        })*
    };
}

aliases! {
    logistic_, "logistic", "sigmoid";
    sigmoid_fast_, "sigmoid_fast", "sigmoid";
    tanh_fast_, "tanh_fast", "tanh";
    log1pexp_, "log1pexp", "softplus";
}

crate::builtins! {
    "elu" => elu_, false, "    elu(x, α = 1)\n\nNNlib's exponential linear unit: `x` for `x > 0`, else `α·(exp(x) − 1)`.\n\n```\njulia> elu(-1.0)\n-0.6321205588285577\n```";
    "celu" => celu_, false, "    celu(x, α = 1)\n\nNNlib's continuously differentiable ELU: `x` for `x ≥ 0`, else `α·(exp(x/α) − 1)`.\n\n```\njulia> celu(-1.0, 2.0)\n-0.7869386805747332\n```";
    "selu" => selu_, false, "    selu(x)\n\nNNlib's scaled ELU, `λ·elu(x, α)` with the self-normalizing constants.\n\n```\njulia> selu(1.0)\n1.0507009873554805\n```";
    "gelu" => gelu_, false, "    gelu(x)\n\nNNlib's Gaussian error linear unit (its tanh approximation).\n\n```\njulia> gelu(1.0)\n0.8411919906082768\n```";
    "swish" => swish_, false, "    swish(x)\n\n`x · sigmoid(x)`.\n\n```\njulia> swish(1.0)\n0.7310585786300049\n```";
    "lisht" => lisht_, false, "    lisht(x)\n\n`x · tanh(x)`.\n\n```\njulia> lisht(1.0)\n0.7615941559557649\n```";
    "mish" => mish_, false, "    mish(x)\n\n`x · tanh(softplus(x))`.\n\n```\njulia> mish(1.0)\n0.8650983882673103\n```";
    "softsign" => softsign_, false, "    softsign(x)\n\n`x / (1 + |x|)`.\n\n```\njulia> softsign(1.0)\n0.5\n```";
    "tanhshrink" => tanhshrink_, false, "    tanhshrink(x)\n\n`x − tanh(x)`.\n\n```\njulia> tanhshrink(0.0)\n0.0\n```";
    "logsigmoid" => logsigmoid_, false, "    logsigmoid(x)\n\nNNlib's `logσ`: `log(sigmoid(x)) = −softplus(−x)`, exact for large `|x|`.\n\n```\njulia> logsigmoid(0.0)\n-0.6931471805599453\n```";
    "loglogistic" => loglogistic_, false, "    loglogistic(x)\n\nLogExpFunctions' `log(logistic(x))`.\n\n```\njulia> loglogistic(0.0)\n-0.6931471805599453\n```";
    "log1mlogistic" => log1mlogistic_, false, "    log1mlogistic(x)\n\nLogExpFunctions' `log(1 − logistic(x)) = −softplus(x)`.\n\n```\njulia> log1mlogistic(0.0)\n-0.6931471805599453\n```";
    "hardsigmoid" => hardsigmoid_, false, "    hardsigmoid(x)\n\nNNlib's `hardσ`: `x/6 + 1/2` clamped to [0, 1].\n\n```\njulia> hardsigmoid(0.0), hardsigmoid(4.0)\n(0.5, 1.0)\n```";
    "hardswish" => hardswish_, false, "    hardswish(x)\n\n`x · hardsigmoid(x)`.\n\n```\njulia> hardswish(1.0)\n0.6666666666666666\n```";
    "hardtanh" => hardtanh_, false, "    hardtanh(x)\n\n`x` clamped to [−1, 1].\n\n```\njulia> hardtanh.([-2.0, 0.5])\n2-element Vector{Float64}:\n -1.0\n  0.5\n```";
    "relu6" => relu6_, false, "    relu6(x)\n\n`x` clamped to [0, 6].\n\n```\njulia> relu6(7.0)\n6.0\n```";
    "leakyrelu" => leakyrelu_, false, "    leakyrelu(x, a = 0.01)\n\n`x` for `x > 0`, else `a·x`.\n\n```\njulia> leakyrelu(-2.0)\n-0.02\n```";
    "trelu" => trelu_, false, "    trelu(x, θ = 1)\n\nThe thresholded ReLU: `x` for `x > θ`, else 0.\n\n```\njulia> trelu(0.5), trelu(2.0)\n(0.0, 2.0)\n```";
    "softshrink" => softshrink_, false, "    softshrink(x, λ = 0.5)\n\n`x − λ` above `λ`, `x + λ` below `−λ`, else 0.\n\n```\njulia> softshrink(1.0)\n0.5\n```";
    "logcosh" => logcosh_, false, "    logcosh(x)\n\n`log(cosh(x))`, exact for large `|x|`.\n\n```\njulia> logcosh(0.0)\n0.0\n```";
    "logistic" => logistic_, false, "    logistic(x)\n\nLogExpFunctions' name of `sigmoid`: `1 / (1 + exp(−x))`.\n\n```\njulia> logistic(0.0)\n0.5\n```";
    "logit" => logit_, false, "    logit(x)\n\nThe inverse of `logistic`: `log(x / (1 − x))`.\n\n```\njulia> logit(0.5)\n0.0\n```";
    "xlogx" => xlogx_, false, "    xlogx(x)\n\n`x · log(x)`, 0 at 0.\n\n```\njulia> xlogx(0.0), xlogx(1.0)\n(0.0, 0.0)\n```";
    "xexpx" => xexpx_, false, "    xexpx(x)\n\n`x · exp(x)`.\n\n```\njulia> xexpx(1.0)\n2.718281828459045\n```";
    "log1psq" => log1psq_, false, "    log1psq(x)\n\n`log(1 + x²)`.\n\n```\njulia> log1psq(0.0)\n0.0\n```";
    "log1pexp" => log1pexp_, false, "    log1pexp(x)\n\nLogExpFunctions' name of `softplus`: `log(1 + exp(x))`.\n\n```\njulia> log1pexp(0.0)\n0.6931471805599453\n```";
    "logexpm1" => logexpm1_, false, "    logexpm1(x)\n\n`log(exp(x) − 1)`, the inverse of `log1pexp`.\n\n```\njulia> logexpm1(log1pexp(1.0))\n1.0\n```";
    "invsoftplus" => invsoftplus_, false, "    invsoftplus(x)\n\nNNlib's name of `logexpm1`, the inverse of `softplus`.\n\n```\njulia> invsoftplus(softplus(2.0)) ≈ 2.0\ntrue\n```";
    "log1pmx" => log1pmx_, false, "    log1pmx(x)\n\n`log(1 + x) − x`.\n\n```\njulia> log1pmx(0.0)\n0.0\n```";
    "logmxp1" => logmxp1_, false, "    logmxp1(x)\n\n`log(x) − x + 1`.\n\n```\njulia> logmxp1(1.0)\n0.0\n```";
    "log1mexp" => log1mexp_, false, "    log1mexp(x)\n\n`log(1 − exp(x))` for `x < 0`.\n\n```\njulia> log1mexp(-1.0)\n-0.45867514538708193\n```";
    "logitexp" => logitexp_, false, "    logitexp(x)\n\n`logit(exp(x))`, for `x < 0`.\n\n```\njulia> logitexp(log(0.5))\n0.0\n```";
    "logit1mexp" => logit1mexp_, false, "    logit1mexp(x)\n\n`logit(1 − exp(x))`, for `x < 0`.\n\n```\njulia> logit1mexp(log(0.5))\n0.0\n```";
    "logabssinh" => logabssinh_, false, "    logabssinh(x)\n\n`log(|sinh(x)|)`, exact for large `|x|`.\n\n```\njulia> logabssinh(1.0) ≈ log(sinh(1.0))\ntrue\n```";
    "sigmoid_fast" => sigmoid_fast_, false, "    sigmoid_fast(x)\n\nNNlib's fast `sigmoid`; here the same function.\n\n```\njulia> sigmoid_fast(0.0)\n0.5\n```";
    "tanh_fast" => tanh_fast_, false, "    tanh_fast(x)\n\nNNlib's fast `tanh`; here the same function.\n\n```\njulia> tanh_fast(0.0)\n0.0\n```";
    "log2mexp" => log2mexp_, false, "    log2mexp(x)\n\n`log(2 − exp(x))`.\n\n```\njulia> log2mexp(0.0)\n0.0\n```";
    "cloglog" => cloglog_, false, "    cloglog(x)\n\nThe complementary log-log: `log(−log(1 − x))`.\n\n```\njulia> cloglog(0.5)\n-0.36651292058166435\n```";
    "cexpexp" => cexpexp_, false, "    cexpexp(x)\n\nThe inverse of `cloglog`: `1 − exp(−exp(x))`.\n\n```\njulia> cexpexp(cloglog(0.5))\n0.5\n```";
    "xlogy" => xlogy_, false, "    xlogy(x, y)\n\n`x · log(y)`, 0 where `x` is 0.\n\n```\njulia> xlogy(0.0, 0.0), xlogy(2.0, 1.0)\n(0.0, 0.0)\n```";
    "xlog1py" => xlog1py_, false, "    xlog1py(x, y)\n\n`x · log(1 + y)`, 0 where `x` is 0.\n\n```\njulia> xlog1py(2.0, 0.0)\n0.0\n```";
    "xexpy" => xexpy_, false, "    xexpy(x, y)\n\n`x · exp(y)`.\n\n```\njulia> xexpy(2.0, 0.0)\n2.0\n```";
    "logaddexp" => logaddexp_, false, "    logaddexp(x, y)\n\n`log(exp(x) + exp(y))` without overflow.\n\n```\njulia> logaddexp(1000.0, 1000.0)\n1000.6931471805599\n```";
    "logsubexp" => logsubexp_, false, "    logsubexp(x, y)\n\n`log(|exp(x) − exp(y)|)` without overflow.\n\n```\njulia> logsubexp(1.0, 0.0)\n0.5413248546129181\n```";
}
