//! ImplicitDifferentiation's preparation. `prepare_implicit(mode, implicit, x, args...)`
//! prepares, with the implicit function's `backends`, the derivatives of the conditions a mode
//! needs (`prep_A` and `prep_B` for `ForwardMode()`, `prep_Aᵀ` and `prep_Bᵀ` for `ReverseMode()`,
//! all four for `ForwardOrReverseMode()`; none without `backends`, as in ID): they are
//! DifferentiationInterface preparations of the conditions in `y` (with `y` moved first, `x`,
//! `z` and the arguments as `Constant` contexts) and in `x`, Jacobians under
//! `MatrixRepresentation()`, pushforwards and pullbacks otherwise. `implicit(prep, x, args...)`
//! differentiates with them. `build_A`, `build_Aᵀ`, `build_B` and `build_Bᵀ` give `A = ∂c/∂y`
//! and `B = ∂c/∂x` as ID represents them: a matrix, or a `JVP`/`VJP` operator.

use super::backends::backend_value;
use super::contexts::Context;
use super::implicit::{ImplicitFunction, Point};
use crate::builtins::markers::is_marker;
use crate::builtins::{call_builtin, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_ad::di::Backend;
use difflab_syntax::Name;
use std::any::Any;

/// The conditions with their first two arguments swapped, `(y, x, rest...) -> c(x, y, rest...)`:
/// the function `A = ∂c/∂y` differentiates, made once per preparation so that the preparations
/// recognize it.
struct Switch12 {
    conditions: Value,
}

impl Object for Switch12 {
    fn type_name(&self) -> String {
        "Switch12".into()
    }

    fn show(&self) -> String {
        format!("Switch12({})", crate::display::repr(&self.conditions))
    }

    fn call(
        &self,
        interp: &mut Interp,
        mut args: Vec<Value>,
        kwargs: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        if args.len() >= 2 {
            args.swap(0, 1);
        }
        Some(interp.call_value(&self.conditions, args, kwargs))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What `prepare_implicit` prepared: DifferentiationInterface preparations, or `None`.
pub struct ImplicitPreparation {
    /// The `Switch12` of the conditions that `prep_a` and `prep_at` were made for.
    switched: Value,
    prep_a: Option<Value>,
    prep_at: Option<Value>,
    prep_b: Option<Value>,
    prep_bt: Option<Value>,
}

impl Object for ImplicitPreparation {
    fn type_name(&self) -> String {
        "ImplicitFunctionPreparation".into()
    }

    fn show(&self) -> String {
        let prepared: Vec<&str> = self
            .field_names()
            .into_iter()
            .filter(|name| {
                self.field(name)
                    .is_some_and(|v| !matches!(v, Value::Nothing))
            })
            .collect();
        format!(
            "ImplicitFunctionPreparation(prepared: {})",
            prepared.join(", ")
        )
    }

    fn field(&self, name: &str) -> Option<Value> {
        let part = match name {
            "prep_A" => &self.prep_a,
            "prep_Aᵀ" => &self.prep_at,
            "prep_B" => &self.prep_b,
            "prep_Bᵀ" => &self.prep_bt,
            _ => return None,
        };
        Some(part.clone().unwrap_or(Value::Nothing))
    }

    fn field_names(&self) -> Vec<&'static str> {
        vec!["prep_A", "prep_Aᵀ", "prep_B", "prep_Bᵀ"]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The preparation `v` is, if it is one.
pub fn as_implicit_preparation(v: &Value) -> Option<&ImplicitPreparation> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<ImplicitPreparation>(),
        _ => None,
    }
}

fn constant(v: &Value) -> Value {
    Value::object(Context::Constant(v.clone()))
}

fn tuple(items: Vec<Value>) -> Value {
    Value::tuple(items)
}

/// The `Constant` contexts of the conditions around the argument differentiated: the other of
/// `x` and `y`, the byproduct `z` when `forward` returns one, and the extra arguments.
fn contexts(other: &Value, z: Option<&Value>, extra: &[Value]) -> Vec<Value> {
    std::iter::once(other)
        .chain(z)
        .chain(extra)
        .map(constant)
        .collect()
}

/// A linear operator of ID: `v ↦ A v` (`JVP`, by a pushforward) or `w ↦ Aᵀ w` (`VJP`, by a
/// pullback) of `function` at `at`, called as `A(v)`.
struct LinearOperator {
    transposed: bool,
    function: Value,
    backend: Value,
    at: Value,
    contexts: Vec<Value>,
    prep: Option<Value>,
}

impl Object for LinearOperator {
    fn type_name(&self) -> String {
        match self.transposed {
            false => "JVP".into(),
            true => "VJP".into(),
        }
    }

    fn show(&self) -> String {
        format!(
            "{}({}, {})",
            self.type_name(),
            crate::display::repr(&self.function),
            crate::display::repr(&self.backend)
        )
    }

    fn call(
        &self,
        interp: &mut Interp,
        args: Vec<Value>,
        _: Vec<(Name, Value)>,
    ) -> Option<EvalResult> {
        let [direction] = args.as_slice() else {
            return Some(Err(fail(
                ErrorKind::MethodError,
                format!("a {} takes one direction", self.type_name()),
            )));
        };
        let operator = if self.transposed {
            "pullback"
        } else {
            "pushforward"
        };
        let mut pos = vec![self.function.clone()];
        pos.extend(self.prep.clone());
        pos.extend([
            self.backend.clone(),
            self.at.clone(),
            tuple(vec![direction.clone()]),
        ]);
        pos.extend(self.contexts.iter().cloned());
        Some(call_builtin(interp, operator, pos, Vec::new(), false).and_then(|t| first_of(&t)))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn first_of(tangents: &Value) -> EvalResult {
    match tangents {
        Value::Tuple(items) if !items.is_empty() => Ok(items[0].clone()),
        other => Ok(other.clone()),
    }
}

/// Calls the language's `operator` (`pushforward`, `pullback`, `jacobian`) on `function` with
/// `prep`, differentiating in `y` (`in_y`) or in `x`, with the other one, the byproduct and the
/// extra arguments as `Constant` contexts; `directions` are the tangents or cotangents.
#[allow(clippy::too_many_arguments)]
fn run_prepared(
    interp: &mut Interp,
    operator: &str,
    function: Value,
    prep: Value,
    backend: &Backend,
    at: &Point,
    in_y: bool,
    directions: Option<Vec<Value>>,
) -> EvalResult {
    let (x, y) = at.values();
    let (input, other) = if in_y { (y, x) } else { (x, y) };
    let mut pos = vec![function, prep, backend_value(backend.clone()), input];
    pos.extend(directions.map(tuple));
    pos.extend(contexts(&other, at.z.as_ref(), at.extra));
    call_builtin(interp, operator, pos, Vec::new(), false)
}

impl ImplicitPreparation {
    /// `B ẋ` for every tangent `ẋ` with `prep_B`, or (`transposed`) `Bᵀ w` for every
    /// cotangent `w` with `prep_Bᵀ`; `None` when that part was not prepared.
    pub(super) fn b_applied(
        &self,
        interp: &mut Interp,
        implicit: &ImplicitFunction,
        at: &Point,
        directions: Vec<Value>,
        transposed: bool,
    ) -> Option<Result<Vec<Value>, Flow>> {
        let (operator, prep) = match transposed {
            false => ("pushforward", self.prep_b.clone()?),
            true => ("pullback", self.prep_bt.clone()?),
        };
        let (function, backend) = (implicit.conditions_value(), implicit.backend_for_x());
        let applied = run_prepared(
            interp,
            operator,
            function,
            prep,
            backend,
            at,
            false,
            Some(directions),
        );
        Some(applied.and_then(|t| elements(&t)))
    }

    /// `A v`, with `prep_A` made for pushforwards; `None` when there is no such preparation.
    pub(super) fn a_times(
        &self,
        interp: &mut Interp,
        implicit: &ImplicitFunction,
        at: &Point,
        v: Value,
    ) -> Option<EvalResult> {
        let matrix = implicit.is_matrix_representation();
        let prep = self.prep_a.clone().filter(|_| !matrix)?;
        let (function, backend) = (self.switched.clone(), implicit.backend_for_y());
        let av = run_prepared(
            interp,
            "pushforward",
            function,
            prep,
            backend,
            at,
            true,
            Some(vec![v]),
        );
        Some(av.and_then(|t| first_of(&t)))
    }

    /// `A` as a matrix, with a Jacobian preparation (`prep_A` or `prep_Aᵀ` under
    /// `MatrixRepresentation()`); `None` when there is none.
    pub(super) fn a_matrix(
        &self,
        interp: &mut Interp,
        implicit: &ImplicitFunction,
        at: &Point,
    ) -> Option<EvalResult> {
        let matrix = implicit.is_matrix_representation();
        let prep = self
            .prep_a
            .clone()
            .or_else(|| self.prep_at.clone())
            .filter(|_| matrix)?;
        let (function, backend) = (self.switched.clone(), implicit.backend_for_y());
        Some(run_prepared(
            interp, "jacobian", function, prep, backend, at, true, None,
        ))
    }
}

fn elements(tangents: &Value) -> Result<Vec<Value>, Flow> {
    match tangents {
        Value::Tuple(items) => Ok(items.to_vec()),
        other => Ok(vec![other.clone()]),
    }
}

fn implicit_of<'a>(v: &'a Value, name: &str) -> Result<&'a ImplicitFunction, Flow> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<ImplicitFunction>(),
        _ => None,
    }
    .ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(..., ::{}, ...): it takes an ImplicitFunction",
                v.type_name()
            ),
        )
    })
}

