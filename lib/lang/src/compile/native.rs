//! Machine code for compiled methods: each register program becomes a native function
//! (Cranelift), one variable per register, so scalar code runs without an instruction loop.
//!
//! A native method takes the run's [`Context`], how many nested calls it may still make, and
//! its parameters' bits, and returns its result's bits. A trap (an interrupt, or an error or
//! the depth limit, which the evaluator then reports) is written into the context and every
//! caller returns at once. The functions with no instruction of their own ([`Fn1`], [`Fn2`],
//! range lengths) are calls into Rust, the same functions the register machine calls. A host
//! Cranelift cannot generate code for keeps the register machine.
//!
//! Calling generated code, and being called from it with raw pointers, is `unsafe` by nature;
//! every such place says why it holds.
#![allow(unsafe_code)]

use super::arrays::{ArrayArg, Undo, MAX_DIMS};
use super::machine::{Counter, Fn1, Fn2, Func, Op, Reg, Trap};
use super::Ty;
use crate::show::ElType;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, Block, InstBuilder, MemFlagsData, Signature, UserFuncName,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module};
use difflab_syntax::BinOp;
use std::sync::atomic::AtomicBool;

/// What a native run shares: the trap raised, if any, and the interrupt flag.
#[repr(C)]
pub struct Context {
    trap: u64,
    interrupt: *const AtomicBool,
    /// The arrays the run reads and writes (`count` of them), and what it wrote.
    arrays: *mut ArrayArg<'static>,
    count: usize,
    undo: *mut Vec<Undo>,
}

impl Context {
    /// The array at `place` and the undo log.
    fn array<'a>(
        context: *mut Context,
        place: u64,
    ) -> Option<(&'a mut ArrayArg<'static>, &'a mut Vec<Undo>)> {
        // SAFETY: native code passes its run's live context, whose arrays and undo log outlive
        // the run and are reached through nothing else while it calls into Rust.
        let context = unsafe { &mut *context };
        let arrays = unsafe { std::slice::from_raw_parts_mut(context.arrays, context.count) };
        let undo = unsafe { &mut *context.undo };
        Some((arrays.get_mut(usize::try_from(place).ok()?)?, undo))
    }
}

const NO_TRAP: u64 = 0;
const INTERRUPTED: u64 = 1;
const FALLBACK: u64 = 2;

/// The entry of a native method called from Rust: context, depth, pointer to the arguments.
type Entry = unsafe extern "C" fn(*mut Context, i64, *const u64) -> u64;

/// A function of one number called from native code, with the types of its argument and
/// result (boxed so its address stays put while the code that embeds it lives).
struct Apply1 {
    f: Fn1,
    x: Ty,
    out: Ty,
}

struct Apply2 {
    f: Fn2,
    x: Ty,
    y: Ty,
    out: Ty,
}

/// The bits `compute` gives, or a fallback trap written into `context` when it fails (or
/// panics: a panic must not unwind through generated code, and the evaluator, running the
/// call again, reports it as it reports any).
fn settle(context: *mut Context, compute: impl FnOnce() -> Result<u64, Trap>) -> u64 {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(compute)) {
        Ok(Ok(bits)) => bits,
        _ => {
            // SAFETY: native code passes its run's live context.
            unsafe { (*context).trap = FALLBACK };
            0
        }
    }
}

extern "C" fn apply1(context: *mut Context, op: *const Apply1, x: u64) -> u64 {
    settle(context, || {
        // SAFETY: native code passes an `Apply1` its module owns.
        let op = unsafe { &*op };
        super::machine::expect(op.f.apply(&super::machine::boxed(x, op.x)), op.out)
    })
}

extern "C" fn apply2(context: *mut Context, op: *const Apply2, x: u64, y: u64) -> u64 {
    settle(context, || {
        // SAFETY: as in `apply1`.
        let op = unsafe { &*op };
        let (x, y) = (
            super::machine::boxed(x, op.x),
            super::machine::boxed(y, op.y),
        );
        super::machine::expect(op.f.apply(&x, &y), op.out)
    })
}

extern "C" fn size(context: *mut Context, place: u64, dim: u64) -> u64 {
    settle(context, || {
        let (array, _) = Context::array(context, place).ok_or(Trap::Fallback)?;
        Ok(array.size(dim as u8))
    })
}

