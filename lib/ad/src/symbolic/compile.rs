//! Compiling a recorded graph into flat instructions over registers.
//!
//! Only the nodes the outputs need are kept, scheduled output by output (depth first) so that
//! each output's temporaries live in a few registers; a register is reused once its value is
//! dead, so a scalar loop of a million operations runs in a working set the size of its live
//! values.

use super::program::Program;
use super::{Graph, Node};
use crate::ops::{BinaryFn, UnaryFn};
use std::cell::RefCell;

/// What an instruction computes: the common cases of scalar code have kernels of their own.
#[derive(Debug, Clone, Copy)]
pub(super) enum Op {
    Add,
    Sub,
    Mul,
    /// `a ^ 2`.
    Square,
    Unary(UnaryFn),
    Binary(BinaryFn),
}

impl Op {
    /// The function of a two-operand kernel.
    pub(super) fn binary_fn(self) -> Option<BinaryFn> {
        match self {
            Op::Add => Some(BinaryFn::Add),
            Op::Sub => Some(BinaryFn::Sub),
            Op::Mul => Some(BinaryFn::Mul),
            Op::Binary(f) => Some(f),
            Op::Square | Op::Unary(_) => None,
        }
    }
}

/// One instruction (16 bytes: the whole program streams through the cache at every pass).
#[derive(Debug, Clone, Copy)]
pub(super) struct Instr {
    pub(super) op: Op,
    /// `b` carries tangents too (false for one-operand kernels and constant `b`, whose slope
    /// is then not needed).
    pub(super) two: bool,
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) out: u32,
}

/// Compiles the nodes `outputs` need into instructions over reused registers.
pub(super) fn compile(
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
    use crate::tensor::Tensor;

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
}
