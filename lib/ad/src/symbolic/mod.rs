//! Symbolic tracing (`AutoFastDifferentiation()`): the number kind that records a function as a
//! graph of scalar operations, compiled once into a [`Program`] whose derivatives are sweeps over
//! flat instructions instead of evaluations of the user's function.
//!
//! A [`Symbolic`] array holds, per element, the id of a [`Graph`] node (ids are stored as `f64`
//! so that structural kernels — gathers, reshapes, concatenations — move them like numbers). It
//! has no values: its primal numbers are NaN, so a comparison on it is an error, and anything that
//! reads values anyway leaves NaN in the program, which the check after recording catches
//! ([`Program::record`] compares the program with the function at the recording input).
//! The rules of every primitive for this kind live here; constants fold as they are recorded.

mod compile;
mod derivative;
mod formula;
mod guards;
mod program;
mod slopes;
mod sweep;

pub use derivative::EntryPrograms;
pub use formula::{subscript, Entry, Formula, NoFormula};
pub use guards::{compare, input_with_values, Comparison};
pub use program::{NotTraced, Program};
pub use sweep::Outputs;

use crate::broadcast;
use crate::error::{AdError, Result};
use crate::ops::elementwise::Scalar;
use crate::ops::{BinaryFn, UnaryFn};
use crate::tensor::{col_major, col_major_data, Tensor};
use ndarray::{ArrayD, IxDyn, ShapeBuilder};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::hash_map::Entry as Slot;
use std::rc::Rc;

/// One scalar operation of a recorded graph; operands are earlier nodes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Node {
    /// Element `k` of the input (the first nodes of a graph, in order).
    Input,
    /// A number that did not depend on the input.
    Const(f64),
    /// `f(a)`.
    Unary(UnaryFn, u32),
    /// `f(a, b)`.
    Binary(BinaryFn, u32, u32),
}

/// An operation on given operands, for finding one recorded before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Operation {
    Unary(UnaryFn, u32),
    Binary(BinaryFn, u32, u32),
}

/// The nodes recorded so far by one tracing. The same operation on the same operands is
/// recorded once (scalar code often repeats subexpressions, such as `x^2 * y` in two equations).
#[derive(Debug)]
pub struct Graph {
    nodes: RefCell<Vec<Node>>,
    // Keys are small integers hashed millions of times per tracing: a fast non-keyed hash.
    constants: RefCell<FxHashMap<u64, u32>>,
    operations: RefCell<FxHashMap<Operation, u32>>,
    limit: usize,
    /// How many arithmetic kernels (elementwise, reductions, products) ran on traced values,
    /// whatever their sizes: what an interpreter evaluating the function dispatched.
    kernel_calls: std::cell::Cell<usize>,
    /// Set once the tracing that records into this graph is over.
    finished: std::cell::Cell<bool>,
    /// Each node's value at the recording input, for a tracing with values (see
    /// [`guards`]); `None` for a tracing without values.
    values: Option<RefCell<Vec<f64>>>,
    /// The comparisons a tracing with values answered.
    guards: RefCell<Vec<guards::Recorded>>,
}

impl Default for Graph {
    fn default() -> Graph {
        Graph::with_limit(MAX_NODES)
    }
}

/// The most nodes a tracing records (about a gigabyte with its index): a tracing records one
/// node per array element, so a large vectorized function is better differentiated without one.
pub const MAX_NODES: usize = 1 << 24;

fn too_large() -> AdError {
    AdError::Argument(format!(
        "the symbolic tracing would record more than {MAX_NODES} scalar operations"
    ))
}

impl Graph {
    fn with_limit(limit: usize) -> Graph {
        Graph {
            nodes: RefCell::default(),
            constants: RefCell::default(),
            operations: RefCell::default(),
            limit,
            kernel_calls: std::cell::Cell::new(0),
            finished: std::cell::Cell::new(false),
            values: None,
            guards: RefCell::default(),
        }
    }

    /// A graph that computes the value of every node it records.
    fn with_values() -> Graph {
        Graph {
            values: Some(RefCell::default()),
            ..Graph::default()
        }
    }

