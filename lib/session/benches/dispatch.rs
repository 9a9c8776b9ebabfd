//! The cost of dispatch: a loop of 10⁵ calls to a user function, unannotated, annotated
//! (`x::Float64`), and one method among four (the most specific of `Any`, `Real`, `Int`,
//! `Float64`); and a scalar arithmetic loop before and after the session defines user methods
//! of `+` and `*` (builtin arithmetic must not pay for them). Issue 18's goal: an annotated
//! call costs at most 1.2× an unannotated one. Prints one JSON line per measurement (median
//! seconds of the whole loop).
//! Run: `cargo bench -p difflab-session --bench dispatch`.

mod support;

const CALLS: usize = 100_000;

/// Functions and the loops that call them; each loop returns a number so nothing is skipped.
const SETUP: &str = "
plain(x) = x + 1.0
annotated(x::Float64) = x + 1.0
four(x) = x
four(x::Real) = x
four(x::Int) = x
four(x::Float64) = x + 1.0
function calls(f, n)
    s = 0.0
    for i in 1:n
        s = f(s)
    end
    s
end
function arithmetic(n)
    s = 0.0
    for i in 1:n
        s += i * 0.5
    end
    s
end
";

/// User methods of `+` and `*`, defined between the two arithmetic measurements.
const EXTEND: &str = "
import Base: +, *
struct Wrapped; v::Float64; end
+(a::Wrapped, b::Wrapped) = Wrapped(a.v + b.v)
*(a::Real, b::Wrapped) = Wrapped(a * b.v)
";

fn main() {
    let mut bench = support::Bench::new();
    bench.run(SETUP);
    let median = |call: &str| {
        format!(
            "{call}
             times = [@elapsed({call}) for k in 1:15]
             println(sort(times)[length(times) ÷ 2 + 1])"
        )
    };
    for (label, call) in [
        ("call-unannotated", format!("calls(plain, {CALLS})")),
        ("call-annotated", format!("calls(annotated, {CALLS})")),
        ("call-four-methods", format!("calls(four, {CALLS})")),
        ("arithmetic", format!("arithmetic({CALLS})")),
    ] {
        bench.report(
            &format!("difflab-language-{label}"),
            "dispatch",
            CALLS,
            &median(&call),
        );
    }
    bench.run(EXTEND);
    bench.report(
        "difflab-language-arithmetic-with-user-methods",
        "dispatch",
        CALLS,
        &median(&format!("arithmetic({CALLS})")),
    );
}
