//! The register machine that runs compiled methods: typed instructions over unboxed numbers.
//!
//! A register holds the bits of an `Int` (`i64`), a `Float64` (`f64::to_bits`), a `Bool`
//! (0 or 1) or `nothing` (0). Which one is known when the method is compiled, so no instruction
//! looks at a tag. Arithmetic that is hot in scalar code (`+ - * /` and comparisons) has
//! instructions of its own; everything else ([`Fn1`], [`Fn2`]) calls the evaluator's own
//! scalar functions on values built on the stack, so the two tiers cannot disagree. Any error is a [`Trap::Fallback`]: the caller runs the call
//! again in the interpreter, which raises it with the user's spans and call trace.

use super::arrays::{ArrayArg, Undo, MAX_DIMS};
use super::Ty;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult};
use crate::eval::operators;
use crate::show::ElType;
use crate::value::Value;
use difflab_ad::ops::{BinaryFn, UnaryFn};
use difflab_syntax::{BinOp, Name, UnaryOp};
use std::sync::atomic::{AtomicBool, Ordering};

/// A register number, local to a method's frame.
pub type Reg = u32;

/// One instruction.
#[derive(Debug, Clone)]
pub enum Op {
    /// `dst = bits`.
    Const {
        dst: Reg,
        bits: u64,
    },
    /// `dst = src`.
    Move {
        dst: Reg,
        src: Reg,
    },
    /// `dst = Float64(src)` of an `Int` or a `Bool`.
    IntToFloat {
        dst: Reg,
        src: Reg,
    },
    /// Wrapping `Int` arithmetic.
    AddI {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    SubI {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    MulI {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `Float64` arithmetic.
    AddF {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    SubF {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    MulF {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    DivF {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// A comparison of two `Int`s (compared as the interpreter does, through `Float64`).
    CmpI {
        op: BinOp,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// A comparison of two `Float64`s.
    CmpF {
        op: BinOp,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `!b` of a `Bool`.
    Not {
        dst: Reg,
        src: Reg,
    },
    /// Any other function of one number, as the evaluator computes it.
    Apply1 {
        f: Fn1,
        dst: Reg,
        src: (Reg, Ty),
        out: Ty,
    },
    /// Any other function of two numbers, as the evaluator computes it.
    Apply2 {
        f: Fn2,
        dst: Reg,
        a: (Reg, Ty),
        b: (Reg, Ty),
        out: Ty,
    },
    /// The number of elements of the range `start:step:stop` of `Int`s.
    RangeLength {
        dst: Reg,
        start: Reg,
        step: Reg,
        stop: Reg,
    },
    /// Enters a loop over a range: to `exit` when it is empty, else its first element.
    ForEnter {
        counter: Counter,
        exit: usize,
    },
    /// The next element of a loop's range and back to `body`, or on when there is none.
    ForNext {
        counter: Counter,
        body: usize,
    },
    /// Go to instruction `to`.
    Jump {
        to: usize,
    },
    /// Go back to instruction `to` (a loop's next iteration: the interrupt flag is looked at).
    Loop {
        to: usize,
    },
    /// Go to `to` when the `Bool` in `cond` is false.
    JumpUnless {
        cond: Reg,
        to: usize,
    },
    /// Call compiled method `func` with the registers `args` as its parameters.
    Call {
        func: usize,
        args: Box<[Reg]>,
        dst: Reg,
    },
    /// `dst = array[at...]`: one index (linear) or one per dimension, 1-based; out of
    /// bounds is a fallback (the evaluator raises the `BoundsError`).
    Load {
        dst: Reg,
        array: Reg,
        at: Box<[Reg]>,
        el: ElType,
    },
    /// `array[at...] = src` (converted to the array's element type); out of bounds is a
    /// fallback.
    Store {
        array: Reg,
        at: Box<[Reg]>,
        src: Reg,
    },
    /// `dst = size(array, dim)` (1-based), or `length(array)` when `dim` is 0.
    Size {
        dst: Reg,
        array: Reg,
        dim: u8,
    },
    /// Return the value in `src`.
    Return {
        src: Reg,
    },
}

impl Op {
    /// Makes the instruction write `to` instead of its own destination.
    pub fn retarget(&mut self, to: Reg) {
        match self {
            Op::Const { dst, .. }
            | Op::Move { dst, .. }
            | Op::IntToFloat { dst, .. }
            | Op::AddI { dst, .. }
            | Op::SubI { dst, .. }
            | Op::MulI { dst, .. }
            | Op::AddF { dst, .. }
            | Op::SubF { dst, .. }
            | Op::MulF { dst, .. }
            | Op::DivF { dst, .. }
            | Op::CmpI { dst, .. }
            | Op::CmpF { dst, .. }
            | Op::Not { dst, .. }
            | Op::Apply1 { dst, .. }
            | Op::Apply2 { dst, .. }
            | Op::RangeLength { dst, .. }
            | Op::Load { dst, .. }
            | Op::Size { dst, .. }
            | Op::Call { dst, .. } => *dst = to,
            Op::Jump { .. }
            | Op::Loop { .. }
            | Op::JumpUnless { .. }
            | Op::Return { .. }
            | Op::Store { .. }
            | Op::ForEnter { .. }
            | Op::ForNext { .. } => {
                unreachable!("control flow writes no register")
            }
        }
    }
}

/// The registers of a loop over `start:step:…` with `length` elements: the count `k` of
/// elements done and the loop variable `var`, which is `start + k * step`.
#[derive(Debug, Clone, Copy)]
pub struct Counter {
    pub k: Reg,
    pub length: Reg,
    pub var: Reg,
    pub start: Reg,
    pub step: Reg,
}

/// A function of one number that has no instruction of its own.
#[derive(Debug, Clone, Copy)]
pub enum Fn1 {
    /// A unary operator (`-x`, `√x`).
    Operator(UnaryOp),
    /// A math builtin (`sin`, `exp`, `abs`, …).
    Math(UnaryFn),
}

impl Fn1 {
    /// `f(x)` as the evaluator computes it.
    pub fn apply(self, x: &Value) -> EvalResult {
        match self {
            Fn1::Operator(op) => crate::builtins::value_operators::unary(op, false, x),
            Fn1::Math(f) => crate::builtins::math::number_unary(f, x)
                .unwrap_or_else(|| Err(fail(ErrorKind::MethodError, f.name()))),
        }
    }
}

/// A function of two numbers that has no instruction of its own.
#[derive(Debug, Clone, Copy)]
pub enum Fn2 {
    /// A binary operator (`^`, `÷`, `%`, `&`, …).
    Operator(BinOp),
    /// `max` (`BinaryFn::Max`) or `min`.
    Extremum(BinaryFn),
}

impl Fn2 {
    /// `f(x, y)` as the evaluator computes it.
    pub fn apply(self, x: &Value, y: &Value) -> EvalResult {
        match self {
            Fn2::Operator(op) => operators::scalar_binary(op, x, y)?
                .ok_or_else(|| fail(ErrorKind::MethodError, op.symbol())),
            Fn2::Extremum(f) => {
                let name = if f == BinaryFn::Max { "max" } else { "min" };
                crate::builtins::math::extremum(f, name, x, y, false)
            }
        }
    }
}

/// A compiled method: its instructions, how many registers its frame has (the parameters
/// first) and what it returns.
#[derive(Debug)]
pub struct Func {
    pub code: Vec<Op>,
    /// How many parameters it takes (in its first registers).
    pub parameters: u32,
    /// Registers holding constants, set when a frame is made.
    pub constants: Vec<(Reg, u64)>,
    pub registers: u32,
    pub returns: Ty,
    /// Whether it (or a method it calls) writes into arrays: its arrays are then borrowed
    /// for writing.
    pub writes: bool,
    /// The names its body reads from outside its own locals (globals, builtins, constants)
    /// or creates as locals: a closure's compiled code is right only while the frames it
    /// captured bind none of them (checked at every call, [`crate::Interp::run_compiled`]).
    pub outer_names: Vec<Name>,
    /// The numbers of a closure's captured frames its body reads, by name and the type it
    /// was compiled for: passed after the parameters, read from the frames at every call.
    pub captures: Vec<(Name, Ty)>,
}

impl Func {
    /// The registers of a call: the parameters, then zeros, with the constants in place.
    pub fn frame(&self, parameters: &[u64]) -> Vec<u64> {
        let mut registers = parameters.to_vec();
        registers.resize(self.registers as usize, 0);
        for &(reg, bits) in &self.constants {
            registers[reg as usize] = bits;
        }
        registers
    }
}

/// Why a compiled call stopped without a value.
#[derive(Debug, PartialEq, Eq)]
pub enum Trap {
    /// An interrupt was requested.
    Interrupt,
    /// An error or the depth limit: the interpreter runs the call again and reports it.
    Fallback,
}

/// The value in a register of type `ty`, boxed.
pub fn boxed(bits: u64, ty: Ty) -> Value {
    match ty {
        Ty::Int => Value::Int(bits as i64),
        Ty::Float => Value::Float(f64::from_bits(bits)),
        Ty::Bool => Value::Bool(bits != 0),
        // Arrays are returned by their place in the run's table (`Arrays::value`), and no
        // global holds one in a register: only numbers are boxed.
        Ty::Nothing | Ty::Array { .. } => Value::Nothing,
    }
}

/// The register bits of a number (`None` for a value no register holds).
pub fn unboxed(v: &Value) -> Option<(u64, Ty)> {
    Some(match v {
        Value::Int(i) => (*i as u64, Ty::Int),
        Value::Float(x) => (x.to_bits(), Ty::Float),
        Value::Bool(b) => (u64::from(*b), Ty::Bool),
        Value::Nothing => (0, Ty::Nothing),
        _ => return None,
    })
}

/// The bits of a result the compiler typed as `ty`; another type is a fallback (it cannot
/// happen for the functions the compiler calls, whose result types it asked them for).
pub fn expect(result: EvalResult, ty: Ty) -> Result<u64, Trap> {
    match result.ok().as_ref().and_then(unboxed) {
        Some((bits, t)) if t == ty => Ok(bits),
        _ => Err(Trap::Fallback),
    }
}

/// The number of elements of the range `start:step:stop` of `Int`s (a zero step is the
/// evaluator's error).
pub fn range_length(start: u64, step: u64, stop: u64) -> Result<u64, Trap> {
    if step == 0 {
        return Err(Trap::Fallback);
    }
    let n = crate::value::Range::int_len(start as i64, step as i64, stop as i64);
    Ok(i64::try_from(n).map_err(|_| Trap::Fallback)? as u64)
}

/// The registers of every running compiled call, and what a run may use.
pub struct Machine<'a, 'b> {
    pub funcs: &'a [Func],
    pub stack: Vec<u64>,
    /// The arrays the run reads and writes, by the places their registers hold.
    pub arrays: &'a mut [ArrayArg<'b>],
    /// What the run wrote, to put back if it traps.
    pub undo: &'a mut Vec<Undo>,
    pub interrupt: &'a AtomicBool,
}

impl Machine<'_, '_> {
    /// Runs method `func` whose frame starts at `base` (parameters already in place), with
    /// `depth` more nested calls allowed.
    pub fn run(&mut self, func: usize, base: usize, depth: usize) -> Result<u64, Trap> {
        let funcs = self.funcs;
        let f = &funcs[func];
        let mut pc = 0;
        loop {
            let op = &f.code[pc];
            pc += 1;
            let r = |m: &Machine, reg: Reg| m.stack[base + reg as usize];
            let f64_of = |m: &Machine, reg: Reg| f64::from_bits(m.stack[base + reg as usize]);
            let (dst, bits) = match op {
                Op::Const { dst, bits } => (*dst, *bits),
                Op::Move { dst, src } => (*dst, r(self, *src)),
                Op::IntToFloat { dst, src } => (*dst, (r(self, *src) as i64 as f64).to_bits()),
                Op::AddI { dst, a, b } => (
                    *dst,
                    (r(self, *a) as i64).wrapping_add(r(self, *b) as i64) as u64,
                ),
                Op::SubI { dst, a, b } => (
                    *dst,
                    (r(self, *a) as i64).wrapping_sub(r(self, *b) as i64) as u64,
                ),
                Op::MulI { dst, a, b } => (
                    *dst,
                    (r(self, *a) as i64).wrapping_mul(r(self, *b) as i64) as u64,
                ),
                Op::AddF { dst, a, b } => (*dst, (f64_of(self, *a) + f64_of(self, *b)).to_bits()),
                Op::SubF { dst, a, b } => (*dst, (f64_of(self, *a) - f64_of(self, *b)).to_bits()),
                Op::MulF { dst, a, b } => (*dst, (f64_of(self, *a) * f64_of(self, *b)).to_bits()),
                Op::DivF { dst, a, b } => (*dst, (f64_of(self, *a) / f64_of(self, *b)).to_bits()),
                Op::CmpI { op, dst, a, b } => {
                    let (x, y) = (r(self, *a) as i64 as f64, r(self, *b) as i64 as f64);
                    (*dst, u64::from(operators::compare(*op, x, y)))
                }
                Op::CmpF { op, dst, a, b } => (
                    *dst,
                    u64::from(operators::compare(*op, f64_of(self, *a), f64_of(self, *b))),
                ),
                Op::Not { dst, src } => (*dst, u64::from(r(self, *src) == 0)),
                Op::Apply1 { f, dst, src, out } => {
                    let x = boxed(r(self, src.0), src.1);
                    (*dst, expect(f.apply(&x), *out)?)
                }
                Op::Apply2 { f, dst, a, b, out } => {
                    let (x, y) = (boxed(r(self, a.0), a.1), boxed(r(self, b.0), b.1));
                    (*dst, expect(f.apply(&x, &y), *out)?)
                }
                Op::RangeLength {
                    dst,
                    start,
                    step,
                    stop,
                } => {
                    let length = range_length(r(self, *start), r(self, *step), r(self, *stop));
                    (*dst, length?)
                }
                Op::ForEnter { counter: c, exit } => {
                    if r(self, c.length) == 0 {
                        pc = *exit;
                    } else {
                        self.stack[base + c.var as usize] = r(self, c.start);
                    }
                    continue;
                }
                Op::ForNext { counter: c, body } => {
                    let k = r(self, c.k) + 1;
                    if k < r(self, c.length) {
                        if self.interrupt.load(Ordering::Relaxed) {
                            return Err(Trap::Interrupt);
                        }
                        let offset = (k as i64).wrapping_mul(r(self, c.step) as i64);
                        let var = (r(self, c.start) as i64).wrapping_add(offset);
                        self.stack[base + c.k as usize] = k;
                        self.stack[base + c.var as usize] = var as u64;
                        pc = *body;
                    }
                    continue;
                }
                Op::Jump { to } => {
                    pc = *to;
                    continue;
                }
                Op::Loop { to } => {
                    if self.interrupt.load(Ordering::Relaxed) {
                        return Err(Trap::Interrupt);
                    }
                    pc = *to;
                    continue;
                }
                Op::JumpUnless { cond, to } => {
                    if r(self, *cond) == 0 {
                        pc = *to;
                    }
                    continue;
                }
                Op::Call { func, args, dst } => {
                    if depth == 0 {
                        return Err(Trap::Fallback);
                    }
                    if self.interrupt.load(Ordering::Relaxed) {
                        return Err(Trap::Interrupt);
                    }
                    let callee_base = self.stack.len();
                    let callee = &funcs[*func];
                    self.stack
                        .resize(callee_base + callee.registers as usize, 0);
                    for &(reg, bits) in &callee.constants {
                        self.stack[callee_base + reg as usize] = bits;
                    }
                    for (i, a) in args.iter().enumerate() {
                        self.stack[callee_base + i] = self.stack[base + *a as usize];
                    }
                    let result = self.run(*func, callee_base, depth - 1);
                    self.stack.truncate(callee_base);
                    (*dst, result?)
                }
                Op::Load { dst, array, at, .. } => {
                    let mut indices = [0; MAX_DIMS];
                    for (k, &i) in at.iter().enumerate().take(MAX_DIMS) {
                        indices[k] = r(self, i);
                    }
                    let array = self.arrays.get(r(self, *array) as usize);
                    let at = &indices[..at.len().min(MAX_DIMS)];
                    (*dst, array.ok_or(Trap::Fallback)?.load(at)?)
                }
                Op::Store { array, at, src } => {
                    let mut indices = [0; MAX_DIMS];
                    for (k, &i) in at.iter().enumerate().take(MAX_DIMS) {
                        indices[k] = r(self, i);
                    }
                    let at = &indices[..at.len().min(MAX_DIMS)];
                    let (place, bits) = (r(self, *array) as usize, r(self, *src));
                    let array = self.arrays.get_mut(place).ok_or(Trap::Fallback)?;
                    array.store(place, at, bits, self.undo)?;
                    continue;
                }
                Op::Size { dst, array, dim } => {
                    let array = self.arrays.get(r(self, *array) as usize);
                    (*dst, array.ok_or(Trap::Fallback)?.size(*dim))
                }
                Op::Return { src } => return Ok(r(self, *src)),
            };
            self.stack[base + dst as usize] = bits;
        }
    }
}