    /// True when the graph computes its nodes' values.
    fn has_values(&self) -> bool {
        self.values.is_some()
    }

    /// The value of node `id` at the recording input (NaN without values).
    fn value(&self, id: u32) -> f64 {
        self.values
            .as_ref()
            .map_or(f64::NAN, |v| v.borrow()[id as usize])
    }

    fn is_constant(&self, id: u32) -> bool {
        matches!(self.node(id), Node::Const(_))
    }

    /// Records the next input element, whose value is `value`.
    fn push_input(&self, value: f64) -> Result<u32> {
        let id = self.push(Node::Input)?;
        if let Some(values) = &self.values {
            values.borrow_mut()[id as usize] = value;
        }
        Ok(id)
    }

    /// Marks the tracing as over: symbolic values of this graph left in the function's
    /// buffers are dead from now on (see [`Tensor::without_dead_layers`]).
    pub fn finish(&self) {
        self.finished.set(true);
    }

    /// True once [`Graph::finish`] was called.
    pub fn is_finished(&self) -> bool {
        self.finished.get()
    }

    fn push(&self, node: Node) -> Result<u32> {
        let mut nodes = self.nodes.borrow_mut();
        if nodes.len() >= self.limit {
            return Err(too_large());
        }
        nodes.push(node);
        if let Some(values) = &self.values {
            let mut values = values.borrow_mut();
            let of = |id: u32| values[id as usize];
            let value = match node {
                Node::Input => f64::NAN,
                Node::Const(c) => c,
                Node::Unary(f, a) => f.apply(of(a)),
                Node::Binary(f, a, b) => f.apply(of(a), of(b)),
            };
            values.push(value);
        }
        Ok((nodes.len() - 1) as u32)
    }

    /// The node of `operation`, recorded now unless it was already.
    fn operation(&self, operation: Operation) -> Result<u32> {
        let mut operations = self.operations.borrow_mut();
        match operations.entry(operation) {
            Slot::Occupied(known) => Ok(*known.get()),
            Slot::Vacant(new) => {
                let id = self.push(match operation {
                    Operation::Unary(f, a) => Node::Unary(f, a),
                    Operation::Binary(f, a, b) => Node::Binary(f, a, b),
                })?;
                Ok(*new.insert(id))
            }
        }
    }

    fn node(&self, id: u32) -> Node {
        self.nodes.borrow()[id as usize]
    }

    fn constant(&self, value: f64) -> Result<u32> {
        match self.constants.borrow_mut().entry(value.to_bits()) {
            Slot::Occupied(known) => Ok(*known.get()),
            Slot::Vacant(new) => Ok(*new.insert(self.push(Node::Const(value))?)),
        }
    }

    fn unary(&self, f: UnaryFn, a: u32) -> Result<u32> {
        match self.node(a) {
            Node::Const(x) if !f.in_domain(x) => Err(AdError::Domain {
                function: f.name(),
                value: x,
            }),
            Node::Const(x) => self.constant(f.apply(x)),
            _ => self.operation(Operation::Unary(f, a)),
        }
    }

    fn binary(&self, f: BinaryFn, a: u32, b: u32) -> Result<u32> {
        match (self.node(a), self.node(b)) {
            (Node::Const(x), Node::Const(y)) => {
                slopes::check_binary_domain(f, x, y)?;
                self.constant(f.apply(x, y))
            }
            _ => self.operation(Operation::Binary(f, a, b)),
        }
    }

    /// The sum of `ids` (0 when empty), as a chain of additions.
    fn sum(&self, ids: impl IntoIterator<Item = u32>) -> Result<u32> {
        let mut ids = ids.into_iter();
        let Some(first) = ids.next() else {
            return self.constant(0.0);
        };
        ids.try_fold(first, |acc, id| self.binary(BinaryFn::Add, acc, id))
    }

    fn count_kernel_call(&self) {
        self.kernel_calls.set(self.kernel_calls.get() + 1);
    }

