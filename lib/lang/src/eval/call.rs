//! Calls: evaluating arguments, calling builtins, user functions and callable objects,
//! broadcasting dotted calls, and defining functions.

use super::scope::Scope;
use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::value::convert::number;
use crate::value::{Closure, Value};
use difflab_syntax::{Arg, Expr, ExprKind, FunctionDef, Kwarg, Name, Span};
use std::rc::Rc;

/// Names that stand for Julia modules: `Random.seed!` means the builtin `seed!`.
const MODULES: &[&str] = &[
    "Random",
    "Threads",
    "LinearAlgebra",
    "SparseArrays",
    "DifferentiationInterface",
    "DI",
    "DifferentiationInterfaceTest",
    "DIT",
    "SparseConnectivityTracer",
    "SparseMatrixColorings",
    "ImplicitDifferentiation",
    "ADTypes",
    "Base",
    "Statistics",
    "MatrixMarket",
    "Chairmarks",
    "BenchmarkTools",
    "Iterators",
    "Core",
    "GC",
    "SpecialFunctions",
    "NaNMath",
    "LogExpFunctions",
    "NNlib",
    "ForwardDiff",
    "ReverseDiff",
    "Zygote",
    "Main",
];

impl Interp {
    /// Evaluates positional arguments, expanding splats.
    pub(crate) fn eval_args(&mut self, args: &[Arg]) -> Result<Vec<Value>, Flow> {
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            let v = self.eval(&arg.value)?;
            if arg.splat {
                values.extend(self.splatted(&v)?);
            } else {
                values.push(v);
            }
        }
        Ok(values)
    }

    /// The elements `v...` stands for; lazy iterators (generators, `Iterators`) are walked.
    pub(crate) fn splatted(&mut self, v: &Value) -> Result<Vec<Value>, Flow> {
        match crate::builtins::iterators::as_lazy(v) {
            Some(_) => self.elements_of(v),
            None => crate::value::iterate::elements(v),
        }
    }

    pub(crate) fn eval_call(
        &mut self,
        callee: &Expr,
        args: &[Arg],
        kwargs: &[Kwarg],
        dotted: bool,
        span: Span,
    ) -> EvalResult {
        // `sum(x .^ 2 .+ ...)` reduces the fused chain block by block, never building it.
        if let (ExprKind::Ident(name), [arg], [], false) = (&callee.kind, args, kwargs, dotted) {
            if !arg.splat && super::fusion::is_dotted_chain(&arg.value) && name.as_str() == "sum" {
                if let Ok(Value::Builtin(b)) = self.lookup(*name) {
                    if b.name == "sum" {
                        if let Some(v) = self
                            .fused_sum(&arg.value)
                            .map_err(|f| self.locate(f, span))?
                        {
                            return Ok(v);
                        }
                    }
                }
            }
        }
        // `sum(f(x) for x in xs)` folds the elements as they come, never building the array.
        if !dotted {
            if let Some(call) = self.generator_call(callee, args, kwargs) {
                return self
                    .reduce_generator(call)
                    .map_err(|f| self.locate(f, span));
            }
        }
        let (function, mut prefix) = match &callee.kind {
            ExprKind::Curly { name, .. } if matches!(self.global(*name), Some(Value::Type(_))) => (
                Value::Type(Rc::new(self.eval_type(callee, &[])?)),
                Vec::new(),
            ),
            ExprKind::Curly { name, params } => {
                let mut values = Vec::with_capacity(params.len());
                for p in params {
                    values.push(self.eval(p)?);
                }
                (self.lookup(*name)?, values)
            }
            _ => (self.eval(callee)?, Vec::new()),
        };
        let values = self.eval_args(args)?;
        if prefix.is_empty() {
            prefix = values;
        } else {
            prefix.extend(values);
        }
        let mut kw = Vec::with_capacity(kwargs.len());
        for k in kwargs {
            let v = self.eval(&k.value)?;
            if k.splat {
                kw.extend(splatted_keywords(&v)?);
            } else {
                kw.push((k.name, v));
            }
        }
        let result = if dotted {
            self.broadcast_call(&function, prefix, kw)
        } else {
            self.call_value(&function, prefix, kw)
        };
        result.map_err(|flow| self.trace(flow, &function, span))
    }

    /// Records a call site in the trace of an error passing through a user function call.
    fn trace(&self, flow: Flow, function: &Value, span: Span) -> Flow {
        match (flow, function) {
            (Flow::Error(mut e), Value::Function(f)) => {
                let name = f
                    .def
                    .name
                    .map_or("anonymous".to_string(), |n| n.to_string());
                e.trace.push((name, Some((self.source(), span))));
                Flow::Error(e)
            }
            (other, _) => self.locate(other, span),
        }
    }

    /// Calls any callable value.
    pub fn call_value(
        &mut self,
        f: &Value,
        args: Vec<Value>,
        kw: Vec<(Name, Value)>,
    ) -> EvalResult {
        self.check_stack()?;
        // Builtins that call back (`reduce(+, 1:10^9)`, `filter(p, xs)`) answer an interrupt here.
        self.check_interrupt()?;
        match f {
            Value::Builtin(b) => {
                // User methods of builtins take user values or user types (`zero(::Type{D})`);
                // other calls pay one scan.
                if !self.extensions.is_empty() && args.iter().any(is_user_value_or_type) {
                    if let Some(result) = self.call_extension(Name::new(b.name), &args, &kw) {
                        return result;
                    }
                }
                crate::builtins::call(self, b, args, kw, false)
            }
            Value::Function(closure) => self.call_function(closure, args, kw),
            Value::Type(ty) => self.call_type(ty, args, kw),
            Value::Struct(_) => self.call_struct(f, args, kw),
            Value::Object(obj) => match obj.call(self, args, kw) {
                Some(result) => result,
                None => Err(fail(
                    ErrorKind::MethodError,
                    format!("objects of type {} are not callable", obj.type_name()),
                )),
            },
            other => Err(fail(
                ErrorKind::MethodError,
                format!("objects of type {} are not callable", other.type_name()),
            )),
        }
    }

    /// Calls a function with positional arguments only.
    pub fn call(&mut self, f: &Value, args: Vec<Value>) -> EvalResult {
        self.call_value(f, args, Vec::new())
    }

    /// `v` converted to the declared type `ty` (a method's return type, evaluated in its
    /// frame where the type variables are bound, or a typed variable's), as Julia converts.
    pub(crate) fn convert_declared(&mut self, ty: &Expr, v: Value) -> EvalResult {
        let target = self.eval(ty)?;
        let Some(expected) = crate::types::Type::from_value(&target) else {
            return Err(fail(
                ErrorKind::TypeError,
                format!(
                    "the declared type {} is not a type",
                    crate::display::repr(&target)
                ),
            ));
        };
        if expected.contains(&v) {
            return Ok(v);
        }
        let convert = crate::builtins::lookup(difflab_syntax::name!("convert"))
            .map(Value::Builtin)
            .expect("convert is a builtin");
        let converted = self.call(&convert, vec![target, v])?;
        if expected.contains(&converted) {
            return Ok(converted);
        }
        Err(fail(
            ErrorKind::TypeError,
            format!(
                "in a conversion to the declared type, expected {expected}, got a value of type {}",
                converted.type_name()
            ),
        ))
    }

    /// Runs one method of a user function (chosen by dispatch) on its arguments.
    pub(crate) fn run_method(
        &mut self,
        method: &Rc<Closure>,
        mut args: Vec<Value>,
        kw: Vec<(Name, Value)>,
    ) -> EvalResult {
        if self.depth >= self.config.max_depth {
            return Err(fail(ErrorKind::StackOverflowError, ""));
        }
        self.check_interrupt()?;
        let frame = Scope::new(method.scope.clone(), true);
        let saved_scope = self.scope.replace(frame.clone());
        let saved_source = std::mem::replace(&mut self.source, method.source.clone());
        self.depth += 1;
        let object = match &method.def.callable {
            Some(param) if !args.is_empty() => Some((param.clone(), args.remove(0))),
            _ => None,
        };
        let result = object
            .map_or(Ok(()), |(param, v)| self.bind_pattern(&param.pattern, v))
            .and_then(|()| self.bind_params(&method.def, &frame, args, kw))
            .and_then(|()| self.eval_block(&method.def.body));
        let result = match (&method.def.return_type, result) {
            (Some(ty), Ok(v) | Err(Flow::Return(v))) => self.convert_declared(ty, v),
            (_, result) => result,
        };
        self.depth -= 1;
        self.scope = saved_scope;
        self.source = saved_source;
        Scope::release(frame);
        match result {
            Ok(v) | Err(Flow::Return(v)) => Ok(v),
            Err(Flow::Break | Flow::Continue) => Err(fail(
                ErrorKind::ErrorException,
                "break or continue outside a loop",
            )),
            Err(e) => Err(e),
        }
    }

    fn bind_params(
        &mut self,
        def: &FunctionDef,
        frame: &Rc<Scope>,
        args: Vec<Value>,
        mut kw: Vec<(Name, Value)>,
    ) -> Result<(), Flow> {
        for var in &def.type_vars {
            if let Some(ty) = type_var_value(def, var.name, &args) {
                // `T` is then what the type's name is: `Float64` a builtin, a struct a type.
                frame.define(var.name, super::methods::type_value(&ty));
            }
        }
        let mut args = args.into_iter();
        for param in &def.params {
            if param.vararg {
                let rest: Vec<Value> = args.by_ref().collect();
                self.bind_pattern(&param.pattern, Value::tuple(rest))?;
                continue;
            }
            let v = match args.next() {
                Some(v) => v,
                None => match &param.default {
                    Some(d) => self.eval(d)?,
                    None => unreachable!("arity checked by dispatch"),
                },
            };
            self.bind_pattern(&param.pattern, v)?;
        }
        for param in &def.kwparams {
            let difflab_syntax::Pattern::Name(name) = param.pattern else {
                continue;
            };
            if param.vararg {
                let rest = std::mem::take(&mut kw);
                frame.define(name, Value::named_tuple(rest));
                continue;
            }
            let v = match kw.iter().position(|(k, _)| *k == name) {
                Some(i) => kw.remove(i).1,
                None => match &param.default {
                    Some(d) => self.eval(d)?,
                    None => {
                        return Err(fail(
                            ErrorKind::UndefKeywordError,
                            format!("keyword argument `{name}` not assigned"),
                        ))
                    }
                },
            };
            frame.define(name, v);
        }
        if let Some((k, _)) = kw.first() {
            return Err(fail(
                ErrorKind::MethodError,
                format!(
                    "no method matching {}(...; {k}): unsupported keyword argument `{k}`",
                    def.name.map_or("anonymous".to_string(), |n| n.to_string())
                ),
            ));
        }
        Ok(())
    }

    /// `f.(args...)`: a vectorized builtin runs one whole-array kernel; anything else is
    /// called once per element of the broadcast arguments.
    pub fn broadcast_call(
        &mut self,
        f: &Value,
        args: Vec<Value>,
        kw: Vec<(Name, Value)>,
    ) -> EvalResult {
        let args = args
            .into_iter()
            .map(|a| self.broadcastable(a))
            .collect::<Result<Vec<_>, _>>()?;
        if args.iter().any(|a| matches!(a, Value::Sparse(_))) {
            return crate::builtins::sparse::arith::broadcast_over_sparse(self, f, &args, kw);
        }
        if let Value::Builtin(b) = f {
            if b.vectorized && !args.iter().any(broadcasts_by_element) {
                return crate::builtins::call(self, b, args, kw, true);
            }
        }
        if kw.is_empty() {
            if let Some(result) = self.broadcast_compiled(f, &args) {
                return result;
            }
        }
        self.broadcast_each(&args, |interp, call_args| {
            interp.call_value(f, call_args, kw.clone())
        })
    }

    /// Julia's broadcast of `each` over `args`: arrays, ranges, vectors and tuples extend
    /// to their common shape, anything else (and what a `Ref` holds) is passed whole to every
    /// call. The results are a tuple when only tuples were broadcast, else an array.
    pub(crate) fn broadcast_each(
        &mut self,
        args: &[Value],
        mut each: impl FnMut(&mut Interp, Vec<Value>) -> EvalResult,
    ) -> EvalResult {
        let shape = broadcast_shape(args)?;
        let Some(shape) = shape else {
            return each(self, args.iter().map(unboxed).collect());
        };
        let len: usize = shape.iter().product();
        self.check_alloc(len)?;
        let columns: Vec<Vec<Value>> = args
            .iter()
            .map(|a| expand(a, &shape))
            .collect::<Result<_, Flow>>()?;
        let mut results = Vec::with_capacity(len);
        for k in 0..len {
            self.check_interrupt()?;
            let call_args = columns.iter().map(|c| c[k].clone()).collect();
            results.push(each(self, call_args)?);
        }
        let only_tuples = args
            .iter()
            .filter(|a| broadcast_extent(a).is_some())
            .all(|a| matches!(a, Value::Tuple(_)));
        if only_tuples {
            return Ok(Value::tuple(results));
        }
        super::collections::collect_values(self, results, &shape)
    }

    /// `Name{…}` as a value: a type with parameters (`Dual{Float64}`, `Set{UInt}`,
    /// `Vector{Float64}`).
    pub(crate) fn eval_curly(&mut self, expr: &Expr, name: Name) -> EvalResult {
        if let Ok(ty) = self.eval_type(expr, &[]) {
            return Ok(Value::Type(Rc::new(ty)));
        }
        Err(fail(
            ErrorKind::ArgumentError,
            format!("`{name}{{…}}` is only supported as a constructor call, as in `{name}{{…}}(args...)`"),
        ))
    }

    /// `v.field`.
    pub fn field(&mut self, v: &Value, field: Name) -> EvalResult {
        let text = field.as_str();
        match v {
            // `x.f` is `getproperty(x, :f)`: a user's `Base.getproperty` method for the type wins.
            Value::Struct(s)
                if self
                    .extensions
                    .contains_key(&difflab_syntax::name!("getproperty")) =>
            {
                let args = [v.clone(), Value::Symbol(field)];
                match self.call_extension(difflab_syntax::name!("getproperty"), &args, &[]) {
                    Some(result) => result,
                    None => Interp::struct_field(s, field),
                }
            }
            Value::Struct(s) => Interp::struct_field(s, field),
            Value::Object(obj) => obj.field(text).ok_or_else(|| {
                fail(
                    ErrorKind::ArgumentError,
                    format!(
                        "{} has no field `{text}`; its fields are: {}",
                        obj.type_name(),
                        obj.field_names().join(", ")
                    ),
                )
            }),
            Value::NamedTuple(items) => items
                .iter()
                .find(|(k, _)| *k == field)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| {
                    fail(
                        ErrorKind::ArgumentError,
                        format!("type NamedTuple has no field {text}"),
                    )
                }),
            Value::Exception(e) if text == "msg" => Ok(Value::str(e.message.clone())),
            Value::Sparse(s) => crate::builtins::sparse::field(&s.borrow(), text),
            Value::Range(r) => match text {
                "start" => Ok(number(r.eltype(), r.start)),
                "step" => Ok(number(r.eltype(), r.step)),
                "stop" => Ok(number(r.eltype(), r.last())),
                _ => Err(fail(
                    ErrorKind::ArgumentError,
                    format!("type range has no field {text}"),
                )),
            },
            other => crate::builtins::sparse::traced::field(other, text).unwrap_or_else(|| {
                Err(fail(
                    ErrorKind::ArgumentError,
                    format!("type {} has no field {text}", other.type_name()),
                ))
            }),
        }
    }

    /// Resolves `Module.name` for the module names the documents use: a builtin of that
    /// module (`Iterators.take`, `Base.front`), else the global `name` (`Random.seed!`,
    /// `Main.x`); `None` when `Module` is not one of them or is shadowed by a variable.
    pub(crate) fn module_member(&self, target: &Expr, field: Name) -> Option<EvalResult> {
        let ExprKind::Ident(module) = target.kind else {
            return None;
        };
        let shadowed = self
            .lookup(module)
            .is_ok_and(|v| !crate::builtins::modules::is_module(&v));
        let module = self.module_aliases.get(&module).copied().unwrap_or(module);
        if shadowed {
            return None;
        }
        let qualified = Name::new(&format!("{module}.{field}"));
        if let Some(builtin) = crate::builtins::lookup(qualified) {
            return Some(Ok(Value::Builtin(builtin)));
        }
        if let Some(error) = crate::builtins::ad::backends::unavailable_package(module.as_str()) {
            return Some(Err(error));
        }
        if !MODULES.contains(&module.as_str()) {
            return None;
        }
        // A package's function, not a session variable of the same name (`det = …` leaves
        // `LinearAlgebra.det` the function).
        if module.as_str() != "Main" {
            if let Some(builtin) = crate::builtins::lookup(field) {
                return Some(Ok(Value::Builtin(builtin)));
            }
        }
        Some(self.lookup(field).map_err(|_| {
            fail(
                ErrorKind::UndefVarError,
                format!("`{field}` not defined in `{module}`"),
            )
        }))
    }
}

