#!/usr/bin/env bash
# Single-file builds of the solvers for online judges (Baekjoon, Codeforces, AtCoder):
#
#   scripts/bundle.sh boj15671        writes target/bundle/boj15671.rs
#   scripts/bundle.sh --all           bundles every solver and prints a table of sizes
#
# Each file compiles on its own with `rustc --edition 2021 -O`, no Cargo, no external
# crates (rustc 1.70 or newer). Works from any directory.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -eq 0 ]; then
    echo "usage: $0 <problem>... | --all" >&2
    exit 2
fi
exec cargo run --quiet --release --manifest-path "$root/Cargo.toml" -p bundler -- "$@"
