//! User types and methods: `struct` and `abstract type` definitions, constructors and fields,
//! method signatures, dispatch to the most specific applicable method (with Julia's
//! ambiguity and no-method errors), the tables of builtin functions the user extends
//! (`import Base: +`, `Base.show(io::IO, x::T)`) and methods of callable types.

use super::dispatch::{
    accepts, all_methods, ambiguity, arg_types, same_signature, select, signature_text, Selection,
};
use super::scope::Scope;
use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::types::{Prim, StructValue, Type, TypeDef};
use crate::value::{Closure, Value};
use difflab_syntax::{BinOp, Expr, ExprKind, FunctionDef, Name, StructDef};
use std::cell::RefCell;
use std::rc::Rc;

/// The name under which methods of callable types (`(l::Layer)(x) = …`) are kept.
const CALL: &str = "(call)";

/// The functions of these modules are the builtins: defining `Base.f` extends `f`.
const EXTENSIBLE_MODULES: &[&str] = &[
    "Base",
    "LinearAlgebra",
    "SparseArrays",
    "ImplicitDifferentiation",
    "DifferentiationInterface",
    "SparseConnectivityTracer",
    "SparseMatrixColorings",
    "ADTypes",
    "Statistics",
];

/// Where a new method goes.
enum Home {
    /// A local function of the current frame.
    Local,
    /// A global user function.
    Global,
    /// The table of a builtin function, a constructor or the call of a callable type.
    Extension,
}

/// The `N` of `NTuple{N, T}` and `Vararg{T, N}`: an integer literal (at most
/// [`LONGEST_TUPLE_TYPE`], as a type naming more elements would take more memory than it says).
fn repeat_count(expr: &Expr) -> Result<usize, Flow> {
    match expr.kind {
        ExprKind::Int(n) if (0..=LONGEST_TUPLE_TYPE).contains(&n) => Ok(n as usize),
        _ => Err(fail(
            ErrorKind::TypeError,
            format!("the count of NTuple{{N, T}} and Vararg{{T, N}} must be an integer literal from 0 to {LONGEST_TUPLE_TYPE}"),
        )),
    }
}

/// The most elements an `NTuple{N, T}` or `Vararg{T, N}` type may name.
const LONGEST_TUPLE_TYPE: i64 = 1 << 16;

