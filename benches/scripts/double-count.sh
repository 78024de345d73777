#!/usr/bin/env bash
# Seed 001, double counting (benches/README.md, "Seeds"): the 100 将棋図巧, first mate only,
# 3 M nodes a problem, 512 MB, with each `--double-count` mode; prints each run's summary (mates
# found, nodes). Run from the project root; about 10 minutes.
set -u -o pipefail
cargo build --release -p tsumugi-solver -q || { echo "release build fails"; exit 1; }
for mode in off simple snda; do
  echo "== --double-count $mode"
  target/release/tsumugi-mate solve problems/edo_zukou.sfen --any-mate --nodes 3000000 --time-ms 0 \
    --hash 512 --double-count "$mode" --quiet 2>&1 | tail -n 3
done
