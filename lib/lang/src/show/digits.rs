//! Decimal digits of an `f64`: the engine behind [`super::float()`] and [`super::float_compact`].
//!
//! [`reduce_shortest`] returns `(digits, exponent)` with `x ≈ digits × 10^exponent`. It makes
//! the same decisions as the Ryu algorithm in the form Julia's `Base.Ryu.reduce_shortest`
//! uses it, including the optional cap on significant digits behind `:compact => true`, so
//! rounding quirks match Julia too. The interval bounds Ryu computes from multiplier tables
//! are computed here exactly with the small big integer [`Big`].

use std::cmp::Ordering;

/// A little-endian unsigned big integer, just big enough to scale an `f64` exactly.
#[derive(Clone, Debug)]
struct Big(Vec<u64>);

impl Big {
    fn new(x: u64) -> Self {
        Big(vec![x])
    }

    /// `5^n`.
    fn pow5(n: u32) -> Self {
        // 5^27 is the largest power of five that fits in 64 bits.
        const FIVE_27: u64 = 7_450_580_596_923_828_125;
        let mut big = Big::new(1);
        let mut left = n;
        while left >= 27 {
            big.mul_small(FIVE_27);
            left -= 27;
        }
        big.mul_small(5u64.pow(left));
        big
    }

    fn mul_small(&mut self, factor: u64) {
        let mut carry = 0u128;
        for limb in &mut self.0 {
            let product = u128::from(*limb) * u128::from(factor) + carry;
            *limb = product as u64;
            carry = product >> 64;
        }
        if carry != 0 {
            self.0.push(carry as u64);
        }
    }

    fn shl(&mut self, bits: u32) {
        let (words, bits) = ((bits / 64) as usize, bits % 64);
        if bits != 0 {
            let mut carry = 0u64;
            for limb in &mut self.0 {
                let next = *limb >> (64 - bits);
                *limb = (*limb << bits) | carry;
                carry = next;
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, words));
    }

    fn shr1(&mut self) {
        let mut carry = 0u64;
        for limb in self.0.iter_mut().rev() {
            let next = *limb << 63;
            *limb = (*limb >> 1) | carry;
            carry = next;
        }
        self.trim();
    }

    /// `self >> bits`, which the caller knows fits in 64 bits.
    fn shr_to_u64(&self, bits: u32) -> u64 {
        let (word, bit) = ((bits / 64) as usize, bits % 64);
        let low = self.0.get(word).copied().unwrap_or(0) >> bit;
        let high = match (bit, self.0.get(word + 1)) {
            (0, _) | (_, None) => 0,
            (_, Some(&next)) => next << (64 - bit),
        };
        low | high
    }

    fn trim(&mut self) {
        while self.0.len() > 1 && self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn cmp(&self, other: &Big) -> Ordering {
        let (a, b) = (self.significant(), other.significant());
        a.len()
            .cmp(&b.len())
            .then_with(|| a.iter().rev().cmp(b.iter().rev()))
    }

    fn significant(&self) -> &[u64] {
        let len = self.0.iter().rposition(|&l| l != 0).map_or(0, |p| p + 1);
        &self.0[..len]
    }

    /// `self -= other`, for `other <= self`.
    fn sub_assign(&mut self, other: &Big) {
        let mut borrow = false;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let rhs = other.0.get(i).copied().unwrap_or(0);
            let (d1, b1) = limb.overflowing_sub(rhs);
            let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
            *limb = d2;
            borrow = b1 || b2;
        }
        self.trim();
    }

    /// `floor(self / den)`, for a quotient the caller knows fits in 64 bits.
    fn div_floor_u64(&self, den: &Big) -> u64 {
        let mut rem = self.clone();
        let mut shifted = den.clone();
        shifted.shl(63);
        let mut quotient = 0u64;
        for bit in (0..64).rev() {
            if rem.cmp(&shifted) != Ordering::Less {
                rem.sub_assign(&shifted);
                quotient |= 1 << bit;
            }
            shifted.shr1();
        }
        quotient
    }
}

/// `floor(e * log10(2))`, exact for the exponents of `f64`.
fn log10_pow2(e: i32) -> i32 {
    ((i64::from(e) * 78_913) >> 18) as i32
}

/// `floor(e * log10(5))`, exact for the exponents of `f64`.
fn log10_pow5(e: i32) -> i32 {
    ((i64::from(e) * 732_923) >> 20) as i32
}

fn divisible_by_pow5(x: u64, q: u32) -> bool {
    5u64.checked_pow(q).is_some_and(|p| x.is_multiple_of(p))
}

fn divisible_by_pow2(x: u64, q: u32) -> bool {
    q < 64 && x & ((1u64 << q) - 1) == 0
}

/// Drops the last decimal digit of each bound, returning the dropped digit of `b`.
fn drop_digit(a: &mut u64, b: &mut u64, c: &mut u64) -> u64 {
    let digit = *b % 10;
    *a /= 10;
    *b /= 10;
    *c /= 10;
    digit
}

