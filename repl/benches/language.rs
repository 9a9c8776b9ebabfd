//! Language speed, side by side with a baseline measured in the same run:
//! - a scalar loop at top level, and scalar code in functions (recursive `fib`, a loop, a loop
//!   calling a small function, a loop reading an array, one writing into an array) that the
//!   compile tier runs, a loop calling a local closure, a builtin calling a lambda per element,
//!   a comprehension and generators (one reading the arrays its body captures),
//!   and general code the evaluator runs (a `Dict` of strings, a vector of structs, a
//!   `Vector{Any}`), against CPython 3 running the same code;
//! - a fused broadcast `sum(x .^ 2 .+ 2 .* x)` against a native Rust loop;
//! - `difflab -e '1+1'` wall time (start-up) against `python3 -c 1+1`.
//!
//! Run with `cargo bench -p difflab-repl --bench language`; results are recorded in
//! `docs/benchmarks.md` as ratios.

use difflab_session::{ExecuteOptions, Session};
use std::process::Command;
use std::time::{Duration, Instant};

/// The median of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn run(session: &mut Session, code: &str) {
    let options = ExecuteOptions {
        show_result: false,
        store_history: false,
        source_name: None,
    };
    let (outcome, events) = session.execute_collect(code, &options);
    assert!(!outcome.failed, "{code}: {events:?}");
}