    /// How many arithmetic kernels ran on traced values so far.
    pub(crate) fn kernel_calls(&self) -> usize {
        self.kernel_calls.get()
    }

    /// The recorded nodes.
    pub(crate) fn nodes(&self) -> std::cell::Ref<'_, Vec<Node>> {
        self.nodes.borrow()
    }
}

/// An array of graph nodes, one per element.
#[derive(Debug, Clone)]
pub struct Symbolic {
    /// The node id of each element (exact integers stored as `f64`), in the array's shape.
    pub ids: ArrayD<f64>,
    /// NaN of the same shape: a symbolic array has no values.
    pub primal: ArrayD<f64>,
    /// The graph the nodes belong to.
    pub graph: Rc<Graph>,
}

/// A symbolic tensor of the nodes `ids`.
fn symbolic(graph: &Rc<Graph>, ids: ArrayD<f64>) -> Tensor {
    let primal = ArrayD::from_elem(IxDyn(ids.shape()).f(), f64::NAN);
    Tensor::Symbolic(Rc::new(Symbolic {
        ids,
        primal,
        graph: graph.clone(),
    }))
}

fn id_array(shape: &[usize], ids: Vec<u32>) -> ArrayD<f64> {
    col_major(shape, ids.into_iter().map(f64::from).collect())
}

fn ids(a: &ArrayD<f64>) -> Vec<u32> {
    col_major_data(a).into_iter().map(|k| k as u32).collect()
}

/// The input of a tracing: element `k` is input node `k` of a new graph.
pub fn input(shape: &[usize]) -> Result<Tensor> {
    let graph = Rc::new(Graph::default());
    let n: usize = shape.iter().product();
    for _ in 0..n {
        graph.push(Node::Input)?;
    }
    Ok(symbolic(&graph, id_array(shape, (0..n as u32).collect())))
}

/// The graph of the first symbolic operand.
pub fn graph_of<'a>(operands: impl IntoIterator<Item = &'a Tensor>) -> Option<&'a Rc<Graph>> {
    operands.into_iter().find_map(|t| match t {
        Tensor::Symbolic(s) => Some(&s.graph),
        _ => None,
    })
}

/// The node ids of `t` in `graph`: its own for a symbolic array, constants for plain numbers.
fn ids_in(t: &Tensor, graph: &Rc<Graph>) -> Result<ArrayD<f64>> {
    match t {
        Tensor::Symbolic(s) if Rc::ptr_eq(&s.graph, graph) => Ok(s.ids.clone()),
        Tensor::Symbolic(_) => Err(AdError::Argument(
            "values of two different symbolic tracings were combined".into(),
        )),
        Tensor::Plain(a) => {
            let ids = col_major_data(a)
                .into_iter()
                .map(|v| graph.constant(v))
                .collect::<Result<_>>()?;
            Ok(id_array(a.shape(), ids))
        }
        _ => Err(AdError::NoRule {
            function: "a symbolic tracing of derivatives",
            kind: "symbolic",
        }),
    }
}

/// `f.(s)`.
pub fn unary(f: UnaryFn, s: &Symbolic) -> Result<Tensor> {
    s.graph.count_kernel_call();
    let out = ids(&s.ids)
        .into_iter()
        .map(|a| s.graph.unary(f, a))
        .collect::<Result<_>>()?;
    Ok(symbolic(&s.graph, id_array(s.ids.shape(), out)))
}

/// `f.(a, b)` with broadcasting, where one operand is symbolic and the other symbolic or plain.
pub fn binary(f: BinaryFn, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let graph = graph_of([a, b]).expect("a symbolic operand");
    graph.count_kernel_call();
    let (shape, pairs) = broadcast_pairs(a, b, graph)?;
    let out = pairs
        .map(|(x, y)| graph.binary(f, x, y))
        .collect::<Result<_>>()?;
    Ok(symbolic(graph, id_array(&shape, out)))
}

