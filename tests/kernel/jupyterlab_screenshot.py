"""Every notebook as JupyterLab shows it: runs each notebook of `notebooks/` with the difflab
kernel in JupyterLab, in headless Chromium driven by Playwright, and asserts on what the page
shows, then saves a screenshot per notebook.

For each notebook, once every cell has run:
- no output is an error or stderr text (a failing cell, or progress drawn as `\\r` lines);
- every progress bar is one line at 100% with its total time (one display updated in place);
- every plot is an image that loaded, at a visible size (one per `plot(`/`spy(` cell);
- no number in an HTML table is broken across lines.

The test command runs it (tests/kernel/run, `LAB=0` skips it). It installs what it needs:
JupyterLab and Playwright from the Python package index into target/kernel-venv (pinned in
requirements-lab.txt), and Debian's `chromium` with apt-get when /usr/bin/chromium is missing
(Playwright's own browser download is not used). By hand, from the repository root:

    tests/kernel/run jupyterlab_screenshot          # or, with the venv made:
    target/kernel-venv/bin/python tests/kernel/jupyterlab_screenshot.py [SCREENSHOT_DIR]

Screenshots go to target/jupyterlab-screenshots/ unless a directory is given.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

from kernel_support import ROOT, free_port, install_kernelspec

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
REQUIREMENTS = pathlib.Path(__file__).with_name("requirements-lab.txt")
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
# How long one notebook may take to run in the page (the notebook test allows 60 s each).
RUN_SECONDS = int(os.environ.get('LAB_RUN_SECONDS', 180))
# How long a Run All may take to start its first cell before it is given again.
START_SECONDS = 30
# True once some code cell has started: its prompt is `[*]:` or numbered.
STARTED = """() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
  .some(p => /^\\[(\\*|\\d+)\\]:$/.test(p.innerText.trim()))"""
# A progress bar as it must finally read: full, and with the total time.
FINISHED_BAR = re.compile(r"^\w+: 100%(\|█+\|)? (\d+)/\2 in \d+\.\d s$")


def ensure_tools() -> None:
    """Installs JupyterLab and Playwright into this venv, and Debian's chromium, if missing."""
    try:
        import jupyterlab  # noqa: F401
        import playwright  # noqa: F401
    except ImportError:
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(REQUIREMENTS)],
            check=True,
        )
    if not os.path.exists(CHROMIUM):
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env,
                       stdout=subprocess.DEVNULL)