impl Interp {
    /// Evaluates a type expression (`Float64`, `Vector{Float64}`, `Dual{T}`, `Base.IO`);
    /// `vars` are the type parameters in scope.
    pub(crate) fn eval_type(&mut self, expr: &Expr, vars: &[Name]) -> Result<Type, Flow> {
        match &expr.kind {
            ExprKind::Ident(name) if vars.contains(name) => Ok(Type::Var(*name)),
            ExprKind::Binary {
                op: BinOp::Subtype,
                rhs,
                ..
            } => Ok(Type::Within(Rc::new(self.eval_type(rhs, vars)?))),
            ExprKind::Ident(name) => self.type_named(*name),
            ExprKind::Field { field, .. } => self.type_named(*field),
            // `NTuple{3, Int}` is `Tuple{Int, Int, Int}`.
            ExprKind::Curly { name, params } if name.as_str() == "NTuple" => match &params[..] {
                [count, element] => {
                    let element = self.eval_type(element, vars)?;
                    Ok(Type::Applied(
                        Prim::Tuple,
                        Rc::from(vec![element; repeat_count(count)?]),
                    ))
                }
                _ => Err(fail(
                    ErrorKind::TypeError,
                    "NTuple takes a count and an element type: NTuple{N, T}",
                )),
            },
            ExprKind::Curly { name, params } if name.as_str() == "Union" => {
                let members = params
                    .iter()
                    .map(|p| self.eval_type(p, vars))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Type::union(members))
            }
            ExprKind::Curly { name, params } => {
                let base = self.type_named(*name)?;
                let mut args = Vec::with_capacity(params.len());
                for p in params {
                    match &p.kind {
                        // `Array{Float64, 2}`: a number parameter only restates the rank.
                        ExprKind::Int(_) => {}
                        // `Tuple{Vararg{Int, 2}}` is `Tuple{Int, Int}`.
                        ExprKind::Curly {
                            name,
                            params: inner,
                        } if name.as_str() == "Vararg" && inner.len() == 2 => {
                            let element = self.eval_type(&inner[0], vars)?;
                            let count = repeat_count(&inner[1])?;
                            args.extend(std::iter::repeat_n(element, count));
                        }
                        _ => args.push(self.eval_type(p, vars)?),
                    }
                }
                Ok(match base {
                    Type::Prim(p) => Type::Applied(p, Rc::from(args)),
                    Type::User(def) => Type::UserApplied(def, Rc::from(args)),
                    other => other,
                })
            }
            // `MIME"text/plain"`: a string macro whose value is a type.
            ExprKind::PrefixedStr {
                prefix,
                text,
                flags,
            } => {
                let value = crate::builtins::regex::string_literal(*prefix, text, flags)?;
                Type::from_value(&value).ok_or_else(|| {
                    fail(
                        ErrorKind::TypeError,
                        format!("{prefix}\"{text}\" is not a type"),
                    )
                })
            }
            _ => Err(fail(
                ErrorKind::TypeError,
                "expected a type name, such as Float64 or a struct's name",
            )),
        }
    }

    fn type_named(&mut self, name: Name) -> Result<Type, Flow> {
        if self.defining_struct == Some(name) {
            // The struct's own type, by name: a field of it holds its instances.
            return Ok(Type::Named(Rc::from(name.as_str())));
        }
        if let Some(Value::Type(t)) = self.global(name) {
            return Ok((**t).clone());
        }
        if let Some(p) = Prim::from_name(name.as_str()) {
            return Ok(Type::Prim(p));
        }
        match self.lookup(name) {
            Ok(v) => Type::from_value(&v)
                .ok_or_else(|| fail(ErrorKind::TypeError, format!("`{name}` is not a type"))),
            Err(_) if name.as_str().chars().next().is_some_and(char::is_uppercase) => Err(fail(
                ErrorKind::UndefVarError,
                format!("`{name}` not defined"),
            )),
            Err(e) => Err(e),
        }
    }

    /// `abstract type Name <: Super end`.
    pub(crate) fn define_abstract(
        &mut self,
        name: Name,
        params: &[Name],
        supertype: Option<&Expr>,
    ) -> EvalResult {
        let supertype = self.supertype(supertype, params)?;
        let def = TypeDef {
            name,
            params: params.to_vec(),
            supertype,
            fields: Vec::new(),
            mutable: false,
            const_fields: Vec::new(),
            is_abstract: true,
            has_inner_constructor: false,
        };
        self.bind_type(def)?;
        Ok(Value::Nothing)
    }

    fn supertype(&mut self, expr: Option<&Expr>, vars: &[Name]) -> Result<Type, Flow> {
        let Some(expr) = expr else {
            return Ok(Type::Prim(Prim::Any));
        };
        let ty = self.eval_type(expr, vars)?;
        let is_abstract = match &ty {
            Type::User(d) | Type::UserApplied(d, _) => d.is_abstract,
            Type::Prim(p) | Type::Applied(p, _) => !matches!(
                p,
                Prim::Float64 | Prim::Int64 | Prim::Bool | Prim::String | Prim::Symbol
            ),
            _ => false,
        };
        if !is_abstract {
            return Err(fail(
                ErrorKind::ErrorException,
                format!("invalid subtyping in definition: can not subtype concrete type {ty}"),
            ));
        }
        Ok(ty)
    }

    /// `struct …` and `mutable struct …`: binds the type, and its inner constructors as
    /// methods of its name.
    pub(crate) fn define_struct(&mut self, def: &StructDef) -> EvalResult {
        let supertype = self.supertype(def.supertype.as_deref(), &def.params)?;
        let mut fields = Vec::with_capacity(def.fields.len());
        for (name, annotation) in &def.fields {
            if fields.iter().any(|(f, _)| f == name) {
                return Err(fail(
                    ErrorKind::ErrorException,
                    format!("duplicate field name: \"{name}\" is not unique"),
                ));
            }
            let ty = match annotation {
                Some(a) => {
                    self.defining_struct = Some(def.name);
                    let ty = self.eval_type(a, &def.params);
                    self.defining_struct = None;
                    Some(ty?)
                }
                None => None,
            };
            fields.push((*name, ty));
        }
        let type_def = TypeDef {
            name: def.name,
            params: def.params.clone(),
            supertype,
            fields,
            mutable: def.mutable,
            const_fields: def.const_fields.clone(),
            is_abstract: false,
            has_inner_constructor: !def.constructors.is_empty(),
        };
        let ty = self.bind_type(type_def)?;
        let Value::Type(bound) = &ty else {
            unreachable!("bind_type gives a type")
        };
        if !def.constructors.is_empty() {
            // Inner constructors see `new`, the constructor that only stores the fields.
            let frame = Scope::new(self.current_scope(), false);
            frame.define(
                difflab_syntax::name!("new"),
                Value::object(RawConstructor((**bound).clone())),
            );
            self.with_frame(frame, |me| {
                for constructor in &def.constructors {
                    me.add_method(constructor, Home::Extension, def.name)?;
                }
                Ok(())
            })?;
        }
        Ok(Value::Nothing)
    }

    /// Binds a type definition to its name: a new name, or the same definition again (a
    /// re-run cell), else Julia's redefinition error.
    fn bind_type(&mut self, def: TypeDef) -> EvalResult {
        let name = def.name;
        if let Some(Value::Type(existing)) = self.global(name) {
            if let Type::User(old) = &**existing {
                if old.same_as(&def) {
                    return Ok(Value::Type(existing.clone()));
                }
            }
            return Err(fail(
                ErrorKind::ErrorException,
                format!("invalid redefinition of constant {name}"),
            ));
        }
        if self.global(name).is_some() {
            return Err(fail(
                ErrorKind::ErrorException,
                format!("invalid redefinition of constant {name}: it is already a variable"),
            ));
        }
        let ty = Value::Type(Rc::new(Type::User(Rc::new(def))));
        self.set_global(name, ty.clone());
        self.extensions.remove(&name);
        Ok(ty)
    }

    /// Calls a type: user constructors first, then the default one (which converts each
    /// argument to its field's type and infers the type parameters).
    pub(crate) fn call_type(
        &mut self,
        ty: &Type,
        args: Vec<Value>,
        kw: Vec<(Name, Value)>,
    ) -> EvalResult {
        let def = match ty {
            Type::User(d) | Type::UserApplied(d, _) => d.clone(),
            Type::Applied(prim, params)
                if crate::builtins::lookup(Name::new(prim.name())).is_some() =>
            {
                // `Vector{Float64}` as a value, called: the same as `Vector{Float64}(x)` written
                // out, the builtin constructor taking the parameters first.
                let constructor = crate::builtins::lookup(Name::new(prim.name())).expect("checked");
                let mut prefixed: Vec<Value> = params.iter().map(type_value).collect();
                prefixed.extend(args);
                return self.call_value(&Value::Builtin(constructor), prefixed, kw);
            }
            other => {
                return Err(
                    crate::builtins::absent_number_type(other).unwrap_or_else(|| {
                        fail(
                            ErrorKind::MethodError,
                            format!("no method matching {other}(…): the type has no constructor"),
                        )
                    }),
                )
            }
        };
        if matches!(ty, Type::User(_)) {
            if let Some(result) = self.call_extension(def.name, &args, &kw) {
                return result;
            }
        }
        if def.is_abstract {
            return Err(fail(
                ErrorKind::MethodError,
                format!("no constructors have been defined for {}", def.name),
            ));
        }
        if def.has_inner_constructor || !kw.is_empty() {
            return Err(self.no_method(def.name.as_str(), &args, &[]));
        }
        construct(ty, args, false)
    }

    /// Evaluates the signature of a definition: one type per positional parameter. A type
    /// variable of a `where` clause stands for any subtype of its bound.
    fn signature(&mut self, def: &FunctionDef) -> Result<Rc<[Type]>, Flow> {
        let names: Vec<Name> = def.type_vars.iter().map(|v| v.name).collect();
        let mut bounds = Vec::with_capacity(def.type_vars.len());
        for var in &def.type_vars {
            let bound = match &var.bound {
                Some(b) => self.eval_type(b, &names)?,
                None => Type::Prim(Prim::Any),
            };
            bounds.push((var.name, Type::Within(Rc::new(bound))));
        }
        let mut types = Vec::with_capacity(def.params.len() + 1);
        let params = def.callable.iter().map(|c| &**c).chain(&def.params);
        for p in params {
            let ty = match p.annotation.as_deref() {
                Some(a) => substitute(self.eval_type(a, &names)?, &bounds),
                None => Type::Prim(Prim::Any),
            };
            types.push(ty);
        }
        Ok(Rc::from(types))
    }

    /// A closure for a lambda (its parameters may be annotated too).
    pub(crate) fn make_closure(&mut self, def: Rc<FunctionDef>) -> EvalResult {
        let signature = self.signature(&def)?;
        Ok(Value::Function(Rc::new(Closure {
            def,
            signature,
            scope: self.current_scope(),
            methods: Vec::new(),
            source: self.source(),
        })))
    }

    /// `function f(…) … end`, `f(x::T) = …`, `Base.show(io, x) = …`, `(l::L)(x) = …`.
    pub(crate) fn define_function(&mut self, def: &Rc<FunctionDef>) -> EvalResult {
        if def.callable.is_some() {
            return self.add_method(def, Home::Extension, Name::new(CALL));
        }
        let Some(name) = def.name else {
            return self.make_closure(def.clone());
        };
        let home = self.home_of(def, name)?;
        if let Some(doc) = &def.doc {
            self.docs.insert(name, doc.clone());
        }
        self.add_method(def, home, name)
    }

    fn home_of(&self, def: &FunctionDef, name: Name) -> Result<Home, Flow> {
        if let Some(module) = def.module {
            if !EXTENSIBLE_MODULES.contains(&module.as_str()) {
                return Err(fail(
                    ErrorKind::UndefVarError,
                    format!("`{module}` not defined"),
                ));
            }
            return Ok(Home::Extension);
        }
        if self.current_scope().is_some() {
            return Ok(Home::Local);
        }
        match self.global(name) {
            Some(Value::Type(_)) => return Ok(Home::Extension),
            Some(_) => return Ok(Home::Global),
            None => {}
        }
        if self.extensions.contains_key(&name) || self.imported.contains(&name) {
            return Ok(Home::Extension);
        }
        if crate::builtins::lookup(name).is_none() {
            return Ok(Home::Global);
        }
        // Operators count as used: every session's arithmetic resolved them.
        let operator = !name
            .as_str()
            .starts_with(|c: char| c.is_alphabetic() || c == '_');
        if operator || self.builtin_used(name) {
            return Err(fail(
                ErrorKind::ErrorException,
                format!(
                    "invalid method definition in Main: function Base.{name} must be explicitly imported to be extended (write `import Base: {name}` first, or define `Base.{name}(…)`)"
                ),
            ));
        }
        // A builtin's name that no code used yet becomes a new function of this session, as
        // in Julia (whose own functions of that name are then out of reach without `Base.`).
        Ok(Home::Global)
    }

    fn add_method(&mut self, def: &Rc<FunctionDef>, home: Home, name: Name) -> EvalResult {
        let method = Rc::new(Closure {
            def: def.clone(),
            signature: self.signature(def)?,
            scope: self.current_scope(),
            methods: Vec::new(),
            source: self.source(),
        });
        match home {
            Home::Extension => {
                self.compiled.forget();
                let table = self.extensions.entry(name).or_default();
                table.retain(|m| !same_signature(m, &method));
                table.push(method);
                Ok(Value::Nothing)
            }
            Home::Local | Home::Global => {
                let existing = match home {
                    Home::Local => self
                        .current_scope()
                        .and_then(|scope| Scope::lookup(&scope, name)),
                    _ => self.global(name).cloned(),
                };
                let mut methods = Vec::new();
                if let Some(Value::Function(old)) = existing {
                    for m in all_methods(&old) {
                        if !same_signature(m, &method) {
                            methods.push(Rc::new(Closure {
                                def: m.def.clone(),
                                signature: m.signature.clone(),
                                scope: m.scope.clone(),
                                methods: Vec::new(),
                                source: m.source.clone(),
                            }));
                        }
                    }
                }
                let f = Value::Function(Rc::new(Closure {
                    def: method.def.clone(),
                    signature: method.signature.clone(),
                    scope: method.scope.clone(),
                    methods,
                    source: method.source.clone(),
                }));
                match self.current_scope() {
                    Some(scope) if matches!(home, Home::Local) => scope.define(name, f.clone()),
                    _ => self.set_global(name, f.clone()),
                }
                Ok(f)
            }
        }
    }

    /// Calls the user's methods of the builtin or constructor `name` when one applies to
    /// `args`; `None` leaves the call to the builtin.
    pub(crate) fn call_extension(
        &mut self,
        name: Name,
        args: &[Value],
        kw: &[(Name, Value)],
    ) -> Option<EvalResult> {
        let table = self.extensions.get(&name)?;
        let method = match select(table.iter(), args) {
            Ok(m) => m.clone(),
            Err(Selection::NoMatch) => return None,
            Err(Selection::Ambiguous(candidates)) => {
                return Some(Err(ambiguity(name.as_str(), args, &candidates)))
            }
        };
        Some(self.run_method(&method, args.to_vec(), kw.to_vec()))
    }

    /// An operator applied to user values: the user's method, else a `MethodError`.
    pub(crate) fn call_operator(&mut self, name: &str, args: Vec<Value>) -> EvalResult {
        match self.call_extension(Name::new(name), &args, &[]) {
            Some(result) => result,
            None => {
                let candidates = self
                    .extensions
                    .get(&Name::new(name))
                    .cloned()
                    .unwrap_or_default();
                Err(self.no_method(name, &args, &candidates))
            }
        }
    }

    /// A binary operator with a user value among its operands (or, dotted, inside a vector
    /// operand): the user's method, elementwise when dotted. `None` leaves the operators
    /// every value has (`==`, `===`, `|>`, `=>`, `in`) to the builtin when the user defined
    /// none.
    pub(crate) fn binary_user(
        &mut self,
        op: BinOp,
        dotted: bool,
        a: &Value,
        b: &Value,
    ) -> Option<EvalResult> {
        if dotted {
            let function = Value::Builtin(crate::builtins::lookup(Name::new(op.symbol()))?);
            return Some(self.broadcast_call(&function, vec![a.clone(), b.clone()], Vec::new()));
        }
        let args = [a.clone(), b.clone()];
        if let Some(result) = self.call_extension(Name::new(op.symbol()), &args, &[]) {
            return Some(result);
        }
        match op {
            BinOp::Ne => {
                let equal = self.call_extension(difflab_syntax::name!("=="), &args, &[])?;
                Some(equal.map(|v| match v {
                    Value::Bool(b) => Value::Bool(!b),
                    other => other,
                }))
            }
            BinOp::Eq
            | BinOp::Identical
            | BinOp::NotIdentical
            | BinOp::Pipe
            | BinOp::Pair
            | BinOp::In
            | BinOp::Subtype => None,
            // Julia's fallbacks: `x > y` is `y < x`, `x <= y` is `x < y || x == y`, and `<`
            // is `isless` (so an `isless` method orders a type for every comparison).
            BinOp::Gt => Some(self.binary(BinOp::Lt, false, b, a)),
            BinOp::Ge => Some(self.binary(BinOp::Le, false, b, a)),
            BinOp::Le => Some(match self.binary(BinOp::Lt, false, a, b) {
                Ok(Value::Bool(false)) => self.binary(BinOp::Eq, false, a, b),
                other => other,
            }),
            BinOp::Lt => Some(match self.promoted_operator("<", a, b) {
                Some(result) => result,
                None if self
                    .extensions
                    .contains_key(&difflab_syntax::name!("isless"))
                    || (a.pair_parts().is_some() && b.pair_parts().is_some()) =>
                {
                    crate::builtins::ordering::order(self, a, b).map(|o| Value::Bool(o.is_lt()))
                }
                None => self.call_operator("<", args.to_vec()),
            }),
            _ => Some(
                self.promoted_operator(op.symbol(), a, b)
                    .unwrap_or_else(|| self.call_operator(op.symbol(), args.to_vec())),
            ),
        }
    }

    /// Calls a user value: a method of its callable type.
    pub(crate) fn call_struct(
        &mut self,
        object: &Value,
        mut args: Vec<Value>,
        kw: Vec<(Name, Value)>,
    ) -> EvalResult {
        args.insert(0, object.clone());
        match self.call_extension(Name::new(CALL), &args, &kw) {
            Some(result) => result,
            None => Err(fail(
                ErrorKind::MethodError,
                format!("objects of type {} are not callable", object.type_name()),
            )),
        }
    }

    /// Calls the method of a user function that applies to `args`.
    pub(crate) fn call_function(
        &mut self,
        closure: &Rc<Closure>,
        args: Vec<Value>,
        kw: Vec<(Name, Value)>,
    ) -> EvalResult {
        let selected = if closure.methods.is_empty() {
            // One method, the usual case: only its arity and annotations to check.
            Some(closure)
                .filter(|m| accepts(m, &args))
                .ok_or(Selection::NoMatch)
        } else {
            select(all_methods(closure), &args)
        };
        match selected {
            Ok(method) => {
                if kw.is_empty() {
                    if let Some(result) = self.run_compiled(method, &args) {
                        return result;
                    }
                }
                self.run_method(method, args, kw)
            }
            Err(why) => {
                let name = closure
                    .def
                    .name
                    .map_or("#anonymous".to_string(), |n| n.to_string());
                Err(match why {
                    Selection::NoMatch => {
                        let candidates: Vec<Rc<Closure>> = all_methods(closure).cloned().collect();
                        self.no_method(&name, &args, &candidates)
                    }
                    Selection::Ambiguous(candidates) => ambiguity(&name, &args, &candidates),
                })
            }
        }
    }

    /// Julia's `MethodError: no method matching f(::T)`, with the closest candidates.
    pub(crate) fn no_method(&self, name: &str, args: &[Value], candidates: &[Rc<Closure>]) -> Flow {
        let mut message = format!("no method matching {name}({})", arg_types(args));
        let mut close: Vec<(usize, String)> = candidates
            .iter()
            .map(|m| {
                let score = m
                    .signature
                    .iter()
                    .zip(args)
                    .filter(|(t, a)| t.contains(a))
                    .count();
                (score, signature_text(name, m))
            })
            .collect();
        close.sort_by_key(|c| std::cmp::Reverse(c.0));
        // A function of the session named like one of Julia's (defined before the name was
        // used): the user probably meant to extend that one.
        if crate::builtins::lookup(Name::new(name)).is_some()
            && !self.imported.contains(&Name::new(name))
        {
            message.push_str(&format!("\nYou may have intended to import Base.{name}"));
        }
        if !close.is_empty() {
            message.push_str("\n\nClosest candidates are:");
            for (_, text) in close.iter().take(3) {
                message.push_str("\n  ");
                message.push_str(text);
            }
        }
        fail(ErrorKind::MethodError, message)
    }

    /// `x.field` of a user value.
    pub(crate) fn struct_field(s: &StructValue, field: Name) -> EvalResult {
        match s.def.field_index(field) {
            Some(i) => s.fields.borrow()[i].clone().defined(),
            None => Err(fail(
                ErrorKind::ErrorException,
                format!("type {} has no field {field}", s.def.name),
            )),
        }
    }

    /// `x.field = v` of a user value: only mutable structs, converting to the field's type.
    pub(crate) fn set_struct_field(s: &StructValue, field: Name, v: Value) -> Result<(), Flow> {
        if !s.def.mutable {
            return Err(fail(
                ErrorKind::ErrorException,
                format!(
                    "setfield!: immutable struct of type {} cannot be changed",
                    s.def.name
                ),
            ));
        }
        let Some(i) = s.def.field_index(field) else {
            return Err(fail(
                ErrorKind::ErrorException,
                format!("type {} has no field {field}", s.def.name),
            ));
        };
        if s.def.const_fields.contains(&field) {
            return Err(fail(
                ErrorKind::ErrorException,
                format!(
                    "setfield!: const field .{field} of type {} cannot be changed",
                    s.def.name
                ),
            ));
        }
        let wanted = field_type(s, i);
        let v = convert(&wanted, v)?;
        s.fields.borrow_mut()[i] = v;
        Ok(())
    }

    /// The methods of a function, for `methods(f)`.
    pub fn method_list(&self, f: &Value) -> Option<(String, Vec<Rc<Closure>>)> {
        match f {
            // The newest method heads a function's table: list them in definition order.
            Value::Function(c) => Some((
                c.def.name.map_or("#anonymous".into(), |n| n.to_string()),
                all_methods(c).rev().cloned().collect(),
            )),
            Value::Builtin(b) => Some((
                b.name.to_string(),
                self.extensions
                    .get(&Name::new(b.name))
                    .cloned()
                    .unwrap_or_default(),
            )),
            Value::Type(t) => match &**t {
                Type::User(d) => Some((
                    d.name.to_string(),
                    self.extensions.get(&d.name).cloned().unwrap_or_default(),
                )),
                _ => None,
            },
            _ => None,
        }
    }
}

