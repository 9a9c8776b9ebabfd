//! The formats of `@printf` and `@sprintf` (Julia's Printf, C's conversions): `%d %i %u %o %x
//! %X %e %E %f %F %g %G %a %c %s %%` with the flags `-+ 0#`, a width and a precision (either
//! may be `*`, taken from the arguments).

use crate::error::ErrorKind;
use crate::error::{fail, Flow};
use crate::value::Value;

/// One `%…` directive.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alternate: bool,
    width: Option<usize>,
    precision: Option<usize>,
    conversion: char,
}

/// `format` with `args` substituted, as `@sprintf(format, args...)` makes it.
pub fn sprintf(format: &str, args: &[Value]) -> Result<String, Flow> {
    let mut out = String::new();
    let mut args = args.iter();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut spec = Spec::default();
        while let Some(&flag) = chars.peek() {
            match flag {
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '0' => spec.zero = true,
                '#' => spec.alternate = true,
                _ => break,
            }
            chars.next();
        }
        spec.width = count(&mut chars, &mut args)?;
        if chars.peek() == Some(&'.') {
            chars.next();
            spec.precision = Some(count(&mut chars, &mut args)?.unwrap_or(0));
        }
        // Length modifiers (`%ld`, `%lf`) mean nothing for Julia's numbers.
        while chars
            .peek()
            .is_some_and(|c| matches!(c, 'h' | 'l' | 'L' | 'q' | 'j' | 'z' | 't'))
        {
            chars.next();
        }
        spec.conversion = chars.next().ok_or_else(|| invalid("a % at its end"))?;
        let arg = args
            .next()
            .ok_or_else(|| fail(ErrorKind::ArgumentError, "too few arguments for the format"))?;
        out.push_str(&directive(&spec, arg)?);
    }
    if args.next().is_some() {
        return Err(fail(
            ErrorKind::ArgumentError,
            "too many arguments for the format",
        ));
    }
    Ok(out)
}

fn invalid(what: &str) -> Flow {
    fail(ErrorKind::ArgumentError, format!("invalid format: {what}"))
}

/// A width or precision: digits, `*` (the next argument), or nothing.
fn count<'a>(
    chars: &mut std::iter::Peekable<std::str::Chars>,
    args: &mut impl Iterator<Item = &'a Value>,
) -> Result<Option<usize>, Flow> {
    if chars.peek() == Some(&'*') {
        chars.next();
        let n = args
            .next()
            .ok_or_else(|| invalid("a * without its argument"))?;
        return super::to_size(n, "@printf").map(Some);
    }
    let mut n: Option<usize> = None;
    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
        chars.next();
        n = Some(
            n.unwrap_or(0)
                .checked_mul(10)
                .and_then(|n| n.checked_add(d as usize))
                .filter(|&n| n <= 1 << 16)
                .ok_or_else(|| invalid("a width or precision above 65536"))?,
        );
    }
    Ok(n)
}

fn directive(spec: &Spec, arg: &Value) -> Result<String, Flow> {
    let (sign, body) = match spec.conversion {
        'd' | 'i' | 'u' => signed(spec, integer(arg, spec)?.to_string()),
        'o' | 'x' | 'X' => {
            let n = integer(arg, spec)?;
            let digits = match spec.conversion {
                'o' => format!("{:o}", n.unsigned_abs()),
                'x' => format!("{:x}", n.unsigned_abs()),
                _ => format!("{:X}", n.unsigned_abs()),
            };
            let prefix = match (spec.alternate, spec.conversion) {
                (false, _) => "",
                (true, 'o') => "0",
                (true, 'x') => "0x",
                (true, _) => "0X",
            };
            let sign = if n < 0 { "-" } else { "" };
            (sign.to_string(), format!("{prefix}{digits}"))
        }
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'a' | 'A' => {
            let x = super::to_float(arg, "@printf")?;
            let sign = if x.is_sign_negative() && !x.is_nan() {
                "-"
            } else if spec.plus {
                "+"
            } else if spec.space {
                " "
            } else {
                ""
            };
            (sign.to_string(), float(spec, x.abs()))
        }
        's' => {
            let text = crate::display::print_string(arg);
            let text = match spec.precision {
                Some(p) => text.chars().take(p).collect(),
                None => text,
            };
            (String::new(), text)
        }
        'c' => (String::new(), crate::display::print_string(arg)),
        other => return Err(invalid(&format!("the conversion %{other}"))),
    };
    Ok(pad(spec, &sign, &body))
}

fn integer(arg: &Value, spec: &Spec) -> Result<i64, Flow> {
    super::to_int(arg, &format!("@printf(\"%{}\")", spec.conversion))
}

/// The sign and digits of a decimal integer.
fn signed(spec: &Spec, digits: String) -> (String, String) {
    match digits.strip_prefix('-') {
        Some(magnitude) => ("-".into(), magnitude.into()),
        None if spec.plus => ("+".into(), digits),
        None if spec.space => (" ".into(), digits),
        None => (String::new(), digits),
    }
}

