#!/usr/bin/env bash
# Seed 000, soppo pruning (benches/README.md, "Seeds"):
#   benches/scripts/soppo.sh nodes   nodes to depth 8 over the first 200 positions of
#                                    midgame_positions.sfen, soppo off (0), SS-Cut (1), DS-Cut (2)
#   benches/scripts/soppo.sh match   40 self-play games, DS-Cut against off, 50 ms a move, root
#                                    oracle off on both sides (the history's openings, --shuffle 5)
# Run from the project root; a few minutes each.
set -u -o pipefail
SHARED=${SHARED:-../shared}
cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
case ${1:-} in
  nodes)
    for mode in 0 1 2; do
      echo "soppo_mode=$mode: $(target/release/tsumugi bench --positions "$SHARED/problems/midgame_positions.sfen" \
        --limit 200 --depth 8 --set soppo_mode=$mode 2>&1 | grep -i 'bench')"
    done ;;
  match)
    target/release/tsumugi match --games 40 --shuffle 5 --a soppo_mode=2 --b soppo_mode=0 \
      --a oracle_root_ms=0 --b oracle_root_ms=0 --movetime-ms 50 ;;
  *) sed -n '2,7p' "$0"; exit 2 ;;
esac
