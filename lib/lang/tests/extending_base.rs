//! Methods defined under the names of Julia's functions without `import`, as Julia decides
//! them: a name the session has not used becomes a function of its own, a name it used (or an
//! operator, which arithmetic always uses) is an error until imported, and the session keeps
//! everything it had after that error.

mod support;

use difflab_lang::{ErrorKind, Value};
use support::{interp_running, run_input};

#[test]
fn a_used_name_or_an_operator_is_extended_only_after_import() {
    let mut interp = interp_running("struct Meters; value::Float64; end\nkept = abs(-2)");
    for definition in [
        "abs(m::Meters) = m.value",
        "abs(m) = 0",
        "+(a::Meters, b::Meters) = a",
        "*(a::Meters, b) = a",
    ] {
        let error = run_input(&mut interp, definition).expect_err(definition);
        assert_eq!(error.kind, ErrorKind::ErrorException, "{definition}");
        assert!(
            error
                .message
                .contains("must be explicitly imported to be extended"),
            "{definition}: {}",
            error.message
        );
    }
    assert!(matches!(
        run_input(&mut interp, "kept + abs(-3)"),
        Ok(Value::Int(5))
    ));
    run_input(&mut interp, "import Base: abs\nabs(m::Meters) = m.value").expect("imported");
    assert!(matches!(
        run_input(&mut interp, "abs(Meters(-1.5)) + abs(-1)"),
        Ok(Value::Float(x)) if x == -0.5
    ));
}

#[test]
fn an_unused_name_becomes_the_sessions_own_function() {
    let mut interp = interp_running("struct Meters; value::Float64; end");
    run_input(&mut interp, "step(m::Meters) = m.value + 1").expect("a new function");
    assert!(matches!(
        run_input(&mut interp, "step(Meters(1.0))"),
        Ok(Value::Float(x)) if x == 2.0
    ));
    let error = run_input(&mut interp, "step(1:2:9)").expect_err("Julia's step is shadowed");
    assert_eq!(error.kind, ErrorKind::MethodError);
    assert!(error
        .message
        .contains("You may have intended to import Base.step"));
    assert!(matches!(
        run_input(&mut interp, "Base.step(1:2:9)"),
        Ok(Value::Int(2))
    ));
}

#[test]
fn a_name_used_inside_a_function_counts_once_the_function_ran() {
    let mut interp = interp_running("half(x) = floor(x / 2)");
    run_input(&mut interp, "floor(x::String) = x").expect("floor not used yet");
    let mut interp = interp_running("half(x) = floor(x / 2)\nhalf(3.0)");
    assert!(run_input(&mut interp, "floor(x::String) = x").is_err());
}
