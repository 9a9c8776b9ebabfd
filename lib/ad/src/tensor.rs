//! The number kinds: [`Tensor`] is a real array of any rank, plain or carrying derivatives.
//!
//! A plain tensor is an `ndarray::ArrayD<f64>` whose shape is the language's (Julia's) shape;
//! element order for linear indexing is column-major whatever the memory layout (see
//! [`Tensor::to_col_major`]). A [`Dual`] holds a value tensor and one tangent tensor per partial
//! (a chunk); its [`Tag`] says which differentiation it belongs to. Values of a dual may be duals
//! of an older tag, which is how nested differentiation (second order) is represented. Rules for
//! combining kinds live with each primitive in [`crate::ops`].

use ndarray::{ArrayD, IxDyn, ShapeBuilder};
use smallvec::SmallVec;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Identifies one differentiation. Tags are issued in increasing order, so a later (inner)
/// differentiation has a larger tag; when two duals of different tags meet, the larger tag is the
/// outer layer of the result and the other operand is a constant for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tag(u64);

impl Tag {
    /// A tag larger than every tag issued before.
    pub fn fresh() -> Tag {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Tag(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// A real array, plain or dual. Scalars are rank-0 tensors.
#[derive(Debug, Clone)]
pub enum Tensor {
    /// Plain numbers, shared: cloning a tensor never copies its numbers (writes copy first
    /// when the array is shared, see [`Rc::make_mut`]).
    Plain(Rc<ArrayD<f64>>),
    /// Numbers with tangent partials.
    Dual(Rc<Dual>),
    /// Sparsity tracers: the input indices each element depends on.
    Tracer(Rc<crate::tracer::Tracer>),
    /// A value recorded on a reverse-mode tape.
    Tracked(Rc<crate::reverse::Tracked>),
    /// Nodes of a symbolic tracing (no values; see [`crate::symbolic`]).
    Symbolic(Rc<crate::symbolic::Symbolic>),
}

/// A value with a chunk of tangents: the number `value + Σ partials[k] εₖ` for one [`Tag`].
#[derive(Debug, Clone)]
pub struct Dual {
    /// The differentiation this perturbation belongs to.
    pub tag: Tag,
    /// The value (itself possibly a dual of an older tag).
    pub value: Tensor,
    /// One tangent per partial, each of the value's shape.
    pub partials: Vec<Tensor>,
}

impl Dual {
    /// The dual whose value and partials are `f` of these: how a linear operation (a sum, a
    /// gather, a broadcast) acts on a dual, layer by layer.
    pub fn map_layers<E>(
        &self,
        mut f: impl FnMut(&Tensor) -> Result<Tensor, E>,
    ) -> Result<Tensor, E> {
        Ok(Tensor::dual(
            self.tag,
            f(&self.value)?,
            self.partials.iter().map(f).collect::<Result<_, E>>()?,
        ))
    }
}

impl Tensor {
    /// A plain tensor holding `a`.
    pub fn plain(a: ArrayD<f64>) -> Tensor {
        Tensor::Plain(Rc::new(a))
    }

    /// A rank-0 plain tensor.
    pub fn scalar(x: f64) -> Tensor {
        Tensor::plain(rank0(x))
    }

    /// A plain tensor of `shape` filled with `x`.
    pub fn filled(shape: &[usize], x: f64) -> Tensor {
        Tensor::plain(ArrayD::from_elem(IxDyn(shape).f(), x))
    }

    /// A plain tensor of `shape` from data in column-major order.
    ///
    /// # Panics
    /// If `data.len()` is not the product of `shape`; callers construct both together.
    pub fn from_col_major(shape: &[usize], data: Vec<f64>) -> Tensor {
        Tensor::plain(col_major(shape, data))
    }

    /// A dual tensor; `partials` must each have the shape of `value`.
    pub fn dual(tag: Tag, value: Tensor, partials: Vec<Tensor>) -> Tensor {
        Tensor::Dual(Rc::new(Dual {
            tag,
            value,
            partials,
        }))
    }

    /// The shape (Julia's dimensions).
    pub fn shape(&self) -> &[usize] {
        match self {
            Tensor::Plain(a) => a.shape(),
            Tensor::Dual(d) => d.value.shape(),
            Tensor::Tracer(t) => t.primal.shape(),
            Tensor::Tracked(t) => t.value.shape(),
            Tensor::Symbolic(s) => s.ids.shape(),
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape().iter().product()
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The same numbers without the layers of finished differentiations, such as those left in
    /// an array a differentiated function writes at every call: dual layers whose partials are
    /// all zero (equal to their value both as numbers and as constants of any differentiation),
    /// values of finished reverse tapes (which no sweep will reach again), and symbolic values
    /// of finished tracings (NaN: they never had numbers).
    pub fn without_dead_layers(&self) -> Tensor {
        match self {
            Tensor::Dual(d) if d.partials.iter().all(Tensor::is_all_zero) => {
                d.value.without_dead_layers()
            }
            Tensor::Dual(d) => {
                let value = d.value.without_dead_layers();
                Tensor::dual(d.tag, value, d.partials.clone())
            }
            Tensor::Tracked(t) if t.tape.is_finished() => t.value.without_dead_layers(),
            // A finished tracing's values were never numbers: what is left of them is unknown.
            Tensor::Symbolic(s) if s.graph.is_finished() => {
                Tensor::Plain(Rc::new(s.primal.clone()))
            }
            other => other.clone(),
        }
    }

    /// True when the outer layer belongs to a finished tape or tracing (a constant-time check,
    /// unlike [`Tensor::without_dead_layers`]).
    pub fn outer_layer_is_dead(&self) -> bool {
        match self {
            Tensor::Tracked(t) => t.tape.is_finished(),
            Tensor::Symbolic(s) => s.graph.is_finished(),
            _ => false,
        }
    }

    /// True when every number, and every partial of every layer, is zero.
    fn is_all_zero(&self) -> bool {
        match self {
            Tensor::Plain(a) => a.iter().all(|v| *v == 0.0),
            Tensor::Dual(d) => d.value.is_all_zero() && d.partials.iter().all(Tensor::is_all_zero),
            _ => false,
        }
    }

    /// The plain numbers underneath every layer of duals.
    pub fn primal(&self) -> &ArrayD<f64> {
        match self {
            Tensor::Plain(a) => a,
            Tensor::Dual(d) => d.value.primal(),
            Tensor::Tracer(t) => &t.primal,
            Tensor::Tracked(t) => t.value.primal(),
            Tensor::Symbolic(s) => &s.primal,
        }
    }

    /// The plain numbers underneath every layer of duals, as a tensor sharing them.
    pub fn primal_tensor(&self) -> Tensor {
        match self {
            Tensor::Plain(_) => self.clone(),
            Tensor::Dual(d) => d.value.primal_tensor(),
            Tensor::Tracer(t) => Tensor::Plain(t.primal.clone()),
            Tensor::Tracked(t) => t.value.primal_tensor(),
            Tensor::Symbolic(s) => Tensor::plain(s.primal.clone()),
        }
    }

    /// The outermost tag, if this is a dual.
    pub fn tag(&self) -> Option<Tag> {
        match self {
            Tensor::Plain(_) | Tensor::Tracer(_) | Tensor::Symbolic(_) => None,
            Tensor::Dual(d) => Some(d.tag),
            Tensor::Tracked(t) => Some(t.tag),
        }
    }

    /// True when a global sparsity tracer is inside (its values are unknown: comparing them
    /// is an error).
    pub fn is_global_tracer(&self) -> bool {
        match self {
            Tensor::Tracer(t) => t.global,
            Tensor::Dual(d) => d.value.is_global_tracer(),
            Tensor::Tracked(t) => t.value.is_global_tracer(),
            Tensor::Plain(_) | Tensor::Symbolic(_) => false,
        }
    }

    /// True when a symbolic tracing is inside (its values are unknown: comparing them is an
    /// error).
    pub fn is_symbolic(&self) -> bool {
        match self {
            Tensor::Symbolic(_) => true,
            Tensor::Dual(d) => d.value.is_symbolic(),
            Tensor::Tracked(t) => t.value.is_symbolic(),
            Tensor::Plain(_) | Tensor::Tracer(_) => false,
        }
    }

    /// True when a sparsity tracer is inside.
    pub fn has_tracer(&self) -> bool {
        match self {
            Tensor::Tracer(_) => true,
            Tensor::Dual(d) => d.value.has_tracer() || d.partials.iter().any(Tensor::has_tracer),
            Tensor::Tracked(t) => t.value.has_tracer(),
            Tensor::Plain(_) | Tensor::Symbolic(_) => false,
        }
    }

    /// True for plain numbers.
    pub fn is_plain(&self) -> bool {
        matches!(self, Tensor::Plain(_))
    }

    /// The primal values in column-major order.
    pub fn to_col_major(&self) -> Vec<f64> {
        col_major_data(self.primal())
    }

    /// Splits into (value, partials) for `tag`: a tensor of another (older) tag or a plain one is
    /// a constant for `tag`, with no partials (`None`).
    pub fn split(&self, tag: Tag) -> (&Tensor, Option<&[Tensor]>) {
        match self {
            Tensor::Dual(d) if d.tag == tag => (&d.value, Some(&d.partials)),
            other => (other, None),
        }
    }
}

thread_local! {
    /// The rank-0 zero that every zero partial of scalar forward mode shares (a number's
    /// partials along the colors it does not depend on).
    static ZERO: Tensor = Tensor::scalar(0.0);
}

/// A plain rank-0 tensor holding `x`; a positive zero is the shared one.
pub(crate) fn scalar_number(x: f64) -> Tensor {
    if x.to_bits() == 0 {
        ZERO.with(Tensor::clone)
    } else {
        Tensor::scalar(x)
    }
}

/// The cartesian index (0-based) of column-major position `k` in `shape`.
pub fn unravel(shape: &[usize], mut k: usize) -> SmallVec<[usize; 4]> {
    shape
        .iter()
        .map(|&n| {
            let i = k % n.max(1);
            k /= n.max(1);
            i
        })
        .collect()
}

/// A rank-0 array holding `x`: built as a fixed-rank array and converted, which skips the
/// general shape machinery that dominates the cost of scalar code's numbers.
pub fn rank0(x: f64) -> ArrayD<f64> {
    ndarray::arr0(x).into_dyn()
}

/// The elements of `a` in column-major (Julia) order.
pub fn col_major_data(a: &ArrayD<f64>) -> Vec<f64> {
    col_major_slice(a).into_owned()
}

/// The elements of `a` in column-major order, borrowed when that is their memory order.
pub fn col_major_slice(a: &ArrayD<f64>) -> std::borrow::Cow<'_, [f64]> {
    // Scalars and vectors: column-major order is the logical order (the cheap check matters
    // for the rank-0 arrays of scalar code).
    if a.ndim() <= 1 {
        if let Some(s) = a.as_slice() {
            return std::borrow::Cow::Borrowed(s);
        }
    }
    let reversed = a.t();
    if reversed.is_standard_layout() {
        if let Some(s) = a.as_slice_memory_order() {
            return std::borrow::Cow::Borrowed(s);
        }
    }
    std::borrow::Cow::Owned(reversed.iter().copied().collect())
}

/// A column-major array of `shape` holding `data`.
///
/// # Panics
/// If `data.len()` is not the product of `shape`.
pub fn col_major(shape: &[usize], data: Vec<f64>) -> ArrayD<f64> {
    ArrayD::from_shape_vec(IxDyn(shape).f(), data).expect("shape and data length agree")
}

/// The largest tag among the operands: the layer a multi-operand rule differentiates first.
pub fn top_tag<'a>(operands: impl IntoIterator<Item = &'a Tensor>) -> Option<Tag> {
    operands.into_iter().filter_map(Tensor::tag).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_layers_go_and_live_ones_stay() {
        let (old, new) = (Tag::fresh(), Tag::fresh());
        // A finished differentiation's layer (zero partials) under a live one.
        let stale = Tensor::dual(old, Tensor::scalar(2.0), vec![Tensor::scalar(0.0)]);
        let live = Tensor::dual(new, stale, vec![Tensor::scalar(3.0)]);
        let Tensor::Dual(d) = live.without_dead_layers() else {
            panic!("the live layer stays");
        };
        assert_eq!(d.tag, new);
        assert!(d.value.is_plain(), "the dead layer under it goes");
        assert_eq!(d.partials[0].primal()[[]], 3.0);
        // A layer with a derivative is never dropped, whatever its tag.
        let kept = Tensor::dual(old, Tensor::scalar(2.0), vec![Tensor::scalar(1.0)]);
        assert!(matches!(kept.without_dead_layers(), Tensor::Dual(_)));
        // A finished tape's value is a constant.
        let tape = crate::reverse::Tape::new();
        let tracked = tape.input(Tensor::scalar(5.0));
        assert!(matches!(tracked.without_dead_layers(), Tensor::Tracked(_)));
        tape.finish();
        assert_eq!(tracked.without_dead_layers().primal()[[]], 5.0);
        assert!(tracked.without_dead_layers().is_plain());
    }

    #[test]
    fn column_major_round_trip() {
        let t = Tensor::from_col_major(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(t.primal()[[1, 0]], 2.0);
        assert_eq!(t.primal()[[0, 1]], 3.0);
        assert_eq!(t.to_col_major(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    }

    #[test]
    fn later_tags_are_larger() {
        let a = Tag::fresh();
        assert!(Tag::fresh() > a);
    }
}
