//! Symbolic differentiation of a compiled program, as FastDifferentiation does it: every node's
//! tangent is a sparse vector of derivative nodes over the inputs, recorded in the same graph
//! language, so a sparse Jacobian compiles into a program that computes exactly its nonzeros.
//! Constant entries fold away at preparation (a stencil's linear part costs nothing per call) and
//! each entry is computed once, instead of carrying a lane per color through every instruction.

use super::compile::{compile, Op};
use super::program::Program;
use super::{id_array, symbolic, Graph, Node};
use crate::error::{AdError, Result};
use crate::ops::{elementwise, BinaryFn, UnaryFn};
use crate::tensor::Tensor;
use std::rc::Rc;

/// A node's derivatives `(input, derivative node)`, sorted by input; absent entries are zero.
pub(super) type Tangent = Vec<(u32, u32)>;

/// The programs of a sparse Jacobian's or Hessian's entries, made by
/// [`Program::jacobian_programs`] and [`Program::hessian_programs`].
#[derive(Debug)]
pub struct EntryPrograms {
    /// Outputs: the entries.
    pub entries: Program,
    /// Outputs: the entries, then the function's value (column-major; for a Hessian, the value
    /// and then the gradient), sharing their subexpressions.
    pub with_value: Program,
}

impl Program {
    /// Programs computing the Jacobian's entries `entries` `(output, input)` in that order (an
    /// entry that is structurally zero computes 0), from the derivative graph of this program.
    ///
    /// `None` when some derivative depends on a branch (`max`, `min`, `relu`, `mod` and `rem`
    /// choose theirs by value, which a program without branches cannot keep) or when the
    /// derivatives would take more than `budget` nodes.
    ///
    /// Their last outputs are the program's nodes whose functions restrict their domain (`log`,
    /// `sqrt`, fractional powers, ...), so that they raise the same domain errors as the
    /// function.
    pub fn jacobian_programs(
        &self,
        entries: &[(usize, usize)],
        budget: usize,
    ) -> Option<EntryPrograms> {
        let (graph, outputs) = self.regraph(budget)?;
        let recorded = graph.nodes().len();
        let tangents = tangents(&graph, &outputs, budget).ok()?;
        self.entry_programs(&graph, &tangents, recorded, &outputs, &[], entries)
    }

    /// Programs computing the entries `entries` `(i, j)` of the Hessian of this program (with a
    /// single output), as [`Program::jacobian_programs`] does for the Jacobian of its gradient:
    /// the gradient is differentiated symbolically in reverse (each adjoint a node), then its
    /// tangents give the entries. A quadratic function's Hessian is constant and costs nothing
    /// per call.
    pub fn hessian_programs(
        &self,
        entries: &[(usize, usize)],
        budget: usize,
    ) -> Option<EntryPrograms> {
        let (graph, outputs) = self.regraph(budget)?;
        let &[y] = outputs.as_slice() else {
            return None;
        };
        let recorded = graph.nodes().len();
        let gradient = gradient(&graph, y, self.inputs).ok()?;
        let tangents = tangents(&graph, &gradient, budget).ok()?;
        self.entry_programs(&graph, &tangents, recorded, &gradient, &[y], entries)
    }

    /// A graph of this program's operations with room for `budget` more, and its outputs.
    pub(super) fn regraph(&self, budget: usize) -> Option<(Rc<Graph>, Vec<u32>)> {
        let recorded = self.inputs + self.constants.len() + self.code.len();
        let graph = Rc::new(Graph::with_limit(recorded.saturating_add(budget)));
        let outputs = self.rebuild(&graph).ok()?;
        Some((graph, outputs))
    }

