//! Bad input never ends a session or loses its variables: errors, interrupts, runaway
//! recursion and refused allocations all leave every variable in place.

mod common;

use common::{error_name, interrupt_after, result_text, run};
use difflab_session::{Event, Session};
use std::time::{Duration, Instant};

/// The input ended in an `InterruptException` less than 100 ms after the interrupt was sent.
fn assert_interrupted_promptly(events: &[Event], sent: Instant, stopped: Instant) {
    assert_eq!(error_name(events).as_deref(), Some("InterruptException"));
    assert!(
        stopped - sent < Duration::from_millis(100),
        "took {:?}",
        stopped - sent
    );
}

#[test]
fn an_interrupt_stops_a_runaway_loop_quickly_and_keeps_variables() {
    let mut session = Session::new();
    run(&mut session, "kept = 41");
    let interrupter = interrupt_after(session.interrupt_handle(), Duration::from_millis(300));
    let events = run(&mut session, "while true end");
    let stopped = Instant::now();
    let sent = interrupter.join().unwrap();
    assert_interrupted_promptly(&events, sent, stopped);
    assert_eq!(
        result_text(&run(&mut session, "kept + 1")).as_deref(),
        Some("42")
    );
}

/// A `catch` takes an interrupt once per input, as Julia's does; the second interrupt of the
/// same input stops a loop around `try` within 100 ms instead of being swallowed again.
#[test]
fn a_catch_takes_the_first_interrupt_and_the_second_stops_the_input() {
    let mut session = Session::new();
    run(&mut session, "caught = 0");
    let program = "while true
        try
            while true end
        catch e
            e isa InterruptException && (global caught += 1)
        end
    end";
    // Twice: each input's first interrupt is catchable again.
    for _ in 0..2 {
        let first = interrupt_after(session.interrupt_handle(), Duration::from_millis(200));
        let second = interrupt_after(session.interrupt_handle(), Duration::from_millis(500));
        let events = run(&mut session, program);
        let stopped = Instant::now();
        first.join().unwrap();
        let sent = second.join().unwrap();
        assert_interrupted_promptly(&events, sent, stopped);
    }
    assert_eq!(
        result_text(&run(&mut session, "caught")).as_deref(),
        Some("2")
    );
}

#[test]
fn an_interrupt_stops_a_runaway_recursion_and_a_busy_builtin_loop() {
    let mut session = Session::new();
    let interrupter = interrupt_after(session.interrupt_handle(), Duration::from_millis(200));
    let events = run(&mut session, "s = 0; for i in 1:10^12; s += sum(1:10); end");
    interrupter.join().unwrap();
    assert_eq!(error_name(&events).as_deref(), Some("InterruptException"));
    assert!(result_text(&run(&mut session, "s > 0")).is_some());
}

