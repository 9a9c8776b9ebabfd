//! Sparsity tracers: the number kind that detects which inputs each output depends on.
//!
//! A [`Tracer`] array holds, for every element, the set of input indices it depends on
//! (through operations whose derivative is not structurally zero). A *global* tracer carries no
//! primal values (its pattern holds for every input; comparing it is an error); a *local* one
//! carries the input's values (branches follow them; the pattern holds at that input).
//! Hessian patterns come from dual numbers whose values are tracers: the gradient's entries
//! then carry the sets of the Hessian's rows. The rules live in [`crate::ops::tracing`].

use crate::tensor::Tensor;
use ndarray::{ArrayD, IxDyn, ShapeBuilder};
use std::rc::Rc;

/// A set of input indices, sorted and without duplicates.
pub type IndexSet = Rc<[u32]>;

/// An array of index sets, in column-major order, with its shape and (local) primal values.
#[derive(Debug, Clone)]
pub struct Tracer {
    /// The primal values (NaN for a global tracer).
    pub primal: ArrayD<f64>,
    /// One set per element, column-major.
    pub sets: Vec<IndexSet>,
    /// True for a global tracer (no primal values).
    pub global: bool,
}

/// The union of two sorted sets.
pub fn union(a: &IndexSet, b: &IndexSet) -> IndexSet {
    if b.is_empty() || Rc::ptr_eq(a, b) {
        return a.clone();
    }
    if a.is_empty() {
        return b.clone();
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out.into()
}

/// The empty set.
pub fn empty() -> IndexSet {
    Rc::from(Vec::new())
}

impl Tracer {
    /// A tracer of `shape` with the given sets (column-major) and primal values.
    pub fn new(shape: &[usize], sets: Vec<IndexSet>, primal: Option<Vec<f64>>) -> Tracer {
        let global = primal.is_none();
        let n = sets.len();
        let data = primal.unwrap_or_else(|| vec![f64::NAN; n]);
        let primal = ArrayD::from_shape_vec(IxDyn(shape).f(), data).expect("shape and sets agree");
        Tracer {
            primal,
            sets,
            global,
        }
    }
}

/// The input tracer for `x`: element `k` depends on input `k` alone. `local` keeps x's values.
pub fn input(x: &Tensor, local: bool) -> Tensor {
    let n = x.len();
    let sets = (0..n as u32).map(|k| Rc::from(vec![k])).collect();
    let primal = local.then(|| x.to_col_major());
    Tensor::Tracer(Rc::new(Tracer::new(x.shape(), sets, primal)))
}

/// The index sets of any tensor (plain numbers depend on nothing).
pub fn sets_of(t: &Tensor) -> Vec<IndexSet> {
    match t {
        Tensor::Tracer(tr) => tr.sets.clone(),
        Tensor::Dual(d) => sets_of(&d.value),
        Tensor::Tracked(t) => sets_of(&t.value),
        Tensor::Plain(a) => vec![empty(); a.len()],
    }
}
