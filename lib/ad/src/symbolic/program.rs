//! A recorded graph compiled into flat instructions over registers, and its evaluations:
//! values, pushforwards of a chunk of tangents at once ("lanes"), and pullbacks.
//!
//! Compiling drops nodes the outputs do not need and gives each instruction a register that is
//! reused once its value is dead, so a scalar loop of a million operations runs in a working set
//! of the size of its live values. Every register carries `lanes` tangents (or cotangents) next
//! to its value; one instruction updates them all.

use super::{slopes, Graph, Node};
use crate::di::backend::SYMBOLIC_LANES;
use crate::error::{AdError, Result};
use crate::ops::{self, BinaryFn, UnaryFn};
use crate::tensor::{col_major_slice, Tag, Tensor};
use std::cell::RefCell;
use std::rc::Rc;

/// What an instruction computes: the common cases of scalar code have kernels of their own.
#[derive(Debug, Clone, Copy)]
enum Op {
    Add,
    Sub,
    Mul,
    /// `a ^ 2`.
    Square,
    Unary(UnaryFn),
    Binary(BinaryFn),
}

/// One instruction (16 bytes: the whole program streams through the cache at every pass).
#[derive(Debug, Clone, Copy)]
struct Instr {
    op: Op,
    /// `b` carries tangents too (false for one-operand kernels and constant `b`, whose slope
    /// is then not needed).
    two: bool,
    a: u32,
    b: u32,
    out: u32,
}

/// Why a function was not traced into a program.
#[derive(Debug, Clone, PartialEq)]
pub enum NotTraced {
    /// The output is not made of the traced input's operations (it carries derivatives).
    NotAGraph,
    /// The program's value at the recording input differs from the function's: the function
    /// reads values that a tracing does not have.
    Mismatch,
}

impl std::fmt::Display for NotTraced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotTraced::NotAGraph => "its output is not computed from its input by traceable operations",
            NotTraced::Mismatch => {
                "the traced program gives another value than the function at the preparation input (the function reads values a tracing does not have)"
            }
        })
    }
}

/// A function compiled from a symbolic tracing.
#[derive(Debug)]
pub struct Program {
    input_shape: Vec<usize>,
    output_shape: Vec<usize>,
    /// Registers `0..inputs` hold the input elements.
    inputs: usize,
    /// Registers holding constants, and their values.
    constants: Vec<(u32, f64)>,
    code: Vec<Instr>,
    outputs: Vec<u32>,
    registers: usize,
    /// Register values and tangent lanes, kept between calls.
    values_scratch: RefCell<Vec<f64>>,
    lanes_scratch: RefCell<Vec<f64>>,
}

impl Program {
    /// Traces `f` with a symbolic input of `x`'s shape and compiles what it recorded; `y` is
    /// `f(x)` computed on plain numbers, which the program must reproduce. The outer error is
    /// `f`'s own (under tracing: a comparison, or an operation without a symbolic rule).
    ///
    /// ```
    /// use difflab_ad::{ops, symbolic::Program, AdError, Tensor};
    /// let f = |x: &Tensor| -> Result<Tensor, AdError> { ops::sum_all(&ops::binary(ops::BinaryFn::Mul, x, x)?) };
    /// let x = Tensor::from_col_major(&[2], vec![1.0, 2.0]);
    /// let program = std::rc::Rc::new(Program::record(f, &x, &f(&x).unwrap()).unwrap().unwrap());
    /// let y = program.call(&Tensor::from_col_major(&[2], vec![3.0, 4.0])).unwrap();
    /// assert_eq!(y.primal()[[]], 25.0);
    /// ```
    pub fn record<E>(
        f: impl FnOnce(&Tensor) -> std::result::Result<Tensor, E>,
        x: &Tensor,
        y: &Tensor,
    ) -> std::result::Result<std::result::Result<Program, NotTraced>, E> {
        let input = super::input(x.shape());
        let Tensor::Symbolic(s) = &input else {
            unreachable!("symbolic input")
        };
        let graph = s.graph.clone();
        let out = f(&input)?;
        let outputs: Vec<u32> = match &out {
            Tensor::Symbolic(o) if Rc::ptr_eq(&o.graph, &graph) => super::ids(&o.ids),
            Tensor::Plain(a) => {
                let data = crate::tensor::col_major_data(a);
                data.into_iter().map(|v| graph.constant(v)).collect()
            }
            _ => return Ok(Err(NotTraced::NotAGraph)),
        };
        let program = compile(&graph, x.len(), outputs, x.shape(), out.shape());
        let agrees = match program.values(&x.to_col_major()) {
            Ok(values) => same_numbers(&values, &y.to_col_major()),
            Err(_) => false,
        };
        if !agrees || y.shape() != out.shape() {
            return Ok(Err(NotTraced::Mismatch));
        }
        Ok(Ok(program))
    }

