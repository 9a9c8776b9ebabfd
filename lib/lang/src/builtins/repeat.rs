//! `repeat`: tiling an array (`repeat(x, counts...)`, `outer`), repeating each element
//! (`inner`), and repeating a string. Arrays are gathered, so every number kind differentiates
//! through it.

use super::{to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::convert::{from_tensor, operand};
use crate::value::Value;
use difflab_ad::ops;

fn repeat_(interp: &mut Interp, args: Args) -> EvalResult {
    args.keywords("repeat", &["inner", "outer"])?;
    args.arity("repeat", 1, usize::MAX)?;
    if let Some(s) = super::chars::text_of(&args.pos[0]) {
        args.arity("repeat", 2, 2)?;
        let times = to_size(&args.pos[1], "repeat")?;
        interp.check_bytes((s.len() as u64).saturating_mul(times as u64), "a string")?;
        return Ok(Value::str(s.repeat(times)));
    }
    let counts = |v: Option<&Value>, name: &str| -> Result<Vec<usize>, Flow> {
        match v {
            None => Ok(Vec::new()),
            Some(Value::Tuple(items)) => items.iter().map(|c| to_size(c, name)).collect(),
            Some(c) => Ok(vec![to_size(c, name)?]),
        }
    };
    let inner = counts(args.kw("inner"), "repeat")?;
    let mut outer = counts(args.kw("outer"), "repeat")?;
    if !args.pos[1..].is_empty() {
        if !outer.is_empty() {
            return Err(fail(
                ErrorKind::ArgumentError,
                "repeat takes counts or the outer keyword, not both",
            ));
        }
        outer = args.pos[1..]
            .iter()
            .map(|v| to_size(v, "repeat"))
            .collect::<Result<_, _>>()?;
    }
    let x = operand(&args.pos[0])?
        .ok_or_else(|| fail(ErrorKind::MethodError, "repeat expects an array"))?;
    let t = x.tensor().clone();
    let eltype = x.eltype;
    drop(x);
    let (pos, shape) = repeated_positions(interp, t.shape(), &inner, &outer)?;
    Ok(from_tensor(ops::gather(&t, &pos, &shape)?, eltype, false))
}

/// Julia's `repeat(x; inner, outer)` as a gather: the shape of the result and, for each of its
/// elements in column-major order, the source element. Along dimension `k`, each element is
/// repeated `inner[k]` times and the result tiled `outer[k]` times (1 where not given).
fn repeated_positions(
    interp: &Interp,
    source: &[usize],
    inner: &[usize],
    outer: &[usize],
) -> Result<(Vec<usize>, Vec<usize>), Flow> {
    let rank = source.len().max(inner.len()).max(outer.len());
    let factor = |v: &[usize], k: usize| v.get(k).copied().unwrap_or(1);
    let dim = |k: usize| source.get(k).copied().unwrap_or(1);
    let shape: Vec<usize> = (0..rank)
        .map(|k| {
            dim(k)
                .saturating_mul(factor(inner, k))
                .saturating_mul(factor(outer, k))
        })
        .collect();
    let total = shape.iter().fold(1usize, |n, &d| n.saturating_mul(d));
    interp.check_alloc(total)?;
    let mut pos = Vec::with_capacity(total);
    for linear in 0..total {
        let (mut rest, mut stride, mut from) = (linear, 1, 0);
        for (k, &extent) in shape.iter().enumerate() {
            let o = rest % extent;
            rest /= extent;
            let i = (o % (dim(k) * factor(inner, k))) / factor(inner, k);
            from += i * stride;
            stride *= dim(k);
        }
        pos.push(from);
    }
    Ok((pos, shape))
}

crate::builtins! {
    "repeat" => repeat_, false, "    repeat(x, counts...)\n    repeat(x; inner=1, outer=1)\n\nTiles an array `counts[k]` times along dimension `k` (as `outer`); `inner` repeats each element instead (an integer, or a tuple with one count per dimension). Both together repeat, then tile. `repeat(s, n)` repeats a string.\n\n```\njulia> repeat([1, 2], 2)\n4-element Vector{Int64}:\n 1\n 2\n 1\n 2\n\njulia> repeat([1, 2], inner=2)\n4-element Vector{Int64}:\n 1\n 1\n 2\n 2\n\njulia> repeat([1 2], inner=(2, 1), outer=(1, 2))\n2×4 Matrix{Int64}:\n 1  2  1  2\n 1  2  1  2\n```";
}
