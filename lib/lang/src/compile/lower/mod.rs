//! Lowering a method to machine code for given argument types: scopes resolved to registers,
//! every expression typed, calls resolved, control flow turned into jumps.
//!
//! The scope rules are the evaluator's, decided statically: a loop has one frame for all its
//! iterations (its variable and the names its body creates live there), `if` has none, and an
//! assignment writes to the nearest frame holding the name or creates it in the innermost one.
//! A name created on some paths of a branch only, a read of a name no frame holds yet (a
//! global), or a variable assigned values of two types is outside the tier: the method stays
//! interpreted. A recursive call needs the method's own result type before it is known; the
//! lowering guesses it and keeps the guess only when the method turns out to return it.

mod arrays;
mod calls;
mod local_functions;
mod loops;

use super::machine::{Fn1, Fn2, Func, Op, Reg};
use super::{key, Compiled, Key, Ty};
use crate::eval::scope::ScopeRef;
use crate::eval::Interp;
use crate::value::{Closure, Value};
use difflab_syntax::{Arg, BinOp, Expr, ExprKind, Name, Pattern, UnaryOp};
use std::rc::Rc;

/// The method (or something it calls) is outside what the tier compiles.
struct Outside;

type Lowered<T> = Result<T, Outside>;

/// A local name, its register and its type.
type Local = (Name, Reg, Ty);

/// The most instructions one compilation may emit (a runaway guard, far above real methods).
const BUDGET: usize = 1 << 16;

/// The most numbers of its frames a closure may read and still compile (each is a
/// parameter, looked up at every call).
const MAX_CAPTURES: usize = 8;

/// A typed expression result: a register and its type, or `None` for an expression after
/// which control never continues (`return`, `break`, `continue`).
#[derive(Clone, Copy)]
struct Val {
    reg: Reg,
    ty: Option<Ty>,
}

impl Val {
    /// The register and type of a value that is used.
    fn get(self) -> Lowered<(Reg, Ty)> {
        self.ty.map(|t| (self.reg, t)).ok_or(Outside)
    }
}

/// A method being compiled, with the result type guessed for its recursive calls.
struct Pending {
    key: Key,
    func: usize,
    guess: Ty,
    guess_used: bool,
}

/// One compilation: the methods in progress and what was added, to take back on failure.
struct Compilation<'a> {
    interp: &'a Interp,
    compiled: &'a mut Compiled,
    pending: Vec<Pending>,
    added: Vec<Key>,
    emitted: usize,
    /// A number of a closure's captured frames its body read, found by the lowering that
    /// failed: the next attempt takes it as a parameter.
    discovered: Option<(Name, Ty)>,
}

/// Runs `lower` with a compilation of `interp`'s compiled methods, counting the methods it
/// compiled.
fn compiling<T>(interp: &mut Interp, lower: impl FnOnce(&mut Compilation) -> T) -> T {
    let mut compiled = std::mem::take(&mut interp.compiled);
    let mut compilation = Compilation {
        interp: &*interp,
        compiled: &mut compiled,
        pending: Vec::new(),
        added: Vec::new(),
        emitted: 0,
        discovered: None,
    };
    let result = lower(&mut compilation);
    let added = std::mem::take(&mut compilation.added);
    compiled.compilations += added
        .iter()
        .filter(|k| compiled.index.get(*k).is_some_and(Option::is_some))
        .count();
    interp.compiled = compiled;
    result
}

/// Compiles `method` for arguments of `types`; the function's index, or `None` when it is
/// outside the tier (remembered, so the next call does not try again).
pub(super) fn compile(interp: &mut Interp, method: &Rc<Closure>, types: &[Ty]) -> Option<usize> {
    compiling(interp, |c| c.specialize(method, types).ok().map(|(f, _)| f))
}

