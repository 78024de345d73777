#!/usr/bin/env bash
# Seed 002 judged in turns (benches/README.md, "Seeds"): multi-candidate ponder (5 replies) as A
# against classic ponder as B, 400 games with node budgets, the players taking turns on the
# machine, root oracle off.
#   benches/scripts/ponder-turns.sh THREADS [--hits-continue]
# THREADS k gives each side k threads and 4,000 k nodes a move. Run from the project root.
set -u -o pipefail
[ $# -ge 1 ] || { sed -n '2,6p' "$0"; exit 2; }
K=$1; shift
cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
target/release/tsumugi match --games 400 --turns --nodes $((4000 * K)) --a-threads "$K" \
  --b-threads "$K" --a-ponder 5 --b-ponder 1 --a oracle_root_ms=0 --b oracle_root_ms=0 \
  --shuffle 13 "$@"
