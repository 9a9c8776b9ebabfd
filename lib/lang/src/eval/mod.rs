//! The evaluator: walks the syntax tree and produces values.
//!
//! [`Interp`] owns the global table, the configuration (memory and recursion limits), the
//! interrupt flag, the random generator and the output sink. Evaluation is split by syntactic
//! category: [`control`] (blocks, branches, loops, `try`), [`assign`], [`call`] (function calls
//! and definitions), [`collections`] (array literals, comprehensions, tuples), [`index`],
//! [`operators`] (arithmetic and broadcasting on values), [`iterate`] and [`macros`].
//! `break`, `continue` and `return` travel as [`Flow`], never as errors.

pub mod assign;
pub mod call;
pub mod collections;
pub mod control;
pub mod dispatch;
pub mod fusion;
mod generator_values;
mod generators;
mod imports;
pub mod index;
pub mod iterate;
pub mod keyword_help;
mod kwdef;
pub mod logging;
pub mod macros;
pub mod methods;
pub mod operators;
pub mod promotion;
pub mod reads;
pub mod scope;
pub mod testing;
mod type_params;
mod user_show;

use crate::error::{fail, ErrorKind, EvalResult, Flow, LangError, Source};
use crate::output::Output;
use crate::value::Value;
use difflab_ad::limits;
use difflab_syntax::{Block, Expr, ExprKind, Name, Span, StrPart};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use scope::{Scope, ScopeRef};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The interrupt flag as a long builtin loop sees it ([`Interp::poll`]): [`Poll::tick`] once
/// per step (an element, a comparison) looks at the flag every [`Poll::EVERY`] steps, so a
/// builtin answers an interrupt within a fraction of a millisecond at a negligible cost.
pub struct Poll {
    flag: Arc<AtomicBool>,
    left: u32,
}

impl Poll {
    /// How many steps pass between two looks at the flag.
    pub const EVERY: u32 = 1 << 12;

    /// One step: raises `InterruptException` (and clears the request) when an interrupt was
    /// requested, looking every [`Poll::EVERY`] steps.
    #[inline]
    pub fn tick(&mut self) -> Result<(), Flow> {
        self.left -= 1;
        if self.left == 0 {
            self.left = Poll::EVERY;
            return self.check();
        }
        Ok(())
    }

    /// Raises `InterruptException` now if an interrupt was requested (and clears it), or
    /// `OutOfMemoryError` if the session's memory grew beyond the limit.
    pub fn check(&self) -> Result<(), Flow> {
        if self.flag.load(Ordering::Relaxed) {
            self.flag.store(false, Ordering::Relaxed);
            return Err(fail(ErrorKind::InterruptException, ""));
        }
        Ok(limits::check_memory()?)
    }

    /// A poller of a flag of its own, never raised: for tests of loops that poll.
    #[cfg(test)]
    pub(crate) fn unraised() -> Poll {
        Poll {
            flag: Arc::new(AtomicBool::new(false)),
            left: Poll::EVERY,
        }
    }
}

/// Limits that protect the session from runaway programs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The largest single allocation a program may request, in bytes (`OutOfMemoryError` beyond).
    pub memory_limit: usize,
    /// The deepest call nesting before `StackOverflowError`.
    pub max_depth: usize,
    /// The Rust stack the evaluator may use before `StackOverflowError` (the engine thread has
    /// more than this).
    pub stack_bytes: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            memory_limit: 4 << 30,
            max_depth: 5_000,
            stack_bytes: 768 << 20,
        }
    }
}

/// The seed of the default random generator in a fresh session.
pub const DEFAULT_SEED: u64 = 42;

