//! The high-level operators, built from [`pushforward`] and [`pullback`] as the reference
//! interface builds them: gradients from one pullback (reverse) or batched pushforwards of the
//! basis (forward, finite differences), Jacobians by columns or rows according to the mode,
//! Hessians from HVPs, and HVPs as `outer` differentiating `inner`'s gradient (forward over
//! reverse for `SecondOrder(AutoForwardDiff(), AutoReverseDiff())`).

use super::backend::{default_chunk, even_chunk, Backend, Mode, SYMBOLIC_LANES};
use super::primitives::{basis, pullback, pushforward, stack, BasisChunks};
use crate::error::AdError;
use crate::limits;
use crate::ops;
use crate::tensor::Tensor;

/// `f(x)` and `f'(x)` for a scalar input.
pub fn value_and_derivative<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
) -> Result<(Tensor, Tensor), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let (y, mut d) = pushforward(f, backend, x, &[Tensor::filled(x.shape(), 1.0)])?;
    Ok((y, d.swap_remove(0)))
}

/// `f(x)` and `∇f(x)` for a scalar-valued `f`.
pub fn value_and_gradient<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
) -> Result<(Tensor, Tensor), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    value_and_gradient_seeded(f, backend, x, &mut BasisChunks::new(x.shape()))
}

/// [`value_and_gradient`] with basis seeds kept by a preparation (forward mode and finite
/// differences seed from them).
pub fn value_and_gradient_seeded<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
    seeds: &mut BasisChunks,
) -> Result<(Tensor, Tensor), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    // Checked at the first evaluation: before the cotangent meets an output of another shape,
    // or before the pushforwards of every chunk (n arrays of the output's size) are kept.
    let mut scalar_f = number_valued(f, "gradient");
    if backend.gradient_by_pullback() {
        let (y, mut g) = pullback(&mut scalar_f, backend, x, &[Tensor::scalar(1.0)])?;
        Ok((y, g.swap_remove(0)))
    } else {
        let mut partials = Vec::with_capacity(x.len());
        let y = basis_pushforwards(&mut scalar_f, backend, x, seeds, |_, chunk| {
            partials.extend(chunk);
            Ok(())
        })?;
        Ok((y, stack(&partials, x.shape())?))
    }
}

/// `f`, refusing an output that is not a number as `operator` (which needs one) does.
fn number_valued<'a, E, F>(
    f: &'a mut F,
    operator: &'a str,
) -> impl FnMut(&Tensor) -> Result<Tensor, E> + 'a
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    move |t| {
        let y = f(t)?;
        check_scalar(&y, operator)?;
        Ok(y)
    }
}

/// The refusal of an output that is not a number by `operator` (a gradient, Hessian or HVP).
pub fn check_scalar(y: &Tensor, operator: &str) -> Result<(), AdError> {
    // A one-element array is not a number: Julia's gradient refuses `x -> [sum(x)]` too.
    if y.shape().is_empty() {
        Ok(())
    } else {
        Err(AdError::Argument(format!(
            "{operator} needs a function returning a number, but it returned an array of size {:?}; use jacobian",
            y.shape()
        )))
    }
}

/// The largest batch of directions finite differences take at once.
const FD_BATCH: usize = 64;

/// How many basis directions to push through at once: a chunk for forward mode, one at a time
/// otherwise (each costs a full evaluation anyway).
fn batch_size(backend: &Backend, n: usize) -> usize {
    match backend.first_order() {
        Backend::Forward { chunk } => chunk.unwrap_or_else(|| default_chunk(n)).max(1),
        // Finite differences evaluate f(x) once per batch: batches keep that to a few calls
        // while bounding the seeds held at once.
        Backend::FiniteDiff { .. } => n.clamp(1, FD_BATCH),
        Backend::Symbolic { .. } => even_chunk(n, SYMBOLIC_LANES),
        Backend::Reverse { .. } => 1,
        // Zeros cost nothing per direction: one evaluation for all of them.
        Backend::ZeroForward | Backend::ZeroReverse => n.max(1),
        Backend::SecondOrder { .. } => unreachable!("first_order unwraps SecondOrder"),
    }
}

/// `f(x)`, handing the pushforwards of the basis directions to `each` one batch at a time, in
/// order, so memory stays O(chunk · n) rather than O(n²) unless `each` keeps them.
fn basis_pushforwards<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
    basis: &mut BasisChunks,
    mut each: impl FnMut(&Tensor, Vec<Tensor>) -> Result<(), AdError>,
) -> Result<Tensor, E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let n = x.len();
    if n == 0 {
        return f(x);
    }
    let chunk = batch_size(backend, n);
    let mut value = None;
    basis.fit(x.shape());
    for start in (0..n).step_by(chunk) {
        limits::check()?;
        let seeds = basis.seeds(start..(start + chunk).min(n));
        let (y, partials) = pushforward(f, backend, x, seeds)?;
        each(&y, partials)?;
        value.get_or_insert(y);
    }
    Ok(value.expect("n > 0"))
}

