#!/usr/bin/env python3
"""Ratios difflab / peer from the JSON lines of difflab's benchmarks and of peers.py.

Usage:  python report.py FILE [FILE ...]      (JSON lines; other lines are skipped)

A line is difflab's when its `peer` starts with "difflab"; every other line is a peer. For each
(task, n) measured by both, prints a Markdown table with one row per difflab measurement and
one column per peer; each cell is difflab's median over the peer's (below 1: difflab is
faster), with the peer's time beside it. Ratios mean something only between measurements taken
within the same few minutes on the same machine.
"""

import json
import sys


def load(paths):
    lines = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            for text in file:
                text = text.strip()
                if not text.startswith("{"):
                    continue
                line = json.loads(text)
                if {"peer", "task", "n"} <= line.keys() and line.get("seconds_median"):
                    lines.append(line)
    return lines


def readable(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def tables(lines):
    """The Markdown tables, one per (task, n) that both sides measured."""
    groups = {}
    for line in lines:
        side = "difflab" if line["peer"].startswith("difflab") else "peer"
        group = groups.setdefault((line["task"], line["n"]), {"difflab": {}, "peer": {}})
        # A later measurement of the same (peer, task, n) replaces an earlier one.
        group[side][line["peer"]] = line["seconds_median"]
    out = []
    for (task, n), group in sorted(groups.items(), key=lambda item: (item[0][0], item[0][1])):
        ours, theirs = group["difflab"], group["peer"]
        if not ours or not theirs:
            continue
        peers = sorted(theirs)
        out.append(f"### {task}, n = {n}\n")
        out.append("| difflab | time | " + " | ".join(f"/ {p} ({readable(theirs[p])})"
                                                      for p in peers) + " |")
        out.append("|---|---|" + "---|" * len(peers))
        for name in sorted(ours):
            cells = " | ".join(f"{ours[name] / theirs[p]:.3g}×" for p in peers)
            out.append(f"| {name} | {readable(ours[name])} | {cells} |")
        out.append("")
    return "\n".join(out)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    text = tables(load(sys.argv[1:]))
    print(text if text else "no (task, n) was measured by both difflab and a peer")


if __name__ == "__main__":
    main()
