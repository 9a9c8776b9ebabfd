//! Julia's broadcasting rules on plain arrays: shapes align from the first dimension.
//!
//! Julia pads the shorter shape with trailing 1s (a vector is a column), unlike NumPy and
//! ndarray, which align from the last dimension. [`shape`] computes the result shape and
//! [`zip_map`] applies a binary kernel over two broadcast arrays in one pass.

use crate::error::{AdError, Result};
use ndarray::{ArrayD, ArrayViewMut, IxDyn, ShapeBuilder, Zip};

/// The broadcast shape of two shapes, or `DimensionMismatch`; `OutOfMemoryError` when an
/// array of that shape would not fit in the memory limit (`x .* x'` of two long vectors).
pub fn shape(a: &[usize], b: &[usize]) -> Result<Vec<usize>> {
    let rank = a.len().max(b.len());
    let result: Vec<usize> = (0..rank)
        .map(|k| {
            let (x, y) = (dim(a, k), dim(b, k));
            match (x, y) {
                _ if x == y => Ok(x),
                (1, _) => Ok(y),
                (_, 1) => Ok(x),
                _ => Err(AdError::DimensionMismatch(format!(
                    "arrays could not be broadcast to a common size; got a dimension with lengths {x} and {y}"
                ))),
            }
        })
        .collect::<Result<_>>()?;
    if result.len() > 1 {
        let elements = result
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .unwrap_or(usize::MAX);
        crate::limits::reserve_numbers(elements)?;
    }
    Ok(result)
}

fn dim(shape: &[usize], k: usize) -> usize {
    shape.get(k).copied().unwrap_or(1)
}

/// `a` viewed with trailing singleton dimensions up to `rank`.
fn padded(a: &ArrayD<f64>, rank: usize) -> ndarray::ArrayViewD<'_, f64> {
    let mut v = a.view();
    for _ in a.ndim()..rank {
        let axis = v.ndim();
        v.insert_axis_inplace(ndarray::Axis(axis));
    }
    v
}

/// `a` broadcast to `target` (which must be a valid broadcast shape of `a`), as a new array.
pub fn to_shape(a: &ArrayD<f64>, target: &[usize]) -> Result<ArrayD<f64>> {
    if a.shape() == target {
        return Ok(a.clone());
    }
    if let (Some(&x), 1) = (a.first(), a.len()) {
        if a.ndim() <= target.len() {
            return Ok(ArrayD::from_elem(IxDyn(target).f(), x));
        }
    }
    let v = padded(a, target.len().max(a.ndim()));
    v.broadcast(IxDyn(target))
        .map(|b| b.to_owned())
        .ok_or_else(|| {
            AdError::DimensionMismatch(format!(
                "cannot broadcast array of size {:?} to size {:?}",
                a.shape(),
                target
            ))
        })
}

/// Arrays of at least this many numbers are computed in blocks of this size, with a look at
/// the interrupt flag and the memory limit between blocks, so an interrupt is answered within
/// one block (well under a millisecond) however long the array.
pub const BLOCK: usize = 1 << 18;

