//! Backend constructors of the language: `AutoForwardDiff(; chunksize)`,
//! `AutoReverseDiff(; compile)`, `AutoFiniteDiff(; fdtype)`, `AutoFastDifferentiation()`,
//! `SecondOrder(outer, inner)`, the test backends `AutoZeroForward()` and `AutoZeroReverse()`,
//! the questions DifferentiationInterface asks of a backend (`check_available`,
//! `forward_counterpart`, `inner`, ...), and the clear error for backends of the documents that
//! difflab does not implement.

use crate::builtins::{to_size, Args};
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::eval::Interp;
use crate::object::Object;
use crate::value::Value;
use difflab_ad::di::{Backend, FdType, SymbolicPackage};
use std::any::Any;
use std::rc::Rc;

/// A backend as a language value.
pub struct BackendValue(pub Backend);

impl Object for BackendValue {
    fn type_name(&self) -> String {
        let text = self.0.to_string();
        text.split('(').next().unwrap_or("Backend").to_string()
    }

    fn show(&self) -> String {
        self.0.to_string()
    }

    fn field(&self, name: &str) -> Option<Value> {
        match (&self.0, name) {
            (Backend::Forward { chunk }, "chunksize") => {
                Some(chunk.map_or(Value::Nothing, |c| Value::Int(c as i64)))
            }
            (Backend::Reverse { compile }, "compile") => Some(Value::Bool(*compile)),
            (Backend::FiniteDiff { steps, .. }, "relstep") => {
                Some(steps.map_or(Value::Nothing, |(rel, _)| Value::Float(rel)))
            }
            (Backend::FiniteDiff { steps, .. }, "absstep") => {
                Some(steps.map_or(Value::Nothing, |(_, abs)| Value::Float(abs)))
            }
            (Backend::FiniteDiff { dir, .. }, "dir") => Some(Value::Float(*dir)),
            (Backend::FiniteDiff { fdtype, .. }, "fdtype") => {
                Some(Value::Symbol(difflab_syntax::Name::new(match fdtype {
                    FdType::Forward => "forward",
                    FdType::Central => "central",
                })))
            }
            (Backend::SecondOrder { outer, .. }, "outer") => Some(backend_value((**outer).clone())),
            (Backend::SecondOrder { inner, .. }, "inner") => Some(backend_value((**inner).clone())),
            _ => None,
        }
    }

    fn field_names(&self) -> Vec<&'static str> {
        match self.0 {
            Backend::Forward { .. } => vec!["chunksize"],
            Backend::Reverse { .. } => vec!["compile"],
            Backend::FiniteDiff { .. } => vec!["fdtype", "relstep", "absstep", "dir"],
            Backend::SecondOrder { .. } => vec!["outer", "inner"],
            Backend::Symbolic { .. } | Backend::ZeroForward | Backend::ZeroReverse => vec![],
        }
    }

    fn is_plain_data(&self) -> bool {
        true
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A backend value.
pub fn backend_value(b: Backend) -> Value {
    Value::Object(Rc::new(Box::new(BackendValue(b))))
}

/// The backend held by `v`, if it is one.
pub fn as_backend(v: &Value) -> Option<&Backend> {
    match v {
        Value::Object(o) => o.as_any().downcast_ref::<BackendValue>().map(|b| &b.0),
        _ => None,
    }
}

fn auto_forward(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("AutoForwardDiff", 0, 0)?;
    let chunk = match args.kw("chunksize") {
        None | Some(Value::Nothing) => None,
        Some(v) => match to_size(v, "AutoForwardDiff")? {
            0 => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    "AutoForwardDiff: chunksize must be a positive number of partials, got 0",
                ))
            }
            k => Some(k),
        },
    };
    args.keywords("AutoForwardDiff", &["chunksize", "tag"])?;
    // Accepted for code written for ForwardDiff; nested duals here are told apart by level,
    // so a tag has nothing to do.
    let _ = args.kw("tag");
    Ok(backend_value(Backend::Forward { chunk }))
}

