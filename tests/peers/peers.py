#!/usr/bin/env python3
"""difflab's benchmark tasks run by other AD systems: JAX (jit), sparsejac, CasADi and jaxopt.

Usage:  python peers.py TASK [--n N ...] [--check]
        TASK is one of grad, hessian, jacobian, brusselator, implicit, all.

Every measurement is one JSON line in the format of difflab's benchmarks
(`lib/ad/benches/gradient.rs`, `lib/session/benches/*.rs`):

    {"peer": "jax-jit", "task": "grad", "n": 10000, "seconds_median": 2.8e-05, ...}

with the same task names and sizes, so `report.py` can join the two outputs on (task, n).
The extra fields say what was run (`operator`) and what came out (`checksum`, see below).
Times are medians of prepared calls: everything a peer does once (tracing, XLA compilation,
building CasADi's expression graph, colouring) happens before timing, and one warm-up call
is not timed. Arithmetic is float64 throughout.

The tasks, inputs and sizes are those of difflab's benchmarks:

grad          f(x) = sum(x.^2) at x[i] = 1 + 0.5 sin(i), i = 0..n-1; n = 10, 1000, 10000.
hessian       f(x) = sum(diff(x).^2); n = 1000 (dense and sparse) and 10000 (sparse; JAX's
              dense Hessian too, which needs 0.8 GB).
jacobian      f(x) = diff(x.^2) + diff(reverse(x.^2)); n = 1000.
brusselator   the 2-D Brusselator right-hand side of the SciML benchmarks at t = 0, grid
              N = 64 (state length 2N², column-major, u then v; periodic neighbours;
              A, B, alpha = 3.4, 1.0, 10.0; a = alpha (N-1)²), at the initial point
              u[i,j] = 22 (y_j (1 - y_j))^1.5, v[i,j] = 27 (x_i (1 - x_i))^1.5 with
              x = y = range(0, 1, length=N). Tasks `brusselator_detection` (the Jacobian's
              sparsity pattern; only CasADi detects it) and `brusselator_sparse_jacobian`;
              `brusselator_dense_jacobian` shows what JAX does without a pattern.
implicit      n = 20 (the rows of the result). `implicit_ridge`: w(λ) = argmin |Xw - y|² +
              λ|w|², dw/dλ at λ = 1, X (100×20) then y (100) drawn from the generator below.
              `implicit_fixedpoint`: z = tanh(W z + U θ + b), dz/dθ, W (20×20), U (20×5),
              b (20), θ (5) drawn in that order, then W scaled by 0.5 / (its largest row sum
              of absolute values) so the map contracts.

The generator (as in `tests/scripts/implicit_problems.dl`): a 64-bit linear congruential
generator, state ← state·6364136223846793005 + 1442695040888963407 (mod 2⁶⁴) from state 42;
each draw is (state >> 11)·2⁻⁵³·2 − 1, and matrices are filled row by row.

Checksums, so that values can be compared across systems: for the entries v[i, j] of a result
(0-based; a vector is a column; a sparse result counts its stored entries with duplicates
summed), sum = Σ v, wsum = Σ v·(1 + ((3i² + 5j² + 7ij + i + 2j) mod 23)), nnz = the number of
nonzero values. `--check` compares them with the reference values of README.md and exits
non-zero on a mismatch.
"""

import argparse
import json
import os
import statistics
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

# (task, n) -> (sum, wsum, nnz) of the result, as listed in README.md.
REFERENCE = {
    ("grad", 10): (21.9552094821, 289.211098701, 10),
    ("grad", 10000): (20001.9395054, 200038.50512, 10000),
    ("hessian", 1000): (0.0, 12008.0, 2998),
    ("hessian", 10000): (0.0, 119976.0, 29998),
    ("jacobian", 1000): (None, -4086.23591135, 3992),
    ("brusselator_sparse_jacobian", 32): (-1024.0, -158860119.729, 12224),
    ("brusselator_sparse_jacobian", 64): (-4096.0, -4208474277.74, 49024),
    ("implicit_ridge", 20): (-0.00289042598708, 0.0313156531018, 20),
    ("implicit_fixedpoint", 20): (0.0842625336842, -23.511978488, 100),
}