    /// The programs of `entries` `(i, j)`, entry `(i, j)` being the derivative of node
    /// `rows[i]` with respect to input `j`; with the value, their outputs continue with
    /// `leading`, then `rows`. The first `recorded` nodes are the function's own.
    fn entry_programs(
        &self,
        graph: &Graph,
        tangents: &[Tangent],
        recorded: usize,
        rows: &[u32],
        leading: &[u32],
        entries: &[(usize, usize)],
    ) -> Option<EntryPrograms> {
        let zero = graph.constant(0.0).ok()?;
        let mut by_row: Vec<Vec<u32>> = vec![Vec::new(); rows.len()];
        let entries: Vec<u32> = entries
            .iter()
            .map(|&(i, j)| {
                let t = &tangents[rows[i] as usize];
                let node = t
                    .binary_search_by_key(&(j as u32), |e| e.0)
                    .map_or(zero, |k| t[k].1);
                by_row[i].push(node);
                node
            })
            .collect();
        let guards = domain_guards(&graph.nodes()[..recorded]);
        let program = |with_value: bool| {
            // Scheduled row by row (a row's entries share its subexpressions), each row's node
            // after its entries.
            let mut schedule_by = Vec::new();
            for (row, &node) in by_row.iter().zip(rows) {
                schedule_by.extend_from_slice(row);
                if with_value {
                    schedule_by.push(node);
                }
            }
            let values = if with_value {
                schedule_by.extend_from_slice(leading);
                [leading, rows].concat()
            } else {
                Vec::new()
            };
            schedule_by.extend_from_slice(&guards);
            let roots = [&entries[..], &values, &guards].concat();
            let shape = [roots.len()];
            compile(
                graph,
                self.inputs,
                roots,
                &schedule_by,
                &self.input_shape,
                &shape,
            )
        };
        Some(EntryPrograms {
            entries: program(false),
            with_value: program(true),
        })
    }

    /// The program's operations recorded again as a graph (inputs first, so input `k` is node
    /// `k`); returns the output nodes.
    fn rebuild(&self, graph: &Graph) -> Result<Vec<u32>> {
        let mut node_of = vec![u32::MAX; self.registers];
        for node in &mut node_of[..self.inputs] {
            *node = graph.push(Node::Input)?;
        }
        for &(r, c) in &self.constants {
            node_of[r as usize] = graph.constant(c)?;
        }
        for ins in &self.code {
            let (a, b) = (node_of[ins.a as usize], node_of[ins.b as usize]);
            node_of[ins.out as usize] = match (ins.op, ins.op.binary_fn()) {
                (Op::Unary(f), _) => graph.unary(f, a)?,
                (Op::Square, _) => graph.binary(BinaryFn::Pow, a, graph.constant(2.0)?)?,
                (_, Some(f)) => graph.binary(f, a, b)?,
                (_, None) => unreachable!("every other kernel has two operands"),
            };
        }
        Ok(self.outputs.iter().map(|&r| node_of[r as usize]).collect())
    }
}

/// The tangent of every node recorded so far that `roots` depend on (the others' are left
/// empty: a sum's running totals would be dense), in order; the derivative nodes are recorded
/// after them. An error when a derivative has no symbolic form or the tangents exceed `budget`
/// entries.
pub(super) fn tangents(graph: &Rc<Graph>, roots: &[u32], budget: usize) -> Result<Vec<Tangent>> {
    let recorded = graph.nodes().len();
    let needed = ancestors(&graph.nodes(), roots);
    let one = graph.constant(1.0)?;
    let mut tangents: Vec<Tangent> = Vec::with_capacity(recorded);
    let mut entries = 0usize;
    for id in 0..recorded as u32 {
        if !needed[id as usize] {
            tangents.push(Vec::new());
            continue;
        }
        let tangent = match graph.node(id) {
            Node::Input => vec![(id, one)],
            Node::Const(_) => Vec::new(),
            Node::Unary(f, a) => {
                let slope = unary_slope(graph, f, a)?;
                scaled(graph, slope, &tangents[a as usize])?
            }
            Node::Binary(f, a, b) => {
                let (sa, sb) = binary_slopes(graph, f, a, b, id)?;
                let along = |slope: Option<u32>, operand: u32| match slope {
                    Some(s) => scaled(graph, s, &tangents[operand as usize]),
                    None => Ok(Vec::new()),
                };
                merged(graph, along(sa, a)?, along(sb, b)?)?
            }
        };
        entries += tangent.len();
        if entries > budget {
            return Err(AdError::Argument(
                "the derivative graph exceeds its budget".into(),
            ));
        }
        tangents.push(tangent);
    }
    Ok(tangents)
}

