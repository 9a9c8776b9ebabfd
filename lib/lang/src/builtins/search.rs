//! Searching and sorting: `findall`, `findfirst`, `any`, `all`, `count` (of Bool arrays or
//! of a predicate over a collection), and `sort`/`sortperm` with `by`, `lt` and `rev`.

use super::arrays::regather;
use super::Args;
use crate::error::ErrorKind;
use crate::eval::iterate::elements;
use crate::eval::operators::operand;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::show::ElType;
use crate::value::Value;

fn bool_values(v: &Value, name: &str) -> Result<Vec<bool>, Flow> {
    elements(v)?
        .iter()
        .map(|x| match x {
            Value::Bool(b) => Ok(*b),
            other if crate::eval::operators::is_global_traced(other) => {
                Err(crate::eval::operators::global_condition_error())
            }
            other => Err(fail(
                ErrorKind::TypeError,
                format!(
                    "{name}: non-boolean ({}) used in boolean context",
                    other.type_name()
                ),
            )),
        })
        .collect()
}

fn predicate_values(interp: &mut Interp, args: &Args, name: &str) -> Result<Vec<bool>, Flow> {
    match args.pos.as_slice() {
        [v] => bool_values(v, name),
        [f, v] => {
            let mut out = Vec::new();
            for x in elements(v)? {
                match interp.call(f, vec![x])? {
                    Value::Bool(b) => out.push(b),
                    other => {
                        return Err(fail(
                            ErrorKind::TypeError,
                            format!("{name}: predicate returned a {}", other.type_name()),
                        ))
                    }
                }
            }
            Ok(out)
        }
        _ => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name} with {} arguments",
                args.pos.len()
            ),
        )),
    }
}

fn findall_(interp: &mut Interp, args: Args) -> EvalResult {
    let flags = predicate_values(interp, &args, "findall")?;
    let idx: Vec<f64> = flags
        .iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(k, _)| (k + 1) as f64)
        .collect();
    let n = idx.len();
    Ok(super::array(ElType::Int64, &[n], idx))
}

fn findfirst_(interp: &mut Interp, args: Args) -> EvalResult {
    let flags = predicate_values(interp, &args, "findfirst")?;
    Ok(flags
        .iter()
        .position(|&b| b)
        .map_or(Value::Nothing, |k| Value::Int(k as i64 + 1)))
}

/// For `any`, `all` and `count` of a sparse Bool matrix: its stored `true`s and its size,
/// without visiting the implicit zeros.
fn sparse_trues(args: &Args, name: &str) -> Option<Result<(usize, usize), Flow>> {
    let [Value::Sparse(s)] = args.pos.as_slice() else {
        return None;
    };
    let s = s.borrow();
    if s.eltype != ElType::Bool {
        return Some(Err(fail(
            ErrorKind::TypeError,
            format!("{name}: non-boolean (Float64) used in boolean context"),
        )));
    }
    let trues = s.matrix.data().iter().filter(|&&v| v != 0.0).count();
    Some(Ok((trues, s.matrix.rows() * s.matrix.cols())))
}

fn any_(interp: &mut Interp, args: Args) -> EvalResult {
    if let Some(counts) = sparse_trues(&args, "any") {
        return Ok(Value::Bool(counts?.0 > 0));
    }
    Ok(Value::Bool(
        predicate_values(interp, &args, "any")?
            .into_iter()
            .any(|b| b),
    ))
}

fn all_(interp: &mut Interp, args: Args) -> EvalResult {
    if let Some(counts) = sparse_trues(&args, "all") {
        let (trues, total) = counts?;
        return Ok(Value::Bool(trues == total));
    }
    Ok(Value::Bool(
        predicate_values(interp, &args, "all")?
            .into_iter()
            .all(|b| b),
    ))
}

fn count_(interp: &mut Interp, args: Args) -> EvalResult {
    if let Some(counts) = sparse_trues(&args, "count") {
        return Ok(Value::Int(counts?.0 as i64));
    }
    Ok(Value::Int(
        predicate_values(interp, &args, "count")?
            .into_iter()
            .filter(|&b| b)
            .count() as i64,
    ))
}