SIZES = {
    "grad": [10, 1000, 10000],
    "hessian": [1000, 10000],
    "jacobian": [1000],
    "brusselator": [64],
    "implicit": [20],
}

MISMATCHES = []


# ------------------------------------------------------------------ measuring and reporting


def median_seconds(call, samples=15, sample_seconds=0.005):
    """Median time of one call: each sample loops the call until it lasts `sample_seconds`."""
    call()
    start = time.perf_counter()
    call()
    once = time.perf_counter() - start
    inner = max(1, int(sample_seconds / max(once, 1e-9)))
    if once > 0.2:
        samples = 5
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(inner):
            call()
        times.append((time.perf_counter() - start) / inner)
    return statistics.median(times)


def entries(result):
    """Row indices, column indices, values and shape of a dense or sparse result."""
    if hasattr(result, "sparsity") and hasattr(result, "nonzeros"):  # casadi.DM
        pattern = result.sparsity()
        rows, cols = np.asarray(pattern.row()), np.asarray(pattern.get_col())
        values = np.asarray(result.nonzeros(), dtype=float)
        return rows, cols, values, (result.size1(), result.size2())
    if hasattr(result, "indices") and hasattr(result, "data") and hasattr(result, "nse"):  # BCOO
        index = np.asarray(result.indices)
        return index[:, 0], index[:, 1], np.asarray(result.data, dtype=float), result.shape
    if sp.issparse(result):
        coo = result.tocoo()
        return coo.row, coo.col, coo.data, coo.shape
    # Zeros add nothing to a checksum, so a dense result is read as its nonzero entries.
    dense = np.asarray(result, dtype=float)
    coo = sp.coo_matrix(dense.reshape(-1, 1) if dense.ndim <= 1 else dense)
    return coo.row, coo.col, coo.data, coo.shape


def checksum(result):
    rows, cols, values, shape = entries(result)
    summed = sp.coo_matrix((values, (rows, cols)), shape=shape).tocsr()
    summed.sum_duplicates()
    coo = summed.tocoo()
    i, j = coo.row.astype(np.int64), coo.col.astype(np.int64)
    weight = 1 + (3 * i * i + 5 * j * j + 7 * i * j + i + 2 * j) % 23
    return {
        "sum": float(coo.data.sum()),
        "wsum": float((coo.data * weight).sum()),
        "nnz": int(np.count_nonzero(coo.data)),
        "shape": [int(shape[0]), int(shape[1])],
    }


def agrees(got, want, tolerance):
    return want is None or abs(got - want) <= tolerance * max(1.0, abs(want))


def emit(peer, task, n, operator, seconds, result=None, tolerance=1e-8, **extra):
    """Prints one measurement; with --check, records a result whose checksum is off.

    `tolerance` is relative; an iterative linear solver is held to what it promises."""
    line = {"peer": peer, "task": task, "n": n, "seconds_median": seconds, "operator": operator}
    if result is not None:
        line["checksum"] = checksum(result)
        want = REFERENCE.get((task, n))
        if want is not None:
            got = line["checksum"]
            ok = agrees(got["sum"], want[0], tolerance) and agrees(got["wsum"], want[1], tolerance)
            ok = ok and got["nnz"] == want[2]
            line["matches_reference"] = ok
            if not ok:
                MISMATCHES.append(line)
    line.update(extra)
    print(json.dumps(line), flush=True)


def measure(peer, task, n, operator, call, tolerance=1e-8, **extra):
    result = call()
    emit(peer, task, n, operator, median_seconds(call), result, tolerance, **extra)


# ------------------------------------------------------------------ inputs


def standard_x(n):
    return 1.0 + 0.5 * np.sin(np.arange(n, dtype=float))


