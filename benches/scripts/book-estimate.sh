#!/usr/bin/env bash
# Seed 004, opening books (benches/README.md, "Seeds"): two books (taya36 from たややん互角局面集's
# `startpos moves` lines, think grown by our search), their pseudo-match with the estimated
# score, then the real score in 200 games.
#   benches/scripts/book-estimate.sh TAYA36_SFEN RECORDS
# TAYA36_SFEN: taya36.sfen (TakumaNakao/shogi_rust @36582c99; not committed, no licence file).
# RECORDS: recorded games with results for the logistic fit (the history used the 200 games of
# issue 14's threads match, `match --record`). Books and figures go to $OUT (default a temp
# folder). Run from the project root.
set -u -o pipefail
[ $# -ge 2 ] || { sed -n '2,9p' "$0"; exit 2; }
TAYA=$1; RECORDS=$2
OUT=${OUT:-$(mktemp -d)}
cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
B=target/release/tsumugi
$B book build "$TAYA" -o "$OUT/taya36.db"
$B book think -o "$OUT/think.db" --leaves 1500 --nodes 100000 --max-ply 24
$B book versus "$OUT/taya36.db" "$OUT/think.db" --eval-nodes 20000 --fit "$RECORDS" --svg "$OUT"
$B match --games 200 --openings startpos --a-book "$OUT/taya36.db" --b-book "$OUT/think.db" \
  --movetime-ms 50 --hash 64
echo "books and figures in $OUT"
