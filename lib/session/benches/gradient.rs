//! The interpreted language on the peer benchmark's gradient task: `gradient(f, prep, backend,
//! x)` with `f(x) = sum(x .^ 2)`, prepared, for n = 10, 10³, 10⁴, with `AutoReverseDiff()` and
//! `AutoReverseDiff(compile=true)`; and the same sum written as a scalar loop, where the compiled
//! tape replays without running the interpreter (the native Rust figures come from
//! `cargo bench -p difflab-ad --bench gradient`).
//! Run: `cargo bench -p difflab-session --bench gradient`.

use difflab_session::{Event, ExecuteOptions, Session};

const VECTORIZED: &str = "f(x) = sum(x .^ 2)";
const LOOP: &str = "function f(x)
    s = 0.0
    for i in eachindex(x)
        s += x[i]^2
    end
    s
end";

fn main() {
    let mut session = Session::new();
    let options = ExecuteOptions {
        show_result: false,
        store_history: false,
        source_name: None,
    };
    let cases = [
        (
            "reverse",
            VECTORIZED,
            "AutoReverseDiff()",
            &[10, 1000, 10_000][..],
        ),
        (
            "reverse-compiled",
            VECTORIZED,
            "AutoReverseDiff(compile=true)",
            &[10, 1000, 10_000],
        ),
        ("loop-reverse", LOOP, "AutoReverseDiff()", &[10, 1000]),
        (
            "loop-reverse-compiled",
            LOOP,
            "AutoReverseDiff(compile=true)",
            &[10, 1000],
        ),
    ];
    for (label, function, backend, sizes) in cases {
        for &n in sizes {
            let repeats = if n > 100 { 50 } else { 500 };
            let code = format!(
                "{function}
                 x = [1 + 0.5sin(i) for i in 0:{}]
                 back = {backend}
                 prep = prepare_gradient(f, back, zero(x))
                 gradient(f, prep, back, x)
                 times = [@elapsed(gradient(f, prep, back, x)) for k in 1:{repeats}]
                 println(sort(times)[length(times) ÷ 2 + 1])",
                n - 1
            );
            let (_, events) = session.execute_collect(&code, &options);
            for e in events {
                match e {
                    Event::Stream { text, .. } => println!(
                        "{{\"peer\": \"difflab-language-{label}\", \"task\": \"grad\", \"n\": {n}, \"seconds_median\": {}}}",
                        text.trim()
                    ),
                    Event::Error(r) => eprintln!("{}", r.rendered()),
                    _ => {}
                }
            }
        }
    }
}