/// Long computations inside builtins, each answered within 100 ms of the interrupt: builtins
/// that call back into the language, reductions over ranges and generators (never built), differentiation
/// loops of the AD library (chunks, sweeps), dense and sparse products, and single array
/// kernels over 10^7 to 10^8 numbers (computed in blocks).
#[test]
fn an_interrupt_stops_long_builtins_quickly_and_keeps_variables() {
    let cases = [
        ("", "reduce(+, 1:10^12)"),
        ("", "foldl((a, b) -> a + b, 1:10^12)"),
        ("", "count(x -> x > 0.5, 1:10^12)"),
        ("", "sum(x -> x * 0.5, 1:10^12)"),
        ("", "mapreduce(x -> x, +, 1:10^12)"),
        ("", "any(x -> x < 0, 1:10^12)"),
        // Generators folded as they run: by compiled code, and by the evaluator.
        ("", "sum(1 / i^2 for i in 1:10^12)"),
        ("", "any(i < 0 for i in 1:10^12)"),
        ("", "sum(length(string(i)) for i in 1:10^12)"),
        // Generator values walked as they run: a filter that never holds, a reduction of one
        // kept in a variable, a loop over an infinite one.
        ("", "first(i for i in 1:10^12 if i < 0)"),
        ("g = (i / 2 for i in 1:10^12)", "sum(g)"),
        ("", "for s in (i^2 for i in Iterators.countfrom(1)); end"),
        ("", "foreach(x -> x, 1:10^12)"),
        (
            "x = rand(12000)",
            "jacobian(x -> x .^ 2, AutoReverseDiff(), x)",
        ),
        (
            "x = rand(12000)",
            "jacobian(x -> x .^ 2, AutoForwardDiff(), x)",
        ),
        ("S = sprand(10^6, 10^6, 1e-5); T = copy(S')", "S * T"),
        ("A = rand(3000, 3000)", "A * A * A"),
        // One whole-array kernel each: drawing, a fused broadcast, a broadcast of two arrays
        // of one shape, and one of a column against a row.
        ("", "randn(10^8)"),
        ("x = rand(5 * 10^7)", "exp.(sin.(x)) .^ 1.5"),
        ("x = rand(5 * 10^7)", "atan.(x, x)"),
        ("v = rand(7000)", "atan.(v, v')"),
        // Filling an existing array (each call under the 300 ms before the interrupt, so these
        // loop; one `z .= 1.0` written element by element takes 1.3-3 s).
        ("z = zeros(5 * 10^7)", "while true; z .= 1.0; end"),
        ("z = zeros(5 * 10^7)", "while true; fill!(z, 2.0); end"),
        // Sorting, searching and factorizing large inputs (each well over the 300 ms before the
        // interrupt: an LU of 3000 × 3000 took 0.29 s on a fast machine, so these are 4000 × 4000).
        ("x = rand(2 * 10^7)", "sort(x)"),
        ("x = rand(2 * 10^7)", "sortperm(x)"),
        ("A = rand(4000, 4000)", "lu(A)"),
        ("A = rand(4000, 4000); b = rand(4000)", "A \\ b"),
        ("A = rand(3000, 3000)", "inv(A)"),
        ("A = rand(4000, 4000)", "det(A)"),
        // Sparse LU of a 2-D Laplacian on a 400 × 400 grid (about 1.5 s in release builds).
        (
            "n = 400; T = spdiagm(-1 => fill(-1.0, n - 1), 0 => fill(4.0, n), 1 => fill(-1.0, n - 1)); E = spdiagm(-1 => fill(-1.0, n - 1), 1 => fill(-1.0, n - 1)); A = kron(sparse(1.0I, n, n), T) + kron(E, sparse(1.0I, n, n)); b = rand(n^2)",
            "A \\ b",
        ),
        ("S = sprand(3 * 10^6, 3 * 10^6, 3e-6)", "copy(S')"),
        ("", "for i in 1:10^9; println(i); end"),
        // Formatting one large value as text (seconds for 10^7 numbers): by a builtin, by
        // interpolation, and for an error message.
        ("x = rand(10^7)", "s = string(x)"),
        ("x = rand(10^7)", "s = \"$(x)\""),
        ("x = rand(10^7)", "println(x)"),
        ("x = rand(10^7)", "error(x)"),
        ("A = rand(1000, 1000)", "Set(A)"),
        ("d = Dict(i => i / 3 for i in 1:10^6)", "s = repr(d)"),
        // Mirroring a triangle of 5·10⁶ entries (22 s in unoptimized builds by triplets).
        ("S = sprand(10^6, 10^6, 1e-5)", "Hermitian(S)"),
    ];
    for (setup, code) in cases {
        let mut session = Session::new();
        run(&mut session, "kept = 41");
        run(&mut session, setup);
        let interrupter = interrupt_after(session.interrupt_handle(), Duration::from_millis(300));
        let events = run(&mut session, code);
        let stopped = Instant::now();
        let sent = interrupter.join().unwrap();
        assert_eq!(
            error_name(&events).as_deref(),
            Some("InterruptException"),
            "{code}"
        );
        let latency = stopped.saturating_duration_since(sent);
        assert!(
            latency < Duration::from_millis(100),
            "{code}: answered after {latency:?}"
        );
        assert_eq!(
            result_text(&run(&mut session, "kept + 1")).as_deref(),
            Some("42")
        );
    }
}

/// Formatting stopped by an interrupt leaves nothing unfinished behind: no variable holds a
/// part of the text, and the next input is not interrupted.
#[test]
fn an_interrupted_formatting_assigns_nothing() {
    let mut session = Session::new();
    run(&mut session, "x = rand(10^7)");
    for code in ["s = string(x)", "s = \"[$(x)]\""] {
        let interrupter = interrupt_after(session.interrupt_handle(), Duration::from_millis(300));
        let events = run(&mut session, code);
        interrupter.join().unwrap();
        assert_eq!(error_name(&events).as_deref(), Some("InterruptException"));
        assert_eq!(
            error_name(&run(&mut session, "s")).as_deref(),
            Some("UndefVarError"),
            "{code}"
        );
    }
    assert_eq!(
        result_text(&run(&mut session, "length(string(x[1:3])) > 5")).as_deref(),
        Some("true")
    );
}

#[test]
fn unbounded_recursion_is_a_stack_overflow_error() {
    let mut session = Session::new();
    run(&mut session, "kept = [1, 2, 3]; down(n) = down(n + 1) + 1");
    let events = run(&mut session, "down(1)");
    assert_eq!(error_name(&events).as_deref(), Some("StackOverflowError"));
    assert_eq!(
        result_text(&run(&mut session, "sum(kept)")).as_deref(),
        Some("6")
    );
    // Recursion within the limit still works afterwards.
    run(&mut session, "depth(n) = n == 0 ? 0 : 1 + depth(n - 1)");
    assert_eq!(
        result_text(&run(&mut session, "depth(2000)")).as_deref(),
        Some("2000")
    );
}

