//! The derivatives of the elementwise functions on plain numbers, for compiled programs: the
//! same rules as the array forms in [`crate::ops::elementwise`] (a test checks them against
//! each other), without building a tensor per number.

use crate::error::{AdError, Result};
use crate::ops::{BinaryFn, UnaryFn};

impl UnaryFn {
    /// `f'(x)`, given `y = f(x)`.
    pub(crate) fn slope(self, x: f64, y: f64) -> f64 {
        use std::f64::consts::{LN_10, LN_2};
        use UnaryFn::*;
        match self {
            Neg => -1.0,
            Abs => Sign.apply(x),
            Abs2 => 2.0 * x,
            Sqrt => 0.5 / y,
            Cbrt => 1.0 / (3.0 * y * y),
            Exp => y,
            Exp2 => LN_2 * y,
            Log => 1.0 / x,
            Log2 => 1.0 / (LN_2 * x),
            Log10 => 1.0 / (LN_10 * x),
            Log1p => 1.0 / (1.0 + x),
            Expm1 => x.exp(),
            Sin => x.cos(),
            Cos => -x.sin(),
            Tan => 1.0 + y * y,
            Asin => 1.0 / (1.0 - x * x).sqrt(),
            Acos => -1.0 / (1.0 - x * x).sqrt(),
            Atan => 1.0 / (1.0 + x * x),
            Sinh => x.cosh(),
            Cosh => x.sinh(),
            Tanh => 1.0 - y * y,
            Sec => y * x.tan(),
            Csc => -y * Cot.apply(x),
            Cot => -(1.0 + y * y),
            Sign | Floor | Ceil | Round | Trunc | IgnoreDerivatives => 0.0,
            Sigmoid => y * (1.0 - y),
            Relu => f64::from(u8::from(x > 0.0)),
            Softplus => Sigmoid.apply(x),
            Inv => -1.0 / (x * x),
            Special(f) => f.slope_at(x),
        }
    }
}

impl BinaryFn {
    /// `(∂f/∂x, ∂f/∂z)` at `(x, z)`, given `y = f(x, z)`; `need_z` is false when `z` is a
    /// constant (the exponent's slope needs a logarithm).
    pub(crate) fn slopes(self, x: f64, z: f64, y: f64, need_z: bool) -> (f64, f64) {
        use BinaryFn::*;
        match self {
            Add => (1.0, 1.0),
            Sub => (1.0, -1.0),
            Mul => (z, x),
            Div => (1.0 / z, -y / z),
            Pow => {
                let base = match z {
                    2.0 => 2.0 * x,
                    1.0 => 1.0,
                    _ => z * Pow.apply(x, z - 1.0),
                };
                (base, if need_z { y * x.ln() } else { 0.0 })
            }
            Max => {
                let a = f64::from(u8::from(x >= z));
                (a, 1.0 - a)
            }
            Min => {
                let a = f64::from(u8::from(x <= z));
                (a, 1.0 - a)
            }
            Atan2 => {
                let r2 = x * x + z * z;
                (z / r2, -x / r2)
            }
            Hypot => (x / y, z / y),
            Mod | Rem => (1.0, -((x - y) / z)),
        }
    }
}

