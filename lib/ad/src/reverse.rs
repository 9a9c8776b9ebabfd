//! Reverse mode: a tape of recorded operations and one backward sweep.
//!
//! A [`Tracked`] tensor is a value with a node on a [`Tape`]. Every primitive that meets a
//! tracked operand of the newest tag records a node whose parents carry a *rule*: the closure
//! that turns the node's cotangent into the parent's (written with `ops` primitives, so
//! cotangents may be dual numbers: forward over reverse gives Hessian-vector products).
//! [`Tape::gradient`] walks the nodes backwards, accumulating cotangents with `+`.

use crate::error::Result;
use crate::ops::{self, BinaryFn};
use crate::tensor::{Tag, Tensor};
use std::cell::RefCell;
use std::rc::Rc;

/// The rule of one parent: the parent's cotangent contribution from the node's cotangent.
pub type Rule = Box<dyn Fn(&Tensor) -> Result<Tensor>>;

/// A recording of one differentiation.
pub struct Tape {
    tag: Tag,
    nodes: RefCell<Vec<Vec<(usize, Rule)>>>,
}

/// A value recorded on a tape.
pub struct Tracked {
    /// The tape's tag.
    pub tag: Tag,
    /// The value (possibly a dual of an older tag).
    pub value: Tensor,
    /// Its node.
    pub node: usize,
    /// The tape.
    pub tape: Rc<Tape>,
}

impl std::fmt::Debug for Tracked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tracked(node {}, {:?})", self.node, self.value)
    }
}

impl Tape {
    /// A new, empty tape with a fresh tag.
    pub fn new() -> Rc<Tape> {
        Rc::new(Tape {
            tag: Tag::fresh(),
            nodes: RefCell::new(Vec::new()),
        })
    }

    /// The tape's tag.
    pub fn tag(&self) -> Tag {
        self.tag
    }

    fn push(&self, parents: Vec<(usize, Rule)>) -> usize {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(parents);
        nodes.len() - 1
    }

    /// A new input: a leaf node holding `value`.
    pub fn input(self: &Rc<Self>, value: Tensor) -> Tensor {
        let node = self.push(Vec::new());
        Tensor::Tracked(Rc::new(Tracked {
            tag: self.tag,
            value,
            node,
            tape: self.clone(),
        }))
    }

    /// The cotangents of the nodes `inputs` for the cotangent `seed` of `output` (zeros of each
    /// input's shape when the output does not depend on it).
    pub fn gradient(
        &self,
        output: &Tensor,
        seed: &Tensor,
        inputs: &[(usize, Vec<usize>)],
    ) -> Result<Vec<Tensor>> {
        let zeros = |shape: &[usize]| Tensor::filled(shape, 0.0);
        let Tensor::Tracked(out) = output else {
            return Ok(inputs.iter().map(|(_, s)| zeros(s)).collect());
        };
        if out.tag != self.tag {
            return Ok(inputs.iter().map(|(_, s)| zeros(s)).collect());
        }
        let nodes = self.nodes.borrow();
        let mut cotangents: Vec<Option<Tensor>> = vec![None; nodes.len()];
        cotangents[out.node] = Some(seed.clone());
        for node in (0..=out.node).rev() {
            let Some(ct) = cotangents[node].take() else {
                continue;
            };
            for (parent, rule) in &nodes[node] {
                let contribution = rule(&ct)?;
                cotangents[*parent] = Some(match cotangents[*parent].take() {
                    Some(acc) => ops::binary(BinaryFn::Add, &acc, &contribution)?,
                    None => contribution,
                });
            }
            cotangents[node] = Some(ct);
        }
        Ok(inputs
            .iter()
            .map(|(node, shape)| match cotangents[*node].take() {
                Some(ct) if ct.shape() == shape.as_slice() => ct,
                Some(ct) => ops::reshape(&ct, shape).unwrap_or_else(|_| zeros(shape)),
                None => zeros(shape),
            })
            .collect())
    }
}

/// The tracked layer of `t` for `tag`, if `t` is recorded on that tape.
pub fn tracked_with(t: &Tensor, tag: Tag) -> Option<&Rc<Tracked>> {
    match t {
        Tensor::Tracked(tr) if tr.tag == tag => Some(tr),
        _ => None,
    }
}

/// True when the newest tag among `operands` belongs to a tape.
pub fn is_tape_tag<'a>(operands: impl IntoIterator<Item = &'a Tensor>, tag: Tag) -> bool {
    operands.into_iter().any(|t| tracked_with(t, tag).is_some())
}

/// The value of `t` below the tape layer `tag` (itself when `t` is not on that tape).
pub fn value_below(t: &Tensor, tag: Tag) -> &Tensor {
    match tracked_with(t, tag) {
        Some(tr) => &tr.value,
        None => t,
    }
}

/// Records `value` as computed from `operands`, with one rule per operand (operands not on
/// the tape contribute nothing). The result is a tracked tensor, or `value` itself when no
/// operand is on the tape.
pub fn record(tag: Tag, value: Tensor, operands: Vec<(&Tensor, Rule)>) -> Tensor {
    let mut tape = None;
    let mut parents = Vec::new();
    for (operand, rule) in operands {
        if let Some(tr) = tracked_with(operand, tag) {
            tape.get_or_insert_with(|| tr.tape.clone());
            parents.push((tr.node, rule));
        }
    }
    match tape {
        Some(tape) => {
            let node = tape.push(parents);
            Tensor::Tracked(Rc::new(Tracked {
                tag,
                value,
                node,
                tape,
            }))
        }
        None => value,
    }
}

/// `f(x)` and the gradient of a scalar-valued `f`, by one recording and one backward sweep.
///
/// ```
/// use difflab_ad::{ops, reverse, Tensor};
/// let x = Tensor::from_col_major(&[3], vec![1.0, 2.0, 3.0]);
/// let (y, g) = reverse::gradient(|x| ops::sum_all(&ops::binary(ops::BinaryFn::Mul, x, x)?), &x).unwrap();
/// assert_eq!(y.primal()[[]], 14.0);
/// assert_eq!(g.to_col_major(), vec![2.0, 4.0, 6.0]);
/// ```
pub fn gradient(f: impl Fn(&Tensor) -> Result<Tensor>, x: &Tensor) -> Result<(Tensor, Tensor)> {
    let tape = Tape::new();
    let input = tape.input(x.clone());
    let Tensor::Tracked(tr) = &input else {
        unreachable!("inputs are tracked")
    };
    let y = f(&input)?;
    let mut g = tape.gradient(&y, &Tensor::scalar(1.0), &[(tr.node, x.shape().to_vec())])?;
    Ok((value_below(&y, tape.tag()).clone(), g.swap_remove(0)))
}