/// The interpreter state of one session.
pub struct Interp {
    globals: Vec<Option<Value>>,
    /// Limits.
    pub config: Config,
    /// Raised by another thread to interrupt the running program.
    pub interrupt: Arc<AtomicBool>,
    /// Whether a `catch` took an `InterruptException` during this input. It takes the first
    /// one as Julia's does, but not another: a loop around `try … catch` stops at the second
    /// interrupt instead of swallowing every one.
    interrupt_caught: bool,
    /// The struct whose field types are being read: its own name inside them (`next::Node`,
    /// `children::Vector{Node}`) names it before it is bound.
    defining_struct: Option<Name>,
    /// The default random generator (`rand`, `randn`, `seed!`).
    pub rng: Xoshiro256PlusPlus,
    /// Where printing goes.
    pub out: Box<dyn Output>,
    /// Docstrings of user functions.
    pub docs: HashMap<Name, String>,
    /// User methods of builtin functions (`+`, `show`, …), of constructors of user types
    /// (outer and inner), and of callable types, by name.
    pub(crate) extensions: HashMap<Name, Vec<Rc<crate::value::Closure>>>,
    /// Builtin names imported for extension (`import Base: +`).
    pub(crate) imported: std::collections::HashSet<Name>,
    /// Builtin names this session has used (a bit per name): defining a method under one of
    /// them without `import` is then Julia's error, where an unused one becomes a new function.
    used_builtins: RefCell<Vec<u64>>,
    /// The last line plot made, which `plot!` without a plot adds to.
    pub(crate) current_plot: Option<Value>,
    /// Other names of modules (`import LinearAlgebra as LA`): alias to module.
    pub(crate) module_aliases: std::collections::HashMap<Name, Name>,
    depth: usize,
    /// The address of a local in `run`: how deep the Rust stack has grown is measured from it.
    stack_base: usize,
    scope: Option<ScopeRef>,
    source: Rc<Source>,
    end_stack: Vec<usize>,
    /// While a function is being recorded: what it reads and does ([`reads`]).
    reads: Option<Box<std::cell::RefCell<reads::ReadLog>>>,
    /// Methods compiled for the plain-number types they were called with.
    pub compiled: crate::compile::Compiled,
    /// Recordings of functions whose sparsity was detected more than once.
    pub detections: crate::builtins::ad::detection_recordings::Detections,
    /// The `@testset`s being run, innermost last.
    pub(crate) testsets: Vec<testing::TestSet>,
    /// While a test collects what is logged (`@test_logs`): the records so far.
    pub(crate) log_capture: Option<Vec<logging::LogRecord>>,
}

impl Interp {
    /// A fresh interpreter printing to `out`.
    pub fn new(config: Config, out: Box<dyn Output>) -> Interp {
        crate::allocator::keep_freed_blocks();
        Interp {
            globals: Vec::new(),
            config,
            interrupt: Arc::new(AtomicBool::new(false)),
            interrupt_caught: false,
            defining_struct: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(DEFAULT_SEED),
            out,
            docs: HashMap::new(),
            extensions: HashMap::new(),
            imported: std::collections::HashSet::new(),
            used_builtins: RefCell::new(Vec::new()),
            current_plot: None,
            module_aliases: std::collections::HashMap::new(),
            depth: 0,
            stack_base: 0,
            scope: None,
            source: Rc::new(Source {
                name: "none".into(),
                text: String::new(),
            }),
            end_stack: Vec::new(),
            reads: None,
            compiled: crate::compile::Compiled::new(),
            detections: Default::default(),
            testsets: Vec::new(),
            log_capture: None,
        }
        .with_limits_installed()
    }

    /// Makes this interpreter's memory limit and interrupt flag the thread's, for builtins
    /// called before the first [`Interp::run`].
    fn with_limits_installed(self) -> Interp {
        limits::install(self.config.memory_limit, self.interrupt.clone());
        self
    }

    /// Evaluates a parsed program from `source` at top level; the value of the last expression.
    pub fn run(&mut self, program: &Block, source: Rc<Source>) -> Result<Value, LangError> {
        let base = 0u8;
        self.stack_base = std::ptr::addr_of!(base) as usize;
        self.source = source;
        self.scope = None;
        self.depth = 0;
        self.end_stack.clear();
        // An interrupt raised while nothing ran (a late Ctrl-C after the previous input ended)
        // must not stop this input; frontends retry an interrupt that races with a start.
        self.interrupt.store(false, Ordering::Relaxed);
        self.interrupt_caught = false;
        limits::install(self.config.memory_limit, self.interrupt.clone());
        let result = self.eval_block(program).and_then(|v| {
            self.prepare_plain_display(&v)?;
            Ok(v)
        });
        Scope::collect_cycles();
        match result {
            Ok(v) => Ok(v),
            Err(Flow::Error(e)) => Err(*e),
            Err(Flow::Return(v)) => Ok(v),
            Err(Flow::Break | Flow::Continue) => Err(LangError::new(
                ErrorKind::ErrorException,
                "break or continue outside a loop",
            )),
        }
    }

