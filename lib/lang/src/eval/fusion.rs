//! Fused broadcasting: a chain of dotted operations (`x .^ 2 .+ 2 .* sin.(x)`) runs as one
//! pass over the data, block by block, instead of one pass (and one temporary array) per
//! operation.
//!
//! [`Interp::eval_dotted`] evaluates the operands of the chain first (left to right, as the
//! unfused evaluation would), then runs the fused kernel when every operand is a plain array of
//! the common shape or a plain scalar. Anything else (numbers carrying derivatives, shapes that
//! broadcast against each other, non-numeric operands) is evaluated operation by operation on
//! the same already-computed operands, so no expression is ever evaluated twice.

use super::Interp;
use crate::error::ErrorKind;
use crate::error::{fail, EvalResult, Flow};
use crate::show::ElType;
use crate::value::convert::{from_tensor, operand};
use crate::value::Value;
use difflab_ad::ops::{BinaryFn, UnaryFn};
use difflab_ad::Tensor;
use difflab_syntax::{Arg, BinOp, Expr, ExprKind, UnaryOp};

/// Elements processed per block: small enough for every temporary to stay in L1 cache.
const BLOCK: usize = 1024;
/// Blocks between two looks at the interrupt flag: 65 536 numbers.
const BLOCKS_PER_CHECK: usize = 64;

/// A dotted chain with its operands already evaluated.
enum Tree {
    Leaf(Value),
    Binary(BinOp, Box<Tree>, Box<Tree>),
    Unary(UnaryFn, Box<Tree>),
}

fn fusable_binary(op: BinOp) -> Option<BinaryFn> {
    Some(match op {
        BinOp::Add => BinaryFn::Add,
        BinOp::Sub => BinaryFn::Sub,
        BinOp::Mul => BinaryFn::Mul,
        BinOp::Div => BinaryFn::Div,
        BinOp::Pow => BinaryFn::Pow,
        _ => return None,
    })
}

/// True when `expr` is a dotted operation that can start a fused chain.
pub fn is_dotted_chain(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Binary {
            op, dotted: true, ..
        } => fusable_binary(*op).is_some(),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            dotted: true,
            ..
        } => true,
        _ => false,
    }
}

impl Interp {
    /// Evaluates a dotted chain, fused when possible.
    pub(crate) fn eval_dotted(&mut self, expr: &Expr) -> EvalResult {
        let tree = self.collect_tree(expr)?;
        if let Some(result) = self.run_fused(&tree)? {
            return Ok(result);
        }
        self.run_unfused(tree)
    }

    fn collect_tree(&mut self, expr: &Expr) -> Result<Tree, Flow> {
        match &expr.kind {
            ExprKind::Binary {
                op,
                dotted: true,
                lhs,
                rhs,
            } if fusable_binary(*op).is_some() => {
                let mut l = self.collect_tree(lhs)?;
                if *op == BinOp::Pow && super::operators::is_literal_inverse_power(rhs) {
                    if let Tree::Leaf(v) = l {
                        l = Tree::Leaf(super::operators::float_base(v));
                    }
                }
                let r = self.collect_tree(rhs)?;
                Ok(Tree::Binary(*op, Box::new(l), Box::new(r)))
            }
            ExprKind::Unary {
                op: UnaryOp::Neg,
                dotted: true,
                operand,
            } => {
                let x = self.collect_tree(operand)?;
                Ok(Tree::Unary(UnaryFn::Neg, Box::new(x)))
            }
            ExprKind::Call {
                callee,
                args,
                kwargs,
                dotted: true,
            } if kwargs.is_empty() => {
                if let (
                    ExprKind::Ident(name),
                    [Arg {
                        value,
                        splat: false,
                    }],
                ) = (&callee.kind, args.as_slice())
                {
                    let f = self.lookup(*name)?;
                    if let Value::Builtin(b) = &f {
                        if let Some(u) = crate::builtins::math::unary_fn_of(b.name) {
                            let x = self.collect_tree(value)?;
                            return Ok(Tree::Unary(u, Box::new(x)));
                        }
                    }
                }
                self.leaf(expr)
            }
            _ => self.leaf(expr),
        }
    }

