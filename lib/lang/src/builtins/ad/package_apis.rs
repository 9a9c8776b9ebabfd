//! The differentiation functions of the packages whose code users paste — ForwardDiff,
//! ReverseDiff and Zygote (`ForwardDiff.gradient(f, x)`, `Zygote.gradient(f, x, y)`) — as
//! difflab's operators with the matching backend (`AutoForwardDiff()`, `AutoReverseDiff()`),
//! returning what those packages return: arrays for ForwardDiff and ReverseDiff, a tuple with
//! one gradient per argument for Zygote; and ChainRulesCore's `ignore_derivatives`, which every
//! backend respects.

use crate::builtins::{call_builtin, Args};
use crate::error::EvalResult;
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_syntax::Name;

/// `operator(f, backend, x)` (or `operator(f!, y, backend, x)`, the in-place form, when
/// `arguments` holds `y` and `x`) with the backend made by the constructor `backend`.
fn with_backend(
    interp: &mut Interp,
    args: &Args,
    name: &str,
    operator: &str,
    backend: &str,
    in_place: bool,
) -> EvalResult {
    args.arity(name, 2, if in_place { 3 } else { 2 })?;
    let backend = call_builtin(interp, backend, Vec::new(), Vec::new(), false)?;
    let mut pos = args.pos.clone();
    let at = pos.len() - 1;
    pos.insert(at, backend);
    call_builtin(interp, operator, pos, Vec::new(), false)
}

macro_rules! package_operators {
    ($($fname:ident => $name:literal, $operator:literal, $backend:literal, $in_place:literal;)*) => {
        $(fn $fname(interp: &mut Interp, args: Args) -> EvalResult {
            with_backend(interp, &args, $name, $operator, $backend, $in_place)
        })*
    };
}

package_operators! {
    forward_derivative => "ForwardDiff.derivative", "derivative", "AutoForwardDiff", false;
    forward_gradient => "ForwardDiff.gradient", "gradient", "AutoForwardDiff", false;
    forward_jacobian => "ForwardDiff.jacobian", "jacobian", "AutoForwardDiff", true;
    forward_hessian => "ForwardDiff.hessian", "hessian", "AutoForwardDiff", false;
    reverse_gradient => "ReverseDiff.gradient", "gradient", "AutoReverseDiff", false;
    reverse_jacobian => "ReverseDiff.jacobian", "jacobian", "AutoReverseDiff", true;
    reverse_hessian => "ReverseDiff.hessian", "hessian", "AutoReverseDiff", false;
}

/// The function `f` with every argument fixed but the one at `slot`, which the call gives:
/// how Zygote's derivative with respect to one of several arguments is taken.
struct OneArgument {
    function: Value,
    arguments: Vec<Value>,
    slot: usize,
}

impl Object for OneArgument {
    fn type_name(&self) -> String {
        "Function".into()
    }