/// `array[i, j, k] = bits` with the first `count` indices.
extern "C" fn store(
    context: *mut Context,
    place: u64,
    count: u64,
    i: u64,
    j: u64,
    k: u64,
    bits: u64,
) -> u64 {
    settle(context, || {
        let at = [i, j, k];
        let at = at.get(..count as usize).ok_or(Trap::Fallback)?;
        let (array, undo) = Context::array(context, place).ok_or(Trap::Fallback)?;
        array.store(place as usize, at, bits, undo)?;
        Ok(0)
    })
}

extern "C" fn range_length(context: *mut Context, start: u64, step: u64, stop: u64) -> u64 {
    settle(context, || super::machine::range_length(start, step, stop))
}

/// Descriptions whose addresses generated code embeds (so each has a box of its own).
#[allow(clippy::vec_box)]
#[derive(Default)]
struct Applied {
    one: Vec<Box<Apply1>>,
    two: Vec<Box<Apply2>>,
}

/// The native code of a session's compiled methods.
pub struct Native {
    module: JITModule,
    /// The native function and entry of each compiled method, by its index.
    functions: Vec<(FuncId, Entry)>,
    /// The descriptions the code passes to `apply1` and `apply2`: boxed, since the code holds
    /// their addresses.
    applied: Applied,
    builder: FunctionBuilderContext,
}

fn new_module() -> Option<JITModule> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    flags.set("is_pic", "false").ok()?;
    let isa = cranelift_native::builder()
        .ok()?
        .finish(settings::Flags::new(flags))
        .ok()?;
    Some(JITModule::new(JITBuilder::with_isa(
        isa,
        default_libcall_names(),
    )))
}

impl Native {
    /// Native code for this host, or `None` when Cranelift does not support it.
    pub fn new() -> Option<Native> {
        Some(Native {
            module: new_module()?,
            functions: Vec::new(),
            applied: Applied::default(),
            builder: FunctionBuilderContext::new(),
        })
    }

    /// Frees the code (the methods were forgotten).
    pub fn free(self) {
        // SAFETY: methods are forgotten between runs: none of this code is running, and its
        // entries are dropped with `self`.
        unsafe { self.module.free_memory() };
    }

    /// How many compiled methods have native code.
    pub fn len(&self) -> usize {
        self.functions.len()
    }

    /// Generates native code for the methods `funcs[self.len()..]` (they may call each other
    /// and the ones before); `false` if Cranelift refused one (nothing is then added).
    pub fn add(&mut self, funcs: &[Func]) -> bool {
        let first = self.functions.len();
        let ptr = self.module.target_config().pointer_type();
        let mut ids = Vec::new();
        for (i, f) in funcs.iter().enumerate().skip(first) {
            let signature = self.signature(f);
            match self
                .module
                .declare_function(&format!("m{i}"), Linkage::Local, &signature)
            {
                Ok(id) => ids.push(id),
                Err(_) => return false,
            }
        }
        let all: Vec<FuncId> = self
            .functions
            .iter()
            .map(|(id, _)| *id)
            .chain(ids.iter().copied())
            .collect();
        let mut entries = Vec::new();
        for (i, f) in funcs.iter().enumerate().skip(first) {
            if self.define(f, all[i], &all).is_none() {
                return false;
            }
            match self.define_entry(f, all[i], ptr, i) {
                Some(entry) => entries.push(entry),
                None => return false,
            }
        }
        if self.module.finalize_definitions().is_err() {
            return false;
        }
        for (k, entry) in entries.into_iter().enumerate() {
            let code = self.module.get_finalized_function(entry);
            // SAFETY: `entry` was defined with the `Entry` signature.
            let entry: Entry = unsafe { std::mem::transmute::<*const u8, Entry>(code) };
            self.functions.push((ids[k], entry));
        }
        true
    }

    /// `(context, depth, parameters…) -> result`.
    fn signature(&self, f: &Func) -> Signature {
        let mut s = self.module.make_signature();
        s.params
            .push(AbiParam::new(self.module.target_config().pointer_type()));
        s.params.push(AbiParam::new(types::I64));
        for _ in 0..f.parameters {
            s.params.push(AbiParam::new(types::I64));
        }
        s.returns.push(AbiParam::new(types::I64));
        s
    }

