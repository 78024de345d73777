#!/usr/bin/env bash
# The long works at `go mate` 20 s, one thread, 1 GB, ours and shtsume's (benches/README.md,
# "Long works"): the 14 problems of long_famous.sfen with 寿 and 無銭旅行 from long_on_time.sfen,
# through usi_mate_batch.py, every line checked by verify_mates.py. A mate counts when it is
# verified and came within 20 s + 200 ms. The first check of
# ../shared/acceptance/solver-long.sh, alone. Run from the project root; about 11 minutes.
set -u -o pipefail
SHARED=${SHARED:-../shared}
ANCHORS=${ANCHORS:-../anchors}
PY=${PY:-python3}
SH=${SHTSUME:-$ANCHORS/shtsume/bin/shtsume}
[ -x "$SH" ] || { echo "shtsume not found at $SH (build it outside the repository, or set SHTSUME)"; exit 1; }
cargo build --release -p tsumugi-solver -q || { echo "release build fails"; exit 1; }
BIN=$(pwd)/target/release/tsumugi-mate
P=$SHARED/problems
T=$(mktemp -d)
{ grep -v '^#' "$P/long_famous.sfen"; grep -E ' # (zukou-100|shtsume-無銭旅行) ' "$P/long_on_time.sfen"; } > "$T/long.sfen"
batch() { "$PY" "$SHARED/tools/usi_mate_batch.py" --engine "$1" --hash 1024 --time-ms 20000 "$T/long.sfen" --out "$T/long.$2" "${@:3}" 2>"$T/long.$2.log"; }
batch "$SH" sh
batch "$BIN" us --opt Threads=1
for w in sh us; do
  "$PY" "$SHARED/tools/verify_mates.py" --rules tsume "$T/long.sfen" "$T/long.$w" > "$T/long.$w.verify" 2>&1
  wrong=$(grep -v ' passed, ' "$T/long.$w.verify" | grep -v 'longer than the known' | cut -d: -f1)
  mates=$(awk '$1 != "total:" && $2 == "mate" { for (i = 3; i <= NF; i++) if ($i ~ /^ms=/) { split($i, a, "="); if (a[2] <= 20200) print $1 } }' "$T/long.$w.log" \
    | grep -vxF -f <(printf '%s\n' "$wrong") | sort)
  echo "$w: $(printf '%s\n' "$mates" | grep -c .) of $(grep -vc '^#' "$T/long.sfen") proven within 20.2 s:" $mates
  echo "$w: not verified:" $wrong
done
echo "details in $T"