/// A matrix assembled column after column as the columns are computed. Plain columns are
/// copied into place at once, while they are still in cache; once a column carries
/// derivatives (an outer differentiation), all of them are kept and concatenated.
struct Columns {
    rows: usize,
    count: usize,
    data: Vec<f64>,
    kept: Option<Vec<Tensor>>,
}

impl Columns {
    /// Room for `count` columns of `rows` numbers, refused before it fills the memory.
    fn new(rows: usize, count: usize) -> Result<Columns, AdError> {
        // The matrix, and the columns kept while it is made when they carry derivatives.
        limits::reserve_numbers(rows.saturating_mul(count).saturating_mul(2))?;
        Ok(Columns {
            rows,
            count,
            data: Vec::with_capacity(rows * count),
            kept: None,
        })
    }

    fn push(&mut self, column: Tensor) {
        match &mut self.kept {
            None if column.is_plain() => {
                let values = crate::tensor::col_major_slice(column.primal());
                let end = self.data.len() + self.rows;
                self.data
                    .extend_from_slice(&values[..self.rows.min(values.len())]);
                self.data.resize(end, 0.0);
            }
            None => {
                let copied = std::mem::take(&mut self.data)
                    .chunks(self.rows)
                    .map(|c| Tensor::from_col_major(&[self.rows], c.to_vec()))
                    .collect::<Vec<_>>();
                self.kept.insert(copied).push(column);
            }
            Some(kept) => kept.push(column),
        }
    }

    /// The rows × count matrix (missing columns are zero).
    fn finish(mut self) -> Result<Tensor, AdError> {
        match self.kept {
            None => {
                self.data.resize(self.rows * self.count, 0.0);
                Ok(Tensor::from_col_major(&[self.rows, self.count], self.data))
            }
            Some(kept) => matrix_of(&kept, self.rows, self.count, true),
        }
    }
}

/// `f(x)` and the Jacobian `∂vec(f)/∂vec(x)` (length(y) × length(x), column-major flattening).
pub fn value_and_jacobian<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
) -> Result<(Tensor, Tensor), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    value_and_jacobian_seeded(f, backend, x, &mut BasisChunks::new(x.shape()))
}

/// [`value_and_jacobian`] with basis seeds kept by a preparation (forward mode and finite
/// differences seed from them).
pub fn value_and_jacobian_seeded<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
    seeds: &mut BasisChunks,
) -> Result<(Tensor, Tensor), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let n = x.len();
    match backend.first_order().mode() {
        Mode::Reverse => {
            let y = f(x)?;
            let m = y.len();
            limits::reserve_numbers(m.saturating_mul(n).saturating_mul(2))?;
            let seeds: Vec<Tensor> = (0..m)
                .map(|i| {
                    limits::check()?;
                    Ok(basis(y.shape(), i))
                })
                .collect::<Result<_, AdError>>()?;
            let (_, rows) = pullback(f, backend, x, &seeds)?;
            Ok((y, matrix_of(&rows, m, n, false)?))
        }
        _ => {
            let mut columns = None;
            let y = basis_pushforwards(f, backend, x, seeds, |y, chunk| {
                if columns.is_none() {
                    columns = Some(Columns::new(y.len(), n)?);
                }
                let columns = columns.as_mut().expect("made above");
                chunk.into_iter().for_each(|c| columns.push(c));
                Ok(())
            })?;
            let columns = match columns {
                Some(columns) => columns,
                None => Columns::new(y.len(), n)?,
            };
            Ok((y, columns.finish()?))
        }
    }
}

/// Rows of a matrix written together (a cache line of `f64`s per column).
const ROWS_PER_BLOCK: usize = 8;

/// The m×n matrix whose columns (or rows, when `!by_columns`) are `parts`, flattened
/// column-major. Plain rows are copied straight into place; columns (see [`Columns`] for
/// plain ones) and parts with derivatives go through `concat`.
fn matrix_of(parts: &[Tensor], m: usize, n: usize, by_columns: bool) -> Result<Tensor, AdError> {
    if parts.is_empty() {
        return Ok(Tensor::filled(&[m, n], 0.0));
    }
    if by_columns || !parts.iter().all(Tensor::is_plain) {
        let shape = if by_columns { [m, 1] } else { [1, n] };
        let flat: Vec<Tensor> = parts
            .iter()
            .map(|p| ops::reshape(p, &shape))
            .collect::<Result<_, _>>()?;
        return ops::concat(&flat, if by_columns { 1 } else { 0 });
    }
    let rows: Vec<_> = parts
        .iter()
        .take(m)
        .map(|part| crate::tensor::col_major_slice(part.primal()))
        .collect();
    let mut data = vec![0.0; m * n];
    for (block, first) in rows
        .chunks(ROWS_PER_BLOCK)
        .zip((0..).step_by(ROWS_PER_BLOCK))
    {
        limits::check()?;
        // Row k holds positions k, k + m, k + 2m, …: a block's entries of one column are
        // adjacent, where writing row after row would touch a cache line per entry.
        for (j, column) in data.chunks_exact_mut(m).enumerate() {
            for (slot, row) in column[first..].iter_mut().zip(block) {
                if let Some(&v) = row.get(j) {
                    *slot = v;
                }
            }
        }
    }
    Ok(Tensor::from_col_major(&[m, n], data))
}