/// `(forward, reverse)`: which directions a mode asks for.
fn directions(mode: &Value) -> Result<(bool, bool), Flow> {
    if is_marker(mode, "ForwardMode") {
        Ok((true, false))
    } else if is_marker(mode, "ReverseMode") {
        Ok((false, true))
    } else if is_marker(mode, "ForwardOrReverseMode") {
        Ok((true, true))
    } else {
        Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching prepare_implicit(::{}, ...): the mode is ForwardMode(), ReverseMode() or ForwardOrReverseMode()",
                mode.type_name()
            ),
        ))
    }
}

fn zeros_like(interp: &mut Interp, v: &Value) -> EvalResult {
    call_builtin(interp, "zero", vec![v.clone()], Vec::new(), false)
}

fn prepare_implicit_(interp: &mut Interp, args: Args) -> EvalResult {
    args.arity("prepare_implicit", 3, usize::MAX)?;
    let strict = crate::builtins::markers::strict_keyword(&args, "prepare_implicit")?;
    let (forward, reverse) = directions(&args.pos[0])?;
    let implicit = implicit_of(&args.pos[1], "prepare_implicit")?;
    let (x, extra) = (&args.pos[2], &args.pos[3..]);
    let switched = Value::object(Switch12 {
        conditions: implicit.conditions_value(),
    });
    let mut prep = ImplicitPreparation {
        switched: switched.clone(),
        prep_a: None,
        prep_at: None,
        prep_b: None,
        prep_bt: None,
    };
    if matches!(implicit.backends_value(), Value::Nothing) {
        return Ok(Value::object(prep));
    }
    let (y, z) = implicit.forward_at(interp, x, extra)?;
    let c = implicit.conditions_at(interp, x, &y, z.as_ref(), extra)?;
    let strict_kw = vec![(
        difflab_syntax::name!("strict"),
        call_builtin(interp, "Val", vec![Value::Bool(strict)], Vec::new(), false)?,
    )];
    let matrix = implicit.is_matrix_representation();
    let backend_y = backend_value(implicit.backend_for_y().clone());
    let backend_x = backend_value(implicit.backend_for_x().clone());
    let (in_y, in_x) = (
        contexts(x, z.as_ref(), extra),
        contexts(&y, z.as_ref(), extra),
    );
    let conditions = implicit.conditions_value();
    // A DI preparation of the conditions in `y` (the switched function) or in `x`.
    let prepare = |interp: &mut Interp, operator: &str, of_y: bool, direction: Option<Value>| {
        let (function, backend, input, context) = match of_y {
            true => (switched.clone(), &backend_y, &y, &in_y),
            false => (conditions.clone(), &backend_x, x, &in_x),
        };
        let mut pos = vec![function, backend.clone(), input.clone()];
        pos.extend(direction.map(|d| tuple(vec![d])));
        pos.extend(context.iter().cloned());
        call_builtin(interp, operator, pos, strict_kw.clone(), false).map(Some)
    };
    let (zero_y, zero_x, zero_c) = (
        zeros_like(interp, &y)?,
        zeros_like(interp, x)?,
        zeros_like(interp, &c)?,
    );
    if forward {
        prep.prep_a = match matrix {
            true => prepare(interp, "prepare_jacobian", true, None)?,
            false => prepare(interp, "prepare_pushforward", true, Some(zero_y))?,
        };
        prep.prep_b = prepare(interp, "prepare_pushforward", false, Some(zero_x))?;
    }
    if reverse {
        prep.prep_at = match matrix {
            true => prepare(interp, "prepare_jacobian", true, None)?,
            false => prepare(interp, "prepare_pullback", true, Some(zero_c.clone()))?,
        };
        prep.prep_bt = prepare(interp, "prepare_pullback", false, Some(zero_c))?;
    }
    Ok(Value::object(prep))
}