/// `f` applied elementwise to `a` and `b` broadcast together.
pub fn zip_map(
    a: &ArrayD<f64>,
    b: &ArrayD<f64>,
    f: impl Fn(f64, f64) -> f64,
) -> Result<ArrayD<f64>> {
    if a.shape() == b.shape() {
        if let Some(out) = same_layout_map(a, b, &f)? {
            return Ok(out);
        }
        return Ok(Zip::from(a).and(b).map_collect(|&x, &y| f(x, y)));
    }
    if b.ndim() == 0 {
        let y = b[IxDyn(&[])];
        return map(a, |x| f(x, y));
    }
    if a.ndim() == 0 {
        let x = a[IxDyn(&[])];
        return map(b, |y| f(x, y));
    }
    let out = shape(a.shape(), b.shape())?;
    let rank = out.len();
    let (pa, pb) = (padded(a, rank), padded(b, rank));
    let va = pa.broadcast(IxDyn(&out)).expect("shape checked");
    let vb = pb.broadcast(IxDyn(&out)).expect("shape checked");
    let len: usize = out.iter().product();
    if len < BLOCK {
        return Ok(Zip::from(&va).and(&vb).map_collect(|&x, &y| f(x, y)));
    }
    // Column-major output filled a slab of the last dimension at a time. Each slab is
    // zeroed just before it is computed: zeroing the whole result first would be one pass
    // that cannot be interrupted, and a long one when the allocator hands back memory it
    // already used (it must then clear it: 0.75 s for 7000 × 7000 numbers).
    let last = ndarray::Axis(rank - 1);
    let (count, inner) = (out[rank - 1], len / out[rank - 1]);
    let slab = (BLOCK / inner.max(1)).max(1);
    let mut data = Vec::with_capacity(len);
    let mut start = 0;
    while start < count {
        crate::limits::check()?;
        let end = (start + slab).min(count);
        let filled = data.len();
        data.resize(end * inner, 0.0);
        let mut slab_shape = out.clone();
        slab_shape[rank - 1] = end - start;
        let target = ArrayViewMut::from_shape(IxDyn(&slab_shape).f(), &mut data[filled..])
            .expect("the slab's numbers");
        let range = ndarray::Slice::from(start..end);
        Zip::from(target)
            .and(va.slice_axis(last, range))
            .and(vb.slice_axis(last, range))
            .for_each(|o, &x, &y| *o = f(x, y));
        start = end;
    }
    Ok(ArrayD::from_shape_vec(IxDyn(&out).f(), data).expect("the result's numbers"))
}

/// `f` over every number of `a`, in blocks when `a` is long (see [`BLOCK`]).
pub fn map(a: &ArrayD<f64>, f: impl Fn(f64) -> f64) -> Result<ArrayD<f64>> {
    let Some(x) = a.as_slice_memory_order().filter(|x| x.len() >= BLOCK) else {
        return Ok(a.mapv(f));
    };
    let mut data = Vec::with_capacity(x.len());
    for block in x.chunks(BLOCK) {
        crate::limits::check()?;
        data.extend(block.iter().map(|&v| f(v)));
    }
    Ok(in_layout_of(a, data))
}

/// `data`, in the memory order of `a`, as an array of `a`'s shape.
fn in_layout_of(a: &ArrayD<f64>, data: Vec<f64>) -> ArrayD<f64> {
    if a.is_standard_layout() {
        return ArrayD::from_shape_vec(a.raw_dim(), data).expect("one number per element");
    }
    crate::tensor::col_major(a.shape(), data)
}

/// `f` over two arrays of one shape stored in the same contiguous order, as a plain loop over
/// their memory (scalars and vectors always qualify): `Zip` costs more than the arithmetic
/// for the small arrays of scalar code. Long arrays go in blocks (see [`BLOCK`]).
fn same_layout_map(
    a: &ArrayD<f64>,
    b: &ArrayD<f64>,
    f: &impl Fn(f64, f64) -> f64,
) -> Result<Option<ArrayD<f64>>> {
    let column_major = |x: &ArrayD<f64>| x.t().is_standard_layout();
    let (Some(x), Some(y)) = (a.as_slice_memory_order(), b.as_slice_memory_order()) else {
        return Ok(None);
    };
    let same_order =
        (column_major(a) && column_major(b)) || (a.is_standard_layout() && b.is_standard_layout());
    if !same_order {
        return Ok(None);
    }
    let mut data = Vec::with_capacity(x.len());
    for (p, q) in x.chunks(BLOCK).zip(y.chunks(BLOCK)) {
        if x.len() >= BLOCK {
            crate::limits::check()?;
        }
        data.extend(p.iter().zip(q).map(|(&p, &q)| f(p, q)));
    }
    Ok(Some(in_layout_of(a, data)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::col_major;

    #[test]
    fn vectors_broadcast_as_columns() {
        assert_eq!(shape(&[3], &[1, 4]).unwrap(), vec![3, 4]);
        assert!(shape(&[3], &[4]).is_err());
        let col = col_major(&[2], vec![1.0, 2.0]);
        let row = col_major(&[1, 3], vec![10.0, 20.0, 30.0]);
        let sum = zip_map(&col, &row, |x, y| x + y).unwrap();
        assert_eq!(sum.shape(), &[2, 3]);
        assert_eq!(sum[[1, 2]], 32.0);
    }
}
