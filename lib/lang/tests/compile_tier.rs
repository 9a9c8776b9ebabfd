//! The compile tier against the evaluator: the same programs, run with the tier on and off,
//! give the same values and the same errors (kind, message, span and call trace).
//!
//! Programs come from two places: hand-written cases for each construct and guarantee the tier
//! has (recursion, loops, branches, errors raised inside compiled code, the depth limit,
//! redefinitions, interrupts), and scalar functions generated from a grammar of the language,
//! which also checks that the tier compiles a good share of them rather than refusing all.

use difflab_lang::{Capture, Config, Interp, Source, Value};
use difflab_syntax::Name;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Scalar functions generated from a grammar of the language.
#[path = "compile_tier/generated.rs"]
mod generated;

/// How a session runs compiled methods.
#[derive(Clone, Copy)]
enum Tier {
    /// As machine code.
    Native,
    /// On the register machine.
    Machine,
    /// Not at all: the evaluator runs everything.
    Off,
}

fn interp(tier: Tier) -> Interp {
    let mut interp = Interp::new(Config::default(), Box::new(Capture::default()));
    interp.compiled.enabled = !matches!(tier, Tier::Off);
    interp.compiled.native = matches!(tier, Tier::Native);
    interp
}

/// Runs `program` in `interp`; its value or its error, as text that tells every bit apart.
fn run(interp: &mut Interp, program: &str) -> String {
    let parsed = difflab_syntax::parse(program).expect("the program parses");
    let source = Rc::new(Source {
        name: "test".into(),
        text: program.into(),
    });
    match interp.run(&parsed, source) {
        Ok(v) => exact(&v),
        Err(e) => format!("error: {}", e.render()),
    }
}

fn exact(v: &Value) -> String {
    match v {
        Value::Int(i) => format!("Int {i}"),
        Value::Float(x) => format!("Float {x} ({:x})", x.to_bits()),
        Value::Bool(b) => format!("Bool {b}"),
        Value::Nothing => "nothing".into(),
        Value::Tuple(items) => items.iter().map(exact).collect::<Vec<_>>().join(", "),
        Value::Array(a) => {
            let a = a.borrow();
            let bits: Vec<u64> = a.data.to_col_major().iter().map(|x| x.to_bits()).collect();
            format!("{} {:?} {bits:x?}", v.type_name(), a.data.shape())
        }
        other => format!("other {}", other.type_name()),
    }
}

/// Runs the steps in a session running compiled methods as machine code, one running them on
/// the register machine and one with the tier off; each step must give the same in all
/// three. Gives the number of methods the tier compiled.
fn agree(steps: &[&str]) -> usize {
    let steps: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
    // The evaluator's recursion limit assumes the engine thread's stack.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut native = interp(Tier::Native);
            let mut machine = interp(Tier::Machine);
            let mut off = interp(Tier::Off);
            for step in &steps {
                let expected = run(&mut off, step);
                assert_eq!(
                    run(&mut native, step),
                    expected,
                    "machine code disagrees on\n{step}"
                );
                assert_eq!(
                    run(&mut machine, step),
                    expected,
                    "the register machine disagrees on\n{step}"
                );
            }
            // With the tier off no compiled code runs: methods are compiled there only to type
            // the results of empty loops (Julia's inference), which run no code.
            assert!(off.compiled.count() < native.compiled.count().max(1));
            assert!(native.compiled.native, "machine code was generated");
            assert_eq!(native.compiled.count(), machine.compiled.count());
            native.compiled.count()
        })
        .expect("a thread starts")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