impl Compilation<'_> {
    /// The function of `method` for `types`, compiling it if needed, and its result type.
    fn specialize(&mut self, method: &Rc<Closure>, types: &[Ty]) -> Lowered<(usize, Ty)> {
        let key = key(method, types);
        if let Some(p) = self.pending.iter_mut().find(|p| p.key == key) {
            p.guess_used = true;
            return Ok((p.func, p.guess));
        }
        if let Some(entry) = self.compiled.index.get(&key) {
            let func = entry.ok_or(Outside)?;
            return Ok((func, self.compiled.funcs[func].returns));
        }
        let result = self.try_guesses(method, types, &key);
        if result.is_err() {
            self.compiled.index.insert(key.clone(), None);
            self.added.push(key);
            self.compiled.methods.push(method.def.clone());
        }
        result
    }

    fn try_guesses(
        &mut self,
        method: &Rc<Closure>,
        types: &[Ty],
        key: &Key,
    ) -> Lowered<(usize, Ty)> {
        if !compilable(method, types.len()) {
            return Err(Outside);
        }
        // The numbers of a closure's frames that its body reads, passed after its parameters.
        let mut captures: Vec<(Name, Ty)> = Vec::new();
        for guess in [Ty::Int, Ty::Float, Ty::Bool, Ty::Nothing] {
            loop {
                let (funcs, added) = (self.compiled.funcs.len(), self.added.len());
                self.compiled.funcs.push(Func {
                    parameters: (types.len() + captures.len()) as u32,
                    code: Vec::new(),
                    constants: Vec::new(),
                    registers: 0,
                    returns: guess,
                    writes: false,
                    outer_names: Vec::new(),
                    captures: Vec::new(),
                });
                self.compiled.index.insert(key.clone(), Some(funcs));
                self.added.push(key.clone());
                self.pending.push(Pending {
                    key: key.clone(),
                    func: funcs,
                    guess,
                    guess_used: false,
                });
                self.discovered = None;
                let lowered = Lowerer::new(self).method(method, types, &captures);
                let pending = self.pending.pop().expect("pushed above");
                match lowered {
                    Ok(func) if !pending.guess_used || func.returns == guess => {
                        let returns = func.returns;
                        self.compiled.funcs[funcs] = func;
                        self.compiled.methods.push(method.def.clone());
                        return Ok((funcs, returns));
                    }
                    _ => {
                        self.compiled.funcs.truncate(funcs);
                        for k in self.added.drain(added..) {
                            self.compiled.index.remove(&k);
                        }
                        match self.discovered.take() {
                            Some(capture) if captures.len() < MAX_CAPTURES => {
                                captures.push(capture);
                                continue;
                            }
                            _ if !pending.guess_used => return Err(Outside),
                            _ => break,
                        }
                    }
                }
            }
        }
        Err(Outside)
    }
}

/// The type of `f(x)` for an `x` of type `x`, as the evaluator answers it.
fn result_type1(f: Fn1, x: Ty) -> Lowered<Ty> {
    f.apply(&x.sample())
        .ok()
        .as_ref()
        .and_then(Ty::of)
        .ok_or(Outside)
}

/// The type of `f(x, y)` for arguments of types `x` and `y`, as the evaluator answers it.
fn result_type2(f: Fn2, x: Ty, y: Ty) -> Lowered<Ty> {
    f.apply(&x.sample(), &y.sample())
        .ok()
        .as_ref()
        .and_then(Ty::of)
        .ok_or(Outside)
}

/// A top-level loop compiled as a method of no parameters, and the globals it uses.
pub(super) struct TopLevelLoop {
    pub func: Func,
    pub globals: Vec<Local>,
}

/// Compiles a top-level `for` or `while` loop (`expr`), or `None` when it is outside the tier.
/// The methods it calls are compiled (and kept) on the way.
pub(super) fn compile_loop(interp: &mut Interp, expr: &Expr) -> Option<TopLevelLoop> {
    compiling(interp, |c| {
        let mut lowerer = Lowerer::new(c);
        lowerer.top_level = true;
        lowerer.top_level_loop(expr).ok()
    })
}

/// Whether a method's shape is one the tier compiles: positional parameters that are plain
/// names, no defaults, varargs, keywords or type variables (their names are locals the
/// evaluator binds at each call). A closure compiles too, as long as the frames it captured
/// bind none of the names its body reads or creates ([`Lowerer::outer`]).
fn compilable(method: &Closure, arity: usize) -> bool {
    let def = &method.def;
    def.callable.is_none()
        && def.kwparams.is_empty()
        && def.type_vars.is_empty()
        && def.return_type.is_none()
        && def.params.len() == arity
        && def
            .params
            .iter()
            .all(|p| !p.vararg && p.default.is_none() && matches!(p.pattern, Pattern::Name(_)))
}