    /// Evaluates library code written in the language (`name` labels its errors) in a scope of
    /// its own, leaving the caller's state and the globals untouched. Each text is parsed once
    /// per thread (the scenario library is evaluated at every call of its builtins).
    pub fn eval_library(&mut self, name: &'static str, text: &'static str) -> EvalResult {
        type Parsed = (Rc<difflab_syntax::ast::Block>, Rc<Source>);
        thread_local! {
            static PARSED: RefCell<HashMap<usize, Parsed>> = RefCell::new(HashMap::new());
        }
        let key = text.as_ptr() as usize;
        let cached = PARSED.with(|p| p.borrow().get(&key).cloned());
        let (program, source) = match cached {
            Some(parsed) => parsed,
            None => {
                let program = difflab_syntax::parse(text).map_err(|e| {
                    fail(
                        ErrorKind::LoadError,
                        format!("in library code {name}: {}", e.message()),
                    )
                })?;
                let parsed = (
                    Rc::new(program),
                    Rc::new(Source {
                        name: name.to_string(),
                        text: text.to_string(),
                    }),
                );
                PARSED.with(|p| p.borrow_mut().insert(key, parsed.clone()));
                parsed
            }
        };
        let saved = std::mem::replace(&mut self.source, source);
        let frame = Scope::new(None, true);
        let result = self.with_frame(frame, |me| me.eval_block(&program));
        self.source = saved;
        result
    }

    /// `include(path)`: evaluates a file at top level, as if its code were typed there (its
    /// globals and functions stay defined); errors point into the file. A relative path is
    /// taken from the directory of the file being evaluated, if any, else the working
    /// directory.
    pub fn include_file(&mut self, path: &str) -> EvalResult {
        let including = std::path::Path::new(&self.source.name);
        let resolved = match including.parent() {
            Some(dir) if including.is_file() => dir.join(path),
            _ => std::path::PathBuf::from(path),
        };
        let name = resolved.display().to_string();
        let text = crate::builtins::files::read_text(&name)?;
        let source = Rc::new(Source { name, text });
        let program = difflab_syntax::parse(&source.text).map_err(|e| {
            let mut error = LangError::new(ErrorKind::LoadError, e.message());
            error.location = Some((source.clone(), e.span));
            Flow::Error(Box::new(error))
        })?;
        let saved_source = std::mem::replace(&mut self.source, source);
        let saved_scope = self.scope.take();
        let result = self.eval_block(&program);
        self.scope = saved_scope;
        self.source = saved_source;
        match result {
            Err(Flow::Return(v)) => Ok(v),
            other => other,
        }
    }

    /// The global called `name`, if defined.
    pub fn global(&self, name: Name) -> Option<&Value> {
        self.globals.get(name.index()).and_then(Option::as_ref)
    }

    /// Defines or overwrites the global `name`.
    pub fn set_global(&mut self, name: Name, value: Value) {
        self.note_global_write(name);
        let i = name.index();
        if i >= self.globals.len() {
            self.globals.resize(i + 1, None);
        }
        // Compiled code resolved names to the functions they held, or (unbound) to builtins
        // and constants, and took the numbers of globals it read: a binding that changes any
        // of them makes it stale.
        let function = |v: &Value| matches!(v, Value::Function(_));
        let resolved = match &self.globals[i] {
            Some(old) => function(old),
            None => {
                crate::builtins::lookup(name).is_some()
                    || crate::builtins::constant(name.as_str()).is_some()
            }
        };
        if self.compiled.took(name) {
            self.compiled.rebound(name);
        } else if resolved || function(&value) {
            self.compiled.forget();
        }
        self.globals[i] = Some(value);
    }

    /// How many user function calls are running.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whether a function is being recorded (its reads are logged, so it runs as written).
    pub fn recording(&self) -> bool {
        self.reads.is_some()
    }

    /// Every defined global name.
    pub fn global_names(&self) -> Vec<Name> {
        (0..self.globals.len())
            .filter(|&i| self.globals[i].is_some())
            .filter_map(Name::from_index)
            .collect()
    }

    /// Raises `InterruptException` if an interrupt was requested (and clears the request), or
    /// `OutOfMemoryError` if the session's memory grew beyond the limit during this input
    /// ([`limits::check_memory`]): what every loop and call looks at.
    pub fn check_interrupt(&self) -> Result<(), Flow> {
        if self.interrupt.load(Ordering::Relaxed) {
            return Err(self.interrupted());
        }
        Ok(limits::check_memory()?)
    }

    /// The `InterruptException` of a requested interrupt, which it clears.
    pub fn interrupted(&self) -> Flow {
        self.interrupt.store(false, Ordering::Relaxed);
        fail(ErrorKind::InterruptException, "")
    }

