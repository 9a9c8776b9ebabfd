//! The two primitives every operator is built from: batched pushforward (JVP) and pullback
//! (VJP), implemented natively by each backend and by fallback otherwise.
//!
//! Forward mode pushes a chunk of tangents through one evaluation on dual numbers; reverse mode
//! records a tape and sweeps it backwards once per cotangent; finite differences evaluate the
//! function at shifted points; the zero backends evaluate it and return zeros. A backend without a native primitive builds it from the other
//! one through basis vectors, as DifferentiationInterface does.

use super::backend::{default_chunk, even_chunk, Backend, FdType, SYMBOLIC_LANES};
use crate::error::AdError;
use crate::ops::{self, BinaryFn};
use crate::tensor::{Tag, Tensor};

/// The `k`-th basis tensor (one at column-major position `k`) of `shape`.
pub fn basis(shape: &[usize], k: usize) -> Tensor {
    let n: usize = shape.iter().product();
    let mut data = vec![0.0; n];
    data[k] = 1.0;
    Tensor::from_col_major(shape, data)
}

/// Basis directions a chunk at a time, in seed arrays reused from chunk to chunk: moving each
/// seed's 1 is two writes, where fresh seeds would zero `chunk · n` numbers per chunk (a seed
/// still shared with a result is copied first, so results never change).
pub struct BasisChunks {
    shape: Vec<usize>,
    seeds: Vec<Tensor>,
    hot: Vec<usize>,
}

impl BasisChunks {
    /// Seeds for inputs of `shape`.
    pub fn new(shape: &[usize]) -> BasisChunks {
        BasisChunks {
            shape: shape.to_vec(),
            seeds: Vec::new(),
            hot: Vec::new(),
        }
    }

    /// Starts over for inputs of `shape`, unless the seeds are already of that shape.
    pub fn fit(&mut self, shape: &[usize]) {
        if self.shape != shape {
            *self = BasisChunks::new(shape);
        }
    }

    /// The basis directions `directions` (column-major positions), one seed each.
    pub fn seeds(&mut self, directions: std::ops::Range<usize>) -> &[Tensor] {
        self.seeds.truncate(directions.len());
        self.hot.truncate(directions.len());
        for (i, k) in directions.enumerate() {
            let moved = match self.seeds.get_mut(i) {
                Some(Tensor::Plain(a)) => std::rc::Rc::make_mut(a)
                    .as_slice_memory_order_mut()
                    .map(|data| {
                        data[self.hot[i]] = 0.0;
                        data[k] = 1.0;
                    })
                    .is_some(),
                _ => false,
            };
            if moved {
                self.hot[i] = k;
            } else {
                self.seeds.truncate(i);
                self.hot.truncate(i);
                self.seeds.push(basis(&self.shape, k));
                self.hot.push(k);
            }
        }
        &self.seeds
    }
}

/// The value and tangents of `y` for the differentiation `tag` (zeros when `y` does not depend
/// on it).
pub fn split_dual(y: &Tensor, tag: Tag, count: usize) -> (Tensor, Vec<Tensor>) {
    match y.split(tag) {
        (v, Some(p)) => (v.clone(), p.to_vec()),
        (v, None) => (v.clone(), vec![Tensor::filled(v.shape(), 0.0); count]),
    }
}

/// `f(x)` and `J·t` for each tangent `t`.
pub fn pushforward<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
    tangents: &[Tensor],
) -> Result<(Tensor, Vec<Tensor>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    match backend.first_order() {
        Backend::Forward { chunk } => {
            let chunk = chunk
                .unwrap_or_else(|| default_chunk(tangents.len()))
                .max(1);
            forward_pushforward(f, x, tangents, chunk)
        }
        Backend::Symbolic { .. } => {
            let lanes = even_chunk(tangents.len(), SYMBOLIC_LANES);
            forward_pushforward(f, x, tangents, lanes)
        }
        Backend::FiniteDiff { fdtype, steps, dir } => {
            finite_pushforward(f, x, tangents, *fdtype, *steps, *dir)
        }
        Backend::ZeroForward | Backend::ZeroReverse => {
            let y = f(x)?;
            let zeros = vec![Tensor::filled(y.shape(), 0.0); tangents.len()];
            Ok((y, zeros))
        }
        Backend::Reverse { .. } => {
            // Jᵀ from one pullback per output coordinate, then J·t.
            let y = f(x)?;
            let m = y.len();
            let seeds: Vec<Tensor> = (0..m).map(|i| basis(y.shape(), i)).collect();
            let (_, rows) = pullback(f, backend, x, &seeds)?;
            let mut out = Vec::with_capacity(tangents.len());
            for t in tangents {
                let mut values = Vec::with_capacity(m);
                for row in &rows {
                    values.push(ops::sum_all(&ops::binary(BinaryFn::Mul, row, t)?)?);
                }
                out.push(stack(&values, y.shape())?);
            }
            Ok((y, out))
        }
        Backend::SecondOrder { .. } => unreachable!("first_order unwraps SecondOrder"),
    }
}

