#!/usr/bin/env bash
# Perft of the rules core against YaneuraOu (benches/README.md, "Rules core"): start position to
# depth 6 and "matsuri" to depth 4, ours and, where it is built, YaneuraOu's (`go perft N`,
# wall time of the whole process). Run from the project root; about a minute.
set -u -o pipefail
ANCHORS=${ANCHORS:-../anchors}
YO=${YANEURAOU:-$ANCHORS/YaneuraOu/bin/YaneuraOu-material1}
MATSURI='l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1'
cargo build --release --example perft -q || { echo "release build fails"; exit 1; }
for run in "startpos:startpos:6" "matsuri:sfen $MATSURI:4"; do
  name=${run%%:*}; rest=${run#*:}; pos=${rest%:*}; depth=${rest##*:}
  if [ "$pos" = startpos ]; then arg=startpos; else arg=${pos#sfen }; fi
  echo "$name $depth, Tsumugi: $(target/release/examples/perft "$arg" "$depth")"
  if [ -x "$YO" ]; then
    t0=$(date +%s.%N)
    printf 'usi\nisready\nposition %s\ngo perft %s\nquit\n' "$pos" "$depth" | "$YO" > /dev/null 2>&1
    echo "$name $depth, YaneuraOu: $(echo "$(date +%s.%N) - $t0" | bc) s (process wall time)"
  fi
done
