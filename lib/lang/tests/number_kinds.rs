//! One user function, run under two number kinds: plain floats and dual numbers.
//!
//! This is the evaluator's promise to the AD backends: a function written in the language runs
//! unchanged when its arrays hold numbers that carry derivatives, and the derivatives that come
//! out are the true ones.

use difflab_ad::{Tag, Tensor};
mod support;

use difflab_lang::{Interp, Value};
use support::call;

const PROGRAM: &str = "
function f(x)
    s = 0.0
    for i in eachindex(x)
        s += x[i] * x[i]
    end
    y = similar(x)
    y .= sin.(x) .* 2
    return s + sum(y) + x[1] * x[end] + sum(diff(x) .^ 2)
end
g(t) = t^3 + exp(t) / (1 + t)
";

fn interp_with_program() -> Interp {
    support::interp_running(PROGRAM)
}

/// The closed form of ∂f/∂x at `x` (for the f above).
fn gradient_f(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    (0..n)
        .map(|i| {
            let mut g = 2.0 * x[i] + 2.0 * x[i].cos();
            if i == 0 {
                g += x[n - 1];
            }
            if i == n - 1 {
                g += x[0];
            }
            if i > 0 {
                g += 2.0 * (x[i] - x[i - 1]);
            }
            if i + 1 < n {
                g -= 2.0 * (x[i + 1] - x[i]);
            }
            g
        })
        .collect()
}

fn value_and_partials(v: &Value) -> (f64, Vec<f64>) {
    match v {
        Value::Float(x) => (*x, vec![]),
        Value::Real(t) => match t {
            Tensor::Dual(d) => (
                d.value.primal()[[]],
                d.partials.iter().map(|p| p.primal()[[]]).collect(),
            ),
            Tensor::Plain(a) => (a[[]], vec![]),
            other => panic!("expected a plain or dual number, got {other:?}"),
        },
        other => panic!("expected a number, got {}", other.type_name()),
    }
}

#[test]
fn array_function_runs_on_plain_and_dual_numbers() {
    let mut interp = interp_with_program();
    let x = [0.3, -1.2, 2.0, 0.7];
    let plain = call(
        &mut interp,
        "f",
        Value::array(difflab_lang::show::ElType::Float64, &[4], x.to_vec()),
    );
    let (plain_value, _) = value_and_partials(&plain);

    // Seed all four directions in one chunk: the partials are the whole gradient.
    let seeds = (0..4)
        .map(|k| {
            Tensor::from_col_major(&[4], (0..4).map(|j| f64::from(u8::from(j == k))).collect())
        })
        .collect();
    let dual = Tensor::dual(
        Tag::fresh(),
        Tensor::from_col_major(&[4], x.to_vec()),
        seeds,
    );
    let out = call(&mut interp, "f", Value::float_array(dual));
    let (dual_value, gradient) = value_and_partials(&out);

    assert_eq!(
        plain_value, dual_value,
        "the value does not depend on the number kind"
    );
    for (got, want) in gradient.iter().zip(gradient_f(&x)) {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
}

#[test]
fn array_function_runs_on_tape_recorded_numbers() {
    let mut interp = interp_with_program();
    let x = [0.3, -1.2, 2.0, 0.7];
    let tape = difflab_ad::reverse::Tape::new();
    let input = tape.input(Tensor::from_col_major(&[4], x.to_vec()));
    let Tensor::Tracked(leaf) = &input else {
        panic!("inputs are tracked")
    };
    let node = leaf.node;
    let out = match call(&mut interp, "f", Value::float_array(input)) {
        Value::Real(t) => t.clone(),
        other => panic!("expected a number, got {}", other.type_name()),
    };
    let gradient = tape
        .gradient(&out, &Tensor::scalar(1.0), &[(node, vec![4])])
        .unwrap();
    for (got, want) in gradient[0].to_col_major().iter().zip(gradient_f(&x)) {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
}

#[test]
fn scalar_function_runs_on_plain_and_dual_numbers() {
    let mut interp = interp_with_program();
    let t = 0.8_f64;
    let (plain, _) = value_and_partials(&call(&mut interp, "g", Value::Float(t)));
    let dual = Tensor::dual(Tag::fresh(), Tensor::scalar(t), vec![Tensor::scalar(1.0)]);
    let (value, slope) = value_and_partials(&call(&mut interp, "g", Value::Real(dual)));
    let expected = 3.0 * t * t + t.exp() / (1.0 + t) - t.exp() / (1.0 + t).powi(2);
    assert_eq!(plain, value);
    assert!((slope[0] - expected).abs() < 1e-12);
}
