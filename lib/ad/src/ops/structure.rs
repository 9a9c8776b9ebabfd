//! Structural operations: they move elements without arithmetic, so their derivative rule is
//! the same operation applied to each partial.
//!
//! Indices are 0-based positions in column-major (Julia) order; the language computes them from
//! its 1-based multi-dimensional indices.

use crate::error::{AdError, Result};
use crate::limits;
use crate::ops::{chunk_len, partials_or_zero};
use crate::tensor::{col_major, col_major_data, scalar_number, top_tag, unravel, Tensor};
use ndarray::ArrayD;
use std::rc::Rc;

/// Applies a structural operation to each layer: `on_tracer` for tracers, `op` for plain
/// arrays, `on_symbolic` for symbolic tracings, recursively through the value and partials of
/// duals.
pub(crate) fn structural(
    t: &Tensor,
    op: &dyn Fn(&ArrayD<f64>) -> Result<ArrayD<f64>>,
    on_tracer: &dyn Fn(&crate::tracer::Tracer) -> Result<Tensor>,
    on_tracked: &dyn Fn(&std::rc::Rc<crate::reverse::Tracked>) -> Result<Tensor>,
    on_symbolic: &dyn Fn(&crate::symbolic::Symbolic) -> Result<Tensor>,
) -> Result<Tensor> {
    match t {
        Tensor::Plain(a) => Ok(Tensor::plain(op(a)?)),
        Tensor::Tracer(tr) => on_tracer(tr),
        Tensor::Tracked(tr) => on_tracked(tr),
        Tensor::Symbolic(s) => on_symbolic(s),
        Tensor::Dual(d) => d.map_layers(|p| structural(p, op, on_tracer, on_tracked, on_symbolic)),
    }
}

/// The elements at column-major positions `indices`, arranged in `shape`.
pub fn gather(t: &Tensor, indices: &[usize], shape: &[usize]) -> Result<Tensor> {
    check_bounds(t.len(), indices)?;
    if let ([i], []) = (indices, shape) {
        if let Some(element) = scalar_element(t, &unravel(t.shape(), *i)) {
            return Ok(element);
        }
    }
    let run = Run::of(indices)?;
    let moved = |a: &ArrayD<f64>| {
        let data = crate::tensor::col_major_slice(a);
        Ok(col_major(shape, run.copy(&data, indices)?))
    };
    structural(
        t,
        &moved,
        &|tr| Ok(super::tracing::gather(tr, indices, shape)),
        &|tr| super::taping::gather(tr, indices, shape),
        &|s| crate::symbolic::moved(s, &moved),
    )
}

/// The element at cartesian `index` of plain numbers or of duals over them, as scalar code
/// reads it: no arrays are built, and zero partials share one number. `None` for other kinds.
fn scalar_element(t: &Tensor, index: &[usize]) -> Option<Tensor> {
    match t {
        Tensor::Plain(a) => a.get(index).copied().map(scalar_number),
        Tensor::Dual(d) => d.map_layers(|p| scalar_element(p, index).ok_or(())).ok(),
        _ => None,
    }
}

/// The form of a gather's positions, found once per gather: runs of consecutive positions
/// (slices such as `x[2:end, :]`, `diff`, `circshift`) copy as blocks, and reversals as one
/// reversed block, instead of one indexed load per element.
enum Run {
    Blocks(Vec<std::ops::Range<usize>>),
    Descending(std::ops::Range<usize>),
    Scattered,
}

impl Run {
    /// Blocks pay off when they average at least this many elements.
    const MIN_BLOCK: usize = 4;

