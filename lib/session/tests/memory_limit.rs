//! The memory limit: allocations whose size comes from the input are refused before they are
//! made, memory that grows through many moderate allocations is stopped at the limit, and
//! lazy computations stay within it. One test in this binary, because the limit counts the
//! process's live heap and tests in one binary run in parallel threads.

mod common;

use common::{error_name, result_text, run};
use difflab_session::{Config, Session};

#[test]
fn the_memory_limit_holds_and_keeps_the_session() {
    huge_and_growing_allocations_are_out_of_memory_errors();
    reductions_over_long_ranges_build_nothing();
    closures_that_capture_their_frame_are_freed();
}

/// A closure defined in a call and stored in its frame makes a reference cycle (the frame holds
/// the closure, the closure its defining frame); each shape here once kept every call's
/// locals alive. 10⁵ calls, each with a vector of 100 numbers: 80 MB if the frames leak.
fn closures_that_capture_their_frame_are_freed() {
    let mut session = Session::new();
    run(
        &mut session,
        "function escaped(a)
             g = x -> sum(x .- a)
             return g
         end
         function pair(a)
             g(x) = x + a[1]
             h(x) = g(x) * 2
             return h
         end
         function in_tuple(a)
             p = (x -> x + a[1], y -> y * a[1])
             return p[1]
         end
         function recursive(a)
             down(k) = k == 0 ? a[1] : down(k - 1)
             return down(3)
         end
         struct Holder; f; end
         function in_containers(a)
             fs = Any[]
             push!(fs, x -> x + a[1])
             h = Holder(x -> x * a[1])
             return (fs, h)
         end
         function generator_kept(a)
             g = (x + a[1] for x in 1:3)
             return g
         end
         function generator_local(a)
             g = (x + a[1] for x in 1:3 if x > 1)
             return sum(g)
         end",
    );
    for shape in [
        "for i in 1:10^5; escaped(rand(100)); end",
        "for i in 1:10^5; pair(rand(100)); end",
        "for i in 1:10^5; in_tuple(rand(100)); end",
        "for i in 1:10^5; recursive(rand(100)); end",
        "for i in 1:10^5; in_containers(rand(100)); end",
        "for i in 1:10^5; collect(generator_kept(rand(100))); end",
        "for i in 1:10^5; generator_local(rand(100)); end",
        "kept = [escaped(rand(100)) for i in 1:10^5]; kept = nothing",
        // Each iteration of a loop has its own frame once a closure captured the last one.
        "kept = []; for i in 1:10^5; a = rand(100); g = () -> sum(a); push!(kept, g); end; kept = nothing",
        "kept = [(v = rand(100); () -> sum(v)) for i in 1:10^5]; kept = nothing",
    ] {
        let before = difflab_ad::limits::live_bytes();
        let events = run(&mut session, shape);
        assert_eq!(error_name(&events), None, "{shape}");
        let grown = difflab_ad::limits::live_bytes().saturating_sub(before);
        assert!(grown < 8 << 20, "{shape}: {} MiB still live", grown >> 20);
    }
}

/// Allocations whose size comes from the input are refused before they are made, and memory
/// that grows through many moderate allocations is stopped at the limit: each of these once
/// ended the process (killed, or "memory allocation failed").
fn huge_and_growing_allocations_are_out_of_memory_errors() {
    let config = Config {
        memory_limit: 256 << 20,
        ..Config::default()
    };
    let mut session = Session::with_config(config);
    run(&mut session, "kept = [1.0, 2.0]; x = rand(10^5)");
    for code in [
        "x .* x'",
        "x' .+ x",
        "zeros(10^8)",
        "rand(10^5, 10^5)",
        "fill(1.0, 10^9)",
        "collect(1:10^10)",
        "zeros(10^10, 10^10)",
        "[i * j for i in 1:10^6, j in 1:10^6]",
        "jacobian(x -> x, AutoForwardDiff(), x)",
        "jacobian(x -> x, AutoReverseDiff(), x)",
        "hessian(x -> sum(x .^ 3), SecondOrder(AutoForwardDiff(), AutoReverseDiff()), x)",
        "a = [ones(2 * 10^7) for i in 1:10]",
        "lpad(\"a\", 10^12)",
        "s = \"a\"; for i in 1:40; s = s * s; end",
        "v = [1.0]; for i in 1:40; v = vcat(v, v); end",
        "l = []; while true; push!(l, 1); end",
        "sin.(1:10^10)",
        "reshape(1:10^12, 10^6, 10^6)",
        "string(1:10^9...)",
        "A = rand(10^4, 10); A * A'",
        "hcat([rand(10^4) for i in 1:10^4]...)",
        "include(\"/dev/zero\")",
        "read(\"/dev/zero\", String)",
        "readlines(\"/dev/zero\")",
        "open(\"/dev/zero\")",
    ] {
        let events = run(&mut session, code);
        assert_eq!(
            error_name(&events).as_deref(),
            Some("OutOfMemoryError"),
            "{code}"
        );
        assert_eq!(
            result_text(&run(&mut session, "sum(kept) + length(x)")).as_deref(),
            Some("100003.0"),
            "after {code}"
        );
    }
}

/// Reductions with a function over a range walk it lazily, as Julia's do.
fn reductions_over_long_ranges_build_nothing() {
    // A range of 10^7 numbers would take 80 MB: the results prove nothing was built.
    let config = Config {
        memory_limit: 64 << 20,
        ..Config::default()
    };
    let mut session = Session::with_config(config);
    for (code, expected) in [
        ("sum(x -> x * 0.5, 1:10^7)", "2.50000025e13"),
        ("maximum(x -> -x, 1:10^7)", "-1"),
        ("count(iseven, 1:10^7)", "5000000"),
        ("any(x -> x > 5, 1:10^15)", "true"),
        ("all(x -> x < 5, 1:10^15)", "false"),
        ("findfirst(x -> x > 5, 1:10^15)", "6"),
        ("mapreduce(x -> x, +, 1:10^7)", "50000005000000"),
        ("reduce(+, 1:10^7)", "50000005000000"),
        ("length(map(x -> 2x, 1:10^5))", "100000"),
    ] {
        let events = run(&mut session, code);
        assert_eq!(result_text(&events).as_deref(), Some(expected), "{code}");
    }
}
