//! DifferentiationInterfaceTest's scenarios: the `Scenario` object (an operator and its place,
//! a function and its place, the input and output, tangents, contexts, the expected results and
//! the arguments preparation gets), its accessors (`operator`, `operator_place`,
//! `function_place`), and the scenario library written in the language (`scenarios.dl`):
//! `default_scenarios`, `sparse_scenarios`, `empty_scenarios`, `compute_results` and the
//! modifiers `change_function`, `zero`, `batchify`, `closurify`, `constantify`, `cachify`,
//! `constantorcachify`.

use super::contexts::{as_context, Context};
use super::operators::Op;
use crate::builtins::{call_builtin, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::equality::values_equal;
use crate::value::Value;
use difflab_syntax::Name;
use std::any::Any;

/// A test case for one operator.
pub struct Scenario {
    /// The operator.
    pub op: Op,
    /// `op!(f, result, backend, x)` rather than `result = op(f, backend, x)`.
    pub operator_in_place: bool,
    /// `f!(y, x)` rather than `y = f(x)`.
    pub function_in_place: bool,
    /// The function.
    pub f: Value,
    /// The primal output (for `f!`, the array it filled).
    pub y: Value,
    /// The input.
    pub x: Value,
    /// The tangents of pushforward, pullback and HVP scenarios.
    pub tangent: Option<Value>,
    /// The context arguments (`Constant`, `Cache`, `ConstantOrCache`).
    pub contexts: Vec<Value>,
    /// The expected first-order result.
    pub res1: Option<Value>,
    /// The expected second-order result.
    pub res2: Option<Value>,
    /// What preparation gets: a named tuple of `x` (and `y`, `t`, `contexts`), zeros by default.
    pub prep_args: Value,
    /// The name shown in tables.
    pub name: Option<String>,
}

impl Scenario {
    /// 2 for second-order operators, else 1.
    pub fn order(&self) -> usize {
        if matches!(self.op, Op::SecondDerivative | Op::Hessian | Op::Hvp) {
            2
        } else {
            1
        }
    }

    /// The argument `key` of preparation (`x`, `y`, `t`, `contexts`).
    pub fn prep_arg(&self, key: &str) -> Option<Value> {
        match &self.prep_args {
            Value::NamedTuple(fields) => fields
                .iter()
                .find(|(k, _)| k.as_str() == key)
                .map(|(_, v)| v.clone()),
            _ => None,
        }
    }
}

/// The fields of a scenario, in DifferentiationInterfaceTest's order (also the keywords of its
/// full constructor).
const FIELDS: &[&str] = &[
    "f",
    "y",
    "x",
    "t",
    "contexts",
    "res1",
    "res2",
    "prep_args",
    "name",
];

fn place(in_place: bool) -> &'static str {
    if in_place {
        "in"
    } else {
        "out"
    }
}

fn symbol(s: &str) -> Value {
    Value::Symbol(Name::new(s))
}

impl Object for Scenario {
    fn type_name(&self) -> String {
        "Scenario".into()
    }

    fn show(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let mut text = format!(
            "Scenario{{:{},:{}}} {} : {} -> {}",
            self.op.name(),
            place(self.operator_in_place),
            crate::display::repr(&self.f),
            self.x.type_name(),
            self.y.type_name()
        );
        if let Some(t) = &self.tangent {
            let n = match t {
                Value::Tuple(items) => items.len(),
                _ => 1,
            };
            text.push_str(&format!(" ({n} tangents)"));
        }
        if !self.contexts.is_empty() {
            text.push_str(&format!(" ({} contexts)", self.contexts.len()));
        }
        text
    }

