"""The difflab kernel served by JupyterHub: a hub on loopback with the repository's configuration
(kernel/jupyterhub/jupyterhub_config.py), where a test may change only what a loopback test must:
the DummyAuthenticator, the SimpleLocalProcessSpawner, free ports and a temporary state directory.

Through the hub's REST API the test creates a user and a token for that user, starts the user's
server and waits for it; through that server's REST API (/user/<name>/api/...) it checks the
`difflab` kernelspec is served exactly as `difflab-kernel install` wrote it, starts a kernel and
runs difflab code over the kernel's websocket, checking the result. Then it stops the kernel, the
server, the hub and the proxy, and checks none of their processes is left, failure or not.

It installs what it needs: JupyterHub, Jupyter Server and websocket-client from the Python package
index into target/kernel-venv (pinned in requirements-hub.txt), and configurable-http-proxy from
the npm registry into target/jupyterhub-proxy (with Debian's nodejs and npm, installed with
apt-get only when `npm` is missing). The test command runs it (tests/kernel/run; `HUB=0` leaves
it out). By hand, from the repository root:

    tests/kernel/run test_jupyterhub
"""

from __future__ import annotations

import json
import os
import pathlib
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
import uuid

from kernel_support import KERNEL_NAME, ROOT, free_port, install_kernelspec

REQUIREMENTS = pathlib.Path(__file__).with_name("requirements-hub.txt")
HUB_CONFIG = ROOT / "kernel" / "jupyterhub" / "jupyterhub_config.py"
PROXY_PACKAGE = "configurable-http-proxy@5.3.0"
PROXY_DIR = ROOT / "target" / "jupyterhub-proxy"
PROXY = PROXY_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
USER = "student"
CODE = "gradient(x -> sum(abs2, x), AutoForwardDiff(), [1.0, 2.0])"
EXPECTED = "2-element Vector{Float64}:\n 2.0\n 4.0"
# Starting the hub, a user's server or a kernel; a kernel's reply.
START_SECONDS = 60