/// The shortest decimal `(digits, exponent)` that reads back as `x`, for a finite `x > 0`.
///
/// With `max_signif = Some(999_999)` the digits are then cut to at most six significant ones
/// and trailing zeros are stripped, exactly as Julia does for `:compact => true`.
pub(crate) fn reduce_shortest(x: f64, max_signif: Option<u64>) -> (u64, i32) {
    debug_assert!(x.is_finite() && x > 0.0);
    let bits = x.to_bits();
    let m = bits & ((1u64 << 52) - 1);
    let e = ((bits >> 52) & 0x7ff) as i32;
    let mut mf = (1u64 << 52) | m;
    let mut ef = e - 1075;

    let is_small_integer = (-52..=0).contains(&ef) && mf & ((1u64 << -ef) - 1) == 0;
    if is_small_integer {
        return reduce_integer(mf >> -ef, max_signif);
    }
    if e == 0 {
        // Subnormal: no implicit leading bit.
        ef = 1 - 1075;
        mf = m;
    }

    // The value is v·2^e2; u and w bound the interval of decimals that read back as it.
    let e2 = ef - 2;
    let mf_even = mf.is_multiple_of(2);
    let v = 4 * mf;
    let w = v + 2;
    let u_shift_half = m == 0 && e > 1;
    let u = v - 2 + u64::from(u_shift_half);

    let (mut a, mut b, mut c);
    let mut e10;
    let (mut a_allzero, mut b_allzero) = (false, false);
    if e2 >= 0 {
        let q = log10_pow2(e2) - i32::from(e2 > 3);
        e10 = q;
        let den = Big::pow5(q as u32);
        let scaled = |n: u64| {
            let mut num = Big::new(n);
            num.shl((e2 - q) as u32);
            num.div_floor_u64(&den)
        };
        (a, b, c) = (scaled(u), scaled(v), scaled(w));
        if q <= 21 {
            let q = q as u32;
            if v.is_multiple_of(5) {
                b_allzero = divisible_by_pow5(v, q);
            } else if mf_even {
                a_allzero = divisible_by_pow5(u, q);
            } else {
                c -= u64::from(divisible_by_pow5(w, q));
            }
        }
    } else {
        let q = log10_pow5(-e2) - i32::from(-e2 > 1);
        e10 = q + e2;
        let five = Big::pow5((-e2 - q) as u32);
        let scaled = |n: u64| {
            let mut num = five.clone();
            num.mul_small(n);
            num.shr_to_u64(q as u32)
        };
        (a, b, c) = (scaled(u), scaled(v), scaled(w));
        if q <= 1 {
            b_allzero = true;
            if mf_even {
                a_allzero = !u_shift_half;
            } else {
                c -= 1;
            }
        } else if q < 63 {
            b_allzero = divisible_by_pow2(v, q as u32);
        }
    }

    // Remove digits while a shorter decimal still lies inside the interval.
    let mut roundup;
    if a_allzero || b_allzero {
        let mut last_digit = 0;
        while c / 10 > a / 10 {
            a_allzero &= a.is_multiple_of(10);
            b_allzero &= last_digit == 0;
            last_digit = drop_digit(&mut a, &mut b, &mut c);
            e10 += 1;
        }
        if a_allzero {
            // The `b != 0` guard only protects against a loop Julia could not leave either.
            while b != 0 && (a.is_multiple_of(10) || max_signif.is_some_and(|cap| b >= cap)) {
                b_allzero &= last_digit == 0;
                last_digit = drop_digit(&mut a, &mut b, &mut c);
                e10 += 1;
            }
        }
        if b_allzero && last_digit == 5 && b.is_multiple_of(2) {
            last_digit = 4;
        }
        roundup = (b == a && (!mf_even || !a_allzero)) || last_digit >= 5;
    } else {
        roundup = false;
        if c / 100 > a / 100 {
            roundup = b % 100 >= 50;
            (a, b, c) = (a / 100, b / 100, c / 100);
            e10 += 2;
        }
        while c / 10 > a / 10 {
            roundup = drop_digit(&mut a, &mut b, &mut c) >= 5;
            e10 += 1;
        }
        roundup = b == a || roundup;
    }

    match max_signif {
        Some(cap) if b > cap => {
            let (digits, shift) = cap_digits(b, cap, b_allzero);
            strip_zeros(digits, e10 + shift)
        }
        _ => (b + u64::from(roundup), e10),
    }
}

/// Integers below 2^53: exact digits, optionally capped with round-half-even.
fn reduce_integer(b: u64, max_signif: Option<u64>) -> (u64, i32) {
    match max_signif {
        Some(cap) if b > cap => {
            let (digits, shift) = cap_digits(b, cap, true);
            strip_zeros(digits, shift)
        }
        _ => strip_zeros(b, 0),
    }
}