/// CPython's time for `code`, after running `setup` untimed.
fn python_seconds(setup: &str, code: &str) -> Option<f64> {
    let program = format!(
        "{setup}\nimport time\nt = time.perf_counter()\n{code}\nprint(time.perf_counter() - t)"
    );
    let out = Command::new("python3")
        .args(["-c", &program])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

fn report(name: &str, ours: Duration, theirs: Duration, peer: &str) {
    println!(
        "| {name} | {:.3} ms | {peer} {:.3} ms | {:.2}× |",
        ours.as_secs_f64() * 1e3,
        theirs.as_secs_f64() * 1e3,
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
}

/// Times `(setup, code)` in difflab and in CPython (medians of five runs) and reports them.
fn against_python(session: &mut Session, name: &str, ours: (&str, &str), python: (&str, &str)) {
    run(session, ours.0);
    run(session, ours.1);
    let time = median(5, || run(session, ours.1));
    let mut theirs: Vec<f64> = (0..5)
        .filter_map(|_| python_seconds(python.0, python.1))
        .collect();
    theirs.sort_by(f64::total_cmp);
    if let Some(&p) = theirs.get(theirs.len() / 2) {
        report(name, time, Duration::from_secs_f64(p), "CPython");
    }
}

fn main() {
    println!("| benchmark | difflab | baseline | difflab / baseline |");
    println!("|---|---|---|---|");
    let mut session = Session::new();

    let scalar_loop = "s = 0.0; for i in 1:10^7; s += i * 0.5; end";
    against_python(
        &mut session,
        "scalar loop, 10⁷ iterations (top level)",
        ("", scalar_loop),
        (
            "",
            "s = 0.0\nfor i in range(1, 10**7 + 1):\n    s += i * 0.5",
        ),
    );
    against_python(
        &mut session,
        "`fib(27)`, recursive",
        ("fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)", "fib(27)"),
        (
            "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)",
            "fib(27)",
        ),
    );
    against_python(
        &mut session,
        "scalar loop, 10⁷ iterations (in a function)",
        (
            "function total(n)\n s = 0.0\n for i in 1:n\n  s += i * 0.5\n end\n s\nend",
            "total(10^7)",
        ),
        (
            "def total(n):\n    s = 0.0\n    for i in range(1, n + 1):\n        s += i * 0.5\n    return s",
            "total(10**7)",
        ),
    );
    against_python(
        &mut session,
        "loop of 10⁶ calls of `sq(x) = x * x + 1.0`",
        (
            "sq(x) = x * x + 1.0\nfunction calls(n)\n s = 0.0\n for i in 1:n\n  s += sq(i * 0.5)\n end\n s\nend",
            "calls(10^6)",
        ),
        (
            "def sq(x):\n    return x * x + 1.0\ndef calls(n):\n    s = 0.0\n    for i in range(1, n + 1):\n        s += sq(i * 0.5)\n    return s",
            "calls(10**6)",
        ),
    );
    against_python(
        &mut session,
        "Rosenbrock as a loop over an array of 10⁶ numbers",
        (
            "function rosenbrock(x)\n s = 0.0\n for i in 1:length(x)-1\n  s += 100 * (x[i+1] - x[i]^2)^2 + (1 - x[i])^2\n end\n s\nend\nxs = [0.5 + 0.001i for i in 1:10^6]",
            "rosenbrock(xs)",
        ),
        (
            "def rosenbrock(x):\n    s = 0.0\n    for i in range(len(x) - 1):\n        s += 100 * (x[i+1] - x[i]**2)**2 + (1 - x[i])**2\n    return s\nxs = [0.5 + 0.001 * i for i in range(1, 10**6 + 1)]",
            "rosenbrock(xs)",
        ),
    );
    against_python(
        &mut session,
        "in-place periodic Laplacian `du[i, j] = …` over a 256 × 256 grid",
        (
            "function lap!(du, u)\n N = size(u, 1)\n for j in 1:N, i in 1:N\n  ip = i == N ? 1 : i + 1; im = i == 1 ? N : i - 1\n  jp = j == N ? 1 : j + 1; jm = j == 1 ? N : j - 1\n  du[i, j] = u[ip, j] + u[im, j] + u[i, jp] + u[i, jm] - 4u[i, j]\n end\n du\nend\nU = [sin(0.1i) * cos(0.2j) for i in 1:256, j in 1:256]; dU = zeros(256, 256)",
            "lap!(dU, U)",
        ),
        (
            "import math\ndef lap(du, u):\n    N = len(u)\n    for j in range(N):\n        for i in range(N):\n            ip = 0 if i == N - 1 else i + 1; im = N - 1 if i == 0 else i - 1\n            jp = 0 if j == N - 1 else j + 1; jm = N - 1 if j == 0 else j - 1\n            du[i][j] = u[ip][j] + u[im][j] + u[i][jp] + u[i][jm] - 4 * u[i][j]\n    return du\nU = [[math.sin(0.1 * i) * math.cos(0.2 * j) for j in range(1, 257)] for i in range(1, 257)]\ndU = [[0.0] * 256 for _ in range(256)]",
            "lap(dU, U)",
        ),
    );
    against_python(
        &mut session,
        "loop of 10⁶ calls of a local closure `g = x -> x + 1`",
        (
            "function closure_calls(n)\n g = x -> x + 1\n s = 0\n for i in 1:n\n  s = g(s)\n end\n s\nend",
            "closure_calls(10^6)",
        ),
        (
            "def closure_calls(n):\n    g = lambda x: x + 1\n    s = 0\n    for i in range(n):\n        s = g(s)\n    return s",
            "closure_calls(10**6)",
        ),
    );
    against_python(
        &mut session,
        "`sum(x -> x^2 + 1, v)` in a function, 10⁶ numbers",
        (
            "squares(v) = sum(x -> x^2 + 1, v)\nvs = [0.5 * i for i in 1:10^6]",
            "squares(vs)",
        ),
        (
            "def squares(v):\n    return sum(map(lambda x: x**2 + 1, v))\nvs = [0.5 * i for i in range(1, 10**6 + 1)]",
            "squares(vs)",
        ),
    );
    against_python(
        &mut session,
        "`[x^2 + 1 for x in v]` in a function, 10⁶ numbers",
        (
            "squares_list(v) = [x^2 + 1 for x in v]\nvs = [0.5 * i for i in 1:10^6]",
            "squares_list(vs)",
        ),
        (
            "def squares_list(v):\n    return [x**2 + 1 for x in v]\nvs = [0.5 * i for i in range(1, 10**6 + 1)]",
            "squares_list(vs)",
        ),
    );
    against_python(
        &mut session,
        "`sum(1 / i^2 for i in 1:n)` in a function, n = 10⁶",
        ("basel(n) = sum(1 / i^2 for i in 1:n)", "basel(10^6)"),
        (
            "def basel(n):\n    return sum(1 / i**2 for i in range(1, n + 1))",
            "basel(10**6)",
        ),
    );
    against_python(
        &mut session,
        "`sum(a[i] * b[i] for i in eachindex(a))` in a function, 10⁶ numbers",
        (
            "dot_gen(a, b) = sum(a[i] * b[i] for i in eachindex(a))\nda = [0.5 * i for i in 1:10^6]; db = [1.0 / i for i in 1:10^6]",
            "dot_gen(da, db)",
        ),
        (
            "def dot_gen(a, b):\n    return sum(a[i] * b[i] for i in range(len(a)))\nda = [0.5 * i for i in range(1, 10**6 + 1)]\ndb = [1.0 / i for i in range(1, 10**6 + 1)]",
            "dot_gen(da, db)",
        ),
    );
    against_python(
        &mut session,
        "the same generator at top level (a notebook cell)",
        ("", "sum(da[i] * db[i] for i in eachindex(da))"),
        (
            "da = [0.5 * i for i in range(1, 10**6 + 1)]\ndb = [1.0 / i for i in range(1, 10**6 + 1)]",
            "sum(da[i] * db[i] for i in range(len(da)))",
        ),
    );
    // General code, which the evaluator runs (strings, dictionaries, structs, `Vector{Any}`).
    against_python(
        &mut session,
        "counting 10⁶ string keys in a `Dict`",
        (
            "function tally(n)\n d = Dict{String, Int}()\n for i in 1:n\n  k = string(\"k\", i % 100)\n  d[k] = get(d, k, 0) + 1\n end\n length(d)\nend",
            "tally(10^6)",
        ),
        (
            "def tally(n):\n    d = {}\n    for i in range(1, n + 1):\n        k = 'k' + str(i % 100)\n        d[k] = d.get(k, 0) + 1\n    return len(d)",
            "tally(10**6)",
        ),
    );
    against_python(
        &mut session,
        "a vector of 10⁶ structs built with `push!`, then a loop over their fields",
        (
            "struct Pt\n x::Float64\n y::Float64\nend\nfunction points(n)\n v = Pt[]\n for i in 1:n\n  push!(v, Pt(i, 2i))\n end\n s = 0.0\n for p in v\n  s += p.x * p.y\n end\n s\nend",
            "points(10^6)",
        ),
        (
            "class Pt:\n    __slots__ = ('x', 'y')\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\ndef points(n):\n    v = []\n    for i in range(1, n + 1):\n        v.append(Pt(float(i), 2.0 * i))\n    s = 0.0\n    for p in v:\n        s += p.x * p.y\n    return s",
            "points(10**6)",
        ),
    );
    against_python(
        &mut session,
        "`push!` of 10⁶ numbers and strings into a `Vector{Any}`",
        (
            "function mixed(n)\n a = Any[]\n for i in 1:n\n  push!(a, iseven(i) ? i : \"s\")\n end\n length(a)\nend",
            "mixed(10^6)",
        ),
        (
            "def mixed(n):\n    a = []\n    for i in range(1, n + 1):\n        a.append(i if i % 2 == 0 else 's')\n    return len(a)",
            "mixed(10**6)",
        ),
    );

    run(&mut session, "x = rand(10^6);");
    let ours = median(21, || run(&mut session, "sum(x .^ 2 .+ 2 .* x)"));
    let data: Vec<f64> = (0..1_000_000).map(|i| (i as f64 * 0.618).fract()).collect();
    let native = median(21, || {
        let s: f64 = data.iter().map(|&v| v * v + 2.0 * v).sum();
        std::hint::black_box(s);
    });
    report(
        "sum(x .^ 2 .+ 2 .* x), n = 10⁶",
        ours,
        native,
        "native Rust loop",
    );

    let binary = env!("CARGO_BIN_EXE_difflab");
    let ours = median(11, || {
        let status = Command::new(binary)
            .args(["-e", "1+1"])
            .status()
            .expect("difflab runs");
        assert!(status.success());
    });
    let python = median(11, || {
        let _ = Command::new("python3").args(["-c", "1+1"]).status();
    });
    report("`difflab -e '1+1'` wall time", ours, python, "python3 -c");
}