    fn field(&self, name: &str) -> Option<Value> {
        let or_nothing = |v: &Option<Value>| v.clone().unwrap_or(Value::Nothing);
        match name {
            "f" => Some(self.f.clone()),
            "x" => Some(self.x.clone()),
            "y" => Some(self.y.clone()),
            "t" => Some(or_nothing(&self.tangent)),
            "contexts" => Some(Value::tuple(self.contexts.clone())),
            "res1" => Some(or_nothing(&self.res1)),
            "res2" => Some(or_nothing(&self.res2)),
            "prep_args" => Some(self.prep_args.clone()),
            "name" => Some(
                self.name
                    .as_ref()
                    .map_or(Value::Nothing, |n| Value::str(n.clone())),
            ),
            "operator" => Some(symbol(self.op.name())),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        FIELDS.to_vec()
    }

    /// As DifferentiationInterfaceTest compares scenarios: everything but the function, and
    /// caches (whose contents are scratch) count as equal.
    fn equals(&self, other: &dyn Object) -> Option<bool> {
        let Some(o) = other.as_any().downcast_ref::<Scenario>() else {
            return Some(false);
        };
        let same = |a: &Option<Value>, b: &Option<Value>| match (a, b) {
            (Some(a), Some(b)) => values_equal(a, b),
            (None, None) => true,
            _ => false,
        };
        let same_context = |a: &Value, b: &Value| match (as_context(a), as_context(b)) {
            (Some(Context::Cache(_) | Context::ConstantOrCache(_)), _)
            | (_, Some(Context::Cache(_) | Context::ConstantOrCache(_))) => true,
            _ => values_equal(a, b),
        };
        Some(
            self.op == o.op
                && self.operator_in_place == o.operator_in_place
                && self.function_in_place == o.function_in_place
                && values_equal(&self.x, &o.x)
                && values_equal(&self.y, &o.y)
                && same(&self.tangent, &o.tangent)
                && self.contexts.len() == o.contexts.len()
                && self
                    .contexts
                    .iter()
                    .zip(&o.contexts)
                    .all(|(a, b)| same_context(a, b))
                && same(&self.res1, &o.res1)
                && same(&self.res2, &o.res2)
                && self.name == o.name,
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The scenario held by `v`, if it is one.
pub fn as_scenario(v: &Value) -> Option<&Scenario> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<Scenario>(),
        _ => None,
    }
}

fn op_of(v: &Value) -> Result<Op, Flow> {
    let Value::Symbol(s) = v else {
        return Err(fail(
            ErrorKind::ArgumentError,
            "Scenario: the first argument is the operator, as a symbol like :gradient",
        ));
    };
    Ok(match s.as_str() {
        "derivative" => Op::Derivative,
        "second_derivative" => Op::SecondDerivative,
        "gradient" => Op::Gradient,
        "jacobian" => Op::Jacobian,
        "hessian" => Op::Hessian,
        "pushforward" => Op::Pushforward,
        "pullback" => Op::Pullback,
        "hvp" => Op::Hvp,
        other => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!("Scenario: unknown operator :{other}"),
            ))
        }
    })
}

fn place_of(v: &Value) -> Option<bool> {
    match v {
        Value::Symbol(s) if s.as_str() == "in" => Some(true),
        Value::Symbol(s) if s.as_str() == "out" => Some(false),
        _ => None,
    }
}

/// `zero(v)` (each element of a tuple), or `v` itself when it has no zero (a function, a
/// string), so that default preparation arguments never fail.
fn zero_of(interp: &mut Interp, v: &Value) -> Value {
    match v {
        Value::Tuple(items) => {
            Value::tuple(items.iter().map(|item| zero_of(interp, item)).collect())
        }
        other => call_builtin(interp, "zero", vec![other.clone()], Vec::new(), false)
            .unwrap_or_else(|_| other.clone()),
    }
}

/// A context of the same kind holding zeros.
fn zero_context(interp: &mut Interp, c: &Value) -> Value {
    match as_context(c) {
        Some(Context::Constant(v)) => Value::object(Context::Constant(zero_of(interp, v))),
        Some(Context::Cache(v)) => Value::object(Context::Cache(zero_of(interp, v))),
        Some(Context::ConstantOrCache(v)) => {
            Value::object(Context::ConstantOrCache(zero_of(interp, v)))
        }
        None => c.clone(),
    }
}

fn named(fields: Vec<(&str, Value)>) -> Value {
    Value::named_tuple(fields.into_iter().map(|(k, v)| (Name::new(k), v)).collect())
}

