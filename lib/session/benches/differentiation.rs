//! The interpreted language on the peer benchmark's AD-core tasks (`tests/peers/peers.py`:
//! `grad`, `hessian`, `jacobian`), prepared, at `x[i] = 1 + 0.5 sin(i)`:
//! - gradient of `sum(x .^ 2)` for n = 10, 10³, 10⁴ with `AutoReverseDiff()` and
//!   `AutoReverseDiff(compile=true)`, and the same sum as a scalar loop;
//! - dense Hessian of `sum(diff(x) .^ 2)` at n = 10³ with `SecondOrder(AutoForwardDiff(),
//!   AutoReverseDiff())`;
//! - dense Jacobian of `diff(x .^ 2) + diff(reverse(x .^ 2))` at n = 10³, forward and reverse.
//!
//! Prints one JSON line per measurement (median seconds), like peers.py. The native Rust figures
//! come from `cargo bench -p difflab-ad --bench gradient`.
//! Run: `cargo bench -p difflab-session --bench differentiation`.

mod support;

const SQUARES: &str = "f(x) = sum(x .^ 2)";
const LOOP: &str = "function f(x)
    s = 0.0
    for i in eachindex(x)
        s += x[i]^2
    end
    s
end";
const DIFF_SQUARES: &str = "f(x) = sum(diff(x) .^ 2)";
const JACOBIAN: &str = "f(x) = diff(x .^ 2) + diff(reverse(x .^ 2))";

struct Case {
    label: &'static str,
    task: &'static str,
    function: &'static str,
    operator: &'static str,
    backend: &'static str,
    sizes: &'static [usize],
}

const CASES: &[Case] = &[
    Case {
        label: "reverse",
        task: "grad",
        function: SQUARES,
        operator: "gradient",
        backend: "AutoReverseDiff()",
        sizes: &[10, 1000, 10_000],
    },
    Case {
        label: "reverse-compiled",
        task: "grad",
        function: SQUARES,
        operator: "gradient",
        backend: "AutoReverseDiff(compile=true)",
        sizes: &[10, 1000, 10_000],
    },
    Case {
        label: "loop-reverse",
        task: "grad",
        function: LOOP,
        operator: "gradient",
        backend: "AutoReverseDiff()",
        sizes: &[10, 1000],
    },
    Case {
        label: "loop-reverse-compiled",
        task: "grad",
        function: LOOP,
        operator: "gradient",
        backend: "AutoReverseDiff(compile=true)",
        sizes: &[10, 1000],
    },
    Case {
        label: "forward-over-reverse",
        task: "hessian",
        function: DIFF_SQUARES,
        operator: "hessian",
        backend: "SecondOrder(AutoForwardDiff(), AutoReverseDiff())",
        sizes: &[1000],
    },
    Case {
        label: "forward",
        task: "jacobian",
        function: JACOBIAN,
        operator: "jacobian",
        backend: "AutoForwardDiff()",
        sizes: &[1000],
    },
    Case {
        label: "reverse",
        task: "jacobian",
        function: JACOBIAN,
        operator: "jacobian",
        backend: "AutoReverseDiff()",
        sizes: &[1000],
    },
];

fn main() {
    let mut bench = support::Bench::new();
    for case in CASES {
        for &n in case.sizes {
            let repeats = if n > 100 { 30 } else { 500 };
            let (function, operator, backend) = (case.function, case.operator, case.backend);
            bench.run(&format!(
                "{function}
                 x = [1 + 0.5sin(i) for i in 0:{}]
                 back = {backend}
                 prep = prepare_{operator}(f, back, zero(x))
                 {operator}(f, prep, back, x)",
                n - 1
            ));
            let code = format!(
                "times = [@elapsed({operator}(f, prep, back, x)) for k in 1:{repeats}]
                 println(sort(times)[length(times) ÷ 2 + 1])"
            );
            let peer = format!("difflab-language-{}", case.label);
            bench.report(&peer, case.task, n, &code);
        }
    }
}