    fn leaf(&mut self, expr: &Expr) -> Result<Tree, Flow> {
        let v = self.eval(expr)?;
        Ok(Tree::Leaf(self.broadcastable(v)?))
    }

    fn run_unfused(&mut self, tree: Tree) -> EvalResult {
        match tree {
            Tree::Leaf(v) => Ok(v),
            Tree::Binary(op, l, r) => {
                let a = self.run_unfused(*l)?;
                let b = self.run_unfused(*r)?;
                self.binary(op, true, &a, &b)
            }
            Tree::Unary(UnaryFn::Neg, x) => {
                let v = self.run_unfused(*x)?;
                crate::builtins::value_operators::unary(UnaryOp::Neg, true, &v)
            }
            Tree::Unary(f, x) => {
                let v = self.run_unfused(*x)?;
                let b = crate::builtins::lookup(difflab_syntax::Name::new(f.name()))
                    .ok_or_else(|| fail(ErrorKind::UndefVarError, f.name().to_string()))?;
                self.broadcast_call(&Value::Builtin(b), vec![v], vec![])
            }
        }
    }

    /// The fused result, or `None` when the operands do not allow fusion.
    fn run_fused(&self, tree: &Tree) -> Result<Option<Value>, Flow> {
        let mut out = Vec::new();
        let fill = |block: &[f64], len: usize| {
            if out.is_empty() {
                out.reserve_exact(len);
            }
            out.extend_from_slice(block);
        };
        let Some(shape) = fused_blocks(tree, fill)? else {
            return Ok(None);
        };
        let eltype = result_eltype(tree);
        Ok(Some(from_tensor(
            Tensor::from_col_major(&shape, out),
            eltype,
            false,
        )))
    }

    /// `sum(chain)` without materializing the chain: `None` when it cannot be fused.
    pub(crate) fn fused_sum(&mut self, chain: &Expr) -> Result<Option<Value>, Flow> {
        let tree = self.collect_tree(chain)?;
        let mut total = 0.0;
        match fused_blocks(&tree, |block, _| total += pairwise_sum(block))? {
            Some(_) if result_eltype(&tree) == ElType::Int64 => Ok(Some(Value::Int(total as i64))),
            Some(_) => Ok(Some(Value::Float(total))),
            None => {
                let value = self.run_unfused(tree)?;
                let sum = crate::builtins::lookup(difflab_syntax::name!("sum"))
                    .expect("sum is a builtin");
                self.call(&Value::Builtin(sum), vec![value]).map(Some)
            }
        }
    }
}

/// The sum of a block with four independent accumulators (so the loop vectorizes).
fn pairwise_sum(block: &[f64]) -> f64 {
    let mut lanes = [0.0; 4];
    let chunks = block.chunks_exact(4);
    let tail: f64 = chunks.remainder().iter().sum();
    for c in chunks {
        for (lane, v) in lanes.iter_mut().zip(c) {
            *lane += v;
        }
    }
    lanes.iter().sum::<f64>() + tail
}

/// Runs the chain block by block, handing each block of results to `sink`; the shape, or
/// `None` when the operands do not allow fusion.
/// Runs the fused kernel block by block, handing each block and the whole length to `sink`;
/// `None` when the chain cannot be fused. The interrupt flag and the memory limit are looked
/// at every `BLOCKS_PER_CHECK` blocks.
fn fused_blocks(
    tree: &Tree,
    mut sink: impl FnMut(&[f64], usize),
) -> Result<Option<Vec<usize>>, Flow> {
    let mut leaves = Vec::new();
    let mut shape: Option<Vec<usize>> = None;
    if !gather_leaves(tree, &mut leaves, &mut shape) {
        return Ok(None);
    }
    let Some(shape) = shape else {
        return Ok(None);
    };
    let len: usize = shape.iter().product();
    if len < BLOCK {
        return Ok(None);
    }
    difflab_ad::limits::reserve_numbers(len)?;
    let mut start = 0;
    while start < len {
        if start % (BLOCK * BLOCKS_PER_CHECK) == 0 {
            difflab_ad::limits::check()?;
        }
        let n = BLOCK.min(len - start);
        let mut leaf_index = 0;
        let block = eval_block(tree, &leaves, &mut leaf_index, start, n)?;
        match block {
            Block::Values(v) => sink(&v, len),
            Block::Slice(v) => sink(v, len),
            Block::Scalar(x) => sink(&vec![x; n], len),
        }
        start += n;
    }
    Ok(Some(shape))
}