class Lcg:
    """The 64-bit linear congruential generator of the implicit tasks."""

    def __init__(self, state=42):
        self.state = state

    def draw(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % 2**64
        return (self.state >> 11) * 2.0**-53 * 2 - 1

    def matrix(self, rows, cols):
        return np.array([[self.draw() for _ in range(cols)] for _ in range(rows)])

    def vector(self, n):
        return np.array([self.draw() for _ in range(n)])


def brusselator_point(N):
    grid = np.linspace(0.0, 1.0, N)
    x, y = np.meshgrid(grid, grid, indexing="ij")  # x[i, j] = grid[i], y[i, j] = grid[j]
    u = 22.0 * (y * (1 - y)) ** 1.5
    v = 27.0 * (x * (1 - x)) ** 1.5
    return np.concatenate([u.ravel(order="F"), v.ravel(order="F")])


def brusselator_constants(N):
    return 3.4, 1.0, 10.0 * (N - 1) ** 2  # A, B, a = alpha / dx²


def brusselator_pattern(N):
    """The structural pattern: each state depends on itself, its four neighbours and its twin."""
    rows, cols = [], []
    for k in range(2):
        for j in range(N):
            for i in range(N):
                row = i + N * j + N * N * k
                neighbours = {(i, j, k), ((i - 1) % N, j, k), ((i + 1) % N, j, k),
                              (i, (j - 1) % N, k), (i, (j + 1) % N, k), (i, j, 1 - k)}
                for a, b, c in neighbours:
                    rows.append(row)
                    cols.append(a + N * b + N * N * c)
    size = 2 * N * N
    return sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(size, size))


def tridiagonal_pattern(n):
    i = np.arange(n)
    rows = np.concatenate([i, i[:-1], i[1:]])
    cols = np.concatenate([i, i[1:], i[:-1]])
    return sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))


def jacobian_pattern(n):
    """Row i of diff(x.^2) + diff(reverse(x.^2)) reads x[i], x[i+1], x[n-2-i] and x[n-1-i]."""
    rows, cols = [], []
    for i in range(n - 1):
        for c in {i, i + 1, n - 2 - i, n - 1 - i}:
            rows.append(i)
            cols.append(c)
    return sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n - 1, n))


# ------------------------------------------------------------------ the peers


def jax_modules():
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from jax.experimental import sparse as jsparse

    return jax, jnp, jsparse


def bcoo(pattern):
    _, _, jsparse = jax_modules()
    return jsparse.BCOO.from_scipy_sparse(pattern.tocoo())


def measure_casadi(task, n, what, function, x):
    """A CasADi Function called with a NumPy array (as difflab is called with its own arrays)
    and with CasADi's own DM type, which saves the conversion."""
    import casadi as ca

    measure("casadi", task, n, f"SX Function of {what}, NumPy in", lambda: function(x))
    xd = ca.DM(x)
    measure("casadi-DM-in", task, n, f"SX Function of {what}, DM in", lambda: function(xd))


def task_grad(sizes):
    import casadi as ca

    jax, jnp, _ = jax_modules()
    for n in sizes:
        x = standard_x(n)
        xj = jnp.asarray(x)
        g = jax.jit(jax.grad(lambda x: jnp.sum(x**2)))
        measure("jax-jit", "grad", n, "jit(grad(f))", lambda: g(xj).block_until_ready())
        xs = ca.SX.sym("x", n)
        G = ca.Function("g", [xs], [ca.gradient(ca.sum1(xs**2), xs)])
        measure_casadi("grad", n, "the gradient", G, x)


def task_hessian(sizes):
    import casadi as ca
    import sparsejac

    jax, jnp, _ = jax_modules()

    def f(x):
        return jnp.sum(jnp.diff(x) ** 2)

    for n in sizes:
        x = standard_x(n)
        xj = jnp.asarray(x)
        H = jax.jit(jax.hessian(f))
        measure("jax-jit-dense", "hessian", n, "jit(hessian(f)), dense",
                lambda: H(xj).block_until_ready())
        del H
        jax.clear_caches()
        S = jax.jit(sparsejac.jacfwd(jax.grad(f), sparsity=bcoo(tridiagonal_pattern(n))))
        measure("sparsejac", "hessian", n, "jit(sparsejac.jacfwd(grad(f))), pattern given",
                lambda: S(xj).block_until_ready())
        xs = ca.SX.sym("x", n)
        hessian, _ = ca.hessian(ca.sum1(ca.diff(xs) ** 2), xs)
        measure_casadi("hessian", n, "the sparse Hessian", ca.Function("H", [xs], [hessian]), x)