/// Which operator a builder returns.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    A,
    At,
    B,
    Bt,
}

fn build(interp: &mut Interp, args: Args, part: Part, name: &str) -> EvalResult {
    args.arity(name, 6, usize::MAX)?;
    let suggested = args.kw("suggested_backend").cloned();
    let implicit = implicit_of(&args.pos[0], name)?;
    let prep = as_implicit_preparation(&args.pos[1]).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("{name} takes the preparation of prepare_implicit second"),
        )
    })?;
    let (x, y, z) = (&args.pos[2], &args.pos[3], &args.pos[4]);
    let extra = &args.pos[6..];
    let given = match part {
        Part::A | Part::At => implicit.backend_for_y(),
        Part::B | Part::Bt => implicit.backend_for_x(),
    };
    let backend = match (implicit.backends_value(), suggested) {
        (Value::Nothing, Some(b)) => b,
        (Value::Nothing, None) => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("{name}: an ImplicitFunction without backends needs suggested_backend"),
            ))
        }
        _ => backend_value(given.clone()),
    };
    let (function, at, contexts, prepared) = match part {
        Part::A => (
            prep.switched.clone(),
            y,
            contexts(x, Some(z), extra),
            prep.prep_a.clone(),
        ),
        Part::At => (
            prep.switched.clone(),
            y,
            contexts(x, Some(z), extra),
            prep.prep_at.clone(),
        ),
        Part::B => (
            implicit.conditions_value(),
            x,
            contexts(y, Some(z), extra),
            prep.prep_b.clone(),
        ),
        Part::Bt => (
            implicit.conditions_value(),
            x,
            contexts(y, Some(z), extra),
            prep.prep_bt.clone(),
        ),
    };
    if implicit.is_matrix_representation() && matches!(part, Part::A | Part::At) {
        let mut pos = vec![function];
        pos.extend(prepared);
        pos.extend([backend, at.clone()]);
        pos.extend(contexts);
        let a = call_builtin(interp, "jacobian", pos, Vec::new(), false)?;
        return match part {
            Part::At => call_builtin(interp, "permutedims", vec![a], Vec::new(), false),
            _ => Ok(a),
        };
    }
    Ok(Value::object(LinearOperator {
        transposed: matches!(part, Part::At | Part::Bt),
        function,
        backend,
        at: at.clone(),
        contexts,
        prep: prepared,
    }))
}

