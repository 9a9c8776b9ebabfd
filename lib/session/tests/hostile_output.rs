//! Outputs stay bounded and printing never ends the session: every text output is capped,
//! self-referential and deeply nested values display, and no input reaches a panic.

use difflab_session::{Event, ExecuteOptions, Session};

fn run(session: &mut Session, code: &str) -> Vec<Event> {
    session.execute_collect(code, &ExecuteOptions::default()).1
}

fn texts(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Stream { text, .. } => Some(text.clone()),
            Event::Result(b) | Event::Display(b) => Some(b.plain().to_string()),
            Event::Error(r) => Some(r.rendered()),
            Event::ClearOutput { .. } => None,
        })
        .collect()
}

const CAP: usize = 1 << 20;

#[test]
fn every_output_is_capped_with_a_note_of_what_was_cut() {
    let mut session = Session::new();
    run(&mut session, "big = \"é\" ^ (3 * 10^6);");
    for code in ["println(big)", "big", "display(big)", "error(big)"] {
        let out = texts(&run(&mut session, code));
        assert_eq!(out.len(), 1, "{code}");
        let text = &out[0];
        assert!(text.len() < CAP + 100, "{code}: {} bytes", text.len());
        assert!(
            text.contains("[output truncated: ") && text.contains(" bytes not shown]"),
            "{code}"
        );
    }
    // Small outputs are untouched.
    assert_eq!(texts(&run(&mut session, "print(\"x\")")), ["x"]);
}

#[test]
fn a_large_matrix_inside_a_tuple_displays_in_a_few_lines() {
    let mut session = Session::new();
    run(&mut session, "R = rand(1000, 1000);");
    for code in ["(size(R), R)", "[R, R]", "(m = R, n = 1)"] {
        let out = texts(&run(&mut session, code));
        assert!(out[0].len() < 1000, "{code}: {} bytes", out[0].len());
        assert!(out[0].contains('…'), "{code}");
    }
}

#[test]
fn circular_and_deep_values_display_and_leave_variables_intact() {
    let mut session = Session::new();
    run(&mut session, "kept = 41; a = Any[1]; push!(a, a);");
    assert_eq!(
        texts(&run(&mut session, "a")),
        ["2-element Vector{Any}:\n 1\n  2-element Vector{Any}:#= circular reference @-1 =#"]
    );
    assert_eq!(texts(&run(&mut session, "a == a")), ["true"]);
    run(
        &mut session,
        "d = Any[]; for i in 1:10^6; global d = Any[d]; end",
    );
    let out = texts(&run(&mut session, "d"));
    assert!(out[0].starts_with("1-element Vector{Any}:\n Any[Any["));
    assert_eq!(texts(&run(&mut session, "kept + 1")), ["42"]);
}

#[test]
fn rounding_with_keywords_never_panics() {
    let mut session = Session::new();
    for code in [
        "round(digits=2)",
        "round(sigdigits=2)",
        "round(; digits=2)",
        "round(Int; digits=2)",
        "round(1.0; digits=2.5)",
        "round(1.0; digits=2, sigdigits=2)",
        "round(Int, 1e300)",
        "round(Int, [1e300])",
        "round(\"a\"; digits=2)",
        "round(1.0; digits=9223372036854775807)",
        "round(1.0; sigdigits=-9223372036854775807)",
        "round(1.0e-300; sigdigits=9223372036854775807)",
        "floor(-1.0; digits=-400)",
    ] {
        let events = run(&mut session, code);
        for e in &events {
            if let Event::Error(r) = e {
                assert_ne!(r.ename, "InternalError", "{code}: {}", r.rendered());
            }
        }
    }
}