/// `f(x)` and `Jᵀ·c` for each cotangent `c`.
pub fn pullback<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
    cotangents: &[Tensor],
) -> Result<(Tensor, Vec<Tensor>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    match backend.first_order() {
        Backend::Reverse { .. } | Backend::Symbolic { .. } => {
            super::reverse::pullback(f, x, cotangents)
        }
        Backend::ZeroForward | Backend::ZeroReverse => {
            let y = f(x)?;
            Ok((y, vec![Tensor::filled(x.shape(), 0.0); cotangents.len()]))
        }
        other => {
            // J from pushforwards of the input basis, then Jᵀ·c.
            let n = x.len();
            let seeds: Vec<Tensor> = (0..n).map(|k| basis(x.shape(), k)).collect();
            let (y, columns) = pushforward(f, other, x, &seeds)?;
            let mut out = Vec::with_capacity(cotangents.len());
            for c in cotangents {
                crate::limits::check()?;
                let mut values = Vec::with_capacity(n);
                for column in &columns {
                    values.push(ops::sum_all(&ops::binary(BinaryFn::Mul, column, c)?)?);
                }
                out.push(stack(&values, x.shape())?);
            }
            Ok((y, out))
        }
    }
}

/// Rank-0 tensors stacked into `shape` (column-major).
pub fn stack(values: &[Tensor], shape: &[usize]) -> Result<Tensor, AdError> {
    if values.is_empty() {
        return Ok(Tensor::filled(shape, 0.0));
    }
    let parts: Vec<Tensor> = values
        .iter()
        .map(|v| ops::reshape(v, &[1]))
        .collect::<Result<_, _>>()?;
    ops::reshape(&ops::concat(&parts, 0)?, shape)
}

fn forward_pushforward<E, F>(
    f: &mut F,
    x: &Tensor,
    tangents: &[Tensor],
    chunk: usize,
) -> Result<(Tensor, Vec<Tensor>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    if tangents.is_empty() {
        return Ok((f(x)?, Vec::new()));
    }
    let mut value = None;
    let mut out = Vec::with_capacity(tangents.len());
    for batch in tangents.chunks(chunk) {
        let tag = Tag::fresh();
        let y = f(&Tensor::dual(tag, x.clone(), batch.to_vec()))?;
        let (v, partials) = split_dual(&y, tag, batch.len());
        value.get_or_insert_with(|| v.without_dead_layers());
        out.extend(partials.iter().map(Tensor::without_dead_layers));
    }
    Ok((value.expect("at least one batch"), out))
}

/// The Hessian of a scalar `f` at `x` by central differences of the function itself, as
/// FiniteDiff's `hcentral` does: `(f(x + hᵢeᵢ + hⱼeⱼ) - f(x + hᵢeᵢ - hⱼeⱼ) - f(x - hᵢeᵢ + hⱼeⱼ)
/// + f(x - hᵢeᵢ - hⱼeⱼ)) / 4hᵢhⱼ`, with `hᵢ = ε^¼·max(1, |xᵢ|)` (truncation and rounding errors
/// then balance at about √ε), or the user's `(relstep, absstep)`.
pub fn finite_hessian<E, F>(f: &mut F, x: &Tensor, steps: Option<(f64, f64)>) -> Result<Tensor, E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let point = x.to_col_major();
    let n = point.len();
    let h: Vec<f64> = point
        .iter()
        .map(|v| match steps {
            Some((rel, abs)) => (rel * v.abs()).max(abs),
            None => f64::EPSILON.powf(0.25) * v.abs().max(1.0),
        })
        .collect();
    let mut value_at = |shifts: [(usize, f64); 2]| -> Result<f64, E> {
        let mut shifted = point.clone();
        for (k, s) in shifts {
            shifted[k] += s;
        }
        let y = f(&Tensor::from_col_major(x.shape(), shifted))?;
        if !y.shape().is_empty() {
            return Err(
                AdError::Argument("hessian needs a function returning a number".into()).into(),
            );
        }
        Ok(y.primal().iter().copied().next().unwrap_or(f64::NAN))
    };
    let mut hessian = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            crate::limits::check()?;
            let (a, b) = (h[i], h[j]);
            let entry = (value_at([(i, a), (j, b)])?
                - value_at([(i, a), (j, -b)])?
                - value_at([(i, -a), (j, b)])?
                + value_at([(i, -a), (j, -b)])?)
                / (4.0 * a * b);
            hessian[i + j * n] = entry;
            hessian[j + i * n] = entry;
        }
    }
    Ok(Tensor::from_col_major(&[n, n], hessian))
}

