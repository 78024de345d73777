#!/usr/bin/env bash
# The race suite (benches/README.md, "Playing engine"): our engine (root oracle off, one thread
# each, two positions at once) plays each position of benches/race_suite.tsv, YaneuraOu-material
# level 9 at 200,000 nodes judges the moves (scripts/README.md, "The race suite").
#   benches/scripts/race-suite.sh [MOVETIME_MS]    (default 200)
#   NODES=400000 benches/scripts/race-suite.sh     (a node budget instead: node for node, the
#                                                   same answer every run, for comparing levers)
# Run from the project root. Extra `--set NAME=VALUE` arguments after the time go to our engine.
set -u -o pipefail
# Absolute: the judge is started from the script's own working folders.
ANCHORS=$(cd "${ANCHORS:-../anchors}" 2>/dev/null && pwd)
J=$ANCHORS/YaneuraOu/bin/YaneuraOu-material9
[ -x "$J" ] || { echo "anchor missing at $J"; exit 1; }
cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
MOVETIME=${1:-200}; shift $(( $# > 0 ? 1 : 0 ))
LIMIT=(--movetime "$MOVETIME")
[ -n "${NODES:-}" ] && LIMIT=(--movetime 0 --nodes "$NODES")
# Threads=1: the engine's default is every core, and two engines of two threads each on two
# cores made the same configuration land anywhere in 7-13 of 22 at 1 s (history 37).
python3 scripts/judge_suite.py race-score --suite benches/race_suite.tsv --judge "$J" \
  --judge-nodes 200000 --engine "$(pwd)/target/release/tsumugi" --set Threads=1 \
  --set oracle_root_ms=0 "${LIMIT[@]}" "$@"