    /// Scans the positions once, with a [`limits::check`] per block of them.
    fn of(indices: &[usize]) -> Result<Run> {
        let (Some(&first), Some(&last)) = (indices.first(), indices.last()) else {
            return Ok(Run::Scattered);
        };
        let mut descending = indices.len() > 1;
        let mut blocks = Some(Vec::<std::ops::Range<usize>>::new());
        let mut previous = None;
        for part in limits::polled_chunks(indices) {
            for &i in part? {
                descending &= previous.is_none_or(|p| p == i + 1);
                previous = Some(i);
                if let Some(list) = &mut blocks {
                    match list.last_mut() {
                        Some(block) if block.end == i => block.end += 1,
                        _ => list.push(i..i + 1),
                    }
                    if list.len() * Self::MIN_BLOCK > indices.len() {
                        blocks = None;
                    }
                }
                if !descending && blocks.is_none() {
                    return Ok(Run::Scattered);
                }
            }
        }
        Ok(match blocks {
            _ if descending => Run::Descending(last..first + 1),
            Some(blocks) => Run::Blocks(blocks),
            None => Run::Scattered,
        })
    }

    /// The elements of `data` at `indices`, copied with a [`limits::check`] per block of
    /// [`limits::POLL_BLOCK`] elements.
    fn copy(&self, data: &[f64], indices: &[usize]) -> Result<Vec<f64>> {
        match self {
            Run::Blocks(blocks) => {
                let mut out = Vec::with_capacity(indices.len());
                let mut next_check = 0;
                for block in blocks {
                    for part in data[block.clone()].chunks(limits::POLL_BLOCK) {
                        // Blocks may be a few elements each: one check per block would cost
                        // as much as the copy.
                        if out.len() >= next_check {
                            limits::check()?;
                            next_check = out.len() + limits::POLL_BLOCK;
                        }
                        out.extend_from_slice(part);
                    }
                }
                Ok(out)
            }
            Run::Descending(range) => limits::collected(range.len(), |k| data[range.end - 1 - k]),
            Run::Scattered => limits::collected(indices.len(), |k| data[indices[k]]),
        }
    }
}

/// `target` with the column-major positions `indices` replaced by the elements of `values`,
/// written in place when `target` is not shared and `values` adds no newer derivative layer
/// (a scalar loop filling an array of duals or tracers stays linear in its length); otherwise
/// like [`scatter`].
pub fn scatter_into(target: &mut Tensor, indices: &[usize], values: &Tensor) -> Result<()> {
    check_scatter(target, indices, values)?;
    if !write_in_place(target, indices, values)? {
        *target = scatter(target, indices, values)?;
    }
    Ok(())
}

/// Writes in place when `target` is not shared and `values` adds no newer layer; false (and
/// nothing written) otherwise.
fn write_in_place(target: &mut Tensor, indices: &[usize], values: &Tensor) -> Result<bool> {
    Ok(match target {
        Tensor::Plain(a)
            if values.is_plain() && values.shape().is_empty() && indices.len() == 1 =>
        {
            // One number (scalar code): written at its cartesian index, whatever the layout.
            let x = values.primal().first().copied().unwrap_or(f64::NAN);
            let index = unravel(a.shape(), indices[0]);
            Rc::make_mut(a)[&index[..]] = x;
            true
        }
        Tensor::Plain(a) if values.is_plain() && a.t().is_standard_layout() => {
            let source = crate::tensor::col_major_slice(values.primal());
            let data = Rc::make_mut(a)
                .as_slice_memory_order_mut()
                .expect("column-major contiguous");
            write_at(data, indices, &source)?;
            true
        }
        Tensor::Tracer(tr) if top_tag([values]).is_none() => {
            Rc::get_mut(tr).is_some_and(|tr| super::tracing::scatter_into(tr, indices, values))
        }
        Tensor::Symbolic(s) if top_tag([values]).is_none() => match Rc::get_mut(s) {
            Some(s) => crate::symbolic::scatter_into(s, indices, values)?,
            None => false,
        },
        Tensor::Dual(d) if top_tag([values]).is_none_or(|t| t <= d.tag) => {
            let Some(d) = Rc::get_mut(d) else {
                return Ok(false);
            };
            // Each layer falls back to a copy by itself, so the dual is always written here.
            let (value, partials) = values.split(d.tag);
            let zero = match value.shape() {
                [] => scalar_number(0.0),
                shape => Tensor::filled(shape, 0.0),
            };
            scatter_into(&mut d.value, indices, value)?;
            for (k, p) in d.partials.iter_mut().enumerate() {
                scatter_into(p, indices, partials.map_or(&zero, |ps| &ps[k]))?;
            }
            true
        }
        _ => false,
    })
}

