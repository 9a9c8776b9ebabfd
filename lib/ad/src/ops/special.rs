//! The special functions of SpecialFunctions.jl as elementwise primitives ([`Special`], one
//! [`UnaryFn::Special`] each): gamma and its logarithm, the polygamma family and its inverse,
//! the error functions, Bessel functions of integer order, Airy functions, complete elliptic
//! integrals and the exponential, sine and cosine integrals.
//!
//! Each has its value on plain numbers (from `libm` where it has the function, else the series,
//! recurrences and continued fractions written in [`kernels`]) and its derivative written
//! with primitives, so duals of duals, tapes and tracers take it like any other function.
//! Derivatives with respect to an order (`besselj(ν, x)` in `ν`) are not defined, as in
//! SpecialFunctions.

use super::elementwise::{binary, unary, BinaryFn, UnaryFn};
use crate::error::Result;
use crate::tensor::Tensor;
use std::f64::consts::{FRAC_2_SQRT_PI, PI};

mod kernels;

/// A special function of one number (an order, where it has one, is part of the function).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Special {
    Gamma,
    /// `log(Γ(x))`, where `Γ(x) > 0`.
    LogGamma,
    /// `log|Γ(x)|`.
    LogAbsGamma,
    /// `ψ⁽ᵐ⁾(x)`: `Polygamma(0)` is `digamma`, `Polygamma(1)` is `trigamma`.
    Polygamma(u8),
    InvDigamma,
    Erf,
    Erfc,
    /// `exp(x²)·erfc(x)`.
    Erfcx,
    /// `log(erfc(x))`.
    LogErfc,
    ErfInv,
    ErfcInv,
    /// A Bessel function of a real order.
    Bessel(BesselKind, Order),
    /// The upper incomplete gamma function `Γ(a, x) = ∫ₓ^∞ t^(a−1) e^(−t) dt` of `x`, for the
    /// parameter `a`.
    UpperGamma(Order),
    /// Zero, with a NaN derivative: added to a result for an argument it has no derivative
    /// in (a Bessel function's order), as DiffRules' NaN does in Julia.
    UnknownSlope,
    AiryAi,
    AiryAiPrime,
    AiryBi,
    AiryBiPrime,
    /// `Ai(x)·exp(ζ)`, `ζ = ⅔x^{3/2}`, for `x ≥ 0`.
    AiryAix,
    /// `Ai′(x)·exp(ζ)` for `x ≥ 0`.
    AiryAiPrimex,
    /// `Bi(x)·exp(−ζ)` (`Bi(x)` left of zero, where ζ is imaginary).
    AiryBix,
    /// `Bi′(x)·exp(−ζ)`.
    AiryBiPrimex,
    EllipK,
    EllipE,
    /// `E₁(x) = ∫₁^∞ e^(−xt)/t dt`.
    ExpInt,
    /// `eˣ·E₁(x)`.
    ExpIntx,
    /// `Ei(x)`.
    ExpIntI,
    SinInt,
    CosInt,
}

/// The four Bessel functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BesselKind {
    /// `Jᵥ`, of the first kind.
    J,
    /// `Yᵥ`, of the second kind.
    Y,
    /// `Iᵥ`, modified, of the first kind.
    I,
    /// `Kᵥ`, modified, of the second kind.
    K,
}

/// A real order or parameter, kept by its bits so that [`Special`] compares and hashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Order(u64);

impl Order {
    /// The order `nu`.
    pub fn new(nu: f64) -> Order {
        Order(nu.to_bits())
    }

    /// Its value.
    pub fn value(self) -> f64 {
        f64::from_bits(self.0)
    }
}

impl Special {
    /// `besselj(ν, x)` and its kin as a function of `x`.
    pub fn bessel(kind: BesselKind, nu: f64) -> Special {
        Special::Bessel(kind, Order::new(nu))
    }