/// DifferentiationInterfaceTest's default preparation arguments: zeros shaped like the
/// execution arguments.
fn default_prep_args(interp: &mut Interp, s: &Scenario) -> Value {
    let mut fields = Vec::new();
    if s.function_in_place {
        fields.push(("y", zero_of(interp, &s.y)));
    }
    fields.push(("x", zero_of(interp, &s.x)));
    if let Some(t) = &s.tangent {
        fields.push(("t", zero_of(interp, t)));
    }
    let contexts = s.contexts.iter().map(|c| zero_context(interp, c)).collect();
    fields.push(("contexts", Value::tuple(contexts)));
    named(fields)
}

/// The values the function receives for `contexts`.
pub fn context_arguments(contexts: &[Value]) -> Vec<Value> {
    contexts
        .iter()
        .map(|c| as_context(c).map_or_else(|| c.clone(), Context::argument))
        .collect()
}

/// `Scenario{op, pl_op, pl_fun}(; f, y, x, t, contexts, res1, res2, prep_args, name)`: every
/// field given, nothing run.
fn from_fields(
    op: Op,
    operator_in_place: bool,
    function_in_place: bool,
    args: &Args,
) -> EvalResult {
    let field = |k: &str| args.kw(k).cloned().filter(|v| !matches!(v, Value::Nothing));
    let required = |k: &str| {
        args.kw(k).cloned().ok_or_else(|| {
            fail(
                ErrorKind::UndefKeywordError,
                format!("keyword argument `{k}` not assigned"),
            )
        })
    };
    let contexts = match field("contexts") {
        Some(Value::Tuple(items)) => items.to_vec(),
        None => Vec::new(),
        Some(other) => vec![other],
    };
    let name = field("name").map(|v| crate::display::print_string(&v));
    Ok(Value::object(Scenario {
        op,
        operator_in_place,
        function_in_place,
        f: required("f")?,
        y: required("y")?,
        x: required("x")?,
        tangent: field("t"),
        contexts,
        res1: field("res1"),
        res2: field("res2"),
        prep_args: required("prep_args")?,
        name,
    }))
}

fn scenario_(interp: &mut Interp, mut args: Args) -> EvalResult {
    let mut pos = std::mem::take(&mut args.pos).into_iter().peekable();
    let op = op_of(
        &pos.next()
            .ok_or_else(|| fail(ErrorKind::MethodError, "Scenario needs an operator"))?,
    )?;
    let operator_in_place = pos.peek().and_then(place_of).inspect(|_| {
        pos.next();
    });
    if let Some(function_in_place) = pos.peek().and_then(place_of) {
        pos.next();
        args.keywords("Scenario", FIELDS)?;
        return from_fields(
            op,
            operator_in_place.unwrap_or(false),
            function_in_place,
            &args,
        );
    }
    let f = pos
        .next()
        .ok_or_else(|| fail(ErrorKind::MethodError, "Scenario needs a function"))?;
    let (plain, contexts): (Vec<Value>, Vec<Value>) = pos.partition(|v| as_context(v).is_none());
    let needed = if matches!(op, Op::Pushforward | Op::Pullback | Op::Hvp) {
        2
    } else {
        1
    };
    let mut plain = plain.into_iter();
    let buffer = match plain.len() {
        n if n == needed => None,
        n if n == needed + 1 => plain.next(),
        n => {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "Scenario :{}: expected {needed} input(s) after the function, got {n}",
                    op.name()
                ),
            ))
        }
    };
    let x = plain.next().expect("counted");
    let tangent = plain.next();
    args.keywords("Scenario", &["res1", "res2", "prep_args", "name"])?;
    // As upstream, the function runs once: its output is the scenario's `y`.
    let mut call_args = Vec::new();
    call_args.extend(buffer.clone());
    call_args.push(x.clone());
    call_args.extend(context_arguments(&contexts));
    let output = interp.call_value(&f, call_args, Vec::new())?;
    let function_in_place = buffer.is_some();
    let kw = |k: &str| args.kw(k).cloned().filter(|v| !matches!(v, Value::Nothing));
    let mut s = Scenario {
        op,
        operator_in_place: operator_in_place.unwrap_or(false),
        function_in_place,
        f,
        y: buffer.unwrap_or(output),
        x,
        tangent,
        contexts,
        res1: kw("res1"),
        res2: kw("res2"),
        prep_args: Value::Nothing,
        name: kw("name").map(|v| crate::display::print_string(&v)),
    };
    s.prep_args = match kw("prep_args") {
        Some(p) => p,
        None => default_prep_args(interp, &s),
    };
    Ok(Value::object(s))
}

