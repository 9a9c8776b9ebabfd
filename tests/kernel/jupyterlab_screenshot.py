"""Drives JupyterLab in headless Chromium: opens a notebook with the difflab kernel, runs a cell
that draws a spy plot, checks the plot is displayed as an image, and saves a screenshot.

Too heavy for every CI run (JupyterLab, Playwright and Debian's chromium); run it by hand:

    apt-get install -y chromium
    target/kernel-venv/bin/pip install jupyterlab playwright
    cargo build -p difflab-kernel
    target/kernel-venv/bin/python tests/kernel/jupyterlab_screenshot.py [SCREENSHOT.png]
"""

from __future__ import annotations

import json
import os
import pathlib
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from kernel_support import install_kernelspec

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CELL = "A = sparse([1, 2, 3, 3, 4], [1, 2, 2, 3, 4], ones(5), 4, 4)\nspy(A)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def notebook(directory: pathlib.Path) -> pathlib.Path:
    path = directory / "spy.ipynb"
    path.write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": CELL}],
        "metadata": {"kernelspec": {"name": "difflab", "display_name": "difflab", "language": "difflab"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }))
    return path


def wait_for(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {seconds} s")


def main() -> int:
    from playwright.sync_api import sync_playwright

    screenshot = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "jupyterlab-spy.png").resolve()
    install_kernelspec()
    port, token = free_port(), secrets.token_hex(16)
    with tempfile.TemporaryDirectory() as tmp:
        directory = pathlib.Path(tmp)
        notebook(directory)
        lab = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", f"--port={port}", "--ServerApp.ip=127.0.0.1",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={directory}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(f"http://127.0.0.1:{port}/api?token={token}", 60)
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM,
                    headless=True,
                    args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                          "--disable-background-networking", "--disable-component-update", "--disable-sync"],
                )
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(f"http://127.0.0.1:{port}/lab/tree/spy.ipynb?token={token}")
                page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
                # Wait for the difflab kernel to be idle, then run the cell.
                page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=60_000)
                page.click(".jp-Notebook .jp-Cell .jp-InputArea-editor")
                page.keyboard.press("Shift+Enter")
                image = page.wait_for_selector(".jp-OutputArea-output img, .jp-OutputArea-output svg", timeout=60_000)
                assert image.bounding_box()["width"] > 100, "the spy plot is drawn at a visible size"
                page.screenshot(path=str(screenshot))
                browser.close()
        finally:
            lab.terminate()
            lab.wait(timeout=20)
    print(f"ok: the spy plot is displayed; screenshot in {screenshot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