/// The jumps out of a loop being lowered, patched when its end is known.
#[derive(Default)]
struct LoopExits {
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

/// The lowering of one method body.
struct Lowerer<'c, 'a> {
    compilation: &'c mut Compilation<'a>,
    code: Vec<Op>,
    registers: u32,
    /// Frames of local names, innermost last.
    scopes: Vec<Vec<Local>>,
    /// Names created on some paths only: using them again is outside the tier.
    unsure: Vec<Name>,
    /// Registers to reuse for names a branch creates that an earlier branch created too.
    branch_names: Vec<Local>,
    loops: Vec<LoopExits>,
    returns: Option<Ty>,
    constants: Vec<(Reg, u64)>,
    /// The register the last instruction wrote when it is a fresh temporary, which an
    /// assignment can take over instead of copying it.
    temporary: Option<Reg>,
    /// Lowering top-level code, whose outermost frame is the globals.
    top_level: bool,
    /// The globals top-level code uses, in the registers that hold them.
    globals: Vec<Local>,
    /// What `end` means in the indices being lowered, innermost last: an array's register and
    /// the dimension (0 for a linear index).
    ends: Vec<(Reg, u8)>,
    /// Whether the method (or one it calls) writes into arrays.
    writes: bool,
    /// Anonymous functions bound to local names, lowered in place where they are called.
    local_functions: Vec<local_functions::LocalFunction>,
    /// The local functions whose bodies are being lowered, innermost last.
    inlining: Vec<local_functions::Inlining>,
    /// How many branches (`if`, `?:`, `&&`, `||`) enclose the code being lowered.
    conditional: u32,
    /// The frames a closure being lowered captured (`None` for a top-level method).
    captured: Option<ScopeRef>,
    /// The names the body reads from outside its locals or creates ([`Func::outer_names`]).
    outer_names: Vec<Name>,
    /// The registers of a closure's captured numbers (read-only: assigning one would have
    /// to write its frame).
    capture_registers: Vec<Reg>,
}

impl<'c, 'a> Lowerer<'c, 'a> {
    fn new(compilation: &'c mut Compilation<'a>) -> Self {
        Lowerer {
            compilation,
            code: Vec::new(),
            registers: 0,
            scopes: vec![Vec::new()],
            unsure: Vec::new(),
            branch_names: Vec::new(),
            loops: Vec::new(),
            returns: None,
            constants: Vec::new(),
            temporary: None,
            top_level: false,
            globals: Vec::new(),
            ends: Vec::new(),
            writes: false,
            local_functions: Vec::new(),
            inlining: Vec::new(),
            conditional: 0,
            captured: None,
            outer_names: Vec::new(),
            capture_registers: Vec::new(),
        }
    }

    /// Lowers `method` for arguments of `types`; a closure's `captures` (numbers of its
    /// frames the body reads) are parameters after them, which the body may not assign.
    fn method(mut self, method: &Closure, types: &[Ty], captures: &[(Name, Ty)]) -> Lowered<Func> {
        self.captured = method.scope.clone();
        for (param, &ty) in method.def.params.iter().zip(types) {
            let Pattern::Name(name) = param.pattern else {
                return Err(Outside);
            };
            let reg = self.register();
            self.scopes[0].push((name, reg, ty));
        }
        for &(name, ty) in captures {
            let reg = self.register();
            self.scopes[0].push((name, reg, ty));
            self.capture_registers.push(reg);
        }
        let value = self.block(&method.def.body, true)?;
        if let Some(ty) = value.ty {
            self.unify_return(ty)?;
            self.emit(Op::Return { src: value.reg })?;
        }
        Ok(Func {
            parameters: (types.len() + captures.len()) as u32,
            code: self.code,
            constants: self.constants,
            registers: self.registers,
            returns: self.returns.ok_or(Outside)?,
            writes: self.writes,
            outer_names: self.outer_names,
            captures: captures.to_vec(),
        })
    }