/// The keywords of `kw...` in a call: a named tuple, or a collection of `:name => value` pairs.
fn splatted_keywords(v: &Value) -> Result<Vec<(Name, Value)>, Flow> {
    if let Value::NamedTuple(items) = v {
        return Ok(items.to_vec());
    }
    crate::value::iterate::elements(v)?
        .into_iter()
        .map(|pair| match pair.pair_parts() {
            Some((key, value)) => match key {
                Value::Symbol(name) => Ok((name, value)),
                _ => Err(fail(
                    ErrorKind::ArgumentError,
                    "keywords splatted with `...` must be named by symbols",
                )),
            },
            None => Err(fail(
                ErrorKind::ArgumentError,
                format!(
                    "keywords splatted with `...` must be `name => value` pairs, got a {}",
                    pair.type_name()
                ),
            )),
        })
        .collect()
}

/// The common broadcast shape of the array-like arguments, or `None` when all are scalars.
/// The shape a broadcast argument contributes: arrays, ranges, vectors of anything and library
/// objects that behave as vectors (tables, sets); `None` for what broadcasts as a scalar.
fn broadcast_extent(v: &Value) -> Option<Vec<usize>> {
    match v {
        Value::Array(arr) => Some(arr.borrow().data.shape().to_vec()),
        Value::Range(r) => Some(vec![r.len]),
        Value::List(items) => Some(vec![items.borrow().len()]),
        Value::Tuple(items) => Some(vec![items.len()]),
        Value::Object(o) => o.element_count().map(|n| vec![n]),
        _ => None,
    }
}

