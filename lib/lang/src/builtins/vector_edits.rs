//! Vectors edited in place at their front or in their middle: `pushfirst!`, `popfirst!`,
//! `prepend!`, `resize!`, `splice!`, `filter!`, `reverse!`, `copy!`. Each reads the vector's
//! elements, computes the new ones and stores them back through
//! [`super::growth::replace_items`], which converts to the vector's element type as Julia does.

use super::growth::replace_items;
use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::iterate::elements;
use crate::value::Value;

/// `pushfirst!(v, xs...)`: the items put in front of `v`, in their order.
fn pushfirst_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("pushfirst!", 2, usize::MAX)?;
    let mut items = args.pos[1..].to_vec();
    items.extend(elements(&args.pos[0])?);
    replace_items(&args.pos[0], items, "pushfirst!")?;
    Ok(args.pos[0].clone())
}

/// `prepend!(v, xs)`: the elements of `xs` put in front of `v`.
fn prepend_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("prepend!", 2, 2)?;
    let mut items = elements(&args.pos[1])?;
    items.extend(elements(&args.pos[0])?);
    replace_items(&args.pos[0], items, "prepend!")?;
    Ok(args.pos[0].clone())
}

/// `popfirst!(v)`: removes the first element and returns it.
fn popfirst_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("popfirst!", 1, 1)?;
    let mut items = elements(&args.pos[0])?;
    if items.is_empty() {
        return Err(fail(ErrorKind::ArgumentError, "array must be non-empty"));
    }
    let first = items.remove(0);
    replace_items(&args.pos[0], items, "popfirst!")?;
    Ok(first)
}

/// `resize!(v, n)`: the first `n` elements, or the elements followed by zeros (`#undef` in a
/// vector of values).
fn resize_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("resize!", 2, 2)?;
    let n = super::to_size(&args.pos[1], "resize!")?;
    interp.check_alloc(n)?;
    if let Value::List(list) = &args.pos[0] {
        let unset = super::arrays::unassigned(
            list.declared
                .as_ref()
                .unwrap_or(&crate::types::Type::Prim(crate::types::Prim::Any)),
        );
        list.borrow_mut().resize(n, unset);
        return Ok(args.pos[0].clone());
    }
    let mut items = elements(&args.pos[0])?;
    items.resize(n, Value::Int(0));
    replace_items(&args.pos[0], items, "resize!")?;
    Ok(args.pos[0].clone())
}

/// The 0-based half-open span `splice!` removes: one index, or a contiguous ascending range.
fn splice_span(index: &Value, len: usize) -> Result<(usize, usize, bool), Flow> {
    let out_of_bounds = |i: i64| {
        fail(
            ErrorKind::BoundsError,
            format!("attempt to access {len}-element Vector at index [{i}]"),
        )
    };
    if let Value::Int(i) = index {
        let k = i
            .checked_sub(1)
            .and_then(|k| usize::try_from(k).ok())
            .filter(|&k| k < len)
            .ok_or_else(|| out_of_bounds(*i))?;
        return Ok((k, k + 1, true));
    }
    let positions = elements(index)?
        .iter()
        .map(|v| super::to_int(v, "splice!"))
        .collect::<Result<Vec<i64>, _>>()?;
    let Some(&first) = positions.first() else {
        return Err(fail(
            ErrorKind::ArgumentError,
            "splice! takes an index or a nonempty range of indices",
        ));
    };
    if positions.windows(2).any(|w| w[1] != w[0] + 1) {
        return Err(fail(
            ErrorKind::ArgumentError,
            "splice! removes a contiguous range of indices, in increasing order",
        ));
    }
    let last = first.saturating_add(positions.len() as i64 - 1);
    if first < 1 || last > len as i64 {
        return Err(out_of_bounds(if first < 1 { first } else { last }));
    }
    Ok(((first - 1) as usize, last as usize, false))
}

