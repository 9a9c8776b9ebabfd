//! The language on the peer benchmark's implicit-differentiation tasks (`tests/peers/peers.py`
//! `implicit`): the ridge regression `dw/dλ` at λ = 1 and the fixed point `dz/dθ` of
//! `z = tanh(W z + U θ + b)`, with the data of the same LCG; prepared Jacobians through an
//! `ImplicitFunction` (iterative and direct linear solvers, forward and reverse mode), and
//! through the unrolled computation for comparison.
//! Run: `cargo bench -p difflab-session --bench implicit`.

mod support;

const SETUP: &str = "
lcg_state = 42
function draw()
    global lcg_state = lcg_state * 6364136223846793005 + 1442695040888963407
    s = lcg_state
    return ((s - mod(s, 2048)) ÷ 2048 + (s < 0 ? 2^53 : 0)) * 2.0^-53 * 2 - 1
end
draws(rows, cols) = Matrix(reshape([draw() for k in 1:rows*cols], cols, rows)')
X = draws(100, 20)
yv = [draw() for k in 1:100]
ridge_forward(l) = (X' * X + l[1] * I(20)) \\ (X' * yv)
ridge_conditions(l, w) = 2 .* (X' * (X * w .- yv)) .+ 2 .* l[1] .* w
lcg_state = 42
n, m = 20, 5
W, U, bias, θ = draws(n, n), draws(n, m), vec(draws(1, n)), vec(draws(1, m))
W = W .* (0.5 / maximum(sum(abs.(W); dims=2)))
T(z, θ) = tanh.(W * z .+ U * θ .+ bias)
function iterate_fixed_point(θ)
    z = zeros(n)
    for k in 1:200
        z = T(z, θ)
    end
    return z
end
fp_conditions(θ, z) = z .- T(z, θ)
median(ts) = sort(ts)[length(ts) ÷ 2 + 1]
timed(f, b, x) = (p = prepare_jacobian(f, b, x); jacobian(f, p, b, x); median([@elapsed(jacobian(f, p, b, x)) for k in 1:51]))
";

fn main() {
    let mut bench = support::Bench::new();
    bench.run(SETUP);
    let cases = [
        ("implicit-iterative-forward", "implicit_ridge", "timed(ImplicitFunction(ridge_forward, ridge_conditions), AutoForwardDiff(), [1.0])"),
        ("implicit-direct-forward", "implicit_ridge", "timed(ImplicitFunction(ridge_forward, ridge_conditions; linear_solver=DirectLinearSolver()), AutoForwardDiff(), [1.0])"),
        ("implicit-reverse", "implicit_ridge", "timed(ImplicitFunction(ridge_forward, ridge_conditions), AutoReverseDiff(), [1.0])"),
        ("unrolled-forward", "implicit_ridge", "timed(ridge_forward, AutoForwardDiff(), [1.0])"),
        ("implicit-iterative-forward", "implicit_fixedpoint", "timed(ImplicitFunction(iterate_fixed_point, fp_conditions), AutoForwardDiff(), θ)"),
        ("implicit-direct-forward", "implicit_fixedpoint", "timed(ImplicitFunction(iterate_fixed_point, fp_conditions; linear_solver=DirectLinearSolver()), AutoForwardDiff(), θ)"),
        ("implicit-reverse", "implicit_fixedpoint", "timed(ImplicitFunction(iterate_fixed_point, fp_conditions), AutoReverseDiff(), θ)"),
        ("unrolled-forward", "implicit_fixedpoint", "timed(iterate_fixed_point, AutoForwardDiff(), θ)"),
        ("unrolled-reverse", "implicit_fixedpoint", "timed(iterate_fixed_point, AutoReverseDiff(), θ)"),
    ];
    for (peer, task, timing) in cases {
        // Both results have 20 rows (w has 20 entries; z has 20, θ 5).
        bench.report(
            &format!("difflab-language-{peer}"),
            task,
            20,
            &format!("println({timing})"),
        );
    }
}
