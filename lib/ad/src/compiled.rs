//! Compiled tapes (`AutoReverseDiff(compile=true)`): the operations one recording performed,
//! replayed for new inputs without running the user's function again.
//!
//! A [`Tape`] made with [`Tape::compiling`] also keeps a [`Recording`]: for every node, the
//! primitive that computed it (a replay closure) and where its operands came from (another node
//! or a constant). [`CompiledTape::call`] runs those primitives in order on a new input of any
//! number kind, so replaying on a tracked input records an ordinary tape (and pullbacks work as
//! usual), and replaying on dual numbers gives forward derivatives of the compiled function.
//!
//! Like ReverseDiff's compiled tapes, a replay follows the control flow of the recording. Every
//! comparison that involved a recorded value is kept as a guard and checked again at each
//! replay: a different outcome is an error rather than a silently wrong derivative. Choices made
//! from values without a comparison (sorting, `argmax`, conversion to integers) are not seen.

use crate::error::{AdError, Result};
use crate::reverse::{tracked_with, Tape};
use crate::tensor::{Tag, Tensor};
use ndarray::ArrayD;
use std::rc::Rc;

/// How a primitive recomputes its value from its operands.
pub type Replay = Rc<dyn Fn(&[Tensor]) -> Result<Tensor>>;

/// An elementwise comparison kept as a guard.
pub type Comparison = Rc<dyn Fn(f64, f64) -> bool>;

/// Where an operand of a replayed step comes from.
#[derive(Clone)]
enum Source {
    /// The value of an earlier node.
    Node(usize),
    /// A value that did not depend on the input.
    Constant(Tensor),
}

enum Step {
    Input {
        node: usize,
    },
    Apply {
        node: usize,
        operands: Vec<Source>,
        replay: Replay,
    },
    Guard(Box<Guard>),
}

/// A comparison and the outcome it had when recorded.
struct Guard {
    operands: [Source; 2],
    test: Comparison,
    outcome: ArrayD<f64>,
}

/// The steps a compiling tape has seen so far.
#[derive(Default)]
pub struct Recording {
    steps: Vec<Step>,
    /// Set when a node was recorded without a replay rule (a custom rule that calls back into
    /// user code): such a tape cannot be compiled.
    opaque: bool,
}

fn source(t: &Tensor, tag: Tag) -> Source {
    match tracked_with(t, tag) {
        Some(tr) => Source::Node(tr.node),
        None => Source::Constant(t.clone()),
    }
}

impl Recording {
    pub(crate) fn input(&mut self, node: usize) {
        self.steps.push(Step::Input { node });
    }

    pub(crate) fn apply(&mut self, tag: Tag, node: usize, operands: &[&Tensor], replay: Replay) {
        let operands = operands.iter().map(|t| source(t, tag)).collect();
        self.steps.push(Step::Apply {
            node,
            operands,
            replay,
        });
    }

    pub(crate) fn opaque(&mut self) {
        self.opaque = true;
    }

    pub(crate) fn guard(
        &mut self,
        tag: Tag,
        [a, b]: [&Tensor; 2],
        test: Comparison,
        outcome: ArrayD<f64>,
    ) {
        self.steps.push(Step::Guard(Box::new(Guard {
            operands: [source(a, tag), source(b, tag)],
            test,
            outcome,
        })));
    }
}

fn mask(a: &Tensor, b: &Tensor, test: &dyn Fn(f64, f64) -> bool) -> Result<ArrayD<f64>> {
    crate::broadcast::zip_map(a.primal(), b.primal(), |p, q| {
        f64::from(u8::from(test(p, q)))
    })
}

/// The elementwise comparison `test.(a, b)` as a 0/1 mask. When a compiling tape recorded either
/// operand, the outcome becomes a guard that every replay checks.
pub fn compare(
    a: &Tensor,
    b: &Tensor,
    test: impl Fn(f64, f64) -> bool + 'static,
) -> Result<ArrayD<f64>> {
    let outcome = mask(a, b, &test)?;
    let recorded = [a, b].into_iter().find_map(|t| match t {
        Tensor::Tracked(tr) if tr.tape.is_compiling() => Some(tr.clone()),
        _ => None,
    });
    if let Some(tr) = recorded {
        let kept = outcome.clone();
        tr.tape
            .with_recording(|r| r.guard(tr.tag, [a, b], Rc::new(test), kept));
    }
    Ok(outcome)
}