/// Whether `v` takes part in a broadcast as a container, or is a `Ref` shielding one: the
/// operands that dotted operators broadcast element by element rather than as numbers.
pub(crate) fn broadcasts_by_element(v: &Value) -> bool {
    matches!(v, Value::List(_) | Value::Tuple(_)) || crate::builtins::refs::as_ref(v).is_some()
}

/// What a scalar broadcast argument passes to each call: the value a `Ref` holds, or itself.
fn unboxed(v: &Value) -> Value {
    crate::builtins::refs::as_ref(v).map_or_else(|| v.clone(), |r| r.get())
}

fn broadcast_shape(args: &[Value]) -> Result<Option<Vec<usize>>, Flow> {
    let mut shape: Option<Vec<usize>> = None;
    for a in args {
        let Some(s) = broadcast_extent(a) else {
            continue;
        };
        shape = Some(match shape {
            None => s,
            Some(prev) => difflab_ad::broadcast::shape(&prev, &s)?,
        });
    }
    Ok(shape)
}

/// The elements of `v` broadcast to `shape`, in column-major order.
fn expand(v: &Value, shape: &[usize]) -> Result<Vec<Value>, Flow> {
    let len: usize = shape.iter().product();
    let Some(own_shape) = broadcast_extent(v) else {
        return Ok(vec![unboxed(v); len]);
    };
    let items = crate::value::iterate::elements(v)?;
    if own_shape == shape {
        return Ok(items);
    }
    let mut out = Vec::with_capacity(len);
    let mut index = vec![0usize; shape.len()];
    for _ in 0..len {
        let mut k = 0;
        let mut stride = 1;
        for (d, &i) in index.iter().enumerate() {
            let extent = own_shape.get(d).copied().unwrap_or(1);
            if extent != 1 {
                k += i * stride;
            }
            stride *= extent;
        }
        out.push(items[k].clone());
        for (d, i) in index.iter_mut().enumerate() {
            *i += 1;
            if *i < shape[d] {
                break;
            }
            *i = 0;
        }
    }
    Ok(out)
}

