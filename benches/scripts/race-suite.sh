#!/usr/bin/env bash
# The race suite (benches/README.md, "Playing engine"): our engine (root oracle off) plays each
# position of benches/race_suite.tsv, YaneuraOu-material level 9 at 200,000 nodes judges the
# moves (scripts/README.md, "The race suite").
#   benches/scripts/race-suite.sh [MOVETIME_MS]    (default 200)
# Run from the project root.
set -u -o pipefail
ANCHORS=${ANCHORS:-../anchors}
J=$ANCHORS/YaneuraOu/bin/YaneuraOu-material9
[ -x "$J" ] || { echo "anchor missing at $J"; exit 1; }
cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
python3 scripts/judge_suite.py race-score --suite benches/race_suite.tsv --judge "$J" \
  --judge-nodes 200000 --engine target/release/tsumugi --set oracle_root_ms=0 --movetime "${1:-200}"
