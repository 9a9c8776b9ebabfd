"""Every notebook in `notebooks/` executes through the difflab kernel with nbclient: no cell
raises an error, every notebook finishes within a minute, and notebooks that draw plots get
them back as images (SVG and PNG)."""

from __future__ import annotations

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
                if "spy(" in path.read_text() or "plot(" in path.read_text():
                    types = mime_types(notebook)
                    self.assertIn("image/svg+xml", types, path.name)
                    self.assertIn("image/png", types, path.name)


if __name__ == "__main__":
    unittest.main()
