#!/usr/bin/env python3
"""How much of difflab's own code a fuzzing corpus reaches, as the corpus grew.

libFuzzer's `cov:` counts every instrumented edge, those of the dependencies too, and the
native code generator behind the compile tier is a large one: each new shape of generated
program that reaches machine code exercises more of its instruction selection, so the total
can keep rising when difflab's own code yields nothing new. This script separates the
two. It replays the corpus inputs found up to each cut-off time (a file's
modification time is when the fuzzer added it) through a fuzz binary with `-runs=0
-print_coverage=1`, and sums the covered edges of functions whose source lies in the
repository's `lib/` against those of everything else.

    python3 fuzz/own_coverage.py fuzz/target/x86_64-unknown-linux-gnu/release/grammar \\
        fuzz/corpus/grammar --cut "2026-11-29 08:00" --cut "2026-11-29 16:00"

Each cut prints the number of inputs replayed, then difflab's covered edges and the
dependencies' (the native code generator's separately). With no `--cut`, the whole corpus.
Replaying 20 000 inputs takes a few minutes per cut on one core.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys
import tempfile

FUNCTION = re.compile(r"^(?:UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) .* (\S+):\d+$")
CODE_GENERATOR = ("cranelift", "regalloc2", "wasmtime")


def covered_edges(binary, inputs, source_root):
    """Covered edges of (difflab's code, the code generator's, other dependencies')."""
    with tempfile.TemporaryDirectory() as corpus:
        for path in inputs:
            os.symlink(os.path.abspath(path), os.path.join(corpus, os.path.basename(path)))
        run = subprocess.run(
            [binary, "-runs=0", "-print_coverage=1", "-detect_leaks=0", corpus],
            capture_output=True,
            text=True,
            check=False,
        )
    own = generator = other = 0
    for line in run.stderr.splitlines() + run.stdout.splitlines():
        match = FUNCTION.match(line.strip())
        if not match:
            continue
        edges, path = int(match.group(1)), match.group(3)
        if path.startswith(source_root):
            own += edges
        elif any(name in path for name in CODE_GENERATOR):
            generator += edges
        else:
            other += edges
    if own == 0:
        sys.exit(f"no coverage of {source_root} reported; the fuzzer said:\n{run.stderr[-2000:]}")
    return own, generator, other


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", help="a fuzz target built by `cargo fuzz build`")
    parser.add_argument("corpus", help="the corpus directory the fuzzer grew")
    parser.add_argument(
        "--cut",
        action="append",
        default=[],
        help='replay inputs added up to this local time ("YYYY-MM-DD HH:MM"); repeatable',
    )
    parser.add_argument(
        "--source-root",
        help="source paths counted as difflab's (default: the lib/ beside this script)",
    )
    args = parser.parse_args()
    source_root = args.source_root or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"
    )
    files = [os.path.join(args.corpus, name) for name in os.listdir(args.corpus)]
    files = [(os.path.getmtime(path), path) for path in files if os.path.isfile(path)]
    cuts = [datetime.datetime.strptime(c, "%Y-%m-%d %H:%M").timestamp() for c in args.cut]
    print("cut-off\tinputs\tdifflab edges\tcode generator edges\tother dependencies' edges")
    for label, cut in list(zip(args.cut, cuts)) + ([("all", float("inf"))] if not cuts else []):
        inputs = [path for mtime, path in files if mtime <= cut]
        own, generator, other = covered_edges(args.binary, inputs, source_root)
        print(f"{label}\t{len(inputs)}\t{own}\t{generator}\t{other}", flush=True)


if __name__ == "__main__":
    main()