/// The error of a replay at an input where a comparison has another outcome than at recording.
pub fn branch_changed() -> AdError {
    AdError::Argument(
        "AutoReverseDiff(compile=true): a comparison in the function has another outcome at this input than when the tape was recorded, so the compiled tape would give a wrong derivative; prepare again at this input or use AutoReverseDiff()".into(),
    )
}

/// A function recorded once and replayed for new inputs of the recorded shape.
pub struct CompiledTape {
    steps: Vec<Step>,
    nodes: usize,
    output: Source,
    input_shape: Vec<usize>,
}

/// Why a function could not be compiled.
#[derive(Debug, Clone, PartialEq)]
pub enum NotCompiled {
    /// The recording met an operation that calls back into user code (a custom rule).
    CustomRule,
    /// The input carried derivatives already (compiling needs plain numbers).
    NotPlain,
}

impl std::fmt::Display for NotCompiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotCompiled::CustomRule => {
                "the function uses a custom rule (DifferentiateWith or ImplicitFunction), which a compiled tape cannot replay"
            }
            NotCompiled::NotPlain => "the input carries derivatives already",
        })
    }
}

impl CompiledTape {
    /// Records `f` at the plain input `x`. The outer result is `f`'s own error; the inner one
    /// says why the recording cannot be replayed.
    ///
    /// ```
    /// use difflab_ad::{compiled::CompiledTape, ops, AdError, Tensor};
    /// let f = |x: &Tensor| -> Result<Tensor, AdError> { ops::sum_all(&ops::binary(ops::BinaryFn::Mul, x, x)?) };
    /// let tape = CompiledTape::record(f, &Tensor::from_col_major(&[2], vec![1.0, 2.0])).unwrap().unwrap();
    /// let y = tape.call(&Tensor::from_col_major(&[2], vec![3.0, 4.0])).unwrap();
    /// assert_eq!(y.primal()[[]], 25.0);
    /// ```
    pub fn record<E: From<AdError>>(
        f: impl FnOnce(&Tensor) -> std::result::Result<Tensor, E>,
        x: &Tensor,
    ) -> std::result::Result<std::result::Result<CompiledTape, NotCompiled>, E> {
        if !x.is_plain() {
            return Ok(Err(NotCompiled::NotPlain));
        }
        let tape = Tape::compiling();
        let input = tape.input(x.clone());
        let y = f(&input)?;
        let output = source(&y, tape.tag());
        let (recording, nodes) = tape.take_recording();
        // Replays run on the steps, never on this tape's tracked values again.
        tape.finish();
        if recording.opaque {
            return Ok(Err(NotCompiled::CustomRule));
        }
        Ok(Ok(CompiledTape {
            steps: recording.steps,
            nodes,
            output,
            input_shape: x.shape().to_vec(),
        }))
    }