    /// The shape of the function's output.
    pub fn output_shape(&self) -> &[usize] {
        &self.output_shape
    }

    /// The number of instructions.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// True when the output does not depend on the input through any operation.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    fn check_input(&self, x: &Tensor) -> Result<()> {
        if x.shape() == self.input_shape.as_slice() {
            return Ok(());
        }
        Err(AdError::Argument(format!(
            "the traced program was recorded for an input of size {:?}, not {:?}",
            self.input_shape,
            x.shape()
        )))
    }

    /// The function at `x`, for any number kind: plain numbers, forward-mode duals and
    /// reverse-mode tapes over plain numbers run the compiled instructions; anything nested
    /// replays them with the primitives of that kind.
    pub fn call(self: &Rc<Self>, x: &Tensor) -> Result<Tensor> {
        self.check_input(x)?;
        match x {
            Tensor::Plain(_) => {
                let y = self.values(&x.to_col_major())?;
                Ok(Tensor::from_col_major(&self.output_shape, y))
            }
            Tensor::Dual(d) if d.value.is_plain() && d.partials.iter().all(Tensor::is_plain) => {
                let seeds: Vec<_> = d
                    .partials
                    .iter()
                    .map(|p| col_major_slice(p.primal()))
                    .collect();
                let seeds: Vec<&[f64]> = seeds.iter().map(|s| &**s).collect();
                let (y, tangents) = self.pushforward(&d.value.to_col_major(), &seeds)?;
                let shape = &self.output_shape;
                Ok(Tensor::dual(
                    d.tag,
                    Tensor::from_col_major(shape, y),
                    tangents
                        .into_iter()
                        .map(|t| Tensor::from_col_major(shape, t))
                        .collect(),
                ))
            }
            Tensor::Tracked(tr) if tr.value.is_plain() => self.record_on_tape(tr.tag, x),
            _ => self.replay(x),
        }
    }

    /// One tape node for the whole program, whose cotangent rule is the program's pullback.
    fn record_on_tape(self: &Rc<Self>, tag: Tag, x: &Tensor) -> Result<Tensor> {
        let point = crate::reverse::value_below(x, tag).to_col_major();
        let y = Tensor::from_col_major(&self.output_shape, self.values(&point)?);
        let program = self.clone();
        let rule: crate::reverse::Rule = Box::new(move |ct: &Tensor| program.cotangent(&point, ct));
        let replayed = self.clone();
        Ok(crate::reverse::record_op(
            tag,
            y,
            vec![(x, rule)],
            &[x],
            move |args| replayed.call(&args[0]),
        ))
    }

    /// `Jᵀ·ct` at `point`, for a cotangent of any kind (the program is linear in it).
    fn cotangent(&self, point: &[f64], ct: &Tensor) -> Result<Tensor> {
        if ct.is_plain() {
            let (_, mut grads) = self.pullback(point, &[ct.to_col_major()])?;
            return Ok(Tensor::from_col_major(
                &self.input_shape,
                grads.swap_remove(0),
            ));
        }
        let (_, rows) = self.pullback_basis(point)?;
        let ct = ops::reshape(ct, &[ct.len()])?;
        let jt = Tensor::from_col_major(&[self.inputs, rows.len() / self.inputs.max(1)], rows);
        ops::reshape(&ops::matmul(&jt, &ct)?, &self.input_shape)
    }

    /// The values and `Jᵀ` (column-major, inputs × outputs) at `point`.
    fn pullback_basis(&self, point: &[f64]) -> Result<(Vec<f64>, Vec<f64>)> {
        let m = self.outputs.len();
        let seeds: Vec<Vec<f64>> = (0..m)
            .map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect())
            .collect();
        let (y, rows) = self.pullback(point, &seeds)?;
        Ok((y, rows.concat()))
    }

    /// The program run with the primitives of `x`'s number kind, one rank-0 tensor per
    /// register.
    fn replay(&self, x: &Tensor) -> Result<Tensor> {
        let mut registers = vec![Tensor::scalar(0.0); self.registers];
        for (k, register) in registers[..self.inputs].iter_mut().enumerate() {
            *register = ops::gather(x, &[k], &[])?;
        }
        for &(r, v) in &self.constants {
            registers[r as usize] = Tensor::scalar(v);
        }
        for ins in &self.code {
            let a = &registers[ins.a as usize];
            let b = &registers[ins.b as usize];
            registers[ins.out as usize] = match ins.op {
                Op::Add => ops::binary(BinaryFn::Add, a, b)?,
                Op::Sub => ops::binary(BinaryFn::Sub, a, b)?,
                Op::Mul => ops::binary(BinaryFn::Mul, a, b)?,
                Op::Square => ops::binary(BinaryFn::Pow, a, &Tensor::scalar(2.0))?,
                Op::Unary(f) => ops::unary(f, a)?,
                Op::Binary(f) => ops::binary(f, a, b)?,
            };
        }
        let outputs: Vec<Tensor> = self
            .outputs
            .iter()
            .map(|&r| registers[r as usize].clone())
            .collect();
        crate::di::primitives::stack(&outputs, &self.output_shape)
    }

    /// The registers loaded with `x` and the constants, in the reused scratch buffer.
    fn load(&self, x: &[f64]) -> Vec<f64> {
        let mut values = self.values_scratch.take();
        values.resize(self.registers, 0.0);
        values[..self.inputs].copy_from_slice(x);
        for &(r, v) in &self.constants {
            values[r as usize] = v;
        }
        values
    }

    /// The outputs at `x` (column-major).
    pub fn values(&self, x: &[f64]) -> Result<Vec<f64>> {
        let mut v = self.load(x);
        let run = self.code.iter().try_for_each(|ins| {
            v[ins.out as usize] = local(ins, &v)?.0;
            Ok(())
        });
        let y = self.outputs.iter().map(|&r| v[r as usize]).collect();
        self.values_scratch.replace(v);
        run.map(|()| y)
    }

    /// The outputs at `x` and `J·t` for each tangent `t` (column-major): one pass per
    /// [`SYMBOLIC_LANES`] tangents.
    pub fn pushforward(&self, x: &[f64], tangents: &[&[f64]]) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
        let mut y = None;
        let mut out = Vec::with_capacity(tangents.len());
        for group in tangents.chunks(SYMBOLIC_LANES) {
            let (values, tangents) = self.pushforward_lanes(x, group)?;
            y.get_or_insert(values);
            out.extend(tangents);
        }
        match y {
            Some(y) => Ok((y, out)),
            None => Ok((self.values(x)?, out)),
        }
    }

    fn pushforward_lanes(
        &self,
        x: &[f64],
        tangents: &[&[f64]],
    ) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
        let m = self.outputs.len();
        let mut out = vec![vec![0.0; m]; tangents.len()];
        let y = self.run(
            tangents.len(),
            x,
            &|k, block| {
                for (d, t) in block.iter_mut().zip(tangents) {
                    *d = t[k];
                }
            },
            &mut |i, lanes| {
                for (o, &d) in out.iter_mut().zip(lanes) {
                    o[i] = d;
                }
            },
        )?;
        Ok((y, out))
    }

    /// The outputs at `x` and the compressed Jacobian: column `c` is the sum of the Jacobian's
    /// columns `groups[c]` (one lane per group, each input seeded with its group's unit lane),
    /// filled one output row at a time.
    pub fn compressed_jacobian(
        &self,
        x: &[f64],
        groups: &[Vec<usize>],
    ) -> Result<(Vec<f64>, ndarray::Array2<f64>)> {
        let mut group_of = vec![usize::MAX; self.inputs];
        for (c, group) in groups.iter().enumerate() {
            for &k in group {
                group_of[k] = c;
            }
        }
        let mut b = ndarray::Array2::zeros((self.outputs.len(), groups.len()));
        let mut y = None;
        for first in (0..groups.len()).step_by(SYMBOLIC_LANES) {
            let width = (groups.len() - first).min(SYMBOLIC_LANES);
            let values = self.run(
                width,
                x,
                &|k, block| {
                    block.fill(0.0);
                    if let Some(lane) = group_of[k].checked_sub(first).filter(|&l| l < width) {
                        block[lane] = 1.0;
                    }
                },
                &mut |i, lanes| {
                    let row = b.row_mut(i).into_slice().expect("row-major");
                    row[first..first + width].copy_from_slice(&lanes[..width]);
                },
            )?;
            y.get_or_insert(values);
        }
        match y {
            Some(y) => Ok((y, b)),
            None => Ok((self.values(x)?, b)),
        }
    }

    /// One pass with `width` (at most [`SYMBOLIC_LANES`]) tangent lanes: `seed(k, block)` sets
    /// input `k`'s lanes, `emit(i, lanes)` receives output `i`'s. The lanes are rounded up to one
    /// of a few block sizes so that each instruction updates a fixed-size block (unrolled, no
    /// copy calls).
    fn run(
        &self,
        width: usize,
        x: &[f64],
        seed: &dyn Fn(usize, &mut [f64]),
        emit: &mut dyn FnMut(usize, &[f64]),
    ) -> Result<Vec<f64>> {
        match width {
            0 | 1 => self.run_block::<1>(x, seed, emit),
            2 => self.run_block::<2>(x, seed, emit),
            3 | 4 => self.run_block::<4>(x, seed, emit),
            5..=8 => self.run_block::<8>(x, seed, emit),
            // ForwardDiff's chunk, and the color count of many stencils.
            9..=12 => self.run_block::<12>(x, seed, emit),
            13..=16 => self.run_block::<16>(x, seed, emit),
            _ => self.run_block::<SYMBOLIC_LANES>(x, seed, emit),
        }
    }

    fn run_block<const L: usize>(
        &self,
        x: &[f64],
        seed: &dyn Fn(usize, &mut [f64]),
        emit: &mut dyn FnMut(usize, &[f64]),
    ) -> Result<Vec<f64>> {
        let mut v = self.load(x);
        let mut dot = self.lanes_scratch.take();
        dot.resize(self.registers * L, 0.0);
        for k in 0..self.inputs {
            let block = &mut dot[k * L..(k + 1) * L];
            block.fill(0.0);
            seed(k, block);
        }
        for &(r, _) in &self.constants {
            dot[r as usize * L..(r as usize + 1) * L].fill(0.0);
        }
        let lane = |dot: &[f64], r: u32| -> [f64; L] {
            let start = r as usize * L;
            dot[start..start + L]
                .try_into()
                .expect("a block of L lanes")
        };
        let run = self.code.iter().try_for_each(|ins| {
            let (y, sa, sb) = local(ins, &v)?;
            let da = lane(&dot, ins.a);
            let out: [f64; L] = if ins.two {
                let db = lane(&dot, ins.b);
                std::array::from_fn(|l| sa * da[l] + sb * db[l])
            } else {
                std::array::from_fn(|l| sa * da[l])
            };
            let o = ins.out as usize * L;
            dot[o..o + L].copy_from_slice(&out);
            v[ins.out as usize] = y;
            Ok(())
        });
        let y = self.outputs.iter().map(|&r| v[r as usize]).collect();
        if run.is_ok() {
            for (i, &r) in self.outputs.iter().enumerate() {
                emit(i, &dot[r as usize * L..(r as usize + 1) * L]);
            }
        }
        self.values_scratch.replace(v);
        self.lanes_scratch.replace(dot);
        run.map(|()| y)
    }

    /// The outputs at `x` and `Jᵀ·c` for each cotangent `c` (column-major), all in one backward
    /// sweep.
    pub fn pullback(
        &self,
        x: &[f64],
        cotangents: &[Vec<f64>],
    ) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
        let lanes = cotangents.len();
        let mut v = self.load(x);
        // The slopes of every instruction, kept for the backward sweep (registers are reused).
        let mut slopes = Vec::with_capacity(self.code.len());
        let run = self.code.iter().try_for_each(|ins| {
            let (y, sa, sb) = local(ins, &v)?;
            slopes.push((sa, sb));
            v[ins.out as usize] = y;
            Ok(())
        });
        let y: Vec<f64> = self.outputs.iter().map(|&r| v[r as usize]).collect();
        self.values_scratch.replace(v);
        run?;
        let mut adj = vec![0.0; self.registers * lanes];
        for (l, c) in cotangents.iter().enumerate() {
            for (&r, &ci) in self.outputs.iter().zip(c) {
                adj[r as usize * lanes + l] += ci;
            }
        }
        // Backwards, a register's adjoint belongs to the value defined there until its
        // definition is reached, which hands it on and clears it for the value held before.
        let mut seed = vec![0.0; lanes];
        for (ins, &(sa, sb)) in self.code.iter().zip(&slopes).rev() {
            let o = ins.out as usize * lanes;
            seed.copy_from_slice(&adj[o..o + lanes]);
            adj[o..o + lanes].fill(0.0);
            let (a, b) = (ins.a as usize * lanes, ins.b as usize * lanes);
            for (d, s) in adj[a..a + lanes].iter_mut().zip(&seed) {
                *d += sa * s;
            }
            if ins.two {
                for (d, s) in adj[b..b + lanes].iter_mut().zip(&seed) {
                    *d += sb * s;
                }
            }
        }
        let grads = (0..lanes)
            .map(|l| (0..self.inputs).map(|k| adj[k * lanes + l]).collect())
            .collect();
        Ok((y, grads))
    }
}

