"""Memory of a long session: the kernel's resident set size (RSS) while one cell is executed
again and again, for a gradient and for a sparse Hessian preparation.

A measurement, not a test (it takes a minute or two, so it is not in the default suite). Run it
from the repository root with the kernel tests' environment:

    cargo build --release -p difflab-kernel
    target/kernel-venv/bin/python tests/kernel/soak_rss.py [--runs 2000]

It drives `target/release/difflab-kernel` (or the binary in `DIFFLAB_KERNEL`) through
`jupyter_client`, reads `VmRSS` from `/proc/<pid>/status` (Linux) after 1, 100, 1000 and 2000
executions of each cell, and prints a Markdown table (the one docs/reliability.md records).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kernel_support import KERNEL_NAME, ROOT, install_kernelspec, run  # noqa: E402

SETUP = """
f(x) = sum(x[i] * x[i + 1] for i in 1:length(x) - 1) + sum(sin.(x))
g(x) = sum(diff(x) .^ 2 .* x[2:end]) + sum(exp.(x) ./ 100)
x = rand(1000);
"""

SPARSE = "AutoSparse(SecondOrder(AutoForwardDiff(), AutoReverseDiff()))"

CELLS = {
    "`gradient(f, AutoReverseDiff(), x)`, a scalar loop over 1000 inputs":
        "grad = gradient(f, AutoReverseDiff(), x);",
    f"`prepare_hessian(g, {SPARSE}, x)`, 1000 inputs":
        f"prep = prepare_hessian(g, {SPARSE}, x);",
}


def rss_mib(pid: int) -> float:
    """The resident set size of process `pid`, in MiB."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS line")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args()
    os.environ.setdefault(
        "DIFFLAB_KERNEL", str(ROOT / "target" / "release" / "difflab-kernel")
    )
    install_kernelspec()
    from jupyter_client.manager import start_new_kernel

    checkpoints = sorted({1, 100, 1000, args.runs} & set(range(1, args.runs + 1)))
    rows = []
    for name, code in CELLS.items():
        # A fresh kernel per cell, so each row starts from the same state.
        km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=15)
        try:
            pid = km.provisioner.process.pid
            content, _ = run(kc, SETUP)
            assert content["status"] == "ok", content
            before = rss_mib(pid)
            figures = {}
            started = time.monotonic()
            for k in range(1, args.runs + 1):
                content, _ = run(kc, code, timeout=60)
                assert content["status"] == "ok", content
                if k in checkpoints:
                    figures[k] = rss_mib(pid)
            per_run = (time.monotonic() - started) / args.runs
            rows.append((name, before, figures, per_run))
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    header = " | ".join(f"after {k}" for k in checkpoints)
    print(f"| cell | before | {header} | per execution |")
    print("|---|---|" + "---|" * len(checkpoints) + "---|")
    for name, before, figures, per_run in rows:
        cells = " | ".join(f"{figures[k]:.1f} MiB" for k in checkpoints)
        print(f"| {name} | {before:.1f} MiB | {cells} | {per_run * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
