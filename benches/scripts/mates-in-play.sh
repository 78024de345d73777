#!/usr/bin/env bash
# Mates in play (issue 89, item 1): the first 200 positions of yaneuraou_mate9.sfen and of
# yaneuraou_mate11.sfen, one move each at `go byoyomi MS` (default 200), judged by cshogi's
# df-pn (../shared/tools/mate_in_play.py): ours at our defaults, ours with `Oracle false`, and
# YaneuraOu-material level 9 when built. The judge mates by checks only, so a `score mate`
# whose line has a quiet move or a spite check shows as `lost` there: each such claim of ours
# is then checked by benches/scripts/mate_claims.py (a proof tree, every defence enumerated by
# cshogi, leaves proven by its df-pn), and shown or not.
#   benches/scripts/mates-in-play.sh [MS]
# OUT (default a temp directory) keeps the verbose outputs. Run from the project root.
set -u -o pipefail
MS=${1:-200}
SHARED=${SHARED:-../shared}
ANCHORS=${ANCHORS:-../anchors}
PY=${PY:-python3}
Y9=$ANCHORS/YaneuraOu/bin/YaneuraOu-material9
cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
BIN=$(pwd)/target/release/tsumugi
OUT=${OUT:-$(mktemp -d)}
for n in 9 11; do grep -v '^#' "$SHARED/problems/yaneuraou_mate$n.sfen" | head -200; done > "$OUT/mates.sfen"
mip() { "$PY" "$SHARED/tools/mate_in_play.py" --byoyomi "$MS" --verbose --engine "$@" "$OUT/mates.sfen"; }
mip "$BIN" --opt USI_Hash=64 > "$OUT/ours.txt" 2>&1
mip "$BIN" --opt USI_Hash=64 --opt Oracle=false > "$OUT/oracle_off.txt" 2>&1
if [ -x "$Y9" ]; then
  mip "$Y9" --opt Threads=1 --opt USI_Hash=64 --opt BookFile=no_book --opt NetworkDelay=0 \
    --opt NetworkDelay2=0 > "$OUT/level9.txt" 2>&1
fi
# The claims' proof trees take the attacker's moves from level 9 where it is built (another
# family's search: it finds the shortest mates our proposals at a fixed node count missed),
# else from ours; the proposer only proposes, cshogi enumerates and proves.
if [ -x "$Y9" ]; then
  PROPOSER=("$Y9" --opt Threads=1 --opt USI_Hash=256 --opt BookFile=no_book --opt NetworkDelay=0
    --opt NetworkDelay2=0 --nodes 2000000)
else
  PROPOSER=("$BIN" --opt USI_Hash=64)
fi
for run in ours oracle_off level9; do
  [ -f "$OUT/$run.txt" ] || continue
  "$PY" benches/scripts/mate_claims.py --engine "${PROPOSER[@]}" "$OUT/$run.txt" "$OUT/mates.sfen" \
    > "$OUT/$run.claims" 2>&1
done
echo "ours: $(tail -1 "$OUT/ours.txt")"
echo "  its claims the judge calls lost: $(tail -1 "$OUT/ours.claims")"
echo "Oracle false: $(tail -1 "$OUT/oracle_off.txt")"
echo "  its claims the judge calls lost: $(tail -1 "$OUT/oracle_off.claims")"
if [ -f "$OUT/level9.txt" ]; then
  echo "level 9: $(tail -1 "$OUT/level9.txt")"
  echo "  its claims the judge calls lost: $(tail -1 "$OUT/level9.claims")"
fi
echo "details in $OUT"
