//! Julia's Statistics standard library beside `mean`: `var`, `std`, `cov` and `cor` composed
//! from the array operators, so every backend differentiates them and sparsity detection sees
//! their structure; `median` and `quantile` read the sorted values and combine the elements
//! they pick, so derivatives flow through those elements as in Julia's AD packages.

use super::{call_builtin, to_float, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_syntax::{BinOp, Name};

/// The `dims` keyword, passed on to `sum` and `mean`.
fn dims_keyword(args: &Args) -> Vec<(Name, Value)> {
    args.kw("dims")
        .map(|d| vec![(difflab_syntax::name!("dims"), d.clone())])
        .unwrap_or_default()
}

/// The number of elements each reduction over `dims` combines (all of them without `dims`).
fn reduced_count(x: &Value, dims: Option<&Value>, name: &str) -> Result<usize, Flow> {
    let shape = super::arrays::shape_of(x, name)?;
    let Some(dims) = dims else {
        return Ok(shape.iter().product());
    };
    let list = match dims {
        Value::Tuple(items) => items.to_vec(),
        other => vec![other.clone()],
    };
    list.iter().try_fold(1, |count, d| {
        let k = super::to_size(d, name)?;
        Ok(count * shape.get(k.wrapping_sub(1)).copied().unwrap_or(1))
    })
}

/// `corrected = true` (Bessel's correction, dividing by `n - 1`) or `false` (by `n`).
fn corrected(args: &Args, name: &str) -> Result<bool, Flow> {
    match args.kw("corrected") {
        None => Ok(true),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(fail(
            ErrorKind::TypeError,
            format!(
                "{name}: corrected must be a Bool, got a {}",
                other.type_name()
            ),
        )),
    }
}

/// `var(x; corrected = true, mean = nothing, dims)`.
fn var_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("var", 1, 1)?;
    args.keywords("var", &["corrected", "mean", "dims"])?;
    let x = &args.pos[0];
    let dims = dims_keyword(&args);
    if dims.is_empty() && super::arrays::length_of(x) == Some(0) {
        return Ok(Value::Float(f64::NAN));
    }
    let mean = match args.kw("mean") {
        None | Some(Value::Nothing) => {
            call_builtin(interp, "mean", vec![x.clone()], dims.clone(), false)?
        }
        Some(m) => m.clone(),
    };
    let centered = interp.binary(BinOp::Sub, true, x, &mean)?;
    let squares = interp.binary(BinOp::Mul, true, &centered, &centered)?;
    let total = call_builtin(interp, "sum", vec![squares], dims, false)?;
    let n = reduced_count(x, args.kw("dims"), "var")?;
    let divisor = n as f64 - f64::from(u8::from(corrected(&args, "var")?));
    interp.binary(BinOp::Div, true, &total, &Value::Float(divisor))
}

/// `std(x; corrected, mean, dims)`: the square root of `var`.
fn std_(interp: &mut Interp, args: Args) -> EvalResult {
    let variance = var_(interp, args)?;
    call_builtin(interp, "sqrt", vec![variance], Vec::new(), true)
}

/// The columns of `x` (a matrix; `dims = 2` takes its rows as the observations' variables)
/// minus their means, and the number of observations.
fn centered_observations(
    interp: &mut Interp,
    x: &Value,
    args: &Args,
    name: &str,
) -> Result<(Value, usize), Flow> {
    let by_rows = match args.kw("dims") {
        None => false,
        Some(d) => match super::to_size(d, name)? {
            1 => false,
            2 => true,
            _ => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!("{name}: dims must be 1 or 2"),
                ))
            }
        },
    };
    let x = if by_rows {
        call_builtin(interp, "permutedims", vec![x.clone()], Vec::new(), false)?
    } else {
        x.clone()
    };
    let n = super::arrays::shape_of(&x, name)?
        .first()
        .copied()
        .unwrap_or(0);
    let means = call_builtin(
        interp,
        "mean",
        vec![x.clone()],
        vec![(difflab_syntax::name!("dims"), Value::Int(1))],
        false,
    )?;
    Ok((interp.binary(BinOp::Sub, true, &x, &means)?, n))
}

