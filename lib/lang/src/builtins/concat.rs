//! Concatenation: `vcat`, `hcat`, `cat(…; dims)` and the array literals `[a; b]`, `[a b; c d]`
//! (numbers and arrays into one array; vectors of anything into a `Vector{Any}`).

use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand};
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_ad::ops;

/// Concatenation of values along `dim` (0-based): numbers and arrays into one array.
pub fn cat(values: &[Value], dim: usize) -> EvalResult {
    if values.iter().any(|v| matches!(v, Value::Sparse(_))) {
        // Sparse with plain numbers stays sparse, as in Julia; numbers carrying derivatives
        // join the dense copies of the sparse parts.
        let plain = |v: &Value| {
            matches!(v, Value::Sparse(_))
                || operand(v)
                    .ok()
                    .flatten()
                    .is_some_and(|o| o.tensor().is_plain())
        };
        if values.iter().all(plain) {
            return super::sparse::cat(values, dim);
        }
        let dense = values
            .iter()
            .map(|v| match v {
                Value::Sparse(_) => super::sparse::to_dense(v),
                other => Ok(other.clone()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        return cat(&dense, dim);
    }
    if dim == 0 && values.iter().any(|v| operand(v).ok().flatten().is_none()) {
        return vcat_any(values);
    }
    let mut parts = Vec::with_capacity(values.len());
    let mut eltype: Option<ElType> = None;
    for v in values {
        let x = operand(v)?.ok_or_else(|| {
            fail(
                ErrorKind::ArgumentError,
                format!("cannot concatenate a {}", v.type_name()),
            )
        })?;
        let t = if x.scalar {
            ops::reshape(x.tensor(), &[1])?
        } else {
            x.tensor().clone()
        };
        eltype = Some(match (eltype, x.eltype) {
            (None, e) => e,
            (Some(a), b) if a == b => a,
            (Some(ElType::Bool | ElType::Int64), ElType::Bool | ElType::Int64) => ElType::Int64,
            _ => ElType::Float64,
        });
        parts.push(t);
    }
    let t = ops::concat(&parts, dim)?;
    Ok(from_tensor(t, eltype.unwrap_or(ElType::Float64), false))
}

/// `vcat` with a `Vector{Any}` or a non-number among its parts: a `Vector{Any}` of the vectors'
/// elements and of the other values themselves.
fn vcat_any(values: &[Value]) -> EvalResult {
    let mut items = Vec::new();
    for v in values {
        match v {
            Value::List(_) => items.extend(elements(v)?),
            _ => match operand(v)? {
                Some(x) if x.tensor().shape().len() > 1 => {
                    return Err(fail(
                        ErrorKind::DimensionMismatch,
                        "vcat of a Vector{Any} with a matrix: use vectors",
                    ))
                }
                Some(x) if !x.scalar => {
                    drop(x);
                    items.extend(elements(v)?)
                }
                _ => items.push(v.clone()),
            },
        }
    }
    Ok(Value::list(items))
}

/// `[a b; c d]`: each row concatenated horizontally, then the rows vertically.
pub fn hvcat(_: &mut Interp, rows: Vec<Vec<Value>>) -> EvalResult {
    if rows.len() == 1 {
        return if rows[0].len() == 1 {
            cat(&rows[0], 0)
        } else {
            cat(&rows[0], 1)
        };
    }
    let mut stacked = Vec::with_capacity(rows.len());
    for row in rows {
        stacked.push(if row.len() == 1 {
            row.into_iter().next().expect("one element")
        } else {
            cat(&row, 1)?
        });
    }
    cat(&stacked, 0)
}

fn vcat_(_: &mut Interp, args: Args) -> EvalResult {
    cat(&args.pos, 0)
}

fn hcat_(_: &mut Interp, args: Args) -> EvalResult {
    cat(&args.pos, 1)
}

/// The most dimensions `cat` creates: each costs the result a dimension of length 1, and a
/// request for millions is a slip, not an array.
const MAX_RANK: usize = 64;

fn cat_(_: &mut Interp, args: Args) -> EvalResult {
    let dims = args
        .kw("dims")
        .ok_or_else(|| fail(ErrorKind::ArgumentError, "cat needs dims=k"))?;
    let d = to_size(dims, "cat")?;
    if d == 0 {
        return Err(fail(ErrorKind::ArgumentError, "dims must be at least 1"));
    }
    if d > MAX_RANK {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("cat: dims={d} is beyond the {MAX_RANK} dimensions an array may have"),
        ));
    }
    cat(&args.pos, d - 1)
}

crate::builtins! {
    "vcat" => vcat_, false, "    vcat(xs...)\n\nVertical concatenation, also `[a; b]`. Vectors of anything (`Vector{Any}`, e.g. of backends) concatenate into a `Vector{Any}`.\n\n```\njulia> vcat([1, 2], 3)\n3-element Vector{Int64}:\n 1\n 2\n 3\n\njulia> length(vcat([AutoForwardDiff(), AutoReverseDiff()], AutoFiniteDiff()))\n3\n```";
    "hcat" => hcat_, false, "    hcat(xs...)\n\nHorizontal concatenation, also `[a b]`.\n\n```\njulia> hcat([1, 2], [3, 4])\n2×2 Matrix{Int64}:\n 1  3\n 2  4\n```";
    "cat" => cat_, false, "    cat(xs...; dims=k)\n\nConcatenation along dimension `k`.\n\n```\njulia> size(cat([1, 2], [3, 4]; dims=2))\n(2, 2)\n```";
}
