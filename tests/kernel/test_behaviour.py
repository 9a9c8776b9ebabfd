"""Behaviour of the difflab kernel that the conformance suite does not check, through
`jupyter_client`: state across errors and interrupts, execution counts, output order, signature
checks, the control and stdin channels, stop_on_error, user_expressions, comms, heartbeat,
restart and shutdown.

Run with `tests/kernel/run`, or directly: `python -m unittest tests/kernel/test_behaviour.py`.
"""

from __future__ import annotations

import time
import unittest
import uuid
from queue import Empty

import zmq
from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session

from kernel_support import KERNEL_NAME, TIMEOUT, install_kernelspec, result_text, run


def setUpModule() -> None:
    install_kernelspec()


class KernelCase(unittest.TestCase):
    """One kernel per test class, as jupyter_kernel_test does."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.km, cls.kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=False)

    def setUp(self) -> None:
        self.drain()

    def drain(self) -> None:
        """Discards whatever is waiting on the shell and IOPub channels."""
        for get in (self.kc.get_shell_msg, self.kc.get_iopub_msg):
            while True:
                try:
                    get(timeout=0.05)
                except Empty:
                    break

    def reply_to(self, msg_id: str, timeout: float = TIMEOUT) -> dict:
        """The shell reply to `msg_id`, skipping replies to other requests."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.kc.get_shell_msg(timeout=max(0.01, deadline - time.monotonic()))
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg

    def iopub_of(self, msg_id: str, timeout: float = TIMEOUT) -> list[dict]:
        """The IOPub messages of request `msg_id`, from busy to idle inclusive."""
        deadline = time.monotonic() + timeout
        messages = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            messages.append(msg)
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return messages


