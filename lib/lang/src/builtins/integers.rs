//! Integer arithmetic from Julia's Base: `factorial`, `binomial`, `gcd`, `lcm`, `digits`,
//! `isqrt`, `ispow2`, `nextpow`, `prevpow`, `count_ones`.
//! Results that do not fit in `Int64` are Julia's `OverflowError`, never a wrapped number.

use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::Value;

fn overflow(what: String) -> Flow {
    fail(ErrorKind::OverflowError, what)
}

/// `factorial(n)`: `n!` for `0 ≤ n ≤ 20` (21! does not fit in `Int64`).
fn factorial_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("factorial", 1, 1)?;
    let n = to_int(&args.pos[0], "factorial")?;
    if n < 0 {
        return Err(fail(
            ErrorKind::DomainError,
            format!("{n}: `n` must not be negative."),
        ));
    }
    (1..=n)
        .try_fold(1i64, |acc, k| acc.checked_mul(k))
        .map(Value::Int)
        .ok_or_else(|| overflow(format!("{n} is too large to look up in the table; consider using `factorial(big({n}))` instead")))
}

/// `binomial(n, k)`: the number of `k`-subsets of `n` things (Julia's extension to negative
/// `n` included: `binomial(-n, k) = (-1)ᵏ binomial(n + k - 1, k)`).
fn binomial_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("binomial", 2, 2)?;
    let n = to_int(&args.pos[0], "binomial")?;
    let k = to_int(&args.pos[1], "binomial")?;
    if k < 0 || (n >= 0 && k > n) {
        return Ok(Value::Int(0));
    }
    let (magnitude, sign) = if n < 0 {
        (
            n.unsigned_abs() as i128 + k as i128 - 1,
            if k % 2 == 0 { 1 } else { -1 },
        )
    } else {
        (n as i128, 1)
    };
    let k = k.min((magnitude - k as i128) as i64) as i128;
    // Each partial product is itself a binomial coefficient, so the division is exact.
    let mut result: i128 = 1;
    for i in 1..=k {
        result = result * (magnitude - k + i) / i;
        if result > i64::MAX as i128 {
            return Err(overflow(format!(
                "binomial({}, {}) overflows",
                args.pos[0].type_name(),
                args.pos[1].type_name()
            )));
        }
    }
    Ok(Value::Int((sign * result) as i64))
}

fn gcd2(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// The integers of a call, at least one.
fn integers(args: &Args, name: &str) -> Result<Vec<i64>, Flow> {
    args.arity(name, 1, usize::MAX)?;
    args.pos.iter().map(|v| to_int(v, name)).collect()
}

/// `gcd(a, b, …)`: the greatest common divisor (non-negative).
fn gcd_(_: &mut Interp, args: Args) -> EvalResult {
    let values = integers(&args, "gcd")?;
    Ok(Value::Int(values.into_iter().fold(0, gcd2)))
}

/// `lcm(a, b, …)`: the least common multiple (non-negative).
fn lcm_(_: &mut Interp, args: Args) -> EvalResult {
    let values = integers(&args, "lcm")?;
    values
        .into_iter()
        .try_fold(1i64, |acc, v| {
            if acc == 0 || v == 0 {
                return Some(0);
            }
            (acc / gcd2(acc, v)).checked_mul(v.abs())
        })
        .map(Value::Int)
        .ok_or_else(|| overflow("lcm overflows Int64".into()))
}

/// `digits(n; base = 10, pad = 1)`: the digits of `n`, least significant first (negative for
/// a negative `n`), padded with zeros to `pad` digits.
fn digits_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("digits", 1, 1)?;
    args.keywords("digits", &["base", "pad"])?;
    let n = to_int(&args.pos[0], "digits")?;
    let base = args.kw("base").map_or(Ok(10), |b| to_int(b, "digits"))?;
    let pad = args.kw("pad").map_or(Ok(1), |p| to_int(p, "digits"))?;
    if base < 2 {
        return Err(fail(
            ErrorKind::DomainError,
            format!("{base}: base must be ≥ 2"),
        ));
    }
    let pad = usize::try_from(pad).unwrap_or(0).min(64);
    let mut rest = n;
    let mut out = Vec::new();
    while rest != 0 || out.len() < pad {
        out.push((rest % base) as f64);
        rest /= base;
    }
    Ok(super::array(ElType::Int64, &[out.len()], out))
}

/// `isqrt(n)`: the largest integer whose square is at most `n`.
fn isqrt_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("isqrt", 1, 1)?;
    let n = to_int(&args.pos[0], "isqrt")?;
    if n < 0 {
        return Err(fail(
            ErrorKind::DomainError,
            format!("isqrt({n}): the argument must not be negative"),
        ));
    }
    // The float square root is within one of the answer for every Int64; correct it exactly.
    let mut r = (n as f64).sqrt() as i64;
    while r.checked_mul(r).is_none_or(|sq| sq > n) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|sq| sq <= n) {
        r += 1;
    }
    Ok(Value::Int(r))
}