/// An instruction's value and its slopes with respect to `a` and `b` (`b`'s is unused unless
/// the instruction has two varying operands).
#[inline(always)]
fn local(ins: &Instr, v: &[f64]) -> Result<(f64, f64, f64)> {
    let x = v[ins.a as usize];
    let z = v[ins.b as usize];
    Ok(match ins.op {
        Op::Add => (x + z, 1.0, 1.0),
        Op::Sub => (x - z, 1.0, -1.0),
        Op::Mul => (x * z, z, x),
        Op::Square => (x * x, 2.0 * x, 0.0),
        Op::Unary(f) => {
            slopes::check_unary_domain(f, x)?;
            let y = f.apply(x);
            (y, f.slope(x, y), 0.0)
        }
        Op::Binary(f) => {
            slopes::check_binary_domain(f, x, z)?;
            let y = f.apply(x, z);
            let (sa, sb) = f.slopes(x, z, y, ins.two);
            (y, sa, sb)
        }
    })
}

/// Equal numbers up to rounding (a program may sum in another order than an array kernel), with
/// NaN where the other has NaN.
fn same_numbers(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(&p, &q)| {
            (p.is_nan() && q.is_nan())
                || p == q
                || (p - q).abs() <= 1e-9 * p.abs().max(q.abs()).max(1.0)
        })
}

