//! Sparsity tracers: the number kind that detects which inputs each output depends on.
//!
//! A [`Tracer`] array holds, for every element, the set of input indices it depends on
//! (through operations whose derivative is not structurally zero). A *global* tracer carries no
//! primal values (its pattern holds for every input; comparing it is an error); a *local* one
//! carries the input's values (branches follow them, and a derivative that is zero at them, such
//! as a product's with a zero factor, drops its dependency; the pattern holds at that input).
//! Hessian patterns come from dual numbers whose values are tracers: the gradient's entries
//! then carry the sets of the Hessian's rows. The rules live in [`crate::ops::tracing`].

use crate::tensor::Tensor;
use ndarray::{ArrayD, IxDyn, ShapeBuilder};
use smallvec::SmallVec;
use std::rc::Rc;

/// A set of input indices, sorted and without duplicates.
pub type IndexSet = Rc<[u32]>;

/// The sets of a tracer's elements, column-major; a scalar's one set is held inline (scalar
/// code makes one tracer per operation).
pub type Sets = SmallVec<[IndexSet; 1]>;

/// An array of index sets, in column-major order, with its shape and (local) primal values.
#[derive(Debug, Clone)]
pub struct Tracer {
    /// The primal values (NaN for a global tracer), shared: the numbers of a global scalar
    /// tracer are one shared NaN, so scalar code allocates no values for them.
    pub primal: Rc<ArrayD<f64>>,
    /// One set per element, column-major.
    pub sets: Sets,
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
    // A set that already holds the other is shared (sums along a stencil keep meeting their
    // own terms).
    let (small, large) = if a.len() < b.len() { (a, b) } else { (b, a) };
    if is_subset(small, large) {
        return large.clone();
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

/// True when every element of the sorted `small` is in the sorted `large`.
fn is_subset(small: &[u32], large: &[u32]) -> bool {
    let mut rest = large;
    small.iter().all(|x| match rest.binary_search(x) {
        Ok(k) => {
            rest = &rest[k + 1..];
            true
        }
        Err(_) => false,
    })
}

/// The union of many sorted sets in one sort: a fold of pairwise unions would copy the growing
/// set once per operand, quadratic for a sum over many elements.
pub fn union_all<'a>(sets: impl IntoIterator<Item = &'a IndexSet>) -> IndexSet {
    let mut nonempty = sets.into_iter().filter(|s| !s.is_empty());
    let Some(first) = nonempty.next() else {
        return empty();
    };
    let Some(second) = nonempty.next() else {
        return first.clone();
    };
    let mut all: Vec<u32> = first.iter().chain(second.iter()).copied().collect();
    for s in nonempty {
        all.extend_from_slice(s);
    }
    all.sort_unstable();
    all.dedup();
    Rc::from(all)
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
        let primal =
            Rc::new(ArrayD::from_shape_vec(IxDyn(shape).f(), data).expect("shape and sets agree"));
        Tracer {
            primal,
            sets: sets.into(),
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

/// The index sets of `y` solving `A·y = b` (an implicit function), from the sets of the rows of
/// `b` and the column pattern `a_columns[i]` (the `y` indices row `i` of `A` involves).
///
/// `A⁻¹` keeps `A`'s block structure: after permuting rows and columns, `A` is block diagonal
/// with one block per connected component of its row–column graph, and so is `A⁻¹`. Each `yⱼ`
/// therefore depends on the union of `b`'s sets over the rows in its component; finer
/// structure inside a block is not used (conservative, never a false zero).
pub fn solution_sets(a_columns: &[Vec<usize>], b: &[IndexSet]) -> Vec<IndexSet> {
    let m = a_columns.len();
    // Nodes 0..m are rows, m..2m are columns (y entries).
    let mut parent: Vec<usize> = (0..2 * m).collect();
    fn root(parent: &mut [usize], mut k: usize) -> usize {
        while parent[k] != k {
            parent[k] = parent[parent[k]];
            k = parent[k];
        }
        k
    }
    for (row, columns) in a_columns.iter().enumerate() {
        for &column in columns {
            let (r, c) = (root(&mut parent, row), root(&mut parent, m + column));
            parent[r] = c;
        }
    }
    let mut component: Vec<IndexSet> = vec![empty(); 2 * m];
    for (row, set) in b.iter().enumerate().take(m) {
        let r = root(&mut parent, row);
        component[r] = union(&component[r], set);
    }
    (0..m)
        .map(|column| component[root(&mut parent, m + column)].clone())
        .collect()
}

/// The index sets of any tensor (plain numbers depend on nothing).
pub fn sets_of(t: &Tensor) -> Vec<IndexSet> {
    match t {
        Tensor::Tracer(tr) => tr.sets.to_vec(),
        Tensor::Dual(d) => sets_of(&d.value),
        Tensor::Tracked(t) => sets_of(&t.value),
        Tensor::Plain(a) => vec![empty(); a.len()],
        // Operations route symbolic operands to their own rules before tracing ones, which
        // refuse a mix with tracers; nothing depends on a tracer's inputs here.
        Tensor::Symbolic(s) => vec![empty(); s.ids.len()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(k: &[u32]) -> IndexSet {
        Rc::from(k.to_vec())
    }

    #[test]
    fn unions_merge_and_share_a_set_that_holds_the_other() {
        let (a, b) = (set(&[1, 4, 7]), set(&[2, 4, 9]));
        assert_eq!(&*union(&a, &b), &[1, 2, 4, 7, 9]);
        let within = set(&[4, 7]);
        assert!(Rc::ptr_eq(&union(&a, &within), &a));
        assert!(Rc::ptr_eq(&union(&within, &a), &a));
        assert_eq!(&*union(&set(&[3]), &a), &[1, 3, 4, 7]);
        assert_eq!(&*union(&set(&[8]), &a), &[1, 4, 7, 8]);
    }

    #[test]
    fn solutions_depend_on_their_block_of_the_system() {
        // Rows 0 and 1 couple y₀ and y₁; row 2 involves y₂ alone; rows 3 and 4 swap y₃, y₄.
        let a = vec![vec![0, 1], vec![1], vec![2], vec![4], vec![3]];
        let b = vec![set(&[0]), set(&[1, 4]), set(&[2]), set(&[3]), set(&[5])];
        let sets = solution_sets(&a, &b);
        assert_eq!(&*sets[0], &[0, 1, 4]);
        assert_eq!(&*sets[1], &[0, 1, 4]);
        assert_eq!(&*sets[2], &[2]);
        assert_eq!(&*sets[3], &[5]);
        assert_eq!(&*sets[4], &[3]);
    }
}