/// The gradient of node `y` with respect to the `inputs` first nodes, as nodes: adjoints
/// accumulated in reverse over the nodes recorded so far.
fn gradient(graph: &Rc<Graph>, y: u32, inputs: usize) -> Result<Vec<u32>> {
    let mut adjoint: Vec<Option<u32>> = vec![None; y as usize + 1];
    adjoint[y as usize] = Some(graph.constant(1.0)?);
    for id in (0..=y).rev() {
        let Some(g) = adjoint[id as usize] else {
            continue;
        };
        let slopes = match graph.node(id) {
            Node::Input | Node::Const(_) => continue,
            Node::Unary(f, a) => [Some((a, unary_slope(graph, f, a)?)), None],
            Node::Binary(f, a, b) => {
                let (sa, sb) = binary_slopes(graph, f, a, b, id)?;
                [sa.map(|s| (a, s)), sb.map(|s| (b, s))]
            }
        };
        for (operand, slope) in slopes.into_iter().flatten() {
            let term = product(graph, g, slope)?;
            let total = match adjoint[operand as usize] {
                Some(sofar) => sum(graph, sofar, term)?,
                None => term,
            };
            adjoint[operand as usize] = Some(total);
        }
    }
    let zero = graph.constant(0.0)?;
    Ok((0..inputs).map(|k| adjoint[k].unwrap_or(zero)).collect())
}

/// Which nodes `roots` depend on (themselves included).
fn ancestors(nodes: &[Node], roots: &[u32]) -> Vec<bool> {
    let mut needed = vec![false; nodes.len()];
    let mut stack = roots.to_vec();
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut needed[id as usize], true) {
            continue;
        }
        match nodes[id as usize] {
            Node::Unary(_, a) => stack.push(a),
            Node::Binary(_, a, b) => stack.extend([a, b]),
            Node::Input | Node::Const(_) => {}
        }
    }
    needed
}

/// `f'(a)` as a node.
fn unary_slope(graph: &Rc<Graph>, f: UnaryFn, a: u32) -> Result<u32> {
    match f {
        UnaryFn::Neg => graph.constant(-1.0),
        _ => node_of(graph, &f.derivative(&tensor_of(graph, a))?),
    }
}

/// `(∂f/∂a, ∂f/∂b)` of node `y = f(a, b)` as nodes, `None` for a constant operand.
fn binary_slopes(
    graph: &Rc<Graph>,
    f: BinaryFn,
    a: u32,
    b: u32,
    y: u32,
) -> Result<(Option<u32>, Option<u32>)> {
    let varies = |id: u32| !matches!(graph.node(id), Node::Const(_));
    let (need_a, need_b) = (varies(a), varies(b));
    let both = |sa: u32, sb: u32| (need_a.then_some(sa), need_b.then_some(sb));
    // Sums, differences and products (most of any program) without building tensors.
    match f {
        BinaryFn::Add => return Ok(both(graph.constant(1.0)?, graph.constant(1.0)?)),
        BinaryFn::Sub => return Ok(both(graph.constant(1.0)?, graph.constant(-1.0)?)),
        BinaryFn::Mul => return Ok(both(b, a)),
        _ => {}
    }
    let (ta, tb, ty) = (
        tensor_of(graph, a),
        tensor_of(graph, b),
        tensor_of(graph, y),
    );
    let (sa, sb) = elementwise::slopes(f, &ta, &tb, &ty, need_a, need_b)?;
    let node = |slope: Option<Tensor>| slope.map(|s| node_of(graph, &s)).transpose();
    Ok((node(sa)?, node(sb)?))
}

