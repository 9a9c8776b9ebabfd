//! Tracers made by hand and shown as index sets, as in the sparsity talk's demonstration:
//! `x = Tracer.(Set{Int}([1, 2, 3, 4]))`, then `f(x)` shows which inputs each output depends on.
//! `Tracer(i)` is the global first-order tracer `TracerSparsityDetector()` feeds a function;
//! `Set` is the set of integers it is built from. [`show_tracer`] prints any scalar tracer
//! (also inside a detection, `display(x)`), and [`tracer_array_plain`] arrays of them.

use super::super::{to_int, Args};
use crate::error::ErrorKind;
use crate::eval::{fail, EvalResult, Flow, Interp};
use crate::object::Object;
use crate::value::Value;
use difflab_ad::tracer::{IndexSet, Tracer};
use difflab_ad::{ops, Tensor};
use std::any::Any;
use std::rc::Rc;

/// A set of integers, kept sorted.
pub struct IntSet {
    elements: Vec<i64>,
}

impl Object for IntSet {
    fn type_name(&self) -> String {
        "Set{Int64}".into()
    }

    fn show(&self) -> String {
        let mut out = format!(
            "Set{{Int64}} with {} element{}",
            self.elements.len(),
            if self.elements.len() == 1 { "" } else { "s" }
        );
        if !self.elements.is_empty() {
            out.push(':');
        }
        for e in &self.elements {
            out.push_str(&format!("\n  {e}"));
        }
        out
    }

    fn repr(&self) -> String {
        let items: Vec<String> = self.elements.iter().map(i64::to_string).collect();
        format!("Set([{}])", items.join(", "))
    }

    fn elements(&self) -> Option<Vec<Value>> {
        Some(self.elements.iter().map(|&e| Value::Int(e)).collect())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `Set(v)`, `Set{Int}(v)`, `Set()`: the distinct integers of `v`.
fn set_(_: &mut Interp, args: Args) -> EvalResult {
    let items = match args.pos.as_slice() {
        [] => Vec::new(),
        [Value::Builtin(t), rest @ ..] if matches!(t.name, "Int" | "Int64") => match rest {
            [] => Vec::new(),
            [v] => crate::eval::iterate::elements(v)?,
            _ => return Err(set_arguments()),
        },
        [v] => crate::eval::iterate::elements(v)?,
        _ => return Err(set_arguments()),
    };
    let mut elements = items
        .iter()
        .map(|v| to_int(v, "Set"))
        .collect::<Result<Vec<_>, _>>()?;
    elements.sort_unstable();
    elements.dedup();
    Ok(Value::Object(Rc::new(Box::new(IntSet { elements }))))
}

/// The elements of a set, or of any collection, as integers for a set operation.
fn set_elements(v: &Value, name: &str) -> Result<Option<Vec<i64>>, Flow> {
    match v {
        Value::Object(o) => match o.as_any().downcast_ref::<IntSet>() {
            Some(set) => Ok(Some(set.elements.clone())),
            None => Ok(None),
        },
        other => crate::eval::iterate::elements(other)?
            .iter()
            .map(|x| to_int(x, name))
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
    }
}

/// `union(a, b, …)` (`a ∪ b`) and `intersect(a, b, …)` (`a ∩ b`) of sets of integers (a set
/// when the first argument is one) and of integer vectors.
fn set_operation(args: &Args, name: &str, keep: fn(bool, bool) -> bool) -> EvalResult {
    args.arity(name, 1, usize::MAX)?;
    let mut result: Option<Vec<i64>> = None;
    for v in &args.pos {
        let Some(mut items) = set_elements(v, name)? else {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no method matching {name}(::{})", v.type_name()),
            ));
        };
        items.sort_unstable();
        items.dedup();
        result = Some(match result {
            None => items,
            Some(acc) => {
                let mut merged: Vec<i64> = acc.iter().chain(&items).copied().collect();
                merged.sort_unstable();
                merged.dedup();
                merged
                    .into_iter()
                    .filter(|x| keep(acc.binary_search(x).is_ok(), items.binary_search(x).is_ok()))
                    .collect()
            }
        });
    }
    let elements = result.unwrap_or_default();
    let first_is_set = matches!(&args.pos[0], Value::Object(o) if o.as_any().is::<IntSet>());
    if first_is_set {
        Ok(Value::object(IntSet { elements }))
    } else {
        let n = elements.len();
        Ok(Value::array(
            crate::show::ElType::Int64,
            &[n],
            elements.into_iter().map(|e| e as f64).collect(),
        ))
    }
}

fn union_(_: &mut Interp, args: Args) -> EvalResult {
    set_operation(&args, "union", |a, b| a || b)
}

fn intersect_(_: &mut Interp, args: Args) -> EvalResult {
    set_operation(&args, "intersect", |a, b| a && b)
}