/// Compiles the nodes `outputs` need into instructions over reused registers.
fn compile(
    graph: &Graph,
    inputs: usize,
    outputs: Vec<u32>,
    input_shape: &[usize],
    output_shape: &[usize],
) -> Program {
    let nodes = graph.nodes();
    let order = schedule(&nodes, &outputs);
    let mut needed = vec![false; nodes.len()];
    // Liveness: the last position in `order` reading each node.
    let mut last_use = vec![0usize; nodes.len()];
    for &o in &outputs {
        needed[o as usize] = true;
    }
    for (position, &id) in order.iter().enumerate() {
        needed[id as usize] = true;
        for operand in operands(nodes[id as usize]).into_iter().flatten() {
            needed[operand as usize] = true;
            last_use[operand as usize] = position;
        }
    }
    for &o in &outputs {
        last_use[o as usize] = usize::MAX;
    }
    // Registers: the inputs first, then constants, then temporaries from a free list.
    let mut register = vec![u32::MAX; nodes.len()];
    let mut registers = inputs;
    let mut constants = Vec::new();
    for (id, node) in nodes.iter().enumerate() {
        match *node {
            Node::Input => register[id] = id as u32,
            Node::Const(c) if needed[id] => {
                register[id] = registers as u32;
                constants.push((registers as u32, c));
                registers += 1;
            }
            _ => {}
        }
    }
    let constant_of = |id: u32| match nodes[id as usize] {
        Node::Const(c) => Some(c),
        _ => None,
    };
    let mut free: Vec<u32> = Vec::new();
    let mut code = Vec::new();
    for (position, &id) in order.iter().enumerate() {
        let (op, a, b) = match nodes[id as usize] {
            Node::Unary(f, a) => (Op::Unary(f), a, a),
            Node::Binary(f, a, b) => kernel(f, a, b, constant_of(a).is_some(), constant_of(b)),
            Node::Input | Node::Const(_) => continue,
        };
        // Operands read here for the last time give their registers back first, so the result
        // may reuse one of them (every kernel reads its operands before writing).
        for operand in if a == b { vec![a] } else { vec![a, b] } {
            let temporary = matches!(nodes[operand as usize], Node::Unary(..) | Node::Binary(..));
            if temporary && last_use[operand as usize] == position {
                free.push(register[operand as usize]);
            }
        }
        let out = free.pop().unwrap_or_else(|| {
            registers += 1;
            (registers - 1) as u32
        });
        register[id as usize] = out;
        let two = !matches!(op, Op::Square | Op::Unary(_)) && constant_of(b).is_none();
        code.push(Instr {
            op,
            a: register[a as usize],
            b: register[b as usize],
            out,
            two,
        });
    }
    let outputs = outputs.iter().map(|&o| register[o as usize]).collect();
    Program {
        input_shape: input_shape.to_vec(),
        output_shape: output_shape.to_vec(),
        inputs,
        constants,
        code,
        outputs,
        registers,
        values_scratch: RefCell::default(),
        lanes_scratch: RefCell::default(),
    }
}

