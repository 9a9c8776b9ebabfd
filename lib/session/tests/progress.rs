//! Long builtins report progress on stderr while they run: a bar redrawn with `\r` that ends at
//! 100% with the total time.

use difflab_session::{Event, ExecuteOptions, Session, StreamName};

#[test]
fn benchmark_and_test_differentiation_draw_a_progress_bar_on_stderr() {
    let mut session = Session::new();
    let code = "f(x) = sum(abs2, x)
        sc = [Scenario{:gradient, :out}(f, rand(n); res1=nothing) for n in [3, 4]]
        b = benchmark_differentiation([AutoForwardDiff(), AutoReverseDiff()], sc)
        t = test_differentiation([AutoForwardDiff()], sc)";
    let (outcome, events) = session.execute_collect(code, &ExecuteOptions::default());
    assert!(!outcome.failed, "{events:?}");
    let stderr: String = events
        .iter()
        .filter_map(|e| match e {
            Event::Stream {
                name: StreamName::Stderr,
                text,
            } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let redraws: Vec<&str> = stderr.split('\r').filter(|s| !s.is_empty()).collect();
    assert!(
        redraws[0].starts_with("benchmark_differentiation:   0%|"),
        "{stderr:?}"
    );
    assert!(redraws.iter().any(|r| r.contains("| 2/4 ")), "{stderr:?}");
    assert!(
        redraws
            .iter()
            .any(|r| r.starts_with("benchmark_differentiation: 100%|") && r.contains("4/4 in")),
        "{stderr:?}"
    );
    assert!(
        redraws
            .iter()
            .any(|r| r.starts_with("test_differentiation: 100%|") && r.ends_with("s\n")),
        "{stderr:?}"
    );
}
