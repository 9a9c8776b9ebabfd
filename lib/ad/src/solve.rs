//! The iterative linear solver of implicit differentiation: restarted GMRES on a matrix-free
//! operator (only products `A·v` are needed, so no Jacobian is ever materialized). Materialized
//! systems are factorized with faer by the language's `DirectLinearSolver`.

use crate::error::AdError;

/// What a solve did, for diagnostics.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveInfo {
    /// Matrix-vector products (GMRES) performed.
    pub products: usize,
    /// The final residual norm relative to `‖b‖`.
    pub relative_residual: f64,
    /// True when the tolerance was reached.
    pub converged: bool,
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `A x = b` with restarted GMRES(`restart`), where `apply(v)` computes `A v`.
/// Stops at a relative residual of `tol` or after `max_products` products.
pub fn gmres<E: From<AdError>>(
    mut apply: impl FnMut(&[f64]) -> Result<Vec<f64>, E>,
    b: &[f64],
    tol: f64,
    restart: usize,
    max_products: usize,
) -> Result<(Vec<f64>, SolveInfo), E> {
    let n = b.len();
    let mut x = vec![0.0; n];
    let bnorm = norm(b);
    let mut info = SolveInfo {
        products: 0,
        relative_residual: 0.0,
        converged: true,
    };
    if bnorm == 0.0 {
        return Ok((x, info));
    }
    let restart = restart.max(1).min(n.max(1));
    loop {
        let ax = apply(&x)?;
        info.products += 1;
        let r: Vec<f64> = b.iter().zip(&ax).map(|(p, q)| p - q).collect();
        let beta = norm(&r);
        info.relative_residual = beta / bnorm;
        if info.relative_residual <= tol || info.products >= max_products {
            info.converged = info.relative_residual <= tol;
            return Ok((x, info));
        }
        // Arnoldi with modified Gram–Schmidt and Givens rotations.
        let mut basis: Vec<Vec<f64>> = vec![r.iter().map(|v| v / beta).collect()];
        let mut h = vec![vec![0.0; restart]; restart + 1];
        let (mut cs, mut sn) = (vec![0.0; restart], vec![0.0; restart]);
        let mut g = vec![0.0; restart + 1];
        g[0] = beta;
        let mut k_used = 0;
        for k in 0..restart {
            let mut w = apply(&basis[k])?;
            info.products += 1;
            for (i, q) in basis.iter().enumerate() {
                h[i][k] = dot(&w, q);
                for (wj, qj) in w.iter_mut().zip(q) {
                    *wj -= h[i][k] * qj;
                }
            }
            h[k + 1][k] = norm(&w);
            for i in 0..k {
                let t = cs[i] * h[i][k] + sn[i] * h[i + 1][k];
                h[i + 1][k] = -sn[i] * h[i][k] + cs[i] * h[i + 1][k];
                h[i][k] = t;
            }
            let denom = h[k][k].hypot(h[k + 1][k]);
            if denom == 0.0 {
                k_used = k;
                break;
            }
            cs[k] = h[k][k] / denom;
            sn[k] = h[k + 1][k] / denom;
            h[k][k] = denom;
            let next = h[k + 1][k];
            h[k + 1][k] = 0.0;
            g[k + 1] = -sn[k] * g[k];
            g[k] *= cs[k];
            k_used = k + 1;
            if g[k + 1].abs() / bnorm <= tol || info.products >= max_products || next == 0.0 {
                break;
            }
            basis.push(w.iter().map(|v| v / next).collect());
        }
        // Back substitution for the coefficients, then the update.
        let mut y = vec![0.0; k_used];
        for i in (0..k_used).rev() {
            let s: f64 = (i + 1..k_used).map(|j| h[i][j] * y[j]).sum();
            y[i] = if h[i][i] == 0.0 {
                0.0
            } else {
                (g[i] - s) / h[i][i]
            };
        }
        for (j, yj) in y.iter().enumerate() {
            for (xi, qi) in x.iter_mut().zip(&basis[j]) {
                *xi += yj * qi;
            }
        }
        if k_used == 0 {
            info.converged = false;
            return Ok((x, info));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gmres_solves_a_small_system() {
        // A = [4 1 0; 1 3 1; 0 1 2], x = [1, 2, 3].
        let a = [4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0];
        let b = [6.0, 10.0, 8.0];
        let apply = |v: &[f64]| -> Result<Vec<f64>, AdError> {
            Ok((0..3)
                .map(|i| (0..3).map(|j| a[i + 3 * j] * v[j]).sum())
                .collect())
        };
        let (x, info) = gmres(apply, &b, 1e-12, 10, 100).unwrap();
        assert!(info.converged);
        for (got, want) in x.iter().zip([1.0, 2.0, 3.0]) {
            assert!((got - want).abs() < 1e-10);
        }
    }
}