def ensure_tools() -> None:
    """Installs the pinned Python packages and configurable-http-proxy, when missing."""
    marker = pathlib.Path(sys.prefix) / ".requirements-hub.txt"
    if not marker.exists() or marker.read_bytes() != REQUIREMENTS.read_bytes():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(REQUIREMENTS)],
            check=True,
        )
        shutil.copyfile(REQUIREMENTS, marker)
    if not PROXY.exists():
        if shutil.which("npm") is None:
            sudo = [] if os.geteuid() == 0 else ["sudo"]
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
            subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "nodejs", "npm"], check=True, env=env,
                           stdout=subprocess.DEVNULL)
        subprocess.run(
            ["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(PROXY_DIR), PROXY_PACKAGE],
            check=True,
        )


def alive(pid: int) -> bool:
    """Whether process `pid` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def processes_under(directory: pathlib.Path) -> list[int]:
    """The live processes whose command line names `directory` (kernels: their connection file)."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit() and entry.name != str(os.getpid()):
            try:
                cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if str(directory) in cmdline and alive(int(entry.name)):
                found.append(int(entry.name))
    return found


class Api:
    """JSON requests to one base URL with one token."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token

    def __call__(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"token {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read()
        try:
            return status, (json.loads(text) if text.strip() else None)
        except ValueError:  # the proxy's error page while the hub starts
            return status, text.decode(errors="replace")


@unittest.skipIf(os.environ.get("HUB") == "0", "HUB=0")
class JupyterHubTest(unittest.TestCase):
    def setUp(self) -> None:
        ensure_tools()
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="difflab-hub-"))
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.kernelspecs = pathlib.Path(install_kernelspec()) / "kernels"
        self.pids: dict[str, int] = {}
        self.hub: subprocess.Popen | None = None
        self.log = self.dir / "jupyterhub.log"

    def write_config(self, public: int, hub: int, proxy_api: int, service_token: str) -> pathlib.Path:
        config = self.dir / "jupyterhub_config.py"
        venv_bin = pathlib.Path(sys.executable).parent
        config.write_text(f"""\
load_subconfig({str(HUB_CONFIG)!r})
c.JupyterHub.bind_url = "http://127.0.0.1:{public}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api}"
c.ConfigurableHTTPProxy.command = [{str(PROXY)!r}]
c.ConfigurableHTTPProxy.pid_file = {str(self.dir / "proxy.pid")!r}
c.JupyterHub.db_url = "sqlite:///" + {str(self.dir / "jupyterhub.sqlite")!r}
c.JupyterHub.cookie_secret_file = {str(self.dir / "cookie_secret")!r}
c.JupyterHub.authenticator_class = "dummy"
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {str(self.dir / "home" / "{username}")!r}
c.Spawner.cmd = [{str(venv_bin / "jupyterhub-singleuser")!r}]
if {os.geteuid() == 0}:  # Jupyter Server refuses to run as root unless told
    c.Spawner.args.append("--allow-root")
c.JupyterHub.services = [{{"name": "difflab-test", "api_token": {service_token!r}}}]
c.JupyterHub.load_roles = [{{
    "name": "difflab-test",
    "scopes": ["admin:users", "admin:servers", "tokens"],
    "services": ["difflab-test"],
}}]
""")
        return config

    def start_hub(self, config: pathlib.Path, hub_api: Api) -> None:
        env = dict(os.environ)
        env["PATH"] = str(pathlib.Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
        with open(self.log, "wb") as log:
            self.hub = subprocess.Popen(
                # The config's name is relative, so processes_under(self.dir) finds no hub.
                [sys.executable, "-m", "jupyterhub", "-f", config.name],
                cwd=self.dir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        self.addCleanup(self.stop_everything)
        deadline = time.monotonic() + START_SECONDS
        while True:
            self.assertIsNone(self.hub.poll(), f"the hub exited:\n{self.log_tail()}")
            try:
                status, _ = hub_api("GET", "/")
                if status == 200:
                    break
            except OSError:
                pass
            self.assertLess(time.monotonic(), deadline, f"the hub did not answer:\n{self.log_tail()}")
            time.sleep(0.3)
        self.pids["proxy"] = int((self.dir / "proxy.pid").read_text())

    def log_tail(self) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-40:])
        except OSError:
            return "(no log)"

    def stop_everything(self) -> None:
        """Stops the hub (which stops the servers it spawned and its proxy), then anything left."""
        if self.hub is not None and self.hub.poll() is None:
            self.hub.send_signal(signal.SIGTERM)
            try:
                self.hub.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.hub.pid, signal.SIGKILL)
                self.hub.wait()
        proxy_pid = self.dir / "proxy.pid"
        if "proxy" not in self.pids and proxy_pid.exists():  # the hub failed before it answered
            self.pids["proxy"] = int(proxy_pid.read_text())
        for pid in list(self.pids.values()) + processes_under(self.dir):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)

    def wait_until(self, what: str, check, seconds: float = START_SECONDS):
        deadline = time.monotonic() + seconds
        while True:
            value = check()
            if value:
                return value
            self.assertLess(time.monotonic(), deadline, f"{what} timed out:\n{self.log_tail()}")
            time.sleep(0.3)

    def execute(self, ws_url: str, token: str, code: str) -> tuple[dict, list[dict]]:
        """Runs `code` over the kernel's websocket; the execute_reply content and the outputs."""
        import websocket

        session = uuid.uuid4().hex
        ws = websocket.create_connection(
            f"{ws_url}?session_id={session}", header=[f"Authorization: token {token}"], timeout=START_SECONDS,
        )
        try:
            msg_id = uuid.uuid4().hex
            ws.send(json.dumps({
                "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": session,
                           "username": USER, "version": "5.3"},
                "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True},
            }))
            reply, outputs, idle = None, [], False
            while reply is None or not idle:
                message = json.loads(ws.recv())
                if message.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind = message["msg_type"]
                if kind == "execute_reply":
                    reply = message["content"]
                elif kind == "status":
                    idle = message["content"]["execution_state"] == "idle"
                elif kind in ("execute_result", "display_data", "stream", "error"):
                    outputs.append(message)
            return reply, outputs
        finally:
            ws.close()

    def test_a_user_runs_difflab_through_the_hub(self) -> None:
        public, hub_port, proxy_api = free_port(), free_port(), free_port()
        service_token = secrets.token_hex(16)
        base = f"http://127.0.0.1:{public}"
        hub_api = Api(base + "/hub/api", service_token)
        self.start_hub(self.write_config(public, hub_port, proxy_api, service_token), hub_api)

        # A user, and a token of theirs, through the hub's REST API.
        status, user = hub_api("POST", f"/users/{USER}")
        self.assertEqual(status, 201, user)
        status, token = hub_api("POST", f"/users/{USER}/tokens", {"note": "difflab test"})
        self.assertEqual(status, 201, token)
        user_token = token["token"]
        as_user = Api(base, user_token)

        # The user's server, started by the user's token and awaited through the hub.
        status, body = as_user("POST", f"/hub/api/users/{USER}/server")
        self.assertIn(status, (201, 202), f"{body}\n{self.log_tail()}")

        def ready() -> dict | None:
            server = hub_api("GET", f"/users/{USER}")[1]["servers"].get("")
            return server if server and server["ready"] else None

        server = self.wait_until("the user's server", ready)
        self.pids["server"] = server["state"]["pid"]
        self.assertTrue(alive(self.pids["server"]))
        self.assertEqual(server["url"], f"/user/{USER}/")

        # The kernelspec, served unchanged by the user's server.
        status, specs = as_user("GET", f"/user/{USER}/api/kernelspecs")
        self.assertEqual(status, 200, specs)
        self.assertIn(KERNEL_NAME, specs["kernelspecs"])
        installed = json.loads((self.kernelspecs / KERNEL_NAME / "kernel.json").read_text())
        served = specs["kernelspecs"][KERNEL_NAME]["spec"]
        # Jupyter Server adds the fields it defaults (an empty `env`); every installed one is kept.
        self.assertEqual({key: served.get(key) for key in installed}, installed)

        # A difflab kernel on that server, running difflab code over its websocket.
        status, kernel = as_user("POST", f"/user/{USER}/api/kernels", {"name": KERNEL_NAME})
        self.assertEqual(status, 201, kernel)
        self.assertEqual(kernel["name"], KERNEL_NAME)
        self.assertEqual(len(processes_under(self.dir)), 1, "one kernel process, its connection file in the home")
        ws_url = f"ws://127.0.0.1:{public}/user/{USER}/api/kernels/{kernel['id']}/channels"
        reply, outputs = self.execute(ws_url, user_token, CODE)
        self.assertEqual(reply["status"], "ok", (reply, outputs))
        self.assertEqual([m["msg_type"] for m in outputs], ["execute_result"], outputs)
        self.assertEqual(outputs[0]["content"]["data"]["text/plain"], EXPECTED)
        reply, outputs = self.execute(ws_url, user_token, "sum(abs2, [3.0, 4.0]) |> sqrt |> println")
        self.assertEqual(reply["status"], "ok", (reply, outputs))
        self.assertEqual([(m["msg_type"], m["content"].get("text")) for m in outputs], [("stream", "5.0\n")])

        # Stop the kernel and the server through the APIs, then the hub and its proxy.
        status, _ = as_user("DELETE", f"/user/{USER}/api/kernels/{kernel['id']}")
        self.assertEqual(status, 204)
        status, body = as_user("DELETE", f"/hub/api/users/{USER}/server")
        self.assertIn(status, (202, 204), body)
        self.wait_until("stopping the user's server", lambda: not hub_api("GET", f"/users/{USER}")[1]["servers"])
        self.wait_until("the server's exit", lambda: not alive(self.pids["server"]))
        self.hub.send_signal(signal.SIGTERM)
        self.assertEqual(self.hub.wait(30), 0, self.log_tail())
        self.wait_until("the proxy's exit", lambda: not alive(self.pids["proxy"]), 10)
        self.assertEqual(processes_under(self.dir), [], "processes left in the hub's directory")


if __name__ == "__main__":
    unittest.main()
