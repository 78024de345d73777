#!/usr/bin/env bash
# nps at a number of threads (benches/README.md, "Threads"): the first four of every 50th
# position of midgame_positions.sfen, `go movetime 2000`, USI_Hash 256, a fresh process each.
#   benches/scripts/engine-nps.sh THREADS [NAME=VALUE...]
# NAME=VALUE are USI options (e.g. Oracle=false); ENGINE names another engine than ours (the
# history's table: 1, 4 and 16 threads on a 16-core machine, ours and YaneuraOu-material level 1
# with BookFile=no_book). Run from the project root.
set -u -o pipefail
[ $# -ge 1 ] || { sed -n '2,7p' "$0"; exit 2; }
THREADS=$1; shift
SHARED=${SHARED:-../shared}
if [ -z "${ENGINE:-}" ]; then
  cargo build --release -p tsumugi-engine -q || { echo "release build fails"; exit 1; }
  ENGINE=target/release/tsumugi
fi
opts=$(printf 'setoption name Threads value %s\nsetoption name USI_Hash value 256\nsetoption name NetworkDelay value 0' "$THREADS")
for o in "$@"; do opts=$(printf '%s\nsetoption name %s value %s' "$opts" "${o%%=*}" "${o#*=}"); done
n=0
while IFS= read -r sfen; do
  n=$((n + 1))
  nps=$( (printf 'usi\n%s\nisready\nusinewgame\nposition sfen %s\ngo movetime 2000\n' "$opts" "$sfen"; sleep 3; printf 'quit\n') \
    | timeout 10 "$ENGINE" 2>/dev/null | grep -o ' nps [0-9]*' | tail -1 | awk '{print $2}')
  echo "position $n, $THREADS threads: nps ${nps:-?}"
done < <(grep -v '^#' "$SHARED/problems/midgame_positions.sfen" | cut -d'#' -f1 | sed 's/ *$//' | awk 'NR % 50 == 1' | head -4)
