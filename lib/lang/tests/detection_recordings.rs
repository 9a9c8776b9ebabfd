//! Repeated global sparsity detections run on a recording of the function, and give what the
//! tracers give: the same pattern on every call, a new one as soon as something the function
//! read changed, and no recording at all for functions whose effects a recording would lose.

mod support;

use difflab_lang::Interp;

/// Helpers of the programs below: the pattern detected three times (the first on tracers, the
/// second recording the function, the third on the recording) must be the same each time.
const HELPERS: &str = "
det = TracerSparsityDetector()
function thrice(f, x)
    p = jacobian_sparsity(f, x, det)
    for k in 1:2
        jacobian_sparsity(f, x, det) == p || error(\"detection $k differs\")
    end
    p
end
function thrice(f!, y, x)
    p = jacobian_sparsity(f!, y, x, det)
    for k in 1:2
        jacobian_sparsity(f!, y, x, det) == p || error(\"detection $k differs\")
    end
    p
end
";

fn run(program: &str) -> Interp {
    support::interp_running(&format!("{HELPERS}\n{program}"))
}

#[test]
fn scalar_loops_replay_their_recording_with_the_tracers_pattern() {
    let interp = run("
        const N = 6
        limit(a, N) = a == N + 1 ? 1 : a == 0 ? N : a
        function stencil!(du, u)
            for i in 1:N, j in 1:N
                ip, im, jp = limit(i + 1, N), limit(i - 1, N), limit(j + 1, N)
                x, y = u[i, j, 1], u[i, j, 2]
                du[i, j, 1] = 2.5 * (u[im, j, 1] + u[ip, j, 1] + u[i, jp, 1] - 3x) + x^2 * y
                du[i, j, 2] = abs(u[i, jp, 2]) + sign(x) * 4.0 - 0.0 * y
            end
            return nothing
        end
        u = rand(N, N, 2); du = zeros(N, N, 2)
        P = thrice(stencil!, du, u)
        # What the tracers alone find: a fresh anonymous function is never replayed.
        Q = jacobian_sparsity((du, u) -> stencil!(du, u), du, u, det)
        P == Q || error(\"the recording's pattern differs from the tracers'\")
        nnz(P) == N^2 * 7 || error(\"unexpected count $(nnz(P))\")
        function chain(x)
            s = x[1]
            out = similar(x)
            for i in eachindex(x)
                s = s * x[i] + exp(x[i]) / 2
                out[i] = i > 3 ? s - x[i-3] : round(x[i])
            end
            out
        end
        thrice(chain, rand(9)) == jacobian_sparsity(x -> chain(x), rand(9), det) || error(\"chain\")
    ");
    // Two replays for each of the two functions: every detection after the first.
    assert_eq!(interp.detections.replays(), 4);
}

#[test]
fn a_change_to_what_the_function_read_is_seen() {
    let interp = run("
        k = 2
        idx = [1, 2]
        pick(x) = [x[k] * x[idx[1]] for _ in 1:2]
        thrice(pick, ones(4)) == sparse([1, 1, 2, 2], [1, 2, 1, 2], trues(4), 2, 4) || error(\"first\")
        k = 3
        thrice(pick, ones(4)) == sparse([1, 1, 2, 2], [1, 3, 1, 3], trues(4), 2, 4) || error(\"global\")
        idx[1] = 4
        thrice(pick, ones(4)) == sparse([1, 1, 2, 2], [3, 4, 3, 4], trues(4), 2, 4) || error(\"array\")
        helper(x, i) = x[i]
        uses(x) = [helper(x, 1) + x[2]]
        thrice(uses, ones(4)) == sparse([1, 1], [1, 2], trues(2), 1, 4) || error(\"helper\")
        helper(x, i) = x[i + 2]
        thrice(uses, ones(4)) == sparse([1, 1], [2, 3], trues(2), 1, 4) || error(\"redefined\")
        helper(x, i::Int) = x[4]
        thrice(uses, ones(4)) == sparse([1, 1], [2, 4], trues(2), 1, 4) || error(\"new method\")
        function scaled(c)
            return x -> [x[c] * 2.0]
        end
        g = scaled(1)
        thrice(g, ones(4)) == sparse([1], [1], [true], 1, 4) || error(\"captured\")
        thrice(scaled(3), ones(4)) == sparse([1], [3], [true], 1, 4) || error(\"other closure\")
        thrice(pick, ones(5)) == sparse([1, 1, 2, 2], [3, 4, 3, 4], trues(4), 2, 5) || error(\"shape\")
    ");
    assert!(interp.detections.replays() >= 12);
}

#[test]
fn functions_with_effects_or_whole_array_code_run_on_tracers() {
    let interp = run("
        noisy(x) = [x[1] * rand(), x[2]]
        thrice(noisy, ones(3))
        shown(x) = (print(\"\"); [x[1] + x[3]])
        thrice(shown, ones(3))
        counter = Ref(0)
        counting(x) = (counter[] += 1; [x[2]])
        thrice(counting, ones(3))
        before = counter[]
        for k in 1:3
            jacobian_sparsity(counting, ones(3), det)
        end
        counter[] == before + 3 || error(\"the function ran $(counter[] - before) times\")
        vectorized(x) = diff(x .^ 2)
        thrice(vectorized, ones(50))
        branching(x) = [ifelse(x[1] > 0, x[2], x[3])]
        thrice(branching, ones(3)) == sparse([1, 1], [2, 3], trues(2), 1, 3) || error(\"ifelse\")
    ");
    assert_eq!(interp.detections.replays(), 0);
}