/// A leaf's numbers: a plain scalar, a plain array borrowed in place (when its memory is in
/// column-major order already), or a column-major copy.
enum LeafData<'a> {
    Scalar(f64),
    Borrowed(crate::value::convert::Operand<'a>),
    Owned(Vec<f64>),
}

impl LeafData<'_> {
    fn slice(&self) -> &[f64] {
        match self {
            LeafData::Borrowed(op) => op
                .tensor()
                .primal()
                .t()
                .to_slice()
                .expect("checked contiguous"),
            LeafData::Owned(data) => data,
            LeafData::Scalar(_) => &[],
        }
    }
}

/// Collects the leaves in evaluation order; false when one cannot be fused.
fn gather_leaves<'a>(
    tree: &'a Tree,
    leaves: &mut Vec<LeafData<'a>>,
    shape: &mut Option<Vec<usize>>,
) -> bool {
    match tree {
        Tree::Leaf(v) => match v {
            Value::Float(x) => {
                leaves.push(LeafData::Scalar(*x));
                true
            }
            Value::Int(i) => {
                leaves.push(LeafData::Scalar(*i as f64));
                true
            }
            Value::Array(_) | Value::Range(_) => {
                let Some(op) = operand(v).ok().flatten() else {
                    return false;
                };
                let t = op.tensor();
                if !t.is_plain() {
                    return false;
                }
                match shape {
                    Some(s) if s.as_slice() != t.shape() => return false,
                    _ => *shape = Some(t.shape().to_vec()),
                }
                if t.primal().t().to_slice().is_some() {
                    leaves.push(LeafData::Borrowed(op));
                } else {
                    let data = t.to_col_major();
                    leaves.push(LeafData::Owned(data));
                }
                true
            }
            _ => false,
        },
        Tree::Binary(_, l, r) => gather_leaves(l, leaves, shape) && gather_leaves(r, leaves, shape),
        Tree::Unary(_, x) => gather_leaves(x, leaves, shape),
    }
}

fn result_eltype(tree: &Tree) -> ElType {
    fn integral(tree: &Tree) -> bool {
        match tree {
            Tree::Leaf(Value::Int(_)) => true,
            Tree::Leaf(v @ (Value::Array(_) | Value::Range(_))) => operand(v)
                .ok()
                .flatten()
                .is_some_and(|o| o.eltype != ElType::Float64),
            Tree::Leaf(_) => false,
            Tree::Binary(op, l, r) => {
                matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) && integral(l) && integral(r)
            }
            Tree::Unary(f, x) => *f == UnaryFn::Neg && integral(x),
        }
    }
    if integral(tree) {
        ElType::Int64
    } else {
        ElType::Float64
    }
}

/// One block of a node's values.
enum Block<'a> {
    Scalar(f64),
    /// A block of an operand, read in place.
    Slice(&'a [f64]),
    /// A block computed here.
    Values(Vec<f64>),
}

impl Block<'_> {
    fn materialize(self, n: usize) -> Vec<f64> {
        match self {
            Block::Scalar(x) => vec![x; n],
            Block::Slice(s) => s.to_vec(),
            Block::Values(v) => v,
        }
    }
}