/// `BoundsError` for the first of `indices` outside an array of `len` elements.
fn check_bounds(len: usize, indices: &[usize]) -> Result<()> {
    for part in limits::polled_chunks(indices) {
        if let Some(&bad) = part?.iter().find(|&&i| i >= len) {
            return Err(AdError::Bounds(format!(
                "attempt to access {len}-element array at index [{}]",
                bad + 1
            )));
        }
    }
    Ok(())
}

/// Writes `source` (one element per position, or one for all) at the column-major positions
/// `indices` of `data`.
fn write_at(data: &mut [f64], indices: &[usize], source: &[f64]) -> Result<()> {
    for (block, part) in limits::polled_chunks(indices).enumerate() {
        for (k, &i) in part?.iter().enumerate() {
            let k = block * limits::POLL_BLOCK + k;
            data[i] = source[if source.len() == 1 { 0 } else { k }];
        }
    }
    Ok(())
}

fn check_scatter(target: &Tensor, indices: &[usize], values: &Tensor) -> Result<()> {
    check_bounds(target.len(), indices)?;
    if values.len() != indices.len() && values.len() != 1 {
        return Err(AdError::DimensionMismatch(format!(
            "tried to assign {} elements to {} destinations",
            values.len(),
            indices.len()
        )));
    }
    Ok(())
}

/// A copy of `target` with the column-major positions `indices` replaced by the elements of
/// `values` (broadcast from a scalar when it has one element).
pub fn scatter(target: &Tensor, indices: &[usize], values: &Tensor) -> Result<Tensor> {
    check_scatter(target, indices, values)?;
    let Some(tag) = top_tag([target, values]) else {
        if crate::symbolic::graph_of([target, values]).is_some() {
            return crate::symbolic::scatter(target, indices, values);
        }
        if target.has_tracer() || values.has_tracer() {
            return super::tracing::scatter(target, indices, values);
        }
        let shape = target.shape().to_vec();
        let mut data = target.to_col_major();
        write_at(&mut data, indices, &values.to_col_major())?;
        return Ok(Tensor::from_col_major(&shape, data));
    };
    if crate::reverse::is_tape_tag([target, values], tag) {
        return super::taping::scatter(target, indices, values, tag);
    }
    let n = chunk_len([target, values], tag);
    let (tv, _) = target.split(tag);
    let (vv, _) = values.split(tag);
    let target_partials = partials_or_zero(target, tag, n);
    let value_partials = partials_or_zero(values, tag, n);
    let partials = target_partials
        .iter()
        .zip(&value_partials)
        .map(|(tp, vp)| scatter(tp, indices, vp))
        .collect::<Result<_>>()?;
    Ok(Tensor::dual(tag, scatter(tv, indices, vv)?, partials))
}

/// The same elements in column-major order with a new shape.
pub fn reshape(t: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let len: usize = shape.iter().product();
    if len != t.len() {
        return Err(AdError::DimensionMismatch(format!(
            "new dimensions {shape:?} must be consistent with array size {}",
            t.len()
        )));
    }
    let moved = |a: &ArrayD<f64>| Ok(col_major(shape, col_major_data(a)));
    structural(
        t,
        &moved,
        &|tr| Ok(super::tracing::reshape(tr, shape)),
        &|tr| {
            let in_shape = tr.value.shape().to_vec();
            let out_shape = shape.to_vec();
            super::taping::linear_map(
                tr,
                move |v| reshape(v, &out_shape),
                Box::new(move |ct| reshape(ct, &in_shape)),
            )
        },
        &|s| crate::symbolic::moved(s, &moved),
    )
}