    fn top_level_loop(mut self, expr: &Expr) -> Lowered<TopLevelLoop> {
        if !matches!(expr.kind, ExprKind::For { .. } | ExprKind::While { .. }) {
            return Err(Outside);
        }
        let value = self.expr(expr, false)?;
        self.emit(Op::Return { src: value.reg })?;
        // The loop keeps the globals it uses in registers until it ends, while a compiled
        // method took its number as a constant: it would not see the loop change it.
        let compiled = &self.compilation.compiled;
        if self.globals.iter().any(|&(name, ..)| compiled.took(name)) {
            return Err(Outside);
        }
        Ok(TopLevelLoop {
            func: Func {
                parameters: 0,
                code: self.code,
                constants: self.constants,
                registers: self.registers,
                returns: Ty::Nothing,
                writes: self.writes,
                outer_names: self.outer_names,
                captures: Vec::new(),
            },
            globals: self.globals,
        })
    }

    fn register(&mut self) -> Reg {
        self.registers += 1;
        self.registers - 1
    }

    fn emit(&mut self, op: Op) -> Lowered<usize> {
        self.compilation.emitted += 1;
        if self.compilation.emitted > BUDGET {
            return Err(Outside);
        }
        self.temporary = None;
        self.code.push(op);
        Ok(self.code.len() - 1)
    }

    /// Points the jump at `at` to the next instruction.
    fn patch(&mut self, at: usize) {
        let here = self.code.len();
        match &mut self.code[at] {
            Op::Jump { to }
            | Op::JumpUnless { to, .. }
            | Op::Loop { to }
            | Op::ForEnter { exit: to, .. } => *to = here,
            _ => unreachable!("only jumps are patched"),
        }
    }

    fn unify_return(&mut self, ty: Ty) -> Lowered<()> {
        match self.returns {
            Some(t) if t != ty => Err(Outside),
            _ => {
                self.returns = Some(ty);
                Ok(())
            }
        }
    }

    /// A constant: a register every call's frame starts with it in, never written.
    fn constant(&mut self, v: &Value) -> Lowered<Val> {
        let (bits, ty) = super::machine::unboxed(v).ok_or(Outside)?;
        let reg = match self.constants.iter().find(|(_, b)| *b == bits) {
            Some(&(reg, _)) => reg,
            None => {
                let reg = self.register();
                self.constants.push((reg, bits));
                reg
            }
        };
        Ok(Val { reg, ty: Some(ty) })
    }

    fn local(&mut self, name: Name) -> Lowered<Option<(Reg, Ty)>> {
        // A local function's name read as a value, assigned or shadowed.
        if self.unsure.contains(&name) || self.names_local_function(name) {
            return Err(Outside);
        }
        let found = self
            .scopes
            .iter()
            .enumerate()
            .rev()
            .find_map(|(depth, frame)| {
                let &(_, reg, ty) = frame.iter().rev().find(|(n, ..)| *n == name)?;
                Some((depth, reg, ty))
            });
        if let Some((depth, reg, _)) = found {
            if !self.sees(depth, name, reg) {
                return Err(Outside);
            }
        }
        let found = found.map(|(_, reg, ty)| (reg, ty));
        if found.is_some() || !self.top_level {
            return Ok(found);
        }
        // Top-level code: a global number becomes a register of the outermost frame, loaded
        // before the run and stored after it.
        let Some(ty) = self.compilation.interp.global(name).and_then(Ty::of) else {
            return Ok(None);
        };
        if ty == Ty::Nothing {
            return Ok(None);
        }
        let reg = self.register();
        self.scopes[0].push((name, reg, ty));
        self.globals.push((name, reg, ty));
        Ok(Some((reg, ty)))
    }

    fn block(&mut self, block: &[Expr], want: bool) -> Lowered<Val> {
        let Some((last, rest)) = block.split_last() else {
            return self.constant(&Value::Nothing);
        };
        for e in rest {
            if self.expr(e, false)?.ty.is_none() {
                // Nothing after this runs; the rest is dead code.
                return Ok(Val { reg: 0, ty: None });
            }
        }
        self.expr(last, want)
    }