/// Node `id` as a rank-0 tensor: a plain number for a constant (so that the derivative rules
/// see constant exponents), else symbolic.
fn tensor_of(graph: &Rc<Graph>, id: u32) -> Tensor {
    match graph.node(id) {
        Node::Const(c) => Tensor::scalar(c),
        _ => symbolic(graph, id_array(&[], vec![id])),
    }
}

/// The node of a rank-0 tensor computed by the rules (a plain number becomes a constant).
fn node_of(graph: &Graph, t: &Tensor) -> Result<u32> {
    match t {
        Tensor::Symbolic(s) => Ok(s.ids.first().copied().unwrap_or(f64::NAN) as u32),
        _ => graph.constant(t.primal().first().copied().unwrap_or(0.0)),
    }
}

/// `slope · t`; a zero slope drops every dependency, as sparsity tracers do.
fn scaled(graph: &Graph, slope: u32, t: &Tangent) -> Result<Tangent> {
    match graph.node(slope) {
        Node::Const(0.0) => Ok(Vec::new()),
        Node::Const(1.0) => Ok(t.clone()),
        _ => t
            .iter()
            .map(|&(k, d)| Ok((k, product(graph, slope, d)?)))
            .collect(),
    }
}

fn product(graph: &Graph, p: u32, q: u32) -> Result<u32> {
    match (graph.node(p), graph.node(q)) {
        (Node::Const(0.0), _) | (_, Node::Const(0.0)) => graph.constant(0.0),
        (Node::Const(1.0), _) => Ok(q),
        (_, Node::Const(1.0)) => Ok(p),
        _ => graph.binary(BinaryFn::Mul, p, q),
    }
}

fn sum(graph: &Graph, p: u32, q: u32) -> Result<u32> {
    match (graph.node(p), graph.node(q)) {
        (Node::Const(0.0), _) => Ok(q),
        (_, Node::Const(0.0)) => Ok(p),
        _ => graph.binary(BinaryFn::Add, p, q),
    }
}