/// Cuts `b` to at most `cap`, rounding on the last digit removed; a removed 5 rounds to even
/// only while every digit below it is known to be zero (`allzero`).
fn cap_digits(mut b: u64, cap: u64, mut allzero: bool) -> (u64, i32) {
    let mut shift = 0;
    let mut roundup = false;
    while b > cap {
        let digit = b % 10;
        b /= 10;
        roundup = if allzero && b.is_multiple_of(2) {
            digit > 5
        } else {
            digit >= 5
        };
        allzero &= digit == 0;
        shift += 1;
    }
    (b + u64::from(roundup), shift)
}

fn strip_zeros(mut digits: u64, mut e10: i32) -> (u64, i32) {
    while digits != 0 && digits.is_multiple_of(10) {
        digits /= 10;
        e10 += 1;
    }
    (digits, e10)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digits and exponent Rust's own shortest round-trip formatting produces.
    fn std_shortest(x: f64) -> (u64, i32) {
        let s = format!("{x:e}");
        let (mantissa, exp) = s.split_once('e').unwrap();
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let frac_len = mantissa.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
        (
            digits.parse().unwrap(),
            exp.parse::<i32>().unwrap() - frac_len,
        )
    }

    /// Six significant digits of the exact value, rounded half to even, as `(digits, exp)`.
    fn std_six(x: f64) -> (u64, i32) {
        let s = format!("{x:.5e}");
        let (mantissa, exp) = s.split_once('e').unwrap();
        let digits: u64 = mantissa.replace('.', "").parse().unwrap();
        strip_zeros(digits, exp.parse::<i32>().unwrap() - 5)
    }

    /// A deterministic stream of bit patterns (SplitMix64).
    fn bit_patterns(count: usize) -> impl Iterator<Item = f64> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        std::iter::repeat_with(move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            f64::from_bits((z ^ (z >> 31)) & !(1 << 63))
        })
        .filter(|x| x.is_finite() && *x > 0.0)
        .take(count)
    }

    /// All significant decimal digits of the exact value of `x`, as `(digits, exponent)`.
    fn exact_digits(x: f64) -> (String, i32) {
        let s = format!("{x:.1100e}");
        let (mantissa, exp) = s.split_once('e').unwrap();
        let digits = mantissa.replace('.', "").trim_end_matches('0').to_string();
        (digits, exp.parse().unwrap())
    }

    /// Checks `reduce_shortest` against Rust's shortest formatting. The two differ only when
    /// the exact value lies halfway between two shortest candidates: Ryu (and so Julia)
    /// rounds such ties to even.
    fn check_shortest(x: f64) {
        let (ours, theirs) = (reduce_shortest(x, None), std_shortest(x));
        if ours == theirs {
            return;
        }
        assert_eq!(ours.1, theirs.1, "{x:e}");
        assert_eq!(ours.0.abs_diff(theirs.0), 1, "{x:e}");
        assert_eq!(ours.0 % 2, 0, "a tie must round to even: {x:e}");
        let tie = format!("{}5", ours.0.min(theirs.0));
        assert_eq!(exact_digits(x).0, tie, "not a tie: {x:e}");
    }

    #[test]
    fn shortest_digits_agree_with_std_on_random_bit_patterns() {
        for x in bit_patterns(20_000) {
            check_shortest(x);
        }
    }

    #[test]
    fn shortest_digits_agree_with_std_on_edge_values() {
        let mut values = vec![
            f64::MIN_POSITIVE,
            f64::MAX,
            5e-324,
            1e23,
            9007199254740993.0,
        ];
        for k in -30..30 {
            values.push(10f64.powi(k));
            values.push(2f64.powi(k * 35));
            values.push(1.0 / 3.0 * 10f64.powi(k));
        }
        values.push(1.3085487957268623e15);
        for x in values.into_iter().filter(|x| *x > 0.0 && x.is_finite()) {
            check_shortest(x);
        }
    }

    #[test]
    fn exact_ties_round_to_even_as_in_ryu() {
        // 1308548795726862.25 is exactly halfway between two 17-digit candidates.
        let tie = 5_234_195_182_907_449.0 / 4.0;
        assert_eq!(reduce_shortest(tie, None), (13085487957268622, -1));
    }

    #[test]
    fn compact_digits_are_the_exact_value_rounded_to_six_digits() {
        // Julia's cap rounds the exact value, half to even on exact ties.
        for x in bit_patterns(20_000) {
            assert_eq!(reduce_shortest(x, Some(999_999)), std_six(x), "{x:e}");
        }
        for x in [
            123456.5,
            123457.5,
            1234565.0,
            1234575.0,
            0.1 + 0.2,
            2.0 / 3.0,
        ] {
            assert_eq!(reduce_shortest(x, Some(999_999)), std_six(x), "{x:e}");
        }
    }
}
