"""The difflab kernel against `jupyter_kernel_test`, the Jupyter protocol conformance suite.

Every attribute the suite supports is filled in, including `display_data` with `text/plain`,
`image/svg+xml` and `image/png` (a spy plot shown with `display`).

Run with `tests/kernel/run`, or directly: `python -m unittest tests/kernel/test_conformance.py`
with jupyter_kernel_test installed and the kernel built.
"""

from __future__ import annotations

import unittest

import jupyter_kernel_test

from kernel_support import KERNEL_NAME, install_kernelspec


def setUpModule() -> None:
    install_kernelspec()


class DifflabKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = KERNEL_NAME
    language_name = "difflab"
    file_extension = ".dl"

    code_hello_world = 'println("hello, world")'
    code_stderr = 'println(stderr, "oops")'

    completion_samples = [
        {"text": "prin", "matches": {"println", "print"}},
        {"text": "sq", "matches": {"sqrt"}},
        {"text": "x = 1; whi", "matches": {"while"}},
    ]

    complete_code_samples = ["1", "x = 1", "f(x) = x * 2", "function f(x)\n    x\nend", "?sin"]
    incomplete_code_samples = ["function f(x)", "[1, 2,", "for i in 1:3", '"abc']
    invalid_code_samples = ["x = )", "1 +* ) ("]

    code_page_something = "?sin"

    code_generate_error = 'error("boom")'

    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "6 * 7", "result": "42", "mime": "text/plain"},
        {"code": "[1, 2]", "result": "2-element Vector{Int64}:\n 1\n 2"},
    ]

    code_display_data = [
        {"code": "display([1, 2])", "mime": "text/plain"},
        {"code": "display(spy([1.0 0; 0 1]))", "mime": "image/svg+xml"},
        {"code": "display(plot(1:3, [1, 4, 9]))", "mime": "image/png"},
    ]

    code_history_pattern = "6 ?*"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "sin"

    code_clear_output = "clear_output()"


class DifflabIopubWelcomeTests(jupyter_kernel_test.IopubWelcomeTests):
    kernel_name = KERNEL_NAME
    support_iopub_welcome = True


if __name__ == "__main__":
    unittest.main()