fn operands(node: Node) -> [Option<u32>; 2] {
    match node {
        Node::Unary(_, a) => [Some(a), None],
        Node::Binary(_, a, b) => [Some(a), Some(b)],
        Node::Input | Node::Const(_) => [None, None],
    }
}

/// The operations the outputs need, each after its operands, one output after another (depth
/// first). Element by element, each output's temporaries live in a few registers that stay in
/// cache; in recording order (one whole-array operation after another) every intermediate array
/// would stream through memory once per operation.
fn schedule(nodes: &[Node], outputs: &[u32]) -> Vec<u32> {
    let mut done: Vec<bool> = nodes
        .iter()
        .map(|n| matches!(n, Node::Input | Node::Const(_)))
        .collect();
    let mut order = Vec::new();
    let mut stack: Vec<(u32, bool)> = Vec::new();
    for &output in outputs {
        stack.push((output, false));
        while let Some((id, operands_done)) = stack.pop() {
            if done[id as usize] {
                continue;
            }
            if operands_done {
                done[id as usize] = true;
                order.push(id);
                continue;
            }
            stack.push((id, true));
            // Pushed last, the first operand is scheduled first.
            let [a, b] = operands(nodes[id as usize]);
            for operand in [b, a].into_iter().flatten() {
                if !done[operand as usize] {
                    stack.push((operand, false));
                }
            }
        }
    }
    order
}