/// A non-negative float in the conversion's notation.
fn float(spec: &Spec, x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return "Inf".into();
    }
    let upper = spec.conversion.is_ascii_uppercase();
    let text = match spec.conversion.to_ascii_lowercase() {
        'f' => format!("{x:.*}", spec.precision.unwrap_or(6)),
        'e' => scientific(x, spec.precision.unwrap_or(6)),
        'a' => format!("{x:e}"),
        _ => general(spec, x),
    };
    let text = if spec.alternate && !text.contains('.') && spec.conversion != 'g' {
        match text.find('e') {
            Some(e) => format!("{}.{}", &text[..e], &text[e..]),
            None => format!("{text}."),
        }
    } else {
        text
    };
    if upper {
        text.to_uppercase()
    } else {
        text
    }
}

/// C's `%e`: one digit before the point and an exponent of at least two digits.
fn scientific(x: f64, precision: usize) -> String {
    let rust = format!("{x:.precision$e}");
    let (mantissa, exponent) = rust.split_once('e').expect("Rust's {:e} has an exponent");
    let exponent: i32 = exponent.parse().expect("an integer exponent");
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

/// C's `%g`: `%e` or `%f`, whichever suits the exponent, without trailing zeros (kept with
/// `#`).
fn general(spec: &Spec, x: f64) -> String {
    let precision = spec.precision.unwrap_or(6).max(1);
    let exponent = if x == 0.0 {
        0
    } else {
        let rounded = scientific(x, precision - 1);
        rounded
            .split_once('e')
            .and_then(|(_, e)| e.parse::<i32>().ok())
            .unwrap_or(0)
    };
    let text = if exponent < -4 || exponent >= precision as i32 {
        scientific(x, precision - 1)
    } else {
        format!("{x:.*}", (precision as i32 - 1 - exponent) as usize)
    };
    if spec.alternate {
        return text;
    }
    let (mantissa, exponent) = match text.split_once('e') {
        Some((m, e)) => (m.to_string(), format!("e{e}")),
        None => (text, String::new()),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        mantissa
    };
    format!("{mantissa}{exponent}")
}

/// `sign` and `body` padded to the width: spaces on the left (or right with `-`), or zeros
/// after the sign with `0` for numbers.
fn pad(spec: &Spec, sign: &str, body: &str) -> String {
    let len = sign.chars().count() + body.chars().count();
    let fill = spec.width.unwrap_or(0).saturating_sub(len);
    let numeric = !matches!(spec.conversion, 's' | 'c');
    if spec.left {
        format!("{sign}{body}{}", " ".repeat(fill))
    } else if spec.zero && numeric && body.chars().all(|c| c != 'N' && c != 'I') {
        format!("{sign}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{sign}{body}", " ".repeat(fill))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(format: &str, args: Vec<Value>, expected: &str) {
        match sprintf(format, &args) {
            Ok(text) => assert_eq!(text, expected, "{format}"),
            Err(_) => panic!("{format} failed"),
        }
    }

    fn floats(xs: &[f64]) -> Vec<Value> {
        xs.iter().map(|&x| Value::Float(x)).collect()
    }

    #[test]
    fn conversions_match_c() {
        let ints = |xs: &[i64]| xs.iter().map(|&x| Value::Int(x)).collect::<Vec<_>>();
        let text = |x: &str| Value::str(x.to_string());
        let cases = [
            (
                "%d|%5d|%-5d|%05d|%+d",
                ints(&[42; 5]),
                "42|   42|42   |00042|+42",
            ),
            ("%x %X %#x %o", ints(&[255; 4]), "ff FF 0xff 377"),
            (
                "%.2f|%8.3f|%-8.1f|",
                floats(&[1.23456; 3]),
                "1.23|   1.235|1.2     |",
            ),
            ("%e %.2E", floats(&[12345.678; 2]), "1.234568e+04 1.23E+04"),
            (
                "%g %g %g",
                floats(&[0.0001, 123456.0, 1234567.0]),
                "0.0001 123456 1.23457e+06",
            ),
            ("%g %.3g", floats(&[100.0, 2.0 / 3.0]), "100 0.667"),
            (
                "%s and %5s|%-4s|",
                vec![text("a"), text("b"), Value::Int(1)],
                "a and     b|1   |",
            ),
            (
                "%f %f %5.1f",
                floats(&[f64::INFINITY, -f64::INFINITY, f64::NAN]),
                "Inf -Inf   NaN",
            ),
            (
                "%*d|%.*f",
                vec![
                    Value::Int(4),
                    Value::Int(7),
                    Value::Int(1),
                    Value::Float(2.25),
                ],
                "   7|2.2",
            ),
            ("100%%", vec![], "100%"),
            ("%e", floats(&[0.0]), "0.000000e+00"),
        ];
        for (format, args, expected) in cases {
            check(format, args, expected);
        }
    }

    #[test]
    fn mismatches_are_errors() {
        assert!(sprintf("%d", &[]).is_err());
        assert!(sprintf("%d", &[Value::Int(1), Value::Int(2)]).is_err());
        assert!(sprintf("%d", &[Value::Float(1.5)]).is_err());
        assert!(sprintf("%k", &[Value::Int(1)]).is_err());
        assert!(sprintf("%", &[]).is_err());
        assert!(sprintf("%999999999d", &[Value::Int(1)]).is_err());
    }
}