class StateTests(KernelCase):
    def test_variables_survive_an_error(self) -> None:
        run(self.kc, "x = 41")
        content, outputs = run(self.kc, "sqrt(-1.0)")
        self.assertEqual(content["status"], "error")
        self.assertEqual(content["ename"], "DomainError")
        self.assertEqual([m["msg_type"] for m in outputs], ["execute_input", "error"])
        error = outputs[1]["content"]
        self.assertEqual(error["ename"], "DomainError")
        self.assertTrue(any("In[" in line for line in error["traceback"]), error["traceback"])
        self.assertEqual(result_text(self.kc, "x + 1"), "42")

    def test_silent_runs_do_not_count(self) -> None:
        before, _ = run(self.kc, "1")
        content, outputs = run(self.kc, "quiet = 5", silent=True)
        self.assertEqual(content["status"], "ok")
        self.assertEqual(content["execution_count"], before["execution_count"])
        self.assertEqual(outputs, [], "a silent run publishes nothing but its status")
        after, _ = run(self.kc, "quiet")
        self.assertEqual(after["execution_count"], before["execution_count"] + 1)
        self.assertEqual(result_text(self.kc, "quiet"), "5")

    def test_store_history_false_does_not_count(self) -> None:
        before, _ = run(self.kc, "2")
        content, outputs = run(self.kc, "3", store_history=False)
        self.assertEqual(content["execution_count"], before["execution_count"])
        self.assertIn("execute_result", [m["msg_type"] for m in outputs])

    def test_silent_errors_still_reply(self) -> None:
        content, outputs = run(self.kc, 'error("quiet boom")', silent=True)
        self.assertEqual(content["status"], "error")
        self.assertEqual(content["evalue"], "quiet boom")
        self.assertEqual(outputs, [])

    def test_trailing_semicolon_hides_the_result(self) -> None:
        content, outputs = run(self.kc, "y = 2;")
        self.assertEqual(content["status"], "ok")
        self.assertNotIn("execute_result", [m["msg_type"] for m in outputs])
        self.assertEqual(result_text(self.kc, "y"), "2")

    def test_help_is_a_page_payload(self) -> None:
        for code in ("?sin", "sin?"):
            content, outputs = run(self.kc, code)
            self.assertEqual(content["status"], "ok")
            [page] = content["payload"]
            self.assertEqual(page["source"], "page")
            self.assertIn("sin", page["data"]["text/plain"])
            # Markdown beside the text, with the examples as Julia code blocks.
            self.assertIn("```julia\njulia> sin(", page["data"]["text/markdown"])
            self.assertNotIn("execute_result", [m["msg_type"] for m in outputs])

    def test_progress_is_one_display_updated_in_place(self) -> None:
        code = (
            "f(x) = sum(abs2, x)\n"
            "sc = [Scenario{:gradient, :out}(f, rand(n); res1=nothing) for n in [3, 4, 5]]\n"
            "benchmark_differentiation([AutoForwardDiff(), AutoFiniteDiff()], sc; logging=true);"
        )
        content, outputs = run(self.kc, code, timeout=60)
        self.assertEqual(content["status"], "ok")
        self.assertEqual([m for m in outputs if m["msg_type"] == "stream"], [], "nothing on stderr")
        shown = [m for m in outputs if m["msg_type"] in ("display_data", "update_display_data")]
        self.assertEqual([m["msg_type"] for m in shown], ["display_data"] + ["update_display_data"] * 6)
        ids = {m["content"]["transient"]["display_id"] for m in shown}
        self.assertEqual(len(ids), 1, "one display id for the bar")
        lines = [m["content"]["data"]["text/plain"] for m in shown]
        self.assertTrue(lines[0].startswith("benchmark_differentiation:   0%|"), lines[0])
        self.assertRegex(lines[-1], r"^benchmark_differentiation: 100%\|█+\| 6/6 in \d+\.\d s$")
        self.assertFalse(any("\r" in line for line in lines))

    def test_user_expressions(self) -> None:
        run(self.kc, "base = 3")
        content, _ = run(
            self.kc, "base = 4", user_expressions={"double": "2base", "bad": "undefined_thing"}
        )
        expressions = content["user_expressions"]
        self.assertEqual(expressions["double"]["status"], "ok")
        self.assertEqual(expressions["double"]["data"]["text/plain"], "8")
        self.assertEqual(expressions["bad"]["status"], "error")
        self.assertEqual(expressions["bad"]["ename"], "UndefVarError")

    def test_unicode_round_trip_and_cursor_positions(self) -> None:
        content, outputs = run(self.kc, 'println("α ∇ 𝑓")')
        self.assertEqual(content["status"], "ok")
        self.assertEqual(outputs[-1]["content"]["text"], "α ∇ 𝑓\n")
        run(self.kc, "αβ_long = 1")
        code = "𝑓 = αβ_lo"
        msg_id = self.kc.complete(code, cursor_pos=len(code))
        reply = self.reply_to(msg_id)["content"]
        self.assertIn("αβ_long", reply["matches"])
        # Positions count code points: the word starts after "𝑓 = ", at 4.
        self.assertEqual((reply["cursor_start"], reply["cursor_end"]), (4, len(code)))

    def test_inspect_and_is_complete(self) -> None:
        msg_id = self.kc.inspect("y = sqrt(2)", cursor_pos=6)
        reply = self.reply_to(msg_id)["content"]
        self.assertTrue(reply["found"])
        self.assertIn("sqrt", reply["data"]["text/plain"])
        msg_id = self.kc.is_complete("for i in 1:3")
        reply = self.reply_to(msg_id)["content"]
        self.assertEqual(reply["status"], "incomplete")
        self.assertIsInstance(reply["indent"], str)

    def test_comms_are_closed(self) -> None:
        msg_id = self.kc.comm_info()
        self.assertEqual(self.reply_to(msg_id)["content"], {"status": "ok", "comms": {}})
        comm_id = uuid.uuid4().hex
        msg = self.kc.session.msg(
            "comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget", "data": {}}
        )
        self.kc.shell_channel.send(msg)
        published = self.iopub_of(msg["header"]["msg_id"])
        closes = [m for m in published if m["msg_type"] == "comm_close"]
        self.assertEqual([m["content"]["comm_id"] for m in closes], [comm_id])


class OutputTests(KernelCase):
    def test_a_thousand_lines_arrive_complete_and_in_order(self) -> None:
        expected = "".join(f"{i}\n" for i in range(1, 1001))
        for _ in range(5):
            content, outputs = run(self.kc, "for i in 1:1000 println(i) end")
            self.assertEqual(content["status"], "ok")
            streams = [m for m in outputs if m["msg_type"] == "stream"]
            self.assertTrue(all(m["content"]["name"] == "stdout" for m in streams))
            self.assertEqual("".join(m["content"]["text"] for m in streams), expected)
            self.assertLess(len(streams), 100, "stream text is batched")

    def test_stdout_and_stderr_keep_their_order(self) -> None:
        code = 'println("a"); println(stderr, "b"); println("c")'
        _, outputs = run(self.kc, code)
        streams = [
            (m["content"]["name"], m["content"]["text"])
            for m in outputs
            if m["msg_type"] == "stream"
        ]
        self.assertEqual(streams, [("stdout", "a\n"), ("stderr", "b\n"), ("stdout", "c\n")])

    def test_output_precedes_the_error(self) -> None:
        _, outputs = run(self.kc, 'println("before"); error("after")')
        self.assertEqual([m["msg_type"] for m in outputs], ["execute_input", "stream", "error"])

    def test_display_and_clear_output(self) -> None:
        _, outputs = run(self.kc, "display(1); clear_output(true); display(2)")
        kinds = [(m["msg_type"], m["content"].get("wait")) for m in outputs[1:]]
        self.assertEqual(
            kinds, [("display_data", None), ("clear_output", True), ("display_data", None)]
        )
        self.assertEqual(outputs[3]["content"]["data"]["text/plain"], "2")