/// The step for a difference along `t` at `x`: Julia's FiniteDiff relative steps, or the
/// user's `(relstep, absstep)`.
fn step(x: &Tensor, t: &Tensor, fdtype: FdType, steps: Option<(f64, f64)>) -> f64 {
    let scale = x.primal().iter().fold(1.0_f64, |m, v| m.max(v.abs()));
    let tnorm = t.primal().iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let (rel, abs) = steps.unwrap_or_else(|| {
        let rel = match fdtype {
            FdType::Forward => f64::EPSILON.sqrt(),
            FdType::Central => f64::EPSILON.cbrt(),
        };
        (rel, 0.0)
    });
    (rel * scale).max(abs) / tnorm.max(f64::MIN_POSITIVE)
}

fn finite_pushforward<E, F>(
    f: &mut F,
    x: &Tensor,
    tangents: &[Tensor],
    fdtype: FdType,
    steps: Option<(f64, f64)>,
    dir: f64,
) -> Result<(Tensor, Vec<Tensor>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let y = f(x)?;
    let mut out = Vec::with_capacity(tangents.len());
    for t in tangents {
        if t.primal().iter().all(|&v| v == 0.0) {
            out.push(Tensor::filled(y.shape(), 0.0));
            continue;
        }
        let h = step(x, t, fdtype, steps);
        let shifted = |sign: f64| -> Result<Tensor, AdError> {
            ops::binary(
                BinaryFn::Add,
                x,
                &ops::binary(BinaryFn::Mul, &Tensor::scalar(sign * h), t)?,
            )
        };
        let (upper, lower, width) = match fdtype {
            FdType::Forward => (f(&shifted(dir)?)?, y.clone(), dir * h),
            FdType::Central => (f(&shifted(1.0)?)?, f(&shifted(-1.0)?)?, 2.0 * h),
        };
        let difference = ops::binary(BinaryFn::Sub, &upper, &lower)?;
        out.push(ops::binary(
            BinaryFn::Div,
            &difference,
            &Tensor::scalar(width),
        )?);
    }
    Ok((y, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reused_seeds_never_change_results_that_kept_them() {
        // The identity's pushforwards are the seeds themselves, so every chunk after the first
        // must copy its seed instead of moving the 1 in place.
        let x = Tensor::from_col_major(&[5], vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        let mut chunks = BasisChunks::new(x.shape());
        let mut columns = Vec::new();
        for start in (0..5).step_by(2) {
            let seeds = chunks.seeds(start..(start + 2).min(5)).to_vec();
            columns.extend(seeds);
        }
        for (k, column) in columns.iter().enumerate() {
            let expected: Vec<f64> = (0..5).map(|i| if i == k { 1.0 } else { 0.0 }).collect();
            assert_eq!(column.to_col_major(), expected, "column {k}");
        }
    }

    #[test]
    fn seeds_move_their_one_in_place_when_nothing_kept_them() {
        let mut chunks = BasisChunks::new(&[2, 2]);
        let first = chunks.seeds(0..2)[1].primal().as_ptr();
        let moved = &chunks.seeds(2..4)[1];
        assert_eq!(moved.primal().as_ptr(), first);
        assert_eq!(moved.to_col_major(), vec![0.0, 0.0, 0.0, 1.0]);
    }
}
