//! The code listings of the documents difflab is built from, copied here, must parse
//! (`using`/`import` lines included; `julia>` prompts and printed output are left out): the
//! DifferentiationInterface paper ("A Common Interface for Automatic Differentiation", 003
//! below) and docs, and the talk "Leveraging Sparsity to Accelerate Automatic Differentiation"
//! (002). Also: every prefix of a listing that ends at a line break either parses or is
//! incomplete, which is what lets the REPL ask for more lines.

mod common;

use difflab_syntax::parse;

/// Listing 1 of the DifferentiationInterface paper (003).
const LISTING_1: &str = r#"
using DifferentiationInterface
# change 2 lines to switch backends
import ForwardDiff
back = AutoForwardDiff()

f(x) = sum(abs2, x)
x = float.(1:5)
g = gradient(f, back, x)

gradient!(f, g, back, x) # in-place
y, g = value_and_gradient(f, back, x) # primal

prep = prepare_gradient(f, back, zero(x))
for iteration in 1:1000
    x -= 0.1 * gradient(f, prep, back, x) # fast
end
"#;

/// Listing 2 of the paper (003): switching backends within a Hessian computation.
const LISTING_2: &str = r#"
using DifferentiationInterface, Chairmarks
import ForwardDiff, ReverseDiff
using SparseArrays, SparseConnectivityTracer, SparseMatrixColorings

forward = AutoForwardDiff()
reverse = AutoReverseDiff(; compile=true)
sparsity_detector = TracerSparsityDetector()
coloring_algorithm = GreedyColoringAlgorithm()

f(x) = sum(diff(x) .^ 2)
xsmall, xbig, x0big = float.(1:5), float.(1:1000), zeros(1000)

back1 = forward

p1 = prepare_hessian(f, back1, x0big)
hessian(f, back1, xsmall)
@b hessian($f, $p1, $back1, $xbig)

back2 = SecondOrder(forward, reverse)

p2 = prepare_hessian(f, back2, x0big)
hessian(f, back2, xsmall)
@b hessian($f, $p2, $back2, $xbig)

back3 = AutoSparse(
    SecondOrder(forward, reverse);
    sparsity_detector,
    coloring_algorithm
)

p3 = prepare_hessian(f, back3, x0big)
hessian(f, back3, xsmall)
@b hessian($f, $p3, $back3, $xbig)
"#;

/// Listing 3 of the paper (003): comparing backends with DifferentiationInterfaceTest.
const LISTING_3: &str = r#"
using DifferentiationInterface, DifferentiationInterfaceTest
import Enzyme, ForwardDiff, Mooncake, ReverseDiff, Zygote

f(x) = sum(abs2, x)
x_candidates = [rand(10), rand(100), rand(1_000), rand(10_000)]

scenarios = [Scenario{:gradient,:out}(f, x; res1=2x) for x in x_candidates]

backends = [
    AutoEnzyme(; mode=Enzyme.Reverse),
    AutoForwardDiff(),
    AutoMooncake(; config=nothing),
    AutoReverseDiff(; compile=true),
    AutoZygote(),
]

df = benchmark_differentiation(backends, scenarios; benchmark=:full)
"#;

/// The sparsity talk (002): a first Jacobian with DifferentiationInterface.
const TALK_JACOBIAN: &str = r#"
using DifferentiationInterface
import ForwardDiff

f(x) = diff(x .^ 2) + diff(reverse(x .^ 2))
x = [1.0, 2.0, 3.0, 4.0, 5.0]

jacobian(f, AutoForwardDiff(), x)
"#;

