//! Curves that would hide each other: a series drawn over an earlier one with the same points
//! (within a fraction of the axis span, below what a pixel shows) gets its own stroke (dashed,
//! then dotted) and markers, so both stay visible and the legend tells them apart.

use crate::model::{Dash, Line};
use crate::scale::Scale;

/// Two ordinates closer than this fraction of the y span look the same.
const SAME: f64 = 2e-3;

/// Restrokes every line that coincides with an earlier one on these axes (compared where
/// they are drawn, in axis space); returns how many were changed.
pub(crate) fn distinguish(lines: &mut [Line], x_scale: Scale, y_scale: Scale) -> usize {
    let axis = |values: &[f64], scale: Scale| -> Vec<f64> {
        values
            .iter()
            .map(|&v| scale.forward(v).unwrap_or(f64::NAN))
            .collect()
    };
    let drawn: Vec<(Vec<f64>, Vec<f64>)> = lines
        .iter()
        .map(|l| (axis(&l.xs, x_scale), axis(&l.ys, y_scale)))
        .collect();
    let span = (
        span(drawn.iter().flat_map(|d| d.0.iter())),
        span(drawn.iter().flat_map(|d| d.1.iter())),
    );
    let strokes = [Dash::Dashed, Dash::Dotted];
    let mut changed = 0;
    for i in 1..lines.len() {
        let hidden = (0..i).any(|j| coincide(&drawn[i], &drawn[j], span));
        if hidden {
            lines[i].dash = strokes[changed % strokes.len()];
            lines[i].markers = true;
            changed += 1;
        }
    }
    changed
}

/// Whether `a` and `b` (xs and ys in axis space) have the same points, up to [`SAME`] of each
/// span; undrawable points must be in the same places.
fn coincide(
    a: &(Vec<f64>, Vec<f64>),
    b: &(Vec<f64>, Vec<f64>),
    (x_span, y_span): (f64, f64),
) -> bool {
    let close = |u: f64, v: f64, span: f64| {
        if u.is_finite() && v.is_finite() {
            (u - v).abs() <= SAME * span.max(f64::MIN_POSITIVE)
        } else {
            u.is_finite() == v.is_finite()
        }
    };
    // Ordinates first: the columns of one matrix share their abscissas, so comparing those
    // first made `plot(A)` of 2000 columns 4·10⁹ comparisons.
    !a.0.is_empty()
        && a.0.len() == b.0.len()
        && a.1.iter().zip(&b.1).all(|(&u, &v)| close(u, v, y_span))
        && a.0.iter().zip(&b.0).all(|(&u, &v)| close(u, v, x_span))
}

/// The span of the finite values of `values` (0 when there are none).
fn span<'a>(values: impl Iterator<Item = &'a f64>) -> f64 {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    if hi >= lo {
        hi - lo
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette::series_color;

    fn line(i: usize, ys: &[f64]) -> Line {
        Line {
            xs: (0..ys.len()).map(|k| k as f64).collect(),
            ys: ys.to_vec(),
            color: series_color(i),
            dash: Dash::Solid,
            markers: false,
        }
    }

    #[test]
    fn a_curve_on_top_of_another_gets_its_own_stroke_and_markers() {
        let mut lines = vec![
            line(0, &[0.0, 1.0, 2.0]),
            line(1, &[0.0, 1.0 + 1e-9, 2.0]),
            line(2, &[2.0, 1.0, 0.0]),
            line(3, &[0.0, 1.0, 2.0]),
        ];
        assert_eq!(distinguish(&mut lines, Scale::Linear, Scale::Linear), 2);
        let strokes: Vec<(Dash, bool)> = lines.iter().map(|l| (l.dash, l.markers)).collect();
        assert_eq!(
            strokes,
            [
                (Dash::Solid, false),
                (Dash::Dashed, true),
                (Dash::Solid, false),
                (Dash::Dotted, true)
            ]
        );
    }

    #[test]
    fn curves_that_differ_visibly_keep_their_strokes() {
        let mut lines = vec![line(0, &[0.0, 1.0, 2.0]), line(1, &[0.0, 1.1, 2.0])];
        assert_eq!(distinguish(&mut lines, Scale::Linear, Scale::Linear), 0);
        assert_eq!(span([1.0, f64::NAN, -2.0].iter()), 3.0);
    }
}
