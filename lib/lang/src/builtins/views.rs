//! Views: `view(x, 2:3)`, `view(A, :, j)`, `@view x[1:2]` and `@views`, with Julia's
//! semantics (a write through a view changes its parent).
//!
//! A view is an ordinary array value (so reading it, broadcasting on it and passing it to any
//! builtin work unchanged) that carries [`ViewLinks`]: the array it views and, for each of its
//! elements, the parent's position. Its numbers are gathered from the parent with
//! `ad::ops::gather`, so a view of an array carrying derivatives carries the same derivatives.
//! Writes through `eval::index` (`v[i] = x`, `v .= x`, `fill!`) call [`after_write`], which
//! scatters the written elements into the parent (`ops::scatter_into` for numbers carrying
//! derivatives) and refreshes the parent's other views; a write into a parent refreshes its
//! views. A view of a view views the first parent directly.
//!
//! Limitation: builtins that replace an array's numbers wholesale (`push!`, `gradient!` into a
//! buffer) do not refresh views of that array; a view made afterwards sees the new numbers.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::value::{Array, ArrayRef, Value};
use difflab_ad::ops;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// The links between a view and its parent, kept in [`Array::links`].
#[derive(Debug, Default)]
pub struct ViewLinks {
    /// For a view: its parent (never itself a view), the parent's column-major position of
    /// each element of the view, and the indices as written (`2:3`, `:, 1`) for display.
    pub(crate) parent: Option<(ArrayRef, Rc<[usize]>, Rc<str>)>,
    /// For a parent: its views, held weakly so a dropped view costs nothing.
    pub(crate) views: Vec<Weak<RefCell<Array>>>,
}

/// `view(parent, indices...)` with evaluated indices: a view of an array, or the indexed
/// value itself for other collections (a range's view is a range, as in Julia).
pub(crate) fn make_view(interp: &mut Interp, parent: &Value, indices: &[Value]) -> EvalResult {
    let Value::Array(cell) = parent else {
        return interp.index_value(parent, indices);
    };
    let (positions, shape) = crate::eval::index::view_positions(&cell.borrow(), indices)?;
    interp.check_alloc(positions.len())?;
    let described = indices
        .iter()
        .map(|i| match i {
            Value::Builtin(b) if b.name == ":" => ":".to_string(),
            other => crate::display::repr(other),
        })
        .collect::<Vec<_>>()
        .join(", ");
    // A view of a view views the first parent, its positions composed.
    let (root, positions) = match cell.borrow().links.as_ref().and_then(|l| l.parent.clone()) {
        Some((root, map, _)) => (root, positions.iter().map(|&k| map[k]).collect()),
        None => (cell.clone(), positions),
    };
    let view = {
        let r = root.borrow();
        let data = ops::gather(&r.data, &positions, &shape)?;
        let mut a = Array::new(r.eltype, data);
        a.links = Some(Box::new(ViewLinks {
            parent: Some((root.clone(), positions.into(), described.into())),
            views: Vec::new(),
        }));
        Rc::new(RefCell::new(a))
    };
    let mut r = root.borrow_mut();
    let links = r.links.get_or_insert_with(Box::default);
    links.views.retain(|w| w.strong_count() > 0);
    links.views.push(Rc::downgrade(&view));
    Ok(Value::Array(view))
}

/// After `cell` was written at the given positions (all of them for `None`): a view passes
/// the written elements on to its parent and the parent's other views; a parent refreshes
/// its views.
pub(crate) fn after_write(cell: &ArrayRef, written: Option<&[usize]>) -> Result<(), Flow> {
    let parent = match cell.borrow().links.as_ref() {
        None => return Ok(()),
        Some(links) => links.parent.clone(),
    };
    let Some((root, map, _)) = parent else {
        forget_dropped_views(cell);
        return refresh_views(cell, None);
    };
    let (values, targets) = {
        let a = cell.borrow();
        match written {
            Some(pos) => (
                ops::gather(&a.data, pos, &[pos.len()])?,
                pos.iter().map(|&k| map[k]).collect::<Vec<_>>(),
            ),
            None => (ops::reshape(&a.data, &[map.len()])?, map.to_vec()),
        }
    };
    crate::eval::index::write_tensor(&mut root.borrow_mut(), &targets, &values)?;
    refresh_views(&root, Some(cell))
}

/// Drops the links of a parent whose views are all gone, so its writes take the fast path
/// again.
fn forget_dropped_views(cell: &ArrayRef) {
    let mut a = cell.borrow_mut();
    if let Some(links) = a.links.as_mut() {
        links.views.retain(|w| w.strong_count() > 0);
        if links.views.is_empty() && links.parent.is_none() {
            a.links = None;
        }
    }
}

/// Gathers every live view of `root` (but `except`) again from it.
fn refresh_views(root: &ArrayRef, except: Option<&ArrayRef>) -> Result<(), Flow> {
    let r = root.borrow();
    let Some(links) = r.links.as_ref() else {
        return Ok(());
    };
    let len = r.data.len();
    for view in links.views.iter().filter_map(Weak::upgrade) {
        if except.is_some_and(|e| Rc::ptr_eq(e, &view)) {
            continue;
        }
        let mut v = view.borrow_mut();
        let Some((_, map, _)) = v.links.as_ref().and_then(|l| l.parent.clone()) else {
            continue;
        };
        // A parent shrunk by `pop!` no longer has every viewed element; the view keeps its
        // last numbers.
        if map.iter().any(|&k| k >= len) {
            continue;
        }
        let shape = v.data.shape().to_vec();
        v.data = ops::gather(&r.data, &map, &shape)?;
        v.eltype = r.eltype;
    }
    Ok(())
}

/// The parent of a view and how its indices were written, for display.
pub(crate) fn view_parent(a: &Array) -> Option<(ArrayRef, Rc<str>)> {
    let (parent, _, described) = a.links.as_ref()?.parent.as_ref()?;
    Some((parent.clone(), described.clone()))
}

fn view_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("view", 1, usize::MAX)?;
    make_view(interp, &args.pos[0], &args.pos[1..])
}

fn parent_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("parent", 1, 1)?;
    match &args.pos[0] {
        Value::Array(a) => Ok(match view_parent(&a.borrow()) {
            Some((p, _)) => Value::Array(p),
            None => args.pos[0].clone(),
        }),
        other => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching parent(::{})", other.type_name()),
        )),
    }
}

crate::builtins! {
    "view" => view_, false, "    view(A, inds...)\n    @view A[inds...]\n\nA view of the elements of `A` that `A[inds...]` selects, without copying them: reading it reads `A`, and writing it (`v[1] = 0`, `v .= 0`, `fill!(v, 0)`) writes `A`. A view is an array, so it broadcasts and goes to any function; a view of an array carrying derivatives carries them too. `@views expr` makes every slice in `expr` a view.\n\n```\njulia> x = [1.0, 2.0, 3.0]; v = view(x, 2:3); v .= 0; x\n3-element Vector{Float64}:\n 1.0\n 0.0\n 0.0\n```";
    "parent" => parent_, false, "    parent(v)\n\nThe array a view looks into (an array that is not a view is its own parent).\n\n```\njulia> x = [1, 2, 3]; parent(view(x, 1:2)) === x\ntrue\n```";
}