/// The broadcast shape of `a` and `b` in `graph`, and their node ids paired element by element
/// (column-major).
fn broadcast_pairs(
    a: &Tensor,
    b: &Tensor,
    graph: &Rc<Graph>,
) -> Result<(Vec<usize>, impl Iterator<Item = (u32, u32)>)> {
    let shape = broadcast::shape(a.shape(), b.shape())?;
    let ia = ids(&broadcast::to_shape(&ids_in(a, graph)?, &shape)?);
    let ib = ids(&broadcast::to_shape(&ids_in(b, graph)?, &shape)?);
    Ok((shape, ia.into_iter().zip(ib)))
}

/// `f(a, b)` of two numbers of which one is a rank-0 symbolic array, the other one too or plain:
/// scalar code's path, with no broadcasting and no arrays of ids in between. `None` for other
/// operands.
pub fn scalar_binary(f: BinaryFn, a: Scalar, b: Scalar) -> Option<Result<Tensor>> {
    let graph = [a, b].into_iter().find_map(|s| match s {
        Scalar::Carrying(Tensor::Symbolic(s)) => Some(&s.graph),
        _ => None,
    })?;
    let id = |s: Scalar| match s {
        Scalar::Carrying(Tensor::Symbolic(s))
            if s.ids.ndim() == 0 && Rc::ptr_eq(&s.graph, graph) =>
        {
            s.ids.first().map(|&k| Ok(k as u32))
        }
        Scalar::Plain(v) => Some(graph.constant(v)),
        Scalar::Carrying(_) => None,
    };
    let (x, y) = (id(a)?, id(b)?);
    graph.count_kernel_call();
    Some((|| {
        let out = graph.binary(f, x?, y?)?;
        Ok(symbolic(graph, id_array(&[], vec![out])))
    })())
}

/// `s` broadcast to `shape`.
pub fn broadcast(s: &Symbolic, shape: &[usize]) -> Result<Tensor> {
    Ok(symbolic(&s.graph, broadcast::to_shape(&s.ids, shape)?))
}

/// The sum of all elements.
pub fn sum_all(s: &Symbolic) -> Result<Tensor> {
    s.graph.count_kernel_call();
    let total = s.graph.sum(ids(&s.ids))?;
    Ok(symbolic(&s.graph, id_array(&[], vec![total])))
}

/// Sums along the (0-based) dimensions `dims`, kept with length 1.
pub fn sum_dims(s: &Symbolic, dims: &[usize]) -> Result<Tensor> {
    s.graph.count_kernel_call();
    let (out_shape, targets) = crate::ops::reduce::reduction_targets(s.ids.shape(), dims);
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); out_shape.iter().product()];
    for (id, &target) in ids(&s.ids).into_iter().zip(&targets) {
        groups[target].push(id);
    }
    let out = groups
        .into_iter()
        .map(|g| s.graph.sum(g))
        .collect::<Result<_>>()?;
    Ok(symbolic(&s.graph, id_array(&out_shape, out)))
}

/// Running sums of the elements in column-major order.
pub fn cumsum(s: &Symbolic) -> Result<Tensor> {
    s.graph.count_kernel_call();
    let mut acc: Option<u32> = None;
    let mut out = Vec::with_capacity(s.ids.len());
    for id in ids(&s.ids) {
        let next = match acc {
            Some(a) => s.graph.binary(BinaryFn::Add, a, id)?,
            None => id,
        };
        out.push(next);
        acc = Some(next);
    }
    Ok(symbolic(&s.graph, id_array(s.ids.shape(), out)))
}

/// The same nodes moved by the structural kernel `op` (gather, reshape, ...).
pub fn moved(s: &Symbolic, op: &dyn Fn(&ArrayD<f64>) -> Result<ArrayD<f64>>) -> Result<Tensor> {
    Ok(symbolic(&s.graph, op(&s.ids)?))
}