class InterruptTests(KernelCase):
    def interrupt_loop(self, interrupt) -> None:
        run(self.kc, "kept = 7")
        msg_id = self.kc.execute("while true end")
        time.sleep(0.3)
        started = time.monotonic()
        interrupt()
        reply = self.reply_to(msg_id, timeout=5)
        elapsed = time.monotonic() - started
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "InterruptException")
        self.assertLess(elapsed, 1.0)
        self.drain()
        self.assertEqual(result_text(self.kc, "kept"), "7")

    def test_interrupt_request_on_control(self) -> None:
        request = self.kc.session.msg("interrupt_request", {})

        def interrupt() -> None:
            self.kc.control_channel.send(request)

        self.interrupt_loop(interrupt)
        reply = self.kc.control_channel.get_msg(timeout=TIMEOUT)
        self.assertEqual(reply["msg_type"], "interrupt_reply")
        self.assertEqual(reply["content"], {"status": "ok"})

    def test_kernel_manager_interrupt(self) -> None:
        self.assertEqual(self.km.kernel_spec.interrupt_mode, "message")
        self.interrupt_loop(self.km.interrupt_kernel)

    def test_sigint_only_interrupts(self) -> None:
        self.interrupt_loop(lambda: self.km.signal_kernel(2))
        self.assertTrue(self.km.is_alive())

    def test_interrupt_while_waiting_for_input(self) -> None:
        # The interrupted `readline` returns; the loop then stops at its next interrupt check.
        msg_id = self.kc.execute("for attempt in 1:3 readline() end", allow_stdin=True)
        request = self.kc.get_stdin_msg(timeout=TIMEOUT)
        self.assertEqual(request["msg_type"], "input_request")
        started = time.monotonic()
        self.km.interrupt_kernel()
        reply = self.reply_to(msg_id, timeout=5)
        self.assertLess(time.monotonic() - started, 1.0)
        self.assertEqual(reply["content"]["ename"], "InterruptException")
        with self.assertRaises(Empty):
            self.kc.get_stdin_msg(timeout=0.2)

    def test_stop_on_error_aborts_queued_cells(self) -> None:
        # The loop keeps the first cell running while the second is queued behind it.
        first = self.kc.execute('for i in 1:100000 end; error("boom")')
        second = self.kc.execute("global after_error = 1")
        self.assertEqual(self.reply_to(first)["content"]["status"], "error")
        aborted = self.reply_to(second)["content"]
        self.assertEqual(aborted["status"], "error")
        self.assertEqual(aborted["ename"], "ExecutionAborted")
        self.drain()
        content, _ = run(self.kc, "after_error")
        self.assertEqual(content["ename"], "UndefVarError")

    def test_stop_on_error_false_runs_queued_cells(self) -> None:
        first = self.kc.execute('for i in 1:100000 end; error("boom")', stop_on_error=False)
        second = self.kc.execute("global after_error2 = 2")
        self.assertEqual(self.reply_to(first)["content"]["status"], "error")
        self.assertEqual(self.reply_to(second)["content"]["status"], "ok")
        self.drain()
        self.assertEqual(result_text(self.kc, "after_error2"), "2")