fn auto_reverse(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("AutoReverseDiff", 0, 0)?;
    let compile = match args.kw("compile") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "compile must be true or false, got {}",
                    crate::display::repr(other)
                ),
            ))
        }
    };
    args.keywords("AutoReverseDiff", &["compile"])?;
    Ok(backend_value(Backend::Reverse { compile }))
}

fn auto_finite(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("AutoFiniteDiff", 0, 0)?;
    let fdtype = match args.kw("fdtype") {
        None => FdType::Central,
        Some(Value::Symbol(s)) if s.as_str() == "central" => FdType::Central,
        Some(Value::Symbol(s)) if s.as_str() == "forward" => FdType::Forward,
        Some(Value::Str(s)) if s.as_str() == "central" => FdType::Central,
        Some(Value::Str(s)) if s.as_str() == "forward" => FdType::Forward,
        Some(other) => {
            return Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "fdtype must be :central or :forward, got {}",
                    crate::display::repr(other)
                ),
            ))
        }
    };
    args.keywords("AutoFiniteDiff", &["fdtype", "relstep", "absstep", "dir"])?;
    let dir = match args.kw("dir") {
        None => 1.0,
        Some(v) => match crate::builtins::to_float(v, "AutoFiniteDiff")? {
            d if d != 0.0 && d.is_finite() => d,
            d => {
                return Err(fail(
                    ErrorKind::ArgumentError,
                    format!("dir must be a finite nonzero number, got {d}"),
                ))
            }
        },
    };
    let positive = |name: &str| -> Result<Option<f64>, Flow> {
        match args.kw(name) {
            None | Some(Value::Nothing) => Ok(None),
            Some(v) => match crate::builtins::to_float(v, "AutoFiniteDiff")? {
                h if h > 0.0 && h.is_finite() => Ok(Some(h)),
                h => Err(fail(
                    ErrorKind::ArgumentError,
                    format!("{name} must be a positive finite number, got {h}"),
                )),
            },
        }
    };
    let steps = match (positive("relstep")?, positive("absstep")?) {
        (None, None) => None,
        (Some(rel), abs) => Some((rel, abs.unwrap_or(rel))),
        (None, Some(abs)) => Some((
            match fdtype {
                FdType::Forward => f64::EPSILON.sqrt(),
                FdType::Central => f64::EPSILON.cbrt(),
            },
            abs,
        )),
    };
    Ok(backend_value(Backend::FiniteDiff { fdtype, steps, dir }))
}

fn symbolic(args: &Args, name: &str, package: SymbolicPackage) -> EvalResult {
    args.arity(name, 0, 0)?;
    args.keywords(name, &[])?;
    Ok(backend_value(Backend::Symbolic { package }))
}

fn auto_fastdiff(_: &mut Interp, args: Args) -> EvalResult {
    symbolic(
        &args,
        "AutoFastDifferentiation",
        SymbolicPackage::FastDifferentiation,
    )
}

fn auto_symbolics(_: &mut Interp, args: Args) -> EvalResult {
    symbolic(&args, "AutoSymbolics", SymbolicPackage::Symbolics)
}

fn auto_zero_forward(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("AutoZeroForward", 0, 0)?;
    args.keywords("AutoZeroForward", &[])?;
    Ok(backend_value(Backend::ZeroForward))
}

fn auto_zero_reverse(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("AutoZeroReverse", 0, 0)?;
    args.keywords("AutoZeroReverse", &[])?;
    Ok(backend_value(Backend::ZeroReverse))
}