def wait_for(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {seconds} s")


def workspace(directory: pathlib.Path) -> pathlib.Path:
    """A copy of `notebooks/` (JupyterLab saves what it runs) beside the repository's
    `tests/`, which notebooks read data from as `../tests/fixtures/...`."""
    shutil.copytree(ROOT / "notebooks", directory / "notebooks")
    (directory / "tests").symlink_to(ROOT / "tests")
    # Every cell in the page, so the checks see all outputs (no windowed rendering).
    settings = directory / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    # No news pop-up over the outputs (and no request for news from outside).
    notices = directory / "settings" / "@jupyterlab" / "apputils-extension"
    notices.mkdir(parents=True)
    (notices / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    return directory


# What the page reports about its outputs once a notebook has run.
INSPECT = r"""() => {
  const outputs = [...document.querySelectorAll('.jp-OutputArea-output')];
  const stderr = outputs
    .filter(o => o.matches('[data-mime-type="application/vnd.jupyter.stderr"]'))
    .map(o => o.innerText);
  const bars = outputs.map(o => o.innerText.trim()).filter(t => /^\w+: +\d+%/.test(t));
  const images = [...document.querySelectorAll('.jp-OutputArea-output img')].map(img => ({
    loaded: img.complete && img.naturalWidth > 0,
    width: img.getBoundingClientRect().width,
  }));
  // Every word with a digit in a rendered table must lie on one line.
  const broken = [];
  let numbers = 0;
  for (const cell of document.querySelectorAll('.jp-OutputArea-output table td')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\S*\d\S*/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        numbers += 1;
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
    .map(p => p.innerText.trim());
  return {stderr, bars, images, broken, numbers, prompts};
}"""


def plot_cells(path: pathlib.Path) -> int:
    """How many code cells of the notebook draw a plot (`plot(` or `spy(`)."""
    cells = json.loads(path.read_text())["cells"]
    return sum(
        1 for c in cells
        if c["cell_type"] == "code" and re.search(r"\b(plot|spy)\(", "".join(c["source"]))
    )


class JupyterLab:
    """JupyterLab on loopback over a workspace, and a headless Chromium page on it."""

    def __enter__(self) -> "JupyterLab":
        from playwright.sync_api import sync_playwright

        install_kernelspec()
        self.tmp = tempfile.TemporaryDirectory()
        root = workspace(pathlib.Path(self.tmp.name))
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.lab = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", f"--port={self.port}",
             "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={root}",
             f"--LabApp.user_settings_dir={root / 'settings'}", f"--LabApp.workspaces_dir={root / 'workspaces'}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_for(f"http://127.0.0.1:{self.port}/api?token={self.token}", 90)
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        return self

    def __exit__(self, *exc: object) -> None:
        for stop in (self.browser.close, self.playwright.stop):
            try:
                stop()
            except Exception:  # noqa: BLE001 - cleanup must go on
                pass
        self.lab.terminate()
        try:
            self.lab.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.lab.kill()
        self.tmp.cleanup()

    def run_notebook(self, name: str, screenshot: pathlib.Path) -> dict:
        """Opens `notebooks/name`, runs all its cells, and returns what the page shows."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        page = self.browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            # `reset`: a fresh workspace, with no tab of an earlier notebook restored.
            page.goto(f"http://127.0.0.1:{self.port}/lab/tree/notebooks/{name}?reset&token={self.token}")
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=90_000)
            page.click(".jp-Notebook .jp-CodeCell .jp-InputArea-editor")
            # Edit ▸ Clear Outputs of All Cells, then Run ▸ Run All Cells: every output checked
            # below is this run's.
            self.choose(page, "Edit", "Clear Outputs of All Cells")
            self.choose(page, "Run", "Run All Cells")
            # On a loaded machine the page may take the command before its kernel connection
            # is ready and drop it (every prompt stays `[ ]:` with the kernel idle): if no cell
            # has started after a while, run them all again.
            try:
                page.wait_for_function(STARTED, timeout=START_SECONDS * 1000)
            except PlaywrightTimeout:
                self.choose(page, "Run", "Run All Cells")
            # Done when the kernel is idle and every code cell has an execution count, or a cell
            # failed (Run All stops there; the checks below report it).
            page.wait_for_function(
                """() => {
                  const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
                  const idle = document.querySelector(".jp-Notebook-ExecutionIndicator[data-status='idle']");
                  const failed = document.querySelector('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
                  const done = prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p.innerText.trim()));
                  return idle && (done || failed);
                }""",
                timeout=RUN_SECONDS * 1000,
            )
            page.wait_for_timeout(500)  # images decode
            seen = page.evaluate(INSPECT)
            return seen
        finally:
            page.screenshot(path=str(screenshot), full_page=True)
            page.close()
            self.shut_down_kernels()

    @staticmethod
    def choose(page, menu: str, item: str) -> None:
        """Clicks `menu ▸ item` in JupyterLab's menu bar."""
        page.click(f".lm-MenuBar-itemLabel:text-is('{menu}')")
        page.click(f".lm-Menu-itemLabel:text-is('{item}')")

    def shut_down_kernels(self) -> None:
        """Ends the kernels of the notebooks run so far, through the server's REST API."""
        api = f"http://127.0.0.1:{self.port}/api/sessions"
        headers = {"Authorization": f"token {self.token}"}
        with urllib.request.urlopen(urllib.request.Request(api, headers=headers), timeout=10) as reply:
            sessions = json.load(reply)
        for session in sessions:
            request = urllib.request.Request(f"{api}/{session['id']}", headers=headers, method="DELETE")
            urllib.request.urlopen(request, timeout=30).close()


class JupyterLabTests(unittest.TestCase):
    screenshots = ROOT / "target" / "jupyterlab-screenshots"

    @classmethod
    def setUpClass(cls) -> None:
        ensure_tools()
        cls.screenshots.mkdir(parents=True, exist_ok=True)
        cls.lab = JupyterLab().__enter__()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.lab.__exit__(None, None, None)

    def test_every_notebook_reads_well_in_jupyterlab(self) -> None:
        self.assertGreaterEqual(len(NOTEBOOKS), 5)
        for path in NOTEBOOKS:
            with self.subTest(notebook=path.name):
                seen = self.lab.run_notebook(path.name, self.screenshots / f"{path.stem}.png")
                self.assertTrue(seen["prompts"], "the notebook's cells are in the page")
                self.assertEqual(seen["stderr"], [], "no error or stderr output")
                for bar in seen["bars"]:
                    self.assertRegex(bar, FINISHED_BAR, "one line per progress bar, finished")
                plots = plot_cells(path)
                self.assertGreaterEqual(len(seen["images"]), plots, "an image per plot")
                for image in seen["images"]:
                    self.assertTrue(image["loaded"], image)
                    self.assertGreater(image["width"], 100, image)
                self.assertEqual(seen["broken"], [], f"numbers on one line ({seen['numbers']} checked)")
                if "benchmark_differentiation" in path.read_text():
                    self.assertTrue(seen["bars"], "the progress bars are shown")
                    self.assertGreater(seen["numbers"], 0, "the tables are HTML")


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        JupyterLabTests.screenshots = pathlib.Path(sys.argv.pop(1)).resolve()
    unittest.main()