    /// The number of recorded operations.
    pub fn len(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Apply { .. }))
            .count()
    }

    /// True when the function did not compute anything from its input.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The function at a new input `x` (any number kind, the recorded shape), by replaying the
    /// recorded operations.
    pub fn call(&self, x: &Tensor) -> Result<Tensor> {
        if x.shape() != self.input_shape.as_slice() {
            return Err(AdError::Argument(format!(
                "the compiled tape was recorded for an input of size {:?}, not {:?}",
                self.input_shape,
                x.shape()
            )));
        }
        let mut values: Vec<Option<Tensor>> = vec![None; self.nodes];
        let fetch = |values: &[Option<Tensor>], s: &Source| -> Tensor {
            match s {
                Source::Node(k) => values[*k]
                    .clone()
                    .expect("steps are replayed in recording order"),
                Source::Constant(t) => t.clone(),
            }
        };
        for step in &self.steps {
            match step {
                Step::Input { node } => values[*node] = Some(x.clone()),
                Step::Apply {
                    node,
                    operands,
                    replay,
                } => {
                    let args: Vec<Tensor> = operands.iter().map(|s| fetch(&values, s)).collect();
                    values[*node] = Some(replay(&args)?);
                }
                Step::Guard(guard) => {
                    let [a, b] = &guard.operands;
                    let (a, b) = (fetch(&values, a), fetch(&values, b));
                    if mask(&a, &b, &*guard.test)? != guard.outcome {
                        return Err(branch_changed());
                    }
                }
            }
        }
        Ok(fetch(&values, &self.output))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{self, BinaryFn, UnaryFn};
    use crate::reverse::value_below;

    fn vector(data: &[f64]) -> Tensor {
        Tensor::from_col_major(&[data.len()], data.to_vec())
    }

    #[test]
    fn replay_matches_a_fresh_evaluation() {
        let f = |x: &Tensor| -> Result<Tensor> {
            let s = ops::unary(UnaryFn::Sin, x)?;
            let p = ops::binary(BinaryFn::Mul, &s, &Tensor::scalar(3.0))?;
            let g = ops::gather(&p, &[2, 0], &[2])?;
            ops::sum_all(&ops::binary(BinaryFn::Pow, &g, &Tensor::scalar(2.0))?)
        };
        let tape = CompiledTape::record(f, &vector(&[0.1, 0.2, 0.3]))
            .unwrap()
            .unwrap();
        let x = vector(&[1.0, -2.0, 0.5]);
        let replayed = tape.call(&x).unwrap();
        assert_eq!(replayed.primal(), f(&x).unwrap().primal());
        let (_, g) = crate::reverse::gradient(|t| tape.call(t), &x).unwrap();
        let (_, expected) = crate::reverse::gradient(f, &x).unwrap();
        assert_eq!(g.to_col_major(), expected.to_col_major());
    }

    #[test]
    fn a_changed_branch_is_an_error() {
        let f = |x: &Tensor| -> Result<Tensor> {
            let positive = compare(x, &Tensor::scalar(0.0), |a, b| a > b)?;
            if positive[[]] == 1.0 {
                Ok(x.clone())
            } else {
                ops::unary(UnaryFn::Neg, x)
            }
        };
        let tape = CompiledTape::record(f, &Tensor::scalar(1.0))
            .unwrap()
            .unwrap();
        assert_eq!(tape.call(&Tensor::scalar(2.0)).unwrap().primal()[[]], 2.0);
        let err = tape.call(&Tensor::scalar(-2.0)).unwrap_err();
        assert!(err.to_string().contains("another outcome"), "{err}");
    }

    #[test]
    fn custom_rules_and_derivative_inputs_are_not_compiled() {
        let custom = |x: &Tensor| -> Result<Tensor> {
            let tag = x.tag().expect("tracked");
            Ok(crate::reverse::record(
                tag,
                value_below(x, tag).clone(),
                vec![(x, Box::new(|ct: &Tensor| Ok(ct.clone())))],
            ))
        };
        let outcome = CompiledTape::record(custom, &Tensor::scalar(1.0)).unwrap();
        assert_eq!(outcome.err(), Some(NotCompiled::CustomRule));
        let dual = Tensor::dual(Tag::fresh(), Tensor::scalar(1.0), vec![Tensor::scalar(1.0)]);
        let outcome = CompiledTape::record(|x| Ok::<_, AdError>(x.clone()), &dual).unwrap();
        assert_eq!(outcome.err(), Some(NotCompiled::NotPlain));
    }

    #[test]
    fn a_constant_output_replays_as_that_constant() {
        let tape = CompiledTape::record(|_| Ok::<_, AdError>(Tensor::scalar(7.0)), &vector(&[1.0]))
            .unwrap()
            .unwrap();
        assert!(tape.is_empty());
        assert_eq!(tape.call(&vector(&[5.0])).unwrap().primal()[[]], 7.0);
    }
}