/// The kernel of `f(a, b)`: `(op, a, b)`, with a constant operand of a commutative function
/// moved to `b` (constant folding left at most one), and `b == a` for one-operand kernels.
fn kernel(f: BinaryFn, a: u32, b: u32, a_is_constant: bool, cb: Option<f64>) -> (Op, u32, u32) {
    let (a, b) = match f {
        BinaryFn::Add | BinaryFn::Mul if a_is_constant => (b, a),
        _ => (a, b),
    };
    match (f, cb) {
        (BinaryFn::Add, _) => (Op::Add, a, b),
        (BinaryFn::Sub, _) => (Op::Sub, a, b),
        (BinaryFn::Mul, _) => (Op::Mul, a, b),
        (BinaryFn::Pow, Some(2.0)) => (Op::Square, a, a),
        (f, _) => (Op::Binary(f), a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::AdError;
    use crate::ops::{self, BinaryFn, UnaryFn};

    fn vector(data: &[f64]) -> Tensor {
        Tensor::from_col_major(&[data.len()], data.to_vec())
    }

    /// `y = [sin(x₁)·x₂ + x₁², Σ exp(x) / 3, x₂ ^ 3]`: unary and binary operations, a sum, a
    /// constant operand and a gather.
    fn f(x: &Tensor) -> std::result::Result<Tensor, AdError> {
        let first = ops::gather(x, &[0], &[])?;
        let second = ops::gather(x, &[1], &[])?;
        let a = ops::binary(
            BinaryFn::Add,
            &ops::binary(BinaryFn::Mul, &ops::unary(UnaryFn::Sin, &first)?, &second)?,
            &ops::binary(BinaryFn::Pow, &first, &Tensor::scalar(2.0))?,
        )?;
        let b = ops::binary(
            BinaryFn::Div,
            &ops::sum_all(&ops::unary(UnaryFn::Exp, x)?)?,
            &Tensor::scalar(3.0),
        )?;
        let c = ops::binary(BinaryFn::Pow, &second, &Tensor::scalar(3.0))?;
        let parts: Vec<Tensor> = [a, b, c]
            .iter()
            .map(|t| ops::reshape(t, &[1]))
            .collect::<std::result::Result<_, _>>()?;
        ops::concat(&parts, 0)
    }

    fn program() -> Rc<Program> {
        let x = vector(&[0.5, -1.5, 2.0]);
        Rc::new(Program::record(f, &x, &f(&x).unwrap()).unwrap().unwrap())
    }

    #[test]
    fn values_pushforwards_and_pullbacks_match_the_function() {
        let p = program();
        let x = vector(&[1.2, 0.7, -0.3]);
        assert_eq!(
            p.call(&x).unwrap().to_col_major(),
            f(&x).unwrap().to_col_major()
        );
        let (_, jac) = crate::di::operators::value_and_jacobian(
            &mut |t: &Tensor| f(t),
            &crate::di::Backend::Forward { chunk: None },
            &x,
        )
        .unwrap();
        let (_, forward) = crate::di::operators::value_and_jacobian(
            &mut |t: &Tensor| p.call(t),
            &crate::di::Backend::Forward { chunk: None },
            &x,
        )
        .unwrap();
        let (_, reverse) = crate::di::operators::value_and_jacobian(
            &mut |t: &Tensor| p.call(t),
            &crate::di::Backend::Reverse { compile: false },
            &x,
        )
        .unwrap();
        for (got, expected) in [(&forward, &jac), (&reverse, &jac)] {
            for (g, e) in got.to_col_major().iter().zip(expected.to_col_major()) {
                assert!((g - e).abs() < 1e-12, "{got:?} vs {expected:?}");
            }
        }
    }

    #[test]
    fn compressed_jacobians_take_a_lane_per_group_in_passes_of_at_most_32() {
        // y_i = x_i · x_{i+1}: 40 single-column groups need two passes; two interleaved groups
        // (even and odd columns) give the compressed form of the same matrix.
        let n = 40;
        let f = |x: &Tensor| -> std::result::Result<Tensor, AdError> {
            let head = ops::gather(x, &(0..n - 1).collect::<Vec<_>>(), &[n - 1])?;
            let tail = ops::gather(x, &(1..n).collect::<Vec<_>>(), &[n - 1])?;
            ops::binary(BinaryFn::Mul, &head, &tail)
        };
        let x = Tensor::from_col_major(&[n], (0..n).map(|k| 1.0 + k as f64).collect());
        let p = Program::record(f, &x, &f(&x).unwrap()).unwrap().unwrap();
        let singles: Vec<Vec<usize>> = (0..n).map(|k| vec![k]).collect();
        let (y, b) = p.compressed_jacobian(&x.to_col_major(), &singles).unwrap();
        assert_eq!(y, f(&x).unwrap().to_col_major());
        let (_, j) = crate::di::operators::value_and_jacobian(&mut |t: &Tensor| f(t), &crate::di::Backend::Forward { chunk: None }, &x).unwrap();
        assert_eq!(b.t().iter().copied().collect::<Vec<_>>(), j.to_col_major());
        let parity = vec![(0..n).step_by(2).collect(), (1..n).step_by(2).collect()];
        let (_, c) = p.compressed_jacobian(&x.to_col_major(), &parity).unwrap();
        for i in 0..n - 1 {
            let (even, odd) = if i % 2 == 0 { (i, i + 1) } else { (i + 1, i) };
            assert_eq!(c[[i, 0]], j.primal()[[i, even]]);
            assert_eq!(c[[i, 1]], j.primal()[[i, odd]]);
        }
    }

    #[test]
    fn an_operand_used_twice_counts_twice() {
        // x + x, x - x, x * x, x / x and hypot(x, x) read one register for both operands.
        let twice = |x: &Tensor| -> std::result::Result<Tensor, AdError> {
            let parts = [
                BinaryFn::Add,
                BinaryFn::Sub,
                BinaryFn::Mul,
                BinaryFn::Div,
                BinaryFn::Hypot,
            ]
            .into_iter()
            .map(|f| ops::binary(f, x, x))
            .collect::<std::result::Result<Vec<_>, _>>()?;
            ops::concat(&parts, 0)
        };
        let x = vector(&[1.5]);
        let p = Rc::new(
            Program::record(twice, &x, &twice(&x).unwrap())
                .unwrap()
                .unwrap(),
        );
        for backend in [
            crate::di::Backend::Forward { chunk: None },
            crate::di::Backend::Reverse { compile: false },
        ] {
            let (_, j) =
                crate::di::operators::value_and_jacobian(&mut |t: &Tensor| p.call(t), &backend, &x)
                    .unwrap();
            let expected = [2.0, 0.0, 3.0, 0.0, std::f64::consts::SQRT_2];
            for (g, e) in j.to_col_major().iter().zip(expected) {
                assert!((g - e).abs() < 1e-12, "{backend}: {:?}", j.to_col_major());
            }
        }
    }

    #[test]
    fn nested_kinds_replay_with_primitives() {
        // Second order: duals over duals take the replay path.
        let p = program();
        let x = vector(&[1.2, 0.7, -0.3]);
        let h = |g: &dyn Fn(&Tensor) -> Result<Tensor>| {
            let scalar = |t: &Tensor| ops::sum_all(&g(t)?);
            let backend = crate::di::Backend::SecondOrder {
                outer: Box::new(crate::di::Backend::Forward { chunk: None }),
                inner: Box::new(crate::di::Backend::Forward { chunk: None }),
            };
            crate::di::operators::value_gradient_and_hessian(
                &mut |t: &Tensor| scalar(t),
                &backend,
                &x,
            )
            .unwrap()
            .2
            .to_col_major()
        };
        assert_eq!(h(&|t| p.call(t)), h(&|t| f(t)));
    }

    #[test]
    fn registers_are_reused_and_dead_code_dropped() {
        // A long chain keeps only a couple of temporaries live; an unused branch disappears.
        let chain = |x: &Tensor| -> std::result::Result<Tensor, AdError> {
            let _unused = ops::unary(UnaryFn::Exp, x)?;
            let mut acc = x.clone();
            for _ in 0..100 {
                acc = ops::unary(UnaryFn::Sin, &ops::binary(BinaryFn::Add, &acc, x)?)?;
            }
            Ok(acc)
        };
        let x = Tensor::scalar(0.3);
        let p = Program::record(chain, &x, &chain(&x).unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(p.len(), 200);
        assert!(p.registers <= 3, "{} registers", p.registers);
    }

    #[test]
    fn reading_values_under_tracing_is_refused() {
        // A function that reads its input's numbers directly bakes NaN into the program.
        let reads = |x: &Tensor| -> std::result::Result<Tensor, AdError> {
            ops::binary(BinaryFn::Mul, x, &Tensor::scalar(x.primal()[[]]))
        };
        let x = Tensor::scalar(2.0);
        let outcome = Program::record(reads, &x, &reads(&x).unwrap()).unwrap();
        assert_eq!(outcome.err(), Some(NotTraced::Mismatch));
        let dual = |_: &Tensor| -> std::result::Result<Tensor, AdError> {
            Ok(Tensor::dual(
                Tag::fresh(),
                Tensor::scalar(1.0),
                vec![Tensor::scalar(1.0)],
            ))
        };
        assert_eq!(
            Program::record(dual, &x, &x).unwrap().err(),
            Some(NotTraced::NotAGraph)
        );
    }

    #[test]
    fn domain_errors_are_raised_at_evaluation() {
        let root = |x: &Tensor| ops::unary(UnaryFn::Sqrt, x);
        let x = Tensor::scalar(4.0);
        let p = Rc::new(
            Program::record(root, &x, &root(&x).unwrap())
                .unwrap()
                .unwrap(),
        );
        assert!(matches!(
            p.call(&Tensor::scalar(-1.0)),
            Err(AdError::Domain {
                function: "sqrt",
                ..
            })
        ));
    }
}
