//! Axes shared by every target: [`Scale`], the data-to-axis transform, ranges and tick labels.
//!
//! Renderers work in *axis space*: the value itself on a linear axis, its base-10 logarithm on a
//! log axis. Doing the transform here once (rather than through plotters' log coordinates) lets
//! the plotters and terminal renderers share ranges and ticks, and drop unplottable points
//! (NaN, ±∞, non-positive values on a log axis) in one place.

/// How values map to positions along an axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    /// Position proportional to the value.
    #[default]
    Linear,
    /// Position proportional to the base-10 logarithm; non-positive values are not drawn.
    Log,
}

impl Scale {
    /// The axis-space position of `value`, or `None` when it cannot be drawn on this scale
    /// (not finite, beyond ±1e300, or not positive on a log axis).
    pub(crate) fn forward(self, value: f64) -> Option<f64> {
        let position = match self {
            Scale::Linear => value,
            Scale::Log if value > 0.0 => value.log10(),
            Scale::Log => return None,
        };
        // Beyond ±1e300 the span of an axis would overflow to infinity.
        (position.abs() < 1e300).then_some(position)
    }
}

/// One labelled tick at an axis-space position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tick {
    pub position: f64,
    pub label: String,
}

/// A finished axis: its scale, its axis-space range and its ticks.
#[derive(Clone, Debug)]
pub(crate) struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<Tick>,
}

impl Axis {
    /// An axis covering every drawable value in `values`, padded by 4% on each side. With no
    /// drawable value it spans a default range, so an empty plot still has sensible axes.
    pub(crate) fn fit(scale: Scale, values: impl IntoIterator<Item = f64>) -> Axis {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for position in values.into_iter().filter_map(|v| scale.forward(v)) {
            lo = lo.min(position);
            hi = hi.max(position);
        }
        if lo > hi {
            (lo, hi) = (0.0, 1.0);
        } else if hi - lo < 1e-12 * lo.abs().max(1.0) {
            let half = match scale {
                Scale::Linear => (lo.abs() * 0.1).max(0.5),
                Scale::Log => 0.5,
            };
            (lo, hi) = (lo - half, hi + half);
        } else {
            let pad = 0.04 * (hi - lo);
            (lo, hi) = (lo - pad, hi + pad);
        }
        let ticks = match scale {
            Scale::Linear => linear_ticks(lo, hi),
            Scale::Log => log_ticks(lo, hi),
        };
        Axis { lo, hi, ticks }
    }
}

/// The step of 1, 2 or 5 times a power of ten giving closest to `target` intervals over `span`.
fn nice_step(span: f64, target: f64) -> f64 {
    let raw = span / target;
    let magnitude = 10f64.powf(raw.log10().floor());
    let intervals = |step: f64| span / step;
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .min_by(|&a, &b| {
            let (da, db) = ((intervals(a) - target).abs(), (intervals(b) - target).abs());
            da.total_cmp(&db)
        })
        .unwrap_or(magnitude);
    if step > 0.0 && step.is_finite() {
        step
    } else {
        1.0
    }
}

fn linear_ticks(lo: f64, hi: f64) -> Vec<Tick> {
    let step = nice_step(hi - lo, 5.0);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last)
        .take(50)
        .map(|k| {
            let value = k as f64 * step;
            Tick {
                position: value,
                label: format_value(value, step),
            }
        })
        .collect()
}

fn log_ticks(lo: f64, hi: f64) -> Vec<Tick> {
    let (first, last) = (lo.ceil() as i64, hi.floor() as i64);
    if last - first >= 1 {
        // Whole decades, thinned to at most about seven labels.
        let every = ((last - first) / 7 + 1).max(1);
        return (first..=last)
            .filter(|k| (k - first) % every == 0)
            .map(|k| Tick {
                position: k as f64,
                label: power_of_ten(k),
            })
            .collect();
    }
    // Less than two decades in view: label 1, 2 and 5 times powers of ten instead.
    let mut ticks = Vec::new();
    for k in (lo.floor() as i64)..=(hi.ceil() as i64) {
        for m in [1.0, 2.0, 5.0] {
            let value = m * 10f64.powi(k as i32);
            let position = value.log10();
            if (lo..=hi).contains(&position) {
                ticks.push(Tick {
                    position,
                    label: format_value(value, value),
                });
            }
        }
    }
    ticks
}

