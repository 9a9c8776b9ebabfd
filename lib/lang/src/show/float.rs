//! How a single `Float64` prints: [`float`] is Julia's `show`/`repr`/`string`, and
//! [`float_compact`] is the `:compact => true` form used for the entries of a matrix.
//!
//! Both take their digits from [`super::digits::reduce_shortest`]; this file only lays them
//! out. Julia's rule (`Base.Ryu.writeshortest`): with `pt` the position of the decimal point
//! relative to the first digit, print plainly when `-4 < pt <= 6`, else as `d.ddde±x`, and
//! always keep a `.0` on integral values. Compact output additionally switches to exponent
//! form when six digits could not show an integral part exactly (`123456.7` → `1.23457e5`).

use super::digits::reduce_shortest;

/// Julia's `show(::Float64)`: the shortest digits that read back as `x`.
///
/// `1.0`, `0.1`, `-2.5`, `100000.0`, `1.0e6`, `0.0001`, `1.0e-5`, `Inf`, `NaN`, `-0.0`.
pub fn float(x: f64) -> String {
    write_float(x, false)
}

/// Julia's `show(IOContext(io, :compact => true), ::Float64)`: at most six significant digits.
///
/// `0.548814`, `1.0`, `1.0e-10`, `3.14159`, `1.23457e6`, `100000.0`.
pub fn float_compact(x: f64) -> String {
    write_float(x, true)
}

fn write_float(x: f64, compact: bool) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let (output, nexp) = reduce_shortest(x.abs(), compact.then_some(999_999));
    let digits = output.to_string();
    let olength = digits.len() as i32;
    let pt = nexp + olength;

    let mut s = String::with_capacity(24);
    if x < 0.0 {
        s.push('-');
    }
    let plain = -4 < pt && pt <= 6 && !(pt >= olength && inexact_integer(x, pt - olength));
    if !plain {
        s.push_str(&digits[..1]);
        s.push('.');
        s.push_str(if olength > 1 { &digits[1..] } else { "0" });
        s.push('e');
        s.push_str(&(pt - 1).to_string());
    } else if pt <= 0 {
        s.push_str("0.");
        s.extend(std::iter::repeat_n('0', (-pt) as usize));
        s.push_str(&digits);
    } else if pt >= olength {
        s.push_str(&digits);
        s.extend(std::iter::repeat_n('0', nexp as usize));
        s.push_str(".0");
    } else {
        s.push_str(&digits[..pt as usize]);
        s.push('.');
        s.push_str(&digits[pt as usize..]);
    }
    s
}