/// The transpose of a matrix, or of a vector as a 1×n matrix.
pub fn transpose(t: &Tensor) -> Result<Tensor> {
    match *t.shape() {
        [] => Ok(t.clone()),
        [n] => reshape(t, &[1, n]),
        [m, n] => {
            match t {
                // One copy with the axes swapped: the numbers keep their memory order.
                Tensor::Plain(a) => return Ok(Tensor::plain(a.as_ref().clone().reversed_axes())),
                Tensor::Dual(d) => return d.map_layers(transpose),
                _ => {}
            }
            // Element (j, i) of the result is element (i, j) of t.
            let order: Vec<usize> = (0..m)
                .flat_map(|i| (0..n).map(move |j| i + j * m))
                .collect();
            gather(t, &order, &[n, m])
        }
        ref shape => Err(AdError::Argument(format!(
            "transpose is not defined for arrays of rank {}",
            shape.len()
        ))),
    }
}

/// Concatenation along the (0-based) dimension `dim`; all other dimensions must agree.
pub fn concat(parts: &[Tensor], dim: usize) -> Result<Tensor> {
    let rank = parts
        .iter()
        .map(|p| p.shape().len())
        .max()
        .unwrap_or(1)
        .max(dim + 1);
    let shape_of = |t: &Tensor| {
        let mut s = t.shape().to_vec();
        s.resize(rank, 1);
        s
    };
    let mut out_shape = parts.first().map(shape_of).unwrap_or_else(|| vec![0; rank]);
    out_shape[dim] = 0;
    for p in parts {
        let s = shape_of(p);
        for k in 0..rank {
            if k != dim && s[k] != out_shape[k] {
                return Err(AdError::DimensionMismatch(format!(
                    "number of {} of each array must match (got {} and {})",
                    if k == 0 { "rows" } else { "columns" },
                    out_shape[k],
                    s[k]
                )));
            }
        }
        out_shape[dim] += s[dim];
    }
    let Some(tag) = top_tag(parts) else {
        if crate::symbolic::graph_of(parts).is_some() {
            return crate::symbolic::concat(parts, dim);
        }
        let plain = concat_plain(parts, dim, &out_shape, rank);
        if parts.iter().any(Tensor::has_tracer) {
            return Ok(super::tracing::concat(parts, dim, &out_shape, plain));
        }
        return Ok(Tensor::plain(plain));
    };
    if crate::reverse::is_tape_tag(parts, tag) {
        return super::taping::concat(parts, dim, tag);
    }
    let n = chunk_len(parts, tag);
    let values: Vec<Tensor> = parts.iter().map(|p| p.split(tag).0.clone()).collect();
    let partials_by_part: Vec<Vec<Tensor>> =
        parts.iter().map(|p| partials_or_zero(p, tag, n)).collect();
    let partials = (0..n)
        .map(|k| {
            let column: Vec<Tensor> = partials_by_part.iter().map(|ps| ps[k].clone()).collect();
            concat(&column, dim)
        })
        .collect::<Result<_>>()?;
    Ok(Tensor::dual(tag, concat(&values, dim)?, partials))
}