/// The type a method's type variable `name` stands for in a call with `args`: the type of the
/// first argument annotated `::T`, or the parameter of one annotated `::Vector{T}` (and the
/// like). `None` when no annotation names it.
/// Whether `v` is an instance of a user type or a user type itself.
fn is_user_value_or_type(v: &Value) -> bool {
    use crate::types::Type;
    match v {
        Value::Struct(_) => true,
        Value::Type(t) => matches!(**t, Type::User(_) | Type::UserApplied(..)),
        _ => false,
    }
}

fn type_var_value(def: &FunctionDef, name: Name, args: &[Value]) -> Option<crate::types::Type> {
    use crate::types::Type;
    def.params.iter().zip(args).find_map(|(param, arg)| {
        let annotation = param.annotation.as_deref()?;
        match &annotation.kind {
            // `::Type{T}`: the argument is a type, and `T` is it (or one of its parameters).
            ExprKind::Curly {
                name: outer,
                params,
            } if outer.as_str() == "Type" && params.len() == 1 => {
                type_var_in(&params[0], Type::from_value(arg)?, name)
            }
            _ => type_var_in(annotation, Type::of(arg), name),
        }
    })
}

/// What the type variable `name` stands for when `annotation` (`T`, `Vector{T}`, `P{T}`)
/// describes the type `ty`.
fn type_var_in(
    annotation: &Expr,
    ty: crate::types::Type,
    name: Name,
) -> Option<crate::types::Type> {
    use crate::types::Type;
    match &annotation.kind {
        ExprKind::Ident(n) if *n == name => Some(ty),
        ExprKind::Curly { params, .. } => {
            let k = params
                .iter()
                .position(|p| matches!(p.kind, ExprKind::Ident(n) if n == name))?;
            match ty {
                Type::Applied(_, given) | Type::UserApplied(_, given) => given.get(k).cloned(),
                _ => None,
            }
        }
        _ => None,
    }
}
