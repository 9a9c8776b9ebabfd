//! Vectors grown and shrunk in place: `push!`, `append!`, `pop!`, `insert!`, `deleteat!`. Plain vectors of numbers
//! change their storage in place (amortized constant time per element); vectors carrying
//! derivatives are rebuilt, so their numbers keep their derivatives.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::collections::{list_element, list_elements, scalar_f64};
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::convert::{from_tensor, to_tensor};
use crate::value::iterate::elements;
use crate::value::{Array, Value};
use difflab_ad::ops;
use difflab_ad::Tensor;
use std::rc::Rc;

fn push_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("push!", 2, usize::MAX)?;
    if let Some(set) = super::set::as_set(&args.pos[0]) {
        super::set::push(set, &args.pos[1..])?;
        return Ok(args.pos[0].clone());
    }
    if let Some(dict) = super::dict::as_dict(&args.pos[0]) {
        super::dict::push(dict, &args.pos[1..])?;
        return Ok(args.pos[0].clone());
    }
    append_values(&args.pos[0], args.pos[1..].to_vec())?;
    Ok(args.pos[0].clone())
}

fn append_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("append!", 2, 2)?;
    append_values(&args.pos[0], elements(&args.pos[1])?)?;
    Ok(args.pos[0].clone())
}

fn append_values(target: &Value, items: Vec<Value>) -> Result<(), Flow> {
    match target {
        Value::List(list) => {
            let items = list_elements(list, items)?;
            list.borrow_mut().extend(items);
            Ok(())
        }
        Value::Array(a) => {
            let mut a = a.borrow_mut();
            vector_length(&a, "push!")?;
            for v in &items {
                check_fits_eltype(&a, v)?;
            }
            if push_in_place(&mut a, &items) {
                return Ok(());
            }
            let mut parts = vec![a.data.clone()];
            for v in &items {
                parts.push(ops::reshape(&to_tensor(v)?, &[1])?);
            }
            a.data = ops::concat(&parts, 0)?;
            Ok(())
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching push!(::{}, ...)", other.type_name()),
        )),
    }
}

/// The numbers of a plain vector as a `Vec` to grow or shrink in place, handed to `change`
/// and put back: `push!` and `pop!` in amortized constant time (rebuilding the vector on each
/// call made a loop of them quadratic). `None` when `a` is not a plain vector.
fn edit_plain_vector<R>(a: &mut Array, change: impl FnOnce(&mut Vec<f64>) -> R) -> Option<R> {
    let Tensor::Plain(numbers) = &mut a.data else {
        return None;
    };
    if numbers.ndim() != 1 || !numbers.is_standard_layout() {
        return None;
    }
    let array = Rc::make_mut(numbers);
    let owned = std::mem::replace(array, ndarray::ArrayD::zeros(ndarray::IxDyn(&[0])));
    let len = owned.len();
    let (mut data, offset) = owned.into_raw_vec_and_offset();
    data.drain(..offset.unwrap_or(0).min(data.len()));
    data.truncate(len);
    let result = change(&mut data);
    *array = ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[data.len()]), data)
        .expect("a vector of its own length");
    Some(result)
}

/// `push!` of plain numbers onto a plain vector, in place; `false` when either is not plain.
fn push_in_place(a: &mut Array, items: &[Value]) -> bool {
    let Some(numbers) = items
        .iter()
        .map(super::plain_number)
        .collect::<Option<Vec<f64>>>()
    else {
        return false;
    };
    edit_plain_vector(a, |data| data.extend(numbers)).is_some()
}