/// `cov(x, y)` of two vectors, `cov(x)` (its variance) and `cov(X; dims = 1)` (the covariance
/// matrix of the columns), with `corrected`.
fn cov_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("cov", 1, 2)?;
    args.keywords("cov", &["corrected", "dims"])?;
    let divisor_of = |n: usize, args: &Args| -> Result<Value, Flow> {
        Ok(Value::Float(
            n as f64 - f64::from(u8::from(corrected(args, "cov")?)),
        ))
    };
    match args.pos.as_slice() {
        [x, y] => {
            let n = super::arrays::length_of(x).unwrap_or(0);
            if super::arrays::length_of(y) != Some(n) {
                return Err(fail(
                    ErrorKind::DimensionMismatch,
                    "cov: x and y have different lengths",
                ));
            }
            let deviation = |interp: &mut Interp, v: &Value| {
                let m = call_builtin(interp, "mean", vec![v.clone()], Vec::new(), false)?;
                interp.binary(BinOp::Sub, true, v, &m)
            };
            let (dx, dy) = (deviation(interp, x)?, deviation(interp, y)?);
            let products = interp.binary(BinOp::Mul, true, &dx, &dy)?;
            let total = call_builtin(interp, "sum", vec![products], Vec::new(), false)?;
            interp.binary(BinOp::Div, false, &total, &divisor_of(n, &args)?)
        }
        [x] if super::arrays::shape_of(x, "cov")?.len() == 1 => {
            let kw = args
                .kw("corrected")
                .map(|c| vec![(difflab_syntax::name!("corrected"), c.clone())])
                .unwrap_or_default();
            call_builtin(interp, "var", vec![x.clone()], kw, false)
        }
        [x] => {
            let (centered, n) = centered_observations(interp, x, &args, "cov")?;
            let transposed = call_builtin(
                interp,
                "permutedims",
                vec![centered.clone()],
                Vec::new(),
                false,
            )?;
            let gram = interp.binary(BinOp::Mul, false, &transposed, &centered)?;
            interp.binary(BinOp::Div, true, &gram, &divisor_of(n, &args)?)
        }
        _ => unreachable!("arity checked"),
    }
}

/// `cor(x, y)`: Pearson's correlation of two vectors; `cor(X; dims = 1)`: the correlation
/// matrix of the columns.
fn cor_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("cor", 1, 2)?;
    args.keywords("cor", &["dims"])?;
    match args.pos.as_slice() {
        [x, y] => {
            let covariance =
                call_builtin(interp, "cov", vec![x.clone(), y.clone()], Vec::new(), false)?;
            let sx = call_builtin(interp, "std", vec![x.clone()], Vec::new(), false)?;
            let sy = call_builtin(interp, "std", vec![y.clone()], Vec::new(), false)?;
            let scale = interp.binary(BinOp::Mul, false, &sx, &sy)?;
            interp.binary(BinOp::Div, false, &covariance, &scale)
        }
        [x] => {
            let covariance =
                call_builtin(interp, "cov", vec![x.clone()], dims_keyword(&args), false)?;
            let variances =
                call_builtin(interp, "diag", vec![covariance.clone()], Vec::new(), false)?;
            let deviations = call_builtin(interp, "sqrt", vec![variances], Vec::new(), true)?;
            let row = call_builtin(
                interp,
                "permutedims",
                vec![deviations.clone()],
                Vec::new(),
                false,
            )?;
            let scale = interp.binary(BinOp::Mul, true, &deviations, &row)?;
            interp.binary(BinOp::Div, true, &covariance, &scale)
        }
        _ => unreachable!("arity checked"),
    }
}

/// The elements of `x` sorted by value (each with its derivatives), or `None` when one is NaN.
fn sorted_elements(x: &Value, name: &str) -> Result<Option<Vec<Value>>, Flow> {
    let items = elements(x)?;
    let mut keyed = items
        .into_iter()
        .map(|v| {
            super::math::needs_value(&v, name)?;
            Ok((to_float(&v, name)?, v))
        })
        .collect::<Result<Vec<_>, Flow>>()?;
    if keyed.iter().any(|(k, _)| k.is_nan()) {
        return Ok(None);
    }
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(Some(keyed.into_iter().map(|(_, v)| v).collect()))
}

/// A plain integer as a `Float64` (a median or quantile is a float); other numbers as they are.
fn as_float(v: &Value) -> Value {
    match super::plain_number(v) {
        Some(x) => Value::Float(x),
        None => v.clone(),
    }
}

/// `a + t (b - a)`, differentiated as that expression.
fn interpolate(interp: &mut Interp, a: &Value, b: &Value, t: f64) -> EvalResult {
    if t == 0.0 {
        return Ok(a.clone());
    }
    let step = interp.binary(BinOp::Sub, false, b, a)?;
    let scaled = interp.binary(BinOp::Mul, false, &step, &Value::Float(t))?;
    interp.binary(BinOp::Add, false, a, &scaled)
}

