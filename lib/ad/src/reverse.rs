//! Reverse mode: a tape of recorded operations and one backward sweep.
//!
//! A [`Tracked`] tensor is a value with a node on a [`Tape`]. Every primitive that meets a
//! tracked operand of the newest tag records a node whose parents carry a *rule*: the closure
//! that turns the node's cotangent into the parent's (written with `ops` primitives, so
//! cotangents may be dual numbers: forward over reverse gives Hessian-vector products).
//! [`Tape::gradient`] walks the nodes backwards, accumulating cotangents with `+`; elementwise
//! functions keep a slope instead of a rule, so `cotangent += ct .* slope` is one pass in
//! place, and sums keep their cotangent unbroadcast until a parent needs it whole, so the
//! gradient of `sum(f.(x))` is `f`'s slope itself. A tape made with [`Tape::compiling`] also
//! keeps what each node computed, for replay ([`crate::compiled`]).

use crate::compiled::Recording;
use crate::error::Result;
use crate::ops::{self, BinaryFn};
use crate::tensor::{Tag, Tensor};
use std::cell::RefCell;
use std::rc::Rc;

/// The rule of one parent: the parent's cotangent contribution from the node's cotangent.
pub type Rule = Box<dyn Fn(&Tensor) -> Result<Tensor>>;

/// How a node sends its cotangent to one parent.
pub(crate) enum Backward {
    /// Through a rule.
    Rule(Rule),
    /// Multiplied by `slope` and summed back to `shape` (the rule of elementwise functions),
    /// added in place into the parent's cotangent in one pass when all three are plain arrays
    /// of one shape.
    Scale { slope: Tensor, shape: Rc<[usize]> },
    /// Added at column-major `indices` into the parent's cotangent of `shape` (the adjoint of
    /// gathering, e.g. `x[i]`), in place: a scalar loop over `x[i]` stays linear in `n`.
    ScatterAdd {
        indices: Rc<[usize]>,
        shape: Rc<[usize]>,
    },
    /// Broadcast to `shape` (the adjoint of sums), lazily: see [`Cotangent::Broadcast`].
    Broadcast { shape: Rc<[usize]> },
}

/// A node's cotangent during the backward sweep.
#[derive(Clone)]
enum Cotangent {
    /// Of the node's shape.
    Full(Tensor),
    /// `value` broadcast to `shape`, not yet materialized: the cotangent of a sum's operand,
    /// which an elementwise parent scales in one pass (or shares its slope, when it is 1).
    Broadcast { value: Tensor, shape: Rc<[usize]> },
}

impl Cotangent {
    fn into_tensor(self) -> Result<Tensor> {
        match self {
            Cotangent::Full(t) => Ok(t),
            Cotangent::Broadcast { value, shape } => {
                ops::elementwise::broadcast_tensor(&value, &shape)
            }
        }
    }

    /// The number every element holds, when it is a broadcast plain number.
    fn uniform(&self) -> Option<f64> {
        match self {
            Cotangent::Broadcast {
                value: Tensor::Plain(a),
                ..
            } if a.len() == 1 => a.first().copied(),
            _ => None,
        }
    }
}

