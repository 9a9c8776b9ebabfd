"""The Rust API notebook, `notebooks/rust/01_rust_api.ipynb`, executed with nbclient in the
Rust kernel of evcxr (`evcxr_jupyter`): no cell raises an error, the gradient printed is
cos(x)·x + sin(x), the sparse Jacobian takes 3 colors and has the values of the residual's
derivative, and the sparsity pattern and the coloring come back as SVG displays (through the
crates' `evcxr_display` methods).

Needs `evcxr_jupyter` on PATH (`cargo install evcxr_jupyter --locked`; see the README). When
it is missing the test is skipped and says so. When the `rust` kernelspec is not installed
(`evcxr_jupyter --install`), one pointing at the `evcxr_jupyter` on PATH is written to a
temporary Jupyter data directory. The first run compiles the crates and their dependencies
inside evcxr (a few minutes); evcxr keeps no cache between kernels unless configured to.

`UPDATE_NOTEBOOKS=1` writes the executed notebook back, so its stored outputs are current.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import pathlib
import re
import shutil
import sys
import tempfile
import time
import unittest

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

from kernel_support import ROOT

NOTEBOOK = ROOT / "notebooks" / "rust" / "01_rust_api.ipynb"
KERNEL_NAME = "rust"
EVCXR = shutil.which("evcxr_jupyter")
# Compiling the crates and their dependencies in the first cell is the slow part.
CELL_TIMEOUT = 1200


def ensure_kernelspec(evcxr: str) -> None:
    """Makes the `rust` kernelspec findable, writing one for `evcxr` when none is installed."""
    if KERNEL_NAME in KernelSpecManager().find_kernel_specs():
        return
    data = tempfile.mkdtemp(prefix="evcxr-kernelspec-")
    atexit.register(shutil.rmtree, data, True)
    spec = pathlib.Path(data) / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True)
    kernel = {
        "argv": [evcxr, "--control_file", "{connection_file}"],
        "display_name": "Rust",
        "language": "rust",
        "interrupt_mode": "message",
    }
    (spec / "kernel.json").write_text(json.dumps(kernel))
    previous = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = data + (os.pathsep + previous if previous else "")


def outputs(notebook: nbformat.NotebookNode) -> list[dict]:
    return [o for cell in notebook.cells for o in cell.get("outputs", [])]


def stdout_text(notebook: nbformat.NotebookNode) -> str:
    return "".join(
        o.get("text", "")
        for o in outputs(notebook)
        if o.get("output_type") == "stream" and o.get("name") == "stdout"
    )


NOT_INSTALLED = (
    "evcxr_jupyter is not on PATH, so the Rust API notebook was NOT run "
    "(install it with `cargo install evcxr_jupyter --locked`, see the README)"
)


def setUpModule() -> None:
    # unittest lists skip reasons only when verbose: say it whatever the verbosity.
    if EVCXR is None:
        print(f"\nSKIPPED test_evcxr: {NOT_INSTALLED}", file=sys.stderr)


@unittest.skipIf(EVCXR is None, NOT_INSTALLED)
class RustApiNotebookTests(unittest.TestCase):
    notebook: nbformat.NotebookNode
    seconds: float

    @classmethod
    def setUpClass(cls) -> None:
        assert EVCXR is not None
        ensure_kernelspec(EVCXR)
        cls.notebook = nbformat.read(NOTEBOOK, as_version=4)
        # Jupyter starts kernels in the notebook's directory; the `:dep` paths are relative to it.
        client = NotebookClient(
            cls.notebook,
            kernel_name=KERNEL_NAME,
            timeout=CELL_TIMEOUT,
            startup_timeout=120,
            allow_errors=True,
            coalesce_streams=True,
            resources={"metadata": {"path": str(NOTEBOOK.parent)}},
        )
        started = time.monotonic()
        client.execute()
        cls.seconds = time.monotonic() - started
        print(f"\n{NOTEBOOK.name} ran in evcxr in {cls.seconds:.0f} s", file=sys.stderr)
        if os.environ.get("UPDATE_NOTEBOOKS") == "1":
            nbformat.write(cls.notebook, NOTEBOOK)

    def test_no_cell_raises_an_error(self) -> None:
        errors = [
            f"{o.get('ename')}: {o.get('evalue')}"
            for o in outputs(self.notebook)
            if o.get("output_type") == "error"
        ]
        self.assertEqual(errors, [])
        stderr = [
            o.get("text", "")
            for o in outputs(self.notebook)
            if o.get("output_type") == "stream" and o.get("name") == "stderr"
        ]
        self.assertEqual(stderr, [])

    def test_the_gradient_is_cos_x_times_x_plus_sin_x(self) -> None:
        text = stdout_text(self.notebook)
        match = re.search(r"gradient = \[([^\]]*)\]", text)
        self.assertIsNotNone(match, text)
        gradient = [float(v) for v in match.group(1).split(",")]
        expected = [math.cos(x) * x + math.sin(x) for x in (0.5, 1.0, 2.0)]
        self.assertEqual(len(gradient), 3)
        for got, want in zip(gradient, expected):
            self.assertAlmostEqual(got, want, places=5)
        value = float(re.search(r"f\(x\) = ([-0-9.]+)", text).group(1))
        self.assertAlmostEqual(value, sum(x * math.sin(x) for x in (0.5, 1.0, 2.0)), places=5)

    def test_the_sparse_jacobian_takes_three_colors_and_is_right(self) -> None:
        text = stdout_text(self.notebook)
        self.assertIn("(10, 12) pattern with 30 nonzeros", text)
        self.assertIn("3 colors", text)
        self.assertIn("30 stored entries", text)
        match = re.search(r"J\[0, 0\] = ([-0-9.]+), J\[0, 1\] = ([-0-9.]+), J\[0, 2\] = ([-0-9.]+)", text)
        self.assertIsNotNone(match, text)
        u1 = 1 / 11
        self.assertEqual(
            [round(float(v), 6) for v in match.groups()],
            [1.0, round(-2 + 3 * u1 * u1, 6), 1.0],
        )

    def test_the_pattern_and_the_coloring_display_as_svg(self) -> None:
        svgs = [
            o["data"]["image/svg+xml"]
            for o in outputs(self.notebook)
            if "image/svg+xml" in o.get("data", {})
        ]
        self.assertEqual(len(svgs), 2)
        for svg in svgs:
            self.assertTrue(svg.lstrip().startswith("<svg"), svg[:80])
            self.assertIn("</svg>", svg)
        self.assertIn("Jacobian sparsity", svgs[0])
        self.assertIn("column coloring", svgs[1])
        self.assertIn("3 colors", svgs[1])


if __name__ == "__main__":
    unittest.main()
