//! Branches in a recording: a tracing that carries values (what forward mode, reverse mode and
//! second order record, unlike `AutoFastDifferentiation()`, which has none) can answer a
//! comparison of traced numbers. Its outcome then becomes a guard of the program, and every run
//! of the program checks its guards at the input's values before computing anything from them:
//! a different outcome is an error, which the caller answers by recording again at that input,
//! never by a derivative of the branch the input does not take.

use super::compile::compile;
use super::program::Program;
use super::{broadcast_pairs, graph_of, id_array, Graph};
use crate::error::{AdError, Result};
use crate::tensor::{col_major, Tensor};
use ndarray::ArrayD;
use std::cell::RefCell;
use std::rc::Rc;

pub use crate::compiled::Comparison;

/// One comparison of two nodes and the outcome it had at the recording input.
pub(super) struct Recorded {
    a: u32,
    b: u32,
    test: Comparison,
    outcome: bool,
}

/// `test.(a, b)` as a 0/1 mask when one operand is traced with values, each outcome kept as a
/// guard of the graph (outcomes between constants are fixed and need none); `None` when no
/// operand is a tracing with values.
pub fn compare(a: &Tensor, b: &Tensor, test: Comparison) -> Option<Result<ArrayD<f64>>> {
    let graph = graph_of([a, b]).filter(|g| g.has_values())?;
    Some((|| {
        let (shape, pairs) = broadcast_pairs(a, b, graph)?;
        let mask = pairs
            .map(|(a, b)| f64::from(u8::from(graph.guard(a, b, &test))))
            .collect();
        Ok(col_major(&shape, mask))
    })())
}

impl std::fmt::Debug for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "guard({}, {}) == {}", self.a, self.b, self.outcome)
    }
}

impl Graph {
    /// The outcome of `test` on the values of nodes `a` and `b`, kept as a guard unless both
    /// are constants.
    fn guard(&self, a: u32, b: u32, test: &Comparison) -> bool {
        let outcome = test(self.value(a), self.value(b));
        if !(self.is_constant(a) && self.is_constant(b)) {
            self.guards.borrow_mut().push(Recorded {
                a,
                b,
                test: test.clone(),
                outcome,
            });
        }
        outcome
    }
}

/// The guards of a program: a program of their operands, and each comparison with its outcome.
pub(super) struct Guards {
    operands: Program,
    tests: Vec<(Comparison, bool)>,
    /// The last input at which every comparison held: a Jacobian runs the program once per
    /// chunk of lanes at the same input, and the outcomes depend on the input only.
    held_at: RefCell<Vec<f64>>,
}

impl std::fmt::Debug for Guards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Guards({} comparisons)", self.tests.len())
    }
}

impl Guards {
    /// The guards `graph` recorded, if any.
    pub(super) fn of(graph: &Graph, input_shape: &[usize]) -> Option<Box<Guards>> {
        let recorded = graph.guards.borrow();
        if recorded.is_empty() {
            return None;
        }
        let pairs: Vec<u32> = recorded.iter().flat_map(|g| [g.a, g.b]).collect();
        let inputs = input_shape.iter().product();
        let operands = compile(
            graph,
            inputs,
            pairs.clone(),
            &pairs,
            input_shape,
            &[pairs.len()],
        );
        let tests = recorded
            .iter()
            .map(|g| (g.test.clone(), g.outcome))
            .collect();
        Some(Box::new(Guards {
            operands,
            tests,
            held_at: RefCell::default(),
        }))
    }

    /// How many comparisons are checked.
    pub(super) fn len(&self) -> usize {
        self.tests.len()
    }

    /// True when every comparison has its recorded outcome at `x` (column-major values). An
    /// error computing an operand is the function's own error at `x`.
    pub(super) fn hold(&self, x: &[f64]) -> Result<bool> {
        let same_bits = |held: &[f64]| {
            held.len() == x.len() && held.iter().zip(x).all(|(a, b)| a.to_bits() == b.to_bits())
        };
        if same_bits(&self.held_at.borrow()) && !x.is_empty() {
            return Ok(true);
        }
        let values = self.operands.values(x)?;
        let hold = self
            .tests
            .iter()
            .zip(values.chunks_exact(2))
            .all(|((test, outcome), ab)| test(ab[0], ab[1]) == *outcome);
        if hold {
            let mut held = self.held_at.borrow_mut();
            held.clear();
            held.extend_from_slice(x);
        }
        Ok(hold)
    }
}

/// The error of a program run at an input that takes another branch than its recording.
pub(super) fn branch_changed() -> AdError {
    AdError::Argument(
        "the function takes another branch at this input than when it was recorded (a comparison of values that depend on the input has another outcome); record it again at this input".into(),
    )
}

/// The input of a tracing with values: element `k` is input node `k` of a new graph, whose
/// value is `x`'s element `k` (column-major).
pub fn input_with_values(x: &Tensor) -> Result<Tensor> {
    let graph = Rc::new(Graph::with_values());
    let values = x.to_col_major();
    for &v in &values {
        graph.push_input(v)?;
    }
    let n = values.len() as u32;
    Ok(super::symbolic(
        &graph,
        id_array(x.shape(), (0..n).collect()),
    ))
}