fn second_order(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("SecondOrder", 2, 2)?;
    for b in &args.pos {
        let refusal = if super::sparse_ad::as_auto_sparse(b).is_some() {
            "SecondOrder takes dense backends: for sparse Hessians, put AutoSparse outside, as in AutoSparse(SecondOrder(outer, inner))"
        } else if super::sparse_ad::as_mixed_mode(b).is_some() {
            "SecondOrder takes first-order backends, and MixedMode computes sparse Jacobians only (inside AutoSparse)"
        } else {
            continue;
        };
        return Err(fail(ErrorKind::ArgumentError, refusal));
    }
    let outer = as_backend(&args.pos[0]).ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            "SecondOrder(outer, inner) takes two backends",
        )
    })?;
    let inner = as_backend(&args.pos[1]).ok_or_else(|| {
        fail(
            ErrorKind::ArgumentError,
            "SecondOrder(outer, inner) takes two backends",
        )
    })?;
    Ok(backend_value(Backend::SecondOrder {
        outer: Box::new(outer.clone()),
        inner: Box::new(inner.clone()),
    }))
}

/// Whether `v` is a backend (dense, `SecondOrder`, or `AutoSparse` of one), else a MethodError.
fn require_backend(v: &Value, name: &str) -> Result<(), Flow> {
    if as_backend(v).is_some() || super::sparse_ad::as_auto_sparse(v).is_some() {
        Ok(())
    } else {
        Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        ))
    }
}

/// `check_available(backend)`: every backend difflab can build works, so `true`.
fn check_available_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("check_available", 1, 1)?;
    require_backend(&args.pos[0], "check_available")?;
    Ok(Value::Bool(true))
}

/// `check_inplace(backend)`: every backend differentiates `f!(y, x)`, so `true`.
fn check_inplace_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("check_inplace", 1, 1)?;
    require_backend(&args.pos[0], "check_inplace")?;
    Ok(Value::Bool(true))
}

/// `forward_counterpart(backend)` (`forward`) and `reverse_counterpart(backend)`:
/// DifferentiationInterface's backend of the other mode made for `backend`, or `backend` itself
/// when it has none (every difflab backend computes both pushforwards and pullbacks). Each
/// zero backend is the other's counterpart; `AutoSparse` keeps its detection and coloring
/// around its dense backend's counterpart; `MixedMode` is its own; for `SecondOrder` the
/// question is ambiguous, an `ArgumentError`.
fn counterpart(args: &Args, name: &str, forward: bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    let v = &args.pos[0];
    let flipped = |b: &Backend| match b {
        Backend::ZeroReverse if forward => Backend::ZeroForward,
        Backend::ZeroForward if !forward => Backend::ZeroReverse,
        other => other.clone(),
    };
    if let Some(sparse) = super::sparse_ad::as_auto_sparse(v) {
        if sparse.mixed_reverse.is_some() {
            return Ok(v.clone());
        }
        return Ok(Value::object(sparse.around(flipped(&sparse.dense))));
    }
    if super::sparse_ad::as_mixed_mode(v).is_some() {
        return Ok(v.clone());
    }
    match as_backend(v) {
        Some(Backend::SecondOrder { .. }) => Err(fail(
            ErrorKind::ArgumentError,
            format!("`{name}` is ambiguous for `SecondOrder` backends, apply it to `inner(backend)` and `outer(backend)` separately."),
        )),
        Some(b) => Ok(backend_value(flipped(b))),
        None => Err(fail(
            ErrorKind::MethodError,
            format!("no method matching {name}(::{})", v.type_name()),
        )),
    }
}

fn forward_counterpart_(_: &mut Interp, args: Args) -> EvalResult {
    counterpart(&args, "forward_counterpart", true)
}

fn reverse_counterpart_(_: &mut Interp, args: Args) -> EvalResult {
    counterpart(&args, "reverse_counterpart", false)
}

/// `inner(b)` / `outer(b)` of a `SecondOrder` backend.
fn second_order_part(args: &Args, name: &str, want_outer: bool) -> EvalResult {
    args.arity(name, 1, 1)?;
    match as_backend(&args.pos[0]) {
        Some(Backend::SecondOrder { outer, inner }) => Ok(backend_value(if want_outer {
            (**outer).clone()
        } else {
            (**inner).clone()
        })),
        _ => Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {name}(::{}): only SecondOrder backends have one",
                args.pos[0].type_name()
            ),
        )),
    }
}