/// Julia's test `abs(mod(x + 0.05, 10^k) - 0.05) > 0.05` for digits that end `k` places
/// before the decimal point: true when `x` is not (close to) the integer those digits spell,
/// which only happens once compact output has dropped digits.
fn inexact_integer(x: f64, k: i32) -> bool {
    let p = 10f64.powi(k);
    // Julia's floating-point `mod` takes the sign of the divisor.
    let mut r = (x + 0.05) % p;
    if r < 0.0 {
        r += p;
    }
    (r - 0.05).abs() > 0.05
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn table(f: fn(f64) -> String, values: &[f64]) -> String {
        values
            .iter()
            .map(|&x| format!("{x:e} => {}\n", f(x)))
            .collect()
    }

    #[test]
    fn powers_of_ten() {
        let values: Vec<f64> = (-6..=17)
            .map(|k| format!("1e{k}").parse().unwrap())
            .collect();
        expect![[r#"
            1e-6 => 1.0e-6
            1e-5 => 1.0e-5
            1e-4 => 0.0001
            1e-3 => 0.001
            1e-2 => 0.01
            1e-1 => 0.1
            1e0 => 1.0
            1e1 => 10.0
            1e2 => 100.0
            1e3 => 1000.0
            1e4 => 10000.0
            1e5 => 100000.0
            1e6 => 1.0e6
            1e7 => 1.0e7
            1e8 => 1.0e8
            1e9 => 1.0e9
            1e10 => 1.0e10
            1e11 => 1.0e11
            1e12 => 1.0e12
            1e13 => 1.0e13
            1e14 => 1.0e14
            1e15 => 1.0e15
            1e16 => 1.0e16
            1e17 => 1.0e17
        "#]]
        .assert_eq(&table(float, &values));
    }

    #[test]
    fn julia_ryu_test_values() {
        // Expected strings from Julia's test/ryu.jl.
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-1.0, "-1.0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (f64::MAX, "1.7976931348623157e308"),
            (5e-324, "5.0e-324"),
            (-2.109808898695963e16, "-2.109808898695963e16"),
            (4.940656e-318, "4.940656e-318"),
            (1.18575755e-316, "1.18575755e-316"),
            (2.989102097996e-312, "2.989102097996e-312"),
            (9.0608011534336e15, "9.0608011534336e15"),
            (4.708356024711512e18, "4.708356024711512e18"),
            (9.409340012568248e18, "9.409340012568248e18"),
            (1.2345678, "1.2345678"),
            (1.234567890123456, "1.234567890123456"),
            (1.2345678901234567, "1.2345678901234567"),
            (4.294967294, "4.294967294"),
            (9007199254740991.0, "9.007199254740991e15"),
            (9007199254740992.0, "9.007199254740992e15"),
            (12.0, "12.0"),
            (123456.0, "123456.0"),
            (1234567.0, "1.234567e6"),
            (1.2345678e7, "1.2345678e7"),
            (1.0e15 + 1.0, "1.000000000000001e15"),
            (1.0e15 + 1.0e14, "1.1e15"),
            (524288.0, "524288.0"),
            (8388608.0, "8.388608e6"),
            (512000.0, "512000.0"),
            (8192000.0, "8.192e6"),
            (8.796093022208e15, "8.796093022208e15"),
        ];
        assert_eq!(float(2f64.powi(-25)), "2.9802322387695312e-8");
        for &(x, want) in cases {
            assert_eq!(float(x), want, "{x:e}");
        }
    }

    #[test]
    fn everyday_values() {
        let values = [
            0.1 + 0.2,
            1.0 / 3.0,
            2.0 / 3.0,
            std::f64::consts::PI,
            -2.5,
            2.5e-4,
            0.5,
            1e-10,
            1e23,
            123456789.0,
            1.5e300,
            -1.5e-300,
            0.1e-3,
            99999.99,
            999999.0,
            1e-5 * 3.0,
        ];
        expect![[r#"
            3.0000000000000004e-1 => 0.30000000000000004
            3.333333333333333e-1 => 0.3333333333333333
            6.666666666666666e-1 => 0.6666666666666666
            3.141592653589793e0 => 3.141592653589793
            -2.5e0 => -2.5
            2.5e-4 => 0.00025
            5e-1 => 0.5
            1e-10 => 1.0e-10
            1e23 => 1.0e23
            1.23456789e8 => 1.23456789e8
            1.5e300 => 1.5e300
            -1.5e-300 => -1.5e-300
            1e-4 => 0.0001
            9.999999e4 => 99999.99
            9.99999e5 => 999999.0
            3.0000000000000004e-5 => 3.0000000000000004e-5
        "#]]
        .assert_eq(&table(float, &values));
    }

    #[test]
    fn compact() {
        let values = [
            std::f64::consts::PI,
            0.548814,
            0.5488135039273248,
            1.0,
            -2.5,
            1e-10,
            0.1 + 0.2,
            2.0 / 3.0,
            1e-5,
            1e-4,
            100000.0,
            123456.0,
            123456.7,
            -123456.7,
            1234567.0,
            1234565.0,
            1e6,
            999999.5,
            0.00012345678,
            12345.678,
            f64::NAN,
            f64::NEG_INFINITY,
            -0.0,
            1.7976931348623157e308,
        ];
        expect![[r#"
            3.141592653589793e0 => 3.14159
            5.48814e-1 => 0.548814
            5.488135039273248e-1 => 0.548814
            1e0 => 1.0
            -2.5e0 => -2.5
            1e-10 => 1.0e-10
            3.0000000000000004e-1 => 0.3
            6.666666666666666e-1 => 0.666667
            1e-5 => 1.0e-5
            1e-4 => 0.0001
            1e5 => 100000.0
            1.23456e5 => 123456.0
            1.234567e5 => 1.23457e5
            -1.234567e5 => -1.23457e5
            1.234567e6 => 1.23457e6
            1.234565e6 => 1.23456e6
            1e6 => 1.0e6
            9.999995e5 => 1.0e6
            1.2345678e-4 => 0.000123457
            1.2345678e4 => 12345.7
            NaN => NaN
            -inf => -Inf
            -0e0 => -0.0
            1.7976931348623157e308 => 1.79769e308
        "#]]
        .assert_eq(&table(float_compact, &values));
    }
}