def task_jacobian(sizes):
    import casadi as ca
    import sparsejac

    jax, jnp, _ = jax_modules()

    def f(x):
        squares = x**2
        return jnp.diff(squares) + jnp.diff(squares[::-1])

    for n in sizes:
        x = standard_x(n)
        xj = jnp.asarray(x)
        for name, mode in (("jacfwd", jax.jacfwd), ("jacrev", jax.jacrev)):
            J = jax.jit(mode(f))
            measure(f"jax-jit-{name}", "jacobian", n, f"jit({name}(f)), dense",
                    lambda: J(xj).block_until_ready())
        pattern = bcoo(jacobian_pattern(n))
        S = jax.jit(sparsejac.jacfwd(f, sparsity=pattern))
        measure("sparsejac", "jacobian", n, "jit(sparsejac.jacfwd(f)), pattern given",
                lambda: S(xj).block_until_ready())
        xs = ca.SX.sym("x", n)
        squares = xs**2
        C = ca.Function("J", [xs], [ca.jacobian(ca.diff(squares) + ca.diff(squares[::-1]), xs)])
        measure_casadi("jacobian", n, "the sparse Jacobian", C, x)


def brusselator_jax(N):
    _, jnp, _ = jax_modules()
    A, B, a = brusselator_constants(N)

    def f(z):
        # Column-major state: z[i + N j + N² k] is element [k, j, i] of the row-major reshape.
        state = z.reshape(2, N, N)
        u, v = state[0], state[1]

        def laplacian(w):
            return (jnp.roll(w, 1, 0) + jnp.roll(w, -1, 0) + jnp.roll(w, 1, 1)
                    + jnp.roll(w, -1, 1) - 4 * w)

        uuv = u * u * v
        du = a * laplacian(u) + B + uuv - (A + 1) * u
        dv = a * laplacian(v) + A * u - uuv
        return jnp.concatenate([du.ravel(), dv.ravel()])

    return f


def brusselator_casadi(N):
    import casadi as ca

    A, B, a = brusselator_constants(N)
    z = ca.SX.sym("z", 2 * N * N)
    u = ca.reshape(z[: N * N], N, N)  # column-major, as the state is
    v = ca.reshape(z[N * N:], N, N)
    up = [(i + 1) % N for i in range(N)]
    down = [(i - 1) % N for i in range(N)]

    def laplacian(w):
        return w[down, :] + w[up, :] + w[:, up] + w[:, down] - 4 * w

    uuv = u * u * v
    du = a * laplacian(u) + B + uuv - (A + 1) * u
    dv = a * laplacian(v) + A * u - uuv
    return z, ca.vertcat(ca.vec(du), ca.vec(dv))


def task_brusselator(sizes):
    import casadi as ca
    import sparsejac

    jax, jnp, _ = jax_modules()
    for N in sizes:
        z = brusselator_point(N)
        zj = jnp.asarray(z)
        pattern = brusselator_pattern(N)

        start = time.perf_counter()
        zs, rhs = brusselator_casadi(N)
        build = time.perf_counter() - start
        detected = ca.jacobian_sparsity(rhs, zs)
        times = []
        for _ in range(5):
            start = time.perf_counter()
            ca.jacobian_sparsity(rhs, zs)
            times.append(time.perf_counter() - start)
        found = sp.csc_matrix((np.ones(detected.nnz()), np.asarray(detected.row()),
                               np.asarray(detected.colind())), shape=detected.shape)
        emit("casadi", "brusselator_detection", N, "jacobian_sparsity of the SX expression",
             statistics.median(times), expression_build_seconds=build,
             nnz=int(detected.nnz()), colors=int(detected.uni_coloring().size2()),
             matches_stencil=bool((found != pattern.tocsc()).nnz == 0))

        C = ca.Function("J", [zs], [ca.jacobian(rhs, zs)])
        measure_casadi("brusselator_sparse_jacobian", N, "the sparse Jacobian", C, z)

        f = brusselator_jax(N)
        S = jax.jit(sparsejac.jacfwd(f, sparsity=bcoo(pattern)))
        measure("sparsejac", "brusselator_sparse_jacobian", N,
                "jit(sparsejac.jacfwd(f)), pattern given", lambda: S(zj).block_until_ready())
        del S
        D = jax.jit(jax.jacfwd(f))
        measure("jax-jit", "brusselator_dense_jacobian", N,
                "jit(jacfwd(f)), dense (JAX detects no sparsity; its checksum's nnz counts the "
                "nonzeros at this point only)", lambda: D(zj).block_until_ready(),
                nnz_structural=int(pattern.nnz))
        del D
        jax.clear_caches()