fn inner_(_: &mut Interp, args: Args) -> EvalResult {
    second_order_part(&args, "inner", false)
}

fn outer_(_: &mut Interp, args: Args) -> EvalResult {
    second_order_part(&args, "outer", true)
}

/// The backends difflab implements, for error messages.
pub const IMPLEMENTED: &str =
    "AutoForwardDiff(), AutoReverseDiff(), AutoFiniteDiff(), AutoFastDifferentiation(), AutoSymbolics(), SecondOrder(outer, inner), and the test backends AutoZeroForward(), AutoZeroReverse()";

fn not_implemented(name: &str) -> Flow {
    fail(
        ErrorKind::ArgumentError,
        format!(
            "the backend {name} is not implemented in difflab; available backends: {IMPLEMENTED}"
        ),
    )
}

macro_rules! unavailable {
    ($($fname:ident => $name:literal),* $(,)?) => {
        $(fn $fname(_: &mut Interp, _: Args) -> EvalResult { Err(not_implemented($name)) })*
    };
}

/// The packages of the backends difflab does not implement, with their backend: `Enzyme.Reverse`
/// names the missing backend rather than an undefined variable.
const UNAVAILABLE_PACKAGES: &[(&str, &str)] = &[
    ("Enzyme", "AutoEnzyme"),
    ("Mooncake", "AutoMooncake"),
    ("Tracker", "AutoTracker"),
    ("Diffractor", "AutoDiffractor"),
    ("FiniteDifferences", "AutoFiniteDifferences"),
    ("GTPSA", "AutoGTPSA"),
    ("PolyesterForwardDiff", "AutoPolyesterForwardDiff"),
];

/// For a name of one of the packages of [`UNAVAILABLE_PACKAGES`], the error a use of its
/// members raises (`AutoEnzyme(; mode=Enzyme.Reverse)` says which backends exist).
pub fn unavailable_package(package: &str) -> Option<Flow> {
    let (_, backend) = UNAVAILABLE_PACKAGES.iter().find(|(p, _)| *p == package)?;
    Some(not_implemented(backend))
}

unavailable!(
    enzyme => "AutoEnzyme", zygote => "AutoZygote", mooncake => "AutoMooncake",
    tapir => "AutoTapir", tracker => "AutoTracker", polyester => "AutoPolyesterForwardDiff",
    diffractor => "AutoDiffractor", chainrules => "AutoChainRules",
    finitedifferences => "AutoFiniteDifferences", gtpsa => "AutoGTPSA",
);

/// The packages a backend of the reference ecosystem loads, in order and without repeats.
fn packages_of(backend: &Backend, out: &mut Vec<&'static str>) {
    let own = match backend {
        Backend::Forward { .. } => "ForwardDiff",
        Backend::Reverse { .. } => "ReverseDiff",
        Backend::FiniteDiff { .. } => "FiniteDiff",
        Backend::Symbolic {
            package: SymbolicPackage::FastDifferentiation,
        } => "FastDifferentiation",
        Backend::Symbolic {
            package: SymbolicPackage::Symbolics,
        } => "Symbolics",
        // DifferentiationInterface's own test backends need no other package.
        Backend::ZeroForward | Backend::ZeroReverse => return,
        Backend::SecondOrder { outer, inner } => {
            packages_of(outer, out);
            packages_of(inner, out);
            return;
        }
    };
    if !out.contains(&own) {
        out.push(own);
    }
}