#[test]
fn errors_keep_every_variable_and_report_julia_kinds() {
    let mut session = Session::new();
    run(&mut session, "a = 1.5; v = [1.0, 2.0]");
    let cases = [
        ("nope + 1", "UndefVarError"),
        ("v[3]", "BoundsError"),
        ("v + [1.0]", "DimensionMismatch"),
        ("sqrt(-1.0)", "DomainError"),
        ("sin(v)", "MethodError"),
        ("throw(ArgumentError(\"bad\"))", "ArgumentError"),
        ("x = (1 +", "LoadError"),
        ("a = ", "LoadError"),
    ];
    for (code, kind) in cases {
        assert_eq!(
            error_name(&run(&mut session, code)).as_deref(),
            Some(kind),
            "{code}"
        );
    }
    assert_eq!(
        result_text(&run(&mut session, "a + sum(v)")).as_deref(),
        Some("4.5")
    );
}

#[test]
fn parse_errors_point_at_the_span() {
    let mut session = Session::new();
    let events = run(&mut session, "y = 1\nz = [1, 2 +* 3]");
    let Some(Event::Error(report)) = events.first() else {
        panic!("expected an error: {events:?}");
    };
    let text = report.rendered();
    assert!(text.starts_with("ERROR: LoadError"), "{text}");
    assert!(
        text.contains("z = [1, 2 +* 3]"),
        "the source line is shown: {text}"
    );
    assert!(text.contains('^'), "a caret marks the span: {text}");
    assert!(text.contains("In[1]:2:"), "line 2 is named: {text}");
}

#[test]
fn completion_inspection_and_completeness() {
    let mut session = Session::new();
    run(&mut session, "my_variable = 1");
    let c = session.complete("my_var", 6);
    assert_eq!(c.matches, vec!["my_variable".to_string()]);
    assert!(session
        .complete("prin", 4)
        .matches
        .contains(&"println".to_string()));
    assert!(session
        .inspect("sum(x)", 1)
        .is_some_and(|d| d.contains("sum(")));
    use difflab_session::Completeness::*;
    assert_eq!(session.is_complete("x = 1"), Complete);
    assert!(matches!(
        session.is_complete("function f(x)"),
        Incomplete(_)
    ));
    assert_eq!(session.is_complete("x = )"), Invalid);
}

#[test]
fn every_builtin_has_a_docstring_with_an_example() {
    for b in difflab_lang::builtins::all() {
        assert!(
            b.doc.contains(b.name),
            "`{}`: the docstring shows its signature",
            b.name
        );
        assert!(
            b.doc.contains("```"),
            "`{}`: the docstring has an example",
            b.name
        );
    }
}

#[test]
fn every_macro_has_help_with_an_example() {
    let mut session = Session::new();
    for name in [
        "@time",
        "@elapsed",
        "@show",
        "@assert",
        "@b",
        "@btime",
        "@.",
        "@inbounds",
    ] {
        let events = run(&mut session, &format!("?{name}"));
        let help = result_text(&events).unwrap_or_default();
        assert!(help.contains(name), "`?{name}` shows the signature: {help}");
        assert!(help.contains("```"), "`?{name}` has an example: {help}");
    }
}

/// `include` runs a file at top level: its definitions stay, a relative `include` inside it is
/// taken from its directory, and a parse or runtime error in it is reported in the file with
/// the session's variables intact.
#[test]
fn include_defines_globals_and_locates_errors_in_the_file() {
    let dir = std::env::temp_dir().join(format!("difflab-include-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub").join("inner.dl"), "inner_value = 5\n").unwrap();
    std::fs::write(
        dir.join("model.dl"),
        "include(\"sub/inner.dl\")\nsquare(x) = x^2\nmodel_value = square(inner_value)\n",
    )
    .unwrap();
    std::fs::write(dir.join("broken.dl"), "a = 1\nb = (2 +\n").unwrap();
    std::fs::write(dir.join("failing.dl"), "c = 1\nsqrt(-1.0)\n").unwrap();
    let path = |name: &str| dir.join(name).display().to_string();

    let mut session = Session::new();
    run(&mut session, "kept = 41");
    let events = run(
        &mut session,
        &format!(
            "function load() include({:?}) end; load()",
            path("model.dl")
        ),
    );
    assert_eq!(result_text(&events).as_deref(), Some("25"), "{events:?}");
    let events = run(&mut session, "square(3) + inner_value");
    assert_eq!(result_text(&events).as_deref(), Some("14"));

    for (file, kind, line) in [
        ("broken.dl", "LoadError", 2),
        ("failing.dl", "DomainError", 2),
    ] {
        let events = run(&mut session, &format!("include({:?})", path(file)));
        assert_eq!(error_name(&events).as_deref(), Some(kind), "{file}");
        let report = events
            .iter()
            .find_map(|e| match e {
                Event::Error(r) => Some(r.rendered()),
                _ => None,
            })
            .unwrap();
        assert!(
            report.contains(&format!("{}:{line}:", path(file))),
            "{file}: {report}"
        );
    }
    let events = run(&mut session, "include(\"no-such-file.dl\")");
    assert_eq!(error_name(&events).as_deref(), Some("SystemError"));
    assert_eq!(
        result_text(&run(&mut session, "kept")).as_deref(),
        Some("41")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