/// A recording of one differentiation.
pub struct Tape {
    tag: Tag,
    nodes: RefCell<Vec<Vec<(usize, Backward)>>>,
    recording: Option<RefCell<Recording>>,
    finished: std::cell::Cell<bool>,
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
            recording: None,
            finished: std::cell::Cell::new(false),
        })
    }

    /// A new tape that also records how to replay each node (see [`crate::compiled`]).
    pub fn compiling() -> Rc<Tape> {
        Rc::new(Tape {
            tag: Tag::fresh(),
            nodes: RefCell::new(Vec::new()),
            recording: Some(RefCell::new(Recording::default())),
            finished: std::cell::Cell::new(false),
        })
    }

    /// Marks the differentiation this tape records as over: no sweep will run on it again, so
    /// its values left in the function's buffers are constants from now on (see
    /// [`Tensor::without_dead_layers`]).
    pub fn finish(&self) {
        self.finished.set(true);
    }

    /// True once [`Tape::finish`] was called.
    pub fn is_finished(&self) -> bool {
        self.finished.get()
    }

    /// True for a tape made with [`Tape::compiling`].
    pub fn is_compiling(&self) -> bool {
        self.recording.is_some()
    }

    /// Runs `f` on the replay recording, if this tape keeps one.
    pub(crate) fn with_recording(&self, f: impl FnOnce(&mut Recording)) {
        if let Some(r) = &self.recording {
            f(&mut r.borrow_mut());
        }
    }

    /// The replay recording and the number of nodes, leaving an empty recording behind.
    pub(crate) fn take_recording(&self) -> (Recording, usize) {
        let recording = self
            .recording
            .as_ref()
            .map(|r| std::mem::take(&mut *r.borrow_mut()))
            .unwrap_or_default();
        (recording, self.nodes.borrow().len())
    }

    /// The tape's tag.
    pub fn tag(&self) -> Tag {
        self.tag
    }

    fn push(&self, parents: Vec<(usize, Backward)>) -> usize {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(parents);
        nodes.len() - 1
    }

    /// A new input: a leaf node holding `value`.
    pub fn input(self: &Rc<Self>, value: Tensor) -> Tensor {
        let node = self.push(Vec::new());
        self.with_recording(|r| r.input(node));
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
        let mut cotangents: Vec<Option<Cotangent>> = Vec::new();
        cotangents.resize_with(nodes.len(), || None);
        cotangents[out.node] = Some(Cotangent::Full(seed.clone()));
        for node in (0..=out.node).rev() {
            let Some(ct) = cotangents[node].take() else {
                continue;
            };
            // Rules and scatters need the cotangent whole: materialized once, if at all.
            let mut whole: Option<Tensor> = None;
            for (parent, backward) in &nodes[node] {
                let slot = &mut cotangents[*parent];
                match backward {
                    Backward::Scale { slope, shape } => accumulate_scaled(slot, &ct, slope, shape)?,
                    Backward::Broadcast { shape } => {
                        let value = match &ct {
                            Cotangent::Full(t) | Cotangent::Broadcast { value: t, .. } => t,
                        };
                        let contribution = Cotangent::Broadcast {
                            value: value.clone(),
                            shape: shape.clone(),
                        };
                        accumulate(slot, contribution)?
                    }
                    Backward::Rule(rule) => {
                        let ct = materialized(&mut whole, &ct)?;
                        accumulate(slot, Cotangent::Full(rule(ct)?))?
                    }
                    Backward::ScatterAdd { indices, shape } => {
                        let ct = materialized(&mut whole, &ct)?;
                        scatter_accumulate(slot, ct, indices, shape)?
                    }
                }
            }
            cotangents[node] = Some(ct);
        }
        inputs
            .iter()
            .map(|(node, shape)| match cotangents[*node].take() {
                Some(ct) => {
                    let ct = ct.into_tensor()?;
                    if ct.shape() == shape.as_slice() {
                        Ok(ct)
                    } else {
                        ops::reshape(&ct, shape)
                    }
                }
                None => Ok(zeros(shape)),
            })
            .collect()
    }
}

/// `ct` as a whole tensor, kept in `cache` so a node materializes it at most once.
fn materialized<'a>(cache: &'a mut Option<Tensor>, ct: &Cotangent) -> Result<&'a Tensor> {
    let whole = match cache.take() {
        Some(t) => t,
        None => ct.clone().into_tensor()?,
    };
    Ok(cache.insert(whole))
}

/// Adds `contribution` to a cotangent, in place when both are plain arrays of one shape.
fn accumulate(slot: &mut Option<Cotangent>, contribution: Cotangent) -> Result<()> {
    let Some(existing) = slot.take() else {
        *slot = Some(contribution);
        return Ok(());
    };
    let contribution = contribution.into_tensor()?;
    *slot = Some(Cotangent::Full(match existing.into_tensor()? {
        Tensor::Plain(mut acc) => match &contribution {
            Tensor::Plain(c) if c.shape() == acc.shape() => {
                *Rc::make_mut(&mut acc) += &**c;
                Tensor::Plain(acc)
            }
            _ => ops::binary(BinaryFn::Add, &Tensor::Plain(acc), &contribution)?,
        },
        acc => ops::binary(BinaryFn::Add, &acc, &contribution)?,
    }));
    Ok(())
}