fn pop_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("pop!", 1, 3)?;
    if let Some(set) = super::set::as_set(&args.pos[0]) {
        return super::set::pop(set, &args.pos[1..]);
    }
    if let Some(dict) = super::dict::as_dict(&args.pos[0]) {
        return match (
            &args.pos[1..],
            &args.pos[1..].first().and_then(|k| dict.remove(k)),
        ) {
            ([_, ..], Some(value)) => Ok(value.clone()),
            ([_, default], None) => Ok(default.clone()),
            ([key], None) => Err(super::dict::key_error(key)),
            _ => Err(fail(
                ErrorKind::MethodError,
                "pop!(d::Dict) needs a key: pop!(d, key)",
            )),
        };
    }
    args.arity("pop!", 1, 1)?;
    match &args.pos[0] {
        Value::List(list) => list
            .borrow_mut()
            .pop()
            .ok_or_else(|| fail(ErrorKind::ArgumentError, "array must be non-empty")),
        Value::Array(cell) => {
            let mut a = cell.borrow_mut();
            let n = a.data.len();
            if n == 0 || a.data.shape().len() != 1 {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    "array must be a non-empty vector",
                ));
            }
            let eltype = a.eltype;
            if let Some(Some(last)) = edit_plain_vector(&mut a, Vec::pop) {
                return Ok(crate::value::convert::number(eltype, last));
            }
            let last = ops::gather(&a.data, &[n - 1], &[])?;
            a.data = ops::gather(&a.data, &(0..n - 1).collect::<Vec<_>>(), &[n - 1])?;
            Ok(from_tensor(last, a.eltype, true))
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching pop!(::{})", other.type_name()),
        )),
    }
}

/// The 0-based positions `deleteat!` removes: one index, a range or a vector of them, each in
/// `1..=n` (a `BoundsError` otherwise), sorted and distinct.
fn deleted_positions(index: &Value, n: usize) -> Result<Vec<usize>, Flow> {
    let items = match index {
        Value::Int(_) | Value::Bool(_) | Value::Float(_) => vec![index.clone()],
        other => elements(other)?,
    };
    let mut positions = items
        .iter()
        .map(|i| {
            let k = super::to_int(i, "deleteat!")?;
            usize::try_from(k - 1)
                .ok()
                .filter(|&k| k < n)
                .ok_or_else(|| {
                    fail(
                        ErrorKind::BoundsError,
                        format!("attempt to access {n}-element Vector at index [{k}]"),
                    )
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    positions.sort_unstable();
    positions.dedup();
    Ok(positions)
}

/// `deleteat!(v, i)`, `deleteat!(v, inds)`: removes those elements, in place.
fn deleteat_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("deleteat!", 2, 2)?;
    match &args.pos[0] {
        Value::List(list) => {
            let mut list = list.borrow_mut();
            let gone = deleted_positions(&args.pos[1], list.len())?;
            let mut k = 0;
            list.retain(|_| {
                k += 1;
                gone.binary_search(&(k - 1)).is_err()
            });
        }
        Value::Array(cell) => {
            let mut a = cell.borrow_mut();
            let n = vector_length(&a, "deleteat!")?;
            let gone = deleted_positions(&args.pos[1], n)?;
            let kept: Vec<usize> = (0..n).filter(|k| gone.binary_search(k).is_err()).collect();
            a.data = ops::gather(&a.data, &kept, &[kept.len()])?;
        }
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching deleteat!(::{}, ...)", other.type_name()),
            ))
        }
    }
    Ok(args.pos[0].clone())
}

/// `insert!(v, i, x)`: `x` placed at index `i` (`1 ≤ i ≤ length(v) + 1`), in place.
fn insert_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("insert!", 3, 3)?;
    let k = super::to_int(&args.pos[1], "insert!")?;
    let position = |n: usize| {
        usize::try_from(k - 1)
            .ok()
            .filter(|&i| i <= n)
            .ok_or_else(|| {
                fail(
                    ErrorKind::BoundsError,
                    format!("attempt to insert at index {k} of a {n}-element Vector"),
                )
            })
    };
    match &args.pos[0] {
        Value::List(list) => {
            let item = list_element(list, args.pos[2].clone())?;
            let mut items = list.borrow_mut();
            let i = position(items.len())?;
            items.insert(i, item);
        }
        Value::Array(cell) => {
            let mut a = cell.borrow_mut();
            let n = vector_length(&a, "insert!")?;
            let i = position(n)?;
            check_fits_eltype(&a, &args.pos[2])?;
            let before = ops::gather(&a.data, &(0..i).collect::<Vec<_>>(), &[i])?;
            let after = ops::gather(&a.data, &(i..n).collect::<Vec<_>>(), &[n - i])?;
            let item = ops::reshape(&to_tensor(&args.pos[2])?, &[1])?;
            a.data = ops::concat(&[before, item, after], 0)?;
        }
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching insert!(::{}, ...)", other.type_name()),
            ))
        }
    }
    Ok(args.pos[0].clone())
}

