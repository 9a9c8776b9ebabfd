//! Indexing as functions (`getindex`, `setindex!`) and the in-place copies built on it
//! (`copyto!`, `map!`): the same rules as `x[i]` and `x[i] = v`, so user containers with
//! `getindex`/`setindex!` methods and arrays of any number kind work alike.

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::value::{Range, Value};
use std::rc::Rc;

fn getindex_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("getindex", 1, usize::MAX)?;
    interp.index_value(&args.pos[0], &args.pos[1..])
}

fn setindex_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("setindex!", 2, usize::MAX)?;
    interp.set_index_values(&args.pos[0], &args.pos[2..], args.pos[1].clone())?;
    Ok(args.pos[0].clone())
}

/// `dest[1:length(src)] = src` (in linear order), returning `dest`.
pub(super) fn copy_into(interp: &mut Interp, dest: &Value, src: Value) -> EvalResult {
    let n = super::arrays::shape_of(&src, "copyto!")?
        .iter()
        .product::<usize>();
    let room = super::arrays::shape_of(dest, "copyto!")?
        .iter()
        .product::<usize>();
    if n > room {
        return Err(fail(
            ErrorKind::BoundsError,
            format!("copyto!: a destination of {room} elements cannot hold {n}"),
        ));
    }
    let positions = Value::Range(Rc::new(Range::new(1.0, 1.0, n, true, true)));
    let flat = match &src {
        Value::Array(_) => super::call_named(interp, "vec", vec![src])?,
        _ => super::call_named(interp, "collect", vec![src])?,
    };
    interp.set_index_values(dest, &[positions], flat)?;
    Ok(dest.clone())
}

fn copyto_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("copyto!", 2, 2)?;
    copy_into(interp, &args.pos[0], args.pos[1].clone())
}

fn map_in_place(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("map!", 3, usize::MAX)?;
    let mut map_args = vec![args.pos[0].clone()];
    map_args.extend(args.pos[2..].iter().cloned());
    let mapped = super::call_named(interp, "map", map_args)?;
    copy_into(interp, &args.pos[1], mapped)
}

crate::builtins! {
    "getindex" => getindex_, false, "    getindex(A, inds...)\n\n`A[inds...]` as a function (what `A[i]` calls; user containers define methods of it).\n\n```\njulia> getindex([10, 20, 30], 2)\n20\n\njulia> getindex.(Ref([10, 20, 30]), [3, 1])\n2-element Vector{Int64}:\n 30\n 10\n```";
    "setindex!" => setindex_, false, "    setindex!(A, v, inds...)\n\n`A[inds...] = v` as a function; returns `A`.\n\n```\njulia> x = zeros(3); setindex!(x, 2.0, 2)\n3-element Vector{Float64}:\n 0.0\n 2.0\n 0.0\n```";
    "copyto!" => copyto_, false, "    copyto!(dest, src)\n\nCopies the elements of `src` into the first elements of `dest` (in linear order) and returns `dest`.\n\n```\njulia> copyto!(zeros(2, 2), [1.0, 2.0, 3.0])\n2×2 Matrix{Float64}:\n 1.0  3.0\n 2.0  0.0\n```";
    "map!" => map_in_place, false, "    map!(f, dest, xs...)\n\n`map(f, xs...)` written into `dest`, which is returned.\n\n```\njulia> y = zeros(2); map!(abs2, y, [3.0, 4.0]); y\n2-element Vector{Float64}:\n  9.0\n 16.0\n```";
}