    /// A poller of the interrupt flag for a long loop inside a builtin (a sort, a scan of
    /// millions of elements) that cannot call [`Interp::check_interrupt`] while it borrows
    /// other parts of the interpreter.
    pub fn poll(&self) -> Poll {
        Poll {
            flag: self.interrupt.clone(),
            left: Poll::EVERY,
        }
    }

    /// Raises `StackOverflowError` when the Rust stack has grown beyond the configured budget,
    /// whatever the recursion goes through (user functions, builtins calling back, nested
    /// differentiation), so the process never overflows its real stack.
    pub fn check_stack(&self) -> Result<(), Flow> {
        let here = 0u8;
        let used = self.stack_base.abs_diff(std::ptr::addr_of!(here) as usize);
        if self.stack_base != 0 && used > self.config.stack_bytes {
            return Err(fail(ErrorKind::StackOverflowError, ""));
        }
        Ok(())
    }

    /// Raises `OutOfMemoryError` when an array of `elements` numbers would exceed the memory
    /// limit, alone or with what the session holds, before it is allocated.
    pub fn check_alloc(&self, elements: usize) -> Result<(), Flow> {
        Ok(limits::reserve_numbers(elements)?)
    }

    /// Raises `OutOfMemoryError` when `what` (`"a string"`) of `bytes` bytes would exceed the
    /// memory limit, alone or with what the session holds, before it is allocated.
    pub fn check_bytes(&self, bytes: u64, what: &str) -> Result<(), Flow> {
        Ok(limits::reserve(bytes, &format!("{what} of {bytes} bytes"))?)
    }

    /// The current source (for locating errors in code defined now).
    pub fn source(&self) -> Rc<Source> {
        self.source.clone()
    }

    /// Evaluates a block; its value is the last expression's (`nothing` when empty).
    pub fn eval_block(&mut self, block: &Block) -> EvalResult {
        let mut last = Value::Nothing;
        for expr in block {
            last = self.eval(expr)?;
        }
        Ok(last)
    }

    /// Evaluates one expression, attaching its location to errors raised directly inside it.
    pub fn eval(&mut self, expr: &Expr) -> EvalResult {
        self.eval_kind(expr)
            .map_err(|flow| self.locate(flow, expr.span))
    }

    /// Attaches `span` in the current source to an error that has no location yet.
    pub fn locate(&self, flow: Flow, span: Span) -> Flow {
        match flow {
            Flow::Error(mut e) if e.location.is_none() => {
                e.location = Some((self.source.clone(), span));
                Flow::Error(e)
            }
            other => other,
        }
    }