    fn expr(&mut self, expr: &Expr, want: bool) -> Lowered<Val> {
        match &expr.kind {
            ExprKind::Int(i) => self.constant(&Value::Int(*i)),
            ExprKind::Float(x) => self.constant(&Value::Float(*x)),
            ExprKind::Bool(b) => self.constant(&Value::Bool(*b)),
            ExprKind::Nothing => self.constant(&Value::Nothing),
            ExprKind::Ident(name) => self.ident(*name),
            ExprKind::Block(b) => self.block(b, want),
            ExprKind::Index { target, indices } => self.index(target, indices),
            ExprKind::End => {
                let &(array, dim) = self.ends.last().ok_or(Outside)?;
                self.size(array, dim)
            }
            ExprKind::Binary {
                op,
                dotted: false,
                lhs,
                rhs,
            } => {
                let a = self.expr(lhs, true)?.get()?;
                let b = self.expr(rhs, true)?.get()?;
                self.binary(*op, a, b)
            }
            ExprKind::Unary {
                op,
                dotted: false,
                operand,
            } => {
                let a = self.expr(operand, true)?.get()?;
                self.unary(*op, a)
            }
            ExprKind::And(a, b) => self.short_circuit(a, b, true),
            ExprKind::Or(a, b) => self.short_circuit(a, b, false),
            ExprKind::Ternary {
                cond,
                then,
                otherwise,
            } => {
                let branches = [(cond.as_ref(), std::slice::from_ref(then.as_ref()))];
                self.branches(
                    &branches,
                    Some(std::slice::from_ref(otherwise.as_ref())),
                    want,
                )
            }
            ExprKind::If {
                branches,
                otherwise,
            } => {
                let branches: Vec<(&Expr, &[Expr])> =
                    branches.iter().map(|(c, b)| (c, b.as_slice())).collect();
                self.branches(&branches, otherwise.as_deref(), want)
            }
            ExprKind::Call {
                callee,
                args,
                kwargs,
                dotted: false,
            } if kwargs.is_empty() => match callee.kind {
                ExprKind::Ident(name) => self.call(name, args),
                _ => Err(Outside),
            },
            ExprKind::Assign {
                target,
                op,
                dotted: false,
                value,
            } => {
                let name = match &target.kind {
                    ExprKind::Ident(name) => match (&value.kind, op) {
                        (ExprKind::Lambda(def), None) => {
                            return self.define_local_function(*name, def, want)
                        }
                        _ => *name,
                    },
                    ExprKind::Index {
                        target: array,
                        indices,
                    } => return self.store(array, indices, *op, value),
                    ExprKind::Tuple(names) if op.is_none() && !want => {
                        return self.destructure(names, value)
                    }
                    _ => return Err(Outside),
                };
                let v = self.expr(value, true)?.get()?;
                let v = match op {
                    Some(op) => {
                        let old = self.local(name)?.ok_or(Outside)?;
                        self.binary(*op, old, v)?.get()?
                    }
                    None => v,
                };
                self.assign(name, v)
            }
            // `return` at top level ends the input, in a local function's body the closure's
            // call: the evaluator's business.
            ExprKind::Return(_) if self.top_level || self.inlining() => Err(Outside),
            ExprKind::Return(value) => {
                let v = match value {
                    Some(e) => self.expr(e, true)?,
                    None => self.constant(&Value::Nothing)?,
                };
                if let Some(ty) = v.ty {
                    self.unify_return(ty)?;
                    self.emit(Op::Return { src: v.reg })?;
                }
                Ok(Val { reg: 0, ty: None })
            }
            ExprKind::Declare {
                global: true,
                bindings,
            } if self.top_level => {
                for (name, value) in bindings {
                    self.declare_global(*name, value.as_ref())?;
                }
                self.constant(&Value::Nothing)
            }
            ExprKind::For { generators, body } => self.for_loop(generators, body),
            ExprKind::While { cond, body } => self.while_loop(cond, body),
            ExprKind::Break | ExprKind::Continue => {
                let jump = self.emit(Op::Jump { to: 0 })?;
                let exits = self.loops.last_mut().ok_or(Outside)?;
                if matches!(expr.kind, ExprKind::Break) {
                    exits.breaks.push(jump);
                } else {
                    exits.continues.push(jump);
                }
                Ok(Val { reg: 0, ty: None })
            }
            _ => Err(Outside),
        }
    }

