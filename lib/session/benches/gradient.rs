//! The interpreted language on the peer benchmark's gradient task: `gradient(f, prep,
//! AutoReverseDiff(), x)` with `f(x) = sum(x .^ 2)`, prepared, for n = 10, 10³, 10⁴ (the native
//! Rust figures come from `cargo bench -p difflab-ad --bench gradient`).
//! Run: `cargo bench -p difflab-session --bench gradient`.

use difflab_session::{Event, ExecuteOptions, Session};

fn main() {
    let mut session = Session::new();
    let options = ExecuteOptions {
        show_result: false,
        store_history: false,
        source_name: None,
    };
    for n in [10, 1000, 10_000] {
        let repeats = if n > 1000 { 50 } else { 500 };
        let code = format!(
            "f(x) = sum(x .^ 2)
             x = [1 + 0.5sin(i) for i in 0:{}]
             back = AutoReverseDiff()
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
                    "{{\"peer\": \"difflab-language-reverse\", \"task\": \"grad\", \"n\": {n}, \"seconds_median\": {}}}",
                    text.trim()
                ),
                Event::Error(r) => eprintln!("{}", r.rendered()),
                _ => {}
            }
        }
    }
}
