//! Marker values that select behaviour by their type: Julia's `Val(x)` (DifferentiationInterface's
//! `strict=Val(true)`), ADTypes' modes (`ForwardMode()`, `ReverseMode()`,
//! `ForwardOrReverseMode()`, `SymbolicMode()`, and `mode(backend)`) and ImplicitDifferentiation's
//! representations of `∂c/∂y` (`MatrixRepresentation()`, `OperatorRepresentation()`).

use super::Args;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_ad::di::backend::{Backend, Mode};
use std::any::Any;

/// A value known by its type name alone, with `Val`'s parameter when it has one.
struct Marker {
    name: &'static str,
    /// `Val(x)`'s `x`, as Julia prints it in the type (`Val{true}`).
    parameter: Option<String>,
}

impl Object for Marker {
    fn type_name(&self) -> String {
        match &self.parameter {
            Some(p) => format!("{}{{{p}}}", self.name),
            None => self.name.into(),
        }
    }

    fn show(&self) -> String {
        format!("{}()", self.type_name())
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The marker value called `name` (`ForwardMode()`, `MatrixRepresentation()`, …).
pub fn marker(name: &'static str) -> Value {
    Value::object(Marker {
        name,
        parameter: None,
    })
}

/// Whether `v` is the marker called `name` (`ForwardMode`, `MatrixRepresentation`, …).
pub fn is_marker(v: &Value, name: &str) -> bool {
    matches!(v, Value::Object(o) if o.as_any().downcast_ref::<Marker>().is_some_and(|m| m.name == name))
}

/// The parameter of a `Val` value as Julia prints it (`"true"` for `Val(true)`, `"2"` for
/// `Val(2)`), `None` for anything else.
pub fn val_parameter(v: &Value) -> Option<&str> {
    match v {
        Value::Object(o) => match o.as_any().downcast_ref::<Marker>() {
            Some(Marker {
                name: "Val",
                parameter: Some(p),
            }) => Some(p.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// `strict=Val(true)` or `strict=Val(false)` (absent: true), as DifferentiationInterface's
/// preparations take it; anything else is the `TypeError` Julia gives.
pub fn strict_keyword(args: &Args, name: &str) -> Result<bool, Flow> {
    let Some(v) = args.kw("strict") else {
        return Ok(true);
    };
    match v {
        Value::Object(o) => match o.as_any().downcast_ref::<Marker>() {
            Some(Marker {
                name: "Val",
                parameter: Some(p),
            }) if p == "true" || p == "false" => Ok(p == "true"),
            _ => Err(strict_error(name, v)),
        },
        _ => Err(strict_error(name, v)),
    }
}

fn strict_error(name: &str, v: &Value) -> Flow {
    fail(
        ErrorKind::TypeError,
        format!(
            "in keyword argument strict of {name}, expected Val, got a value of type {}",
            v.type_name()
        ),
    )
}

fn val_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("Val", 1, 1)?;
    let parameter = match &args.pos[0] {
        Value::Symbol(s) => format!(":{s}"),
        v @ (Value::Bool(_) | Value::Int(_)) => crate::display::repr(v),
        other => {
            return Err(fail(
                ErrorKind::TypeError,
                format!(
                    "in Val, expected a Bool, an Int or a Symbol, got a value of type {}",
                    other.type_name()
                ),
            ))
        }
    };
    Ok(Value::object(Marker {
        name: "Val",
        parameter: Some(parameter),
    }))
}

/// Constructors of markers without parameters: `ForwardMode()` and the like.
macro_rules! marker_constructors {
    ($($function:ident => $name:literal),* $(,)?) => {
        $(
            fn $function(_: &mut Interp, args: Args) -> EvalResult {
                args.arity($name, 0, 0)?;
                Ok(marker($name))
            }
        )*
    };
}

marker_constructors! {
    forward_mode_ => "ForwardMode",
    reverse_mode_ => "ReverseMode",
    forward_or_reverse_mode_ => "ForwardOrReverseMode",
    symbolic_mode_ => "SymbolicMode",
    matrix_representation_ => "MatrixRepresentation",
    operator_representation_ => "OperatorRepresentation",
}

/// ADTypes' `mode(backend)`: the mode of a first-order backend (finite differences count as
/// forward, as in ADTypes).
fn mode_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("mode", 1, 1)?;
    let backend = super::ad::sparse_ad::as_auto_sparse(&args.pos[0])
        .map(|s| &s.dense)
        .or_else(|| super::ad::backends::as_backend(&args.pos[0]));
    match backend {
        Some(Backend::Symbolic { .. }) => Ok(marker("SymbolicMode")),
        Some(
            b @ (Backend::Forward { .. }
            | Backend::Reverse { .. }
            | Backend::FiniteDiff { .. }
            | Backend::ZeroForward
            | Backend::ZeroReverse),
        ) => Ok(marker(match b.mode() {
            Mode::Reverse => "ReverseMode",
            Mode::Forward | Mode::FiniteDifferences => "ForwardMode",
        })),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching mode(::{}); mode takes a first-order backend",
                args.pos[0].type_name()
            ),
        )),
    }
}

crate::builtins! {
    "Val" => val_, false, "    Val(x)\n\nA value whose type carries `x` (a `Bool`, an `Int` or a `Symbol`), as Julia's: DifferentiationInterface's preparations take `strict=Val(true)` (the default: a preparation is used only with the function, backend and input shape it was made for) or `strict=Val(false)`.\n\n```\njulia> Val(true)\nVal{true}()\n\njulia> prep = prepare_gradient(x -> sum(abs2, x), AutoForwardDiff(), [1.0, 2.0]; strict=Val(false));\n```";
    "ForwardMode" => forward_mode_, false, "    ForwardMode()\n\nADTypes' forward mode, the mode of `AutoForwardDiff()` and `AutoFiniteDiff()` (`mode(backend)`).\n\n```\njulia> mode(AutoForwardDiff())\nForwardMode()\n```";
    "ReverseMode" => reverse_mode_, false, "    ReverseMode()\n\nADTypes' reverse mode, the mode of `AutoReverseDiff()`; see `?ForwardMode`.\n\n```\njulia> mode(AutoReverseDiff(compile=true)) == ReverseMode()\ntrue\n```";
    "ForwardOrReverseMode" => forward_or_reverse_mode_, false, "    ForwardOrReverseMode()\n\nADTypes' mode for either direction.\n\n```\njulia> ForwardOrReverseMode()\nForwardOrReverseMode()\n```";
    "SymbolicMode" => symbolic_mode_, false, "    SymbolicMode()\n\nADTypes' symbolic mode, the mode of `AutoFastDifferentiation()` and `AutoSymbolics()`.\n\n```\njulia> mode(AutoFastDifferentiation())\nSymbolicMode()\n```";
    "mode" => mode_, false, "    mode(backend)\n\nADTypes' mode of a first-order backend: `ForwardMode()` (forward mode and finite differences), `ReverseMode()` or `SymbolicMode()`; an `AutoSparse` backend has its dense backend's mode.\n\n```\njulia> mode(AutoSparse(AutoReverseDiff()))\nReverseMode()\n```";
    "MatrixRepresentation" => matrix_representation_, false, "    MatrixRepresentation()\n\nImplicitDifferentiation's explicit representation of `A = ∂c/∂y`: an `ImplicitFunction` made with `representation=MatrixRepresentation()` computes `A` entry by entry (a Jacobian of the conditions) and solves with it, also under `IterativeLinearSolver()`.\n\n```\njulia> implicit = ImplicitFunction(x -> sqrt.(x), (x, y) -> y .^ 2 .- x; representation=MatrixRepresentation());\n\njulia> jacobian(implicit, AutoForwardDiff(), [4.0])\n1×1 Matrix{Float64}:\n 0.25\n```";
    "OperatorRepresentation" => operator_representation_, false, "    OperatorRepresentation()\n\nImplicitDifferentiation's lazy representation of `A = ∂c/∂y` (the default): `A` is applied by differentiating the conditions along a direction (a pushforward, or a pullback for `Aᵀ`), never materialized, so `IterativeLinearSolver()` runs on products alone. `DirectLinearSolver()` materializes `A` whatever the representation.\n\n```\njulia> OperatorRepresentation()\nOperatorRepresentation()\n```";
}