def ridge_data():
    lcg = Lcg()
    return lcg.matrix(100, 20), lcg.vector(100)


def fixed_point_data():
    lcg = Lcg()
    W, U, b, theta = lcg.matrix(20, 20), lcg.matrix(20, 5), lcg.vector(20), lcg.vector(5)
    return W * (0.5 / np.abs(W).sum(axis=1).max()), U, b, theta


def task_implicit(sizes):
    del sizes  # both problems have 20 rows
    import jaxopt
    from jaxopt import implicit_diff, linear_solve

    jax, jnp, _ = jax_modules()

    X, y = (jnp.asarray(a) for a in ridge_data())
    p = X.shape[1]

    def ridge(l):
        return jnp.linalg.solve(X.T @ X + l * jnp.eye(p), X.T @ y)

    unrolled = jax.jit(jax.jacfwd(ridge))
    measure("jax-jit-unrolled", "implicit_ridge", 20,
            "jit(jacfwd) through the closed-form solve", lambda: unrolled(1.0).block_until_ready())

    def objective(w, l):
        return jnp.sum((X @ w - y) ** 2) + l * jnp.sum(w**2)

    for label, solve in (("iterative", None), ("lu", linear_solve.solve_lu)):
        @implicit_diff.custom_root(jax.grad(objective), solve=solve)
        def solver(init, l):
            del init
            return ridge(l)

        J = jax.jit(jax.jacobian(lambda l, solver=solver: solver(None, l)))
        # jaxopt's default iterative solver of the linear system is accurate to a few 1e-7 here.
        measure(f"jaxopt-{label}", "implicit_ridge", 20,
                f"jit(jacobian) of a custom_root solver, linear system: {label}",
                lambda: J(1.0).block_until_ready(), tolerance=1e-3 if solve is None else 1e-8)

    W, U, b, theta = (jnp.asarray(a) for a in fixed_point_data())

    def T(z, theta):
        return jnp.tanh(W @ z + U @ theta + b)

    for label, mode, solve in (("jacrev-iterative", jax.jacrev, None),
                               ("jacrev-lu", jax.jacrev, linear_solve.solve_lu),
                               ("jacfwd-iterative", jax.jacfwd, None)):
        options = {} if solve is None else {"implicit_diff_solve": solve}
        iteration = jaxopt.FixedPointIteration(fixed_point_fun=T, tol=1e-13, maxiter=500,
                                               implicit_diff=True, **options)
        J = jax.jit(mode(lambda th, it=iteration: it.run(jnp.zeros(20), th).params))
        try:
            measure(f"jaxopt-{label}", "implicit_fixedpoint", 20,
                    f"jit({label.split('-')[0]}) of FixedPointIteration, implicit_diff=True",
                    lambda: J(theta).block_until_ready(),
                    tolerance=1e-3 if solve is None else 1e-8)
        except Exception as error:  # a mode jaxopt does not support is reported, not fatal
            emit(f"jaxopt-{label}", "implicit_fixedpoint", 20, "FixedPointIteration", None,
                 error=f"{type(error).__name__}: {str(error)[:200]}")


# ------------------------------------------------------------------ main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("task", choices=[*SIZES, "all"])
    parser.add_argument("--n", type=int, action="append",
                        help="a size (the grid size N for brusselator); repeatable")
    parser.add_argument("--check", action="store_true",
                        help="exit non-zero when a checksum differs from README.md's")
    args = parser.parse_args()
    tasks = list(SIZES) if args.task == "all" else [args.task]
    for task in tasks:
        globals()["task_" + task](args.n or SIZES[task])
    if args.check and MISMATCHES:
        print(f"{len(MISMATCHES)} result(s) differ from the reference checksums",
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