/// Zeros of `shape` with the elements of `s` added at positions `indices`.
pub fn scatter_add(s: &Symbolic, indices: &[usize], shape: &[usize]) -> Result<Tensor> {
    s.graph.count_kernel_call();
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); shape.iter().product()];
    for (id, &i) in ids(&s.ids).into_iter().zip(indices) {
        groups[i].push(id);
    }
    let out = groups
        .into_iter()
        .map(|g| s.graph.sum(g))
        .collect::<Result<_>>()?;
    Ok(symbolic(&s.graph, id_array(shape, out)))
}

/// `target` with positions `indices` replaced by `values` (one per position or one for all).
pub fn scatter(target: &Tensor, indices: &[usize], values: &Tensor) -> Result<Tensor> {
    let graph = graph_of([target, values]).expect("a symbolic operand");
    let mut out = ids(&ids_in(target, graph)?);
    let source = ids(&ids_in(values, graph)?);
    for (k, &i) in indices.iter().enumerate() {
        out[i] = source[if source.len() == 1 { 0 } else { k }];
    }
    Ok(symbolic(graph, id_array(target.shape(), out)))
}

/// Writes `values` at `indices` of `target` in place; false (nothing written) when `target`'s
/// ids are not stored column-major.
pub fn scatter_into(target: &mut Symbolic, indices: &[usize], values: &Tensor) -> Result<bool> {
    if !target.ids.t().is_standard_layout() {
        return Ok(false);
    }
    let source = ids(&ids_in(values, &target.graph)?);
    let out = target
        .ids
        .as_slice_memory_order_mut()
        .expect("column-major contiguous");
    for (k, &i) in indices.iter().enumerate() {
        out[i] = f64::from(source[if source.len() == 1 { 0 } else { k }]);
    }
    Ok(true)
}

/// Concatenation along `dim` of symbolic and plain arrays.
pub fn concat(parts: &[Tensor], dim: usize) -> Result<Tensor> {
    let graph = graph_of(parts).expect("a symbolic part");
    let id_parts = parts
        .iter()
        .map(|p| ids_in(p, graph).map(Tensor::plain))
        .collect::<Result<Vec<_>>>()?;
    let joined = crate::ops::concat(&id_parts, dim)?;
    Ok(symbolic(graph, joined.primal().clone()))
}

/// `a * b` for matrices and vectors, expanded into sums of products.
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let graph = graph_of([a, b]).expect("a symbolic operand");
    graph.count_kernel_call();
    let (ia, ib) = (ids_in(a, graph)?, ids_in(b, graph)?);
    // The plain product fixes the result's shape and checks the dimensions.
    let shape = crate::ops::matmul(
        &Tensor::plain(ia.mapv(|_| 0.0)),
        &Tensor::plain(ib.mapv(|_| 0.0)),
    )?
    .shape()
    .to_vec();
    let (m, k) = match *a.shape() {
        [m] => (m, 1),
        [m, k] => (m, k),
        _ => unreachable!("matmul checked the ranks"),
    };
    let n = shape.iter().product::<usize>() / m.max(1);
    let (ia, ib) = (ids(&ia), ids(&ib));
    let mut out = Vec::with_capacity(m * n);
    for j in 0..n {
        for i in 0..m {
            let products = (0..k)
                .map(|l| graph.binary(BinaryFn::Mul, ia[i + l * m], ib[l + j * k]))
                .collect::<Result<Vec<_>>>()?;
            out.push(graph.sum(products)?);
        }
    }
    Ok(symbolic(graph, id_array(&shape, out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tracing_stops_at_its_node_limit() {
        let graph = Graph::with_limit(4);
        let x = graph.push(Node::Input).unwrap();
        let two = graph.constant(2.0).unwrap();
        let doubled = graph.binary(BinaryFn::Mul, x, two).unwrap();
        // Repeating an operation or folding constants records nothing new.
        assert_eq!(graph.binary(BinaryFn::Mul, x, two).unwrap(), doubled);
        assert_eq!(
            graph.unary(UnaryFn::Neg, two).unwrap(),
            graph.constant(-2.0).unwrap()
        );
        assert!(graph.unary(UnaryFn::Sin, doubled).is_err());
        assert!(graph.sum([x, doubled, x]).is_err());
    }
}
