#!/usr/bin/env bash
# Keeps a fuzz target's corpus with the repository, so that fuzzing on any machine continues
# where the last run stopped instead of starting from nothing.
#
#   fuzz/corpus.sh restore <target>           # fuzz/seed-corpus/<target>.tar.gz -> fuzz/corpus/<target>
#   fuzz/corpus.sh save <target> <binary>     # fuzz/corpus/<target>, minimized -> the archive
#
# `save` keeps the inputs that together reach every edge the corpus reaches (libFuzzer's
# `-merge=1`, run by the target's binary as `cargo fuzz build` makes it), with the times the
# fuzzer added them, which `fuzz/own_coverage.py` reads to replay the corpus as it grew.
# The `grammar` and `tiers` targets read the same inputs.
set -euo pipefail
cd "$(dirname "$0")"
action=${1:?restore or save}
target=${2:?a fuzz target}
archive="seed-corpus/$target.tar.gz"
corpus="corpus/$target"

case "$action" in
restore)
    mkdir -p "$corpus"
    tar -xzf "$archive" -C "$corpus"
    echo "$(find "$corpus" -type f | wc -l) inputs in fuzz/$corpus"
    ;;
save)
    binary=$(realpath "${3:?the fuzz binary of the target}")
    kept=$(mktemp -d)
    trap 'rm -rf "$kept"' EXIT
    "$binary" -merge=1 -detect_leaks=0 -rss_limit_mb=4096 "$kept" "$corpus" 2>/dev/null
    # The merge names inputs by their contents, as the fuzzer did: give each its first time.
    for input in "$kept"/*; do
        touch -r "$corpus/$(basename "$input")" "$input"
    done
    mkdir -p seed-corpus
    tar --sort=name --owner=0 --group=0 --numeric-owner -czf "$archive" -C "$kept" .
    echo "$(find "$kept" -type f | wc -l) of $(find "$corpus" -type f | wc -l) inputs kept in fuzz/$archive"
    ;;
*)
    echo "usage: fuzz/corpus.sh restore <target> | save <target> <binary>" >&2
    exit 2
    ;;
esac