/// The sparsity talk (002): composable first-order sparse AD (trailing spaces as printed).
const TALK_SPARSE_FIRST_ORDER: &str = "
backend = AutoEnzyme()
jacobian(f, backend, x) # AD
backend = AutoSparse(  \n    AutoEnzyme(),  \n    TracerSparsityDetector(), # from SCT  \n    GreedyColoringAlgorithm(), # from SMC  \n)  \njacobian(f, backend, x) # ASD
";

/// The sparsity talk (002): composable second-order sparse AD.
const TALK_SPARSE_SECOND_ORDER: &str = r#"
using DifferentiationInterface
using SparseConnectivityTracer
using SparseMatrixColorings
import ForwardDiff
import ReverseDiff

dense_backend = SecondOrder(
    AutoForwardDiff(), # outer backend
    AutoReverseDiff() # inner backend
)

sparse_backend = AutoSparse(
    dense_backend,
    TracerSparsityDetector(), # from SCT
    GreedyColoringAlgorithm() # from SMC
)
f(x) = sum(diff(x) .^ 2);
x = [1.0, 2.0, 3.0, 4.0];

hessian(f, dense_backend, x)
hessian(f, sparse_backend, x)
"#;

/// The sparsity talk (002): mixed mode, and the tracer example's function.
const TALK_MIXED_MODE: &str = "
backend = AutoSparse(  \n    MixedMode(fw_backend, rev_backend);  \n    sparsity_detector,  \n    bicoloring_algorithm  \n)  \n  \njacobian(f, backend, x)
import Base: +, *, /, sign
f(x) = [x[1] * x[2] * sign(x[3]), sign(x[3]) * x[4] / 2];
x = Tracer.(Set{Int}([1, 2, 3, 4]))
f(x)
";

/// A longer program in the style of the documents, exercising most of the language.
const PROGRAM: &str = r#"
using DifferentiationInterface
import ForwardDiff: derivative

"""
    rosenbrock(x; a=1, b=100)

The Rosenbrock function.
"""
function rosenbrock(x; a=1, b=100)
    s = 0.0
    for i in 1:length(x)-1
        s += (a - x[i])^2 + b * (x[i+1] - x[i]^2)^2
    end
    return s
end

"Squared norm."
sqnorm(x) = sum(abs2, x)

function descend!(x, f, backend; steps=100, lr=1e-3)
    prep = prepare_gradient(f, backend, zero(x))
    for k in 1:steps
        g = gradient(f, prep, backend, x)
        x .-= lr .* g
        if norm(g) < 1e-8
            @info "converged" k
            break
        elseif k == steps
            println("stopped after $steps steps, |g| = $(norm(g))")
        end
    end
    return x
end

x0 = [-1.2, 1.0]
A = [1 2; 3 4]
B = [1.0 -2.0
     3.0  4.0]
J = jacobian(x -> A * x .^ 2, AutoForwardDiff(), x0)
H = hessian(rosenbrock, SecondOrder(AutoForwardDiff(), AutoReverseDiff()), x0)
@assert H ≈ H' "the Hessian is symmetric"
t = @elapsed descend!(copy(x0), rosenbrock, AutoForwardDiff(); steps=10)
y = [f(i) for i in 1:3 if isodd(i)]
z = isempty(y) ? nothing : y[end]
try
    error("boom")
catch e
    println(stderr, "caught: ", e)
finally
    println("done")
end
let a = 2, b = 3
    global c = a * b
end
w = map((u, v) -> u + v, 1:3, 4:6) |> collect
mask = x0 .> 0
x0[mask] .= 0
v = Float64[]
push!(v, 2π)
"#;

const LISTINGS: &[(&str, &str)] = &[
    ("listing 1", LISTING_1),
    ("listing 2", LISTING_2),
    ("listing 3", LISTING_3),
    ("talk jacobian", TALK_JACOBIAN),
    ("talk sparse first order", TALK_SPARSE_FIRST_ORDER),
    ("talk sparse second order", TALK_SPARSE_SECOND_ORDER),
    ("talk mixed mode", TALK_MIXED_MODE),
    ("program", PROGRAM),
];

#[test]
fn listings_parse() {
    for (name, src) in LISTINGS {
        match parse(src) {
            Ok(block) => common::check_spans(src, &block),
            Err(e) => panic!("{name}: {} at {:?}", e.message(), e.span),
        }
    }
}

#[test]
fn listing_statement_counts() {
    let count = |src| parse(src).unwrap().len();
    assert_eq!(count(LISTING_1), 10);
    assert_eq!(count(LISTING_3), 7);
    assert_eq!(count(TALK_JACOBIAN), 5);
}

#[test]
fn listing_shapes() {
    let lines = common::sexpr(LISTING_1);
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(
        lines[3],
        "(function f (params x) (block (call sum abs2 x)))"
    );
    assert_eq!(
        lines[7],
        "(= (tuple y g) (call value_and_gradient f back x))"
    );
    assert_eq!(
        lines[9],
        "(for (iter (= iteration (range 1 1000))) (block (-= x (* 0.1 (call gradient f prep back x)))))"
    );
    let program = common::sexpr(PROGRAM);
    assert!(program.contains("(function (doc \"    rosenbrock(x; a=1, b=100)\\n\\nThe Rosenbrock function.\\n\") rosenbrock"));
    assert!(program.contains("(function (doc \"Squared norm.\") sqnorm"));
    assert!(program.contains("(= B (vcat (row 1.0 (neg 2.0)) (row 3.0 4.0)))"));
}

#[test]
fn every_line_prefix_parses_or_is_incomplete() {
    for (name, src) in LISTINGS {
        for (cut, _) in src.match_indices('\n') {
            let prefix = &src[..cut];
            if let Err(e) = parse(prefix) {
                assert!(
                    e.is_incomplete(),
                    "{name}: prefix ending at byte {cut} is not incomplete: {}\n{prefix}",
                    e.message()
                );
            }
        }
    }
}