fn eval_block<'a>(
    tree: &Tree,
    leaves: &'a [LeafData<'_>],
    next: &mut usize,
    start: usize,
    n: usize,
) -> Result<Block<'a>, Flow> {
    match tree {
        Tree::Leaf(_) => {
            let leaf = &leaves[*next];
            *next += 1;
            Ok(match leaf {
                LeafData::Scalar(x) => Block::Scalar(*x),
                array => Block::Slice(&array.slice()[start..start + n]),
            })
        }
        Tree::Unary(f, x) => {
            let inner = eval_block(x, leaves, next, start, n)?;
            let mut values = inner.materialize(n);
            apply_unary(*f, &mut values)?;
            Ok(Block::Values(values))
        }
        Tree::Binary(op, l, r) => {
            let a = eval_block(l, leaves, next, start, n)?;
            let b = eval_block(r, leaves, next, start, n)?;
            let f = fusable_binary(*op).expect("only fusable operators are collected");
            apply_binary(f, a, b, n).map(Block::Values)
        }
    }
}

fn apply_unary(f: UnaryFn, values: &mut [f64]) -> Result<(), Flow> {
    if let Some(&bad) = values.iter().find(|&&x| !f.in_domain(x)) {
        return Err(difflab_ad::AdError::Domain {
            function: f.name(),
            value: bad,
        }
        .into());
    }
    for v in values.iter_mut() {
        *v = f.apply(*v);
    }
    Ok(())
}

/// `f` over two blocks, with the operator chosen outside the loop so each loop vectorizes.
fn apply_binary(f: BinaryFn, a: Block, b: Block, n: usize) -> Result<Vec<f64>, Flow> {
    macro_rules! kernel {
        ($op:expr) => {
            match (a, b) {
                (Block::Slice(x), Block::Slice(y)) => {
                    x.iter().zip(y).map(|(&p, &q)| $op(p, q)).collect()
                }
                (Block::Slice(x), Block::Scalar(q)) => x.iter().map(|&p| $op(p, q)).collect(),
                (Block::Scalar(p), Block::Slice(y)) => y.iter().map(|&q| $op(p, q)).collect(),
                (Block::Slice(x), Block::Values(mut y)) => {
                    y.iter_mut().zip(x).for_each(|(q, &p)| *q = $op(p, *q));
                    y
                }
                (Block::Values(mut x), Block::Slice(y)) => {
                    x.iter_mut().zip(y).for_each(|(p, &q)| *p = $op(*p, q));
                    x
                }
                (Block::Values(mut x), Block::Values(y)) => {
                    x.iter_mut().zip(&y).for_each(|(p, &q)| *p = $op(*p, q));
                    x
                }
                (Block::Values(mut x), Block::Scalar(q)) => {
                    x.iter_mut().for_each(|p| *p = $op(*p, q));
                    x
                }
                (Block::Scalar(p), Block::Values(mut y)) => {
                    y.iter_mut().for_each(|q| *q = $op(p, *q));
                    y
                }
                (Block::Scalar(p), Block::Scalar(q)) => vec![$op(p, q); n],
            }
        };
    }
    Ok(match f {
        BinaryFn::Add => kernel!(|p: f64, q: f64| p + q),
        BinaryFn::Sub => kernel!(|p: f64, q: f64| p - q),
        BinaryFn::Mul => kernel!(|p: f64, q: f64| p * q),
        BinaryFn::Div => kernel!(|p: f64, q: f64| p / q),
        BinaryFn::Pow => {
            if let Block::Scalar(e) = b {
                if e == 2.0 {
                    return Ok(kernel!(|p: f64, _q: f64| p * p));
                }
                if e.fract() != 0.0 {
                    let base: &[f64] = match &a {
                        Block::Values(x) => x,
                        Block::Slice(x) => x,
                        Block::Scalar(_) => &[],
                    };
                    {
                        if let Some(&bad) = base.iter().find(|&&v| v < 0.0) {
                            return Err(difflab_ad::AdError::Domain {
                                function: "^",
                                value: bad,
                            }
                            .into());
                        }
                    }
                }
            }
            kernel!(|p: f64, q: f64| BinaryFn::Pow.apply(p, q))
        }
        other => {
            return Err(fail(
                ErrorKind::MethodError,
                format!("`{}` cannot be fused", other.name()),
            ))
        }
    })
}