    /// A name read: a local, or a numeric constant of the library (`π`, `Inf`).
    fn ident(&mut self, name: Name) -> Lowered<Val> {
        if let Some((reg, ty)) = self.local(name)? {
            return Ok(Val { reg, ty: Some(ty) });
        }
        self.note_capture(name);
        self.outer(name)?;
        let interp = self.compilation.interp;
        match interp.global(name) {
            // A global number (`const N = 64`) is a constant of the method; binding the global
            // again forgets the method (`Compiled::took`).
            Some(v @ (Value::Int(_) | Value::Float(_) | Value::Bool(_)))
                if !self.top_level && !self.compilation.compiled.changing.contains(&name) =>
            {
                self.compilation.compiled.taken.insert(name);
                return self.constant(v);
            }
            Some(_) => return Err(Outside),
            None if crate::builtins::lookup(name).is_some() => return Err(Outside),
            None => {}
        }
        match crate::builtins::constant(name.as_str()) {
            Some(v @ (Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Nothing)) => {
                self.constant(&v)
            }
            _ => Err(Outside),
        }
    }

    /// `global x` or `global x = v` in a top-level loop: `x` must be a global number already
    /// (and no local of the loop).
    fn declare_global(&mut self, name: Name, value: Option<&Expr>) -> Lowered<()> {
        if self.scopes[1..].iter().flatten().any(|(n, ..)| *n == name) {
            return Err(Outside);
        }
        let (reg, ty) = self.local(name)?.ok_or(Outside)?;
        if let Some(e) = value {
            match self.expr(e, true)?.get()? {
                (src, t) if t == ty => {
                    self.emit(Op::Move { dst: reg, src })?;
                }
                _ => return Err(Outside),
            }
        }
        Ok(())
    }

    fn assign(&mut self, name: Name, (src, ty): (Reg, Ty)) -> Lowered<Val> {
        let dst = match self.local(name)? {
            Some((reg, _)) if self.capture_registers.contains(&reg) => return Err(Outside),
            Some((reg, t)) if t == ty => reg,
            Some(_) => return Err(Outside),
            // At top level, assigning a global the loop does not hold in a register (an
            // array, a string, a function) rebinds the global, as in Julia's soft scope; only
            // the evaluator does that.
            None if self.top_level && self.compilation.interp.global(name).is_some() => {
                return Err(Outside)
            }
            None => {
                // A closure assigning a name its captured frames hold writes theirs.
                self.outer(name)?;
                self.create(name, ty)
            }
        };
        if self.temporary == Some(src) {
            self.code
                .last_mut()
                .expect("it wrote the temporary")
                .retarget(dst);
            self.temporary = None;
        } else {
            self.emit(Op::Move { dst, src })?;
        }
        Ok(Val {
            reg: dst,
            ty: Some(ty),
        })
    }

    /// `a, b = x, y` as a statement: every value first (so `a, b = b, a` swaps), then the
    /// names.
    fn destructure(&mut self, names: &[Arg], value: &Expr) -> Lowered<Val> {
        let ExprKind::Tuple(values) = &value.kind else {
            return Err(Outside);
        };
        if values.len() != names.len() {
            return Err(Outside);
        }
        let mut computed = Vec::with_capacity(values.len());
        for (name, v) in names.iter().zip(values) {
            // Not splats, and not a named tuple's `name = value` elements.
            let plain = |a: &Arg| !a.splat && !matches!(a.value.kind, ExprKind::Assign { .. });
            let (ExprKind::Ident(name), true, true) = (&name.value.kind, plain(name), plain(v))
            else {
                return Err(Outside);
            };
            let (reg, ty) = self.expr(&v.value, true)?.get()?;
            let copy = self.register();
            self.emit(Op::Move {
                dst: copy,
                src: reg,
            })?;
            computed.push((*name, (copy, ty)));
        }
        for (name, v) in computed {
            self.assign(name, v)?;
        }
        self.constant(&Value::Nothing)
    }

    /// A new local in the innermost frame (in the register an earlier branch gave it).
    fn create(&mut self, name: Name, ty: Ty) -> Reg {
        let reg = match self
            .branch_names
            .iter()
            .find(|(n, _, t)| *n == name && *t == ty)
        {
            Some(&(_, reg, _)) => reg,
            None => self.register(),
        };
        self.scopes
            .last_mut()
            .expect("a method has a frame")
            .push((name, reg, ty));
        reg
    }