/// `∇f(x)` and the HVPs `∇²f(x)·v` for each direction `v`.
pub fn gradient_and_hvp<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
    directions: &[Tensor],
) -> Result<(Tensor, Tensor, Vec<Tensor>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let f = &mut number_valued(f, "hvp");
    let (outer, inner) = backend.second_order();
    let (outer, inner) = (outer.clone(), inner.clone());
    let mut value = None;
    let mut gradient_of = |z: &Tensor| -> Result<Tensor, E> {
        let (y, g) = value_and_gradient(f, &inner, z)?;
        value.get_or_insert(y);
        Ok(g)
    };
    let (g, hvps) = match outer.first_order().mode() {
        // The Hessian is symmetric, so a pullback of the gradient is also an HVP.
        Mode::Reverse => pullback(&mut gradient_of, &outer, x, directions)?,
        _ => pushforward(&mut gradient_of, &outer, x, directions)?,
    };
    let y = match value {
        Some(v) => primal_layer(&v, x),
        None => Tensor::scalar(f64::NAN),
    };
    Ok((y, g, hvps))
}

/// Strips the derivative layers an outer differentiation added to a value computed inside it.
fn primal_layer(v: &Tensor, x: &Tensor) -> Tensor {
    // Values computed inside the outer differentiation carry its newer tag on top; x's own
    // layers (from further-out differentiations) must stay.
    let mut v = v.clone();
    while let (Some(tv), tx) = (v.tag(), x.tag()) {
        if tx.is_some_and(|t| t >= tv) {
            break;
        }
        let next = match &v {
            Tensor::Dual(d) => d.value.clone(),
            _ => break,
        };
        v = next;
    }
    v
}

/// `f(x)`, `∇f(x)` and `∇²f(x)`.
pub fn value_gradient_and_hessian<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
) -> Result<(Tensor, Tensor, Tensor), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    value_gradient_and_hessian_seeded(f, backend, x, &mut BasisChunks::new(x.shape()))
}

/// [`value_gradient_and_hessian`] with basis seeds kept by a preparation.
pub fn value_gradient_and_hessian_seeded<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
    seeds: &mut BasisChunks,
) -> Result<(Tensor, Tensor, Tensor), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let f = &mut number_valued(f, "hessian");
    let n = x.len();
    limits::reserve_numbers(n.saturating_mul(n).saturating_mul(2))?;
    if let Backend::FiniteDiff { steps, .. } = backend {
        // FiniteDiff's own Hessian: one stencil of the function per pair of inputs, rather
        // than differences of differences.
        let (y, g) = value_and_gradient_seeded(f, backend, x, seeds)?;
        return Ok((y, g, super::primitives::finite_hessian(f, x, *steps)?));
    }
    let chunk = batch_size(backend.second_order().0, n);
    let mut columns = Columns::new(n, n)?;
    let mut value_and_gradient = None;
    seeds.fit(x.shape());
    for start in (0..n.max(1)).step_by(chunk) {
        limits::check()?;
        let chunk_seeds = seeds.seeds(start..(start + chunk).min(n));
        let (y, g, hvps) = gradient_and_hvp(f, backend, x, chunk_seeds)?;
        value_and_gradient.get_or_insert((y, g));
        hvps.into_iter().for_each(|c| columns.push(c));
    }
    let (y, g) = value_and_gradient.expect("at least one batch");
    Ok((y, g, columns.finish()?))
}

