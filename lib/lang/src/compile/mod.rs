//! The compile tier: methods that compute on plain numbers run as typed register code.
//!
//! When a user function is called with `Int`, `Float64` and `Bool` arguments and arrays of
//! plain numbers only, the method dispatch chose is compiled for exactly those argument types
//! (Julia's specialization), once:
//! [`lower`] resolves its locals to registers, infers the type of every expression, resolves
//! the functions it calls (user methods by dispatch on the inferred types, math builtins) and
//! emits [`machine`] instructions; calls of it then run on the machine. A method outside what
//! the compiler handles (arrays of numbers carrying derivatives, views, strings, closures,
//! printing, globals other than functions and numbers, a variable whose type changes) is
//! remembered as such and keeps running in the evaluator. Arrays are read and written in place
//! (`x[i]`, `A[i, j] = v`, `length`, `size`, `eachindex`, `axes`; [`arrays`]); a global number
//! a method reads is one of its constants, and binding that global again forgets it.
//!
//! The compiled code has no effects but its writes into arrays, which a trap puts back, so it
//! keeps the evaluator's guarantees by running again: an error, or the depth limit, makes the
//! call run once more in the evaluator, from the arrays as they were, which raises the error
//! with its spans and call trace (or `StackOverflowError`). Loops and calls look at the
//! interrupt flag. Defining a function or a method, extending a builtin, or binding a global
//! that shadows a builtin or a constant forgets every compiled method, since any of them may
//! have resolved a name to what it meant before.

mod arrays;
mod elementwise;
mod lower;
mod machine;
mod native;

use crate::error::EvalResult;
use crate::eval::scope::Scope;
use crate::eval::Interp;
use crate::show::ElType;
use crate::value::{Closure, Value};
use arrays::{ArrayArg, Arrays, Undo};
use difflab_syntax::FunctionDef;
use machine::{Func, Machine, Trap};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::rc::Rc;

/// The type of a register: the plain values compiled code computes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `Int64`.
    Int,
    /// `Float64`.
    Float,
    /// `Bool`.
    Bool,
    /// `nothing`.
    Nothing,
    /// An array of plain numbers with `dims` dimensions (at most [`arrays::MAX_DIMS`]), read
    /// in place: the register holds its place in the run's table of arrays.
    Array {
        /// The element type.
        el: ElType,
        /// The number of dimensions.
        dims: u8,
    },
}

impl Ty {
    /// A value of this type, for asking a function what type its result has (and which
    /// method takes it).
    fn sample(self) -> Value {
        match self {
            Ty::Int => Value::Int(1),
            Ty::Float => Value::Float(1.0),
            Ty::Bool => Value::Bool(true),
            Ty::Nothing => Value::Nothing,
            Ty::Array { el, dims } => {
                Value::Array(Rc::new(std::cell::RefCell::new(crate::value::Array::new(
                    el,
                    difflab_ad::Tensor::filled(&vec![1; dims.into()], 0.0),
                ))))
            }
        }
    }

    /// Whether registers of this type hold a number (or `nothing`), not an array.
    fn is_scalar(self) -> bool {
        !matches!(self, Ty::Array { .. })
    }

    /// The type of a value, if compiled code can hold it.
    fn of(v: &Value) -> Option<Ty> {
        machine::unboxed(v).map(|(_, t)| t)
    }
}

/// A method and the types of its arguments: what one compiled function is for.
/// A method (by address) and its arguments' types. Looked up at every call of a compiled
/// method from the evaluator (each element of `g.(x)` or `map(f, x)`), so it lives on the
/// stack for up to four arguments and hashes with a multiply per word, not SipHash.
type Key = (usize, SmallVec<[Ty; 4]>);