fn the_scenario<'a>(args: &'a Args, name: &str) -> Result<&'a Scenario, Flow> {
    args.arity(name, 1, 1)?;
    as_scenario(&args.pos[0]).ok_or_else(|| {
        fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", args.pos[0].type_name()),
        )
    })
}

fn operator_(_: &mut Interp, args: Args) -> EvalResult {
    Ok(symbol(the_scenario(&args, "operator")?.op.name()))
}

fn operator_place_(_: &mut Interp, args: Args) -> EvalResult {
    Ok(symbol(place(
        the_scenario(&args, "operator_place")?.operator_in_place,
    )))
}

fn function_place_(_: &mut Interp, args: Args) -> EvalResult {
    Ok(symbol(place(
        the_scenario(&args, "function_place")?.function_in_place,
    )))
}

/// The scenario library, evaluated: a named tuple of its functions.
const LIBRARY: &str = include_str!("scenarios.dl");

/// Calls function `name` of the scenario library.
fn library_call(interp: &mut Interp, name: &str, args: Args) -> EvalResult {
    crate::builtins::call_library(interp, "the scenario library", LIBRARY, name, args)
}

/// `default_scenarios()`.
pub fn default_scenarios(interp: &mut Interp) -> EvalResult {
    library_call(interp, "default_scenarios", Args::positional(Vec::new()))
}

/// `zero(scenario)`: the same scenario with zero results.
pub fn zero_scenario(interp: &mut Interp, scenario: &Value) -> EvalResult {
    library_call(
        interp,
        "zero_scenario",
        Args::positional(vec![scenario.clone()]),
    )
}

macro_rules! from_library {
    ($($fname:ident => $name:literal),* $(,)?) => {
        $(fn $fname(interp: &mut Interp, args: Args) -> EvalResult {
            library_call(interp, $name, args)
        })*
    };
}

from_library!(
    change_function_ => "change_function", batchify_ => "batchify", closurify_ => "closurify",
    constantify_ => "constantify", cachify_ => "cachify",
    constantorcachify_ => "constantorcachify", compute_results_ => "compute_results",
    default_scenarios_ => "default_scenarios", empty_scenarios_ => "empty_scenarios",
    sparse_scenarios_ => "sparse_scenarios", allocfree_scenarios_ => "allocfree_scenarios",
    no_matrices_ => "no_matrices", same_function_ => "same_function",
    test_counterparts_ => "test_counterparts",
);

