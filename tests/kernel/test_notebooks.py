"""Every notebook in `notebooks/` executes through the difflab kernel with nbclient: no cell
raises an error, every notebook finishes within a minute, notebooks that draw plots get
them back as images (SVG and PNG), progress bars are one display each (updated in place, so
what is kept is the finished bar) and never stderr text, tables come with HTML, and every
code cell with an output is explained by a Markdown cell before or after it.

`UPDATE_NOTEBOOKS=1` writes the executed notebooks back, so their stored outputs are current.
"""

from __future__ import annotations

import os
import pathlib
import time
import unittest

import nbformat
from nbclient import NotebookClient

from kernel_support import KERNEL_NAME, ROOT, install_kernelspec

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def execute(path: pathlib.Path) -> tuple[nbformat.NotebookNode, float]:
    install_kernelspec()
    notebook = nbformat.read(path, as_version=4)
    # The kernel runs in the notebook's directory, as Jupyter starts it.
    client = NotebookClient(
        notebook,
        kernel_name=KERNEL_NAME,
        timeout=60,
        allow_errors=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    started = time.monotonic()
    client.execute()
    return notebook, time.monotonic() - started


def mime_types(notebook: nbformat.NotebookNode) -> set[str]:
    found = set()
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            found.update(output.get("data", {}).keys())
    return found


class NotebookTests(unittest.TestCase):
    def test_there_are_notebooks(self) -> None:
        self.assertGreaterEqual(len(NOTEBOOKS), 5)

    def test_every_notebook_runs_without_errors(self) -> None:
        for path in NOTEBOOKS:
            with self.subTest(notebook=path.name):
                notebook, seconds = execute(path)
                self.assertLess(seconds, 60, f"{path.name} took {seconds:.1f} s")
                errors = [
                    output
                    for cell in notebook.cells
                    for output in cell.get("outputs", [])
                    if output.get("output_type") == "error"
                ]
                self.assertEqual(errors, [])
                if os.environ.get("UPDATE_NOTEBOOKS") == "1":
                    nbformat.write(notebook, path)
                if "spy(" in path.read_text() or "plot(" in path.read_text():
                    types = mime_types(notebook)
                    self.assertIn("image/svg+xml", types, path.name)
                    self.assertIn("image/png", types, path.name)

    def test_progress_bars_and_tables_read_as_jupyter_shows_them(self) -> None:
        path = ROOT / "notebooks" / "02_comparing_backends.ipynb"
        notebook, _ = execute(path)
        outputs = [o for cell in notebook.cells for o in cell.get("outputs", [])]
        streams = [o for o in outputs if o.get("output_type") == "stream" and o.get("name") == "stderr"]
        self.assertEqual(streams, [], "progress is not stderr text")
        bars = [
            o for o in outputs
            if o.get("output_type") == "display_data" and "%|" in o.get("data", {}).get("text/plain", "")
        ]
        self.assertGreaterEqual(len(bars), 3, "a display per progress bar")
        for bar in bars:
            text = bar["data"]["text/plain"]
            self.assertRegex(text, r"^\w+: 100%\|█+\| (\d+)/\1 in \d+\.\d s$", "finished, one line")
        tables = [o for o in outputs if "<table" in o.get("data", {}).get("text/html", "")]
        self.assertGreaterEqual(len(tables), 2)
        benchmark = next(o for o in tables if "benchmark_differentiation" in o["data"]["text/html"])
        self.assertRegex(benchmark["data"]["text/html"], r">\d+(\.\d+)? (ns|µs|ms|s)</td>", "readable durations")
        self.assertIn("white-space: nowrap", benchmark["data"]["text/html"])

    def test_every_output_is_explained(self) -> None:
        for path in NOTEBOOKS:
            cells = nbformat.read(path, as_version=4).cells
            for k, cell in enumerate(cells):
                if cell.cell_type != "code" or not cell.get("outputs"):
                    continue
                near = cells[max(k - 1, 0):k + 2]
                with self.subTest(notebook=path.name, cell=k):
                    self.assertTrue(
                        any(c.cell_type == "markdown" for c in near if c is not cell),
                        f"cell {k} ({cell.source.splitlines()[0]!r}) has no Markdown beside it",
                    )


if __name__ == "__main__":
    unittest.main()
