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
    if backend.gradient_by_pullback() {
        // Checked before the cotangent meets an output of another shape.
        let mut scalar_f = number_valued(f, "gradient");
        let (y, mut g) = pullback(&mut scalar_f, backend, x, &[Tensor::scalar(1.0)])?;
        Ok((y, g.swap_remove(0)))
    } else {
        let (y, partials) = basis_pushforwards(f, backend, x, seeds)?;
        check_scalar(&y, "gradient")?;
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

/// `f(x)` and the pushforwards of every basis direction, created one batch at a time so memory
/// stays O(chunk · n) rather than O(n²).
fn basis_pushforwards<E, F>(
    f: &mut F,
    backend: &Backend,
    x: &Tensor,
    basis: &mut BasisChunks,
) -> Result<(Tensor, Vec<Tensor>), E>
where
    E: From<AdError>,
    F: FnMut(&Tensor) -> Result<Tensor, E>,
{
    let n = x.len();
    if n == 0 {
        return Ok((f(x)?, Vec::new()));
    }
    let chunk = batch_size(backend, n);
    let mut value = None;
    let mut out = Vec::with_capacity(n);
    basis.fit(x.shape());
    for start in (0..n).step_by(chunk) {
        limits::check()?;
        let seeds = basis.seeds(start..(start + chunk).min(n));
        let (y, partials) = pushforward(f, backend, x, seeds)?;
        if value.is_none() {
            // The columns and the matrix made of them: refused before they fill the memory.
            limits::reserve_numbers(y.len().saturating_mul(n).saturating_mul(2))?;
        }
        value.get_or_insert(y);
        out.extend(partials);
    }
    Ok((value.expect("n > 0"), out))
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
            let (y, columns) = basis_pushforwards(f, backend, x, seeds)?;
            let m = y.len();
            Ok((y, matrix_of(&columns, m, n, true)?))
        }
    }
}

/// The m×n matrix whose columns (or rows, when `!by_columns`) are `parts`, flattened
/// column-major. Plain parts are copied straight into place; others go through `concat`.
fn matrix_of(parts: &[Tensor], m: usize, n: usize, by_columns: bool) -> Result<Tensor, AdError> {
    let (count, shape) = if by_columns { (n, [m, 1]) } else { (m, [1, n]) };
    if parts.is_empty() {
        return Ok(Tensor::filled(&[m, n], 0.0));
    }
    if !parts.iter().all(Tensor::is_plain) {
        let flat: Vec<Tensor> = parts
            .iter()
            .map(|p| ops::reshape(p, &shape))
            .collect::<Result<_, _>>()?;
        return ops::concat(&flat, if by_columns { 1 } else { 0 });
    }
    let data = if by_columns {
        // Column after column: the parts, in order, are the matrix's memory.
        let mut data = Vec::with_capacity(m * n);
        for part in parts.iter().take(count) {
            limits::check()?;
            let values = crate::tensor::col_major_slice(part.primal());
            let end = data.len() + m;
            data.extend_from_slice(&values[..m.min(values.len())]);
            data.resize(end, 0.0);
        }
        data.resize(m * n, 0.0);
        data
    } else {
        // Row k holds positions k, k + m, k + 2m, …
        let mut data = vec![0.0; m * n];
        for (k, part) in parts.iter().enumerate().take(count) {
            limits::check()?;
            let values = crate::tensor::col_major_slice(part.primal());
            for (slot, &v) in data[k..].iter_mut().step_by(m).zip(values.iter()) {
                *slot = v;
            }
        }
        data
    };
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
    let mut columns = Vec::with_capacity(n);
    let mut value_and_gradient = None;
    seeds.fit(x.shape());
    for start in (0..n.max(1)).step_by(chunk) {
        limits::check()?;
        let chunk_seeds = seeds.seeds(start..(start + chunk).min(n));
        let (y, g, hvps) = gradient_and_hvp(f, backend, x, chunk_seeds)?;
        value_and_gradient.get_or_insert((y, g));
        columns.extend(hvps);
    }
    let (y, g) = value_and_gradient.expect("at least one batch");
    Ok((y, g, matrix_of(&columns, n, n, true)?))
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