crate::builtins! {
    "Scenario" => scenario_, false, "    Scenario{op, pl_op}(f, x, [t], contexts...; res1, res2, prep_args, name)\n    Scenario{op, pl_op}(f!, y, x, [t], contexts...; ...)\n    Scenario(op, f, x, ...)\n\nA test case for one operator, as in DifferentiationInterfaceTest: `op` is `:derivative`, `:gradient`, `:jacobian`, `:hessian`, `:hvp`, `:pushforward`, `:pullback` or `:second_derivative`; `pl_op` is `:out` (`op(f, backend, x)`) or `:in` (`op!(f, result, backend, x)`). The tangents `t` of pushforward, pullback and HVP scenarios are a tuple (`(dx,)`). The function runs once when the scenario is built, and its output is the field `y`; preparation gets `prep_args` (zeros shaped like the arguments by default). `res1` is the first-order result and `res2` the second-order one. Fields: `f`, `y`, `x`, `t`, `contexts`, `res1`, `res2`, `prep_args`, `name`; see also `operator`, `operator_place`, `function_place`, `change_function`, `zero`, `compute_results`.\n\n```\njulia> s = Scenario{:gradient, :out}(x -> sum(abs2, x), [1.0, 2.0]; res1=[2.0, 4.0])\nScenario{:gradient,:out} #anonymous : Vector{Float64} -> Float64\n\njulia> s.y, s.prep_args.x\n(5.0, [0.0, 0.0])\n```";
    "operator" => operator_, false, "    operator(scenario)\n\nThe operator a `Scenario` tests, as a symbol.\n\n```\njulia> operator(Scenario{:hessian, :out}(x -> sum(x .^ 3), [1.0, 2.0]))\n:hessian\n```";
    "operator_place" => operator_place_, false, "    operator_place(scenario)\n\n`:in` when a `Scenario` tests the in-place operator (`gradient!`), else `:out`.\n\n```\njulia> operator_place(Scenario{:gradient, :in}(sum, [1.0, 2.0]))\n:in\n```";
    "function_place" => function_place_, false, "    function_place(scenario)\n\n`:in` when the function of a `Scenario` is in place (`f!(y, x)`), else `:out`.\n\n```\njulia> function_place(Scenario{:jacobian, :out}(copyto!, zeros(2), [1.0, 2.0]))\n:in\n```";
    "change_function" => change_function_, false, "    change_function(scenario, f)\n\nThe same `Scenario` with another function (its name gets \" [new function]\").\n\n```\njulia> s = Scenario{:derivative, :out}(sin, 0.0; res1=1.0, name=\"sine\");\n\njulia> change_function(s, x -> sin(x)).name\n\"sine [new function]\"\n```";
    "batchify" => batchify_, false, "    batchify(scenario)\n\nA pushforward, pullback or HVP `Scenario` with two tangents, `t` and `-t`, and both results.\n\n```\njulia> s = Scenario{:pushforward, :out}(sin, 0.0, (1.0,); res1=(1.0,), name=\"sine\");\n\njulia> batchify(s).t\n(1.0, -1.0)\n```";
    "closurify" => closurify_, false, "    closurify(scenario)\n\nThe `Scenario` whose function is a closure writing into buffers it captured and multiplying its output by 7 (results scaled accordingly): a test that backends handle closures over mutable data.\n\n```\njulia> s = Scenario{:derivative, :out}(sin, 0.0; res1=1.0, name=\"sine\");\n\njulia> closurify(s).res1\n7.0\n```";
    "constantify" => constantify_, false, "    constantify(scenario)\n\nThe `Scenario` whose function takes one more argument, a `Constant(3.0)` context multiplying its output (preparation gets `Constant(-3.0)`), with results scaled by 3.\n\n```\njulia> s = Scenario{:derivative, :out}(sin, 0.0; res1=1.0, name=\"sine\");\n\njulia> constantify(s).res1\n3.0\n```";
    "cachify" => cachify_, false, "    cachify(scenario; use_tuples=false)\n\nThe `Scenario` whose function stores its output in a `Cache` context before returning it (with `use_tuples=true` the cache is a named tuple holding the array).\n\n```\njulia> s = Scenario{:gradient, :out}(x -> sum(abs2, x), [1.0, 2.0]; res1=[2.0, 4.0], name=\"norm\");\n\njulia> cachify(s).name\n\"norm [cachified]\"\n```";
    "constantorcachify" => constantorcachify_, false, "    constantorcachify(scenario)\n\nThe `Scenario` whose function takes a `ConstantOrCache` context holding both a constant (its output is multiplied by 7) and a cache.\n\n```\njulia> s = Scenario{:derivative, :out}(sin, 0.0; res1=1.0, name=\"sine\");\n\njulia> constantorcachify(s).res1\n7.0\n```";
    "compute_results" => compute_results_, false, "    compute_results(scenario, backend)\n\nThe `Scenario` with `res1` and `res2` computed by `backend` (for scenarios without closed-form results).\n\n```\njulia> s = Scenario{:gradient, :out}(x -> sum(abs2, x), [1.0, 2.0]);\n\njulia> compute_results(s, AutoForwardDiff()).res1\n2-element Vector{Float64}:\n 2.0\n 4.0\n```";
    "default_scenarios" => default_scenarios_, false, "    default_scenarios(; linalg=true, include_normal=true, include_batchified=true, include_closurified=false, include_constantified=false, include_cachified=false, include_constantorcachified=false, use_tuples=false, include_smaller=false)\n\nDifferentiationInterfaceTest's standard scenarios with their closed-form results: numbers, vectors and matrices in and out (`num_to_num`, `num_to_vec`, `arr_to_num`, `vec_to_mat`, `mat_to_mat`, ...), one-argument functions and in-place `f!(y, x)`, every operator in both places, and two-tangent (batchified) versions. The keywords add the modified versions (see `closurify`, `constantify`, `cachify`, `constantorcachify`; `include_smaller` prepares on smaller inputs).\n\n```\njulia> length(default_scenarios(; include_batchified=false))\n106\n```";
    "empty_scenarios" => empty_scenarios_, false, "    empty_scenarios()\n\nDifferentiationInterfaceTest's scenarios on empty arrays: a function returning an empty vector (and its in-place version), the gradient of the sum of an empty vector, and two Jacobians of empty vectors.\n\n```\njulia> operator.(empty_scenarios())\n5-element Vector{Symbol}:\n :derivative\n :derivative\n :gradient\n :jacobian\n :jacobian\n```";
    "allocfree_scenarios" => allocfree_scenarios_, false, "    allocfree_scenarios()\n\nDifferentiationInterfaceTest's scenarios of functions that allocate nothing in Julia: `identity` of a number (pushforward, pullback, derivative), `sum` of a vector (pushforward, pullback, gradient) and `copyto!` (pushforward, pullback, Jacobian). difflab does not check allocations; the scenarios test correctness as any other.\n\n```\njulia> operator.(allocfree_scenarios())[1:3]\n3-element Vector{Symbol}:\n :pushforward\n :pullback\n :derivative\n```";
    "no_matrices" => no_matrices_, false, "    no_matrices(scenarios)\n\nThe scenarios whose input and output are not matrices (DifferentiationInterfaceTest's filter).\n\n```\njulia> length(no_matrices(default_scenarios(; include_batchified=false))) < 106\ntrue\n```";
    "same_function" => same_function_, false, "    same_function(scenario)\n\n`change_function(scenario, scenario.f)`: the same scenario, its name marked \" [new function]\" (DifferentiationInterfaceTest uses it to check that a preparation made for one function value is refused for another).\n\n```\njulia> same_function(Scenario{:derivative, :out}(sin, 0.0; res1=1.0, name=\"sine\")).name\n\"sine [new function]\"\n```";
    "test_counterparts" => test_counterparts_, false, "    test_counterparts(backend)\n\nDifferentiationInterfaceTest's checks of `forward_counterpart` and `reverse_counterpart`, as a `@testset`: the counterparts are available, support the mode asked for (unless the backend came back unchanged for want of one), and asking again keeps the mode; for `SecondOrder`, both are an `ArgumentError`.\n\n```\njulia> test_counterparts(AutoZeroReverse())\nTest Summary:                 | Pass  Total  Time\nCounterparts: AutoZeroReverse |    6      6  0.0s\n```";
    "sparse_scenarios" => sparse_scenarios_, false, "    sparse_scenarios(; band_sizes, include_constantified=false, include_cachified=false, include_constantorcachified=false, use_tuples=false)\n\nDifferentiationInterfaceTest's sparse Jacobian and Hessian scenarios: squared and cubed differences (vectors and matrices in and out, in place too), the sum of cubed differences, and for each of the `band_sizes` (5, 10 and 20 by default) a linear map and a quadratic form with a random banded matrix; preparation runs on another input (`x .^ 3`), so a pattern that depended on values would show.\n\n```\njulia> all(s -> operator(s) in (:jacobian, :hessian), sparse_scenarios())\ntrue\n```";
}