    /// The entry called from Rust: loads the arguments and calls the method.
    fn define_entry(
        &mut self,
        f: &Func,
        method: FuncId,
        ptr: types::Type,
        i: usize,
    ) -> Option<FuncId> {
        let mut s = self.module.make_signature();
        s.params.push(AbiParam::new(ptr));
        s.params.push(AbiParam::new(types::I64));
        s.params.push(AbiParam::new(ptr));
        s.returns.push(AbiParam::new(types::I64));
        let name = format!("entry{i}");
        let id = self
            .module
            .declare_function(&name, Linkage::Local, &s)
            .ok()?;
        let mut ctx = self.module.make_context();
        ctx.func.signature = s;
        ctx.func.name = UserFuncName::user(0, id.as_u32());
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.builder);
            let block = b.create_block();
            b.append_block_params_for_function_params(block);
            b.switch_to_block(block);
            let params = b.block_params(block).to_vec();
            let mut args = vec![params[0], params[1]];
            for k in 0..f.parameters {
                args.push(b.ins().load(
                    types::I64,
                    MemFlagsData::trusted(),
                    params[2],
                    (8 * k) as i32,
                ));
            }
            let callee = self.module.declare_func_in_func(method, b.func);
            let call = b.ins().call(callee, &args);
            let result = b.inst_results(call)[0];
            b.ins().return_(&[result]);
            b.seal_all_blocks();
            b.finalize(self.module.target_config());
        }
        self.module.define_function(id, &mut ctx).ok()?;
        Some(id)
    }

    /// Translates one register program.
    fn define(&mut self, f: &Func, id: FuncId, all: &[FuncId]) -> Option<()> {
        let mut ctx = self.module.make_context();
        ctx.func.signature = self.signature(f);
        ctx.func.name = UserFuncName::user(0, id.as_u32());
        let ptr = self.module.target_config().pointer_type();
        let mut applied = Applied::default();
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut self.builder);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            // One block per instruction that starts one: jump targets and what follows a jump.
            let mut starts = vec![false; f.code.len() + 1];
            for (pc, op) in f.code.iter().enumerate() {
                if let Some(targets) = jump_targets(op) {
                    starts[pc + 1] = true;
                    for t in targets {
                        starts[t] = true;
                    }
                }
            }
            let blocks: Vec<Option<Block>> = starts
                .iter()
                .map(|&s| s.then(|| b.create_block()))
                .collect();
            b.switch_to_block(entry);
            let params = b.block_params(entry).to_vec();
            let (context, depth) = (params[0], params[1]);
            let registers: Vec<Variable> = (0..f.registers)
                .map(|_| b.declare_var(types::I64))
                .collect();
            let zero = b.ins().iconst(types::I64, 0);
            for (r, var) in registers.iter().enumerate() {
                let v = if r < f.parameters as usize {
                    params[2 + r]
                } else {
                    zero
                };
                b.def_var(*var, v);
            }
            for &(reg, bits) in &f.constants {
                let c = b.ins().iconst(types::I64, bits as i64);
                b.def_var(registers[reg as usize], c);
            }
            let mut t = Translator {
                b,
                registers,
                context,
                depth,
                ptr,
                blocks,
            };
            let mut open = true;
            for pc in 0..=f.code.len() {
                if let Some(block) = t.blocks[pc] {
                    if open {
                        t.b.ins().jump(block, &[]);
                    }
                    t.b.switch_to_block(block);
                    open = true;
                }
                if !open {
                    continue;
                }
                match f.code.get(pc) {
                    Some(op) => {
                        open = t.op(op, pc, all, &mut applied, &mut self.module)?;
                    }
                    None => {
                        // Past the last instruction (every program ends in a return).
                        let zero = t.b.ins().iconst(types::I64, 0);
                        t.b.ins().return_(&[zero]);
                    }
                }
            }
            t.b.seal_all_blocks();
            t.b.finalize(self.module.target_config());
        }
        self.module.define_function(id, &mut ctx).ok()?;
        self.applied.one.extend(applied.one);
        self.applied.two.extend(applied.two);
        Some(())
    }

    /// Calls of compiled method `func` made many times in a row, each with the same arrays.
    pub fn calls<'a>(
        &'a self,
        func: usize,
        depth: usize,
        interrupt: &'a AtomicBool,
        (arrays, undo): (&'a mut [ArrayArg<'_>], &'a mut Vec<Undo>),
    ) -> Calls<'a> {
        let context = Context {
            trap: NO_TRAP,
            interrupt,
            arrays: arrays.as_mut_ptr().cast(),
            count: arrays.len(),
            undo,
        };
        Calls {
            entry: self.functions[func].1,
            context,
            depth: i64::try_from(depth).unwrap_or(i64::MAX),
            _borrows: std::marker::PhantomData,
        }
    }

    /// Runs compiled method `func` natively.
    pub fn run(
        &self,
        func: usize,
        args: &[u64],
        (arrays, undo): (&mut [ArrayArg<'_>], &mut Vec<Undo>),
        depth: usize,
        interrupt: &AtomicBool,
    ) -> Result<u64, Trap> {
        let mut context = Context {
            trap: NO_TRAP,
            interrupt,
            arrays: arrays.as_mut_ptr().cast(),
            count: arrays.len(),
            undo,
        };
        let depth = i64::try_from(depth).unwrap_or(i64::MAX);
        // SAFETY: the entry was generated for this method's arity, `args` holds that many
        // parameters, and the context outlives the call.
        let bits = unsafe { (self.functions[func].1)(&mut context, depth, args.as_ptr()) };
        match context.trap {
            NO_TRAP => Ok(bits),
            INTERRUPTED => Err(Trap::Interrupt),
            _ => Err(Trap::Fallback),
        }
    }
}

/// The instructions an instruction may go to other than the next one, if it jumps.
fn jump_targets(op: &Op) -> Option<Vec<usize>> {
    match op {
        Op::Jump { to } | Op::Loop { to } | Op::JumpUnless { to, .. } => Some(vec![*to]),
        Op::ForEnter { exit, .. } => Some(vec![*exit]),
        Op::ForNext { body, .. } => Some(vec![*body]),
        Op::Return { .. } => Some(Vec::new()),
        _ => None,
    }
}

/// The translation of one program, instruction by instruction.
struct Translator<'f> {
    b: FunctionBuilder<'f>,
    registers: Vec<Variable>,
    context: cranelift_codegen::ir::Value,
    depth: cranelift_codegen::ir::Value,
    ptr: types::Type,
    blocks: Vec<Option<Block>>,
}