/// The length of a vector being edited in place; matrices cannot grow or shrink.
fn vector_length(a: &Array, name: &str) -> Result<usize, Flow> {
    match a.data.shape() {
        [n] => Ok(*n),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!("{name} works on vectors only"),
        )),
    }
}

/// Makes the vector `target` hold `items`, at any length: a vector of values converts each to
/// its declared element type, a numeric vector checks that each fits its element type. A vector
/// that views look into keeps its length, as in Julia.
pub(super) fn replace_items(target: &Value, items: Vec<Value>, name: &str) -> Result<(), Flow> {
    match target {
        Value::List(list) => {
            *list.borrow_mut() = list_elements(list, items)?;
            Ok(())
        }
        Value::Array(cell) => {
            let mut a = cell.borrow_mut();
            let n = vector_length(&a, name)?;
            if a.links.is_some() && n != items.len() {
                return Err(fail(
                    ErrorKind::ErrorException,
                    "cannot resize array with shared data",
                ));
            }
            for v in &items {
                check_fits_eltype(&a, v)?;
            }
            a.data = match items
                .iter()
                .map(super::plain_number)
                .collect::<Option<Vec<f64>>>()
            {
                Some(numbers) => Tensor::from_col_major(&[numbers.len()], numbers),
                None => {
                    let parts = items
                        .iter()
                        .map(|v| Ok(ops::reshape(&to_tensor(v)?, &[1])?))
                        .collect::<Result<Vec<_>, Flow>>()?;
                    ops::concat(&parts, 0)?
                }
            };
            Ok(())
        }
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{}, ...)", other.type_name()),
        )),
    }
}

/// An `InexactError` when `v` is not an integer and `a` holds integers (`insert!([1], 1, 1.5)`).
fn check_fits_eltype(a: &Array, v: &Value) -> Result<(), Flow> {
    if a.eltype == ElType::Int64 && scalar_f64(v).is_ok_and(|x| x.fract() != 0.0) {
        return Err(fail(
            ErrorKind::InexactError,
            format!("Int64({})", crate::display::repr(v)),
        ));
    }
    Ok(())
}

/// `sizehint!(v, n)`: a hint that `v` will grow to `n` elements; difflab's vectors grow in
/// amortized constant time without it, so it returns `v` unchanged.
fn sizehint_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("sizehint!", 2, 2)?;
    super::to_size(&args.pos[1], "sizehint!")?;
    Ok(args.pos[0].clone())
}

crate::builtins! {
    "deleteat!" => deleteat_, false, "    deleteat!(v, i)\n    deleteat!(v, inds)\n\nRemoves the elements at index `i` (or at the indices in `inds`, a range or a vector) from the vector `v`, in place, and returns `v`.\n\n```\njulia> v = [10, 20, 30, 40]; deleteat!(v, 2); v\n3-element Vector{Int64}:\n 10\n 30\n 40\n\njulia> deleteat!([1, 2, 3, 4], [1, 3])\n2-element Vector{Int64}:\n 2\n 4\n```";
    "insert!" => insert_, false, "    insert!(v, i, x)\n\nInserts `x` into the vector `v` at index `i` (shifting the rest), in place, and returns `v`.\n\n```\njulia> insert!([1, 3], 2, 2)\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "sizehint!" => sizehint_, false, "    sizehint!(v, n)\n\nA hint that `v` will hold `n` elements; difflab's vectors grow in amortized constant time without it, so `v` is returned unchanged.\n\n```\njulia> v = Float64[]; sizehint!(v, 100); push!(v, 1.0); length(v)\n1\n```";
    "push!" => push_, false, "    push!(v, xs...)\n\nAppends elements to a vector, in place.\n\n```\njulia> v = [1.0]; push!(v, 2.0)\n2-element Vector{Float64}:\n 1.0\n 2.0\n```";
    "append!" => append_, false, "    append!(v, xs)\n\nAppends all elements of `xs` to `v`, in place.\n\n```\njulia> append!([1], [2, 3])\n3-element Vector{Int64}:\n 1\n 2\n 3\n```";
    "pop!" => pop_, false, "    pop!(v)\n    pop!(d, key[, default])\n    pop!(s[, x[, default]])\n\nRemoves and returns the last element of a vector, the value stored under `key` in a `Dict`, or an element of a `Set` (`x`, else the first shown); a missing key is a `KeyError` unless `default` is given.\n\n```\njulia> pop!([1, 2, 3])\n3\n```";
}
