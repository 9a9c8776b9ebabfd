//! SparseMatrixColorings' `Forest`, the union–find structure acyclic coloring grows its
//! two-colored trees with, for users who study the algorithm: `Forest{Int}(n)` with fields
//! `nt` (the number of trees), `parents` and `ranks`, `find_root!` and `root_union!`.
//! Elements are 1-based, as in Julia; the structure itself is the coloring crate's.

use super::coloring::int_vector;
use super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_coloring::Forest;
use std::any::Any;
use std::cell::RefCell;

/// A forest value: mutable, so `find_root!` (path compression) and `root_union!` change it.
struct ForestValue(RefCell<Forest>);

impl Object for ForestValue {
    fn type_name(&self) -> String {
        "Forest{Int64}".into()
    }

    fn show(&self) -> String {
        let forest = self.0.borrow();
        format!(
            "Forest{{Int64}} of {} elements in {} trees",
            forest.len(),
            forest.ntrees()
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        let forest = self.0.borrow();
        match name {
            "nt" => Some(Value::Int(forest.ntrees() as i64)),
            "parents" => Some(int_vector(
                &forest.parents().iter().map(|p| p + 1).collect::<Vec<_>>(),
            )),
            "ranks" => Some(int_vector(
                &forest
                    .ranks()
                    .iter()
                    .map(|&r| usize::from(r))
                    .collect::<Vec<_>>(),
            )),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["nt", "parents", "ranks"]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The largest forest made: SMC's forests have one element per edge of a graph.
const MAX_ELEMENTS: i64 = 1 << 32;

/// `Forest{Int}(n)` (the type parameter arrives first) or `Forest(n)`.
fn forest_(interp: &mut Interp, args: Args) -> EvalResult {
    let n = match args.pos.as_slice() {
        // The type parameter is the integer type of the indices; difflab's are all Int64.
        [_, n] | [n] => to_int(n, "Forest")?,
        _ => {
            return Err(fail(
                ErrorKind::MethodError,
                "Forest{Int}(n) takes the number of elements",
            ))
        }
    };
    if !(0..=MAX_ELEMENTS).contains(&n) {
        return Err(fail(
            ErrorKind::ArgumentError,
            format!("a Forest holds 0 to {MAX_ELEMENTS} elements, got {n}"),
        ));
    }
    let n = n as usize;
    // A parent and a rank per element.
    interp.check_bytes((n as u64).saturating_mul(9), "a Forest")?;
    Ok(Value::object(ForestValue(RefCell::new(Forest::new(n)))))
}

/// The forest and the 0-based elements after it, each checked to be in range.
fn forest_and_elements<'a>(
    args: &'a Args,
    name: &str,
    count: usize,
) -> Result<(&'a ForestValue, Vec<usize>), Flow> {
    args.arity(name, 1 + count, 1 + count)?;
    let forest = match &args.pos[0] {
        Value::Object(o) => o.as_any().downcast_ref::<ForestValue>(),
        _ => None,
    }
    .ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("{name} takes a Forest first"),
        )
    })?;
    let n = forest.0.borrow().len();
    let elements = args.pos[1..]
        .iter()
        .map(|v| {
            let k = to_int(v, name)?;
            if k < 1 || k as u64 > n as u64 {
                return Err(fail(
                    ErrorKind::BoundsError,
                    format!("{name}: element {k} of a Forest of {n} elements"),
                ));
            }
            Ok(k as usize - 1)
        })
        .collect::<Result<_, Flow>>()?;
    Ok((forest, elements))
}

fn find_root_(_: &mut Interp, args: Args) -> EvalResult {
    let (forest, elements) = forest_and_elements(&args, "find_root!", 1)?;
    let root = forest.0.borrow_mut().find(elements[0]);
    Ok(Value::Int(root as i64 + 1))
}

fn root_union_(_: &mut Interp, args: Args) -> EvalResult {
    let (forest, elements) = forest_and_elements(&args, "root_union!", 2)?;
    if forest.0.borrow_mut().union_roots(elements[0], elements[1]) {
        Ok(Value::Nothing)
    } else {
        Err(fail(
            ErrorKind::ArgumentError,
            "root_union! takes the roots of two different trees (see find_root!)",
        ))
    }
}

crate::builtins! {
    "Forest" => forest_, false, "    Forest{Int}(n)\n\nThe union–find structure acyclic coloring uses to grow its two-colored trees, as in SparseMatrixColorings: `n` elements, each its own tree at first. Fields: `nt` (the number of trees), `parents` (a root is its own parent) and `ranks`. See `find_root!` and `root_union!`.\n\n```\njulia> forest = Forest{Int}(3);\n\njulia> forest.nt, forest.parents\n(3, [1, 2, 3])\n```";
    "find_root!" => find_root_, false, "    find_root!(forest, i)\n\nThe root of the tree of element `i` of a `Forest`, compressing the path to it (every element on the way then points at the root).\n\n```\njulia> forest = Forest{Int}(3);\n\njulia> root_union!(forest, 1, 2)\n\njulia> find_root!(forest, 2), forest.nt\n(1, 2)\n```";
    "root_union!" => root_union_, false, "    root_union!(forest, root1, root2)\n\nMerges the trees of two different roots of a `Forest`: the root of higher rank (`root1` on a tie, whose rank then grows by one) becomes the parent of the other, and `nt` decreases by one. Anything but two different roots is an `ArgumentError`.\n\n```\njulia> forest = Forest{Int}(4);\n\njulia> root_union!(forest, 3, 4)\n\njulia> forest.parents, forest.ranks\n([1, 2, 3, 3], [0, 0, 1, 0])\n```";
}