/// The compiled methods of a session.
#[derive(Default)]
pub struct Compiled {
    funcs: Vec<Func>,
    /// The function of each key, or `None` for a method that does not compile for its types.
    index: FxHashMap<Key, Option<usize>>,
    /// The definitions of the methods compiled or refused, kept alive so their addresses
    /// stay theirs. Keys name the definition, not the closure: every closure a lambda in a
    /// loop or a function makes shares its code.
    methods: Vec<Rc<FunctionDef>>,
    /// Above zero while a call runs again in the evaluator after a trap.
    pub(crate) suspended: u32,
    /// False turns the tier off (to compare it with the evaluator).
    pub enabled: bool,
    /// How many methods were compiled, ever ([`Compiled::count`]).
    compilations: usize,
    /// False runs compiled methods on the register machine instead of as machine code.
    pub native: bool,
    /// The machine code of the compiled methods (made when first needed; `None` also when
    /// the host has no code generator, and the register machine runs them).
    code: Option<native::Native>,
    /// How many times definitions made compiled code stale ([`Compiled::generation`]).
    generation: u64,
    /// Globals whose numbers compiled methods took as constants: binding one again forgets
    /// them ([`Compiled::took`]).
    taken: std::collections::HashSet<difflab_syntax::Name>,
    /// Globals bound again after a method took them: methods reading them stay interpreted,
    /// rather than being compiled again at every change (a global a loop updates).
    changing: std::collections::HashSet<difflab_syntax::Name>,
}

impl Compiled {
    /// A compile tier that is on.
    pub fn new() -> Compiled {
        Compiled {
            enabled: true,
            native: true,
            ..Compiled::default()
        }
    }

    /// How many methods (for each argument types they were called with) and top-level loops
    /// were compiled in this session, counting again those compiled after a definition made
    /// them forgotten.
    pub fn count(&self) -> usize {
        self.compilations
    }

    /// Changes whenever a definition may have changed what a call resolves to: what else
    /// keeps code made from calls (recordings of detections) compares it.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether a compiled method took the number in global `name` as a constant.
    pub fn took(&self, name: difflab_syntax::Name) -> bool {
        !self.taken.is_empty() && self.taken.contains(&name)
    }

    /// Notes that global `name`, which a compiled method took, was bound again, and forgets
    /// compiled code.
    pub fn rebound(&mut self, name: difflab_syntax::Name) {
        self.changing.insert(name);
        self.forget();
    }

    /// Forgets every compiled method (a definition changed what a call may resolve to).
    pub fn forget(&mut self) {
        self.generation += 1;
        self.taken.clear();
        if !self.index.is_empty() {
            self.funcs.clear();
            self.index.clear();
            self.methods.clear();
            if let Some(code) = self.code.take() {
                code.free();
            }
        }
    }
}

/// The key of `method` called with arguments of `types`.
fn key(method: &Closure, types: &[Ty]) -> Key {
    (
        Rc::as_ptr(&method.def) as usize,
        SmallVec::from_slice(types),
    )
}