    fn show(&self) -> String {
        format!(
            "{} with respect to argument {}",
            crate::display::repr(&self.function),
            self.slot + 1
        )
    }

    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        kwargs: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        let Ok([x]) = <[Value; 1]>::try_from(args) else {
            return Some(Err(crate::error::fail(
                crate::error::ErrorKind::MethodError,
                format!("{} takes one argument", self.show()),
            )));
        };
        let mut arguments = self.arguments.clone();
        arguments[self.slot] = x;
        Some(interp.call_value(&self.function, arguments, kwargs))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Zygote's `operator(f, xs...)`: a tuple with one result per argument, each taken by reverse
/// mode with the other arguments fixed.
fn per_argument(interp: &mut Interp, args: &Args, name: &str, operator: &str) -> EvalResult {
    args.arity(name, 2, usize::MAX)?;
    let function = args.pos[0].clone();
    let arguments = args.pos[1..].to_vec();
    let backend = call_builtin(interp, "AutoReverseDiff", Vec::new(), Vec::new(), false)?;
    let mut results = Vec::with_capacity(arguments.len());
    for (slot, x) in arguments.iter().enumerate() {
        let partial = Value::object(OneArgument {
            function: function.clone(),
            arguments: arguments.clone(),
            slot,
        });
        let pos = vec![partial, backend.clone(), x.clone()];
        results.push(call_builtin(interp, operator, pos, Vec::new(), false)?);
    }
    Ok(Value::tuple(results))
}

fn zygote_gradient(interp: &mut Interp, args: Args) -> EvalResult {
    per_argument(interp, &args, "Zygote.gradient", "gradient")
}

fn zygote_jacobian(interp: &mut Interp, args: Args) -> EvalResult {
    per_argument(interp, &args, "Zygote.jacobian", "jacobian")
}

/// `Zygote.withgradient(f, xs...)`: `(val = f(xs...), grad = Zygote.gradient(f, xs...))`.
fn zygote_withgradient(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("Zygote.withgradient", 2, usize::MAX)?;
    let value = interp.call_value(&args.pos[0], args.pos[1..].to_vec(), Vec::new())?;
    let grad = per_argument(interp, &args, "Zygote.withgradient", "gradient")?;
    Ok(Value::named_tuple(vec![
        (difflab_syntax::name!("val"), value),
        (difflab_syntax::name!("grad"), grad),
    ]))
}

/// `Zygote.hessian(f, x)`: the Hessian by forward over reverse mode, as Zygote computes it.
fn zygote_hessian(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("Zygote.hessian", 2, 2)?;
    let outer = call_builtin(interp, "AutoForwardDiff", Vec::new(), Vec::new(), false)?;
    let inner = call_builtin(interp, "AutoReverseDiff", Vec::new(), Vec::new(), false)?;
    let backend = call_builtin(interp, "SecondOrder", vec![outer, inner], Vec::new(), false)?;
    let pos = vec![args.pos[0].clone(), backend, args.pos[1].clone()];
    call_builtin(interp, "hessian", pos, Vec::new(), false)
}

/// `x` with a zero derivative under every backend: numbers and arrays carrying derivatives
/// through the `ignore_derivatives` primitive (recorded like any operation, so a compiled
/// tape computes it anew), tuples item by item, anything else as it is.
fn detached(x: &Value) -> EvalResult {
    match x {
        Value::Tuple(items) => Ok(Value::tuple(
            items.iter().map(detached).collect::<Result<_, _>>()?,
        )),
        _ => match crate::value::convert::operand(x)? {
            Some(o) if !o.tensor().is_plain() => {
                let mut args = Args::positional(vec![x.clone()]);
                args.dotted = true;
                crate::builtins::math::unary(difflab_ad::ops::UnaryFn::IgnoreDerivatives, &args)
            }
            _ => Ok(x.clone()),
        },
    }
}

/// `ignore_derivatives(x)`, or `ignore_derivatives(f)`: `f()` with its derivatives ignored.
fn ignore_derivatives_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("ignore_derivatives", 1, 1)?;
    match &args.pos[0] {
        f @ (Value::Function(_) | Value::Builtin(_)) => detached(&interp.call(f, Vec::new())?),
        x => detached(x),
    }
}