/// `median(x)`: the middle value, or the mean of the two middle values; `NaN` when `x` holds
/// one.
fn median_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("median", 1, 1)?;
    let Some(sorted) = sorted_elements(&args.pos[0], "median")? else {
        return Ok(Value::Float(f64::NAN));
    };
    let n = sorted.len();
    if n == 0 {
        return Err(fail(
            ErrorKind::ArgumentError,
            "median of an empty array is undefined, Float64[]",
        ));
    }
    let upper = &sorted[n / 2];
    if n % 2 == 1 {
        return Ok(as_float(upper));
    }
    interpolate(interp, &sorted[n / 2 - 1], upper, 0.5)
}

/// `quantile(x, p)`: Julia's default (type 7) quantile, linear between order statistics, for a
/// probability `p` or a vector of them.
fn quantile_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("quantile", 2, 2)?;
    let Some(sorted) = sorted_elements(&args.pos[0], "quantile")? else {
        return Err(fail(
            ErrorKind::ArgumentError,
            "quantiles are undefined in presence of NaNs or missing values",
        ));
    };
    if sorted.is_empty() {
        return Err(fail(ErrorKind::ArgumentError, "empty data vector"));
    }
    let one = |interp: &mut Interp, p: &Value| -> EvalResult {
        let p = to_float(p, "quantile")?;
        if !(0.0..=1.0).contains(&p) {
            return Err(fail(
                ErrorKind::ArgumentError,
                "quantiles must be in [0, 1]",
            ));
        }
        let h = (sorted.len() - 1) as f64 * p;
        let lo = h.floor() as usize;
        let hi = (lo + 1).min(sorted.len() - 1);
        let value = interpolate(interp, &sorted[lo], &sorted[hi], h - lo as f64)?;
        Ok(as_float(&value))
    };
    match &args.pos[1] {
        p if p.is_number() => one(interp, p),
        ps => {
            let values = elements(ps)?
                .iter()
                .map(|p| one(interp, p))
                .collect::<Result<Vec<_>, _>>()?;
            let n = values.len();
            crate::eval::collections::collect_values(interp, values, &[n])
        }
    }
}

crate::builtins! {
    "var" => var_, false, "    var(x; corrected = true, mean = nothing, dims)\n\nThe sample variance `Σ(xᵢ - x̄)² / (n - 1)` (divided by `n` with `corrected = false`), of all elements or along `dims`; composed from array operations, so every backend differentiates it.\n\n```\njulia> var([1.0, 2.0, 3.0, 4.0])\n1.6666666666666667\n\njulia> var([1 2; 3 6]; dims = 1)\n1×2 Matrix{Float64}:\n 2.0  8.0\n```";
    "std" => std_, false, "    std(x; corrected = true, mean = nothing, dims)\n\nThe sample standard deviation, `sqrt(var(x))`.\n\n```\njulia> std([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]; corrected = false)\n2.0\n```";
    "cov" => cov_, false, "    cov(x, y; corrected = true)\n    cov(X; dims = 1, corrected = true)\n\nThe sample covariance of two vectors, or the covariance matrix of the columns of `X` (of its rows with `dims = 2`).\n\n```\njulia> cov([1.0, 2.0, 3.0], [1.0, 0.0, 2.0])\n0.5\n\njulia> cov([1.0 2.0; 3.0 6.0; 5.0 10.0])\n2×2 Matrix{Float64}:\n 4.0   8.0\n 8.0  16.0\n```";
    "cor" => cor_, false, "    cor(x, y)\n    cor(X; dims = 1)\n\nPearson's correlation of two vectors, or the correlation matrix of the columns of `X`.\n\n```\njulia> cor([1.0, 2.0, 3.0], [2.0, 4.0, 6.5]) > 0.99\ntrue\n\njulia> cor([1.0 2.0; 2.0 4.0; 3.0 6.0])\n2×2 Matrix{Float64}:\n 1.0  1.0\n 1.0  1.0\n```";
    "median" => median_, false, "    median(x)\n\nThe middle value of `x` (the mean of the two middle values for an even count); `NaN` when `x` holds a `NaN`. Derivatives flow through the middle elements.\n\n```\njulia> median([3.0, 1.0, 2.0]), median([4, 1, 3, 2])\n(2.0, 2.5)\n```";
    "quantile" => quantile_, false, "    quantile(x, p)\n\nThe `p`-quantile of `x` (Julia's default definition, linear between order statistics), for a probability `p` or a vector of them.\n\n```\njulia> quantile([1.0, 2.0, 3.0, 4.0], 0.5), quantile(1:11, [0.1, 0.9])\n(2.5, [2.0, 10.0])\n```";
}