fn set_arguments() -> Flow {
    fail(
        ErrorKind::MethodError,
        "Set takes a collection of integers: Set([1, 2]) or Set{Int}([1, 2])",
    )
}

/// `Tracer(i)`, `Tracer(s::Set)`, `Tracer()`: a global tracer depending on input `i`, on the
/// inputs in `s`, or on nothing.
fn tracer_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Tracer", 0, 1)?;
    let indices: Vec<i64> = match args.pos.first() {
        None => Vec::new(),
        Some(Value::Object(o)) if o.as_any().is::<IntSet>() => o
            .as_any()
            .downcast_ref::<IntSet>()
            .map(|s| s.elements.clone())
            .unwrap_or_default(),
        Some(v) => vec![to_int(v, "Tracer")?],
    };
    let set: Vec<u32> = indices
        .iter()
        .map(|&i| {
            u32::try_from(i - 1).map_err(|_| {
                fail(
                    ErrorKind::ArgumentError,
                    format!("a tracer's inputs are numbered from 1, got {i}"),
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let tracer = Tracer::new(&[], vec![IndexSet::from(set)], None);
    Ok(Value::Real(Tensor::Tracer(Rc::new(tracer))))
}

/// `Tracer{Int}(Set{Int}([1, 2]))` for a global tracer, `Dual(1.5, Tracer{Int}(…))` for a
/// local one (its value and its set); `None` for other numbers.
pub fn show_tracer(t: &Tensor) -> Option<String> {
    let Tensor::Tracer(tr) = t else {
        return None;
    };
    let set: Vec<String> = tr
        .sets
        .first()?
        .iter()
        .map(|i| (i + 1).to_string())
        .collect();
    let shown = format!("Tracer{{Int}}(Set{{Int}}([{}]))", set.join(", "));
    Some(if tr.global {
        shown
    } else {
        let x = tr.primal.first().copied().unwrap_or(f64::NAN);
        format!("Dual({}, {shown})", crate::show::float(x))
    })
}

/// The `text/plain` display of an array of tracers: its summary, then one tracer per line
/// (the first and last ten of a long array).
pub fn tracer_array_plain(t: &Tensor) -> Option<String> {
    let Tensor::Tracer(tr) = t else {
        return None;
    };
    let mut out = format!(
        "{} {}:",
        crate::show::dims_string(t.shape()),
        crate::show::array_type_name(crate::value::tracer_type(tr), t.shape().len())
    );
    let n = t.len();
    let shown: Vec<usize> = if n > 20 {
        (0..10).chain(n - 10..n).collect()
    } else {
        (0..n).collect()
    };
    for (k, &i) in shown.iter().enumerate() {
        if n > 20 && k == 10 {
            out.push_str("\n ⋮");
        }
        let element = ops::gather(t, &[i], &[]).ok()?;
        out.push_str(&format!("\n {}", show_tracer(&element)?));
    }
    Some(out)
}

crate::builtins! {
    "Tracer" => tracer_, false, "    Tracer(i)\n    Tracer(s::Set)\n    Tracer()\n\nA global sparsity tracer, the number `TracerSparsityDetector()` feeds a function: it carries no value, only the set of inputs it depends on (input `i`, the inputs in `s`, or none). Every operation unites the sets of the arguments it really depends on, so running a function on tracers shows the sparsity pattern of its Jacobian, row by row.\n\n```\njulia> f(x) = [x[1] * x[2] * sign(x[3]), sign(x[3]) * x[4] / 2];\n\njulia> x = Tracer.(Set{Int}([1, 2, 3, 4]));\n\njulia> f(x)\n2-element Vector{Tracer{Int}}:\n Tracer{Int}(Set{Int}([1, 2]))\n Tracer{Int}(Set{Int}([4]))\n```";
    "union" => union_, false, "    union(a, b, ...)\n    a ∪ b\n\nThe elements in any of the collections (a set when `a` is a set).\n\n```\njulia> Set([1, 2]) ∪ Set([2, 5])\nSet{Int64} with 3 elements:\n  1\n  2\n  5\n```";
    "intersect" => intersect_, false, "    intersect(a, b, ...)\n    a ∩ b\n\nThe elements in every one of the collections (a set when `a` is a set).\n\n```\njulia> [1, 2, 3] ∩ [2, 3, 4]\n2-element Vector{Int64}:\n 2\n 3\n```";
    "Set" => set_, false, "    Set(v)\n    Set{Int}(v)\n\nThe set of the distinct integers in `v` (shown sorted), e.g. to make tracers with `Tracer.(Set{Int}([1, 2, 3]))`.\n\n```\njulia> Set([3, 1, 3])\nSet{Int64} with 2 elements:\n  1\n  3\n```";
}
