#!/usr/bin/env bash
# A match against YaneuraOu-material (benches/README.md, "Playing engine"), as the history's
# matches were played: one thread each, our root oracle off, YaneuraOu without a book, both
# network delays 0, USI_Hash 64, the visible openings of engine_opening_positions.sfen shuffled.
#   benches/scripts/engine-vs-yaneuraou.sh LEVEL MOVETIME_MS GAMES SHUFFLE [CONCURRENCY]
# e.g. `9 200 200 51` and `9 200 200 52` (the 400-game sitting), `9 1000 100 53` (1 s).
# CONCURRENCY (default 2) is the games played at a time. EXTRA adds options of ours
# (e.g. EXTRA="--a-weights net3.nnue"). The games are recorded in $OUT (default a temp file).
# Run from the project root.
set -u -o pipefail
[ $# -ge 4 ] || { sed -n '2,9p' "$0"; exit 2; }
LEVEL=$1; MS=$2; GAMES=$3; SEED=$4; CONC=${5:-2}
SHARED=${SHARED:-../shared}
ANCHORS=${ANCHORS:-../anchors}
YO=$ANCHORS/YaneuraOu/bin/YaneuraOu-material$LEVEL
[ -x "$YO" ] || { echo "anchor missing at $YO"; exit 1; }
cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
OUT=${OUT:-$(mktemp --suffix=.rec)}
# shellcheck disable=SC2086
target/release/tsumugi match --games "$GAMES" --shuffle "$SEED" --external "$YO" \
  --external-option Threads=1 --external-option BookFile=no_book --external-option USI_Hash=64 \
  --external-option NetworkDelay=0 --external-option NetworkDelay2=0 \
  --external-option MinimumThinkingTime=100 --movetime-ms "$MS" --hash 64 --concurrency "$CONC" \
  --openings "$SHARED/problems/engine_opening_positions.sfen" --quiet --a oracle_root_ms=0 \
  --record "$OUT" ${EXTRA:-}
echo "games recorded in $OUT"
