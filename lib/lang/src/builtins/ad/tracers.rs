//! Tracers made by hand and shown as index sets, as in the sparsity talk's demonstration:
//! `x = Tracer.(Set{Int}([1, 2, 3, 4]))`, then `f(x)` shows which inputs each output depends on.
//! `Tracer(i)` is the global first-order tracer `TracerSparsityDetector()` feeds a function;
//! `Set` (in `builtins::set`) holds the integers it is built from. [`show_tracer`] prints any scalar tracer
//! (also inside a detection, `display(x)`), and [`tracer_array_plain`] arrays of them.

use super::super::{to_int, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::Interp;
use crate::value::iterate::elements;
use crate::value::Value;
use difflab_ad::tracer::{IndexSet, Tracer};
use difflab_ad::{ops, Tensor};
use std::rc::Rc;

/// `Tracer(i)`, `Tracer(s::Set)`, `Tracer()`: a global tracer depending on input `i`, on the
/// inputs in `s`, or on nothing.
fn tracer_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Tracer", 0, 1)?;
    let indices: Vec<i64> = match args.pos.first() {
        None => Vec::new(),
        Some(v) if crate::builtins::set::as_set(v).is_some() => elements(v)?
            .iter()
            .map(|i| to_int(i, "Tracer"))
            .collect::<Result<_, _>>()?,
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

/// A scalar local tracer as a plain number (`Int(x)`, `Float64(x)`, `Integer(x)`), as
/// SparseConnectivityTracer converts its duals: one that depends on no input gives its value,
/// one that does is an `InexactError` naming `type_name`, since converting would drop the
/// dependency. `None` for anything else.
pub fn local_tracer_value(v: &Value, type_name: &str) -> Option<Result<f64, crate::error::Flow>> {
    let Value::Real(t @ Tensor::Tracer(tr)) = v else {
        return None;
    };
    if tr.global || tr.sets.len() != 1 {
        return None;
    }
    Some(if tr.sets[0].is_empty() {
        Ok(tr.primal.first().copied().unwrap_or(f64::NAN))
    } else {
        Err(fail(
            ErrorKind::InexactError,
            format!("{type_name}({})", show_tracer(t).unwrap_or_default()),
        ))
    })
}

/// The number `c` as a constant of a tracer type (`Tracer{Int}(c)`, `convert(T, c)` with `T`
/// the local detector's number type): it depends on no input.
pub fn constant_tracer(type_name: &str, c: f64) -> Option<Value> {
    let primal = match type_name {
        "Tracer{Int}" => None,
        "Dual{Float64, Tracer{Int}}" => Some(vec![c]),
        _ => return None,
    };
    let tracer = Tracer::new(&[], vec![difflab_ad::tracer::empty()], primal);
    Some(Value::Real(Tensor::Tracer(Rc::new(tracer))))
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
}