/// `p + q`, entry by entry.
fn merged(graph: &Graph, p: Tangent, q: Tangent) -> Result<Tangent> {
    if p.is_empty() {
        return Ok(q);
    }
    if q.is_empty() {
        return Ok(p);
    }
    let mut out = Vec::with_capacity(p.len() + q.len());
    let (mut i, mut j) = (0, 0);
    while i < p.len() && j < q.len() {
        match p[i].0.cmp(&q[j].0) {
            std::cmp::Ordering::Less => {
                out.push(p[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(q[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((p[i].0, sum(graph, p[i].1, q[j].1)?));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&p[i..]);
    out.extend_from_slice(&q[j..]);
    Ok(out)
}

/// The nodes whose functions restrict their domain: every such function excludes -2 (`log`,
/// `sqrt`, `asin`, ...), and powers raise for negative bases unless the exponent is a constant
/// integer.
fn domain_guards(nodes: &[Node]) -> Vec<u32> {
    let integer = |id: u32| matches!(nodes[id as usize], Node::Const(c) if c.fract() == 0.0);
    (0..nodes.len() as u32)
        .filter(|&id| match nodes[id as usize] {
            Node::Unary(f, _) => !f.in_domain(-2.0),
            Node::Binary(BinaryFn::Pow, _, b) => !integer(b),
            _ => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::error::AdError;
    use crate::ops::{self, BinaryFn, UnaryFn};
    use crate::symbolic::Program;
    use crate::tensor::Tensor;

    type F = fn(&Tensor) -> Result<Tensor, AdError>;

    fn record(f: F, x: &[f64]) -> Program {
        let x = Tensor::from_col_major(&[x.len()], x.to_vec());
        Program::record(f, &x, &f(&x).unwrap()).unwrap().unwrap()
    }

    fn every_entry(m: usize, n: usize) -> Vec<(usize, usize)> {
        (0..n).flat_map(|j| (0..m).map(move |i| (i, j))).collect()
    }

    /// Scalar parts of `x` combined by one function each, as a vector.
    fn parts(pieces: Vec<Tensor>) -> Result<Tensor, AdError> {
        let pieces = pieces
            .iter()
            .map(|t| ops::reshape(t, &[1]))
            .collect::<Result<Vec<_>, _>>()?;
        ops::concat(&pieces, 0)
    }

    #[test]
    fn the_program_of_entries_gives_the_jacobian() {
        let f: F = |x| {
            let at = |k: usize| ops::gather(x, &[k], &[]);
            let (b, u, s) = (BinaryFn::Mul, ops::unary, Tensor::scalar);
            parts(vec![
                ops::binary(
                    BinaryFn::Add,
                    &ops::binary(b, &at(0)?, &at(1)?)?,
                    &u(UnaryFn::Sin, &at(2)?)?,
                )?,
                ops::binary(
                    BinaryFn::Div,
                    &at(2)?,
                    &ops::binary(BinaryFn::Pow, &at(0)?, &s(2.0))?,
                )?,
                ops::binary(b, &u(UnaryFn::Exp, &at(1)?)?, &u(UnaryFn::Log, &at(2)?)?)?,
                ops::binary(
                    BinaryFn::Pow,
                    &ops::binary(BinaryFn::Hypot, &at(0)?, &at(2)?)?,
                    &at(1)?,
                )?,
                u(
                    UnaryFn::Tanh,
                    &ops::binary(BinaryFn::Sub, &at(0)?, &ops::binary(b, &s(3.0), &at(1)?)?)?,
                )?,
            ])
        };
        let x = [1.5, 0.7, 3.0];
        let program = record(f, &x);
        let entries = every_entry(5, 3);
        let nonzeros = program
            .jacobian_programs(&entries, usize::MAX)
            .unwrap()
            .entries;
        let at = [0.9, 1.3, 2.2];
        let got = nonzeros.values(&at).unwrap();
        let units: Vec<Vec<f64>> = (0..3)
            .map(|j| (0..3).map(|k| f64::from(u8::from(j == k))).collect())
            .collect();
        let refs: Vec<&[f64]> = units.iter().map(Vec::as_slice).collect();
        let (_, columns) = program.pushforward(&at, &refs).unwrap();
        for (&(i, j), &value) in entries.iter().zip(&got) {
            let expected = columns[j][i];
            assert!(
                (value - expected).abs() <= 1e-12 * expected.abs().max(1.0),
                "({i}, {j}): {value} vs {expected}"
            );
        }
        // A structural zero computes 0: the second output does not depend on x₂.
        assert_eq!(got[entries.iter().position(|&e| e == (1, 1)).unwrap()], 0.0);
    }

    #[test]
    fn linear_parts_fold_into_constants() {
        // A periodic second difference: every entry is a constant, so nothing runs per call.
        let f: F = |x| {
            let n = x.len();
            let shifted =
                |s: usize| ops::gather(x, &(0..n).map(|k| (k + s) % n).collect::<Vec<_>>(), &[n]);
            let twice = ops::binary(BinaryFn::Mul, &Tensor::scalar(2.0), x)?;
            ops::binary(
                BinaryFn::Add,
                &ops::binary(BinaryFn::Sub, &shifted(n - 1)?, &twice)?,
                &shifted(1)?,
            )
        };
        let program = record(f, &[1.0, 2.0, 4.0, 8.0]);
        let entries = program.jacobian_entries();
        let nonzeros = program
            .jacobian_programs(&entries, usize::MAX)
            .unwrap()
            .entries;
        assert_eq!(nonzeros.len(), 0);
        let got = nonzeros.values(&[0.0; 4]).unwrap();
        for (&(i, j), &value) in entries.iter().zip(&got) {
            assert_eq!(value, if i == j { -2.0 } else { 1.0 });
        }
    }

    #[test]
    fn the_programs_of_hessian_entries_give_the_hessian() {
        // x₀²x₁ + sin(x₂)x₀ + x₁³, and with the value, its value and gradient.
        let f: F = |x| {
            let at = |k: usize| ops::gather(x, &[k], &[]);
            let (b, s) = (ops::binary, Tensor::scalar);
            let x0_sq_x1 = b(BinaryFn::Mul, &b(BinaryFn::Pow, &at(0)?, &s(2.0))?, &at(1)?)?;
            let sin_x2_x0 = b(BinaryFn::Mul, &ops::unary(UnaryFn::Sin, &at(2)?)?, &at(0)?)?;
            let cube = b(BinaryFn::Pow, &at(1)?, &s(3.0))?;
            b(
                BinaryFn::Add,
                &b(BinaryFn::Add, &x0_sq_x1, &sin_x2_x0)?,
                &cube,
            )
        };
        let program = record(f, &[1.0, 2.0, 3.0]);
        let entries = every_entry(3, 3);
        let programs = program.hessian_programs(&entries, usize::MAX).unwrap();
        let [x0, x1, x2]: [f64; 3] = [0.7, -1.3, 0.4];
        let expected = [
            [2.0 * x1, 2.0 * x0, x2.cos()],
            [2.0 * x0, 6.0 * x1, 0.0],
            [x2.cos(), 0.0, -x2.sin() * x0],
        ];
        let got = programs.with_value.values(&[x0, x1, x2]).unwrap();
        for (k, &(i, j)) in entries.iter().enumerate() {
            assert!((got[k] - expected[i][j]).abs() < 1e-14, "({i}, {j})");
        }
        let value = x0 * x0 * x1 + x2.sin() * x0 + x1.powi(3);
        let gradient = [
            2.0 * x0 * x1 + x2.sin(),
            x0 * x0 + 3.0 * x1 * x1,
            x2.cos() * x0,
        ];
        assert!((got[9] - value).abs() < 1e-14);
        for k in 0..3 {
            assert!((got[10 + k] - gradient[k]).abs() < 1e-14);
        }
        // A quadratic function's Hessian is constant: nothing runs per call.
        let q: F = |x| {
            let d = ops::difference::diff(x, 0)?;
            ops::sum_all(&ops::binary(BinaryFn::Pow, &d, &Tensor::scalar(2.0))?)
        };
        let program = record(q, &[1.0, 2.0, 4.0, 8.0]);
        let programs = program.hessian_programs(&every_entry(4, 4), 1000).unwrap();
        assert_eq!(programs.entries.len(), 0);
        let got = programs.entries.values(&[0.0; 4]).unwrap();
        assert_eq!(&got[..4], &[2.0, -2.0, 0.0, 0.0]);
        assert_eq!(&got[4..8], &[-2.0, 4.0, -2.0, 0.0]);
    }

    #[test]
    fn domain_errors_are_kept_and_branches_and_budgets_refused() {
        // sign(log(x)) has a zero derivative, yet the program of entries still raises where the
        // function does.
        let f: F = |x| ops::unary(UnaryFn::Sign, &ops::unary(UnaryFn::Log, x)?);
        let program = record(f, &[2.0]);
        let nonzeros = program
            .jacobian_programs(&[(0, 0)], usize::MAX)
            .unwrap()
            .entries;
        assert_eq!(nonzeros.values(&[3.0]).unwrap()[0], 0.0);
        assert!(matches!(
            nonzeros.values(&[-1.0]),
            Err(AdError::Domain { .. })
        ));
        // max chooses its derivative by value.
        let g: F = |x| ops::binary(BinaryFn::Max, x, &Tensor::scalar(1.0));
        assert!(record(g, &[2.0])
            .jacobian_programs(&[(0, 0)], usize::MAX)
            .is_none());
        // A dense product needs more derivative nodes than a small budget.
        let h: F = |x| {
            ops::binary(
                BinaryFn::Mul,
                x,
                &ops::sum_all(&ops::unary(UnaryFn::Sin, x)?)?,
            )
        };
        let program = record(h, &[1.0, 2.0, 3.0, 4.0]);
        assert!(program.jacobian_programs(&every_entry(4, 4), 4).is_none());
        assert!(program
            .jacobian_programs(&every_entry(4, 4), 1000)
            .is_some());
    }
}