crate::builtins! {
    "ignore_derivatives" => ignore_derivatives_, false, "    ignore_derivatives(x)\n    ignore_derivatives(f)\n\nChainRulesCore's `ignore_derivatives`: `x` (or `f()`) with a zero derivative under every AD backend (finite differences, which only evaluate the function, see through it, as in Julia); the sparsity detectors see no dependency through it. `Zygote.dropgrad` is the same.\n\n```\njulia> gradient(x -> x[1] * ignore_derivatives(x[2]), AutoReverseDiff(), [2.0, 3.0])\n2-element Vector{Float64}:\n 3.0\n 0.0\n```";
    "Zygote.dropgrad" => ignore_derivatives_, false, "    Zygote.dropgrad(x)\n\n`x` with a zero derivative: `ignore_derivatives(x)`.\n\n```\njulia> derivative(x -> x * Zygote.dropgrad(x), AutoForwardDiff(), 3.0)\n3.0\n```";
    "ForwardDiff.derivative" => forward_derivative, false, "    ForwardDiff.derivative(f, x)\n\nForwardDiff's derivative of `f` at the number `x`: `derivative(f, AutoForwardDiff(), x)`.\n\n```\njulia> ForwardDiff.derivative(x -> x^3, 2.0)\n12.0\n```";
    "ForwardDiff.gradient" => forward_gradient, false, "    ForwardDiff.gradient(f, x)\n\nForwardDiff's gradient of `f` at the array `x`: `gradient(f, AutoForwardDiff(), x)`.\n\n```\njulia> ForwardDiff.gradient(x -> sum(abs2, x), [1.0, 2.0])\n2-element Vector{Float64}:\n 2.0\n 4.0\n```";
    "ForwardDiff.jacobian" => forward_jacobian, false, "    ForwardDiff.jacobian(f, x)\n    ForwardDiff.jacobian(f!, y, x)\n\nForwardDiff's Jacobian of `f` at `x` (or of the in-place `f!(y, x)`): `jacobian(f, AutoForwardDiff(), x)`.\n\n```\njulia> ForwardDiff.jacobian(x -> x .^ 2, [1.0, 2.0])\n2×2 Matrix{Float64}:\n 2.0  0.0\n 0.0  4.0\n```";
    "ForwardDiff.hessian" => forward_hessian, false, "    ForwardDiff.hessian(f, x)\n\nForwardDiff's Hessian of `f` at `x`: `hessian(f, AutoForwardDiff(), x)`.\n\n```\njulia> ForwardDiff.hessian(x -> x[1]^2 * x[2], [1.0, 2.0])\n2×2 Matrix{Float64}:\n 4.0  2.0\n 2.0  0.0\n```";
    "ReverseDiff.gradient" => reverse_gradient, false, "    ReverseDiff.gradient(f, x)\n\nReverseDiff's gradient of `f` at the array `x`: `gradient(f, AutoReverseDiff(), x)`.\n\n```\njulia> ReverseDiff.gradient(x -> sum(abs2, x), [1.0, 2.0])\n2-element Vector{Float64}:\n 2.0\n 4.0\n```";
    "ReverseDiff.jacobian" => reverse_jacobian, false, "    ReverseDiff.jacobian(f, x)\n    ReverseDiff.jacobian(f!, y, x)\n\nReverseDiff's Jacobian of `f` at `x`: `jacobian(f, AutoReverseDiff(), x)`.\n\n```\njulia> ReverseDiff.jacobian(x -> [x[1] * x[2]], [2.0, 3.0])\n1×2 Matrix{Float64}:\n 3.0  2.0\n```";
    "ReverseDiff.hessian" => reverse_hessian, false, "    ReverseDiff.hessian(f, x)\n\nReverseDiff's Hessian of `f` at `x`: `hessian(f, AutoReverseDiff(), x)`.\n\n```\njulia> ReverseDiff.hessian(x -> x[1] * x[2], [2.0, 3.0])\n2×2 Matrix{Float64}:\n 0.0  1.0\n 1.0  0.0\n```";
    "Zygote.gradient" => zygote_gradient, false, "    Zygote.gradient(f, xs...)\n\nZygote's gradient: a tuple with the gradient of `f` with respect to each argument, taken by reverse mode (`AutoReverseDiff()`) with the others fixed.\n\n```\njulia> Zygote.gradient(x -> 3x^2, 2.0)\n(12.0,)\n\njulia> Zygote.gradient((a, b) -> a * sum(b), 2.0, [1.0, 3.0])\n(4.0, [2.0, 2.0])\n```";
    "Zygote.jacobian" => zygote_jacobian, false, "    Zygote.jacobian(f, xs...)\n\nZygote's Jacobian: a tuple with the Jacobian of `f` with respect to each argument, by reverse mode.\n\n```\njulia> Zygote.jacobian(x -> 2x, [1.0, 2.0])\n([2.0 0.0; 0.0 2.0],)\n```";
    "Zygote.withgradient" => zygote_withgradient, false, "    Zygote.withgradient(f, xs...)\n\nThe value and Zygote's gradient together: `(val = f(xs...), grad = Zygote.gradient(f, xs...))`.\n\n```\njulia> Zygote.withgradient(x -> x^2, 3.0)\n(val = 9.0, grad = (6.0,))\n```";
    "Zygote.hessian" => zygote_hessian, false, "    Zygote.hessian(f, x)\n\nZygote's Hessian of `f` at `x`, by forward over reverse mode: `hessian(f, SecondOrder(AutoForwardDiff(), AutoReverseDiff()), x)`.\n\n```\njulia> Zygote.hessian(x -> x[1]^2 * x[2], [1.0, 2.0])\n2×2 Matrix{Float64}:\n 4.0  2.0\n 2.0  0.0\n```";
}
