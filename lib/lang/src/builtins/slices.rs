//! The columns and rows of a matrix one at a time (`eachcol`, `eachrow`, `mapslices`), and
//! `permutedims`.
//!
//! Slices are gathered with `ops::gather`, so they carry derivatives like any other indexing.

use super::{call_named, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::iterate::no_method;
use crate::eval::Interp;
use crate::value::convert::{from_tensor, operand, Operand};
use crate::value::Value;
use difflab_ad::ops;

/// Whether slices run down the columns (`eachcol`) or along the rows (`eachrow`).
#[derive(Clone, Copy)]
enum Along {
    Columns,
    Rows,
}

/// The numbers of the only argument of `name`.
fn numbers<'a>(args: &'a Args, name: &str) -> Result<Operand<'a>, Flow> {
    args.arity(name, 1, 1)?;
    operand(&args.pos[0])?.ok_or_else(|| no_method(name, &args.pos))
}

/// The slices of the matrix (or vector, as one column) `args.pos[0]`, as a vector of vectors.
fn slices(interp: &Interp, args: &Args, name: &str, along: Along) -> EvalResult {
    let x = numbers(args, name)?;
    let shape = x.tensor().shape().to_vec();
    let (m, n) = match shape.as_slice() {
        [m] => (*m, 1),
        [m, n] => (*m, *n),
        _ => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("{name} takes a vector or a matrix"),
            ))
        }
    };
    interp.check_alloc(m.saturating_mul(n))?;
    let (count, length) = match along {
        Along::Columns => (n, m),
        Along::Rows => (m, n),
    };
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        // Column-major positions of column k, or of row k.
        let indices: Vec<usize> = match along {
            Along::Columns => (k * m..(k + 1) * m).collect(),
            Along::Rows => (0..n).map(|j| k + j * m).collect(),
        };
        let slice = ops::gather(x.tensor(), &indices, &[length])?;
        out.push(from_tensor(slice, x.eltype, false));
    }
    Ok(Value::list(out))
}

/// `stack(vectors)`: the vectors (all of one length) as the columns of a matrix.
fn stack_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("stack", 1, 1)?;
    let columns = interp.elements_of(&args.pos[0])?;
    if columns.is_empty() {
        return Err(fail(
            ErrorKind::ArgumentError,
            "stack of an empty collection is undefined",
        ));
    }
    call_named(interp, "hcat", columns)
}

/// `selectdim(A, d, i)`: `A` indexed by `i` along dimension `d` and by `:` along the others.
fn selectdim_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("selectdim", 3, 3)?;
    let rank = super::arrays::shape_of(&args.pos[0], "selectdim")?.len();
    let d = super::to_size(&args.pos[1], "selectdim")?;
    if d == 0 || d > rank.max(1) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("selectdim: dimension {d} is out of range for an array of {rank} dimensions"),
        ));
    }
    let indices: Vec<Value> = (1..=rank.max(1))
        .map(|k| {
            if k == d {
                args.pos[2].clone()
            } else {
                Value::Builtin(super::colon())
            }
        })
        .collect();
    interp.index_value(&args.pos[0], &indices)
}

fn eachcol_(interp: &mut Interp, args: Args) -> EvalResult {
    slices(interp, &args, "eachcol", Along::Columns)
}

fn eachrow_(interp: &mut Interp, args: Args) -> EvalResult {
    slices(interp, &args, "eachrow", Along::Rows)
}

/// `mapslices(f, A; dims)`: `f` of each column (`dims=1`) or row (`dims=2`) of the matrix
/// `A`, each result (a number or a vector) becoming the column or row in its place.
fn mapslices_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("mapslices", 2, 2)?;
    let along = match args.kw("dims") {
        Some(Value::Int(1)) => Along::Columns,
        Some(Value::Int(2)) => Along::Rows,
        _ => {
            return Err(fail(
                ErrorKind::ArgumentError,
                "mapslices takes dims=1 (columns) or dims=2 (rows) of a matrix",
            ))
        }
    };
    let f = args.pos[0].clone();
    let slices = slices(
        interp,
        &Args::positional(vec![args.pos[1].clone()]),
        "mapslices",
        along,
    )?;
    let mut columns = Vec::new();
    for slice in crate::value::iterate::elements(&slices)? {
        let result = interp.call(&f, vec![slice])?;
        // A number becomes a one-element column, so every result stacks the same way.
        columns.push(call_named(interp, "vcat", vec![result])?);
    }
    let stacked = call_named(interp, "hcat", columns)?;
    match along {
        Along::Columns => Ok(stacked),
        Along::Rows => call_named(interp, "permutedims", vec![stacked]),
    }
}

/// `permutedims(A)`: a matrix's transpose, a vector as a one-row matrix.
fn permutedims_(_: &mut Interp, args: Args) -> EvalResult {
    let x = numbers(&args, "permutedims")?;
    match *x.tensor().shape() {
        [n] => Ok(from_tensor(
            ops::reshape(x.tensor(), &[1, n])?,
            x.eltype,
            false,
        )),
        [_, _] => crate::builtins::value_operators::adjoint(&args.pos[0]),
        _ => Err(fail(
            ErrorKind::ArgumentError,
            "permutedims without a permutation takes a vector or a matrix",
        )),
    }
}

crate::builtins! {
    "stack" => stack_, false, "    stack(vectors)\n\nThe vectors (of one length) as the columns of a matrix.\n\n```\njulia> stack([[1, 2], [3, 4]])\n2×2 Matrix{Int64}:\n 1  3\n 2  4\n```";
    "selectdim" => selectdim_, false, "    selectdim(A, d, i)\n\nThe slice of `A` at index `i` along dimension `d` (all of the other dimensions).\n\n```\njulia> selectdim([1 2; 3 4], 1, 2)\n2-element Vector{Int64}:\n 3\n 4\n```";
    "eachcol" => eachcol_, false, "    eachcol(A)\n\nThe columns of the matrix `A`, each as a vector (a vector of vectors here; Julia gives a lazy collection of views).\n\n```\njulia> [sum(c) for c in eachcol([1 2; 3 4])]\n2-element Vector{Int64}:\n 4\n 6\n```";
    "eachrow" => eachrow_, false, "    eachrow(A)\n\nThe rows of the matrix `A`, each as a vector.\n\n```\njulia> collect(eachrow([1 2; 3 4]))[2]\n2-element Vector{Int64}:\n 3\n 4\n```";
    "mapslices" => mapslices_, false, "    mapslices(f, A; dims)\n\n`f` applied to each column (`dims=1`) or each row (`dims=2`) of the matrix `A`; each result, a number or a vector, takes the slice's place.\n\n```\njulia> mapslices(sum, [1 2; 3 4]; dims=1)\n1×2 Matrix{Int64}:\n 4  6\n\njulia> mapslices(x -> x / sum(x), [1.0 3.0; 1.0 1.0]; dims=2)\n2×2 Matrix{Float64}:\n 0.25  0.75\n 0.5   0.5\n```";
    "permutedims" => permutedims_, false, "    permutedims(A)\n\nThe transpose of a matrix (not recursive, unlike `A'` on matrices of matrices); a vector becomes a one-row matrix.\n\n```\njulia> permutedims([1 2; 3 4])\n2×2 Matrix{Int64}:\n 1  3\n 2  4\n\njulia> permutedims([1, 2])\n1×2 Matrix{Int64}:\n 1  2\n```";
}