fn concat_plain(parts: &[Tensor], dim: usize, out_shape: &[usize], rank: usize) -> ArrayD<f64> {
    // Column-major: a block of `inner` elements (dimensions before `dim`) times the part's
    // extent along `dim` is contiguous, repeated `outer` times (dimensions after `dim`).
    let inner: usize = out_shape[..dim].iter().product();
    let outer: usize = out_shape[dim + 1..].iter().product();
    let datas: Vec<(Vec<f64>, usize)> = parts
        .iter()
        .map(|p| {
            let mut s = p.shape().to_vec();
            s.resize(rank, 1);
            (p.to_col_major(), s[dim])
        })
        .collect();
    let mut out = Vec::with_capacity(out_shape.iter().product());
    for o in 0..outer {
        for (data, extent) in &datas {
            let block = inner * extent;
            out.extend_from_slice(&data[o * block..(o + 1) * block]);
        }
    }
    col_major(out_shape, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// Every pass over the positions of a gather or scatter looks at the interrupt flag: a
    /// pending interrupt stops each of them (5·10⁷ positions are seconds of such passes).
    #[test]
    fn each_pass_over_positions_answers_an_interrupt() {
        let interrupt = Arc::new(AtomicBool::new(false));
        limits::install(usize::MAX, interrupt.clone());
        let interrupted = |pass: &dyn Fn() -> Result<()>| {
            interrupt.store(true, Ordering::Relaxed);
            matches!(pass(), Err(AdError::Interrupted))
        };
        let n = 3 * limits::POLL_BLOCK;
        let data = vec![1.0; n];
        let slice: Vec<usize> = (1..n).collect();
        let reversed: Vec<usize> = (0..n).rev().collect();
        let scattered: Vec<usize> = (0..n).map(|i| i * 7 % n).collect();
        assert!(interrupted(&|| check_bounds(n, &slice)));
        assert!(interrupted(&|| Run::of(&scattered).map(drop)));
        for indices in [&slice, &reversed, &scattered] {
            let run = Run::of(indices).unwrap();
            assert!(interrupted(&|| run.copy(&data, indices).map(drop)));
        }
        assert!(interrupted(&|| write_at(&mut data.clone(), &slice, &[2.0])));
        let x = Tensor::from_col_major(&[n], data.clone());
        assert!(interrupted(&|| gather(&x, &slice, &[n - 1]).map(drop)));
        interrupt.store(false, Ordering::Relaxed);
        assert_eq!(gather(&x, &reversed, &[n]).unwrap().len(), n);
    }

    #[test]
    fn hcat_and_vcat_of_columns() {
        let a = Tensor::from_col_major(&[2], vec![1.0, 2.0]);
        let b = Tensor::from_col_major(&[2], vec![3.0, 4.0]);
        let h = concat(&[a.clone(), b.clone()], 1).unwrap();
        assert_eq!(h.shape(), &[2, 2]);
        assert_eq!(h.to_col_major(), vec![1.0, 2.0, 3.0, 4.0]);
        let v = concat(&[a, b], 0).unwrap();
        assert_eq!(v.shape(), &[4]);
    }

    #[test]
    fn gathers_of_runs_match_elementwise_indexing() {
        let x = Tensor::from_col_major(&[6], vec![10.0, 11.0, 12.0, 13.0, 14.0, 15.0]);
        for indices in [
            vec![1, 2, 3],
            vec![4, 3, 2, 1],
            vec![5],
            vec![0, 2, 4],
            vec![3, 4, 5, 0],
            vec![3, 4, 5, 0, 1, 2, 3, 4],
            vec![2, 2],
            vec![],
        ] {
            let expected: Vec<f64> = indices.iter().map(|&i| 10.0 + i as f64).collect();
            let got = gather(&x, &indices, &[indices.len()]).unwrap();
            assert_eq!(got.to_col_major(), expected, "indices {indices:?}");
        }
        assert!(
            matches!(Run::of(&[1, 2, 3, 4]), Ok(Run::Blocks(b)) if b.len() == 1 && b[0] == (1..5))
        );
        assert!(matches!(Run::of(&[4, 3, 2]), Ok(Run::Descending(r)) if r == (2..5)));
        assert!(matches!(Run::of(&[3, 4, 5, 0]), Ok(Run::Scattered)));
        let rotated: Vec<usize> = (0..8).map(|i| (i + 3) % 8).collect();
        assert!(matches!(Run::of(&rotated), Ok(Run::Blocks(b)) if b == [3..8, 0..3]));
    }

    #[test]
    fn transpose_and_gather() {
        let m = Tensor::from_col_major(&[2, 3], (1..=6).map(f64::from).collect());
        let t = transpose(&m).unwrap();
        assert_eq!(t.shape(), &[3, 2]);
        assert_eq!(t.to_col_major(), vec![1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
        let g = gather(&m, &[5, 0], &[2]).unwrap();
        assert_eq!(g.to_col_major(), vec![6.0, 1.0]);
        assert!(gather(&m, &[6], &[1]).is_err());
    }
}