fn sort_permutation(interp: &mut Interp, args: &Args, name: &str) -> Result<Vec<usize>, Flow> {
    let items = elements(&args.pos[0])?;
    let keys: Vec<Value> = match args.kw("by") {
        Some(f) => items
            .iter()
            .map(|x| interp.call(f, vec![x.clone()]))
            .collect::<Result<_, _>>()?,
        None => items,
    };
    for key in &keys {
        if let Some(k) = operand(key) {
            crate::eval::operators::require_values(k.tensor(), name)?;
        }
    }
    let reverse = matches!(args.kw("rev"), Some(Value::Bool(true)));
    let ordered = |a: usize, b: usize| if reverse { (b, a) } else { (a, b) };
    let perm: Vec<usize> = (0..keys.len()).collect();
    if let Some(lt) = args.kw("lt") {
        return merge_sort(perm, &mut |a, b| {
            let (a, b) = ordered(a, b);
            match interp.call(lt, vec![keys[a].clone(), keys[b].clone()])? {
                Value::Bool(less) => Ok(less),
                other => Err(fail(
                    ErrorKind::TypeError,
                    format!(
                        "non-boolean ({}) used in boolean context",
                        other.type_name()
                    ),
                )),
            }
        });
    }
    let nums: Option<Vec<f64>> = keys.iter().map(|k| super::to_float(k, name).ok()).collect();
    match nums {
        Some(n) => merge_sort(perm, &mut |a, b| {
            let (a, b) = ordered(a, b);
            Ok(n[a].total_cmp(&n[b]).is_lt())
        }),
        None => {
            let strings: Vec<String> = keys.iter().map(crate::display::print_string).collect();
            merge_sort(perm, &mut |a, b| {
                let (a, b) = ordered(a, b);
                Ok(strings[a] < strings[b])
            })
        }
    }
}

/// A stable merge sort by a fallible `less`; unlike the standard sorts it never panics, even
/// for a user's `lt` that is not a strict weak order, and stops at its first error.
fn merge_sort(
    items: Vec<usize>,
    less: &mut dyn FnMut(usize, usize) -> Result<bool, Flow>,
) -> Result<Vec<usize>, Flow> {
    if items.len() <= 1 {
        return Ok(items);
    }
    let mut right = items;
    let left = right.drain(..right.len() / 2).collect();
    let left = merge_sort(left, less)?;
    let right = merge_sort(right, less)?;
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        // Stable: a right element goes first only when strictly less.
        if less(right[j], left[i])? {
            merged.push(right[j]);
            j += 1;
        } else {
            merged.push(left[i]);
            i += 1;
        }
    }
    merged.extend_from_slice(&left[i..]);
    merged.extend_from_slice(&right[j..]);
    Ok(merged)
}

fn sort_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sort", 1, 1)?;
    let perm = sort_permutation(interp, &args, "sort")?;
    regather(&args.pos[0], &perm, "sort")
}

fn sortperm_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("sortperm", 1, 1)?;
    let perm = sort_permutation(interp, &args, "sortperm")?;
    let n = perm.len();
    Ok(super::array(
        ElType::Int64,
        &[n],
        perm.into_iter().map(|k| (k + 1) as f64).collect(),
    ))
}

crate::builtins! {
    "findall" => findall_, false, "    findall(mask)\n    findall(pred, xs)\n\nThe indices where a Bool array is true (or `pred` holds).\n\n```\njulia> findall([1, 5, 2] .> 1)\n2-element Vector{Int64}:\n 2\n 3\n```";
    "findfirst" => findfirst_, false, "    findfirst(mask)\n    findfirst(pred, xs)\n\nThe first index where the condition holds, or `nothing`.\n\n```\njulia> findfirst(iszero, [1, 0, 0])\n2\n```";
    "any" => any_, false, "    any(mask)\n    any(pred, xs)\n\nWhether any element is true.\n\n```\njulia> any([1, 2] .> 1)\ntrue\n```";
    "all" => all_, false, "    all(mask)\n    all(pred, xs)\n\nWhether every element is true.\n\n```\njulia> all(x -> x > 0, [1, 2])\ntrue\n```";
    "count" => count_, false, "    count(mask)\n    count(pred, xs)\n\nThe number of true elements.\n\n```\njulia> count([1, 2, 3] .> 1)\n2\n```";
    "sort" => sort_, false, "    sort(v; by, lt, rev=false)\n\nA sorted copy (stable): by the values of `by` (default the elements), compared with `lt` (default `isless`), reversed by `rev=true`.\n\n```\njulia> sort([3, 1, 2])\n3-element Vector{Int64}:\n 1\n 2\n 3\n\njulia> sort([\"b\", \"a\", \"cc\"]; by=length, lt=(a, b) -> a > b)\n3-element Vector{String}:\n \"cc\"\n \"b\"\n \"a\"\n```";
    "sortperm" => sortperm_, false, "    sortperm(v; by, lt, rev=false)\n\nThe permutation that sorts `v` (stably, with the options of `sort`).\n\n```\njulia> sortperm([3, 1, 2])\n3-element Vector{Int64}:\n 2\n 3\n 1\n```";
}