fn build_a_(interp: &mut Interp, args: Args) -> EvalResult {
    build(interp, args, Part::A, "build_A")
}

fn build_at_(interp: &mut Interp, args: Args) -> EvalResult {
    build(interp, args, Part::At, "build_Aᵀ")
}

fn build_b_(interp: &mut Interp, args: Args) -> EvalResult {
    build(interp, args, Part::B, "build_B")
}

fn build_bt_(interp: &mut Interp, args: Args) -> EvalResult {
    build(interp, args, Part::Bt, "build_Bᵀ")
}

crate::builtins! {
    "prepare_implicit" => prepare_implicit_, false, "    prepare_implicit(mode, implicit, x, args...; strict=Val(true))\n\nImplicitDifferentiation's preparation: with the implicit function's `backends`, prepares the derivatives of the conditions that `mode` needs (`ForwardMode()`: `prep_A` and `prep_B`; `ReverseMode()`: `prep_Aᵀ` and `prep_Bᵀ`; `ForwardOrReverseMode()`: all four), as DifferentiationInterface preparations (Jacobians under `MatrixRepresentation()`, pushforwards and pullbacks otherwise). Without `backends` nothing is prepared, as in ID. `implicit(prep, x, args...)` then differentiates with them, for inputs shaped like `x`.\n\n```\njulia> implicit = ImplicitFunction(x -> (sqrt.(x), nothing), (x, y, z) -> y .^ 2 .- x; backends=(x=AutoForwardDiff(), y=AutoForwardDiff()));\n\njulia> prep = prepare_implicit(ForwardMode(), implicit, [1.0, 1.0]);\n\njulia> prep.prep_Aᵀ === nothing\ntrue\n\njulia> jacobian(x -> first(implicit(prep, x)), AutoForwardDiff(), [4.0, 9.0])\n2×2 Matrix{Float64}:\n 0.25  0.0\n 0.0   0.166667\n```";
    "build_A" => build_a_, false, "    build_A(implicit, prep, x, y, z, c, args...; suggested_backend)\n\n`A = ∂c/∂y` at a point as ImplicitDifferentiation represents it: a matrix under `MatrixRepresentation()`, else a `JVP` operator (`A(v)` is `A v`). The backend is the implicit function's `backends.y`, or `suggested_backend` without `backends`.\n\n```\njulia> implicit = ImplicitFunction(x -> (sqrt.(x), nothing), (x, y, z) -> y .^ 2 .- x; representation=MatrixRepresentation());\n\njulia> prep = prepare_implicit(ForwardMode(), implicit, [4.0]);\n\njulia> build_A(implicit, prep, [4.0], [2.0], nothing, [0.0]; suggested_backend=AutoForwardDiff())\n1×1 Matrix{Float64}:\n 4.0\n```";
    "build_Aᵀ" => build_at_, false, "    build_Aᵀ(implicit, prep, x, y, z, c, args...; suggested_backend)\n\n`Aᵀ` as ImplicitDifferentiation represents it: the transposed matrix under `MatrixRepresentation()`, else a `VJP` operator (`Aᵀ(w)` is `Aᵀ w`, by a pullback); see `?build_A`.\n\n```\njulia> implicit = ImplicitFunction(x -> (sqrt.(x), nothing), (x, y, z) -> y .^ 2 .- x);\n\njulia> At = build_Aᵀ(implicit, prepare_implicit(ReverseMode(), implicit, [4.0]), [4.0], [2.0], nothing, [0.0]; suggested_backend=AutoReverseDiff());\n\njulia> At([1.0])\n1-element Vector{Float64}:\n 4.0\n```";
    "build_B" => build_b_, false, "    build_B(implicit, prep, x, y, z, c, args...; suggested_backend)\n\n`B = ∂c/∂x` as a `JVP` operator (`B(v)` is `B v`); see `?build_A`.\n\n```\njulia> implicit = ImplicitFunction(x -> (sqrt.(x), nothing), (x, y, z) -> y .^ 2 .- x);\n\njulia> B = build_B(implicit, prepare_implicit(ForwardMode(), implicit, [4.0]), [4.0], [2.0], nothing, [0.0]; suggested_backend=AutoForwardDiff());\n\njulia> B([1.0])\n1-element Vector{Float64}:\n -1.0\n```";
    "build_Bᵀ" => build_bt_, false, "    build_Bᵀ(implicit, prep, x, y, z, c, args...; suggested_backend)\n\n`Bᵀ` as a `VJP` operator (`Bᵀ(w)` is `Bᵀ w`, by a pullback); see `?build_A`.\n\n```\njulia> implicit = ImplicitFunction(x -> (sqrt.(x), nothing), (x, y, z) -> y .^ 2 .- x);\n\njulia> Bt = build_Bᵀ(implicit, prepare_implicit(ReverseMode(), implicit, [4.0]), [4.0], [2.0], nothing, [0.0]; suggested_backend=AutoReverseDiff());\n\njulia> Bt([1.0]) isa Vector && isa(Bt, VJP)\ntrue\n```";
}