impl UnaryFn {
    /// `f''(x)`, given `y = f(x)` and `s = f'(x)`.
    pub(crate) fn curvature(self, x: f64, y: f64, s: f64) -> f64 {
        use std::f64::consts::{LN_10, LN_2};
        use UnaryFn::*;
        match self {
            Neg | Abs | Sign | Floor | Ceil | Round | Trunc | Relu | IgnoreDerivatives => 0.0,
            Abs2 => 2.0,
            Sqrt => -0.25 / (y * y * y),
            Cbrt => -2.0 / (9.0 * y.powi(5)),
            Exp => y,
            Exp2 => LN_2 * LN_2 * y,
            Log => -1.0 / (x * x),
            Log2 => -1.0 / (LN_2 * x * x),
            Log10 => -1.0 / (LN_10 * x * x),
            Log1p => -1.0 / ((1.0 + x) * (1.0 + x)),
            Expm1 => x.exp(),
            Sin | Cos => -y,
            Tan => 2.0 * y * s,
            Cot => -2.0 * y * s,
            Asin | Acos => x * s * s * s,
            Atan => -2.0 * x * s * s,
            Sinh | Cosh => y,
            Tanh => -2.0 * y * s,
            Sec => y * (x.tan() * x.tan() + y * y),
            Csc => {
                let cot = Cot.apply(x);
                y * (cot * cot + y * y)
            }
            Sigmoid => s * (1.0 - 2.0 * y),
            Softplus => s * (1.0 - s),
            Inv => 2.0 / (x * x * x),
            Special(f) => f.curvature_at(x),
        }
    }
}

impl BinaryFn {
    /// `(∂²f/∂x², ∂²f/∂x∂z, ∂²f/∂z²)` at `(x, z)`, given `y = f(x, z)`; without `need_z` the
    /// terms involving `z` are 0 (`z` is a constant).
    pub(crate) fn curvatures(self, x: f64, z: f64, y: f64, need_z: bool) -> (f64, f64, f64) {
        use BinaryFn::*;
        let (xx, xz, zz) = match self {
            Add | Sub | Max | Min | Mod | Rem => (0.0, 0.0, 0.0),
            Mul => (0.0, 1.0, 0.0),
            Div => (0.0, -1.0 / (z * z), 2.0 * x / (z * z * z)),
            Pow => {
                let xx = z * (z - 1.0) * Pow.apply(x, z - 2.0);
                if !need_z {
                    return (xx, 0.0, 0.0);
                }
                let ln = x.ln();
                (xx, Pow.apply(x, z - 1.0) * (1.0 + z * ln), y * ln * ln)
            }
            Atan2 => {
                let r2 = x * x + z * z;
                let r4 = r2 * r2;
                (-2.0 * x * z / r4, (x * x - z * z) / r4, 2.0 * x * z / r4)
            }
            Hypot => {
                let y3 = y * y * y;
                (z * z / y3, -x * z / y3, x * x / y3)
            }
        };
        if need_z {
            (xx, xz, zz)
        } else {
            (xx, 0.0, 0.0)
        }
    }
}

/// The domain check of `f(x, z)` on plain numbers (a negative base to a fractional power).
pub(crate) fn check_binary_domain(f: BinaryFn, x: f64, z: f64) -> Result<()> {
    if f == BinaryFn::Pow && z.fract() != 0.0 && x < 0.0 {
        return Err(AdError::Domain {
            function: "^",
            value: x,
        });
    }
    Ok(())
}