/// Adds `ct .* slope`, summed back to `shape`, to a cotangent: in place in one pass when all
/// are plain arrays of one shape, and without a pass at all when `ct` is a broadcast 1 and
/// nothing was accumulated yet (the slope itself is the contribution).
fn accumulate_scaled(
    slot: &mut Option<Cotangent>,
    ct: &Cotangent,
    slope: &Tensor,
    shape: &[usize],
) -> Result<()> {
    if let Tensor::Plain(s) = slope {
        if let (
            Some(c),
            Cotangent::Broadcast {
                shape: ct_shape, ..
            },
        ) = (ct.uniform(), ct)
        {
            if s.len() == 1 && **ct_shape == *shape {
                let k = s.first().copied().unwrap_or_default();
                let value = Tensor::scalar(c * k);
                let shape = ct_shape.clone();
                return accumulate(slot, Cotangent::Broadcast { value, shape });
            }
        }
        if s.shape() == shape {
            match (slot.as_mut(), ct) {
                (Some(Cotangent::Full(Tensor::Plain(acc))), Cotangent::Full(Tensor::Plain(c)))
                    if acc.shape() == shape && c.shape() == shape =>
                {
                    ndarray::Zip::from(Rc::make_mut(acc))
                        .and(&**c)
                        .and(&**s)
                        .for_each(|a, &c, &s| *a += c * s);
                    return Ok(());
                }
                (Some(Cotangent::Full(Tensor::Plain(acc))), ct) if acc.shape() == shape => {
                    if let Some(c) = ct.uniform() {
                        ndarray::Zip::from(Rc::make_mut(acc))
                            .and(&**s)
                            .for_each(|a, &s| *a += c * s);
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
    }
    // A broadcast number of the slope's shape (the cotangent of a sum's operand) scales the
    // slope layer by layer, whatever its kind (the duals of forward-over-reverse): the
    // broadcast is never materialized, and a 1 shares the slope.
    if let (
        Some(c),
        Cotangent::Broadcast {
            shape: ct_shape, ..
        },
    ) = (ct.uniform(), ct)
    {
        if **ct_shape == *shape && slope.shape() == shape {
            let contribution = if c == 1.0 {
                slope.clone()
            } else {
                ops::binary(BinaryFn::Mul, &Tensor::scalar(c), slope)?
            };
            return accumulate(slot, Cotangent::Full(contribution));
        }
    }
    let contribution = ops::elementwise::scale(slope, &ct.clone().into_tensor()?)?;
    accumulate(
        slot,
        Cotangent::Full(ops::taping::unbroadcast(contribution, shape)?),
    )
}

/// Adds `ct` at the column-major positions `indices` of a cotangent of `shape`.
fn scatter_accumulate(
    slot: &mut Option<Cotangent>,
    ct: &Tensor,
    indices: &[usize],
    shape: &[usize],
) -> Result<()> {
    let scattered = || -> Result<Cotangent> {
        Ok(Cotangent::Full(crate::ops::taping::scatter_add(
            ct, indices, shape,
        )?))
    };
    let Tensor::Plain(values) = ct else {
        return accumulate(slot, scattered()?);
    };
    let mut acc = match slot.take() {
        None => Rc::new(crate::tensor::col_major(
            shape,
            vec![0.0; shape.iter().product()],
        )),
        Some(Cotangent::Full(Tensor::Plain(a))) if a.t().is_standard_layout() => a,
        Some(other) => {
            *slot = Some(other);
            return accumulate(slot, scattered()?);
        }
    };
    // Column-major contiguous (checked above), so memory order is Julia's linear order.
    let data = Rc::make_mut(&mut acc)
        .as_slice_memory_order_mut()
        .expect("column-major contiguous");
    for (&i, v) in indices
        .iter()
        .zip(crate::tensor::col_major_slice(values).iter())
    {
        data[i] += v;
    }
    *slot = Some(Cotangent::Full(Tensor::Plain(acc)));
    Ok(())
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
/// operand is on the tape. A node recorded this way cannot be replayed: a compiling tape that
/// meets one gives up compiling (use [`record_op`] for primitives).
pub fn record(tag: Tag, value: Tensor, operands: Vec<(&Tensor, Rule)>) -> Tensor {
    let (out, node) = push_node(tag, value, with_rules(operands), &[]);
    if let Some((tape, _)) = node {
        tape.with_recording(Recording::opaque);
    }
    out
}

/// Records `value` like [`record`], and for a compiling tape also how to recompute it:
/// `replay` applied to `inputs` (all operands of the primitive, on the tape or not).
pub fn record_op(
    tag: Tag,
    value: Tensor,
    rules: Vec<(&Tensor, Rule)>,
    inputs: &[&Tensor],
    replay: impl Fn(&[Tensor]) -> Result<Tensor> + 'static,
) -> Tensor {
    record_replayable(tag, value, with_rules(rules), inputs, replay)
}

/// Records `value` like [`record_op`] for an elementwise function: each operand's cotangent
/// is the node's times its slope (of the node's shape or broadcastable to it).
pub(crate) fn record_scaled(
    tag: Tag,
    value: Tensor,
    slopes: Vec<(&Tensor, Tensor)>,
    inputs: &[&Tensor],
    replay: impl Fn(&[Tensor]) -> Result<Tensor> + 'static,
) -> Tensor {
    let backwards = slopes
        .into_iter()
        .map(|(operand, slope)| {
            let shape = value_below(operand, tag).shape().into();
            (operand, Backward::Scale { slope, shape })
        })
        .collect();
    record_replayable(tag, value, backwards, inputs, replay)
}

/// Records `value`, computed from the single `operand` by a linear map whose adjoint is
/// `backward` (gathers, sums, reshapes).
pub(crate) fn record_linear(
    tag: Tag,
    value: Tensor,
    operand: &Tensor,
    backward: Backward,
    replay: impl Fn(&[Tensor]) -> Result<Tensor> + 'static,
) -> Tensor {
    record_replayable(tag, value, vec![(operand, backward)], &[operand], replay)
}

fn with_rules(operands: Vec<(&Tensor, Rule)>) -> Vec<(&Tensor, Backward)> {
    operands
        .into_iter()
        .map(|(t, rule)| (t, Backward::Rule(rule)))
        .collect()
}

fn record_replayable(
    tag: Tag,
    value: Tensor,
    backwards: Vec<(&Tensor, Backward)>,
    inputs: &[&Tensor],
    replay: impl Fn(&[Tensor]) -> Result<Tensor> + 'static,
) -> Tensor {
    let (out, node) = push_node(tag, value, backwards, inputs);
    if let Some((tape, node)) = node {
        tape.with_recording(|r| r.apply(tag, node, inputs, Rc::new(replay)));
    }
    out
}

/// Pushes the node of `value` with a parent per operand on the tape. An operation whose
/// `inputs` are on the tape gets a node even when no derivative flows back (`round`,
/// `ignore_derivatives`), so a compiling tape recomputes it rather than keeping its value.
fn push_node(
    tag: Tag,
    value: Tensor,
    operands: Vec<(&Tensor, Backward)>,
    inputs: &[&Tensor],
) -> (Tensor, Option<(Rc<Tape>, usize)>) {
    let mut tape = None;
    let mut parents = Vec::new();
    for (operand, backward) in operands {
        if let Some(tr) = tracked_with(operand, tag) {
            tape.get_or_insert_with(|| tr.tape.clone());
            parents.push((tr.node, backward));
        }
    }
    if tape.is_none() {
        tape = inputs
            .iter()
            .find_map(|input| tracked_with(input, tag))
            .map(|tr| tr.tape.clone());
    }
    match tape {
        Some(tape) => {
            let node = tape.push(parents);
            let out = Tensor::Tracked(Rc::new(Tracked {
                tag,
                value,
                node,
                tape: tape.clone(),
            }));
            (out, Some((tape, node)))
        }
        None => (value, None),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gathered_cotangents_add_up_at_repeated_positions() {
        let x = Tensor::from_col_major(&[2, 2], vec![1.0, 2.0, 3.0, 4.0]);
        let weights = Tensor::from_col_major(&[3], vec![1.0, 2.0, 3.0]);
        let f = |x: &Tensor| {
            let picked = ops::gather(x, &[3, 0, 3], &[3])?;
            ops::sum_all(&ops::binary(BinaryFn::Mul, &picked, &weights)?)
        };
        let (y, g) = gradient(f, &x).unwrap();
        assert_eq!(y.primal()[[]], 4.0 + 2.0 + 12.0);
        assert_eq!(g.shape(), &[2, 2]);
        assert_eq!(g.to_col_major(), vec![2.0, 0.0, 0.0, 4.0]);
    }

    #[test]
    fn cotangents_of_sums_broadcast_into_every_kind_of_parent() {
        // sum(x .* x) + sum(sum(x; dims=1) .* w) + sum(3 .* x) + sum(x; dims=2)[1].
        let x = Tensor::from_col_major(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let w = Tensor::from_col_major(&[1, 3], vec![10.0, 20.0, 30.0]);
        let three = Tensor::scalar(3.0);
        let f = |x: &Tensor| {
            let squares = ops::sum_all(&ops::binary(BinaryFn::Mul, x, x)?)?;
            let columns = ops::sum_dims(x, &[0])?;
            let weighted = ops::sum_all(&ops::binary(BinaryFn::Mul, &columns, &w)?)?;
            let tripled = ops::sum_all(&ops::binary(BinaryFn::Mul, &three, x)?)?;
            let first = ops::gather(&ops::sum_dims(x, &[1])?, &[0], &[])?;
            let total = ops::binary(BinaryFn::Add, &squares, &weighted)?;
            let total = ops::binary(BinaryFn::Add, &total, &tripled)?;
            ops::binary(BinaryFn::Add, &total, &first)
        };
        let (_, g) = gradient(f, &x).unwrap();
        // 2x + w (per column) + 3 + 1 on the first row.
        assert_eq!(g.to_col_major(), vec![16.0, 17.0, 30.0, 31.0, 44.0, 45.0]);
    }

    #[test]
    fn dual_slopes_under_broadcast_sums_are_scaled_without_materializing() {
        // Forward over reverse of sum(x .* x) + 2 sum(x .^ 3): the sums' cotangents are the
        // broadcast numbers 1 and 2, the slopes duals; x collects three contributions.
        let x = Tensor::from_col_major(&[2], vec![3.0, 5.0]);
        let tag = Tag::fresh();
        let v = Tensor::from_col_major(&[2], vec![1.0, -2.0]);
        let dual = Tensor::dual(tag, x, vec![v]);
        let f = |x: &Tensor| {
            let squares = ops::sum_all(&ops::binary(BinaryFn::Mul, x, x)?)?;
            let cubes = ops::binary(BinaryFn::Pow, x, &Tensor::scalar(3.0))?;
            let cubes = ops::sum_all(&cubes)?;
            let doubled = ops::binary(BinaryFn::Mul, &Tensor::scalar(2.0), &cubes)?;
            ops::binary(BinaryFn::Add, &squares, &doubled)
        };
        let (_, g) = gradient(f, &dual).unwrap();
        let (value, partials) = g.split(tag);
        // ∇f = 2x + 6x², ∇²f = diag(2 + 12x), applied to v = (1, -2).
        assert_eq!(value.to_col_major(), vec![60.0, 160.0]);
        assert_eq!(partials.unwrap()[0].to_col_major(), vec![38.0, -124.0]);
    }

    #[test]
    fn second_order_through_gathers_uses_the_generic_rule() {
        // Forward over reverse: the cotangent of the gather is a dual number.
        let x = Tensor::from_col_major(&[2], vec![3.0, 5.0]);
        let tag = Tag::fresh();
        let dual = Tensor::dual(tag, x, vec![Tensor::from_col_major(&[2], vec![1.0, 0.0])]);
        let f = |x: &Tensor| {
            let first = ops::gather(x, &[0], &[])?;
            ops::binary(BinaryFn::Mul, &first, &first)
        };
        let (_, g) = gradient(f, &dual).unwrap();
        let (value, partials) = g.split(tag);
        assert_eq!(value.to_col_major(), vec![6.0, 0.0]);
        assert_eq!(partials.unwrap()[0].to_col_major(), vec![2.0, 0.0]);
    }
}