class ChannelTests(KernelCase):
    def test_kernel_info_on_control(self) -> None:
        request = self.kc.session.msg("kernel_info_request", {})
        self.kc.control_channel.send(request)
        reply = self.kc.control_channel.get_msg(timeout=TIMEOUT)
        self.assertEqual(reply["msg_type"], "kernel_info_reply")
        self.assertEqual(reply["parent_header"]["msg_id"], request["header"]["msg_id"])
        self.assertEqual(reply["content"]["language_info"]["name"], "difflab")
        published = self.iopub_of(request["header"]["msg_id"])
        states = [m["content"]["execution_state"] for m in published]
        self.assertEqual(states, ["busy", "idle"])

    def test_readline_asks_stdin(self) -> None:
        prompts = []

        def answer(msg: dict) -> None:
            prompts.append(msg["content"]["prompt"])
            self.kc.input("ada")

        code = 'println("first"); name = readline(prompt="who? ")'
        content, outputs = run(self.kc, code, allow_stdin=True, stdin_hook=answer)
        self.assertEqual(content["status"], "ok")
        self.assertEqual(prompts, ["who? "])
        self.assertIn("first\n", [m["content"].get("text") for m in outputs])
        self.assertEqual(result_text(self.kc, "name"), '"ada"')

    def test_readline_without_stdin_is_empty(self) -> None:
        content, _ = run(self.kc, "empty = readline()", allow_stdin=False)
        self.assertEqual(content["status"], "ok")
        self.assertEqual(result_text(self.kc, "empty"), '""')

    def test_heartbeat_echoes(self) -> None:
        info = self.km.get_connection_info()
        with zmq.Context() as ctx, ctx.socket(zmq.REQ) as socket:
            socket.linger = 0
            socket.connect(f"tcp://{info['ip']}:{info['hb_port']}")
            socket.send(b"ping \x00\xff")
            self.assertTrue(socket.poll(TIMEOUT * 1000))
            self.assertEqual(socket.recv(), b"ping \x00\xff")


class SecurityTests(KernelCase):
    def raw_shell(self, ctx: zmq.Context) -> zmq.Socket:
        info = self.km.get_connection_info()
        socket = ctx.socket(zmq.DEALER)
        socket.linger = 0
        socket.connect(f"tcp://{info['ip']}:{info['shell_port']}")
        return socket

    def test_wrong_key_is_not_executed(self) -> None:
        wrong = Session(key=b"not-the-kernel-key", username="intruder")
        with zmq.Context() as ctx:
            socket = self.raw_shell(ctx)
            msg = wrong.send(
                socket, "execute_request", {"code": "global marker = 1", "silent": False}
            )
            self.assertFalse(socket.poll(1000), "a badly signed request got a reply")
            socket.close()
        for_it = []
        while True:
            try:
                m = self.kc.get_iopub_msg(timeout=0.1)
            except Empty:
                break
            if m["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                for_it.append(m)
        self.assertEqual(for_it, [], "a badly signed request was announced on IOPub")
        content, _ = run(self.kc, "marker")
        self.assertEqual(content["status"], "error")
        self.assertEqual(content["ename"], "UndefVarError")

    def test_malformed_frames_are_dropped(self) -> None:
        key = self.kc.session.key
        good = Session(key=key)
        with zmq.Context() as ctx:
            socket = self.raw_shell(ctx)
            socket.send_multipart([b"garbage"])
            socket.send_multipart([b"<IDS|MSG>", b"sig"])
            # Correctly signed, but not JSON.
            parts = [b"{", b"{}", b"{}", b"{}"]
            socket.send_multipart([b"<IDS|MSG>", good.sign(parts), *parts])
            # Correctly signed JSON without a msg_type.
            parts = [b"{}", b"{}", b"{}", b"{}"]
            socket.send_multipart([b"<IDS|MSG>", good.sign(parts), *parts])
            self.assertFalse(socket.poll(500))
            socket.close()
        self.assertEqual(result_text(self.kc, "1 + 1"), "2")


class LifecycleTests(unittest.TestCase):
    def test_restart_gives_a_fresh_session(self) -> None:
        km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT)
        try:
            run(kc, "before_restart = 1")
            km.restart_kernel(now=False)
            kc.wait_for_ready(timeout=TIMEOUT)
            content, _ = run(kc, "before_restart")
            self.assertEqual(content["ename"], "UndefVarError")
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)

    def test_shutdown_is_prompt(self) -> None:
        km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT)
        kc.stop_channels()
        started = time.monotonic()
        km.shutdown_kernel(now=False)
        self.assertLess(time.monotonic() - started, 2.0)
        self.assertFalse(km.is_alive())

    def test_shutdown_during_a_running_cell(self) -> None:
        km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT)
        kc.execute("while true end")
        time.sleep(0.2)
        kc.stop_channels()
        started = time.monotonic()
        km.shutdown_kernel(now=False)
        self.assertLess(time.monotonic() - started, 3.0)
        self.assertFalse(km.is_alive())


if __name__ == "__main__":
    unittest.main()