/// The domain check of `f(x)` on a plain number.
pub(crate) fn check_unary_domain(f: UnaryFn, x: f64) -> Result<()> {
    if f.in_domain(x) {
        Ok(())
    } else {
        Err(AdError::Domain {
            function: f.name(),
            value: x,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::ops::{self, BinaryFn, UnaryFn};
    use crate::tensor::{Tag, Tensor};

    fn forward(f: impl Fn(&Tensor) -> Tensor, x: f64) -> f64 {
        let tag = Tag::fresh();
        let d = Tensor::dual(tag, Tensor::scalar(x), vec![Tensor::scalar(1.0)]);
        let out = f(&d);
        out.split(tag).1.map_or(0.0, |p| p[0].primal()[[]])
    }

    /// The second derivative of `f` at `x` by forward over forward mode.
    fn second(f: impl Fn(&Tensor) -> Tensor, x: f64) -> f64 {
        let (outer, inner) = (Tag::fresh(), Tag::fresh());
        let d = Tensor::dual(
            inner,
            Tensor::dual(outer, Tensor::scalar(x), vec![Tensor::scalar(1.0)]),
            vec![Tensor::dual(
                outer,
                Tensor::scalar(1.0),
                vec![Tensor::scalar(0.0)],
            )],
        );
        let out = f(&d);
        let first = out.split(inner).1.map(|p| p[0].clone());
        first
            .and_then(|t| t.split(outer).1.map(|p| p[0].primal()[[]]))
            .unwrap_or(0.0)
    }

    fn close(got: f64, expected: f64) -> bool {
        (got - expected).abs() <= 1e-10 * (1.0 + expected.abs())
    }

    #[test]
    fn scalar_curvatures_match_nested_duals() {
        for f in UnaryFn::ELEMENTARY {
            for x in [0.3, 0.7, -0.4, 2.5] {
                if !f.in_domain(x) {
                    continue;
                }
                let y = f.apply(x);
                let got = f.curvature(x, y, f.slope(x, y));
                let expected = second(|t| ops::unary(f, t).unwrap(), x);
                assert!(close(got, expected), "{f:?}'' at {x}: {got} vs {expected}");
            }
        }
        use BinaryFn::*;
        for f in [Add, Sub, Mul, Div, Pow, Max, Min, Atan2, Hypot, Mod, Rem] {
            for (x, z) in [(0.7, 1.3), (2.0, 0.5), (1.5, 2.0), (3.0, 2.5)] {
                let (xx, xz, zz) = f.curvatures(x, z, f.apply(x, z), true);
                let exx = second(|t| ops::binary(f, t, &Tensor::scalar(z)).unwrap(), x);
                let ezz = second(|t| ops::binary(f, &Tensor::scalar(x), t).unwrap(), z);
                // The mixed term from the second derivative along (1, 1).
                let along = second(
                    |t| {
                        ops::binary(
                            f,
                            t,
                            &ops::binary(BinaryFn::Add, t, &Tensor::scalar(z - x)).unwrap(),
                        )
                        .unwrap()
                    },
                    x,
                );
                let exz = (along - exx - ezz) / 2.0;
                assert!(
                    close(xx, exx) && close(zz, ezz) && close(xz, exz),
                    "{f:?} at {x},{z}: {:?} vs {:?}",
                    (xx, xz, zz),
                    (exx, exz, ezz)
                );
            }
        }
    }

    #[test]
    fn scalar_slopes_match_the_array_rules() {
        for f in UnaryFn::ELEMENTARY {
            for x in [0.3, 0.7, -0.4, 2.5] {
                if !f.in_domain(x) {
                    continue;
                }
                let expected = forward(|t| ops::unary(f, t).unwrap(), x);
                let got = f.slope(x, f.apply(x));
                assert!(
                    (got - expected).abs() <= 1e-12 * (1.0 + expected.abs()),
                    "{f:?} at {x}: {got} vs {expected}"
                );
            }
        }
        use BinaryFn::*;
        for f in [Add, Sub, Mul, Div, Pow, Max, Min, Atan2, Hypot, Mod, Rem] {
            for (x, z) in [(0.7, 1.3), (2.0, 0.5), (1.5, 2.0), (-0.6, 3.0), (3.0, 3.0)] {
                let y = f.apply(x, z);
                let (sx, sz) = f.slopes(x, z, y, true);
                let ex = forward(|t| ops::binary(f, t, &Tensor::scalar(z)).unwrap(), x);
                assert!(
                    (sx - ex).abs() <= 1e-12 * (1.0 + ex.abs()),
                    "{f:?} ∂x at {x},{z}: {sx} vs {ex}"
                );
                if x > 0.0 || f != Pow {
                    let ez = forward(|t| ops::binary(f, &Tensor::scalar(x), t).unwrap(), z);
                    assert!(
                        (sz - ez).abs() <= 1e-12 * (1.0 + ez.abs()),
                        "{f:?} ∂z at {x},{z}: {sz} vs {ez}"
                    );
                }
            }
        }
    }
}
