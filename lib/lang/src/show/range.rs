//! Ranges as Julia prints them: `1:5`, `1:2:9`, `0.0:0.5:2.0`.
//!
//! Julia stores the range's actual last element, not the requested stop, and prints that:
//! `1:2:10` prints `1:2:9` and `0.0:0.3:1.0` prints `0.0:0.3:0.9`. [`range_plain`] computes
//! it the way `Base` does: `steprange_last` for integers and, for floats, the exact
//! rational arithmetic of `(:)(start, step, stop)` with its literal fallback.

use super::{float, int};

/// Julia's `show` of the range `start:step:stop` (also its REPL display).
///
/// With `is_int` the bounds are integers: a unit step prints `a:b` (`1:0` when empty),
/// another step `a:s:b`. Otherwise it is a `Float64` range, printed `a:s:b` in full digits.
pub fn range_plain(start: f64, step: f64, stop: f64, is_int: bool) -> String {
    if is_int {
        let (start, step, stop) = (start as i64, step as i64, stop as i64);
        if step == 1 {
            let last = if stop >= start { stop } else { start - 1 };
            format!("{}:{}", int(start), int(last))
        } else {
            format!(
                "{}:{}:{}",
                int(start),
                int(step),
                int(int_last(start, step, stop))
            )
        }
    } else {
        let last = float_last(start, step, stop);
        format!("{}:{}:{}", float(start), float(step), float(last))
    }
}

/// Julia's `steprange_last`: the last element reached, or `start ∓ 1` for an empty range.
fn int_last(start: i64, step: i64, stop: i64) -> i64 {
    if step == 0 || stop == start {
        return stop;
    }
    if (step > 0) != (stop > start) {
        return if step > 0 { start - 1 } else { start + 1 };
    }
    let remain = (i128::from(stop) - i128::from(start)).abs() % i128::from(step).abs();
    let remain = remain as i64;
    if stop > start {
        stop - remain
    } else {
        stop + remain
    }
}

/// Julia's `rat`: a small fraction `n/d` by continued fractions, stopping once `n/d == x`.
fn rat(x: f64) -> (i64, i64) {
    const LIMIT: f64 = 16_777_216.0; // maxintfloat(Float32)
    let (mut a, mut b, mut c, mut d) = (1i64, 0i64, 0i64, 1i64);
    let mut y = x;
    while y.abs() <= LIMIT {
        let f = y.trunc() as i64;
        y -= f as f64;
        (a, c) = (f * a + c, a);
        (b, d) = (f * b + d, b);
        if a.abs().max(b.abs()) > LIMIT as i64 {
            return (c, d);
        }
        if a as f64 / b as f64 == x {
            break;
        }
        y = 1.0 / y;
    }
    (a, b)
}

fn is_between(a: f64, b: f64, c: f64) -> bool {
    (a <= b && b <= c) || (a >= b && b >= c)
}

/// The last element of the `Float64` range `start:step:stop` (`start - step` when empty).
fn float_last(start: f64, step: f64, stop: f64) -> f64 {
    if step == 0.0 || !(start.is_finite() && step.is_finite() && stop.is_finite()) {
        return stop;
    }
    // When all three are exact small fractions, count steps exactly.
    let (step_n, step_d) = rat(step);
    let (start_n, start_d) = rat(start);
    let (stop_n, stop_d) = rat(stop);
    let exact = |n: i64, d: i64, x: f64| d != 0 && n as f64 / d as f64 == x;
    if exact(step_n, step_d, step) && exact(start_n, start_d, start) && exact(stop_n, stop_d, stop)
    {
        let den = lcm(start_d, step_d);
        let max = 9_007_199_254_740_992.0; // maxintfloat(Float64)
        if den != 0
            && (start * den as f64).abs() <= max
            && (step * den as f64).abs() <= max
            && den % start_d == 0
            && den % step_d == 0
        {
            let start_n = (start * den as f64).round_ties_even() as i128;
            let step_n = (step * den as f64).round_ties_even() as i128;
            let (den, stop_n, stop_d) = (i128::from(den), i128::from(stop_n), i128::from(stop_d));
            let len =
                ((den * stop_n - stop_d * start_n + step_n * stop_d) / (step_n * stop_d)).max(0);
            let lenf = len as f64;
            if is_between(start, start + (lenf - 1.0) * step, stop + step / 2.0)
                && !is_between(start, start + lenf * step, stop)
            {
                return (start_n + (len - 1) * step_n) as f64 / den as f64;
            }
        }
    }
    // Otherwise take start and step literally.
    let lf = (stop - start) / step;
    let len = if lf < 0.0 {
        0.0
    } else if lf == 0.0 {
        1.0
    } else {
        let len = lf.round_ties_even() + 1.0;
        let overshoot = start + (len - 1.0) * step;
        len - f64::from(
            u8::from(start < stop && stop < overshoot) + u8::from(start > stop && stop > overshoot),
        )
    };
    start + (len - 1.0) * step
}

fn lcm(a: i64, b: i64) -> i64 {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 {
            a.abs()
        } else {
            gcd(b, a % b)
        }
    }
    match gcd(a, b) {
        0 => 0,
        g => (a / g * b).abs(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    #[test]
    fn ranges() {
        let cases = [
            (1.0, 1.0, 5.0, true),
            (1.0, 2.0, 9.0, true),
            (1.0, 2.0, 10.0, true),
            (1.0, 1.0, 0.0, true),
            (5.0, 1.0, 2.0, true),
            (10.0, -3.0, 1.0, true),
            (1.0, 2.0, 0.0, true),
            (0.0, 0.5, 2.0, false),
            (0.0, 0.1, 1.0, false),
            (0.0, 0.3, 1.0, false),
            (1.0, 0.5, 0.0, false),
            (-1.0, 0.25, 1.0, false),
            (0.0, 0.1, 0.3, false),
            (1.0, 1.0, 5.0, false),
        ];
        let out: String = cases
            .iter()
            .map(|&(a, s, b, i)| format!("{a}:{s}:{b} {i} => {}\n", range_plain(a, s, b, i)))
            .collect();
        expect![[r#"
            1:1:5 true => 1:5
            1:2:9 true => 1:2:9
            1:2:10 true => 1:2:9
            1:1:0 true => 1:0
            5:1:2 true => 5:4
            10:-3:1 true => 10:-3:1
            1:2:0 true => 1:2:0
            0:0.5:2 false => 0.0:0.5:2.0
            0:0.1:1 false => 0.0:0.1:1.0
            0:0.3:1 false => 0.0:0.3:0.9
            1:0.5:0 false => 1.0:0.5:0.5
            -1:0.25:1 false => -1.0:0.25:1.0
            0:0.1:0.3 false => 0.0:0.1:0.3
            1:1:5 false => 1.0:1.0:5.0
        "#]]
        .assert_eq(&out);
    }
}
