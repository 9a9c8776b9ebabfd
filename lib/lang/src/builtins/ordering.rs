//! Julia's `isless` order, for every value it is defined on: numbers (`NaN` after every number,
//! `-0.0` before `0.0`), strings, characters and symbols, and lexicographically tuples,
//! vectors and pairs; user types by their `isless` methods. `isless`, `cmp`, `sort` without
//! `lt`, `max`/`min` of non-numbers and `<` of strings and tuples follow it.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::convert::operand;
use crate::value::Value;
use difflab_syntax::BinOp;
use std::cmp::Ordering;

/// The order of `a` and `b` under Julia's `isless`.
pub fn order(interp: &mut Interp, a: &Value, b: &Value) -> Result<Ordering, Flow> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => return Ok(x.cmp(y)),
        (Value::Str(x), Value::Str(y)) => return Ok(x.cmp(y)),
        (Value::Char(x), Value::Char(y)) => return Ok(x.cmp(y)),
        (Value::Symbol(x), Value::Symbol(y)) => return Ok(x.as_str().cmp(y.as_str())),
        (Value::Tuple(x), Value::Tuple(y)) => return lexicographic(interp, x, y),
        _ => {}
    }
    if a.is_number() && b.is_number() {
        let (x, y) = (number(a)?, number(b)?);
        return Ok(x.total_cmp(&y));
    }
    if let (Some((a1, a2)), Some((b1, b2))) = (a.pair_parts(), b.pair_parts()) {
        return lexicographic(interp, &[a1, a2], &[b1, b2]);
    }
    if let (Some(x), Some(y)) = (vector_items(a)?, vector_items(b)?) {
        return lexicographic(interp, &x, &y);
    }
    if let (Value::Object(x), Value::Object(y)) = (a, b) {
        if let Some(ord) = x.order(&***y) {
            return Ok(ord);
        }
    }
    let args = [a.clone(), b.clone()];
    let less = |interp: &mut Interp, args: &[Value]| {
        interp
            .call_extension(difflab_syntax::name!("isless"), args, &[])
            .map(|r| r.map(|v| matches!(v, Value::Bool(true))))
    };
    match less(interp, &args) {
        Some(Ok(true)) => Ok(Ordering::Less),
        Some(Ok(false)) => {
            let reversed = [b.clone(), a.clone()];
            match less(interp, &reversed).transpose()? {
                Some(true) => Ok(Ordering::Greater),
                _ => Ok(Ordering::Equal),
            }
        }
        Some(Err(flow)) => Err(flow),
        None => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching isless(::{}, ::{})",
                a.type_name(),
                b.type_name()
            ),
        )),
    }
}

/// A number for the order: its value (a traced number without one is an error naming
/// `isless`), every `NaN` the same and after every other number.
fn number(v: &Value) -> Result<f64, Flow> {
    let x = super::to_float(v, "isless")?;
    Ok(if x.is_nan() {
        f64::NAN.copysign(1.0)
    } else {
        x
    })
}

/// The items of a vector (an array of rank 1, a vector of values, a range), if `v` is one.
fn vector_items(v: &Value) -> Result<Option<Vec<Value>>, Flow> {
    let is_vector = match v {
        Value::List(_) | Value::Range(_) => true,
        Value::Array(_) => operand(v)?.is_some_and(|o| o.tensor().shape().len() == 1),
        _ => false,
    };
    if !is_vector {
        return Ok(None);
    }
    crate::value::iterate::elements(v).map(Some)
}

/// The first difference decides; a prefix comes first.
fn lexicographic(interp: &mut Interp, a: &[Value], b: &[Value]) -> Result<Ordering, Flow> {
    for (x, y) in a.iter().zip(b) {
        let ord = order(interp, x, y)?;
        if ord != Ordering::Equal {
            return Ok(ord);
        }
    }
    Ok(a.len().cmp(&b.len()))
}

/// `a op b` for a comparison `op` (`<`, `<=`, `>`, `>=`) of two values that are not numbers,
/// when the order knows them.
pub fn compare(interp: &mut Interp, op: BinOp, a: &Value, b: &Value) -> Option<EvalResult> {
    let ordered = matches!(
        (a, b),
        (Value::Str(_), Value::Str(_))
            | (Value::Char(_), Value::Char(_))
            | (Value::Symbol(_), Value::Symbol(_))
            | (Value::Tuple(_), Value::Tuple(_))
    ) || (a.pair_parts().is_some() && b.pair_parts().is_some())
        || matches!((a, b), (Value::Object(x), Value::Object(y)) if x.order(&***y).is_some());
    if !ordered {
        return None;
    }
    Some(order(interp, a, b).map(|ord| {
        Value::Bool(match op {
            BinOp::Lt => ord.is_lt(),
            BinOp::Le => ord.is_le(),
            BinOp::Gt => ord.is_gt(),
            _ => ord.is_ge(),
        })
    }))
}

/// `max` (when `largest`) or `min` of values the order knows that are not numbers: the
/// first of the largest (or smallest), as Julia's `max(x, y) = isless(y, x) ? x : y`.
pub fn extreme(interp: &mut Interp, values: &[Value], largest: bool) -> Option<EvalResult> {
    let numeric = |v: &Value| {
        v.is_number() || matches!(v, Value::Array(_) | Value::Range(_) | Value::Sparse(_))
    };
    if values.iter().all(numeric) {
        return None;
    }
    let mut best = values.first()?.clone();
    for v in &values[1..] {
        let ord = match order(interp, v, &best) {
            Ok(ord) => ord,
            Err(flow) => return Some(Err(flow)),
        };
        if (largest && ord.is_gt()) || (!largest && ord.is_lt()) {
            best = v.clone();
        }
    }
    Some(Ok(best))
}

/// `isless(a, b)`. Under a tracing without values it is `a < b`, a comparison without
/// dependencies.
fn isless_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("isless", 2, 2)?;
    if args.pos.iter().any(crate::value::convert::is_global_traced) {
        return interp.binary(BinOp::Lt, false, &args.pos[0], &args.pos[1]);
    }
    Ok(Value::Bool(
        order(interp, &args.pos[0], &args.pos[1])?.is_lt(),
    ))
}

/// `cmp(a, b)`: `-1`, `0` or `1` as `a` comes before, with or after `b` in `isless` order.
fn cmp_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("cmp", 2, 2)?;
    Ok(Value::Int(
        match order(interp, &args.pos[0], &args.pos[1])? {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        },
    ))
}

crate::builtins! {
    "isless" => isless_, false, "    isless(a, b)\n\nJulia's total order, used by `sort`, `max` and `maximum`: for numbers like `<`, but `-0.0` comes before `0.0` and `NaN` after every number; strings, characters and symbols in character order; tuples, vectors and pairs lexicographically (a prefix first); user types by their `isless` methods.\n\n```\njulia> isless(1.0, NaN), isless(-0.0, 0.0), isless(\"ab\", \"b\"), isless((1, 2), (1, 2, 0))\n(true, true, true, true)\n```";
    "cmp" => cmp_, false, "    cmp(a, b)\n\n`-1`, `0` or `1` as `a` comes before, together with or after `b` in `isless` order.\n\n```\njulia> cmp(1, 2), cmp(\"b\", \"a\"), cmp((1, 2), (1, 2))\n(-1, 1, 0)\n```";
}
