//! The language on the peer benchmark's sparse tasks (`tests/peers/peers.py`: `hessian` and
//! `brusselator`), prepared medians measured as the peer harness measures (`median_call`):
//! - sparsity detection of the 2-D Brusselator at N = 64 (8192 states, 49 152 nonzeros),
//!   written vectorized (`circshift`) and with scalar loops and the `limit(a, N)` helper as in
//!   the SciML definition (after the warm-up calls, the scalar loops are detected on their
//!   recording, as repeated detections are);
//! - its sparse Jacobian with `AutoSparse(AutoForwardDiff())` (prepared: on its recording for
//!   the loops; also the preparation and the unprepared call) and with
//!   `AutoSparse(AutoFastDifferentiation())` (the traced program), both ways;
//! - the sparse Hessian of `sum(diff(x) .^ 2)` at n = 10⁴ (also traced), and sparse against dense at
//!   n = 10³ (the DI paper's Listing 2).
//!
//! Run: `cargo bench -p difflab-session --bench sparse`.

mod support;

const BRUSSELATOR: &str = "
const N = 64
function brusselator(z)
    A, B, alpha = 3.4, 1.0, 10.0
    a = alpha / (1 / (N - 1))^2
    u = reshape(z[1:N^2], N, N)
    v = reshape(z[N^2+1:end], N, N)
    lap(w) = circshift(w, (1, 0)) .+ circshift(w, (-1, 0)) .+ circshift(w, (0, 1)) .+ circshift(w, (0, -1)) .- 4 .* w
    uuv = u .* u .* v
    vcat(vec(a .* lap(u) .+ B .+ uuv .- (A + 1) .* u), vec(a .* lap(v) .+ A .* u .- uuv))
end
limit(a, N) = a == N + 1 ? 1 : a == 0 ? N : a
function brusselator!(du, u)
    A, B, alpha = 3.4, 1.0, 10.0
    a = alpha / (1 / (N - 1))^2
    for i in 1:N, j in 1:N
        ip1, im1, jp1, jm1 = limit(i + 1, N), limit(i - 1, N), limit(j + 1, N), limit(j - 1, N)
        x, y = u[i, j, 1], u[i, j, 2]
        du[i, j, 1] = a * (u[im1, j, 1] + u[ip1, j, 1] + u[i, jp1, 1] + u[i, jm1, 1] - 4x) + B + x^2 * y - (A + 1) * x
        du[i, j, 2] = a * (u[im1, j, 2] + u[ip1, j, 2] + u[i, jp1, 2] + u[i, jm1, 2] - 4y) + A * x - x^2 * y
    end
    return nothing
end
xyd = range(0, 1, length=N)
z = vcat(vec([22 * (y * (1 - y))^1.5 for x in xyd, y in xyd]), vec([27 * (x * (1 - x))^1.5 for x in xyd, y in xyd]))
u = reshape(copy(z), N, N, 2)
du = zeros(N, N, 2)
det = TracerSparsityDetector()
sparse_fwd = AutoSparse(AutoForwardDiff())
sparse_fd = AutoSparse(AutoFastDifferentiation())
median(ts) = sort(ts)[length(ts) ÷ 2 + 1]
# As the peer harness measures: two calls to warm up, then the median of 15 samples, each the
# mean time of enough calls to last about 5 ms.
function median_call(f)
    f()
    once = @elapsed f()
    inner = max(1, round(Int, 0.005 / max(once, 1e-9)))
    median([@elapsed(for _ in 1:inner; f(); end) / inner for k in 1:15])
end
";

fn main() {
    let mut bench = support::Bench::new();
    bench.run(BRUSSELATOR);
    let cases = [
        ("difflab-language-vectorized", "brusselator_detection", 64, "println(median_call(() -> jacobian_sparsity(brusselator, z, det)))"),
        ("difflab-language-loops", "brusselator_detection", 64, "println(median_call(() -> jacobian_sparsity(brusselator!, du, u, det)))"),
        ("difflab-language-vectorized", "brusselator_sparse_jacobian", 64, "p = prepare_jacobian(brusselator, sparse_fwd, z); println(median_call(() -> jacobian(brusselator, p, sparse_fwd, z)))"),
        ("difflab-language-loops", "brusselator_sparse_jacobian", 64, "p = prepare_jacobian(brusselator!, du, sparse_fwd, u); println(median_call(() -> jacobian(brusselator!, du, p, sparse_fwd, u)))"),
        ("difflab-language-loops", "brusselator_sparse_jacobian_preparation", 64, "println(median_call(() -> prepare_jacobian(brusselator!, du, sparse_fwd, u)))"),
        ("difflab-language-loops-unprepared", "brusselator_sparse_jacobian", 64, "y = similar(du); println(median_call(() -> jacobian(brusselator!, y, sparse_fwd, u)))"),
        ("difflab-language-traced-vectorized", "brusselator_sparse_jacobian", 64, "p = prepare_jacobian(brusselator, sparse_fd, z); println(median_call(() -> jacobian(brusselator, p, sparse_fd, z)))"),
        ("difflab-language-traced-loops", "brusselator_sparse_jacobian", 64, "p = prepare_jacobian(brusselator!, du, sparse_fd, u); println(median_call(() -> jacobian(brusselator!, du, p, sparse_fd, u)))"),
        ("difflab-language-sparse", "hessian", 10_000, "h(x) = sum(diff(x) .^ 2); x = [1 + 0.5sin(i) for i in 0:9999]; sb = AutoSparse(SecondOrder(AutoForwardDiff(), AutoReverseDiff())); p = prepare_hessian(h, sb, x); println(median_call(() -> hessian(h, p, sb, x)))"),
        ("difflab-language-traced", "hessian", 10_000, "pf = prepare_hessian(h, sparse_fd, x); println(median_call(() -> hessian(h, pf, sparse_fd, x)))"),
        ("difflab-language-sparse", "hessian", 1000, "x = [1 + 0.5sin(i) for i in 0:999]; p = prepare_hessian(h, sb, x); println(median_call(() -> hessian(h, p, sb, x)))"),
        ("difflab-language-dense", "hessian", 1000, "db = SecondOrder(AutoForwardDiff(), AutoReverseDiff()); p = prepare_hessian(h, db, x); println(median_call(() -> hessian(h, p, db, x)))"),
    ];
    for (peer, task, n, code) in cases {
        bench.report(peer, task, n, code);
    }
}