    /// The language name of the function.
    pub fn name(self) -> &'static str {
        use Special::*;
        match self {
            Gamma => "gamma",
            LogGamma => "loggamma",
            LogAbsGamma => "lgamma",
            Polygamma(0) => "digamma",
            Polygamma(1) => "trigamma",
            Polygamma(_) => "polygamma",
            InvDigamma => "invdigamma",
            Erf => "erf",
            Erfc => "erfc",
            Erfcx => "erfcx",
            LogErfc => "logerfc",
            ErfInv => "erfinv",
            ErfcInv => "erfcinv",
            Bessel(BesselKind::J, _) => "besselj",
            Bessel(BesselKind::Y, _) => "bessely",
            Bessel(BesselKind::I, _) => "besseli",
            Bessel(BesselKind::K, _) => "besselk",
            UpperGamma(_) => "gamma",
            UnknownSlope => "unknown_slope",
            AiryAi => "airyai",
            AiryAiPrime => "airyaiprime",
            AiryBi => "airybi",
            AiryBiPrime => "airybiprime",
            AiryAix => "airyaix",
            AiryAiPrimex => "airyaiprimex",
            AiryBix => "airybix",
            AiryBiPrimex => "airybiprimex",
            EllipK => "ellipk",
            EllipE => "ellipe",
            ExpInt => "expint",
            ExpIntx => "expintx",
            ExpIntI => "expinti",
            SinInt => "sinint",
            CosInt => "cosint",
        }
    }

    /// The order written before the argument (`polygamma(m, x)`, `besselj(ν, x)`,
    /// `gamma(a, x)`), for formulas; `None` where the name says it.
    pub fn order(self) -> Option<f64> {
        match self {
            Special::Polygamma(m) if m > 1 => Some(f64::from(m)),
            Special::Bessel(_, nu) | Special::UpperGamma(nu) => Some(nu.value()),
            _ => None,
        }
    }

    /// The function on one plain number; NaN outside its real domain.
    pub fn apply(self, x: f64) -> f64 {
        use Special::*;
        match self {
            Gamma => libm::tgamma(x),
            LogGamma => match libm::lgamma_r(x) {
                (_, sign) if sign < 0 => f64::NAN,
                (y, _) => y,
            },
            LogAbsGamma => libm::lgamma_r(x).0,
            Polygamma(m) => kernels::polygamma(m, x),
            InvDigamma => kernels::invdigamma(x),
            Erf => libm::erf(x),
            Erfc => libm::erfc(x),
            Erfcx => kernels::erfcx(x),
            LogErfc => kernels::logerfc(x),
            ErfInv => kernels::erfinv(x),
            ErfcInv => kernels::erfcinv(x),
            Bessel(kind, nu) => kernels::bessel(kind, nu.value(), x),
            UpperGamma(a) => kernels::upper_gamma(a.value(), x),
            UnknownSlope => 0.0,
            AiryAi => kernels::airy(x).0,
            AiryAiPrime => kernels::airy(x).1,
            AiryBi => kernels::airy(x).2,
            AiryBiPrime => kernels::airy(x).3,
            AiryAix => kernels::airy_scaled(x).0,
            AiryAiPrimex => kernels::airy_scaled(x).1,
            AiryBix => kernels::airy_scaled(x).2,
            AiryBiPrimex => kernels::airy_scaled(x).3,
            EllipK => kernels::ellip(x).0,
            EllipE => kernels::ellip(x).1,
            ExpInt => kernels::expint(x, false),
            ExpIntx => kernels::expint(x, true),
            ExpIntI => kernels::expinti(x),
            SinInt => kernels::sinint_cosint(x).0,
            CosInt => kernels::sinint_cosint(x).1,
        }
    }

    /// Whether `x` is in the function's real domain (NaN always is).
    pub fn in_domain(self, x: f64) -> bool {
        use Special::*;
        x.is_nan()
            || match self {
                ErfInv => x.abs() <= 1.0,
                ErfcInv => (0.0..=2.0).contains(&x),
                Bessel(BesselKind::Y | BesselKind::K, _) | UpperGamma(_) => x >= 0.0,
                CosInt | ExpInt | ExpIntx => x >= 0.0,
                AiryAix | AiryAiPrimex => x >= 0.0,
                EllipK => x <= 1.0,
                EllipE => x <= 1.0,
                _ => true,
            }
    }

    /// The derivative `f'(v)`, written with primitives so that it can itself be differentiated.
    pub(crate) fn derivative(self, v: &Tensor) -> Result<Tensor> {
        use Special::*;
        let c = Tensor::scalar;
        let s = |f: Special, t: &Tensor| unary(UnaryFn::Special(f), t);
        let u = |f: UnaryFn, t: &Tensor| unary(f, t);
        let mul = |x: &Tensor, y: &Tensor| binary(BinaryFn::Mul, x, y);
        let add = |x: &Tensor, y: &Tensor| binary(BinaryFn::Add, x, y);
        let sub = |x: &Tensor, y: &Tensor| binary(BinaryFn::Sub, x, y);
        let div = |x: &Tensor, y: &Tensor| binary(BinaryFn::Div, x, y);
        // The slope of the error function, 2/√π·exp(−v²).
        let gaussian = || {
            mul(
                &c(FRAC_2_SQRT_PI),
                &u(UnaryFn::Exp, &u(UnaryFn::Neg, &u(UnaryFn::Abs2, v)?)?)?,
            )
        };
        let half_sqrt_pi = c(PI.sqrt() / 2.0);
        Ok(match self {
            Gamma => mul(&s(Gamma, v)?, &s(Polygamma(0), v)?)?,
            LogGamma | LogAbsGamma => s(Polygamma(0), v)?,
            Polygamma(m) => s(Polygamma(m.checked_add(1).ok_or_else(too_high)?), v)?,
            InvDigamma => u(UnaryFn::Inv, &s(Polygamma(1), &s(InvDigamma, v)?)?)?,
            Erf => gaussian()?,
            Erfc => u(UnaryFn::Neg, &gaussian()?)?,
            Erfcx => sub(&mul(&mul(&c(2.0), v)?, &s(Erfcx, v)?)?, &c(FRAC_2_SQRT_PI))?,
            LogErfc => div(&c(-FRAC_2_SQRT_PI), &s(Erfcx, v)?)?,
            ErfInv => mul(
                &half_sqrt_pi,
                &u(UnaryFn::Exp, &u(UnaryFn::Abs2, &s(ErfInv, v)?)?)?,
            )?,
            ErfcInv => u(
                UnaryFn::Neg,
                &mul(
                    &half_sqrt_pi,
                    &u(UnaryFn::Exp, &u(UnaryFn::Abs2, &s(ErfcInv, v)?)?)?,
                )?,
            )?,
            // J′ᵥ = (Jᵥ₋₁ − Jᵥ₊₁)/2 (and Y), I′ᵥ = (Iᵥ₋₁ + Iᵥ₊₁)/2, K′ᵥ = −(Kᵥ₋₁ + Kᵥ₊₁)/2.
            Bessel(kind, nu) => {
                let at = |shift: f64| s(Special::bessel(kind, nu.value() + shift), v);
                let (below, above) = (at(-1.0)?, at(1.0)?);
                match kind {
                    BesselKind::J | BesselKind::Y => mul(&c(0.5), &sub(&below, &above)?)?,
                    BesselKind::I => mul(&c(0.5), &add(&below, &above)?)?,
                    BesselKind::K => mul(&c(-0.5), &add(&below, &above)?)?,
                }
            }
            // ∂Γ(a, x)/∂x = −x^(a−1)·e^(−x).
            UpperGamma(a) => u(
                UnaryFn::Neg,
                &mul(
                    &binary(BinaryFn::Pow, v, &c(a.value() - 1.0))?,
                    &u(UnaryFn::Exp, &u(UnaryFn::Neg, v)?)?,
                )?,
            )?,
            // NaN, but varying with the argument, so that patterns keep its second derivative.
            UnknownSlope => mul(&c(f64::NAN), v)?,
            AiryAi => s(AiryAiPrime, v)?,
            AiryAiPrime => mul(v, &s(AiryAi, v)?)?,
            AiryBi => s(AiryBiPrime, v)?,
            AiryBiPrime => mul(v, &s(AiryBi, v)?)?,
            // ζ′ = √x right of zero; the scale of Bi is 1 left of it.
            AiryAix => add(
                &s(AiryAiPrimex, v)?,
                &mul(&u(UnaryFn::Sqrt, v)?, &s(AiryAix, v)?)?,
            )?,
            AiryAiPrimex => add(
                &mul(v, &s(AiryAix, v)?)?,
                &mul(&u(UnaryFn::Sqrt, v)?, &s(AiryAiPrimex, v)?)?,
            )?,
            AiryBix => sub(
                &s(AiryBiPrimex, v)?,
                &mul(&u(UnaryFn::Sqrt, &u(UnaryFn::Relu, v)?)?, &s(AiryBix, v)?)?,
            )?,
            AiryBiPrimex => sub(
                &mul(v, &s(AiryBix, v)?)?,
                &mul(
                    &u(UnaryFn::Sqrt, &u(UnaryFn::Relu, v)?)?,
                    &s(AiryBiPrimex, v)?,
                )?,
            )?,
            // K'(m) = (E − (1 − m)K) / (2m(1 − m)), E'(m) = (E − K) / 2m.
            EllipK => {
                let one_minus = sub(&c(1.0), v)?;
                let numerator = sub(&s(EllipE, v)?, &mul(&one_minus, &s(EllipK, v)?)?)?;
                div(&numerator, &mul(&mul(&c(2.0), v)?, &one_minus)?)?
            }
            EllipE => div(&sub(&s(EllipE, v)?, &s(EllipK, v)?)?, &mul(&c(2.0), v)?)?,
            ExpInt => u(
                UnaryFn::Neg,
                &div(&u(UnaryFn::Exp, &u(UnaryFn::Neg, v)?)?, v)?,
            )?,
            ExpIntx => sub(&s(ExpIntx, v)?, &u(UnaryFn::Inv, v)?)?,
            ExpIntI => div(&u(UnaryFn::Exp, v)?, v)?,
            SinInt => div(&u(UnaryFn::Sin, v)?, v)?,
            CosInt => div(&u(UnaryFn::Cos, v)?, v)?,
        })
    }

    /// `f'(x)` on a plain number.
    pub(crate) fn slope_at(self, x: f64) -> f64 {
        derivative_at(self, x, 1)
    }

    /// `f''(x)` on a plain number.
    pub(crate) fn curvature_at(self, x: f64) -> f64 {
        derivative_at(self, x, 2)
    }
}

/// The derivative of order `order` (1 or 2) at a plain number, from the rules above: the
/// compiled programs' slopes and curvatures of these functions are rare enough to take them
/// through tensors.
fn derivative_at(f: Special, x: f64, order: u8) -> f64 {
    let first = |t: &Tensor| f.derivative(t);
    let value = if order == 1 {
        first(&Tensor::scalar(x))
    } else {
        let tag = crate::tensor::Tag::fresh();
        let dual = Tensor::dual(tag, Tensor::scalar(x), vec![Tensor::scalar(1.0)]);
        first(&dual).map(|d| match d.split(tag) {
            (_, Some(p)) => p[0].clone(),
            _ => Tensor::scalar(0.0),
        })
    };
    value.map_or(f64::NAN, |t| {
        t.primal().first().copied().unwrap_or(f64::NAN)
    })
}

fn too_high() -> crate::error::AdError {
    crate::error::AdError::Argument("the order of a special function is too large".into())
}