    /// Converts an `Int` or `Bool` to `Float64`.
    fn float(&mut self, (reg, ty): (Reg, Ty)) -> Lowered<Reg> {
        match ty {
            Ty::Float => Ok(reg),
            Ty::Int | Ty::Bool => {
                let dst = self.register();
                self.emit(Op::IntToFloat { dst, src: reg })?;
                Ok(dst)
            }
            Ty::Nothing | Ty::Array { .. } => Err(Outside),
        }
    }

    fn binary(&mut self, op: BinOp, a: (Reg, Ty), b: (Reg, Ty)) -> Lowered<Val> {
        if !a.1.is_scalar() || !b.1.is_scalar() {
            return Err(Outside);
        }
        // The result type is the evaluator's own answer for values of these types.
        let out = result_type2(Fn2::Operator(op), a.1, b.1)?;
        let dst = self.register();
        let integral = |t: Ty| matches!(t, Ty::Int | Ty::Bool);
        let ints = integral(a.1) && integral(b.1);
        let constant = |reg: Reg| self.constants.iter().find(|(r, _)| *r == reg).map(|c| c.1);
        let two = match b.1 {
            Ty::Int => constant(b.0) == Some(2),
            Ty::Float => constant(b.0) == Some(2f64.to_bits()),
            _ => false,
        };
        let op = match op {
            // `x^2` of a `Float64` is `x * x`, as the evaluator computes it; of an `Int`, the
            // wrapping product, as Julia's (and the evaluator's) power of integers is.
            BinOp::Pow if a.1 == Ty::Float && two => Op::MulF {
                dst,
                a: a.0,
                b: a.0,
            },
            BinOp::Pow if a.1 == Ty::Int && b.1 == Ty::Int && two => Op::MulI {
                dst,
                a: a.0,
                b: a.0,
            },
            BinOp::Add | BinOp::Sub | BinOp::Mul if ints => {
                let (a, b) = (a.0, b.0);
                match op {
                    BinOp::Add => Op::AddI { dst, a, b },
                    BinOp::Sub => Op::SubI { dst, a, b },
                    _ => Op::MulI { dst, a, b },
                }
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                let (a, b) = (self.float(a)?, self.float(b)?);
                match op {
                    BinOp::Add => Op::AddF { dst, a, b },
                    BinOp::Sub => Op::SubF { dst, a, b },
                    BinOp::Mul => Op::MulF { dst, a, b },
                    _ => Op::DivF { dst, a, b },
                }
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge if ints => {
                Op::CmpI {
                    op,
                    dst,
                    a: a.0,
                    b: b.0,
                }
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let (a, b) = (self.float(a)?, self.float(b)?);
                Op::CmpF { op, dst, a, b }
            }
            _ => Op::Apply2 {
                f: Fn2::Operator(op),
                dst,
                a,
                b,
                out,
            },
        };
        self.emit(op)?;
        self.temporary = Some(dst);
        Ok(Val {
            reg: dst,
            ty: Some(out),
        })
    }

    fn unary(&mut self, op: UnaryOp, a: (Reg, Ty)) -> Lowered<Val> {
        if !a.1.is_scalar() {
            return Err(Outside);
        }
        let out = result_type1(Fn1::Operator(op), a.1)?;
        let dst = self.register();
        if op == UnaryOp::Not {
            self.emit(Op::Not { dst, src: a.0 })?;
        } else {
            self.emit(Op::Apply1 {
                f: Fn1::Operator(op),
                dst,
                src: a,
                out,
            })?;
        }
        self.temporary = Some(dst);
        Ok(Val {
            reg: dst,
            ty: Some(out),
        })
    }

    /// A condition, which must be a `Bool` (anything else is the evaluator's `TypeError`).
    fn condition(&mut self, cond: &Expr) -> Lowered<Reg> {
        let frame = self.scopes.last().map_or(0, Vec::len);
        match self.expr(cond, true)?.get()? {
            (reg, Ty::Bool) if self.scopes.last().map_or(0, Vec::len) == frame => Ok(reg),
            _ => Err(Outside),
        }
    }

    /// `a && b` (`and`) or `a || b`: `b` runs only when `a` does not decide.
    fn short_circuit(&mut self, a: &Expr, b: &Expr, and: bool) -> Lowered<Val> {
        let cond = self.condition(a)?;
        let dst = self.register();
        self.emit(Op::Move { dst, src: cond })?;
        let test = if and {
            cond
        } else {
            let negated = self.register();
            self.emit(Op::Not {
                dst: negated,
                src: cond,
            })?;
            negated
        };
        let skip = self.emit(Op::JumpUnless { cond: test, to: 0 })?;
        let (rhs, created) = self.branch(|l| l.condition(b))?;
        self.emit(Op::Move { dst, src: rhs })?;
        self.patch(skip);
        self.unsure.extend(created.iter().map(|(n, ..)| *n));
        Ok(Val {
            reg: dst,
            ty: Some(Ty::Bool),
        })
    }

    /// Lowers code that runs on some paths only, giving back the names it created in the
    /// innermost frame (taken out of it).
    fn branch<T>(
        &mut self,
        lower: impl FnOnce(&mut Self) -> Lowered<T>,
    ) -> Lowered<(T, Vec<Local>)> {
        let frame = self.scopes.last().map_or(0, Vec::len);
        self.conditional += 1;
        let value = lower(self);
        self.conditional -= 1;
        let value = value?;
        let created = self
            .scopes
            .last_mut()
            .expect("a method has a frame")
            .split_off(frame);
        Ok((value, created))
    }

    /// `if`/`elseif`/`else` and `c ? a : b`.
    fn branches(
        &mut self,
        branches: &[(&Expr, &[Expr])],
        otherwise: Option<&[Expr]>,
        want: bool,
    ) -> Lowered<Val> {
        let dst = self.register();
        let mut out: Option<Ty> = None;
        let mut ends = Vec::new();
        let mut created_per_branch = Vec::new();
        let saved_names = std::mem::take(&mut self.branch_names);
        let mut lower_body = |l: &mut Self, body: &[Expr], out: &mut Option<Ty>| -> Lowered<()> {
            let (value, created) = l.branch(|l| l.block(body, want))?;
            if let (true, Some(ty)) = (want, value.ty) {
                if out.is_some_and(|t| t != ty) {
                    return Err(Outside);
                }
                *out = Some(ty);
                l.emit(Op::Move {
                    dst,
                    src: value.reg,
                })?;
            }
            l.branch_names.extend(created.iter().copied());
            created_per_branch.push(created);
            Ok(())
        };
        for (cond, body) in branches {
            let c = self.condition(cond)?;
            let skip = self.emit(Op::JumpUnless { cond: c, to: 0 })?;
            lower_body(self, body, &mut out)?;
            ends.push(self.emit(Op::Jump { to: 0 })?);
            self.patch(skip);
        }
        match otherwise {
            Some(body) => lower_body(self, body, &mut out)?,
            None => {
                if want {
                    if out.is_some_and(|t| t != Ty::Nothing) {
                        return Err(Outside);
                    }
                    out = Some(Ty::Nothing);
                    self.emit(Op::Const { dst, bits: 0 })?;
                }
                created_per_branch.push(Vec::new());
            }
        }
        for end in ends {
            self.patch(end);
        }
        self.branch_names = saved_names;
        // A name every branch created (in the same register) exists after the branch;
        // others may or may not.
        let (first, rest) = created_per_branch
            .split_first()
            .expect("one branch at least");
        let mut all: Vec<Name> = first.iter().map(|(n, ..)| *n).collect();
        all.extend(rest.iter().flatten().map(|(n, ..)| *n));
        for name in all {
            let everywhere = created_per_branch
                .iter()
                .map(|c| c.iter().find(|(n, ..)| *n == name));
            let same: Option<Vec<_>> = everywhere.collect();
            match same {
                Some(found)
                    if found
                        .windows(2)
                        .all(|w| w[0].1 == w[1].1 && w[0].2 == w[1].2) =>
                {
                    let scope = self.scopes.last_mut().expect("a method has a frame");
                    if !scope.iter().any(|(n, ..)| *n == name) {
                        scope.push(*found[0]);
                    }
                }
                _ => self.unsure.push(name),
            }
        }
        Ok(Val {
            reg: dst,
            ty: if want { out } else { Some(Ty::Nothing) },
        })
    }
}
