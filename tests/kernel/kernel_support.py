"""Shared set-up for the kernel tests.

`install_kernelspec()` installs the `difflab` kernelspec into a temporary prefix with
`difflab-kernel install --prefix TMP` and puts that prefix first on `JUPYTER_PATH`, so
`jupyter_client` starts the kernel binary under test: `target/debug/difflab-kernel`, or the
path in the environment variable `DIFFLAB_KERNEL`.
"""

from __future__ import annotations

import atexit
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNEL_NAME = "difflab"
TIMEOUT = 15

_installed: str | None = None


def kernel_binary() -> str:
    """The kernel binary under test."""
    return os.environ.get("DIFFLAB_KERNEL") or str(ROOT / "target" / "debug" / "difflab-kernel")


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def install_kernelspec() -> str:
    """Installs the kernelspec once per process; returns the Jupyter data directory used."""
    global _installed
    if _installed is None:
        prefix = tempfile.mkdtemp(prefix="difflab-kernelspec-")
        atexit.register(shutil.rmtree, prefix, True)
        subprocess.run(
            [kernel_binary(), "install", "--prefix", prefix],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        data = os.path.join(prefix, "share", "jupyter")
        previous = os.environ.get("JUPYTER_PATH")
        os.environ["JUPYTER_PATH"] = data + (os.pathsep + previous if previous else "")
        _installed = data
    return _installed


def run(kc: Any, code: str, timeout: float = TIMEOUT, **options: Any) -> tuple[dict, list[dict]]:
    """Executes `code`; the reply content and the IOPub messages of the request (no status).

    Stdin is off unless `allow_stdin` and a `stdin_hook` are given.
    """
    options.setdefault("allow_stdin", False)
    messages: list[dict] = []
    reply = kc.execute_interactive(code, output_hook=messages.append, timeout=timeout, **options)
    return reply["content"], [m for m in messages if m["msg_type"] != "status"]


def result_text(kc: Any, code: str) -> str:
    """The `text/plain` result of `code`, failing if it raises."""
    content, outputs = run(kc, code)
    assert content["status"] == "ok", f"{code!r} failed: {content}"
    results = [m for m in outputs if m["msg_type"] == "execute_result"]
    assert len(results) == 1, f"{code!r} gave {outputs}"
    return results[0]["content"]["data"]["text/plain"]