/// `splice!(v, i, [replacement])`, `splice!(v, range, [replacement])`: removes those elements
/// (putting the replacement's elements in their place) and returns what was removed.
fn splice_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("splice!", 2, 3)?;
    let mut items = elements(&args.pos[0])?;
    let (start, end, single) = splice_span(&args.pos[1], items.len())?;
    let replacement = match args.pos.get(2) {
        Some(r) => elements(r)?,
        None => Vec::new(),
    };
    let removed: Vec<Value> = items.splice(start..end, replacement).collect();
    replace_items(&args.pos[0], items, "splice!")?;
    if single {
        return Ok(removed.into_iter().next().expect("one element removed"));
    }
    let n = removed.len();
    match &args.pos[0] {
        Value::List(list) => Ok(match &list.declared {
            Some(eltype) => Value::declared_list(eltype.clone(), removed),
            None => Value::list(removed),
        }),
        _ => crate::eval::collections::collect_values(interp, removed, &[n]),
    }
}

/// `filter!(pred, v)`: keeps the elements for which `pred` is true.
fn filter_bang(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("filter!", 2, 2)?;
    let mut kept = Vec::new();
    for item in elements(&args.pos[1])? {
        match interp.call(&args.pos[0], vec![item.clone()])? {
            Value::Bool(true) => kept.push(item),
            Value::Bool(false) => {}
            other => {
                return Err(fail(
                    ErrorKind::TypeError,
                    format!(
                        "non-boolean ({}) used in boolean context",
                        other.type_name()
                    ),
                ))
            }
        }
    }
    replace_items(&args.pos[1], kept, "filter!")?;
    Ok(args.pos[1].clone())
}

/// `reverse!(v)`: the elements in reverse order, in place.
fn reverse_bang(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("reverse!", 1, 1)?;
    let mut items = elements(&args.pos[0])?;
    items.reverse();
    replace_items(&args.pos[0], items, "reverse!")?;
    Ok(args.pos[0].clone())
}

/// `copy!(dst, src)`: `dst` becomes a copy of the vector `src` (resized to its length).
fn copy_bang(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("copy!", 2, 2)?;
    replace_items(&args.pos[0], elements(&args.pos[1])?, "copy!")?;
    Ok(args.pos[0].clone())
}

crate::builtins! {
    "pushfirst!" => pushfirst_, false, "    pushfirst!(v, xs...)\n\nPuts the items at the front of the vector `v`, in place, and returns `v`.\n\n```\njulia> pushfirst!([3, 4], 1, 2)\n4-element Vector{Int64}:\n 1\n 2\n 3\n 4\n```";
    "prepend!" => prepend_, false, "    prepend!(v, xs)\n\nPuts the elements of the collection `xs` at the front of the vector `v`, in place.\n\n```\njulia> prepend!([3], [1, 2])\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "popfirst!" => popfirst_, false, "    popfirst!(v)\n\nRemoves the first element of the vector `v` and returns it; an empty vector is an `ArgumentError`.\n\n```\njulia> v = [1, 2, 3]; popfirst!(v), v\n(1, [2, 3])\n```";
    "resize!" => resize_, false, "    resize!(v, n)\n\nShortens the vector `v` to its first `n` elements or lengthens it to `n` (new numbers are zeros here, new entries of a vector of values `#undef`; Julia leaves numbers undefined), in place.\n\n```\njulia> resize!([1, 2, 3], 2)\n2-element Vector{Int64}:\n 1\n 2\n```";
    "splice!" => splice_, false, "    splice!(v, i, [replacement])\n    splice!(v, range, [replacement])\n\nRemoves the element at `i` (or the elements in the contiguous `range`) from the vector `v`, puts the replacement's elements in their place, and returns what was removed.\n\n```\njulia> v = [1, 2, 3, 4]; splice!(v, 2), v\n(2, [1, 3, 4])\n\njulia> v = [1, 2, 3, 4]; splice!(v, 2:3, [0]), v\n([2, 3], [1, 0, 4])\n```";
    "filter!" => filter_bang, false, "    filter!(pred, v)\n\nKeeps the elements of the vector `v` for which `pred` is true, in place.\n\n```\njulia> filter!(isodd, [1, 2, 3, 4])\n2-element Vector{Int64}:\n 1\n 3\n```";
    "reverse!" => reverse_bang, false, "    reverse!(v)\n\nReverses the vector `v` in place.\n\n```\njulia> reverse!([1, 2, 3])\n3-element Vector{Int64}:\n 3\n 2\n 1\n```";
    "copy!" => copy_bang, false, "    copy!(dst, src)\n\nMakes the vector `dst` a copy of `src`, resizing it, and returns `dst`.\n\n```\njulia> copy!([0.0], [1.0, 2.0])\n2-element Vector{Float64}:\n 1.0\n 2.0\n```";
}
