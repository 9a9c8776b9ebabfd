"""Benchmark: difflab-kernel against ipykernel, side by side in one run, through jupyter_client.

Measures, for each kernel:
- start to first reply: from `KernelManager.start_kernel` to the reply to a `kernel_info_request`
  sent at once (the kernel's own start-up; median of several starts);
- start to ready: `start_kernel` + `wait_for_ready`, what nbclient and jupyter_kernel_test wait
  for; it includes a fixed 0.2 s in which jupyter_client waits for IOPub to fall quiet;
- a trivial execute round trip: `execute_interactive("1 + 1")` until idle and reply (median);
  most of it is jupyter_client's own Python work (it parses five messages), so it is measured
  again with a minimal client (pyzmq, a pre-signed request, the reply and `idle` found by
  byte search) to show the kernel's part;
- idle memory: the kernel process's resident set size after warm-up.
and prints difflab / ipykernel ratios (the targets are at most 0.1 for both times).

Not part of the test command. Run it from the repository root after `tests/kernel/run` made the
virtual environment: `target/kernel-venv/bin/python tests/kernel/bench.py [--starts N]
[--executes N]`. It installs ipykernel into that environment when it is missing.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import importlib.util
import json
import statistics
import subprocess
import sys
import time
import uuid

import zmq

from jupyter_client.manager import KernelManager

from kernel_support import KERNEL_NAME, install_kernelspec


def ensure_ipykernel() -> None:
    if importlib.util.find_spec("ipykernel") is None:
        print("installing ipykernel into this environment...", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "ipykernel"], check=True)


def start(kernel_name: str):
    """A started kernel and client, the seconds to its first reply and to ready."""
    started = time.perf_counter()
    km = KernelManager(kernel_name=kernel_name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    # The DEALER socket queues the request until the kernel has bound its sockets, so the reply
    # marks the moment the kernel answers.
    kc.kernel_info()
    kc.get_shell_msg(timeout=60)
    first_reply = time.perf_counter() - started
    kc.wait_for_ready(timeout=60)
    return km, kc, first_reply, time.perf_counter() - started


def stop(km, kc) -> None:
    kc.stop_channels()
    km.shutdown_kernel(now=False)


def raw_round_trips(km, count: int) -> list[float]:
    """Execute round trips with a minimal client: one signed request, then the reply and the
    request's `idle` status, without parsing anything."""
    info = km.get_connection_info()
    key = info["key"]
    with zmq.Context() as ctx:
        shell = ctx.socket(zmq.DEALER)
        iopub = ctx.socket(zmq.SUB)
        for socket in (shell, iopub):
            socket.linger = 0
        iopub.setsockopt(zmq.SUBSCRIBE, b"")
        shell.connect(f"tcp://{info['ip']}:{info['shell_port']}")
        iopub.connect(f"tcp://{info['ip']}:{info['iopub_port']}")
        time.sleep(0.3)  # let the subscription reach the kernel

        def round_trip() -> float:
            msg_id = uuid.uuid4().hex
            header = {
                "msg_id": msg_id,
                "session": "bench",
                "username": "bench",
                "date": "2024-01-01T00:00:00Z",
                "msg_type": "execute_request",
                "version": "5.3",
            }
            content = {
                "code": "1 + 1",
                "silent": False,
                "store_history": True,
                "user_expressions": {},
                "allow_stdin": False,
                "stop_on_error": True,
            }
            parts = [json.dumps(header).encode(), b"{}", b"{}", json.dumps(content).encode()]
            signature = hmac.new(key, b"".join(parts), hashlib.sha256).hexdigest().encode()
            began = time.perf_counter()
            shell.send_multipart([b"<IDS|MSG>", signature, *parts])
            shell.recv_multipart()
            while True:
                frames = iopub.recv_multipart()
                if b'"idle"' in frames[-1] and msg_id.encode() in frames[-3]:
                    return time.perf_counter() - began

        for _ in range(5):
            round_trip()
        return [round_trip() for _ in range(count)]


def rss_mib(km) -> float:
    """The resident set size of the kernel process, in MiB (Linux)."""
    pid = km.provisioner.process.pid
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def measure(kernel_name: str, starts: int, executes: int) -> dict[str, float]:
    first, ready = [], []
    for _ in range(starts):
        km, kc, first_reply, seconds = start(kernel_name)
        first.append(first_reply)
        ready.append(seconds)
        stop(km, kc)
    km, kc, _, _ = start(kernel_name)

    def quiet(msg: dict) -> None:
        pass

    for _ in range(5):
        kc.execute_interactive("1 + 1", timeout=60, output_hook=quiet)
    round_trips = []
    for _ in range(executes):
        began = time.perf_counter()
        reply = kc.execute_interactive("1 + 1", timeout=60, output_hook=quiet)
        round_trips.append(time.perf_counter() - began)
        assert reply["content"]["status"] == "ok", reply
    raw = raw_round_trips(km, executes * 4)
    memory = rss_mib(km)
    stop(km, kc)
    return {
        "first_reply_s": statistics.median(first),
        "ready_s": statistics.median(ready),
        "execute_ms": statistics.median(round_trips) * 1000,
        "execute_p90_ms": sorted(round_trips)[int(0.9 * (len(round_trips) - 1))] * 1000,
        "raw_execute_ms": statistics.median(raw) * 1000,
        "rss_mib": memory,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--executes", type=int, default=50)
    args = parser.parse_args()
    ensure_ipykernel()
    install_kernelspec()
    results = {
        name: measure(name, args.starts, args.executes) for name in (KERNEL_NAME, "python3")
    }
    ours, theirs = results[KERNEL_NAME], results["python3"]
    rows = [
        ("start to first reply (median)", "first_reply_s", "s"),
        ("start to ready (median)", "ready_s", "s"),
        ("execute round trip (median)", "execute_ms", "ms"),
        ("execute round trip (p90)", "execute_p90_ms", "ms"),
        ("  with a minimal client", "raw_execute_ms", "ms"),
        ("idle memory (RSS)", "rss_mib", "MiB"),
    ]
    print(f"{'':30} {'difflab':>12} {'ipykernel':>12} {'ratio':>8}")
    for label, key, unit in rows:
        print(
            f"{label:30} {ours[key]:>9.3f} {unit:<2} {theirs[key]:>9.3f} {unit:<2}"
            f" {ours[key] / theirs[key]:>8.3f}"
        )


if __name__ == "__main__":
    main()