fn is_pow2(n: i64) -> bool {
    n > 0 && n & (n - 1) == 0
}

/// `ispow2(n)`: whether `n` is a power of two.
fn ispow2_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("ispow2", 1, 1)?;
    Ok(Value::Bool(is_pow2(to_int(&args.pos[0], "ispow2")?)))
}

/// The base and the number of `nextpow(a, x)` / `prevpow(a, x)`.
fn power_arguments(args: &Args, name: &str) -> Result<(f64, f64), Flow> {
    args.arity(name, 2, 2)?;
    let a = super::to_float(&args.pos[0], name)?;
    let x = super::to_float(&args.pos[1], name)?;
    if a <= 1.0 || x <= 0.0 {
        return Err(fail(
            ErrorKind::DomainError,
            format!("{name}: the base must be greater than 1 and the number positive"),
        ));
    }
    Ok((a, x))
}

/// `nextpow(a, x)`: the smallest `a^k` not below `x` (`k ≥ 0`).
fn nextpow_(_: &mut Interp, args: Args) -> EvalResult {
    let (a, x) = power_arguments(&args, "nextpow")?;
    let mut p = 1.0;
    while p < x {
        p *= a;
    }
    Ok(same_kind(&args.pos[1], p))
}

/// `prevpow(a, x)`: the largest `a^k` not above `x` (`x ≥ 1`).
fn prevpow_(_: &mut Interp, args: Args) -> EvalResult {
    let (a, x) = power_arguments(&args, "prevpow")?;
    if x < 1.0 {
        return Err(fail(ErrorKind::DomainError, "prevpow: x must be ≥ 1"));
    }
    let mut p = 1.0;
    while p * a <= x {
        p *= a;
    }
    Ok(same_kind(&args.pos[1], p))
}

/// `p` as an `Int` when `like` is one.
fn same_kind(like: &Value, p: f64) -> Value {
    match like {
        Value::Int(_) => Value::Int(p as i64),
        _ => Value::Float(p),
    }
}

/// `count_ones(n)`: the number of 1 bits of `n` (two's complement for negative `n`).
fn count_ones_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("count_ones", 1, 1)?;
    Ok(Value::Int(i64::from(
        to_int(&args.pos[0], "count_ones")?.count_ones(),
    )))
}

crate::builtins! {
    "ispow2" => ispow2_, false, "    ispow2(n)\n\nWhether the integer `n` is a power of two.\n\n```\njulia> ispow2(8), ispow2(6)\n(true, false)\n```";
    "nextpow" => nextpow_, false, "    nextpow(a, x)\n\nThe smallest power `a^k` (`k ≥ 0`) not below `x`.\n\n```\njulia> nextpow(2, 5), nextpow(10, 1000)\n(8, 1000)\n```";
    "prevpow" => prevpow_, false, "    prevpow(a, x)\n\nThe largest power `a^k` not above `x` (`x ≥ 1`).\n\n```\njulia> prevpow(2, 5)\n4\n```";
    "count_ones" => count_ones_, false, "    count_ones(n)\n\nThe number of 1 bits in the binary form of the integer `n`.\n\n```\njulia> count_ones(7), count_ones(8)\n(3, 1)\n```";
    "factorial" => factorial_, false, "    factorial(n)\n\n`n! = 1·2·…·n` for `0 ≤ n ≤ 20`; larger `n` is an `OverflowError` (the result would not fit in `Int64`).\n\n```\njulia> factorial(5), factorial(0)\n(120, 1)\n```";
    "binomial" => binomial_, false, "    binomial(n, k)\n\nThe binomial coefficient `n choose k` (0 when `k < 0` or `k > n ≥ 0`).\n\n```\njulia> binomial(5, 2), binomial(10, 0), binomial(-3, 2)\n(10, 1, 6)\n```";
    "isqrt" => isqrt_, false, "    isqrt(n)\n\nThe integer square root: the largest `m` with `m^2 ≤ n`.\n\n```\njulia> isqrt(17)\n4\n\njulia> isqrt(16)\n4\n```";
    "gcd" => gcd_, false, "    gcd(a, b, ...)\n\nThe greatest common divisor of integers (non-negative).\n\n```\njulia> gcd(12, 18), gcd(-4, 6, 10)\n(6, 2)\n```";
    "lcm" => lcm_, false, "    lcm(a, b, ...)\n\nThe least common multiple of integers (non-negative).\n\n```\njulia> lcm(4, 6), lcm(2, 3, 5)\n(12, 30)\n```";
    "digits" => digits_, false, "    digits(n; base = 10, pad = 1)\n\nThe digits of the integer `n` in `base`, least significant first, padded with zeros to at least `pad` digits.\n\n```\njulia> digits(123)\n3-element Vector{Int64}:\n 3\n 2\n 1\n\njulia> digits(5; base = 2, pad = 4)\n4-element Vector{Int64}:\n 1\n 0\n 1\n 0\n```";
}