/// `f(x)`, `f'(x)` and `f''(x)` for a scalar input.
pub fn value_derivative_and_second_derivative<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
) -> Result<(Tensor, Tensor, Tensor), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let (outer, inner) = backend.second_order();
    let (outer, inner) = (outer.clone(), inner.clone());
    let mut first = None;
    let mut derivative_of = |z: &Tensor| -> Result<Tensor, E> {
        let (y, d) = value_and_derivative(f, &inner, z)?;
        first.get_or_insert(y);
        Ok(d)
    };
    let (d, d2) = value_and_derivative(&mut derivative_of, &outer, x)?;
    let y = first.map_or(Tensor::scalar(f64::NAN), |v| primal_layer(&v, x));
    Ok((y, d, d2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::BinaryFn;

    type Result<T> = std::result::Result<T, AdError>;

    /// A 13 × 11 matrix (rows not a multiple of the row blocks) with distinct entries.
    fn matrix() -> Tensor {
        Tensor::from_col_major(&[13, 11], (0..143).map(|k| (k as f64).sin()).collect())
    }

    fn input() -> Tensor {
        Tensor::from_col_major(&[11], (0..11).map(|k| 1.0 + k as f64).collect())
    }

    #[test]
    fn jacobians_by_columns_and_by_rows_are_the_matrix() -> Result<()> {
        let a = matrix();
        let mut linear = |x: &Tensor| ops::matmul(&a, x);
        for backend in [
            Backend::Forward { chunk: Some(4) },
            Backend::Forward { chunk: None },
            Backend::Reverse { compile: false },
        ] {
            let (y, jacobian) = value_and_jacobian(&mut linear, &backend, &input())?;
            assert_eq!(y.shape(), &[13]);
            assert_eq!(jacobian.shape(), &[13, 11], "{backend:?}");
            assert_eq!(jacobian.to_col_major(), a.to_col_major(), "{backend:?}");
        }
        Ok(())
    }

    #[test]
    fn jacobian_columns_carrying_derivatives_are_concatenated() -> Result<()> {
        // x ↦ vec(∂(x .* x₁)/∂x) = vec(x₁ I + x e₁ᵀ): an outer forward pass makes the inner
        // Jacobian's columns duals, which must keep their partials.
        let forward = Backend::Forward { chunk: Some(2) };
        let mut inner_jacobian = |x: &Tensor| -> Result<Tensor> {
            let first = ops::gather(x, &[0], &[])?;
            let mut scaled = |y: &Tensor| ops::binary(BinaryFn::Mul, y, &first);
            let (_, j) = value_and_jacobian(&mut scaled, &forward, x)?;
            ops::reshape(&j, &[9])
        };
        let x = Tensor::from_col_major(&[3], vec![2.0, 3.0, 5.0]);
        let (j, outer) = value_and_jacobian(&mut inner_jacobian, &forward, &x)?;
        assert_eq!(
            j.to_col_major(),
            [2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0]
        );
        // Only the diagonal entries depend on x, each on x₁ alone.
        let mut expected = vec![0.0; 27];
        for diagonal in [0, 4, 8] {
            expected[diagonal] = 1.0;
        }
        assert_eq!(outer.to_col_major(), expected);
        Ok(())
    }

    #[test]
    fn plain_columns_copied_before_one_with_derivatives_keep_their_place() -> Result<()> {
        let mut columns = Columns::new(2, 3)?;
        columns.push(Tensor::from_col_major(&[2], vec![1.0, 2.0]));
        let tangent = Tensor::from_col_major(&[2], vec![0.5, 0.25]);
        let value = Tensor::from_col_major(&[2], vec![3.0, 4.0]);
        columns.push(Tensor::dual(
            crate::tensor::Tag::fresh(),
            value,
            vec![tangent],
        ));
        columns.push(Tensor::from_col_major(&[2], vec![5.0, 6.0]));
        let matrix = columns.finish()?;
        assert!(!matrix.is_plain());
        assert_eq!(matrix.shape(), &[2, 3]);
        assert_eq!(matrix.to_col_major(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        Ok(())
    }

    #[test]
    fn hessians_are_assembled_from_their_hvp_columns() -> Result<()> {
        // f(x) = Σ xᵢ³ + x₁x₂: ∇²f = diag(6x) + (e₁e₂ᵀ + e₂e₁ᵀ).
        let mut f = |x: &Tensor| -> Result<Tensor> {
            let cubes = ops::binary(BinaryFn::Pow, x, &Tensor::scalar(3.0))?;
            let pair = ops::binary(
                BinaryFn::Mul,
                &ops::gather(x, &[0], &[])?,
                &ops::gather(x, &[1], &[])?,
            )?;
            ops::binary(BinaryFn::Add, &ops::sum_all(&cubes)?, &pair)
        };
        let x = Tensor::from_col_major(&[3], vec![1.0, 2.0, 3.0]);
        let backend = Backend::SecondOrder {
            outer: Box::new(Backend::Forward { chunk: Some(2) }),
            inner: Box::new(Backend::Reverse { compile: false }),
        };
        let (_, _, h) = value_gradient_and_hessian(&mut f, &backend, &x)?;
        assert_eq!(
            h.to_col_major(),
            [6.0, 1.0, 0.0, 1.0, 12.0, 0.0, 0.0, 0.0, 18.0]
        );
        Ok(())
    }
}