impl Interp {
    /// Runs `method` on `args` as compiled code, or `None` when it does not compile for the
    /// arguments' types (or the tier is off, or a function is being recorded).
    pub(crate) fn run_compiled(
        &mut self,
        method: &Rc<Closure>,
        args: &[Value],
    ) -> Option<EvalResult> {
        if !self.compiled.enabled
            || self.compiled.suspended > 0
            || self.recording()
            || !args
                .iter()
                .all(|a| matches!(a, Value::Array(_)) || machine::unboxed(a).is_some())
        {
            return None;
        }
        let mut parameters: SmallVec<[u64; 4]> = SmallVec::with_capacity(args.len());
        let mut types: SmallVec<[Ty; 4]> = SmallVec::with_capacity(args.len());
        let mut arrays = Arrays::default();
        for a in args {
            let (bits, ty) = match machine::unboxed(a) {
                Some(scalar) => scalar,
                None => arrays.add(a)?,
            };
            parameters.push(bits);
            types.push(ty);
        }
        let func = self.function_for(method, &types)?;
        self.closure_arguments(method, func, &mut parameters, &mut arrays)?;
        let depth = self.config.max_depth.saturating_sub(self.depth() + 1);
        let outcome = {
            let mut borrowed = arrays.borrow(self.compiled.funcs[func].writes)?;
            let mut views: Vec<ArrayArg> = borrowed
                .iter_mut()
                .map(|b| b.view())
                .collect::<Option<_>>()?;
            let mut undo = Vec::new();
            let outcome = self.execute(func, &parameters, (&mut views, &mut undo), depth);
            // An error runs the call again as written: from the arrays as they were.
            if outcome == Err(Trap::Fallback) {
                arrays::undo(&mut views, &mut undo);
            }
            outcome
        };
        let returns = self.compiled.funcs[func].returns;
        match outcome {
            // The place came from the table (compiled code makes no arrays).
            Ok(place) if !returns.is_scalar() => {
                Some(Ok(arrays.value(place).unwrap_or(Value::Nothing)))
            }
            Ok(bits) => Some(Ok(machine::boxed(bits, returns))),
            Err(Trap::Interrupt) => Some(Err(self.interrupted())),
            Err(Trap::Fallback) => {
                self.compiled.suspended += 1;
                let result = self.run_method(method, args.to_vec(), Vec::new());
                self.compiled.suspended -= 1;
                Some(result)
            }
        }
    }

    /// Runs a top-level `for` or `while` loop compiled, on the register machine (it runs once,
    /// so it is not worth machine code; the methods it calls have theirs), or `None` when it
    /// is outside the tier or has to run as written. The globals it uses are loaded into
    /// registers and stored back when it ends (or is interrupted); an error or the depth
    /// limit runs it again, as written, from the start: until it ends it changed nothing.
    pub(crate) fn run_compiled_loop(&mut self, expr: &difflab_syntax::Expr) -> Option<EvalResult> {
        if !self.compiled.enabled || self.compiled.suspended > 0 || self.recording() {
            return None;
        }
        let compiled = lower::compile_loop(self, expr)?;
        self.compiled.compilations += 1;
        self.compiled.generate_code();
        let mut registers = compiled.func.frame(&[]);
        for &(name, reg, _) in &compiled.globals {
            registers[reg as usize] = self.global(name).and_then(machine::unboxed)?.0;
        }
        self.compiled.funcs.push(compiled.func);
        let func = self.compiled.funcs.len() - 1;
        let mut undo = Vec::new();
        let mut machine = Machine {
            funcs: &self.compiled.funcs,
            stack: registers,
            arrays: &mut [],
            undo: &mut undo,
            interrupt: &self.interrupt,
        };
        let depth = self.config.max_depth.saturating_sub(self.depth() + 1);
        let outcome = machine.run(func, 0, depth);
        let registers = machine.stack;
        self.compiled.funcs.pop();
        let store = |me: &mut Interp| {
            for &(name, reg, ty) in &compiled.globals {
                me.set_global(name, machine::boxed(registers[reg as usize], ty));
            }
        };
        match outcome {
            Ok(_) => {
                store(self);
                Some(Ok(Value::Nothing))
            }
            Err(Trap::Interrupt) => {
                store(self);
                Some(Err(self.interrupted()))
            }
            Err(Trap::Fallback) => None,
        }
    }

    /// Runs compiled method `func` on the register machine.
    /// The compiled function of `method` for `types`, compiling it on first use; `None`
    /// when it does not compile.
    fn function_for(&mut self, method: &Rc<Closure>, types: &[Ty]) -> Option<usize> {
        match self.compiled.index.get(&key(method, types)) {
            Some(entry) => *entry,
            None => {
                let func = lower::compile(self, method, types)?;
                self.compiled.generate_code();
                Some(func)
            }
        }
    }