    fn eval_kind(&mut self, expr: &Expr) -> EvalResult {
        match &expr.kind {
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Float(x) => Ok(Value::Float(*x)),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Str(parts) => self.eval_string(parts),
            ExprKind::Char(c) => Ok(Value::Char(*c)),
            ExprKind::PrefixedStr {
                prefix,
                text,
                flags,
            } => crate::builtins::regex::string_literal(*prefix, text, flags),
            ExprKind::Symbol(s) => Ok(Value::Symbol(*s)),
            ExprKind::Ident(name) => self.lookup(*name),
            ExprKind::Nothing | ExprKind::Using => Ok(Value::Nothing),
            ExprKind::Colon => Ok(Value::Builtin(crate::builtins::colon())),
            ExprKind::End => self
                .end_stack
                .last()
                .map(|&n| Value::Int(n as i64))
                .ok_or_else(|| fail(ErrorKind::ErrorException, "`end` used outside an index")),
            ExprKind::Tuple(items) => self.eval_tuple(items),
            ExprKind::Vector(items) => self.eval_vector(items),
            ExprKind::Concat(rows) => self.eval_concat(rows),
            ExprKind::TypedVector { eltype, elements } => self.eval_typed_vector(*eltype, elements),
            ExprKind::TypedLiteral { eltype, literal } => self.eval_typed_literal(*eltype, literal),
            ExprKind::Comprehension {
                body,
                generators,
                filter,
                flat,
                element,
                lazy,
                ..
            } => {
                if let Some(made) = lazy
                    .as_ref()
                    .and_then(|functions| self.generator_value(functions, generators))
                {
                    return made;
                }
                self.eval_comprehension(body, generators, filter.as_deref(), *flat, element)
            }
            ExprKind::Range { start, step, stop } => {
                let start = self.eval(start)?;
                let step = step.as_ref().map(|s| self.eval(s)).transpose()?;
                let stop = self.eval(stop)?;
                crate::builtins::value_operators::make_range(&start, step.as_ref(), &stop)
            }
            _ if fusion::is_dotted_chain(expr) => self.eval_dotted(expr),
            ExprKind::Binary {
                op,
                dotted,
                lhs,
                rhs,
            } => {
                let mut a = self.eval(lhs)?;
                if *op == difflab_syntax::BinOp::Pow && operators::is_literal_inverse_power(rhs) {
                    a = operators::float_base(a);
                }
                let b = self.eval(rhs)?;
                self.binary(*op, *dotted, &a, &b)
            }
            ExprKind::Unary {
                op,
                dotted,
                operand,
            } => {
                let v = self.eval(operand)?;
                if let Value::Struct(_) = v {
                    return self.call_operator(op.function_name(), vec![v]);
                }
                crate::builtins::value_operators::unary(*op, *dotted, &v)
            }
            ExprKind::And(a, b) => {
                if self.truthy(a)? {
                    self.eval(b)
                } else {
                    Ok(Value::Bool(false))
                }
            }
            ExprKind::Or(a, b) => {
                if self.truthy(a)? {
                    Ok(Value::Bool(true))
                } else {
                    self.eval(b)
                }
            }
            ExprKind::Ternary {
                cond,
                then,
                otherwise,
            } => {
                if self.truthy(cond)? {
                    self.eval(then)
                } else {
                    self.eval(otherwise)
                }
            }
            ExprKind::Call {
                callee,
                args,
                kwargs,
                dotted,
            } => self.eval_call(callee, args, kwargs, *dotted, expr.span),
            ExprKind::Curly { name, .. } => self.eval_curly(expr, *name),
            ExprKind::Index { target, indices } => self.eval_index(target, indices),
            ExprKind::Field { target, field } => {
                if let Some(member) = self.module_member(target, *field) {
                    return member;
                }
                let v = self.eval(target)?;
                self.field(&v, *field)
            }
            ExprKind::Adjoint(inner) => {
                let v = self.eval(inner)?;
                crate::builtins::value_operators::adjoint(&v)
            }
            ExprKind::Splat(_) => Err(fail(
                ErrorKind::ArgumentError,
                "splatting `...` is only allowed in calls and array literals",
            )),
            ExprKind::Lambda(def) => self.make_closure(def.clone()),
            ExprKind::Struct(def) if !def.defaults.is_empty() => Err(fail(
                ErrorKind::ErrorException,
                format!(
                    "syntax: default values of fields (\"{} = …\") need @kwdef before `struct`",
                    def.defaults[0].0
                ),
            )),
            ExprKind::Struct(def) => self.define_struct(def),
            ExprKind::AbstractType {
                name,
                params,
                supertype,
            } => self.define_abstract(*name, params, supertype.as_deref()),
            ExprKind::Import {
                module,
                names,
                renamed,
            } => self.import(*module, names, renamed, expr.span),
            ExprKind::ModuleAlias(aliases) => {
                for &(module, alias) in aliases {
                    self.alias_module(module, alias);
                }
                Ok(Value::Nothing)
            }
            ExprKind::TypeAssert { value, ty } => {
                let v = self.eval(value)?;
                let t = self.eval_type(ty, &[])?;
                if t.contains(&v) {
                    Ok(v)
                } else {
                    Err(fail(
                        ErrorKind::TypeError,
                        format!(
                            "in typeassert, expected {t}, got a value of type {}",
                            v.type_name()
                        ),
                    ))
                }
            }
            ExprKind::Function(def) => self.define_function(def),
            ExprKind::Block(body) => self.eval_block(body),
            ExprKind::Let { bindings, body } => self.eval_let(bindings, body),
            ExprKind::If {
                branches,
                otherwise,
            } => self.eval_if(branches, otherwise.as_ref()),
            ExprKind::For { .. } | ExprKind::While { .. } if self.scope.is_none() => {
                match self.run_compiled_loop(expr) {
                    Some(result) => result,
                    None => self.eval_loop(expr),
                }
            }
            ExprKind::For { .. } | ExprKind::While { .. } => self.eval_loop(expr),
            ExprKind::Break => Err(Flow::Break),
            ExprKind::Continue => Err(Flow::Continue),
            ExprKind::Return(value) => {
                let v = match value {
                    Some(e) => self.eval(e)?,
                    None => Value::Nothing,
                };
                Err(Flow::Return(v))
            }
            ExprKind::Try {
                body,
                catch_var,
                catch_body,
                finally,
            } => self.eval_try(body, *catch_var, catch_body.as_ref(), finally.as_ref()),
            ExprKind::Assign {
                target,
                op,
                dotted,
                value,
            } => self.eval_assign(target, *op, *dotted, value),
            ExprKind::Declare { global, bindings } => self.eval_declare(*global, bindings),
            ExprKind::Macro { name, args } => self.eval_macro(*name, args, expr.span),
            ExprKind::Interpolate(inner) => self.eval(inner),
        }
    }