#[test]
fn recursion_and_loops_compile_and_agree() {
    let compiled = agree(&[
        "fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)",
        "fib(20)",
        "function total(n)
            s = 0.0
            for i in 1:n
                s += i * 0.5
            end
            s
        end",
        "total(1000)",
        "function collatz(n)
            steps = 0
            while n != 1
                n = iseven_(n) ? n ÷ 2 : 3n + 1
                steps += 1
            end
            return steps
        end
        iseven_(n) = n % 2 == 0",
        "collatz(27)",
        "function nested(n)
            c = 0
            for i in 1:n, j in i:2:n
                j == 7 && continue
                c += i * j
                c > 500 && break
            end
            c
        end",
        "nested(10), nested(3), nested(0)",
        "f(x) = sin(x)^2 + cos(x)^2 + max(x, 2) - min(1, x) + abs(-x) + float(3) + sqrt(abs(x))",
        "f(0.3), f(2), f(true)",
        "g(x) = x > 0 && x < 10 || x == -1",
        "g(5), g(-1), g(11)",
    ]);
    assert!(compiled >= 8, "only {compiled} methods compiled");
}

#[test]
fn methods_reading_arrays_compile_and_agree() {
    let compiled = agree(&[
        "function sumsq(x)
            s = 0.0
            for i in eachindex(x)
                s += x[i]^2
            end
            s
        end",
        "sumsq([1.0, 2.0, 3.0]), sumsq(Float64[]), sumsq([1, 2]), sumsq([true, false, true])",
        "function rosenbrock(x)
            s = 0.0
            for i in 1:length(x)-1
                s += 100 * (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
            end
            s
        end",
        "rosenbrock([1.0, 2.0, -0.5, 3.0])",
        "limit(a, N) = a == N + 1 ? 1 : a == 0 ? N : a",
        "function stencil(u, i, j)
            N = size(u, 1)
            ip, im = limit(i + 1, N), limit(i - 1, N)
            u[ip, j, 1] + u[im, j, 1] - 4u[i, j, 2] + u[end, end, end] + u[end]
        end",
        "u = reshape(collect(1.0:18.0), 3, 3, 2)",
        "stencil(u, 1, 2), stencil(u, 3, 3)",
        "function weighted(A, w)
            t = 0.0
            for j in axes(A, 2), i in axes(A, 1)
                t += A[i, j] * w[j] + A[(j - 1) * size(A, 1) + i]
            end
            t + firstindex(w) + lastindex(w) + size(A, 3)
        end",
        "weighted([1.0 2.0; 3.0 4.0], [10, 20])",
        "pick(x, i) = x[i]",
        // Out of bounds, a zero and a negative index, a wrong number of indices and a
        // non-integer index: the evaluator's errors.
        "pick([1.0, 2.0], 3)",
        "pick([1.0, 2.0], 0)",
        "pick([1.0 2.0; 3.0 4.0], -1)",
        "three(A) = A[1, 1, 1]",
        "three([1.0 2.0; 3.0 4.0])",
        "at(A, i, j) = A[i, j]",
        "at([1.0 2.0; 3.0 4.0], 2, 3)",
        "at([1.0 2.0; 3.0 4.0], 3, 1)",
        "pick([1.0, 2.0], 1.0)",
        // Arrays that are not read in place run as written: adjoints, views, numbers
        // carrying derivatives.
        "sumsq([1.0, 2.0]'), sumsq(view([1.0, 2.0, 3.0], 2:3))",
        "gradient(sumsq, AutoForwardDiff(), [1.0, 2.0])",
        // An array changed between calls is read anew.
        "v = [1.0, 2.0]; a = sumsq(v); v[1] = 3.0; a, sumsq(v)",
    ]);
    assert!(compiled >= 6, "only {compiled} methods compiled");
}

#[test]
fn methods_writing_arrays_compile_and_agree() {
    let compiled = agree(&[
        "function fill_squares!(y, x)
            for i in eachindex(x)
                y[i] = x[i]^2
            end
            y
        end",
        "fill_squares!(zeros(3), [1.0, 2.0, 3.0])",
        "ys = zeros(2, 2); fill_squares!(ys, [1.0 2.0; 3.0 4.0]); ys",
        // Conversions on the way in: an Int or a Bool into Float64, a Bool into Int64; the
        // value of an indexed assignment is the value assigned.
        "function mixed!(f, n, b)
            f[1] = 2
            f[2] = true
            n[1] += 5
            n[2] = false
            b[1] = n[1] > 3
            f[3] = n[1] * 0.5
            v = (n[3] = 7)
            v + f[1]
        end",
        "f = zeros(3); n = [1, 2, 3]; b = [false, true]",
        "mixed!(f, n, b), f, n, b",
        // The same array twice, and a copy that shares its numbers until written.
        "function swap!(p, q)
            t = p[1]
            p[1] = q[2]
            q[2] = t
            p[1] + q[1]
        end",
        "u = [1.0, 2.0]; c = copy(u)",
        "swap!(u, u), u, c",
        "swap!(c, [5.0, 6.0]), c, u",
        // An error after some writes: the evaluator runs the call again from the arrays as
        // they were, so the writes before the error happen once.
        "function count_up!(y, n)
            for i in 1:n
                y[i] += 1.0
            end
            y
        end",
        "w = zeros(3)",
        "count_up!(w, 5)",
        "w",
        "count_up!(w, 2)",
        "function deep!(y, k)
            y[1] += 1.0
            k == 0 ? sqrt(-y[1]) : deep!(y, k - 1)
        end",
        "z = [1.0]",
        "deep!(z, 3)",
        "z",
        // Many writes to the same places (the undo log keeps the first of each).
        "function spin!(y, n)
            k = 0
            while k < n
                k += 1
                y[1 + k % 3] = k
            end
            y
        end",
        "spin!(zeros(3), 10^5)",
        "spin!(zeros(2), 10^5)",
        // Writes a method cannot compile stay interpreted: a Float64 into an Int64 array.
        "half!(n) = (n[1] = 0.5; n)",
        "half!([1, 2])",
        // A 3-dimensional stencil with a helper, as SciML writes the Brusselator.
        "limit(a, N) = a == N + 1 ? 1 : a == 0 ? N : a",
        "function stencil!(du, u)
            N = size(u, 1)
            for i in 1:N, j in 1:N
                ip, im = limit(i + 1, N), limit(i - 1, N)
                x, y = u[i, j, 1], u[i, j, 2]
                du[i, j, 1] = u[ip, j, 1] + u[im, j, 1] - 2x + x^2 * y
                du[i, j, 2] = x - y
            end
            nothing
        end",
        "U = reshape(collect(1.0:18.0), 3, 3, 2); dU = zeros(3, 3, 2); stencil!(dU, U); dU",
    ]);
    assert!(compiled >= 6, "only {compiled} methods compiled");
}

#[test]
fn errors_inside_compiled_code_are_the_evaluators() {
    agree(&[
        "h(x) = sqrt(x - 1.0)",
        "k(n) = n == 0 ? h(0.0) : k(n - 1) + 1.0",
        "k(3)",
        "d(a, b) = a ÷ b",
        "d(7, 0)",
        "d(typemin(Int), -1)",
        "p(a, b) = a^b",
        "p(2, -1), p(-8.0, 1 / 3)",
        "p(-8.0, 1 / 3)",
        "r(x) = -2 ^ x",
        "r(62), r(63), r(64)",
        "deep(n) = n == 0 ? 0 : 1 + deep(n - 1)",
        "deep(100)",
        "deep(10^6)",
        "deep(200)",
        "bad(n) = n ? 1 : 2",
        "bad(1)",
        "function after(n)
            for i in 1:n
                t = i
            end
            return t
        end",
        "after(3)",
        "t = 5.0",
        "after(3)",
        "function unsure(c)
            if c
                y = 1
            end
            y
        end",
        "unsure(true)",
        "unsure(false)",
        "step(n) = sum_(1:0:n)",
        "function zerostep(n)
            s = 0
            for i in 1:0:n
                s += i
            end
            s
        end",
        "zerostep(3)",
    ]);
}

#[test]
fn types_that_change_and_redefinitions_stay_right() {
    agree(&[
        "function widen(n)
            s = 0
            for i in 1:n
                s += i / 2
            end
            s
        end",
        "widen(5)",
        "twice(x) = 2x",
        "use(x) = twice(x) + 1",
        "use(3), use(1.5)",
        "twice(x) = 3x",
        "use(3), use(1.5)",
        "twice(x::Int) = 10x",
        "use(3), use(1.5)",
        "s2(x) = sqrt(x) + π",
        "s2(4.0)",
        "sqrt = 5.0",
        "s2(4.0)",
        "π = 3",
        "k2(x) = x * π",
        "k2(2)",
        "import Base: sin",
        "struct Wrap; v::Float64; end",
        "Base.sin(w::Wrap) = w.v",
        "s1(x) = sin(x)",
        "s1(0.5), s1(Wrap(2.0))",
        "sign_of(x) = x > 0 ? 1 : x < 0 ? -1 : 0",
        "sign_of(3), sign_of(-2.5), sign_of(0)",
        "loop_only(n) = for i in 1:n end",
        "loop_only(4)",
        "early(x) = (x > 1 && return 1.0; 2.0)",
        "early(2), early(0)",
    ]);
}

#[test]
fn top_level_loops_agree() {
    let compiled = agree(&[
        "s = 0.0; c = 0; b = true",
        "for i in 1:1000; s += i * 0.5; c += i; b = !b; end",
        "s, c, b",
        "while c > 10; global c ÷= 3; end",
        "while c < 100; global c += 7; global s; s -= 1.0; end; c, s",
        "for i in 1:2; global fresh = i; end",
        "c",
        "for i in 1:3; t = i * 2; end",
        "t",
        "k = 1; for i in 1:3; k = k * 2.5; end; k",
        "sq(x) = x * x",
        "for i in 1:10; s += sq(i); end; s",
        "x = 0.0",
        "for i in 1:3; x += sqrt(1.0 - i); end",
        "x",
        "for i in 1:3, j in i:3; c += i * j; j > 2 && break; end; c",
        "i = 100; for i in 1:3; c += i; end; i, c",
        "for i in 1:3; return i; end",
        "for i in 1:0:3; c += 1; end",
        "c",
        // Globals the loop does not hold in registers, assigned: the globals change (found by
        // the `tiers` fuzz target, where the compiled loop made a local of each).
        "v = [1.0, 2.0]; w = \"text\"; for i in 1:3; v = i; w = 2.5; end",
        "v, w",
    ]);
    assert!(compiled >= 6, "only {compiled} loops and methods compiled");
}

#[test]
fn local_closures_compile_in_place_and_agree() {
    let compiled = agree(&[
        "function calls_closure(n)
            g = x -> x + 1
            s = 0
            for i in 1:n
                s = g(s)
            end
            s
        end",
        "calls_closure(1000)",
        // Captures by reference: a parameter, a variable changed after the definition, and
        // one the closure assigns.
        "function scaled(n, a)
            h = x -> a * x
            s = 0.0
            for i in 1:n
                s += h(i)
            end
            s
        end",
        "scaled(10, 0.5)",
        "function later(n)
            a = 1.0
            h = x -> a * x
            s = 0.0
            for i in 1:n
                a = i * 0.5
                s += h(2.0)
            end
            s + a
        end",
        "later(10)",
        "function counter(n)
            c = 0
            bump = () -> (c += 1)
            for i in 1:n
                bump()
            end
            c
        end",
        "counter(7)",
        // One local function calling an earlier one, two parameters, locals of its own, a
        // parameter shadowing a local, a closure defined in a loop over the loop's variable,
        // and a loop with `break` in a closure's body.
        "function hypotenuses(n)
            sq = x -> x * x
            hyp = (a, b) -> (t = sq(a) + sq(b); sqrt(t))
            s = 0.0
            for i in 1:n
                s += hyp(i, 2i)
            end
            s
        end",
        "hypotenuses(20)",
        "function shadow(n)
            x = 100
            h = x -> x + 1
            h(n) + x
        end",
        "shadow(5)",
        "function in_loop(n)
            s = 0
            for i in 1:n
                h = k -> k * i
                s += h(2)
            end
            s
        end",
        "in_loop(6)",
        "function first_big(n)
            f = m -> begin
                t = 0
                for j in 1:m
                    t += j
                    if t > 10
                        break
                    end
                end
                t
            end
            f(n) + f(2)
        end",
        "first_big(100)",
    ]);
    assert_eq!(
        compiled, 8,
        "every method above compiles, closures lowered in place"
    );
    // Closures used any other way keep their method in the evaluator, with its answers. The
    // evaluator then calls the closure itself, which compiles (the count) when what its body
    // reads of the frames it captured are numbers.
    let refused = [
        // Reads a local created after the closure, while a global of that name exists.
        ("b = 1000; function after(n); h = x -> x + b; b = 2; h(n); end; after(5)", 1),
        ("function recursive(n); f = k -> k <= 0 ? 0 : k + f(k - 1); f(n); end; recursive(10)", 0),
        ("function early(n); f = k -> (k > 2 && return 1; 0); f(n) + f(1); end; early(5)", 0),
        ("function rebound(n); f = x -> x + 1; f = x -> x + 2; f(n); end; rebound(1)", 1),
        ("function wrong_arity(n); f = (a, b) -> a + b; f(n); end; wrong_arity(1)", 0),
        ("function either(n); if n > 0; f = x -> x; else; f = x -> -x; end; f(n); end; either(-3)", 1),
        ("function annotated(n); f = (x::Float64) -> x; f(n); end; annotated(2)", 0),
        ("function returned(n); f = x -> x * n; f; end; returned(2)(4)", 1),
        ("function passed(n); f = x -> x + 1; sum(map(f, 1:n)); end; passed(4)", 1),
    ];
    for (program, closures) in refused {
        assert_eq!(agree(&[program]), closures, "{program}");
    }
    // An error raised inside a closure's body is the evaluator's, with its spans and trace.
    agree(&[
        "function domain(n); f = x -> sqrt(x); f(-n * 1.0); end",
        "domain(2)",
    ]);
    // A global function of the closure's name, called before the local one is bound.
    agree(&[
        "g(x) = 1000x",
        "function both(n); r = g(n); g = x -> x + 1; r + g(n); end",
        "both(3)",
    ]);
}

#[test]
fn closures_called_by_builtins_compile_while_their_frames_bind_nothing_they_use() {
    // A lambda made inside a function or a loop (so every call makes a new closure) and
    // called by a builtin per element compiles once for its definition.
    let compiled = agree(&[
        "v = [0.5 * i for i in 1:50]",
        "function squares(v); sum(x -> x^2 + 1, v); end",
        "squares(v), squares(v)",
        "function doubled(v); sum(map(x -> 2x, v)); end",
        "doubled(v)",
        "tot = 0.0",
        "for k in 1:3; global tot += sum(x -> x * 2.0, v); end; tot",
    ]);
    assert!(compiled >= 3, "only {compiled} closures compiled");
    // A name the closure reads or assigns that its frames bind: the evaluator's binding,
    // whether the frame held it when the closure was compiled or gained it later.
    let steps = [
        "v = [0.5 * i for i in 1:5]; b = 10.0",
        "function shadowed(v); sin = x -> 2x; sum(map(x -> sin(x), v)); end; shadowed(v)",
        "function captured(v, a); sum(map(x -> a * x, v)); end; captured(v, 3.0)",
        "function counted(v); c = 0; foreach(x -> (c += 1), v); c; end; counted(v)",
        "function written(v); t = 5.0; m = sum(map(x -> (t = x; t * 2), v)); m + t; end; written(v)",
        "function later(v); g = x -> x + b; r1 = sum(map(g, v)); b = 2.0; r2 = sum(map(g, v)); r1 + 100r2; end; later(v)",
        "function gained(v); g = x -> (t = x; t * 2); r = sum(map(g, v)); t = 1.0; r2 = sum(map(g, v)); r + r2 + t; end; gained(v)",
        "for k in 1:3; global tot2 = sum(x -> x * k, v); end; tot2",
        // Captured numbers are read at each call, by reference, and a change of their type
        // runs the closure in the evaluator.
        "function byref(v); a = 1.0; g = x -> a * x; r = sum(map(g, v)); a = 3.0; r + 10sum(map(g, v)); end; byref(v)",
        "function retyped(v); a = 1; g = x -> a * x; r = sum(map(g, v)); a = 2.5; r + sum(map(g, v)); end; retyped(v)",
        "function shifted(v, p); b = 2p; sum(x -> (x - p)^2 + b, v); end; shifted(v, 1.5), shifted(v, 2)",
        "function bumped(v); a = 1.0; foreach(x -> (a += x), v); a; end; bumped(v)",
    ];
    let compiled = agree(&steps);
    assert!(compiled >= 4, "only {compiled} closures compiled");
}

#[test]
fn broadcasts_and_maps_of_user_functions_run_compiled_loops_and_agree() {
    let compiled = agree(&[
        "v = [0.5 * i - 3 for i in 1:40]; n = collect(1:40); m = [i + 2j for i in 1:3, j in 1:4]",
        "flags = iseven.(n)",
        "g(x) = 2x + 1",
        "g.(v), g.(n), g.(m), g.(flags)",
        "h(x, y) = x > y ? x - y : y",
        "h.(v, 1.5), h.(n, v), h.(3, n), map(h, v, v)",
        "positive(x) = x > 0",
        "positive.(v), map(positive, n), sum(positive, v)",
        "count(positive, v), filter(positive, v), filter(positive, m), any(positive, n), all(positive, v)",
        "findfirst(positive, v), count(x -> x > 2.5, v), filter(x -> iseven(x), n)",
        // A predicate that is not one: the evaluator's `TypeError`.
        "count(g, v)",
        "sum(x -> x^2 + 1, v), sum(x -> x^2, n), map(x -> x * 0.5, m)",
        "function scaled(v, a); b = 2a; map(x -> a * x + b, v); end",
        "scaled(v, 1.5), scaled(n, 2)",
        // An error in the middle: the evaluator's, with its spans.
        "root(x) = sqrt(x)",
        "root.(v)",
        "map(root, v)",
        // Ranges, of integers and of floats (their elements as iterating computes them).
        "g.(1:5), map(g, 0.1:0.1:1.0), sum(x -> 1 / x^2, 1:1000), count(positive, -3:4), filter(iseven, 1:9)",
        "h.(1:4, [1.0, 2.0, 3.0, 4.0]), sum(i -> i * 0.5, 1:0), map(g, range(0, 1, length=7))",
        // An integer result an array cannot hold exactly: the evaluator's `InexactError`.
        "map(x -> x * 4611686018427387904, [1, 2])",
        // Empty and zero-dimensional arrays.
        "g.(Float64[]), map(g, Int[]), sum(g, Float64[]), filter(positive, Float64[]), g.(fill(2.5))",
        // Shapes that differ broadcast as written.
        "h.(v, [1.0])",
        "h.(m, [1, 2, 3])",
        // A function that returns an array runs as written.
        "k(x) = [x]",
        "k.(v[1:3])",
    ]);
    assert!(compiled >= 8, "only {compiled} methods compiled");
}

#[test]
fn comprehensions_over_arrays_and_ranges_run_compiled_loops_and_agree() {
    let compiled = agree(&[
        "v = [0.5 * i - 3 for i in 1:40]; n = collect(1:40); m = [i + 2j for i in 1:3, j in 1:4]",
        "[x^2 + 1 for x in v], [2x for x in n], [x > 2 for x in m], [!b for b in n .> 3]",
        "function shifted(v, a); b = 2a; [a * x + b for x in v]; end",
        "shifted(v, 1.5), shifted(n, 2), shifted(m, 0.5)",
        "sum(x^2 for x in v), sum(1 / i^2 for i in 1:1000), [i * 0.5 for i in 0.1:0.1:1.0]",
        "basel(n) = sum(1 / i^2 for i in 1:n)",
        "basel(10), basel(0)",
        // The square of an integer is a wrapping product, of a `Bool` an `Int`.
        "square(i) = i^2",
        "square(3037000500), square(-7), square(true), square(2.5), [i^2 for i in -3:3]",
        // A comprehension has its iterable's shape: a matrix, none for a number.
        "[x + 1 for x in m], [x for x in 5], [x * y for x in 1:2, y in m]",
        // Several clauses: every combination, the first fastest, of vectors and ranges; an
        // iterable that is a matrix, or names used twice, run as written.
        "grid(n) = [sin(0.1i) * cos(0.2j) for i in 1:n, j in 1:n]",
        "grid(3), grid(0), [i + 10j for i in 1:3, j in [1.5, 2.5]], [i * j * k for i in 1:2, j in n[1:3], k in 0:0.5:1]",
        "[x * y for x in 1:2, y in m], [x + x for x in 1:2, x in 1:3], [i > j for i in 1:3, j in 1:3]",
        // Sizes beyond the memory, and beyond the address space.
        "[i * j for i in 1:10^10, j in 1:10^10]",
        "[i * j * k for i in 1:2^22, j in 1:2^22, k in 1:2^22]",
        // Iterables are evaluated once, before any element, so one cannot use another's name.
        "[i + j for i in 1:3, j in 1:i]",
        // An error in the middle: the evaluator's, with its spans.
        "[sqrt(x) for x in v]",
        "[sqrt(x - y) for x in 1:3, y in 1:3]",
        "[x * 4611686018427387904 for x in [1, 2]]",
        // Empty and zero-dimensional arrays, filters, several clauses, tuple patterns, bodies
        // that write a variable outside or make arrays: all as written.
        "[x + 1 for x in Float64[]], [x for x in fill(2.5)], [x for x in v if x > 0]",
        "[x + y for x in 1:3 for y in 1:x], [a * b for (a, b) in zip(v, n)]",
        "function running(v); s = 0.0; [(s += x) for x in v]; end",
        "running(v)",
        "[[x] for x in n], [string(x) for x in 1:3], [x for x in (1, 2.5)]",
        // Reductions fold a generator as its compiled loop produces it: stopping early, and
        // starting again as written when the code traps in the middle.
        "any(x > 3 for x in v), all(x > -5 for x in v), count(x > 0 for x in v), first(x^2 for x in v)",
        "mean(x for x in n), maximum(x for x in n), minimum(abs(x) for x in v), prod(x for x in 1:20)",
        "sum(x * 4611686018427387904 for x in [1, 2]), sum(i * j for i in 1:3, j in v), sum(x > 0 for x in v)",
        "sum(sqrt(x) for x in v)",
        "maximum(x < 0 ? x : 0.5x for x in v; init = -1)",
    ]);
    assert!(compiled >= 4, "only {compiled} comprehensions compiled");
}

#[test]
fn closures_reading_captured_arrays_run_compiled_loops_and_agree() {
    let compiled = agree(&[
        "v = [0.5 * i - 3 for i in 1:40]; n = collect(1:40); m = [i + 2j for i in 1:3, j in 1:4]",
        "function dotg(a, b); sum(a[i] * b[i] for i in eachindex(a)); end",
        "dotg(v, v), dotg(n, n), dotg(v, n)",
        "function around(v); [v[i] + v[end] - v[1] for i in 2:length(v)]; end",
        "around(v), around(n)",
        "function mapped(v, m); map(i -> v[i] * m[1, 2] + size(m, 2), 1:length(v)); end",
        "mapped(v, m), mapped(n, m)",
        // Out of bounds in the middle: the evaluator's error, with its spans.
        "function beyond(v); sum(v[i + 1] for i in 1:length(v)); end",
        "beyond(v)",
        // A closure writing a captured array runs as written, one call at a time.
        "function doubling(v); map(i -> (v[i] = 2.0 * v[i]; v[i]), 1:3); end",
        "w = copy(v); doubling(w), w[1:4]",
        // The captured array changes type between calls: compiled again, or as written.
        "function reader(); x = [1.5, 2.5]; g = i -> x[i] * 2; r = g.(1:2); x = [1, 2]; (r, g.(1:2)); end",
        "reader()",
        // At top level, the session's arrays are read the same way, at each call.
        "sum(v[i] * n[i] for i in eachindex(v)), [v[i] + m[1, i] for i in 1:4], map(i -> v[i]^2, 1:3)",
        "g = i -> v[i] * 2; (g(3), g.(1:3))",
        "v = [1, 2, 3]; g.(1:3)",
        "v = 5; g(1)",
        "v = [0.5, 1.5]; foreach(i -> (v[i] = v[i] + 1), 1:2); v",
    ]);
    assert!(
        compiled >= 3,
        "only {compiled} closures reading arrays compiled"
    );
}

#[test]
fn a_comprehension_compiles_its_body_once_and_reuses_it() {
    let mut interp = interp(Tier::Native);
    run(&mut interp, "v = [1.0, 2.0, 3.0]");
    assert_eq!(interp.compiled.count(), 0);
    // `f` and `g` read an array global, so they stay in the evaluator: what compiles is each
    // comprehension's body, once, and not again when it runs again.
    run(
        &mut interp,
        "f() = [x^2 + 1 for x in v]; g() = [i * j for i in 1:2, j in v]",
    );
    run(&mut interp, "f(); f(); g()");
    let after = interp.compiled.count();
    assert_eq!(after, 2, "the two bodies");
    run(&mut interp, "f(); g()");
    assert_eq!(interp.compiled.count(), after);
}

#[test]
fn methods_reading_global_numbers_see_their_changes() {
    let compiled = agree(&[
        "rate = 1.0; scaled(x) = x * rate; total = 0.0",
        "scaled(2.0)",
        // A top-level loop changing the global: the method sees each change.
        "for i in 1:3; global rate += 1.0; global total += scaled(1.0); end; total, rate",
        "rate = 10; scaled(2.0)",
        // A global bound again after a method took it is read as written from then on, so
        // a loop changing it does not compile the method again at every change.
        "function bump(n); for i in 1:n; global rate = i; scaled(1.0); end; rate; end",
        "bump(500), scaled(3.0)",
    ]);
    assert!(compiled < 10, "{compiled} compilations");
}

#[test]
fn a_compiled_loop_answers_an_interrupt_quickly() {
    for tier in [Tier::Native, Tier::Machine] {
        interrupted_loop(tier);
    }
}

/// Runs `program` (which loops forever), interrupts it after 200 ms, and checks that it
/// stopped with `InterruptException` within 100 ms, compiled.
fn interrupt(interp: &mut Interp, program: &str) {
    let before = interp.compiled.count();
    let flag = interp.interrupt.clone();
    let raised = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::Relaxed);
        Instant::now()
    });
    let answer = run(interp, program);
    let latency = raised.join().expect("the thread ran").elapsed();
    assert!(answer.contains("InterruptException"), "{answer}");
    assert!(latency < Duration::from_millis(100), "{latency:?}");
    assert_eq!(
        interp.compiled.count(),
        before + 1,
        "{program} ran compiled"
    );
    assert!(!interp.interrupt.load(Ordering::Relaxed));
}

fn interrupted_loop(tier: Tier) {
    let mut interp = interp(tier);
    run(&mut interp, "spin(n) = (s = 0; while true; s += n; end; s)");
    interrupt(&mut interp, "spin(1)");
    assert_eq!(run(&mut interp, "1 + 1"), "Int 2", "the session goes on");

    // A top-level loop is compiled too, and keeps what it did until the interrupt.
    run(&mut interp, "total = 0");
    interrupt(&mut interp, "while true; total += 1; end");
    let total = run(&mut interp, "total");
    assert!(total != "Int 0" && total.starts_with("Int "), "{total}");
}

#[test]
fn the_tier_is_on_by_default_and_counts_what_it_compiled() {
    let mut interp = Interp::new(Config::default(), Box::new(Capture::default()));
    assert!(interp.compiled.enabled);
    run(&mut interp, "sq(x) = x * x");
    let f = interp.global(Name::new("sq")).expect("defined").clone();
    let v = interp
        .call(&f, vec![Value::Float(3.0)])
        .ok()
        .expect("it runs");
    assert_eq!(exact(&v), "Float 9 (4022000000000000)");
    assert_eq!(interp.compiled.count(), 1);
}