/// `ty` with each type variable of `bounds` replaced by its bound.
fn substitute(ty: Type, bounds: &[(Name, Type)]) -> Type {
    match ty {
        Type::Var(name) => bounds
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(Type::Var(name), |(_, bound)| bound.clone()),
        Type::Applied(p, params) => Type::Applied(p, substitute_all(&params, bounds)),
        Type::UserApplied(def, params) => Type::UserApplied(def, substitute_all(&params, bounds)),
        Type::Within(bound) => Type::Within(Rc::new(substitute((*bound).clone(), bounds))),
        other => other,
    }
}

fn substitute_all(params: &[Type], bounds: &[(Name, Type)]) -> Rc<[Type]> {
    params
        .iter()
        .map(|p| substitute(p.clone(), bounds))
        .collect()
}

/// The declared type of field `i` of `s`, with the instance's type parameters substituted.
fn field_type(s: &StructValue, i: usize) -> Type {
    match &s.def.fields[i].1 {
        None => Type::Prim(Prim::Any),
        Some(Type::Var(v)) => s
            .def
            .params
            .iter()
            .position(|p| p == v)
            .and_then(|k| s.params.get(k).cloned())
            .unwrap_or(Type::Prim(Prim::Any)),
        Some(t) => t.clone(),
    }
}