    fn eval_string(&mut self, parts: &[StrPart]) -> EvalResult {
        let mut out = String::new();
        for part in parts {
            match part {
                StrPart::Text(t) => out.push_str(t),
                StrPart::Interp(e) => {
                    let v = self.eval(e)?;
                    out.push_str(&crate::display::print_string(&v));
                    // Formatting stops early on an interrupt: raise it before the text is used.
                    self.check_interrupt()?;
                }
            }
        }
        Ok(Value::str(out))
    }

    /// The value of the variable `name`: locals, then globals, then builtins.
    pub fn lookup(&self, name: Name) -> EvalResult {
        if let Some(scope) = &self.scope {
            if let Some(v) = Scope::lookup(scope, name) {
                if self.reads.is_some() {
                    self.note_read(name, Some(&v));
                }
                return Ok(v);
            }
        }
        if self.reads.is_some() {
            self.note_read(name, self.global(name));
        }
        if let Some(v) = self.global(name) {
            return Ok(v.clone());
        }
        if let Some(b) = crate::builtins::lookup(name) {
            self.note_builtin_use(name);
            return Ok(Value::Builtin(b));
        }
        if let Some(v) = crate::builtins::constant(name.as_str()) {
            return Ok(v);
        }
        Err(fail(
            ErrorKind::UndefVarError,
            format!("`{name}` not defined"),
        ))
    }

    /// Notes that code used the builtin `name` (as Julia resolves a module's binding to
    /// `Base`'s the first time code uses it).
    pub(crate) fn note_builtin_use(&self, name: Name) {
        let (word, bit) = (name.index() / 64, name.index() % 64);
        let mut used = self.used_builtins.borrow_mut();
        if word >= used.len() {
            used.resize(word + 1, 0);
        }
        used[word] |= 1 << bit;
    }

    /// Whether code of this session used the builtin `name` ([`Interp::note_builtin_use`]).
    pub(crate) fn builtin_used(&self, name: Name) -> bool {
        let (word, bit) = (name.index() / 64, name.index() % 64);
        self.used_builtins
            .borrow()
            .get(word)
            .is_some_and(|w| w & (1 << bit) != 0)
    }

    /// Runs a `for` or `while` loop as written.
    fn eval_loop(&mut self, expr: &Expr) -> EvalResult {
        match &expr.kind {
            ExprKind::For { generators, body } => self.eval_for(generators, body),
            ExprKind::While { cond, body } => self.eval_while(cond, body),
            _ => unreachable!("called for loops only"),
        }
    }

    /// Evaluates a condition, which must be a `Bool`.
    pub fn truthy(&mut self, expr: &Expr) -> Result<bool, Flow> {
        match self.eval(expr)? {
            Value::Bool(b) => Ok(b),
            other if crate::value::convert::is_global_traced(&other) => {
                Err(self.locate(crate::value::convert::global_condition_error(), expr.span))
            }
            other => Err(self.locate(
                fail(
                    ErrorKind::TypeError,
                    format!(
                        "non-boolean ({}) used in boolean context",
                        other.type_name()
                    ),
                ),
                expr.span,
            )),
        }
    }

    /// Runs `body` inside a new soft frame (loops, `let`, comprehensions).
    pub fn with_frame<T>(
        &mut self,
        frame: ScopeRef,
        body: impl FnOnce(&mut Interp) -> Result<T, Flow>,
    ) -> Result<T, Flow> {
        let saved = self.scope.replace(frame);
        let result = body(self);
        if let Some(frame) = std::mem::replace(&mut self.scope, saved) {
            Scope::release(frame);
        }
        result
    }

    /// The current local frame, if any.
    pub fn current_scope(&self) -> Option<ScopeRef> {
        self.scope.clone()
    }

    /// Evaluates `expr` with `end` meaning `n`.
    pub fn with_end(&mut self, n: usize, expr: &Expr) -> EvalResult {
        self.end_stack.push(n);
        let result = self.eval(expr);
        self.end_stack.pop();
        result
    }
}