/// `10` with a superscript exponent, e.g. `10⁻³`.
fn power_of_ten(exponent: i64) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut label = String::from("10");
    if exponent < 0 {
        label.push('⁻');
    }
    for digit in exponent.unsigned_abs().to_string().bytes() {
        label.push(DIGITS[usize::from(digit - b'0')]);
    }
    label
}

/// `value` printed with as many decimals as a tick spacing of `step` needs.
fn format_value(value: f64, step: f64) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    if value.abs() >= 1e5 || value.abs() < 1e-3 {
        // Only the mantissa digits the step resolves, so `k * step` rounding error never shows.
        let digits = (value.abs().log10().floor() - step.abs().log10().floor()).clamp(0.0, 6.0);
        let digits = digits as usize;
        return format!("{value:.digits$e}");
    }
    let decimals = (-step.log10().floor()).clamp(0.0, 6.0) as usize;
    format!("{value:.decimals$}")
}

/// Ticks along a matrix dimension of size `n`, 1-based: always 1 and `n`, with round numbers
/// between, as in Julia's `spy`.
pub(crate) fn index_ticks(n: usize) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let step = (nice_step(n as f64, 5.0).round() as usize).max(1);
    let mut ticks = vec![1];
    let mut value = step;
    // A round tick closer to `n` than half a step would collide with the label of `n`.
    while value + step / 2 < n {
        if value > 1 {
            ticks.push(value);
        }
        value += step;
    }
    if n > 1 {
        ticks.push(n);
    }
    ticks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(axis: &Axis) -> Vec<&str> {
        axis.ticks.iter().map(|t| t.label.as_str()).collect()
    }

    #[test]
    fn log_axis_labels_whole_decades_and_skips_bad_values() {
        let axis = Axis::fit(Scale::Log, [1e-6, 1e-2, 0.0, -1.0, f64::NAN]);
        assert_eq!(labels(&axis), ["10⁻⁶", "10⁻⁵", "10⁻⁴", "10⁻³", "10⁻²"]);
        let narrow = Axis::fit(Scale::Log, [2.0, 30.0]);
        assert_eq!(labels(&narrow), ["2", "5", "10", "20"]);
    }

    #[test]
    fn linear_axis_has_round_ticks_and_survives_degenerate_data() {
        let axis = Axis::fit(Scale::Linear, [0.0, 10.0]);
        assert_eq!(labels(&axis), ["0", "2", "4", "6", "8", "10"]);
        let empty = Axis::fit(Scale::Linear, [f64::NAN, f64::INFINITY]);
        assert_eq!((empty.lo, empty.hi), (0.0, 1.0));
        let constant = Axis::fit(Scale::Linear, [3.0, 3.0]);
        assert!(constant.lo < 3.0 && constant.hi > 3.0);
        let tiny = Axis::fit(Scale::Linear, [1e-9, 2e-9]);
        assert!(tiny.ticks.len() >= 2 && tiny.ticks.len() <= 50);
    }

    #[test]
    fn index_ticks_start_at_one_and_end_at_n() {
        assert_eq!(index_ticks(0), Vec::<usize>::new());
        assert_eq!(index_ticks(1), [1]);
        assert_eq!(index_ticks(4), [1, 2, 3, 4]);
        assert_eq!(index_ticks(100), [1, 20, 40, 60, 80, 100]);
        assert_eq!(index_ticks(8192), [1, 2000, 4000, 6000, 8192]);
    }
}