/// The default constructor: one argument per field, converted to the field's type, with the
/// type parameters given (`Dual{Float64}(1, 2)`) or inferred from the arguments.
fn construct(ty: &Type, args: Vec<Value>, partial: bool) -> EvalResult {
    let (def, given) = match ty {
        Type::User(d) => (d.clone(), None),
        Type::UserApplied(d, ps) => (d.clone(), Some(ps.clone())),
        _ => unreachable!("constructors belong to user types"),
    };
    if args.len() != def.fields.len() && !(partial && args.len() < def.fields.len()) {
        return Err(fail(
            ErrorKind::MethodError,
            format!(
                "no method matching {}({}): the default constructor takes {} argument{} ({})",
                def.name,
                arg_types(&args),
                def.fields.len(),
                if def.fields.len() == 1 { "" } else { "s" },
                def.fields
                    .iter()
                    .map(|(f, _)| f.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let params: Rc<[Type]> = match given {
        Some(ps) => ps,
        None => super::type_params::infer_params(&def, &args)?,
    };
    let instance = StructValue {
        def: def.clone(),
        params,
        fields: RefCell::new(Vec::new()),
        shown: RefCell::new(None),
        displayed: RefCell::new(None),
    };
    let mut fields = Vec::with_capacity(def.fields.len());
    for (i, v) in args.into_iter().enumerate() {
        fields.push(convert(&field_type(&instance, i), v)?);
    }
    fields.resize(def.fields.len(), Value::undefined());
    *instance.fields.borrow_mut() = fields;
    Ok(Value::Struct(Rc::new(instance)))
}

/// `v` as a value of type `ty`: itself when it is one, else Julia's numeric conversions.
pub fn convert(ty: &Type, v: Value) -> EvalResult {
    if ty.contains(&v) {
        return Ok(v);
    }
    // To a union: the first member the value converts to, as `convert(Union{Nothing,
    // Float64}, 1)` gives `1.0`.
    if let Type::Union(members) = ty {
        if let Some(converted) = members.iter().find_map(|m| convert(m, v.clone()).ok()) {
            return Ok(converted);
        }
    }
    let converted = match (ty, &v) {
        (Type::Prim(Prim::Float64 | Prim::AbstractFloat), Value::Int(i)) => {
            Some(Value::Float(*i as f64))
        }
        (Type::Prim(Prim::Float64 | Prim::AbstractFloat), Value::Bool(b)) => {
            Some(Value::Float(f64::from(u8::from(*b))))
        }
        (Type::Prim(Prim::Int64 | Prim::Integer | Prim::Signed), Value::Float(x))
            if x.fract() == 0.0 && x.abs() < 9.2e18 =>
        {
            Some(Value::Int(*x as i64))
        }
        (Type::Prim(Prim::Int64 | Prim::Integer | Prim::Signed), Value::Bool(b)) => {
            Some(Value::Int(i64::from(*b)))
        }
        // A plain real is a number carrying zero derivatives.
        (Type::Prim(Prim::Dual), Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {
            Some(v.clone())
        }
        (Type::UserApplied(def, params), Value::Struct(s))
            if s.is_pair() && Rc::ptr_eq(def, &crate::types::pair_def()) =>
        {
            let (first, second) = v.pair_parts().expect("a pair");
            let types = [params[0].clone(), params[1].clone()];
            Some(Value::typed_pair(
                convert(&types[0], first)?,
                convert(&types[1], second)?,
                types,
            ))
        }
        _ => None,
    };
    converted.ok_or_else(|| {
        let kind = match (ty, &v) {
            (Type::Prim(Prim::Int64), Value::Float(_)) => ErrorKind::InexactError,
            _ => ErrorKind::MethodError,
        };
        fail(
            kind,
            format!(
                "Cannot `convert` an object of type {} to an object of type {ty}",
                v.type_name()
            ),
        )
    })
}

/// `new(…)` inside an inner constructor: the default constructor of the type.
struct RawConstructor(Type);

impl crate::object::Object for RawConstructor {
    fn type_name(&self) -> String {
        "Function".into()
    }
    fn show(&self) -> String {
        "new".into()
    }
    /// Fewer arguments than fields leave the last fields `#undef`, as Julia's `new` does.
    fn call(&self, _: &mut Interp, args: Vec<Value>, _: Vec<(Name, Value)>) -> Option<EvalResult> {
        Some(construct(&self.0, args, true))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Whether a binary operation involves user values, so user methods are looked up first.
#[inline(never)]
pub fn involves_user_values(dotted: bool, a: &Value, b: &Value) -> bool {
    let user = |v: &Value| match v {
        Value::Struct(_) => true,
        Value::List(items) if dotted => {
            items.borrow().iter().any(|x| matches!(x, Value::Struct(_)))
        }
        _ => false,
    };
    user(a) || user(b)
}

/// `A <: B` of two types.
pub fn subtype_test(a: &Value, b: &Value) -> EvalResult {
    match (Type::from_value(a), Type::from_value(b)) {
        (Some(a), Some(b)) => Ok(Value::Bool(a.is_subtype(&b))),
        _ => Err(fail(
            ErrorKind::TypeError,
            format!(
                "in <:, expected types, got {} and {}",
                a.type_name(),
                b.type_name()
            ),
        )),
    }
}

/// A type as the value that names it: the builtin of a builtin type (`Float64` is also its
/// conversion function), else the type itself.
pub(crate) fn type_value(ty: &Type) -> Value {
    match ty {
        Type::Prim(p) => crate::builtins::lookup(Name::new(p.name()))
            .map_or_else(|| Value::Type(Rc::new(ty.clone())), Value::Builtin),
        other => Value::Type(Rc::new(other.clone())),
    }
}