type V = cranelift_codegen::ir::Value;

impl Translator<'_> {
    fn get(&mut self, r: Reg) -> V {
        self.b.use_var(self.registers[r as usize])
    }

    fn set(&mut self, r: Reg, v: V) {
        self.b.def_var(self.registers[r as usize], v);
    }

    fn float(&mut self, r: Reg) -> V {
        let v = self.get(r);
        self.b.ins().bitcast(types::F64, MemFlagsData::new(), v)
    }

    fn set_float(&mut self, r: Reg, v: V) {
        let bits = self.b.ins().bitcast(types::I64, MemFlagsData::new(), v);
        self.set(r, bits);
    }

    fn block(&self, pc: usize) -> Block {
        self.blocks[pc].expect("jump targets start blocks")
    }

    /// Returns 0 from the method with `trap` written into the context.
    fn leave_with(&mut self, trap: u64) {
        let code = self.b.ins().iconst(types::I64, trap as i64);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), code, self.context, 0);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().return_(&[zero]);
    }

    /// Returns at once when `cond` is non-zero (with `trap` recorded unless it is `None`:
    /// the trap is already in the context).
    fn leave_if(&mut self, cond: V, trap: Option<u64>) {
        let (out, on) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(cond, out, &[], on, &[]);
        self.b.switch_to_block(out);
        match trap {
            Some(t) => self.leave_with(t),
            None => {
                let zero = self.b.ins().iconst(types::I64, 0);
                self.b.ins().return_(&[zero]);
            }
        }
        self.b.switch_to_block(on);
    }

    /// Leaves when an interrupt was requested.
    fn poll(&mut self) {
        let flag = self
            .b
            .ins()
            .load(self.ptr, MemFlagsData::trusted(), self.context, 8);
        let set = self.b.ins().load(types::I8, MemFlagsData::new(), flag, 0);
        self.leave_if(set, Some(INTERRUPTED));
    }

    /// Leaves when a call into Rust or into a method trapped.
    fn check_trap(&mut self) {
        let trap = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), self.context, 0);
        self.leave_if(trap, None);
    }

    /// Calls a Rust function at `address` with `args` (all pointer-sized), giving its result.
    fn call_rust(&mut self, address: usize, args: &[V]) -> V {
        let mut s = Signature::new(self.b.func.signature.call_conv);
        for _ in args {
            s.params.push(AbiParam::new(types::I64));
        }
        s.returns.push(AbiParam::new(types::I64));
        let sig = self.b.import_signature(s);
        let callee = self.b.ins().iconst(self.ptr, address as i64);
        let call = self.b.ins().call_indirect(sig, callee, args);
        let result = self.b.inst_results(call)[0];
        self.check_trap();
        result
    }

    /// `array[at...]` read in place: the table entry of the array, a bounds check per index
    /// (a fallback when one fails), the number, converted to the register's bits.
    fn load(&mut self, array: Reg, at: &[Reg], el: ElType) -> V {
        let trusted = MemFlagsData::trusted();
        let table = self.b.ins().load(
            self.ptr,
            trusted,
            self.context,
            std::mem::offset_of!(Context, arrays) as i32,
        );
        let slot = self.get(array);
        let entry_size = std::mem::size_of::<ArrayArg>() as i64;
        let offset = self.b.ins().imul_imm_s(slot, entry_size);
        let entry = self.b.ins().iadd(table, offset);
        let field = |name: usize| name as i32;
        let mut linear = None;
        let mut stride = None;
        for (d, &index) in at.iter().enumerate() {
            let bound = if at.len() == 1 {
                std::mem::offset_of!(ArrayArg, len)
            } else {
                std::mem::offset_of!(ArrayArg, size) + 8 * d
            };
            let n = self.b.ins().load(types::I64, trusted, entry, field(bound));
            let i = self.get(index);
            let i = self.b.ins().iadd_imm_s(i, -1);
            // Unsigned: a zero or negative index is past the end too.
            let outside = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, n);
            self.leave_if(outside, Some(FALLBACK));
            let term = match stride {
                Some(s) => self.b.ins().imul(i, s),
                None => i,
            };
            linear = Some(match linear {
                Some(l) => self.b.ins().iadd(l, term),
                None => term,
            });
            stride = Some(match stride {
                Some(s) => self.b.ins().imul(s, n),
                None => n,
            });
        }
        let k = linear.expect("one index at least");
        let data = self.b.ins().load(
            self.ptr,
            trusted,
            entry,
            field(std::mem::offset_of!(ArrayArg, data)),
        );
        let bytes = self.b.ins().ishl_imm_u(k, 3);
        let address = self.b.ins().iadd(data, bytes);
        let x = self.b.ins().load(types::F64, trusted, address, 0);
        match el {
            ElType::Float64 => self.b.ins().bitcast(types::I64, MemFlagsData::new(), x),
            // As Rust's `as` converts (the numbers of an Int64 array are integers anyway).
            ElType::Int64 => self.b.ins().fcvt_to_sint_sat(types::I64, x),
            ElType::Bool => {
                let zero = self.b.ins().f64const(0.0);
                let c = self.b.ins().fcmp(FloatCC::NotEqual, x, zero);
                self.b.ins().uextend(types::I64, c)
            }
        }
    }

    fn compare(&mut self, op: BinOp, x: V, y: V) -> V {
        let cc = match op {
            BinOp::Eq => FloatCC::Equal,
            BinOp::Ne => FloatCC::NotEqual,
            BinOp::Lt => FloatCC::LessThan,
            BinOp::Le => FloatCC::LessThanOrEqual,
            BinOp::Gt => FloatCC::GreaterThan,
            _ => FloatCC::GreaterThanOrEqual,
        };
        let c = self.b.ins().fcmp(cc, x, y);
        self.b.ins().uextend(types::I64, c)
    }

    fn counter_var(&mut self, c: &Counter, k: V) {
        let step = self.get(c.step);
        let start = self.get(c.start);
        let offset = self.b.ins().imul(k, step);
        let var = self.b.ins().iadd(start, offset);
        self.set(c.var, var);
    }

    /// Translates one instruction; `false` when it ends its block.
    fn op(
        &mut self,
        op: &Op,
        pc: usize,
        all: &[FuncId],
        applied: &mut Applied,
        module: &mut JITModule,
    ) -> Option<bool> {
        match op {
            Op::Const { dst, bits } => {
                let c = self.b.ins().iconst(types::I64, *bits as i64);
                self.set(*dst, c);
            }
            Op::Move { dst, src } => {
                let v = self.get(*src);
                self.set(*dst, v);
            }
            Op::IntToFloat { dst, src } => {
                let v = self.get(*src);
                let x = self.b.ins().fcvt_from_sint(types::F64, v);
                self.set_float(*dst, x);
            }
            Op::AddI { dst, a, b } | Op::SubI { dst, a, b } | Op::MulI { dst, a, b } => {
                let (x, y) = (self.get(*a), self.get(*b));
                let v = match op {
                    Op::AddI { .. } => self.b.ins().iadd(x, y),
                    Op::SubI { .. } => self.b.ins().isub(x, y),
                    _ => self.b.ins().imul(x, y),
                };
                self.set(*dst, v);
            }
            Op::AddF { dst, a, b }
            | Op::SubF { dst, a, b }
            | Op::MulF { dst, a, b }
            | Op::DivF { dst, a, b } => {
                let (x, y) = (self.float(*a), self.float(*b));
                let v = match op {
                    Op::AddF { .. } => self.b.ins().fadd(x, y),
                    Op::SubF { .. } => self.b.ins().fsub(x, y),
                    Op::MulF { .. } => self.b.ins().fmul(x, y),
                    _ => self.b.ins().fdiv(x, y),
                };
                self.set_float(*dst, v);
            }
            Op::CmpI { op, dst, a, b } => {
                // Compared through Float64, as the evaluator compares integers.
                let (x, y) = (self.get(*a), self.get(*b));
                let x = self.b.ins().fcvt_from_sint(types::F64, x);
                let y = self.b.ins().fcvt_from_sint(types::F64, y);
                let v = self.compare(*op, x, y);
                self.set(*dst, v);
            }
            Op::CmpF { op, dst, a, b } => {
                let (x, y) = (self.float(*a), self.float(*b));
                let v = self.compare(*op, x, y);
                self.set(*dst, v);
            }
            Op::Not { dst, src } => {
                let v = self.get(*src);
                let c = self.b.ins().icmp_imm_s(IntCC::Equal, v, 0);
                let v = self.b.ins().uextend(types::I64, c);
                self.set(*dst, v);
            }
            Op::Apply1 { f, dst, src, out } => {
                let desc = Box::new(Apply1 {
                    f: *f,
                    x: src.1,
                    out: *out,
                });
                let address = &*desc as *const Apply1 as i64;
                applied.one.push(desc);
                let desc = self.b.ins().iconst(types::I64, address);
                let (context, x) = (self.context, self.get(src.0));
                let v = self.call_rust(apply1 as *const () as usize, &[context, desc, x]);
                self.set(*dst, v);
            }
            Op::Apply2 { f, dst, a, b, out } => {
                let desc = Box::new(Apply2 {
                    f: *f,
                    x: a.1,
                    y: b.1,
                    out: *out,
                });
                let address = &*desc as *const Apply2 as i64;
                applied.two.push(desc);
                let desc = self.b.ins().iconst(types::I64, address);
                let (context, x, y) = (self.context, self.get(a.0), self.get(b.0));
                let v = self.call_rust(apply2 as *const () as usize, &[context, desc, x, y]);
                self.set(*dst, v);
            }
            Op::RangeLength {
                dst,
                start,
                step,
                stop,
            } => {
                let (context, a) = (self.context, self.get(*start));
                let (s, z) = (self.get(*step), self.get(*stop));
                let v = self.call_rust(range_length as *const () as usize, &[context, a, s, z]);
                self.set(*dst, v);
            }
            Op::Load { dst, array, at, el } => {
                let v = self.load(*array, at, *el);
                self.set(*dst, v);
            }
            Op::Store { array, at, src } => {
                let mut args = vec![self.context, self.get(*array)];
                args.push(self.b.ins().iconst(types::I64, at.len() as i64));
                for k in 0..MAX_DIMS {
                    let index = match at.get(k) {
                        Some(&r) => self.get(r),
                        None => self.b.ins().iconst(types::I64, 0),
                    };
                    args.push(index);
                }
                args.push(self.get(*src));
                self.call_rust(store as *const () as usize, &args);
            }
            Op::Size { dst, array, dim } => {
                let (context, array) = (self.context, self.get(*array));
                let dim = self.b.ins().iconst(types::I64, i64::from(*dim));
                let v = self.call_rust(size as *const () as usize, &[context, array, dim]);
                self.set(*dst, v);
            }
            Op::ForEnter { counter, exit } => {
                let length = self.get(counter.length);
                let start = self.get(counter.start);
                self.set(counter.var, start);
                let exit = self.block(*exit);
                let next = self.block(pc + 1);
                self.b.ins().brif(length, next, &[], exit, &[]);
                return Some(false);
            }
            Op::ForNext { counter, body } => {
                let k = self.get(counter.k);
                let k = self.b.ins().iadd_imm_s(k, 1);
                let length = self.get(counter.length);
                let more = self.b.ins().icmp(IntCC::SignedLessThan, k, length);
                let (again, next) = (self.b.create_block(), self.block(pc + 1));
                self.b.ins().brif(more, again, &[], next, &[]);
                self.b.switch_to_block(again);
                self.poll();
                self.set(counter.k, k);
                self.counter_var(counter, k);
                let body = self.block(*body);
                self.b.ins().jump(body, &[]);
                return Some(false);
            }
            Op::Jump { to } => {
                let to = self.block(*to);
                self.b.ins().jump(to, &[]);
                return Some(false);
            }
            Op::Loop { to } => {
                self.poll();
                let to = self.block(*to);
                self.b.ins().jump(to, &[]);
                return Some(false);
            }
            Op::JumpUnless { cond, to } => {
                let c = self.get(*cond);
                let (to, next) = (self.block(*to), self.block(pc + 1));
                self.b.ins().brif(c, next, &[], to, &[]);
                return Some(false);
            }
            Op::Call { func, args, dst } => {
                let out_of_depth =
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::SignedLessThanOrEqual, self.depth, 0);
                self.leave_if(out_of_depth, Some(FALLBACK));
                self.poll();
                let depth = self.b.ins().iadd_imm_s(self.depth, -1);
                let mut values = vec![self.context, depth];
                for a in args.iter() {
                    values.push(self.get(*a));
                }
                let callee = module.declare_func_in_func(all[*func], self.b.func);
                let call = self.b.ins().call(callee, &values);
                let v = self.b.inst_results(call)[0];
                self.check_trap();
                self.set(*dst, v);
            }
            Op::Return { src } => {
                let v = self.get(*src);
                self.b.ins().return_(&[v]);
                return Some(false);
            }
        }
        Some(true)
    }
}

/// A native method called many times in a row (a loop over the elements of arrays), every
/// call with the same arrays: its entry is found and its context made once.
pub struct Calls<'a> {
    entry: Entry,
    context: Context,
    depth: i64,
    /// The code, the interrupt flag, the arrays and the undo log the context points to.
    _borrows: std::marker::PhantomData<(&'a Native, &'a mut [()], &'a mut Vec<Undo>)>,
}

impl Calls<'_> {
    /// One call with `args`, which must hold as many numbers as the method takes.
    pub fn call(&mut self, args: &[u64]) -> Result<u64, Trap> {
        self.context.trap = NO_TRAP;
        // SAFETY: as in `Native::run`: the entry was generated for this method's arity, which
        // the caller's `args` holds, and what the context points to is borrowed for `'_`.
        let bits = unsafe { (self.entry)(&mut self.context, self.depth, args.as_ptr()) };
        match self.context.trap {
            NO_TRAP => Ok(bits),
            INTERRUPTED => Err(Trap::Interrupt),
            _ => Err(Trap::Fallback),
        }
    }
}