/// `DifferentiationInterface.required_packages(backend)`: the packages the backend needs.
fn required_packages_(_: &mut Interp, args: Args) -> EvalResult {
    args.arity("required_packages", 1, 1)?;
    let v = &args.pos[0];
    let mut packages = Vec::new();
    if let Some(b) = as_backend(v) {
        packages_of(b, &mut packages);
    } else if let Some(m) = super::sparse_ad::as_mixed_mode(v) {
        packages_of(&m.forward, &mut packages);
        packages_of(&m.reverse, &mut packages);
    } else if let Some(sparse) = super::sparse_ad::as_auto_sparse(v) {
        packages_of(&sparse.dense, &mut packages);
        if let Some(reverse) = &sparse.mixed_reverse {
            packages_of(reverse, &mut packages);
        }
        packages.push("SparseMatrixColorings");
    } else {
        return Err(fail(
            ErrorKind::MethodError,
            format!("no method matching required_packages(::{})", v.type_name()),
        ));
    }
    Ok(Value::declared_list(
        crate::types::Type::Prim(crate::types::Prim::String),
        packages.into_iter().map(Value::str).collect(),
    ))
}

crate::builtins! {
    "forward_counterpart" => forward_counterpart_, false, "    forward_counterpart(backend)\n\nDifferentiationInterface's forward-mode counterpart of a backend (public, not exported: `DifferentiationInterface.forward_counterpart`): the backend made for forward mode when there is one, else `backend` itself, since every backend computes pushforwards too. `AutoZeroReverse()`'s is `AutoZeroForward()`; `AutoSparse` keeps its detector and coloring around its dense backend's counterpart; `MixedMode` is its own; `SecondOrder` raises an `ArgumentError` (apply it to `inner` and `outer`).\n\n```\njulia> DifferentiationInterface.forward_counterpart(AutoZeroReverse())\nAutoZeroForward()\n\njulia> forward_counterpart(AutoReverseDiff())\nAutoReverseDiff()\n```";
    "reverse_counterpart" => reverse_counterpart_, false, "    reverse_counterpart(backend)\n\nDifferentiationInterface's reverse-mode counterpart of a backend; see `?forward_counterpart`. `AutoZeroForward()`'s is `AutoZeroReverse()`.\n\n```\njulia> reverse_counterpart(AutoZeroForward())\nAutoZeroReverse()\n\njulia> mode(reverse_counterpart(AutoSparse(AutoZeroForward())))\nReverseMode()\n```";
    "required_packages" => required_packages_, false, "    DifferentiationInterface.required_packages(backend)\n\nThe packages of the Julia ecosystem a backend needs there (difflab's own implementations need none): one per backend of a `SecondOrder` or `MixedMode`, and SparseMatrixColorings for `AutoSparse`.\n\n```\njulia> DifferentiationInterface.required_packages(AutoSparse(AutoForwardDiff()))\n2-element Vector{String}:\n \"ForwardDiff\"\n \"SparseMatrixColorings\"\n```";
    "AutoForwardDiff" => auto_forward, false, "    AutoForwardDiff(; chunksize=nothing)\n\nForward-mode AD with dual numbers (the technique of ForwardDiff.jl). Each pass carries `chunksize` partials; by default all inputs up to 12, else evenly split batches of at most 12. Cheap when inputs are few.\n\nPreparing (`prepare_jacobian(f, AutoForwardDiff(), x)` and the other `prepare_*`) records a function that computes on scalars (loops, indexing, scalar arithmetic) once, as a program of its scalar operations; every call with the preparation then runs the same passes of dual numbers over that recording instead of interpreting `f`, so a comparison shows the algorithm's cost. Before each call, the globals, helpers and captured variables `f` read are compared with their values at recording, and a change records it again. A function that branches on values (`if x[1] > 0`, `x[i] > 0 ? a : b`, `x .> 0`) is recorded along the branches the input takes: each call first checks those comparisons at its input, and an input that takes another branch records the function again there (after three such changes, the function runs as written), so a derivative is never that of a branch the input does not take. A choice made from values without a comparison (`sort`, `argmax`, an index computed from `x`), printing or changing what it reads, and whole-array operations (already compiled kernels) make the function run as written at every call; the preparation's display says which. The same holds for `AutoReverseDiff()` and `SecondOrder` over both.\n\n```\njulia> gradient(x -> sum(abs2, x), AutoForwardDiff(), [1.0, 2.0])\n2-element Vector{Float64}:\n 2.0\n 4.0\n\njulia> f(x) = sum(xi > 0 ? xi^2 : -xi for xi in x); b = AutoForwardDiff();\n\njulia> prep = prepare_gradient(f, b, [1.0, -1.0])\nGradientPrep for AutoForwardDiff() at 2-element Vector{Float64} (traced program of 3 instructions checking 2 branches)\n\njulia> gradient(f, prep, b, [-2.0, 3.0])\n2-element Vector{Float64}:\n -1.0\n  6.0\n```";
    "AutoReverseDiff" => auto_reverse, false, "    AutoReverseDiff(; compile=false)\n\nReverse-mode AD with a tape (the technique of ReverseDiff.jl): the function runs once while every primitive records how to send cotangents back, then one backward sweep gives a whole gradient (one sweep per output for Jacobians). With `compile=true`, preparing (`prepare_gradient(f, AutoReverseDiff(compile=true), x)` and the other `prepare_*`) records the tape once, and every call with that preparation replays the recorded operations on the new input without running `f` (much faster for scalar loops). As in ReverseDiff, a compiled tape follows the control flow of the recording: every comparison on a value that depends on `x` (`if`, `while`, `?:`, `ifelse` conditions) is checked at each replay, and a different outcome is an `ArgumentError` instead of a wrong derivative; choices made without a comparison (`sort`, `argmax`, conversion to integers) are not detected, so use `compile=false` for such functions. `Constant` contexts with other values than at preparation, and custom rules (`DifferentiateWith`, `ImplicitFunction`), make it record at every call (a warning says so at preparation). Scalar code without effects is recorded as a traced program of its scalar operations with the same checks (what every prepared backend runs on; the display says `traced program`), other code as a tape of array operations. With `compile=false`, a prepared function that computes on scalars runs on such a program too, but an input that takes another branch records it again instead of failing (see `?AutoForwardDiff`). Globals and captured variables the function read are checked at each call, and a change records it again. Without a preparation, `compile` makes no difference.\n\n```\njulia> gradient(x -> sum(abs2, x), AutoReverseDiff(), [1.0, 2.0])\n2-element Vector{Float64}:\n 2.0\n 4.0\n\njulia> f(x) = sum(x .^ 3); b = AutoReverseDiff(compile=true);\n\njulia> prep = prepare_gradient(f, b, zeros(2));\n\njulia> gradient(f, prep, b, [1.0, 2.0])\n2-element Vector{Float64}:\n  3.0\n 12.0\n```";
    "AutoFiniteDiff" => auto_finite, false, "    AutoFiniteDiff(; fdtype=:central, relstep, absstep)\n\nFinite differences (the technique of FiniteDiff.jl): `:central` (step ∛ε·max(1, |x|), error O(h²)) or `:forward` (step √ε·max(1, |x|)). `relstep` replaces the relative step (the step is then `max(relstep·max(1, |x|), absstep)`, with `absstep = relstep` unless given); `dir` scales and orients the step of forward differences (`dir=-1`: backward differences). Needs only function evaluations; accurate to about 1e-10 (central) or 1e-8 (forward).\n\n```\njulia> derivative(sin, AutoFiniteDiff(), 0.0)\n0.9999999999938886\n```";
    "check_available" => check_available_, false, "    check_available(backend)\n\nWhether `backend` can be used (always `true` for the backends difflab builds; the unimplemented ones are errors when constructed).\n\n```\njulia> check_available(AutoForwardDiff())\ntrue\n```";
    "check_inplace" => check_inplace_, false, "    check_inplace(backend)\n\nWhether `backend` differentiates in-place functions `f!(y, x)` (`true` for every difflab backend).\n\n```\njulia> check_inplace(AutoReverseDiff())\ntrue\n```";
    "inner" => inner_, false, "    inner(backend::SecondOrder)\n\nThe inner backend of a `SecondOrder` (the one differentiating the function itself).\n\n```\njulia> inner(SecondOrder(AutoForwardDiff(), AutoReverseDiff()))\nAutoReverseDiff()\n```";
    "outer" => outer_, false, "    outer(backend::SecondOrder)\n\nThe outer backend of a `SecondOrder` (the one differentiating what `inner` computes).\n\n```\njulia> outer(SecondOrder(AutoForwardDiff(), AutoReverseDiff()))\nAutoForwardDiff()\n```";
    "SecondOrder" => second_order, false, "    SecondOrder(outer, inner)\n\nA second-order backend: `outer` differentiates what `inner` computes. `SecondOrder(AutoForwardDiff(), AutoReverseDiff())` is forward-over-reverse, the usual choice for Hessian-vector products. Prepared, a function that computes on scalars runs on a recording, as with `AutoForwardDiff` (see its help).\n\n```\njulia> hessian(x -> sum(x .^ 3), SecondOrder(AutoForwardDiff(), AutoReverseDiff()), [1.0, 2.0])\n2×2 Matrix{Float64}:\n 6.0   0.0\n 0.0  12.0\n```";
    "AutoEnzyme" => enzyme, false, "    AutoEnzyme()\n\nNot implemented in difflab: calling it raises an `ArgumentError` listing the backends that exist (AutoForwardDiff, AutoReverseDiff, AutoFiniteDiff, AutoFastDifferentiation, AutoSymbolics, SecondOrder).\n\n```\njulia> AutoEnzyme()\nERROR: ArgumentError: the backend AutoEnzyme is not implemented in difflab; ...\n```";
    "AutoZygote" => zygote, false, "    AutoZygote()\n\nNot implemented in difflab (an `ArgumentError` lists the backends that exist); use AutoReverseDiff() for reverse mode.\n\n```\njulia> AutoZygote()\nERROR: ArgumentError: ...\n```";
    "AutoMooncake" => mooncake, false, "    AutoMooncake()\n\nNot implemented in difflab; use AutoReverseDiff().\n\n```\njulia> AutoMooncake()\nERROR: ArgumentError: ...\n```";
    "AutoTapir" => tapir, false, "    AutoTapir()\n\nNot implemented in difflab; use AutoReverseDiff().\n\n```\njulia> AutoTapir()\nERROR: ArgumentError: ...\n```";
    "AutoTracker" => tracker, false, "    AutoTracker()\n\nNot implemented in difflab; use AutoReverseDiff().\n\n```\njulia> AutoTracker()\nERROR: ArgumentError: ...\n```";
    "AutoFastDifferentiation" => auto_fastdiff, false, "    AutoFastDifferentiation()\n\nSymbolic differentiation (the technique of FastDifferentiation.jl, and of CasADi's expression graphs). Preparing (`prepare_jacobian(f, AutoFastDifferentiation(), x)` and the other `prepare_*`) runs `f` once on symbolic numbers that have no values, recording every scalar operation into a graph, and compiles that graph into flat instructions; calls with the preparation then never run `f`: pushforwards run the instructions for up to 32 directions at once, gradients and pullbacks sweep them backwards, Hessians and HVPs run forward over reverse on them. Scalar loops cost what their arithmetic costs. Tracing needs a function without value-dependent control flow: a comparison on a traced number (`if x > 0`), a conversion to an integer, or an operation without a symbolic rule (factorizations) stops it, and the preparation warns and differentiates `f` by forward mode (gradients by a tape) instead. Like a compiled tape, the program is checked at each call against the globals and captured variables `f` read at preparation (a change records it again) and against its `Constant` contexts (other values make it run `f`); what the function does besides computing (printing, counting its calls) happens once, when it is traced. Without a preparation it works as forward mode. `AutoSparse(AutoFastDifferentiation())` gives sparse Jacobians and Hessians from the compiled program; with the default detector, a Jacobian's pattern is read off the program itself. A sparse Jacobian or Hessian is differentiated symbolically at preparation into a program of its own that computes each nonzero once (constant entries, such as a stencil's or a quadratic's Hessian, cost nothing per call; `f(x)` is computed only when asked for: as with DI's FastDifferentiation extension, `jacobian(f!, y, prep, backend, x)` leaves `y` as it was, and `value_and_jacobian` fills it); the preparation's display says how many instructions it has. A derivative chosen by value (`max`, `min`, `relu`, `mod`), or one larger than a lane per color, runs the program once with one tangent lane per color instead.\n\n```\njulia> f(x) = [x[1]^2 * x[2], sin(x[2])]; b = AutoFastDifferentiation();\n\njulia> prep = prepare_jacobian(f, b, zeros(2));\n\njulia> jacobian(f, prep, b, [1.0, 0.0])\n2×2 Matrix{Float64}:\n 0.0  1.0\n 0.0  1.0\n```";
    "AutoSymbolics" => auto_symbolics, false, "    AutoSymbolics()\n\nSymbolic differentiation under the name of Symbolics.jl's backend: in difflab it is the same technique as `AutoFastDifferentiation()` (see `?AutoFastDifferentiation`): preparation traces the function once into a program of scalar operations, calls run that program, and `AutoSparse(AutoSymbolics())` reads a Jacobian's pattern off it.\n\n```\njulia> f(x) = sum(x .^ 3); b = AutoSymbolics();\n\njulia> prep = prepare_gradient(f, b, zeros(2));\n\njulia> gradient(f, prep, b, [1.0, 2.0])\n2-element Vector{Float64}:\n  3.0\n 12.0\n```";
    "AutoZeroForward" => auto_zero_forward, false, "    AutoZeroForward()\n\nDifferentiationInterface's forward-mode test backend: every derivative it computes is zero (pushforwards are zeros shaped like the output). It evaluates the function once per call and nothing else, so benchmarks measure what an operator costs besides differentiating, and tests check that operators run on every kind of input. `mode(AutoZeroForward())` is `ForwardMode()`; it goes inside `SecondOrder` and `AutoSparse` like any backend.\n\n```\njulia> value_and_gradient(x -> sum(abs2, x), AutoZeroForward(), [1.0, 2.0])\n(5.0, [0.0, 0.0])\n```";
    "AutoZeroReverse" => auto_zero_reverse, false, "    AutoZeroReverse()\n\nDifferentiationInterface's reverse-mode test backend: every derivative it computes is zero (pullbacks are zeros shaped like the input). See `?AutoZeroForward`; `mode(AutoZeroReverse())` is `ReverseMode()`.\n\n```\njulia> jacobian(x -> [x[1] * x[2]], AutoZeroReverse(), [1.0, 2.0])\n1×2 Matrix{Float64}:\n 0.0  0.0\n```";
    "AutoPolyesterForwardDiff" => polyester, false, "    AutoPolyesterForwardDiff()\n\nNot implemented in difflab; use AutoForwardDiff().\n\n```\njulia> AutoPolyesterForwardDiff()\nERROR: ArgumentError: ...\n```";
    "AutoDiffractor" => diffractor, false, "    AutoDiffractor()\n\nNot implemented in difflab.\n\n```\njulia> AutoDiffractor()\nERROR: ArgumentError: ...\n```";
    "AutoChainRules" => chainrules, false, "    AutoChainRules()\n\nNot implemented in difflab.\n\n```\njulia> AutoChainRules()\nERROR: ArgumentError: ...\n```";
    "AutoFiniteDifferences" => finitedifferences, false, "    AutoFiniteDifferences()\n\nNot implemented in difflab; use AutoFiniteDiff().\n\n```\njulia> AutoFiniteDifferences()\nERROR: ArgumentError: ...\n```";
    "AutoGTPSA" => gtpsa, false, "    AutoGTPSA()\n\nNot implemented in difflab.\n\n```\njulia> AutoGTPSA()\nERROR: ArgumentError: ...\n```";
}