    /// For a closure, checks that its compiled code `func` still holds for the frames it
    /// captured and appends the captured numbers it reads to `parameters` (the captured arrays
    /// it reads go into `arrays`, their places into `parameters`); `None` when it has to run
    /// in the evaluator. A top-level method needs nothing.
    fn closure_arguments(
        &self,
        method: &Closure,
        func: usize,
        parameters: &mut SmallVec<[u64; 4]>,
        arrays: &mut Arrays,
    ) -> Option<()> {
        let Some(scope) = &method.scope else {
            return Some(());
        };
        // Its code read its outer names as globals and builtins: right only while the
        // captured frames bind none of them.
        let compiled = &self.compiled.funcs[func];
        if compiled
            .outer_names
            .iter()
            .any(|&name| Scope::lookup(scope, name).is_some())
        {
            return None;
        }
        // Captured values (and global arrays) are read now, as the evaluator reads them at
        // each call.
        for &(name, ty) in &compiled.captures {
            let value = Scope::lookup(scope, name).or_else(|| self.global(name).cloned())?;
            match machine::unboxed(&value).or_else(|| arrays.add(&value)) {
                Some((bits, t)) if t == ty => parameters.push(bits),
                _ => return None,
            }
        }
        Some(())
    }

    /// Runs compiled function `func` as machine code, or on the register machine.
    fn execute(
        &self,
        func: usize,
        parameters: &[u64],
        arrays: (&mut [ArrayArg<'_>], &mut Vec<Undo>),
        depth: usize,
    ) -> Result<u64, Trap> {
        match &self.compiled.code {
            Some(code) if self.compiled.native && func < code.len() => {
                code.run(func, parameters, arrays, depth, &self.interrupt)
            }
            _ => self.run_on_machine(func, parameters, arrays, depth),
        }
    }

    /// Calls of compiled method `func` with numbers, many in a row (the loops of
    /// `elementwise`), reading the same `arrays` (a closure's captured ones) at every call:
    /// native code's entry and context are found and made once.
    fn calls<'a, 'x>(
        &'a self,
        func: usize,
        depth: usize,
        (arrays, undo): (&'a mut [ArrayArg<'x>], &'a mut Vec<Undo>),
    ) -> Calls<'a, 'x> {
        match &self.compiled.code {
            Some(code) if self.compiled.native && func < code.len() => {
                Calls::Native(code.calls(func, depth, &self.interrupt, (arrays, undo)))
            }
            _ => Calls::Machine {
                interp: self,
                func,
                depth,
                arrays,
                undo,
            },
        }
    }

    fn run_on_machine(
        &self,
        func: usize,
        parameters: &[u64],
        (arrays, undo): (&mut [ArrayArg<'_>], &mut Vec<Undo>),
        depth: usize,
    ) -> Result<u64, Trap> {
        let mut machine = Machine {
            funcs: &self.compiled.funcs,
            stack: self.compiled.funcs[func].frame(parameters),
            arrays,
            undo,
            interrupt: &self.interrupt,
        };
        machine.run(func, 0, depth)
    }
}

impl Compiled {
    /// Machine code for the methods compiled since the last time, when the host has a code
    /// generator; the register machine runs them otherwise.
    fn generate_code(&mut self) {
        if !self.native {
            return;
        }
        if self.code.is_none() {
            self.code = native::Native::new();
        }
        if let Some(code) = &mut self.code {
            if !code.add(&self.funcs) {
                self.native = false;
            }
        }
    }
}

/// Calls of one compiled method on native code or the register machine, with the arrays
/// every call reads.
enum Calls<'a, 'x> {
    Native(native::Calls<'a>),
    Machine {
        interp: &'a Interp,
        func: usize,
        depth: usize,
        arrays: &'a mut [ArrayArg<'x>],
        undo: &'a mut Vec<Undo>,
    },
}

impl Calls<'_, '_> {
    fn call(&mut self, parameters: &[u64]) -> Result<u64, Trap> {
        match self {
            Calls::Native(calls) => calls.call(parameters),
            Calls::Machine {
                interp,
                func,
                depth,
                arrays,
                undo,
            } => interp.run_on_machine(*func, parameters, (arrays, undo), *depth),
        }
    }
}
